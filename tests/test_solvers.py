"""The solver registry, the two backends, and their cross-check.

Expected answers are derived by hand (in the comment beside each case) or by exhaustive enumeration
of a bounded integer box; a sat answer is also checked by substituting its model into the sympy
constraints exactly. Random problems are asked to every available backend, and z3 and cvc5 must
never give opposite definite answers. Tests that need cvc5 skip when it is not installed.
"""

from __future__ import annotations

import itertools
import warnings

import pytest
import sympy
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from implgraph import solvers
from implgraph.core.errors import InputError
from implgraph.core.region import Region
from implgraph.solvers import backends, get_backend, register_backend
from implgraph.solvers.sympy_front import SolverConflict, check_sympy, cross_check

R = sympy.Rational
x, y, z = sympy.symbols("x y z")
k, m = sympy.symbols("k m")
KINDS = {x: "real", y: "real", z: "real", k: "integer", m: "integer"}
HAVE_CVC5 = "cvc5" in backends()
needs_cvc5 = pytest.mark.skipif(not HAVE_CVC5, reason="cvc5 is not installed")
FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def region_backends():
    return backends("check")


# -- registry -----------------------------------------------------------------------------------

def test_registry_prefers_z3_and_lists_what_imports():
    names = backends()
    assert names[0] == "z3"
    assert get_backend() is get_backend("z3")
    assert get_backend("no-such-solver") is None
    # the refuter's table encodings exist in z3 only
    assert backends("encode_satisfies") == ["z3"]
    assert set(region_backends()) == set(names)


@needs_cvc5
def test_cvc5_is_registered_second():
    assert backends()[:2] == ["z3", "cvc5"]


def test_region_backend_follows_the_environment(monkeypatch):
    monkeypatch.delenv(solvers.SOLVER_ENV, raising=False)
    assert solvers.region_backend() is get_backend("z3")
    assert solvers.region_backend_name() == "z3"
    monkeypatch.setenv(solvers.SOLVER_ENV, "no-such-solver")
    with pytest.raises(InputError, match="IMPLGRAPH_SOLVER=no-such-solver.*fix:"):
        solvers.region_backend()


# -- hand-derived answers, every backend --------------------------------------------------------

HAND = [
    # x > 1 and x^2 < 2: x = 5/4 is a point (25/16 < 2)
    ([x > 1, x**2 < 2], "sat"),
    # x^2 < 0 has no real solution
    ([x**2 < 0], "unsat"),
    # 1/2 < k < 1 has no integer solution
    ([k > R(1, 2), k < 1], "unsat"),
    # k = 1, x = 4: 4/1 > 3
    ([k > R(1, 2), k < 2, x / k > 3], "sat"),
    # x*y > 1, x < 0, y > 0: the product of a negative and a positive number is negative
    ([x * y > 1, x < 0, y > 0], "unsat"),
    # |x - 1| < max(2, y) with y < -3: x = 1 gives 0 < 2
    ([sympy.Abs(x - 1) < sympy.Max(y, 2), y < -3], "sat"),
    # min(x, y) > 2 and x + y < 4: both > 2 forces x + y > 4
    ([sympy.Min(x, y) > 2, x + y < 4], "unsat"),
    # 2k = 2m + 1: even = odd has no integer solution (the integer cut alone does not see it)
    ([sympy.Eq(2 * k, 2 * m + 1)], "unsat"),
]


@pytest.mark.parametrize("name", region_backends())
@pytest.mark.parametrize("constraints,want", HAND)
def test_hand_answers(name, constraints, want):
    status, model, exact = check_sympy(get_backend(name), constraints, KINDS, 2000)
    assert exact
    assert status == want
    if status == "sat":
        assert all(sympy.sympify(c).xreplace(model) is sympy.true for c in constraints)


