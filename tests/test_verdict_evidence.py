"""No verdict claims more than its evidence: tables of one class, trivial and vacuous implications, a bounded
implication known to fail at a larger N, and the conjectured f or parameters that are no levels.

Every expected value is derived by hand (in the comments) or by the independent brute force of tests/brute.py.
"""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path

import pytest
import sympy

import brute
from _plugin_fixtures import registered
from implgraph.certify import check_certificate, certificates_in
from implgraph.core.errors import InputError
from implgraph.definitions.base import Definition
from implgraph.definitions.capabilities import OnClasses
from implgraph.engines.checkedge import check_edge
from implgraph.engines.direction import check_direction
from implgraph.engines.prove import check_implication

MATRIX = Path(__file__).resolve().parents[1] / "implgraph" / "data" / "matrix.json"
ASSUMPTION = "partitions into at least 2 classes"


def _rows(w):
    return [[Fraction(x) for x in r] for r in w["rows"]]


@pytest.fixture(scope="module")
def published():
    return {(c["a"], c["b"]): c for c in json.loads(MATRIX.read_text())["cells"]}


# -- tables of one class ------------------------------------------------------------------------------------------

def test_a_table_of_one_class_refutes_mult_t_closeness_to_dp():
    """One class is the whole table: every class mean is the table's, t = 1; rows (1, 0) and (0, 1) at N = 2 leave a
    bucket at 0 when a record is removed, eps = oo. Under the assumption (>= 2 classes) the implication is proved with
    eps = ln((N - 1) t) (docs/proofs/class-to-subset.md)."""
    d = check_direction("mult-t-closeness", "dp", N=3)
    assert d.relation == "non-implication" and len(set(d.witness["classes"])) == 1
    rows = _rows(d.witness)
    assert brute.mult_t(rows, d.witness["classes"]) == 1 and brute.dp(rows) == brute.INF
    assert brute.dp([[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)]]) == brute.INF
    two = d.conditional
    assert two.assumption == ASSUMPTION and two.relation == "implication" and two.verdict == "proved"
    N, t = sympy.symbols("N t", positive=True)
    got = sympy.sympify(two.tight_all_n, locals={"N": N, "t": t})
    assert sympy.simplify(sympy.exp(got) - (N - 1) * t) == 0
    assert two.certificate["min_classes"] == 2 and check_certificate(two.certificate, ns=range(2, 6)).ok
    assert "every partition into at least 2 classes" in two.bound or two.bound == "every N"


def test_delta_disclosure_to_dp_and_towards_eps_delta_dp(published):
    # delta-disclosure on one class is 0 (class = table) and (eps,delta)-DP with delta = 1/10 is oo when a record
    # holding a whole bucket is removed: 1/2 <= e^eps * 0 + 1/10 fails
    rows = [[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)]]
    assert brute.delta_disclosure_ratio(rows, ["E1", "E1"]) == 1
    assert brute.eps_delta_dp(rows, Fraction(1, 10)) == brute.INF
    for a, b in (("delta-disclosure-privacy", "dp"), ("delta-disclosure-privacy", "eps-delta-dp(delta=1/10)"),
                 ("mult-t-closeness", "eps-delta-dp(delta=1/10)"), ("mult-t-closeness", "dp")):
        cell = published[a, b]
        assert cell["relation"] == "non-implication" and len(set(cell["witness"]["classes"])) == 1, (a, b)
        assert cell["conditional"]["assumption"] == ASSUMPTION
        assert cell["conditional"]["relation"] == "implication", (a, b)
    assert published["mult-t-closeness", "dp"]["conditional"]["proved_every_n"]


def test_a_class_argument_states_its_partitions_and_the_checker_holds_it_to_them():
    # over every partition the bound for >= 2 classes (vertex: ldp => mult-t-closeness) has a one-class part beside it
    r = check_implication("ldp", "mult-t-closeness")
    (cert,) = certificates_in(r.details)
    assert cert["method"] == "vertex" and cert["min_classes"] == 1 and cert["one_class"]
    assert check_certificate(cert, ns=range(2, 5)).ok
    # a class argument claiming every partition without its one-class part is rejected (its lemma reads another
    # class), and so is one stating no partitions
    bare = copy.deepcopy(cert)
    del bare["one_class"]
    assert not check_certificate(bare, ns=range(2, 5)).ok
    del bare["min_classes"]
    assert not check_certificate(bare, ns=range(2, 5)).ok
    assert check_certificate(dict(bare, min_classes=2), ns=range(2, 5)).ok
    # a one-class part where B's level on one class is not its strongest (record removal: dp) is rejected
    two = check_implication("mult-t-closeness", "dp", min_classes=2).details["certificate"]
    rep = check_certificate(dict(two, min_classes=1, one_class=cert["one_class"]), ns=range(2, 5))
    assert not rep.ok and any("B's registered level is its strongest" in w for w, _, _ in rep.failures())


