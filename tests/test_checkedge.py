"""check-edge: both directions, exact witnesses, tight functions, bad input."""

from fractions import Fraction

import pytest
import sympy

from implgraph.definitions.nodes import parse_node
from implgraph.engines.checkedge import check_edge
from implgraph.engines.direction import check_direction
from implgraph.engines.fit import fit_rational
from implgraph.engines.lf import partitions
from implgraph.engines.recheck import is_witness
from implgraph.cli import main
from implgraph.core.concrete import ConcreteTable
from implgraph.definitions import Definition, get
from implgraph.core.errors import InputError
from implgraph.definitions.levels import optimal_level

import brute
from _plugin_fixtures import BasicBetaLikeness, example_class, registered

eps, t, delta = sympy.symbols("eps t delta", positive=True)


def _table(w):
    return ConcreteTable.from_fractions([[Fraction(v) for v in r] for r in w["rows"]], classes=w["classes"])


def test_partitions():
    assert partitions(4) == [(3, 1), (2, 2), (2, 1, 1), (1, 1, 1, 1)]
    assert partitions(3, 1) == [(3,), (2, 1), (1, 1, 1)]


def test_parse_node():
    n = parse_node("kt-closeness(k=2)")
    assert n.name == "kt-closeness" and n.param_dict == {"k": 2}
    assert parse_node("kdp(k=N-1)").at({sympy.Symbol("N", integer=True, positive=True): 5}) == {"k": 4}
    with pytest.raises(InputError, match="needs parameter k"):
        parse_node("kt-closeness")
    with pytest.raises(InputError, match="no parameter 'j'"):
        parse_node("kt-closeness(j=2)")
    with pytest.raises(InputError, match="unknown definition 'nope'"):
        parse_node("nope")


def test_node_text_and_the_bracket_alias():
    from implgraph.definitions.nodes import node_text
    assert node_text("kt-closeness", {"k": 3}) == "kt-closeness(k=3)"
    assert node_text("kdp", [("k", 2)], "@class") == "kdp(k=2)@class"
    assert node_text("ldp", {}) == "ldp"
    # NAME[k=3] reads as NAME(k=3); a class-based definition's k is its minimum class size
    assert parse_node("kt-closeness[k=3]") == parse_node("kt-closeness(k=3)")
    m = parse_node("mult-t-closeness[k=3, max=4]")
    assert m.class_dict == {"min_size": 3, "max_size": 4} and m.label() == "mult-t-closeness(k=3, max=4)"


def test_kdp1_dp_equivalence():
    # Lemma 3.3 of ekenstedt2022: (1,eps)-DP <=> eps-DP, with f = g = identity
    r = check_edge("kdp(k=1)", "dp", N=3)
    assert r.kind == "equivalence"
    assert sympy.sympify(r.forward.tight, locals={"eps": eps}) == eps
    assert sympy.sympify(r.backward.tight, locals={"eps": eps}) == eps


def test_ldp_to_kt1_tight_is_theorem_2b():
    # Theorem 2 of ekenstedt2022: t = (e^eps (N - 1) + 1)/N; at N = 4: (3 e^eps + 1)/4
    d = check_direction("ldp", "kt-closeness(k=1)", N=4, prover=False)
    assert d.relation == "implication" and d.verdict == "verified-bounded"
    assert sympy.simplify(sympy.sympify(d.tight, locals={"eps": eps}) - (3 * sympy.exp(eps) + 1) / 4) == 0
    assert d.tight_upto is None


@pytest.mark.parametrize("k, N", [(2, 4), (2, 5), (3, 6)])
def test_count_level_b_counts_only_partitions_where_a_holds(k, N):
    # (alpha,k)-anonymity is infinite on a partition with a class of fewer than k records, so a table
    # satisfying it at any level has every class of >= k records: k-anonymity's tight f is k (a
    # partition into classes of exactly k and N - k >= k records attains it), not the weakest level 1
    d = check_direction(f"alpha-k-anonymity(k={k})", "k-anonymity", N=N, prover=False)
    assert d.relation == "implication"
    assert sympy.sympify(d.tight) == k
    assert not d.trivial


