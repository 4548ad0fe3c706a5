"""The Coq generator's newer methods (slack-target-removal, slack-pairs-to-removal, composition) and forged
certificates of several methods: real certificates check with coqc and a clean axiom audit, forged ones do not.

The certificates are the prover's for proved cells of the pair matrix (dp, eps-delta-ldp and kt-closeness(k=2)
against eps-delta-dp(delta=1/10); mult-t-closeness and alpha-k-anonymity(k=2) against emd-t-closeness). Each
forgery edits one number or one relation so that the statement is false (shown by hand beside it) or the proof data
do not fit its lemma. The coqc tests are slow (the library is built once, then each file ~2 s of CPU) and skip where
Debian's ``coq`` is not installed.
"""

from __future__ import annotations

import os
import re

import pytest

from _forge import edited

from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.registry import generate

from _coq import assert_kernel_checked, coq, kernel_accepts, ROOT

D = {"delta": "1/10"}
SLACK_REMOVAL = {"definition": "eps-delta-dp", "params": D, "family": None, "sides": None,
                 "slack": {"compares": "removal", "delta": "1/10"}}
DP = {"definition": "dp", "params": {}, "family": "subset", "sides": "two-sided", "size": "N - 1"}

#: dp => eps-delta-dp(delta=1/10): U = T
TARGET_REMOVAL = {
    "format": "implgraph-certificate/1", "method": "slack-target-removal", "symbols": {"N": "integer", "T": "real"},
    "domain": ["T > 0", "T >= 1", "N >= 2"], "A": DP, "B": SLACK_REMOVAL, "upper": "T", "tight": False,
    "upper_certificate": {"lemma": "slack-target-removal", "multipliers": {
        "ratio": {"A on the event: T*y - x >= 0": "1", "delta >= 0": "1"}}}}

#: eps-delta-ldp(delta=1/10) => eps-delta-dp(delta=1/10): U = T
PAIRS_TO_REMOVAL = {
    "format": "implgraph-certificate/1", "method": "slack-pairs-to-removal", "symbols": {"N": "integer", "T": "real"},
    "domain": ["T > 0", "T >= 1", "N >= 2"],
    "A": {"definition": "eps-delta-ldp", "params": D, "family": None, "sides": None,
          "slack": {"compares": "pairs", "delta": "1/10"}},
    "B": SLACK_REMOVAL, "upper": "T", "tight": False,
    "upper_certificate": {"lemma": "slack-averaging", "multipliers": {
        "removed": {"A averaged over the others: T*q - x + delta_A >= 0": "1", "q >= 0": "(N - 1)*(T - 1)",
                    "delta_A >= 0": "N - 1", "delta_B - delta_A >= 0": "N"},
        "kept": {"A averaged over the table, then over the others: T*((N - 1)*q + x) - N*q + N*delta_A >= 0": "1",
                 "delta_B - delta_A >= 0": "N"}}}}

KT2 = {"definition": "kt-closeness", "params": {"k": "2"}, "family": "subset", "sides": "two-sided", "size": "2"}
#: kt-closeness(k=2) => dp (subset-monotone, h = T), then dp => eps-delta-dp(delta=1/10) at every T >= 1 (g = T)
COMPOSITION = {
    "format": "implgraph-certificate/1", "method": "composition", "symbols": {"N": "integer", "T": "real"},
    "domain": ["T > 0", "T >= 1", "N >= 2", "2 <= N - 1"], "A": KT2, "B": SLACK_REMOVAL, "via": DP, "upper": "T",
    "tight": False, "parts": [
        {"format": "implgraph-certificate/1", "method": "subset-monotone", "symbols": {"N": "integer", "T": "real"},
         "domain": ["T > 0", "T >= 1", "N >= 2", "2 <= N - 1"], "A": KT2, "B": DP, "upper": "T", "tight": False,
         "upper_certificate": {"lemma": "extreme-means-monotone"}},
        {**TARGET_REMOVAL, "domain": ["T > 0", "N >= 2", "2 <= N - 1", "T >= 1"]}]}

#: mult-t-closeness => emd-t-closeness(ground=equal): U = Min((T - 1)/(T + 1), (N - 1)(T - 1)/(N T))
CLASS_DISTANCE = {
    "format": "implgraph-certificate/1", "method": "class-distance", "symbols": {"N": "integer", "T": "real"},
    "domain": ["T > 0", "T >= 1", "N >= 2", "(1) >= 1", "2*(1) <= N"],
    "A": {"definition": "mult-t-closeness", "params": {}, "family": "class", "sides": "two-sided", "min_class": "1"},
    "B": {"definition": "emd-t-closeness", "params": {"ground": "equal"}, "family": "class", "sides": None,
          "distance": "total-variation", "min_class": "1"},
    "upper": "Min((T - 1)/(T + 1), (N - 1)*(T - 1)/(N*T))", "tight": True,
    "upper_certificate": {"lemma": "class-distance", "multipliers": {
        "near": {"A on S: T*P - x >= 0": "1", "A on the rest: T*(1 - x) - (1 - P) >= 0": "1"},
        "far": {"other classes: T*N*P - T*e*x - (N - e)*P >= 0": "1",
                "A on the rest: T*(1 - x) - (1 - P) >= 0": "N - e_", "e - s >= 0": "T - 1"}}}}

