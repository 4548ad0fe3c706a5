"""The Coq generator of ``set-channel-whole-domain`` (sei2019 Table V, zero closeness of a release of the whole
domain): the library's ``Bayes.whole_domain`` states the set channel's Bayes posterior and a class's mean posterior;
the verify certificate checks with coqc and a clean audit, and forgeries give files coqc rejects.

The certificate is the one ``implgraph verify`` gives the claim (written out here); each forgery edits one number,
and why its statement is false (or its premise unprovable) is written beside it. The coqc tests are slow and skip
where Debian's ``coq`` is not installed.
"""

from __future__ import annotations

import copy

import pytest

from implgraph.kernel_coq.registry import COVERED, generate

from _coq import assert_kernel_checked, check_generated, coq

WHOLE = {"format": "implgraph-certificate/1", "method": "set-channel-whole-domain", "symbols": {"d_j": "integer"},
         "domain": ["d_j >= 1"], "channel": {"p": "1", "eta": "d_j", "domain_size": "d_j"},
         "B": {"definition": "emd-t-closeness", "inference": "bayes"}, "level": "0"}


def _edit(key, value, where=None):
    out = copy.deepcopy(WHOLE)
    (out if where is None else out[where])[key] = value
    return out


FORGERIES = [
    # a negative level: false (a flow's cost is >= 0 with a ground distance >= 0)
    ("level", _edit("level", "-1/10")),
    # one released value instead of the whole domain: false (d = 2, prior (1/2, 1/2), p = 1: the posterior is all on
    # the released value, at EMD 1/2 from the prior under the distance 1 between the two values); eta = d fails
    ("eta", _edit("eta", "1", "channel")),
    # p = 2 is no channel (0 <= p <= 1 fails)
    ("p", _edit("p", "2", "channel")),
]


def test_statement_quantifies_every_release():
    text = generate(WHOLE)
    assert "set-channel-whole-domain" in COVERED
    assert "prior d_j a -> ground d_j dist -> releases N d_j d_j Z ->" in text
    assert "emd_le d_j dist a (class_posterior N d_j d_j (1) a Z cls i) (0)." in text
    assert "apply (whole_domain N d_j d_j (1) a dist Z cls (0))" in text



@pytest.mark.slow
@coq
def test_certificate_checks(library, tmp_path):
    assert_kernel_checked(WHOLE, library, tmp_path, "whole")


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert", FORGERIES, ids=[n for n, _ in FORGERIES])
def test_forged_certificates_fail(name, cert, library, tmp_path):
    assert not check_generated(cert, library, tmp_path, name)["ok"]
