"""Composition of level functions along implication paths (implgraph.map.compose)."""

import pytest
import sympy

from implgraph.map.compose import compose_chain, compositions, tightest
from implgraph.map.graph import read_node
from implgraph.core.errors import InputError
from implgraph.map.rules import Endpoint, Rule

from conftest import computed_rules

eps = sympy.Symbol("eps", real=True)
t = sympy.Symbol("t", real=True)
N = sympy.Symbol("N", integer=True)
k = sympy.Symbol("k", integer=True)


@pytest.fixture(scope="module")
def rules():
    # the verdicts the engine computes (a chain's status is its weakest link)
    return computed_rules()


@pytest.fixture(scope="module")
def by_key(rules):
    return {r.key: r for r in rules}


def hand_ldp_to_mult_t(eps_, N_):
    # Theorem 2b: eps-LDP => (1,t)-closeness, t1 = (e^eps (N-1) + 1)/N
    t1 = (sympy.exp(eps_) * (N_ - 1) + 1) / N_
    # Lemma 2.1: (1,t)-closeness => (k,t)-closeness with f(t) = t
    t2 = t1
    # Lemma 2.3 (the proof's reading): (k,t)-closeness => multiplicative t-closeness, f(t) = t
    return t2


def test_ldp_kt1_ktk_mult_t_equals_hand_composition(by_key):
    chain = [by_key["ekenstedt2022/theorem-2b"], by_key["ekenstedt2022/lemma-2.1"],
             by_key["ekenstedt2022/lemma-2.3#reading"]]
    c = compose_chain(chain)
    assert sympy.simplify(c.f - hand_ldp_to_mult_t(c.level, N)) == 0
    assert c.level.name == "eps"
    assert c.trace == ["ekenstedt2022/theorem-2b", "ekenstedt2022/lemma-2.1", "ekenstedt2022/lemma-2.3#reading"]
    assert c.status == "proved"
    # the junction unified k0 = 1 and the target's class size is the free k of Lemma 2.1's k1
    assert set(c.target) == {"k"}


@pytest.mark.parametrize("n, kk", [(10, 3), (10, 5), (6, 2)])
def test_ldp_to_mult_t_concrete(rules, n, kk):
    comps = compositions(rules, "ldp", "mult-t-closeness", target_params={"k": kk}, N=n)
    assert comps, "a chain exists"
    best = comps[tightest(comps, "mult-t-closeness")["best"][0]]
    expected = (sympy.exp(best.level) * (n - 1) + 1) / n
    assert sympy.simplify(best.f - expected) == 0
    assert "ekenstedt2022/theorem-2b" in best.trace


def test_theorem_2b_then_2a(by_key):
    c = compose_chain([by_key["ekenstedt2022/theorem-2b"], by_key["ekenstedt2022/theorem-2a"]])
    hand = sympy.log(((sympy.exp(c.level) * (N - 1) + 1) / N) ** 2)
    assert sympy.simplify(sympy.expand_log(c.f - hand, force=True)) == 0


def test_equivalence_round_trip_is_identity(by_key):
    # Theorem 4.1: (kClo,t)-closeness => (N - kClo, ln t)-DP => (kClo, e^eps)-closeness
    c = compose_chain([by_key["ekenstedt2022/theorem-4.1"], by_key["ekenstedt2022/theorem-4.1#converse"]])
    assert sympy.simplify(c.f - c.level) == 0


def test_unification_failure_gives_no_chain(rules):
    # Theorem 2a needs (1,t)-closeness; (3,t)-closeness reaches no LDP node (Theorem 3b says =/=>)
    assert compositions(rules, "kt-closeness", "ldp", source_params={"k": 3}, N=10) == []


def test_refuted_claims_are_never_composed(rules):
    comps = compositions(rules, "ldp", "kt-closeness", target_params={"k": 4}, N=10)
    assert comps
    for c in comps:
        assert "ekenstedt2022/theorem-3a" not in c.trace      # refuted (f too small)
        assert c.status == "proved"


