"""The papers' claims judged on their evidence: each verdict says no more than what was computed.

Every value below is derived by hand in the comment next to it or by the independent brute force of
tests/brute.py; none is copied from the engine's output.
"""

import copy
from fractions import Fraction as F

import pytest
import sympy

import brute
from implgraph.checks import check_claim
from implgraph.checks.unbounded import judge_unbounded
from implgraph.core.errors import InputError
from implgraph.io.counterexamples import get_table, load_tables_file, table_claims
from implgraph.io.theorems import load_claims

R = sympy.Rational
CLAIMS = {str(c.get("id")): c for c in load_claims()}


def _claim(cid, **changes):
    node = copy.deepcopy(CLAIMS[cid])
    node.update(changes)
    return node


# -- Fig. 7: the exact channels are a row of their own ---------------------------------------------------

@pytest.mark.slow
def test_fig7_exact_channels_row_refuted_with_hand_witness():
    ctx = {}
    v = check_claim(CLAIMS["ekenstedt2022/fig-7"], ctx)
    assert v.verdict == "holds"                       # the printed curves (1), (2), (5), (6)
    row = next(r for r in ctx["extra_rows"] if r.id == "ekenstedt2022/fig-7#reading")
    assert row.verdict == "refuted" and row.expect == "refuted"
    # hand, n = 2, t0 = 2 (N = 100, k = 5): eps_t solves 2 = (5/100)(1 + (94/5) e) -> e = 195/94; Fig. 4 on
    # two values has Pr(a|a)/Pr(a|b) = (1 + p)/(1 - p) = 195/94 -> p_LDP = 101/289 and U_LDP = (1 + p)/2 =
    # 195/289; Fig. 5 at p_y = (1/2, 1/2) has t = max(1 + p_t, 1/(1 - p_t)) = 1/(1 - p_t) = 2 -> p_t = 1/2,
    # U_tClo = p_t + (1 - p_t)/2 = 3/4 > 195/289
    w = row.details["judged"]["n = 2: U_LDP >= U_tClo"]["witness"]
    assert (F(w["t0"]), F(w["lhs"]), F(w["rhs"])) == (2, F(195, 289), F(3, 4))


# -- Theorem 5: a witness family for every k ------------------------------------------------------------

def _family_rows(k, mu, sigma):
    """ekenstedt2022/table-III/k-family at (k, mu, sigma), built by hand: E1 k + 1 records at mu, E2 one
    record at sigma and k at mu + (mu - sigma)/k."""
    b = mu + (mu - sigma) / k
    rows = [[mu, 1 - mu]] * (k + 1) + [[sigma, 1 - sigma]] + [[b, 1 - b]] * k
    classes = ["E1"] * (k + 1) + ["E2"] * (k + 1)
    return rows, classes


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_theorem5_family_levels_brute_force(k):
    # the data's family is the hand-built table; brute force: multiplicative t = 1 (both class means are mu)
    # and, within each class, removing k records leaves one: the record at sigma against the mean mu gives
    # mu/sigma (1/(4 sigma) at mu = 1/4)
    t = get_table("ekenstedt2022/table-III/k-family")
    mu = F(1, 4)
    for sigma in (F(1, 10), F(1, 100), F(1, 1000)):
        rows, classes = _family_rows(k, mu, sigma)
        point = {t.symbols["k"]: k, t.symbols["mu"]: R(1, 4), t.symbols["sigma"]: R(sigma.numerator, sigma.denominator)}
        data = [([F(str(v)) for v in probs], cls) for probs, cls in t.subs(point).rows()]
        assert sorted(data) == sorted(zip(rows, classes))
        assert brute.mult_t(rows, classes) == 1
        per_class = max(brute.kdp([r for r, c in zip(rows, classes) if c == e], k) for e in ("E1", "E2"))
        assert per_class == mu / sigma


def test_theorem5_family_confirmed_for_every_k():
    t = get_table("ekenstedt2022/table-III/k-family")
    claim = next(c for c in table_claims(t) if c["id"].endswith("theorem-5-non-implication"))
    v = judge_unbounded(t, claim)
    assert v.verdict == "confirmed"
    assert v.details["for_every"] == ["k"] and v.details["range"] == "1 <= k"
    # the shown family is at k = 3: ln(mu/sigma) with mu = 1/4 (see the brute force above)
    assert [r["B"] for r in v.details["family"]] == [str(sympy.log(R(5, 2))), str(sympy.log(25)),
                                                     str(sympy.log(250))]


