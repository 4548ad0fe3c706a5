"""Mutation run over the bundled claims; prints the figures (no assertions).

Every established claim is mutated (see tests/mutants.py); each mutant's truth is decided
independently of the engine (brute force, exact evaluation or a hand argument) and the engine's
verdict is compared: a false mutant is killed when the engine does not establish it; a false
refutation is a refuted mutant that the independent check shows true (or whose table witness fails
the brute-force re-check).

Run: python benchmarks/bench_mutation.py [--json FILE] [--jsonl FILE] [--only SUBSTRING] [--shard i/n]
(``--only "~g3-"`` runs the third generation alone; ``--jsonl`` appends one line per mutant as it is judged).
"""

from __future__ import annotations

import collections
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

import mutants  # noqa: E402


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    only = argv[argv.index("--only") + 1] if "--only" in argv else None
    start = time.perf_counter()
    ms = [m for m in mutants.generate() if only is None or only in m.id]
    if "--shard" in argv:       # "i/n": every n-th mutant from the i-th (to share the run between processes)
        i, n = map(int, argv[argv.index("--shard") + 1].split("/"))
        ms = ms[i::n]
    log = open(argv[argv.index("--jsonl") + 1], "a") if "--jsonl" in argv else None

    def progress(o):
        if log is not None:
            log.write(json.dumps(_row(o)) + "\n")
            log.flush()
    outcomes = mutants.run(ms, progress=progress)
    wall = time.perf_counter() - start
    s = mutants.summary(outcomes)
    print(f"mutants: {s['total']} (false {s['false']}, true {s['true']}, undecided {s['undecided']}) in {wall:.0f} s")
    print(f"false mutants killed: {s['killed']} of {s['false']} = {100 * s['kill_rate']:.1f} % (target >= 99 %)")
    print(f"true mutants refuted (false refutations): {len(s['false_refutations'])} (target 0)")
    by = collections.defaultdict(lambda: [0, 0])
    for o in outcomes:
        if o.mutant.truth == "false":
            by[o.mutant.cls][0] += 1
            by[o.mutant.cls][1] += o.killed
    for cls, (n, k) in sorted(by.items()):
        print(f"  {cls:16s} false {n:3d}  killed {k:3d}")
    first = {m.id for m in mutants.generate(second=False, third=False)}
    second = {m.id for m in mutants.generate(third=False)} - first
    for title, gen in (("second-generation", [o for o in outcomes if o.mutant.id in second]),
                       ("third-generation (~g3-)", [o for o in outcomes if o.mutant.id not in first | second])):
        if gen:
            s2 = mutants.summary(gen)
            print(f"{title} mutants: {s2['total']} (false {s2['false']}, true {s2['true']}); "
                  f"false killed {s2['killed']} of {s2['false']}; true refuted {len(s2['false_refutations'])}")
    for title, rows in (("surviving false mutants", s["survivors"]), ("false refutations", s["false_refutations"]),
                        ("undecided mutants refuted without a table witness to re-check",
                         s["undecided_refuted_unchecked"])):
        print(f"{title}: {len(rows)}")
        for o in rows:
            print(f"  {o.mutant.id} [{o.mutant.cls}] {o.mutant.mutation} -> engine {o.verdict}; "
                  f"why {o.mutant.truth}: {o.mutant.reason[:300]}")
    if "--json" in argv:
        path = argv[argv.index("--json") + 1]
        Path(path).write_text(json.dumps([_row(o) for o in outcomes], indent=1))


def _row(o):
    return {"id": o.mutant.id, "cls": o.mutant.cls, "mutation": o.mutant.mutation, "truth": o.mutant.truth,
            "reason": o.mutant.reason, "verdict": o.verdict, "evidence": o.evidence[:500], "recheck": o.recheck}


if __name__ == "__main__":
    main()
