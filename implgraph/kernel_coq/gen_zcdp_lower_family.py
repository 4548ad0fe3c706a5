"""Coq theorems of ``zcdp-lower-family`` certificates: no f bounds the zero-concentrated level by a Renyi-2 or KL level
(``ZcdpLowerFamily.v``; docs/arguments/zcdp-lower-family.md).

The certificate's family must be the library's, read exactly (its counts and values equal, as expressions, to
``ZcdpLowerFamily.ftab``: one record at x = (K b, 1 - K b), N - 1 at y = (b, 1 - b), b = 1/((K - 1)^2 + 1), N >= 2,
K >= 3, the lower bound at the order 3); A declares Renyi of order 2 or KL between records (the sides are read from
the registry: :func:`implgraph.kernel_coq.adapter.divergence_side`), B the zero-concentrated level (kind ``zcdp``)
between records. The theorem states, for every N >= 2 and every rho, some K >= 3 whose table ``ftab K`` of N records
is a table, meets A at ``ln 2`` (``div_pairs_le``) and does not meet B at rho (``zcdp_pairs_le``): no function of A's
level bounds B's. It is ``ZcdpLowerFamily.zcdp_family`` at the certificate's kind. Another family, order, side or a
removal (joint convexity is not in this library lemma) or an order of A other than 2 raises :class:`Untranslatable`.
"""

from __future__ import annotations

import sympy

from implgraph.kernel_coq import adapter
from implgraph.kernel_coq.coqexpr import Untranslatable

__all__ = ["zcdp_lower_family", "MODULES"]

MODULES = ("Divergence", "ZcdpOrder", "ZcdpLowerFamily")

_N = sympy.Symbol("N", integer=True, positive=True)
_K = sympy.Symbol("K", positive=True)
#: the library's family (``ZcdpLowerFamily.ftab``): (count, values)
_B = 1 / ((_K - 1) ** 2 + 1)
LIBRARY = ((sympy.Integer(1), (_K * _B, 1 - _K * _B)), (_N - 1, (_B, 1 - _B)))


def _need(ok, what):
    if not ok:
        raise Untranslatable(what)


def _same_family(fam) -> bool:
    from implgraph.core.formula import parse_expr
    rows = fam.get("rows") or []
    if len(rows) != len(LIBRARY):
        return False
    names = {"N": _N, "K": _K}
    for row, (count, values) in zip(rows, LIBRARY):
        got = [parse_expr(str(v), names) for v in row.get("values") or []]
        if len(got) != len(values) or sympy.simplify(parse_expr(str(row.get("count")), names) - count) != 0:
            return False
        if any(sympy.simplify(g - v) != 0 for g, v in zip(got, values)):
            return False
    return True


def zcdp_lower_family(cert, name):
    """The theorem ``name`` of a ``zcdp-lower-family`` certificate (module notes)."""
    da, db = adapter.divergence_side(cert.A), adapter.divergence_side(cert.B)
    _need(db is not None and db.kind == "zcdp" and db.compares == "pairs",
          "B is not the zero-concentrated level between records")
    _need(da is not None and da.compares == "pairs" and (da.kind == "kl" or (da.kind == "renyi" and str(da.order) == "2")),
          "A is not KL or Renyi of order 2 between records (the library's family lemma)")
    fam = cert.raw.get("family") or {}
    _need(fam.get("kind") == "unbounded" and str(fam.get("n0")) == "2" and str(fam.get("K0")) == "3"
          and str(fam.get("order")) == "3" and _same_family(fam), "a family other than ZcdpLowerFamily.ftab")
    kind = "KL" if da.kind == "kl" else "(Renyi 2)"
    which = "or_intror" if da.kind == "kl" else "or_introl"
    return (f"Theorem {name} : forall (N : nat) (rho : R), (2 <= N)%nat ->\n"
            f"  exists K, 3 <= K /\\ table N 2 (ftab K) /\\ div_pairs_le {kind} N 2 (ftab K) (ln 2) /\\\n"
            f"    ~ zcdp_pairs_le N 2 (ftab K) rho.\n"
            f"Proof. intros N rho HN. exact (zcdp_family N {kind} rho HN ({which} eq_refl)). Qed.\n")
