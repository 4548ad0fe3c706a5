"""``implgraph definitions`` and ``implgraph claims``: what exists, listed without checking anything.

Expected values are read by hand from ``implgraph/definitions/*.py`` (the class attributes) and from
the data files (``counterexamples/ekenstedt2022.yaml``, ``theorems/*.yaml``, re-read here with plain
``yaml.safe_load``, independently of the engine's loader).
"""

import functools
import json
import re
import time
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from implgraph.cli import main

from _plugin_fixtures import example_class, registered

ROOT = Path(__file__).resolve().parents[1]


def _json(capsys, *argv):
    rc = main(list(argv))
    captured = capsys.readouterr()
    return rc, json.loads(captured.out) if rc == 0 else captured


def _one_line_error(capsys, *argv):
    rc = main(list(argv))
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert rc == 2, captured
    assert len(lines) == 1 and "fix:" in lines[0] and "Traceback" not in captured.err
    assert captured.out == ""
    return lines[0]


# -- definitions ---------------------------------------------------------------------------------

# (name, level symbol, scale, stronger, needs classes, own parameters): the class attributes of
# implgraph/definitions/{mult_t_closeness,kt_closeness,dp,ldp,kdp,k_anonymity,emd_t_closeness,l_diversity}.py
BUILTINS = [
    ("mult-t-closeness", "t", "ratio", "smaller", True, []),
    ("kt-closeness", "t", "ratio", "smaller", False, ["k"]),
    ("dp", "eps", "log", "smaller", False, []),
    ("ldp", "eps", "log", "smaller", False, []),
    ("kdp", "eps", "log", "smaller", False, ["k"]),
    ("k-anonymity", "k", "count", "larger", True, []),
    ("emd-t-closeness", "t", "distance", "smaller", True, ["ground"]),
    ("frequency-l-diversity", "l", "count", "larger", True, []),
    ("entropy-l-diversity", "l", "count", "larger", True, []),
]


def test_definitions_lists_every_builtin(capsys):
    rc, out = _json(capsys, "definitions", "--json")
    assert rc == 0
    names = [d["name"] for d in out["definitions"]]
    assert {b[0] for b in BUILTINS} <= set(names)
    assert len(names) == len(set(names))


@pytest.mark.parametrize("name, symbol, scale, stronger, classes, own", BUILTINS)
def test_definition_described(capsys, name, symbol, scale, stronger, classes, own):
    rc, out = _json(capsys, "definitions", name, "--json")
    assert rc == 0
    (d,) = out["definitions"]
    assert (d["name"], d["level_symbol"], d["scale"], d["stronger"], d["needs_classes"]) == \
        (name, symbol, scale, stronger, classes)
    # own parameters first; a class-based definition also takes the class sizes k (min) and max,
    # unless k is its own parameter (none of the class-based built-ins has one)
    assert list(d["parameters"])[: len(own)] == own
    assert set(d["parameters"]) == set(own) | ({"k", "max"} if classes else set())
    assert d["reference"]                       # every built-in names its paper
    assert d["scale_meaning"].startswith(scale + ":")


@pytest.mark.parametrize("name, needle", [
    ("kt-closeness", "1 <= k <= N - 1"),          # the range in kt_closeness.py's params
    ("kdp", "1 <= k <= N - 1"),
    ("emd-t-closeness", "equal or ordered"),
])
def test_parameter_ranges_shown(capsys, name, needle):
    assert main(["definitions", name]) == 0
    assert needle in capsys.readouterr().out


@pytest.mark.parametrize("scale, needle", [("log", "natural log"), ("ratio", "ratio itself")])
def test_scale_text(capsys, scale, needle):
    name = {"log": "ldp", "ratio": "kt-closeness"}[scale]
    rc, out = _json(capsys, "definitions", name, "--json")
    assert needle in out["definitions"][0]["scale_meaning"]


def test_definitions_text_has_every_name(capsys):
    assert main(["definitions"]) == 0
    out = capsys.readouterr().out
    for name, *_ in BUILTINS:
        assert f"\n{name}  (" in "\n" + out
    assert "definition(s)" in out.splitlines()[-1]


def test_definitions_plugin_included(capsys):
    # the tutorial's example: level delta = ln(ratio), class-based, Brickell and Shmatikov 2008
    with registered(example_class()):
        rc, out = _json(capsys, "definitions", "delta-disclosure", "--json")
    assert rc == 0
    (d,) = out["definitions"]
    assert (d["level_symbol"], d["scale"], d["stronger"], d["needs_classes"]) == ("delta", "log", "smaller", True)
    assert "Brickell" in d["reference"]
    assert d["engine"]["refuter"] == "class-ratio"          # family "class" (implgraph/definitions/families.py _SHAPES)


