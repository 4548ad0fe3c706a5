"""Checkers of the certificates that rest on B's registered scale and class level rather than on a bound lemma.

- ``weakest-level``: B's raw ``target`` is at least as weak as B's weakest level on the whole domain (``oo`` for a
  ratio, smaller is stronger; ``<= 1`` for a count, larger is stronger; ``1/N`` on N records for a removal distance,
  compared as P N >= Q with N > 0 proved on the domain). B's registered scale declares that every
  table meets its weakest level (the engine checks every level it computes against it), so the claim holds of every
  table, whatever A: a trivial truth.
- ``one-class``: on a table of one class (the class is the whole table) B's level is its strongest raw value (1 as a
  ratio, 0 as a distance), read from B's registered declaration: a ratio of a class's averages to the table's
  (a class ``RatioLevel``, one- or two-sided), a declared class distance, a declared divergence of each class from
  the table (``Divergence(compares="class")``: KL, Renyi, total variation and the hockey-stick at gamma >= 1 are 0
  between a distribution and itself), or the level of such a definition
  where finite (``FiniteLevelOf``) with a cap on each increase that an increase of 0 meets; and U is at least that
  strongest value on the whole domain (each component of U, a quotient P/Q, with Q > 0 and P - best Q >= 0, decided
  exactly or by the solvers; U = log(V) against a strongest value 0: V's components against 1, log increasing). A one-class table then has B at most U, whatever A.
- the partitions a certificate with a class side is for (:func:`partition_steps`): ``min_classes`` 2 (the
  argument reads another class than the one it bounds), or 1 with a ``one_class`` part, the one-class steps above on
  the certificate's own claim: together every partition into classes, one class included.
"""

from __future__ import annotations

import sympy

__all__ = ["check_weakest_level", "check_one_class", "partition_steps", "one_class_strongest"]


def _report(steps):
    from implgraph.certify.report import steps_report
    return steps_report(steps)


def _components_at_least(text, bound, domain, timeout_ms, larger=False, hypotheses=()):
    """``(ok, how)``: every component P/Q of ``text`` (a Min of quotients, or one quotient) has Q > 0 and P >= bound Q
    (``larger``: P <= bound Q) on the domain. A Min is at least ``bound`` where each component is; a Min is at most
    ``bound`` where one component is, so ``larger`` reads a single component only."""
    from implgraph.certify.solve import prove_nonnegative
    rd = domain.reader
    comps = rd.ratio_components(text)
    if larger and len(comps) != 1:
        return False, f"{text}: a Min compared from above"
    w, w_den = rd.ratio(str(bound))     # a bound in N (1/N) as a quotient: w_den > 0 is proved on the domain
    hows = []
    if not w_den.is_ground:
        ok_w, how_w = prove_nonnegative(w_den, list(hypotheses), domain, True, timeout_ms)
        if not ok_w:
            return False, f"{bound}: its denominator {w_den} > 0: {how_w}"
        hows.append(f"{w_den} > 0: {how_w}")
    for num, den in comps:
        ok_q, how_q = prove_nonnegative(den, list(hypotheses), domain, True, timeout_ms)
        num = num * w_den       # P/Q against w/w_den, Q and w_den > 0: P w_den against w Q
        target = (w * den - num) if larger else (num - w * den)
        ok_p, how_p = prove_nonnegative(target, list(hypotheses), domain, False, timeout_ms)
        if not (ok_q and ok_p):
            return False, f"{num}/{den}: denominator > 0: {how_q}; compared with {bound}: {how_p}"
        hows.append(f"{num}/{den}: {how_p}")
    return True, "; ".join(hows)


