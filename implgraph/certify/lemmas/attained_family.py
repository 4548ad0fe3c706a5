"""The attained-family lemma: a proved upper bound U is attained, so it is the tight f.

A certificate of method ``attained-family`` says that B's supremum over the tables whose A raw level is at most T is
``upper`` = U, for every point of its domain. It holds

- one ``part``: the certificate of the upper bound (any method but this one), claiming the same implication: the same
  symbols, domain, sides and U, field by field, and no tightness of its own; re-checked as it stands;
- a ``tightness`` family: blocks of equal binary rows ``{"count", "value", "class"}`` (a count in N, a first-bucket
  value in N, T and the parameters; ``Min`` and ``Max`` allowed), or of equal rows ``{"count", "row", "class"}`` (a
  list of at most 8 values), the lower bound. At every sampled point of the
  domain (N in the checker's range, A's raw level T on the domain's grid and its thresholds, each parameter's sampled
  values; A's levels both grids of :mod:`implgraph.certify.domain` and a few more) each count is an integer >= 0, the
  counts add up to N, each value is a rational number in [0, 1], and the registry's exact levels of the table give A
  <= T and B = U exactly: a side declaring a divergence by that divergence's level
  (:meth:`implgraph.definitions.divergences.Divergence.level`, the blocks as weighted rows), any other side by
  :func:`implgraph.certify.levels.level` (ratios of averages, class distances, additive slacks). Where a side compares
  classes, the family's classes (its blocks' labels) are at least two. The family may have its own ``domain``, only
  ``T <= w`` with w A's registered weakest raw level, or log N for a class's KL or Renyi divergence over any partition
  (a class's mean is at most N times the table's): beyond it A holds on every table, and the claim of tightness is
  made where T <= w only; or ``N >= 3`` and ``T >= e`` with e A's level on the family for every N, the checker's own
  expression of it (:func:`implgraph.certify.lemmas.attained_symbolic.b_expression` from A's divergence, each
  comparison simplified; the stated e must be the same Max, argument by argument), so that A <= T holds on that
  domain at every N (the sampled points are then the domain's where it holds, at 60 digits). A family whose values
  hold ``exp`` is sampled at T = log r (r in :data:`LOG_GRID`), where they are rational.

Symbolically (:mod:`implgraph.certify.lemmas.attained_symbolic`): B's level on the family, written from B's
description, is U as an identity in N and T on each pattern of branches (Min, Max, Abs) the sampled points take. A's
level is checked exactly at the sampled points only; for a two-block family without Min or Max whose sides have the
library's two-block lemmas, the kernel's tightness theorem (:mod:`implgraph.kernel_coq.tightness`) states the whole
family for every N. An edited value or count fails the level comparison at a sampled point or the identity.
"""

from __future__ import annotations

from fractions import Fraction

from implgraph.certify.lemmas import lemma
from implgraph.certify.report import lemma_steps, steps_report
from implgraph.certify.same_max import same_max
from implgraph.core import methods

__all__ = ["check", "family_fault"]

#: the fields of a certificate that make its claim (the part's must be the whole's)
CLAIM = ("symbols", "domain", "A", "B", "upper")
#: the most buckets of a family's row
MAX_BUCKETS = 8


def _level(side, rows, counts, labels, size):
    """The side's exact raw level on the weighted rows (module notes)."""
    from implgraph.certify.kernel import registered
    from implgraph.certify.levels import level
    from implgraph.definitions.divergences import divergence_of
    d = registered(side.get("definition")) if side.get("definition") else None
    div = None if d is None else divergence_of(d, side.get("params"))
    if div is not None:
        return div.level([list(r) for r in rows], labels, counts)
    return level(side, [(c, list(r), k) for c, r, k in zip(counts, rows, labels)], size)


def _table(cert, rd, env):
    """``(rows, counts, labels)`` of the family at ``env`` (ValueError: not a table of N records there)."""
    rows, counts, labels = [], [], []
    for block in (cert.get("tightness") or {}).get("blocks") or []:
        c = _value(rd, block["count"], env)
        if c.denominator != 1 or c < 0:
            raise ValueError(f"block size {c} is not an integer >= 0")
        if c == 0:
            continue
        row = _row(rd, block, env)
        if not all(0 <= v <= 1 for v in row) or sum(row) != 1:
            raise ValueError(f"row {row} is not a distribution")
        rows.append(row)
        counts.append(int(c))
        labels.append(str(block.get("class")))
    if sum(counts) != env["N"]:
        raise ValueError(f"{sum(counts)} records, not N")
    return rows, counts, labels


