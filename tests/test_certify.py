"""Certificates of "proved" (issue 12): produced by the prover, re-checked by implgraph.certify.

The certificates come from every ordered pair of built-in ratio-of-averages definitions the prover
proves for every N (parameters as symbols or small constants); each is re-checked by the
independent checker, the tightness family at N = 2..12. Corrupting one multiplier, one table entry
or the bound makes the checker reject it. The checker's levels agree with tests/brute.py.
"""

import copy
import itertools
import json
import random
from fractions import Fraction

import pytest
import sympy

import brute
from implgraph import definitions
from implgraph.certify import certificates_in, check_certificate
from implgraph.certify.levels import INF, expand, raw_level
from implgraph.cli import main
from implgraph.engines.prove import check_implication

K = sympy.Symbol("k", integer=True, positive=True)


def _variants(d):
    """(params, classes) choices for one definition: group size k symbolic, 1 or 2."""
    if d.family == "class":
        return [({}, {"min_size": K}), ({}, {"min_size": sympy.Integer(1)}), ({}, {"min_size": sympy.Integer(1),
                                                                               "max_size": sympy.Integer(1)})]
    if "k" in d.params:
        return [({"k": K}, None), ({"k": sympy.Integer(1)}, None), ({"k": sympy.Integer(2)}, None)]
    return [({}, None)]


def _ratio_definitions():
    return [d for d in definitions.all_definitions()
            if getattr(d, "family", None) in ("pairwise", "subset", "class")
            and getattr(d, "sides", None) == "two-sided" and not (set(d.params) - {"k"})]


@pytest.fixture(scope="module")
def certificates():
    from implgraph.engines.bounds import tight_bound, T  # only to skip pairs without an argument quickly
    from implgraph.core.region import Region
    N = sympy.Symbol("N", integer=True)
    out = []
    for a, b in itertools.product(_ratio_definitions(), repeat=2):
        for (ap, ac), (bp, bc) in itertools.product(_variants(a), _variants(b)):
            if a.family == "class" and b.family == "class" and ac != bc:
                continue
            region = Region({N: "integer", T: "real", K: "integer"}, (T >= 1, N >= 2))
            if tight_bound(a, b, ap, bp, region, N, ac, bc) is None:
                continue
            r = check_implication(a, b, None, a_params=ap, b_params=bp, a_classes=ac, b_classes=bc,
                                  symbols={"k": K, "N": N})
            if r.verdict == "proved":
                out += [(f"{a.name}{ap}{ac} => {b.name}{bp}{bc}", c) for c in certificates_in(r.details)]
    return out


def test_at_least_twenty_certificates(certificates):
    assert len(certificates) >= 20
    methods = {c["method"] for _, c in certificates}
    assert methods >= {"same-level", "subset-monotone", "subset-to-classes", "vertex", "product"}


def test_every_certificate_rechecked(certificates):
    bad = []
    for name, cert in certificates:
        json.loads(json.dumps(cert))            # plain JSON
        rep = check_certificate(cert)
        if not rep.ok:
            bad.append((name, rep.failures()))
    assert not bad


def _first(certificates, method, tight=True):
    return copy.deepcopy(next(c for _, c in certificates if c["method"] == method and c["tight"] == tight))


def test_corrupted_multiplier_rejected(certificates):
    cert = _first(certificates, "product")
    comp = cert["upper_certificate"]["multipliers"][0]
    key = next(iter(comp))
    comp[key] = f"({comp[key]}) + 1"
    rep = check_certificate(cert)
    assert not rep.ok and any("multiplier" in h or "not 0" in h for _, _, h in rep.failures())


@pytest.mark.parametrize("method", ["vertex", "product", "same-level", "subset-to-classes"])
def test_corrupted_table_entry_rejected(certificates, method):
    cert = _first(certificates, method)
    block = cert["tightness"]["blocks"][-1]
    block["value"] = f"({block['value']})*9/10"
    assert not check_certificate(cert, ns=range(2, 7)).ok


def test_lowered_bound_rejected(certificates):
    cert = _first(certificates, "vertex")
    cert["upper"] = f"({cert['upper']} + 1)/2"        # strictly below U for T > 1
    assert not check_certificate(cert, ns=range(2, 5)).ok


def test_vertex_family_by_hand():
    # N = 4, T = 3, subset size 1: one record at 1/4, three at 3/4. Bucket 1: mean 5/8, mean/min 5/2,
    # max/mean 6/5; bucket 2: mean 3/8, max/mean 2, mean/min 3/2: level 5/2 = ((N - 1) T + 1)/N
    rows, classes = expand([(1, Fraction(1, 4), None), (3, Fraction(3, 4), None)])
    assert raw_level({"family": "subset", "sides": "two-sided"}, rows, classes, 1) == Fraction(5, 2)
    assert raw_level({"family": "pairwise", "sides": "two-sided"}, rows) == 3


def _random_table(rng, n, p):
    rows = []
    for _ in range(n):
        w = [rng.randint(0, 4) for _ in range(p)]
        if sum(w) == 0:
            w[0] = 1
        rows.append([Fraction(x, sum(w)) for x in w])
    return rows


@pytest.mark.parametrize("seed", range(40))
def test_levels_agree_with_brute(seed):
    rng = random.Random(seed)
    n, p = rng.randint(2, 6), rng.randint(2, 3)
    rows = _random_table(rng, n, p)
    classes = [f"E{rng.randint(1, 3)}" for _ in range(n)]
    k = rng.randint(1, n - 1)
    two = {"sides": "two-sided"}
    assert raw_level({"family": "pairwise", **two}, rows) == brute.ldp(rows)
    assert raw_level({"family": "subset", **two}, rows, size=k) == brute.kt(rows, k)
    assert raw_level({"family": "subset", **two}, rows, size=n - k) == brute.kdp(rows, k)
    assert raw_level({"family": "subset", **two}, rows, size=n - 1) == brute.dp(rows)
    assert raw_level({"family": "class", **two}, rows, classes) == brute.mult_t(rows, classes)


def test_family_rows_are_probabilities():
    with pytest.raises(ValueError):
        expand([(2, Fraction(3, 2), None)])
    assert raw_level({"family": "pairwise"}, [[Fraction(0), Fraction(1)], [Fraction(1, 2), Fraction(1, 2)]]) == INF


def test_certificate_command(capsys):
    names = [d.name for d in _ratio_definitions() if d.family == "pairwise"]
    assert main(["certificate", "--edge", names[0], names[0], "--check"]) == 0
    out = json.loads(capsys.readouterr().out)
    row = out["claims"][0]
    assert row["verdict"] == "proved" and row["recheck"] and all(r["ok"] for r in row["recheck"])


def test_bad_format_rejected():
    assert not check_certificate({"format": "something else"}).ok
