"""The one place the Coq generator reads a certificate (and the rest of implgraph).

A certificate (JSON, ``implgraph-certificate/1``) is read here into :class:`Cert` and :class:`Side`; the generator
(:mod:`implgraph.kernel_coq.generate`) and the witness and tightness writers use nothing else of it. Everything the
generator takes from other implgraph modules is imported here too: the polynomial reader of a certificate's domain
(:func:`domain`), the shift argument's bound search (:data:`positive`) and the registry (:func:`registered`). A change
of the certificate format (field names, where the multipliers sit) or of those modules is an edit of this file.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Cert", "Side", "read", "domain", "registered", "registered_side", "positive", "Unreadable"]


class Unreadable(ValueError):
    """A certificate whose fields this adapter does not read (the reason is the message)."""


@dataclass
class Slack:
    compares: str | None
    delta: str


@dataclass
class Side:
    """One side of a certificate, as its fields declare it."""

    definition: str | None = None
    params: dict = field(default_factory=dict)
    family: str | None = None
    sides: str | None = None            # "TwoSided", "OneSided" or None (the library's names)
    size: str | None = None             # a subset size (text)
    min_class: str | None = None
    max_class: str | None = None
    distance: str | None = None
    slack: Slack | None = None
    class_size_level: bool = False
    uniform_class_level: str | None = None
    finite_level_of: str | None = None
    increase_cap: str | None = None
    min_class_param: str | None = None
    class_level: str | None = None      # inequality-lemmas: min-entropy, support, shannon
    tail_ratio: str | None = None
    raw: dict = field(default_factory=dict, repr=False)


@dataclass
class Cert:
    """A certificate's claim and its proof data."""

    method: str | None
    symbols: dict
    domain: list
    A: Side
    B: Side
    upper: str | None = None
    lower: str | None = None
    multipliers: object = None          # {obligation: {fact: text}} or, for ``product``, [{fact: text}]
    q: str | None = None                # subset-supremum's integer q
    parts: list = field(default_factory=list)
    steps: list = field(default_factory=list)
    f: str | None = None
    tight: bool = False
    tightness: dict | None = None
    raw: dict = field(default_factory=dict, repr=False)


_SIDES = {"two-sided": "TwoSided", "one-sided": "OneSided"}


def _text(v):
    return None if v is None else str(v)


def read_side(d) -> Side:
    d = d or {}
    slack = d.get("slack")
    return Side(definition=d.get("definition"), params=dict(d.get("params") or {}), family=d.get("family"),
                sides=_SIDES.get(d.get("sides")), size=_text(d.get("size")), min_class=_text(d.get("min_class")),
                max_class=_text(d.get("max_class")), distance=d.get("distance"),
                slack=Slack(slack.get("compares"), str(slack.get("delta"))) if slack else None,
                class_size_level=bool(d.get("class_size_level")), uniform_class_level=d.get("uniform_class_level"),
                finite_level_of=d.get("finite_level_of"), increase_cap=d.get("increase_cap"),
                min_class_param=d.get("min_class_param"), class_level=d.get("class_level"),
                tail_ratio=_text(d.get("tail_ratio")), raw=d)


def read(cert) -> Cert:
    """:class:`Cert` of a certificate's JSON."""
    if not isinstance(cert, dict):
        raise Unreadable(f"a certificate is a mapping, not a {type(cert).__name__}")
    data = cert.get("upper_certificate") or {}
    A = read_side(cert.get("A"))
    floor = data.get("class_floor")
    if floor is not None and A.min_class_param is None and declares_min_class(A.definition, floor):
        A.min_class_param = str(floor)      # A's parameter, declared a minimum class size, bounds B's classes
    return Cert(method=cert.get("method"), symbols=dict(cert.get("symbols") or {}),
                domain=[str(c) for c in dict.fromkeys(cert.get("domain") or [])],
                A=A, B=read_side(cert.get("B")), upper=_text(cert.get("upper")),
                lower=_text(cert.get("lower")), multipliers=data.get("multipliers"), q=_text(data.get("q")),
                parts=[read(p) for p in cert.get("parts") or []], steps=list(cert.get("steps") or []),
                f=cert.get("f"), tight=bool(cert.get("tight")), tightness=cert.get("tightness"), raw=cert)


