"""The Coq theorems of zero-concentrated privacy on record removal (``zcdp-dp``; ``coq/theories/ZcdpRemoval.v``,
:mod:`implgraph.kernel_coq.gen_zcdp_chord`, ``gen_divergence``, ``gen_tv_distance``, ``gen_binary_program``).

The side predicate is ``zcdp_removal_le N K x rho`` (the table's mean P against the mean Q_i without each record,
both ways, D_alpha <= rho alpha at every real order alpha > 1). The matrices' 17 certificates of proved cells with
zcdp-dp on a side (``tests/data/coq/zcdp_removal.json``, the prover's): a ratio level into it (``zcdp-chord`` on
record removal, and two compositions through dp), it into KL, Renyi 2 and total variation of the same pairs
(``divergence-order``), into the class distances (``tv-distance``, Pinsker) and an (eps, delta) slack
(``binary-program``), compositions from it, and zcdp-ldp into it (joint convexity of each order's Renyi sum).

They check with coqc and a clean axiom audit; each forgery (reason beside it) states something false, or data the
library's lemma does not give, and coqc rejects its file. The worked table of the reasons: N = 2, records
x1 = (T, 1)/(T + 1) and x2 = (1, T)/(T + 1), T = 1 + e: P = (1/2, 1/2) and Q_1 = x2, whose ratios lie in
[2/(T + 1), 2T/(T + 1)], so its zero-concentrated level on removal is at most ln R (R - 1)/(R + 1) ~ e^2/8 (R = 2T/(T +
1), ``zcdp_rconf``), while KL(P || Q_1) = ln((T + 1)^2/(4 T))/2 ~ e^2/8, D_2 ~ e^2/4 and TV(P, Q_1) = e/(2 (2 + e)) ~
e/4 = sqrt(e^2/16). The coqc tests are slow and skip where Debian's ``coq`` is not installed.
"""

from __future__ import annotations

import pytest

from _forge import edited

from implgraph.kernel_coq.registry import COVERED, generate
from implgraph.kernel_coq.statement import side_predicate
from implgraph.kernel_coq import adapter
from implgraph.kernel_coq.coqexpr import Translator

from _coq import assert_kernel_checked, coq, kernel_accepts, load_certs

CERTS = load_certs("zcdp_removal.json")


def _edit(name, path, value):
    return edited(CERTS[name], path, value)


FORGERIES = [
    # U halved: false as T -> 1 on the worked table (ldp at T: KL(P || Q_1) ~ e^2/8 > U/2 ~ e^2/12)
    ("ldp U halved", _edit("ldp => zcdp-dp", ["upper"], "(T - 1)*log((N + T - 1)/N)/(2*(2*N + T - 1))")),
    # R not the library's for a pairwise A (the certificate's R must be (N + T - 1)/N: HR fails)
    ("ldp R edited", _edit("ldp => zcdp-dp", ["upper_certificate", "R"], "T")),
    # U = 0: false for T > 1 (the worked table is at dp and lip level <= T, its removal pair differs)
    ("dp U zero", _edit("dp => zcdp-dp", ["upper"], "0")),
    ("lip U zero", _edit("lip => zcdp-dp", ["upper"], "0")),
    # KL at rho/2, Renyi 2 at rho, the total variation at half Pinsker's: false as T -> 1 on the worked table
    ("kl-dp U halved", _edit("zcdp-dp => kl-dp", ["upper"], "T/2")),
    ("renyi-dp U halved", _edit("zcdp-dp => renyi-dp(alpha=2)", ["upper"], "T")),
    ("tv-dp U halved", _edit("zcdp-dp => tv-dp", ["upper"], "sqrt(2)*sqrt(T)/4")),
    # a class's distance at half (classes of one record on the worked table: TV(x_1, P) ~ e/4 = sqrt(rho/2))
    ("emd U halved", _edit("zcdp-dp => emd-t-closeness(ground=equal)", ["upper"],
                           "Min((N - 1)/N, sqrt(2)*sqrt(T)*(N - 1)/4)")),
    # U = 1 (delta alone, 1/10) from N >= 5: false at N = 5, x_1 = (0.9, 0.1) and four records (0.1, 0.9) (finite
    # zero-concentrated level; P(E) - Q_1(E) = 0.16 on the first bucket)
    ("binary program from N >= 5", _edit("zcdp-dp => eps-delta-dp(delta=1/10)", ["upper"],
                                         "Piecewise((1, (N >= 5) | (T <= 1/50)), ((exp(10*T) - 1)/(10*T), True))")),
    # a composition whose first part is Pinsker halved (false, as above)
    ("delta-dp's part halved", _edit("zcdp-dp => delta-dp(eps=log(2))", ["parts", 0, "upper"], "sqrt(2)*sqrt(T)/4")),
    # joint convexity at U = 0: false (the worked table is at zcdp-ldp level ln T (T - 1)/(T + 1) > 0, its removal
    # pair differs)
    ("zcdp-ldp U zero", _edit("zcdp-ldp => zcdp-dp", ["upper"], "0")),
]


def test_the_side_predicate_is_zcdp_removal_le():
    tr = Translator({"N": "integer", "T": "real"})
    side = adapter.read_side(CERTS["dp => zcdp-dp"]["B"])
    assert side_predicate(tr, side, "T") == "zcdp_removal_le N K x (T)"
    assert "zcdp_chord_removal_pairs" in COVERED["zcdp-chord"]
    assert "zcdp_pairs_to_removal" in COVERED["divergence-order"]


def test_each_certificate_states_and_applies_its_lemma():
    want = {"ldp => zcdp-dp": "zcdp_chord_removal_pairs", "dp => zcdp-dp": "zcdp_chord_removal_subset",
            "lip => zcdp-dp": "zcdp_chord_removal_single", "zcdp-dp => kl-dp": "zcdp_kl_removal",
            "zcdp-dp => renyi-dp(alpha=2)": "zcdp_renyi_removal", "zcdp-dp => tv-dp": "pinsker_removal_slack",
            "zcdp-ldp => zcdp-dp": "zcdp_pairs_to_removal",
            "zcdp-dp => eps-delta-dp(delta=1/10)": "kl_removal_same"}
    for name, lemma in want.items():
        text = generate(CERTS[name])
        assert lemma in text, name
        assert "zcdp_removal_le N K x" in text and "ZcdpRemoval" in text, name
    for name, cert in CERTS.items():       # every one of the 17 is stated
        generate(cert)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_real_zcdp_removal_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert", FORGERIES, ids=[n for n, _ in FORGERIES])
def test_forged_zcdp_removal_certificates_fail(name, cert, library, tmp_path):
    generate(cert)      # stated: the kernel, not the generator, rejects it
    assert not kernel_accepts(cert, library, tmp_path, name)
