"""An independent checker of the prover's certificates.

A certificate (JSON, ``format: implgraph-certificate/1``) says that B's raw level is at most
``upper`` = U(T, N, parameters) on every table whose A raw level is at most T, for every point of
``domain`` (sympy relations over ``symbols``), and, when ``tight``, gives a table family attaining
U. This package re-checks both without importing the prover or the refuter:

- the **upper bound**: the lemma named by ``method`` (:mod:`implgraph.certify.kernel`) turns into
  polynomial obligations over the rationals (:mod:`implgraph.certify.expr`); identities are checked
  exactly, inequalities by nonnegative coefficients after a shift of the variables
  (:mod:`implgraph.certify.positive`, exact and printed) or else by z3 and cvc5
  (:mod:`implgraph.certify.solve`; each step names the solvers' answers), multipliers
  as ``target = sum(lambda_i * fact_i)`` with every ``lambda_i >= 0``;
- the **tightness family**: blocks of equal binary rows ``{"count", "value", "class"}`` (expressions
  in N, T and the parameters), or blocks of records uniform over values of their own ``{"count", "values",
  "class"}`` (``uniform_blocks``: as many buckets as the blocks' values), evaluated at every point of the domain
  with N = 2..12, every integer
  parameter and a grid of levels; the exact levels (:mod:`implgraph.certify.levels`, from the
  definitions, computed on the blocks without expanding them) must give A <= T (A >= T for a level that is
  a class size or a uniform class's number of values, larger is stronger) and B = U;
- an ``inequality-lemmas`` certificate (definitions outside the ratio families, e.g. the l-diversities) is a
  chain of textbook inequalities between class levels, re-checked by :mod:`implgraph.certify.lemma_chain`;
- a ``class-size-floor`` certificate (B's level the smallest class's size, at least A's declared minimum class size:
  a *lower* bound, larger is stronger) is re-checked by :mod:`implgraph.certify.floor`;
- a ``min`` certificate (the smaller of its parts' bounds) and a ``chain`` certificate (A => X with U = T, A's level
  being X's where finite, then X => B) re-check their parts and how they combine; either may claim tightness with a
  family checked with the certificate's own sides. A family may ``split`` each bucket into m equal buckets (an
  expression, e.g. ``3**ceiling(T)``): ratios and distances do not change, and a level with an ``increase_cap``
  (enhanced beta-likeness: each increase q/p - 1 at most -ln p) reads the smaller masses, decided exactly.

Examples
--------
>>> cert = {"format": "implgraph-certificate/1", "method": "same-level",
...         "symbols": {"N": "integer", "T": "real"}, "domain": ["N >= 2", "T >= 1"],
...         "A": {"family": "pairwise", "sides": "two-sided"}, "B": {"family": "pairwise", "sides": "two-sided"},
...         "upper": "T", "tight": True,
...         "tightness": {"blocks": [{"count": "1", "value": "1/(T + 1)"},
...                                  {"count": "N - 1", "value": "T/(T + 1)"}]}}
>>> check_certificate(cert, ns=range(2, 5)).ok
True
"""

from __future__ import annotations

import json
from fractions import Fraction

from implgraph.certify.domain import Domain
from implgraph.certify.expr import Unreadable, read_sympy
from implgraph.certify.kernel import obligations, registered, structural_checks
from implgraph.certify.report import CertificateReport
from implgraph.certify.levels import INF, blocks_table, larger_is_stronger, level, uniform_table
from implgraph.certify.size import MAX_OBLIGATIONS, MAX_SECONDS, size_fault
from implgraph.certify.solve import discharge

__all__ = ["check_certificate", "certificates_in", "recheck_row", "within_budget", "CertificateReport", "FORMAT",
           "MAX_SECONDS"]

