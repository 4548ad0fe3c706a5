"""Certificates of the proved claims other than a bound between two levels (implgraph.certify.lemmas), and of the
refutations by a proof: each row's certificate is accepted, and each altered certificate (a number, an inequality's
direction, a dropped assumption, a statement the lemma does not make) is rejected.

The verdicts come from `verify` itself (the rows' details), so the test also checks that every proved row and every
refutation by a proof carries its certificate.
"""

import copy
import json
import subprocess
import sys

import pytest

from implgraph.certify import certificates_in, check_certificate
from implgraph.checks.verify import run_verify

#: the rows whose certificates implgraph.certify.lemmas checks, by method
LEMMA_ROWS = {"domingo-ferrer2015/proposition-3": "intruder-views",
              "sei2019/lemma-1": "transport-mixture",
              "sei2019/theorem-2": "set-channel-diversity",
              "sei2019/theorem-3": "set-channel-diversity",
              "sei2019/theorem-4#reading": "set-channel-closeness",
              "sei2019/sec-VII-C/table-V-zero-closeness": "set-channel-whole-domain",
              "sei2019/sec-VII-D/frequency-diversity-with-eta-from-l": "set-channel-diversity",
              "sei2019/sec-VII-D/entropy-diversity-with-eta-from-l": "set-channel-diversity"}
#: the printed non-implications the engine refutes by proving the implication
REFUTED_BY_PROOF = ("ekenstedt2022/lemma-2.3", "ekenstedt2022/lemma-3.4", "ekenstedt2022/theorem-4.3")
#: the rows refuted by a proof under an assumption (``details.conditional``), the row itself decided on every partition
CONDITIONAL_BY_PROOF = ("ekenstedt2022/theorem-5#reading",)


@pytest.fixture(scope="module")
def rows():
    ids = sorted({cid.split("#")[0] for cid in [*LEMMA_ROWS, *REFUTED_BY_PROOF, *CONDITIONAL_BY_PROOF,
                                                  "domingo-ferrer2015/proposition-3#reading"]})
    return {v.id: v for v in run_verify(ids, jobs=1)}


@pytest.fixture(scope="module")
def certs(rows):
    return {cid: certificates_in(rows[cid].details) for cid in LEMMA_ROWS}


@pytest.mark.parametrize("cid", sorted(LEMMA_ROWS))
def test_each_proved_row_has_its_certificate_accepted(rows, certs, cid):
    assert rows[cid].verdict == "proved"
    (cert,) = certs[cid]
    assert cert["method"] == LEMMA_ROWS[cid]
    rep = check_certificate(cert)
    assert rep.ok, rep.failures()


@pytest.mark.parametrize("cid", REFUTED_BY_PROOF)
def test_each_refutation_by_proof_has_its_certificate_accepted(rows, cid):
    v = rows[cid]
    assert v.verdict == "refuted" and v.refuted_by == "proved"
    found = certificates_in(v.details)
    assert found and all(check_certificate(c).ok for c in found)


@pytest.mark.parametrize("cid", CONDITIONAL_BY_PROOF)
def test_each_conditional_refutation_by_proof_has_its_certificate_accepted(rows, cid):
    """Over every partition the row is decided by a witness; under "partitions into at least 2 classes" it is
    refuted by a proof of the implication, whose certificate states min_classes 2 and is accepted."""
    cond = rows[cid].details["conditional"]
    assert cond["assumption"] == "partitions into at least 2 classes"
    assert cond["verdict"] == "refuted" and cond["refuted_by"] == "proved"
    assert cond["certificate"]["min_classes"] == 2 and check_certificate(cond["certificate"]).ok


def test_the_instance_certificate_states_the_instance(rows):
    """theorem-5#reading is refuted at k = 1 under >= 2 classes: its certificate's sides are at k = 1 (B's subset
    size N - 1)."""
    cert = rows["ekenstedt2022/theorem-5#reading"].details["conditional"]["certificate"]
    assert cert["B"]["params"] == {"k": "1"} and cert["B"]["size"] == "N - 1" and "Eq(k, 1)" in cert["domain"]


def test_proposition_3_without_its_assumptions_is_refuted_by_a_table(rows):
    """Proposition 3 without the views model (eps-DP of the data set): a witness table, no proof to carry."""
    v = rows["domingo-ferrer2015/proposition-3#reading"]
    assert v.verdict == "refuted" and v.refuted_by != "proved" and not certificates_in(v.details)


