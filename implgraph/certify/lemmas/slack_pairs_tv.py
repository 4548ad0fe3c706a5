"""The slack-pairs-tv lemma: an (eps, delta) level between two records, or on record removal, bounds the total
variation between two records.

**Lemma.** TV(x_i, x_k) is the largest x_i(S) - x_k(S) over events S. (1) Between records, A at T gives
u <= T v + delta and 1 - v <= T (1 - u) + delta (u = x_i(S), v = x_k(S); S and its complement); their sum over T + 1
is u - v <= (T - 1 + 2 delta)/(T + 1). (2) On removal, x_i - x_k = (N - 1)(Q_k - Q_i) (Q_i the table without
record i), Q_i(S) >= (P(S) - delta)/T and Q_k(S) = 1 - Q_k(S^c) <= 1 - (1 - P(S) - delta)/T, so
x_i(S) - x_k(S) <= (N - 1)(1 - (1 - 2 delta)/T); and TV <= 1.

What the checker re-derives from the certificate's statement, not from its data:

- A's side is registered with a declared slack (between ``pairs`` or on ``removal``) and its delta a number in
  [0, 1) (:func:`implgraph.certify.obligation.slack`; the registry check compares it with A's parameter); or A's
  registered definition declares a hockey-stick divergence at a number gamma >= 1 (total variation: gamma = 1)
  between records or on removal, whose level T is the slack delta at the ratio gamma (the lemma with T -> gamma,
  delta -> T);
- B's side names a registered definition declaring the total variation between every two records;
- the domain implies T >= 1; U is the lemma's value for that slack, built here from delta (exact algebra);
- where tightness is claimed: the family's classes E1 and E2 (one record each at least) are at total variation U
  symbolically, and at each sampled N and T > 1 the family is a table whose registered A level is <= T and whose B
  level is U (:mod:`implgraph.certify.binary_family`).
"""

from __future__ import annotations

import sympy

from implgraph.certify.binary_family import SLACK_T, sampled_rows_step
from implgraph.certify.claim import parse_condition
from implgraph.certify.domain import declared_names
from implgraph.certify.hypotheses import domain_hypotheses
from implgraph.certify.lemmas import lemma
from implgraph.certify.lemmas.chord import _divergence, _report
from implgraph.certify.obligation import slack
from implgraph.certify.report import lemma_steps
from implgraph.core import methods
from implgraph.core.formula import parse_expr

__all__ = ["check", "value"]

_T = sympy.Symbol("T", positive=True)
_N = sympy.Symbol("N", integer=True, positive=True)


def value(compares, d, g=_T):
    """The lemma's U for a slack ``d`` at the ratio ``g`` between ``compares``; None for another kind of slack."""
    if compares == "pairs":
        return (g - 1 + 2 * d) / (g + 1)
    if compares == "removal":
        return sympy.Min(1, (_N - 1) * (1 - (1 - 2 * d) / g))
    return None


def _a_level(cert):
    """``(compares, delta, gamma)`` of A: its declared slack at the ratio T, or its registered hockey-stick divergence
    at a number gamma >= 1 (total variation: gamma = 1) with delta = T (its level); None otherwise."""
    from implgraph.certify.kernel import registered
    from implgraph.definitions.divergences import divergence_of
    A = cert.get("A") or {}
    compares = (A.get("slack") or {}).get("compares")
    d = slack(A, compares) if compares in ("pairs", "removal") else None
    if d is not None:
        return compares, sympy.Rational(d.numerator, d.denominator), _T
    a = registered(A.get("definition")) if A.get("definition") else None
    div = divergence_of(a, A.get("params")) if a is not None else None
    if div is None or div.compares not in ("pairs", "removal") or A.get("slack"):
        return None
    if div.kind == "tv":
        return div.compares, _T, sympy.Integer(1)
    if div.kind == "hockey-stick" and div.order.is_number and div.order.is_finite and bool(div.order >= 1):
        return div.compares, _T, div.order
    return None


