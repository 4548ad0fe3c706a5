"""What the Python API (:mod:`implgraph.api`) returns: containers with short reprs and Jupyter displays.

:class:`Levels` (every definition's level on a table), :class:`Verdicts` (the verdicts of a verify run),
:class:`ClaimList` (rows of the claims listing) and :class:`ImplicationMap` (a built map, an SVG in
Jupyter). The single results (a table, a level, a verdict, an edge) display themselves.
"""

from __future__ import annotations

import html
import tempfile
from collections import Counter
from pathlib import Path

__all__ = ["Levels", "Verdicts", "ClaimList", "ImplicationMap"]


class Levels(dict):
    """Every definition's optimal level on one table: ``{name: Level}``, shown as a table."""

    def __init__(self, found: dict, table=None):
        super().__init__(found)
        self.table = table

    def __repr__(self):
        w = max((len(_level_name(lv)) for lv in self.values()), default=0)
        short = lambda text: text if len(text) <= 100 else text[:97] + "..."  # noqa: E731
        return "\n".join(f"{_level_name(lv):<{w}}  {lv.definition.level_symbol} = {short(str(lv))}"
                         for lv in self.values())

    def _repr_html_(self):
        rows = [(html.escape(_level_name(lv)), lv._repr_latex_() or html.escape(str(lv))) for lv in self.values()]
        return _html_table(("definition", "optimal level"), rows, getattr(self.table, "id", None))

    def __rich__(self):
        """A rich table (aligned columns; the decimal beside an exact number) for a terminal or Jupyter with rich."""
        from rich.table import Table as RichTable

        from implgraph.io.console import with_decimal
        table = RichTable(title=getattr(self.table, "id", None), show_edge=False)
        table.add_column("definition", no_wrap=True)
        table.add_column("level", overflow="fold")
        for lv in self.values():
            table.add_row(_level_name(lv), f"{lv.definition.level_symbol} = {with_decimal(str(lv))}")
        return table

    def to_frame(self):
        """The levels as a :class:`pandas.DataFrame`, one row per definition (index: its name), with columns
        ``params`` (text), ``symbol`` (the level's symbol), ``level`` (a sympy expression, None where undefined),
        ``exact`` (its text), ``decimal`` (a float where the level is a number: ``inf`` for oo; NaN where it
        depends on a symbol or is undefined), ``defined`` and ``note`` (why undefined).

        Two records in classes of one record each: k-anonymity's level is k = 1.

        >>> import implgraph
        >>> t = implgraph.table_from_rows([["1/2", "1/2"], ["1/4", "3/4"]], classes=["E1", "E2"])
        >>> row = implgraph.levels(t).to_frame().loc["k-anonymity"]
        >>> row["symbol"], row["exact"], float(row["decimal"]), bool(row["defined"])
        ('k', '1', 1.0, True)
        """
        return level_frame_of(self)


def level_frame_of(found: dict, extra: dict | None = None):
    """``{name: Level}`` as the DataFrame of :meth:`Levels.to_frame` (``extra``: constant columns put first)."""
    import pandas as pd
    rows = []
    for name, lv in found.items():
        decimal = lv.float()
        rows.append({**(extra or {}), "definition": name,
                     "params": ", ".join(f"{k}={v}" for k, v in lv.params.items()),
                     "symbol": lv.definition.level_symbol, "level": lv.value, "exact": str(lv),
                     "decimal": float("nan") if decimal is None else decimal, "defined": lv.defined, "note": lv.note})
    columns = [*(extra or {}), "definition", "params", "symbol", "level", "exact", "decimal", "defined", "note"]
    return pd.DataFrame(rows, columns=columns).set_index("definition")


def _level_name(lv) -> str:
    params = ", ".join(f"{k}={v}" for k, v in lv.params.items())
    return f"{lv.definition.name}({params})" if params else lv.definition.name


def _html_table(head, rows, caption=None) -> str:
    """An HTML table: ``head`` escaped, ``rows`` of cells already in HTML."""
    cells = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    title = f"<caption>{html.escape(caption)}</caption>" if caption else ""
    return f"<table>{title}<tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in head) + f"</tr>{cells}</table>"


