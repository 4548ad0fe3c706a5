"""``implgraph.core.simplified.substituted``: the value of ``e.subs(values)``, without sympy re-evaluating a
Min/Max whose arguments stay symbolic. Compared with ``subs`` at random points (exact where both are numbers)."""

import random

import pytest
import sympy

from implgraph.core.simplified import substituted

x, y, a = sympy.symbols("x y alpha", positive=True)
N = sympy.Symbol("N", integer=True)

CASES = [
    (sympy.Min((N - 1) / N, a / (a + 1), a - a / N), {N: 4}),
    (sympy.Min(x, sympy.log(4) / 2, a + sympy.log(2)), {a: 0}),          # two numbers sympy cannot order
    (sympy.Min(x, y, 1), {y: sympy.sin(1) ** 2 + sympy.cos(1) ** 2}),   # 1 written two ways
    (sympy.Max(x, sympy.Min(y, N / 2), 3), {N: 4}),
    (sympy.Piecewise((a / 2, sympy.Eq(N, 2)), (sympy.Min(N * a, 1 - 1 / N), True)), {N: 3}),
    (sympy.Piecewise((a / 2, sympy.Eq(N, 2)), (sympy.Min(N * a, 1 - 1 / N), True)), {N: 2}),
    (sympy.Min(x, 2) + sympy.Max(y, 1), {x: 3}),
]


@pytest.mark.parametrize("e, values", CASES)
def test_substituted_has_the_value_of_subs(e, values):
    got, want = substituted(e, values), e.subs(values)
    rng = random.Random(1)
    free = sorted(got.free_symbols | want.free_symbols, key=str)
    for _ in range(20):
        point = {s: sympy.Rational(rng.randint(1, 40), rng.randint(1, 8)) for s in free}
        assert sympy.simplify(got.subs(point) - want.subs(point)) == 0, (e, values, point)


def test_symbolic_arguments_are_kept_and_numbers_merged():
    e = sympy.Min((N - 1) / N, a / (a + 1), a - a / N)
    assert str(substituted(e, {N: 4})) == "Min(3/4, 3*alpha/4, alpha/(alpha + 1))"
    assert substituted(sympy.Min(x, 2, 3, x), {}) == sympy.Min(x, 2)
    assert substituted(e, {N: 4, a: 1}) == sympy.Rational(1, 2)


def _run(code):
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()


def test_simplified_leaves_no_units_module_behind():
    # simplify asks whether the expression holds a physical Quantity; with no sympy.physics module loaded none can
    # exist: the answer is sympy's ((x**2 - 1)/(x - 1) is x + 1) and sympy.physics.units is neither imported nor left
    # as a placeholder; importing it afterwards gives the real module.
    out = _run("import sys, sympy\n"
               "from implgraph.core import program; program.RUNNING = True\n"
               "from implgraph.core.simplified import simplified\n"
               "x = sympy.Symbol('x')\n"
               "print(simplified((x**2 - 1)/(x - 1)) == x + 1, any(m.startswith('sympy.physics') for m in sys.modules))\n"
               "import sympy.physics.units as u\n"
               "print(hasattr(u, 'meter'))")
    assert out == ["True", "False", "True"]


def test_simplified_with_units_loaded_simplifies_quantities():
    # once sympy.physics.units is loaded, a Quantity is simplified as sympy does: 1000 m / km is 1
    out = _run("import sympy\n"
               "from implgraph.core import program; program.RUNNING = True\n"
               "from sympy.physics.units import meter, kilometer\n"
               "from implgraph.core.simplified import simplified\n"
               "print(simplified(1000*meter/kilometer))")
    assert out == ["1"]


def test_a_library_import_simplifies_as_sympy_does():
    # without the command line's setting (a program that embeds implgraph may run threads that import
    # sympy.physics.units), sympy's own simplify runs, units and all
    out = _run("import sys, sympy\n"
               "from implgraph.core.simplified import simplified\n"
               "x = sympy.Symbol('x')\n"
               "print(simplified((x**2 - 1)/(x - 1)) == x + 1, 'sympy.physics.units' in sys.modules)")
    assert out == ["True", "True"]


def test_the_program_skips_the_units_import():
    # and `implgraph --version` imports no sympy
    assert _run("import sys\n"
                "sys.argv = ['implgraph', '--version']\n"
                "from implgraph.cli import run\n"
                "try:\n"
                "    run()\n"
                "except SystemExit:\n"
                "    pass\n"
                "print('sympy' in sys.modules)")[-1] == "False"
    out = _run("import sys, runpy\n"
               "sys.argv = ['implgraph', 'check-edge', 'ldp', 'kt-closeness(k=1)', '--N', '3', '--json']\n"
               "import io, contextlib\n"
               "buf = io.StringIO()\n"
               "with contextlib.redirect_stdout(buf):\n"
               "    try:\n"
               "        from implgraph.cli import run; run()\n"
               "    except SystemExit:\n"
               "        pass\n"
               "print(any(m.startswith('sympy.physics') for m in sys.modules), '\"proved\"' in buf.getvalue())")
    assert out == ["False", "True"]



SIGN_CASES = [
    # (one form, the same value written with the sum of a factor negated): derived by hand
    (x / (y - a), -x / (a - y)),
    (x * sympy.Min(x, y) / (a - y) ** 3, -x * sympy.Min(x, y) / (y - a) ** 3),     # an odd power moves the sign
    (x / (a - y) ** 2, x / (y - a) ** 2),                                          # an even one does not
    (sympy.Piecewise((0, x <= 1), (-sympy.Max(0, x - y) / (a - x), True)),
     sympy.Piecewise((0, x <= 1), (sympy.Max(0, x - y) / (x - a), True))),
]


@pytest.mark.parametrize("one, other", SIGN_CASES)
def test_equal_forms_print_one_way(one, other):
    """A composed f printed ``-X/(M - m)`` in one run and ``X/(-M + m)`` in the next (the order of a set of
    placeholder symbols inside ``sympy.simplify``); the canonical signs print both one way, with the same value."""
    from implgraph.core.simplified import _canonical_signs
    assert str(one) != str(other)           # the case is a real pair of forms
    c1, c2 = _canonical_signs(one), _canonical_signs(other)
    assert c1 == c2 and str(c1) == str(c2)
    point = {x: sympy.Rational(5, 2), y: sympy.Rational(1, 3), a: sympy.Rational(7, 4)}
    assert c1.subs(point) == one.subs(point) == other.subs(point)
