"""The ``skew-family`` argument (``implgraph/prover/arguments/skew_family.py``) and its checker lemma
(``implgraph/certify/lemmas/skew_family.py``): B's weakest level 1 (frequency or entropy l-diversity) is the tight f
under distinct l-diversity, and frequency's under entropy l-diversity, approached and not attained beyond A's level 1.

By hand (tests/brute.py's levels): a class of rows (1 - e, e/2, e/2) has three values whatever e in (0, 2/3), its
frequency level 1/(1 - e) (10/9 at e = 1/10, 100/99 at e = 1/100) falls to 1; rows (3/4, 1/8, 1/8) (e = 1/4, M = 2)
have exp H = (4/3)^(3/4) 8^(1/4) = (8/3)^(3/4) >= 2 and frequency 4/3; a class of one value has distinct, frequency and
entropy levels 1 (B = 1 forces A = 1).
"""

from __future__ import annotations

import json
import os
from fractions import Fraction

import pytest
import sympy

import brute
from _forge import edited

from implgraph.certify import check_certificate

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "data", "coq", "skew_family.json")) as fh:
    CERTS = json.load(fh)
DF, DE, EF = ("distinct-l-diversity => frequency-l-diversity", "distinct-l-diversity => entropy-l-diversity",
              "entropy-l-diversity => frequency-l-diversity")


@pytest.mark.parametrize("a, b", [("distinct-l-diversity", "frequency-l-diversity"),
                                  ("distinct-l-diversity", "entropy-l-diversity"),
                                  ("entropy-l-diversity", "frequency-l-diversity")])
def test_the_tight_f_is_one(a, b):
    from implgraph.core.region import Region
    from implgraph.prover.answer import T
    from implgraph.prover.search import tight_bound
    N = sympy.Symbol("N", integer=True)
    found = tight_bound(a, b, {}, {}, Region({T: "real", N: "integer"}, (T >= 1, N >= 2)), N)
    assert found is not None and found.method == "skew-family" and found.tight and found.upper == 1
    assert "approached" in found.argument and "not attained" in found.argument


def test_the_skewed_rows_by_hand():
    for e, freq in ((Fraction(1, 10), Fraction(10, 9)), (Fraction(1, 100), Fraction(100, 99))):
        rows = [[1 - e, e / 2, e / 2]] * 3
        assert brute.distinct_l(rows, ["E1"] * 3) == 3 and brute.frequency_l(rows, ["E1"] * 3) == freq
    rows = [[Fraction(3, 4), Fraction(1, 8), Fraction(1, 8)]] * 2
    assert sympy.simplify(brute.entropy_l(rows, ["E1"] * 2) - sympy.Rational(8, 3) ** sympy.Rational(3, 4)) == 0
    assert brute.frequency_l(rows, ["E1"] * 2) == Fraction(4, 3)
    one = [[Fraction(1), Fraction(0)]] * 2
    assert brute.distinct_l(one, ["E1"] * 2) == brute.frequency_l(one, ["E1"] * 2) == brute.entropy_l(one, ["E1"] * 2) == 1


@pytest.mark.parametrize("name", sorted(CERTS))
def test_the_stored_certificates_check(name):
    assert check_certificate(CERTS[name]).ok


FORGED = [
    ("U two", DF, ["upper"], "2"),
    ("attained everywhere", DE, ["family", "attained"], "every"),
    ("family kind", EF, ["family", "kind"], "skew-support"),
    ("B counts values", DF, ["B", "class_level"], "support"),
    ("A named entropy", DF, ["A", "class_level"], "shannon"),
]


@pytest.mark.parametrize("label, name, path, value", FORGED, ids=[f[0] for f in FORGED])
def test_forged_certificates_are_rejected(label, name, path, value):
    assert not check_certificate(edited(CERTS[name], path, value)).ok


def test_the_verdict_says_the_supremum_is_approached_not_attained():
    """entropy l-diversity => frequency l-diversity: B's weakest level 1 is approached by one class of rows
    (1 - e, e/M, ..., e/M) (exp(H) grows with M at any fixed e, while 1/max q = 1/(1 - e) tends to 1), never
    attained where A's level is above 1 (1/max q = 1 needs a single value, exp(H) = 1 too): the verdict names no
    attaining table."""
    from implgraph.engines.checkedge import check_edge
    d = check_edge("entropy-l-diversity", "frequency-l-diversity", N=3).forward
    assert d.tight_all_n == "1"
    assert "approached, not attained above A's weakest level" in (d.tight_attained or "")
    assert "attaining table" not in (d.tight_attained or "")