def test_a_partition_where_no_table_satisfies_a_gives_b_no_floor():
    # (alpha,3)-anonymity is infinite on every partition of N = 4 records into >= 2 classes (one has < 3 records):
    # no table satisfies A, so B's floor (level 0, (alpha,1)-anonymity's best) is no tight value; before stop 29
    # each instance reported 0 and check-edge fitted "tight f = 0" (false at N = 6: classes [3, 3], f = alpha)
    # (since stop 29 the direction says so: no table is searched where A is finite)
    # (partitions into >= 2 classes: the assumption; over every partition the table of one class satisfies A, below)
    d = check_direction("alpha-k-anonymity(k=3)", "alpha-k-anonymity(k=1)", N=4, prover=False, min_classes=2)
    assert d.relation == "unknown" and d.tight is None
    # one class of N >= 3 records: both levels are the class's largest share of a value, so the tight value at A's raw
    # level 3/2 (alpha = 1/2) is 3/2 (alpha = 1/2 again)
    d = check_direction("alpha-k-anonymity(k=3)", "alpha-k-anonymity(k=1)", N=4, prover=False)
    assert d.relation == "implication" and ("3/2", "3/2") in d.instances[-1].samples
    from implgraph.definitions import get
    from implgraph.engines.lf import partitions_for, tight_at
    from implgraph.engines.instance import lf_model
    d = get("alpha-k-anonymity")

    def models(n):
        return [(s, lf_model(d, n, s, 2, k=3), lf_model(d, n, s, 2, k=1)) for s in partitions_for(n)]
    assert tight_at(d, d, models(4), Fraction(3, 2), 4, 2, True)[0] is None
    assert tight_at(d, d, models(6), Fraction(3, 2), 6, 2, True)[0] == Fraction(3, 2)   # [3, 3]: B's level is A's


def test_prover_upgrades_to_every_N():
    # implgraph.engines.prove (issue 4) has an argument for every N: the vertex bound ((N - 1) e^eps + 1)/N
    d = check_direction("ldp", "kt-closeness(k=1)", N=3)
    N = sympy.Symbol("N", integer=True, positive=True)
    assert d.verdict == "proved" and d.bound == "every N"
    assert sympy.simplify(sympy.sympify(d.tight_all_n, locals={"eps": eps, "N": N})
                          - ((N - 1) * sympy.exp(eps) + 1) / N) == 0


def test_kt1_to_ldp_tight_is_t_squared_on_a_range():
    # Theorem 2 (a): e^eps = t^2 ; at N = 4 the square holds for t <= 3 and is capped beyond by
    # N (t - 1) + 1 = 4 t - 3 (t^2 <= 4 t - 3 iff (t - 1)(t - 3) <= 0): the prover's tight f, checked
    # against the exact linear programs at three levels of each N
    d = check_direction("kt-closeness(k=1)", "ldp", N=4)
    assert d.relation == "implication" and d.verdict == "proved"
    f = sympy.sympify(d.tight, locals={"t": t})
    assert sympy.simplify(f.subs(t, 2) - 2 * sympy.log(2)) == 0 and sympy.simplify(f.subs(t, 3) - sympy.log(9)) == 0
    assert sympy.simplify(f.subs(t, 4) - sympy.log(13)) == 0
    # (A's most private level 1, where both sides are at their best, is not one of the three)
    assert [s for s, _ in d.instances[-1].samples] == ["9/8", "2", "9"]
    assert dict(d.instances[-1].samples)["9"] == "33"        # 4*9 - 3 < 81


def test_a_proved_f_that_disagrees_with_the_linear_programs_is_an_error(monkeypatch):
    # the comparison can fail: a prover answering 2 log t for (1,t)-closeness => LDP is wrong already at
    # N = 2, t = 9/8 (raw t^2 = 81/64 against the exact 2 t - 1 = 5/4), and check-edge says so instead of showing
    # either
    from implgraph.engines import direction
    real = direction._prover_answer

    def wrong(*args):
        r = real(*args)
        r.tight = 2 * sympy.log(t)
        return r
    monkeypatch.setattr(direction, "_prover_answer", wrong)
    with pytest.raises(RuntimeError, match="N = 2.* level 9/8 is 5/4, the tight f proved for every N gives 81/64"):
        check_direction("kt-closeness(k=1)", "ldp", N=4)


def test_kt1_to_ldp_without_the_prover_fits_the_square():
    # without the prover the samples are fitted: 2 log t, for t <= 3 (piecewise beyond)
    d = check_direction("kt-closeness(k=1)", "ldp", N=4, prover=False)
    assert sympy.simplify(sympy.sympify(d.tight, locals={"t": t}) - 2 * sympy.log(t)) == 0
    assert d.tight_upto == "3"


