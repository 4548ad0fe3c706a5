"""The witness family in N and K against a subset level whose size is a parameter symbol (docs/arguments/divergence-family.md).

Hand derivation (every N >= 2, every integer k with 1 <= k <= N - 1, the range kdp and kt-closeness declare):

- one record x = (K b, 1 - K b) and N - 1 records y = (b, 1 - b), b = 1/((K - 1)^2 + 1), K >= 3;
  chi^2(x || y) = (K - 1)^2 b^2/b + (K - 1)^2 b^2/(1 - b) = (K - 1)^2 b/(1 - b) = 1 (as 1 - b = (K - 1)^2 b), and
  chi^2(y || x) = (K - 1)/(K (K - 2)) <= 1: the KL level (<= chi^2) is <= 1 and the Renyi-2 level log(1 + chi^2) <=
  log 2, both ways, whatever N and k;
- kt-closeness(k) compares the table with every set of j = k records, kdp(k) with every set of j = N - k records
  (removing k): 1 <= j <= N - 1 exactly on the declared range, so a set of j records at y exists (there are N - 1 of
  them); bucket 1's mean of the set is b, the table's (K + N - 1) b/N: B's ratio level is >= (K + N - 1)/N,
  unbounded as K grows. No f works, for any N and k of the range: the four cells kl-ldp / renyi-ldp(alpha=2) =>
  kdp(k=k2) / kt-closeness(k=k1) of the symbols matrix are non-implications.
- At N = 2, K = 3, k = 1 (the witness point): b = 1/5, rows (3/5, 2/5) and (1/5, 4/5); the table is (2/5, 3/5).
  KL(x || y) = 3/5 log 3 + 2/5 log(1/2) = log(27/4)/5 > KL(y || x) = log(16/3)/5; kdp's ratio level is
  (2/5)/(1/5) = 2 (bucket 1, removing x), so its eps is log 2.

A subset level of the declared range 1 <= k <= N (the whole table at k = N, where the ratio is 1) is not refuted by
the family for every k, and a certificate claiming it is rejected.
"""

from __future__ import annotations

import copy
import math
from fractions import Fraction as F

import pytest
import sympy

import brute
from _plugin_fixtures import registered

from implgraph.certify import check_certificate
from implgraph.definitions.capabilities import RatioLevel, SubsetSize
from implgraph.definitions.families import RatioOfAverages
from implgraph.engines.prove import check_implication

CELLS = [("kl-ldp", None, "kdp", "k2"), ("kl-ldp", None, "kt-closeness", "k1"),
         ("renyi-ldp", {"alpha": 2}, "kdp", "k2"), ("renyi-ldp", {"alpha": 2}, "kt-closeness", "k1")]


def _rows(K, N):
    b = F(1, (K - 1) ** 2 + 1)
    return [[K * b, 1 - K * b]] + [[b, 1 - b]] * (N - 1)


def test_family_by_hand_and_brute_force():
    """The hand bounds hold on the family at every k of the range (brute force: every subset, every pair)."""
    for N in range(2, 6):
        for K in range(3, 7):
            rows = _rows(K, N)
            assert brute.kl_level_float(rows, "pairs") <= 1 + 1e-12
            assert brute.renyi_level_sum(rows, 2, "pairs") <= 2          # D_2 = log(sum) <= log 2
            for k in range(1, N):
                assert brute.kt(rows, k) >= F(K + N - 1, N)
                assert brute.kdp(rows, k) >= F(K + N - 1, N)


def _refutation(a, ap, b, sym):
    k = sympy.Symbol(sym, integer=True)
    return check_implication(a, b, a_params=ap, b_params={"k": k}, when=[f"1 <= {sym}", f"{sym} <= N - 1"], max_n=3)


