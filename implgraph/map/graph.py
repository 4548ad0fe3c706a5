"""The implication map as a networkx multigraph.

Every encoded edge claim of ``theorems/*.yaml`` becomes one or more directed *rules*
(:class:`Rule`): an implication ``A => B`` with its level function ``f`` or a non-implication
``A =/=> B`` with its witness, each with the claim id, the paper, the conditions and a verdict (from
``implgraph verify``, computed or cached; never the data's ``expect``, and ``unknown`` when not computed).  An ``equivalent`` or
``reciprocal`` claim gives two implications, a ``generalisation`` an implication and the converse
non-implication; a claim whose proof reads differently from its printed statement gives the printed
rules *and* the reading's rules (``basis="reading"``).

Two levels of detail:

- :func:`definitions_map`: one node per definition family (``kt-closeness``, ``ldp``, ...), edges
  keep their parameters symbolic (Fig. 2 of [1]_);
- :func:`groups_map`: for a number of records ``N``, one node per definition *and* group size, e.g.
  ``kt-closeness[k=3]`` or ``mult-t-closeness[k=2]`` (classes of at least 2 records), edges
  instantiated for every admissible ``k``, ``k0``, ``k1``, ``kClo``, ``kDP`` (Fig. 1 of [1]_).

Only rules whose verdict is *established* (:data:`ESTABLISHED`) are used as facts by
:mod:`implgraph.map.compose` and :mod:`implgraph.map.deduce`; refuted and unknown claims stay in the map,
marked, but never support anything.

References
----------
.. [1] E. Ekenstedt et al., "When Differential Privacy Implies Syntactic Privacy", IEEE TIFS 17, 2022.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import networkx as nx
import sympy

from implgraph import definitions
from implgraph.io.datafile import Node, data_files, load_yaml
from implgraph.core.errors import InputError
from implgraph.core.formula import parse_condition, parse_expr
from implgraph.core.table import make_symbols

__all__ = ["Endpoint", "Rule", "Arrow", "ESTABLISHED", "PAPER_DASHED", "load_edges", "load_rules",
           "load_arrows", "rules_from_edges", "definitions_map", "groups_map", "node_name", "family_of",
           "group_nodes", "instantiate", "edge_f", "STRUCTURAL_KEY", "read_verdicts", "verify_edges", "is_established", "verdict_lookup"]

#: verdicts under which a rule is a fact (``verified-bounded`` is weaker and is carried as such).
ESTABLISHED = ("proved", "confirmed", "holds", "holds-not-tight", "verified-bounded")
#: papers whose edges are drawn dashed (Fig. 1/2 of [1]: "findings by Domingo-Ferrer and Soria-Comas").
PAPER_DASHED = ("domingo-ferrer2015",)
#: status order, strongest first (the status of a chain is its weakest link).
STATUS_ORDER = ("proved", "confirmed", "holds", "holds-not-tight", "verified-bounded")

N_SYM = sympy.Symbol("N", integer=True)


def is_established(verdict) -> bool:
    return verdict in ESTABLISHED


def weakest(statuses) -> str:
    """The weakest of several established statuses (``proved`` for none)."""
    worst = 0
    for s in statuses:
        worst = max(worst, STATUS_ORDER.index(s) if s in STATUS_ORDER else len(STATUS_ORDER))
    return STATUS_ORDER[worst] if worst < len(STATUS_ORDER) else "unknown"


# ------------------------------------------------------------------------------------------------
# endpoints, rules, arrows
# ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Endpoint:
    """One end of a rule: a definition family with its (symbolic) parameters.

    ``params`` holds the definition's own parameters (``k`` of kt-closeness / kdp) and, for a
    definition evaluated on a partition (``mult-t-closeness``), ``k`` = the minimum class size and
    ``max`` = the maximum class size when the claim restricts them.  ``generic`` is True for a
    partition-based definition without any class restriction (any partition: minimum size >= 1).
    """

    definition: str
    params: tuple = ()          # ((name, sympy expr), ...)
    scope: str = "table"
    level: sympy.Symbol | None = None
    generic: bool = False

    @property
    def family(self) -> str:
        return self.definition + ("@class" if self.scope == "class" else "")

    @property
    def param_dict(self) -> dict:
        return dict(self.params)

    def label(self) -> str:
        ps = ", ".join(f"{k}={v}" for k, v in self.params)
        return f"{self.family}({ps})" if ps else self.family


@dataclass
class Rule:
    """A directed fact (or printed claim) between two endpoints.

    Attributes
    ----------
    claim : str
        The claim id (``ekenstedt2022/theorem-2b``).
    kind : str
        ``implies`` or ``not-implies``.
    basis : str
        ``printed``, ``reading`` (the proof's reading of a printed statement), ``converse`` (the
        second direction of an equivalence) or ``strict`` (the converse non-implication of a
        generalisation).
    a, b : Endpoint
    f : sympy expression or None
        B's level as a function of A's level symbol ``a.level`` (implications).
    when : tuple
        Conditions (sympy relations), a conjunction.
    kinds : dict
        ``{Symbol: "real" | "integer"}`` of every symbol.
    verdict : str
        From computed verify results (``unknown`` where none was computed).
    witness : str or None
    paper, source, printed : str
    file, line : where the claim is written.
    """

    claim: str
    kind: str
    basis: str
    a: Endpoint
    b: Endpoint
    f: object = None
    when: tuple = ()
    kinds: dict = field(default_factory=dict)
    verdict: str = "unknown"
    verdict_from: str = "not computed"
    witness: str | None = None
    witness_min_class: int | None = None
    paper: str = ""
    source: str = ""
    printed: str = ""
    file: str | None = None
    line: int | None = None

    @property
    def key(self) -> str:
        return self.claim if self.basis == "printed" else f"{self.claim}#{self.basis}"

    @property
    def established(self) -> bool:
        return is_established(self.verdict)

    @property
    def dashed(self) -> bool:
        return self.paper in PAPER_DASHED

    def __repr__(self):
        arrow = "=>" if self.kind == "implies" else "=/=>"
        return f"<Rule {self.key}: {self.a.label()} {arrow} {self.b.label()} [{self.verdict}]>"


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


# ------------------------------------------------------------------------------------------------
# loading
# ------------------------------------------------------------------------------------------------

def _check_paths(paths):
    from pathlib import Path
    for p in paths or []:
        path = Path(p)
        if not path.is_file():
            raise InputError("no such file", file=str(p), fix="give a theorems data file (.yaml)")
        if path.parent.name != "theorems" or path.suffix not in (".yaml", ".yml"):
            raise InputError("a theorems file must be a .yaml file in a folder named `theorems`", file=str(p),
                             fix="move it to a `theorems/` folder")


def load_edges(paths=None) -> list:
    """The validated edge claims (:class:`implgraph.io.theorems.Edge`) of the theorems data.

    ``paths``: theorem files (``.../theorems/*.yaml``) instead of the bundled data.
    """
    from implgraph.io.theorems import load_theorems
    _check_paths(paths)
    return load_theorems(paths)


def verdict_lookup(verdicts) -> dict:
    """``{claim id or id#reading: verdict string}`` from verify results.

    Accepts a dict (id -> Verdict / dict / str) or a list of Verdicts / dicts with ``id`` and
    ``verdict`` (the JSON of ``implgraph verify --json``).  A reading's verdict is looked up under
    ``ID#reading`` or in a verdict's ``details["reading_verdict"]``.
    """
    out: dict = {}
    if not verdicts:
        return out
    items = verdicts.items() if isinstance(verdicts, dict) else ((None, v) for v in verdicts)
    for key, v in items:
        if isinstance(v, str):
            out[str(key)] = v
            continue
        vid = getattr(v, "id", None) if not isinstance(v, dict) else v.get("id")
        verdict = getattr(v, "verdict", None) if not isinstance(v, dict) else v.get("verdict")
        details = (getattr(v, "details", None) if not isinstance(v, dict) else v.get("details")) or {}
        vid = str(vid or key)
        if verdict:
            out[vid] = str(verdict)
        rv = details.get("reading_verdict") if isinstance(details, dict) else None
        if rv and f"{vid}#reading" not in out:
            out[f"{vid}#reading"] = str(rv)
    return out


def _witness_min_class_sizes() -> dict:
    """``{table id: smallest class size}`` for witness tables with concrete classes."""
    out = {}
    for path in data_files("counterexamples"):
        doc = load_yaml(path)
        if not isinstance(doc, dict):
            continue
        for t in doc.get("tables") or []:
            if not isinstance(t, dict) or not t.get("id"):
                continue
            sizes: dict = {}
            ok = True
            for row in t.get("rows") or []:
                if not isinstance(row, dict) or row.get("class") is None:
                    ok = False
                    break
                count = row.get("count", 1)
                try:
                    n = int(str(count))
                except ValueError:
                    ok = False
                    break
                sizes[str(row["class"])] = sizes.get(str(row["class"]), 0) + n
            if ok and sizes:
                out[str(t["id"])] = min(sizes.values())
    return out


def _endpoint(side, generic_ok=True) -> Endpoint:
    params = dict(side.params)
    generic = False
    if side.classes:
        if "min_size" in side.classes:
            params["k"] = side.classes["min_size"]
        if "max_size" in side.classes:
            params["max"] = side.classes["max_size"]
    elif getattr(side.definition, "needs_classes", False):
        generic = True
    return Endpoint(definition=side.name, params=tuple(params.items()), scope=side.scope or "table",
                    level=side.level, generic=generic)


def rules_from_edges(edges, verdicts=None) -> list:
    """Turn edge claims into directed rules (see the module docstring)."""
    lookup = verdict_lookup(verdicts)
    min_class = _witness_min_class_sizes()
    rules = []
    for e in edges:
        node = e.node
        paper = str(e.id).split("/")[0]
        common = dict(claim=str(e.id), kinds=dict(e.kinds), when=tuple(e.when), paper=paper,
                      source=str(node.get("source", "")), printed=str(node.get("printed", "")),
                      file=node.file, line=node.line)

        def verdict_of(key):
            if key in lookup:
                return lookup[key], "verify"
            return "unknown", "not computed"

        v, vfrom = verdict_of(str(e.id))
        rules += _rules_of(e.kind, e.a, e.b, e.f, e.g, e.witness, v, vfrom, "printed", common, min_class)
        if e.reading_kind:
            rv, rfrom = verdict_of(f"{e.id}#reading")
            ra = e.reading_a or e.a
            rf = e.reading_f if e.reading_f is not None else e.f
            rules += _rules_of(e.reading_kind, ra, e.reading_b or e.b, rf, e.g, e.reading_witness or e.witness, rv, rfrom,
                               "reading", common, min_class)
    return rules


def _rules_of(kind, a, b, f, g, witness, verdict, vfrom, basis, common, min_class) -> list:
    A, B = _endpoint(a), _endpoint(b)
    mk = lambda **kw: Rule(verdict=verdict, verdict_from=vfrom, **common, **kw)  # noqa: E731
    wmin = min_class.get(str(witness)) if witness else None
    if kind == "implies":
        return [mk(kind="implies", basis=basis, a=A, b=B, f=f)]
    if kind == "not-implies":
        return [mk(kind="not-implies", basis=basis, a=A, b=B, witness=witness, witness_min_class=wmin)]
    if kind in ("equivalent", "reciprocal"):
        out = [mk(kind="implies", basis=basis, a=A, b=B, f=f)]
        if g is not None:
            out.append(mk(kind="implies", basis="converse" if basis == "printed" else f"{basis}-converse",
                          a=B, b=A, f=g))
        return out
    if kind == "generalisation":
        return [mk(kind="implies", basis=basis, a=A, b=B, f=f),
                mk(kind="not-implies", basis="strict" if basis == "printed" else f"{basis}-strict", a=B, b=A,
                   witness=witness, witness_min_class=wmin)]
    return []


def load_rules(paths=None, verdicts=None) -> list:
    """Load the theorems data and return its rules (verdicts from ``verdicts``; ``unknown`` where none is given)."""
    return rules_from_edges(load_edges(paths), verdicts)


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
    elif getattr(d, "needs_classes", False):
        generic = True
    return Endpoint(definition=d.name, params=tuple(params.items()), scope=str(spec.get("scope") or "table"),
                    level=sympy.Symbol(d.level_symbol, real=True), generic=generic)


def _parse(fn, text, names, where):
    try:
        return fn(str(text), names)
    except InputError as exc:
        raise InputError(exc.reason, file=where.file, line=where.line, fix=exc.fix) from None


def load_arrows(paths=None, figures=None) -> list:
    """The arrows of the ``kind: map`` claims (``ekenstedt2022/fig-1``, ``fig-2``)."""
    from implgraph.io.theorems import load_claims
    _check_paths(paths)
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


# ------------------------------------------------------------------------------------------------
# node names
# ------------------------------------------------------------------------------------------------

def node_name(family: str, params: dict | None = None) -> str:
    """``kt-closeness[k=3]``, ``kdp[k=2]@class``, ``ldp``."""
    scope = ""
    if family.endswith("@class"):
        family, scope = family[: -len("@class")], "@class"
    inner = ",".join(f"{k}={v}" for k, v in (params or {}).items())
    return f"{family}[{inner}]{scope}" if inner else f"{family}{scope}"


def family_of(name: str) -> str:
    base = name.split("[")[0]
    return base + ("@class" if name.endswith("@class") and not base.endswith("@class") else "")


def _definition_of(family: str):
    try:
        return definitions.get(family.replace("@class", ""))
    except InputError:
        return None


def _pretty(family: str, params: dict) -> str:
    """The node's label, as its definition declares it (:meth:`Definition.label`)."""
    d = _definition_of(family)
    if d is None:
        return node_name(family, params)
    return d.label(params, in_classes=family.endswith("@class"))


def _group(family: str) -> str:
    """The privacy model of a node family (the definition's ``model``)."""
    d = _definition_of(family)
    return d.model if d is not None else "other"


def _node_attrs(family, params):
    return dict(family=family, definition=family.replace("@class", ""), params=dict(params),
                scope="class" if family.endswith("@class") else "table", label=_pretty(family, params),
                model=_group(family))


# ------------------------------------------------------------------------------------------------
# definitions level
# ------------------------------------------------------------------------------------------------

def _edge_attrs(rule: Rule, **extra) -> dict:
    return dict(kind=rule.kind, claim=rule.claim, basis=rule.basis, rule=rule, verdict=rule.verdict,
                verdict_from=rule.verdict_from, established=rule.established, paper=rule.paper,
                dashed=rule.dashed, witness=rule.witness, source=rule.source, derived=False, **extra)


def definitions_map(rules, families=None) -> nx.MultiDiGraph:
    """One node per definition family; one edge per rule, parameters left symbolic.

    Parameters
    ----------
    rules : list of Rule
    families : iterable of str, optional
        Extra nodes to include (e.g. every registered definition); by default the families the
        rules mention.

    Returns
    -------
    networkx.MultiDiGraph
        Edge keys are rule keys; attributes ``kind``, ``f``, ``when``, ``params`` (the two ends'
        parameters), ``claim``, ``verdict``, ``paper``, ``dashed``, ``rule``.
    """
    G = nx.MultiDiGraph(level="definitions")
    for fam in list(families or []) + [r.a.family for r in rules] + [r.b.family for r in rules]:
        if fam not in G:
            G.add_node(fam, **_node_attrs(fam, {}))
    for r in rules:
        G.add_edge(r.a.family, r.b.family, key=r.key,
                   **_edge_attrs(r, f=r.f, when=r.when, a_params=r.a.param_dict, b_params=r.b.param_dict))
    return G


# ------------------------------------------------------------------------------------------------
# groups level: instantiate for concrete N
# ------------------------------------------------------------------------------------------------

def group_nodes(family: str, N: int, extra_params=()) -> list:
    """``[(node name, params)]`` of one family for ``N`` records."""
    d = definitions.get(family.replace("@class", ""))
    if getattr(d, "needs_classes", False):
        return [(node_name(family, {"k": k}), {"k": k}) for k in range(1, N // 2 + 1)]
    if "k" in d.params:
        return [(node_name(family, {"k": k}), {"k": k}) for k in range(1, N)]
    if d.params:  # other parametric plugins: not enumerated
        return []
    return [(family, {})]


_V = sympy.Symbol("_V", integer=True)


class _Compiled:
    """A rule compiled for fast instantiation with Python integers (bindings keyed by name)."""

    def __init__(self, rule: Rule, kw_sym):
        self.rule = rule
        kinds = rule.kinds
        self.int_syms = {s for s, k in kinds.items() if k == "integer"} | {N_SYM}
        self.kw = kw_sym.name
        self.sides = [self._side(rule.a), self._side(rule.b)]
        self.conds, self.residual = [], []
        for c in rule.when:
            fs = c.free_symbols
            if fs <= self.int_syms:
                syms = sorted(fs, key=str)
                self.conds.append(([s.name for s in syms], sympy.lambdify(syms, c, "math")))
            else:
                self.residual.append(c)

    def _side(self, ep: Endpoint):
        params = dict(ep.params)
        if ep.generic:
            if self.rule.kind == "not-implies":
                params["k"] = sympy.Symbol(self.kw, integer=True)  # 1 <= kw <= smallest witness class
            elif ep is self.rule.a:
                params["k"] = sympy.Symbol(self.kw, integer=True)  # any partition: every minimum size
            else:
                params["k"] = sympy.Integer(1)   # "some partition": minimum class size >= 1
        out = []
        for name, expr in params.items():
            expr = sympy.sympify(expr)
            syms = sorted(expr.free_symbols, key=str)
            fn = sympy.lambdify(syms, expr, "math") if syms else None
            inv = {}
            for s in syms:
                if s == N_SYM:
                    continue
                sol = sympy.solve(sympy.Eq(expr, _V), s)
                if len(sol) == 1:
                    others = sorted(sol[0].free_symbols, key=str)
                    inv[s.name] = ([o.name for o in others], sympy.lambdify(others, sol[0], "math"))
            out.append((name, int(expr) if not syms else None, [x.name for x in syms], fn, inv))
        return ep.family, out

    def unify(self, side, node_params, binding):
        family, params = self.sides[side]
        if len(node_params) != len(params):
            return None
        b = dict(binding)
        for name, const, syms, fn, inv in params:
            if name not in node_params:
                return None
            value = node_params[name]
            if const is not None:
                if const != value:
                    return None
                continue
            unbound = [s for s in syms if s not in b]
            if not unbound:
                if fn(*[b[s] for s in syms]) != value:
                    return None
            elif len(unbound) == 1 and unbound[0] in inv:
                s = unbound[0]
                others, ifn = inv[s]
                b["_V"] = value
                try:
                    x = ifn(*[b[o] for o in others])
                except KeyError:
                    return None
                finally:
                    del b["_V"]
                if isinstance(x, float):
                    if not x.is_integer():
                        return None
                    x = int(x)
                b[s] = x
            else:
                return None
        return b

    def accepts(self, b) -> bool:
        for syms, fn in self.conds:
            try:
                if not fn(*[b[s] for s in syms]):
                    return False
            except KeyError:
                continue  # a symbol the ends do not fix: left to the residual condition
        if self.kw in b:
            top = self.rule.witness_min_class if self.rule.kind == "not-implies" else b["N"] // 2
            if not (1 <= b[self.kw] <= (top or 1)):
                return False
        return True


@lru_cache(maxsize=None)
def _subs_cached(expr, items):
    return expr.xreplace(dict(items)) if items else expr


def instantiate(expr, binding: dict):
    """``expr`` with the integer symbols named in ``binding`` substituted (cached, not simplified)."""
    if expr is None:
        return None
    items = tuple(sorted(((s, sympy.Integer(binding[s.name])) for s in expr.free_symbols
                          if s.name in binding and s.is_integer), key=lambda x: x[0].name) if binding else ())
    return _subs_cached(expr, items)


def edge_f(data: dict):
    """The instantiated level function of a map edge (computed on first use)."""
    if "f" not in data:
        data["f"] = instantiate(data["rule"].f if data["kind"] == "implies" else None, data.get("binding") or {})
    return data["f"]


#: the structural implication between partition sizes (Definition 4 of [1]): a partition whose
#: classes all have at least k + 1 records has classes of at least k records, at the same t.
STRUCTURAL_KEY = "definition/mult-t-closeness#min-class-size"


def _structural_rules(families) -> list:
    out = []
    for fam in families:
        try:
            d = definitions.get(fam.replace("@class", ""))
        except InputError:
            continue
        if not getattr(d, "needs_classes", False):
            continue
        k, k1 = sympy.Symbol("k", integer=True), sympy.Symbol("k1", integer=True)
        lvl = sympy.Symbol(d.level_symbol, real=True)
        scope = "class" if fam.endswith("@class") else "table"
        out.append(Rule(claim=f"definition/{d.name}", kind="implies", basis="min-class-size",
                        a=Endpoint(d.name, (("k", k1),), scope, lvl), b=Endpoint(d.name, (("k", k),), scope, lvl),
                        f=lvl, when=(sympy.Eq(k1, k + 1), k >= 1), kinds={k: "integer", k1: "integer"},
                        verdict="proved", verdict_from="definition", paper="definition",
                        source=f"{d.reference or d.name}: a partition whose classes have >= k + 1 records "
                               "has classes of >= k records (same level)",
                        printed=f"{d.name} with classes >= k + 1 => with classes >= k"))
    return out


def groups_map(rules, N: int, families=None, structural: bool = True) -> nx.MultiDiGraph:
    """One node per definition and group size for ``N`` records; rules instantiated.

    Parameters
    ----------
    rules : list of Rule
    N : int
        Number of records (>= 2).
    families : iterable of str, optional
        Families to include besides those the rules mention.
    structural : bool
        Add the implications that hold by definition between partition sizes
        (``mult-t-closeness[k=3] => mult-t-closeness[k=2]``, key :data:`STRUCTURAL_KEY`,
        ``paper="definition"``).

    Returns
    -------
    networkx.MultiDiGraph
        Edge attributes as in :func:`definitions_map`, plus ``binding`` (the integer symbols'
        values) and ``f`` instantiated; ``residual`` keeps conditions on real symbols.

    Examples
    --------
    >>> from implgraph.map.graph import load_rules, groups_map
    >>> G = groups_map(load_rules(), 4)
    >>> G.has_edge("ldp", "kt-closeness[k=1]")
    True
    """
    if not isinstance(N, int) or N < 2:
        raise InputError(f"N = {N} is too small for a map", fix="give N >= 2")
    G = nx.MultiDiGraph(level="groups", N=N)
    fams = list(dict.fromkeys(list(families or []) + [r.a.family for r in rules] + [r.b.family for r in rules]))
    members: dict = {}
    for fam in fams:
        members[fam] = group_nodes(fam, N)
        for name, params in members[fam]:
            G.add_node(name, **_node_attrs(fam, params))
    kw = sympy.Symbol("_kw", integer=True)
    if structural:
        rules = list(rules) + _structural_rules(fams)
    for r in rules:
        comp = _Compiled(r, kw)
        src = _side_nodes(comp, 0, members, G, N)
        dst = _side_nodes(comp, 1, members, G, N)
        base = {"N": N}
        for a_name, a_params in src:
            b1 = comp.unify(0, a_params, base)
            if b1 is None:
                continue
            for b_name, b_params in dst:
                b2 = comp.unify(1, b_params, b1)
                if b2 is None or a_name == b_name or not comp.accepts(b2):
                    continue
                b2.pop(kw.name, None)
                G.add_edge(a_name, b_name, key=r.key,
                           **_edge_attrs(r, when=r.when, binding=b2, residual=tuple(comp.residual)))
    return G


def _side_nodes(comp, side, members, G, N):
    family, params = comp.sides[side]
    names = {p[0] for p in params}
    out = list(members.get(family, []))
    if "max" in names:  # restricted partitions (e.g. singleton classes): add the nodes on demand
        vals = {}
        for name, const, syms, fn, inv in params:
            if syms and any(s != "N" for s in syms):
                return []
            vals[name] = fn(N) if fn else const
        node = node_name(family, vals)
        if node not in G:
            G.add_node(node, **_node_attrs(family, vals))
        out = [(node, vals)]
    return out


# ------------------------------------------------------------------------------------------------
# verdict sources for the commands
# ------------------------------------------------------------------------------------------------

def read_verdicts(path) -> dict:
    """Verdicts from a file written by ``implgraph verify --json`` (``{"claims": [...]}``)."""
    import json
    from pathlib import Path
    from implgraph.io.datafile import read_text
    try:
        data = json.loads(read_text(path))
    except FileNotFoundError:
        raise InputError("no such file", file=str(path), fix="give the output of `implgraph verify --json`") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"not a JSON verdict file ({exc.__class__.__name__})", file=str(path),
                         fix="give the output of `implgraph verify --json`") from None
    rows = data.get("claims") if isinstance(data, dict) and "claims" in data else data
    if not isinstance(rows, (list, dict)):
        raise InputError("no verdicts in the file", file=str(path), fix="give the output of `implgraph verify --json`")
    return verdict_lookup(rows)


def verify_edges(paths=None, max_n: int | None = None, progress=None, fresh: bool = False) -> dict:
    """Computed verdicts of the edge claims: ``{id: verdict}`` (readings as ``id#reading``).

    Runs ``implgraph verify`` on the edge claims of ``paths`` (default: the bundled theorems), or reads
    the result from the content-keyed cache (:mod:`implgraph.io.verdict_cache`) unless ``fresh``.
    """
    from implgraph.io.datafile import data_files
    from implgraph.io.verdict_cache import computed_verdicts
    from implgraph.checks.verify import DEFAULT_MAX_N, run_verify
    max_n = max_n or DEFAULT_MAX_N
    ids = [e.id for e in load_edges(paths)]
    files = list(paths) if paths else list(data_files("theorems"))
    files += list(data_files("counterexamples"))

    def compute(which):
        return run_verify(which, max_n=max_n, progress=progress, jobs=1 if paths else 2, paths=paths)

    if fresh:
        return verdict_lookup(compute(ids))
    return computed_verdicts(ids, files, max_n, compute)