"""Verdicts: the one result type every checker returns, and the registry of claim checkers.

A verdict is three-valued in spirit (sympy assumptions style): a claim is established
(``proved``, ``verified-bounded``, ``confirmed``, ``holds``, ``holds-not-tight``), refuted
(``refuted``, with an exact witness re-checked in exact arithmetic), or ``unknown`` (a solver's
unknown or timeout, or nothing applies) -- never silently "proved".

Checkers register per claim ``kind`` with :func:`checker`, optionally with a predicate on the claim's
data for one shape of the kind (never per claim id); :func:`implgraph.checks.check_claim` dispatches.
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field, fields, is_dataclass

__all__ = ["Verdict", "VerdictWord", "math_html", "formula", "VERDICTS", "STATUSES", "STRENGTHS", "status_of",
           "styled_word", "STATUS_STYLE", "strength_of", "checker", "CHECKERS", "trivial_open"]

VERDICTS = ("proved", "verified-bounded", "refuted", "confirmed", "holds", "holds-not-tight", "unknown")

STATUSES = ("established", "refuted", "unknown")
"""What a verdict says about its claim (sympy-assumptions style: True, False, None)."""

STRENGTHS = ("proved", "confirmed", "bounded", "sampled", "witness")
"""How far the evidence reaches: ``proved`` for every value the claim quantifies over; ``confirmed``
exactly on the finite objects the claim is about (a table, a mechanism, a region); ``bounded`` for every
value up to a stated bound; ``sampled`` at sample points only; ``witness`` an exact table, re-checked,
that refutes."""

_STATUS = {"proved": "established", "verified-bounded": "established", "confirmed": "established",
           "holds": "established", "holds-not-tight": "established", "refuted": "refuted", "unknown": "unknown",
           "holds-at-samples": "established"}
_STRENGTH = {"proved": "proved", "verified-bounded": "bounded", "confirmed": "confirmed", "holds": "confirmed",
             "holds-not-tight": "confirmed", "refuted": "witness", "unknown": None, "holds-at-samples": "sampled"}


def status_of(word: str) -> str:
    """The status (:data:`STATUSES`) of a verdict word, e.g. ``status_of("verified-bounded")``
    is ``"established"``.

    >>> status_of("refuted"), strength_of("verified-bounded")
    ('refuted', 'bounded')
    """
    return _STATUS[word]


STATUS_STYLE = {"established": "green", "refuted": "bold red", "unknown": "yellow"}
"""Colour of a verdict word on a terminal, by its status (:func:`status_of`)."""


def styled_word(word: str, width: int = 0):
    """A verdict word padded to ``width``, styled by its status (shown only on a terminal): a rich Text."""
    from rich.text import Text
    try:
        style = STATUS_STYLE.get(status_of(word), "")
    except (KeyError, ValueError):
        style = ""
    return Text(word.ljust(width), style=style)


def strength_of(word: str) -> str | None:
    """The strength (:data:`STRENGTHS`) of a verdict word; None for ``unknown``."""
    return _STRENGTH[word]


class VerdictWord:
    """What every result type with a ``verdict`` word says, in one vocabulary: :attr:`status` and
    :attr:`strength` (a mixin of :class:`Verdict` and the engines' results)."""

    @property
    def status(self) -> str:
        """``established``, ``refuted`` or ``unknown``."""
        return status_of(self.verdict)

    @property
    def strength(self) -> str | None:
        """``proved``, ``confirmed``, ``bounded`` (see ``bound``), ``sampled``, ``witness``, or None."""
        return strength_of(self.verdict)


class _Formula:
    """A dataclass field holding a formula the engine printed: set as text (or a sympy expression, kept as its
    text), read as a sympy expression (:func:`formula`, parsed on first read); the text is ``<name>_str``."""

    def __set_name__(self, owner, name):
        self.text, self.cache = f"_{name}_text", f"_{name}_expr"

    def __get__(self, obj, owner=None):
        if obj is None:
            return None                 # the dataclass default
        text = obj.__dict__.get(self.text)
        if text is None:
            return None
        cached = obj.__dict__.get(self.cache)
        if cached is None or cached[0] != text:
            cached = obj.__dict__[self.cache] = (text, formula(text))
        return cached[1]

    def __set__(self, obj, value):
        cached = obj.__dict__.get(self.cache)
        if value is not None and cached is not None and value is cached[1]:
            return                      # its own expression handed back (dataclasses.replace): the text stays
        obj.__dict__[self.text] = None if value is None else str(value)


@dataclass
class Verdict(VerdictWord):
    """The engine's answer on one claim, with its evidence.

    Attributes
    ----------
    id, printed, reading : str
        The claim's id, its printed statement, and the proof's reading where it differs.
    verdict : str
        One of :data:`VERDICTS`.
    exact : str
        The exact quantity behind the verdict (the optimal level, the tight f, ...).
    evidence : str
        One human sentence: why.
    bound : str or None
        For bounded checks: what was checked, e.g. "N <= 12".
    witness : dict or None
        Exact rationals as strings: {"params": {...}, "rows": [[...], ...], "classes": [...]}.
    tight : sympy.Expr or None
        The tight function (implications with an explicit f): given as text, read as a sympy expression
        (a ``Piecewise`` where the engine printed pieces ``v1 if c1; v2 if c2``); :attr:`tight_str` is the
        text, as ``implgraph verify`` prints and exports it.
    seconds : float
    expect : str or None
        The expectation recorded in the data (for regression detection).
    details : dict
        Anything else worth exporting (pieces, limits, witness families).
    refuted_by : str or None
        The strength of a refutation's evidence when it is not a witness table: ``proved`` when the engine
        proves the opposite of the claim for every value (None: :func:`strength_of` the verdict).
    """

    id: str
    verdict: str
    printed: str = ""
    reading: str | None = None
    exact: str | None = None
    evidence: str = ""
    bound: str | None = None
    witness: dict | None = None
    tight: _Formula = _Formula()
    seconds: float = 0.0
    expect: str | None = None
    details: dict = field(default_factory=dict)
    source: str | None = None
    refuted_by: str | None = None   # a refutation's evidence when it is not a witness table (``proved``)

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"unknown verdict {self.verdict!r}")
        if self.refuted_by is not None and (self.verdict != "refuted" or self.refuted_by not in STRENGTHS):
            raise ValueError(f"refuted_by {self.refuted_by!r} on a {self.verdict!r} verdict")

    @property
    def strength(self) -> str | None:
        """As :attr:`VerdictWord.strength`, except a refutation by a proof of the opposite (``refuted_by``):
        a claimed non-implication refuted because the engine proves the implication is ``proved``, not
        ``witness``."""
        return self.refuted_by or strength_of(self.verdict)

    @property
    def regression(self) -> bool:
        return self.expect is not None and self.expect != self.verdict

    @property
    def tight_str(self) -> str | None:
        """The tight f as the engine printed it (the text of :attr:`tight`), or None."""
        return self.__dict__.get("_tight_text")

    @property
    def witness_table(self):
        """The witness as a :class:`~implgraph.core.concrete.ConcreteTable` (exact fractions, its classes), or None
        where there is no witness table (no witness, or one whose cells are not numbers).

        Examples
        --------
        >>> v = Verdict("x", "refuted", witness={"rows": [["0", "1"], ["1/2", "1/2"]], "classes": ["E1", "E2"],
        ...                                      "params": {"N": "2"}})
        >>> v.witness_table
        <ConcreteTable x (witness): N = 2, buckets a1, a2, 2 classes>
        >>> v.witness_table.to_rows()[1]
        [Fraction(1, 2), Fraction(1, 2)]
        """
        from fractions import Fraction

        from implgraph.core.concrete import ConcreteTable
        w = self.witness or {}
        rows = w.get("rows")
        if not rows:
            return None
        try:
            fractions = [[Fraction(str(x)) for x in r] for r in rows]
        except (ValueError, ZeroDivisionError, TypeError):
            return None
        return ConcreteTable.from_fractions(fractions, buckets=w.get("buckets"), classes=w.get("classes"),
                                            id=f"{self.id} (witness)")

    def to_json(self) -> dict:
        """The verdict as ``implgraph verify --json`` exports it (``tight`` as text)."""
        row = {f.name: (self.tight_str if f.name == "tight" else _plain(getattr(self, f.name))) for f in fields(self)}
        return {**row, "status": self.status, "strength": self.strength}

    def __repr__(self):
        tight = f", tight f = {self.tight_str}" if self.tight_str else ""
        return f"<Verdict {self.id}: {self.verdict}{tight}>"

    def __rich__(self):
        """The verdict word coloured by status, the id and the tight f (rich, Jupyter with rich)."""
        from rich.text import Text
        text = Text(f"{self.id}: ") + styled_word(self.verdict)
        return text + Text(f", tight f = {self.tight_str}") if self.tight_str else text

    def _repr_html_(self):
        """One claim as a small HTML table: verdict, printed statement, evidence, tight f, bound, witness."""
        import html
        rows = [("printed", html.escape(self.printed)), ("reading", html.escape(self.reading or "")),
                ("evidence", html.escape(self.evidence)), ("tight f", math_html(self.tight_str)),
                ("bound", html.escape(self.bound or ""))]
        if self.witness and self.witness.get("rows"):
            shown = " ".join("(" + ", ".join(r) + ")" for r in self.witness["rows"])
            rows.append(("witness", html.escape(shown)))
        body = "".join(f"<tr><th>{k}</th><td>{v}</td></tr>" for k, v in rows if v)
        return (f"<table><caption><b>{html.escape(self.id)}</b>: <b>{self.verdict}</b> ({self.status}"
                f"{', ' + self.strength if self.strength else ''})</caption>{body}</table>")