FORMAT = "implgraph-certificate/1"
#: what a certificate the checker cannot read raises
UNREADABLE = (Unreadable, KeyError, TypeError, ValueError, AttributeError, SyntaxError, ZeroDivisionError)
#: the methods :mod:`implgraph.certify.partitions` checks (B's registered scale, a table of one class)
PARTITION_METHODS = ("weakest-level", "one-class")
#: the kernel's lemmas that hold on every table whatever its classes (B's raw level is A's): ``min_classes`` 1
EVERY_TABLE_METHODS = ("same-level",)


def _check_family(cert, domain, ns):
    """``(ok, how)``: the tightness family at every sampled point of the domain (and of the family's own ``domain``,
    the levels where it exists: the checker's obligation is then only there, and its answer says so)."""
    fam = cert.get("tightness") or {}
    if fam.get("domain"):
        unknown = _unlicensed_conditions(cert, fam["domain"])
        if unknown:
            return False, (f"the family's own domain {', '.join(unknown)} is not a condition the registry gives for "
                           "A's family (where a uniform class meets T) or two classes of A's size")
        domain = Domain({**cert, "domain": [*cert.get("domain", []), *fam["domain"]]})
    uniform = bool(fam.get("uniform_blocks")) and not fam.get("blocks")
    blocks, field_ = (fam.get("uniform_blocks"), "values") if uniform else (fam.get("blocks"), "value")
    if not blocks:
        return False, "no table family given"
    rd = domain.reader
    upper = rd.function(cert["upper"])
    parsed = [(rd.function(b["count"]), rd.function(b[field_]), b.get("class")) for b in blocks]
    texts = [cert["upper"], *(b[k] for b in blocks for k in ("count", field_))]
    # each bucket split into m equal buckets (a number at each point; ratios and distances do not change)
    split = rd.function(str(fam["split"])) if fam.get("split") is not None else None
    texts += [str(fam["split"])] if split is not None else []
    sides = [_effective(cert["A"]), _effective(cert["B"])]
    sizes = []
    for d in (cert["A"], cert["B"]):
        sizes.append(None if d.get("size") is None else rd.function(d["size"]))
        texts += [d["size"]] if d.get("size") is not None else []
    # the classes' sizes the sides allow (a class side: at least min_class, at most max_class records)
    class_limits = [(rd.function(str(d.get("min_class", "1"))),
                     None if d.get("max_class") is None else rd.function(str(d["max_class"])))
                    for d in (cert["A"], cert["B"]) if d.get("family") == "class"]
    texts += [str(d[k]) for d in (cert["A"], cert["B"]) if d.get("family") == "class"
              for k in ("min_class", "max_class") if d.get(k) is not None]
    # the check at a point depends only on these names: points differing elsewhere are one check
    used = sorted(frozenset({"N", "T"}).union(*(rd.names_in(t) for t in texts)))
    # each side's level is memoised by its whole description (any field may change it)
    described_a, described_b = (json.dumps(cert[k], sort_keys=True, default=str) for k in ("A", "B"))
    # a class size, or a uniform class's level increasing in its number of values: larger is stronger
    larger = larger_is_stronger(cert["A"])
    checked, seen, done = 0, {}, set()
    for env in domain.points(ns):
        where = tuple(env[n] for n in used)
        if where in done:
            continue
        done.add(where)
        try:
            evald = []
            for count, value, label in parsed:
                c = count(env)
                if c.denominator != 1:
                    raise ValueError(f"block size {c} is not an integer")
                evald.append((int(c), None if c == 0 else value(env), label))
            table = uniform_table(evald) if uniform else blocks_table(evald, singleton_classes=bool(
                fam.get("singleton_classes")))
            ja, jb = (None if s is None else s(env) for s in sizes)
            if any(j is not None and j.denominator != 1 for j in (ja, jb)):
                raise ValueError(f"a subset size ({ja}, {jb}) is not an integer")
        except (ValueError, ZeroDivisionError, TypeError) as exc:
            return False, f"the family is not a table at {_pt(env)}: {exc}"
        if sum(c for c, _, _ in table) != env["N"]:
            return False, f"the family has {sum(c for c, _, _ in table)} rows, not N, at {_pt(env)}"
        bad = _partition_fault(table, class_limits, env)
        if bad:
            return False, f"{bad} at {_pt(env)}"
        try:
            m = 1 if split is None else split(env)
            if Fraction(m).denominator != 1 or m < 1:
                raise ValueError(f"split {m} is not a positive integer")
        except (ValueError, ZeroDivisionError, TypeError) as exc:
            return False, f"the family is not a table at {_pt(env)}: {exc}"
        key = tuple(evald)
        a, b = (_memo(seen, (described, j, uniform, key, m), lambda: level(side, table, j, split=int(m)))
                for side, described, j in ((sides[0], described_a, ja), (sides[1], described_b, jb)))
        t, u = env["T"], upper(env)
        if larger:      # A holds at T where its level is >= T
            if a < t:
                return False, f"A's level {a} is below T = {t} at {_pt(env)}"
        elif a == INF or a > t:
            return False, f"A's level {a} exceeds T = {t} at {_pt(env)}"
        if b != u:
            return False, f"B's level {b} differs from U = {u} at {_pt(env)}"
        checked += 1
    if not checked:
        return False, "no point of the domain was sampled"
    where = f", where {' and '.join(fam['domain'])}" if fam.get("domain") else ""
    return True, (f"A {'>=' if larger else '<='} T and B = U exactly at {checked} points (N = {min(ns)}..{max(ns)}, "
                  f"levels {', '.join(map(str, domain.t_grid))}{where})")


