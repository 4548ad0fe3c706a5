"""A row's claim as the checker reads it from the claim data and the registry (never from an engine).

Every formula goes through the project's whitelist parser (:func:`implgraph.core.formula.parse_expr` /
:func:`~implgraph.core.formula.parse_condition`), never ``sympify`` of text; a definition is the registered one.
:func:`read_claim` gives the claim's kind, symbols, condition (``when``) and, for an edge claim, its directions
(A => B with f; both ways for ``equivalent``/``reciprocal``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy

from implgraph.certify.registered import registered

__all__ = ["Mismatch", "Side", "Direction", "ClaimStatement", "read_claim", "parse_expr", "parse_condition", "as_expr",
           "same_expression", "FORWARD_KINDS", "BOTH_WAY_KINDS"]

#: the edge kinds and the directions they state: (from => to with f) and, for both-way kinds, (to => from with g)
FORWARD_KINDS = ("implies", "generalisation", "not-implies")


BOTH_WAY_KINDS = ("equivalent", "reciprocal")


class Mismatch(ValueError):
    """The claim or the certificate cannot be read for the comparison (one line: what)."""


def _symbol(name, kind):
    return sympy.Symbol(name, integer=True) if kind == "integer" else sympy.Symbol(name, real=True)


def parse_expr(text, names):
    from implgraph.core.errors import InputError
    from implgraph.core.formula import parse_expr
    try:
        return parse_expr(str(text), names)
    except InputError as exc:
        raise Mismatch(f"cannot read {str(text)[:80]!r}: {exc.reason}") from None


def parse_condition(text, names):
    from implgraph.core.errors import InputError
    from implgraph.core.formula import parse_condition
    try:
        rel = parse_condition(str(text), names)
    except InputError as exc:
        raise Mismatch(f"cannot read the condition {str(text)[:80]!r}: {exc.reason}") from None
    return list(sympy.And.make_args(rel)) if isinstance(rel, sympy.And) else [rel]


def as_expr(x):
    """``x`` as a sympy expression: a sympy object or a number as it is; text is never read here (it was parsed by
    the whitelist parser where it was read)."""
    if isinstance(x, str):
        raise Mismatch(f"the word {x[:40]!r} where an expression was expected")
    if isinstance(x, (int, float)):
        return sympy.Integer(x) if isinstance(x, int) else sympy.Rational(str(x))
    return x


@dataclass
class Side:
    """One side of an edge claim as the claim states it."""

    definition: object
    params: dict
    classes: dict
    level: sympy.Symbol
    scope: str = "table"
    of: object = None

    @property
    def name(self):
        return self.definition.name


@dataclass
class Direction:
    """A => B with f (None: some f), as the claim states it; ``label`` names it in the report."""

    a: Side
    b: Side
    f: object
    label: str


@dataclass
class ClaimStatement:
    """A row's claim, read from its claim node (:func:`read_claim`)."""

    id: str
    kind: str
    reading: bool
    names: dict
    kinds: dict
    conditions: list
    node: dict
    directions: list = field(default_factory=list)

    def symbol(self, name):
        return self.names.get(name)


def _side(spec, names, kinds, where):
    if not isinstance(spec, dict):
        raise Mismatch(f"the claim's `{where}` is not a mapping")
    d = registered(spec.get("definition"))
    if d is None:
        raise Mismatch(f"the claim's `{where}` names {spec.get('definition')!r}, not a registered definition")
    level = str(spec.get("level") or d.level_symbol)
    if level not in names:
        names[level] = sympy.Symbol(level, real=True)
        kinds[level] = "real"
    params = {}
    for k, v in (spec.get("params") or {}).items():
        params[str(k)] = str(v) if k in (getattr(d, "words", None) or {}) else parse_expr(v, names)
    classes = {str(k): parse_expr(v, names) for k, v in (spec.get("classes") or {}).items()}
    return Side(d, params, classes, names[level], str(spec.get("scope") or "table"), spec.get("of"))


def read_claim(claim, row_id=None) -> ClaimStatement:
    """The claim of the row ``row_id`` (the claim's id, or ``<id>#reading``: the proof's reading) from its node.

    Raises
    ------
    Mismatch
        A formula the whitelist parser refuses, or a definition that is not registered.
    """
    cid = str(claim.get("id"))
    reading = row_id is not None and str(row_id) == cid + "#reading"
    kind = str((claim.get("reading_kind") if reading else None) or claim.get("kind"))
    kinds = {str(k): str(v) for k, v in (claim.get("symbols") or {}).items()}
    names = {k: _symbol(k, v) for k, v in kinds.items()}
    if "N" not in names:        # the number of records (implicit in every claim about tables)
        names["N"], kinds["N"] = sympy.Symbol("N", integer=True), "integer"
    when = list(claim.get("when") or []) + (list(claim.get("reading_when") or []) if reading else [])
    st = ClaimStatement(cid, kind, reading, names, kinds, [], claim)
    if kind in FORWARD_KINDS + BOTH_WAY_KINDS:
        a = _side(claim.get("reading_from") if reading and claim.get("reading_from") else claim.get("from"),
                  names, kinds, "from")
        b = _side(claim.get("reading_to") if reading and claim.get("reading_to") else claim.get("to"),
                  names, kinds, "to")
        f_text = claim.get("reading_f") if reading and claim.get("reading_f") is not None else claim.get("f")
        f = None if f_text is None or kind == "not-implies" else parse_expr(f_text, names)
        st.directions.append(Direction(a, b, f, f"{a.name} => {b.name}"))
        if kind in BOTH_WAY_KINDS:
            g = None if claim.get("g") is None else parse_expr(claim["g"], names)
            st.directions.append(Direction(b, a, g, f"{b.name} => {a.name}"))
    st.conditions = [c for w in when for c in parse_condition(w, names)]
    return st


def same_expression(a, b):
    try:
        return sympy.simplify(as_expr(a) - as_expr(b)) == 0
    except (TypeError, ValueError):
        return False