def test_false_conjecture_gets_exact_witness():
    # the conjecture t = (e^eps (N - 2) + 1)/(N - 1) is too small: at N = 2 it says t = 1
    d = check_direction("ldp", "kt-closeness(k=1)", f="(exp(eps)*(N - 2) + 1)/(N - 1)", N=3)
    assert d.verdict == "refuted" and d.f_verdict == "refuted"
    w = d.witness
    assert w["rows"] == [["8/17", "9/17"], ["9/17", "8/17"]]
    ct = _table(w)
    # hand check: ldp ratio (9/17)/(8/17) = 9/8; kt(1): mean 1/2, (1/2)/(8/17) = 17/16 > f = 1
    assert optimal_level(ct, "ldp").value == sympy.log(sympy.Rational(9, 8))
    assert optimal_level(ct, "kt-closeness", k=1).value == sympy.Rational(17, 16)
    assert is_witness(get("ldp"), {}, get("kt-closeness"), {"k": 1}, ct, a_raw=Fraction(9, 8), f_raw=1)


def test_true_conjecture_is_not_refuted():
    d = check_direction("ldp", "kt-closeness(k=1)", f="(exp(eps)*(N - 1) + 1)/N", N=4)
    assert d.f_verdict in ("holds-at-samples", "proved") and d.verdict != "refuted"


def test_non_implication_witness_rechecked():
    # Theorem 1 of ekenstedt2022: multiplicative t-closeness =/=> eps-LDP
    d = check_direction("mult-t-closeness", "ldp", N=3)
    assert d.relation == "non-implication" and d.verdict == "refuted"
    ct = _table(d.witness)
    assert optimal_level(ct, "ldp").value is sympy.oo
    assert optimal_level(ct, "mult-t-closeness").value.is_finite


def test_when_binds_parameters():
    # Theorem 3 (b): (k,t)-closeness =/=> LDP for k > 1
    d = check_direction("kt-closeness(k=k)", "ldp", when=["k >= 2"], N=3)
    assert d.relation == "non-implication"
    assert all(i.point["k"] >= 2 for i in d.instances)


def test_plugin_equivalence_with_exp():
    with registered(example_class()):
        r = check_edge("delta-disclosure", "mult-t-closeness", N=3)
    assert r.kind == "equivalence"
    assert sympy.sympify(r.forward.tight, locals={"delta": delta}) == sympy.exp(delta)
    assert sympy.sympify(r.backward.tight, locals={"t": t}) == sympy.log(t)


def test_fit_rational():
    pts = [(Fraction(a), Fraction(a) * 3 / 4 + Fraction(1, 4)) for a in (1, 2, 3, 5)]
    expr, upto = fit_rational(pts)
    a = sympy.Symbol("a", positive=True)
    assert sympy.simplify(expr - (3 * a + 1) / 4) == 0 and upto is None
    # a square up to 3, then capped at 9: fitted on the prefix
    pts = [(Fraction(a), min(Fraction(a) ** 2, Fraction(9))) for a in (1, 2, Fraction(5, 2), 3, 5, 9)]
    expr, upto = fit_rational(pts)
    assert sympy.simplify(expr - a ** 2) == 0 and upto == "3"


# -- bad input: one line, exit 2 ----------------------------------------------------------------

def _cli(capsys, *argv):
    rc = main(list(argv))
    err = capsys.readouterr().err
    return rc, err


def test_cli_unknown_definition(capsys):
    rc, err = _cli(capsys, "check-edge", "nope", "ldp")
    assert rc == 2 and err.count("\n") == 1 and "unknown definition 'nope'" in err


def test_cli_malformed_f(capsys):
    rc, err = _cli(capsys, "check-edge", "ldp", "dp", "--f", "eps +* 2")
    assert rc == 2 and err.count("\n") == 1 and "cannot parse formula" in err
    rc, err = _cli(capsys, "check-edge", "ldp", "dp", "--f", "__import__('os')")
    assert rc == 2 and err.count("\n") == 1


class Raising(Definition):
    name = "raising-plugin"
    level_symbol = "r"

    def concrete(self, ct):
        raise RuntimeError("boom")


class NonLevel(Definition):
    name = "nonlevel-plugin"
    level_symbol = "r"

    def concrete(self, ct):
        return "high"


def test_cli_plugin_that_raises(capsys):
    with registered(Raising):
        rc, err = _cli(capsys, "check-edge", "raising-plugin", "ldp", "--N", "2")
    assert rc == 2 and err.count("\n") == 1
    assert "raising-plugin raised RuntimeError: boom" in err


def test_cli_plugin_returning_a_non_level(capsys):
    with registered(NonLevel):
        rc, err = _cli(capsys, "check-edge", "nonlevel-plugin", "ldp", "--N", "2")
    assert rc == 2 and err.count("\n") == 1
    assert "returned 'high', not a level" in err


