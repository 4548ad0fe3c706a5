"""Benchmark: CPU seconds of `implgraph verify` cold and of check-edge on a plugin; prints figures, asserts nothing.

Targets: the whole `implgraph verify` cold (a fresh cache folder, one job) at most 10 s of CPU; `implgraph
check-edge` of a definition written as a plugin against a built-in at most 5 s of CPU. The plugin is the
tutorial's (``examples/implgraph-delta-disclosure``: delta-disclosure privacy declared in a few lines),
installed for the run as an installed package is (its module and a ``.dist-info`` folder naming its entry point,
on ``PYTHONPATH`` in a temporary folder), and checked against the built-in multiplicative t-closeness.

Every time is CPU seconds (user + system, each also printed) of the child process and of the processes it forks,
read with ``getrusage(RUSAGE_CHILDREN)``, so other load on the machine counts little (it still slows caches and
memory); the wall seconds and the load average are printed beside. The package's bytecode is written first, as ``pip install`` does.

Run: python benchmarks/bench_verify_cold.py [--repeat N] [--save DIR] [--compare FILE] [--skip-verify]
[--skip-check-edge]

``--repeat N`` runs each case N times (default 3; the median is the figure, the min printed beside);
``--save DIR`` writes the JSON of the first cold verify to ``DIR/verify.json``; ``--compare FILE`` prints every
claim whose verdict, tight f, exact f, status or strength differs between FILE (a ``verify --json`` of another
tree) and the first cold verify, so that a change made for speed is seen to change no answer.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLUGIN = os.path.join(ROOT, "examples", "implgraph-delta-disclosure", "implgraph_delta_disclosure")
VERIFY_TARGET = 10.0
CHECK_EDGE_TARGET = 5.0
CHECK_EDGES = [
    # (A, B, options): the tutorial's commands with the plugin's definition on one side
    ("delta-disclosure", "mult-t-closeness", ["--N", "3"]),
    ("delta-disclosure", "mult-t-closeness", []),
    ("ldp", "delta-disclosure", ["--f", "eps/2", "--N", "3"]),
]


def _children_cpu() -> tuple:
    """(user, system) CPU seconds of the finished child processes (and of their own finished children)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime, usage.ru_stime


def _run(args, env) -> tuple:
    """``(CPU seconds, wall seconds, completed process)`` of ``python -m implgraph.cli ARGS``; the CPU seconds are
    user + system of the process and of the processes it forks (``--jobs``), also printed apart."""
    (user, system), start = _children_cpu(), time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "implgraph.cli", *args], capture_output=True, text=True, env=env)
    user2, system2 = _children_cpu()
    print(f"    (user {user2 - user:.2f} s + system {system2 - system:.2f} s)")
    return (user2 - user) + (system2 - system), time.perf_counter() - start, proc


def install_plugin(where: str) -> str:
    """The tutorial's plugin laid out as an installed package in ``where`` (a folder to put on PYTHONPATH)."""
    shutil.copytree(PLUGIN, os.path.join(where, "implgraph_delta_disclosure"))
    info = os.path.join(where, "implgraph_delta_disclosure-0.1.0.dist-info")
    os.makedirs(info)
    with open(os.path.join(info, "METADATA"), "w") as fh:
        fh.write("Metadata-Version: 2.1\nName: implgraph-delta-disclosure\nVersion: 0.1.0\n")
    with open(os.path.join(info, "entry_points.txt"), "w") as fh:
        fh.write("[implgraph.definitions]\ndelta-disclosure = implgraph_delta_disclosure:DeltaDisclosure\n")
    return where


def _env(cache: str, extra_path: str | None = None) -> dict:
    env = dict(os.environ, IMPLGRAPH_CACHE_DIR=cache)
    if extra_path:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (extra_path, env.get("PYTHONPATH")) if p)
    return env


def _summary(label, cpus, walls, target) -> None:
    """The median CPU seconds of the runs (the figure compared with the target), the min and the wall beside."""
    cpu, wall = statistics.median(cpus), statistics.median(walls)
    more = f" (median of {len(cpus)} runs; min {min(cpus):.2f} s)" if len(cpus) > 1 else ""
    mark = "meets" if cpu <= target else "misses"
    print(f"{label}: {cpu:.2f} s CPU{more}, {wall:.2f} s wall; target <= {target:g} s CPU: {mark} it")


