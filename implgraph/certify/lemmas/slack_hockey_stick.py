"""The slack-hockey-stick lemma: an (eps, delta) level between two records bounds the hockey-stick slack at a number
gamma between two records (gamma >= 1) or on record removal (gamma >= 2).

**Lemma.** For u, v in [0, 1] with u <= T v + delta, 1 - v <= T (1 - u) + delta, T >= 1, g >= 1:
u - g v <= max(delta, (T - g + (1 + g) delta)/(T + 1)) (split at v = (1 - delta)/(T + 1); Kairouz, Oh and Viswanath
2015). Between records u = x_i(S), v = x_k(S) at g = gamma; on removal u = x_i(S), v = Q_i(S) (A averaged over the
other records) at g = 1 + N (gamma - 1), since P - gamma Q_i = (x_i - g Q_i)/N, and Q_i - gamma P <= 0 for
gamma >= N/(N - 1); U is then the maximum over N.

What the checker re-derives from the certificate's statement, not from its data:

- A's side is registered with a declared slack between ``pairs``, delta a number in [0, 1)
  (:func:`implgraph.certify.obligation.slack`; the registry check compares it with A's parameter);
- B's registered definition declares a hockey-stick divergence at a number gamma, between ``pairs`` (gamma >= 1) or
  on ``removal`` (gamma >= 2), and the certificate's data state that slack and divergence;
- the domain implies T >= 1 and N >= 2; U is the lemma's Max, argument by argument (exact algebra);
- where tightness is claimed: two families, one on the domain exactly T <= g (the first record at delta, the
  others at 0), one ``beyond`` on T >= g (the first record at (T + delta)/(T + 1), the others at
  (1 - delta)/(T + 1)), and at each sampled N and T of its domain each is a table whose registered A level is <= T
  and whose B level is U (:mod:`implgraph.certify.binary_family`).
"""

from __future__ import annotations

import sympy

from implgraph.certify.binary_family import sampled_rows_step
from implgraph.certify.claim import parse_condition
from implgraph.certify.domain import declared_names
from implgraph.certify.hypotheses import domain_hypotheses
from implgraph.certify.lemmas import lemma
from implgraph.certify.lemmas.chord import _divergence, _report
from implgraph.certify.obligation import slack
from implgraph.certify.report import lemma_steps
from implgraph.certify.same_max import same_max
from implgraph.definitions.divergence_gamma import gamma_of as declared_gamma
from implgraph.core import methods
from implgraph.core.errors import InputError
from implgraph.core.formula import parse_expr

__all__ = ["check", "value", "ratio"]

_T = sympy.Symbol("T", positive=True)
_N = sympy.Symbol("N", integer=True, positive=True)


def ratio(compares, g):
    """The pair lemma's ratio: gamma between records, 1 + N (gamma - 1) on record removal."""
    return g if compares == "pairs" else 1 + _N * (g - 1)


def value(compares, d, g):
    """The lemma's two arguments of U's Max for a slack ``d`` and B's ``g`` on ``compares``."""
    r = ratio(compares, g)
    scale = 1 if compares == "pairs" else _N
    return [d / scale, (_T - r + (1 + r) * d) / (scale * (_T + 1))]


def _b_gamma(div):
    """``(compares, gamma)`` of B's registered hockey-stick at a number in its range, or None."""
    if div is None or div.compares not in ("pairs", "removal"):
        return None
    g = declared_gamma(div, div.compares, 1 if div.compares == "pairs" else 2, tv=False)
    return None if g is None else (div.compares, g)


def _max_of(upper, args) -> bool:
    """Is ``upper`` a Max of exactly the two expressions ``args`` (in either order, each up to exact algebra)?"""
    return isinstance(upper, sympy.Max) and len(upper.args) == 2 and same_max(upper, sympy.Max(*args, evaluate=False))