def _effective(side):
    """A side whose level is another definition's where a cap on each increase holds (``finite_level_of`` with
    ``increase_cap``): described by that definition's registered family and sides, with the cap (the checker's
    level then applies both, :mod:`implgraph.certify.levels`); any other side as it is."""
    if side.get("increase_cap") is None:
        return side
    d = registered(side.get("finite_level_of"))
    if d is None:
        raise ValueError(f"a capped level of {side.get('finite_level_of')!r}, which is not registered here")
    return {**side, "family": d.family, "sides": getattr(d, "sides", None)}


def _unlicensed_conditions(cert, conditions) -> list:
    """The conditions of a family's own ``domain`` that neither the registry nor the partition licenses: only where
    A's registered uniform class level meets T (:func:`implgraph.definitions.class_bounds.uniform_values`) and, for
    A's smallest class s > 1, ``2 s <= N`` (two classes of >= s records) may restrict where the family is checked;
    anything else would let a certificate hide the levels where its tightness fails."""
    import sympy
    from implgraph.definitions.class_bounds import uniform_values
    A = cert.get("A") or {}
    names = {"N": sympy.Symbol("N", integer=True), "T": sympy.Symbol("T", positive=True)}
    for name, kind in (cert.get("symbols") or {}).items():
        names.setdefault(name, sympy.Symbol(name, integer=kind == "integer", real=True))

    def read(text):
        return read_sympy(text, {str(k): v for k, v in names.items()})
    allowed = []
    d = registered(A.get("definition")) if A.get("uniform_class_level") else None
    found = uniform_values(d, names["T"]) if d is not None else None
    if found is not None and found[1] is not sympy.true:
        allowed += list(found[1].args) if isinstance(found[1], sympy.And) else [found[1]]
    s_ = A.get("min_class")
    if s_ is not None and str(s_) != "1":
        allowed.append(read(f"2*({s_}) <= N"))
    out = []
    for c in conditions:
        try:
            rel = read(c)
        except (Unreadable, TypeError, SyntaxError):
            out.append(str(c))
            continue
        if not any(rel == a or sympy.simplify(rel.lhs - rel.rhs - (a.lhs - a.rhs)) == 0 and rel.rel_op == a.rel_op
                   for a in allowed if isinstance(a, sympy.core.relational.Relational)
                   and isinstance(rel, sympy.core.relational.Relational)):
            out.append(str(c))
    return out