def test_theorem5_confirmed_on_the_family():
    v = check_claim(CLAIMS["ekenstedt2022/theorem-5"], {"max_n": 6, "verdicts": {}})
    assert v.verdict == "confirmed" and v.bound is None
    assert v.witness["table"] == "ekenstedt2022/table-III/k-family"


FAMILY = """\
tables:
  - id: scratch/family
    source: "test"
    caption: "test"
    symbols: {{mu: real, sigma: real, k: integer}}
    region: ["0 < sigma", "1 <= k", "0 <= mu", "mu <= 1", "sigma <= 1", {region}]
    buckets: [a1, a2]
    binary: true
    rows:
      - {{p: "mu", count: "k + 1", class: E1}}
      - {{p: "{low}", class: E2}}
      - {{p: "((k + 1)*mu - ({low}))/k", count: "k", class: E2}}
    claims:
      - id: scratch/family/u
        source: "test"
        printed: "test"
        kind: unbounded
        from: {{definition: mult-t-closeness, params: {{}}}}
        to: {{definition: kdp, params: {{k: "k"}}, scope: class}}
        free: sigma
        limit: "0"
        family: ["1/10", "1/100"]
        fix: {{mu: "1/4"}}
        for_every: [k]
        family_at: {{k: "1"}}
"""


def _family_file(tmp_path, low, fix=True):
    wf = f'"0 <= ((k + 1)*mu - ({low}))/k", "((k + 1)*mu - ({low}))/k <= 1", "0 <= {low}", "{low} <= 1"'
    text = FAMILY.format(low=low, region=wf)
    if not fix:
        text = text.replace('        fix: {mu: "1/4"}\n', "")
    d = tmp_path / "counterexamples"
    d.mkdir(exist_ok=True)
    f = d / "family.yaml"
    f.write_text(text)
    return load_tables_file(f)[0]


def _judge_family(tmp_path, low):
    t = _family_file(tmp_path, low)
    return judge_unbounded(t, table_claims(t)[0])


def test_family_that_fails_for_some_k_is_not_confirmed(tmp_path):
    # E2's low record at sigma + mu (k - 1)/k: at k = 1 it tends to 0 (B -> oo), at k = 2 to mu/2, where the
    # class's ratios stay bounded (mu/(mu/2) = 2, by hand): the family is no witness for every k
    v = _judge_family(tmp_path, "sigma + mu*(k - 1)/k")
    assert v.verdict == "unknown"
    assert v.evidence.startswith("for every k with 1 <= k: B's level") and "is not shown to tend to oo" in v.evidence


def test_family_sound_variant_confirmed(tmp_path):
    # E2's low record at sigma/2 (the class mean stays mu): the ratio 2 mu/sigma -> oo for every k
    v = _judge_family(tmp_path, "sigma/2")
    assert v.verdict == "confirmed", v.evidence


def test_family_for_every_k_needs_every_symbol_fixed_or_listed(tmp_path):
    t = _family_file(tmp_path, "sigma", fix=False)
    with pytest.raises(InputError, match="neither fixed nor in `for_every:`"):
        judge_unbounded(t, table_claims(t)[0])


# -- Table III's caption: the witness where the caption's level is a level -------------------------------

def test_table_iii_caption_ldp_witness_where_the_printed_level_is_valid():
    v = check_claim(CLAIMS_TABLE("ekenstedt2022/table-III/caption-ldp"), {})
    assert v.verdict == "refuted"
    mu, sigma = (F(v.witness["params"][k]) for k in ("mu", "sigma"))
    # the printed ln((2mu - sigma)/sigma) is an eps (>= 0) iff sigma <= mu; it fails there only for mu > 1/2
    assert sigma < mu and mu > F(1, 2) and v.witness["printed_level_valid"] is True
    rows = [[mu, 1 - mu], [mu, 1 - mu], [sigma, 1 - sigma], [2 * mu - sigma, 1 - 2 * mu + sigma]]
    ratio = brute.ldp(rows)
    assert ratio > (2 * mu - sigma) / sigma        # brute force: the a2 bucket's ratio exceeds the printed one
    assert sympy.exp(sympy.sympify(v.witness["optimal_level"])) == R(ratio.numerator, ratio.denominator)


