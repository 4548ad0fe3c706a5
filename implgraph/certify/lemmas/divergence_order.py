"""The divergence-order lemma: cited ordering facts between two declared divergences of the same distributions.

Trusted (cited, not re-proved): D_alpha <= D_beta for 1 <= alpha <= beta <= oo (KL the order 1, the largest log ratio
the order oo; van Erven and Harremoes, IEEE Trans. Inf. Theory 60(7), 2014, Theorems 3, 5, 6), and Pinsker's
TV <= sqrt(KL/2) (Tsybakov 2009, Lemma 2.5). A bound on every compared pair bounds the maxima, so the tables' levels.

Also trusted: every divergence here is jointly convex (quasi-convex at order oo; van Erven and Harremoes 2014,
Theorem 11), so where A compares pairs of records and B two averages of records (a class or a removal against the
table; ``fact`` prefixed ``joint-convexity+``), B's divergence is at most the largest over the pairs.

Re-checked here: both sides name registered definitions declaring divergences of the same ``compares``; the fact the
certificate names applies to their kinds and orders (``monotone-order``: B's order <= A's; ``pinsker``: B total
variation, A KL or Renyi); U is the fact's (T, or sqrt(T/2)) by exact algebra; no tightness is claimed.
"""

from __future__ import annotations

import sympy

from implgraph.certify.lemmas import lemma
from implgraph.core import methods
from implgraph.core.errors import InputError
from implgraph.core.formula import parse_expr

__all__ = ["check"]

_T = sympy.Symbol("T", positive=True)


def _order(div):
    if div.kind == "kl":
        return sympy.Integer(1)
    return div.order if div.kind == "renyi" else None


@lemma(methods.DIVERGENCE_ORDER, own_partitions=True)
def check(cert, ns=range(2, 13), timeout_ms=4000):
    """Re-check a divergence-order certificate (see the module notes)."""
    from implgraph.certify import UNREADABLE, CertificateReport, _registered
    from implgraph.certify.kernel import registered
    from implgraph.definitions.divergences import divergence_of
    steps = []
    try:
        steps += _registered(cert)
        a, b = (registered((cert.get(k) or {}).get("definition") or "") for k in ("A", "B"))
        da, db = (divergence_of(d) if d is not None else None for d in (a, b))
        steps.append(("both sides declare registered divergences", da is not None and db is not None, "registry"))
        if da is None or db is None:
            return CertificateReport(False, steps)
        fact = str((cert.get("upper_certificate") or {}).get("fact"))
        mixing = fact.startswith("joint-convexity+")
        fact = fact.removeprefix("joint-convexity+")
        steps.append(("they compare the same distributions, or A pairs of records and B two averages of records",
                      da.compares == db.compares if not mixing else
                      (da.compares == "pairs" and db.compares in ("class", "removal")), "registry"))
        oa, ob = _order(da), _order(db)
        upper = parse_expr(str(cert.get("upper")), {"T": _T})
        if fact == "monotone-order":
            ok = (oa is not None and ob is not None and bool(ob <= oa)) or (da.kind, da.order) == (db.kind, db.order)
            want = _T
        elif fact == "pinsker":
            ok = oa is not None and db.kind == "tv"
            want = sympy.sqrt(_T / 2)
        else:
            ok, want = False, None
        steps.append((f"the fact ({fact}) applies to B's and A's kinds and orders", ok, "registry"))
        steps.append(("U is the fact's", want is not None and sympy.simplify(upper - want) == 0, "exact"))
        steps.append(("no tightness claimed", not cert.get("tight"), "exact"))
    except (*UNREADABLE, InputError) as exc:
        steps.append(("certificate readable", False, f"{exc.__class__.__name__}: {exc}"))
    return CertificateReport(bool(steps) and all(s[1] for s in steps), steps)