def A_slack(cert):
    """A's side's ``slack`` as the certificate states it (its compares and delta, checked against the registry by
    :func:`implgraph.certify._registered`)."""
    return (cert.get("A") or {}).get("slack") or None


def _same_data(stated, derived) -> bool:
    """The data's slack and divergence are the derived ones (the divergence's gamma compared as numbers)."""
    (s_slack, s_div), (d_slack, d_div) = stated, derived
    if s_slack != d_slack or (s_div is None) != (d_div is None):
        return False
    if s_div is None:
        return True
    return s_div.get("compares") == d_div["compares"] and \
        sympy.simplify(parse_expr(str(s_div.get("gamma")), {}) - parse_expr(d_div["gamma"], {})) == 0


def _family_ok(fam, names, upper) -> bool:
    """The first rows of E1 and E2 (at least one record each) differ by U (two buckets: |x_i - x_k|)."""
    rows = {}
    for r in fam.get("rows") or []:
        rows.setdefault(str(r.get("class")), (parse_expr(r["count"], names), parse_expr(r["value"], names)))
    if not {"E1", "E2"} <= set(rows):
        return False
    return sympy.simplify(rows["E1"][1] - rows["E2"][1] - upper) == 0


@lemma(methods.SLACK_PAIRS_TV)
def check(cert, ns=range(2, 10), timeout_ms=4000):
    """Re-check a slack-pairs-tv certificate (see the module notes)."""
    with lemma_steps(cert) as steps:
        names = declared_names(cert, {"T": _T, "N": _N})
        level = _a_level(cert)
        steps.append(("A declares a slack delta in [0, 1) between two records or on record removal, or is a "
                      "hockey-stick (total variation) level there at a number gamma >= 1", level is not None,
                      "declared slack or divergence"))
        _, div = _divergence(cert)
        steps.append(("B's registered definition declares the total variation between every two records",
                      div is not None and div.compares == "pairs" and div.kind == "tv", "registry"))
        if not all(s[1] for s in steps):
            return _report(steps)
        hyps = domain_hypotheses(cert, names)
        compares, d, g = level
        data = cert.get("upper_certificate") or {}
        stated = (data.get("slack") or None, data.get("a_divergence") or None)
        derived = (A_slack(cert), None) if g == _T else (None, {"compares": compares, "gamma": str(g)})
        steps.append(("the certificate's data state A's slack or divergence as the registry gives it",
                      data.get("lemma") == methods.SLACK_PAIRS_TV.lemma and _same_data(stated, derived), "registry"))
        least = 1 if g == _T else 0      # a ratio T >= 1; a hockey-stick's level T (the slack) >= 0
        steps.append((f"the domain implies T >= {least}", bool(hyps.implied(sympy.Ge(_T, least))[0]),
                      "the domain's conditions"))
        upper = parse_expr(str(cert.get("upper")), names)
        steps.append((f"U is the lemma's value for a slack {d} at the ratio {g} on {compares}",
                      sympy.simplify(upper - value(compares, d, g)) == 0, "exact"))
        if cert.get("tight"):
            fam = cert.get("tightness") or {}
            steps.append(("the family's two records are at total variation U", _family_ok(fam, names, upper),
                          "exact"))
            # a hockey-stick level between records: tight where T <= 1 only (U exceeds 1 beyond), the family's domain
            own = [r for text in fam.get("domain") or [] for r in parse_condition(text, names)]
            bounded = compares == "pairs" and g != _T
            steps.append(("the family's domain is T <= 1 exactly where A is a hockey-stick level between records",
                          own == ([sympy.Le(_T, 1)] if bounded else []), "exact"))
            steps.append(sampled_rows_step(cert, names, fam, div, hyps.rels + own, ns, None if g == _T else SLACK_T))
    return _report(steps)