def CLAIMS_TABLE(cid):
    from implgraph.io.counterexamples import table_of_claim
    t = table_of_claim(cid)
    return next(c for c in table_claims(t) if c["id"] == cid)


# -- Fig. 1's text: the singleton-class node is reached from LDP ------------------------------------------

def test_singleton_rules_by_definition():
    from implgraph.map.rules import SINGLETON_BASIS, singleton_rules
    rules = singleton_rules(["mult-t-closeness", "kt-closeness", "kdp", "ldp"])
    pairs = {(r.a.label(), r.b.label()): r for r in rules}
    # a class of one record is a subset of one record: (1, t)-closeness, and (N - 1, ln t)-DP (removing N - 1
    # records leaves one); ldp compares pairs of records (no subsets): no rule
    N = sympy.Symbol("N", integer=True)
    one = {("mult-t-closeness(k=1, max=1)", "kt-closeness(k=1)"), ("kt-closeness(k=1)", "mult-t-closeness(k=1, max=1)")}
    assert one <= set(pairs)
    kdp_rule = next(r for r in rules if r.b.definition == "kdp")
    assert dict(kdp_rule.b.params)["k"] == N - 1
    assert kdp_rule.f == sympy.log(kdp_rule.a.level)          # eps = ln t
    assert all(r.basis == SINGLETON_BASIS and r.verdict == "proved" for r in rules)
    assert not any("ldp" in (r.a.definition, r.b.definition) for r in rules)


def test_fig1_text_every_t_closeness_node_reached_from_a_dp_node():
    # ldp => (1, t)-closeness (Theorem 2b, proved) and (1, t)-closeness is multiplicative t-closeness on
    # singleton classes: the node mult-t-closeness(k=1, max=1) is reached; the claim fails on 'not vice
    # versa' only (every DP node is reached from a t-closeness node: Theorem 4.1, Lemma 3.3, Theorem 2a)
    v = check_claim(CLAIMS["ekenstedt2022/fig-1-text"], {"max_n": 6, "verdicts": {}})
    engine = v.details["engine"]
    assert engine["forward"] is True and engine["unreached"] == []
    assert engine["not_vice_versa"] is False and v.verdict == "refuted"


# -- eq. (5) and (6): the N = n reading is a row, and the witness is not a degenerate point ----------------

def _rr(p, n):
    """Fig. 4 on n values (hand): keep with p, else uniform."""
    return [[p * (i == j) + (1 - p) / n for j in range(n)] for i in range(n)]


def _fig5(pt, py):
    """Fig. 5 (hand): keep with p_t, else a draw from p_y."""
    return [[pt * (i == j) + (1 - pt) * py[j] for j in range(len(py))] for i in range(len(py))]


def _utility(channel, py):
    """Eq. (4), sum_z max_y p_y(y) Pr(z | y), by hand."""
    return sum(max(py[y] * channel[y][z] for y in range(len(py))) for z in range(len(py)))


def _compose(a, b):
    return [[sum(a[i][m] * b[m][j] for m in range(len(b))) for j in range(len(b[0]))] for i in range(len(a))]


def _eq6(py, pt, p, N):
    """The printed (6) for n = 2 (hand): sum_j max_i max{f_1(a_i), f_2(a_i, a_j)}."""
    f1 = [py[i] * (pt * (p + (1 - p) / N) + (1 - pt) * (py[i] * p + (1 - p) / N)) for i in range(2)]
    f2 = [[py[i] * (pt * (1 - p) / N + (1 - pt) * (py[j] * (p + (1 - p) / N))) for j in range(2)] for i in range(2)]
    return sum(max(max(f1[i], f2[i][j]) for i in range(2)) for j in range(2))


def _rows(cid):
    ctx = {}
    v = check_claim(CLAIMS[cid], ctx)
    return v, {r.id: r for r in ctx.get("extra_rows", [])}


