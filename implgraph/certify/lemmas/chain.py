"""The lemma ``chain``: a declared finite level, then that definition's bound.

Two parts, A => X with U = T (method ``finite-level-of``: A's level is X's wherever finite) and X => B, each
re-checked; the parts' sides link (the first's A is the certificate's, its B the second's A, the second's B the
certificate's), their symbols are the certificate's and their domains among its conditions, and U is the second
part's bound (as quotients, or by exact algebra where it is a log): a table with A <= T has X <= T, hence B <= U. A
tightness family is checked with the certificate's own sides (A's level exactly, e.g. a capped level on a family split
over many buckets); a chord part's family (``rows``, docs/proofs/tight-one-sided-chord.md) split the same way is
checked by :func:`rows_family_steps`: the chord part claims tightness with that very family (its lemma re-checks
it), and the split table's registered exact levels are A <= T and B = U at sampled points.
"""

from __future__ import annotations

from implgraph.certify.composite import recheck_parts, same_quotients
from implgraph.certify.family import family_step
from implgraph.certify.lemmas import lemma
from implgraph.certify.report import CertificateReport
from implgraph.core import methods

__all__ = ["check"]


@lemma(methods.CHAIN)
def check(cert, ns=range(2, 13), timeout_ms=4000) -> CertificateReport:
    """Re-check a ``chain`` certificate (module notes)."""
    from implgraph.certify import UNREADABLE
    from implgraph.certify.domain import Domain
    parts = cert.get("parts") or []
    steps = [("two parts", len(parts) == 2, f"{len(parts)} parts")]
    if len(parts) != 2:
        return CertificateReport(False, steps)
    first, second = parts
    steps += recheck_parts(cert, parts, ns, timeout_ms,
                           lambda i, part: (f"part {i}'s symbols and domain are the certificate's", True))
    steps.append(("the parts link A => X => B", first.get("A") == cert.get("A") and first.get("B") == second.get("A")
                  and second.get("B") == cert.get("B"), "exact"))
    try:
        rd = Domain(cert).reader
        steps.append(("the first part's U is T (X's level at most A's)",
                      first.get("method") == methods.FINITE_LEVEL_OF.name
                      and same_quotients(rd.ratio_components(first.get("upper")), rd.ratio_components("T")), "exact"))
        steps.append(("U is the second part's bound", _same_upper(rd, cert.get("upper"), second.get("upper")),
                      "exact"))
    except UNREADABLE as exc:
        steps.append(("certificate readable", False, f"{exc.__class__.__name__}: {exc}"))
    if cert.get("tight") and (cert.get("tightness") or {}).get("rows") is not None:
        steps += rows_family_steps(cert, second, ns)
    elif cert.get("tight"):
        steps.append(family_step(cert, ns))
    return CertificateReport(all(s[1] for s in steps), steps)


#: the levels at which a split chord family is evaluated (3^ceiling(T) buckets each: at most 27 here)
_ROWS_T = ("5/4", "3/2", "2", "3")


