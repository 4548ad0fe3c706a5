"""sei2019 Section IV on releases: classes for S_j (Definition 10) and the models, against brute force."""

import itertools
import math
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
import sympy

from implgraph.mechanisms.randomized_anonymization import privacy
from implgraph.mechanisms.randomized_anonymization.release import Release, anonymize


def release_of(records, domains, params):
    """A release from explicit sets: records[i][j] is the set R_ij (value indices)."""
    member = []
    for j, dom in enumerate(domains):
        m = np.zeros((len(records), len(dom)), dtype=bool)
        for i, rec in enumerate(records):
            m[i, list(rec[j])] = True
        member.append(m)
    return Release([f"S{j + 1}" for j in range(len(domains))], domains, params, member)


def brute_classes(release, j):
    """Expand every record into its Cartesian-product rows and group them on all attributes but S_j."""
    groups = {}
    for i in range(release.N):
        for row in itertools.product(*release.sets(i)):
            key = row[:j] + row[j + 1:]
            groups.setdefault(key, Counter())[row[j]] += 1
    return groups


def test_table_iii_alice():
    """Table III: Alice's single record with R = {33, 41} x {10105, 32515} x {Cold, HIV} (frequency 2-diversity)."""
    rel = release_of([[(0, 1), (0, 1), (0, 1)]], [["33", "41"], ["10105", "32515"], ["Cold", "HIV"]],
                     [(1, 2)] * 3)
    for j in range(3):
        classes = privacy.classes_for(rel, j)
        assert len(classes) == 4                       # e.g. for S_3: (33, 10105), (33, 32515), ...
        assert all(c == [1, 1] for c, _ in classes.values())
        assert privacy.frequency_level(rel, j) == 2
        assert privacy.anonymity_level(rel, j) == 2
        assert privacy.entropy_level(rel, j) == 2


def random_release(seed, params, n=12):
    rng = np.random.default_rng(seed)
    cols = {"a": rng.integers(0, 3, n).tolist(), "b": rng.integers(0, 4, n).tolist(),
            "c": rng.integers(0, 3, n).tolist()}
    return anonymize(cols, params, rng, domains={"a": ["0", "1", "2"], "b": ["0", "1", "2", "3"],
                                                  "c": ["0", "1", "2"]})


@pytest.mark.parametrize("seed", range(6))
def test_classes_equal_the_expanded_rows(seed):
    rel = random_release(seed, {"a": (Fraction(1, 2), 2), "b": (1, 2), "c": (0, 1)})
    for j in range(3):
        ours = {k: Counter({v: c for v, c in enumerate(counts) if c}) for k, (counts, _) in
                privacy.classes_for(rel, j).items()}
        assert ours == brute_classes(rel, j)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("l", [1, 2, 3])
def test_theorems_2_3_on_samples(seed, l):
    """p_j = 1, eta_j = l_j <= d_j: frequency and entropy [[l, j]]-diversity and [[l, j]]-anonymity."""
    rel = random_release(seed, {"a": (1, l), "b": (1, l), "c": (1, l)})
    for j in range(3):
        assert privacy.frequency_level(rel, j) >= l
        assert privacy.entropy_holds(rel, j, l)
        assert privacy.anonymity_level(rel, j) >= l


@pytest.mark.parametrize("seed", range(6))
def test_lemma_1_class_closeness_within_record_bound(seed):
    rel = random_release(seed, {"a": (Fraction(2, 3), 2), "b": (Fraction(1, 2), 2), "c": (1, 1)})
    for j, d in enumerate([3, 4, 3]):
        prior = [Fraction(1, d)] * d
        assert privacy.closeness_level(rel, j, prior) <= privacy.record_closeness_level(rel, j, prior)


def test_table_v_is_zero_closeness():
    """Section VII-C: p_j = 1 and eta_j = d_j release the whole domain; (0, 0)-closeness."""
    rel = random_release(0, {"a": (1, 3), "b": (1, 4), "c": (1, 3)})
    prior = [Fraction(1, 2), Fraction(1, 3), Fraction(1, 6)]
    assert privacy.closeness_level(rel, 0, prior) == 0
    assert privacy.record_closeness_level(rel, 0, prior) == 0


def test_entropy_level_by_hand():
    # one class for S_1 with counts (2, 1): exp(H) = (3/2)^(2/3) 3^(1/3)
    rel = release_of([[(0, 1)], [(0,)]], [["x", "y"]], [(1, 1), (1, 1)])
    want = sympy.Rational(3, 2) ** sympy.Rational(2, 3) * 3 ** sympy.Rational(1, 3)
    assert sympy.simplify(privacy.entropy_level(rel, 0) - want) == 0
    assert privacy.frequency_level(rel, 0) == Fraction(3, 2)
    assert math.isclose(float(privacy.entropy_level(rel, 0)), float(want))


def test_vector_levels():
    rel = random_release(1, {"a": (1, 2), "b": (1, 3), "c": (1, 2)})
    levels = privacy.vector_levels(rel, "frequency")
    assert levels[0] >= 2 and levels[1] >= 3 and levels[2] >= 2


@pytest.mark.parametrize("seed", range(4))
def test_levels_agree_with_the_core_on_the_class_table(seed):
    """The direct levels equal the registered definitions' levels of the class table (core, exact)."""
    from implgraph.definitions.levels import optimal_level
    rel = random_release(seed, {"a": (Fraction(1, 2), 2), "b": (1, 2), "c": (1, 2)})
    for j in range(3):
        table = privacy.class_table(rel, j)
        assert optimal_level(table, "frequency-l-diversity").pieces[0].value == privacy.frequency_level(rel, j)
        assert optimal_level(table, "k-anonymity").pieces[0].value == privacy.anonymity_level(rel, j)
        core = optimal_level(table, "entropy-l-diversity").pieces[0].value
        assert sympy.simplify(core - privacy.entropy_level(rel, j)) == 0
