"""Coq proofs of ``corners`` certificates at three records (the certificate's ``hexagon``: the domain states
T < N - 1 and N T < 2 T + 2), Renyi of order 2: the library's ``CornersHexagon.corners_hexagon_renyi2``.

The library proves the lemma once (``hex_conf``: the perspective g(a, b) = b phi(a/b) jointly convex, ``persp_mix``,
below an affine h that is at least g at the six vertices of the hexagon two records' ratios fill, ``hex_point``) and
its Renyi-2 instance (``hex_ok_renyi2``: h through g at (T, 1/T), (1/T, T), (1/T, 3 - T - 1/T), the gaps at the other
three vertices polynomials in Bernstein form on [1, 2]), with the value ``W2 T`` = h(1, 1). The generated proof
derives N = 3 and T < 2 from the domain (``lra``, ``nra``, ``lia``), then ``W2 T <= X`` for U = log(X) (the identity
by ``field``) and ``ln X <= U``. An edited U (or support, or domain) gives a file coqc rejects: the identity
``W2 T = X`` fails (``Hc``), or N = 3 is not derived (``HN3``).
"""

from __future__ import annotations

from implgraph.kernel_coq.obligations import _need

__all__ = ["hexagon"]

#: the support the library's instance states (the cycle family's vertices)
SUPPORT = [["T", "1/T"], ["1/T", "T"], ["1/T", "-T + 3 - 1/T"]]


def hexagon(f, div, U):
    """Proof lines after the domain's and ``HT1 : 1 <= T``: N = 3, T < 2, ``W2 T <= X``, ``ln X <= U``, the theorem."""
    from implgraph.kernel_coq.gen_chord import _log_identity, _Logs
    from implgraph.kernel_coq.gen_chord_removal import log_of
    data = f.cert.raw.get("upper_certificate") or {}
    _need(div.kind == "renyi" and int(div.order) == 2, "a hexagon for another divergence than Renyi of order 2")
    _need([[str(a).replace(" ", "") for a in v] for v in data.get("hexagon") or []]
          == [[a.replace(" ", "") for a in v] for v in SUPPORT], "a hexagon support the library does not state")
    xt = log_of(U)
    _need(xt is not None, f"U is not a logarithm ({U})")
    T, cx = f.tr.name("T"), f.tr.expr(xt)
    lines = [f"assert (HNa : 2 < INR N) by lra.",
             f"assert (HNb : INR N < 4) by nra.",
             "assert (HN3 : N = 3%nat).",
             "{ assert (A1 : (2 < N)%nat) by (apply INR_lt; simpl; lra).",
             "  assert (A2 : (N < 4)%nat) by (apply INR_lt; simpl; lra). lia. }",
             "subst N. assert (HI3 : INR 3 = 3) by (simpl; ring). rewrite HI3 in *.",
             f"assert (HT2 : {T} < 2) by lra.",
             f"assert (HTz : {T} <> 0) by lra.",
             f"assert (HT3 : {T} ^ 3 <> 0) by (apply pow_nonzero; lra).",
             f"assert (HDz : {T} ^ 2 - 3 * {T} + 1 <> 0) by nra.",
             f"assert (Hc : W2 {T} <= {cx}) by (right; unfold W2, hD; field; nz_from_hyps)."]
    if f.tr.expr(f"log({xt})") == f.upper:
        lines.append(f"assert (HlnX : ln ({cx}) <= {f.upper}) by (apply Rle_refl).")
    else:
        lines += [f"assert (HlnX : ln ({cx}) <= {f.upper}).", "{"] + [
            f"  {ln}" for ln in _log_identity(f, f"log({xt})", U, _Logs(f))] + ["}"]
    return lines + [f"exact (corners_hexagon_renyi2 K x {T} ({cx}) ({f.upper}) Htab HA HT1 HT2 Hc HlnX)."]