def _row(rd, block, env):
    """A block's row at ``env``: ``(v, 1 - v)`` from its ``value``, or its ``row`` (a list of values, any buckets)."""
    if "row" in block:
        if not isinstance(block["row"], list) or len(block["row"]) > MAX_BUCKETS:
            raise ValueError("a row is a list of at most 8 values")
        return tuple(_value(rd, x, env) for x in block["row"])
    v = _value(rd, block["value"], env)
    return (v, 1 - v)


def _value(rd, text, env):
    """An expression of the family at ``env`` as a Fraction (at T = log r, read by sympy: exp(-T) = 1/r)."""
    import sympy
    if all(isinstance(v, (int, Fraction)) for v in env.values()):
        return Fraction(rd.function(str(text))(env))
    value = rd.sympy(str(text)).subs({rd.symbols[k]: _num(v) for k, v in env.items() if k in rd.symbols})
    value = sympy.nsimplify(sympy.simplify(value), rational=False)
    if not value.is_Rational:
        raise ValueError(f"{text} is not rational at the point ({value})")
    return Fraction(int(value.p), int(value.q))


def _num(x):
    """A point's coordinate as a sympy number (a Fraction, or already one)."""
    import sympy
    if isinstance(x, sympy.Basic):
        return x
    x = Fraction(x)
    return sympy.Rational(x.numerator, x.denominator)


def _number(level):
    """A registered level as a sympy number (a Fraction, or an exact value carrying its expression, a logarithm)."""
    from implgraph.certify.pointwise import level_number
    return level_number(level)


def _equal(x, y) -> bool:
    """Are two exact sympy numbers equal (rationals compared at once, logarithms expanded and simplified)?"""
    import sympy
    if x.is_Rational and y.is_Rational:
        return x == y
    return sympy.simplify(sympy.expand_log(x - y, force=True)) == 0


def _at_most(x, t) -> bool:
    """``x <= t`` for exact numbers: compared at once where both are rational, else equal or below by more than
    10^-30 at 60 digits."""
    import sympy
    if x.is_Rational and t.is_Rational:
        return bool(x <= t)
    # (the comparison at 60 digits first: it decides most points at once, the simplification only a near tie)
    return bool(sympy.N(t - x, 60) > sympy.Rational(1, 10 ** 30)) or _equal(x, t)


def family_fault(cert, rd, env) -> str:
    """Why the family fails at the point ``env`` ('' where A <= T and B = U there)."""
    from implgraph.certify.levels import INF
    try:
        rows, counts, labels = _table(cert, rd, env)
        if any((cert.get(s) or {}).get("family") == "class" for s in ("A", "B")) and len(set(labels)) < 2:
            return "fewer than 2 classes"
        sizes = [None if (cert[s] or {}).get("size") is None else rd.function(str(cert[s]["size"]))(env)
                 for s in ("A", "B")]
        a, b = (_level(cert[s], rows, counts, labels, j) for s, j in zip(("A", "B"), sizes))
        u = _upper_at(cert, rd, env)
        if a is None or a == INF or b is None or b == INF:
            return f"a level is undefined or infinite (A {a}, B {b})"
        a, b = _number(a), _number(b)
    except (ValueError, ZeroDivisionError, TypeError, KeyError, AttributeError) as exc:
        return f"not a table: {exc}"
    if not _at_most(a, _num(env["T"])):
        return f"A's level {a} above T = {env['T']}"
    if not _equal(b, u):
        return f"B's level {b} differs from U = {u}"
    return ""


def _upper_at(cert, rd, env):
    """U at ``env`` as an exact sympy number (its logarithms kept)."""
    from implgraph.certify.expr import NotPolynomial, Unreadable
    try:
        return _num(_value(rd, cert["upper"], env))
    except (Unreadable, NotPolynomial, ValueError, TypeError):     # (a logarithm: read by sympy and substituted)
        expr = rd.sympy(str(cert["upper"]))
        return expr.subs({rd.symbols[k]: _num(v) for k, v in env.items() if k in rd.symbols})


