"""A level with a class floor above its weakest level and the level it is where the floor holds, stated in Coq
(``FloorLevel.v``; :class:`~implgraph.definitions.capabilities.MinClassSizeAboveWeakest` with ``level_of``:
p-sensitive k-anonymity, the fewest values in a class wherever every class has at least k records, else 0).

"At least T" is ``floor_level_ge N cls k w T X``: T at most the weakest level w (every table meets it), or every
class of at least k records and X, the other level's predicate at T (``Entropy.support_ge``, the fewest values a class
holds, where the other level declares that class level). Read from the registered declaration, never from a name.

:func:`floor_level_theorem` states a ``floor-level`` certificate's theorem by its family's kind: ``same`` (A's floor
level at T gives B, the fewest values, at least ceiling(u), ``Hd : u <= T``: ``FloorLevel.floor_level_support``);
``size`` (A the smallest class's size above k - 1 gives B's floor level at least 1, else its weakest: ``Hc``, ``Hu1``,
``Hu0``, ``floor_level_of_size``); ``floor`` (A's floor gives the smallest class's size N below 2 k records, else k:
``Hu``, ``floor_level_class_size``); ``share`` (A's floor gives a one-sided class ratio at most 1, a class's total
variation distance 0, below 2 k records, else N/k, (N - k)/N: ``FloorShare.floor_share_ratio``, ``floor_share_tv``,
``Hcut``, ``Hu1``, ``Hu2``; a class's KL or Renyi-2 divergence 0, else log(N/k): ``floor_share_div``, the chord's
values ``V1``, ``V2``). No partition hypothesis: whatever the partition, one class included.
"""

from __future__ import annotations

import sympy

__all__ = ["floor_level_predicate", "floor_level_theorem", "weakest_of", "MODULES", "COMPOSITES"]

#: the library modules the predicate lives in (``support_ge``: Entropy) and the ``share`` kind's
#: (``FloorShare``, with ``Mass.set_mass_class`` and ``Distance.tv_mass``)
MODULES = ("FloorLevel", "Entropy", "Mass", "Distance", "FloorShare")


def floor_level_predicate(tr, side, level, K="K", x="x", cls="cls"):
    """The predicate "``side``'s raw level is at least ``level``" for a side whose registered definition declares a
    minimum class size above its weakest level (a rational number, larger stronger, not depending on N) and the level
    it equals where the floor holds, that level a class's number of values; None otherwise."""
    from implgraph.certify.lemma_chain import _declares
    from implgraph.definitions.capabilities import MinClassSizeAboveWeakest
    from implgraph.kernel_coq import adapter
    d = adapter.registered(side.definition) if side.definition else None
    declared = None if d is None else d.declared(MinClassSizeAboveWeakest)
    if (declared is None or declared.level_of is None or side.params.get(declared.param) is None
            or d.stronger != "larger" or d.level_scale.weakest_depends_on_N or not _declares(declared.level_of,
                                                                                            "support")):
        return None
    w = sympy.nsimplify(d.raw_from_level(d.weakest()))
    if not w.is_Rational:
        return None
    k = tr.expr(str(side.params[declared.param]))
    return (f"floor_level_ge N {cls} ({k}) ({tr.expr(str(w))}) ({level}) "
            f"(support_ge N {K} {x} {cls} ({level}))")


def stated_file(cert, name, upper=None):
    """The theorem's pieces (``statement._File``) of ``cert`` (its U ``upper`` where given), a side declaring a class
    floor above its weakest level stated by :func:`floor_level_predicate` (the generic statement has no predicate for
    it: a stand-in B, the smallest class's size, is replaced)."""
    from dataclasses import replace
    from implgraph.kernel_coq import adapter
    from implgraph.kernel_coq.obligations import _need
    from implgraph.kernel_coq.statement import _File
    floors = [_declares_floor(s) for s in (cert.A, cert.B)]
    stand_in = adapter.Side(class_size_level=True)
    f = _File(replace(cert, B=stand_in if floors[1] else cert.B, upper=upper or cert.upper), name)
    f.cert = cert       # (the certificate's own sides from here on)
    if floors[0]:
        f.a = floor_level_predicate(f.tr, cert.A, f.tr.name("T"))
    if floors[1]:
        f.b = floor_level_predicate(f.tr, cert.B, f.upper)
    _need(all(p is not None for p, fl in ((f.a, floors[0]), (f.b, floors[1])) if fl),
          "a class floor above the weakest level whose level the library does not state")
    return f


