"""KL between records does not bound Renyi-2 between records: the witness family in N and K.

Hand derivation (x = (1/K, 1 - 1/K), y = (1/K^3, 1 - 1/K^3), one record at x and N - 1 at y, K >= 2):

- KL(x || y) = (1/K) log K^2 + (1 - 1/K) log((1 - 1/K)/(1 - 1/K^3)) <= (1/K) 2 (K - 1) + 0 < 2
  (log u <= 2 (sqrt(u) - 1); the second ratio is <= 1);
- KL(y || x) = (1/K^3) log(1/K^2) + (1 - 1/K^3) log((K^2 + K + 1)/K^2) <= 0 + (1 - 1/K^3)(K + 1)/K^2 <= 3/4 at K = 2
  and decreasing;
- sum x^2/y = (1/K^2) K^3 + (1 - 1/K)^2/(1 - 1/K^3) >= K, so D_2(x || y) >= log K, unbounded.
"""

from __future__ import annotations

import copy
import sys
from fractions import Fraction as F
from pathlib import Path

import pytest

import brute
from _plugin_fixtures import registered

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "docs" / "examples" / "implgraph-divergences"))

from implgraph_divergences.kl_ldp import KLLocalPrivacy  # noqa: E402
from implgraph_divergences.renyi2_ldp import Renyi2LocalPrivacy  # noqa: E402

from implgraph.certify import check_certificate  # noqa: E402
from implgraph.engines.prove import check_implication  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def plugins():
    with registered(KLLocalPrivacy, Renyi2LocalPrivacy):
        yield


def _rows(K, N):
    K = F(K)
    return [[1 / K, 1 - 1 / K]] + [[1 / K ** 3, 1 - 1 / K ** 3]] * (N - 1)


@pytest.mark.parametrize("K", [2, 3, 5, 10, 100])
def test_the_family_by_brute_force(K):
    for N in (2, 3, 4):
        rows = _rows(K, N)
        assert brute.kl_level_float(rows, "pairs") < 2
        assert brute.renyi_level_sum(rows, 2, "pairs") >= K


def _refutation():
    return check_implication("example-kl-ldp", "example-renyi2-ldp", max_n=3)


def test_kl_ldp_does_not_imply_renyi2_ldp():
    res = _refutation()
    assert res.verdict == "refuted" and res.method == "divergence-family" and res.tightness == "wrong"
    assert check_certificate(res.details["certificate"]).ok


def test_forged_family_certificates_are_rejected():
    cert = _refutation().details["certificate"]
    forgeries = [
        lambda c: c["family"].update(A_bound="1"),                                    # KL is not <= 1 for large K
        lambda c: c["family"]["rows"][1].update(values=["1/K", "1 - 1/K"]),           # no growth: equal records
        lambda c: c["family"].update(K0="1/2"),                                       # not records below K = 1
        lambda c: c["B"].update(definition="example-kl-ldp"),                                 # B not Renyi of order >= 2
    ]
    for edit in forgeries:
        forged = copy.deepcopy(cert)
        edit(forged)
        assert forged != cert and not check_certificate(forged).ok