#: the N whose sampled points the symbolic step resolves its branches at (each pattern an identity for every N)
SYMBOLIC_N = (2, 3, 4, 5, 8, 12)
#: levels sampled beside the domain's grids
MORE_T = (Fraction(1, 7), Fraction(2, 5), Fraction(9, 10), Fraction(6, 5), Fraction(4, 3), Fraction(5, 2), 5, 7)


def _family_steps(cert, ns):
    from implgraph.certify.domain import DISTANCE_GRID, T_GRID, Domain
    fam = cert.get("tightness") or {}
    blocks = fam.get("blocks") or []
    steps = [("a family of blocks (count, value, class)", bool(blocks) and all(
        isinstance(b, dict) and "count" in b and ("value" in b or "row" in b) for b in blocks),
        f"{len(blocks)} blocks")]
    if not steps[0][1]:
        return steps
    own = [str(c) for c in fam.get("domain") or []]
    stated = bool(own) and _stated_level(cert, own)
    if own:
        licensed = stated or _licensed(cert, own)
        steps.append(("the family's own domain is T <= A's weakest raw level (beyond it A holds on every table), or "
                      "N >= 3 and T >= A's level on the family, written from A's description", licensed, ", ".join(own)))
        if not licensed:
            return steps
    # (a stated level holds logarithms: the points are the certificate's domain's, kept where it holds)
    domain = Domain({**cert, "domain": [*cert.get("domain", []), *([] if stated else own)]})
    # both grids and a few more levels, whatever A's kind (a divergence's level may lie in [0, 1] or beyond)
    domain.t_grid = tuple(sorted(set(domain.t_grid) | set(T_GRID) | set(DISTANCE_GRID) | set(MORE_T)))
    checked, bad = [], []
    for env in _points(cert, domain, own, ns, stated):
        fault = family_fault(cert, domain.reader, env)
        checked.append(env)
        if fault:
            bad.append(f"{fault} at " + ", ".join(f"{k} = {v}" for k, v in sorted(env.items())))
            break
    steps.append(("the family meets A at T with B's level U (exact, at each sampled point)", bool(checked) and not bad,
                  bad[0] if bad else f"{len(checked)} points (N = {min(ns)}..{max(ns)})"))
    if checked and not bad:
        from implgraph.certify.lemmas.attained_symbolic import symbolic_steps
        steps += symbolic_steps(cert, [env for env in checked if env["N"] in SYMBOLIC_N])
    return steps


#: where the family's values hold exp(T) or exp(-T): A's levels sampled at T = log r, r in this grid
LOG_GRID = (Fraction(5, 4), Fraction(3, 2), 2, 3, 5, 10)


def _points(cert, domain, own, ns, stated=False):
    """The sampled points: the domain's, or where the family's values hold ``exp``, T = log r (:data:`LOG_GRID`) at
    each N, where the domain and the family's own domain hold (decided by sympy at 60 digits); where the family's own
    domain states A's level on it (``stated``), the domain's points where that domain holds."""
    import sympy
    texts = [str(v) for b in (cert.get("tightness") or {}).get("blocks") or [] for v in [b.get("value"),
                                                                                        *(b.get("row") or [])]]
    exp = any("exp" in t for t in texts)
    if not exp and not stated:
        yield from domain.points(ns)
        return
    rd = domain.reader
    rels = [rd.sympy(str(c)) for c in [*cert.get("domain", []), *own]]
    if any(x.name not in ("N", "T") for r in rels for x in r.free_symbols):
        return
    grid = [{"N": e["N"], "T": e["T"]} for e in domain.points(ns)] if not exp else \
        [{"N": n, "T": sympy.log(_num(r))} for n in ns for r in LOG_GRID]
    for env in grid:
        at = {rd.symbols[k]: _num(v) for k, v in env.items()}
        if all(bool(sympy.N((x.lhs - x.rhs).subs(at), 60) >= 0) if isinstance(x, sympy.GreaterThan) else
               bool(sympy.N((x.rhs - x.lhs).subs(at), 60) >= 0) if isinstance(x, sympy.LessThan) else
               bool(x.subs(at)) for x in rels):
            yield env