def _rule(key, f, verdict="proved"):
    return Rule(claim=key, kind="implies", basis="printed", a=Endpoint("kt-closeness", (), "table", t),
                b=Endpoint("ldp", (), "table", eps), f=f, when=(), kinds={}, verdict=verdict)


@pytest.mark.parametrize("f1, f2, best", [
    (t, 2 * t, [0]),                     # t <= 2t for t >= 1: the first dominates
    (3 * t, 2 * t, [1]),
    (t ** 2, 2 * t, [0, 1]),             # t^2 <= 2t only for t <= 2: neither dominates
])
def test_tightest(f1, f2, best):
    rules = [_rule("x/one", f1), _rule("x/two", f2)]
    comps = compositions(rules, "kt-closeness", "ldp")
    assert len(comps) == 2
    res = tightest(comps, "ldp")
    assert res["best"] == best
    if len(best) == 2:
        assert "neither dominates" in res["note"]


def test_weakest_status_carried():
    r1 = _rule("x/a", t, verdict="verified-bounded")
    c = compose_chain([r1])
    assert c.status == "verified-bounded"


@pytest.mark.parametrize("text, k_, expected", [
    ("ldp", None, ("ldp", {})),
    ("kt-closeness[k=3]", None, ("kt-closeness", {"k": 3})),
    ("kt-closeness", 4, ("kt-closeness", {"k": 4})),
    ("kdp[2]@class", None, ("kdp@class", {"k": 2})),
    ("mult-t-closeness", 2, ("mult-t-closeness", {"k": 2})),
])
def test_parse_node(text, k_, expected):
    assert read_node(text, k_) == expected


@pytest.mark.parametrize("text", ["nosuch", "kt-closeness[k=x]", "ldp[k=2]", "kt closeness"])
def test_parse_node_bad(text):
    with pytest.raises(InputError):
        read_node(text)


def test_level_domain_in_the_definitions_units():
    # a plugin whose level is ratio - 1 (basic beta-likeness): its strongest level is beta = 0, not 1
    from _plugin_fixtures import BasicBetaLikeness, registered
    beta = sympy.Symbol("beta", real=True)
    with registered(BasicBetaLikeness):
        r = Rule(claim="x/beta", kind="implies", basis="printed", a=Endpoint("beta-likeness", (), "table", beta),
                 b=Endpoint("kt-closeness", (("k", sympy.Integer(1)),), "table", t), f=beta + 1, when=(), kinds={},
                 verdict="proved")
        c = compose_chain([r])
    assert sympy.Ge(c.level, 0) in c.conditions or (c.level >= 0) in c.conditions
    assert not any(sympy.sympify(x) == sympy.Ge(c.level, 1) for x in c.conditions)


@pytest.mark.parametrize("text", ["mult-t-closeness(k=3)", "mult-t-closeness[k=3]", "mult-t-closeness[3]"])
def test_parse_node_class_size_both_syntaxes(text):
    # one grammar with check-edge (NAME(k=3)); NAME[k=3] is the former syntax, kept as an alias
    assert read_node(text) == ("mult-t-closeness", {"k": 3})


@pytest.mark.parametrize("target", ["mult-t-closeness(k=3)", "mult-t-closeness[k=3]"])
def test_cli_path_with_a_class_size(capsys, target):
    # Theorem 2b at N = 10: t = (9 e^eps + 1)/10; Lemma 2.1 and Lemma 2.3's reading (classes of >= 3
    # records) keep the level: the composed f is (9 e^eps + 1)/10
    import json
    from implgraph.cli import main
    assert main(["path", "ldp", target, "--N", "10", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    fs = [sympy.sympify(c["f"], locals={"eps": eps}) for c in out["compositions"]]
    assert any(sympy.simplify(f - (9 * sympy.exp(eps) + 1) / 10) == 0 for f in fs)
