"""The Coq generator of the ``set-channel-closeness`` certificate (sei2019 Theorem 4, Algorithm 1 read as its text:
the smallest p over the subsets; ``SetChannelCloseness.v``). The certificate ``implgraph verify`` harvests for that
reading (``tests/data/coq/set_channel.json``) checks with coqc and a clean axiom audit; each of its four forms edited
gives a file the generator writes and coqc rejects (the identity ``field`` checks fails), and so does its convexity
part with a weight's number edited (the ``ring`` identity of ``transport_mixture``'s bound fails).

The statement is the certificate's own: each released set's ``D[A, A + v_Z]`` with ``v_Z m = A m (1[m in Z] - s)``
(eq. 12's direction, ``s`` the set's prior mass) and B's ground distance either of emd-t-closeness's (equal or
ordered), so that Algorithm 1's ``G = t / D[A, A + v_Z]``.

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
    # the convexity part's bound with lam*D_A_B2 halved: at lam = 1 the mixture is b2 itself, within D_A_B2 = 2 at
    # best, and the forged bound says 1
    ("part", edited(CERT, ["parts", 0, "claim", "formula"], "D_A_mix <= D_A_B*(1 - lam) + D_A_B2*lam/2")),
]


def test_the_statement_is_algorithm_1_on_every_class():
    text = generate(CERT)
    assert "From Implgraph Require Import Bayes SetChannelCloseness Transport TransportMetric." in text
    assert "0 <= t_j ->\n  forall (t : R), 0 <= t ->" in text
    # B's ground distance: either of emd-t-closeness's two (both metrics, proved in the library)
    assert "prior K a -> (dist = equal_ground \\/ dist = ordered_ground K) -> 0 <= p <= 1 ->" in text
    assert "forall i, (i < N)%nat -> emd_le K dist a (class_posterior N K eta p a Z cls i) t." in text
    # the certificate's distance: D[A, A + v_Z], v_Z m = A m (1[m in Z] - s), s = the set's prior mass
    assert ("exists D, emd_le K dist a (fun m => a m + a m * ((if Z k m then 1 else 0) - sumS K (Z k) a)) D"
            in text)
    # Algorithm 1's p for a set: p_of_root(root(G)), G = t / D[A, A + v_Z], where g(x) = G has a root (s t < D)
    assert ("(D <= sumS K (Z k) a * t \\/ (sumS K (Z k) a * t < D /\\ p <= (fun fx fh fd => ((fx * fh) / (fd + "
            "(fx * fh)))) ((fun fG fs => (fG / (1 - (fs * fG)))) (t / D) (sumS K (Z k) a)) (INR eta) (INR K))))"
            in text)
    assert "closeness_shifted (fun fp fh fd => ((fp * fd) / ((1 - fp) * fh)))" in text
    assert "(fun fx fs => (fx / (1 + (fs * fx))))" in text
    # the convexity part, proved in the same file at its own weights
    assert "emd_le K dist a (fun j => (1 - lam) * b1 j + lam * b2 j) (((D_A_B * (1 - lam)) + (D_A_B2 * lam)))." in text


@pytest.mark.parametrize("path,value", [
    (["channel", "reading"], "the largest p over the subsets Z"),      # the printed line 13, not the text's reading
    (["B", "inference"], "mean"),                                      # not the Bayes posteriors
    (["g"], "x_/(1 + a_*x_*t_j)"),                                     # a form in a name not its variables'
    (["parts"], []),                                                   # without the convexity it rests on
    (["parts", 0, "weights", 0], "1 - 2*lam"),                         # the convexity at weights not summing to 1
    (["symbols"], {"t_j": "real", "D": "real"}),                       # a symbol named like the theorem's D
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
    # the generator writes the file; the kernel rejects it at the edited identity: a form's (field) or the
    # convexity part's bound (ring, inside the replace's by)
    res = check_generated(cert, library, tmp_path, name)
    assert not res["ok"]
    assert ("No applicable tactic" if name == "part" else "not a valid field equation") in res["error"]
