"""Loading theorems/*.yaml: every bad input is one line naming the file and the line."""

import textwrap

import pytest

from implgraph.core.errors import InputError
from implgraph.io.datafile import EDGE_KINDS
from implgraph.io.theorems import load_theorems

GOOD = """
paper: test
claims:
  - id: test/one
    printed: "eps-LDP => (1,t)-closeness"
    kind: implies
    from: {definition: ldp, level: eps}
    to: {definition: kt-closeness, params: {k: "1"}, level: t}
    f: "(exp(eps)*(N - 1) + 1)/N"
    symbols: {N: integer}
    when: ["N >= 2"]
"""


def write(tmp_path, text):
    d = tmp_path / "theorems"
    d.mkdir(exist_ok=True)
    p = d / "t.yaml"
    p.write_text(textwrap.dedent(text))
    return p


def test_bundled_theorems_load():
    edges = load_theorems()
    ids = {e.id for e in edges}
    for cid in ["ekenstedt2022/theorem-2a", "ekenstedt2022/theorem-2b", "ekenstedt2022/theorem-3a",
                "ekenstedt2022/lemma-2.1", "ekenstedt2022/theorem-4.1", "domingo-ferrer2015/proposition-1"]:
        assert cid in ids
    assert all(e.kind in EDGE_KINDS for e in edges)


def test_good_file(tmp_path):
    p = write(tmp_path, GOOD)
    (e,) = load_theorems([p])
    assert e.a.name == "ldp" and e.b.params["k"] == 1


@pytest.mark.parametrize("old,new,needle,line", [
    ("definition: ldp,", "definition: nodp,", "unknown definition", 7),
    ('f: "(exp(eps)*(N - 1) + 1)/N"', 'f: "(exp(eps)*(M - 1) + 1)/N"', "undeclared symbol 'M'", 9),
    ('when: ["N >= 2"]', 'when: ["N >= 2", "N < 1"]', "can never hold", 11),
    ('params: {k: "1"}', 'params: {j: "1"}', "no parameter", 8),
    ('kind: implies', 'kind: not-implies\n    witness: test/nosuchtable', "not a table", 7),
])
def test_bad_input_names_file_and_line(tmp_path, old, new, needle, line):
    assert old in GOOD
    p = write(tmp_path, GOOD.replace(old, new))
    with pytest.raises(InputError) as exc:
        load_theorems([p])
    msg = str(exc.value)
    assert needle in msg
    assert str(p) in msg
    assert exc.value.line is not None


def test_duplicate_id(tmp_path):
    body = GOOD + GOOD.split("claims:\n", 1)[1]
    p = write(tmp_path, body)
    with pytest.raises(InputError, match="duplicate claim id"):
        load_theorems([p])


def test_invalid_f_level_is_a_finding_not_an_error(tmp_path):
    # f = t/2 is < 1 (not a valid t level) on the whole condition: loads fine, the verdict reports it
    p = write(tmp_path, GOOD.replace('f: "(exp(eps)*(N - 1) + 1)/N"', 'f: "1/2"'))
    (e,) = load_theorems([p])
    from implgraph.checks.edges import check_edge
    v = check_edge(e, {"max_n": 4})
    assert v.verdict == "refuted"


MATH = """
paper: test
claims:
  - id: test/math
    printed: "x"
    kind: math
    formula: "FORMULA"
    symbols: {a1: real, a2: real, b1: real, b2: real}
    when: ["0 < a1", "0 < a2", "0 < b1", "0 < b2"]
"""


@pytest.mark.parametrize("formula,verdict", [
    ("(a1 + a2)/(b1 + b2) <= Max(a1/b1, a2/b2)", "holds"),      # mediant inequality
    ("(a1 + a2)/(b1 + b2) <= Min(a1/b1, a2/b2)", "refuted"),    # false: a1 = 1, b1 = 2, a2 = 2, b2 = 1
    ("Abs(a1 - b1) <= Abs(a1 - a2) + Abs(a2 - b1)", "holds"),   # triangle inequality
])
def test_math_checker(tmp_path, formula, verdict):
    from implgraph.io.validate import load_yaml
    from implgraph.checks.math_claims import check_math
    p = write(tmp_path, MATH.replace("FORMULA", formula))
    claim = load_yaml(p)["claims"][0]
    v = check_math(claim)
    assert v.verdict == verdict
    if verdict == "refuted":
        import sympy
        pt = {k: sympy.Rational(x) for k, x in v.witness["point"].items()}
        lhs = (pt["a1"] + pt["a2"]) / (pt["b1"] + pt["b2"])
        assert lhs > min(pt["a1"] / pt["b1"], pt["a2"] / pt["b2"])


def test_symbolic_nonimplication_theorem_3b():
    # hand: one record with Pr(a1) = 0 and N - 1 with 1/2: every k-subset with k >= 2 has a positive
    # a1 mean, so (k,t)-closeness is finite, while eps-LDP compares 0 with 1/2 (infinite)
    from fractions import Fraction
    import brute
    from implgraph.checks.not_implies import symbolic_nonimplication
    e = {x.id: x for x in load_theorems()}["ekenstedt2022/theorem-3b"]
    text, z = symbolic_nonimplication(e)
    assert z == 1 and "for every parameter value" in text
    for N in (3, 5):
        rows = [[Fraction(0), Fraction(1)]] + [[Fraction(1, 2)] * 2] * (N - 1)
        for k in range(2, N):
            assert brute.kt(rows, k) != brute.INF
        assert brute.ldp(rows) == brute.INF


@pytest.mark.parametrize("claim_id", [
    "ekenstedt2022/table-III/caption-mult-t",    # a level claim of the table: not a witness family
    "nowhere/no-such-claim",
])
def test_witness_claim_must_be_an_unbounded_table_claim(claim_id):
    # the non-implication checker judges its witness with the one `unbounded` checker; any other
    # claim (or none) gives no witness verdict
    from implgraph.checks.not_implies import judge_witness_claim
    assert judge_witness_claim(claim_id) is None


def test_checkers_are_registered_by_kind_and_shape_only():
    # every kind the data format knows has a checker; a shape checker of a kind is tried before its
    # plain checker (one plain checker per kind at most)
    from implgraph.checks import find_checker
    from implgraph.core.verdict import CHECKERS
    for kind in EDGE_KINDS + ("level", "unbounded", "math", "map", "reachability"):
        entries = CHECKERS[kind]
        plain = [i for i, (when, _) in enumerate(entries) if when is None]
        assert plain == [len(entries) - 1], kind
    assert find_checker({"kind": "no-such-kind"}) is None