@pytest.mark.parametrize("argv", [["definitions", "no-such-definition"],
                                  ["definitions", "dp", "DP"]])
def test_definitions_unknown_name(capsys, argv):
    line = _one_line_error(capsys, *argv)
    assert "unknown definition" in line and "kt-closeness" in line


# -- claims --------------------------------------------------------------------------------------

# the claim ids under table ekenstedt2022/table-VI, read in counterexamples/ekenstedt2022.yaml
TABLE_VI = ["ekenstedt2022/table-VI/caption-kt", "ekenstedt2022/table-VI/proof-kt",
            "ekenstedt2022/table-VI/proof-ldp", "ekenstedt2022/table-VI/theorem-3b-non-implication"]


def _ids(capsys, *args):
    rc, out = _json(capsys, "claims", *args, "--json")
    assert rc == 0, out
    return [r["id"] for r in out["claims"]], out


@functools.lru_cache(maxsize=1)
def _yaml_claims():
    """Every claim of the bundled data, read with plain yaml: (claim, table id or None)."""
    out = []
    for path in sorted((ROOT / "theorems").glob("*.yaml")):
        out += [(c, None) for c in yaml.safe_load(path.read_text())["claims"]]
    for path in sorted((ROOT / "counterexamples").glob("*.yaml")):
        for t in yaml.safe_load(path.read_text())["tables"]:
            out += [(c, t["id"]) for c in t.get("claims") or []]
    return tuple(out)


def test_claims_table_prefix_exact(capsys):
    ids, _ = _ids(capsys, "ekenstedt2022/table-VI")
    assert ids == TABLE_VI                      # not table-VII's claims: a prefix ends at "/"


def test_claims_text_rows(capsys):
    assert main(["claims", "ekenstedt2022/table-VI"]) == 0
    out = capsys.readouterr().out
    for cid in TABLE_VI:
        assert out.count(cid + " ") == 1
    assert out.splitlines()[-1].startswith("4 claims and 0 readings")


def test_claims_row_fields(capsys):
    # counterexamples/ekenstedt2022.yaml: theorem-3b-non-implication is `unbounded`,
    # from kt-closeness with k = 2 to ldp, expect confirmed
    _, out = _ids(capsys, "ekenstedt2022/table-VI/theorem-3b-non-implication")
    (r,) = out["claims"]
    assert (r["kind"], r["from"], r["to"], r["expect"], r["table"], r["paper"]) == \
        ("unbounded", "kt-closeness(k=2)", "ldp", "confirmed", "ekenstedt2022/table-VI", "ekenstedt2022")
    assert r["file"].endswith("counterexamples/ekenstedt2022.yaml") and r["line"] > 0


def test_claims_reading_row(capsys):
    # theorems/ekenstedt2022.yaml, lemma-2.3: printed not-implies kt-closeness(k=k) -> mult-t-closeness
    # (classes of at least k), reading_kind generalisation with f = t, reading_expect proved
    ids, out = _ids(capsys, "ekenstedt2022/lemma-2.3")
    assert ids == ["ekenstedt2022/lemma-2.3", "ekenstedt2022/lemma-2.3#reading"]
    printed, reading = out["claims"]
    assert (printed["kind"], printed["expect"], printed["from"]) == ("not-implies", "refuted", "kt-closeness(k=k)")
    assert printed["to"].startswith("mult-t-closeness")
    assert (reading["kind"], reading["expect"], reading["f"], reading["reading_of"]) == \
        ("generalisation", "proved", "t", "ekenstedt2022/lemma-2.3")
    assert reading["printed"].startswith("The proof shows")


def test_claims_reading_row_alone(capsys):
    ids, _ = _ids(capsys, "ekenstedt2022/lemma-2.3#reading")
    assert ids == ["ekenstedt2022/lemma-2.3#reading"]


def test_claims_all_match_the_data(capsys):
    ids, out = _ids(capsys)
    expected = []
    for c, _table in _yaml_claims():
        expected.append(c["id"])
        if "reading" in c:                      # a proof's reading: one more row, as in verify
            expected.append(c["id"] + "#reading")
    assert ids == expected
    assert out["count"] == len(expected)


def test_claims_full_statement_in_json_and_in_text(capsys):
    # the reading of lemma-2.3 is a long paragraph (theorems/ekenstedt2022.yaml)
    text = next(c["reading"] for c, _ in _yaml_claims() if c["id"] == "ekenstedt2022/lemma-2.3")
    full = " ".join(text.split())
    assert len(full) > 200
    _, out = _ids(capsys, "ekenstedt2022/lemma-2.3#reading")
    assert out["claims"][0]["printed"] == full
    assert main(["claims", "ekenstedt2022/lemma-2.3#reading"]) == 0
    shown = capsys.readouterr().out
    # issue 16: text output wraps, it never cuts a statement with "..."
    assert full in " ".join(shown.split())


