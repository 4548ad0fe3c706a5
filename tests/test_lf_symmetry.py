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
    # the ordered forms are cumulative sums over every bucket but the last: with two buckets they use bucket
    # 0 only, and the swap moves them onto bucket 1, outside A's set (the swap is a symmetry of the level only
    # because each row sums to 1, which the test on the forms as written does not see)
    assert lf.bucket_symmetries(_model("emd-t-closeness", {"ground": "ordered"}, 4, (2, 2), 2), 2) == [(0, 1)]
    assert lf.bucket_symmetries(_model("emd-t-closeness", {"ground": "ordered"}, 4, (2, 2), 3), 3) == [(0, 1, 2)]


def test_an_a_on_one_bucket_keeps_b_on_the_other_unbounded():
    """A = eps-LDP's forms on bucket 0 only (N = 3, two buckets), B = eps-LDP. At a = 2 the bucket-0 values
    may be 1, 1/2, 1/2, so the bucket-1 values are 0, 1/2, 1/2 and B is infinite. A wrongly assumed swap
    would solve only the bucket-0 forms of B and report 2."""
    from implgraph.core.concrete import INF
    full = _model("ldp", {}, 3, (3,), 2)
    one = LFModel([t for t in full.terms if all(l == 0 for _, l, _ in t.num.coef + t.den.coef)], full.floor)
    assert 0 < len(one.terms) < len(full.terms)
    assert lf.bucket_symmetries(one, 2) == [(0, 1)]
    ldp = get("ldp")
    v, _ = lf.tight_at(ldp, ldp, [((3,), one, full)], Fraction(2), 3, 2, False, lf.new_context())
    assert v == INF


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
    monkeypatch.setattr(lf, "_symmetries", lambda terms, q: (tuple(range(q)),))    # what tight_at asks
    identity_only = [lf.tight_at(a, b, models, x, N, p, classed, lf.new_context())[0] for x in levels]
    assert with_symmetry == identity_only
    assert any(v is not None for v in with_symmetry)


# --- a one-sided B is never infinite: no finer grid is searched for a witness (implgraph.engines.instance) ---

def test_a_b_with_a_ceiling_skips_the_witness_search():
    """Basic beta-likeness is a one-sided class ratio: in each bucket a class holds at most the table's mass,
    so its raw level is at most N on every table of N records, and no table makes it infinite. Without an f
    the finer grids (which look for B infinite) are skipped; the relation is left to the prover as before."""
    from implgraph.engines.direction import check_direction
    from implgraph.engines.instance import _ceiling
    assert _ceiling(get("basic-beta-likeness"), {}, 5) == 5 and _ceiling(get("dp"), {}, 5) is None
    d = check_direction("entropy-l-diversity", "basic-beta-likeness", N=3, n_min=3, prover=False)
    assert d.relation == "unknown" and "at most 3 on every table of 3 records" in d.instances[-1].note
    proved = check_direction("entropy-l-diversity", "basic-beta-likeness", N=3, n_min=3)
    assert proved.relation == "implication" and proved.verdict == "proved"


def test_with_an_f_the_grid_search_still_refutes_it():
    # an f is checked on every table met: beta = 0 at every l is false (a class can lie above the table)
    from implgraph.engines.direction import check_direction
    d = check_direction("entropy-l-diversity", "basic-beta-likeness", f="0", N=3, n_min=3, prover=False)
    assert d.f_verdict == "refuted"
