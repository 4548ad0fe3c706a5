"""The plugin route: a definition in one short module, the RatioOfAverages helper, level forms."""

from fractions import Fraction
import os
import subprocess
import sys

import pytest
import sympy

from implgraph.core.concrete import INF, ConcreteTable
from implgraph.definitions import get
from implgraph.core.errors import InputError
from implgraph.definitions.levels import optimal_level
from implgraph.definitions.capabilities import RatioLevel, SubsetSize
from implgraph.definitions.families import RatioOfAverages, lf_model, param_grid

from _plugin_fixtures import EXAMPLE, example_class, registered


def test_example_module_is_short_and_touches_no_engine_file():
    module = EXAMPLE / "implgraph_delta_disclosure" / "__init__.py"
    assert len(module.read_text().splitlines()) < 40
    text = (EXAMPLE / "pyproject.toml").read_text()
    assert '[project.entry-points."implgraph.definitions"]' in text
    assert 'delta-disclosure = "implgraph_delta_disclosure:DeltaDisclosure"' in text


def test_example_levels_hand_derived():
    # rows (1/2, 1/2) in E1 and (1/4, 3/4) in E2: Pr_D(a1) = 3/8, Pr_D(a2) = 5/8.
    # ratios: a1: (1/2)/(3/8) = 4/3, (3/8)/(1/4) = 3/2; a2: (5/8)/(1/2) = 5/4, (3/4)/(5/8) = 6/5.
    # the largest is 3/2, so delta = ln(3/2) and multiplicative t = 3/2.
    ct = ConcreteTable.from_fractions([["1/2", "1/2"], ["1/4", "3/4"]], classes=["E1", "E2"])
    with registered(example_class()):
        assert optimal_level(ct, "delta-disclosure").value == sympy.log(sympy.Rational(3, 2))
    assert optimal_level(ct, "mult-t-closeness").value == sympy.Rational(3, 2)


def test_example_symbolic_level():
    from implgraph.core.table import table_from_rows
    t = table_from_rows([["1/2", "1/2"], ["1/4", "3/4"]], classes=["E1", "E2"])
    with registered(example_class()):
        assert optimal_level(t, "delta-disclosure").value == sympy.log(sympy.Rational(3, 2))


def test_helper_sets_z3_shape_and_classes():
    cls = example_class()
    assert cls.z3_shape == "class-ratio" and cls().needs_classes
    assert cls().weakest() is sympy.oo


def test_bad_family_is_one_clear_error():
    with pytest.raises(InputError, match="family: 'pairs'"):
        class Bad(RatioOfAverages):
            name = "bad"
            declares = (RatioLevel("pairs"),)


def test_subset_family_plugin():
    class Half(RatioOfAverages):
        name = "half-closeness"
        level_symbol = "t"
        scale = "ratio"
        declares = (RatioLevel("subset"), SubsetSize("floor(N/2)"))

    # bucket a1 = 0, 1/2, 1, 1/2: mean 1/2; the 2 smallest have mean 1/4 -> ratio 2 (a2 alike)
    ct = ConcreteTable.from_fractions([[0, 1], ["1/2", "1/2"], [1, 0], ["1/2", "1/2"]])
    assert Half().concrete(ct) == 2
    # a zero column on a whole half: infinite
    ct = ConcreteTable.from_fractions([[0, 1], [0, 1], [1, 0], [1, 0]])
    assert Half().concrete(ct) == INF
    ct = ConcreteTable.from_fractions([["1/4", "3/4"], ["1/2", "1/2"], ["1/2", "1/2"], ["3/4", "1/4"]])
    # a1 mean 1/2; 2 smallest mean 3/8 -> 4/3; a2 symmetric -> t = 4/3
    assert Half().concrete(ct) == Fraction(4, 3)


@pytest.mark.parametrize("name,params", [("ldp", {}), ("dp", {}), ("kt-closeness", {"k": 2}), ("kdp", {"k": 1}),
                                         ("kdp", {"k": 2}), ("mult-t-closeness", {}),
                                         ("emd-t-closeness", {"ground": "equal"}), ("k-anonymity", {})])
def test_level_forms_agree_with_exact_levels(name, params):
    rows = [["1/5", "4/5"], ["1/2", "1/2"], ["2/3", "1/3"], ["1/3", "2/3"]]
    ct = ConcreteTable.from_fractions(rows, classes=["E1", "E1", "E1", "E2"])
    d = get(name)
    model = lf_model(d, 4, (3, 1), 2, **params)
    x = [[Fraction(v) for v in r] for r in rows]
    if model.structural is not None:
        value = model.structural
    else:
        value = model.floor
        for t in model.terms:
            num, den = t.num.value(x), t.den.value(x)
            if den > 0:
                value = max(value, num / den)
    expected = optimal_level(ct, d, **params).pieces[0].value
    assert sympy.Rational(value.numerator, value.denominator) == expected