def _set(cert, path, value):
    """A deep copy of ``cert`` with the item at ``path`` (keys and indices) replaced by ``value`` (deleted if
    ``value`` is :data:`DROP`)."""
    out = copy.deepcopy(cert)
    *head, last = path
    target = out
    for key in head:
        target = target[key]
    if value is DROP:
        del target[last]
    else:
        target[last] = value
    return out


DROP = object()

#: (row, what is altered, path, new value): every one must be rejected
FORGERIES = [
    # intruder-views
    ("domingo-ferrer2015/proposition-3", "a smaller bound U = T", ("upper",), "T"),
    ("domingo-ferrer2015/proposition-3", "a number in U", ("upper",), "T**2 - 1/2"),
    ("domingo-ferrer2015/proposition-3", "a number in a multiplier",
     ("upper_certificate", "multipliers", "P/w", "P_"), "T - 2"),
    ("domingo-ferrer2015/proposition-3", "a dropped case", ("upper_certificate", "multipliers", "v/w"), DROP),
    ("domingo-ferrer2015/proposition-3", "a dropped assumption of the model", ("B", "model", "same_prior"), DROP),
    ("domingo-ferrer2015/proposition-3", "another model", ("B", "model", "posterior"), "whole-table"),
    ("domingo-ferrer2015/proposition-3", "A one-sided", ("A", "sides"), "one-sided"),
    ("domingo-ferrer2015/proposition-3", "a number in the family", ("tightness", "blocks", 0, "value"),
     "T/(2*(T + 2))"),
    ("domingo-ferrer2015/proposition-3", "a count of the family", ("tightness", "blocks", 2, "count"), "N - 1"),
    ("domingo-ferrer2015/proposition-3", "the family's domain dropped (N >= 3)", ("tightness", "domain", 1), DROP),
    ("domingo-ferrer2015/proposition-3", "the family's domain reversed", ("tightness", "domain", 0), "N <= T + 1"),
    ("domingo-ferrer2015/proposition-3", "T >= 1 dropped", ("domain",), ["T > 0"]),
    ("domingo-ferrer2015/proposition-3", "another attaining pair", ("tightness", "attained", "classes"), ["E1", "E3"]),
    # set-channel-diversity
    ("sei2019/theorem-2", "a larger level", ("level",), "l_j + 1"),
    ("sei2019/theorem-2", "a number in a multiplier", ("upper_certificate", "multipliers", "count", "m_ - n_"),
     "l_j - 1"),
    ("sei2019/theorem-2", "the assumption l_j <= d_j dropped", ("domain", 1), DROP),
    ("sei2019/theorem-2", "an inequality reversed", ("domain", 0), "1 >= l_j"),
    ("sei2019/theorem-2", "p outside [0, 1]", ("channel", "p"), "2"),
    ("sei2019/theorem-2", "eta not an integer", ("channel", "eta"), "l_j + 1/2"),
    ("sei2019/theorem-2", "an impossible condition (eta > d)", ("domain",), ["1 <= l_j", "Eq(l_j, d_j + 1)"]),
    ("sei2019/theorem-3", "another class level", ("B", "class_level"), "min-entropy"),
    ("sei2019/theorem-3", "the chain dropped", ("steps",), []),
    ("sei2019/theorem-3", "a chain with a map below x", ("steps",), ["shannon>=capped"]),
    ("sei2019/sec-VII-D/frequency-diversity-with-eta-from-l", "the assumption l_j <= eta_j dropped", ("domain", 1),
     DROP),
    ("sei2019/sec-VII-D/frequency-diversity-with-eta-from-l", "the assumption p_j <= 1 dropped", ("domain", 4), DROP),
    # set-channel-whole-domain
    ("sei2019/sec-VII-C/table-V-zero-closeness", "eta = d - 1", ("channel", "eta"), "d_j - 1"),
    ("sei2019/sec-VII-C/table-V-zero-closeness", "a negative level", ("level",), "-1"),
    ("sei2019/sec-VII-C/table-V-zero-closeness", "no Bayes inference", ("B", "inference"), DROP),
    ("sei2019/sec-VII-C/table-V-zero-closeness", "a larger-is-stronger B", ("B", "definition"), "frequency-l-diversity"),
    # set-channel-closeness
    ("sei2019/theorem-4#reading", "the odds without eta", ("x",), "p_*d_/(1 - p_)"),
    ("sei2019/theorem-4#reading", "a sign in g", ("g",), "x_/(1 - a_*x_)"),
    ("sei2019/theorem-4#reading", "a number in the root", ("root",), "G_/(1 - 2*a_*G_)"),
    ("sei2019/theorem-4#reading", "Algorithm 1 as printed", ("channel", "reading"), "the largest p over the subsets Z"),
    ("sei2019/theorem-4#reading", "the convexity dropped", ("parts",), []),
    ("sei2019/theorem-4#reading", "a forged convexity", ("parts", 0, "weights", 1), "2*lam"),
    # transport-mixture
    ("sei2019/lemma-1", "weights not summing to 1", ("weights", 1), "2*lam"),
    ("sei2019/lemma-1", "lam <= 1 dropped", ("domain", 1), DROP),
    ("sei2019/lemma-1", "the inequality reversed", ("claim", "formula"), "D_A_mix >= D_A_B*(1 - lam) + D_A_B2*lam"),
    ("sei2019/lemma-1", "the parts swapped", ("claim", "parts"), ["D_A_B2", "D_A_B"]),
]


