"""What the composite certificates share: their parts re-checked, and bounds compared as sets of quotients."""

from __future__ import annotations

__all__ = ["recheck_parts", "same_quotients"]


def recheck_parts(cert, parts, ns, timeout_ms, claim):
    """The steps of re-checking a composite certificate's ``parts``: each part's own report, and ``claim(i, part)``,
    ``(what, ok)``: how it must relate to the certificate (each part's symbols and domain are always the
    certificate's: its domain among the certificate's conditions)."""
    from implgraph.certify.accepted import part_report
    steps, domain = [], {str(c) for c in cert.get("domain", [])}
    for i, part in enumerate(parts, 1):
        rep = part_report(part, ns, timeout_ms)     # (within the whole's budget)
        steps.append((f"part {i} ({part.get('method')}) re-checked", rep.ok,
                      "; ".join(w for w, _, _ in rep.failures()) or "every step holds"))
        what, ok = claim(i, part)
        steps.append((what, ok and part.get("symbols") == cert.get("symbols")
                      and {str(c) for c in part.get("domain", [])} <= domain, "exact"))
    return steps


def same_quotients(xs, ys) -> bool:
    """Are two lists of quotients ``(P, Q)`` the same set, compared as quotients?"""
    def among(x, zs):
        return any(x[0] * z[1] == z[0] * x[1] for z in zs)
    return all(among(x, ys) for x in xs) and all(among(y, xs) for y in ys)
