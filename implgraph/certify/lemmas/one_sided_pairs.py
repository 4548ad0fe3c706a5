"""The one-sided-pairs lemma: a one-sided subset level of size j bounds the total variation, and every hockey-stick
at a number gamma >= 1, between two records by min(1, j (T - 1)).

**Lemma.** Let N records x_i have the mean P and every set of j records (1 <= j <= N - 1) have its mean at most
T P_l in every bucket l (T >= 1; nothing is asked below). For records i != k, an event S and W any j - 1 of the other
N - 2 records, m1 = (x_i + x_W)/j and m2 = (x_k + x_W)/j are such means, so m1(S) <= T P(S) and
m2(S^c) <= T P(S^c); x_i(S) - x_k(S) = j (m1(S) - m2(S)) = j (m1(S) + m2(S^c) - 1) <= j (T - 1). With
x_i(S) - x_k(S) <= 1 and x_i(S) - gamma x_k(S) <= x_i(S) - x_k(S) (gamma >= 1, x_k(S) >= 0):
B <= min(1, j (T - 1)).

What the checker re-derives from the certificate's statement, not from its data:

- A's side is a registered one-sided subset level, its size read from the registry's declaration (the certificate's
  ``size`` must be it); the domain implies T >= 1, j >= 1 and j <= N - 1 (so that W exists);
- B's side names a registered definition declaring the total variation, or a hockey-stick at a number gamma >= 1,
  between every two records (the certificate's ``gamma`` must be B's);
- U is min(1, j (T - 1)), built here from A's size;
- where tightness is claimed: the family's records i and k (classes E1, E2, one record each) are at total variation
  U symbolically; for a hockey-stick at gamma > 1 the family's own domain is exactly j (T - 1) >= 1 (there U = 1 and
  the records are (1, 0) and (0, 1)); at each sampled N, T > 1 and value of the size's symbols in the domain it is a
  table of N records whose registered A level is <= T and whose B level is U (:mod:`implgraph.certify.binary_family`).
"""

from __future__ import annotations

import sympy

from implgraph.certify.binary_family import sampled_rows_step
from implgraph.certify.claim import parse_condition
from implgraph.certify.domain import declared_names
from implgraph.certify.hypotheses import domain_hypotheses
from implgraph.certify.lemmas import lemma
from implgraph.certify.lemmas.chord import _divergence, _report
from implgraph.certify.report import lemma_steps
from implgraph.definitions.divergence_gamma import gamma_of as declared_gamma
from implgraph.core import methods
from implgraph.core.formula import parse_expr

__all__ = ["check", "value", "b_gamma"]

_T = sympy.Symbol("T", positive=True)
_N = sympy.Symbol("N", integer=True, positive=True)


def value(j):
    """The lemma's U = min(1, j (T - 1))."""
    return sympy.Min(1, j * (_T - 1))


def b_gamma(div):
    """B's ratio: 1 for the total variation between two records, a hockey-stick's number gamma >= 1 there; else
    None."""
    return declared_gamma(div, "pairs", 1)


def _family_ok(fam, names, upper) -> bool:
    """Records i (E1) and k (E2), one each, differ by U in total variation (two buckets: |x_i - x_k|)."""
    rows = {str(r.get("class")): (parse_expr(r["count"], names), parse_expr(r["value"], names))
            for r in fam.get("rows") or []}
    if not {"E1", "E2"} <= set(rows) or rows["E1"][0] != 1 or rows["E2"][0] != 1:
        return False
    return sympy.simplify(rows["E1"][1] - rows["E2"][1] - upper) == 0


def _domain_ok(own, j, g) -> bool:
    """The family's own domain: none for the total variation, exactly j (T - 1) >= 1 for a hockey-stick at g > 1."""
    if g == 1:
        return own == []
    return len(own) == 1 and isinstance(own[0], sympy.Ge) and \
        sympy.simplify(own[0].lhs - own[0].rhs - (_T - 1 - 1 / j)) == 0


def _tightness_steps(cert, names, upper, j, g, div, hyps, ns):
    """The steps of a tightness claim (module notes)."""
    fam = cert.get("tightness") or {}
    own = [r for text in fam.get("domain") or [] for r in parse_condition(text, names)]
    return [("the family's records i and k are at total variation U", _family_ok(fam, names, upper), "exact"),
            ("the family's domain is j (T - 1) >= 1 exactly where B is a hockey-stick at gamma > 1",
             _domain_ok(own, j, g), "exact"),
            sampled_rows_step(cert, names, fam, div, hyps.rels + own, ns)]


@lemma(methods.ONE_SIDED_PAIRS)
def check(cert, ns=range(2, 10), timeout_ms=4000):
    """Re-check a one-sided-pairs certificate (see the module notes)."""
    with lemma_steps(cert) as steps:
        names = declared_names(cert, {"T": _T, "N": _N})
        A, data = cert.get("A") or {}, cert.get("upper_certificate") or {}
        steps.append(("A is a one-sided subset level with a size", A.get("family") == "subset"
                      and A.get("sides") == "one-sided" and A.get("size") is not None, "declared families"))
        _, div = _divergence(cert)
        g = b_gamma(div)
        steps.append(("B's registered definition declares the total variation, or a hockey-stick at a number "
                      "gamma >= 1, between every two records", g is not None, "registry"))
        if not all(s[1] for s in steps):
            return _report(steps)
        j = parse_expr(A["size"], names)
        same_g = sympy.simplify(parse_expr(str(data.get("gamma")), {}) - g) == 0
        steps.append(("the certificate's data name this lemma, A's size and B's gamma",
                      data.get("lemma") == methods.ONE_SIDED_PAIRS.lemma and same_g
                      and sympy.simplify(parse_expr(str(data.get("size")), names) - j) == 0, "exact"))
        hyps = domain_hypotheses(cert, names)
        for rel, text in ((sympy.Ge(_T, 1), "T >= 1"), (sympy.Ge(j, 1), f"{j} >= 1"),
                          (sympy.Le(j, _N - 1), f"{j} <= N - 1")):
            steps.append((f"the domain implies {text}", bool(hyps.implied(rel)[0]), "the domain's conditions"))
        upper = parse_expr(str(cert.get("upper")), names)
        steps.append(("U is min(1, j (T - 1))", sympy.simplify(upper - value(j)) == 0, "exact"))
        if cert.get("tight"):
            steps += _tightness_steps(cert, names, upper, j, g, div, hyps, ns)
    return _report(steps)