def _data_ok(data, d_slack, compares, g) -> bool:
    """The certificate's data state A's slack and B's divergence as the registry gives them."""
    div = data.get("b_divergence") or {}
    try:
        same_g = sympy.simplify(parse_expr(str(div.get("gamma")), {}) - g) == 0
    except (InputError, ValueError, TypeError):
        return False
    return (data.get("lemma") == methods.SLACK_HOCKEY_STICK.lemma and data.get("slack") == d_slack
            and div.get("kind") == "hockey-stick" and div.get("compares") == compares and same_g)


#: the sampled levels T (both sides of the ratio; on removal it is N + 1 at gamma = 2)
_LEVELS = ("5/4", "3/2", "2", "3", "5", "7", "10")


def _family_ok(fam, names, d, beyond, r) -> bool:
    """The family: E1 one record at delta and E2 the N - 1 others at 0 on T <= r; ``beyond``, on T >= r, E1 at
    (T + delta)/(T + 1) and E2 at (1 - delta)/(T + 1)."""
    rows = {str(x.get("class")): (parse_expr(x["count"], names), parse_expr(x["value"], names))
            for x in fam.get("rows") or []}
    own = [c for text in fam.get("domain") or [] for c in parse_condition(text, names)]
    want = (sympy.Ge if beyond else sympy.Le)
    if set(rows) != {"E1", "E2"} or len(own) != 1 or not isinstance(own[0], want) \
            or sympy.simplify(own[0].lhs - _T) != 0 or sympy.simplify(own[0].rhs - r) != 0:
        return False
    first, others = ((_T + d) / (_T + 1), (1 - d) / (_T + 1)) if beyond else (d, sympy.Integer(0))
    return (sympy.simplify(rows["E1"][0] - 1) == 0 and sympy.simplify(rows["E1"][1] - first) == 0
            and sympy.simplify(rows["E2"][0] - (_N - 1)) == 0 and sympy.simplify(rows["E2"][1] - others) == 0)


def _tight_steps(cert, names, div, hyps, d, r, ns):
    """The steps of the two families (module notes)."""
    fam = cert.get("tightness") or {}
    steps = []
    for beyond, part in ((False, fam), (True, fam.get("beyond") or {})):
        side = "T >= the lemma's ratio: the dominating pair" if beyond else "T <= the lemma's ratio: delta and 0"
        steps.append((f"the family where {side}", _family_ok(part, names, d, beyond, r), "exact"))
        own = [c for text in part.get("domain") or [] for c in parse_condition(text, names)]
        steps.append(sampled_rows_step(cert, names, part, div, hyps.rels + own, ns, _LEVELS))
    return steps


@lemma(methods.SLACK_HOCKEY_STICK)
def check(cert, ns=range(2, 8), timeout_ms=4000):
    """Re-check a slack-hockey-stick certificate (see the module notes)."""
    with lemma_steps(cert) as steps:
        names = declared_names(cert, {"T": _T, "N": _N})
        A = cert.get("A") or {}
        d = slack(A, "pairs")
        steps.append(("A declares a slack delta in [0, 1) between two records", d is not None, "declared slack"))
        _, div = _divergence(cert)
        b = _b_gamma(div)
        steps.append(("B's registered definition declares a hockey-stick at a number gamma, >= 1 between records or "
                      ">= 2 on record removal", b is not None, "registry"))
        if not all(s[1] for s in steps):
            return _report(steps)
        d = sympy.Rational(d.numerator, d.denominator)
        compares, g = b
        hyps = domain_hypotheses(cert, names)
        steps.append(("the certificate's data state A's slack and B's divergence as the registry gives them",
                      _data_ok(cert.get("upper_certificate") or {}, A.get("slack"), compares, g), "registry"))
        steps.append(("the domain implies T >= 1 and N >= 2", bool(hyps.implied(sympy.Ge(_T, 1))[0])
                      and bool(hyps.implied(sympy.Ge(_N, 2))[0]), "the domain's conditions"))
        upper = parse_expr(str(cert.get("upper")), names)
        steps.append((f"U is the lemma's Max for a slack {d} and gamma {g} on {compares}",
                      _max_of(upper, value(compares, d, g)), "exact"))
        if cert.get("tight"):
            steps += _tight_steps(cert, names, div, hyps, d, ratio(compares, g), ns)
    return _report(steps)
