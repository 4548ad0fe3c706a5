"""The checks a definition passes when it is registered (a built-in, a plugin, an entry point).

Its declarations must be readable: its name (the node grammar), level symbol and parameter names
(identifiers), kinds, words and ranges (each bound read by the formula reader in N), and its capabilities
(:mod:`implgraph.definitions.capabilities`: a tuple of them, each kind once, naming only its own parameters; an
attribute of the old form is refused naming the new one). Every refusal is one :class:`InputError` line.
"""

from __future__ import annotations

import keyword
import re

from implgraph.core.errors import InputError, printable
from implgraph.definitions._params import PARAM_KINDS, _bound
from implgraph.definitions.definition import Definition
from implgraph.definitions.scales import SCALES

__all__ = ["validate_plugin", "OLD_FORMS", "old_form_error"]

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DEFINITION_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")


def validate_plugin(inst):
    """Refuse a definition whose declarations cannot be read: its name (the node grammar), level symbol and
    parameter names (identifiers), kinds, words and ranges (each bound read by the formula reader in N)."""
    if not isinstance(inst, Definition):
        raise InputError(f"plugin {printable(repr(inst))[:80]} is not a Definition", fix="subclass implgraph.Definition")
    if not inst.name or not isinstance(inst.name, str):
        raise InputError(f"plugin {type(inst).__name__} has no name", fix="set `name = \"...\"`")
    if not _DEFINITION_NAME.fullmatch(inst.name):
        raise InputError(f"plugin {printable(repr(inst.name))[:80]}: a name is letters, digits, _ . and -",
                         fix="rename it, e.g. name = \"my-definition\"")
    if inst.scale not in SCALES:
        raise InputError(f"plugin {inst.name}: scale {printable(repr(inst.scale))}", fix="use " + ", ".join(SCALES))
    if inst.stronger not in ("smaller", "larger"):
        raise InputError(f"plugin {inst.name}: stronger {printable(repr(inst.stronger))}", fix="use smaller or larger")
    if not _is_identifier(inst.level_symbol) or inst.level_symbol == "N":
        raise InputError(f"plugin {inst.name}: level_symbol {printable(repr(inst.level_symbol))[:60]} is not a name",
                         fix="give a name such as t or eps (letters, digits and _; not N)")
    params, ranges, kinds, words = (getattr(inst, a) for a in ("params", "ranges", "param_kinds", "words"))
    if not all(isinstance(x, dict) for x in (params, ranges, kinds, words)):
        raise InputError(f"plugin {inst.name}: params, ranges, param_kinds and words must be dicts",
                         fix="declare e.g. params = {\"k\": \"a group size\"}, ranges = {\"k\": (1, \"N - 1\")}")
    bad = [p for p in params if not _is_identifier(p) or p == "N"]
    if bad:
        raise InputError(f"plugin {inst.name}: parameter name {printable(repr(bad[0]))[:60]} is not a name",
                         fix="name parameters with letters, digits and _ (not N)")
    undeclared = [p for p in list(ranges) + list(kinds) + list(words) if p not in params]
    if undeclared:
        raise InputError(f"plugin {inst.name}: {printable(repr(undeclared[0]))[:60]} is not one of its params",
                         fix="declare it in params, or remove it from ranges, param_kinds and words")
    for p, kind in kinds.items():
        if kind not in PARAM_KINDS:
            raise InputError(f"plugin {inst.name}: param_kinds[{p!r}] = {printable(repr(kind))[:60]}",
                             fix="use " + ", ".join(PARAM_KINDS))
    for p, bounds in ranges.items():
        if not (isinstance(bounds, (tuple, list)) and len(bounds) == 2):
            raise InputError(f"plugin {inst.name}: ranges[{p!r}] is not a pair (low, high)",
                             fix="declare e.g. ranges = {\"k\": (1, \"N - 1\")}")
        for b in bounds:
            try:
                _bound(b)
            except InputError as exc:
                raise InputError(f"plugin {inst.name}: ranges[{p!r}]: {exc.reason}",
                                 fix="write each bound as a number or a formula in N, e.g. \"N - 1\"") from None
    _validate_declares(inst)


def _validate_declares(inst) -> None:
    """Refuse old-style capability attributes (the new form is named) and declarations that are not capabilities,
    repeat a kind or name a parameter the definition does not have."""
    from implgraph.definitions.capabilities import Capability
    error = old_form_error(type(inst), Definition, inst.name)
    if error is not None:
        raise error
    declares = inst.declares
    if not isinstance(declares, (tuple, list)) or not all(isinstance(c, Capability) for c in declares):
        raise InputError(f"plugin {inst.name}: declares must be a tuple of capabilities",
                         fix="declare e.g. declares = (OnClasses(), MinClassSize(\"k\")) from "
                             "implgraph.definitions.capabilities")
    kinds = [type(c).__name__ for c in declares]
    twice = sorted({k for k in kinds if kinds.count(k) > 1})
    if twice:
        raise InputError(f"plugin {inst.name}: {twice[0]} is declared twice", fix="declare each capability once")
    for cap in declares:
        missing = [p for p in cap.params_named() if p not in inst.params]
        if missing:
            raise InputError(f"plugin {inst.name}: {type(cap).__name__} names {printable(repr(missing[0]))[:60]}, "
                             "not one of its params", fix="declare it in params, or name one of its params")


def _is_identifier(text) -> bool:
    return isinstance(text, str) and bool(_IDENTIFIER.fullmatch(text)) and not keyword.iskeyword(text)


#: the attributes and methods a definition declared before capabilities were typed -> the declaration now
OLD_FORMS = {
    "family": 'declares = (RatioLevel("class", "two-sided"),) (or OnClasses() for a level over classes)',
    "sides": 'declares = (RatioLevel("class", "one-sided"),)',
    "needs_classes": "declares = (OnClasses(),) (implied by every capability about classes)",
    "class_size_level": "declares = (ClassSizeLevel(),)",
    "min_class_param": 'declares = (MinClassSize("k"),)',
    "slack_compares": 'declares = (AdditiveSlack("removal", "delta"),)',
    "tail_ratio_param": 'declares = (TailRatio("l"),)',
    "finite_level_of": 'declares = (FiniteLevelOf("basic-beta-likeness", increase_cap="-log(p)"),)',
    "increase_cap": 'declares = (FiniteLevelOf("basic-beta-likeness", increase_cap="-log(p)"),)',
    "subset_size": 'declares = (RatioLevel("subset"), SubsetSize("N - k"))',
    "class_distance": 'declares = (ClassDistance("total-variation", where={"ground": "equal"}),)',
    "class_level_formula": "declares = (ClassLevel(lambda cls: 1 / cls.top),)",
}


def old_form_error(cls, stop, who: str | None = None) -> InputError | None:
    """The registration error of a definition class that sets one of :data:`OLD_FORMS` itself (in its class body
    or a base below ``stop``, the class that derives them), or None; ``who`` names it (default: the class name).

    >>> class Old(Definition):
    ...     min_class_param = "k"
    >>> error = old_form_error(Old, Definition)
    >>> error.reason
    'plugin Old: `min_class_param` is no longer read, capabilities are declared'
    >>> error.fix
    'declares = (MinClassSize("k"),) (from implgraph.definitions.capabilities)'
    """
    for klass in cls.__mro__:
        if klass is stop or klass is object:
            break
        for old, new in OLD_FORMS.items():
            if old in vars(klass):
                return InputError(f"plugin {who or cls.__name__}: `{old}` is no longer read, capabilities are declared",
                                  fix=f"{new} (from implgraph.definitions.capabilities)")
    return None
