"""The guarantees of a dataset as text lines and as a static HTML page (no scripts, no external files).

Input: ``{label: (table, [Guarantee])}`` from :func:`implgraph.commands.guarantees.compute` (one entry
per sensitive column, or the release of a mechanism).
"""

from __future__ import annotations

import html

from implgraph.definitions.nodes import node_text
from implgraph.io.console import with_decimal

__all__ = ["text_lines", "html_report", "definition_label"]


def definition_label(g) -> str:
    """The definition at its parameters on the table, in the node grammar (``NAME(k=2)``)."""
    return node_text(g.definition.name, {k: v for k, v in g.params.items()}, "")


def _heading(label, table) -> str:
    n_classes = len(table.class_labels or [])
    sizes = table.class_sums()[0] if n_classes else []
    where = f"{n_classes} classes of {min(sizes)}..{max(sizes)} records" if n_classes else "no classes"
    return f"{label}: N = {table.N} records, {where}, {len(table.buckets)} values"


def _why(imp) -> str:
    c = imp.composition
    return f"{' -> '.join(c.trace)} ({c.status})"


def text_lines(file, results, vsource) -> list:
    """The report as plain lines (one block per table, two lines per definition with an implied level)."""
    lines = [f"{file}: verdicts of the edge claims from {vsource}"]
    for label, (table, gs) in results.items():
        lines.append(_heading(label, table))
        width = max(len(definition_label(g)) for g in gs)
        for g in gs:
            sym = g.definition.level_symbol
            value, where = g.best
            shown = "undefined" if value is None else with_decimal(value)      # log(3/2) ≈ 0.405: for a reader
            note = "  (" + "; ".join(x for x in (where, g.note) if x) + ")" if where or g.note else ""
            lines.append(f"  {definition_label(g):<{width}}  {sym} = {shown}{note}")
            imp = g.best_implied
            if imp is None:
                continue
            if where == "measured":
                lines.append(f"  {'':<{width}}    implied {sym} <= {imp.value}" if g.definition.stronger == "smaller"
                             else f"  {'':<{width}}    implied {sym} >= {imp.value}")
            lines.append(f"  {'':<{width}}    from {imp.source_label} = {imp.source_value} by f = {imp.composition.f}: "
                         f"{_why(imp)}"
                         + (f"; {len(g.implied) - 1} more chain(s)" if len(g.implied) > 1 else ""))
            if g.consistent is False:
                lines.append(f"  {'':<{width}}    CONFLICT: the implied level is stronger than the exact measured one")
    return lines


_STYLE = """
body { font-family: sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; margin-bottom: 2em; }
th, td { border: 1px solid #ccc; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
td.measured { color: #1a5e1a; } td.implied { color: #1a3e8e; } td.conflict { color: #b00; font-weight: bold; }
code { font-size: 90%; }
"""


def _row(g) -> str:
    e = html.escape
    value, where = g.best
    imp = g.best_implied
    cells = [f"<code>{e(definition_label(g))}</code>", e(g.definition.level_symbol),
             e("undefined" if g.measured is None else str(g.measured)) + (f"<br><small>{e(g.note)}</small>"
                                                                          if g.note else ""),
             "" if imp is None else e(str(imp.value)),
             f'<td class="{e(where or "")}">' + e("undefined" if value is None else str(value))
             + (f" ({e(where)})" if where else ""),
             "" if imp is None else (f"from <code>{e(imp.source_label)}</code> = {e(str(imp.source_value))}, "
                                     f"f = <code>{e(str(imp.composition.f))}</code><br>"
                                     + " &rarr; ".join(f"<code>{e(k)}</code>" for k in imp.composition.trace)
                                     + f" ({e(imp.composition.status)})")]
    tds = []
    for i, c in enumerate(cells):
        tds.append(c if i == 4 else f"<td>{c}")
    if g.consistent is False:
        tds.append('<td class="conflict">implied level stronger than the measured one')
    return "<tr>" + "</td>".join(tds) + "</td></tr>"


def html_report(file, results, vsource) -> str:
    """A self-contained HTML page: one table per sensitive column (or release)."""
    e = html.escape
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>implgraph guarantees: {e(str(file))}</title><style>{_STYLE}</style></head><body>",
             f"<h1>Guarantees of <code>{e(str(file))}</code></h1>",
             "<p>Measured: the exact optimal level on the table. Implied: the strongest level that a chain of "
             f"established implications gives from a measured level (verdicts from {e(vsource)}). "
             "Best: the stronger of the two.</p>"]
    for label, (table, gs) in results.items():
        parts.append(f"<h2>{e(_heading(label, table))}</h2>")
        parts.append("<table><tr><th>definition</th><th>level</th><th>measured</th><th>implied</th>"
                     "<th>best</th><th>why (chain of claims)</th></tr>")
        parts += [_row(g) for g in gs]
        parts.append("</table>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
