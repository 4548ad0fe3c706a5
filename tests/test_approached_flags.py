"""Where a tight f is a supremum approached and not attained, the verdict says so (``Bound.approached``); where it is
attained at some level of the proof's domain, it does not claim "not attained above A's weakest level".

By hand. ``ceiling-family``'s approach family under a KL divergence between records: beta = N - 1 (B's ceiling) needs
a class of one record positive in a bucket where every other record is 0, whose KL from another record is infinite:
at no finite level of kl-ldp is it attained. Under the hockey-stick (delta-ldp) one record at (d, 1 - d) and the
others at (0, 1) attain it (delta level d): nothing is claimed. ``floor-level``'s ``skew`` kind (p-sensitive
k-anonymity => frequency l-diversity, 1): at p = 1 one class of two records at (1, 0) has p = 1 and frequency
l-diversity 1: attained at p = 1, a level above p-sensitive's weakest 0 and inside the proof's domain (p >= 1), so
the verdict must not read "not attained above A's weakest level" (it reads "tight where p <= 1").
"""

from __future__ import annotations

from fractions import Fraction

from implgraph.core.concrete import ConcreteTable
from implgraph.definitions import get
from implgraph.engines.prove import check_implication

import brute

APPROACHED = "approached, not attained above A's weakest level"


def test_kl_between_records_is_approached_not_attained():
    r = check_implication("kl-ldp", "basic-beta-likeness")
    assert r.method == "ceiling-family" and r.tightness == "tight"
    assert APPROACHED in (r.details.get("attained") or "")
    assert "2 buckets" in r.details["attained"]          # the family's rows are binary; K is a parameter


def test_the_hockey_stick_claims_nothing_of_attainment():
    r = check_implication("delta-ldp", "basic-beta-likeness", a_params={"eps": "log(2)"})
    assert r.method == "ceiling-family"
    assert APPROACHED not in (r.details.get("attained") or "")


def test_psens_to_frequency_is_attained_at_p_one():
    rows, classes = [[Fraction(1), Fraction(0)]] * 2, ["E1"] * 2
    assert get("p-sensitive-k-anonymity").concrete(ConcreteTable.from_fractions(rows, classes=classes), 2) == 1
    assert brute.frequency_l(rows, classes) == 1
    r = check_implication("p-sensitive-k-anonymity", "frequency-l-diversity", a_params={"k": 2})
    assert r.method == "floor-level" and APPROACHED not in (r.details.get("attained") or "")