def test_param_grid():
    assert param_grid(get("kt-closeness"), 4) == [{"k": 1}, {"k": 2}, {"k": 3}]
    assert param_grid(get("ldp"), 4) == [{}]
    assert param_grid(get("emd-t-closeness"), 3) == [{"ground": "equal"}]
    # and at N = 4 the minimum class size 2 too (a class-based definition, level not a count)
    assert param_grid(get("emd-t-closeness"), 4) == [{"ground": "equal"}, {"ground": "equal", "k": 2}]


@pytest.mark.slow
def test_pip_installed_example_is_listed_by_levels(tmp_path):
    """Install the example package into a fresh venv (seeing this one's packages) and run levels."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    _share_site_packages(venv)
    py = venv / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", str(EXAMPLE)], check=True)
    csv = tmp_path / "t.csv"
    csv.write_text("class,a1,a2\nE1,1/2,1/2\nE2,1/4,3/4\n")
    out = subprocess.run([str(py), "-m", "implgraph.cli", "levels", str(csv)], capture_output=True, text=True,
                         check=True, env={**os.environ, "PYTHONPATH": ""}).stdout
    assert "delta-disclosure" in out
    assert "delta = log(3/2)" in out


def test_plugin_gets_the_refuters_z3_encoding():
    """The helper's z3 shape drives implgraph.engines.refute (issue 4) with no code in the plugin."""
    from implgraph.engines.refute import find_witness
    with registered(example_class()):
        r = find_witness("delta-disclosure", "ldp", None, N=3, classes=[2, 1])
        assert r.status == "refuted" and r.level_b is sympy.oo and r.level_a.is_finite
        r = find_witness("ldp", "delta-disclosure", "eps/2", N=3, classes=[2, 1])
        assert r.status == "refuted"
        r = find_witness("mult-t-closeness", "delta-disclosure", "ln(t)", N=3, classes=[2, 1])
        assert r.status == "none-found"


def test_param_grid_class_sizes():
    # class-based ratio definitions: minimum class sizes 2..N/2 besides any partition
    assert param_grid(get("mult-t-closeness"), 4) == [{}, {"k": 2}]
    assert param_grid(get("mult-t-closeness"), 6) == [{}, {"k": 2}, {"k": 3}]
    assert param_grid(get("k-anonymity"), 6) == [{}]


def _share_site_packages(venv):
    """Make the running interpreter's dependencies (sympy, z3, ...) visible in ``venv``: when the tests run
    inside a virtual environment, ``--system-site-packages`` reaches only the base interpreter's."""
    import site
    lib = next((venv / "lib").glob("python3*")) / "site-packages"
    (lib / "_implgraph_test_deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")


def test_an_entry_point_with_a_built_in_name_is_refused_in_one_line(monkeypatch, capsys):
    """An installed plugin named as a built-in (``dp``) is not loaded, and says so: one line naming the fix, kept in
    load_errors and written once to stderr; the built-in stays; a plugin read twice is not a clash with itself."""
    from importlib import metadata

    from implgraph.definitions import base

    class Impostor(RatioOfAverages):
        name = "dp"
        level_symbol = "t"
        declares = (RatioLevel("pairwise"),)

    class Fresh(RatioOfAverages):
        name = "fresh-plugin-test"
        level_symbol = "t"
        declares = (RatioLevel("pairwise"),)

    class EntryPoint:
        def __init__(self, name, obj):
            self.name, self.obj = name, obj

        def load(self):
            return self.obj

    def entry_points(group):
        return [EntryPoint("dp", Impostor), EntryPoint("renamed", Impostor), EntryPoint("fresh-plugin-test", Fresh)]

    builtin = get("dp")
    monkeypatch.setattr(metadata, "entry_points", entry_points)
    monkeypatch.setattr(base, "_LOAD_ERRORS", [])
    monkeypatch.setattr(base, "_FROM_ENTRY_POINTS", set())
    try:
        base.load_entry_points(again=True)
        base.load_entry_points(again=True)
        errors = base.load_errors()
        assert get("dp") is builtin and get("fresh-plugin-test").name == "fresh-plugin-test"
    finally:
        base.REGISTRY.pop("fresh-plugin-test", None)
    assert len(errors) == 2, errors
    assert all("\n" not in e and "; fix: rename the plugin" in e for e in errors)
    assert errors[0].startswith("plugin dp: the name 'dp' is a built-in definition's")
    assert errors[1].startswith("plugin renamed: the name 'dp' is a built-in definition's")
    assert capsys.readouterr().err.count("implgraph: plugin") == 2
