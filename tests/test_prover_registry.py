"""The prover's arguments as registered handlers (implgraph.prover.registry, .search): the declared order reproduces
the old ordered if-chain, the search's three answers (a Bound, NO_BOUND, None), registration errors, no method or
definition name written as a string in the prover's code, the docs pages generated from the modules, and the house
rules (files < 400 lines, functions < 60) in implgraph/prover."""

from __future__ import annotations

import ast
import pathlib

import pytest
import sympy

from implgraph.core import methods
from implgraph.core.region import Region
from implgraph.prover import registry
from implgraph.prover.answer import NO_BOUND, Bound, T
from implgraph.prover.search import first_answer, tight_bound

ROOT = pathlib.Path(__file__).resolve().parents[1]
PROVER = ROOT / "implgraph" / "prover"
#: the engine files whose arguments moved to implgraph/prover (and the owner's other files)
ENGINE_FILES = [ROOT / "implgraph" / "engines" / f"{n}.py" for n in
                ("bounds", "certificates", "class_floor", "class_subset", "set_channel_certificates", "lemmas")]


def _strings(path):
    """The string constants of a module other than docstrings, with their lines."""
    tree = ast.parse(path.read_text())
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body
            and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs]


def test_no_bare_method_name_in_the_prover_or_its_certificates():
    names = set(methods.names())
    found = [f"{p.relative_to(ROOT)}:{line}: {s!r}" for p in [*PROVER.rglob("*.py"), *ENGINE_FILES]
             for line, s in _strings(p) if s in names]
    assert found == [], "write implgraph.core.methods.X.name (or .lemma), not the string:\n" + "\n".join(found)


def test_no_definition_name_in_the_prover():
    from implgraph import definitions
    names = set(definitions.names())
    assert "ldp" in names
    files = [*PROVER.rglob("*.py"), *ENGINE_FILES[:2]]
    found = [f"{p.relative_to(ROOT)}:{line}: {s!r}" for p in files for line, s in _strings(p) if s in names]
    assert found == [], "an argument declares the shapes it applies to, never a definition's name:\n" + "\n".join(found)


def test_the_declared_order_is_the_old_if_chain():
    # transcribed from engines/bounds.py tight_bound before the split (each branch in its place), and ceiling_bound;
    # the two arguments towards an additive slack on record removal after slack-target-pairs, the divergences' last;
    # same-level: one definition, the same raw level, and last B one side of A's two-sided ratio (an upper bound);
    # corners (a divergence between records, each record within [1/T, T] of the table) just before the chord
    # removal-cap first: B's strongest level from 1/delta records on, another argument's bound below (it asks them)
    assert [a.method for a in registry.arguments()] == [
        methods.REMOVAL_CAP, methods.CLASS_SIZE, methods.SAME_LEVEL, methods.SAME_LEVEL, methods.SAME_DISTANCE, methods.ONE_SIDED_CEILING,
        methods.FLOOR_LEVEL,        # share: a class floor, B a class level against the table (before its ceiling N/k)
        methods.ONE_SIDED_CEILING, methods.FINITE_LEVEL_OF, methods.SUBSET_MONOTONE, methods.SUBSET_TO_CLASSES,
        methods.ONE_SIDED_CLASS,
        methods.CLASS_DISTANCE, methods.ONE_SIDED_DISTANCE, methods.PAIRWISE_DISTANCE, methods.VERTEX, methods.PRODUCT,
        methods.SUBSET_TO_ONE_SIDED, methods.REMOVAL_DISTANCE, methods.SLACK_TARGET_PAIRS, methods.EXTREME_POINTS,
        methods.SLACK_TARGET_REMOVAL, methods.SLACK_PAIRS_TO_REMOVAL, methods.SLACK_PAIRS_TV, methods.SLACK_HOCKEY_STICK,
        methods.SLACK_PAIRWISE_DISTANCE,
        methods.SLACK_REMOVAL_DISTANCE, methods.CLASS_TO_SUBSET, methods.SUBSET_PAIRS, methods.ONE_SIDED_PAIRS,
        methods.ONE_SIDED_REMOVAL, methods.CORNERS,
        methods.SUBSET_CORNERS,
        methods.FLOOR_LEVEL,        # read off a class floor above the weakest level and the level it is there
        methods.WEAKEST_FAMILY,     # B's weakest level attained by a family, before the chord (which ends the search)
        methods.TOP_CAP,            # a cap on the top frequency, B a class level of the distribution
        methods.SKEW_FAMILY,        # B's weakest level approached by skewed classes
        methods.CHORD,
        methods.ZCDP_CHORD,         # B the zero-concentrated level between records, A pairwise (the chord's None)
        methods.SUBSET_CHORD, methods.REMOVAL_SCALING, methods.CHI_SQUARE_TV,
        methods.DIVERGENCE_ORDER,
        methods.CEILING_CHORD, methods.CEILING_FAMILY, methods.DIVERGENCE_CEILING, methods.DIVERGENCE_CEILING,
        methods.DIVERGENCE_CEILING, methods.DIVERGENCE_CEILING, methods.BINARY_PROGRAM, methods.TV_DISTANCE,
        methods.SAME_LEVEL]
    # (the one-sided ceiling: a class TV escapes, A's class size above its weakest level; the chord under a class TV;
    # the ceiling's family; s = T, s = A's declared minimum class size, s = A's above its weakest level, s = B's)
    assert [a.method for a in registry.arguments("ceiling")] == [methods.DISTANCE_CEILING, methods.ONE_SIDED_CEILING]


