"""Capabilities are typed declarations (implgraph.definitions.capabilities), never getattr flags.

The declarations of the built-ins are written here from the papers (what each level is), not read off the code;
a plugin written against the old attributes is refused with one line naming the new form, a definition no longer has
them; and no file of the package reads a definition's capability with ``getattr`` (the grep below).
"""

import re
from pathlib import Path

import pytest
import sympy

from implgraph.core.errors import InputError
from implgraph.definitions import REGISTRY, get, with_capability
from implgraph.definitions.base import Definition, register
from implgraph.definitions.capabilities import (AdditiveSlack, ClassDistance, ClassLevel, ClassSizeLevel, FiniteLevelOf,
                                                MinClassSize, MinClassSizeAboveWeakest, OnClasses, RatioLevel,
                                                SubsetSize, TailRatio, family_of)
from implgraph.definitions.families import RatioOfAverages
from implgraph.definitions.validation import OLD_FORMS

ROOT = Path(__file__).resolve().parents[1] / "implgraph"

#: the old flag names an engine file may not read with getattr on a definition
FLAGS = ("family", "sides", "class_size_level", "min_class_param", "slack_compares", "tail_ratio_param",
         "finite_level_of", "increase_cap", "needs_classes", "class_level_formula", "subset_size", "class_distance")

#: files allowed to read old flags with getattr: none (the prover and the checker read the declarations)
ALLOWED: set = set()

_GETATTR = re.compile(r"getattr\(\s*[^,()]*(?:\([^()]*\))?\s*,\s*[\"'](" + "|".join(FLAGS) + r")[\"']")


def test_no_getattr_reads_of_capabilities_outside_the_listed_files():
    found = {}
    for path in ROOT.rglob("*.py"):
        rel = path.relative_to(ROOT).as_posix()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if _GETATTR.search(line):
                found.setdefault(rel, []).append(n)
    extra = {f: lines for f, lines in found.items() if f not in ALLOWED}
    assert not extra, f"read a capability with d.declared(Kind) / d.has(Kind), not getattr: {extra}"


def test_the_grep_sees_the_forms_it_forbids():
    for text in ('getattr(d, "family", None)', "getattr(type(d), 'class_level_formula', None)",
                 'getattr(side.definition, "needs_classes", False)'):
        assert _GETATTR.search(text), text
    assert not _GETATTR.search('getattr(claim, "file", None)')


# -- the built-ins' declarations, from the papers ---------------------------------------------------------------------

N = sympy.Symbol("N", integer=True)
k = sympy.Symbol("k", integer=True)

BY_HAND = {
    "ldp": {RatioLevel: RatioLevel("pairwise", "two-sided")},                  # record i against record j
    "dp": {RatioLevel: RatioLevel("subset", "two-sided")},                     # the table without one record
    "kdp": {RatioLevel: RatioLevel("subset", "two-sided")},                    # the table without k records
    "kt-closeness": {RatioLevel: RatioLevel("subset", "two-sided")},           # every k records
    "mult-t-closeness": {RatioLevel: RatioLevel("class", "two-sided")},
    "delta-disclosure-privacy": {RatioLevel: RatioLevel("class", "two-sided")},
    "basic-beta-likeness": {RatioLevel: RatioLevel("class", "one-sided")},     # only a class above the table
    "k-anonymity": {ClassSizeLevel: ClassSizeLevel()},
    "alpha-k-anonymity": {MinClassSize: MinClassSize("k")},
    # a class of fewer than k records gives p = 0, the weakest level, not an infinite one (Truta and Vinay)
    # and on classes of >= k records it is the fewest distinct values in a class: distinct l-diversity's level
    "p-sensitive-k-anonymity": {MinClassSizeAboveWeakest: MinClassSizeAboveWeakest("k", "distinct-l-diversity")},
    "eps-delta-dp": {AdditiveSlack: AdditiveSlack("removal", "delta")},
    "eps-delta-ldp": {AdditiveSlack: AdditiveSlack("pairs", "delta")},
    "recursive-cl-diversity": {TailRatio: TailRatio("l")},
    "enhanced-beta-likeness": {FiniteLevelOf: FiniteLevelOf("basic-beta-likeness", "-log(p)")},
    "emd-t-closeness": {ClassDistance: ClassDistance("total-variation", where={"ground": "equal"})},
    "hierarchical-emd-t-closeness": {ClassDistance: ClassDistance("total-variation", where={"ground": "equal"})},
}


@pytest.mark.parametrize("name", sorted(BY_HAND))
def test_builtin_declarations(name):
    d = get(name)
    for kind, want in BY_HAND[name].items():
        assert d.declared(kind) == want and d.has(kind)
    for kind in (RatioLevel, ClassSizeLevel, MinClassSize, AdditiveSlack, TailRatio, FiniteLevelOf, ClassDistance):
        if kind not in BY_HAND[name]:
            assert d.declared(kind) is None and not d.has(kind)


@pytest.mark.parametrize("name,size", [("dp", N - 1), ("kdp", N - k), ("kt-closeness", k)])
def test_subset_sizes(name, size):
    """(eps)-DP removes one record, (k,eps)-DP k records (N - k remain), (k,t)-closeness compares k records."""
    assert get(name).declared(SubsetSize).size(N, {"k": k}) == size


