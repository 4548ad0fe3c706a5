"""discover: every pair without an edge, in parallel; crashing plugins are reported and skipped."""

import os

import pytest
import sympy
import yaml

from implgraph.engines.discover import discover, instances, known_pairs
from implgraph.engines.discover_compare import compare_with_theorems
from implgraph.engines.discover_yaml import yaml_snippet
from implgraph.cli import main
from implgraph.definitions.capabilities import RatioLevel
from implgraph.definitions.families import RatioOfAverages

from _plugin_fixtures import example_class, registered

delta, eps = sympy.symbols("delta eps", positive=True)


def _finding(r, a, b):
    for f in r.findings:
        if {f.a, f.b} == {a, b}:
            return f
    raise AssertionError(f"no finding for {a}, {b}")


def test_instances_and_known_pairs():
    nodes, skipped = instances(3, ["kt-closeness", "ldp"])
    assert [n.label() for n in nodes] == ["kt-closeness(k=1)", "kt-closeness(k=2)", "ldp"]
    known = known_pairs()
    assert ("ldp", "kt-closeness") in known and ("kt-closeness", "ldp") in known
    assert ("dp", "kdp") in known            # Lemma 3.3 is an equivalence: both directions
    assert ("ldp", "dp") not in known


def test_discover_finds_the_plugin_edges():
    with registered(example_class()):
        r = discover(N=3, names=["mult-t-closeness", "delta-disclosure", "ldp"], workers=2, progress=False)
    assert r.errors == []
    # ldp <-> mult-t-closeness is encoded (Lemma 1, Theorem 1): skipped
    assert all({f.a, f.b} != {"ldp", "mult-t-closeness"} for f in r.findings)
    eq = _finding(r, "delta-disclosure", "mult-t-closeness")
    assert eq.kind == "equivalence"
    fw = eq.forward if eq.forward.a == "delta-disclosure" else eq.backward
    assert sympy.sympify(fw.tight, locals={"delta": delta}) == sympy.exp(delta)
    gen = _finding(r, "delta-disclosure", "ldp")
    assert gen.kind == "generalisation"
    to_delta = gen.forward if gen.forward.a == "ldp" else gen.backward
    # ldp => delta at N = 3: the worst class is one record at p, the others at e^eps p:
    # delta = ln((2 e^eps + 1)/3)
    assert sympy.simplify(sympy.exp(sympy.sympify(to_delta.tight, locals={"eps": eps}))
                          - (2 * sympy.exp(eps) + 1) / 3) == 0


class Exploding(RatioOfAverages):
    name = "exploding"
    level_symbol = "x"
    scale = "ratio"
    declares = (RatioLevel("pairwise"),)

    def lf_terms(self, N, sizes, p, **params):
        raise RuntimeError("kaboom")


class Killer(RatioOfAverages):
    name = "killer"
    level_symbol = "x"
    scale = "ratio"
    declares = (RatioLevel("pairwise"),)

    def lf_terms(self, N, sizes, p, **params):
        os._exit(3)


def test_a_crashing_plugin_is_reported_and_skipped():
    with registered(Exploding):
        r = discover(N=3, names=["exploding", "ldp", "dp"], workers=2, progress=False)
    assert len(r.errors) == 4                              # exploding -> ldp, dp and back
    assert all("kaboom" in e for e in r.errors)
    assert _finding(r, "dp", "ldp").kind == "generalisation"   # the other pair goes on


def test_a_plugin_killing_its_worker_does_not_take_discover_down():
    with registered(Killer):
        r = discover(N=3, names=["killer", "ldp", "dp"], workers=2, progress=False)
    assert len(r.errors) == 4 and all("died" in e for e in r.errors)
    assert _finding(r, "dp", "ldp").kind == "generalisation"


