"""CPU seconds of the pair matrix as ``--jobs 2`` splits it, without two busy cores slowing each other.

    python benchmarks/bench_matrix_split.py [--parameters stated|symbols] [--cold]

``implgraph matrix --jobs 2`` decides the pairs of :func:`implgraph.map.matrix._warm_pairs` in the parent, then forks
two workers that take the other pairs in turn. Here the same pairs are decided the same way (fresh cache), but the two
workers run one after the other: their CPU seconds (``resource.RUSAGE_CHILDREN``) plus the parent's are what the
workers compute, each learning what the other already knows, without the interference of two processes on two busy
cores (which made repeated ``--jobs 2`` runs on a loaded machine spread by a tenth or more). ``--cold``: no pair in the
parent (the workers start from the imports alone, as before the warm start). Asserts nothing; the target of the whole
matrix is at most 120 s of CPU on 2 cores (bench_matrix_zoo.py --all measures the real run).
"""

from __future__ import annotations

import argparse
import itertools
import os
import resource
import sys
import tempfile
import time

os.environ.setdefault("IMPLGRAPH_CACHE_DIR", tempfile.mkdtemp())      # nothing replayed from a cache

from implgraph.map import matrix as mm  # noqa: E402


def _decide(pairs, conds):
    for a, b in pairs:
        mm.forget_answers()
        mm.decide_pair(a, b, 4, 2, mm._when_of(a, b, conds))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--parameters", choices=("stated", "symbols"), default="stated")
    p.add_argument("--cold", action="store_true", help="no pair decided in the parent before the workers fork")
    args = p.parse_args(argv)
    nodes, conds = mm.symbolic_nodes() if args.parameters == "symbols" else (mm.matrix_nodes(), {})
    pairs = list(itertools.combinations(nodes, 2))
    warm = [] if args.cold else mm._warm_pairs(pairs)
    start = time.process_time()
    for key in warm:
        mm._decide_here(key, 4, 2, 120, conds)
    parent = time.process_time() - start
    rest = [k for k in pairs if k not in set(warm)]
    for half in (rest[0::2], rest[1::2]):
        pid = os.fork()
        if pid == 0:
            _decide(half, conds)
            os._exit(0)
        os.waitpid(pid, 0)
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    children = ru.ru_utime + ru.ru_stime
    print(f"{args.parameters} parameters, {len(pairs)} pairs ({len(warm)} in the parent): parent {parent:.1f} s, "
          f"workers {children:.1f} s, {parent + children:.1f} s of CPU; load average "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