def _plain(value):
    """``value`` as :func:`dataclasses.asdict` exports a field: dataclasses as dicts, containers copied."""
    if is_dataclass(value) and not isinstance(value, type):
        return asdict(value)
    if isinstance(value, dict):
        return type(value)((k, _plain(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return type(value)(_plain(v) for v in value)
    return copy.deepcopy(value)


def formula(text):
    """A formula the engine printed, as a sympy expression: sympy's own text (``Piecewise((...), ...)`` too),
    or pieces ``v1 if c1; v2 if c2`` as a ``Piecewise``. Every name is a plain symbol. Read by the project's
    formula reader (nothing is evaluated); text that is no formula raises
    :class:`~implgraph.core.errors.InputError`.

    >>> formula("((N - 1)*exp(eps) + 1)/N")
    ((N - 1)*exp(eps) + 1)/N
    >>> formula("log(t) if t < 2; oo if t >= 2")
    Piecewise((log(t), t < 2), (oo, True))
    """
    import re

    import sympy

    from implgraph.core.formula import parse_condition, parse_expr
    text = str(text)
    names = {n: sympy.Symbol(n) for n in re.findall(r"[A-Za-z_]\w*", text) if n not in ("oo", "if", "True")}
    if " if " not in text:
        return parse_expr(text, names)
    pieces = []
    for piece in text.split("; "):
        value, _, condition = piece.partition(" if ")
        pieces.append((parse_expr(value, names), parse_condition(condition, names) if condition.strip() not in
                       ("", "True", "otherwise") else sympy.true))
    return sympy.Piecewise(*pieces)


def math_html(text) -> str:
    """A formula the engine printed (a tight f, a level) as ``$LaTeX$`` for HTML output (MathJax);
    escaped text when it is no plain formula (a piecewise with its conditions); ``""`` for None.

    >>> print(math_html("exp(eps)/N"), math_html("x if x > 0; oo if x <= 0"))
    $\\frac{e^{eps}}{N}$ <code>x if x &gt; 0; oo if x &lt;= 0</code>
    """
    import html
    import re

    import sympy

    from implgraph.core.errors import InputError
    from implgraph.core.formula import parse_expr
    if text is None:
        return ""
    names = {n: sympy.Symbol(n) for n in re.findall(r"[A-Za-z_]\w*", str(text)) if n != "oo"}
    try:
        return f"${sympy.latex(parse_expr(str(text), names))}$"
    except InputError:
        return f"<code>{html.escape(str(text))}</code>"


CHECKERS: dict = {}
"""``{claim kind: [(predicate or None, checker), ...]}``, the checkers with a predicate first."""


def checker(*kinds, when=None):
    """Register ``func(claim, context) -> Verdict`` for claim kinds.

    ``when``: a predicate on the claim's data (e.g. "has a ``mechanism:``") for a checker that handles
    one shape of a kind; such checkers are tried before the kind's plain checker, in registration order.
    Checkers are never registered for one claim id: what a checker handles is said by the data's shape.
    """
    def deco(func):
        for kind in kinds:
            entries = CHECKERS.setdefault(kind, [])
            if when is None:
                entries.append((None, func))
            else:
                at = next((i for i, (w, _) in enumerate(entries) if w is None), len(entries))
                entries.insert(at, (when, func))
        return func
    return deco


def trivial_open(d) -> bool:
    """An implication known only at B's weakest level (every table meets it) whose tight f is not known: whether A
    implies anything stronger of B is undecided. ``d``: a direction of check-edge, a matrix cell or a cell's JSON (its
    ``relation``, ``trivial``, ``tight`` and ``vacuous``)."""
    get = d.get if isinstance(d, dict) else (lambda key: getattr(d, key, None))
    tight = get("tight") or get("tight_all_n")      # (a direction's tight f for every N, the prover's, counts too)
    return get("relation") == "implication" and bool(get("trivial")) and not tight and not get("vacuous")
