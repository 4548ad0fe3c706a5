"""Benchmark of `implgraph check-edge` at large N: prints figures, asserts nothing.

Targets: refuting a false f at N = 30 in <= 1 s through the CLI (the engine's own seconds; the
process start and the libraries a check imports, sympy first, come on top and are printed apart: on a
noisy machine compare the CLI's seconds with that floor), and any N (here
N = 1000) answered in seconds: beyond N = 8 the tables searched are two blocks of equal rows, and
the prover answers for every N where it has an argument.

Run: python benchmarks/bench_checkedge.py
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

CASES = [
    # (label, A, B, f or None, N)
    ("false f, records (Theorem 2b with N-1)", "ldp", "kt-closeness(k=1)", "(exp(eps)*(N - 2) + 1)/(N - 1)", 30),
    ("false f, classes", "ldp", "mult-t-closeness", "exp(eps)/2 + 1/2", 30),
    ("false f, k-subsets", "kt-closeness(k=2)", "ldp", "ln(t)", 30),
    ("edge at N = 1000, records", "ldp", "kt-closeness(k=2)", None, 1000),
    ("edge at N = 1000, classes", "mult-t-closeness", "delta-disclosure-privacy", None, 1000),
]


#: the libraries every check imports (sympy's first sum imports sympy.tensor.tensor)
LIBRARIES = "import sympy, numpy, z3, sympy.tensor.tensor"


def _startup(*args) -> float:
    t = time.perf_counter()
    subprocess.run([sys.executable, *args], capture_output=True, check=True)
    return time.perf_counter() - t


def main() -> int:
    start = min(_startup("-m", "implgraph.cli", "--version") for _ in range(3))
    libs = min(_startup("-c", LIBRARIES) for _ in range(3))
    modules = min(_startup("-c", LIBRARIES + "; import implgraph.commands.check_edge, implgraph.engines.prove")
                  for _ in range(3))
    print(f"process start (implgraph --version, best of 3): {start:.2f} s; the floor of a check (best of 3): "
          f"python importing sympy, numpy and z3 {libs:.2f} s, and implgraph's modules on top {modules:.2f} s")
    for label, a, b, f, n in CASES:
        cmd = [sys.executable, "-m", "implgraph.cli", "check-edge", a, b, "--N", str(n), "--json"]
        if f is not None:
            cmd += ["--f", f]
        t = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.perf_counter() - t
        try:
            r = json.loads(proc.stdout)
            fw = r["forward"]
            what = f"{fw['relation']} / f {fw['f_verdict']}" if f is not None else f"{fw['relation']} ({fw['verdict']})"
            engine = r.get("seconds")
        except (ValueError, KeyError):
            what, engine = f"exit {proc.returncode}: {proc.stderr.strip()[-120:]}", None
        eng = f"{engine:.2f} s engine" if isinstance(engine, (int, float)) else "engine ?"
        print(f"  {label:<40} N = {n:<5} {what:<40} {eng}, {wall:.2f} s through the CLI")
    return 0


if __name__ == "__main__":
    sys.exit(main())