def check_weakest_level(cert, ns=None, timeout_ms=4000):
    """Re-check a ``weakest-level`` certificate (see the module notes)."""
    from implgraph.certify import UNREADABLE
    from implgraph.certify.registered import registered_steps
    from implgraph.certify.domain import Domain
    from implgraph.certify.registered import registered
    steps = []
    try:
        steps += registered_steps(cert)
        d = registered((cert.get("B") or {}).get("definition"))
        if d is None:
            return _report(steps + [("B is a registered definition (its scale is read from the registry)", False,
                                     "not registered here")])
        n_sym = sympy.Symbol("N", integer=True, positive=True)     # the certificate's N (a formula in N is read in it)
        weakest = sympy.sympify(d.raw_from_level(d.weakest(n_sym)))
        larger = d.stronger == "larger"
        target = str(cert.get("target"))
        if target == "oo":
            steps.append(("the target oo is at least as weak as B's weakest level", not larger,
                          f"B's scale {d.scale}, {'larger' if larger else 'smaller'} is stronger"))
        elif weakest is sympy.oo:
            steps.append(("the target is at least as weak as B's weakest level oo", False, "a finite target"))
        else:
            ok, how = _components_at_least(target, weakest, Domain(cert), timeout_ms, larger=larger)
            steps.append((f"the target is at least as weak as B's weakest level {d.weakest(n_sym)} on the domain", ok,
                          how))
    except UNREADABLE as exc:
        steps.append(("certificate readable", False, f"{exc.__class__.__name__}: {exc}"))
    return _report(steps)


def one_class_strongest(d, params=None) -> bool:
    """Is ``d``'s level (at ``params``) on a table of one class its strongest raw value, by its declaration (see the
    module notes)?"""
    from implgraph.certify.registered import declared_family, declared_sides
    from implgraph.definitions.capabilities import ClassDistance, FiniteLevelOf
    if d is None or declared_family(d) != "class" or d.level_scale.best_raw is None:
        return False
    if declared_sides(d) in ("one-sided", "two-sided"):
        return True         # a ratio of a class's averages to the table's: 1 when the class is the table
    declared = d.declared(ClassDistance)
    try:
        distance = None if declared is None else declared.at({k: str(v) for k, v in (params or {}).items()}, d.words)
    except Exception:       # a declaration that needs other parameters: not read here
        distance = None
    if distance is not None:
        return True         # a distance between a class's distribution and the table's: 0 when they are one
    from implgraph.definitions.divergences import divergence_of
    div = divergence_of(d, params)
    if div is not None and div.compares == "class":
        return True         # a divergence of a class's distribution from the table's: 0 when they are one
    finite = d.declared(FiniteLevelOf)
    if finite is not None and finite.increase_cap == "-log(p)":
        # where finite, the level of ``finite.name``; finite when each increase q/p - 1 over a value's table share p
        # is at most -ln p >= 0, which an increase of 0 (the class is the table) meets
        from implgraph.certify.registered import registered
        return one_class_strongest(registered(finite.name))
    return False


def check_one_class(cert, ns=None, timeout_ms=4000):
    """Re-check a ``one-class`` certificate (see the module notes)."""
    from implgraph.certify import UNREADABLE
    from implgraph.certify.registered import registered_steps
    steps = []
    try:
        steps += registered_steps(cert)
        steps.append(("the certificate is for tables of one class", cert.get("min_classes") == 1
                      and cert.get("max_classes") == 1, "exact"))
        steps += _one_class_steps(cert, timeout_ms)
    except UNREADABLE as exc:
        steps.append(("certificate readable", False, f"{exc.__class__.__name__}: {exc}"))
    return _report(steps)


def _one_class_steps(cert, timeout_ms):
    """The steps of a table of one class: B's registered level there is its strongest, and the certificate's U is at
    least that on its domain (where A's registered level is a class's size, T <= N: no table satisfies A beyond)."""
    from implgraph.certify.domain import Domain
    from implgraph.certify.registered import registered
    from implgraph.definitions.capabilities import ClassSizeLevel
    d = registered((cert.get("B") or {}).get("definition"))
    steps = [("on a table of one class B's registered level is its strongest (a class ratio or distance from the "
              "table, the class being the table)", one_class_strongest(d, (cert.get("B") or {}).get("params")),
              "the registry" if d is not None else "B not registered here")]
    if d is None:
        return steps
    best = d.level_scale.best_raw
    domain = Domain(cert)
    a = registered((cert.get("A") or {}).get("definition"))
    size = a is not None and a.has(ClassSizeLevel) and (cert.get("A") or {}).get("class_size_level")
    hyps = [(">=", domain.reader.poly("N - T"))] if size else []
    text, bound = _unlogged(str(cert.get("upper")), sympy.Rational(best.numerator, best.denominator))
    from implgraph.certify.expr import NotPolynomial
    try:
        ok, how = _components_at_least(text, bound, domain, timeout_ms, hypotheses=hyps)
    except NotPolynomial:      # (a composed bound: Min, square roots, exp, log, read by its form)
        if hyps:
            raise
        ok, how = _at_least_by_cases(text, bound, domain, timeout_ms)
    steps.append((f"on a table of one class U is at least B's strongest raw level {best} on the domain"
                  + (" (T <= N: A's level is a class's size)" if size else ""), ok, how))
    return steps


