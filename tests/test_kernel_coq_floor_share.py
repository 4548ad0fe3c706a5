"""The Coq theorems of ``floor-level``'s ``share`` kind (``FloorShare.v``; ``implgraph/kernel_coq/gen_floor_level.py``):
p-sensitive k-anonymity above its weakest level (classes of >= k records) gives a one-sided class ratio
(basic beta-likeness) at most 1 below 2 k records (one class, the table), else N/k; a class's total variation
distance from the table (EMD and hierarchical EMD t-closeness, ground distance equal) 0 there, else (N - k)/N; its KL
and Renyi-2 divergence from the table (KL, Renyi closeness) 0 there, else log(N/k).

A forged U is false on a table meeting A (by hand, tests/test_psensitive_floor_share.py): two classes of 2 and N - 2
records on disjoint supports (p = 1) have the ratio N/2, the distance (N - 2)/N and both divergences log(N/2);
one class of 3 records has the ratio 1, the distance 0 and the divergences 0; a table with a class of one record is
at A's weakest level p = 0, where A says nothing of the classes. Each forgery gives a file coqc rejects at its step
(``Hu2``, ``Hcut``, ``Hu1``, ``Hw``; a divergence's chord values inside ``V1``, ``V2``).

The coqc tests are slow and skip where Debian's ``coq`` is not installed.
"""

from __future__ import annotations

import pytest

from _forge import edited

from implgraph.kernel_coq.registry import generate

from _coq import assert_kernel_checked, coq, failing_step, load_certs

CERTS = load_certs("psensitive_share.json")
RATIO, RATIOK = ("p-sensitive-k-anonymity(k=2) => basic-beta-likeness",
                 "p-sensitive-k-anonymity(k=k4) => basic-beta-likeness")
KL, R2, R2K = ("p-sensitive-k-anonymity(k=2) => kl-closeness",
               "p-sensitive-k-anonymity(k=2) => renyi-closeness(alpha=2)",
               "p-sensitive-k-anonymity(k=k4) => renyi-closeness(alpha=2)")
TV, TVK = ("p-sensitive-k-anonymity(k=2) => emd-t-closeness(ground=equal)",
           "p-sensitive-k-anonymity(k=k4) => emd-t-closeness(ground=equal)")

FORGERIES = [
    # classes {2, N - 2} on disjoint supports: ratio N/2, distance (N - 2)/N, at every N >= 4
    ("ratio N/3", edited(CERTS[RATIO], ["upper"], "Piecewise((1, N < 4), (N/3, True))"), "Hu2"),
    ("ratio k4 + 1", edited(CERTS[RATIOK], ["upper"], "Piecewise((1, N < 2*k4), (N/(k4 + 1), True))"), "Hu2"),
    ("distance (N - 3)/N", edited(CERTS[TV], ["upper"], "Piecewise((0, N < 4), ((N - 3)/N, True))"), "Hu2"),
    ("distance k4 + 1", edited(CERTS[TVK], ["upper"], "Piecewise((0, N < 2*k4), ((N - k4 - 1)/N, True))"), "Hu2"),
    # at N = 4 two classes of 2 records fit: ratio 2, not 1; distance 1/2, not 0
    ("ratio one class to 4", edited(CERTS[RATIO], ["upper"], "Piecewise((1, N < 5), (N/2, True))"), "Hcut"),
    ("distance one class to 4", edited(CERTS[TV], ["upper"], "Piecewise((0, N < 5), ((N - 2)/N, True))"), "Hcut"),
    # one class of 3 records, its values in a bucket of its own: the ratio 1 (not 1/2); no distance is below 0
    ("ratio 1/2 below 4", edited(CERTS[RATIO], ["upper"], "Piecewise((1/2, N < 4), (N/2, True))"), "Hu1"),
    ("distance -1/10 below 4", edited(CERTS[TV], ["upper"], "Piecewise((-1/10, N < 4), ((N - 2)/N, True))"), "Hu1"),
    # the same two classes: KL and Renyi-2 log(N/2) at every N >= 4 (ratio N/2 on the first class's values)
    # (the steps inside the blocks V1, V2 of the chord's value: LN0, LN1, ln hi = U's logarithms; Hc, Renyi's value)
    ("kl log(N/3)", edited(CERTS[KL], ["upper"], "Piecewise((0, N < 4), (log(N/3), True))"), "LN1"),
    ("renyi k4 + 1", edited(CERTS[R2K], ["upper"], "Piecewise((0, N < 2*k4), (log(N/(k4 + 1)), True))"), "Hc"),
    ("kl one class to 4", edited(CERTS[KL], ["upper"], "Piecewise((0, N < 5), (log(N/2), True))"), "Hcut"),
    ("kl below 4", edited(CERTS[KL], ["upper"], "Piecewise((-1/10, N < 4), (log(N/2), True))"), "LN0"),
    ("renyi log(N/3)", edited(CERTS[R2], ["upper"], "Piecewise((0, N < 4), (log(N/3), True))"), "Hc"),
    # T >= 0 in place of T >= 1: at p = 0 A says nothing of the classes (a class of one record: ratio N)
    ("weakest level", edited(CERTS[RATIO], ["domain"], ["T >= 0", "N >= 2", "2 <= N"]), "Hw"),
]


def test_the_statements():
    ratio, tv = generate(CERTS[RATIO]), generate(CERTS[TV])
    assert "floor_level_ge N cls (2) (0) (T) (support_ge N K x cls (T)) ->" in ratio
    assert "class_le OneSided N K x cls ((if Rlt_dec (INR N) (4) then (1) else (((INR N) / 2))))." in ratio
    assert "tv_le N K x cls ((if Rlt_dec (INR N) (4) then (0) else ((((INR N) - 2) / (INR N)))))." in tv
    assert "partition N cls" not in ratio + tv      # whatever the partition, one class included
    assert "floor_share_ratio" in ratio and "floor_share_tv" in tv
    kl = generate(CERTS[KL])
    assert "div_class_le KL N K x cls ((if Rlt_dec (INR N) (4) then (0) else (" in kl and "floor_share_div" in kl


def test_the_forgeries_are_stated():
    for _, cert, _ in FORGERIES:
        generate(cert)      # the generator states each: the kernel, not the generator, rejects it


@pytest.mark.parametrize("name", sorted(CERTS))
def test_the_stored_certificates_are_the_checkers(name):
    from implgraph.certify import check_certificate
    assert check_certificate(CERTS[name]).ok


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_share_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("label, cert, step", FORGERIES, ids=[f[0] for f in FORGERIES])
def test_forged_certificates_fail_at_their_step(label, cert, step, library, tmp_path):
    assert failing_step(cert, library, tmp_path, label) == step
