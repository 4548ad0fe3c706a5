"""The prover's ``composition`` through an intermediate with parameters (prover/arguments/composition.py): which
parameters it takes, the upper bounds it proves towards kl-closeness and renyi-closeness(alpha=2), their certificates
and forgeries of them.

The f values are derived by hand:

- Pinsker: KL(x || y) <= d gives TV(x, y) <= sqrt(d/2) (between records, a class and the table, or the table and the
  table without a record);
- (eps, delta) between two records gives TV <= (e^eps - 1 + 2 delta)/(e^eps + 1) (the hockey-stick at gamma = e^eps
  likewise with delta its level);
- TV between every two records <= t gives a class's TV distance from the table <= (N - 1) t/N (the class's mean and
  the table's share the class's records);
- a class's TV distance from the table T_c (ratios in [0, N]) gives KL <= N log N/(N - 1) T_c and Renyi-2
  <= log(1 + N T_c) (the chords of the convex phi; T_c <= (N - 1)/N always).

Composed: kl-closeness => renyi-closeness(2) <= log(1 + N min(sqrt(d/2), (N - 1)/N)); kl-ldp => renyi-closeness(2)
<= log(1 + (N - 1) min(1, sqrt(d/2))); eps-delta-ldp(delta=1/10) => kl-closeness <= log N (e^eps - 4/5)/(e^eps + 1);
delta-ldp(eps=log 2) => kl-closeness <= log N (1 + 2 delta)/3. The proved f are also checked against tests/brute.py's
independent levels on random tables.
"""

from __future__ import annotations

import copy
import math
import random
from fractions import Fraction

import pytest

from _forge import edited
import sympy

import brute
from implgraph import definitions
from implgraph.certify import check_certificate
from implgraph.core.formula import Word
from implgraph.engines.prove import check_implication
from implgraph.prover.arguments.composition import _param_choices

N, d, eps, delta = (sympy.Symbol(s) for s in ("N", "d", "eps", "delta"))
R2 = {"alpha": "2"}


def _proved(a, b, a_params=None, b_params=None):
    r = check_implication(a, b, a_params=a_params or {}, b_params=b_params or {})
    assert r.verdict == "proved" and r.method == "composition", r.evidence
    assert r.tight is None and not r.details.get("at_ceiling"), r.evidence
    f, how = r.upper_f
    assert "tightness not derived" in how
    return r, sympy.sympify(f, locals={"N": N, "d": d, "eps": eps, "delta": delta})


def _at(f, **values):
    return float(f.subs({sympy.Symbol(k): v for k, v in values.items()}))


# -- the parameters of the intermediate -------------------------------------------------------------------------------

def test_parameters_stated_by_b_then_a_then_declared():
    get = definitions.get
    # renyi-ldp's alpha: B's where B states one, else A's
    assert _param_choices(get("renyi-ldp"), get("renyi-dp"), get("renyi-closeness"), {"alpha": 3}, {"alpha": 5}) \
        == [{"alpha": 5}]
    assert _param_choices(get("renyi-ldp"), get("renyi-dp"), get("kl-closeness"), {"alpha": 3}, {}) == [{"alpha": 3}]
    # nothing stated: the declared values (the same at every N), a word's default
    assert _param_choices(get("renyi-ldp"), get("kl-dp"), get("kl-closeness"), {}, {}) == [{"alpha": 2}]
    assert _param_choices(get("eps-delta-ldp"), get("kl-dp"), get("kl-closeness"), {}, {}) \
        == [{"delta": Fraction(1, 10)}]
    assert _param_choices(get("emd-t-closeness"), get("kl-dp"), get("kl-closeness"), {}, {}) \
        == [{"ground": Word("equal")}]
    # values that depend on N (a class size 1..N) are not guessed
    assert _param_choices(get("alpha-k-anonymity"), get("kl-dp"), get("kl-closeness"), {}, {}) == []


# -- the bounds, derived by hand ------------------------------------------------------------------------------------

