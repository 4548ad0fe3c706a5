"""Composing level functions along implication paths.

``A => B`` with ``f`` (B's level as a function of A's level) and ``B => C`` with ``g`` give
``A => C`` with ``g(f(alpha))``, under the conjunction of both conditions, once the parameters at
the junction are unified (``(1,t)-closeness`` of Theorem 2b is the ``(k0,t)-closeness`` of Lemma 2.1
with ``k0 = 1``).  :func:`compose_chain` does this with sympy for one chain of rules;
:func:`compositions` enumerates the chains between two definitions (simple paths of the line graph
of the definitions-level map, so a rule within one definition such as Lemma 2.1 can be used once);
:func:`tightest` compares the composed functions on their common region with
:meth:`implgraph.core.region.Region.decide` and says when neither dominates.

Only established rules (:data:`implgraph.map.verdicts.ESTABLISHED`) are composed; a chain's status is its
weakest link, and the chain of claim ids is its why-trace.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx
import sympy

from implgraph import definitions
from implgraph.core.errors import InputError
from implgraph.map.chain_join import _canonical, _clean_names, _join, _unify
from implgraph.map.graph import definitions_map
from implgraph.map.verdicts import ESTABLISHED, weakest
from implgraph.core.region import Region
from implgraph.core.simplified import simplified

__all__ = ["Composition", "compose_chain", "compositions", "tightest", "chains"]


@dataclass
class Composition:
    """``A => C`` along a chain of rules.

    Attributes
    ----------
    rules : list of Rule
    f : sympy expression
        C's level as a function of ``level`` (A's level symbol).
    level : sympy.Symbol
    conditions : tuple
        Conditions (conjunction) under which the chain applies.
    kinds : dict
    status : str
        The weakest verdict of the chain.
    feasible : bool or None
        Whether the conditions can hold (None: the solver could not tell).
    """

    rules: list
    f: object
    level: sympy.Symbol
    conditions: tuple
    kinds: dict
    status: str
    feasible: bool | None = True
    source: dict = field(default_factory=dict)
    target: dict = field(default_factory=dict)
    alternatives: int = 0       # longer chains giving the same f where this one applies

    @property
    def trace(self) -> list:
        return [r.key for r in self.rules]

    @property
    def region(self) -> Region:
        return Region(self.kinds, tuple(self.conditions))

    def to_json(self) -> dict:
        return {"f": str(self.f), "level": str(self.level), "conditions": [str(c) for c in self.conditions],
                "trace": self.trace, "status": self.status, "feasible": self.feasible,
                "alternatives": self.alternatives,
                "chain": [f"{r.a.label()} => {r.b.label()}" for r in self.rules],
                "source": {k: str(v) for k, v in self.source.items()},
                "target": {k: str(v) for k, v in self.target.items()}}


# ------------------------------------------------------------------------------------------------

def compose_chain(rules, source=None, target=None, N=None, check=True) -> Composition | None:
    """Compose a chain of implication rules ``A => B => ... => C``.

    Parameters
    ----------
    rules : list of Rule
        Consecutive implications (``rules[i].b`` and ``rules[i + 1].a`` of the same family).
    source, target : dict, optional
        Integer values for the parameters of A and C (e.g. ``{"k": 3}``).
    N : int, optional
        The number of records.
    check : bool
        Decide with the solver whether the conditions can hold; an empty region gives None.

    Returns
    -------
    Composition or None
        None when the parameters cannot be unified or the conditions never hold.

    Examples
    --------
    >>> from implgraph.map.rules import load_rules
    >>> rules = {r.key: r for r in load_rules()}
    >>> c = compose_chain([rules["ekenstedt2022/theorem-2b"], rules["ekenstedt2022/theorem-2a"]])
    >>> c.f
    log(((N - 1)*exp(eps) + 1)**2/N**2)
    >>> c.trace
    ['ekenstedt2022/theorem-2b', 'ekenstedt2022/theorem-2a']
    """
    if not rules:
        return None
    joined = _join(rules, source)
    if joined is None:
        return None
    kinds, conds, f, level, ends = joined
    unified = _unify(rules, conds, f, ends, kinds, target, N)
    if unified is None:
        return None
    conds, f, ends = unified
    conds = list(dict.fromkeys(_canonical(c) for c in conds if c is not sympy.true))
    status = weakest(r.verdict for r in rules)
    comp = Composition(rules=list(rules), f=f, level=level, conditions=tuple(conds), kinds=kinds,
                       status=status, source=ends[0][0], target=ends[-1][1])
    if check:
        empty = comp.region.is_empty()
        if empty is True:
            return None
        comp.feasible = None if empty is None else True
    comp.f = simplified(comp.f)
    _clean_names(comp)
    return comp


# ------------------------------------------------------------------------------------------------

def chains(rules, source_family: str, target_family: str, max_length: int = 5, detours: bool = False):
    """Chains of established implication rules from one family to another.

    Paths of the line graph of the definitions-level map: every rule is used at most once, and a
    rule within one family (Lemma 2.1, 3.1) can be passed through.  Rules whose two ends are
    identical (monotonicity of the level, Lemma 2.4 / 3.5) are left out, and so are chains that
    leave a family and come back to it (``detours=True`` keeps them).
    """
    usable = [r for r in rules if r.kind == "implies" and r.verdict in ESTABLISHED and r.f is not None
              and not (r.a.family == r.b.family and r.a.params == r.b.params)]
    G = definitions_map(usable)
    if source_family not in G or target_family not in G:
        return
    L = nx.line_graph(G)
    S, T = ("__source__",), ("__target__",)
    L.add_node(S)
    L.add_node(T)
    for e in list(L.nodes):
        if e in (S, T):
            continue
        if e[0] == source_family:
            L.add_edge(S, e)
        if e[1] == target_family:
            L.add_edge(e, T)
    for path in nx.all_simple_paths(L, S, T, cutoff=max_length + 1):
        chain = [G.edges[e]["rule"] for e in path[1:-1]]
        if not detours:
            fams = [chain[0].a.family] + [r.b.family for r in chain if r.a.family != r.b.family]
            if len(set(fams)) != len(fams):
                continue        # a loop through another family (A -> B -> A): a detour
        yield chain


def compositions(rules, source: str, target: str, source_params=None, target_params=None, N=None,
                 max_length: int = 5, detours: bool = False) -> list:
    """Every feasible composition from ``source`` to ``target`` (definition families).

    Equal results (same simplified f and conditions) are kept once, shortest chain first.
    """
    out, seen = [], set()
    found = sorted(chains(rules, source, target, max_length, detours), key=len)
    for chain in found:
        comp = compose_chain(chain, source_params, target_params, N=N)
        if comp is None:
            continue
        key = (sympy.srepr(comp.f), tuple(sorted(map(str, comp.conditions))),
               tuple(sorted((k, str(v)) for k, v in comp.target.items())))
        if key in seen:
            continue
        seen.add(key)
        # a longer chain with the same f and ends that applies nowhere the kept one does not
        same = [c for c in out if sympy.srepr(c.f) == sympy.srepr(comp.f) and c.target == comp.target
                and c.source == comp.source]
        if any(comp.region.decide(sympy.And(*c.conditions)) is True for c in same):
            for c in same:
                c.alternatives = getattr(c, "alternatives", 0) + 1
            continue
        out.append(comp)
    return out


def tightest(comps, target_definition: str | None = None) -> dict:
    """Compare composed functions pairwise on their common region.

    Returns
    -------
    dict
        ``{"best": [indices not dominated], "order": {(i, j): True | False | None}, "note": str}``
        where ``order[i, j]`` is True when composition i gives a level at least as strong as j's
        at every point of both regions (smaller for t and eps), None when neither dominates or
        the solver cannot tell.
    """
    if not comps:
        return {"best": [], "order": {}, "note": "no path"}
    stronger = "smaller"
    if target_definition:
        try:
            stronger = definitions.get(target_definition.replace("@class", "")).stronger
        except InputError:
            pass
    order = {}
    n = len(comps)
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            ci, cj = comps[i], comps[j]
            fj = cj.f.xreplace({cj.level: ci.level})
            region = Region({**ci.kinds, **cj.kinds}, tuple(ci.conditions) + tuple(
                sympy.sympify(c).xreplace({cj.level: ci.level}) for c in cj.conditions))
            if region.is_empty() is True:
                order[(i, j)] = None
                continue
            rel = sympy.Le(ci.f, fj) if stronger == "smaller" else sympy.Ge(ci.f, fj)
            order[(i, j)] = region.decide(rel)
    dominated = set()
    for i in range(n):
        for j in range(n):
            if i != j and order.get((j, i)) is True and order.get((i, j)) is not True:
                dominated.add(i)
    best = [i for i in range(n) if i not in dominated]
    if len(best) == 1:
        note = f"composition {best[0] + 1} is at least as tight as every other on their common region"
    else:
        ties = [i for i in best if all(order.get((i, j)) is True for j in best if j != i)]
        if ties and len(ties) == len(best):
            note = "the best compositions coincide on their common region"
        else:
            note = ("neither dominates: compositions " + ", ".join(str(i + 1) for i in best)
                    + " each win somewhere on their common region (or the solver could not tell)")
    return {"best": best, "order": order, "note": note}
