"""The Python API (:mod:`implgraph.api`): bundled data from any directory, exact levels, short reprs,
rich displays for Jupyter, and the doctests of the documented modules.

Expected values are derived by hand in the comments, never copied from the engine.
"""

from __future__ import annotations

import doctest
import importlib

import pytest
import sympy

import implgraph
from implgraph import api
from implgraph.core.errors import InputError
from implgraph.core.verdict import Verdict
from implgraph.io.counterexamples import table_ids

DOCTEST_MODULES = ["implgraph.api", "implgraph.api_checks", "implgraph.api_map", "implgraph.core.verdict", "implgraph.io.console", "implgraph.results", "implgraph.definitions.scales", "implgraph.core.indexed",
                   "implgraph.definitions.capabilities"]


@pytest.mark.parametrize("name", DOCTEST_MODULES)
def test_doctests(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)   # the examples work from any directory
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


def test_every_public_function_has_a_numpydoc_example():
    for name in api.__all__:
        obj = getattr(api, name)
        if callable(obj) and not isinstance(obj, type):
            doc = obj.__doc__ or ""
            assert "Examples\n    --------" in doc and ">>> " in doc, name
            assert "Returns\n    -------" in doc, name


def test_the_package_exports_the_api():
    for name in ("load_table", "levels", "check_edge", "verify", "implication_map", "claims"):
        assert getattr(implgraph, name) is getattr(api, name)
    # the registry module keeps its name: `from implgraph import definitions` is the module
    assert implgraph.definitions.get is not None and callable(api.definitions)


def test_load_table_from_any_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    t = api.load_table("ekenstedt2022/table-III")
    assert t.id == "ekenstedt2022/table-III" and t.buckets == ["a1", "a2"]
    (tmp_path / "t.csv").write_text("class,a1,a2\nE1,1/2,1/2\nE2,1/4,3/4\n")
    ct = api.load_table("t.csv")
    assert ct.N == 2 and list(ct.classes) == ["E1", "E2"]


@pytest.mark.parametrize("source, message", [("no-such-paper/table-9", "no bundled table"),
                                             ("missing.csv", "no such file"), ("missing.yaml", "no such file")])