def _stated_level(cert, own) -> bool:
    """Is the family's own domain ``N >= 3`` and ``T >= e``, e A's level on the family for every N, the checker's own
    expression (:func:`implgraph.certify.lemmas.attained_symbolic.b_expression` from A's divergence: the largest
    comparison, each term simplified), so that A <= T holds on that domain at every N?"""
    import sympy

    from implgraph.certify.expr import read_sympy
    from implgraph.certify.kernel import registered
    from implgraph.certify.lemmas.attained_symbolic import _blocks, b_expression
    from implgraph.definitions.divergences import divergence_of
    d = registered((cert.get("A") or {}).get("definition"))
    div = None if d is None else divergence_of(d, (cert.get("A") or {}).get("params"))
    if div is None or len(own) != 2:
        return False
    names = {"N": sympy.Symbol("N", integer=True, positive=True), "T": sympy.Symbol("T", positive=True)}
    first, second = (read_sympy(x, names) for x in own)
    N, T = names["N"], names["T"]
    if first != sympy.Ge(N, 3) or not isinstance(second, sympy.GreaterThan) or second.lhs != T:
        return False
    level = sympy.Max(*[sympy.simplify(x) for x in b_expression({}, div, _blocks(cert, names), N).args])
    return second.rhs == level or same_max(second.rhs, level)


def _licensed(cert, own) -> bool:
    """Is the family's own domain exactly ``T <= w``, w A's registered weakest raw level at N?"""
    import sympy

    from implgraph.certify.expr import read_sympy
    from implgraph.certify.kernel import registered
    d = registered((cert.get("A") or {}).get("definition"))
    if d is None or len(own) != 1:
        return False
    N, T = sympy.Symbol("N", integer=True, positive=True), sympy.Symbol("T", positive=True)
    from implgraph.definitions.divergences import divergence_of
    w = sympy.sympify(d.raw_from_level(d.weakest(N)))
    div = divergence_of(d, (cert.get("A") or {}).get("params"))
    if w.has(sympy.oo) and div is not None and div.compares == "class" and div.kind in ("kl", "renyi") \
            and str((cert.get("A") or {}).get("min_class") or "1") == "1":
        w = sympy.log(N)        # a class's mean is at most N times the table's: its divergences at most log N
    rel = read_sympy(own[0], {"N": N, "T": T})
    return (isinstance(rel, sympy.LessThan) and rel.lhs == T and not w.has(sympy.oo)
            and sympy.simplify(rel.rhs - w) == 0)


def describe(cert) -> list:
    fam = cert.get("tightness") or {}
    return [f"{(cert.get('A') or {}).get('definition')} => {(cert.get('B') or {}).get('definition')}: U = "
            f"{cert.get('upper')} is the supremum (the {fam.get('shape')} family; the upper bound's certificate "
            "inside)"]


@lemma(methods.ATTAINED_FAMILY, describe=describe)
def check(cert, ns=range(2, 13), timeout_ms=4000):
    """Re-check an attained-family certificate (module notes)."""
    from implgraph.certify.composite import recheck_parts
    with lemma_steps(cert) as steps:
        parts = cert.get("parts") or []
        steps.append(("one part: the upper bound's certificate", len(parts) == 1 and isinstance(parts[0], dict)
                      and parts[0].get("method") != methods.ATTAINED_FAMILY.name,
                      ", ".join(str(p.get("method")) for p in parts if isinstance(p, dict))))
        steps.append(("the supremum is claimed (tight)", cert.get("tight") is True, "exact"))
        if not all(s[1] for s in steps):
            return steps_report(steps)
        # the family first: where it fails, the part (often a composition) is not re-checked at all
        steps += _family_steps(cert, ns)
        if not all(s[1] for s in steps):
            return steps_report(steps)
        steps += recheck_parts(cert, parts, ns, timeout_ms, lambda i, part: (
            "the part claims the same implication (symbols, domain, sides, U), an upper bound",
            all(part.get(k) == cert.get(k) for k in CLAIM) and not part.get("tight")))
    return steps_report(steps)
