"""Mechanisms on microdata (grouped releases) and the guarantees that follow through the map.

Values are derived by hand or by the brute-force oracles of ``tests/brute.py`` on the release written
out record by record.
"""

from __future__ import annotations

import json
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import sympy

pd = pytest.importorskip("pandas", reason="the microdata path needs pandas (pip install implgraph[microdata])")

import brute  # noqa: E402
from implgraph.cli import main  # noqa: E402
from implgraph.definitions import all_definitions  # noqa: E402
from implgraph.io.microdata import table_levels  # noqa: E402
from implgraph.map.guarantees import Guarantee, Implied, class_sizes, guarantees  # noqa: E402
from implgraph.map.rules import load_rules  # noqa: E402
from implgraph.mechanisms.on_data import apply_channel, release  # noqa: E402

PATIENTS = Path(__file__).parent / "data" / "microdata" / "patients.csv"


def _defs(**where):
    """The registered definitions with the given declared attributes (never named here)."""
    from implgraph.definitions.capabilities import family_of
    return [d for d in all_definitions()
            if all((family_of(d) if k == "family" else getattr(d, k)) == v for k, v in where.items())]


def _by_family(family, needs_classes=False):
    """The one registered definition of a declared family, on the ratio (log) scale, without own parameters."""
    scale = "ratio" if needs_classes else "log"
    found = [d for d in _defs(family=family, needs_classes=needs_classes) if not d.params
             and d.level_scale.name == scale]
    assert len(found) == 1, [d.name for d in found]
    return found[0]


def _rows(table):
    """The grouped table written out: (rows of Fractions, class labels)."""
    ex = table.expand()
    rows = [[Fraction(int(x), ex.denom) for x in r] for r in ex.numer.tolist()]
    return rows, (None if ex.classes is None else list(ex.classes))


def _ratio(level):
    """A log-scale level back to its ratio (exact)."""
    return sympy.exp(level.value) if level.definition.level_scale.name == "log" else level.value


# ------------------------------------------------------------------------------------------------
# releases

def test_randomised_response_rows_by_hand():
    df = pd.DataFrame({"q": ["a", "a", "b", "b"], "s": ["x", "y", "x", "z"]})
    rel = release(df, ["q"], "s", "randomised-response", p="1/2")
    # n = 3 values: keep 1/2 + 1/6 = 2/3, any other value 1/6
    assert rel.denom == 6 and rel.N == 4
    assert sorted(map(tuple, rel.rows.tolist())) == sorted([(4, 1, 1), (1, 4, 1), (4, 1, 1), (1, 1, 4)])
    assert class_sizes(rel) == (2, 2)


@pytest.mark.parametrize("mechanism, kw", [("randomised-response", {"p": "1/2"}),
                                           ("empirical-response", {"p": "1/3"}),
                                           ("set-channel", {"p": "1/2", "eta": 2})])
def test_release_levels_match_brute_force(mechanism, kw):
    """Grouped release vs the oracles on every record written out (patients: N = 10, 3 classes)."""
    rel = release(PATIENTS, ["age", "zip"], "disease", mechanism, **kw)
    levels = table_levels(rel, {"k": 2})
    rows, classes = _rows(rel)
    expected = {("pairwise", False): brute.ldp(rows), ("class", True): brute.mult_t(rows, classes)}
    for (family, with_classes), value in expected.items():
        d = _by_family(family, with_classes)
        assert _ratio(levels[d.name]) == sympy.Rational(value.numerator, value.denominator), d.name
    subset = [d for d in _defs(family="subset") if "k" in d.params]
    for d in subset:
        oracle = brute.kt(rows, 2) if d.level_scale.name != "log" else brute.kdp(rows, 2)
        assert _ratio(levels[d.name]) == sympy.Rational(oracle.numerator, oracle.denominator), d.name


def test_randomised_response_ldp_by_hand():
    """Fig. 4 on n values: eps = ln((p + (1 - p)/n) / ((1 - p)/n)) = ln(1 + n p / (1 - p))."""
    rel = release(PATIENTS, ["age", "zip"], "disease", "randomised-response", p="1/3")
    ldp = _by_family("pairwise")
    assert table_levels(rel)[ldp.name].value == sympy.log(1 + sympy.Rational(3, 2))


def test_set_channel_ldp_by_hand():
    """d = 3, eta = 2, p = 1/2: kappa_c = 1/2 / 2 + 1/2 / 3 = 5/12, kappa_d = 1/2 / 3 = 1/6; ratio 5/2."""
    rel = release(PATIENTS, ["age", "zip"], "disease", "set-channel", p="1/2", eta=2)
    assert rel.buckets == ["{cancer,flu}", "{cancer,hiv}", "{flu,hiv}"]
    assert table_levels(rel)[_by_family("pairwise").name].value == sympy.log(Fraction(5, 2))


