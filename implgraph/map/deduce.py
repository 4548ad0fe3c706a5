"""Deduction on the implication map: derived non-implications, conflicts, open pairs.

On a concrete map (:func:`implgraph.map.graph.groups_map`, or any MultiDiGraph whose edges carry
``kind``, ``established``, ``claim``/``rule``), only *established* edges are facts:

- implications compose along paths (``A => B => C`` gives ``A => C``; the composed level function
  is :mod:`implgraph.map.compose`'s business);
- non-implications propagate: ``A => B`` and ``A =/=> C`` give ``B =/=> C``; ``B => C`` and
  ``A =/=> C`` give ``A =/=> B``.  Together: from ``A =/=> C`` every ``X`` implied by ``A`` fails to
  imply every ``Y`` that implies ``C``.  The witness of ``A =/=> C`` is carried along (it satisfies
  ``X`` because it satisfies ``A``, and it cannot satisfy ``Y`` at a bounded level because ``Y``
  would then give ``C``).  Derived facts are labelled ``derived`` and carry their trace (the claim
  ids of the implication chains and of the base non-implication).
- a conflict is an implication path ``A => ... => C`` next to an established non-implication
  ``A =/=> C`` (every derived conflict reduces to such a base pair); both traces are reported.
- an open pair is an ordered pair with neither an implication path nor a (derived) non-implication.

The sets are computed with boolean matrices over networkx's transitive closure; traces are
computed on demand with :func:`networkx.shortest_path`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx
import numpy as np

from implgraph.map.rules import is_structural
from implgraph.map.verdicts import ESTABLISHED, STATUS_ORDER, weakest

__all__ = ["Analysis", "analyse", "implication_graph", "reduced_non_implications", "as_asserted",
           "asserted_conflicts"]


def _rank(status):
    return STATUS_ORDER.index(status) if status in STATUS_ORDER else len(STATUS_ORDER)


def implication_graph(G, established=ESTABLISHED) -> nx.DiGraph:
    """The established implications of ``G`` as a DiGraph; per pair the strongest edge is kept.

    Edge attributes: ``claim`` (the rule key), ``status`` (its verdict).
    """
    H = nx.DiGraph()
    H.add_nodes_from(G.nodes)
    for u, v, key, d in G.edges(keys=True, data=True):
        if d.get("kind") != "implies" or d.get("verdict") not in established or u == v:
            continue
        if is_structural(key):
            # Drawn, never composed: "classes >= k + 1 => classes >= k" holds for a dataset *with its
            # partition*, while an edge into a class node (Lemma 2.3's reading, Lemma 1) quantifies over
            # *every* partition with classes >= k. Chaining the two would claim e.g. that a table-level
            # definition implies the class-based one with classes >= k - 1, which is false (singleton
            # classes; Lemma 2.3). Non-implications still cover smaller k through the witness's
            # smallest class.
            continue
        old = H.get_edge_data(u, v)
        if old is None or _rank(d["verdict"]) < _rank(old["status"]):
            H.add_edge(u, v, claim=key, status=d["verdict"])
    return H


@dataclass
class Analysis:
    """Reachability, non-implications and their traces on one concrete map.

    Attributes
    ----------
    G : networkx.MultiDiGraph
        The map.
    H : networkx.DiGraph
        Its established implications (:func:`implication_graph`).
    nodes : list
        Node order of the matrices.
    R : ndarray of bool
        ``R[i, j]``: node i implies node j (reflexive transitive closure of ``H``).
    M : ndarray of bool
        Established non-implication edges (claimed).
    D : ndarray of bool
        Every non-implication, claimed or derived.
    """

    G: object
    H: object
    nodes: list
    index: dict
    R: np.ndarray
    M: np.ndarray
    D: np.ndarray
    T: np.ndarray
    non_edges: dict = field(default_factory=dict)   # (a, c) -> [(key, verdict, witness)]
    _paths: dict = field(default_factory=dict, repr=False)

    # -- queries --------------------------------------------------------------------------------
    def implies(self, x, y) -> bool:
        return bool(self.R[self.index[x], self.index[y]])

    def not_implies(self, x, y) -> bool:
        return bool(self.D[self.index[x], self.index[y]])

    def implication_trace(self, x, y) -> dict | None:
        """The shortest implication chain ``x => ... => y``: nodes, claim keys, status."""
        if x == y:
            return {"nodes": [x], "claims": [], "status": "proved"}
        if not self.implies(x, y):
            return None
        paths = self._paths.get(x)
        if paths is None:
            paths = self._paths[x] = nx.single_source_shortest_path(self.H, x)
        path = paths[y]
        claims = [self.H.edges[a, b]["claim"] for a, b in zip(path, path[1:])]
        status = weakest(self.H.edges[a, b]["status"] for a, b in zip(path, path[1:]))
        return {"nodes": path, "claims": claims, "status": status}

    def non_implication_trace(self, x, y) -> dict | None:
        """Why ``x =/=> y``: claimed (its claims and witness) or derived (base pair and chains)."""
        i, j = self.index[x], self.index[y]
        if not self.D[i, j]:
            return None
        if self.M[i, j]:
            claims = self.non_edges[(x, y)]
            best = min(claims, key=lambda c: _rank(c[1]))
            return {"derived": False, "claims": [c[0] for c in claims], "witness": best[2],
                    "status": best[1], "trace": [best[0]]}
        # base pair (a, c): R[a, x], M[a, c], R[y, c]
        cands = np.flatnonzero(self.T[i] & self.R[j])
        c = int(cands[0])
        a = int(np.flatnonzero(self.R[:, i] & self.M[:, c])[0])
        A, C = self.nodes[a], self.nodes[c]
        up = self.implication_trace(A, x)
        down = self.implication_trace(y, C)
        base = min(self.non_edges[(A, C)], key=lambda c_: _rank(c_[1]))
        status = weakest([up["status"], down["status"], base[1]])
        rules = []
        if up["claims"]:
            rules.append(f"A => B and A =/=> C gives B =/=> C (A = {A})")
        if down["claims"]:
            rules.append(f"B => C and A =/=> C gives A =/=> B (C = {C})")
        return {"derived": True, "base": [A, C], "base_claim": base[0], "witness": base[2],
                "up": up, "down": down, "status": status, "rules": rules,
                "trace": up["claims"] + [base[0]] + down["claims"]}

    # -- sets -----------------------------------------------------------------------------------
    def pairs(self, matrix):
        for i, j in zip(*np.nonzero(matrix)):
            if i != j:
                yield self.nodes[i], self.nodes[j]

    def derived_non_implications(self):
        """Ordered pairs ``(x, y)`` with a derived (not claimed) non-implication."""
        return list(self.pairs(self.D & ~self.M))

    def derived_implications(self):
        """Pairs implied by a path of two or more established edges and by no single edge."""
        direct = nx.to_numpy_array(self.H, nodelist=self.nodes, weight=None).astype(bool)
        return list(self.pairs(self.R & ~direct))

    def conflicts(self) -> list:
        """Base conflicts: an implication path next to an established non-implication.

        Each item: ``{"pair": [a, c], "implication": trace, "non_implication": trace,
        "consequences": number of derived pairs that conflict because of it}``.
        """
        out = []
        bad = self.M & self.R
        for a, c in self.pairs(bad):
            i, j = self.index[a], self.index[c]
            # derived conflicts that reduce to this base pair
            xs = self.R[i]                  # x with a => x
            ys = self.R[:, j]               # y with y => c
            consequences = int((np.outer(xs, ys) & self.R).sum()) - 1
            out.append({"pair": [a, c], "implication": self.implication_trace(a, c),
                        "non_implication": self.non_implication_trace(a, c),
                        "consequences": max(consequences, 0)})
        return out

    def open_pairs(self) -> list:
        """Ordered pairs with neither an implication path nor a (derived) non-implication."""
        return list(self.pairs(~self.R & ~self.D))

    def summary(self) -> dict:
        n = len(self.nodes)
        return {"nodes": n, "implications": int(self.R.sum()) - n, "claimed_non_implications": int(self.M.sum()),
                "derived_non_implications": int((self.D & ~self.M).sum()),
                "conflicts": int((self.M & self.R).sum()), "open_pairs": int((~self.R & ~self.D).sum())}


def analyse(G, extra_established=()) -> Analysis:
    """Close a concrete map under the implication and propagation rules.

    Parameters
    ----------
    G : networkx.MultiDiGraph
        Edges with ``kind`` (``implies`` / ``not-implies``), ``verdict`` and optionally ``witness``.

    Returns
    -------
    Analysis

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.MultiDiGraph()
    >>> G.add_edge("A", "B", key="ab", kind="implies", verdict="proved")
    'ab'
    >>> G.add_edge("A", "C", key="ac", kind="not-implies", verdict="confirmed", witness="w")
    'ac'
    >>> a = analyse(G)
    >>> a.not_implies("B", "C"), a.non_implication_trace("B", "C")["trace"]
    (True, ['ab', 'ac'])
    """
    nodes = list(G.nodes)
    index = {n: i for i, n in enumerate(nodes)}
    established = tuple(ESTABLISHED) + tuple(extra_established)
    H = implication_graph(G, established)
    closure = nx.transitive_closure(H, reflexive=True)
    R = nx.to_numpy_array(closure, nodelist=nodes, weight=None).astype(bool)
    np.fill_diagonal(R, True)
    M = np.zeros_like(R)
    non_edges: dict = {}
    for u, v, key, d in G.edges(keys=True, data=True):
        if d.get("kind") == "not-implies" and d.get("verdict") in established and u != v:
            M[index[u], index[v]] = True
            non_edges.setdefault((u, v), []).append((key, d["verdict"], d.get("witness")))
    Ri = R.astype(np.int32)
    T = (Ri.T @ M.astype(np.int32)) > 0          # T[x, c]: some a => x with a =/=> c
    D = (T.astype(np.int32) @ Ri.T) > 0           # D[x, y]: some c with T[x, c] and y => c
    return Analysis(G=G, H=H, nodes=nodes, index=index, R=R, M=M, D=D, T=T, non_edges=non_edges)


def as_asserted(G, basis: str = "printed"):
    """A copy of ``G`` in which every claim is taken as its paper asserts it, whatever its verdict.

    ``basis="printed"``: the claims as printed (their readings left out); ``basis="reading"``: the proofs'
    readings in place of the printed claims they read (claims without a reading as printed). The
    structural and definitional edges keep their verdicts. Conflicts of :func:`analyse` on the copy are
    contradictions *within* the papers' claims (a printed non-implication next to printed implications),
    findings to show beside the engine's own map.
    """
    H = G.copy()
    read = {d.get("claim") for _, _, d in G.edges(data=True)
            if str(d.get("basis", "")).startswith("reading")}
    for u, v, key, d in list(H.edges(keys=True, data=True)):
        b = str(d.get("basis", "printed"))
        claim = d.get("claim")
        is_reading = b.startswith("reading")
        from_paper = bool(d.get("paper")) and not str(claim).startswith("definition/")
        if not from_paper:
            continue
        if basis == "printed":
            keep = not is_reading
        else:
            keep = is_reading or claim not in read
        if keep:
            H.edges[u, v, key]["verdict"] = "asserted"
            H.edges[u, v, key]["asserted"] = True
        else:
            H.remove_edge(u, v, key)
    return H


def asserted_conflicts(G) -> dict:
    """Conflicts among the claims as printed and among their readings: ``{"printed": [...], "reading": [...]}``
    (items as :meth:`Analysis.conflicts`)."""
    return {b: analyse(as_asserted(G, b), extra_established=("asserted",)).conflicts()
            for b in ("printed", "reading")}


def reduced_non_implications(an: Analysis) -> list:
    """The established non-implications not derivable from another one (for drawing).

    ``(a, c)`` is dropped when another claimed ``(a', c')`` with ``a' => a`` and ``c => c'`` gives
    it; within a cycle of equivalent nodes one representative pair is kept.
    """
    keep = []
    R, M = an.R, an.M
    comp = nx.condensation(an.H).graph["mapping"]
    seen = set()
    for a, c in an.pairs(M):
        ka = (comp[a], comp[c])
        if ka in seen:
            continue
        i, j = an.index[a], an.index[c]
        up, down = R[:, i], R[j, :]
        eq_a, eq_c = up & R[i, :], down & R[:, j]
        total = M[np.ix_(up, down)].sum()
        same = M[np.ix_(eq_a, eq_c)].sum()
        if total > same:
            continue            # another non-implication gives this one
        seen.add(ka)
        keep.append((a, c))
    return keep