@pytest.mark.parametrize("args, expected", [
    (["ekenstedt2022/table-VI", "--kind", "unbounded"], ["ekenstedt2022/table-VI/theorem-3b-non-implication"]),
    (["ekenstedt2022/table-VI", "--kind", "level"], TABLE_VI[:3]),
    (["--paper", "ekenstedt2022", "--kind", "reachability"], ["ekenstedt2022/fig-1-text"]),
])
def test_claims_filters(capsys, args, expected):
    ids, _ = _ids(capsys, *args)
    assert ids == expected


@pytest.mark.parametrize("paper", ["domingo-ferrer2015", "sei2019"])
def test_claims_paper_equals_prefix(capsys, paper):
    by_paper, _ = _ids(capsys, "--paper", paper)
    by_prefix, _ = _ids(capsys, paper)
    expected = [c["id"] for c, _ in _yaml_claims() if c["id"].startswith(paper + "/")]
    assert [i for i in by_paper if "#" not in i] == expected
    assert by_prefix == by_paper


@pytest.mark.parametrize("argv, needle", [
    (["claims", "ekenstedt2022/table-IX"], "ekenstedt2022/table-IX"),
    (["claims", "ekenstedt"], "ekenstedt2022"),              # a prefix must end at "/": did you mean
    (["claims", "ekenstedt2022/table-VI", "no/such"], "no/such"),
    (["claims", "--paper", "nosuch"], "sei2019"),
    (["claims", "--paper", "sei2019", "--kind", "map"], "--kind map"),   # sei2019 has no map claim
    (["claims", "--kind", "bogus"], "bogus"),
])
def test_claims_bad_selection(capsys, argv, needle):
    assert needle in _one_line_error(capsys, *argv)


def test_claims_runs_no_checker_and_is_fast(capsys, monkeypatch):
    import implgraph.checks
    import implgraph.checks.verify

    def boom(*a, **k):
        raise AssertionError("a checker ran")
    monkeypatch.setattr(implgraph.checks, "check_claim", boom)
    monkeypatch.setattr(implgraph.checks.verify, "check_claim", boom)
    main(["claims", "--json"])                  # warm: imports
    capsys.readouterr()
    start = time.perf_counter()
    assert main(["claims"]) == 0
    assert time.perf_counter() - start < 2.0
    assert capsys.readouterr().out


def test_claims_prefixes_select_as_verify(capsys):
    from implgraph.checks.verify import collect_claims
    ids, _ = _ids(capsys, "ekenstedt2022/table-III")
    assert [i for i in ids if "#" not in i] == [str(c["id"]) for c in collect_claims(["ekenstedt2022/table-III"])]


# -- the docs' example definition ----------------------------------------------------------------

def _doc_example_class():
    """The beta-likeness class of docs/sections/adding-a-definition.md, executed as printed there."""
    text = (ROOT / "docs" / "sections" / "adding-a-definition.md").read_text()
    block = next(b for b in re.findall(r"```python\n(.*?)```", text, re.S) if "class BetaLikeness" in b)
    namespace: dict = {}
    exec(compile(block, "adding-a-definition.md", "exec"), namespace)
    return namespace["BetaLikeness"]


@pytest.mark.parametrize("rows, classes, beta", [
    # the page's table: D = (3/8, 5/8); E1's a1 is (1/2)/(3/8) = 4/3 times the table's: beta = 1/3
    ([["1/2", "1/2"], ["1/4", "3/4"]], ["E1", "E2"], Fraction(1, 3)),
    # the page's check-edge witness: E1 has Pr(a2) = 1, twice the table's 1/2: beta = 1
    ([["0", "1"], ["1", "0"]], ["E1", "E2"], Fraction(1)),
    # every class with the table's distribution: beta = 0
    ([["1/3", "2/3"], ["1/3", "2/3"]], ["E1", "E2"], Fraction(0)),
])
def test_doc_example_definition_levels(rows, classes, beta):
    from implgraph import ConcreteTable, optimal_level
    cls = _doc_example_class()
    ct = ConcreteTable.from_fractions([[Fraction(x) for x in r] for r in rows], classes=classes)
    with registered(cls):
        assert optimal_level(ct, "beta-likeness").value == beta


def test_doc_example_definition_symbolic_table_iii():
    # Table III of ekenstedt2022: both classes have the table's distribution (its caption: multiplicative
    # 1-closeness), so beta = 0 on the whole region, through `symbolic`
    from implgraph import load_table_file, optimal_level
    cls = _doc_example_class()
    table = load_table_file(str(ROOT / "counterexamples" / "ekenstedt2022.yaml"), "ekenstedt2022/table-III")
    with registered(cls):
        assert optimal_level(table, "beta-likeness").value == 0
