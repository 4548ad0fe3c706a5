"""Bucket symmetries in check-edge's linear programs (implgraph.engines.lf.bucket_symmetries): a form of B
and its relabelling by a permutation of the buckets that maps A's forms onto themselves have one maximum,
so tight_at solves one linear program per orbit. The tight values must be those found with the identity
alone (and those are checked against the brute force in test_checkedge)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from implgraph.definitions import get
from implgraph.definitions.families import Form, LFModel, Term, lf_model
from implgraph.engines import lf
from implgraph.engines.instance import samples_for


def _model(name, params, N, sizes, p):
    return lf_model(get(name), N, sizes, p, **params)


@pytest.mark.parametrize("name,params", [("dp", {}), ("mult-t-closeness", {}), ("kt-closeness", {"k": 2}),
                                         ("emd-t-closeness", {"ground": "equal"})])
@pytest.mark.parametrize("p", [2, 3])
def test_a_definition_symmetric_in_its_buckets_has_every_permutation(name, params, p):
    sizes = (2, 2) if get(name).needs_classes else (4,)
    assert sorted(lf.bucket_symmetries(_model(name, params, 4, sizes, p), p)) == \
        sorted(itertools.permutations(range(p)))


def test_an_ordered_ground_distance_keeps_only_the_identity():
    # |F1 - G1| + |F2 - G2| over cumulative sums from bucket 1: relabelling buckets 1 and 2 (of 3)
    # changes the forms, and with two buckets the forms x - y and y - x are not swapped into each other
    # with their denominators; the identity is always there
    for p in (2, 3):
        perms = lf.bucket_symmetries(_model("emd-t-closeness", {"ground": "ordered"}, 4, (2, 2), p), p)
        assert perms[0] == tuple(range(p))
    assert lf.bucket_symmetries(_model("emd-t-closeness", {"ground": "ordered"}, 4, (2, 2), 3), 3) == [(0, 1, 2)]


def test_a_form_set_not_closed_under_the_swap():
    one = Form((), Fraction(1))
    x0 = Form(((0, 0, Fraction(1)),))
    x1 = Form(((0, 1, Fraction(1)),))
    assert lf.bucket_symmetries(LFModel([Term(x0, one)], Fraction(0)), 2) == [(0, 1)]
    assert lf.bucket_symmetries(LFModel([Term(x0, one), Term(x1, one)], Fraction(0)), 2) == [(0, 1), (1, 0)]
    # beyond SYMMETRY_MAX_P buckets, the identity only
    p = lf.SYMMETRY_MAX_P + 1
    assert lf.bucket_symmetries(LFModel([], Fraction(0)), p) == [tuple(range(p))]


PAIRS = [("mult-t-closeness", {}, "dp", {}), ("ldp", {}, "kt-closeness", {"k": 2}),
         ("dp", {}, "emd-t-closeness", {"ground": "equal"}),
         ("mult-t-closeness", {}, "emd-t-closeness", {"ground": "ordered"}),
         ("emd-t-closeness", {"ground": "ordered"}, "basic-beta-likeness", {})]


@pytest.mark.parametrize("an,ap,bn,bp", PAIRS)
@pytest.mark.parametrize("N,p", [(3, 2), (4, 2), (3, 3)])
def test_tight_values_equal_those_of_the_identity_alone(an, ap, bn, bp, N, p, monkeypatch):
    a, b = get(an), get(bn)
    classed = a.needs_classes or b.needs_classes
    parts = lf.partitions_for(N) if classed else [(N,)]
    models = [(s, lf_model(a, N, s, p, **ap), lf_model(b, N, s, p, **bp)) for s in parts]
    levels = samples_for(a, N)[::3]
    with_symmetry = [lf.tight_at(a, b, models, x, N, p, classed, lf.new_context())[0] for x in levels]
    monkeypatch.setattr(lf, "bucket_symmetries", lambda am, q: [tuple(range(q))])
    identity_only = [lf.tight_at(a, b, models, x, N, p, classed, lf.new_context())[0] for x in levels]
    assert with_symmetry == identity_only
    assert any(v is not None for v in with_symmetry)