def _partition_fault(table, class_limits, env):
    """Why the family's classes are not a partition the sides allow (>= 2 classes, each within every class
    side's size limits), or ''."""
    if not class_limits:
        return ""
    sizes = {}
    for count, _, label in table:
        sizes[label] = sizes.get(label, 0) + count
    if len(sizes) < 2:
        return "the family has fewer than 2 classes"
    for lo, hi in class_limits:
        if min(sizes.values()) < lo(env) or (hi is not None and max(sizes.values()) > hi(env)):
            return f"the family's class sizes {sorted(sizes.values())} are outside a side's limits"
    return ""


def _memo(cache, key, compute):
    if key not in cache:
        cache[key] = compute()
    return cache[key]


def _pt(env):
    return ", ".join(f"{k} = {v}" for k, v in sorted(env.items()))


def check_certificate(cert, ns=range(2, 13), timeout_ms=4000, budget=MAX_SECONDS) -> CertificateReport:
    """Re-check a certificate; see the module notes.

    Parameters
    ----------
    cert : dict
        The JSON certificate.
    ns : range
        The N at which the tightness family is evaluated.
    timeout_ms : int
        Per solver query, when one is needed (a timeout is no proof: the step fails).
    budget : float or None
        Seconds the whole re-check may take (:data:`implgraph.certify.size.MAX_SECONDS` unless given): past it the
        certificate is not accepted ("time budget exceeded"), whatever its steps had shown; 0 (or less) accepts
        nothing. None: no budget of its own (a part of a certificate, re-checked within its whole's budget).

    Returns
    -------
    CertificateReport
    """
    if budget is None:
        return _with_partitions(cert, ns, timeout_ms)
    return within_budget(lambda: _with_partitions(cert, ns, timeout_ms), budget)


def _with_partitions(cert, ns, timeout_ms) -> CertificateReport:
    """:func:`_check`, and the partitions a certificate with a class side is for
    (:func:`implgraph.certify.partitions.partition_steps`), read only once the certificate's size is accepted."""
    rep = _check(cert, ns, timeout_ms)
    if not isinstance(cert, dict) or size_fault(cert):
        return rep
    from implgraph.certify.partitions import partition_steps
    try:
        extra = partition_steps(cert, ns, timeout_ms)
    except UNREADABLE as exc:
        extra = [("partitions readable", False, f"{exc.__class__.__name__}: {exc}")]
    if not extra:
        return rep
    return CertificateReport(rep.ok and all(s[1] for s in extra), extra + rep.steps)


def within_budget(run, budget) -> CertificateReport:
    """``run()`` (a :class:`CertificateReport`) within ``budget`` seconds, else a report "not accepted: time budget
    exceeded". A deadline (:func:`implgraph.core.deadline.deadline`) interrupts the re-check when the budget passes;
    where no timer can be armed (off the main thread), the time taken is compared with the budget afterwards. A
    deadline of an enclosing block that passes first is that block's: it is raised on."""
    import time
    from implgraph.core.deadline import Timeout, as_timeout, deadline
    if not budget > 0:
        return _over_budget(budget)
    start = time.monotonic()
    try:
        with deadline(budget):
            rep = run()
    except BaseException as exc:
        timeout = as_timeout(exc)
        if timeout is None:
            raise
        if time.monotonic() - start < budget:       # an enclosing deadline's, not the budget's
            raise timeout from None
        return _over_budget(budget)
    if time.monotonic() - start > budget:
        return _over_budget(budget)
    return rep


def _over_budget(budget) -> CertificateReport:
    return CertificateReport(False, [("time budget", False, f"not accepted: time budget exceeded ({budget:g} s)")])