def _declares_floor(side) -> bool:
    """Does ``side``'s registered definition declare a class floor above its weakest level?"""
    from implgraph.definitions.capabilities import MinClassSizeAboveWeakest
    from implgraph.kernel_coq import adapter
    d = adapter.registered(side.definition) if side.definition else None
    return d is not None and d.declared(MinClassSizeAboveWeakest) is not None


def weakest_of(side):
    """The weakest raw level (text) of a side :func:`floor_level_predicate` states."""
    from implgraph.kernel_coq import adapter
    d = adapter.registered(side.definition)
    return str(sympy.nsimplify(d.raw_from_level(d.weakest())))


def _read_u(cert):
    """The certificate's U read with its symbols (sympy)."""
    from implgraph.core.formula import parse_expr
    names = {n: sympy.Symbol(n) for n in cert.symbols}
    return parse_expr(str(cert.upper), names), names


def _two_pieces(cert, relation, symbol):
    """U read as two pieces ``(u1, cond), (u2, True)`` with ``cond`` (canonical) ``symbol relation c``; refused
    (untranslatable) otherwise. Returns ``(u1, cond, u2, names)``."""
    from implgraph.kernel_coq.obligations import _need
    U, names = _read_u(cert)
    _need(isinstance(U, sympy.Piecewise) and len(U.args) == 2 and U.args[1][1] == sympy.true,
          "a floor-level U that is not two pieces")
    (u1, cond), (u2, _) = U.args
    cond = cond.canonical
    _need(isinstance(cond, relation) and cond.lhs == names[symbol],
          f"a piece that is not {symbol} {'>' if relation is sympy.StrictGreaterThan else '<'} c")
    return u1, cond, u2, names


def _is_nat(k):
    """A tactic term proving ``IsNat k`` for A's or B's floor k (a natural number or a natural symbol)."""
    k = sympy.sympify(k)
    from implgraph.kernel_coq.obligations import _need
    _need(k.is_Integer and k >= 0 or k.is_Symbol, "a class floor that is not a natural number")
    return f"ltac:(exists {k}%nat; simpl; lra)" if k.is_Integer else f"ltac:(exists {k}; reflexivity)"


def _same(cert, name):
    """``same``: U = ceiling(u); A stated as its floor level at T, B as the fewest values at ceiling(u)."""
    from dataclasses import replace
    from implgraph.kernel_coq.chord_steps import _ineq
    from implgraph.kernel_coq.gen_chord_removal import domain_lines
    from implgraph.kernel_coq.obligations import _need
    U, _ = _read_u(cert)
    _need(isinstance(U, sympy.ceiling), "a floor-level U that is not a ceiling")
    f = stated_file(replace(cert, B=adapter_side_stand_in()), name, str(U.args[0]))     # (B's predicate set below)
    _need((f.a or "").startswith("floor_level_ge"), "a floor-level certificate whose A is not a class floor level")
    f.b = f"support_ge N K x cls (IZR (Zceil ({f.upper})))"
    lines = domain_lines(f) + _ineq(f, weakest_of(cert.A), "T", "Hw", strict=True)
    lines += _ineq(f, str(U.args[0]), "T", "Hd")
    return f, lines + ["eapply floor_level_support; [exact Hw | exact Hd | exact HA]."]


def _size(cert, name):
    """``size``: U = Piecewise((u1, T > c), (u0, True)); A the smallest class's size, B its floor level at U."""
    from implgraph.definitions.capabilities import MinClassSizeAboveWeakest
    from implgraph.kernel_coq.chord_steps import _ineq
    from implgraph.kernel_coq.gen_chord_removal import domain_lines
    from implgraph.kernel_coq.obligations import _need
    u1, cond, u0, names = _two_pieces(cert, sympy.StrictGreaterThan, "T")
    f = stated_file(cert, name, "1")                                    # (B's predicate at U set below)
    _need(f.a is not None and f.a.startswith("class_size_ge"), "a floor-level certificate whose A is not a class size")
    d = _registered(cert.B.definition)
    k = str(cert.B.params[d.declared(MinClassSizeAboveWeakest).param])
    tr = f.tr
    t = tr.expr("T")
    level = f"(if Rlt_dec ({tr.expr(str(cond.rhs))}) {t} then ({tr.expr(str(u1))}) else ({tr.expr(str(u0))}))"
    f.b = floor_level_predicate(tr, cert.B, level)
    _need(f.b is not None, "a floor-level B the library does not state")
    lines = domain_lines(f) + _ineq(f, f"({k}) - 1", str(cond.rhs), "Hc") + _ineq(f, str(u1), "1", "Hu1")
    lines += _ineq(f, str(u0), weakest_of(cert.B), "Hu0")
    return f, lines + [f"destruct (Rlt_dec ({tr.expr(str(cond.rhs))}) {t}) as [Hlt|Hge].",
                       f"- apply (floor_level_of_size N K x cls ({tr.expr(k)}) {t} ({tr.expr(str(u1))}) Htab "
                       f"{_is_nat(k)} ltac:(lra) Hu1 HA).",
                       "- apply weakest_floor_level. exact Hu0."]


