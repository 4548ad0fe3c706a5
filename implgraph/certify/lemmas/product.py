"""The lemma ``extremes-and-mean`` (method ``product``): extremes and the mean of a bucket.

Under a two-sided subset level T of size 1 (or singleton classes), a bucket with minimum a,
maximum b and mean m has b <= T m and m <= T a; with one value at a, one at b and N - 2 between,
b + (N-1) a <= N m <= a + (N-1) b. B's pairwise ratio of the bucket is b/a.
"""

from __future__ import annotations

from implgraph.certify.lemmas import lemma
from implgraph.certify.obligation import Obligation, size, two_sided
from implgraph.core import methods


#: the facts of ``extremes-and-mean`` (each ``>= 0``), by the names multipliers refer to
FACT_NAMES = ("max<=T*mean", "mean<=T*min", "mean>=extremes", "mean<=extremes", "min>=0", "max>=min")


def _product_structure(cert, A, B, rd):
    size_one = A["family"] == "subset" and size(A, rd) == 1
    singleton = A["family"] == "class" and str(A.get("max_class")) == "1"
    return [("A is a two-sided subset level of size 1 or has singleton classes", (size_one or singleton)
             and two_sided(A)), ("B is pairwise", B["family"] == "pairwise")]


def _product_obligations(cert, A, B, rd, data):
    return _product(cert["upper"], rd, [{k: rd.poly(v) for k, v in comp.items()} for comp in data.get("multipliers", [])])


def _product(upper, rd, multipliers):
    g = rd.gens
    T, N, a, b, m = g["T"], g["N"], g["a_"], g["b_"], g["m_"]
    facts = dict(zip(FACT_NAMES, (T * m - b, T * a - m, N * m - b - (N - 1) * a, a + (N - 1) * b - N * m, a, b - a)))
    hyps = [(">=", f) for f in facts.values()]
    out = []
    for i, c in enumerate(rd.components(upper)):
        mult = multipliers[i] if i < len(multipliers) else None
        out.append(Obligation(f"max <= ({c}) * min", c * a - b, hyps, facts=facts, multipliers=mult))
    return out


lemma(methods.PRODUCT, structure=_product_structure, obligations=_product_obligations)