def test_load_table_bad_input(source, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(InputError, match=message):
        api.load_table(source)


def test_levels_by_hand():
    # rows (1/2, 1/2) and (1/4, 3/4): bucket a1's records differ by a factor 2, bucket a2's by 3/2,
    # so the LDP level is ln 2; with the classes {row 1}, {row 2}: Pr_D(a1) = 3/8 and class 2 has
    # 1/4, the multiplicative t-closeness level is (3/8)/(1/4) = 3/2
    t = implgraph.table_from_rows([["1/2", "1/2"], ["1/4", "3/4"]], classes=["E1", "E2"])
    assert api.levels(t, "ldp").value == sympy.log(2)
    assert api.levels(t, "mult-t-closeness").value == sympy.Rational(3, 2)
    every = api.levels(t)
    assert set(every) == set(implgraph.definitions.names())
    assert every["ldp"].value == sympy.log(2)
    with pytest.raises(InputError, match="need a definition"):
        api.levels(t, ground="equal")


def test_level_latex_and_repr():
    t = implgraph.table_from_rows([["1/2"], ["1/4"]])
    lv = api.levels(t, "ldp")
    assert lv._repr_latex_() == r"$eps = \log{\left(2 \right)}$"
    assert repr(lv) == "<Level ldp: eps = log(2)>"
    assert api.levels(t, "mult-t-closeness")._repr_latex_() is None      # undefined: no classes
    every = api.levels(t)
    assert "ldp" in repr(every) and "<table>" in every._repr_html_()
    assert all(len(line) < 160 for line in repr(every).splitlines())


@pytest.mark.parametrize("tid", table_ids())
def test_short_table_reprs(tid):
    t = api.load_table(tid)
    text = repr(t)
    assert text.startswith("<Table ") and len(text) < 200
    html = t._repr_html_()
    assert html.startswith("<table>") and all(f"<th>{b}</th>" in html for b in t.buckets)


def test_concrete_table_repr_and_html():
    ct = implgraph.ConcreteTable.from_fractions([["1/2", "1/2"], ["1/4", "3/4"]] * 30, classes=["E1", "E2"] * 30)
    assert repr(ct) == "<ConcreteTable (no id): N = 60, buckets a1, a2, 2 classes>"
    html = ct._repr_html_()
    assert html.count("<tr>") == 41 and "20 more rows" in html and "<td>3/4</td>" in html


def test_verdict_repr_and_html():
    v = Verdict(id="p/claim", verdict="refuted", printed="A => B with f < g", tight="(N - 1)/N",
                witness={"rows": [["1/3", "2/3"]]})
    assert repr(v) == "<Verdict p/claim: refuted, tight f = (N - 1)/N>"
    html = v._repr_html_()
    assert "A =&gt; B with f &lt; g" in html and r"$\frac{N - 1}{N}$" in html and "(1/3, 2/3)" in html


def test_verify_and_claims():
    rows = api.claims("ekenstedt2022/theorem-2b")
    assert [r["id"] for r in rows] == ["ekenstedt2022/theorem-2b"] and "theorem-2b" in repr(rows)
    assert "<table>" in rows._repr_html_()
    vs = api.verify("ekenstedt2022/theorem-2b")
    assert [v.id for v in vs] == ["ekenstedt2022/theorem-2b"]
    assert vs.counts() == {vs[0].verdict: 1} and vs.regressions() == []
    assert repr(vs).splitlines()[-1].startswith("1 verdicts: ")
    with pytest.raises(InputError, match="no claim"):
        api.claims("no-such-paper")


def test_check_edge_display():
    # a definition against itself: equivalence, f the identity
    d = next(d for d in api.definitions() if not d.params and not d.needs_classes)
    r = api.check_edge(d.name, d.name, N=2)
    assert r.kind == "equivalence" and repr(r).startswith(f"<EdgeResult {d.name} ? {d.name}: equivalence")
    assert r._repr_html_().count("<tr>") == 3
    assert repr(r.forward).startswith(f"<DirectionResult {d.name} => {d.name}: implication (") and \
        len(repr(r.forward)) < 300


def test_definitions():
    names = [d.name for d in api.definitions()]
    assert names == implgraph.definitions.names()
    with pytest.raises(InputError, match="unknown definition"):
        api.definitions(["no-such-definition"])


def test_implication_map_from_given_verdicts(tmp_path):
    # no claim established: the map draws the claims, and the only implications that are facts are the
    # identities by definition: (1, t)-closeness, multiplicative t-closeness on singleton classes and
    # (N - 1, eps)-DP = (2, eps)-DP compare the same sets (single records): 3 nodes, 6 ordered pairs
    m = api.implication_map(N=3, verdicts={})
    s = m.summary()
    assert (m.level, m.N, s["implications"], s["conflicts"]) == ("groups", 3, 6, 0)
    assert repr(m).startswith("<ImplicationMap level=groups N=3: ")
    out = tmp_path / "map.dot"
    assert m.draw(out)["format"] == "dot" and out.read_text().startswith("digraph")
    assert "<svg" in m._repr_svg_() and {"nodes", "edges", "analysis"} <= set(m.to_json())
    with pytest.raises(InputError, match="map level"):
        api.implication_map(level="nodes")


def test_the_documented_api_is_typed():
    """Every parameter (but ``**params``) and every return of the documented functions carries a type."""
    import inspect
    for name in api.__all__:
        sig = inspect.signature(getattr(api, name))
        untyped = [p.name for p in sig.parameters.values() if p.annotation is inspect.Parameter.empty
                   and p.kind is not inspect.Parameter.VAR_KEYWORD]
        assert not untyped and sig.return_annotation is not inspect.Signature.empty, (name, untyped)


def test_verdict_tight_is_an_expression_and_its_text_stays():
    """theorem-2b's f (the paper's): t = ((N - 1) e^eps + 1)/N, an expression; the text is what verify exports."""
    import sympy
    v = api.verify("ekenstedt2022/theorem-2b")[0]
    N, eps = sympy.symbols("N eps")
    assert isinstance(v.tight, sympy.Expr) and sympy.simplify(v.tight - ((N - 1) * sympy.exp(eps) + 1) / N) == 0
    assert v.to_json()["tight"] == v.tight_str and isinstance(v.tight_str, str)


def test_rich_reprs_and_the_witness_table():
    """In a terminal or Jupyter with rich: verdicts as an aligned table; theorem-3a's witness as a table object whose
    rows are the witness's (exact fractions, as the verdict's JSON lists them)."""
    from fractions import Fraction

    from rich.console import Console
    vs = api.verify(["ekenstedt2022/theorem-2b", "ekenstedt2022/theorem-3a"])
    console = Console(record=True, width=200)
    console.print(vs)
    text = console.export_text()
    assert "ekenstedt2022/theorem-3a │ refuted" in text and "2 verdicts: 1 proved, 1 refuted" in text
    w = vs[1].witness_table
    assert w.to_rows() == [[Fraction(x) for x in r] for r in vs[1].witness["rows"]] and w.N == len(vs[1].witness["rows"])
