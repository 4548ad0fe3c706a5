"""check-edge beyond N = 8: two-block tables (engines/blocks) and the prover, no enumeration.

Witnesses are judged by tests/brute.py on the expanded rows; the N = 1000 edge is decided by the
prover for every N.
"""

import time
from fractions import Fraction

import pytest
import sympy

import brute
from implgraph import definitions
from implgraph.certify.levels import INF, raw_level
from implgraph.definitions.capabilities import RatioLevel, SubsetSize
from implgraph.engines.blocks import block_sizes, block_witness
from implgraph.engines.direction import EXHAUSTIVE_MAX, _has_partition, check_direction
from implgraph.engines.lf import partitions_for


def _rows(w):
    return [[Fraction(x) for x in r] for r in w["rows"]]


def _defs(family, sides="two-sided", with_k=None):
    return [d for d in definitions.all_definitions() if d.declared(RatioLevel) == RatioLevel(family, sides)
            and (with_k is None or ("k" in d.params) == with_k)]


def test_block_sizes():
    assert block_sizes(30, [sympy.Integer(7)]) == [1, 2, 3, 7, 15, 23, 27, 28, 29]
    assert block_sizes(2) == [1]


@pytest.mark.parametrize("n", [2, 3, 5, 8, 12])
@pytest.mark.parametrize("lo,hi", [(1, None), (2, None), (3, None), (2, 3), (None, 1)])
def test_has_partition_matches_enumeration(n, lo, hi):
    assert _has_partition(n, lo, hi) == bool(partitions_for(n, lo, hi))


@pytest.mark.parametrize("N", [30, 1000])
def test_non_implication_witness_at_large_N(N):
    # a subset level of size 2 stays finite with one zero record; the pairwise level is infinite
    sub = next(d for d in _defs("subset", with_k=True) if d.declared(SubsetSize).size(N, {"k": 2}) == 2)
    pair = _defs("pairwise")[0]
    w = block_witness(sub, {"k": 2}, pair, {}, N)
    assert w is not None and w["kind"] == "non-implication"
    rows = _rows(w)
    assert len(rows) == N
    if N <= 30:     # brute force enumerates every subset
        assert brute.kt(rows, 2) != brute.INF and brute.ldp(rows) == brute.INF
    else:           # the independent checker's levels (extreme subsets by sorting)
        two = {"sides": "two-sided"}
        assert raw_level({"family": "subset", **two}, rows, size=2) != INF
        assert raw_level({"family": "pairwise", **two}, rows) == INF


def test_false_f_refuted_at_N_30_quickly():
    pair = _defs("pairwise")[0]
    sub = next(d for d in _defs("subset", with_k=True) if d.declared(SubsetSize).size(30, {"k": 1}) == 1)
    start = time.perf_counter()
    r = check_direction(pair.name, f"{sub.name}(k=1)", f"{pair.level_symbol}/2", N=30)
    assert time.perf_counter() - start < 20
    assert r.verdict == "refuted" and r.f_verdict == "refuted"
    w = r.witness
    rows = _rows(w)
    # A's level (a ratio) is the pairwise ratio; B's (k = 1) exceeds f = sqrt(A's ratio)
    t = brute.ldp(rows)
    assert brute.kt(rows, 1) ** 2 > t


def test_true_edge_at_N_1000_proved_for_every_N():
    pair = _defs("pairwise")[0]
    rem = next(d for d in _defs("subset", with_k=False) if sympy.simplify(d.declared(SubsetSize).size(sympy.Symbol("N"), {}) -
                                                                         sympy.Symbol("N") + 1) == 0)
    assert 1000 > EXHAUSTIVE_MAX
    r = check_direction(pair.name, rem.name, None, N=1000)
    assert r.verdict == "proved" and r.certificate is not None
    eps, N = sympy.Symbol(pair.level_symbol, positive=True), sympy.Symbol("N", integer=True)
    tight = sympy.sympify(r.tight_all_n, locals={pair.level_symbol: eps, "N": N})
    # vertex argument by hand: one record at T a, N - 1 at a: ratio (T + N - 1)/N
    assert sympy.simplify(sympy.exp(tight) - (sympy.exp(eps) + N - 1) / N) == 0


def test_prover_witness_has_the_levels_of_every_witness():
    """Beyond N = 8 the reverse of LDP => mult-t-closeness is refuted by the prover's witness: the
    direction is a non-implication (no f can work), and the witness carries both levels like every
    other witness (the CLI's text output printed them and crashed on the prover's witness); the
    levels are the brute force's on the witness rows."""
    d = check_direction("mult-t-closeness", "ldp", None, N=30)
    assert (d.relation, d.verdict) == ("non-implication", "refuted")
    w = d.witness
    rows, classes = _rows(w), w["classes"]
    assert brute.ldp(rows) == brute.INF
    assert sympy.sympify(w["level_a"]) == sympy.Rational(brute.mult_t(rows, classes))
    assert w["level_b"] == "oo"


def test_check_edge_cli_prints_a_prover_witness(capsys):
    from implgraph.cli import main
    assert main(["check-edge", "ldp", "mult-t-closeness", "--f", "exp(eps)/2", "--N", "30"]) == 0
    out = capsys.readouterr().out
    assert "mult-t-closeness => ldp: non-implication" in out
    assert "witness (mult-t-closeness level " in out


def test_a_refuted_f_beyond_n8_leaves_the_proved_relation():
    """Theorem 2b with N - 1 for N is false at N = 2 (17/16 > 1 at eps = ln(9/8)), but eps-LDP =>
    (1, t)-closeness itself holds for every N with the tight f ((N - 1) e^eps + 1)/N (the vertex
    argument: ((N - j) T + j)/N with j = 1): beyond N = 8 the relation is that implication, as it is up
    to N = 8, not 'unknown'."""
    d = check_direction("ldp", "kt-closeness(k=1)", "(exp(eps)*(N - 2) + 1)/(N - 1)", N=30)
    assert (d.relation, d.f_verdict) == ("implication", "refuted")
    N, eps = sympy.symbols("N eps")
    assert sympy.simplify(sympy.sympify(d.tight_all_n, locals={"N": N, "eps": eps})
                          - ((N - 1) * sympy.exp(eps) + 1) / N) == 0


@pytest.mark.parametrize("N", [5, 9])
def test_two_block_tables_have_the_levels_of_the_tables_written_out(N):
    """The candidate tables are stored as two distinct rows with counts (WeightedConcreteTable); every
    built-in definition (stated parameters) has on each the level it has on the table written out, and
    (k, t)-closeness and eps-LDP also the brute force's."""
    from implgraph.engines.blocks import candidate_tables
    from implgraph.engines.recheck import raw_level as engine_level
    from implgraph.map.matrix import stated_params
    ldp, kt = definitions.get("ldp"), definitions.get("kt-closeness")
    checked = 0
    for d in definitions.all_definitions():
        params = {k: (sympy.Integer(v) if isinstance(v, int) else sympy.sympify(v) if not isinstance(v, str) else v)
                  for k, v in stated_params(d, N).items()}
        for ct in candidate_tables(ldp, d, N, (2,), classed=True):
            assert engine_level(d, params, ct) == engine_level(d, params, ct.expand()), (d.name, ct.to_rows())
            checked += 1
    assert checked > 100
    for ct in candidate_tables(ldp, kt, N, (2,), classed=False):
        rows = [[Fraction(x) for x in r] for r in ct.to_rows()]
        assert engine_level(ldp, {}, ct) == brute.ldp(rows)
        assert engine_level(kt, {"k": sympy.Integer(2)}, ct) == brute.kt(rows, 2)