def test_the_claims_judge_a_non_implication_over_every_partition(tmp_path):
    """mult-t-closeness =/=> (1, eps)-DP of the table (record removal): a table of one class confirms it; under the
    assumption the engine proves the implication (class-to-subset), and the verdict says so."""
    from implgraph.checks.verify import run_verify
    folder = tmp_path / "theorems"
    folder.mkdir()
    (folder / "mine.yaml").write_text(
        "paper: mine\nreference: \"a test\"\nclaims:\n"
        "  - id: mine/one-class\n    source: \"a test\"\n    printed: \"mult-t =/=> kdp(1)\"\n"
        "    kind: not-implies\n    from: {definition: mult-t-closeness, params: {}, level: t}\n"
        "    to: {definition: kdp, params: {k: \"1\"}, level: eps}\n    symbols: {N: integer}\n"
        "    when: [\"N >= 2\"]\n")
    (v,) = [x for x in run_verify(["mine/one-class"], paths=[folder / "mine.yaml"], jobs=1, fresh=True)
            if x.id == "mine/one-class"]
    assert v.verdict == "confirmed"
    assert v.details["conditional"]["assumption"] == ASSUMPTION and v.details["conditional"]["verdict"] == "refuted"


# -- trivial implications -----------------------------------------------------------------------------------------

class PSensitive(Definition):
    """A researcher's p-sensitive k-anonymity: the fewest distinct values in a class, but level 0 (not a count: below
    its scale's weakest level 1) where a class has fewer than k records."""

    name = "p-sensitive-k-anonymity-test"
    level_symbol = "p"
    scale = "count"
    stronger = "larger"
    declares = (OnClasses(),)
    params = {"k": "minimum class size"}

    def param_values(self, N):
        return [{"k": 2}]

    def symbolic(self, ctx, table, k):
        raise NotImplementedError

    def concrete(self, ct, k):
        sizes, sums = ct.class_sums()
        if min(int(x) for x in sizes) < int(k):
            return Fraction(0)
        return Fraction(int(min(sum(1 for v in row if v != 0) for row in sums)))


@pytest.mark.parametrize("f", [None, "1"])
def test_a_level_below_its_scale_is_the_plugins_error(f):
    # (before: "trivially f = 1" without --f, refuted with --f 1 by two singleton classes, where the plugin says 0)
    with registered(PSensitive):
        with pytest.raises(InputError) as err:
            check_edge("k-anonymity", "p-sensitive-k-anonymity-test(k=2)", f=f, N=3)
    assert "p-sensitive-k-anonymity-test" in str(err.value) and "weakest level 1" in str(err.value)


def test_a_trivial_or_vacuous_direction_is_no_implication_of_definition_3():
    """mult-t-closeness => k-anonymity holds only with f = 1, k-anonymity's weakest level (every table has classes of
    >= 1 record); k-anonymity =/=> mult-t-closeness (two singleton classes (1, 0), (0, 1): t = oo). Definition 3
    calls neither direction a generalisation."""
    from implgraph.map.matrix import Cell, counts_of
    r = check_edge("mult-t-closeness", "k-anonymity", N=3)
    assert r.forward.relation == "implication" and r.forward.trivial
    assert r.kind == "non-implication"
    assert brute.mult_t([[Fraction(1), Fraction(0)], [Fraction(0), Fraction(1)]], ["E1", "E2"]) == brute.INF
    cells = [Cell("a", "b", "implication", "verified-bounded", "x", trivial=True, tight="1"),
             Cell("b", "c", "implication", "proved", "x", vacuous=True),
             Cell("c", "a", "implication", "proved", "x", proved_every_n=True),
             # f = B's weakest level holds, but its tight f is not known: whether A gives more is undecided
             Cell("a", "c", "implication", "verified-bounded", "x", trivial=True)]
    c = counts_of(cells)
    assert (c["implication"], c["implication_trivial"], c["implication_trivial_open"], c["implication_vacuous"],
            c["decided"]) == (1, 2, 1, 1, 3)


# -- vacuous implications -----------------------------------------------------------------------------------------

def test_emd_to_basic_beta_likeness_is_vacuous():
    """beta = N - 1 is basic beta-likeness's ceiling on every table of N records: a class's share of a value is at most
    N times the table's (one record alone holding it: share 1 against 1/N). EMD t-closeness at any t meets it."""
    rows = [[Fraction(1), Fraction(0)]] + [[Fraction(0), Fraction(1)]] * 3
    classes = ["E1", "E2", "E2", "E2"]
    assert brute.basic_beta_likeness(rows, classes) == 3          # N - 1 at N = 4
    r = check_implication("emd-t-closeness", "basic-beta-likeness", a_params={"ground": "equal"})
    assert r.verdict == "proved" and r.details["vacuous"].startswith("vacuous")
    assert all(check_certificate(c, ns=range(2, 5)).ok for c in certificates_in(r.details))
    d = check_direction("emd-t-closeness(ground=equal)", "basic-beta-likeness", N=3)
    assert d.relation == "implication" and d.vacuous


