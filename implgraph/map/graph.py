"""The implication map as a networkx multigraph, at two levels of detail.

- :func:`definitions_map`: one node per definition family, edges keep their parameters symbolic
  (Fig. 2 of [1]_);
- :func:`groups_map`: for a number of records ``N``, one node per definition *and* group size, named
  in the node grammar of :mod:`implgraph.definitions.nodes` (``NAME(k=3)``; a class-based definition's ``k``
  is the minimum class size), edges instantiated for every admissible value of the rules' integer
  symbols (Fig. 1 of [1]_).

The edges are the rules of :mod:`implgraph.map.rules` with the verdicts their caller handed in.  Only
rules whose verdict is *established* (:data:`implgraph.map.verdicts.ESTABLISHED`) are used as facts by
:mod:`implgraph.map.compose` and :mod:`implgraph.map.deduce`; refuted and unknown claims stay in the
map, marked, but never support anything.

References
----------
.. [1] E. Ekenstedt et al., "When Differential Privacy Implies Syntactic Privacy", IEEE TIFS 17, 2022.
"""

from __future__ import annotations

import re

import networkx as nx
import sympy

from implgraph import definitions
from implgraph.core.errors import InputError
from implgraph.definitions.nodes import class_params, node_text, parse_node
from implgraph.map.instantiate import CompiledRule
from implgraph.map.rules import Rule, structural_rules

__all__ = ["definitions_map", "groups_map", "node_name", "read_node", "family_of", "group_nodes"]


def node_name(family: str, params: dict | None = None) -> str:
    """A map node's name in the node grammar (:func:`implgraph.definitions.nodes.node_text`).

    Examples
    --------
    >>> node_name("A", {"k": 3}), node_name("A@class", {"k": 2}), node_name("A")
    ('A(k=3)', 'A(k=2)@class', 'A')
    """
    scope = ""
    if family.endswith("@class"):
        family, scope = family[: -len("@class")], "@class"
    return node_text(family, params or {}, scope)


def read_node(text: str, k=None, N=None) -> tuple[str, dict]:
    """``"NAME(k=3)"`` -> ``("NAME", {"k": 3})``; ``--k`` fills a missing ``k``.

    The grammar is :func:`implgraph.definitions.nodes.parse_node` (``NAME[k=3]`` is its alias, kept for the
    former syntax of ``path``; ``@class`` marks the per-class reading). A class-based definition's
    ``k`` is the minimum class size (``max`` the maximum). Values must be integers here.

    Raises
    ------
    InputError
        Unknown definition, a malformed name, a value that is not an integer, k out of range.
    """
    node = parse_node(text, defaults={"k": k}, require=False, scope_ok=True)
    back = {v: key for key, v in class_params(node.definition).items()}
    params = {}
    for key, value in list(node.params) + [(back[c], v) for c, v in node.classes]:
        if key in node.definition.words:
            continue
        if not (isinstance(value, sympy.Basic) and value.is_Integer):
            raise InputError(f"parameter {key} = {value} of {node.name} is not an integer",
                             fix=f"write e.g. {node.name}(k=3)")
        params[key] = int(value)
    if N is not None and "k" in params and not (1 <= params["k"] <= N - 1):
        raise InputError(f"k = {params['k']} is out of range for N = {N}", fix=f"choose 1 <= k <= {N - 1}")
    return node.name + node.scope, params


def family_of(name: str) -> str:
    """The family of a node name (``NAME`` or ``NAME@class``); ``NAME[k=3]`` is read as an alias.

    Examples
    --------
    >>> family_of("A(k=2)@class"), family_of("A[k=3]"), family_of("A@class")
    ('A@class', 'A', 'A@class')
    """
    base = re.split(r"[\[(]", name)[0]
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
    if d.needs_classes:
        return [(node_name(family, {"k": k}), {"k": k}) for k in range(1, N // 2 + 1)]
    if "k" in d.params:
        return [(node_name(family, {"k": k}), {"k": k}) for k in range(1, N)]
    if d.params:  # other parametric plugins: not enumerated
        return []
    return [(family, {})]



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
        (:func:`implgraph.map.rules.structural_rules`: classes of >= k + 1 records => classes of >= k,
        ``paper="definition"``).

    Returns
    -------
    networkx.MultiDiGraph
        Edge attributes as in :func:`definitions_map`, plus ``binding`` (the integer symbols'
        values) and ``f`` instantiated; ``residual`` keeps conditions on real symbols.

    Examples
    --------
    >>> from implgraph.map.rules import load_rules
    >>> G = groups_map(load_rules(), 4)
    >>> G.graph["N"], all(G.nodes[n]["family"] for n in G)
    (4, True)
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
        rules = list(rules) + structural_rules(fams)
    for r in rules:
        comp = CompiledRule(r, kw)
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