class Verdicts(list):
    """The verdicts of :func:`verify`, in order, with :meth:`counts`, :meth:`regressions` and an HTML table."""

    def counts(self) -> dict:
        """``{verdict word: number of claims}``, sorted by word."""
        return dict(sorted(Counter(v.verdict for v in self).items()))

    def regressions(self) -> list:
        """The verdicts that differ from the ``expect:`` recorded in the data."""
        return [v for v in self if v.regression]

    def to_json(self) -> list:
        """The verdicts as ``implgraph verify --json`` exports them."""
        return [v.to_json() for v in self]

    def __repr__(self):
        w = max((len(v.id) for v in self), default=0)
        lines = [f"{v.id:<{w}}  {v.verdict}" for v in self]
        lines.append(f"{len(self)} verdicts: " + ", ".join(f"{n} {k}" for k, n in self.counts().items()))
        return "\n".join(lines)

    def _repr_html_(self):
        return "".join(v._repr_html_() for v in self)

    def __rich__(self):
        """A rich table: id, verdict (coloured by status), tight f; the counts as its caption."""
        from rich.table import Table as RichTable

        from implgraph.io.console import verdict_text
        table = RichTable(show_edge=False, caption=f"{len(self)} verdicts: "
                          + ", ".join(f"{n} {k}" for k, n in self.counts().items()))
        for head in ("claim", "verdict", "tight f"):
            table.add_column(head, overflow="fold")
        for v in self:
            table.add_row(v.id, verdict_text(v.verdict), v.tight_str or "")
        return table


class ImplicationMap:
    """A built implication map (see :func:`implication_map`).

    Attributes
    ----------
    level : str
        ``definitions`` or ``groups``.
    N : int
        Records of the analysis.
    graph : networkx.MultiDiGraph
        The map drawn (one node per definition, or per definition and group size).
    groups : networkx.MultiDiGraph
        The map at ``N`` records that the analysis closes.
    analysis : Analysis
        Closure, derived non-implications with their traces, conflicts, open pairs.
    """

    def __init__(self, built: dict):
        self._built = built
        self.level, self.N = built["level"], built["N"]
        self.graph, self.groups, self.analysis = built["shown"], built["groups"], built["an"]

    def summary(self) -> dict:
        """Counts: nodes, implications (closure), claimed and derived non-implications, conflicts, open pairs."""
        return self.analysis.summary()

    def to_json(self) -> dict:
        """The document ``implgraph map --json`` prints."""
        from implgraph.commands.map import export
        return export(self._built)

    def draw(self, path, labels: str = "f", full: bool = False, width="single", overlay=None) -> dict:
        """Write the map to ``path`` as ``implgraph map --out`` does (the format by the suffix, ``width``
        ``single``, ``double`` or centimetres, ``overlay="claims"`` for the papers' claims); returns the
        figure's report (:func:`implgraph.map.render.render`: format, width, smallest text, defects)."""
        from implgraph.commands.map import figure
        return figure(self._built, path, width=width, overlay=overlay, labels=labels, full=full)

    def _repr_svg_(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "map.svg"
            self.draw(path)
            return path.read_text()

    def __repr__(self):
        s = self.summary()
        return (f"<ImplicationMap level={self.level} N={self.N}: {s['nodes']} nodes, {s['implications']} "
                f"implications, {s['claimed_non_implications']} + {s['derived_non_implications']} "
                f"non-implications, {s['conflicts']} conflicts, {s['open_pairs']} open pairs>")


class ClaimList(list):
    """Claim rows (dicts) with a short repr and an HTML table."""

    _COLUMNS = ("id", "kind", "expect", "printed")

    def __repr__(self):
        w = max((len(r["id"]) for r in self), default=0)
        return "\n".join(f"{r['id']:<{w}}  {r['kind']:<12} {r.get('expect') or '-'}" for r in self)

    def _repr_html_(self):
        return _html_table(self._COLUMNS, [[html.escape(str(r.get(c) or "")) for c in self._COLUMNS] for r in self])