def domain(cert: Cert):
    """The certificate's symbols and domain read exactly (:class:`implgraph.certify.domain.Domain`: ``reader`` the
    polynomial ring over the symbols and the lemmas' variables, ``atoms`` the domain's polynomial relations)."""
    from implgraph.certify.domain import Domain
    return Domain(cert.raw)


def registered(name):
    """The registered definition called ``name`` (None if there is none)."""
    from implgraph.certify.kernel import registered as _registered
    return _registered(name)


def declares_min_class(name, param) -> bool:
    """Whether the registered definition ``name`` declares its parameter ``param`` a minimum class size (its level is
    infinite on a table with a smaller class: ``MinClassSize``)."""
    from implgraph.definitions.capabilities import MinClassSize
    d = registered(name) if name else None
    declared = None if d is None else d.declared(MinClassSize)
    return declared is not None and declared.param == str(param)


def registered_side(name) -> Side | None:
    """The side a registered definition's own declaration describes (its family and sides), or None."""
    from implgraph.definitions.capabilities import RatioLevel, family_of
    d = registered(name)
    if d is None:
        return None
    ratio = d.declared(RatioLevel)
    return Side(definition=name, family=family_of(d), sides=_SIDES.get(None if ratio is None else ratio.sides))


class _Positive:
    """The shift argument's search (implgraph.certify.positive), imported on first use."""

    def __getattr__(self, name):
        from implgraph.certify import positive as _pos
        return getattr(_pos, name)


#: implgraph.certify.positive (the shift argument's bound search), for :mod:`implgraph.kernel_coq.shift`
positive = _Positive()


def node_side(label, point):
    """``(Side, definition)`` of a node label (``kt-closeness(k=2)``, ``kdp(k=k2)``) at ``point`` (``{"N": 3, "k2":
    1}``): the side a certificate would state for it (:func:`implgraph.engines.certificates._side`), its parameters
    and sizes evaluated at the point."""
    import sympy
    from implgraph.definitions.nodes import parse_node
    from implgraph.engines.certificates import _side
    node = parse_node(label)
    syms = {sympy.Symbol(k, integer=True, positive=True): v for k, v in point.items()}
    pt = {**syms, **{k: v for k, v in point.items()}}
    params = {}
    for k, v in node.param_dict.items():
        if isinstance(v, str):
            params[k] = v
        else:
            val = sympy.sympify(v).subs({s: val for s, val in syms.items()}).subs(
                {s: point[str(s)] for s in sympy.sympify(v).free_symbols if str(s) in point})
            params[k] = int(val) if val.is_Integer else val
    classes = {}
    for k, v in node.class_dict.items():
        val = sympy.sympify(v).subs({s: point[str(s)] for s in sympy.sympify(v).free_symbols if str(s) in point})
        classes[k] = int(val) if val.is_Integer else val
    del pt
    d = node.definition
    side = _side(d, params, classes or None, sympy.Integer(point["N"]))
    return read_side(side), d


def class_level_kind(name):
    """The class level a registered definition declares (``min-entropy``, ``support``, ``shannon``: 1/max q, the
    number of values, exp H), or None."""
    from implgraph.certify.lemma_chain import _declares
    return next((k for k in ("min-entropy", "support", "shannon") if _declares(name, k)), None)


def raw_level(d, text):
    """A level written in a definition's own units (``log(10/3)``) as its raw level (10/3), a sympy number."""
    import sympy
    if str(text) in ("oo", "inf"):
        return sympy.oo
    return sympy.nsimplify(d.raw_from_level(sympy.sympify(str(text))))


def divergence_side(side):
    """The divergence a side's registered definition declares (:class:`implgraph.definitions.divergences.Divergence`:
    ``kind``, ``order``, ``compares``), read at the side's parameters; None for a side of another level kind."""
    from implgraph.definitions.divergences import divergence_of
    d = registered(side.definition) if side.definition else None
    return None if d is None else divergence_of(d, side.params)
