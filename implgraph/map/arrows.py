"""Figure arrows: the arrows of the implication-map figures (``kind: map`` claims of the theorems data).

Each arrow of a figure (e.g. Fig. 1 and Fig. 2 of [1]_) is read into an :class:`Arrow` whose ends are
rule endpoints (:class:`implgraph.map.rules.Endpoint`), so :func:`implgraph.map.figures.figure_check`
can compare what a figure draws with what the theorems support.

References
----------
.. [1] E. Ekenstedt et al., "When Differential Privacy Implies Syntactic Privacy", IEEE TIFS 17, 2022.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from implgraph import definitions
from implgraph.core.errors import InputError
from implgraph.core.formula import parse_condition, parse_expr
from implgraph.io.table_data import make_symbols
from implgraph.io.datafile import Node
from implgraph.io.theorems import load_claims
from implgraph.map.rules import N_SYM, Endpoint, Rule, check_theorem_paths

__all__ = ["Arrow", "load_arrows"]


@dataclass
class Arrow:
    """One arrow of an implication-map figure (``kind: map`` claims of the theorems data)."""

    figure: str
    index: int
    kind: str                     # implies | not-implies | equivalent
    reading_kind: str | None
    a: Endpoint
    b: Endpoint
    when: tuple
    kinds: dict
    label: str
    style: str
    claim: str | None
    line: int | None = None
    file: str | None = None

    def rules(self, kind=None) -> list:
        """The arrow as rules (an equivalence gives both directions)."""
        kind = kind or self.kind
        base = dict(claim=f"{self.figure}#{self.index}", when=self.when, kinds=self.kinds,
                    verdict="proved", printed=self.label, file=self.file, line=self.line)
        if kind == "equivalent":
            return [Rule(kind="implies", basis="printed", a=self.a, b=self.b, **base),
                    Rule(kind="implies", basis="converse", a=self.b, b=self.a, **base)]
        return [Rule(kind=kind, basis="printed", a=self.a, b=self.b, **base)]



def _arrow_side(spec, names, kinds, where) -> Endpoint:
    if not isinstance(spec, dict) or "definition" not in spec:
        raise where.error("an arrow end must be a mapping with `definition:`", fix="write `{definition: NAME}`")
    try:
        d = definitions.get(str(spec["definition"]))
    except InputError as exc:
        raise where.error(exc.reason, fix=exc.fix) from None
    params = {}
    for pk, pv in (spec.get("params") or {}).items():
        params[str(pk)] = _parse(parse_expr, pv, names, where)
    generic = False
    if spec.get("classes"):
        cl = spec["classes"]
        if "min_size" in cl:
            params["k"] = _parse(parse_expr, cl["min_size"], names, where)
        if "max_size" in cl:
            params["max"] = _parse(parse_expr, cl["max_size"], names, where)
    elif d.needs_classes:
        generic = True
    return Endpoint(definition=d.name, params=tuple(params.items()), scope=str(spec.get("scope") or "table"),
                    level=sympy.Symbol(d.level_symbol, real=True), generic=generic)


def _parse(fn, text, names, where):
    try:
        return fn(str(text), names)
    except InputError as exc:
        raise InputError(exc.reason, file=where.file, line=where.line, fix=exc.fix) from None


def load_arrows(paths=None, figures=None) -> list:
    """The arrows of the ``kind: map`` claims of the theorems data (all, or those whose id is in ``figures``)."""
    check_theorem_paths(paths)
    out = []
    for c in load_claims(paths, kinds=("theorems",)):
        if c.get("kind") != "map" or (figures and str(c.get("id")) not in figures):
            continue
        names, kinds = make_symbols(c.get("symbols") or {}, c)
        names.setdefault("N", N_SYM)
        kinds.setdefault(names["N"], "integer")
        for i, arrow in enumerate(c.get("arrows") or []):
            if not isinstance(arrow, Node):
                raise c.error("every arrow must be a mapping", key="arrows", fix="write `- {from: ..., to: ...}`")
            kind = str(arrow.get("kind", "implies"))
            if kind not in ("implies", "not-implies", "equivalent"):
                raise arrow.error(f"arrow kind {kind!r}", key="kind", fix="use implies, not-implies or equivalent")
            when = tuple(_parse(parse_condition, w, names, arrow) for w in (arrow.get("when") or []))
            out.append(Arrow(figure=str(c["id"]), index=i, kind=kind, reading_kind=arrow.get("reading_kind"),
                             a=_arrow_side(arrow.get("from"), names, kinds, arrow),
                             b=_arrow_side(arrow.get("to"), names, kinds, arrow), when=when, kinds=dict(kinds),
                             label=str(arrow.get("label", "")), style=str(arrow.get("style", "solid")),
                             claim=arrow.get("claim"), line=arrow.line, file=arrow.file))
    return out