def test_bucketization_release():
    """construct(0..11, t = 2, k = 4): classes (2, 1, 1), (1, 2, 1), (1, 1, 2) over buckets of 4 records.

    The largest ratio of a class's bucket share to the table's: (2/4) / (4/12) = 3/2; classes of 4.
    """
    df = pd.DataFrame({"v": list(range(12))})
    rel = release(df, [], "v", "bucketization", t=2, k=4)
    levels = table_levels(rel)
    assert rel.buckets == ["[0, 3]", "[4, 7]", "[8, 11]"]
    assert levels[_by_family("class", True).name].value == sympy.Rational(3, 2)
    (count,) = [d for d in _defs(needs_classes=True, level_symbol="k") if d.level_scale.name == "count"]
    assert levels[count.name].value == 4


def test_apply_channel_is_a_mixture_on_probabilistic_rows():
    from implgraph.io.weighted import WeightedConcreteTable
    t = WeightedConcreteTable([[1, 1], [2, 0]], 2, ["x", "y"], [3, 1])
    out = apply_channel(t, sympy.Matrix([[sympy.Rational(3, 4), sympy.Rational(1, 4)], [0, 1]]), ["u", "v"])
    # (1/2, 1/2) -> (3/8, 5/8); (1, 0) -> (3/4, 1/4)
    assert out.denom == 8 and out.rows.tolist() == [[3, 5], [6, 2]] and out.counts.tolist() == [3, 1]


@pytest.mark.parametrize("kw, needle", [({"mechanism": "set-channel", "p": "1/2"}, "needs the released set size"),
                                        ({"mechanism": "randomised-response"}, "needs the keep probability"),
                                        ({"mechanism": "randomised-response", "p": "3/2"}, "outside"),
                                        ({"mechanism": "bucketization", "t": 2}, "needs t and the class size")])
def test_release_bad_parameters(kw, needle):
    from implgraph.core.errors import InputError
    mech = kw.pop("mechanism")
    with pytest.raises(InputError, match=needle.replace("-", r"\-")):
        release(PATIENTS, ["age"], "disease", mech, **kw)


def test_large_release_is_grouped_and_fast():
    """10^5 records: the release has at most classes x values distinct rows (generous time bound)."""
    rng = np.random.default_rng(0)
    n = 100_000
    df = pd.DataFrame({"age": rng.integers(0, 8, n), "sex": rng.choice(["F", "M"], n),
                       "disease": rng.choice(["a", "b", "c", "d"], n)})
    start = time.perf_counter()
    rel = release(df, ["age", "sex"], "disease", "randomised-response", p="1/2")
    levels = table_levels(rel, {"k": 2})
    assert time.perf_counter() - start < 120
    assert rel.N == n and len(rel.counts) <= 16 * 4
    assert levels[_by_family("pairwise").name].value == sympy.log(5)     # 1 + 4 (1/2) / (1/2)


# ------------------------------------------------------------------------------------------------
# guarantees

def _rules(*proved):
    return load_rules(None, {claim: "proved" for claim in proved})


def _chain_fixture():
    """The ekenstedt2022 rules a pairwise level reaches subset levels by, as established."""
    return _rules("ekenstedt2022/theorem-2b", "ekenstedt2022/lemma-2.1")


def test_implied_level_by_hand():
    """RR p = 1/2 on patients (n = 3 values): eps = ln 4. Theorem 2b at N = 10 gives the subset level at
    k = 1 as ((N - 1) e^eps + 1) / N = 37/10, and Lemma 2.1 carries it to k = 2."""
    rel = release(PATIENTS, ["age", "zip"], "disease", "randomised-response", p="1/2")
    levels = table_levels(rel, {"k": 2})
    gs = {g.definition.name: g for g in guarantees(_chain_fixture(), levels, rel.N, class_sizes(rel))}
    kt = [d for d in _defs(family="subset") if "k" in d.params and d.level_scale.name != "log"][0]
    imp = gs[kt.name].best_implied
    assert imp.value == sympy.Rational(37, 10)
    assert imp.composition.trace == ["ekenstedt2022/theorem-2b", "ekenstedt2022/lemma-2.1"]
    assert gs[kt.name].best == (gs[kt.name].measured, "measured")     # the exact level is never beaten
    assert gs[kt.name].consistent is True


def test_nothing_implied_without_established_rules():
    rel = release(PATIENTS, ["age", "zip"], "disease", "randomised-response", p="1/2")
    gs = guarantees(load_rules(None, {}), table_levels(rel), rel.N, class_sizes(rel))
    assert all(not g.implied for g in gs)


def test_bounded_class_rule_needs_the_partition():
    """Theorem 1's exception (classes of exactly one record) applies to singleton classes only:
    ldp <= ln(t^2) from the class level t."""
    rules = _rules("ekenstedt2022/theorem-1-exception")
    df = pd.DataFrame({"id": list(range(6)), "pair": [0, 0, 1, 1, 2, 2], "s": ["x", "y", "x", "x", "y", "x"]})
    ldp, cls = _by_family("pairwise"), _by_family("class", True)
    for qi, applies in ((["id"], True), (["pair"], False)):
        rel = release(df, qi, "s", "randomised-response", p="1/2")
        levels = table_levels(rel)
        g = {g.definition.name: g for g in guarantees(rules, levels, rel.N, class_sizes(rel))}[ldp.name]
        if applies:
            assert g.best_implied.value == sympy.simplify(sympy.log(levels[cls.name].value ** 2))
            assert g.consistent is True
        else:
            assert not g.implied