def test_yaml_snippets_are_valid_data():
    r = discover(N=3, names=["ldp", "dp"], workers=1, progress=False)
    f = _finding(r, "ldp", "dp")
    texts = [yaml_snippet(d, 3) for d in (f.forward, f.backward)]
    imp = yaml.safe_load(texts[0].split("# counterexamples/")[0].replace("# theorems/\n", ""))[0]
    assert imp["kind"] == "implies" and imp["from"]["definition"] == "ldp" and imp["to"]["definition"] == "dp"
    # (discover decides a pair as check-edge does, the prover included: ldp => dp is proved for every N)
    assert imp["when"] == ["N >= 2"] and imp["expect"] == "proved"
    theorem, table = texts[1].split("# counterexamples/")
    neg = yaml.safe_load(theorem.replace("# theorems/\n", ""))[0]
    tab = yaml.safe_load(table)[0]
    assert neg["kind"] == "not-implies" and neg["witness"] == tab["id"]
    assert len(tab["rows"]) == 3


def test_cli_discover_json(capsys):
    import json
    rc = main(["discover", "--N", "3", "--definitions", "ldp", "--definitions", "dp", "--jobs", "1", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["N"] == 3 and len(out["findings"]) == 1
    assert out["findings"][0]["kind"] == "generalisation"


def test_cli_discover_unknown_name(capsys):
    rc = main(["discover", "--definitions", "nope"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "unknown definition 'nope'" in err


@pytest.mark.slow
def test_discover_refinds_the_papers_relations():
    """All built-ins at N = 4, encoded pairs included, compared with theorems/ (the table of the tutorial)."""
    r = discover(N=4, include_known=True, progress=False)
    assert r.errors == []
    rows = compare_with_theorems(r)
    status = {(c["claim"], c["instance"]): c["status"] for c in rows}
    tight = "re-found, same f (tight)"
    assert status[("ekenstedt2022/theorem-2b", "ldp -> kt-closeness(k=1)")] == tight
    assert status[("ekenstedt2022/lemma-3.3", "kdp(k=1) -> dp")] == tight
    for inst in ("kt-closeness(k=1) -> kdp(k=3)", "kt-closeness(k=2) -> kdp(k=2)", "kt-closeness(k=3) -> kdp(k=1)"):
        assert status[("ekenstedt2022/theorem-4.1", inst)] == tight
    assert status[("ekenstedt2022/theorem-1", "mult-t-closeness -> ldp")] == "re-found"
    assert status[("ekenstedt2022/theorem-3b", "kt-closeness(k=2) -> ldp")] == "re-found"
    assert status[("ekenstedt2022/theorem-2a", "kt-closeness(k=1) -> ldp")].startswith("re-found, paper f is loose")
    assert status[("ekenstedt2022/theorem-3a", "ldp -> kt-closeness(k=2)")].startswith("refuted: paper f below")
    assert status[("ekenstedt2022/lemma-3.4", "kdp(k=2) -> dp")].startswith("contradicted")
    assert status[("ekenstedt2022/lemma-3.4#reading (reading)", "kdp(k=2) -> dp")] == "re-found"
    # one row per smallest class size k; at k = 3 (N = 4) the table is one class, where mult-t-closeness is 1
    by_k = {c["point"]["k"]: c["status"] for c in rows if c["claim"] == "domingo-ferrer2015/proposition-1"}
    assert by_k[1] == by_k[2] == "refuted: discover finds a witness" and by_k[3].startswith("refuted only at degenerate")
    assert status[("ekenstedt2022/theorem-5", "mult-t-closeness -> kdp(k=1)")] == "not modelled"
    # under Definition 8 on the whole table, over every partition: at k = 1 a one-class table (t = 1) whose record
    # holds a whole bucket has eps = oo; at k = 2 two records at 0 in one class make kdp infinite
    reading = "ekenstedt2022/theorem-5#reading (reading)"
    assert status[(reading, "mult-t-closeness -> kdp(k=1)")] == "re-found"
    assert status[(reading, "mult-t-closeness -> kdp(k=2)")] == "re-found"
    # agreement with the verdicts recorded in the data: never the opposite of the expectation (a claim for
    # every value of a parameter is refuted by one instance: some instance disagrees, others may re-find it)
    for c in rows:
        if c["expect"] in ("proved", "confirmed", "holds"):
            assert not c["status"].startswith(("refuted", "contradicted")), c
    for claim in {c["claim"] for c in rows if c["expect"] == "refuted"}:
        assert any(c["status"].startswith(("refuted", "contradicted", "not modelled", "undecided"))
                   for c in rows if c["claim"] == claim), claim


def test_a_plugin_that_failed_to_load_is_reported(monkeypatch, capsys):
    from implgraph.definitions import base
    monkeypatch.setattr(base, "_LOAD_ERRORS", ["plugin broken-plugin: ImportError: no module named x"])
    r = discover(N=2, names=["ldp", "dp"], workers=1, progress=False)
    assert r.errors == ["plugin broken-plugin: ImportError: no module named x (skipped)"]
    rc = main(["check-edge", "broken-plugin", "ldp"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "failed to load" in err


@pytest.mark.slow
def test_discover_over_a_range_of_N_refinds_theorem_2b_in_N():
    # N = 2..5, k = 1: the tight f of LDP => (1,t)-closeness at every N is ((N - 1) e^eps + 1)/N,
    # Theorem 2 of ekenstedt2022 exactly, fitted through the exact values
    r = discover(N=5, n_min=2, names=["ldp", "kt-closeness"], workers=1, progress=False, include_known=True)
    f = _finding(r, "ldp", "kt-closeness(k=1)")
    d = f.forward if f.forward.a == "ldp" else f.backward
    N = sympy.Symbol("N", integer=True, positive=True)
    assert sympy.simplify(sympy.sympify(d.tight_in_N, locals={"eps": eps, "N": N})
                          - ((N - 1) * sympy.exp(eps) + 1) / N) == 0
    rows = {(c["claim"], c["instance"]): c["status"] for c in compare_with_theorems(r)}
    assert rows[("ekenstedt2022/theorem-2b", "ldp -> kt-closeness(k=1)")] == \
        "re-found, same f for every N = 2..5 (tight)"
    snippet = yaml_snippet(d, 5, n_min=2)
    claim = yaml.safe_load(snippet.replace("# theorems/\n", ""))[0]
    # the prover proves it for every N, so the edge is written for every N (not for the N = 2..5 checked)
    assert claim["when"] == ["N >= 2"] and claim["expect"] == "proved" and "N" in claim["f"]


def test_discover_tries_minimum_class_sizes():
    # a class-based ratio definition is tried with every minimum class size k = 2..N/2 (k = 1: any
    # partition, the plain node); the level of k-anonymity is a class size itself: not restricted
    nodes, _ = instances(4, ["mult-t-closeness", "k-anonymity"])
    assert [n.label() for n in nodes] == ["mult-t-closeness", "mult-t-closeness(k=2)", "k-anonymity"]
    assert [n.label() for n in instances(3, ["mult-t-closeness"])[0]] == ["mult-t-closeness"]


def test_discover_write_and_path_in_the_plugins_units(tmp_path):
    # basic beta-likeness (one-sided): beta = Pr_E/Pr_D - 1; under eps-LDP the worst class is one record
    # at e^eps a, the N - 1 others at a: beta = (N - 1)(e^eps - 1)/(e^eps + N - 1), at N = 3:
    # 2 (e^eps - 1)/(e^eps + 2) (in ratio units it would be 3 e^eps/(e^eps + 2), larger by exactly 1)
    from implgraph.map.compose import compositions
    from implgraph.engines.discover_yaml import write_data
    from implgraph.map.rules import load_rules
    from _plugin_fixtures import BasicBetaLikeness
    hand = 2 * (sympy.exp(eps) - 1) / (sympy.exp(eps) + 2)
    with registered(BasicBetaLikeness):
        r = discover(N=3, names=["ldp", "beta-likeness"], workers=1, progress=False)
        tpath, _ = write_data(r, tmp_path)
        claims = yaml.safe_load(tpath.read_text())["claims"]
        claim = next(c for c in claims if c["from"]["definition"] == "ldp" and c["to"]["definition"] == "beta-likeness")
        assert claim["to"]["level"] == "beta"
        # the prover's vertex argument (one-sided class) gives the f for every N: the hand formula above
        Nsym = sympy.Symbol("N", integer=True)
        f = sympy.sympify(claim["f"].replace("ln(", "log("), locals={"eps": eps, "N": Nsym})
        assert sympy.simplify(f - (Nsym - 1) * (sympy.exp(eps) - 1) / (sympy.exp(eps) + Nsym - 1)) == 0
        assert sympy.simplify(f.subs(Nsym, 3) - hand) == 0
        # the claim's verdict, given here as bounded (`implgraph verify` has no z3 encoding of this test
        # plugin and would say unknown, which keeps a rule out of path)
        rules = load_rules([tpath], {claim["id"]: "verified-bounded"})
        comps = compositions(rules, "ldp", "beta-likeness", N=3)
        assert len(comps) == 1
        assert sympy.simplify(comps[0].f.subs(comps[0].level, eps) - hand) == 0


def test_compare_f_reports_a_valid_level_before_a_degenerate_one():
    # ekenstedt2022 Theorem 3a at N = 4, k = 2: f = (1/2)(1 + e^eps/2); the tight f is (1 + e^eps)/2
    # (2 records at a, 2 at e^eps a), above f = 1/2 + e^eps/4 by e^eps/4 everywhere.
    # f >= 1 only for e^eps >= 2: at the samples e^eps = 1, 9/8, 5/4, 3/2 f is no valid level (degenerate);
    # e^eps = 2 (f = 1) is the first valid level, reported first.
    from implgraph.engines.direction import check_direction
    from implgraph.definitions import get
    from implgraph.engines.discover_compare import _compare_f
    d = check_direction("ldp", "kt-closeness(k=2)", N=4, n_min=4, prover=False)
    f = sympy.Rational(1, 2) * (1 + sympy.exp(eps) / 2)
    status = _compare_f(f, d, eps, get("ldp"), get("kt-closeness"))
    assert status.startswith("refuted: paper f below the tight value at eps = log(2)")
    assert "degenerate level eps = 0" in status


def test_written_findings_verify_as_written(tmp_path):
    """discover --write: every written claim's expect: is what verify gives (a proved edge is written for every
    N and verifies as proved; no regression)."""
    from implgraph.engines.discover_yaml import write_data
    from implgraph.checks.verify import run_verify, regressions
    r = discover(N=3, names=["ldp", "dp"], workers=1, progress=False)
    tpath, _ = write_data(r, tmp_path)
    vs = run_verify(paths=[str(tpath)], max_n=3)
    assert vs and not regressions(vs)
    # ldp => dp is proved for every N (the vertex argument: dp compares subsets of j = N - 1 records, so the
    # tight raw level is ((N - j) e^eps + j)/N = (e^eps + N - 1)/N): written for every N, not N == 3 only
    imp = next(c for c in yaml.safe_load(tpath.read_text())["claims"] if c["kind"] == "implies")
    assert imp["when"] == ["N >= 2"] and imp["expect"] == "proved"
    N, eps = sympy.symbols("N eps")
    f = sympy.sympify(imp["f"].replace("ln(", "log("), locals={"N": N, "eps": eps})
    assert sympy.simplify(f - sympy.log((sympy.exp(eps) + N - 1) / N)) == 0
    assert next(v for v in vs if v.id == imp["id"]).verdict == "proved"


def test_set_expects_rewrites_only_the_named_claims(tmp_path):
    """discover --write sets each written claim's expect: to verify's verdict; discover's own word stays in a
    comment, the other claims and the YAML structure are untouched."""
    from implgraph.engines.discover_yaml import set_expects
    path = tmp_path / "theorems" / "x.yaml"
    path.parent.mkdir()
    path.write_text("claims:\n  - id: p/a\n    kind: implies\n    expect: verified-bounded\n"
                    "  - id: p/b\n    kind: implies\n    expect: proved\n")
    assert set_expects(path, {"p/a": "unknown", "p/b": "proved", "p/zzz": "refuted"}) == 1
    doc = yaml.safe_load(path.read_text())
    assert [c["expect"] for c in doc["claims"]] == ["unknown", "proved"]
    assert "discover's bounded evidence: verified-bounded" in path.read_text()


@pytest.mark.slow
def test_discover_at_large_n_samples_the_sizes_and_proves_for_every_n(capsys):
    # (issue 12: any N) beyond 7 records the sizes k are 1, 2, 3, N/2, N - 2, N - 1 (k = 1..N - 1 each would make the
    # pairs grow as N^2); the tables are two blocks of equal rows, and an implication is the prover's, for every N:
    # ldp => kt-closeness(k) has f = ((N - k) e^eps + k)/N (ekenstedt2022 Theorem 3 with N - k; by hand: one record at
    # e^eps times the other N - 1 in the worst k-subset)
    nodes, _ = instances(30, ["kt-closeness", "ldp"])
    assert [n.label() for n in nodes] == [f"kt-closeness(k={k})" for k in (1, 2, 3, 15, 28, 29)] + ["ldp"]
    r = discover(N=30, names=["ldp", "kt-closeness"], include_known=True, workers=1)
    f = _finding(r, "ldp", "kt-closeness(k=2)")
    fw = f.forward if f.forward.a == "ldp" else f.backward
    N = sympy.Symbol("N", integer=True, positive=True)
    assert fw.verdict == "proved" and sympy.simplify(
        sympy.sympify(fw.tight_all_n, locals={"N": N, "eps": eps}) - ((N - 2) * sympy.exp(eps) + 2) / N) == 0
    # (without --quiet: the witnesses are printed under each finding)
    rc = main(["discover", "--N", "30", "--definitions", "ldp", "--definitions", "kt-closeness", "--all", "--jobs",
               "1"])
    out = capsys.readouterr().out
    assert rc == 0 and "discover at N = 30" in out and "29 x [1/2, 1/2]" in out


def test_a_witness_at_another_N_says_nothing_of_an_instance_fixed_by_N():
    """Theorem 4.1 at N = 4 (kDP = N - kClo: kClo = kDP = 2) is an instance for N = 4 only. A direction
    kt-closeness(k=2) => kdp(k=2) that is a non-implication only by a table of 5 records (a family beyond the N
    checked; at N = 4 itself every table satisfied it) is no evidence against it: the instance is judged by the
    tables of N = 4 alone (re-found there), never refuted. The direction and its instance are written by hand."""
    from implgraph.engines.direction import DirectionResult
    from implgraph.engines.discover import DiscoverResult, Finding
    from implgraph.engines.instance import Instance
    from implgraph.io.theorems import load_theorems
    at4 = Instance(N=4, point={"N": 4}, relation="implication")
    d = DirectionResult(a="kt-closeness(k=2)", b="kdp(k=2)", relation="non-implication", verdict="refuted", bound="",
                        evidence="at N = 5, beyond the N checked", witness={"point": {"N": 5}}, instances=[at4])
    r = DiscoverResult(N=4, findings=[Finding(a=d.a, b=d.b, kind="x", summary="", forward=d, backward=None)])
    edges = [e for e in load_theorems() if e.id == "ekenstedt2022/theorem-4.1"]
    rows = [c for c in compare_with_theorems(r, edges) if c["instance"] == "kt-closeness(k=2) -> kdp(k=2)"]
    assert rows and all(c["status"].startswith("re-found") and "N = 5" in c["note"] for c in rows)
    # the same witness at N = 4 itself refutes the instance
    d.witness, d.instances = {"point": {"N": 4}}, [Instance(N=4, point={"N": 4}, relation="non-implication")]
    rows = [c for c in compare_with_theorems(r, edges) if c["instance"] == "kt-closeness(k=2) -> kdp(k=2)"]
    assert rows and all(c["status"].startswith("refuted") for c in rows)
