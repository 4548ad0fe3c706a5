"""``kind: math`` claims with ``layout:``: a printed table symbolic in a parameter (rows, their mean
and the core's optimal level at each ``grid`` value).
"""

from __future__ import annotations

import sympy

from implgraph.checks.common import claim_error, claim_symbols, claim_verdict, parse_in, truth
from implgraph.definitions.levels import optimal_level
from implgraph.core.table import table_from_rows
from implgraph.core.verdict import checker
from implgraph.core.simplified import simplified

__all__ = ["check_layout_table"]


def _diagonal_table(claim, names, at):
    """The printed table at ``at``: ``size`` classes, class i holding ``diagonal`` in bucket i and
    ``off_diagonal`` elsewhere."""
    lay = claim.get("layout") or {}
    size = parse_in(claim, lay.get("size"), names).subs(at)
    if not size.is_Integer or size < 1:
        raise claim_error(claim, f"table size {size}", "give a positive integer size", key="layout")
    diag = parse_in(claim, lay.get("diagonal"), names).subs(at)
    off = parse_in(claim, lay.get("off_diagonal"), names).subs(at)
    rows = [[diag if i == j else off for i in range(int(size))] for j in range(int(size))]
    return table_from_rows(rows, classes=[f"E{j + 1}" for j in range(int(size))]), int(size)


@checker("math", when=lambda c: "layout" in c)
def check_layout_table(claim, context=None):
    """A printed table symbolic in a parameter (``layout:``): rows are distributions and their mean is the
    printed ``reference`` (symbolic identities), and the core's optimal level of the table equals the
    printed ``level`` at each ``grid`` value (the number of buckets depends on the parameter)."""
    names, kinds = claim_symbols(claim)
    lay = claim.get("layout") or {}
    size = parse_in(claim, lay.get("size"), names)
    diag, off = (parse_in(claim, lay.get(k), names) for k in ("diagonal", "off_diagonal"))
    ref = parse_in(claim, lay.get("reference"), names)
    row_sum = simplified(diag + (size - 1) * off)
    mean_ok = simplified((diag + (size - 1) * off) / size - ref) == 0
    printed = parse_in(claim, claim.get("level"), names)
    definition = str(claim.get("definition"))
    (gname, gspec), = (claim.get("grid") or {}).items()
    inst, bad = {}, []
    for v in gspec.get("values") or []:
        at = {names[gname]: parse_in(claim, v, names)}
        table, _ = _diagonal_table(claim, names, at)
        lv = optimal_level(table, definition).value
        inst[str(at[names[gname]])] = str(lv)
        if truth(sympy.Eq(lv, printed.subs(at))) is not True:
            bad.append({gname: str(at[names[gname]]), "core": str(lv), "printed": str(printed.subs(at))})
    ok = row_sum == 1 and mean_ok
    verdict = "refuted" if bad or not ok else "verified-bounded"
    return claim_verdict(claim, verdict, exact=f"level {printed}", bound=f"{gname} in {{{', '.join(inst)}}}",
                    evidence=(f"Each class row sums to {row_sum}; the mean of the rows equals the printed reference "
                              f"{ref}: {mean_ok} (symbolic in {gname}); the core's {definition} level of the table "
                              f"at each {gname}: {inst} (printed {printed})."),
                    witness=bad[0] if bad else None, details={"instances": inst, "row_sum": str(row_sum),
                                                              "reference_is_mean": mean_ok})
