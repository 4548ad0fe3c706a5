"""The Coq theorems of p-sensitive k-anonymity's ``weakest-family`` certificates (``FloorLevel.v``,
``WeakestFamily.weakest_record_ratio``; ``implgraph/kernel_coq/gen_floor_level.py``): the upper bound, B's weakest
level on every table whatever A.

``floor-level`` (``FloorLevel.floor_level_support``, ``floor_level_of_size``): A p-sensitive k-anonymity (its floor
level at T) gives B distinct l-diversity at least ceiling(T); A k-anonymity above k - 1 gives p-sensitive k-anonymity at
least 1, else 0, its weakest. A forged U (a larger ceiling, the threshold below k - 1, a larger value) fails at its
step (``Hd``, ``Hc``, ``Hu1``, ``Hu0``): one class uniform over ceiling(T) values, a class of one record (p = 0) and
one class of one-hot records (p = 1) attain the true values (tests/test_psensitive_floor_level.py); A p-sensitive
k-anonymity gives k-anonymity at least N below 2 k records (one class), else k (``Hu`` for a forged value).

B p-sensitive k-anonymity is stated as ``floor_level_ge N cls k w U (support_ge N K x cls U)``: U at most its weakest
level 0, or every class of >= k records holding >= U values; B pml (a one-sided ratio of one record to the table) as
``subset_le OneSided N K x 1 U``. A smaller or larger U is false: a class of one record is at p = 0 (by hand and by
brute force in ``tests/test_psensitive_family.py``), and the lone record of the family puts N times the table's mean
on its values; a forged U gives a file coqc rejects at the step ``Hd`` (U <= 0; N <= U).

The coqc tests are slow and skip where Debian's ``coq`` is not installed.
"""

from __future__ import annotations

import pytest

from _forge import edited

from implgraph.kernel_coq.registry import generate

from _coq import assert_kernel_checked, coq, failing_step, load_certs

CERTS = load_certs("psensitive_family.json")
DP, DK, PML, PMLK = ("distinct-l-diversity => p-sensitive-k-anonymity(k=2)",
                     "distinct-l-diversity => p-sensitive-k-anonymity(k=k4)",
                     "p-sensitive-k-anonymity(k=2) => pml", "p-sensitive-k-anonymity(k=k4) => pml")

SAME = "p-sensitive-k-anonymity(k=2) => distinct-l-diversity"
SIZE, SIZEK = "k-anonymity => p-sensitive-k-anonymity(k=2)", "k-anonymity => p-sensitive-k-anonymity(k=k4)"

FLOOR = "p-sensitive-k-anonymity(k=2) => k-anonymity"
SKEW = ("p-sensitive-k-anonymity(k=2) => frequency-l-diversity", "p-sensitive-k-anonymity(k=k4) => entropy-l-diversity")

FORGERIES = [
    # a class of one value has frequency and entropy l-diversity 1: no table is below, none needs more than 1
    ("skew frequency 2", edited(CERTS[SKEW[0]], ["upper"], "2"), "Hd"),
    ("skew entropy 3/2", edited(CERTS[SKEW[1]], ["upper"], "3/2"), "Hd"),
    # p >= 1 with k = 2: on 4 records, classes {2, 2} have k-anonymity 2 (not 3); on 3, one class of 3 (not 4)
    ("floor 3", edited(CERTS[FLOOR], ["upper"], "Piecewise((N, N < 4), (3, True))"), "Hu"),
    ("floor N + 1", edited(CERTS[FLOOR], ["upper"], "Piecewise((N + 1, N < 4), (2, True))"), "Hu"),
    # floor-level: one class uniform over ceiling(T) values has distinct l = ceiling(T), not more
    ("same ceiling(2 T)", edited(CERTS[SAME], ["upper"], "ceiling(2*T)"), "Hd"),
    # a class of one record (T = 1) has p = 0; one class of one-hot records has p = 1, not 2
    ("size T > 0", edited(CERTS[SIZE], ["upper"], "Piecewise((1, T > 0), (0, True))"), "Hc"),
    ("size 2", edited(CERTS[SIZE], ["upper"], "Piecewise((2, T > 1), (0, True))"), "Hu1"),
    ("size k4 below", edited(CERTS[SIZEK], ["upper"], "Piecewise((1, T > k4 - 1), (1/2, True))"), "Hu0"),
    ("p-sens 1", edited(CERTS[DP], ["upper"], "1"), "Hd"),          # singletons: p = 0 < 1
    ("p-sens k4 1/2", edited(CERTS[DK], ["upper"], "1/2"), "Hd"),
    ("pml N - 1", edited(CERTS[PML], ["upper"], "N - 1"), "Hd"),    # the lone record: ratio N
    ("pml k4 N/2", edited(CERTS[PMLK], ["upper"], "N/2"), "Hd"),
]


def test_b_is_stated_from_its_declarations():
    assert "floor_level_ge N cls (2) (0) (0) (support_ge N K x cls (0))." in generate(CERTS[DP])
    assert "floor_level_ge N cls ((INR k4)) (0) (0)" in generate(CERTS[DK])
    assert "subset_le OneSided N K x (1) ((INR N))." in generate(CERTS[PML])
    assert "whatever A is: no hypothesis on A" in generate(CERTS[PML])
    assert "support_ge N K x cls (IZR (Zceil (T)))." in generate(CERTS[SAME])
    assert "floor_level_ge N cls (2) (0) (T) (support_ge N K x cls (T)) ->" in generate(CERTS[SAME])
    assert "class_size_ge N cls ((INR T)) ->" in generate(CERTS[SIZE])
    floor = generate(CERTS[FLOOR])
    assert "class_size_ge N cls (if Rlt_dec (INR N) (4) then ((INR N)) else (2))." in floor
    assert "partition N cls" not in floor       # whatever the partition, one class included
    assert "minent_ge N K x cls (1)." in generate(CERTS[SKEW[0]])
    assert "shannon_ge N K x cls (1)." in generate(CERTS[SKEW[1]])


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_psensitive_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("label, cert, step", FORGERIES, ids=[f[0] for f in FORGERIES])
def test_forged_certificates_fail_at_their_step(label, cert, step, library, tmp_path):
    assert failing_step(cert, library, tmp_path, label) == step


@pytest.mark.parametrize("name", sorted(CERTS))
def test_the_stored_certificates_are_the_checkers(name):
    from implgraph.certify import check_certificate
    assert check_certificate(CERTS[name]).ok