@pytest.mark.parametrize("name", region_backends())
def test_irrational_model_is_not_reported(name):
    # x^2 = 2 with x > 0: the only point is sqrt(2), not rational
    status, model, _ = check_sympy(get_backend(name), [sympy.Eq(x**2, 2), x > 0], KINDS, 2000)
    assert status == "sat" and model is None


@pytest.mark.parametrize("name", region_backends())
def test_abstraction_is_sound_for_unsat(name):
    # exp(x) < 1 and x > 0: exp(x) >= 1 for x >= 0 (a side condition of the abstraction)
    status, _, exact = check_sympy(get_backend(name), [sympy.exp(x) < 1, x > 0], KINDS, 2000)
    assert status == "unsat" and not exact


# -- Region through each backend -----------------------------------------------------------------

@pytest.mark.parametrize("name", region_backends())
def test_region_decisions_per_backend(monkeypatch, name):
    monkeypatch.setenv(solvers.SOLVER_ENV, name)
    assert solvers.region_backend_name() == name
    r = Region({x: "real"}, (x > 1,))
    assert r.decide(x**2 > 1) is True         # x > 1 => x^2 > 1
    assert r.decide(x < 1) is False           # x > 1 => not x < 1
    assert r.decide(x > 2) is None            # x = 3/2 and x = 3 disagree
    ri = Region({k: "integer"}, (k > R(1, 2), k < 2))
    assert ri.decide(sympy.Eq(k, 1)) is True  # the only integer in (1/2, 2) is 1
    assert Region({k: "integer"}, (k > R(1, 2), k < 1)).is_empty() is True
    p = Region({x: "real", y: "real"}, (x + y > 1, x < 0)).find_point()
    assert p[x] < 0 and p[x] + p[y] > 1


class _Always:
    """A fake backend that answers one status to everything (no model)."""

    def __init__(self, status):
        self.__name__ = f"fake-{status}"
        self.status = status
        self.terms = get_backend("z3").terms

    def check(self, formulas, timeout_ms, variables, logic=None):
        return self.status, ({v: sympy.Integer(0) for v in variables} if self.status == "sat" else None)


@pytest.fixture
def fakes():
    made = {s: _Always(s) for s in ("sat", "unsat", "unknown")}
    for s, b in made.items():
        register_backend(f"fake-{s}", b)
    yield made
    for s in made:
        solvers.BACKENDS.pop(f"fake-{s}", None)


def test_unknown_is_never_a_proof(monkeypatch, fakes):
    monkeypatch.setenv(solvers.SOLVER_ENV, "fake-unknown")
    r = Region({x: "real"}, (x > 7, x < 8))
    # a question the region's own bounds do not settle (x > 100 they do, without any solver: False)
    assert r.decide(x**3 - 50 * x > 100) is None
    assert r.is_empty() is None
    assert r.find_point() is None


def test_cross_check_reports_a_conflict_loudly(fakes):
    with pytest.warns(SolverConflict, match="disagree"):
        cc = cross_check([x > 1], KINDS, names=["fake-sat", "fake-unsat"])
    assert cc.conflict and not cc.agree and cc.verdict == "conflict"
    # the sat model x = 0 violates x > 1: the exact check says which side is wrong
    assert cc.model_ok == {"fake-sat": False}
    cc = cross_check([x > 1], KINDS, names=["fake-unknown", "fake-unsat"])
    assert cc.agree and cc.verdict == "unsat"
    assert cross_check([x > 1], KINDS, names=["fake-unknown"]).verdict == "unknown"


# -- random problems: the backends never contradict each other ------------------------------------

COEF = st.integers(-3, 3)
OPS = st.sampled_from(["<", "<=", ">", ">=", "=="])


def _relation(op, lhs, rhs):
    return sympy.Rel(lhs, rhs, op)


@st.composite
def linear_problem(draw, variables):
    n = draw(st.integers(1, 4))
    out = []
    for _ in range(n):
        lhs = sum(draw(COEF) * v for v in variables)
        out.append(_relation(draw(OPS), lhs, draw(COEF)))
    return out