def test_kl_closeness_to_renyi2_closeness_pinsker_then_chord():
    r, f = _proved("kl-closeness", "renyi-closeness", b_params=R2)
    cert = r.details["certificate"]
    assert cert["via"]["definition"] == "emd-t-closeness" and cert["via"]["params"] == {"ground": "equal"}
    for n, dv in [(4, Fraction(1, 8)), (3, Fraction(1, 50)), (5, 2), (2, Fraction(1, 2))]:
        want = math.log(1 + n * min(math.sqrt(dv / 2), (n - 1) / n))
        assert _at(f, N=n, d=dv) == pytest.approx(want, rel=1e-12)
    assert _at(f, N=4, d=Fraction(1, 8)) == pytest.approx(math.log(2))     # sqrt(1/16) = 1/4: log(1 + 1)


def test_kl_ldp_to_renyi2_closeness():
    _, f = _proved("kl-ldp", "renyi-closeness", b_params=R2)
    for n, dv in [(4, Fraction(1, 8)), (3, Fraction(1, 50)), (6, 3)]:
        assert _at(f, N=n, d=dv) == pytest.approx(math.log(1 + (n - 1) * min(1, math.sqrt(dv / 2))), rel=1e-12)


def test_kl_dp_and_renyi_dp_reach_both_closeness_levels_below_the_ceiling():
    for a, a_params in [("kl-dp", {}), ("renyi-dp", R2)]:
        for b, b_params in [("kl-closeness", {}), ("renyi-closeness", R2)]:
            _, f = _proved(a, b, a_params, b_params)
            assert _at(f, N=4, d=Fraction(1, 100)) < math.log(4) - 1e-3      # below the ceiling log N
            assert _at(f, N=4, d=50) == pytest.approx(math.log(4))          # and the ceiling far out (a Min)


def test_kl_dp_to_kl_closeness_value():
    # Pinsker on removal: TV(P, P_-i) <= sqrt(d/2); x_i - P = (N - 1)(P - P_-i), so a class's TV from the table (at
    # most its records' average TV from it) <= (N - 1) sqrt(d/2), capped at (N - 1)/N; then the KL chord
    _, f = _proved("kl-dp", "kl-closeness")
    n, dv = 4, Fraction(1, 200)
    want = n * math.log(n) / (n - 1) * min((n - 1) / n, (n - 1) * math.sqrt(dv / 2))
    assert _at(f, N=n, d=dv) == pytest.approx(want, rel=1e-12)


def test_eps_delta_ldp_and_delta_ldp_to_kl_closeness():
    _, f = _proved("eps-delta-ldp", "kl-closeness", a_params={"delta": "1/10"})
    for n, e in [(4, 0), (5, 1), (3, Fraction(1, 3))]:
        want = math.log(n) * (math.exp(e) - 1 + 2 / 10) / (math.exp(e) + 1)
        assert _at(f, N=n, eps=e) == pytest.approx(want, rel=1e-12)
    _, f = _proved("delta-ldp", "kl-closeness", a_params={"eps": "log(2)"})
    for n, dl in [(4, 0), (5, Fraction(1, 4)), (3, Fraction(9, 10))]:
        assert _at(f, N=n, delta=dl) == pytest.approx(math.log(n) * (1 + 2 * dl) / 3, rel=1e-12)


def test_eps_delta_dp_to_renyi2_closeness_is_below_the_ceiling_for_small_n_only():
    # (0, 1/10)-DP on removal holds on every table of N >= 10 records: there the bound is the ceiling log N
    _, f = _proved("eps-delta-dp", "renyi-closeness", a_params={"delta": "1/10"}, b_params=R2)
    assert _at(f, N=4, eps=0) < math.log(4) - 1e-3
    for n in (10, 12, 40):
        assert _at(f, N=n, eps=0) == pytest.approx(math.log(n))