def _check(cert, ns, timeout_ms) -> CertificateReport:
    """The re-check of :func:`check_certificate`, without its time budget."""
    steps = []
    if not isinstance(cert, dict):
        return CertificateReport(False, [("certificate readable", False, f"a {type(cert).__name__}, not a mapping")])
    too_large = size_fault(cert)
    if too_large:       # refused before anything in it is read (implgraph.certify.size)
        return CertificateReport(False, [("certificate size", False, f"too large: {too_large}")])
    if cert.get("format") != FORMAT:
        return CertificateReport(False, [("format", False, f"expected {FORMAT}, got {cert.get('format')!r}")])
    from implgraph.certify.lemmas import LEMMAS      # (a lemma module per claim other than a bound between levels)
    if cert.get("method") in LEMMAS:
        return LEMMAS[cert["method"]](cert, ns, timeout_ms)
    if cert.get("method") == "min":        # the smaller of two or more certificates' bounds
        return _check_min(cert, ns, timeout_ms)
    if cert.get("method") == "chain":      # A's level is another definition's where finite, then its bound
        return _check_chain(cert, ns, timeout_ms)
    if cert.get("method") == "inequality-lemmas":        # a chain of class-level inequalities
        from implgraph.certify import lemma_chain
        return lemma_chain.check(cert)
    if cert.get("method") == "class-size-floor":         # B the smallest class's size, A's minimum class size
        from implgraph.certify import floor
        return floor.check(cert, ns)
    if cert.get("method") in PARTITION_METHODS:      # B's registered scale or one-class level (certify.partitions)
        from implgraph.certify import partitions
        return partitions.CHECKS[cert["method"]](cert, ns, timeout_ms)
    try:
        steps += _registered(cert)
        domain = Domain(cert)
        for what, ok in structural_checks(cert, domain.reader):
            steps.append((what, bool(ok), "exact"))
        obs = obligations(cert, domain.reader)
        if len(obs) > MAX_OBLIGATIONS:
            return CertificateReport(False, [("certificate size", False, f"too large: {len(obs)} obligations "
                                                                         f"(at most {MAX_OBLIGATIONS})")])
        for ob in obs:
            ok, how = discharge(ob, domain, timeout_ms)
            steps.append((ob.name, ok, how))
        if cert.get("tight"):
            ok, how = _check_family(cert, domain, ns)
            where = (cert.get("tightness") or {}).get("domain")
            # (a family checked only on its own domain: the step says where tightness is claimed)
            steps.append(("tightness family attains U" + (f" where {' and '.join(map(str, where))}" if where else ""),
                          ok, how))
    except UNREADABLE as exc:
        steps.append(("certificate readable", False, f"{exc.__class__.__name__}: {exc}"))
    ok = bool(steps) and all(s[1] for s in steps)
    return CertificateReport(ok, steps)


def _class_side(cert) -> bool:
    """Does either side of the certificate compare classes?"""
    return any((cert.get(k) or {}).get("family") == "class" for k in ("A", "B"))


def _recheck_parts(cert, parts, ns, timeout_ms, claim):
    """The steps of re-checking a composite certificate's ``parts``: each part's own report, and ``claim(i, part)``,
    ``(what, ok)``: how it must relate to the certificate (each part's symbols and domain are always the
    certificate's: its domain among the certificate's conditions)."""
    steps, domain = [], {str(c) for c in cert.get("domain", [])}
    for i, part in enumerate(parts, 1):
        rep = check_certificate(part, ns, timeout_ms, budget=None)     # (within the whole's budget)
        steps.append((f"part {i} ({part.get('method')}) re-checked", rep.ok,
                      "; ".join(w for w, _, _ in rep.failures()) or "every step holds"))
        what, ok = claim(i, part)
        steps.append((what, ok and part.get("symbols") == cert.get("symbols")
                      and {str(c) for c in part.get("domain", [])} <= domain, "exact"))
    return steps


def _same_quotients(xs, ys) -> bool:
    """Are two lists of quotients ``(P, Q)`` the same set, compared as quotients?"""
    def among(x, zs):
        return any(x[0] * z[1] == z[0] * x[1] for z in zs)
    return all(among(x, ys) for x in xs) and all(among(y, xs) for y in ys)


