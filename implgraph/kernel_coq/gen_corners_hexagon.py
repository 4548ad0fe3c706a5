"""Coq proofs of ``corners`` certificates at three records (the certificate's ``hexagon``: the domain states
T < N - 1 and N T < 2 T + 2), Renyi of order 2 and KL: the library's ``CornersHexagon.corners_hexagon_renyi2`` and
``CornersHexagonKL.corners_hexagon_kl``.

The library proves the lemma once (``hex_conf``: the perspective g(a, b) = b phi(a/b) jointly convex, ``persp_mix``,
below an affine h that is at least g at the six vertices of the hexagon two records' ratios fill, ``hex_point``) and
its Renyi-2 instance (``hex_ok_renyi2``: h through g at (T, 1/T), (1/T, T), (1/T, 3 - T - 1/T), the gaps at the other
three vertices polynomials in Bernstein form on [1, 2]), with the value ``W2 T`` = h(1, 1). The generated proof
derives N = 3 and T < 2 from the domain (``lra``, ``nra``, ``lia``), then ``W2 T <= X`` for U = log(X) (the identity
by ``field``) and ``ln X <= U``; for KL, U's logarithm of 3 T - T^2 - 1 rewritten to the library's ``ln (hx T)``
and ``WK T = U`` by ``field`` (``CornersHexagonKL.v``: each gap A ln T + B ln(hx T) bounded by ``Pinsker.ln_lower`` and
``ln_upper``). An edited U (or support, or domain) gives a file coqc rejects: the identity
``W2 T = X`` fails (``Hc``), or N = 3 is not derived (``HN3``).
"""

from __future__ import annotations

from implgraph.kernel_coq.obligations import _need

__all__ = ["hexagon"]

#: the support the library's instance states (the cycle family's vertices)
SUPPORT = [["T", "1/T"], ["1/T", "T"], ["1/T", "-T + 3 - 1/T"]]


def hexagon(f, div, U):
    """Proof lines after the domain's and ``HT1 : 1 <= T``: N = 3, T < 2, ``W2 T <= X``, ``ln X <= U``, the theorem."""
    from implgraph.kernel_coq.chord_steps import _log_identity, log_of, _Logs
    data = f.cert.raw.get("upper_certificate") or {}
    _need(div.kind == "kl" or (div.kind == "renyi" and int(div.order) == 2),
          "a hexagon for another divergence than KL or Renyi of order 2")
    _need([[str(a).replace(" ", "") for a in v] for v in data.get("hexagon") or []]
          == [[a.replace(" ", "") for a in v] for v in SUPPORT], "a hexagon support the library does not state")
    T = f.tr.name("T")
    lines = _three(T)
    if div.kind == "kl":
        return lines + _kl(f, U, T)
    xt = log_of(U)
    _need(xt is not None, f"U is not a logarithm ({U})")
    cx = f.tr.expr(xt)
    lines += [f"assert (HDz : {T} ^ 2 - 3 * {T} + 1 <> 0) by nra.",
              f"assert (Hc : W2 {T} <= {cx}) by (right; unfold W2, hD; field; nz_from_hyps)."]
    if f.tr.expr(f"log({xt})") == f.upper:
        lines.append(f"assert (HlnX : ln ({cx}) <= {f.upper}) by (apply Rle_refl).")
    else:
        lines += [f"assert (HlnX : ln ({cx}) <= {f.upper}).", "{"] + [
            f"  {ln}" for ln in _log_identity(f, f"log({xt})", U, _Logs(f))] + ["}"]
    return lines + [f"exact (corners_hexagon_renyi2 K x {T} ({cx}) ({f.upper}) Htab HA HT1 HT2 Hc HlnX)."]


def _kl(f, U, T):
    """KL: U's logarithms other than ln T rewritten to ``ln (hx T)`` (their arguments equal by ``ring``), then
    ``WK T = U`` by ``field``."""
    from implgraph.kernel_coq.chord_steps import _log_args
    lines = []
    for i, arg in enumerate(a for a in dict.fromkeys(_log_args(U)) if a.replace(" ", "") != "T"):
        lines.append(f"assert (EL{i} : ln ({f.tr.expr(arg)}) = ln (hx {T})) by (unfold hx; f_equal; ring).")
    rewrites = "".join(f"rewrite EL{i}; " for i in range(len(lines)))
    lines.append(f"assert (Hc : WK {T} <= {f.upper}) by (right; {rewrites}unfold WK; field; nz_from_hyps).")
    return lines + [f"exact (corners_hexagon_kl K x {T} ({f.upper}) Htab HA HT1 HT2 Hc)."]


def _three(T):
    """N = 3 and T < 2 from the domain's T < N - 1 and N T < 2 T + 2 (with T >= 1), N substituted."""
    return [f"assert (HNa : 2 < INR N) by lra.",
             f"assert (HNb : INR N < 4) by nra.",
             "assert (HN3 : N = 3%nat).",
             "{ assert (A1 : (2 < N)%nat) by (apply INR_lt; simpl; lra).",
             "  assert (A2 : (N < 4)%nat) by (apply INR_lt; simpl; lra). lia. }",
             "subst N. assert (HI3 : INR 3 = 3) by (simpl; ring). rewrite HI3 in *.",
             f"assert (HT2 : {T} < 2) by lra.",
             f"assert (HTz : {T} <> 0) by lra.",
             f"assert (HT3 : {T} ^ 3 <> 0) by (apply pow_nonzero; lra)."]