def test_eq5_reading_row_and_interior_witness():
    v, rows = _rows("ekenstedt2022/eq-5")
    assert v.verdict == "refuted"
    pt = {k: F(x) for k, x in v.witness["params"].items()}
    N, p, py1 = int(pt["N"]), pt["p_LDP"], pt["py1"]
    assert N >= 2 and 0 < p < 1 and 0 < py1 < 1             # not the degenerate N = 1, p_LDP = 0 of before
    py = [py1, 1 - py1]
    printed = sum(max(py[1 - i] * (1 - p) / N, py[i] * (p + (1 - p) / N)) for i in range(2))
    assert _utility(_rr(p, 2), py) == F(v.witness["engine"]) != printed == F(v.witness["printed"])
    row = rows["ekenstedt2022/eq-5#reading"]
    # with N = n = 2 the printed (5) is (4) on Fig. 4's channel term by term (hand, see the data's comment)
    assert row.verdict == "holds" and row.expect == "holds"


def test_eq6_reading_row_refuted_with_hand_witness():
    v, rows = _rows("ekenstedt2022/eq-6")
    assert v.verdict == "refuted"
    assert int(F(v.witness["params"]["N"])) >= 2
    row = rows["ekenstedt2022/eq-6#reading"]
    assert row.verdict == "refuted" and row.expect == "refuted"
    pt = {k: F(x) for k, x in row.witness["params"].items()}
    py = [pt["py1"], 1 - pt["py1"]]
    channel = _utility(_compose(_fig5(pt["p_t"], py), _rr(pt["p_LDP"], 2)), py)
    printed = _eq6(py, pt["p_t"], pt["p_LDP"], 2)
    assert channel == F(row.witness["engine"]) and printed == F(row.witness["printed"]) and channel != printed
    # the point of the data's comment: py1 = p_t = 1/4, p_LDP = 1/2 gives 3/4 against 63/64
    q = [F(1, 4), F(3, 4)]
    assert _utility(_compose(_fig5(F(1, 4), q), _rr(F(1, 2), 2)), q) == F(3, 4)
    assert _eq6(q, F(1, 4), F(1, 2), 2) == F(63, 64)


def test_eq1_reading_row():
    v, rows = _rows("ekenstedt2022/eq-1")
    row = rows["ekenstedt2022/eq-1#reading"]
    assert row.verdict == "refuted" and row.expect == "refuted"
    n, p = int(F(row.witness["params"]["n"])), F(row.witness["params"]["p_LDP"])
    # hand: the channel's ratio is 1 + n p/(1 - p), the reading's 1 + p/(n (1 - p))
    assert sympy.exp(sympy.sympify(row.witness["engine"])) == 1 + sympy.Rational(n * p / (1 - p))
    assert sympy.exp(sympy.sympify(row.witness["printed"])) == 1 + sympy.Rational(p / (n * (1 - p)))


# -- domingo-ferrer2015 Proposition 3: its assumptions named, the statement without them judged -----------

def test_proposition3_names_its_assumptions_and_is_refuted_without_them():
    from implgraph.checks.verify import run_verify
    rows = {v.id: v for v in run_verify(["domingo-ferrer2015/proposition-3"], max_n=6)}
    printed, bare = rows["domingo-ferrer2015/proposition-3"], rows["domingo-ferrer2015/proposition-3#reading"]
    assumptions = [str(x) for x in CLAIMS["domingo-ferrer2015/proposition-3"]["assumptions"]]
    assert printed.verdict == "proved" and "only under the claim's assumptions" in printed.evidence
    assert printed.details["assumptions"] == assumptions and all(a in printed.evidence for a in assumptions)
    # without them (eps-DP of the release, Definition 5 of ekenstedt2022) the implication with f = 2 ln t fails
    assert bare.verdict == "refuted" and bare.expect == "refuted"
    w = bare.witness
    table = [[F(x) for x in r] for r in w["rows"]]
    t = F(w["t"])
    assert brute.mult_t(table, w["classes"]) <= t
    assert brute.dp(table) > t * t                     # eps > 2 ln t
    # by hand (the data's comment): E1 = {(0, 1), (1, 0)}, E2 = {(1/2, 1/2)}: t = 1, and removing the first
    # record leaves a1 mean 3/4 against 1/2
    hand = [[F(0), F(1)], [F(1), F(0)], [F(1, 2), F(1, 2)]]
    assert brute.mult_t(hand, ["E1", "E1", "E2"]) == 1 and brute.dp(hand) >= F(3, 2)


# -- Section V-D: eps_t from the printed relation does not guarantee t0 on the exact channel --------------