def _tight_family_step(cert, ns):
    """The step of a composite certificate's tightness claim: its family, with the certificate's own sides."""
    try:
        ok, how = _check_family(cert, Domain(cert), ns)
    except UNREADABLE as exc:
        ok, how = False, f"{exc.__class__.__name__}: {exc}"
    return "tightness family attains U", ok, how


def _check_min(cert, ns, timeout_ms) -> CertificateReport:
    """A ``min`` certificate: each part re-checked, each stating the same claim (sides and symbols; its domain among
    the certificate's conditions), and U the ``Min`` of the parts' bounds (their components, as quotients); where it
    claims tightness, its family attains U (checked with the certificate's sides)."""
    parts = cert.get("parts") or []
    steps = [("two or more parts", len(parts) >= 2, f"{len(parts)} parts")]
    steps += _recheck_parts(cert, parts, ns, timeout_ms, lambda i, part: (
        f"part {i} states the certificate's claim (sides, symbols, domain)",
        part.get("A") == cert.get("A") and part.get("B") == cert.get("B")))
    try:
        rd = Domain(cert).reader
        ok = _same_quotients(rd.ratio_components(cert["upper"]),
                             [q for part in parts for q in rd.ratio_components(part["upper"])])
    except UNREADABLE as exc:
        ok = False
        steps.append(("certificate readable", False, f"{exc.__class__.__name__}: {exc}"))
    steps.append(("U = Min of the parts' bounds", ok, "exact"))
    if cert.get("tight"):       # the parts bound B from above; a family with the certificate's sides attains U
        steps.append(_tight_family_step(cert, ns))
    return CertificateReport(all(s[1] for s in steps), steps)


def _check_chain(cert, ns, timeout_ms) -> CertificateReport:
    """A ``chain`` certificate: two parts, A => X with U = T (``finite-level-of``: A's level is X's where finite) and
    X => B, each re-checked; the parts' sides link (the first's A is the certificate's, its B the second's A, the
    second's B the certificate's), their symbols are the certificate's and their domains among its conditions, and U
    is the second part's bound (a table with A <= T has X <= T, hence B <= U). A tightness family is checked with
    the certificate's own sides (A's level exactly, e.g. a capped level on a family split over many buckets)."""
    parts = cert.get("parts") or []
    steps = [("two parts", len(parts) == 2, f"{len(parts)} parts")]
    if len(parts) != 2:
        return CertificateReport(False, steps)
    first, second = parts
    steps += _recheck_parts(cert, parts, ns, timeout_ms,
                            lambda i, part: (f"part {i}'s symbols and domain are the certificate's", True))
    steps.append(("the parts link A => X => B", first.get("A") == cert.get("A") and first.get("B") == second.get("A")
                  and second.get("B") == cert.get("B"), "exact"))
    try:
        rd = Domain(cert).reader
        steps.append(("the first part's U is T (X's level at most A's)", first.get("method") == "finite-level-of"
                      and _same_quotients(rd.ratio_components(first.get("upper")), rd.ratio_components("T")), "exact"))
        steps.append(("U is the second part's bound", _same_quotients(rd.ratio_components(cert.get("upper")),
                                                                      rd.ratio_components(second.get("upper"))),
                      "exact"))
    except UNREADABLE as exc:
        steps.append(("certificate readable", False, f"{exc.__class__.__name__}: {exc}"))
    if cert.get("tight"):
        steps.append(_tight_family_step(cert, ns))
    return CertificateReport(all(s[1] for s in steps), steps)