def test_classes_come_from_the_capabilities():
    """A level over classes: every capability about classes says so; the DP family and the slack levels do not."""
    on_classes = {d.name for d in with_capability(OnClasses)} | {
        d.name for d in with_capability(RatioLevel) if d.declared(RatioLevel).family == "class"}
    for name in ("k-anonymity", "alpha-k-anonymity", "recursive-cl-diversity", "emd-t-closeness",
                 "frequency-l-diversity", "entropy-l-diversity", "distinct-l-diversity", "mult-t-closeness"):
        assert get(name).needs_classes and family_of(get(name)) == "class"
    for name in ("ldp", "dp", "kdp", "kt-closeness", "eps-delta-dp", "eps-delta-ldp"):
        assert not get(name).needs_classes and name not in on_classes
    assert family_of(get("eps-delta-dp")) is None and family_of(get("kdp")) == "subset"


def test_class_level_formulas():
    """The l-diversities' class levels (sei2019 Definitions 2-3, Machanavajjhala et al. 4.1) at a class (1/2, 1/4, 1/4):
    frequency 1 / max q = 2, distinct 3 values, entropy exp(H) = 2^(3/2)."""
    from implgraph.definitions._classes import GenericClass
    cls = GenericClass()
    q = [sympy.Rational(1, 2), sympy.Rational(1, 4), sympy.Rational(1, 4)]
    at = {n: cls.evaluate(get(n).declared(ClassLevel).formula(cls), q)
          for n in ("frequency-l-diversity", "distinct-l-diversity", "entropy-l-diversity")}
    assert at["frequency-l-diversity"] == 2 and at["distinct-l-diversity"] == 3
    assert sympy.simplify(at["entropy-l-diversity"] - 2 ** sympy.Rational(3, 2)) == 0


def test_class_distance_reads_the_ground_word():
    """EMD t-closeness is the total variation distance under the ground distance ``equal`` (its default word)."""
    emd = get("emd-t-closeness")
    distance = emd.declared(ClassDistance)
    assert distance.at({"ground": "equal"}, emd.words) == "total-variation"
    assert distance.at({}, emd.words) == "total-variation"
    assert distance.at({"ground": "ordered"}, emd.words) is None


@pytest.mark.parametrize("old", sorted(set(OLD_FORMS) - {"needs_classes"}))
def test_a_definition_no_longer_has_the_old_names(old):
    """The old attribute names are gone (nothing derives them any more): a reader left behind fails loudly.
    (``needs_classes`` stays, derived from the declarations.)"""
    from implgraph.definitions import all_definitions
    for d in all_definitions():
        assert not hasattr(d, old), (d.name, old)


# -- plugins -----------------------------------------------------------------------------------------------------

def _plain(**body):
    return type("OldStyle", (Definition,), {"name": "old-style-test", "level_symbol": "t", **body})


@pytest.mark.parametrize("old", sorted(OLD_FORMS))
def test_an_old_attribute_is_one_clear_registration_error(old):
    cls = _plain(**{old: "k" if not old.startswith(("subset", "class_d", "class_l")) else (lambda self, *a, **k: None)},
                 params={"k": "a size"})
    with pytest.raises(InputError) as err:
        register(cls)
    text = str(err.value)
    assert f"`{old}` is no longer read" in text and "declares = (" in text and "\n" not in text
    assert "old-style-test" not in REGISTRY


def test_an_old_attribute_on_a_ratio_of_averages_is_refused_where_it_is_written():
    with pytest.raises(InputError, match=r"`sides` is no longer read.*RatioLevel"):
        class Old(RatioOfAverages):
            name = "old-ratio-test"
            sides = "one-sided"


def test_a_subset_ratio_declares_its_size():
    with pytest.raises(InputError, match="SubsetSize"):
        class NoSize(RatioOfAverages):
            name = "no-size-test"
            declares = (RatioLevel("subset"),)


@pytest.mark.parametrize("declares,match", [
    ((ClassSizeLevel(), ClassSizeLevel()), "declared twice"),
    (("family",), "tuple of capabilities"),
    ((MinClassSize("m"),), "'m', not one of its params"),
    ((SubsetSize("N - j"),), "'j', not one of its params"),
])
def test_bad_declarations(declares, match):
    with pytest.raises(InputError, match=match):
        register(_plain(declares=declares, params={"k": "a size"}))


@pytest.mark.parametrize("text", ["__import__('os').system('true')", "N.__class__", "lambda: 1", "N -"])
def test_a_subset_size_is_read_never_run(text):
    with pytest.raises(InputError):
        SubsetSize(text)


@pytest.mark.parametrize("build,match", [
    (lambda: RatioLevel("pairwise", "one-sided"), "no sides"),
    (lambda: RatioLevel("class", "upper"), "sides"),
    (lambda: AdditiveSlack("everything"), "compares"),
    (lambda: ClassDistance("hellinger"), "kind"),
    (lambda: FiniteLevelOf("basic-beta-likeness", "log(p)"), "increase_cap"),
    (lambda: MinClassSize("not a name"), "not a name"),
    (lambda: ClassLevel("1/top"), "not a function"),
])
def test_capabilities_check_their_values(build, match):
    with pytest.raises(InputError, match=match):
        build()


def test_a_plugin_in_the_new_form_registers():
    class Fresh(Definition):
        name = "fresh-capability-test"
        level_symbol = "k"
        scale = "count"
        stronger = "larger"
        params = {"m": "a minimum class size"}
        declares = (MinClassSize("m"), ClassLevel(lambda cls: cls.k))
    try:
        register(Fresh)
        d = get("fresh-capability-test")
        assert d.needs_classes and d.declared(MinClassSize).param == "m"
        assert "fresh-capability-test" in [x.name for x in with_capability(MinClassSize)]
    finally:
        REGISTRY.pop("fresh-capability-test", None)
