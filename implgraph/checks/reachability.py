"""``kind: reachability`` claims: implication paths between node families of the engine's map.
"""

from __future__ import annotations

from implgraph.checks.common import edge_verdict
from implgraph.checks.maps import run_edge_claim
from implgraph.core.simplified import without_units
from implgraph.core.verdict import Verdict, checker

__all__ = ["check_reachability"]


FAMILIES_FIX = "list node families: definition names, `<name>@class` for levels taken within each class"


@checker("reachability")
def check_reachability(claim, context=None) -> Verdict:
    """A statement about the implication paths of a map: every node of the ``to`` families is reached
    (an implication path of established edges) from some node of the ``from`` families, and, with
    ``converse: false`` ("but not vice versa"), some ``from`` node is reached from no ``to`` node.

    Judged on the engine's map (the computed verdicts of the edge claims) at each ``N`` of ``at_N``
    (a bounded check: the bound is stated), and on the claims as the paper asserts them. Families are
    node families of :func:`implgraph.map.graph.groups_map` (``<name>@class`` for per-class evaluation).
    """
    from implgraph.map.graph import groups_map
    rules = _map_rules(context)
    src = [str(x) for x in claim.need("from_families", list, fix=FAMILIES_FIX)]
    dst = [str(x) for x in claim.need("to_families", list, fix=FAMILIES_FIX)]
    Ns = [int(n) for n in (claim.get("at_N") or [4, 5, 6])]
    if not Ns or min(Ns) < 2 or max(Ns) > 12:
        raise claim.error("`at_N` must list group counts N with 2 <= N <= 12", key="at_N", fix="e.g. at_N: [4, 5, 6]")
    converse_expected = claim.get("converse")
    results = {}
    # one map per N (the same for every basis: as_asserted copies it)
    with without_units():       # the map's simplify calls: no unit in a map
        maps = {N: groups_map(rules, N, families=set(src) | set(dst)) for N in Ns}
    for basis in ("engine", "printed", "reading"):
        fwd_fail, rev_fail = _unreached(maps, Ns, basis, src, dst)
        forward = not fwd_fail
        not_vice_versa = bool(rev_fail)
        ok = forward and (converse_expected is None or not_vice_versa == (not converse_expected))
        results[basis] = {"forward": forward, "unreached": fwd_fail, "not_vice_versa": not_vice_versa,
                          "from_nodes_not_reached": rev_fail, "holds": ok}
    r = results["engine"]
    bound = f"the maps at N = {', '.join(map(str, Ns))}"
    ev = (f"on the engine's map ({bound}): every {'/'.join(dst)} node reached from a {'/'.join(src)} node: "
          f"{'yes' if r['forward'] else 'no, e.g. ' + ', '.join(r['unreached'][:3])}")
    if converse_expected is not None:
        ev += (f"; some {'/'.join(src)} node reached from no {'/'.join(dst)} node: "
               + (f"yes, e.g. {', '.join(r['from_nodes_not_reached'][:3])}" if r["not_vice_versa"]
                  else "no (every one is reached)"))
    ev += "; with the papers' claims as printed: " + ("holds" if results["printed"]["holds"] else "fails")
    ev += ", under the proofs' readings: " + ("holds" if results["reading"]["holds"] else "fails")
    verdict = "verified-bounded" if r["holds"] else "refuted"
    return edge_verdict(claim, verdict, evidence=ev, bound=bound, details=results)


def _map_rules(context):
    """The implication rules of the engine's map: the edge claims' verdicts (computed where the run's
    ``context`` has none yet).

    Parameters
    ----------
    context : dict or None
        The run's shared context (its ``verdicts``).

    Returns
    -------
    list
        The rules of :func:`implgraph.map.rules.rules_from_edges`.
    """
    from implgraph.map.rules import load_edges, rules_from_edges
    ctx = context if context is not None else {"verdicts": {}}
    edges = load_edges()
    verdicts = dict(ctx.get("verdicts", {}))
    for e in edges:
        if e.id not in verdicts:
            v = run_edge_claim(e.id, ctx)
            if v is not None:
                verdicts[e.id] = v
    return rules_from_edges(edges, verdicts)


def _unreached(maps, Ns, basis, src, dst):
    """The nodes a path does not reach, on one basis.

    Parameters
    ----------
    maps : dict
        The map of each N (:func:`implgraph.map.graph.groups_map`).
    Ns : list of int
        The N of the claim's ``at_N``, in its order.
    basis : {"engine", "printed", "reading"}
        The engine's verdicts, or the claims as printed / under the proofs' readings.
    src, dst : list of str
        The ``from`` and ``to`` node families.

    Returns
    -------
    tuple of list of str
        ``(fwd_fail, rev_fail)``: the ``to`` nodes reached from no ``from`` node, and the ``from`` nodes
        reached from no ``to`` node, each as ``"node (N = n)"``.
    """
    import networkx as nx

    from implgraph.map.deduce import analyse, as_asserted
    from implgraph.map.graph import family_of
    fwd_fail, rev_fail = [], []
    for N in Ns:
        G = maps[N]
        if basis != "engine":
            G = as_asserted(G, basis)
        an = analyse(G, extra_established=("asserted",) if basis != "engine" else ())
        closure = nx.transitive_closure(an.H, reflexive=False)
        fam = {n: family_of(n) for n in G.nodes}
        S = [n for n in G.nodes if fam[n] in src]
        D = [n for n in G.nodes if fam[n] in dst]
        for n in D:
            if not any(closure.has_edge(m, n) for m in S):
                fwd_fail.append(f"{n} (N = {N})")
        for n in S:
            if not any(closure.has_edge(m, n) for m in D):
                rev_fail.append(f"{n} (N = {N})")
    return fwd_fail, rev_fail
