"""Profile: where the CPU seconds of a cold ``implgraph verify`` go; prints figures, asserts nothing.

Two views, for finding what to make faster (the figure to compare with the target is
``benchmarks/bench_verify_cold.py``'s):

- ``--claims`` (default): runs ``verify --json --jobs 1`` in this process on a fresh cache folder and prints the CPU
  seconds (``time.process_time``) of every claim's check, summed by claim kind, and the slowest claims. The claims
  share the process's memos, so a claim's figure includes what it computed first for later ones.
- ``--solver``: runs a cold verify in this process and prints the solver questions (:meth:`Region._solve` calls,
  those no memo or screen answered) by the implgraph functions that asked them: CPU seconds, count, and how many
  were sat / unsat / unknown (a sat answer is a model, found only by the solver; an unsat one may be a cheaper
  screen's to give).
- ``--pyspy FILE``: aggregates a py-spy raw profile (``py-spy record -r 200 -f raw -o FILE -- python -m implgraph
  verify --json --jobs 1``) by implgraph function: the share of samples in which each is on the stack (inclusive),
  and the share whose innermost implgraph frame it is, with the library function it was calling.

py-spy samples wall time: on a loaded machine a waiting process is sampled too, so compare shares from runs on a
quiet machine only.

Run: python benchmarks/bench_verify_profile.py [--claims] [--solver] [--top N] [--pyspy FILE [--under NAME]]

``--under NAME`` keeps the samples whose stack holds a function whose frame contains NAME (e.g.
``subset_ratio``), counted from its outermost such frame (the shares stay shares of every sample).
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import sys
import tempfile
import time


def claims_profile(top: int) -> None:
    """Run a cold verify in this process and print the CPU seconds by claim kind and of the slowest claims."""
    from implgraph.checks import verify as checks_verify
    spent: dict = {}
    real = checks_verify._check_one

    def timed(c, context):
        start = time.process_time()
        try:
            return real(c, context)
        finally:
            spent[str(c.get("id"))] = (time.process_time() - start, str(c.get("kind")))
    checks_verify._check_one = timed
    try:
        _cold_verify()
    finally:
        checks_verify._check_one = real
    total = sum(t for t, _ in spent.values())
    print(f"{len(spent)} claims, {total:.2f} s CPU in their checks, {time.process_time():.2f} s CPU in the process")
    by_kind = collections.Counter()
    for t, kind in spent.values():
        by_kind[kind] += t
    for kind, t in by_kind.most_common():
        print(f"  {kind:14s} {t:6.2f} s")
    print(f"the {top} slowest claims:")
    for cid, (t, kind) in sorted(spent.items(), key=lambda kv: -kv[1][0])[:top]:
        print(f"  {t:6.2f} s  {kind:12s} {cid}")


def _asking(frame, depth=3) -> str:
    """The first ``depth`` implgraph functions on the stack above ``frame`` outside the region and context code."""
    names = []
    while frame is not None and len(names) < depth:
        path = frame.f_code.co_filename.replace(os.sep, "/")
        if "/implgraph/" in path and not path.endswith(("core/region.py", "core/symbolic.py")):
            names.append(f"{path.rsplit('/implgraph/', 1)[1]}:{frame.f_code.co_name}")
        frame = frame.f_back
    return " <- ".join(names)


def solver_profile(top: int) -> None:
    """Run a cold verify in this process and print its solver questions by the functions that asked them."""
    from implgraph.core import region
    seconds, counts = collections.Counter(), collections.Counter()
    real = region.Region._solve

    def solve(self, extra, timeout_ms, backend):
        start = time.process_time()
        out = real(self, extra, timeout_ms, backend)
        who = _asking(sys._getframe(1))
        seconds[who] += time.process_time() - start
        counts[who, out[0]] += 1
        counts[who] += 1
        return out
    region.Region._solve = solve
    try:
        _cold_verify()
    finally:
        region.Region._solve = real
    print(f"{sum(counts[k] for k in seconds)} solver questions, {sum(seconds.values()):.2f} s CPU:")
    for who, t in seconds.most_common(top):
        answers = ", ".join(f"{counts[who, r]} {r}" for r in ("sat", "unsat", "unknown") if counts[who, r])
        print(f"  {t:6.3f} s {counts[who]:5d} ({answers})  {who}")


def _cold_verify() -> None:
    """``implgraph verify --json --jobs 1`` in this process, on a fresh cache folder, its output discarded."""
    from implgraph.cli import run
    with tempfile.TemporaryDirectory(prefix="implgraph-profile-") as cache:
        os.environ["IMPLGRAPH_CACHE_DIR"] = cache
        argv, stdout = sys.argv, sys.stdout
        sys.argv = ["implgraph", "verify", "--json", "--jobs", "1"]   # as the command runs (its process settings)
        try:
            with open(os.devnull, "w") as sys.stdout:
                run()
        except SystemExit:
            pass
        finally:
            sys.argv, sys.stdout = argv, stdout


def _frame(text: str) -> str:
    """A py-spy frame without its line number and worktree prefix: ``function (implgraph/module.py)``."""
    text = re.sub(r":\d+\)$", ")", text)
    return re.sub(r"\([^()]*?/(implgraph/)", r"(\1", text)


def _ours(frame: str) -> bool:
    return "(implgraph/" in frame


def pyspy_profile(path: str, top: int, under: str | None = None) -> None:
    """Print the inclusive and innermost shares of implgraph functions in a py-spy raw profile (``under``: of the
    samples below a frame containing that text only, as shares of every sample)."""
    inclusive, innermost, total, kept = collections.Counter(), collections.Counter(), 0, 0
    with open(path) as fh:
        for line in fh:
            stack, _, count = line.rstrip().rpartition(" ")
            if not stack or not count.isdigit():
                continue
            n = int(count)
            total += n
            frames = [_frame(f) for f in stack.split(";")]
            if under is not None:
                start = next((i for i, f in enumerate(frames) if under in f), None)
                if start is None:
                    continue
                frames = frames[start:]
            kept += n
            for f in {f for f in frames if _ours(f)}:
                inclusive[f] += n
            at = max((i for i, f in enumerate(frames) if _ours(f)), default=None)
            if at is None:
                innermost["(no implgraph frame)"] += n
            else:
                callee = frames[at + 1] if at + 1 < len(frames) else "(itself)"
                innermost[f"{frames[at]}  ->  {callee}"] += n
    if not total:
        print(f"{path}: no samples")
        return
    below = f", {kept} of them below {under!r}" if under is not None else ""
    print(f"{total} samples{below}; on the stack (inclusive):")
    for f, n in inclusive.most_common(top):
        print(f"  {100 * n / total:5.1f}%  {f}")
    print("innermost implgraph frame -> the function it was calling:")
    for f, n in innermost.most_common(top):
        print(f"  {100 * n / total:5.1f}%  {f}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--claims", action="store_true", help="CPU seconds per claim of a cold verify (the default)")
    p.add_argument("--solver", action="store_true", help="solver questions of a cold verify by the functions asking")
    p.add_argument("--pyspy", default=None, help="aggregate this py-spy raw profile instead")
    p.add_argument("--under", default=None, help="with --pyspy: only the samples below a frame containing this")
    p.add_argument("--top", type=int, default=30)
    args = p.parse_args(argv)
    if args.pyspy:
        pyspy_profile(args.pyspy, args.top, args.under)
    if args.solver:
        solver_profile(args.top)
    if args.claims or not (args.pyspy or args.solver):
        claims_profile(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