def _floor(cert, name):
    """``floor``: U = Piecewise((u1, N < c), (u2, True)); A its floor level at T, B the smallest class's size at U."""
    from implgraph.definitions.capabilities import MinClassSizeAboveWeakest
    from implgraph.kernel_coq.chord_steps import _ineq
    from implgraph.kernel_coq.gen_chord_removal import domain_lines
    from implgraph.kernel_coq.obligations import _need
    u1, cond, u2, names = _two_pieces(cert, sympy.StrictLessThan, "N")
    f = stated_file(cert, name, "1")                                    # (B's predicate set below)
    _need((f.a or "").startswith("floor_level_ge") and cert.B.class_size_level,
          "a floor-level certificate whose A is not a class floor level or B not the smallest class's size")
    d = _registered(cert.A.definition)
    tr = f.tr
    k = tr.expr(str(cert.A.params[d.declared(MinClassSizeAboveWeakest).param]))
    n, t = tr.expr("N"), tr.expr("T")
    u = f"(if Rlt_dec {n} ({tr.expr(str(cond.rhs))}) then ({tr.expr(str(u1))}) else ({tr.expr(str(u2))}))"
    f.b = f"class_size_ge N cls {u}"
    lines = domain_lines(f) + _ineq(f, weakest_of(cert.A), "T", "Hw", strict=True)
    lines += [f"assert (Hu : {u} <= (if Rlt_dec {n} (2 * ({k})) then {n} else ({k}))).",
              f"{{ destruct (Rlt_dec {n} ({tr.expr(str(cond.rhs))})); destruct (Rlt_dec {n} (2 * ({k}))); lra. }}"]
    return f, lines + [f"exact (floor_level_class_size N cls _ _ {t} _ _ Hw HA Hu)."]


def _share(cert, name):
    """``share``: U = Piecewise((u1, N < c), (u2, True)); A its floor level at T, B a one-sided class ratio
    (``class_le OneSided``) or a class's total variation distance (``tv_le``) at U: ``FloorShare.floor_share_ratio``
    (``Hc : c <= 2 k``, ``Hu1 : 1 <= u1``, ``Hu2 : N/k <= u2``) or ``floor_share_tv`` (``0 <= u1``, ``(N - k)/N <=
    u2``)."""
    from implgraph.definitions.capabilities import MinClassSizeAboveWeakest
    from implgraph.kernel_coq.chord_steps import _ineq
    from implgraph.kernel_coq.gen_chord_removal import domain_lines
    from implgraph.kernel_coq.obligations import _need
    from implgraph.kernel_coq.statement import side_predicate
    u1, cond, u2, names = _two_pieces(cert, sympy.StrictLessThan, "N")
    f = stated_file(cert, name, "1")                                    # (B's predicate at U set below)
    _need((f.a or "").startswith("floor_level_ge"), "a floor-level certificate whose A is not a class floor level")
    k = str(cert.A.params[_registered(cert.A.definition).declared(MinClassSizeAboveWeakest).param])
    tr = f.tr
    u = (f"(if Rlt_dec {tr.expr('N')} ({tr.expr(str(cond.rhs))}) then ({tr.expr(str(u1))}) "
         f"else ({tr.expr(str(u2))}))")
    f.b = side_predicate(tr, cert.B, u)
    shape = next((sh for sh, head in (("ratio", "class_le OneSided"), ("tv", "tv_le"), ("divergence", "div_class_le"))
                  if (f.b or "").startswith(head)), None)
    _need(shape is not None, "a share certificate whose B is not a one-sided class ratio, distance or divergence")
    lines = domain_lines(f) + _ineq(f, weakest_of(cert.A), "T", "Hw", strict=True)
    lines += _ineq(f, "0", k, "Hk", strict=True) + _ineq(f, str(cond.rhs), f"2*({k})", "Hcut")
    if shape == "divergence":
        return f, lines + _share_divergence(f, k, u1, u2)
    small, big = ("1", f"N/({k})") if shape == "ratio" else ("0", f"(N - ({k}))/N")
    lines += _ineq(f, small, str(u1), "Hu1") + _ineq(f, big, str(u2), "Hu2")
    lemma = "floor_share_ratio" if shape == "ratio" else "floor_share_tv"
    # (lra: Hcut, Hu1, Hu2)
    return f, lines + [f"apply ({lemma} N K x cls ({tr.expr(k)}) _ _ _ _ _ _ Htab Hk Hw HA); lra."]


