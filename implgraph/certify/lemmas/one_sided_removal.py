"""The one-sided-removal lemma: each record at most T times the table (a one-sided subset level of size 1) bounds the
total variation between the table and the table without one record by min((T - 1)/N, (T - 1)/(T (N - 1)), 1/N), and
the hockey-stick there at a number gamma >= 2 by min(1/N, max(0, (gamma T - gamma N + N - 1)/(T (N - 1)))).

**Lemma.** On an event S, with a = x_i(S), p = P(S) and Q_i the mean of the other N - 1 records,
P(S) - Q_i(S) = (a - p)/(N - 1), and Q_i(S) - P(S) is the same on S^c. A gives a <= T p and a <= 1, and on S^c every
other record's x_k(S) >= 1 - T (1 - p), whose sum over the N - 1 others is N p - a: a - p <= (N - 1)(T - 1)(1 - p).
Weights (N - 1)/N and 1/N on the first and third bound a - p by (N - 1)(T - 1)/N; weights 1/T and (T - 1)/T on the
first and a - p <= 1 - p by (T - 1)/T. On every table, a - p = ((N - 1) a - the others' sum)/N <= (N - 1)/N. Divided
by N - 1: B <= min((T - 1)/N, (T - 1)/(T (N - 1)), 1/N). For the hockey-stick at gamma >= 2 (gamma (N - 1) >= N),
with c = gamma N - N + 1 > 0: P(S) - gamma Q_i(S) = (gamma a - c p)/(N - 1) <= a (gamma - c/T)/(N - 1) <=
max(0, gamma - c/T)/(N - 1) (a <= T p, 0 <= a <= 1), Q_i(S) - gamma P(S) = ((N - gamma (N - 1)) p - a)/(N - 1) <= 0,
and it is at most the total variation, at most 1/N.

What the checker re-derives from the certificate's statement, not from its data:

- A's side is a registered one-sided subset level of size 1 (its size read from the registry's declaration);
- B's side names a registered definition declaring the total variation, or a hockey-stick at a number gamma >= 2, on
  record removal (the certificate's ``gamma`` must be B's);
- the domain implies T >= 1 and N >= 2; U is the lemma's value at B's gamma, built here;
- where tightness is claimed: the family's rows are one record (E1) and N - 1 others (E2), its own domain is none
  for the total variation and exactly N >= 3 for a hockey-stick (at N = 2 the supremum is smaller), and at each
  sampled N and T > 1 in the domain they are a table of N records whose registered A level is <= T and whose B level
  is U (:mod:`implgraph.certify.binary_family`); the family is piecewise in T, so each piece is sampled where it
  holds.
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


def value(g=1):
    """The lemma's U at B's ratio ``g`` (1: the total variation; a hockey-stick's gamma >= 2)."""
    if g == 1:
        return sympy.Min((_T - 1) / _N, (_T - 1) / (_T * (_N - 1)), 1 / _N)
    return sympy.Min(1 / _N, sympy.Max(0, (g * _T - g * _N + _N - 1) / (_T * (_N - 1))))


def b_gamma(div):
    """B's ratio on record removal: 1 for the total variation, a hockey-stick's number gamma >= 2; else None."""
    return declared_gamma(div, "removal", 2)


def _tightness_steps(cert, names, g, div, hyps, ns):
    """The steps of a tightness claim (module notes)."""
    fam = cert.get("tightness") or {}
    own = [r for text in fam.get("domain") or [] for r in parse_condition(text, names)]
    return [("the family is one record and N - 1 others", _family_shape_ok(fam, names), "exact"),
            ("the family's domain is N >= 3 exactly where B is a hockey-stick",
             own == ([] if g == 1 else [sympy.Ge(_N, 3)]), "exact"),
            sampled_rows_step(cert, names, fam, div, hyps.rels + own, ns)]


def _family_shape_ok(fam, names) -> bool:
    """One record in E1, N - 1 in E2 (every record of the table in one of the two)."""
    counts = {str(r.get("class")): parse_expr(r["count"], names) for r in fam.get("rows") or []}
    return set(counts) == {"E1", "E2"} and counts["E1"] == 1 and sympy.simplify(counts["E2"] - (_N - 1)) == 0


@lemma(methods.ONE_SIDED_REMOVAL)
def check(cert, ns=range(2, 10), timeout_ms=4000):
    """Re-check a one-sided-removal certificate (see the module notes)."""
    with lemma_steps(cert) as steps:
        names = declared_names(cert, {"T": _T, "N": _N})
        A, data = cert.get("A") or {}, cert.get("upper_certificate") or {}
        size = parse_expr(str(A.get("size")), names) if A.get("size") is not None else None
        steps.append(("A is a one-sided subset level of size 1", A.get("family") == "subset"
                      and A.get("sides") == "one-sided" and size is not None and sympy.simplify(size - 1) == 0,
                      "declared families"))
        _, div = _divergence(cert)
        g = b_gamma(div)
        steps.append(("B's registered definition declares the total variation, or a hockey-stick at a number "
                      "gamma >= 2, on record removal", g is not None, "registry"))
        if not all(s[1] for s in steps):
            return _report(steps)
        same_g = sympy.simplify(parse_expr(str(data.get("gamma")), {}) - g) == 0
        steps.append(("the certificate's data name this lemma and B's gamma",
                      data.get("lemma") == methods.ONE_SIDED_REMOVAL.lemma and same_g, "exact"))
        hyps = domain_hypotheses(cert, names)
        for rel, text in ((sympy.Ge(_T, 1), "T >= 1"), (sympy.Ge(_N, 2), "N >= 2")):
            steps.append((f"the domain implies {text}", bool(hyps.implied(rel)[0]), "the domain's conditions"))
        upper = parse_expr(str(cert.get("upper")), names)
        steps.append((f"U is the lemma's value at gamma = {g}", sympy.simplify(upper - value(g)) == 0, "exact"))
        if cert.get("tight"):
            steps += _tightness_steps(cert, names, g, div, hyps, ns)
    return _report(steps)
