"""implgraph's tight f of the pure-eps conversions, taken from the engine for ``bench_dp_libraries.py``.

Each conversion is asked of the prover once (``implgraph.engines.prove.check_implication``); its tight f is used only
when the verdict is "proved", tight, and every certificate it carries passes ``implgraph.certify``. The f (sympy, in
eps and N) is then evaluated at the grid's points in floats (this is a benchmark). Where implgraph does not import
or a conversion is not proved tight, :func:`tight` returns None and the bench keeps its own closed form, saying so.
"""

from __future__ import annotations

import functools

__all__ = ["tight", "available"]

#: the bench's conversion name -> (A, B, B's parameter name or None)
EDGES = {"pure => Renyi (local)": ("ldp", "renyi-ldp", "alpha"), "pure => KL (local)": ("ldp", "kl-ldp", None),
         "pure => TV (local)": ("ldp", "tv-ldp", None), "pure => KL (central)": ("dp", "kl-dp", None),
         "pure => Renyi (central)": ("dp", "renyi-dp", "alpha")}


def available() -> bool:
    try:
        import implgraph.certify  # noqa: F401
        import implgraph.engines.prove  # noqa: F401
    except ImportError:
        return False
    return True


@functools.lru_cache(maxsize=64)
def _proved_f(conv, order):
    """The certified tight f of ``conv`` (at B's order, a string), or None."""
    import sympy

    from implgraph.certify import check_certificate
    from implgraph.engines.prove import check_implication
    a, b, param = EDGES[conv]
    b_params = {param: sympy.Rational(order)} if param else {}
    r = check_implication(a, b, b_params=b_params, max_n=3)
    if r.verdict != "proved" or r.tightness != "tight" or r.tight is None:
        return None
    details = r.details or {}
    certs = [details.get("certificate"), *(details.get("certificates") or [])]
    if not all(c is not None and check_certificate(c).ok for c in certs):
        return None
    return r.tight


def tight(conv, eps, N=None, alpha=None):
    """The engine's tight f of ``conv`` at (eps, N, alpha) as a float, or None (not proved tight here)."""
    if conv not in EDGES or not available():
        return None
    f = _proved_f(conv, None if alpha is None else str(alpha))
    if f is None:
        return None
    import sympy
    subs = {s: (sympy.Float(eps, 30) if s.name == "eps" else N) for s in f.free_symbols}
    if any(v is None for v in subs.values()):
        return None
    return float(sympy.N(f.subs(subs), 30))
