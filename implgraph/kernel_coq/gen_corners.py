"""Coq proofs of ``corners`` certificates: each record against the table within ratio T both ways (a two-sided subset
level of size 1) bounds an f-divergence between every two records.

The library's ``Corners.v`` proves the lemma once (``corners_pairs``): bucket by bucket, with m the table's mean, the
ratios a = x_i/m and b = x_j/m lie in A's [1/T, T], inside the certificate's box [lo, hi], and x_j phi(x_i/x_j) =
m g(a, b) with g(a, b) = b phi(a/b) convex in each argument; g lies below the affine function through its values at
the corners (hi, lo), (lo, hi) and (lo, lo) (at (hi, hi) by convexity along the diagonal), and summed with the weights
m the divergence is at most that function's value at (1, 1). Its instances by kind state that value in closed form
on the box: ``corners_kl`` ((1 - lo) ln(hi/lo)), ``corners_renyi2`` (lo + (hi^2 + hi lo - lo^2)(1 - lo)/(lo hi) at
most X = exp(U), ln X <= U), ``corners_tv`` (1 - lo) and ``corners_hockey`` (max(hi - g lo, 0)(1 - lo)/(hi - lo):
the reduced quotient Y of (hi - g lo)(1 - lo)/(hi - lo), 0 <= U and Y <= U, the maximum through its arguments).

The certificate's data enter as follows: 1 <= T from the domain (``lra``), the box's ends lo > 0, lo <= 1/T and
T <= hi by the shift argument (``ge_from_ratio``), and the kind's value against U by exact steps from U's text
(logarithms split into their arguments' factors and the identity by ``field``, a quotient's sign, a maximum through
the argument equal to the value: ``gen_chord``'s and ``gen_chord_removal``'s steps). An edited U, lo, hi or domain
makes one of these steps fail, so ``coqc`` rejects the file. Not covered (:class:`Untranslatable`): B other than a
divergence between every two records, A other than each record against the table both ways, Renyi of an order other
than 2, a hockey stick of an irrational order. At three records (the certificate's ``hexagon``) the proof is
:mod:`implgraph.kernel_coq.gen_corners_hexagon`'s.
"""

from __future__ import annotations

import sympy

from implgraph.kernel_coq import adapter
from implgraph.kernel_coq.obligations import _need
from implgraph.kernel_coq.statement import divergence_kind

__all__ = ["corners", "METHODS", "MODULES"]

#: the library modules the lemmas live in
MODULES = ("Divergence", "Corners", "CornersNarrow", "CornersHexagon", "CornersHexagonKL")


def corners(f):
    """Proof lines of a ``corners`` certificate (``f`` the generator's file of it): the domain's conditions with a
    denominator cleared, T >= 1, the box [lo, hi] around A's [1/T, T], then the kind's theorem."""
    from implgraph.kernel_coq.chord_steps import _ineq
    from implgraph.kernel_coq.gen_chord_removal import domain_lines
    cert, A = f.cert, f.cert.A
    div = adapter.divergence_side(cert.B)
    _need(div is not None and div.compares == "pairs",
          "a corners certificate whose B is not a divergence between every two records")
    _need(A.family == "subset" and A.sides == "TwoSided" and A.size is not None
          and f.rd.poly(A.size) == f.rd.poly("1"), "a corners certificate whose A is not each record against the "
                                                    "table both ways (a two-sided subset level of size 1)")
    k = divergence_kind(f.tr, div)
    _need(k is not None and div.kind in _VALUES, f"a divergence the library does not state ({div.kind})")
    _need(div.kind != "renyi" or int(div.order) == 2, "Renyi of another order than 2")
    data = cert.raw.get("upper_certificate") or {}
    _need(cert.upper is not None and data.get("lo") is not None and data.get("hi") is not None,
          "a corners certificate without lo, hi and U")
    lo, hi = str(data["lo"]), str(data["hi"])
    T = f.tr.name("T")
    lines = domain_lines(f) + [f"assert (HT1 : 1 <= {T}) by lra."]
    lines += _ineq(f, "0", lo, "Hl0", strict=True) + _ineq(f, lo, "1/T", "Hlo")
    box = f"N K x {T} ({f.tr.expr(lo)}) ({f.tr.expr(hi)})"
    if data.get("hexagon") is not None:      # three records (CornersHexagon.v; gen_corners_hexagon)
        from implgraph.kernel_coq.gen_corners_hexagon import hexagon
        return domain_lines(f) + [f"assert (HT1 : 1 <= {T}) by lra."] + hexagon(f, div, cert.upper)
    if hi.replace(" ", "") == "T":
        lines += _ineq(f, "T", hi, "Hhi")
        return lines + _VALUES[div.kind](f, div, lo, hi, cert.upper, box, "Htab HA HT1 Hl0 Hlo Hhi", "corners")
    # the narrowed box (CornersNarrow.v): every record's ratio also <= N - (N - 1)/T, the domain's N >= 2
    _need(div.kind != "tv", "total variation on the narrowed box")
    lines += ["assert (HN2 : 2 <= INR N) by lra."] + _ineq(f, "N - (N - 1)/T", hi, "Hhi")
    hyps = "Htab HA HN2 HT1 Hl0 Hlo Hhi"
    return lines + _VALUES[div.kind](f, div, lo, hi, cert.upper, box, hyps, "corners_narrow")


