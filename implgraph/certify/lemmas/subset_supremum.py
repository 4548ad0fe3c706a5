"""The lemma ``extreme-means-supremum`` (method ``subset-supremum``): the tight f of the subset-monotone case.

The tight bound of two two-sided subset levels, sizes j_A <= j_B: with an integer q
(``upper_certificate["q"]``, a polynomial or a ``Min`` of polynomials, each with integer
coefficients in integer symbols: checked) and D = N - (N - q) T,
``U = Min(T, 1/Max(1 - (N/q - 1)*(T - 1), 1/T))`` (checked as that text; q is read once, and
1 - (N/q - 1)(T - 1) = D/q). Premises, per bucket with mean m and
low_j / high_j the means of its j smallest / largest values (sizes in 1..N-1, integers):
(P1) j -> low_j is nondecreasing and j -> high_j nonincreasing (as in
``extreme-means-monotone``); (P2) N m = j low_j + (N - j) high_{N-j} for 0 <= j <= N; (P3) A's
level <= T gives low_{j_A} >= m/T and high_{j_A} <= T m. Obligations, in each case of q's
``Min`` (q_ the component that is the smallest): q >= 1, j_B - q >= 0, N - q - j_A >= 0,
j_B - j_A >= 0, T > 0 and three identities with multipliers >= 0 (the equation (P2) enters
as the one inequality it implies):
*lower* ``q a - m D = 1 (q a + (N-q) b - N m) + lambda (T m - b)`` (a = low_q, b = high_{N-q}:
(P2) with j = q, b <= high_{j_A} <= T m by (P1, P3)), so m/low_{j_B} <= m/low_q <= q/D where
D > 0; *upper* ``m (N T - (N-q)) - q T b = T (N m - q b - (N-q) a) + lambda (T a - m)``
(a = low_{N-q} >= low_{j_A} >= m/T, b = high_q >= high_{j_B}), so high_{j_B}/m <= (N T -
(N-q))/(q T); *gap* ``q^2 T - (N T - (N-q)) D = lambda (T - 1)^2``, so that ratio is <= q/D
where D > 0. With j_B >= j_A (P1 gives B <= T): where D/q >= 1/T, D > 0 and U = Min(T, q/D) >= B;
where D/q < 1/T, 1/Max(D/q, 1/T) = T and U = T >= B.
"""

from __future__ import annotations

from implgraph.certify.lemmas import lemma
from implgraph.certify.obligation import Obligation, integer_valued, multipliers, same_text, size, two_sided_subsets
from implgraph.core import methods


#: the facts of ``extreme-means-supremum``'s identities, by the names multipliers refer to
SUPREMUM_FACTS = {"lower": ("N*m = q*low_q + (N-q)*high_(N-q)", "high_(N-q) <= T*m"),
                  "upper": ("N*m = q*high_q + (N-q)*low_(N-q)", "low_(N-q) >= m/T"),
                  "gap": ("(T-1)^2 >= 0",)}


def supremum_upper(q):
    """The text of ``extreme-means-supremum``'s bound ``Min(T, 1/Max(1 - (N/q - 1)*(T - 1), 1/T))``."""
    return f"Min(T, 1/Max(1 - (N/({q}) - 1)*(T - 1), 1/T))"


def _supremum_structure(cert, A, B, rd):
    q = (cert.get("upper_certificate") or {}).get("q")
    return [two_sided_subsets(A, B),
            ("U = Min(T, 1/Max(1 - (N/q - 1)*(T - 1), 1/T))", q is not None and same_text(rd, cert["upper"],
                                                                                     supremum_upper(q))),
            ("q is an integer (integer coefficients, integer symbols)", q is not None
             and integer_valued(rd.components(q), cert.get("symbols") or {}))]


def _supremum(cert, A, B, rd, data):
    """The obligations of ``extreme-means-supremum`` (see the module notes), case by case of q's ``Min``."""
    g = rd.gens
    T, N, q, a, b, m = g["T"], g["N"], g["q_"], g["a_"], g["b_"], g["m_"]
    ja, jb = size(A, rd), size(B, rd)
    D = N - (N - q) * T
    lo, up = SUPREMUM_FACTS["lower"], SUPREMUM_FACTS["upper"]
    identities = {
        "lower": (q * a - m * D, {lo[0]: q * a + (N - q) * b - N * m, lo[1]: T * m - b},
                  "q*low_q - m*(N - (N-q)*T) >= 0"),
        "upper": (m * (N * T - (N - q)) - q * T * b, {up[0]: N * m - q * b - (N - q) * a, up[1]: T * a - m},
                  "m*(N*T - (N-q)) - q*T*high_q >= 0"),
        "gap": (q * q * T - (N * T - (N - q)) * D, {SUPREMUM_FACTS["gap"][0]: (T - 1) ** 2},
                "q^2*T - (N*T - (N-q))*(N - (N-q)*T) >= 0"),
    }
    mults = multipliers(data, rd)
    out = [Obligation("j_B - j_A >= 0", jb - ja), Obligation("T > 0", T, strict=True)]
    comps = rd.components(data["q"])
    for i, c in enumerate(comps):
        case = [("==", q - c)] + [(">=", o - c) for k, o in enumerate(comps) if k != i]
        where = f" (q = {c}" + (", the smallest" if len(comps) > 1 else "") + ")"
        out += [Obligation("q >= 1" + where, q - 1, case), Obligation("j_B - q >= 0" + where, jb - q, case),
                Obligation("N - q - j_A >= 0" + where, N - q - ja, case)]
        for key, (target, facts, what) in identities.items():
            out.append(Obligation(f"{key}: {what}{where}", target, case + [(">=", f) for f in facts.values()],
                                  facts=facts, multipliers=mults.get(key)))
    return out


lemma(methods.SUBSET_SUPREMUM, structure=_supremum_structure, obligations=_supremum)