COMPARED = ("verdict", "tight", "exact", "status", "strength")


def compare(old_file: str, new_text: str) -> None:
    """Print the claims whose :data:`COMPARED` fields differ between two ``verify --json`` outputs."""
    with open(old_file) as fh:
        old = {r["id"]: r for r in json.load(fh)["claims"]}
    new = {r["id"]: r for r in json.loads(new_text)["claims"]}
    diffs = [f"  {cid} {key}: {old[cid].get(key)!r} -> {new[cid].get(key)!r}" for cid in sorted(set(old) & set(new))
             for key in COMPARED if old[cid].get(key) != new[cid].get(key)]
    missing = sorted(set(old) ^ set(new))
    print(f"compared with {old_file}: {len(set(old) & set(new))} claims in both, {len(diffs)} differences in "
          f"{', '.join(COMPARED)}" + (f"; in one only: {', '.join(missing)}" if missing else ""))
    print("\n".join(diffs) if diffs else "  (none)")


def bench_verify(top: str, repeat: int, save: str | None, old: str | None = None) -> None:
    cpus, walls = [], []
    for i in range(repeat):
        cpu, wall, proc = _run(["verify", "--json", "--jobs", "1"], _env(os.path.join(top, f"verify{i}")))
        cpus.append(cpu)
        walls.append(wall)
        try:
            rows = json.loads(proc.stdout)["claims"]
        except (ValueError, KeyError):
            rows = []
        print(f"  verify cold, run {i + 1}: {cpu:.2f} s CPU, {wall:.2f} s wall, exit {proc.returncode}, "
              f"{len(rows)} verdicts")
        if save and i == 0:
            os.makedirs(save, exist_ok=True)
            with open(os.path.join(save, "verify.json"), "w") as fh:
                fh.write(proc.stdout)
        if old and i == 0 and rows:
            compare(old, proc.stdout)
    _summary("`implgraph verify --jobs 1`, cold cache", cpus, walls, VERIFY_TARGET)


def bench_check_edge(top: str, repeat: int) -> None:
    plugin = install_plugin(os.path.join(top, "site-packages"))
    for a, b, options in CHECK_EDGES:
        cpus, walls = [], []
        args = ["check-edge", a, b, *options, "--json"]
        for i in range(repeat):
            cpu, wall, proc = _run(args, _env(os.path.join(top, f"edge-{a}-{b}-{len(options)}-{i}"), plugin))
            cpus.append(cpu)
            walls.append(wall)
            print(f"  {' '.join(args)}, run {i + 1}: {cpu:.2f} s CPU, {wall:.2f} s wall, {_answer(proc)}")
        _summary(f"`implgraph {' '.join(args[:-1])}`", cpus, walls, CHECK_EDGE_TARGET)


def _answer(proc) -> str:
    try:
        out = json.loads(proc.stdout)
        return "; ".join(f"{side}: {out[side]['relation']} ({out[side]['verdict']})" for side in ("forward", "backward")
                         if isinstance(out.get(side), dict))
    except (ValueError, KeyError, TypeError):
        return f"exit {proc.returncode}: {proc.stderr.strip()[-160:]}"


def _compile_package() -> None:
    """Write the package's bytecode first, as ``pip install`` does for an installed copy."""
    import compileall

    import implgraph
    compileall.compile_dir(os.path.dirname(implgraph.__file__), quiet=1)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--save", default=None)
    p.add_argument("--compare", default=None)
    p.add_argument("--skip-verify", action="store_true")
    p.add_argument("--skip-check-edge", action="store_true")
    args = p.parse_args(argv)
    print(f"cpus: {os.cpu_count()}, load average (1, 5, 15 min): "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    _compile_package()
    with tempfile.TemporaryDirectory(prefix="implgraph-bench-cold-") as top:
        if not args.skip_verify:
            bench_verify(top, max(1, args.repeat), args.save, args.compare)
        if not args.skip_check_edge:
            bench_check_edge(top, max(1, args.repeat))
    print(f"load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