def test_conflict_is_reported():
    """An implied level strictly stronger than the exact measured one is a conflict."""
    d = _by_family("pairwise")
    imp = Implied(d.name, {}, sympy.log(2), "x", {}, 1, composition=None)
    g = Guarantee(d, {}, measured=sympy.log(3), implied=[imp])
    assert g.consistent is False and g.best == (sympy.log(2), "implied")
    assert Guarantee(d, {}, measured=None, implied=[imp]).best == (sympy.log(2), "implied")


# ------------------------------------------------------------------------------------------------
# commands

@pytest.fixture
def verdicts_file(tmp_path):
    path = tmp_path / "verdicts.json"
    path.write_text(json.dumps([{"id": "ekenstedt2022/theorem-2b", "verdict": "proved"},
                                {"id": "ekenstedt2022/lemma-2.1", "verdict": "proved"}]))
    return str(path)


def test_cli_guarantees_json_and_html(capsys, tmp_path, verdicts_file):
    out_html = tmp_path / "report.html"
    assert main(["guarantees", str(PATIENTS), "--qi", "age,zip", "--sensitive", "disease", "--mechanism",
                 "randomised-response", "--p", "1/2", "--verdicts", verdicts_file, "--json",
                 "--html", str(out_html)]) == 0
    data = json.loads(capsys.readouterr().out)
    (table,) = data["tables"].values()
    assert table["N"] == 10 and table["classes"] == 3
    implied = [g for g in table["definitions"].values() if g["implied"]]
    assert implied and implied[0]["implied"][0]["value"] == "37/10"
    assert implied[0]["implied"][0]["trace"] == ["ekenstedt2022/theorem-2b", "ekenstedt2022/lemma-2.1"]
    page = out_html.read_text()
    assert page.startswith("<!DOCTYPE html>") and "37/10" in page
    assert "<script" not in page and "http" not in page


def test_cli_guarantees_text_on_data(capsys, verdicts_file):
    assert main(["guarantees", str(PATIENTS), "--qi", "age,zip", "--sensitive", "disease",
                 "--verdicts", verdicts_file]) == 0
    out = capsys.readouterr().out
    assert "disease: N = 10 records, 3 classes of 3..4 records, 3 values" in out
    assert "eps = log(9/5) ≈ 0.588  (measured)" in out      # ln 1.8 = 0.5878...


def test_cli_release(capsys):
    assert main(["release", str(PATIENTS), "--qi", "age,zip", "--sensitive", "disease",
                 "--mechanism", "set-channel", "--p", "1/2", "--eta", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["N"] == 10 and data["buckets"] == ["{cancer,flu}", "{cancer,hiv}", "{flu,hiv}"]
    assert data["definitions"][_by_family("pairwise").name]["level"] == "log(5/2)"


@pytest.mark.parametrize("args, needle", [
    (["--mechanism", "set-channel", "--p", "1/2"], "fix: give eta, e.g. --eta 2"),
    (["--mechanism", "randomised-response", "--p", "x"], "is not a number"),
    (["--mechanism", "randomised-response", "--p", "1/2", "--sensitive", "disease,age"], "releases one column"),
])
def test_cli_release_bad_input(capsys, args, needle):
    base = ["release", str(PATIENTS), "--qi", "age"]
    if "--sensitive" not in args:
        base += ["--sensitive", "disease"]
    assert main(base + args) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and needle in err and "Traceback" not in err


@pytest.fixture(scope="module")
def shared():
    """The rules and their compositions, made once for the module (compositions depend on the rules only)."""
    return {}


@pytest.mark.parametrize("mechanism, kw", [("randomised-response", {"p": "9/10"}),
                                           ("empirical-response", {"p": "1/3"}),
                                           ("set-channel", {"p": "1/4", "eta": 1})])
@pytest.mark.parametrize("qi", [["age", "zip"], ["age"]])
def test_no_chain_beats_an_exact_level(mechanism, kw, qi, shared):
    """Implied levels bound the optimum: never strictly stronger than the exact measured level."""
    rules = shared.setdefault("rules", None) or _rules("ekenstedt2022/theorem-2b", "ekenstedt2022/theorem-2a", "ekenstedt2022/lemma-2.1",
                   "ekenstedt2022/lemma-2.3#reading", "ekenstedt2022/lemma-3.3", "ekenstedt2022/lemma-3.4#reading",
                   "ekenstedt2022/theorem-4.1", "ekenstedt2022/theorem-4.3#reading")
    shared["rules"] = rules
    rel = release(PATIENTS, qi, "disease", mechanism, **kw)
    for k in (1, 2):
        gs = guarantees(rules, table_levels(rel, {"k": k}), rel.N, class_sizes(rel), memo=shared.setdefault("memo", {}))
        assert any(g.implied for g in gs)
        assert all(g.consistent is True for g in gs)
