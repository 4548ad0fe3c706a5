"""Two definitions of the papers declared in a few lines each, outside the package, with every view derived.

Basic beta-likeness (Cao and Karras, VLDB 2012) and delta-disclosure privacy (Brickell and Shmatikov,
KDD 2008) are written as modules in a pytest temporary directory, imported from their file paths and
registered. Their exact levels (concrete and symbolic) are compared with the independent brute force
of :mod:`brute` (written from the papers' texts), and check-edge finds LDP => each with the tight f of
a hand derivation. No engine file knows them: the modules live only in the temporary directory and no
module of :mod:`implgraph` refers to them.
"""

from __future__ import annotations

import importlib.util
import random
import textwrap
from fractions import Fraction
from pathlib import Path

import pytest
import sympy

import brute
from implgraph.core.concrete import ConcreteTable
from implgraph.definitions.levels import optimal_level
from implgraph.io.tablefile import load_table_file

from _plugin_fixtures import registered

BETA = '''
"""Basic beta-likeness (J. Cao, P. Karras, VLDB 2012, Definition 2), as a declaration.

For every equivalence class E and sensitive value v with Pr_D(v) > 0:
(Pr_E(v) - Pr_D(v)) / Pr_D(v) <= beta. Only a class *above* the table counts (one-sided), and
beta = Pr_E(v) / Pr_D(v) - 1 (the affine scale).
"""

from implgraph.definitions.capabilities import RatioLevel
from implgraph.definitions.families import RatioOfAverages


class BasicBetaLikeness(RatioOfAverages):
    name = "declared-beta-likeness"
    title = "basic beta-likeness"
    level_symbol = "beta"
    declares = (RatioLevel("class", "one-sided"),)   # every class against the table, only Pr_E(v) / Pr_D(v)
    scale = "affine"          # beta = ratio - 1
    reference = "J. Cao, P. Karras, Publishing microdata with a robust privacy guarantee, VLDB 2012, Def. 2"
'''

DELTA = '''
"""delta-disclosure privacy (J. Brickell, V. Shmatikov, KDD 2008, Definition 4), as a declaration.

For every equivalence class E and sensitive value v: |ln(Pr_E(v) / Pr_D(v))| < delta.
"""

from implgraph.definitions.capabilities import RatioLevel
from implgraph.definitions.families import RatioOfAverages


class DeltaDisclosure(RatioOfAverages):
    name = "declared-delta-disclosure"
    title = "delta-disclosure privacy"
    level_symbol = "delta"
    declares = (RatioLevel("class", "two-sided"),)   # every class against the table, Pr_E / Pr_D and Pr_D / Pr_E
    scale = "log"             # delta = ln(ratio)
    reference = "J. Brickell, V. Shmatikov, The cost of privacy, KDD 2008, Definition 4"
'''

MODULES = {"beta_likeness_declared": (BETA, "BasicBetaLikeness"),
           "delta_disclosure_declared": (DELTA, "DeltaDisclosure")}


