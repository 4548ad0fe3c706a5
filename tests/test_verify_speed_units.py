"""The speed changes of a cold verify keep every answer: sympy's solve and simplify without importing
``sympy.physics.units`` (in the implgraph program's process only), the mechanism level's memo, the rational
comparison of :func:`implgraph.definitions.levels.satisfies`, Algorithm 1's reading as one data constant.

Values derived by hand.
"""

from __future__ import annotations

import os
import subprocess
import sys
from fractions import Fraction

import sympy

from implgraph.core import methods
from implgraph.core.concrete import ConcreteTable
from implgraph.definitions.levels import satisfies
from implgraph.mechanisms import calibrate
from implgraph.mechanisms.channels import randomised_response
from implgraph.mechanisms.datasets import value_partition

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _child(code: str) -> str:
    """The stdout of ``code`` run in a fresh interpreter on this tree."""
    env = dict(os.environ, PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_solve_and_simplify_in_the_program_load_no_units():
    # x**2 = 4: x = -2 or 2; (x**2 - 1)/(x - 1) = x + 1; and no module of sympy.physics is left loaded
    code = (
        "import sys, sympy\n"
        "from implgraph.core import program\n"
        "from implgraph.core.simplified import plain_simplify, solved, without_units\n"
        "program.RUNNING = True\n"
        "x = sympy.Symbol('x')\n"
        "print(sorted(solved(x**2 - 4, x)), plain_simplify((x**2 - 1) / (x - 1)))\n"
        "with without_units():\n"
        "    inside = 'sympy.physics.units' in sys.modules\n"
        "print(inside, any(m.startswith('sympy.physics') for m in sys.modules))\n")
    first, second = _child(code).splitlines()
    assert first == "[-2, 2] x + 1"
    assert second == "True False"       # the placeholder only while the call runs


def test_outside_the_program_sympy_runs_as_it_is():
    # a program embedding implgraph (RUNNING false) gets sympy's own calls: the real module is imported
    code = (
        "import sys, sympy\n"
        "from implgraph.core.simplified import plain_simplify\n"
        "x = sympy.Symbol('x')\n"
        "print(plain_simplify((x**2 - 1) / (x - 1)), 'sympy.physics.units' in sys.modules)\n")
    assert _child(code) == "x + 1 True"


def test_a_real_units_module_is_never_replaced():
    # sympy.physics loaded first: a quantity stays a quantity (m/m simplifies to 1 by the real module)
    code = (
        "import sympy\n"
        "from sympy.physics.units import meter\n"
        "from implgraph.core import program\n"
        "from implgraph.core.simplified import plain_simplify\n"
        "program.RUNNING = True\n"
        "print(plain_simplify(3 * meter / meter))\n")
    assert _child(code) == "3"


def test_mechanism_level_memo_gives_each_caller_its_own_copy():
    # randomised response on 2 values keeping with p = 1/2: rows (3/4, 1/4) and (1/4, 3/4), ratio 3 (LDP raw level)
    mech = randomised_response(2, sympy.Rational(1, 2))
    data = value_partition([1, 1], mech.values)
    first = calibrate.mechanism_level(mech, data, "ldp")
    second = calibrate.mechanism_level(mech, data, "ldp")
    assert [p.value for p in first.pieces] == [3] == [p.value for p in second.pieces]
    assert first is not second and first.pieces is not second.pieces
    first.pieces.clear()
    assert [p.value for p in calibrate.mechanism_level(mech, data, "ldp").pieces] == [3]
    # another keep probability is another level: p = 1/3 gives rows (2/3, 1/3), ratio 2
    other = randomised_response(2, sympy.Rational(1, 3))
    assert [p.value for p in calibrate.mechanism_level(other, data, "ldp").pieces] == [2]


def test_satisfies_compares_rational_raw_levels_exactly():
    # rows (1/2, 1/2) and (1/4, 3/4): LDP's largest ratio is 2, eps = ln 2; ln 3 and ln 2 (a tie) hold, ln(3/2) not
    t = ConcreteTable.from_fractions([[Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 4), Fraction(3, 4)]])
    assert satisfies(t, "ldp", sympy.log(3)) is True
    assert satisfies(t, "ldp", sympy.log(2)) is True
    assert satisfies(t, "ldp", sympy.log(sympy.Rational(3, 2))) is False


def test_algorithm_1_reading_is_one_constant():
    from implgraph.certify.lemmas import set_channel
    assert methods.ALGORITHM_1_READING == "the smallest p over the subsets Z"
    assert set_channel.ALGORITHM_1_READING is methods.ALGORITHM_1_READING