#: alpha-k-anonymity(k=2) => emd-t-closeness(ground=equal): U = (N - 2)/N on every table (classes of >= 2 records)
DISTANCE_CEILING = {
    "format": "implgraph-certificate/1", "method": "distance-ceiling", "symbols": {"N": "integer", "T": "real"},
    "domain": ["T > 0", "T >= 1", "N >= 2", "2 <= N", "(2) >= 1", "2*(2) <= N"],
    "A": {"definition": "alpha-k-anonymity", "params": {"k": "2"}, "family": "class", "sides": None,
          "uniform_class_level": "(m + 1)/m", "min_class": "2", "min_class_param": "k"},
    "B": {"definition": "emd-t-closeness", "params": {"ground": "equal"}, "family": "class", "sides": None,
          "distance": "total-variation", "min_class": "2"},
    "upper": "(N - 2)/N", "tight": True,
    "upper_certificate": {"lemma": "distance-mass", "multipliers": {
        "mass": {"other records on S: N*P - e*x >= 0": "1", "1 - x >= 0": "N - e_", "e - s >= 0": "1"}}}}


#: sei2019 Theorem 3: every release of the set channel with p = 1 and eta = l satisfies entropy l-diversity at l
SET_CHANNEL = {
    "format": "implgraph-certificate/1", "method": "set-channel-diversity",
    "symbols": {"d_j": "integer", "l_j": "integer"}, "domain": ["1 <= l_j", "l_j <= d_j"],
    "channel": {"p": "1", "eta": "l_j", "domain_size": "d_j"},
    "B": {"definition": "entropy-l-diversity", "class_level": "shannon"}, "steps": ["shannon>=min-entropy"],
    "level": "l_j", "upper_certificate": {"multipliers": {"count": {"m_ - n_": "l_j", "s_ - eta*m_": "1"}}}}


#: domingo-ferrer2015 Proposition 3: mult-t-closeness at T makes the intruder's view of one individual T**2-private
VIEWS = {
    "format": "implgraph-certificate/1", "method": "intruder-views", "symbols": {"T": "real", "N": "integer"},
    "domain": ["T > 0", "T >= 1"],
    "A": {"definition": "mult-t-closeness", "params": {}, "family": "class", "sides": "two-sided", "min_class": "1"},
    "B": {"view": "k_I", "model": {"prior": "whole-table", "posterior": "class", "same_prior": True}},
    "min_classes": 1, "upper": "T**2", "tight": False,
    "upper_certificate": {"multipliers": {"P/P": {"P_": "T**2 - 1"}, "P/w": {"T*w_ - P_": "T", "P_": "T - 1"},
                                          "v/P": {"T*P_ - v_": "1", "P_": "T**2 - T"},
                                          "v/w": {"T*w_ - P_": "T", "T*P_ - v_": "1"}}}}


#: sei2019 Lemma 1: the earth mover's distance to a mixture is at most the mixture of the distances
TRANSPORT = {
    "format": "implgraph-certificate/1", "method": "transport-mixture",
    "symbols": {"D_A_B": "real", "D_A_B2": "real", "D_A_mix": "real", "lam": "real"},
    "domain": ["0 <= lam", "lam <= 1"], "program": {"convex_in": "columns"}, "weights": ["1 - lam", "lam"],
    "claim": {"formula": "D_A_mix <= D_A_B*(1 - lam) + D_A_B2*lam", "mixed": "D_A_mix",
              "parts": ["D_A_B", "D_A_B2"]}}


def _edit(cert, path, value):
    return edited(cert, path, value)


REAL = [("slack-target-removal", TARGET_REMOVAL), ("slack-pairs-to-removal", PAIRS_TO_REMOVAL),
        ("composition", COMPOSITION), ("class-distance", CLASS_DISTANCE), ("distance-ceiling", DISTANCE_CEILING),
        ("set-channel-diversity", SET_CHANNEL), ("intruder-views", VIEWS), ("transport-mixture", TRANSPORT)]

