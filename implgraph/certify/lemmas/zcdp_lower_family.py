"""The zero-concentrated witness-family lemma: a family on which A's KL or Renyi level stays bounded, B's
zero-concentrated level does not.

A certificate of method ``zcdp-lower-family`` (kind ``unbounded``) refutes A => B for every f: its ``family`` is
blocks of equal records ``{"count", "values", "class"}`` (counts in N, values in K), for every N >= ``n0`` and
K >= ``K0`` (the ``domain`` states exactly these two conditions), and an integer ``order`` n >= 2. Re-derived here from
the registry, never from the certificate's words:

- **the family is a table** for every N >= n0 and K >= K0 (counts integers >= 1 adding up to N, each record a
  distribution: :mod:`implgraph.certify.lemmas.divergence_family`'s steps);
- **A's level is bounded**: A declares KL or Renyi of order in (1, 2] between pairs of records (or a removal), and
  chi^2 <= 1 between every two distinct records, both ways, for every K >= K0, so D_2 = log(1 + chi^2) <= log 2
  and KL <= chi^2 <= 1 (log u <= u - 1, re-checked); an order below 2 by the monotonicity in the order, a removal by
  joint convexity (both cited: van Erven and Harremoes, IEEE Trans. Inf. Theory 60(7), 2014, Theorems 3 and 11) --
  :mod:`implgraph.certify.lemmas.divergence_family`'s steps;
- **B's level grows without bound**: B declares the divergence kind ``zcdp`` between pairs of records, the
  supremum over orders a > 1 of D_a(x || y)/a, so it is at least D_n(x || y)/n = log(S_n)/(n (n - 1)) with
  S_n = sum_l y_l (x_l/y_l)^n (the definition of a supremum; coq/theories/ZcdpOrder.v, ``zcdp_lower``); every term of
  S_n is >= 0, so S_n >= x_l^n/y_l^(n - 1) for each bucket l with y_l > 0 (where y_l = 0 < x_l, the level is
  infinite), and for some ordered pair of the family's records (x, y) and bucket l, x_l^n/y_l^(n - 1) tends to oo
  with K (its leading coefficient in K positive), at every N >= n0 (both records present: counts >= 1). B on record
  removal (compares ``removal``: the table's mean P against the mean Q_i without record i, both ways): the same on the
  ordered pairs (P, Q_i) and (Q_i, P), P and Q_i = (N P - x_i)/(N - 1) computed from the family's blocks (a block of
  count >= 1 has a record to remove), x_l^n/y_l^(n - 1) then rational in K with coefficients in N.

So for every f the family's table at a K beyond f's value satisfies A at its bound and not B at f. A forged family
(another count, another value, another order) fails the re-computation.
"""

from __future__ import annotations

import sympy

from implgraph.certify.lemmas import lemma
from implgraph.certify.lemmas.divergence_family import _a_bounded, _rows, _side, _table_steps, rows_text
from implgraph.certify.lemmas.divergence_family_table import mean, tends_to_oo
from implgraph.certify.report import lemma_steps, steps_report as _report
from implgraph.core import methods
from implgraph.core.formula import parse_expr

__all__ = ["check"]

_N = sympy.Symbol("N", positive=True, integer=True)
_K = sympy.Symbol("K", positive=True)


def _sides_steps(cert, wa, wb):
    """The sides: A KL or Renyi of order in (1, 2] between records (or a removal), B ``zcdp`` between records, their
    parameters numbers."""
    a_ok = wa is not None and wa[0] == "div" and wa[1].compares in ("pairs", "removal") and (
        wa[1].kind == "kl" or (wa[1].kind == "renyi" and wa[1].order is not sympy.oo and bool(1 < wa[1].order <= 2)))
    b_ok = wb is not None and wb[0] == "div" and wb[1].kind == "zcdp" and wb[1].compares in ("pairs", "removal")
    numbers = all(not parse_expr(str(v), {"N": _N}).free_symbols
                  for label in ("A", "B") for v in ((cert.get(label) or {}).get("params") or {}).values())
    return [("A declares KL or Renyi of order in (1, 2] between records (or a removal)", a_ok,
             "registry" if wa is None else f"{wa[0]} {getattr(wa[1], 'kind', '')} {getattr(wa[1], 'order', '')}"),
            ("B declares the zero-concentrated level (kind zcdp) between records (or a removal)", b_ok, "registry"),
            ("the sides' parameters are numbers", numbers, "exact"),
            ("a non-implication (no f), nothing else claimed",
             cert.get("claim") == "no-f" and not cert.get("tight") and cert.get("upper") is None, "exact")]