@pytest.mark.parametrize("cid, what, path, value", FORGERIES, ids=[f"{c}: {w}" for c, w, _, _ in FORGERIES])
def test_forgery_rejected(certs, cid, what, path, value):
    (cert,) = certs[cid]
    forged = _set(cert, path, value)
    assert forged != cert
    rep = check_certificate(forged)
    assert not rep.ok
    assert all("\n" not in how for _, _, how in rep.failures())


def test_every_new_method_has_forgeries():
    assert {LEMMA_ROWS[cid] for cid, *_ in FORGERIES} == set(LEMMA_ROWS.values())


def test_the_checker_imports_no_engine():
    """implgraph.certify with its lemma modules, re-checking a certificate, loads no engine, checker of claims or
    mechanism: it is independent of the code whose proofs it re-checks."""
    cert = {"format": "implgraph-certificate/1", "method": "transport-mixture",
            "symbols": {"lam": "real", "D_A_mix": "real", "D_A_B": "real", "D_A_B2": "real"},
            "domain": ["0 <= lam", "lam <= 1"], "program": {"convex_in": "columns"}, "weights": ["1 - lam", "lam"],
            "claim": {"formula": "D_A_mix <= (1 - lam)*D_A_B + lam*D_A_B2", "mixed": "D_A_mix",
                      "parts": ["D_A_B", "D_A_B2"]}}
    code = ("import json, sys; from implgraph.certify import check_certificate; "
            f"assert check_certificate(json.loads({json.dumps(json.dumps(cert))})).ok; "
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('implgraph.engines', "
            "'implgraph.checks', 'implgraph.mechanisms', 'implgraph.map')))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == []


def test_a_convexity_claim_the_argument_does_not_give_is_not_proved(tmp_path, capsys):
    """The transportation argument bounds D at the mixture by (1 - lam) D1 + lam D2; a claim whose right side is
    another combination (here D[A, mixture] <= D[A, B], false in general) is not proved by it (it was, without a
    certificate): its certificate cannot be built, and the verdict is unknown."""
    import yaml
    from implgraph.cli import main
    from implgraph.io.datafile import data_files
    src = next(p for p in data_files("theorems") if p.name == "sei2019.yaml")
    data = yaml.safe_load(src.read_text())
    node = dict(next(c for c in data["claims"] if c["id"] == "sei2019/lemma-1"))
    node.update(id="mine/lemma-1-other-mixture", formula="D_A_mix <= (1 - lam)*D_A_B + lam*D_A_B")
    for key in ("instantiations", "expect"):
        node.pop(key, None)
    (tmp_path / "theorems").mkdir()
    path = tmp_path / "theorems" / "mine.yaml"
    path.write_text(yaml.safe_dump({"paper": "mine", "reference": data["reference"], "claims": [node]}))
    assert main(["verify", "--only", "--theorems", str(path), "--json", "--jobs", "1"]) == 0
    (row,) = json.loads(capsys.readouterr().out)["claims"]
    assert row["verdict"] == "unknown" and "not 'D at the mixture" in row["evidence"]