def _at_least_by_cases(text, bound, domain, timeout_ms):
    """``(ok, how)``: U (a composed bound) >= ``bound`` on the domain, by its form
    (:func:`implgraph.certify.lemmas.composition.at_least`); where that fails and U holds a Min inside (not at its top,
    e.g. 1 - 1/Min(N, T)), by cases: at every point the Min is one of its arguments, so U >= bound where U with the
    Min replaced by each argument in turn is >= bound on the whole domain."""
    import sympy
    from implgraph.certify.expr import read_sympy
    from implgraph.certify.lemmas.composition import at_least
    ok, how = at_least(text, bound, domain, timeout_ms)
    if ok:
        return ok, how
    e = read_sympy(str(text), {name: sympy.Symbol(name) for name in [*domain.kinds, "T"]})
    inner = sorted((m for m in e.atoms(sympy.Min) if m != e), key=sympy.default_sort_key)
    if not inner:
        return ok, how
    m = inner[0]
    found = [at_least(e.xreplace({m: x}), bound, domain, timeout_ms) for x in m.args]
    if not all(good for good, _ in found):
        return ok, how
    return True, f"by cases on {m} (it is one of its arguments at every point): " + "; ".join(h for _, h in found)


def _unlogged(text, best):
    """``(text, bound)`` to compare: U = log(V) against a strongest level 0 is V against 1 (log is increasing, and
    V >= 1 > 0); anything else as it is."""
    from implgraph.core.errors import InputError
    from implgraph.core.formula import parse_expr
    names = {"N": sympy.Symbol("N", integer=True, positive=True), "T": sympy.Symbol("T", positive=True)}
    try:
        upper = parse_expr(text, names)
    except InputError:      # (read as it is by the rational reader, which reports what it cannot read)
        return text, best
    if best == 0 and isinstance(upper, sympy.log) and len(upper.args) == 1:
        return str(upper.args[0]), sympy.Integer(1)
    return text, best


def partition_steps(cert, ns=None, timeout_ms=4000) -> list:
    """``[(what, ok, how)]``: the partitions a certificate with a class side is for. An argument about classes reads
    another class than the one it bounds: ``min_classes`` 2 (partitions into >= 2 classes), or 1 with a ``one_class``
    part: the certificate's own claim (sides, domain, U) on a table of one class, re-checked here; an argument of
    a lemma declaring ``every_partition`` (e.g. ``same-level``: B's raw level is A's on every table) is for every
    partition (1). Empty for a certificate without a class side, or one whose lemma reads its classes itself
    (``own_partitions``: the lemma chains, the class-size floor, the methods of this module)."""
    from implgraph.certify.lemmas import get
    lm = get(cert.get("method"))
    if not _class_side(cert) or (lm is not None and lm.own_partitions):
        return []
    mc = cert.get("min_classes")
    if lm is not None and lm.every_partition:
        # (a certificate of such a lemma claiming partitions into >= 2 classes only claims less: it holds too)
        return [(f"for every partition ({lm.every_partition})", mc in (1, 2), f"min_classes {mc!r}")]
    if mc == 2:
        return [("for partitions into >= 2 classes (min_classes 2: the argument reads another class)", True, "exact")]
    if mc != 1 or not cert.get("one_class"):
        return [("a certificate of a class level states its partitions (min_classes 2, or 1 with a one-class part)",
                 False, f"min_classes {mc!r}, one_class {'given' if cert.get('one_class') else 'missing'}")]
    # (every partition: >= 2 classes by the argument, one class by B's class level, for the certificate's own claim)
    return _one_class_steps(cert, timeout_ms)


def _class_side(cert) -> bool:
    """Does either side of the certificate compare classes?"""
    return any((cert.get(k) or {}).get("family") == "class" for k in ("A", "B"))
