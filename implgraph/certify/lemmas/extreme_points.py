"""The lemma ``quasi-convex-extreme-points`` (method ``extreme-points``) and the composite ``extreme-points-pieces``.

*The lemma.* A is a two-sided ratio of averages over every pair of records or every subset of j records (no slack),
or an additive slack delta_A between any two records; B compares the table with the table without one record with a
slack delta in (0, 1). B's requirements are linear-fractional in a binary table's values, A's condition a polytope
that the permutations of the records keep: merging an event's buckets, then averaging the records other than the
removed one (convexity, symmetry), the supremum is over tables of one record at ``u_`` and N - 1 at ``v_``. This
module writes that polygon's sides itself from the sides' declarations (the box and each comparison on both buckets,
times the positive factor N j that makes them polynomials), checks that the mirror ``(u, v) -> (1 - u, 1 - v)`` maps
the sides onto themselves (so bucket 1's requirements stand for both buckets), and for each requirement ``n / d``
(``(s - N delta)/(N v)`` and ``N (v - delta)/s``, s = u + (N - 1) v) re-checks ``D > 0`` and the identity
``D (P d - Q n) = sum_k mu_k g_k + mu_0`` with every ``mu_k >= 0`` on the certificate's domain (U = P/Q, Q > 0,
U >= 1, the level's floor).

*The composite.* Each part is an ``extreme-points`` certificate on the claim's domain and conditions of its own; the
parts' conditions cover the domain (their disjunction's negation is unsatisfiable there), and U is the Piecewise of
the parts' bounds in order, the parts of U = 1 (or else the last part) written as the otherwise.
"""

from __future__ import annotations


import sympy

from implgraph.certify.lemmas import lemma
from implgraph.certify.obligation import Obligation, multipliers, size, slack, two_sided
from implgraph.certify.report import CertificateReport
from implgraph.core import methods

__all__ = ["sides", "requirements", "check_pieces"]


def _comparisons(A, rd):
    g = rd.gens
    N, u, v = g["N"], g["u_"], g["v_"]
    da = slack(A, "pairs")
    if da is not None and A.get("sides") is None:
        return [("x_1 <= T x_k + delta_A", u, v, da), ("x_k <= T x_1 + delta_A", v, u, da)]
    if A.get("slack") or not two_sided(A):
        return None
    if A.get("family") == "pairwise":
        return [("x_1 <= T x_k", u, v, 0), ("x_k <= T x_1", v, u, 0)]
    j = size(A, rd)
    if A.get("family") == "subset" and j is not None:
        w, w0, m = N * (u + (j - 1) * v), N * j * v, j * (u + (N - 1) * v)
        return [("mean_S (record 1 in S) <= T mean_D", w, m, 0), ("mean_D <= T mean_S (record 1 in S)", m, w, 0),
                ("mean_S (record 1 not in S) <= T mean_D", w0, m, 0),
                ("mean_D <= T mean_S (record 1 not in S)", m, w0, 0)]
    return None


def sides(A, rd):
    """``{label: g}`` of the polygon (module notes), or None for a side this lemma does not read."""
    comps = _comparisons(A, rd)
    if comps is None:
        return None
    g = rd.gens
    T, u, v = g["T"], g["u_"], g["v_"]
    one = rd.poly("1")
    out = {"u >= 0": u, "1 - u >= 0": one - u, "v >= 0": v, "1 - v >= 0": one - v}
    for label, p, q, s in comps:
        c = p.subs([(u, 1), (v, 1)])
        out[f"{label}, bucket 1"] = T * q - p + c * s
        out[f"{label}, bucket 2"] = T * (c - q) - (c - p) + c * s
    return out


def requirements(B, rd):
    """``{label: (n, d)}`` of B's requirements on the table of two blocks, or None."""
    d = slack(B, "removal")
    if d is None or d <= 0 or B.get("sides") is not None:
        return None
    g = rd.gens
    N, u, v = g["N"], g["u_"], g["v_"]
    s = u + (N - 1) * v
    return {"(P - delta)/Q_1": (s - N * d, N * v), "(Q_1 - delta)/P": (N * (v - d), s)}


def _mirrored(polys, rd):
    u, v = rd.gens["u_"], rd.gens["v_"]
    one = rd.poly("1")
    mirror = [p.compose([(u, one - u), (v, one - v)]) for p in polys]
    return all(any(m == p for p in polys) for m in mirror)


