"""The checker's own registry of lemmas (implgraph.certify.lemmas): one module per lemma, method names from
implgraph.core.methods only, no import of the prover, small files and functions.

The researcher-lemma statement: a ``researcher-lemma`` certificate states B's level at least as strong as f of A's
level. By hand, for frequency l-diversity (a class's level 1/max q) and distinct l-diversity (its number of values
k): 1 = sum q <= k max q, so k >= 1/max q, and k is an integer, so k >= ceiling(1/max q); the weakest class of each
gives distinct >= ceiling(frequency). So the claim frequency (l) => distinct (ceiling(l)) is stated by the chain,
as is the weaker frequency (l) => distinct (ceiling(l) - 1), while frequency (l) => distinct (l + 1) is not (at
l = 2 a table of classes (1/2, 1/2) has both levels 2 < 3).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import implgraph
from implgraph.certify import check_certificate
from implgraph.certify.lemmas import REGISTRY, Lemma, get, load, register
from implgraph.certify.statement import check_statement
from implgraph.core import methods

CERTIFY = Path(implgraph.__file__).parent / "certify"
#: the prover's packages: the checker imports none of them (it re-checks their output independently)
PROVER = ("engines", "prover", "checks", "map")
FREQ, DISTINCT = "frequency-l-diversity", "distinct-l-diversity"
#: a researcher-lemma certificate (frequency => distinct, f = ceiling(x)), as the prover writes one
RESEARCHER = {"format": "implgraph-certificate/1", "method": "researcher-lemma",
              "A": {"definition": FREQ}, "B": {"definition": DISTINCT}, "f": "ceiling(x)", "min_classes": 1,
              "steps": [{"kind": "class-inequality", "A": FREQ, "B": DISTINCT, "f": "ceiling(x)", "factor": "top",
                         "term": "top - q", "constant": "0"}]}


#: methods of implgraph.core.methods that no certificate carries (so no lemma of the checker): none today
NOT_CERTIFIED = frozenset({
    # a refutation for every N by a witness family, re-checked with its exact tables (no certificate carries it)
    "divergence-family",
})


def test_every_method_has_one_registered_lemma():
    missing = set(methods.ALL) - set(REGISTRY) - NOT_CERTIFIED
    assert not missing, (f"methods without a lemma of the checker: {sorted(missing)} (add its module to "
                         "implgraph/certify/lemmas/, or name it in NOT_CERTIFIED if no certificate carries it)")
    assert set(REGISTRY) <= set(methods.ALL)
    for name, lm in REGISTRY.items():
        assert lm.method is methods.ALL[name]
        assert (lm.kind == "bound") == (lm.structure is not None) == (lm.check is None)


def test_every_module_of_the_package_is_loaded():
    """The registry imports every module it finds (a new lemma is one new module, registered on load)."""
    load()
    for path in (CERTIFY / "lemmas").glob("*.py"):
        if path.stem != "__init__":
            assert f"implgraph.certify.lemmas.{path.stem}" in sys.modules, path.name


def test_the_registry_refuses_a_second_lemma_an_unknown_method_or_an_unclear_kind(monkeypatch):
    with pytest.raises(ValueError, match="registered twice"):
        register(Lemma(methods.VERTEX, structure=lambda cert, A, B, rd: []))
    with pytest.raises(ValueError, match="not a method of implgraph.core.methods"):
        register(Lemma(methods.Method("no-such-method", "no-such-lemma", ""), check=lambda cert, ns, ms: None))
    stray = methods.Method("stray", "stray", "")
    monkeypatch.setitem(methods.ALL, stray.name, stray)
    with pytest.raises(ValueError, match="either structure"):
        register(Lemma(stray, structure=lambda *a: [], check=lambda *a: None))
    assert "stray" not in REGISTRY and get("stray") is None
    from implgraph.certify.lemmas import lemma
    with pytest.raises(ValueError, match="not a method of implgraph.core.methods"):
        lemma("no-such-method")


def _bound_certificate(method, upper="T"):
    return {"format": "implgraph-certificate/1", "method": method, "symbols": {"N": "integer", "T": "real"},
            "domain": ["N >= 2", "T >= 1"], "A": {"family": "pairwise", "sides": "two-sided"},
            "B": {"family": "pairwise", "sides": "two-sided"}, "upper": upper, "tight": False}


def test_a_registered_lemma_is_all_a_new_method_needs(monkeypatch):
    """A method the checker did not know is rejected; registered (one lemma: structure and obligations), its
    certificates are re-checked through it, a false obligation rejected."""
    from implgraph.certify.obligation import Obligation, upper_is
    new = methods.Method("test-only-method", "test-only-lemma", "")
    cert = _bound_certificate(new.name)
    assert not check_certificate(cert, ns=range(2, 4)).ok          # no lemma: "known lemma for method" fails
    monkeypatch.setitem(methods.ALL, new.name, new)
    monkeypatch.setattr("implgraph.certify.lemmas.REGISTRY", dict(REGISTRY))

    def structure(cert, A, B, rd):
        return [("U = T", upper_is(cert, rd, rd.gens["T"], 1))]

    def obligations(cert, A, B, rd, data):      # U = T >= 1 on the domain (true); T - 2 >= 0 (false at T = 1)
        return [Obligation("T - 1 >= 0", rd.gens["T"] - 1)] + (
            [Obligation("T - 2 >= 0", rd.gens["T"] - 2)] if data.get("false") else [])

    from implgraph.certify.lemmas import lemma
    lemma(new, structure=structure, obligations=obligations)
    rep = check_certificate(cert, ns=range(2, 4))
    assert rep.ok, rep.failures()
    assert [w for w, _, _ in rep.steps] == ["U = T", "T - 1 >= 0"]
    forged = {**cert, "upper_certificate": {"false": True}}
    assert [w for w, _, _ in check_certificate(forged, ns=range(2, 4)).failures()] == ["T - 2 >= 0"]
    assert not check_certificate({**cert, "upper": "T - 1"}, ns=range(2, 4)).ok


def _string_constants(path):
    """The string constants of a module, docstrings left out."""
    tree = ast.parse(path.read_text())
    docs = {id(n.body[0].value) for n in ast.walk(tree)
            if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)) and n.body
            and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs]


@pytest.mark.parametrize("path", sorted(CERTIFY.rglob("*.py")), ids=lambda p: str(p.relative_to(CERTIFY)))
def test_no_method_name_is_written_in_the_checker(path):
    """Method names come from implgraph.core.methods only (the prover imports the same constants)."""
    bare = [f"{path.name}:{line}: {text!r}" for line, text in _string_constants(path) if text in methods.ALL]
    assert not bare, "a method's name written out: " + "; ".join(bare)


@pytest.mark.parametrize("path", sorted(CERTIFY.rglob("*.py")), ids=lambda p: str(p.relative_to(CERTIFY)))
def test_the_checker_has_small_files_and_functions(path):
    text = path.read_text()
    assert len(text.splitlines()) <= 400, f"{path.name}: {len(text.splitlines())} lines (at most 400)"
    long = [f"{n.name} ({n.end_lineno - n.lineno + 1} lines)" for n in ast.walk(ast.parse(text))
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.end_lineno - n.lineno + 1 > 60]
    assert not long, f"{path.name}: functions over 60 lines: {', '.join(long)}"


def _module_path(name):
    p = Path(implgraph.__file__).parent.parent.joinpath(*name.split("."))
    return next((q for q in (p.with_suffix(".py"), p / "__init__.py") if q.exists()), None)


def test_the_checkers_import_closure_excludes_the_prover():
    """Every import of implgraph.certify, at any depth (inside functions too), and of what it imports in turn."""
    from test_layers import imported_names
    todo = ["implgraph.certify." + ".".join(p.relative_to(CERTIFY).with_suffix("").parts)
            for p in CERTIFY.rglob("*.py")]
    seen, via = set(), {}
    while todo:
        module = todo.pop().removesuffix(".__init__")
        path = _module_path(module)
        if module in seen or path is None:
            continue
        seen.add(module)
        inside = module + ".__init__" if path.name == "__init__.py" else module
        for line, name in imported_names(path, inside):
            parts = name.split(".")
            for i in range(2, len(parts) + 1):
                if parts[0] == "implgraph":
                    via.setdefault(".".join(parts[:i]), f"{module}:{line}")
                    todo.append(".".join(parts[:i]))
    assert "implgraph.definitions" in seen and "implgraph.core.formula" in seen     # (the closure is read)
    bad = sorted(f"{m} (from {via[m]})" for m in seen if m.split(".")[1] in PROVER)
    assert not bad, "the checker imports the prover: " + "; ".join(bad)


def test_rechecking_loads_no_prover_module():
    """At run time too: re-checking certificates and a statement imports no module of the prover."""
    code = ("import json, sys; from implgraph.certify import check_certificate; "
            "from implgraph.certify.statement import check_statement; "
            f"cert = json.loads({__import__('json').dumps(__import__('json').dumps(RESEARCHER))}); "
            "assert check_certificate(cert).ok; "
            "claim = {'id': 't', 'kind': 'implies', 'from': {'definition': 'frequency-l-diversity'}, "
            "'to': {'definition': 'distinct-l-diversity'}, 'f': 'ceiling(l)'}; "
            "check_statement(claim, {'id': 't', 'verdict': 'proved', 'details': {}}, [cert]); "
            f"print(sorted(m for m in sys.modules if m.split('.')[:1] == ['implgraph'] and m.split('.')[1:2] "
            f"and m.split('.')[1] in {PROVER!r}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


def _statement(f, to=DISTINCT, cert=RESEARCHER):
    claim = {"id": "test/researcher", "kind": "implies", "from": {"definition": FREQ}, "to": {"definition": to},
             "f": f}
    row = {"id": "test/researcher", "verdict": "proved", "evidence": "proved (researcher lemma)", "details": {}}
    return check_statement(claim, row, [cert])


def test_a_researcher_lemma_certificate_states_its_chains_f():
    assert check_certificate(RESEARCHER).ok
    rep = _statement("ceiling(l)")
    assert rep.ok, rep.failures()
    assert any("L is at least as strong as the claimed f" in w for w, _, _ in rep.steps)
    assert _statement("ceiling(l) - 1").ok      # a weaker f: the chain's bound implies it


def test_a_researcher_lemma_certificate_states_no_stronger_f_and_no_other_pair():
    rep = _statement("l + 1")
    assert not rep.ok and any("at least as strong as the claimed f" in w for w, _, _ in rep.failures())
    assert not _statement("ceiling(l)", to="entropy-l-diversity").ok     # another B than the certificate's
    unreadable = {**RESEARCHER, "f": "__import__('os').getcwd()"}
    rep = _statement("ceiling(l)", cert=unreadable)
    assert not rep.ok and any("cannot read" in h for _, _, h in rep.failures())