def _import_from(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def declared(tmp_path):
    """{"beta": class, "delta": class}, imported from module files written to ``tmp_path``."""
    out = {}
    for stem, (text, cls) in MODULES.items():
        path = tmp_path / f"{stem}.py"
        path.write_text(textwrap.dedent(text).lstrip())
        module = _import_from(path)
        assert Path(module.__file__).parent == tmp_path
        out[stem.split("_")[0]] = getattr(module, cls)
        out[stem] = module
    with registered(out["beta"], out["delta"]):
        yield out


def test_modules_are_short_and_live_only_in_tmp(declared, tmp_path):
    import sys
    for stem, (text, _) in MODULES.items():
        assert len(text.strip().splitlines()) < 40
        assert Path(declared[stem].__file__).parent == tmp_path and stem not in sys.modules
    # no engine source names them, and no loaded engine module holds the classes or their modules
    root = Path(__import__("implgraph").__file__).parent
    names = list(MODULES) + [declared[w].name for w in ("beta", "delta")]
    for path in root.rglob("*.py"):
        text = path.read_text()
        assert not any(n in text for n in names), path
    ours = {id(v) for v in declared.values()}
    for modname, mod in list(sys.modules.items()):
        if modname.startswith("implgraph") and mod is not None:
            assert not ours & {id(v) for v in vars(mod).values()}, modname


def _random_table(rng):
    n, p = rng.randint(2, 6), rng.randint(2, 3)
    rows = []
    for _ in range(n):
        cuts = sorted(rng.randint(0, 8) for _ in range(p - 1))
        rows.append([Fraction(b - a, 8) for a, b in zip([0] + cuts, cuts + [8])])
    labels = [f"E{rng.randint(1, n)}" for _ in range(n)]
    return rows, labels


def _brute_level(which, rows, labels):
    if which == "beta":
        b = brute.basic_beta_likeness(rows, labels)
        return sympy.Rational(b.numerator, b.denominator)
    r = brute.delta_disclosure_ratio(rows, labels)
    return sympy.oo if r == brute.INF else sympy.log(sympy.Rational(r.numerator, r.denominator))


@pytest.mark.parametrize("which", ["beta", "delta"])
@pytest.mark.parametrize("seed", range(4))
def test_concrete_levels_equal_brute_force(declared, which, seed):
    rng = random.Random(seed)
    for _ in range(25):
        rows, labels = _random_table(rng)
        ct = ConcreteTable.from_fractions(rows, classes=labels)
        got = optimal_level(ct, declared[which].name).value
        assert got == _brute_level(which, rows, labels), (rows, labels)


# A parametric table, 0 < x < 1: E1 = {x, 1/2}, E2 = {1 - x, 1/4} (Pr(a1); Pr(a2) = 1 - Pr(a1)).
# Pr_D(a1) = 7/16, Pr_D(a2) = 9/16; class means a1: E1 (2x + 1)/4, E2 (5 - 4x)/8; a2: E1 (3 - 2x)/4,
# E2 (4x + 3)/8. Ratios Pr_E/Pr_D: 4(2x + 1)/7, 2(5 - 4x)/7, 4(3 - 2x)/9, 2(4x + 3)/9.
PARAMETRIC = """
    id: declared-parametric
    symbols: {x: real}
    region: ["0 < x", "x < 1"]
    rows:
      - {p: "x", class: E1}
      - {p: "1/2", class: E1}
      - {p: "1 - x", class: E2}
      - {p: "1/4", class: E2}
"""
x = sympy.Symbol("x", real=True)
UP = [4 * (2 * x + 1) / 7, 2 * (5 - 4 * x) / 7, 4 * (3 - 2 * x) / 9, 2 * (4 * x + 3) / 9]
HAND = {"beta": lambda v: max(r.subs(x, v) for r in UP) - 1,                        # one-sided, minus 1
        "delta": lambda v: sympy.log(max(max(r, 1 / r) for r in (u.subs(x, v) for u in UP)))}


@pytest.mark.parametrize("which", ["beta", "delta"])
def test_symbolic_levels_equal_hand_derivation_and_brute_force(declared, which, tmp_path):
    path = tmp_path / "table.yaml"
    path.write_text(textwrap.dedent(PARAMETRIC))
    table = load_table_file(path)
    lv = optimal_level(table, declared[which].name)
    assert len(lv.pieces) >= 2          # the maximum changes with x: the region is split
    rng = random.Random(7)
    points = [sympy.Rational(rng.randint(1, 99), 100) for _ in range(30)] + [sympy.Rational(1, 2)]
    for v in points:
        hits = [level for cond, level in lv.level_pieces() if sympy.sympify(cond).subs(x, v) == sympy.true]
        assert len(hits) == 1, v
        got = sympy.sympify(hits[0]).subs(x, v)
        rows = [[Fraction(str(q)), 1 - Fraction(str(q))] for q in (v, sympy.Rational(1, 2), 1 - v, sympy.Rational(1, 4))]
        want = _brute_level(which, rows, ["E1", "E1", "E2", "E2"])
        assert sympy.simplify(got - want) == 0 and sympy.simplify(want - HAND[which](v)) == 0, v


def test_refuter_uses_the_derived_one_sided_encoding(declared):
    # classes [2, 1] at N = 3: a class below the table imposes nothing on beta, so beta is finite while
    # LDP is infinite on rows (0, 1), (1, 0) | (1/2, 1/2) (Pr_D = (1/2, 1/2), class E1 equal to it)
    from implgraph.engines.refute import find_witness
    r = find_witness(declared["beta"].name, "ldp", None, N=3, classes=[2, 1])
    assert r.status == "refuted" and r.level_b is sympy.oo and r.level_a.is_finite
    rows = [[Fraction(v) for v in row] for row in r.witness.to_rows()]
    labels = [str(c) for c in r.witness.classes]
    assert brute.ldp(rows) == brute.INF
    assert _brute_level("beta", rows, labels) == r.level_a


# LDP => each, by hand. Under eps-LDP (T = e^eps) every bucket's values lie in [a, T a]; a ratio of a class
# mean to the table mean is largest at a vertex of that box, with the class a single record (a larger
# class averages towards the table). One-sided (beta): the record at T a, the N - 1 others at a:
# Pr_E/Pr_D = N T / (T + N - 1), beta = (N - 1)(T - 1)/(T + N - 1). Two-sided (delta): also the record
# at a and the others at T a: Pr_D/Pr_E = ((N - 1) T + 1)/N, which is the larger one since
# ((N - 1) T + 1)(T + N - 1) - N^2 T = (N - 1)(T - 1)^2 >= 0; delta = ln(((N - 1) T + 1)/N). Both are
# reached with two buckets (a small enough, the second bucket's values 1 - a and 1 - T a are within T).
eps = sympy.Symbol("eps")
T = sympy.exp(eps)
TIGHT = {"beta": lambda n: (n - 1) * (T - 1) / (T + n - 1), "delta": lambda n: sympy.log(((n - 1) * T + 1) / n)}


@pytest.mark.parametrize("which", ["beta", "delta"])
def test_check_edge_finds_ldp_implies_each_with_the_hand_tight_f(declared, which):
    from implgraph.engines.checkedge import check_edge
    n = 3
    r = check_edge("ldp", declared[which].name, N=n)
    assert r.forward.relation == "implication"
    tight = sympy.sympify(r.forward.tight, locals={"eps": eps})
    assert sympy.simplify(sympy.expand_log(tight - TIGHT[which](n), force=True)) == 0 or \
        all(sympy.simplify((tight - TIGHT[which](n)).subs(eps, sympy.log(sympy.Rational(q)))) == 0
            for q in ("9/8", "2", "5"))
    # the reverse: a class-based level says nothing on the records of one class, so it does not imply LDP
    assert r.backward.relation == "non-implication"
    w = r.backward.witness
    rows = [[Fraction(v) for v in row] for row in w["rows"]]
    assert brute.ldp(rows) == brute.INF
    labels = w.get("classes")
    if labels:
        assert _brute_level(which, rows, labels).is_finite