def _share_divergence(f, k, u1, u2):
    """``share``, B a class's KL or Renyi-2 divergence: the chord's values on [0, 1] (the one class) and [0, N/k] at
    most u1 and u2 (``V1``, ``V2``, each proved in its own block as ``divergence-ceiling``'s), then
    ``FloorShare.floor_share_div``."""
    from implgraph.kernel_coq import adapter
    from implgraph.kernel_coq.chord_steps import _value0
    from implgraph.kernel_coq.statement import divergence_kind
    tr, div = f.tr, adapter.divergence_side(f.cert.B)
    d = divergence_kind(tr, div)
    lines, whole = [], f.upper
    for label, hi, u in (("V1", "1", u1), ("V2", f"N/({k})", u2)):
        f.upper = f"({tr.expr(str(u))})"
        value, below = _value0(f, div, d, hi, str(u))
        lines += [f"assert ({label} : below_chord (phi_of {d}) 0 ({tr.expr(hi)}) /\\ "
                  f"chord_val (phi_of {d}) 0 ({tr.expr(hi)}) <= dbound {d} {f.upper}).",
                  "{", *[f"  {ln}" for ln in value], f"  split; [exact {below} | exact Hval]. }}"]
    f.upper = whole
    return lines + [f"apply (floor_share_div {d} N K x cls ({tr.expr(k)}) _ _ _ _ _ _ Htab Hk Hw HA); "
                    "[lra | exact (proj1 V1) | exact (proj2 V1) | exact (proj1 V2) | exact (proj2 V2)]."]


def _skew(cert, name):
    """``skew``: U is B's weakest level: B's class level (min-entropy: frequency l-diversity; Shannon: entropy
    l-diversity) at least U <= 1 on every table, whatever A (``weakest_minent``, ``weakest_shannon``; ``Hd``)."""
    from dataclasses import replace
    from implgraph.certify.lemma_chain import _declares
    from implgraph.kernel_coq.chord_steps import _ineq
    from implgraph.kernel_coq.gen_chord_removal import domain_lines
    from implgraph.kernel_coq.obligations import _need
    kinds = [(k, pred, lemma) for k, pred, lemma in (("min-entropy", "minent_ge", "weakest_minent"),
                                                     ("shannon", "shannon_ge", "weakest_shannon"))
             if _declares(cert.B.definition, k)]
    _need(len(kinds) == 1, "a skew certificate whose B's class level the library does not state")
    _, pred, lemma = kinds[0]
    f = stated_file(replace(cert, B=adapter_side_stand_in()), name)
    f.a, f.extra_binders = None, ""         # whatever A: no hypothesis on A (a stronger statement)
    f.b = f"{pred} N K x cls ({f.upper})"
    lines = domain_lines(f) + _ineq(f, str(cert.upper), "1", "Hd")
    return f, lines + [f"apply ({lemma} N K x cls ({f.upper})); [exact Htab | exact Hd]."]


def adapter_side_stand_in():
    """A stand-in side with a predicate (the smallest class's size), replaced in the statement."""
    from implgraph.kernel_coq import adapter
    return adapter.Side(class_size_level=True)


def _registered(name):
    """The registered definition ``name`` (the adapter's registry)."""
    from implgraph.kernel_coq import adapter
    return adapter.registered(name)


def floor_level_theorem(cert, name):
    """The theorem ``name`` of a ``floor-level`` certificate (its family's kind: ``same`` or ``size``)."""
    from implgraph.kernel_coq.generate import _block
    from implgraph.kernel_coq.obligations import _need
    kind = (cert.raw.get("family") or {}).get("kind")
    _need(kind in ("same", "size", "floor", "skew", "share"), "a floor-level certificate of another kind")
    f, lines = {"same": _same, "size": _size, "floor": _floor, "skew": _skew, "share": _share}[kind](cert, name)
    f.parts = []        # whatever the partition, one class included (no proof step reads it): a stronger statement
    return _block(f.statement(), [f.intros()] + lines)


#: certificate method -> its text
COMPOSITES = {"floor-level": floor_level_theorem}
