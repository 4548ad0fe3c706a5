"""A parameter that is a word (EMD's ground distance) is declared once, in the definition's ``words``; every reader
(node texts, table files, the levels display, the prover's Python API) takes it as text from that declaration."""

import json

import pytest

from implgraph import definitions
from implgraph.cli import main
from implgraph.engines.prove import Word, check_implication

TABLE = """paper: test
tables:
  - id: test/hierarchy
    source: "test"
    buckets: [v1, v2, v3, v4]
    show: {hierarchical-emd-t-closeness: {ground: "((1 2)(3 4))"}}
    rows:
      - {p: [1, 0, 0, 0], class: A}
      - {p: [0, 1, 0, 0], class: B}
    claims: []
"""


@pytest.mark.parametrize("d", definitions.all_definitions(), ids=lambda d: d.name)
def test_words_are_parameters_and_their_default_is_accepted(d):
    assert set(d.words) <= set(d.params)
    if d.words:
        assert d.check_params(None, dict(d.words)) == {k: str(v) for k, v in d.words.items()}


def test_levels_reads_a_hierarchy_in_show(tmp_path, capsys):
    # Two one-record classes (1,0,0,0) and (0,1,0,0): the table is (1/2,1/2,0,0). Under ((1 2)(3 4)) values 1 and 2
    # are 1/2 apart (their common parent is one level of two up), so each class moves 1/2 of its mass 1/2: t = 1/4.
    # Under the equal ground distance the EMD is the total variation distance, 1/2. (Reading the hierarchy as a
    # formula was an error before.)
    path = tmp_path / "t.yaml"
    path.write_text(TABLE)
    assert main(["levels", str(path), "--json"]) in (0, None)
    out = json.loads(capsys.readouterr().out)["definitions"]
    assert out["hierarchical-emd-t-closeness"]["params"] == {"ground": "((1 2)(3 4))"}
    assert out["hierarchical-emd-t-closeness"]["level"] == "1/4"
    assert out["emd-t-closeness"]["level"] == "1/2"


def test_the_python_api_reads_a_plain_string_as_the_declared_word():
    # {"ground": "equal"} was parsed as a formula (a symbol named equal) and failed in check_params
    plain = check_implication("ldp", "emd-t-closeness", None, b_params={"ground": "equal"})
    word = check_implication("ldp", "emd-t-closeness", None, b_params={"ground": Word("equal")})
    assert plain.verdict == word.verdict == "proved"
    assert str(plain.tight) == str(word.tight)
    # a false f: the same refutation whichever way the word is given (the plain string used to fail while the
    # refutation's text was written)
    plain = check_implication("ldp", "emd-t-closeness", "eps/100", b_params={"ground": "equal"})
    word = check_implication("ldp", "emd-t-closeness", "eps/100", b_params={"ground": Word("equal")})
    assert plain.verdict == word.verdict == "refuted"
    assert plain.evidence == word.evidence


@pytest.mark.parametrize("a, a_params, needle", [
    ("k-anonymity", {"k": "k"}, "k-anonymity has no parameter(s) k"),
    ("kt-closeness", {}, "kt-closeness needs parameter(s) k"),
])
def test_the_prover_refuses_parameters_a_definition_does_not_take(a, a_params, needle):
    # (review: an undeclared k was "proved" with a certificate the checker rejected; a missing one was a KeyError)
    from implgraph.core.errors import InputError
    with pytest.raises(InputError) as exc:
        check_implication(a, "basic-beta-likeness", a_params=a_params)
    assert needle in str(exc.value) and "fix:" in str(exc.value)