def _fake(order, answer, applies=True, log=None):
    def bound(ctx):
        if log is not None:
            log.append(order)
        return answer
    bound.__name__ = f"fake_{order}"
    return registry.Argument(methods.VERTEX, order, lambda ctx: applies, bound, "direct", "tests")


def test_the_search_takes_the_first_definite_answer(monkeypatch):
    won = Bound(T, True, methods.VERTEX.name, "by hand")
    log = []
    monkeypatch.setattr(registry, "_ARGUMENTS", [_fake(3, won, log=log), _fake(1, None, log=log),
                                                 _fake(2, Bound(T, False, "x", "no"), applies=False, log=log)])
    assert first_answer(object()) is won
    assert log == [1, 3]        # in order; a shape that does not apply is not asked


def test_no_bound_ends_the_search(monkeypatch):
    log = []
    monkeypatch.setattr(registry, "_ARGUMENTS", [_fake(1, NO_BOUND, log=log), _fake(2, Bound(T, True, "x", "y"),
                                                                                      log=log)])
    assert first_answer(object()) is None and log == [1]


def test_a_new_argument_is_one_registration(monkeypatch):
    # registered before every built-in one, it answers A => B for two pairwise definitions (the vertex's case)
    monkeypatch.setattr(registry, "_ARGUMENTS", list(registry.arguments()))
    mine = Bound(T + 1, False, methods.VERTEX.name, "a looser bound, by hand")
    registry.argument(methods.VERTEX, order=1, applies=lambda ctx: ctx.jb is not None)(lambda ctx: mine)
    N = sympy.Symbol("N", integer=True)
    region = Region({N: "integer", T: "real"}, (T >= 1, N >= 2))
    assert tight_bound("ldp", "dp", {}, {}, region, N) is mine
    monkeypatch.undo()
    built_in = tight_bound("ldp", "dp", {}, {}, region, N)     # the vertex: ((N - j) T + j)/N with j = N - 1
    assert built_in.method == methods.VERTEX.name and sympy.simplify(built_in.upper - (T + N - 1) / N) == 0


def test_registration_errors(monkeypatch):
    monkeypatch.setattr(registry, "_ARGUMENTS", list(registry.arguments()))
    with pytest.raises(ValueError, match="order 130 is vertex's"):
        registry.argument(methods.PRODUCT, order=130, applies=lambda ctx: True)(lambda ctx: None)
    with pytest.raises(ValueError, match="stage"):
        registry.argument(methods.PRODUCT, order=7, applies=lambda ctx: True, stage="later")
    with pytest.raises(TypeError, match="core.methods"):
        registry.argument("product", order=7, applies=lambda ctx: True)


def test_every_handler_has_its_certificate_parts():
    from implgraph.engines.certificates import METHODS
    for arg in registry.arguments() + registry.arguments("ceiling"):
        assert registry.parts_of(arg.method.name) is not None, arg.method.name
    # the methods the certificate builder knew before the split, each with its parts now in its argument's module
    assert set(METHODS) == {
        "same-level", "subset-monotone", "subset-to-classes", "finite-level-of", "subset-supremum", "product",
        "class-to-subset", "one-sided-class", "class-distance", "one-sided-distance", "same-distance",
        "pairwise-distance", "removal-distance", "removal-distance-pair", "slack-pairwise-distance",
        "slack-target-pairs", "slack-removal-distance", "slack-removal-distance-pair", "subset-distance",
        "subset-to-one-sided", "one-sided-ceiling", "distance-ceiling", "class-size", "vertex",
        # added after the split, one module each
        "slack-target-removal", "slack-pairs-to-removal", "chord", "divergence-order", "divergence-ceiling",
        "extreme-points", "binary-program", "tv-distance", "ceiling-chord", "removal-scaling", "corners",
        "subset-chord", "subset-pairs", "slack-pairs-tv", "slack-hockey-stick",
        "subset-corners", "one-sided-pairs", "one-sided-removal", "chi-square-tv", "zcdp-chord"}


def test_the_docs_pages_are_the_generated_ones():
    from implgraph.prover.docs import pages
    folder = ROOT / "docs" / "arguments"
    expected = pages()
    assert sorted(p.name for p in folder.glob("*.md")) == sorted(expected)
    stale = [name for name, text in expected.items() if (folder / name).read_text() != text]
    assert stale == [], "run: python -m implgraph.prover.docs docs"
    nav = (ROOT / "mkdocs.yml").read_text()
    assert all(f"arguments/{name}" in nav for name in expected)


def test_house_rules_in_the_prover():
    too_long = []
    for p in PROVER.rglob("*.py"):
        src = p.read_text()
        if src.count("\n") >= 400:
            too_long.append(f"{p.name}: {src.count(chr(10))} lines")
        for node in ast.walk(ast.parse(src)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno - node.lineno + 1 >= 60:
                too_long.append(f"{p.name}: {node.name} {node.end_lineno - node.lineno + 1} lines")
    assert too_long == []


@pytest.mark.parametrize("name", ["implgraph.prover.registry", "implgraph.prover.answer", "implgraph.prover.search"])
def test_doctests(name):
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0