def _registered(cert) -> list:
    """``[(what, ok, how)]``: each side naming a registered definition is described as that definition
    declares it (family and sides): the lemmas read the description, so it must be the claim's. A side
    without a name, or naming a definition not registered here (a plugin not installed), is taken as given."""
    out = []
    for label in ("A", "B"):
        side = cert.get(label) or {}
        name = side.get("definition")
        if not name:
            continue
        d = registered(name)
        if d is None:
            out.append((f"{label} ({name}) as registered", True, "not registered here: the description is taken as given"))
            continue
        ok = (side.get("family") == getattr(d, "family", None) and side.get("sides") == getattr(d, "sides", None)
              and bool(side.get("class_size_level")) == bool(getattr(d, "class_size_level", False))
              and _uniform_as_registered(side, d)
              and side.get("finite_level_of") == getattr(d, "finite_level_of", None)
              and side.get("increase_cap") == getattr(d, "increase_cap", None)
              and set(side.get("params") or {}) <= set(getattr(d, "params", {}) or {})
              and (side.get("slack") or {}).get("compares") == getattr(d, "slack_compares", None)
              and _tail_ratio_as_registered(side, d)
              and (not side.get("slack") or _same_number(side["slack"].get("delta"), (side.get("params") or {}).get("delta"))))
        size_ok, size_how = _registered_size(side, d, cert.get("domain") or (), cert.get("symbols") or ())
        distance_ok, distance_how = _registered_distance(side, d)
        out.append((f"{label} ({name}) as registered", ok and size_ok and distance_ok,
                    f"family {side.get('family')}, sides {side.get('sides')} (declared: "
                    f"{getattr(d, 'family', None)}, {getattr(d, 'sides', None)}){size_how}{distance_how}"))
    return out


def _uniform_as_registered(side, d) -> bool:
    """A side's ``uniform_class_level`` (the raw level of a class uniform over m values) is the registered
    definition's, identically in m, and present exactly where the definition's declared class level improves strictly
    with m (:func:`implgraph.definitions.class_bounds.uniform_values`)."""
    import sympy
    from implgraph.definitions.class_bounds import M, uniform_class_raw, uniform_values
    given = side.get("uniform_class_level")
    if uniform_values(d, sympy.Symbol("T", positive=True)) is None:
        return given is None
    try:
        return given is not None and sympy.simplify(read_sympy(given, {"m": M}) - uniform_class_raw(d)) == 0
    except (Unreadable, TypeError, SyntaxError):
        return False


def _tail_ratio_as_registered(side, d) -> bool:
    """A side's ``tail_ratio`` is its registered definition's declared parameter (``tail_ratio_param``) at the side's
    value, and present exactly where the definition declares one."""
    name = getattr(d, "tail_ratio_param", None)
    if name is not None and name not in (side.get("params") or {}):
        return False        # the declared parameter is the level's own: a side without it is not the definition
    if side.get("tail_ratio") is None:
        return name is None
    return name is not None and _same_number(side["tail_ratio"], (side.get("params") or {}).get(name))


def _same_number(a, b) -> bool:
    """Are two texts the same rational number (a slack's delta and the side's parameter)?"""
    try:
        return Fraction(str(a)) == Fraction(str(b))
    except (ValueError, ZeroDivisionError):
        return False


def _registered_distance(side, d):
    """``(ok, how)``: a side's ``distance`` is the one the registered definition declares at the side's parameters
    (``class_distance``; the lemma and the family's level read it off the certificate)."""
    try:
        declared = d.class_distance(**{k: str(v) for k, v in (side.get("params") or {}).items()})
    except Exception as exc:        # a parameter the declaration does not take: not the registered one
        return False, f"; distance unreadable: {exc.__class__.__name__}"
    if side.get("distance") is None and declared is None:
        return True, ""
    return side.get("distance") == declared, f"; distance {side.get('distance')} (declared: {declared})"