FORGERIES = [
    # U = T/2: false at T = 1 (the event of every bucket: 1 <= 1/2 * 1 + 1/10 fails)
    ("slack-target-removal U", _edit(TARGET_REMOVAL, ["upper"], "T/2")),
    # the slack of B negative: false (the event of every bucket, N = 2, T = 1: 1 <= 1 - 1/10 fails)
    ("slack-target-removal delta", _edit(TARGET_REMOVAL, ["B", "slack", "delta"], "-1/10")),
    # T >= 1/2 in place of T >= 1: false at T = 1/2 (the event of every bucket: 1 <= 1/2 + 1/10 fails)
    ("slack-pairs-to-removal domain", _edit(PAIRS_TO_REMOVAL, ["domain"], ["T > 0", "T >= 1/2", "N >= 2"])),
    # U = T/2: false at T = 1 as above
    ("slack-pairs-to-removal U", _edit(PAIRS_TO_REMOVAL, ["upper"], "T/2")),
    # B's slack below A's: the lemma needs delta_B >= delta_A
    ("slack-pairs-to-removal order", _edit(PAIRS_TO_REMOVAL, ["B", "slack", "delta"], "1/20")),
    # U = T/2 while its parts give g(h) = T: U = g(h) fails (and the statement is false at T = 1)
    ("composition U", _edit(COMPOSITION, ["upper"], "T/2")),
    # the first part's h = T/2: false (a subset level of size N - 1 at most T/2 < 1)
    ("composition h", _edit(COMPOSITION, ["parts", 0, "upper"], "T/2")),
    # a multiplier off: the identity P den - Q num = sum(multiplier * fact) fails
    ("class-distance multiplier", _edit(CLASS_DISTANCE, ["upper_certificate", "multipliers", "far", "e - s >= 0"],
                                        "T")),
    # (T - 1)/(T + 2) below the tight (T - 1)/(T + 1) (two classes of N/2 records, N large)
    ("class-distance U", _edit(CLASS_DISTANCE, ["upper"], "Min((T - 1)/(T + 2), (N - 1)*(T - 1)/(N*T))")),
    # (N - 3)/N below the tight (N - 2)/N: a class of 2 records holding a value no other record has
    ("distance-ceiling U", _edit(DISTANCE_CEILING, ["upper"], "(N - 3)/N")),
    # level l + 1 above eta = l: false (one class whose records all release the same l values: exp H = l)
    ("set-channel level", _edit(SET_CHANNEL, ["level"], "l_j + 1")),
    # U = T: false (v = T P in D1 and w = P / T in D2 give v / w = T**2 > T for T > 1); the identities fail
    ("intruder-views U", _edit(VIEWS, ["upper"], "T")),
    # a multiplier off: T*w - P weighted T + 1 in the identity of the pair v/w
    ("intruder-views multiplier", _edit(VIEWS, ["upper_certificate", "multipliers", "v/w", "T*w_ - P_"], "T + 1")),
    # half the second part's weight: false (B = B2 at distance D > 0 from A, lam = 1: D <= D/2 fails)
    ("transport-mixture formula", _edit(TRANSPORT, ["claim", "formula"], "D_A_mix <= D_A_B*(1 - lam) + D_A_B2*lam/2")),
    # lam up to 2: the weight 1 - lam negative, no flow (lam = 2 mixes b1 with weight -1)
    ("transport-mixture domain", _edit(TRANSPORT, ["domain"], ["0 <= lam", "lam <= 2"])),
    # the same with min-entropy: 1 / max q = l < l + 1
    ("set-channel min-entropy level", _edit(_edit(_edit(SET_CHANNEL, ["level"], "l_j + 1"), ["steps"], []),
                                            ["B", "class_level"], "min-entropy")),
]


def test_new_methods_state_their_claims():
    text = generate(TARGET_REMOVAL)
    assert "subset_le TwoSided N K x (((INR N) - 1)) (T) ->\n  slack_removal_le N K x ((1 / 10)) (T)." in text
    assert "apply (slack_target_removal N K x" in text
    text = generate(PAIRS_TO_REMOVAL)
    assert "slack_pairs_le N K x ((1 / 10)) (T) ->\n  slack_removal_le N K x ((1 / 10)) (T)." in text
    text = generate(COMPOSITION)
    # the parts' theorems, then the whole: A (a subset level of size 2) at T gives B at T
    assert text.count("Theorem ") == 3 and "Theorem certificate_part1" in text and "Theorem certificate_part2" in text
    assert "subset_le TwoSided N K x (2) (T) ->\n  slack_removal_le N K x ((1 / 10)) (T)." in text
    # the second part applied at T = h (h = T here), its conditions T > 0 and T >= 1 shown for h
    assert "assert (E0 : hv > 0)." in text and "assert (E3 : hv >= 1)." in text
    assert "pose proof (certificate_part2 N hv F0 D2 D3 F3 K x cls Htab HC) as HB." in text


