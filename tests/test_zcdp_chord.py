"""ldp => zcdp-ldp with the tight f eps tanh(eps/2), for every N (docs/arguments/zcdp-chord.md).

Hand derivations.

- U in ldp's raw level T = e^eps: ln T (T - 1)/(T + 1) = eps (e^eps - 1)/(e^eps + 1) = eps tanh(eps/2)
  (tanh(u) = (e^(2u) - 1)/(e^(2u) + 1) at u = eps/2). At T = 2: ln 2/3 = 0.23105; T = 3: ln 3/2 = 0.54931.
- Randomized response at T, x = (T, 1)/(T + 1), y = (1, T)/(T + 1): KL(x || y) = T/(T + 1) ln T - 1/(T + 1) ln T =
  ln T (T - 1)/(T + 1) = U; its zero-concentrated level is U (at least KL, at most U), which the brute force
  (tests/brute.py's zcdp_mp, D_alpha/alpha on a grid of orders and the KL limit) reproduces.
- lip => zcdp-ldp by composition: lip at T confines every two records' ratio to h = min(T^2, N (T - 1) + 1) (the
  product argument: b <= T m and m <= T a give b/a <= T^2; the mean m >= (b + (N - 1) a)/N gives
  b/a <= N (T - 1) + 1), and U is increasing in T, so B <= U(h) = (h - 1) ln h/(h + 1): an upper bound only (the
  table attaining h is not randomized response, so tightness is not derived).
"""

from __future__ import annotations

import copy
import math
import random
from fractions import Fraction as F

import pytest
import sympy

import brute
from implgraph.certify import check_certificate
from implgraph.definitions import get
from implgraph.engines.prove import check_implication
from implgraph.prover.arguments import zcdp_chord


def _by_hand(T):
    return math.log(T) * (T - 1) / (T + 1)


@pytest.fixture(scope="module")
def ldp():
    return check_implication("ldp", "zcdp-ldp", max_n=3)


def test_ldp_zcdp_is_proved_tight_with_eps_tanh(ldp):
    assert ldp.verdict == "proved" and ldp.method == "zcdp-chord" and ldp.tightness == "tight"
    (eps,) = ldp.tight.free_symbols
    assert str(eps) == "eps"
    assert sympy.simplify((ldp.tight - eps * sympy.tanh(eps / 2)).rewrite(sympy.exp)) == 0


@pytest.mark.parametrize("T,value", [(2, 0.2310490601866484), (3, 0.5493061443340549)])
def test_u_at_hand_values(T, value):
    assert float(zcdp_chord.upper(sympy.Integer(T))) == pytest.approx(value, rel=1e-12)
    assert _by_hand(T) == pytest.approx(value, rel=1e-12)


@pytest.mark.parametrize("T", [F(3, 2), F(2), F(3), F(5), F(10)])
def test_randomized_response_reaches_u_by_brute_force(T):
    x, y = (T / (T + 1), 1 / (T + 1)), (1 / (T + 1), T / (T + 1))
    for u, v in ((x, y), (y, x)):
        assert float(brute.zcdp_mp(u, v)) == pytest.approx(_by_hand(float(T)), rel=1e-9)


def _pairwise_T(rows):
    """The pairwise raw level by hand: the largest ratio of two records' values in a bucket."""
    return max(a[l] / b[l] for a in rows for b in rows for l in range(len(a)))


def test_random_tables_stay_below_u():
    rng = random.Random(20261202)
    for _ in range(40):
        k = rng.choice((2, 3, 4))
        n = rng.choice((2, 3))
        rows = []
        for _ in range(n):
            w = [F(rng.randint(1, 30)) for _ in range(k)]
            rows.append(tuple(v / sum(w) for v in w))
        T = _pairwise_T(rows)
        bound = _by_hand(float(T))
        for i in range(n):
            for j in range(n):
                if i != j:
                    assert float(brute.zcdp_mp(rows[i], rows[j])) <= bound + 1e-12


def test_the_certificate_checks(ldp):
    cert = ldp.details["certificate"]
    assert cert["method"] == "zcdp-chord" and cert["tight"]
    assert check_certificate(cert).ok


@pytest.mark.parametrize("what", ["upper", "eps-squared", "family", "count", "A", "domain"])
def test_a_tampered_certificate_is_rejected(ldp, what):
    cert = copy.deepcopy(ldp.details["certificate"])
    if what == "upper":
        cert["upper"] = "T*log(T)/(T + 1)"
    elif what == "eps-squared":                 # Bun and Steinke's eps^2/2 is valid but not this lemma's U
        cert["upper"] = "log(T)**2/2"
    elif what == "family":                      # not randomized response: x = (2 T, 1)/(2 T + 1)
        cert["tightness"]["rows"][0]["value"] = "2*T/(2*T + 1)"
    elif what == "count":
        cert["tightness"]["rows"][1]["count"] = "N"
    elif what == "A":                           # lip is no pairwise ratio
        cert["A"] = {"definition": "lip", "params": {}, "family": "subset", "sides": "two-sided", "size": "1"}
    else:
        cert["domain"] = ["T > 0"]
    assert not check_certificate(cert).ok


def test_applies_reads_declarations():
    assert zcdp_chord.applies(get("ldp"), get("zcdp-ldp"))
    assert not zcdp_chord.applies(get("lip"), get("zcdp-ldp"))      # a subset level of size 1, not pairwise
    assert not zcdp_chord.applies(get("ldp"), get("ldp"))            # B declares no divergence


def test_lip_zcdp_is_proved_by_composition_an_upper_bound():
    r = check_implication("lip", "zcdp-ldp", max_n=3)
    assert r.verdict == "proved" and r.method == "composition" and r.tightness == "not derived"
    assert check_certificate(r.details["certificate"]).ok
    f = sympy.sympify(r.details["proved_f"], locals={"N": sympy.Symbol("N", integer=True, positive=True),
                                                     "eps": sympy.Symbol("eps", positive=True)})
    syms = {s.name: s for s in f.free_symbols}
    for e, n in ((0.1, 2), (0.5, 3), (1.0, 5), (2.0, 2)):
        h = min(math.exp(2 * e), n * (math.exp(e) - 1) + 1)
        assert float(f.subs({syms["eps"]: e, syms["N"]: n})) == pytest.approx(_by_hand(h), rel=1e-12)


def test_the_theorem_states_zcdp_pairs(ldp):
    from implgraph.kernel_coq.registry import COVERED, generate
    assert "zcdp-chord" in COVERED
    text = generate(ldp.details["certificate"])
    assert "pairwise_le N K x (T) ->" in text and "zcdp_pairs_le N K x (" in text
    assert "zcdp_chord_pairs N K x T Htab HA" in text


@pytest.mark.slow
@pytest.mark.skipif(not __import__("implgraph.kernel_coq.export", fromlist=["coq_available"]).coq_available(),
                    reason="Coq (Debian's coq package) is not installed")
def test_the_theorem_checks(ldp, library, tmp_path):
    from _coq import assert_kernel_checked, check_generated
    assert_kernel_checked(ldp.details["certificate"], library, tmp_path, "ldp_zcdp")
    cert = copy.deepcopy(ldp.details["certificate"])
    cert["upper"] = "T*log(T)/(T + 1)"
    assert not check_generated(cert, library, tmp_path, "ldp_zcdp_tampered")["ok"]
    # lip => zcdp-ldp: the composition's Coq theorem, product then this lemma at T = h
    lip = check_implication("lip", "zcdp-ldp", max_n=3).details["certificate"]
    assert_kernel_checked(lip, library, tmp_path, "lip_zcdp")
