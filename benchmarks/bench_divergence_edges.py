"""Seconds of check-edge between the divergence plugins (docs/examples/implgraph-divergences) and ratio definitions.

    python benchmarks/bench_divergence_edges.py

The four plugins (KL and Renyi-2 closeness, KL and Renyi-2 local privacy) against the ratio definitions (dp, ldp,
kdp(k=2), kt-closeness(k=2), mult-t-closeness, delta-disclosure-privacy, basic-beta-likeness) and k-anonymity, both
directions (check-edge at its default N = 4; a family's certificate is re-checked inside the prover): prints each
pair's kind, its CPU and wall seconds. The target is 5 s
per pair on 2 cores (CPU seconds of this process; the wall clock also counts other processes on the machine). Asserts
nothing: the verdicts are tests/test_divergences.py's.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "docs" / "examples" / "implgraph-divergences"))

from implgraph.definitions import register  # noqa: E402
from implgraph.engines.checkedge import check_edge  # noqa: E402
from implgraph_divergences.kl_closeness import KLCloseness  # noqa: E402
from implgraph_divergences.kl_ldp import KLLocalPrivacy  # noqa: E402
from implgraph_divergences.renyi2_closeness import Renyi2Closeness  # noqa: E402
from implgraph_divergences.renyi2_ldp import Renyi2LocalPrivacy  # noqa: E402


BUILT_INS = ("dp", "ldp", "kdp(k=2)", "kt-closeness(k=2)", "mult-t-closeness", "delta-disclosure-privacy",
         "basic-beta-likeness", "k-anonymity")


def main():
    for cls in (KLLocalPrivacy, Renyi2LocalPrivacy, KLCloseness, Renyi2Closeness):
        register(cls)
    check_edge("ldp", "ldp", N=2)       # the imports and the solver, once
    worst = 0.0
    for plugin in ("example-kl-ldp", "example-renyi2-ldp", "example-kl-closeness", "example-renyi2-closeness"):
        for ratio in BUILT_INS:
            wall, cpu = time.perf_counter(), time.process_time()
            edge = check_edge(ratio, plugin)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            worst = max(worst, cpu)
            print(f"{ratio:24} ? {plugin:17} {edge.kind:16} cpu {cpu:5.1f} s  wall {wall:5.1f} s", flush=True)
    print(f"largest CPU per pair: {worst:.1f} s (target 5 s)")


if __name__ == "__main__":
    main()
