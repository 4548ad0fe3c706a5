"""Benchmark: the implication map of 10 definitions with every group size k, for N = 50.

Run: ``python benchmarks/bench_map.py [--N 50] [--repeat 3]``.  The seven built-in definitions are
joined by three synthetic parametric definitions (``bench-a``, ``bench-b``, ``bench-c``, each with a
parameter k, tied to (k,t)-closeness by synthetic rules of the same shapes as Lemma 2.1 / 2.2 and
Theorem 4.1) so that the map has 10 definitions.  Prints, per stage, the seconds (best of the
repeats): loading and validating the theorems, building the groups-level map, closing it
(transitive closure, derived non-implications, conflicts, open pairs), the drawing graph
(transitive reduction), the figure check, and the JSON traces of every derived fact.  Target: the
map (build + close) under 5 s.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import sympy

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from implgraph import definitions  # noqa: E402
from implgraph.map.deduce import analyse  # noqa: E402
from implgraph.map.figures import figure_check  # noqa: E402
from implgraph.definitions.base import Definition  # noqa: E402
from implgraph.map.arrows import load_arrows  # noqa: E402
from implgraph.map.graph import groups_map  # noqa: E402
from implgraph.map.rules import Endpoint, Rule, load_rules  # noqa: E402
from implgraph.map.drawing import drawing  # noqa: E402

SYNTHETIC = ("bench-a", "bench-b", "bench-c")


def register_synthetic():
    for name in SYNTHETIC:
        if name in definitions.REGISTRY:
            continue
        cls = type(name.replace("-", "_"), (Definition,), {
            "name": name, "title": name, "level_symbol": "t", "scale": "ratio", "stronger": "smaller",
            "params": {"k": "group size, 1 <= k <= N - 1"}, "reference": "benchmark only"})
        definitions.register(cls)


def synthetic_rules():
    N = sympy.Symbol("N", integer=True)
    k0, k1, k = (sympy.Symbol(s, integer=True) for s in ("k0", "k1", "k"))
    t = sympy.Symbol("t", real=True)
    kinds = {N: "integer", k0: "integer", k1: "integer", k: "integer"}
    out = []
    for name in SYNTHETIC:
        ep = lambda p: Endpoint(name, (("k", p),), "table", t)  # noqa: E731
        kt = lambda p: Endpoint("kt-closeness", (("k", p),), "table", t)  # noqa: E731
        common = dict(kinds=kinds, verdict="proved", paper="bench")
        out += [Rule(claim=f"bench/{name}/mono", kind="implies", basis="printed", a=ep(k0), b=ep(k1), f=t,
                     when=(k0 >= 1, k0 <= k1, k1 <= N - 1), **common),
                Rule(claim=f"bench/{name}/strict", kind="not-implies", basis="printed", a=ep(k0), b=ep(k1),
                     when=(k1 >= 1, k1 < k0, k0 <= N - 1), witness="bench", **{**common, "verdict": "confirmed"}),
                Rule(claim=f"bench/{name}/to-kt", kind="implies", basis="printed", a=ep(k), b=kt(k), f=t,
                     when=(k >= 1, k <= N - 1), **common),
                Rule(claim=f"bench/{name}/from-kt", kind="implies", basis="printed", a=kt(k), b=ep(k), f=t ** 2,
                     when=(k >= 1, k <= N - 1), **common)]
    return out


def best_of(repeat, fn):
    best, value = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - start)
    return best, value


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--N", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    register_synthetic()
    names = definitions.names()
    t_load, rules = best_of(1, load_rules)
    rules = rules + synthetic_rules()
    t_build, G = best_of(args.repeat, lambda: groups_map(rules, args.N, families=names))
    t_close, an = best_of(args.repeat, lambda: analyse(G))
    t_draw, D = best_of(args.repeat, lambda: drawing(G, an))
    arrows = load_arrows()
    t_fig, _ = best_of(1, lambda: figure_check(an, arrows))

    def traces():
        return ([an.non_implication_trace(x, y) for x, y in an.derived_non_implications()]
                + [an.implication_trace(x, y) for x, y in an.derived_implications()])
    t_tr, tr = best_of(1, traces)
    s = an.summary()
    print(f"implication map: {len(names)} definitions, N = {args.N}: {G.number_of_nodes()} nodes, "
          f"{G.number_of_edges()} edges ({len(rules)} rules)")
    print(f"  closure: {s['implications']} implications, {s['claimed_non_implications']} claimed + "
          f"{s['derived_non_implications']} derived non-implications, {s['conflicts']} conflicts, "
          f"{s['open_pairs']} open pairs; drawn: {D.number_of_edges()} edges")
    print(f"{'stage':<44}{'seconds':>9}")
    for label, sec in (("load + validate theorems (once, z3)", t_load), ("build groups map", t_build),
                       ("close (reachability, non-implications)", t_close), ("drawing graph (reduction)", t_draw),
                       ("figure check (Fig. 1 + Fig. 2)", t_fig), (f"traces of {len(tr)} derived facts", t_tr)):
        print(f"{label:<44}{sec:>9.3f}")
    total = t_build + t_close
    print(f"{'map (build + close), target < 5 s':<44}{total:>9.3f}  {'OK' if total < 5 else 'SLOW'}")
    return 0 if total < 5 else 1


if __name__ == "__main__":
    sys.exit(main())
