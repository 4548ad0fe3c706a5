"""Benchmark of `implgraph verify` and the refuter; prints figures (no assertions).

Targets (issue 4): the whole `implgraph verify` < 30 s on 2 cores; refuting a false f-claim at
N <= 30 < 1 s; bounded checks of true f-claims up to N = 50 < 10 s per claim.

Run: python benchmarks/bench_verify.py [--skip-verify]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time


def whole_verify():
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "implgraph.cli", "verify", "--json", "--jobs", "2"],
                          capture_output=True, text=True)
    wall = time.perf_counter() - start
    try:
        rows = json.loads(proc.stdout)["claims"]
    except Exception:
        rows = []
    return wall, proc.returncode, rows


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    from implgraph.engines.refute import find_witness

    print(f"cpus: {os.cpu_count()}, load average: {os.getloadavg()[0]:.2f}")
    if "--skip-verify" not in argv:
        wall, rc, rows = whole_verify()
        print(f"whole `implgraph verify --jobs 2`: {wall:.1f} s wall, exit {rc}, {len(rows)} verdicts "
              f"(target < 30 s)")
        slow = sorted(rows, key=lambda r: -r["seconds"])[:8]
        for r in slow:
            print(f"   {r['seconds']:6.2f} s  {r['id']}  {r['verdict']}")
        mine = [r for r in rows if not any(x in r["id"] for x in ("/eq-", "/fig-6", "/fig-7", "/sec-5d", "/sec-6",
                                                                   "/table-1"))]
        print(f"   sum of per-claim seconds: all {sum(r['seconds'] for r in rows):.1f} s, "
              f"without the mechanism claims {sum(r['seconds'] for r in mine):.1f} s")

    print("refuting false f-claims (alpha free; target < 1 s at N <= 30):")
    cases = [
        ("theorem-3a printed", "ldp", "kt-closeness", "(k/N)*(1 + ((N - k - 1)/k)*exp(eps))", {}, {"k": 2}, {"k": 2}),
        ("theorem-2b with N-1", "ldp", "kt-closeness", "(exp(eps)*(N - 2) + 1)/(N - 1)", {}, {"k": 1}, {}),
        ("theorem-2a scaled 9/10", "kt-closeness", "ldp", "ln((9/10)*t**2)", {"k": 1}, {}, {}),
    ]
    for label, a, b, f, ap, bp, vals in cases:
        for N in (10, 20, 30):
            t0 = time.perf_counter()
            r = find_witness(a, b, f, N=N, a_params=ap, b_params=bp, values=vals)
            print(f"   {label:<24} N = {N:2d}: {r.status:<10} {time.perf_counter() - t0:6.2f} s")

    print("bounded checks of true f-claims (every level of A; target < 10 s per claim at N = 50):")
    cases = [
        ("theorem-2b printed", "ldp", "kt-closeness", "(exp(eps)*(N - 1) + 1)/N", {}, {"k": 1}),
        ("theorem-2a printed", "kt-closeness", "ldp", "ln(t**2)", {"k": 1}, {}),
        ("lemma-2.1 (k0=2,k1=3)", "kt-closeness", "kt-closeness", "t", {"k": 2}, {"k": 3}),
    ]
    for label, a, b, f, ap, bp in cases:
        for N in (20, 50):
            t0 = time.perf_counter()
            r = find_witness(a, b, f, N=N, a_params=ap, b_params=bp, timeout_ms=10000)
            print(f"   {label:<24} N = {N:2d}: {r.status:<10} {time.perf_counter() - t0:6.2f} s")
    print("bounded checks at a fixed level of A (linear problems):")
    for label, a, b, f, ap, bp in cases:
        for alpha in (("2", "ln(2)"),):
            value = alpha[1] if a in ("ldp", "dp", "kdp") else alpha[0]
            import sympy
            for N in (20, 50):
                t0 = time.perf_counter()
                r = find_witness(a, b, f, N=N, a_params=ap, b_params=bp, alpha_value=sympy.sympify(value.replace("ln", "log")),
                                 timeout_ms=10000)
                print(f"   {label:<24} N = {N:2d}, level {value}: {r.status:<10} {time.perf_counter() - t0:6.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
