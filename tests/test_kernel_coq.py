"""The Coq generator (implgraph.kernel_coq): real certificates check with coqc, forged ones do not.

The coqc tests are slow (the library is built once, ~10 s of CPU, then each file ~2 s) and skip where Debian's
``coq`` is not installed. The certificates below are the prover's for two claims of ekenstedt2022 (theorem 2b:
LDP => (k,t)-closeness with k = 1, U = (T (N - 1) + 1)/N; lemma 2.1: subset sizes k0 <= k1); each forgery edits one
number or one relation so that the statement is false or the proof data wrong.
"""

from __future__ import annotations


import pytest

from _forge import edited

from implgraph.kernel_coq.check import STANDARD_AXIOMS, audit_axioms
from implgraph.kernel_coq.coqexpr import Translator, Untranslatable
from implgraph.kernel_coq.generate import generate

from _coq import assert_kernel_checked, coq, kernel_accepts, VERTEX



MONOTONE = {
    "format": "implgraph-certificate/1", "method": "subset-monotone",
    "symbols": {"N": "integer", "k0": "integer", "k1": "integer", "T": "real"},
    "domain": ["T > 0", "1 <= k0", "k0 <= k1", "k1 <= N - 1", "T >= 1", "N >= 2"],
    "A": {"definition": "kt-closeness", "params": {"k": "k0"}, "family": "subset", "sides": "two-sided", "size": "k0"},
    "B": {"definition": "kt-closeness", "params": {"k": "k1"}, "family": "subset", "sides": "two-sided", "size": "k1"},
    "upper": "T", "tight": False, "upper_certificate": {"lemma": "extreme-means-monotone"},
}

#: B one-sided over classes of >= 1 record: U = N / 1 on every table (set-mass), whatever A is
CEILING = {
    "format": "implgraph-certificate/1", "method": "one-sided-ceiling", "symbols": {"N": "integer", "T": "real"},
    "domain": ["T > 0", "N >= 2", "(1) >= 1", "(1) <= N"],
    "A": {"definition": "emd-t-closeness", "params": {"ground": "equal"}, "family": "class", "sides": None,
          "distance": "total-variation", "min_class": "1"},
    "B": {"definition": "basic-beta-likeness", "params": {}, "family": "class", "sides": "one-sided", "min_class": "1"},
    "upper": "N", "tight": False,
    "upper_certificate": {"lemma": "set-mass", "multipliers": {"mass": {"e - s >= 0": "N", "N - L >= 0": "(1)"}}},
}


def _edit(cert, path, value):
    return edited(cert, path, value)


FORGERIES = [
    # U one less in the numerator: false (at T = 1 a table of equal rows has ratio 1 > (N - 1)/N)
    ("vertex U", _edit(VERTEX, ["upper"], "(T*(N - 1))/N")),
    # one multiplier off by 1: the identity P den - Q num = sum(multiplier * fact) fails
    ("vertex multiplier", _edit(VERTEX, ["upper_certificate", "multipliers", "mean_D/mean_S", "N-j-(m-u)>=0"],
                                "N*T - N + 1")),
    # the sizes' order reversed: a larger subset's level does not bound a smaller one's
    ("monotone order", _edit(MONOTONE, ["domain"], ["T > 0", "1 <= k0", "k1 <= k0", "k1 <= N - 1", "T >= 1",
                                                    "N >= 2"])),
    # U = N - 1 below the tight N
    ("ceiling U", _edit(CEILING, ["upper"], "N - 1")),
]


def test_translator_reads_only_arithmetic():
    tr = Translator({"N": "integer", "T": "real", "eps1": "real"})
    assert tr.expr("(T*(N - 1) + 1)/N") == "(((T * ((INR N) - 1)) + 1) / (INR N))"
    assert tr.relation("log(T) <= eps1") == "(ln T) <= eps1"
    assert tr.relation("Eq(N, 2)") == "(INR N) = 2"
    for bad in ("__import__('os').system('true')", "T.__class__", "N**T", "[T]", "lambda: 1", "undeclared + 1"):
        with pytest.raises(Untranslatable):
            tr.expr(bad)


def test_uncovered_method_is_refused_with_its_reason():
    cert = _edit(VERTEX, ["method"], "intruder-views")
    with pytest.raises(Untranslatable, match="not covered"):
        generate(cert)


def test_integer_symbol_must_be_natural_on_the_domain():
    # without 1 <= k0 the claim is about every integer k0, and Coq's nat would cover only k0 >= 0
    cert = _edit(MONOTONE, ["domain"], ["T > 0", "k0 <= k1", "k1 <= N - 1", "T >= 1", "N >= 2"])
    with pytest.raises(Untranslatable, match="k0 is not shown >= 0"):
        generate(cert)


def test_statement_is_the_certificate_claim():
    text = generate(VERTEX)
    # the claim in the library's terms: A pairwise at T, B a two-sided subset level of size 1 at U
    assert "pairwise_le N K x (T) ->" in text
    assert "subset_le TwoSided N K x (1) ((((T * ((INR N) - 1)) + 1) / (INR N)))." in text
    assert "Admitted" not in text and "Axiom" not in text


def test_audit_reads_print_assumptions():
    assert audit_axioms("Closed under the global context\n") == ([], True)
    # a name whose type is too long for its line: the type follows on indented lines
    out = ("Axioms:\nClassicalDedekindReals.sig_not_dec : forall P : Prop, {~ ~ P} + {~ P}\nfoo\n"
           "  : forall P : nat -> Prop,\n    P 0\nbar : False\n")
    axioms, closed = audit_axioms(out)
    assert axioms == ["ClassicalDedekindReals.sig_not_dec", "foo", "bar"] and not closed
    assert not set(axioms) <= STANDARD_AXIOMS



@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert", [("vertex", VERTEX), ("monotone", MONOTONE), ("ceiling", CEILING)])
def test_real_certificates_check(name, cert, library, tmp_path):
    assert_kernel_checked(cert, library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name,cert", FORGERIES, ids=[n for n, _ in FORGERIES])
def test_forged_certificates_fail(name, cert, library, tmp_path):
    # the generator refuses it (k1 <= k0 leaves k1 unbounded below): not checked either
    assert not kernel_accepts(cert, library, tmp_path, name)


def test_require_all_fails_on_a_certificate_without_a_theorem(tmp_path, capsys):
    """A certificate of a method no generator covers: the check passes without --require-all (nothing generated
    failed) and fails with it, naming the method and the source."""
    import json

    from implgraph.kernel_coq.check import main
    certs = tmp_path / "certs.json"
    certs.write_text(json.dumps([{"sources": ["verify:made-up/claim"],
                                  "certificate": {"method": "no-such-method", "symbols": {}, "domain": []}}]))
    lib = tmp_path / "coq" / "theories"
    lib.mkdir(parents=True)
    assert main([str(certs), str(tmp_path / "out"), "--lib", str(lib), "--no-tightness"]) == 0
    assert main([str(certs), str(tmp_path / "out2"), "--lib", str(lib), "--no-tightness", "--require-all"]) == 1
    assert "not kernel-checked (no Coq theorem): no-such-method from verify:made-up/claim" in capsys.readouterr().out
