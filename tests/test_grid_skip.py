"""A proof for every N with its certificate spares a grid instance its finer grids; a proof without one does not,
and a harvested certificate that does not state a valid bound is not accepted by ``harvest --recheck``."""

import copy
from fractions import Fraction

import pytest

from implgraph.certify import certificates_in
from implgraph.engines import prove
from implgraph.engines.direction import check_direction
from implgraph.kernel_coq.harvest import recheck

SKIPPED = "finer grids are not searched"


def test_a_certified_proof_spares_the_finer_grids():
    # ldp => kl-ldp: KL between two records is at most the largest log ratio (no linear-fractional form: grids)
    r = check_direction("ldp", "kl-ldp", N=3)
    assert (r.relation, r.verdict) == ("implication", "proved")
    assert r.certificate and all(SKIPPED in i.note for i in r.instances)


def test_a_proof_without_certificate_is_still_searched(monkeypatch):
    # enhanced beta-likeness => mult-t-closeness fails on a finer grid; a "proof" carrying no certificate does not
    # spare the search, so the witness still contradicts it (the engine error of test_checkedge)
    monkeypatch.setattr(prove, "check_implication",
                        lambda *a, **k: prove.ProofResult(verdict="proved", method="no certificate"))
    try:
        check_direction("enhanced-beta-likeness", "mult-t-closeness", N=3)
    except RuntimeError as exc:
        assert "a bug in the prover" in str(exc)
    else:
        raise AssertionError("the witness beside a proof without certificate was not reported")


def test_harvest_recheck_rejects_a_lowered_bound(capsys):
    r = prove.check_implication("ldp", "kl-ldp", None)
    certs = list(certificates_in(r.details))
    assert certs
    good = [{"sources": ["test"], "certificate": c} for c in certs]
    assert recheck(good, budget=120) == 0
    forged = copy.deepcopy(good[0])
    forged["certificate"]["upper"] = f"({forged['certificate']['upper']})/2"   # half of a tight bound: false
    assert recheck([forged], budget=120) == 1
    assert "NOT ACCEPTED" in capsys.readouterr().out


def test_a_part_with_a_parameter_neither_side_states_is_read():
    # the symbols matrix's kt-closeness(k=k1) => kl-dp composes through dp => kl-dp (chord): that part's domain keeps
    # the claim's conditions on k1, which neither dp nor kl-dp states; the checker reads them (declared integer) and
    # an undeclared name stays unreadable
    r = prove.check_implication("dp", "kl-dp", None)
    cert = next(c for c in certificates_in(r.details) if c["method"] == "chord")
    with_k = copy.deepcopy(cert)
    with_k["symbols"]["k1"] = "integer"
    with_k["domain"] += ["k1 >= 1", "k1 <= N - 1"]
    assert recheck([{"sources": ["test"], "certificate": with_k}], budget=120) == 0
    undeclared = copy.deepcopy(cert)
    undeclared["domain"] += ["k9 >= 1"]
    assert recheck([{"sources": ["test"], "certificate": undeclared}], budget=120) == 1


@pytest.mark.parametrize("name,compares,params", [
    ("kl-dp", "removal", {}), ("kl-ldp", "pairs", {}), ("renyi-dp", "removal", {"alpha": 2}),
    ("renyi-closeness", "class", {"alpha": 2}), ("kl-closeness", "class", {}), ("tv-dp", "removal", {})])
def test_finiteness_without_the_level_agrees_with_brute_force(name, compares, params):
    # the grid search asks a divergence only whether its level is finite: KL and Renyi are infinite exactly where a
    # compared pair puts mass where the other has none (tests/brute.py's pairs, literally); total variation never
    import random

    import brute
    from implgraph.core.concrete import ConcreteTable
    from implgraph.definitions import get
    rng = random.Random(7)
    d = get(name)
    seen = set()
    for _ in range(60):
        n = rng.choice([2, 3, 4])
        rows = [[Fraction(rng.choice([0, 1, 2, 3]), 3)] for _ in range(n)]
        rows = [[v, 1 - v] for (v,) in rows]
        classes = ["E1"] * (n - 1) + ["E2"] if compares == "class" else None
        ct = ConcreteTable.from_fractions(rows, classes=classes)
        want = name == "tv-dp" or not any(a > 0 and b == 0 for x, y in brute._pairs_of(rows, compares, classes)
                                         for a, b in zip(x, y))
        assert d.concrete_finite(ct, **params) is want
        seen.add(want)
    # (a class's mean puts mass only where the table's does: a class divergence is finite on every table)
    assert seen == ({True} if name == "tv-dp" or compares == "class" else {True, False})
