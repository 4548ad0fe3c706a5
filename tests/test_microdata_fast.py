"""``implgraph levels DATA`` without sympy (:mod:`implgraph.io.microdata_fast`, :mod:`implgraph.io.level_cards`).

The levels that are a count or a ratio of counts (k-anonymity, distinct l-diversity, EMD t-closeness with the
equal ground distance) are computed from the count table with Python integers and Fractions: the values are
checked by hand on a small table, against the registry's levels on random tables, and the whole output of the
command against the registry's path (the same text and JSON, the violating classes included). A process
computing them imports neither sympy nor the registry once the definitions' cards are cached.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pandas")

from implgraph.cli import main  # noqa: E402
from implgraph.io import microdata_fast  # noqa: E402
from implgraph.io.count_levels import Card, class_values, plain_number, table_value  # noqa: E402
from implgraph.io.level_cards import build_cards  # noqa: E402
from implgraph.io.weighted import WeightedConcreteTable  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

# classes A: x x y (3 records), B: y y y y (4), C: x z (2); N = 9, table shares x 3/9, y 5/9, z 1/9
COUNTS = [[2, 1, 0], [0, 4, 0], [1, 0, 1]]


def _table(counts=COUNTS):
    return WeightedConcreteTable.from_class_counts(counts, [f"c{i}" for i in range(len(counts))],
                                                   [f"v{j}" for j in range(len(counts[0]))])


def test_recipes_by_hand():
    ct = _table()
    assert class_values("class-size", ct) == [3, 4, 2]
    assert class_values("distinct-values", ct) == [2, 1, 2]
    # TV(A) = (|2/3 - 1/3| + |1/3 - 5/9| + |0 - 1/9|) / 2 = (3/9 + 2/9 + 1/9) / 2 = 1/3
    # TV(B) = (1/3 + 4/9 + 1/9) / 2 = 4/9;  TV(C) = (|1/2 - 1/3| + 5/9 + |1/2 - 1/9|) / 2 = (3/18 + 10/18 + 7/18) / 2
    assert class_values("total-variation", ct) == [Fraction(1, 3), Fraction(4, 9), Fraction(5, 9)]
    assert table_value("class-size", ct, "larger") == 2
    assert table_value("distinct-values", ct, "larger") == 1
    assert table_value("total-variation", ct, "smaller") == Fraction(5, 9)
    # 1 / (largest share): A 3/2, B 1, C 2; l = 1
    assert class_values("top-share-inverse", ct) == [Fraction(3, 2), 1, 2]
    assert table_value("top-share-inverse", ct, "larger") == 1
    # q / p of the values a class holds: A x (2/3)/(3/9) = 2, y (1/3)/(5/9) = 3/5; B y 9/5; C x 3/2, z 9/2
    assert class_values("class-ratio-one-sided", ct, offset=1) == [1, Fraction(4, 5), Fraction(7, 2)]
    assert table_value("class-ratio-one-sided", ct, "smaller", offset=1) == Fraction(7, 2)
    # two-sided: every class lacks a value the table holds: infinite (the registry's path says why)
    assert table_value("class-ratio-two-sided", ct, "smaller") is None
    full = _table([[2, 1, 1], [1, 2, 1]])      # N = 8, p = (3/8, 3/8, 2/8); A (1/2, 1/4, 1/4), B (1/4, 1/2, 1/4)
    assert class_values("class-ratio-two-sided", full) == [Fraction(3, 2), Fraction(3, 2)]
    assert table_value("class-ratio-two-sided", full, "smaller") == Fraction(3, 2)


def test_cards_give_recipes_by_capability():
    cards = {c.name: c for c in build_cards()}
    assert cards["k-anonymity"].recipe == "class-size"
    assert cards["distinct-l-diversity"].recipe == "distinct-values"
    assert cards["emd-t-closeness"].recipe == "total-variation"
    assert cards["emd-t-closeness"].recipe_at({"ground": "equal"}) == "total-variation"
    assert cards["emd-t-closeness"].recipe_at({"ground": "ordered"}) is None
    assert cards["frequency-l-diversity"].recipe == "top-share-inverse"
    assert (cards["basic-beta-likeness"].recipe, cards["basic-beta-likeness"].offset) == ("class-ratio-one-sided", 1)
    assert cards["entropy-l-diversity"].recipe is None          # irrational: the registry's enclosure
    assert (cards["delta-disclosure-privacy"].recipe, cards["delta-disclosure-privacy"].log) == \
        ("class-ratio-two-sided", True)
    assert cards["enhanced-beta-likeness"].recipe is None         # a cap making it infinite: the registry's
    assert cards["alpha-k-anonymity"].recipe is None             # a parameter k the recipe does not fix


@pytest.mark.parametrize("seed", range(6))
def test_recipes_equal_the_registry_levels(seed):
    from implgraph.io.microdata_levels import table_levels
    rng = np.random.default_rng(seed)
    counts = rng.integers(seed % 2, 4, size=(int(rng.integers(2, 9)), int(rng.integers(2, 6))))
    counts[:, 0] += 1                                          # no empty class
    ct = _table(counts.tolist())
    levels = table_levels(ct, {}, ground="equal")
    seen = set()
    for card in build_cards():
        recipe = card.recipe_at({"ground": "equal"} if "ground" in card.params else {})
        if recipe is None:
            continue
        mine = table_value(recipe, ct, card.stronger, card.offset, card.log)
        if mine is None:            # infinite (a class lacks a value): the registry's path gives it and why
            assert str(levels[card.name].value) == "oo", card.name
            continue
        assert str(mine) == str(levels[card.name].value), card.name
        assert float(mine) == levels[card.name].float(), card.name
        seen.add(card.name)
    assert {"k-anonymity", "distinct-l-diversity", "frequency-l-diversity", "emd-t-closeness",
            "basic-beta-likeness"} <= seen
    assert seed % 2 == 0 or "delta-disclosure-privacy" in seen


def test_log_levels_written_and_compared_exactly():
    from implgraph.io.count_levels import LogOf
    assert (str(LogOf(Fraction(9, 5))), str(LogOf(2)), str(LogOf(1))) == ("log(9/5)", "log(2)", "0")
    assert LogOf(2) > Fraction(69, 100) and LogOf(2) < Fraction(7, 10)     # ln 2 = 0.6931...
    assert LogOf(1) == 0 and LogOf(1) <= 0 and LogOf(Fraction(3, 2)) < LogOf(2)
    assert float(LogOf(Fraction(9, 5))) == 0.5877866649021191                # ln 1.8, nearest double
    # two-sided ratios of the table above without a missing value: 3/2 -> delta = log(3/2)
    full = _table([[2, 1, 1], [1, 2, 1]])
    assert str(table_value("class-ratio-two-sided", full, "smaller", log=True)) == "log(3/2)"
    # near 1 the registry's float is computed from raw - 1: not here (None: the registry's path answers)
    near = _table([[100000, 100001], [100001, 100000]])        # log(200001/200000) < 2^-10
    assert table_value("class-ratio-two-sided", near, "smaller", log=True) is None


def test_plain_numbers_only():
    assert plain_number("5") == 5 and plain_number(" 0.2 ") == Fraction(1, 5)
    assert plain_number("-1/5") == Fraction(-1, 5)
    for text in ("05", "1/0", "1e-3", "log(2)", "1/5/2", "5_000", "", "+5", "0x10"):
        assert plain_number(text) is None, text


def test_card_recipe_needs_its_words():
    card = Card("d", "t", "smaller", True, params={"ground": ""}, words={"ground": "equal"},
                recipe="total-variation", where={"ground": "equal"})
    assert card.recipe_at({}) == "total-variation" and card.recipe_at({"ground": "ordered"}) is None
    assert card.recipe_at({"ground": "equal", "k": "2"}) is None


FILE = "zip,age,disease\n" + "".join(f"{z},{a},{d}\n" for z, a, d in [
    ("130**", "<30", "flu"), ("130**", "<30", "flu"), ("130**", "<30", "hiv"),
    ("148**", ">=40", "flu"), ("148**", ">=40", "cancer"), ("148**", ">=40", "flu"), ("148**", ">=40", "flu"),
    ("130**", ">=40", "hiv"), ("130**", ">=40", "hiv")])


@pytest.mark.parametrize("args", [
    ["--require", "k=3", "--definitions", "k-anonymity,distinct-l-diversity,emd-t-closeness"],
    ["--require", "k=2,distinct-l-diversity=2,emd-t-closeness=0.2"],
    ["--require", "emd-t-closeness=1/5", "--json"],
    ["--definitions", "distinct-l-diversity,k", "--json"],
    ["--require", "k=2,distinct-l-diversity=3", "--ground", "equal", "--json"],
    ["--require", "frequency-l-diversity=3/2,basic-beta-likeness=1", "--json"],
    ["--require", "basic-beta-likeness=1/2", "--definitions", "frequency-l-diversity"],
])
def test_same_output_as_the_registry_path(tmp_path, capsys, monkeypatch, args):
    path = tmp_path / "d.csv"
    path.write_text(FILE)
    cmd = ["levels", str(path), "--qi", "zip,age", "--sensitive", "disease", *args]
    taken = []
    real = microdata_fast.column_results
    monkeypatch.setattr(microdata_fast, "column_results", lambda *a: taken.append(1) or real(*a))
    fast_code, fast = main(cmd), capsys.readouterr()
    assert taken, "the fast path was not taken"
    monkeypatch.setattr(microdata_fast, "plan", lambda args: None)
    slow_code, slow = main(cmd), capsys.readouterr()
    assert (fast_code, fast.out, fast.err) == (slow_code, slow.out, slow.err)
    assert fast.out


FULL = "zip,disease\n" + "".join(f"{z},{d}\n" for z, d in [
    ("c", "flu"), ("c", "hiv"), ("c", "cancer"), ("c", "cancer"), ("c", "cancer"), ("a", "flu"), ("a", "flu"),
    ("a", "hiv"), ("a", "cancer"), ("b", "flu"), ("b", "hiv"), ("b", "hiv"), ("b", "cancer")])


@pytest.mark.parametrize("args", [
    ["--require", "delta-disclosure-privacy=1/2,k=4"],
    ["--require", "delta-disclosure-privacy=0.4", "--definitions", "mult-t-closeness,basic-beta-likeness", "--json"],
])
def test_log_levels_same_output_as_the_registry_path(tmp_path, capsys, monkeypatch, args):
    # table (flu, hiv, cancer) = (4, 4, 5)/13; class a (2, 1, 1)/4: q/p = 13/8, 13/16, 13/20, and p/q up to 20/13;
    # b the same with flu and hiv swapped; c (1, 1, 3)/5: 13/20, 13/20, 39/25 and p/q 20/13: the largest is 13/8,
    # delta = log(13/8) = 0.4855 (<= 1/2 holds, <= 0.4 fails in every class: listed a, b, then c, log(39/25))
    path = tmp_path / "full.csv"
    path.write_text(FULL)
    cmd = ["levels", str(path), "--qi", "zip", "--sensitive", "disease", *args]
    taken = []
    real = microdata_fast.column_results
    monkeypatch.setattr(microdata_fast, "column_results", lambda *a: taken.append(real(*a)) or taken[-1])
    fast_code, fast = main(cmd), capsys.readouterr()
    assert taken and taken[0] is not None, "the fast path was not taken"
    monkeypatch.setattr(microdata_fast, "plan", lambda args: None)
    slow_code, slow = main(cmd), capsys.readouterr()
    assert (fast_code, fast.out, fast.err) == (slow_code, slow.out, slow.err)
    assert "log(13/8)" in fast.out and fast_code == (0 if "1/2" in args[1] else 1)
    if fast_code:
        worst = json.loads(fast.out)["sensitive"]["disease"]["requirements"][0]["violating"]["worst"]
        assert [(w["class"], w["level"]) for w in worst] == [("zip=a", "log(13/8)"), ("zip=b", "log(13/8)"),
                                                             ("zip=c", "log(39/25)")]


def test_a_numeric_sensitive_column_takes_the_registry_path(tmp_path, capsys):
    path = tmp_path / "d.csv"
    path.write_text("zip,salary\n1,10\n1,20\n2,10\n2,30\n")
    assert main(["levels", str(path), "--qi", "zip", "--sensitive", "salary", "--require", "emd-t-closeness=1",
                 "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    t = doc["sensitive"]["salary"]["definitions"]["emd-t-closeness"]
    # ordered ground over 10 < 20 < 30: class 1 (1/2, 1/2, 0) against (1/2, 1/4, 1/4): (0 + 1/4) / 2 = 1/8
    assert t["params"] == {"ground": "ordered"} and t["level"] == "1/8"


def test_no_sympy_imported(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text(FILE)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "IMPLGRAPH_CACHE_DIR": str(tmp_path / "cache")}
    code = ("import sys, runpy; sys.argv = ['implgraph'] + sys.argv[1:]\n"
            "try:\n    runpy.run_module('implgraph', run_name='__main__')\n"
            "except SystemExit as e:\n"
            "    print(sorted({m.split('.')[0] for m in sys.modules} & {'sympy', 'z3'}), e.code, file=sys.stderr)\n")
    cmd = [sys.executable, "-c", code, "levels", str(path), "--qi", "zip,age", "--sensitive", "disease",
           "--require", "k=2,distinct-l-diversity=2,emd-t-closeness=1/2", "--json"]
    first = subprocess.run(cmd, env=env, capture_output=True, text=True)     # builds the cards (the registry)
    second = subprocess.run(cmd, env=env, capture_output=True, text=True)
    assert first.stdout == second.stdout and json.loads(second.stdout)["requirements_hold"] is False
    assert second.stderr.strip() == "[] 1", second.stderr


def _store_cards(tmp_path, monkeypatch):
    """The cards stored by a fresh process (one that loaded no registry before) in the cache folder ``tmp_path``."""
    monkeypatch.setenv("IMPLGRAPH_CACHE_DIR", str(tmp_path))
    subprocess.run([sys.executable, "-c", "from implgraph.io.level_cards import cards; cards()"], check=True,
                   env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert (tmp_path / "levels" / "cards.json").exists()


def test_a_tampered_card_is_not_trusted(tmp_path, monkeypatch):
    from implgraph.io import level_cards
    _store_cards(tmp_path, monkeypatch)
    cards = level_cards.cards()
    path = tmp_path / "levels" / "cards.json"
    doc = json.loads(path.read_text())
    for c in doc["cards"]:
        if c["name"] == "k-anonymity":
            c["recipe"] = "distinct-values"
    path.write_text(json.dumps(doc))
    again = {c.name: c for c in level_cards.cards()}
    assert again["k-anonymity"].recipe == "class-size" and len(again) == len(cards)


def test_a_definition_registered_at_run_time_turns_the_cards_off(tmp_path, monkeypatch):
    from implgraph.definitions.base import REGISTRY
    from implgraph.io import level_cards
    _store_cards(tmp_path, monkeypatch)
    assert [c.name for c in level_cards.cards()] == list(REGISTRY)
    monkeypatch.setitem(REGISTRY, "my-k", REGISTRY["k-anonymity"])      # e.g. register() in a notebook
    assert level_cards.cards() is None
