"""The checker's size bound (implgraph.certify.size): a certificate too large in any dimension is rejected before
anything in it is read, with one line naming the dimension. The seconds are measured by
benchmarks/bench_certify.py, not here."""

import copy

import pytest

from implgraph.certify import check_certificate
from implgraph.certify.size import (MAX_BLOCKS, MAX_DEPTH, MAX_ITEMS, MAX_OBLIGATIONS, MAX_PART_DEPTH, MAX_PARTS,
                                    MAX_TEXT, size_fault)

#: a certificate the checker accepts (the module example of implgraph.certify)
GOOD = {"format": "implgraph-certificate/1", "method": "same-level",
        "symbols": {"N": "integer", "T": "real"}, "domain": ["N >= 2", "T >= 1"],
        "A": {"family": "pairwise", "sides": "two-sided"}, "B": {"family": "pairwise", "sides": "two-sided"},
        "upper": "T", "tight": True,
        "tightness": {"blocks": [{"count": "1", "value": "1/(T + 1)"}, {"count": "N - 1", "value": "T/(T + 1)"}]}}


def _with(**changes):
    cert = copy.deepcopy(GOOD)
    cert.update(changes)
    return cert


def _rejected_for_size(cert):
    rep = check_certificate(cert)
    assert not rep.ok
    assert [w for w, _, _ in rep.steps] == ["certificate size"]     # nothing else was read
    (_, _, how), = rep.failures()
    assert "\n" not in how
    return how


def test_the_good_certificate_is_accepted():
    assert check_certificate(GOOD).ok and size_fault(GOOD) == ""


def test_a_hundred_thousand_blocks_rejected_with_one_line():
    blocks = [{"count": "1", "value": f"{i}/(T + {i + 1})"} for i in range(10 ** 5)]
    how = _rejected_for_size(_with(tightness={"blocks": blocks}))
    assert how == f"too large: 100000 blocks in tightness.blocks (at most {MAX_BLOCKS})"


def test_blocks_at_the_bound_are_read():
    blocks = [{"count": "0", "value": "1/2"}] * (MAX_BLOCKS - 2) + GOOD["tightness"]["blocks"]
    assert size_fault(_with(tightness={"blocks": blocks})) == ""
    assert check_certificate(_with(tightness={"blocks": blocks})).ok       # empty blocks change no level


@pytest.mark.parametrize("cert, words", [
    (_with(tightness={"uniform_blocks": [{"count": "1", "values": "2"}] * (MAX_BLOCKS + 1)}),
     f"{MAX_BLOCKS + 1} blocks in tightness.uniform_blocks"),
    (_with(domain=["T >= 1"] * (MAX_ITEMS + 1)), f"{MAX_ITEMS + 1} items in domain"),
    (_with(upper="T" + " + T" * MAX_DEPTH), f"an expression nested more than {MAX_DEPTH} deep in upper"),
    (_with(upper="T" * (MAX_TEXT + 1)), f"a text of {MAX_TEXT + 1} characters in upper"),
    (_with(symbols={f"x{i}": "real" for i in range(MAX_ITEMS + 1)}), f"{MAX_ITEMS + 1} keys in symbols"),
    (_with(method="min", parts=[GOOD] * (MAX_PARTS + 1)), f"{MAX_PARTS + 1} parts in parts"),
])
def test_each_dimension_bounded(cert, words):
    assert words in _rejected_for_size(cert)


def test_nested_parts_bounded():
    cert = GOOD
    for _ in range(MAX_PART_DEPTH + 1):
        cert = _with(method="min", parts=[cert, cert])
    assert f"parts nested {MAX_PART_DEPTH + 1} deep" in _rejected_for_size(cert)


def test_whole_certificate_bounded():
    cert = _with(notes=[[[str(i)] * 60 for i in range(60)]] * 2)      # every list and text within its own bound
    assert "JSON values" in _rejected_for_size(cert)


def test_obligations_bounded():
    """A Min of many components gives many obligations (subset-supremum: six per component of q)."""
    q = "Min(" + ", ".join(["N - 1"] * (MAX_OBLIGATIONS // 3)) + ")"
    cert = {"format": "implgraph-certificate/1", "method": "subset-supremum",
            "symbols": {"N": "integer", "T": "real"}, "domain": ["N >= 2", "T >= 1"],
            "A": {"family": "subset", "sides": "two-sided", "size": "1"},
            "B": {"family": "subset", "sides": "two-sided", "size": "N - 1"},
            "upper": f"Min(T, 1/Max(1 - (N/({q}) - 1)*(T - 1), 1/T))", "tight": False,
            "upper_certificate": {"q": q}}
    how = _rejected_for_size(cert)
    assert how.startswith("too large: ") and how.endswith(f"obligations (at most {MAX_OBLIGATIONS})")


def test_not_a_mapping():
    rep = check_certificate(["a", "list"])
    assert not rep.ok and rep.failures()[0][0] == "certificate readable"


def test_a_lemma_module_bounds_its_obligations():
    """A lemma module's certificate (intruder-views) with many blocks: each block is three signs to prove; beyond the
    bound the steps fail as too large (the family is not proved block by block without end)."""
    import sympy
    from implgraph.certify.lemmas.views import MODEL
    from implgraph.core.region import Region
    from implgraph.definitions import get
    from implgraph.engines.certificates import views_certificate
    T, N = sympy.Symbol("T", positive=True), sympy.Symbol("N", integer=True)
    p = 1 / (2 * (T + 1))
    family = [(1, T * p, "E1"), (1, p / T, "E2"), (N - 2, p * (N - T - 1 / T) / (N - 2), "E3")]
    cert = views_certificate(get("mult-t-closeness"), {}, None, Region({T: "real", N: "integer"}, (T >= 1,)), N,
                             MODEL, family, (N >= T + 1, N >= 3), ("E1", "E2"))
    assert check_certificate(cert).ok
    cert["tightness"]["blocks"] += [{"count": "0", "value": f"1/(T + {i})", "class": f"F{i}"}
                                    for i in range(MAX_BLOCKS - 3)]
    rep = check_certificate(cert)
    (what, _, how), = rep.failures()
    assert what == "certificate size" and how.startswith(f"too large: {MAX_BLOCKS} blocks and the multipliers need ")