@st.composite
def nonlinear_problem(draw, variables):
    n = draw(st.integers(1, 3))
    monomials = [v for v in variables] + [a * b for a, b in itertools.combinations_with_replacement(variables, 2)]
    out = []
    for _ in range(n):
        lhs = sum(draw(COEF) * mono for mono in draw(st.lists(st.sampled_from(monomials), min_size=1, max_size=3)))
        out.append(_relation(draw(OPS), lhs, draw(COEF)))
    return out


def _assert_consistent(constraints, kinds, truth=None):
    constraints = [c for c in constraints if c not in (sympy.true, True)]
    with warnings.catch_warnings():
        warnings.simplefilter("error", SolverConflict)   # a disagreement fails the test
        cc = cross_check(constraints, kinds, timeout_ms=500)
    assert cc.agree, cc
    for name, ok in cc.model_ok.items():
        assert ok in (True, None), (name, cc)
    if truth is not None and cc.verdict != "unknown":
        assert cc.verdict == truth, (cc, truth)
    return cc


@needs_cvc5
@FAST
@given(linear_problem([x, y, z]))
def test_random_linear_real(constraints):
    _assert_consistent(constraints, KINDS)


@needs_cvc5
@FAST
@given(nonlinear_problem([x, y]))
def test_random_nonlinear_real(constraints):
    _assert_consistent(constraints, KINDS)


BOX = 4


def _brute_integer(constraints):
    """Exhaustive truth over the integer box |k|, |m| <= BOX."""
    for a, b in itertools.product(range(-BOX, BOX + 1), repeat=2):
        if all(sympy.sympify(c).xreplace({k: a, m: b}) is sympy.true for c in constraints):
            return "sat"
    return "unsat"


@needs_cvc5
@FAST
@given(st.one_of(linear_problem([k, m]), nonlinear_problem([k, m])))
def test_random_integer_box_matches_enumeration(constraints):
    constraints = [c for c in constraints if c not in (sympy.true, True)]
    if sympy.false in constraints:
        return
    box = [k >= -BOX, k <= BOX, m >= -BOX, m <= BOX]
    _assert_consistent(constraints + box, KINDS, truth=_brute_integer(constraints))


# -- the bundled tables --------------------------------------------------------------------------

def _table_ids():
    from implgraph.io.counterexamples import table_entries
    return list(table_entries())


@needs_cvc5
@pytest.mark.parametrize("tid", _table_ids())
def test_tables_regions_agree(tid):
    from implgraph.io.counterexamples import get_table
    t = get_table(tid)
    reg = t.region
    _assert_consistent(list(reg.constraints), reg.kinds)
    # a few decisions: each block's count >= 1 and each probability in [0, 1], both ways
    for block in t.blocks[:3]:
        for cond in [block.count >= 1] + [sympy.And(p >= 0, p <= 1) for p in block.probs]:
            for side in (cond, sympy.Not(cond)):
                if side in (sympy.true, sympy.false):
                    continue
                _assert_consistent(list(reg.constraints) + [side], reg.kinds)


def test_engines_reach_solvers_only_through_the_solvers_package():
    # issue 11: every solver call goes through implgraph/solvers/ (a second backend plugs in there)
    import ast
    import pathlib
    engines = pathlib.Path(solvers.__file__).parent.parent / "engines"
    for path in sorted(engines.glob("*.py")):
        tree = ast.parse(path.read_text())
        imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        imported |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        assert not imported & {"z3", "cvc5"}, path.name