def test_the_hasse_diagram_does_not_merge_through_a_vacuous_implication(published):
    from implgraph.site.hasse import hasse
    H = hasse(json.loads(MATRIX.read_text())["cells"])
    members = {m: n for n, data in H.nodes(data=True) for m in data["members"]}
    emd, hier = "emd-t-closeness(ground=equal)", "hierarchical-emd-t-closeness(ground=equal)"
    assert members[emd] == members[hier]           # the same level (the total variation distance): equivalent
    assert members[emd] != members["basic-beta-likeness"]
    assert published[emd, "basic-beta-likeness"]["vacuous"]
    assert not any(H.has_edge(members[emd], x) and x == members["basic-beta-likeness"] for x in H.nodes)


# -- a bounded implication known to fail later --------------------------------------------------------------------

def test_kdp_to_kt_closeness_is_refuted_beyond_n_4(published):
    """At N = 5 two records at 0 in a bucket: every 2-subset of kt-closeness holding both has mean 0, level oo; the
    table's mean is 3/10 and the 3 smallest values average 1/6, so (2, eps)-DP has eps = ln(9/5)."""
    d = check_direction("kdp(k=2)", "kt-closeness(k=2)", N=4)
    assert d.relation == "non-implication" and d.witness["point"] == {"N": 5}
    rows = _rows(d.witness)
    assert brute.kdp(rows, 2) == Fraction(9, 5) and brute.kt(rows, 2) == brute.INF
    assert published["kdp(k=2)", "kt-closeness(k=2)"]["relation"] == "non-implication"


@pytest.mark.slow
def test_discover_decides_the_pair_as_check_edge_does():
    from implgraph.engines.discover import discover
    res = discover(N=4, names=["kdp", "kt-closeness"], include_known=True, workers=1, progress=False)
    f = next(x for x in res.findings if {x.a, x.b} == {"kdp(k=2)", "kt-closeness(k=2)"})
    d = f.forward if f.a == "kdp(k=2)" else f.backward
    assert d.relation == "non-implication" and d.witness["point"] == {"N": 5}


# -- f and parameters that are no levels ---------------------------------------------------------------------------

def test_f_with_e_is_decided():
    # (k = 1, t)-closeness => eps-LDP with eps = ln(Min(t^2, N (t - 1) + 1)) (Theorem 2a, product): 2 ln t + 1 >= 2 ln t
    r = check_edge("kt-closeness(k=1)", "ldp", f="2*log(t) + 1", N=3)
    assert r.forward.f_verdict == "proved"


@pytest.mark.parametrize("a,b", [("mult-t-closeness", "ldp"), ("ldp", "mult-t-closeness")])
def test_f_oo_is_trivially_met_everywhere(a, b):
    # oo is the weakest level of a ratio: every table meets it (before: refuted in check-edge by a table with B = oo
    # one way, unknown in verify the other way)
    r = check_implication(a, b, "oo")
    assert r.verdict == "proved" and r.tightness == "trivial"
    (cert,) = certificates_in(r.details)
    assert check_certificate(cert).ok
    assert not check_certificate(dict(cert, target="5")).ok       # a finite target is no weakest level of a ratio
    d = check_edge(a, b, f="oo", N=3).forward
    assert d.f_verdict == "proved" and d.f_trivial


def test_f_oo_is_no_level_of_a_count():
    # a count is finite on every table: the conjecture ldp => k-anonymity(oo) fails on any table (here classes of 1)
    r = check_implication("ldp", "k-anonymity", "oo")
    assert r.verdict == "refuted" and r.witness
    assert check_edge("ldp", "k-anonymity", f="oo", N=3).forward.f_verdict == "refuted"


@pytest.mark.parametrize("f", ["sqrt(-1)", "Piecewise((t, t > 2))", "sqrt(t - 2)"])
def test_f_that_is_no_real_number_is_an_input_error(f):
    with pytest.raises(InputError):
        check_edge("mult-t-closeness", "ldp", f=f, N=3)


@pytest.mark.parametrize("k", ["-1", "1/2", "10**100"])
def test_a_parameter_outside_its_range_is_an_input_error(k, capsys):
    from implgraph.cli import main
    with pytest.raises(InputError):
        check_edge(f"kdp(k={k})", "dp", N=4)
    assert main(["check-edge", f"kdp(k={k})", "dp"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "fix:" in err[0]


def test_the_prover_never_proves_at_a_size_that_is_no_integer():
    r = check_implication("kdp", "dp", None, a_params={"k": "3/2"})
    assert r.verdict != "proved"