def test_cli_check_edge_json(capsys):
    import json
    rc = main(["check-edge", "kdp(k=1)", "dp", "--N", "3", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["kind"] == "equivalence"
    assert out["forward"]["verdict"] in ("verified-bounded", "proved")
    assert out["forward"]["tight"] == "eps"


class PlainLDP(Definition):
    """A definition without linear-fractional forms: check-edge falls back to a grid of tables."""

    name = "plain-ldp"
    level_symbol = "eps"
    scale = "log"

    def concrete(self, ct):
        return get("ldp").concrete(ct)


def test_definition_without_forms_uses_the_grid():
    with registered(PlainLDP):
        d = check_direction("mult-t-closeness", "plain-ldp", N=3, prover=False)
        assert d.relation == "non-implication"
        assert "grid" in d.instances[0].note
        assert optimal_level(_table(d.witness), "ldp").value is sympy.oo
        back = check_direction("plain-ldp", "mult-t-closeness", N=3, prover=False)
    assert back.relation == "unknown" and back.verdict == "unknown"


def test_cli_malformed_when(capsys):
    rc, err = _cli(capsys, "check-edge", "ldp", "kt-closeness(k=k)", "--when", "k >>= 2")
    assert rc == 2 and err.count("\n") == 1 and "cannot parse" in err
    rc, err = _cli(capsys, "check-edge", "ldp", "dp", "--N", "200000")     # above the bound: 100000
    assert rc == 2 and err.count("\n") == 1 and "--N 200000" in err
    rc, err = _cli(capsys, "check-edge", "ldp", "dp", "--N", "1")
    assert rc == 2 and err.count("\n") == 1 and "--N 1" in err


def test_tight_f_fitted_over_N():
    # LDP => eps-DP: the worst table has one record at T a and the others at a (binary: a = 1/(T + 1)),
    # so e^eps = (T + N - 1)/N; fitted through the exact values at N = 2..5
    d = check_direction("ldp", "dp", N=5, prover=False)
    N = sympy.Symbol("N", integer=True, positive=True)
    assert sympy.simplify(sympy.sympify(d.tight_in_N, locals={"eps": eps, "N": N})
                          - sympy.log((sympy.exp(eps) + N - 1) / N)) == 0


def test_fit_rational_monic_denominator():
    a = sympy.Symbol("a", positive=True)
    expr, upto = fit_rational([(Fraction(n), Fraction(n - 1, n)) for n in range(2, 7)])
    assert sympy.simplify(expr - (a - 1) / a) == 0 and upto is None


def test_definitions_without_forms_into_a_bounded_level():
    # every table has frequency l-diversity >= 1 (its weakest level): LDP => it trivially with f = 1;
    # the conjecture f = 2 is refuted by a grid table: ldp 0 (equal rows), l = 1/max(0, 1) = 1 < 2
    if "frequency-l-diversity" not in __import__("implgraph").definitions.names():
        pytest.skip("frequency-l-diversity is not registered")
    d = check_direction("ldp", "frequency-l-diversity", N=2, prover=False)
    assert d.relation == "implication" and d.trivial
    d = check_direction("ldp", "frequency-l-diversity", f="2", N=2, prover=False)
    assert d.verdict == "refuted" and d.witness["level_b"] == "1" and d.witness["level_a"] == "0"


# -- issue 10: one grammar with class sizes; the prover's answer; degenerate levels; level units ------

@pytest.mark.parametrize("text, name, params, classes", [
    ("mult-t-closeness(k=3)", "mult-t-closeness", {}, {"min_size": 3}),
    ("mult-t-closeness[k=3]", "mult-t-closeness", {}, {"min_size": 3}),      # the alias of path's syntax
    ("mult-t-closeness(k=2, max=3)", "mult-t-closeness", {}, {"min_size": 2, "max_size": 3}),
    ("mult-t-closeness", "mult-t-closeness", {}, {}),
    ("kdp[2]", "kdp", {"k": 2}, {}),
    ("kt-closeness[k=3]", "kt-closeness", {"k": 3}, {}),
])
def test_parse_node_one_grammar(text, name, params, classes):
    n = parse_node(text)
    assert (n.name, n.param_dict, n.class_dict) == (name, params, classes)
    assert parse_node(n.label()) == n          # the label reads back


@pytest.mark.parametrize("text, match", [
    ("ldp(k=2)", "no parameter 'k'"),
    ("mult-t-closeness(j=2)", "no parameter 'j'"),
    ("kdp(k=2)@class", "@class"),
])
def test_parse_node_one_grammar_bad(text, match):
    with pytest.raises(InputError, match=match):
        parse_node(text)


def test_lemma_2_3_reading_with_class_size():
    # Lemma 2.3's reading: (k,t)-closeness => multiplicative t-closeness with classes of >= k records,
    # f = t (a class mean lies between the means of its k smallest and k largest values). At N = 4 the
    # only partition with classes of >= 2 records is {2, 2}: N = 2, 3 have none and are skipped.
    d = check_direction("kt-closeness(k=2)", "mult-t-closeness(k=2)", N=4)
    assert d.relation == "implication" and d.verdict == "proved"
    assert sympy.sympify(d.tight, locals={"t": t}) == t
    assert "each of >= 2 records" in d.evidence
    # N = 3 has one partition of classes of >= 2 records: one class, where mult-t-closeness is 1 (class = table); it
    # lies outside the proof's domain (2 s <= N) and says so
    assert [i.N for i in d.instances] == [3, 4] and d.instances[0].tight == "1"
    assert "leaves out N = 3" in d.evidence and "4 <= N" in d.bound


def test_lemma_2_3_class_size_one_is_refuted():
    # classes of >= 1 record: hand witness Pr(a1) = 0, 1/2, 1/2 with classes {1}, {2, 3}: the 2-subsets
    # have Pr(a1) means 1/4 and 1/2 against 1/3 (ratios 4/3, 3/2), Pr(a2) means 3/4 and 1/2 against
    # 2/3 (9/8, 4/3): (2,t) level 3/2; class {1} has Pr(a1) = 0 against 1/3: multiplicative level oo.
    rows = [[Fraction(0), Fraction(1)], [Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 2), Fraction(1, 2)]]
    assert brute.kt(rows, 2) == Fraction(3, 2) and brute.mult_t(rows, ["E1", "E2", "E2"]) == brute.INF
    assert is_witness(get("kt-closeness"), {"k": 2}, get("mult-t-closeness"), {},
                      ConcreteTable.from_fractions(rows, classes=["E1", "E2", "E2"]))
    d = check_direction("kt-closeness(k=2)", "mult-t-closeness(k=1)", N=4)
    assert d.relation == "non-implication" and d.verdict == "refuted"
    w = d.witness
    rows_w = [[Fraction(v) for v in r] for r in w["rows"]]
    assert brute.kt(rows_w, 2) != brute.INF and brute.mult_t(rows_w, w["classes"]) == brute.INF


def test_kdp2_dp_with_f_is_proved():
    # ekenstedt2022 Lemma 3.1: (k0,eps)-DP => (k1,eps)-DP for k0 >= k1, and Lemma 3.3: (1,eps)-DP <=> eps-DP,
    # so (2,eps)-DP => eps-DP with f = eps for every N >= 3 (k = 2 <= N - 1)
    d = check_direction("kdp(k=2)", "dp", f="eps", N=4)
    assert d.verdict == "proved" and d.f_verdict == "proved" and d.bound == "every N"


def test_theorem_3a_refutation_has_a_non_degenerate_witness():
    # ekenstedt2022 Theorem 3a: t = (k/N)(1 + ((N-k-1)/k) e^eps). At N = 3, k = 2 it is 2/3 < 1 at every
    # eps: no valid level (degenerate). At N = 4, k = 2, eps = ln 2 it is (1/2)(1 + 2/2) = 1, a valid
    # level, while the worst table (2 records at a, 2 at 2a) has (2,t) level (2 + 2*2)/4 = 3/2 > 1.
    f = "(k/N)*(1 + ((N - k - 1)/k)*exp(eps))"
    d = check_direction("ldp", "kt-closeness(k=k)", f=f, when=["k >= 2"], N=4, prover=False)
    assert d.verdict == "refuted" and d.f_verdict == "refuted"
    k_ = int(d.witness["point"]["k"])
    w, dg = d.witness, d.degenerate_witness
    assert not w["degenerate"] and dg is not None and dg["degenerate"]
    for wit, valid in ((w, True), (dg, False)):
        N_, kk = int(wit["point"]["N"]), int(wit["point"]["k"])
        rows = [[Fraction(v) for v in r] for r in wit["rows"]]
        level = sympy.sympify(wit["level"], locals={"eps": eps})
        f_here = (sympy.Rational(kk, N_) * (1 + sympy.Rational(N_ - kk - 1, kk) * sympy.exp(level)))
        assert (f_here >= 1) is sympy.true if valid else (f_here < 1) is sympy.true
        assert sympy.Rational(brute.ldp(rows)) <= sympy.exp(level)        # the table satisfies ldp at eps
        assert sympy.Rational(brute.kt(rows, kk)) > f_here                 # and (k,t) is weaker than f
    assert sympy.sympify(w["level"]) > 0 and k_ >= 2


def test_level_units_of_a_plugin_beta_likeness():
    # basic beta-likeness (one-sided): beta = max_E,B Pr_E(B)/Pr_D(B) - 1. Under eps-LDP (values in
    # [a, T a], T = e^eps) the ratio Pr_E/Pr_D is largest for a class of one record at T a and the
    # N - 1 others at a (a vertex of the box): N T / (T + N - 1); so beta = (N - 1)(T - 1)/(T + N - 1).
    # (The two-sided delta-disclosure ratio of the tutorial is ((N-1) T + 1)/N instead: Pr_D/Pr_E.)
    with registered(BasicBetaLikeness):
        d = check_direction("ldp", "beta-likeness", N=4, prover=False)
        assert d.relation == "implication"
        T = sympy.exp(eps)
        assert sympy.simplify(sympy.sympify(d.tight, locals={"eps": eps}) - 3 * (T - 1) / (T + 3)) == 0
        Ns = sympy.Symbol("N", integer=True, positive=True)
        fitted = sympy.sympify(d.tight_in_N, locals={"eps": eps, "N": Ns})
        assert sympy.simplify(fitted - (Ns - 1) * (T - 1) / (T + Ns - 1)) == 0
        # the maximising table of the hand argument, at eps = ln 2, N = 4: beta = 3 * 1 / 5
        rows = [[Fraction(2, 3), Fraction(1, 3)]] + [[Fraction(1, 3), Fraction(2, 3)]] * 3
        ct = ConcreteTable.from_fractions(rows, classes=["E1", "E2", "E2", "E3"])
        assert get("beta-likeness").level_from_raw(get("beta-likeness").concrete(ct)) == sympy.Rational(3, 5)


def test_a_maximum_class_size_keeps_the_bounded_answer():
    # the prover's tight tables for classes of >= k records have classes [k, N - k]: with a maximum class
    # size they may not be allowed, so only the bounded (exact, N = 4) answer is given, and the bound says
    # which partitions were searched
    d = check_direction("ldp", "mult-t-closeness(k=2, max=2)", N=4)
    assert d.relation == "implication" and d.verdict == "verified-bounded"
    assert "every partition into classes (one class included), each of >= 2 and <= 2 records" in d.bound


def test_a_class_size_written_in_N():
    # classes of >= N/2 records: at N = 4 two classes of 2; record removal is at most (N - 1) T / s = 3 T / 2
    # (class-to-subset, by hand), attained; check-edge used to crash reading the size's N
    # (under the assumption "partitions into at least 2 classes"; over every partition one class of N >= N/2 records
    # is allowed: rows (1, 0) and (0, 1) at N = 2 have t = 1 and record removal leaves a bucket at 0, eps = oo)
    r = check_edge("mult-t-closeness(k=N/2)", "dp", N=4)
    t = sympy.Symbol("t", positive=True)
    assert r.forward.relation == "non-implication" and set(r.forward.witness["classes"]) == {"E1"}
    two = r.forward.conditional
    assert two.assumption == "partitions into at least 2 classes" and two.relation == "implication"
    assert sympy.simplify(sympy.sympify(two.tight, locals={"t": t}) - sympy.log(3 * t / 2)) == 0


@pytest.mark.parametrize("a, b, when", [
    # a grid pair (enhanced beta-likeness has no linear-fractional form): a witness at some instance only
    ("alpha-k-anonymity(k=k)", "enhanced-beta-likeness", ["1 <= k", "k <= N - 1"]),
    ("enhanced-beta-likeness", "alpha-k-anonymity(k=k)", ["1 <= k", "k <= N - 1"]),
    # linear-fractional pairs: non-implications found at some instances, implications at others
    ("kt-closeness(k=k)", "mult-t-closeness", ["1 <= k", "k <= N - 1"]),
    ("kdp(k=2)", "kt-closeness(k=2)", []),
    ("mult-t-closeness", "emd-t-closeness(ground=equal)", []),
])
def test_staged_instances_report_what_a_full_run_reports(a, b, when):
    """Without an f, instances run their cheap first stage and the rest only where it matters: the
    relation, verdict, witness and evidence are those of a run that finishes every instance, and an
    instance is left unfinished only where the direction fails at another one."""
    from implgraph.engines.instance import PENDING_SEARCH, PENDING_TIGHT
    staged = check_direction(a, b, when=when, N=4, prover=False)
    full = check_direction(a, b, when=when, N=4, prover=False, every_tight=True)
    for field in ("relation", "verdict", "witness", "evidence", "bound", "tight", "tight_in_N", "trivial"):
        assert getattr(staged, field) == getattr(full, field), field
    unfinished = [i for i in staged.instances if i.note in (PENDING_SEARCH, PENDING_TIGHT)]
    assert not any(i.note in (PENDING_SEARCH, PENDING_TIGHT) for i in full.instances)
    if staged.relation != "non-implication":
        assert not unfinished
    assert len(staged.instances) == len(full.instances)
    for s, f in zip(staged.instances, full.instances):
        assert s in unfinished or s == f


def test_staging_leaves_instances_unfinished_where_a_witness_decides():
    """(k,t)-closeness with k = 1 bounds every record's ratio to the table, hence every class mean's: it
    implies multiplicative t-closeness. With k >= 2 it does not: records (0, 1), (1/2, 1/2), (1/2, 1/2)
    have finite 2-subset ratios, but the class of the first alone has bucket 1 at 0 against 1/3. So
    the k = 1 instances hold and their tight f is not computed (what the staging saves). On a grid, an instance
    after the first witness keeps its finer grids unsearched. A pair that holds finishes every
    instance with its tight f."""
    from implgraph.engines.instance import PENDING_SEARCH, PENDING_TIGHT
    d = check_direction("kt-closeness(k=k)", "mult-t-closeness", when=["1 <= k", "k <= N - 1"], N=4, prover=False)
    assert d.relation == "non-implication"
    assert {i.point["k"] for i in d.instances if i.note == PENDING_TIGHT} == {1}
    g = check_direction("alpha-k-anonymity(k=k)", "enhanced-beta-likeness", when=["1 <= k", "k <= N - 1"], N=4,
                        prover=False)
    first = next(at for at, i in enumerate(g.instances) if i.relation == "non-implication")
    assert all(i.note == PENDING_SEARCH for i in g.instances[first:] if i.relation == "implication")
    held = check_direction("mult-t-closeness", "emd-t-closeness(ground=equal)", N=4, prover=False)
    assert held.relation == "implication" and all(i.samples for i in held.instances)


def test_a_proof_beside_a_witness_is_an_engine_error(monkeypatch):
    # enhanced beta-likeness => multiplicative t-closeness fails (a table with a zero in a class: enhanced
    # is finite, the two-sided ratio infinite), found after the prover is asked; a "proof" of it must not be
    # dropped silently beside the witness
    from implgraph.engines import prove
    honest = check_direction("enhanced-beta-likeness", "mult-t-closeness", N=3)
    assert honest.relation == "non-implication"
    monkeypatch.setattr(prove, "check_implication",
                        lambda *a, **k: prove.ProofResult(verdict="proved", method="a wrong argument"))
    with pytest.raises(RuntimeError, match="a bug in the prover or in a declaration"):
        check_direction("enhanced-beta-likeness", "mult-t-closeness", N=3)


@pytest.mark.parametrize("b", ["mult-t-closeness", "dp", "delta-disclosure-privacy", "eps-delta-dp(delta=1/10)"])
def test_a_witness_of_three_buckets_where_binary_tables_have_none(b):
    # recursive (c,2)-diversity needs two values in each class, which binary tables give to every class (and so to
    # every bucket of it); with three buckets a class may miss the third value the table holds: B infinite. By
    # hand, at N = 2: E1 = [0, 5/6, 1/6] (r1/r2 = 5), E2 = [1/3, 0, 2/3] (2); E1's frequency of bucket 1 is 0 and
    # the table's 1/6 (mult-t-closeness), and the records differ in a zero (dp, delta-disclosure, (eps,delta)-DP)
    import brute
    d = check_direction("recursive-cl-diversity(l=2)", b, N=4)
    assert d.relation == "non-implication" and d.verdict == "refuted"
    assert "3 buckets" in d.evidence and "the tables of 2 buckets have none" in d.evidence
    w = d.witness
    rows = [[Fraction(x) for x in r] for r in w["rows"]]
    assert len(rows[0]) == 3
    assert brute.recursive_cl(rows, w["classes"], 2) != brute.INF
    level_b = {"mult-t-closeness": lambda: brute.mult_t(rows, w["classes"]), "dp": lambda: brute.dp(rows),
               "delta-disclosure-privacy": lambda: brute.delta_disclosure_ratio(rows, w["classes"]),
               "eps-delta-dp(delta=1/10)": lambda: brute.eps_delta_dp(rows, Fraction(1, 10))}[b]()
    assert level_b == brute.INF
    # asked for three buckets, check-edge finds it among its own tables
    assert check_direction("recursive-cl-diversity(l=2)", b, N=2, p=3).relation == "non-implication"


def _wider_calls(monkeypatch):
    """The numbers of buckets of the wider searches run (analyse's first stage at more buckets than asked)."""
    import implgraph.engines.direction_beyond as beyond
    calls, real = [], beyond.analyse

    def spy(a_def, ap, b_def, bp, n, p=2, *args, **kw):
        if kw.get("stage") == "first" and p > 2:
            calls.append(p)
        return real(a_def, ap, b_def, bp, n, p, *args, **kw)
    monkeypatch.setattr(beyond, "analyse", spy)
    return calls


@pytest.mark.parametrize("a, b, kw", [
    ("recursive-cl-diversity(l=2)", "distinct-l-diversity", {}),     # B never infinite (weakest level 1)
    ("ldp", "kt-closeness(k=2)", {}),                                # proved for every N by the prover
])
def test_no_wider_search_where_it_cannot_change_the_answer(monkeypatch, a, b, kw):
    calls = _wider_calls(monkeypatch)
    d = check_direction(a, b, N=4, **kw)
    assert d.relation == "implication" and not calls


def test_the_wider_search_goes_one_bucket_beyond_the_tables_asked_for(monkeypatch):
    # (review, stop 29) recursive (c,3)-diversity needs three values per class: with 3 buckets every class has each
    # value, and dp is finite; with 4 a class may miss one (N = 3: [1/16, 1/16, 7/8, 0], [1/16, 13/16, 0, 1/8])
    import brute
    calls = _wider_calls(monkeypatch)
    d = check_direction("recursive-cl-diversity(l=3)", "dp", N=3, p=3)
    assert 4 in calls and max(calls) == 4
    assert d.relation == "non-implication" and "4 buckets" in d.evidence
    rows = [[Fraction(x) for x in r] for r in d.witness["rows"]]
    assert brute.recursive_cl(rows, d.witness["classes"], 3) != brute.INF and brute.dp(rows) == brute.INF


def test_an_implication_of_no_table_is_not_an_implication():
    # at N <= 4 every partition into >= 2 classes has a class of < 3 records, so (alpha,3)-anonymity is infinite on
    # every table searched: before stop 29 both directions of (alpha,3) / (alpha,4) were "implications" (discover:
    # "reciprocal implications"); at N = 6, classes [3, 3] satisfy (alpha,3) and not (alpha,4)
    import brute
    d = check_direction("alpha-k-anonymity(k=3)", "alpha-k-anonymity(k=4)", N=4, min_classes=2, prover=False)
    # (nothing searched satisfies A; the witness family of B's minimum class size beyond N = 4 refutes it)
    assert d.relation == "non-implication" and "no table satisfied alpha-k-anonymity(k=3)" in d.evidence
    # over every partition a table of one class satisfies both at N = 4: an implication there, refuted beyond the N
    # checked by the witness family of B's declared minimum class size (two classes of 3 at N = 6, below)
    d = check_direction("alpha-k-anonymity(k=3)", "alpha-k-anonymity(k=4)", N=4)
    assert d.relation == "non-implication" and d.witness["point"] == {"N": 6}
    assert d.witness["classes"] == ["E1"] * 3 + ["E2"] * 3
    d = check_direction("alpha-k-anonymity(k=3)", "alpha-k-anonymity(k=4)", N=6)
    assert d.relation == "non-implication"
    rows = [[Fraction(x) for x in r] for r in d.witness["rows"]]
    assert brute.alpha_k(rows, d.witness["classes"], 3) != brute.INF
    assert brute.alpha_k(rows, d.witness["classes"], 4) == brute.INF
    # the partition-level check
    from implgraph.definitions import get
    from implgraph.engines.instance import lf_model
    from implgraph.engines.lf import finite_somewhere
    ak = get("alpha-k-anonymity")
    assert finite_somewhere(lf_model(ak, 4, (1, 3), 2, k=3), 4, 2) is False
    assert finite_somewhere(lf_model(ak, 6, (3, 3), 2, k=3), 6, 2) is True


def test_the_wider_witness_keeps_the_class_sizes_asked_for():
    # with classes of >= 2 records (and no prover) the 3-bucket witness has them too
    import brute
    d = check_direction("recursive-cl-diversity(l=2)", "mult-t-closeness", N=4, classes={"min_size": 2}, prover=False)
    assert d.relation == "non-implication" and "3 buckets" in d.evidence
    labels = d.witness["classes"]
    assert min(labels.count(x) for x in set(labels)) >= 2
    rows = [[Fraction(x) for x in r] for r in d.witness["rows"]]
    assert brute.recursive_cl(rows, labels, 2) != brute.INF and brute.mult_t(rows, labels) == brute.INF
