"""Certificates of the inequality-lemma chains (l-diversities): re-checked by implgraph.certify.lemma_chain.

By hand: a class uniform over m values has 1/max q = m, exp(H) = m and support m; the lemma Shannon >= min-entropy
keeps the level (f = x), a lemma reaching distinct l-diversity (an integer level) takes its ceiling.
At A's level 5/4 the uniform table over ceiling(5/4) = 2 buckets has entropy level 2 > 5/4, so f = x is
not attained there: it is tight only at integer levels. The capped distribution at 5/4, (4/5, 1/5), has
exp(H) = (4/5)^(-4/5) (1/5)^(-1/5) = 5 * 4^(-4/5), the tight f of frequency => entropy at 5/4.
"""

from fractions import Fraction as Fr

import pytest

import brute
from implgraph.certify import certificates_in, check_certificate
from implgraph.certify.lemma_chain import class_levels
from implgraph.engines.prove import check_implication

PAIRS = [("frequency-l-diversity", "entropy-l-diversity", None, ["shannon>=capped"], "capped(x)", "every"),
         ("frequency-l-diversity", "entropy-l-diversity", "l", ["shannon>=min-entropy"], "x", "integer"),
         ("entropy-l-diversity", "distinct-l-diversity", None, ["support>=shannon"], "ceiling(x)", "every"),
         ("frequency-l-diversity", "distinct-l-diversity", None, ["support>=min-entropy"], "ceiling(x)", "every")]


@pytest.fixture(scope="module", params=PAIRS, ids=[f"{a} => {b} (f = {f})" for a, b, f, *_ in PAIRS])
def proved(request):
    a, b, claimed, steps, f, where = request.param
    r = check_implication(a, b, claimed)
    assert r.verdict == "proved"
    (cert,) = certificates_in(r.details)
    return cert, steps, f, where


def test_the_chain_is_certified_and_rechecked(proved):
    cert, steps, f, where = proved
    assert cert["method"] == "inequality-lemmas" and cert["steps"] == steps and cert["f"] == f
    assert cert["tightness"]["where"] == where
    assert check_certificate(cert).ok


@pytest.mark.parametrize("corrupt", [
    lambda c: dict(c, f="x" if c["f"] == "ceiling(x)" else "ceiling(x)"),
    lambda c: dict(c, f="x" if c["f"] != "x" else "capped(x)"),
    lambda c: dict(c, steps=list(reversed(c["steps"])) if len(c["steps"]) > 1 else
                   ["support>=shannon" if c["steps"] != ["support>=shannon"] else "support>=min-entropy"]),
    lambda c: dict(c, steps=["shannon>=capped", "support>=shannon"], f="ceiling(x)"),
    lambda c: dict(c, steps=["renyi-2>=shannon"]),
    lambda c: dict(c, tightness={"uniform": True, "where": "every"}, f="x", steps=["shannon>=min-entropy"]),
    lambda c: dict(c, A={"definition": "k-anonymity", "class_level": "support"}),
])
def test_a_corrupted_certificate_is_rejected(proved, corrupt):
    cert = corrupt(dict(proved[0]))
    assert not check_certificate(cert).ok


def test_the_checker_levels_agree_with_the_brute_force_and_by_hand():
    rows = [[Fr(1, 3)] * 3, [Fr(1, 3)] * 3, [Fr(1, 2), Fr(1, 2), Fr(0)], [Fr(1, 2), Fr(1, 2), Fr(0)]]
    classes = ["E1", "E1", "E2", "E2"]
    assert class_levels("support", rows, classes) == brute.distinct_l(rows, classes) == 2
    assert class_levels("min-entropy", rows, classes) == 2          # min(3, 2), by hand
    assert class_levels("shannon", rows, classes) == 2              # uniform classes: exp(H) = support
    # (1/4, 3/4): exp(H) = 4^(1/4) (4/3)^(3/4) = 2^2 3^(-3/4), by hand, as its prime exponents
    assert class_levels("shannon", [[Fr(1, 4), Fr(3, 4)]] * 2, ["E1", "E2"]) == frozenset({(2, 2), (3, Fr(-3, 4))})
    with pytest.raises(ValueError):     # two different irrational class levels: no exact minimum here
        class_levels("shannon", [[Fr(1, 4), Fr(3, 4)], [Fr(1, 3), Fr(2, 3)]], ["E1", "E2"])


def test_the_capped_family_by_hand():
    """At A's level 5/4 the capped distribution is (4/5, 1/5): 1/max q = 5/4 and exp(H) = 5 * 4^(-4/5) =
    2^(-8/5) 5^1 (prime exponents, by hand); the certificate's f = capped(x) gives the same at 5/4."""
    from implgraph.certify.lemma_chain import _apply
    rows, classes = [[Fr(4, 5), Fr(1, 5)]] * 3, ["E1", "E2", "E2"]
    assert class_levels("min-entropy", rows, classes) == Fr(5, 4)
    want = frozenset({(2, Fr(-8, 5)), (5, Fr(1))})
    assert class_levels("shannon", rows, classes) == want == _apply("capped(x)", Fr(5, 4))


def test_the_definitions_named_must_declare_the_class_levels_described(proved):
    """Found by review: a lemma certificate with A renamed to k-anonymity and B to dp was accepted (the checker
    trusted the class levels described); it now reads each named definition's declared class level."""
    cert = dict(proved[0])
    bad = dict(cert, A=dict(cert["A"], definition="k-anonymity"), B=dict(cert["B"], definition="dp"))
    assert not check_certificate(bad).ok
    swapped = dict(cert, A=dict(cert["A"], definition=cert["B"]["definition"]))
    assert not check_certificate(swapped).ok
