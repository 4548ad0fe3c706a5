"""Coq theorems of ``zcdp-family`` certificates: zero-concentrated local privacy does not bound a two-sided ratio.

The certificate's claim is "no f" for every N >= n0; its Coq theorem states it literally, on the library's family
(``coq/theories/ZcdpFamily.v``: ``fam j``, record 0 at (K b, 1 - K b) and the others at (b, 1 - b), K = 2^j,
b = 2^(-j^2 - 2 j))::

    forall (N : nat) (U : R), (n0 <= N)%nat ->
      exists j : nat, (1 <= j)%nat /\\ table N 2 (fam j) /\\ zcdp_pairs_le N (fam j) 1 /\\ ~ B(fam j, U)

(for a class level also ``partition N fam_cls 1``: record 0 alone, the others together), where ``B(x, U)`` is B's
predicate "raw level <= U" in the library's terms (:func:`implgraph.kernel_coq.statement.side_predicate`:
``pairwise_le``, ``subset_le TwoSided`` at B's size, ``class_le TwoSided``). So for every U some table of the family
meets A at 1 and not B at U: no f works. The proofs instantiate ``fam_no_pairwise``, ``fam_no_class`` and
``fam_no_subset`` (records 1..s, s = B's size as a natural number, 1 <= s <= N - 1 on the domain by ``lia``), which
rest on ``zcdp_family`` (the Gaussian tail) and ``fam_hyps``.

The generator translates only the family the library proves: the certificate's rows must be exactly those of
:data:`implgraph.prover.arguments.zcdp_family.ZCDP_FAMILY_ROWS` (compared as expressions) with J0 = 1 and A's bound
1; anything else, a subset size stated by a parameter symbol, a one-sided B or an A on record removal (joint convexity
is not in this library lemma) raises :class:`Untranslatable`.
"""

from __future__ import annotations

import sympy

from implgraph.kernel_coq.coqexpr import Translator, Untranslatable

__all__ = ["zcdp_family_theorem", "MODULES"]

MODULES = ("ZcdpOrder", "ZcdpFamily")

_N = sympy.Symbol("N", integer=True, positive=True)
_J = sympy.Symbol("j", integer=True)


def _same_family(fam) -> bool:
    from implgraph.core.formula import parse_expr
    from implgraph.prover.arguments.zcdp_family import ZCDP_FAMILY_ROWS
    names = {"N": _N, "j": _J}
    rows = fam.get("rows") or []
    if len(rows) != len(ZCDP_FAMILY_ROWS) or str(fam.get("J0")) != "1" or str(fam.get("A_bound")) != "1":
        return False
    for row, (count, values, _) in zip(rows, ZCDP_FAMILY_ROWS):
        pairs = [(row.get("count"), count)] + list(zip(row.get("values") or [], values))
        if len(row.get("values") or []) != len(values):
            return False
        if any(sympy.simplify(parse_expr(str(a), names) - parse_expr(b, names)) != 0 for a, b in pairs):
            return False
    return True


def _nat(size):
    """A subset size a + c N (integers, c in {0, 1}) as a Coq nat term; None otherwise."""
    e = sympy.expand(sympy.sympify(size, locals={"N": _N}))
    if e.free_symbols - {_N}:
        return None
    poly = sympy.Poly(e, _N)
    if poly.degree() > 1:
        return None
    c, a = (poly.all_coeffs() if poly.degree() == 1 else [0, poly.all_coeffs()[0]])
    if not (sympy.Integer(c) in (0, 1) and sympy.Integer(a).is_Integer):
        return None
    if c == 0:
        return f"{int(a)}%nat" if a >= 1 else None
    return "N" if a == 0 else (f"(N + {int(a)})%nat" if a > 0 else f"(N - {int(-a)})%nat")


def zcdp_family_theorem(cert, name):
    """The theorem ``name`` of a ``zcdp-family`` certificate (see the module notes)."""
    from implgraph.kernel_coq.generate import _block
    from implgraph.kernel_coq.statement import side_predicate
    raw = cert.raw
    fam = raw.get("family") or {}
    if raw.get("claim") != "no-f" or not _same_family(fam):
        raise Untranslatable("a zcdp-family certificate whose family is not the library's (ZcdpFamily.fam)")
    n0 = int(fam.get("n0"))
    from implgraph.kernel_coq import adapter
    da = adapter.divergence_side(cert.A)
    if da is None or da.kind != "zcdp" or da.compares != "pairs":
        raise Untranslatable("a zcdp-family certificate whose A is not the zero-concentrated level between records "
                             "(a removal's joint convexity is not in this library lemma)")
    B = cert.B
    if B is None or B.sides != "TwoSided" or B.family not in ("pairwise", "subset", "class"):
        raise Untranslatable("a zcdp-family certificate whose B is not a two-sided ratio of averages")
    tr = Translator({"N": "integer"})
    pred = side_predicate(tr, B, "U", K="2", x="(fam j)", cls="fam_cls")
    if pred is None:
        raise Untranslatable("B's predicate is not in the library")
    n0c = max(n0, 2)
    head = f"Theorem {name} : forall (N : nat) (U : R), ({n0} <= N)%nat ->\n  exists j : nat, (1 <= j)%nat /\\ " \
           "table N 2 (fam j) /\\ zcdp_pairs_le N (fam j) 1 /\\ "
    if B.family == "pairwise":
        return _block(head + f"~ {pred}.", ["intros N U HN.", f"exact (fam_no_pairwise N U ltac:(lia))."])
    if B.family == "class":
        if str(B.min_class or "1") != "1" or B.max_class:
            raise Untranslatable("a class level of a minimum class size above 1 or a maximum")
        return _block(head + f"partition N fam_cls 1 /\\ ~ {pred}.",
                      ["intros N U HN.", "exact (fam_no_class TwoSided N U ltac:(lia) eq_refl)."])
    s = _nat(B.size) if B.size is not None else None
    if s is None:
        raise Untranslatable(f"a subset size the generator does not write as a natural number ({B.size})")
    size = tr.expr(str(B.size))
    return _block(head + f"~ {pred}.", [
        "intros N U HN.", f"assert (HN2 : ({n0c} <= N)%nat) by lia.",
        f"assert (E : ({size}) = INR ({s})) by (rewrite ?minus_INR, ?plus_INR by lia; simpl INR; ring).",
        f"exact (fam_no_subset TwoSided N ({s}) ({size}) U ltac:(lia) ltac:(lia) E eq_refl)."])
