"""The subset corners lemma: every j records' mean within [1/T, T] of the table bounds the hockey stick between two
records by its corner bound on one record's ratio range.

**Lemma.** Let N records x_i have the mean m and every set of j records (1 <= j <= N - 1) have its mean within
[m_l/T, T m_l] bucket by bucket (T >= 1), and gamma >= 1. (1) Each record's ratio to m lies in [lo, hi] (the subset
chord lemma's ends, :mod:`implgraph.certify.lemmas.subset_chord`); lo < 1 < hi where T > 1, and at T = 1 every record
is m. (2) Bucket by bucket, with p = x_i(l), q = x_k(l) in [lo m_l, hi m_l] and G = max(hi - gamma lo, 0),
(hi - lo) max(p - gamma q, 0) <= G (p - lo m_l) and <= G (hi m_l - q): where p > gamma q,
(hi - lo)(p - gamma q) <= (hi - lo)(p - gamma lo m_l) = (hi - gamma lo)(p - lo m_l) - lo (gamma - 1)(hi m_l - p), and
(hi - lo)(p - gamma q) <= (hi - lo)(hi m_l - gamma q) = (hi - gamma lo)(hi m_l - q) - hi (gamma - 1)(q - lo m_l).
Summed (sum p = sum q = sum m = 1), every event E has x_i(E) - gamma x_k(E) <= sum_l max(p - gamma q, 0)
<= G min(1 - lo, hi - 1)/(hi - lo).

What the checker re-derives from the certificate's statement, not from its data:

- A's side is a registered two-sided subset level; its size j is read from the registry's declaration (the
  certificate's ``size`` must be it, :func:`implgraph.certify._registered`), and the domain implies T >= 1,
  j >= 1 and j <= N - 1;
- B's side names a registered definition declaring the hockey stick between every two records, of a rational order
  gamma >= 1; the certificate's kind, order and lemma are those;
- the ends: solved here (the subset chord lemma's :func:`~implgraph.certify.lemmas.subset_chord.ends`), the
  certificate's ``lo`` exactly ``Max(0, l1, l2)`` and ``hi`` exactly ``Min(h1, h2)`` argument by argument, and
  lo < 1 < hi where T > 1;
- U is ``Piecewise((0, T <= 1), (W, True))`` with W, its ends read as atoms lo and hi, equal to
  max(hi - gamma lo, 0) min(1 - lo, hi - 1)/(hi - lo) by exact algebra (gamma B's declared order).

No tightness is claimed by this lemma's certificates; one that claims it is refused.
"""

from __future__ import annotations

import sympy

from implgraph.certify.hypotheses import domain_hypotheses
from implgraph.certify.lemmas import lemma
from implgraph.certify.lemmas.chord import _divergence, _report
from implgraph.certify.lemmas.subset_chord import _end_steps, _implied, _names, _read, _same_args
from implgraph.certify.report import lemma_steps
from implgraph.core import methods

__all__ = ["check", "box_value"]

_T = sympy.Symbol("T", positive=True)
_N = sympy.Symbol("N", integer=True, positive=True)
_LO, _HI = sympy.Symbol("lo", nonnegative=True), sympy.Symbol("hi", positive=True)


def box_value(gamma, lo, hi):
    """The lemma's bound ``max(hi - gamma lo, 0) min(1 - lo, hi - 1)/(hi - lo)``."""
    return sympy.Max(0, hi - gamma * lo) * sympy.Min(1 - lo, hi - 1) / (hi - lo)


def _hockey(div) -> bool:
    if div is None or div.compares != "pairs" or div.kind != "hockey-stick":
        return False
    order = sympy.sympify(div.order)
    return bool(order.is_Rational and order >= 1)


def _value_ok(gamma, upper, lows, highs) -> bool:
    """U is Piecewise((0, T <= 1), (W, True)), W the lemma's bound with its ends read as atoms (module notes)."""
    if not isinstance(upper, sympy.Piecewise) or len(upper.args) != 2 or upper.args[0] != (0, sympy.Le(_T, 1)) \
            or upper.args[1].cond is not sympy.true:
        return False
    W, swap = upper.args[1].expr, {}
    for m in W.atoms(sympy.Max):
        if _same_args(m, sympy.Max, [sympy.Integer(0), *lows]):
            swap[m] = _LO
    for m in W.atoms(sympy.Min):
        if _same_args(m, sympy.Min, highs):
            swap[m] = _HI
    out = W.xreplace(swap)
    if out.free_symbols - {_LO, _HI}:
        return False
    expected = box_value(gamma, _LO, _HI)
    return out == expected or sympy.simplify(out - expected) == 0


def _side_steps(cert, names):
    """``(steps, j, gamma)``: A's and B's shapes, the certificate's data, and the domain's T >= 1, 1 <= j <= N - 1."""
    A, data = cert.get("A") or {}, cert.get("upper_certificate") or {}
    steps = [("A is a two-sided subset level with a size", A.get("family") == "subset"
              and A.get("sides") == "two-sided" and A.get("size") is not None, "declared families")]
    _, div = _divergence(cert)
    steps.append(("B's registered definition declares the hockey stick between every two records, of a rational "
                  "order gamma >= 1", _hockey(div), "registry"))
    if not steps[0][1] or not steps[1][1]:
        return steps, None, None
    declared = {"lemma": methods.SUBSET_CORNERS.lemma, "kind": div.kind, "compares": div.compares,
                "order": str(div.order)}
    steps.append(("the certificate's divergence is B's declared one",
                  all(data.get(k) == v for k, v in declared.items()), "exact"))
    j = _read(A["size"], names)
    steps.append(("the certificate's size is A's, its symbols integers",
                  sympy.simplify(_read(data.get("size"), names) - j) == 0
                  and all(x.is_integer for x in j.free_symbols), "exact"))
    hyps = domain_hypotheses(cert, names)
    for rel, text in ((sympy.Ge(_T, 1), "T >= 1"), (sympy.Ge(j, 1), f"{j} >= 1"),
                      (sympy.Le(j, _N - 1), f"{j} <= N - 1")):
        steps.append((f"the domain implies {text}", _implied(hyps, rel), "the domain's conditions"))
    return steps, j, sympy.sympify(div.order)


@lemma(methods.SUBSET_CORNERS)
def check(cert, ns=range(2, 10), timeout_ms=4000):
    """Re-check a subset-corners certificate (see the module notes)."""
    with lemma_steps(cert) as steps:
        names = _names(cert)
        more, j, gamma = _side_steps(cert, names)
        steps += more
        if j is None:
            return _report(steps)
        more, lows, highs = _end_steps(cert, names, j)
        steps += more
        steps.append((f"U is 0 at T = 1 and max(hi - {gamma} lo, 0) min(1 - lo, hi - 1)/(hi - lo) beyond (exact "
                      "algebra, lo and hi atoms)", _value_ok(gamma, _read(cert.get("upper"), names), lows, highs),
                      "exact"))
        steps.append(("no tightness is claimed (the lemma is an upper bound)", not cert.get("tight"), "exact"))
    return _report(steps)