def rows_family_steps(cert, second, ns):
    """A chord's family (``rows`` of two buckets in T and N, with its own ``domain``) split into ``3**ceiling(T)``
    equal buckets each: the second part is a chord certificate claiming tightness with that very family (re-checked by
    its lemma with X's level), the chain's family is it with the split, and at sampled points (N of ``ns`` up to 8,
    T in {5/4, 3/2, 2, 3} where every domain holds) A's registered exact level on the split table is <= T and B's
    registered exact level is U (splitting a bucket into equal ones keeps every ratio, so every f-divergence)."""
    import sympy

    from implgraph.certify import UNREADABLE
    from implgraph.certify.registered import declared_divergences, registered
    from implgraph.core.concrete import INF, ConcreteTable
    from implgraph.core.formula import parse_condition, parse_expr
    fam, inner = cert.get("tightness") or {}, second.get("tightness") or {}
    same = (second.get("method") == methods.CHORD.name and bool(second.get("tight"))
            and fam.get("rows") == inner.get("rows") and fam.get("domain") == inner.get("domain")
            and str(fam.get("split")) == "3**ceiling(T)" and not inner.get("split"))
    steps = [("the family is the chord part's tight family, each bucket split into 3^ceiling(T)", same, "exact")]
    if not same:
        return steps
    T, N = sympy.Symbol("T", positive=True), sympy.Symbol("N", integer=True, positive=True)
    names = {"T": T, "N": N}
    try:
        a = registered((cert.get("A") or {}).get("definition"))
        _, div = declared_divergences(cert)
        upper = parse_expr(str(cert.get("upper")), names)
        where = [parse_condition(str(c), names) for c in [*(cert.get("domain") or []), *(fam.get("domain") or [])]]
        rows = [(parse_expr(str(r["count"]), names), parse_expr(str(r["value"]), names), str(r.get("class")))
                for r in fam["rows"]]
        bad, tried = [], 0
        for n in [n for n in ns if n <= 8]:
            for t in map(sympy.Rational, _ROWS_T):
                point = {T: t, N: sympy.Integer(n)}
                held = [sympy.sympify(c).subs(point) for c in where]
                if not all((c.func(c.lhs, c.rhs) if isinstance(c, sympy.core.relational.Relational) else c)
                           is sympy.true for c in held):
                    continue
                table, labels = _split_table(rows, point, int(3 ** sympy.ceiling(t)))
                if table is None or len(table) != n:
                    bad.append(f"N = {n}, T = {t}: " + ("a row is no record" if table is None
                                                         else f"{len(table)} records"))
                    continue
                tried += 1
                ra = a.concrete(ConcreteTable.from_fractions(table, classes=labels))
                rb = div.level([list(r) for r in table], labels)
                rb_s = getattr(rb, "expr", None)
                rb_s = rb_s if rb_s is not None else (None if rb is None or rb == INF else
                                                     sympy.Rational(rb.numerator, rb.denominator))
                u = upper.subs(point)
                a_ok = ra is not None and ra != INF and sympy.Rational(ra.numerator, ra.denominator) <= t
                b_ok = rb_s is not None and sympy.simplify(sympy.expand_log(rb_s - u, force=True)) == 0
                if not (a_ok and b_ok):
                    bad.append(f"N = {n}, T = {t}: A {ra}, B {rb_s}, U {u}")
        steps.append((f"the split family's registered exact levels are A <= T and B = U at {tried} points",
                      tried > 0 and not bad, "; ".join(bad[:3]) or "exact levels of the registry"))
    except UNREADABLE as exc:
        steps.append(("tightness family readable", False, f"{exc.__class__.__name__}: {exc}"))
    return steps


def _split_table(rows, point, m):
    """The family's records at ``point``, each of its two buckets split into ``m`` equal ones, and their class
    labels; ``(None, None)`` where a row's count is not a natural number or its value not in [0, 1]."""
    from fractions import Fraction
    table, labels = [], []
    for count, value, label in rows:
        c, x = count.subs(point), value.subs(point)
        if not (c.is_Integer and c >= 0 and x.is_Rational and 0 <= x <= 1):
            return None, None
        xf = Fraction(int(x.p), int(x.q))
        table += [[xf / m] * m + [(1 - xf) / m] * m] * int(c)
        labels += [label] * int(c)
    return table, labels


def _same_upper(rd, one, other) -> bool:
    """Are two bounds the same: as quotients where both are rational functions, else (a log, e.g. the chord's
    log T) their difference simplifies to 0 in exact algebra."""
    import sympy

    from implgraph.certify import UNREADABLE
    from implgraph.core.formula import parse_expr
    try:
        return same_quotients(rd.ratio_components(one), rd.ratio_components(other))
    except UNREADABLE:
        names = {"N": sympy.Symbol("N", integer=True, positive=True), "T": sympy.Symbol("T", positive=True)}
        x, y = (parse_expr(str(t), names) for t in (one, other))
        return sympy.simplify(sympy.expand_log(x - y, force=True)) == 0
