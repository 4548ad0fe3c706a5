"""Seconds to decide each pair of the built-in matrix, and to re-check the certificates of each proved cell.

    python benchmarks/bench_matrix_pairs.py [--parameters stated|symbols|both] [--top 10]

For every unordered pair of built-in definitions, as `implgraph matrix` takes them (stated parameters, or each
size a symbol over its range): the seconds of :func:`implgraph.engines.checkedge.check_edge` on the pair (both
directions: the bounded search at N <= 4, the prover for every N, the witness), one process, no cache (the
target: <= 1 s per pair; the whole matrix at most 120 s of CPU on 2 cores, measured by bench_matrix_zoo.py --all);
then, for each direction proved for every N, the seconds of :func:`implgraph.certify.check_certificate` on its
certificate (target: <= 0.2 s each). Prints the slowest pairs and certificates and the totals; asserts nothing.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sys
import tempfile
import time

os.environ.setdefault("IMPLGRAPH_CACHE_DIR", tempfile.mkdtemp())      # nothing replayed from a cache

from implgraph.certify import check_certificate  # noqa: E402
from implgraph.engines.checkedge import check_edge  # noqa: E402
from implgraph.map.matrix import _when_of, matrix_nodes, symbolic_nodes  # noqa: E402


def run(mode: str, top: int) -> None:
    if mode == "symbols":
        nodes, conds = symbolic_nodes()
    else:
        nodes, conds = matrix_nodes(), {}
    pairs, certs = [], []
    start = time.perf_counter()
    for a, b in itertools.combinations(nodes, 2):
        t = time.perf_counter()
        r = check_edge(a, b, when=_when_of(a, b, conds), N=4, p=2)
        pairs.append((time.perf_counter() - t, f"{a} ? {b}"))
        for d, (x, y) in ((r.forward, (a, b)), (r.backward, (b, a))):
            cert = getattr(d, "certificate", None)
            if d.verdict == "proved" and cert:
                t = time.perf_counter()
                ok = check_certificate(cert).ok
                certs.append((time.perf_counter() - t, f"{x} => {y}", ok))
    total = time.perf_counter() - start
    pairs.sort(reverse=True)
    certs.sort(reverse=True)
    print(f"== {mode} parameters: {len(pairs)} pairs in {total:.1f} s (one process), slowest {pairs[0][0]:.2f} s, "
          f"{sum(s > 1 for s, _ in pairs)} over 1 s")
    for s, name in pairs[:top]:
        print(f"  {s:6.2f} s  {name}")
    rejected = [n for _, n, ok in certs if not ok]
    print(f"   {len(certs)} certificates re-checked in {sum(s for s, _, _ in certs):.1f} s, slowest "
          f"{certs[0][0]:.3f} s, {sum(s > 0.2 for s, _, _ in certs)} over 0.2 s, {len(rejected)} rejected"
          + (f": {', '.join(rejected)}" if rejected else ""))
    for s, name, _ in certs[:top]:
        print(f"  {s:6.3f} s  {name}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--parameters", choices=("stated", "symbols", "both"), default="both")
    p.add_argument("--top", type=int, default=10, help="how many of the slowest to list (default 10)")
    args = p.parse_args(argv)
    for mode in (("stated", "symbols") if args.parameters == "both" else (args.parameters,)):
        run(mode, args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
