"""Researcher lemmas: a plugin registers an inequality with a certificate; the checker re-checks it, the prover uses it.

The plugin is inverse-Simpson l-diversity (tests/_researcher_plugins.py): a class's level is D_2 = 1 / sum_v q_v^2.
Derived by hand (q a class's mean frequencies, top = max q, S2 = sum q^2, every q_v <= top, sum q_v = 1):

- **true** (frequency l-diversity (l) => inverse-Simpson (l)): S2 = sum q_v q_v <= top sum q_v = top, so
  1/S2 >= 1/top: a table whose every class has 1/top >= l has every D_2 >= l. Certificate: P = top S2 > 0,
  P (1/S2 - 1/top) = top - S2 = sum_v (top q_v - q_v^2), each term q (top - q) >= 0 on 0 < q <= top, c = 0.
- **true, chained** (inverse-Simpson (l) => frequency (sqrt(l))): S2 >= top^2 (the term of a value at top), so
  1/top >= 1/sqrt(S2) >= sqrt(l). Certificate on the squares: P = top^2 S2, P (1/top^2 - 1/S2) = S2 - top^2 =
  sum_v q_v^2 - top^2: t(q) = q^2 >= 0, c = -top^2, c + t(top) = 0. With the built-in Shannon >= min-entropy
  (exp(H) >= 1/top) the chain gives inverse-Simpson (l) => entropy l-diversity (sqrt(l)).
- **false** (inverse-Simpson (l) => frequency (l)): a class with q = (1/2, 1/4, 1/4) has D_2 = 1/(1/4 + 1/16 + 1/16)
  = 8/3 but 1/top = 2 < 8/3. Its forged certificate (P = top S2, t(q) = q^2 - top q, c = 0) satisfies the identity
  P (1/top - 1/S2) = S2 - top but t(q) < 0 for 0 < q < top.
"""

from __future__ import annotations

import random
from fractions import Fraction

import mpmath
import pytest
import sympy

from _plugin_fixtures import registered
from _researcher_plugins import InverseSimpson, class_freqs
from implgraph.certify import check_certificate
from implgraph.core.errors import InputError
from implgraph.engines.prove import check_implication
from implgraph.lemmas import Lemma, register, unregister

FREQ, ENT, IS = "frequency-l-diversity", "entropy-l-diversity", "inverse-simpson-l-diversity"
TRUE = Lemma("inverse Simpson >= 1/max q", FREQ, IS, "l",
             certificate={"factor": "top*S2", "term": "top*q - q**2", "constant": "0"},
             statement="per class 1/sum q^2 >= 1/max q", reference="Hill 1973 (Hill numbers fall with the order)")
CHAINED = Lemma("max q <= sqrt(sum q^2)", IS, FREQ, "sqrt(l)",
                certificate={"factor": "top**2*S2", "term": "q**2", "constant": "-top**2", "power": 2},
                statement="per class 1/max q >= 1/sqrt(sum q^2)")
FORGED = Lemma("forged: 1/max q >= 1/sum q^2", IS, FREQ, "l",
               certificate={"factor": "top*S2", "term": "q**2 - top*q", "constant": "0"})


@pytest.fixture
def plugin():
    with registered(InverseSimpson):
        yield
    for lm in (TRUE, CHAINED, FORGED):
        unregister(lm.name)


def _random_classes(rng):
    rows = []
    for _ in range(rng.randint(2, 7)):
        w = [rng.choice([0, 0, 1, 2, 3, 5]) for _ in range(rng.randint(2, 4))]
        w[rng.randrange(len(w))] += 1
        rows.append(w)
    p = max(len(r) for r in rows)
    rows = [[Fraction(x, sum(r)) for x in r + [0] * (p - len(r))] for r in rows]
    return rows, [f"E{rng.randint(1, 3)}" for _ in rows]