def _structure(cert, A, B, rd):
    found, reqs = sides(A, rd), requirements(B, rd)
    try:
        _, Q = rd.ratio(cert["upper"])
        readable = True
    except ValueError:
        readable = False
    return [("A a two-sided pairwise or subset ratio level, or an additive slack between two records", found is not None),
            ("B the table against the table without one record, with a slack delta in (0, 1)", reqs is not None),
            ("the polygon's sides are closed under (u, v) -> (1 - u, 1 - v) (both buckets)",
             found is not None and _mirrored(list(found.values()), rd)),
            ("U a quotient of polynomials", readable)]


def _obligations(cert, A, B, rd, data):
    found, reqs = sides(A, rd), requirements(B, rd)
    if found is None or reqs is None:
        return []
    P, Q = rd.ratio(cert["upper"])
    facts = dict(found, **{"1 >= 0": rd.poly("1")})
    hyps = [(">=", g) for g in found.values()]
    out = [Obligation("U's denominator Q > 0", Q, [], strict=True), Obligation("U >= 1: P - Q >= 0", P - Q, [])]
    given = data.get("requirements") or {}
    for label, (n, d) in reqs.items():
        mine = given.get(label) or {}
        scale = rd.poly(str(mine.get("scale", "0")))
        out.append(Obligation(f"{label}: the scale D > 0", scale, [], strict=True))
        out.append(Obligation(f"{label} <= U on the polygon: D (P d - Q n) = sum mu_k g_k", scale * (P * d - Q * n),
                              hyps, facts=facts,
                              multipliers=multipliers({"multipliers": {label: mine.get("multipliers") or {}}},
                                                      rd).get(label) or {"(none)": rd.poly("0")}))
    return out


lemma(methods.EXTREME_POINTS, structure=_structure, obligations=_obligations)


def _read(text, names):
    from implgraph.certify.expr import read_sympy
    return read_sympy(text, names)


def _coverage(cert, extras, names):
    from implgraph.certify.domain import Domain
    from implgraph.certify.solve import refute
    domain = Domain(cert)
    whole = sympy.Or(*[sympy.And(*[_read(c, names) for c in extra]) for extra in extras])
    ok, answers = refute(domain.sympy_relations() + [sympy.Not(whole)], domain.sympy_kinds())
    return ok, f"negation of the parts' conditions unsatisfiable on the domain: {answers}"


def _expected_upper(parts, extras, names):
    shown = [(_read(p["upper"], names), sympy.And(*[_read(c, names) for c in e])) for p, e in zip(parts, extras)
             if _read(p["upper"], names) != 1]
    if len(shown) < len(parts):
        return sympy.Piecewise(*shown, (sympy.Integer(1), True))
    return sympy.Piecewise(*shown[:-1], (shown[-1][0], True))


@lemma(methods.EXTREME_POINTS_PIECES)
def check_pieces(cert, ns=range(2, 13), timeout_ms=4000) -> CertificateReport:
    """Re-check an ``extreme-points-pieces`` certificate (module notes)."""
    from implgraph.certify import UNREADABLE
    from implgraph.certify.accepted import part_report
    parts = cert.get("parts") or []
    domain = [str(c) for c in cert.get("domain", [])]
    steps = [("two or more parts", len(parts) >= 2, f"{len(parts)} parts")]
    extras = []
    for i, part in enumerate(parts, 1):
        rep = part_report(part, ns, timeout_ms)
        steps.append((f"part {i} ({part.get('method')}) re-checked", rep.ok,
                      "; ".join(w for w, _, _ in rep.failures()) or "every step holds"))
        own = [str(c) for c in part.get("domain", [])]
        steps.append((f"part {i} is an {methods.EXTREME_POINTS.name} certificate of the claim on the domain and "
                      "conditions of its own", part.get("method") == methods.EXTREME_POINTS.name
                      and part.get("A") == cert.get("A") and part.get("B") == cert.get("B")
                      and part.get("symbols") == cert.get("symbols") and set(domain) <= set(own), "exact"))
        extras.append([c for c in own if c not in domain])
    names = {n: sympy.Symbol(n) for n in cert.get("symbols") or {}}
    try:
        if parts:
            ok, how = _coverage(cert, extras, names)
            steps.append(("the parts' conditions cover the domain", ok, how))
            same = _read(cert["upper"], names) == _expected_upper(parts, extras, names)
            steps.append(("U is the Piecewise of the parts' bounds", same, "exact"))
    except UNREADABLE as exc:
        steps.append(("certificate readable", False, f"{exc.__class__.__name__}: {exc}"))
    return CertificateReport(all(s[1] for s in steps), steps)