def _domain_step(cert, n0, k0):
    """The certificate's domain is exactly N >= n0 and K >= K0."""
    from implgraph.certify.expr import read_sympy
    wanted = {sympy.expand(_N - n0), sympy.expand(_K - k0)}
    stated = set()
    for text in cert.get("domain") or ():
        rel = read_sympy(str(text), {"N": _N, "K": _K})
        if not isinstance(rel, (sympy.LessThan, sympy.GreaterThan)):
            return ("the domain is N >= n0 and K >= K0", False, str(text))
        stated.add(sympy.expand(rel.gts - rel.lts))
    return (f"the domain is N >= {n0} and K >= {k0}, nothing else", stated == wanted, "; ".join(map(str, stated)))


def _compared(rows, compares):
    """The ordered pairs B compares on the family: distinct records, or (removal) P against each Q_i, both ways."""
    if compares == "pairs":
        distinct = list(dict.fromkeys(v for _, v, _ in rows))
        return [(x, y) for x in distinct for y in distinct if x != y]
    P = mean(rows, _N)
    out = []
    for _, x, _ in rows:        # Q_i = (N P - x_i)/(N - 1): the mean without one record of this block
        Q = tuple(sympy.cancel((_N * p - v) / (_N - 1)) for p, v in zip(P, x))
        out += [(tuple(sympy.cancel(p) for p in P), Q), (Q, tuple(sympy.cancel(p) for p in P))]
    return out


def _b_steps(rows, n, n0, compares="pairs"):
    """B's level is at least log(x_l^n/y_l^(n - 1))/(n (n - 1)) on an ordered pair B compares on the family (two
    records, or the table's mean and the mean without one record), tending to oo with K."""
    grows = []
    for x, y in _compared(rows, compares):
        grows += [(x, y, l) for l in range(len(x)) if y[l] != 0 and x[l] != 0
                  and tends_to_oo(x[l] ** n / y[l] ** (n - 1), n0)]
    how = "none" if not grows else (f"bucket {grows[0][2] + 1} of ({', '.join(map(str, grows[0][0]))}) against "
                                    f"({', '.join(map(str, grows[0][1]))}): "
                                    f"{sympy.factor(grows[0][0][grows[0][2]] ** n / grows[0][1][grows[0][2]] ** (n - 1))}")
    return [(f"rho* >= D_{n}(x || y)/{n} = log(S_{n})/{n * (n - 1)} (the supremum over orders; ZcdpOrder.zcdp_lower)",
             True, "the definition"),
            (f"S_{n} >= x_l^{n}/y_l^{n - 1} (every term of S_{n} is >= 0)", True, "the records' values are >= 0"),
            (f"x_l^{n}/y_l^{n - 1} tends to oo with K for a pair B compares ({compares}), at every N >= {n0}",
             bool(grows), how)]


def describe(cert) -> list:
    fam = cert.get("family") or {}
    rows = rows_text(fam)
    return [f"{(cert.get('A') or {}).get('definition')} =/=> {(cert.get('B') or {}).get('definition')} for every f: "
            f"the family {rows}, every N >= {fam.get('n0')} and K >= {fam.get('K0')}, B at least "
            f"D_{fam.get('order')}/{fam.get('order')}"]


@lemma(methods.ZCDP_LOWER_FAMILY, own_partitions=True, describe=describe)
def check(cert, ns=range(2, 13), timeout_ms=4000):
    """Re-check a zero-concentrated witness-family certificate (see the module notes)."""
    with lemma_steps(cert) as steps:
        _, wa = _side(cert, "A")
        _, wb = _side(cert, "B")
        steps += _sides_steps(cert, wa, wb)
        fam = cert.get("family") or {}
        n0, k0, n = int(fam.get("n0")), sympy.Rational(str(fam.get("K0"))), sympy.Integer(int(fam.get("order")))
        steps.append(("a family of kind unbounded, an integer order n >= 2, n0 >= 2",
                      fam.get("kind") == "unbounded" and n >= 2 and n0 >= 2, f"n = {n}, n0 = {n0}"))
        if not all(s[1] for s in steps):
            return _report(steps)
        steps.append(_domain_step(cert, n0, k0))
        rows = _rows(fam, {"N": _N, "K": _K})
        if any(v.has(_N) for _, vals, _ in rows for v in vals):
            steps.append(("the records' values do not depend on N", False, "they do"))
            return _report(steps)
        steps += _table_steps(rows, {_K: k0}, n0)
        steps += _a_bounded(wa[1], rows, k0)
        steps += _b_steps(rows, int(n), n0, wb[1].compares)
    return _report(steps)