def test_set_channel_states_every_release_shape():
    text = generate(SET_CHANNEL)
    # symbols with inner underscores are Coq names; d_j, l_j naturals (l_j >= 1 on the domain)
    assert "forall (d_j l_j : nat),\n  1 <= (INR l_j) ->\n  (INR l_j) <= (INR d_j) ->" in text
    assert "table N K x -> set_release N K x ((INR l_j)) ->\n  shannon_ge N K x cls ((INR l_j))." in text
    # a chain of class levels the library does not state is refused
    with pytest.raises(Untranslatable, match="does not state"):
        generate(_edit(SET_CHANNEL, ["steps"], ["support>=min-entropy"]))
    # an integer symbol not bounded below on the domain: Coq's naturals would cover fewer values than the claim
    with pytest.raises(Untranslatable, match="d_j is not shown >= 0"):
        generate(_edit(SET_CHANNEL, ["domain"], ["1 <= l_j"]))


def test_intruder_views_states_two_data_sets():
    text = generate(VIEWS)
    assert ("class_le TwoSided N1 K x1 cls1 (T) -> class_le TwoSided N2 K x2 cls2 (T) ->\n"
            "  views_le N1 N2 K x1 x2 cls1 cls2 o1 o2 ((T ^ 2)).") in text
    assert "same_prior N1 N2 K x1 x2 ->" in text
    # another views model is not the library's
    with pytest.raises(Untranslatable, match="views model"):
        generate(_edit(VIEWS, ["B", "model", "same_prior"], False))


def test_transport_mixture_states_the_mixed_program():
    text = generate(TRANSPORT)
    assert ("emd_le K dist a b1 D_A_B -> emd_le K dist a b2 D_A_B2 ->\n  emd_le K dist a "
            "(fun j => (1 - lam) * b1 j + lam * b2 j) (((D_A_B * (1 - lam)) + (D_A_B2 * lam))).") in text
    with pytest.raises(Untranslatable, match="mixed <= ..."):
        generate(_edit(TRANSPORT, ["claim", "formula"], "D_A_mix >= D_A_B*(1 - lam) + D_A_B2*lam"))


def test_generator_refuses_what_its_lemma_does_not_state():
    # B comparing two records is not the removal target of slack-pairs-to-removal
    cert = _edit(PAIRS_TO_REMOVAL, ["B", "slack", "compares"], "pairs")
    with pytest.raises(Untranslatable, match="comparing removal"):
        generate(cert)
    # a second part with a condition on T that is not a threshold T >= r
    cert = _edit(COMPOSITION, ["parts", 1, "domain"], ["T > 0", "N >= 2", "2 <= N - 1", "T <= 5"])
    with pytest.raises(Untranslatable, match="other than T >= r"):
        generate(cert)
    # a part whose method the generator does not cover
    cert = _edit(COMPOSITION, ["parts", 0, "method"], "intruder-views")
    with pytest.raises(Untranslatable, match="not covered"):
        generate(cert)


#: commands that would assume what they should prove (Print Assumptions catches them too; this is the grep)
_ASSUME = re.compile(r"\b(Admitted|admit|Axiom|Axioms|Conjecture|Parameter|Parameters)\b")


def _code(text):
    """Coq text without its comments (nested ``(* *)``)."""
    out, depth, i = [], 0, 0
    while i < len(text):
        if text.startswith("(*", i):
            depth, i = depth + 1, i + 2
        elif text.startswith("*)", i) and depth:
            depth, i = depth - 1, i + 2
        else:
            if not depth:
                out.append(text[i])
            i += 1
    return "".join(out)


def test_no_admitted_or_axiom_in_library_or_generated_files():
    assert _code("a (* Admitted (* Axiom *) *) b") == "a  b"
    assert _ASSUME.search(_code("Lemma x : True. Admitted."))
    texts = {}
    for folder in (os.path.join(ROOT, "coq", "theories"), os.path.join(ROOT, "coq", "audit")):
        for name in os.listdir(folder):
            if name.endswith(".v"):
                with open(os.path.join(folder, name)) as fh:
                    texts[name] = fh.read()
    assert len([n for n in texts if n != "Library.v"]) >= 18
    for _, cert in REAL + FORGERIES:
        texts[str(cert["method"])] = generate(cert)
    for name, text in texts.items():
        assert not _ASSUME.search(_code(text)), name



@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert", REAL, ids=[n for n, _ in REAL])
def test_real_certificates_check(name, cert, library, tmp_path):
    assert_kernel_checked(cert, library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert", FORGERIES, ids=[n for n, _ in FORGERIES])
def test_forged_certificates_fail(name, cert, library, tmp_path):
    # the generator refused it: not kernel-checked either
    assert not kernel_accepts(cert, library, tmp_path, name)
