"""The witness family of ``kind: unbounded`` claims (:mod:`implgraph.checks.unbounded`).

Concrete rational instances of the table along the free parameter, with both levels computed exactly on
the concrete tables (:func:`witness_family`); :func:`_side` reads one side of a claim.
"""

from __future__ import annotations

import sympy

from implgraph import definitions
from implgraph.checks.table_points import concrete_level, fmt_point, num_le, parse_claim_parts
from implgraph.core.errors import InputError

__all__ = ["witness_family", "public_family"]


def _side(table, spec, p, fixmap):
    """(definition, parameters, scope) of one side of a claim (InputError: the definition is not registered)."""
    d = definitions.get(str(spec.get("definition")))
    params = {k: (str(v) if k in d.words else p(v, "params").subs(fixmap))
              for k, v in (spec.get("params") or {}).items()}
    return d, params, str(spec.get("scope") or "table")


def _family_shows_break(fam):
    """True when the family's B levels are all oo, or grow strictly (oo from some member on)."""
    vals = [r.get("_B") for r in fam]
    if not vals or any(v is None for v in vals):
        return False
    return all(v is sympy.oo for v in vals) or all(
        (y is sympy.oo) or (x is not sympy.oo and num_le(x, y) and x != y) for x, y in zip(vals, vals[1:]))


def witness_family(table, claim) -> list:
    """Concrete rational instances along the free parameter, with both levels computed exactly.

    Returns
    -------
    list of dict
        ``{"value", "point", "A", "B", "A_float", "B_float", "in_region"}`` per family member.
    """
    p, when = parse_claim_parts(table, claim)
    names = dict(table.symbols)
    free = names.get(str(claim.get("free")))
    if free is None:
        return []
    fixmap = {names[k]: p(v, "fix") for k, v in (claim.get("fix") or {}).items() if k in names}
    # a family for every value of `for_every:` is shown at the values of `family_at:`
    at_spec = claim.get("family_at") or {}
    if not isinstance(at_spec, dict):
        raise InputError(f"`family_at: {at_spec!r}` is not a mapping", file=getattr(claim, "file", None) or table.file,
                         line=claim.line_of("family_at") if hasattr(claim, "line_of") else None,
                         fix='write e.g. `family_at: {k: "3"}`')
    fixmap.update({names[k]: p(v, "family_at") for k, v in at_spec.items() if k in names})
    at = {str(k): str(v) for k, v in at_spec.items()}
    out = []
    for x in claim.get("family") or []:
        val = p(x, "family")
        point = dict(fixmap)
        point[free] = val
        inside = table.region.add(*when).contains(point)
        row = {"value": str(val), "point": fmt_point(point), "in_region": inside is True}
        if at:
            row["at"] = at
        if inside is not True:
            row["A"] = row["B"] = "outside the region"
            out.append(row)
            continue
        for key, label in (("from", "A"), ("to", "B")):
            d, params, scope = _side(table, claim.get(key) or {}, p, point)
            raw = concrete_level(table, d, params, point, scope)
            lvl = d.level_from_raw(raw)
            row[label] = str(lvl)
            row["_" + label] = lvl
            row[label + "_float"] = None if lvl is None else (float("inf") if lvl is sympy.oo else float(lvl))
        out.append(row)
    return out


def public_family(fam):
    """The family's rows without their private (``_``) entries: what is shown and written."""
    return [{k: v for k, v in r.items() if not k.startswith("_")} for r in fam]