def test_registered_lemma_is_used_by_the_prover_and_accepted_by_the_checker(plugin):
    rng = random.Random(7)
    for _ in range(200):        # the lemma holds (by hand, on random tables)
        qs = class_freqs(*_random_classes(rng))
        assert min(1 / sum(x * x for x in q) for q in qs) >= min(1 / max(q) for q in qs)
    assert check_implication(FREQ, IS, "l", max_n=3).verdict != "proved"     # nothing proves it without the lemma
    register(TRUE)
    r = check_implication(FREQ, IS, "l", max_n=3)
    assert r.verdict == "proved" and r.method == "researcher-lemma"
    assert "rests on the researcher's lemma 'inverse Simpson >= 1/max q'" in r.evidence
    assert r.tightness == "not derived" and r.tight is None
    cert = r.details["certificate"]
    assert cert["method"] == "researcher-lemma" and cert["steps"][0]["term"] == "top*q - q**2"
    assert check_certificate(cert).ok
    weaker = check_implication(FREQ, IS, "l/2", max_n=3)         # a weaker f: proved by the same lemma
    assert weaker.verdict == "proved" and weaker.method == "researcher-lemma"


def test_chain_with_a_built_in_lemma(plugin):
    register(CHAINED)
    r = check_implication(IS, ENT, max_n=3)
    assert r.verdict == "proved" and r.method == "researcher-lemma"
    l = sympy.Symbol("l", real=True)
    assert sympy.simplify(sympy.sympify(r.details["lemma_f"], locals={"l": l}) - sympy.sqrt(l)) == 0
    cert = r.details["certificate"]
    assert [s["kind"] for s in cert["steps"]] == ["class-inequality", "built-in"]
    assert check_certificate(cert).ok
    # the composed f holds on random tables (entropy level by hand, 50 digits): exp(H) >= sqrt(D_2)
    rng, mpmath.mp.dps = random.Random(3), 50
    for _ in range(100):
        qs = class_freqs(*_random_classes(rng))
        ent = min(mpmath.exp(-sum(mpmath.mpf(x.numerator) / x.denominator * mpmath.log(mpmath.mpf(x.numerator)
                                                                                   / x.denominator) for x in q if x))
                  for q in qs)
        d2 = min(1 / sum(x * x for x in q) for q in qs)
        assert ent >= mpmath.sqrt(mpmath.mpf(d2.numerator) / d2.denominator) - mpmath.mpf(10) ** -40


def test_check_edge_names_the_researcher_lemma(plugin):
    from implgraph.engines.checkedge import check_edge
    register(TRUE)
    fw = check_edge(FREQ, IS, N=3).forward
    assert fw.verdict == "proved" and fw.bound == "every N" and fw.proved_f == "l (not derived)"
    assert "rests on the researcher's lemma 'inverse Simpson >= 1/max q'" in fw.evidence
    assert fw.certificate["method"] == "researcher-lemma"


def test_forged_lemma_rejected_and_never_a_proof(plugin):
    q = [Fraction(1, 2), Fraction(1, 4), Fraction(1, 4)]     # the class that refutes it (by hand)
    assert 1 / sum(x * x for x in q) == Fraction(8, 3) and 1 / max(q) == 2
    with pytest.raises(InputError, match=r"the checker rejects its certificate: step 1: t\(q\) >= 0") as err:
        register(FORGED)
    assert "\n" not in str(err.value) and "; fix: " in str(err.value)
    register(FORGED, check=False)       # in the registry anyway: the prover re-checks it and does not use it
    r = check_implication(IS, FREQ, "l", max_n=3)
    assert r.verdict != "proved" and r.method != "researcher-lemma"
    assert "registered lemma 'forged: 1/max q >= 1/sum q^2' is rejected by the checker" in r.evidence