@pytest.mark.parametrize("seed", range(3))
def test_proved_bounds_hold_on_random_tables(seed):
    """Each proved f at least B's level, by brute force on random tables (floats, tolerance 1e-9)."""
    _, f_close = _proved("kl-closeness", "renyi-closeness", b_params=R2)
    _, f_ldp = _proved("kl-ldp", "renyi-closeness", b_params=R2)
    rng = random.Random(seed)
    for _ in range(40):
        n = rng.randint(2, 5)
        rows = brute.random_rows(rng, n, rng.randint(2, 3))
        labels = brute.random_labels(rng, n, 3)
        s = brute.renyi_level_sum(rows, 2, "class", labels)
        renyi2 = math.log(float(s))
        kl_c = brute.kl_level_float(rows, "class", labels)
        assert renyi2 <= _at(f_close, N=n, d=kl_c) + 1e-9
        kl_p = brute.kl_level_float(rows, "pairs")
        if kl_p != brute.INF:
            assert renyi2 <= _at(f_ldp, N=n, d=kl_p) + 1e-9


# -- the certificate and forgeries ------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def cert():
    r = check_implication("kl-closeness", "renyi-closeness", b_params=R2)
    return r.details["certificate"]


def test_certificate_rechecked(cert):
    assert cert["method"] == "composition"
    assert [p["B"]["params"] for p in cert["parts"][:1]] == [{"ground": "equal"}]
    assert cert["parts"][1]["A"]["params"] == {"ground": "equal"}
    assert check_certificate(cert).ok


def _edit(cert, path, value):
    return edited(cert, path, value)


@pytest.mark.parametrize("what, path, value", [
    ("the first part at other params", ["parts", 0, "B", "params"], {"ground": "ordered"}),
    ("the second part at other params", ["parts", 1, "A", "params"], {"ground": "ordered"}),
    ("C at other params", ["via", "params"], {"ground": "ordered"}),
    ("another h", ["parts", 0, "upper"], "Min(T/2, (N - 1)/N)"),
    ("another U", ["upper"], "log(N*Min(sqrt(T)/2, (N - 1)/N) + 1)"),
])
def test_forged_certificate_rejected(cert, what, path, value):
    assert not check_certificate(_edit(cert, path, value)).ok, what


@pytest.mark.parametrize("keep_distance", [True, False])
def test_forged_certificate_with_other_params_everywhere_rejected(cert, keep_distance):
    """C's params changed in ``via`` and in both parts alike: the parts' own lemmas, re-checked at the stated
    params, reject them (emd-t-closeness as registered at ground=ordered is not the total variation distance these
    parts' steps are about, whatever the forged side says of its distance)."""
    forged = copy.deepcopy(cert)
    for side in (forged["via"], forged["parts"][0]["B"], forged["parts"][1]["A"]):
        side["params"] = {"ground": "ordered"}
        if not keep_distance:
            side.pop("distance", None)
    rep = check_certificate(forged)
    assert not rep.ok
    assert {w for w, ok, _ in rep.steps if not ok} >= {"part 1 (tv-distance) re-checked",
                                                       "part 2 (ceiling-chord) re-checked"}


def test_at_least_reads_forms():
    from implgraph.certify.domain import Domain
    from implgraph.certify.lemmas.composition import at_least
    dom = Domain({"symbols": {"N": "integer", "T": "real"}, "domain": ["T > 0", "N >= 2"]})
    assert at_least("Min(sqrt(2)*sqrt(T)/2, (N - 1)/N)", 0, dom, strict=True)[0]
    assert at_least("log(N*Min(sqrt(T), 1) + 1)", 0, dom)[0]
    assert at_least("(N - 1)*sqrt(exp(T) - 1)/sqrt(exp(T) + 3)", 0, dom, strict=True)[0]
    assert not at_least("sqrt(T) - 1", 0, dom)[0]
    assert not at_least("Max(T - 1, -1)", 0, dom)[0]
    assert not at_least("log(T)", 0, dom)[0]
