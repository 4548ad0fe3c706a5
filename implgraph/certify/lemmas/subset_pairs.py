"""The subset-pairs lemma: a two-sided subset level of size j bounds the total variation between two records.

**Lemma.** Let N records x_i have the mean P and every set of j records (1 <= j <= N - 1) have its mean within
[P_l/T, T P_l] bucket by bucket (T >= 1). For records i != k and W any j - 1 of the other N - 2 records,
m1 = (x_i + x_W)/j and m2 = (x_k + x_W)/j are such means and x_i - x_k = j (m1 - m2); where m1 > m2,
m1 - m2 <= m1 - P/T, and m1 - P/T >= 0 in every bucket, so TV(x_i, x_k) = j sum (m1 - m2)^+ <= j (1 - 1/T); and
TV <= 1. So B <= min(1, j (1 - 1/T)).

What the checker re-derives from the certificate's statement, not from its data:

- A's side is a registered two-sided subset level, its size read from the registry's declaration (the certificate's
  ``size`` must be it); the domain implies T >= 1, j >= 1 and j <= N - 1 (so that W exists);
- B's side names a registered definition declaring the total variation between every two records;
- U is min(1, j (1 - 1/T)), built here from A's size (sympy's Min with T > 0: where it resolves, the same);
- where tightness is claimed: the family's records i and k (classes E1, E2) are at total variation U symbolically,
  and at each sampled N, T > 1 and value of the size's symbols in the domain it is a table of N records whose
  registered A level is <= T and whose B level is U (:mod:`implgraph.certify.binary_family`).
"""

from __future__ import annotations

import sympy

from implgraph.certify.binary_family import sampled_rows_step
from implgraph.certify.domain import declared_names
from implgraph.certify.hypotheses import domain_hypotheses
from implgraph.certify.lemmas import lemma
from implgraph.certify.lemmas.chord import _divergence, _report
from implgraph.certify.report import lemma_steps
from implgraph.core import methods
from implgraph.core.formula import parse_expr

__all__ = ["check"]

_T = sympy.Symbol("T", positive=True)
_N = sympy.Symbol("N", integer=True, positive=True)


def _family_ok(fam, names, upper) -> bool:
    """Records i (E1) and k (E2), one each, differ by U in total variation (two buckets: |x_i - x_k|)."""
    rows = {str(r.get("class")): (parse_expr(r["count"], names), parse_expr(r["value"], names))
            for r in fam.get("rows") or []}
    if not {"E1", "E2"} <= set(rows) or rows["E1"][0] != 1 or rows["E2"][0] != 1:
        return False
    return sympy.simplify(rows["E1"][1] - rows["E2"][1] - upper) == 0


@lemma(methods.SUBSET_PAIRS)
def check(cert, ns=range(2, 10), timeout_ms=4000):
    """Re-check a subset-pairs certificate (see the module notes)."""
    with lemma_steps(cert) as steps:
        names = declared_names(cert, {"T": _T, "N": _N})
        A, data = cert.get("A") or {}, cert.get("upper_certificate") or {}
        steps.append(("A is a two-sided subset level with a size", A.get("family") == "subset"
                      and A.get("sides") == "two-sided" and A.get("size") is not None, "declared families"))
        _, div = _divergence(cert)
        steps.append(("B's registered definition declares the total variation between every two records",
                      div is not None and div.compares == "pairs" and div.kind == "tv", "registry"))
        if not all(s[1] for s in steps):
            return _report(steps)
        j = parse_expr(A["size"], names)
        steps.append(("the certificate's data name this lemma and A's size", data.get("lemma") == methods.SUBSET_PAIRS.lemma
                      and sympy.simplify(parse_expr(str(data.get("size")), names) - j) == 0, "exact"))
        hyps = domain_hypotheses(cert, names)
        for rel, text in ((sympy.Ge(_T, 1), "T >= 1"), (sympy.Ge(j, 1), f"{j} >= 1"),
                          (sympy.Le(j, _N - 1), f"{j} <= N - 1")):
            steps.append((f"the domain implies {text}", bool(hyps.implied(rel)[0]), "the domain's conditions"))
        upper = parse_expr(str(cert.get("upper")), names)
        steps.append(("U is min(1, j (1 - 1/T))", sympy.simplify(upper - sympy.Min(1, j * (1 - 1 / _T))) == 0,
                      "exact"))
        if cert.get("tight"):
            fam = cert.get("tightness") or {}
            steps.append(("the family's records i and k are at total variation U", _family_ok(fam, names, upper),
                          "exact"))
            steps.append(sampled_rows_step(cert, names, fam, div, hyps.rels, ns))
    return _report(steps)
