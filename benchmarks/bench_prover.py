"""Seconds to prove each built-in pair for every N, and seconds to re-check its certificates.

    python benchmarks/bench_prover.py [--ns 2..12] [--max-pairs 60]

For every ordered pair of built-in ratio-of-averages definitions (one- or two-sided) and class distances (EMD
t-closeness with the equal ground distance) (group sizes k symbolic, 1 or 2; class-based ones with classes
of >= k, >= 1 or singleton records), and of the definitions the
registered inequality lemmas relate, on which the prover has an argument (or a chain of lemmas) for every N: the seconds of :func:`implgraph.engines.prove.check_implication`
(f = None) and of :func:`implgraph.certify.check_certificate` on each certificate it returns, one
line per pair, then the totals and the slowest re-check of one certificate (target: <= 0.2 s). The
pairs without an argument are counted (bounded or refuted elsewhere: check-edge; ``implgraph
matrix`` says why each bounded implication has no proof for every N).
"""

from __future__ import annotations

import argparse
import itertools
import time

import sympy

from implgraph import definitions
from implgraph.certify import certificates_in, check_certificate
from implgraph.core.region import Region
from implgraph.definitions.capabilities import ClassDistance, RatioLevel, family_of
from implgraph.engines.bounds import T, ceiling_bound, tight_bound
from implgraph.engines.lemmas import LEMMAS, find_chain
from implgraph.engines.prove import Word, check_implication

K = sympy.Symbol("k", integer=True, positive=True)
N = sympy.Symbol("N", integer=True)


def _distance(d):
    """A class's total variation distance under the ground distance ``equal`` (EMD t-closeness)."""
    distance = d.declared(ClassDistance)
    return set(d.params) == {"ground"} and distance is not None and distance.at({"ground": "equal"}, d.words) is not None


def variants(d):
    if _distance(d):
        return [({"ground": Word("equal")}, {"min_size": K}), ({"ground": Word("equal")}, {"min_size": sympy.Integer(1)})]
    if family_of(d) == "class":
        return [({}, {"min_size": K}), ({}, {"min_size": sympy.Integer(1)}),
                ({}, {"min_size": sympy.Integer(1), "max_size": sympy.Integer(1)})]
    if "k" in d.params:
        return [({"k": K}, None), ({"k": sympy.Integer(1)}, None), ({"k": sympy.Integer(2)}, None)]
    return [({}, None)]


def pairs():
    defs = [d for d in definitions.all_definitions()
            if d.has(RatioLevel) and not (set(d.params) - {"k"}) or _distance(d)]     # any family, either sides
    for a, b in itertools.product(defs, repeat=2):
        for (ap, ac), (bp, bc) in itertools.product(variants(a), variants(b)):
            if family_of(a) == "class" and family_of(b) == "class" and ac != bc:
                continue
            yield a, ap, ac, b, bp, bc
    # the definitions the registered inequality lemmas relate (outside the ratio families)
    named = sorted({n for lm in LEMMAS for n in (lm.a, lm.b)})
    for a, b in itertools.permutations(named, 2):
        yield definitions.get(a), {}, None, definitions.get(b), {}, None


def label(d, params, classes):
    inner = ", ".join([f"{k}={v}" for k, v in params.items()] +
                      [f"{'k' if k == 'min_size' else 'max'}={v}" for k, v in (classes or {}).items()])
    return f"{d.name}({inner})" if inner else d.name


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ns", default="2..12", help="N range of the tightness check (default 2..12)")
    p.add_argument("--max-pairs", type=int, default=1000)
    args = p.parse_args(argv)
    lo, hi = (int(x) for x in args.ns.split(".."))
    prove_total = check_total = 0.0
    proved = none = certs = 0
    slowest = (0.0, "")
    print(f"{'pair':<62} {'verdict':<10} {'method':<18} {'prove s':>8} {'recheck s':>10}")
    for i, (a, ap, ac, b, bp, bc) in enumerate(pairs()):
        if i >= args.max_pairs:
            break
        name = f"{label(a, ap, ac)} => {label(b, bp, bc)}"
        region = Region({N: "integer", T: "real", K: "integer"}, (T >= 1, N >= 2))
        if tight_bound(a, b, ap, bp, region, N, ac, bc) is None and find_chain(a.name, b.name) is None \
                and ceiling_bound(b, bp, bc, region, N) is None:
            none += 1
            continue
        t0 = time.perf_counter()
        r = check_implication(a, b, None, a_params=ap, b_params=bp, a_classes=ac, b_classes=bc,
                              symbols={"k": K, "N": N})
        t1 = time.perf_counter()
        oks = []
        for c in certificates_in(r.details):
            t = time.perf_counter()
            oks.append(check_certificate(c, ns=range(lo, hi + 1)).ok)
            slowest = max(slowest, (time.perf_counter() - t, name))
        t2 = time.perf_counter()
        certs += len(oks)
        prove_total += t1 - t0
        check_total += t2 - t1
        proved += r.verdict == "proved"
        status = "ok" if oks and all(oks) else ("REJECTED" if oks else "no cert")
        print(f"{name:<62} {r.verdict:<10} {str(r.method):<18} {t1 - t0:8.2f} {t2 - t1:10.2f}  {status}", flush=True)
    print(f"{proved} proved ({certs} certificates); {none} pairs without an argument for every N; "
          f"prove {prove_total:.1f} s, re-check {check_total:.1f} s; slowest re-check of one certificate "
          f"{slowest[0]:.3f} s ({slowest[1]})")


if __name__ == "__main__":
    main()