def _kl(f, div, lo, hi, U, box, hyps, thm):
    """KL: (1 - lo) ln(hi/lo) <= U, each logarithm split into its argument's factors, the identity by ``field``."""
    from implgraph.kernel_coq.chord_steps import below
    lines = below(f, f"(1 - ({lo}))*log(({hi})/({lo}))", U, "Hc")
    return lines + [f"exact ({thm}_kl {box} ({f.upper}) {hyps} Hc)."]


def _tv(f, div, lo, hi, U, box, hyps, thm):
    """Total variation: 1 - lo <= U."""
    from implgraph.kernel_coq.chord_steps import below
    lines = below(f, f"1 - ({lo})", U, "Hc")
    return lines + [f"exact ({thm}_tv {box} ({f.upper}) {hyps} Hc)."]


def _renyi2(f, div, lo, hi, U, box, hyps, thm):
    """Renyi of order 2: the sum's value at most X = exp(U) (U's logarithm's argument where it is a maximum, else
    exp(U) as a rational function), ln X <= U."""
    from implgraph.kernel_coq.chord_steps import below, _log_identity, log_of, _Logs, max_parts, _sym
    inner = log_of(U)
    if inner is not None and max_parts(inner) is not None:
        xt = inner
    else:
        X = sympy.simplify(sympy.exp(_sym(f, U)[0]))
        _need(not X.has(sympy.exp, sympy.log), f"exp(U) is not a rational function ({X})")
        xt = str(X)
    cx = f.tr.expr(xt)
    value = f"({lo}) + (({hi})**2 + ({hi})*({lo}) - ({lo})**2)*(1 - ({lo}))/(({lo})*({hi}))"
    lines = below(f, value, xt, "Hc")
    if f.tr.expr(f"log({xt})") == f.upper:
        lines.append(f"assert (HlnX : ln ({cx}) <= {f.upper}) by (apply Rle_refl).")
    else:
        lines += [f"assert (HlnX : ln ({cx}) <= {f.upper}).", "{"] + [
            f"  {ln}" for ln in _log_identity(f, f"log({xt})", U, _Logs(f))] + ["}"]
    return lines + [f"exact ({thm}_renyi2 {box} ({cx}) ({f.upper}) {hyps} Hc HlnX)."]


def _hockey(f, div, lo, hi, U, box, hyps, thm):
    """The hockey stick of order g >= 1: Y the reduced quotient of (hi - g lo)(1 - lo)/(hi - lo) (the identity
    (hi - g lo)(1 - lo) = Y (hi - lo) by ``field``), 0 <= U and Y <= U (a maximum through its arguments)."""
    from implgraph.kernel_coq.chord_steps import below, _ineq, _sym
    g = str(div.order)
    _need(_sym(f, g)[0].is_Rational, f"a hockey stick of an order that is not a rational number ({g})")
    P, Q = f.rd.ratio(f"(({hi}) - ({g})*({lo}))*(1 - ({lo}))/(({hi}) - ({lo}))")
    yt = f"({P.as_expr()})/({Q.as_expr()})"
    lhs, rhs = f"(({hi}) - ({g})*({lo}))*(1 - ({lo}))", f"({yt})*(({hi}) - ({lo}))"
    lines = _ineq(f, "1", g, "Hg1")
    lines.append(f"assert (HY : {f.tr.expr(lhs)} = {f.tr.expr(rhs)}) by "
                 f"({f.nonzero(texts=[lhs, rhs], polys=[Q])}; field; nz_from_hyps).")
    lines += below(f, "0", U, "Hz") + below(f, yt, U, "Hc")
    return lines + [f"exact ({thm}_hockey ({f.tr.expr(g)}) {box} ({f.tr.expr(yt)}) ({f.upper}) Hg1 {hyps} "
                    f"HY Hz Hc)."]


#: the divergence's kind -> the lines proving its value against U and applying its theorem
_VALUES = {"kl": _kl, "tv": _tv, "renyi": _renyi2, "hockey-stick": _hockey}

#: certificate method -> proof lines (leaf methods of the generator)
METHODS = {"corners": corners}
