"""Coq proofs of ``top-cap`` certificates: A caps every class's top frequency, so B's class level is at least f(x)
(``TopCap.v``; docs/arguments/top-cap.md).

A is stated from the registry (the cap :mod:`implgraph.certify.lemmas.top_cap` reads from A's declarations), never
from the certificate's word alone: ``top_cap_le N K x cls t`` (every class's value in every bucket at most t, t A's
level of T, e.g. ``T - 1`` for (alpha,k)-anonymity's affine scale) or ``tail2_le N K x cls T`` (``q_b <= c (1 - q_b)``,
recursive (c,2)-diversity at c = T, with ``1 <= T``). B is the library's ``minent_ge`` / ``support_ge`` /
``shannon_ge`` (1/max q, the number of values, exp H) at the certificate's U: under a top cap the finite piece of U
(the piece t <= 0 is U = oo: ``TopCap.top_cap_empty``, no table of a record meets it; the theorem holds there
whatever the value, since its hypothesis on A is then only met by a table of no record).

The proof: ``TopCap.top_cap_minent_max`` / ``top_cap_minent_inv`` / ``minent_of_tail`` give ``minent_ge X`` with X the
library's form (``Rmax 1 (1 / t)``, ``1 / t``, ``1 + 1 / T``); the certificate's ``x`` must be that form
(``reflexivity``) and U must be B's map of it, after which ``Entropy.support_of_minent`` / ``shannon_of_minent`` (or
the hypothesis itself) closes the goal; under a tail ratio the number of values is stated as U = 2 and shown by
``TopCap.two_le_ceil`` (x = 1 + 1/c > 1). An edited x (another number) or an edited U of frequency or distinct
l-diversity makes ``coqc`` reject the file; a U of entropy l-diversity is stated as ``capped x`` only where it is the
checker's f(x) (under a tail ratio the closed form ``(1 + c)/c^(c/(1 + c))``, equal to g(1 + 1/c) for c >= 1: the
Python checker's step), else the generator refuses the certificate (:class:`Untranslatable`).
"""

from __future__ import annotations

import sympy

from implgraph.kernel_coq.coqexpr import Translator, Untranslatable

__all__ = ["top_cap", "MODULES"]

#: the library modules the lemmas live in
MODULES = ("Entropy", "TopCap")

_B = {"min-entropy": "minent_ge", "support": "support_ge", "shannon": "shannon_ge"}
_T = sympy.Symbol("T", positive=True)


def _registered_cap(cert):
    """The cap A's registered declarations give, A's level of T, and B's registered class level."""
    from implgraph.certify.lemma_chain import _declares
    from implgraph.certify.lemmas.top_cap import _cap
    from implgraph.certify.registered import registered
    from implgraph.core.formula import parse_expr
    a = registered(cert.A.definition)
    if a is None:
        raise Untranslatable("a top-cap certificate whose A is not registered")
    names = {str(k): sympy.Symbol(str(k), integer=True) for k in cert.symbols if str(k) not in ("N", "T")}
    cap = _cap(a, {k: parse_expr(str(v), {**names, "N": sympy.Symbol("N", integer=True)})
                   for k, v in cert.A.params.items()})
    if cap is None or cap != cert.raw.get("cap"):
        raise Untranslatable(f"a top-cap certificate whose cap {cert.raw.get('cap')!r} is not A's registered one")
    bkind = cert.B.class_level
    if bkind not in _B or not _declares(cert.B.definition, bkind):
        raise Untranslatable("a top-cap certificate whose B's class level is not its registered one")
    return cap, sympy.sympify(a.level_from_raw(_T)), bkind


def _body(cert, cap, level):
    """U's finite piece (sympy): under a top cap the piece after ``(oo, t <= 0)``."""
    from implgraph.core.formula import parse_expr
    U = parse_expr(str(cert.upper), {"T": _T})
    if cap != "top":
        return U
    first = U.args[0] if isinstance(U, sympy.Piecewise) and len(U.args) == 2 else None
    if not (first is not None and first.expr == sympy.oo and isinstance(first.cond, sympy.LessThan)
            and sympy.expand(first.cond.lhs - first.cond.rhs - level) == 0 and U.args[1].cond == sympy.true):
        raise Untranslatable("a top-cap U other than oo where the cap is <= 0 and one expression elsewhere")
    return U.args[1][0]


def _conclusion(cert, cap, level, bkind, x, tr):
    """``(U in Coq, how the goal closes)``: ``"map"`` (U is B's map of x) or ``"two"`` (the number of values 2)."""
    from implgraph.certify.lemmas.top_cap import _MAPS, expected_upper
    body, f = _body(cert, cap, level), cert.raw.get("map")
    X = tr.expr(str(x))
    if f == "capped(x)":
        want = expected_upper(cap, f, level)[1]
        want = want.args[1][0] if cap == "top" else want
        if body != want:
            raise Untranslatable("a top-cap U of exp H that is not the checker's f(x)")
        return f"(capped {X})", "map"
    if cap == "tail" and f == "ceiling(x)":
        return tr.expr(str(body)), "two"
    if f not in _MAPS:
        raise Untranslatable(f"a top-cap map {f!r}")
    return _with_ceilings(body, tr), "map"