def test_certificate_for_another_statement_rejected(plugin):
    other = Lemma("true certificate, reversed pair", IS, FREQ, "l", certificate=TRUE.certificate)
    with pytest.raises(InputError, match="identically"):
        register(other)
    shifted = Lemma("true certificate, another f", FREQ, IS, "l + 1", certificate=TRUE.certificate)
    with pytest.raises(InputError, match="identically"):
        register(shifted)


def test_tampered_verdict_certificate_rejected(plugin):
    register(TRUE)
    cert = check_implication(FREQ, IS, "l", max_n=3).details["certificate"]
    assert not check_certificate({**cert, "f": "2*x"}).ok                     # another f than the steps compose
    assert not check_certificate({**cert, "B": {"definition": ENT}}).ok       # another B than the steps reach
    step = {**cert["steps"][0], "factor": "S2"}                               # the identity fails
    assert not check_certificate({**cert, "steps": [step]}).ok


def test_unreadable_lemma_refused_in_one_line(plugin):
    bad = Lemma("code", FREQ, IS, "__import__('os').getcwd()", certificate=TRUE.certificate)
    with pytest.raises(InputError, match="lemma code: f:"):
        register(bad)
    with pytest.raises(InputError, match="not a registered definition"):
        register(Lemma("unknown", FREQ, "no-such-definition", "l", certificate=TRUE.certificate))


def test_checker_does_not_import_the_prover():
    from pathlib import Path
    import implgraph.certify.lemmas as pkg
    for name in ("researcher.py", "class_inequality.py"):
        text = (Path(pkg.__file__).parent / name).read_text()
        assert "implgraph.prover" not in text and "implgraph.engines" not in text


def test_docs_example_registers_and_proves(tmp_path, monkeypatch):
    """The worked example of docs/sections/researcher-lemmas.md, as written there, gives the verdicts it describes."""
    import importlib
    import re
    from pathlib import Path
    from implgraph.definitions import REGISTRY
    page = (Path(__file__).resolve().parents[1] / "docs" / "sections" / "researcher-lemmas.md").read_text()
    code = re.search(r"<!-- researcher-lemma-example -->\n```python\n(.*?)```", page, re.S).group(1)
    (tmp_path / "docs_lemma_example.py").write_text(code)
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        importlib.import_module("docs_lemma_example")
        r = check_implication(FREQ, IS, "l", max_n=3)
        assert r.verdict == "proved" and "rests on the researcher's lemma 'inverse Simpson >= 1/max q'" in r.evidence
        assert check_certificate(r.details["certificate"]).ok
        chained = check_implication(IS, ENT, max_n=3)
        assert chained.verdict == "proved" and chained.details["lemma_f"] == "sqrt(l)"
    finally:
        REGISTRY.pop(IS, None)
        for name in ("inverse Simpson >= 1/max q", "max q <= sqrt(sum q^2)"):
            unregister(name)


def test_entry_point_lemmas_rechecked_before_use(plugin, monkeypatch):
    """Lemmas of the entry-point group implgraph.lemmas: a true one is used, a forged one is never a proof."""
    from importlib import metadata
    from implgraph.prover import researcher

    class EntryPoint:
        def __init__(self, name, obj):
            self.name, self.obj = name, obj

        def load(self):
            return self.obj

    def entry_points(group):
        assert group == "implgraph.lemmas"
        return [EntryPoint("good", [TRUE]), EntryPoint("bad", FORGED), EntryPoint("broken", "not a lemma")]

    monkeypatch.setattr(metadata, "entry_points", entry_points)
    monkeypatch.setattr(researcher, "_LOAD_ERRORS", [])
    names = [lm.name for lm in researcher.registered_lemmas()]
    assert TRUE.name in names and FORGED.name in names
    assert len(researcher.load_errors()) == 1 and "lemma plugin broken" in researcher.load_errors()[0]
    assert check_implication(FREQ, IS, "l", max_n=3).verdict == "proved"
    r = check_implication(IS, FREQ, "l", max_n=3)
    assert r.verdict != "proved" and "is rejected by the checker" in r.evidence
