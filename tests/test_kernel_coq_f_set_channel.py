"""The Coq generator of the ``set-channel-closeness`` certificate (sei2019 Theorem 4, Algorithm 1 read as its text:
the smallest p over the subsets; ``SetChannelCloseness.v``). The certificate ``implgraph verify`` harvests for that
reading (``tests/data/coq/set_channel.json``) checks with coqc and a clean axiom audit; each of its four forms edited
gives a file the generator writes and coqc rejects (the identity ``field`` checks fails).

Each forgery's reason is written beside it, a point where the forged form and the true one differ, by hand. The
coqc tests are slow and skip where Debian's ``coq`` is not installed.
"""

from __future__ import annotations

import pytest

from _forge import edited

from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.registry import generate

from _coq import assert_kernel_checked, check_generated, coq, load_certs

CERTS = load_certs("set_channel.json")
CERT = CERTS["sei2019 theorem 4 reading"]

FORGERIES = [
    # x = 2 p d/((1 - p) h): at p = 1/2, d = 2, eta = 1 the channel has kc = 1/2 + 1/4, kd = 1/4, odds 3 = 1 + 2,
    # so x = 2; the forged form gives 4
    ("x", edited(CERT, ["x"], "2*p_*d_/((1 - p_)*h_)")),
    # g = x/(1 + 2 a x): at x = 1, a = 1/2 the posterior of m in Z is A 2/(3/2), a gap A/3 = g A (1 - a) with
    # g = 2/3; the forged form gives 1/2
    ("g", edited(CERT, ["g"], "x_/(1 + 2*a_*x_)")),
    # root = G/(1 - 2 a G): at G = a = 1/2 it gives 1, and g(1) = 1/(3/2) = 2/3, not G
    ("root", edited(CERT, ["root"], "G_/(1 - 2*a_*G_)")),
    # p_of_root = x h/(d + 2 x h): at x = h = 1, d = 2 it gives p = 1/4, whose odds are (1/4) 2/(3/4) = 2/3, not 1
    ("p_of_root", edited(CERT, ["p_of_root"], "x_*h_/(d_ + 2*x_*h_)")),
]


def test_the_statement_is_algorithm_1_on_every_class():
    text = generate(CERT)
    assert "From Implgraph Require Import Bayes SetChannelCloseness Transport." in text
    assert "0 <= t_j ->\n  forall (t : R), 0 <= t ->" in text
    assert "prior K a -> ground K dist -> 0 <= p <= 1 ->" in text
    assert "forall i, (i < N)%nat -> emd_le K dist a (class_posterior N K eta p a Z cls i) t." in text
    # Algorithm 1's p for a set of mass s within E: p_of_root(root(t/(s E))), the forms over their own variables
    assert ("p <= (fun fx fh fd => ((fx * fh) / (fd + (fx * fh)))) ((fun fG fs => (fG / (1 - (fs * fG)))) "
            "(t / (sumS K (Z k) a * E)) (sumS K (Z k) a)) (INR eta) (INR K)") in text
    assert "closeness_root (fun fp fh fd => ((fp * fd) / ((1 - fp) * fh)))" in text
    assert "(fun fx fs => (fx / (1 + (fs * fx))))" in text


@pytest.mark.parametrize("path,value", [
    (["channel", "reading"], "the largest p over the subsets Z"),      # the printed line 13, not the text's reading
    (["B", "inference"], "mean"),                                      # not the Bayes posteriors
    (["g"], "x_/(1 + a_*x_*t_j)"),                                     # a form in a name not its variables'
    (["parts"], []),                                                   # without the convexity it rests on
])
def test_other_certificates_are_not_translated(path, value):
    with pytest.raises(Untranslatable):
        generate(edited(CERT, path, value))


@pytest.mark.slow
@coq
def test_the_real_certificate_checks(library, tmp_path):
    assert_kernel_checked(CERT, library, tmp_path, "closeness")


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert", FORGERIES, ids=[n for n, _ in FORGERIES])
def test_forged_forms_fail(name, cert, library, tmp_path):
    # the generator writes the file; the kernel rejects it
    assert not check_generated(cert, library, tmp_path, name)["ok"]