def _with_ceilings(expr, tr):
    """``expr`` in Coq, a ceiling ``ceiling(E)`` as ``IZR (Zceil E)`` (the translator's other functions as it has
    them)."""
    ceilings = sorted(expr.atoms(sympy.ceiling), key=sympy.default_sort_key)
    names = {c: sympy.Symbol(f"zceil_{i}") for i, c in enumerate(ceilings)}
    inner = Translator({**tr.kinds, **{str(v): "real" for v in names.values()}})
    text = inner.expr(str(expr.xreplace(names)))
    for c, v in names.items():
        text = text.replace(str(v), f"(IZR (Zceil {_with_ceilings(c.args[0], tr)}))")
    return text


def top_cap(cert, name):
    """The theorem ``name`` of a ``top-cap`` certificate (module notes)."""
    from implgraph.core.formula import parse_expr
    from implgraph.kernel_coq.generate import _block
    cap, level, bkind = _registered_cap(cert)
    tr = Translator({"T": "real", "N": "integer"})
    t = tr.expr(str(level))
    x = parse_expr(str(cert.raw.get("x")), {"T": _T})
    f = cert.raw.get("map")
    U, close = _conclusion(cert, cap, level, bkind, x, tr)
    if cap == "top":
        lemma, form = (("top_cap_minent_inv", f"(1 / {t})") if f == "ceiling(x)"
                       else ("top_cap_minent_max", f"(Rmax 1 (1 / {t}))"))
        statement = (f"Theorem {name} : forall (T : R) (N K : nat) (x : nat -> nat -> R) (cls : nat -> nat),\n"
                     f"  table N K x -> top_cap_le N K x cls {t} -> {_B[bkind]} N K x cls {U}.")
        lines = ["intros T N K x cls Htab HA.", f"pose proof ({lemma} N K x cls {t} Htab HA) as Hm."]
        ge1 = "(rmax_ge_1 _)"
    else:
        form = "(1 + 1 / T)"
        statement = (f"Theorem {name} : forall (T : R), 1 <= T -> forall (N K : nat) (x : nat -> nat -> R) "
                     f"(cls : nat -> nat),\n  table N K x -> tail2_le N K x cls T -> {_B[bkind]} N K x cls {U}.")
        lines = ["intros T HT N K x cls Htab HA.", "pose proof (minent_of_tail N K x cls T ltac:(lra) HA) as Hm."]
        ge1 = "(tail_ge_1 T ltac:(lra))"
    lines.append(f"assert (Hx : {tr.expr(str(x))} = {form}) by reflexivity.")
    if close == "two":
        return _block(statement, lines + [
            f"apply (support_ge_weaken N K x cls {U} (IZR (Zceil {form}))).",
            "- apply two_le_ceil. apply tail_gt_1. lra.",
            "- exact (support_of_minent N K x cls _ Htab Hm)."])
    lines.append("try rewrite Hx.")      # (x already the library's form: nothing to rewrite)
    last = {"min-entropy": "exact Hm.", "support": "exact (support_of_minent N K x cls _ Htab Hm).",
            "shannon": f"exact (shannon_of_minent N K x cls _ Htab {ge1} Hm)."}[bkind]
    return _block(statement, lines + [last])


def skew_family(cert, name):
    """The theorem ``name`` of a ``skew-family`` certificate: B at least U on every table, whatever A (a stronger
    statement: no hypothesis on A); U at most 1 (``lra``: an edited U above B's weakest 1 fails there), then
    ``TopCap.minent_ge_one`` / ``shannon_ge_one`` (1/max q >= 1, exp H >= 1). The family (approached, not attained) is
    the Python checker's."""
    from implgraph.certify.lemma_chain import _declares
    from implgraph.kernel_coq.generate import _block
    bkind = cert.B.class_level
    if bkind not in ("min-entropy", "shannon") or not _declares(cert.B.definition, bkind):
        raise Untranslatable("a skew-family certificate whose B's class level is not its registered 1/max q or exp H")
    U = Translator({"N": "integer"}).expr(str(cert.upper))
    pred, one = _B[bkind], {"min-entropy": "minent_ge", "shannon": "shannon_ge"}[bkind]
    statement = (f"Theorem {name} : forall (N K : nat) (x : nat -> nat -> R) (cls : nat -> nat),\n"
                 f"  table N K x -> {pred} N K x cls {U}.")
    return _block(statement, ["intros N K x cls Htab.", f"assert (HU : {U} <= 1) by lra.",
                              f"apply ({one}_weaken N K x cls {U} 1); [{'exact Htab | ' if one == 'minent_ge' else ''}"
                              f"exact HU | exact ({one}_one N K x cls Htab)]."])


#: certificate method -> its text
COMPOSITES = {"top-cap": top_cap, "skew-family": skew_family}
