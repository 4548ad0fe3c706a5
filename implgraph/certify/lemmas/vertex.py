"""The lemma ``linear-fractional-vertex`` (method ``vertex``).

Under a pairwise level T every bucket's values lie in a box [a, T a]; each ratio of B is
``mean_S / mean_D`` or its inverse, linear-fractional in the bucket's values, so its maximum over
the box is at a vertex: values a or T a. Ratios are scale free (a = 1); a vertex is described by
how many high values S (or class E) holds and how many the rest holds (``u``, ``m``/``v``, relaxed
to reals: a larger set, so a proof there is a proof).
"""

from __future__ import annotations

from implgraph.certify.lemmas import lemma
from implgraph.certify.obligation import multipliers, ratio_obligations, size, two_sided
from implgraph.core import methods


def _vertex_structure(cert, A, B, rd):
    return [("A is pairwise", A["family"] == "pairwise" and two_sided(A)),
            ("B is a subset or class level with declared sides", B.get("sides") in ("two-sided", "one-sided")
             and B["family"] in ("subset", "class") and (B["family"] == "subset" or B.get("min_class") is not None))]


def _vertex_obligations(cert, A, B, rd, data):
    return _vertex(B, cert["upper"], rd, multipliers(data, rd))


def _vertex(B, upper, rd, multipliers):
    g = rd.gens
    T, N = g["T"], g["N"]
    if B["family"] == "subset":
        j = size(B, rd)
        u, m = g["u_"], g["m_"]
        facts = {"u>=0": u, "j-u>=0": j - u, "m-u>=0": m - u, "N-j-(m-u)>=0": N - j - m + u}
        mean_s, mean_d = (u * T + j - u, j), (m * T + N - m, N)
        what = f"subset S of {j} records holding u high values, m high values in all"
    else:
        k = rd.poly(B["min_class"])
        e, u, v = g["e_"], g["u_"], g["v_"]
        facts = {"u>=0": u, "v>=0": v, "e-u>=0": e - u, "e-k>=0": e - k, "N-e>=0": N - e, "N-e-v>=0": N - e - v}
        mean_s, mean_d = (u * T + e - u, e), ((u + v) * T + N - u - v, N)
        what = f"class E of e >= {k} records holding u high values, v high values outside it"
    hyps = [(">=", f) for f in facts.values()]
    ratios = [("mean_S/mean_D", mean_s, mean_d)]
    if B.get("sides") != "one-sided":      # both ratios unless B is declared one-sided
        ratios.append(("mean_D/mean_S", mean_d, mean_s))
    U = rd.ratio(upper)
    out = []
    for label, (n1, d1), (n2, d2) in ratios:
        # (n1/d1) / (n2/d2) = (n1 d2) / (d1 n2)
        obs = ratio_obligations(f"vertex {label} ({what})", n1 * d2, d1 * n2, U, hyps)
        obs[-1].facts, obs[-1].multipliers = facts, multipliers.get(label)
        out += obs
    return out


lemma(methods.VERTEX, structure=_vertex_structure, obligations=_vertex_obligations)