@pytest.mark.parametrize("a,ap,b,sym", CELLS)
def test_the_four_cells_are_refuted_for_every_k(a, ap, b, sym):
    r = _refutation(a, ap, b, sym)
    assert r.verdict == "refuted" and r.method == "divergence-family"
    cert = r.details["certificate"]
    assert cert["symbols"][sym] == "integer" and {f"1 <= {sym}", f"{sym} <= N - 1"} <= set(cert["domain"])
    assert cert["family"]["n0"] == 2            # the range 1 <= k <= N - 1 is not empty from N = 2
    assert check_certificate(cert).ok
    assert r.witness["point"] == {"K": 3, "N": 2, sym: 1}
    assert r.witness["rows"] == [["3/5", "2/5"], ["1/5", "4/5"]]
    assert f"1 <= {sym} <= N - 1" in r.evidence


@pytest.mark.slow
def test_matrix_cell_and_witness_levels():
    """The symbols matrix's cell (check-edge, as the matrix decides it), with the witness's levels by hand."""
    from implgraph.map.matrix import decide_pair
    forward, _ = decide_pair("kl-ldp", "kdp(k=k2)", when=["1 <= k2", "k2 <= N - 1"])
    assert forward.relation == "non-implication" and forward.verdict == "refuted"
    w = forward.witness
    assert w["point"] == {"N": 2, "k2": 1}
    assert math.isclose(float(sympy.sympify(w["level_a"])), math.log(F(27, 4)) / 5)
    assert math.isclose(float(sympy.sympify(w["level_b"])), math.log(2))


def _forged(cert, what):
    cert = copy.deepcopy(cert)
    dom = cert["domain"]
    if what == "wider":
        dom[dom.index("1 <= k2")] = "0 <= k2"               # k2 = 0: a subset of N records, the whole table
    elif what == "narrower":
        dom[dom.index("1 <= k2")] = "2 <= k2"               # a claim other than the one checked
    elif what == "no-upper":
        dom.remove("k2 <= N - 1")
    elif what == "size":
        cert["B"]["size"] = "N - k2 + 1"
    elif what == "param":
        cert["B"]["params"]["k"] = "k2 - 1"
        cert["B"]["size"] = "N - k2 + 1"
    elif what == "kind":
        cert["symbols"]["k2"] = "real"
    elif what == "value":
        cert["family"]["rows"][0]["values"] = ["2*K/((K - 1)**2 + 1)", "1 - 2*K/((K - 1)**2 + 1)"]   # chi^2 > 1
    elif what == "n0":
        cert["family"]["n0"] = 1                            # N - 1 records at y: none at N = 1
    return cert


@pytest.mark.parametrize("what", ["wider", "narrower", "no-upper", "size", "param", "kind", "value", "n0"])
def test_forged_symbolic_certificate_is_rejected(what):
    cert = _refutation("kl-ldp", None, "kdp", "k2").details["certificate"]
    assert check_certificate(cert).ok
    assert not check_certificate(_forged(cert, what)).ok


class _WholeTableSubset(RatioOfAverages):
    """A two-sided subset level whose declared range reaches k = N (the whole table: ratio 1)."""

    name = "test-subset-upto-n"
    title = "subsets of k <= N records"
    reference = "test"
    scale, level_symbol = "ratio", "t"
    declares = (RatioLevel("subset", "two-sided"), SubsetSize("k"))
    params = {"k": "subset size, 1 <= k <= N"}
    ranges = {"k": (1, "N")}
    param_kinds = {"k": "integer"}


def test_range_reaching_the_whole_table_is_not_refuted_for_every_k():
    """At k = N the family's B level is 1: no refutation for every k; a certificate claiming one is rejected, whether
    its domain states the declared range or a narrower one."""
    from implgraph.prover.arguments.divergence_family import refutation
    from implgraph.definitions import get
    cert = _refutation("kl-ldp", None, "kt-closeness", "k1").details["certificate"]
    with registered(_WholeTableSubset):
        k = sympy.Symbol("k1", integer=True)
        assert refutation(get("kl-ldp"), get(_WholeTableSubset.name), {}, {"k": k}) is None
        forged = copy.deepcopy(cert)
        forged["B"]["definition"] = _WholeTableSubset.name
        assert not check_certificate(forged).ok                 # its domain is not the declared range
        forged["domain"] = [d.replace("k1 <= N - 1", "k1 <= N") for d in forged["domain"]]
        assert not check_certificate(forged).ok                 # the size may be N: no set of k1 records at y