def test_sec5d_eps_t_does_not_guarantee_t0_on_the_exact_channel():
    v = check_claim(CLAIMS["ekenstedt2022/sec-5d/eps-t-guarantees-t0"], {})
    assert v.verdict == "refuted"
    # hand: e^eps_t = 195/94 (2 = (5/100)(1 + (94/5) e)); Fig. 4 on two values: (1 + p)/(1 - p) = 195/94 ->
    # p_LDP = 101/289
    assert v.details["calibration"]["p_LDP"]["value"] == "101/289"
    m = int(v.witness["params"]["m"])
    # the pure class of the rarer value against the whole table: (9400 + 101 max(m, 100 - m))/9400, > 2 iff
    # max(m, 100 - m) >= 94; and 5 <= m <= 95 (classes of at least k = 5 records)
    assert 5 <= m <= 95 and max(m, 100 - m) >= 94
    assert F(v.witness["engine"]) == F(9400 + 101 * max(m, 100 - m), 9400) > 2
    # brute force on the release of those N = 100 records partitioned by value
    a1, a2 = [F(195, 289), F(94, 289)], [F(94, 289), F(195, 289)]
    rows = [a1] * m + [a2] * (100 - m)
    assert brute.mult_t(rows, ["E1"] * m + ["E2"] * (100 - m)) == F(v.witness["engine"])


def test_sec5d_guarantee_holds_with_the_worst_case_level():
    # the true worst case over 5 <= m <= 95 is (k + (N - k) e^eps_t)/N = 18995/9400 (m = 5 or 95, by hand)
    node = _claim("ekenstedt2022/sec-5d/eps-t-guarantees-t0", level="(k + (N - k)*exp(eps_t))/N")
    assert check_claim(node, {}).verdict == "holds"
    # and with the corrected relation of [5] (N - k for N - k - 1), e^eps = 39/19, t0 = 2 is guaranteed
    node = _claim("ekenstedt2022/sec-5d/eps-t-guarantees-t0",
                  implicit={"eps_t": "t0 == (k/N)*(1 + ((N - k)/k)*exp(eps_t))"})
    assert check_claim(node, {}).verdict == "holds"


def test_bad_for_every_and_calibrate_are_input_errors(tmp_path):
    t = _family_file(tmp_path, "sigma")
    claim = table_claims(t)[0]
    claim["for_every"] = 3
    with pytest.raises(InputError, match="is not a list of symbols"):
        judge_unbounded(t, claim)
    node = _claim("ekenstedt2022/sec-5d/eps-t-guarantees-t0", calibrate={"p_LDP": {"definition": "no-such", "level": "1"}})
    with pytest.raises(InputError, match="no-such"):
        check_claim(node, {})


def test_unbounded_limit_given_by_a_fixed_symbol():
    # Table V's family with the limit moved to sigma -> mu (mu = 1/4 by `fix:`): every record tends to
    # Pr(a1) = 1/4 (2 mu - sigma and sigma both -> mu), so (2, t)-closeness tends to 1: no unbounded family
    # (was a TypeError comparing the family with the symbol mu)
    t = get_table("ekenstedt2022/table-V")
    claim = copy.deepcopy(next(c for c in table_claims(t) if c["id"].endswith("lemma-2.3-non-implication")))
    claim["limit"] = "mu"
    v = judge_unbounded(t, claim)
    assert v.verdict == "refuted" and v.details["limit"] == "1/4" and v.details["direction"] == "-"


def test_refuter_with_a_transcendental_coefficient_in_f_is_not_a_crash():
    # f = 2 ln t + 1 gives B's raw target e t^2: not a polynomial with rational coefficients, which the solver's
    # free-level encoding needs (was TypeError: invalid input: E); the search falls back to sampled levels.
    # (1, t)-closeness => LDP holds with e^eps = t^2 (Theorem 2a), so e t^2 is above it: no witness exists
    from implgraph.engines.prove import check_implication
    from implgraph.definitions import get
    t = sympy.Symbol("t", real=True)
    r = check_implication(get("kt-closeness"), get("ldp"), 2 * sympy.log(t) + 1, a_params={"k": 1}, b_params={},
                          when=[], kinds={}, alpha=t, max_n=3)
    assert r.verdict != "refuted"
