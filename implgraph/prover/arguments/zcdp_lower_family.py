"""Non-implications for every N by a witness family: a bounded KL or Renyi divergence never bounds the zero-concentrated level.

A is a divergence (:class:`implgraph.definitions.divergences.Divergence`) of kind KL or Renyi of order alpha in (1, 2]
between pairs of records (or between the table and the table without one record: two averages of records, at most
the largest over pairs by joint convexity; van Erven and Harremoes 2014, Theorem 11, cited); B is the
zero-concentrated level between pairs of records (kind ``zcdp``: rho*(x || y) = sup_{a > 1} D_a(x || y)/a, Bun and
Steinke 2016, both ordered pairs). The family is :mod:`implgraph.prover.arguments.divergence_family`'s, for every
N >= 2 and K >= 3: one record at x = (K b, 1 - K b) and N - 1 at y = (b, 1 - b), with b = 1/((K - 1)^2 + 1).

- A's level is bounded (:func:`implgraph.prover.arguments.divergence_family.chi_square_bounded`): chi^2(x || y) = 1
  and chi^2(y || x) = (K - 1)/(K (K - 2)) <= 1 for K >= 3, so D_2 = log(1 + chi^2) <= log 2 both ways and
  KL <= chi^2 <= 1 (log u <= u - 1); an order in (1, 2) is at most D_2 (monotone in the order, ibid., Theorem 3).
- B's level is unbounded: the supremum is at least its value at the order a = 3,
  rho* >= D_3(x || y)/3 = log S_3/6 with S_3 = sum_l x_l^3/y_l^2 (coq/theories/ZcdpOrder.v, ``zcdp_lower``), and
  every term of S_3 is >= 0, so S_3 >= x_1^3/y_1^2 = K^3 b = K^3/((K - 1)^2 + 1) >= K (K^3 - K ((K - 1)^2 + 1) =
  2 K (K - 1) >= 0): rho* >= log(K)/6, unbounded as K grows, at every N >= 2 (the table's only ordered pairs of
  distinct records are (x, y) and (y, x)).
- B on record removal (kind ``zcdp``, compares ``removal``: the table's mean P against the mean Q_i without record i,
  both ways): removing the record at x leaves Q = y, and P = (x + (N - 1) y)/N has P_1 = b (K + N - 1)/N, so
  S_3(P || y) >= P_1^3/y_1^2 = b (K + N - 1)^3/N^3 >= K^3 b/N^3 >= K/N^3: rho* >= log(K/N^3)/6, unbounded as K grows
  at every fixed N >= 2 (the tables are re-checked against log(b (K + N - 1)^3/N^3)/6).

So for every f, the family's table at K > e^(6 f(A's bound)) satisfies A at its bound and not B at f: no f works.
The verdict carries the family's certificate (method ``zcdp-lower-family``, kind ``unbounded``, the order 3 of the
lower bound), which the independent checker :mod:`implgraph.certify.lemmas.zcdp_lower_family` re-derives
symbolically for every N >= 2 and K >= 3 and must accept; the tables at N = 2, 3 and K = 3..6 are re-checked with the
registry's levels (A's exactly; B's rigorous enclosure against log(K^3 b)/6).
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.definitions.divergences import divergence_of

METHOD = methods.ZCDP_LOWER_FAMILY
#: where the prover tries it (it has no handler of its own)
TRIED = ("by the prover (`engines/prove.py`) where no direct argument applies, after the registered lemma chains and "
         "`divergence-family`'s refutation: a refutation for every N")
#: the order a of the lower bound D_a/a the certificate states
ORDER = 3

__all__ = ["refutation", "lower_bound", "applies", "ORDER"]


def lower_bound(K, N=None):
    """log(K^3 b)/6, b = 1/((K - 1)^2 + 1): the family's zero-concentrated level between records is at least this; with
    ``N`` (B on record removal: P against Q = y) log(b (K + N - 1)^3/N^3)/6 (module notes)."""
    K = sympy.Rational(K)
    top = K if N is None else (K + N - 1) / sympy.Integer(N)
    return sympy.log(top ** 3 / ((K - 1) ** 2 + 1)) / (2 * ORDER)


def applies(da, db) -> bool:
    """A KL or Renyi of order in (1, 2] between records (or a removal), B the zero-concentrated level of records (or
    on record removal)."""
    if da is None or db is None or db.kind != "zcdp" or db.compares not in ("pairs", "removal"):
        return False
    if da.compares not in ("pairs", "removal"):
        return False
    order = sympy.sympify(da.order) if da.kind == "renyi" else None
    return da.kind == "kl" or (order is not None and order.is_number and order is not sympy.oo
                               and bool(1 < order <= 2))


def refutation(a, b, a_params=None, b_params=None):
    """The prover's verdict fields refuting A => B for every f by the family (module notes), or None where it does
    not apply or its certificate is not accepted by the checker."""
    from implgraph.certify.accepted import accepted
    from implgraph.prover.arguments.divergence_family import _unbounded_rows, chi_square_bounded
    from implgraph.prover.divergence_witness import family_certificate
    a_params, b_params = a_params or {}, b_params or {}
    da, db = divergence_of(a, a_params), divergence_of(b, b_params)
    if not applies(da, db) or not chi_square_bounded():
        return None
    cert = family_certificate(a, a_params, b, b_params, "unbounded", _unbounded_rows(), 2, 3)
    cert["method"] = METHOD.name
    cert["family"]["order"] = str(ORDER)
    if not accepted(cert):
        return None
    checked = _tables(a, b, a_params, b_params, da, db)
    if checked is None:
        return None
    return _verdict(a, b, da, checked, cert, db)


def _tables(a, b, a_params, b_params, da, db):
    """``["(N, K) = ..."]``: the family's tables at N = 2, 3 and K = 3..6, A's level (exact) at most its bound and
    B's at least :func:`lower_bound` (the registry's level, a rigorous enclosure); None where one is not."""
    from implgraph.prover.arguments.divergence_family import family_rows, spot_checked
    cap = 1 if da.kind == "kl" else sympy.log(2)
    removal = db.compares == "removal"
    return spot_checked(a, a_params, b, b_params, family_rows, ((2, 3), (3, 4, 5, 6)), cap,
                        lambda N, K: lower_bound(K, N if removal else None))


def _verdict(a, b, da, checked, cert, db):
    from implgraph.prover.arguments.divergence_family import family_rows
    order = "KL" if da.kind == "kl" else f"Renyi-{da.order}"
    how = ("KL <= chi^2 <= 1 (log u <= u - 1)" if da.kind == "kl" else "D_2 = log(1 + chi^2) <= log 2"
           if da.order == 2 else f"D_{da.order} <= D_2 <= log 2 (the Renyi divergence is nondecreasing in its order; "
           "van Erven and Harremoes 2014, Theorem 3)")
    mixed = "" if da.compares == "pairs" else (
        " (a removal compares averages of records: at most the largest over pairs, joint convexity; van Erven and "
        "Harremoes 2014, Theorem 11)")
    evidence = (f"no f can work: a witness family for every N >= 2 and K >= 3, one record at x = (K b, 1 - K b) and "
                f"N - 1 at y = (b, 1 - b), b = 1/((K - 1)^2 + 1): chi^2 is 1 one way and (K - 1)/(K (K - 2)) <= 1 "
                f"the other (exact algebra), so {a.name}'s {order} level is bounded: {how}{mixed}, while {b.name}'s "
                + (f"zero-concentrated level is >= D_{ORDER}(x || y)/{ORDER} = log(sum_l x_l^3/y_l^2)/6 >= "
                   "log(K^3 b)/6 >= log(K)/6, unbounded as K grows" if db.compares == "pairs" else
                   f"zero-concentrated level is >= D_{ORDER}(P || y)/{ORDER} (the table's mean P against the table "
                   "without the record at x, which is y) = log(sum_l P_l^3/y_l^2)/6 >= log(b (K + N - 1)^3/N^3)/6 >= "
                   "log(K/N^3)/6, unbounded as K grows at every N")
                + f"; its certificate (method {METHOD.name}) re-checked "
                f"symbolically in N and K by implgraph.certify; the tables re-checked at {', '.join(checked)} "
                f"({a.name} exactly, {b.name} by its rigorous enclosure)")
    witness = {"rows": [[str(v) for v in r] for r in family_rows(3, 2)], "classes": None,
               "family": "one record at (K b, 1 - K b), N - 1 at (b, 1 - b), b = 1/((K - 1)^2 + 1), every N >= 2 "
                         "and K >= 3", "point": {"K": 3, "N": 2}}
    return {"verdict": "refuted", "evidence": evidence, "witness": witness, "tightness": "wrong",
            "method": METHOD.name, "details": {"certificate": cert}}
