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

Where B declares a class floor above its weakest level (the certificate's ``B.floor``, re-read from the registry by
the checker's ``_floor``), A is stated as ``Declared.min_class_level N cls k_A (top_cap_le ...)`` (A's declared
minimum class size) and B as ``FloorLevel.floor_level_ge N cls k_B w U (X N K x cls U)``, X the class level B equals
where its floor holds; U is the certificate's ``(f(x), k_B <= k_A), (w, True)`` as ``if Rle_dec k_B k_A then f(x)
else w`` (f(x) alone where the order of the k is a number's). ``TopCap.floor_level_of_min_class`` closes the first
piece (``lra`` shows k_B <= k_A from the piece's condition: an edited condition fails there), ``weakest_floor_level``
the second (``lra``: an edited w fails). Symbolic k are bound as natural numbers.
"""

from __future__ import annotations

import sympy

from implgraph.kernel_coq.coqexpr import Translator, Untranslatable

__all__ = ["top_cap", "MODULES"]

#: the library modules the lemmas live in
MODULES = ("Entropy", "TopCap", "Declared", "FloorLevel")

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
    bkind, b_name = cert.B.class_level, cert.B.definition
    if (cert.raw.get("B") or {}).get("floor"):      # (B's class floor: the level it equals there, from the registry)
        from implgraph.definitions.capabilities import MinClassSizeAboveWeakest
        b = registered(b_name)
        declared = None if b is None else b.declared(MinClassSizeAboveWeakest)
        b_name = None if declared is None else declared.level_of
    if bkind not in _B or b_name is None or not _declares(b_name, bkind):
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


def _floor(cert, level):
    """``(pieces, floor)``: B's class floor from the registry (the checker's) and the certificate's U split as
    ``[(body, condition or None), (w, True)?]`` after the oo piece; ``(None, None)`` where B names no floor."""
    from implgraph.certify.lemmas.top_cap import _floor as registry_floor
    from implgraph.certify.registered import registered
    from implgraph.core.formula import parse_expr
    given = (cert.raw.get("B") or {}).get("floor")
    if not given:
        return None, None
    names = {str(k): sympy.Symbol(str(k), integer=True) for k in cert.symbols if str(k) not in ("N", "T")}
    read = {**names, "N": sympy.Symbol("N", integer=True)}
    pa = {k: parse_expr(str(v), read) for k, v in cert.A.params.items()}
    pb = {k: parse_expr(str(v), read) for k, v in cert.B.params.items()}
    steps, floor = registry_floor(registered(cert.A.definition), pa, registered(cert.B.definition), pb, given)
    if floor is None or not all(s_[1] for s_ in steps):
        raise Untranslatable("a top-cap certificate whose class floor is not B's and A's registered one")
    U = parse_expr(str(cert.upper), {**read, "T": _T})
    if not (isinstance(U, sympy.Piecewise) and U.args[0].expr == sympy.oo and U.args[-1].cond == sympy.true
            and len(U.args) in (2, 3) and sympy.expand(U.args[0].cond.lhs - U.args[0].cond.rhs - level) == 0):
        raise Untranslatable("a top-cap U under a class floor other than oo, f(x) and B's weakest")
    if len(U.args) == 2:
        return [(U.args[1].expr, None)], floor
    return [(U.args[1].expr, U.args[1].cond), (U.args[2].expr, None)], floor


def _floor_theorem(cert, name, t, bkind, f, x, pieces, floor):
    """The theorem under B's class floor (module notes; a top cap only)."""
    from implgraph.kernel_coq.generate import _block
    kinds = {"T": "real", "N": "integer", **{str(k): "integer" for k in cert.symbols if str(k) not in ("N", "T")}}
    tr = Translator(kinds)
    ks = sorted(k for k in kinds if k not in ("N", "T"))
    k_a, k_b, w = (tr.expr(str(v)) for v in floor[1:])
    body = _with_ceilings(pieces[0][0], tr)
    if len(pieces) == 1:
        U, cond = body, None
    else:
        cond = pieces[0][1]
        if not isinstance(cond, (sympy.LessThan, sympy.GreaterThan)):
            raise Untranslatable("a top-cap floor piece whose condition is not one <= or >=")
        lo, hi = (cond.lhs, cond.rhs) if isinstance(cond, sympy.LessThan) else (cond.rhs, cond.lhs)
        cond = f"Rle_dec ({tr.expr(str(lo))}) ({tr.expr(str(hi))})"
        U = f"(if {cond} then {body} else ({tr.expr(str(pieces[1][0]))}))"
    lemma, form = (("top_cap_minent_inv", f"(1 / {t})") if f == "ceiling(x)"
                   else ("top_cap_minent_max", f"(Rmax 1 (1 / {t}))"))
    binders = f"({' '.join(ks)} : nat) " if ks else ""
    statement = (f"Theorem {name} : forall {binders}(T : R) (N K : nat) (x : nat -> nat -> R) (cls : nat -> nat),\n"
                 f"  table N K x -> min_class_level N cls ({k_a}) (top_cap_le N K x cls {t}) ->\n"
                 f"  floor_level_ge N cls ({k_b}) ({w}) {U} ({_B[bkind]} N K x cls {U}).")
    lines = [f"intros {' '.join(ks)} T N K x cls Htab [Hfloor HA].".replace("intros  ", "intros "),
             f"pose proof ({lemma} N K x cls {t} Htab HA) as Hm.",
             f"assert (Hx : {tr.expr(str(x))} = {form}) by reflexivity."]
    last = {"min-entropy": "exact Hm.", "support": "exact (support_of_minent N K x cls _ Htab Hm).",
            "shannon": "exact (shannon_of_minent N K x cls _ Htab (rmax_ge_1 _) Hm)."}[bkind]
    first = [f"apply (floor_level_of_min_class N cls ({k_a}) ({k_b}) ({w}) _ _ ltac:(lra) Hfloor).",
             "try rewrite Hx.", last]
    if cond is None:
        return _block(statement, lines + first)
    return _block(statement, lines + [f"destruct ({cond}) as [Hk|Hk].", "- " + " ".join(first),
                                      "- apply weakest_floor_level. lra."])


def top_cap(cert, name):
    """The theorem ``name`` of a ``top-cap`` certificate (module notes)."""
    from implgraph.core.formula import parse_expr
    from implgraph.kernel_coq.generate import _block
    cap, level, bkind = _registered_cap(cert)
    tr = Translator({"T": "real", "N": "integer"})
    t = tr.expr(str(level))
    x = parse_expr(str(cert.raw.get("x")), {"T": _T})
    f = cert.raw.get("map")
    pieces, floor = _floor(cert, level) if cap == "top" else (None, None)
    if floor is not None:
        if f == "capped(x)":
            raise Untranslatable("a top-cap certificate of exp H under a class floor")
        return _floor_theorem(cert, name, t, bkind, f, x, pieces, floor)
    if (cert.raw.get("B") or {}).get("floor"):
        raise Untranslatable("a top-cap certificate under a class floor with a tail cap")
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