class _Timed:
    """A solver whose checks answer in turn, each taking ``wall`` seconds of which ``cpu`` on the CPU
    (a fake clock: the test does not depend on the machine's load)."""

    def __init__(self, answers, wall, cpu, clock):
        self.answers, self.wall, self.cpu, self.clock, self.limits = list(answers), wall, cpu, clock, []

    def set(self, key, value):
        self.limits.append((key, value))

    def check(self):
        self.clock["wall"] += self.wall
        self.clock["cpu"] += self.cpu
        return self.answers.pop(0)

    def reason_unknown(self):
        return "timeout"


@pytest.fixture
def clock(monkeypatch):
    from implgraph.solvers import z3_region
    now = {"wall": 0.0, "cpu": 0.0}
    monkeypatch.setattr(z3_region.time, "perf_counter", lambda: now["wall"])
    monkeypatch.setattr(z3_region.time, "process_time", lambda: now["cpu"])
    return now


def test_a_limit_met_without_cpu_is_given_again(clock):
    import z3
    from implgraph.solvers.z3_backend import run_check
    s = _Timed([z3.unknown, z3.sat], wall=0.02, cpu=0.001, clock=clock)   # 10 ms limit, a paused machine
    assert run_check(s, 10) == z3.sat and s.limits == [("timeout", 10)]


def test_a_limit_met_with_cpu_is_unknown(clock):
    import z3
    from implgraph.solvers.z3_backend import run_check
    early = _Timed([z3.unknown, z3.sat], wall=0.02, cpu=0.001, clock=clock)
    assert run_check(early, 1000) == z3.unknown      # returned before its limit: a real unknown, no retry
    busy = _Timed([z3.unknown, z3.sat], wall=0.02, cpu=0.02, clock=clock)
    assert run_check(busy, 10) == z3.unknown         # the limit was spent on the CPU: no retry
    paused = _Timed([z3.unknown] * 5, wall=0.02, cpu=0.0, clock=clock)
    assert run_check(paused, 10) == z3.unknown and not paused.answers[1:]   # at most LOAD_RETRIES more


def _z3_satisfies_at(name, params, rows, sizes, T):
    """Whether the z3 encoding of ``name`` admits the fixed table ``rows`` at raw level ``T``
    (no sort assumed: the encodings' unsorted branch)."""
    import z3
    from implgraph.definitions import get as get_definition
    from implgraph.solvers import z3_backend as zb
    zrows = [[z3.RealVal(f"{v.numerator}/{v.denominator}") for v in r] for r in rows]
    s = z3.Solver()
    s.add(*zb.encode_satisfies(get_definition(name), zrows, T, params, sizes, {}))
    return s.check() == z3.sat


@pytest.mark.parametrize("seed", range(12))
def test_z3_encodings_agree_with_the_brute_force(seed):
    # A fixed table satisfies a definition's encoding at raw level T exactly when its level
    # (tests/brute.py) is at most T: the encoding neither loses nor adds tables.
    import random
    from fractions import Fraction as Fr

    import brute
    rng = random.Random(seed)
    n, p = rng.randint(3, 5), rng.randint(2, 3)
    rows = []
    for _ in range(n):
        cuts = sorted(rng.randint(0, 4) for _ in range(p - 1))
        rows.append([Fr(b - a, 4) for a, b in zip([0] + cuts, cuts + [4])])
    sizes, left = [], n
    while left:
        sizes.append(rng.randint(1, left))
        left -= sizes[-1]
    labels = [f"E{c}" for c, s in enumerate(sizes) for _ in range(s)]
    k = rng.randint(1, n - 1)
    cases = [("dp", {}, brute.dp(rows)), ("ldp", {}, brute.ldp(rows)),
             ("kdp", {"k": k}, brute.kdp(rows, k)), ("kt-closeness", {"k": k}, brute.kt(rows, k)),
             ("mult-t-closeness", {}, brute.mult_t(rows, labels))]
    for name, params, level in cases:
        for T in (Fr(1), Fr(3, 2), Fr(2), Fr(4)):
            assert _z3_satisfies_at(name, params, rows, sizes, T) == (level <= T), (name, params, rows, sizes, T)