def _registered_size(side, d, domain=(), symbols=()):
    """``(ok, how)``: a subset side's ``size`` is the registered definition's ``subset_size`` at the side's
    parameters (the lemmas read the size off the certificate), identically or after the domain's equations
    (``Eq(N, 4)`` pins N - 3 to 1); the texts read by the whitelist parser over the certificate's ``symbols``."""
    if side.get("family") != "subset":
        return True, ""
    import sympy
    N = sympy.Symbol("N", integer=True)
    try:
        names = {"N": N, **{str(k): sympy.Symbol(str(k)) for k in symbols if str(k) != "N"}}
        params = {k: read_sympy(v, names) for k, v in (side.get("params") or {}).items()}
        declared = d.subset_size(N, **params)
        given = read_sympy(side.get("size"), names)
        pins = {}
        for c in domain:
            rel = read_sympy(c, names)
            if isinstance(rel, sympy.Equality) and isinstance(rel.lhs, sympy.Symbol) and rel.rhs.is_number:
                pins[rel.lhs] = rel.rhs
        ok = declared is not None and sympy.simplify((sympy.sympify(declared) - given).subs(pins)) == 0
    except Exception as exc:        # an unreadable size or parameter: not the registered one
        return False, f"; size unreadable: {exc.__class__.__name__}"
    return ok, f"; size {side.get('size')} (declared: {declared})"


def recheck_row(claim, row, budget=MAX_SECONDS, ns=range(2, 13), timeout_ms=4000) -> list:
    """The re-check of one verdict's evidence (``verify --recheck``): a report per certificate (each within
    ``budget`` seconds, :func:`check_certificate`) and one on the statement: do the certificates prove the row's claim
    (:func:`implgraph.certify.statement.check_statement`; ``claim`` is the row's claim node from the claim data, None
    when there is none)? ``[]`` for a row that carries no certificate and needs none; one rejected report for a row
    whose evidence is a proof for every value (``proved``, or ``refuted`` by a proof of the opposite) without one.

    ``row`` is a :class:`implgraph.core.verdict.Verdict` or its JSON (``id``, ``verdict``, ``strength``,
    ``evidence``, ``tight``, ``details``, ``refuted_by``)."""
    from implgraph.certify.statement import check_statement
    get = (lambda k: row.get(k)) if isinstance(row, dict) else (lambda k: getattr(row, k, None))     # noqa: E731
    certs = certificates_in(get("details"))
    if not certs:
        if get("strength") != "proved":
            return _conditional_reports(claim, get, budget, ns, timeout_ms)
        what = "refuted by a proof" if get("verdict") == "refuted" else "proved"
        return [CertificateReport(False, [("certificate", False, f"{what} without a certificate")])]
    reports = [check_certificate(c, ns, timeout_ms, budget) for c in certs]
    return reports + [check_statement(claim, row, certs)] + _conditional_reports(claim, get, budget, ns, timeout_ms)


#: the assumption of a conditional verdict, and the ``min_classes`` its certificate must state
CONDITIONAL_MIN_CLASSES = {"partitions into at least 2 classes": 2}


def _conditional_reports(claim, get, budget, ns, timeout_ms) -> list:
    """The re-check of the verdict a row gives under an assumption (``details.conditional``), where a proof carries
    it: its certificate accepted, stating the row's claim, for the partitions the assumption names."""
    cond = (get("details") or {}).get("conditional")
    if not isinstance(cond, dict) or not cond.get("certificate"):
        return []
    cert = cond["certificate"]
    want = CONDITIONAL_MIN_CLASSES.get(str(cond.get("assumption")))
    mc = cert.get("min_classes") if isinstance(cert, dict) else None
    fits = want is not None and mc == want
    fit = CertificateReport(fits, [(f"the conditional certificate is for the assumption {cond.get('assumption')!r}",
                                    fits, f"min_classes {mc!r}")], "conditional")
    sub = {"id": get("id"), "verdict": cond.get("verdict"), "refuted_by": cond.get("refuted_by"),
           "strength": "proved", "evidence": cond.get("evidence"), "tight": cond.get("tight"),
           "details": {"certificate": cert}}
    return [fit] + recheck_row(claim, sub, budget, ns, timeout_ms)


def certificates_in(details) -> list:
    """The certificates a verdict's ``details`` carries (``certificate`` and ``certificates``)."""
    details = details or {}
    out = [details.get("certificate")] + list(details.get("certificates") or [])
    return [c for c in out if c]
