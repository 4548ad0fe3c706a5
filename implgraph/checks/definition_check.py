"""Tests of a (new) definition's declarations against its computed levels: ``implgraph check-definition NAME``.

:func:`check_definition` runs four checks, exactly (sympy and Fractions, no float decides anything), on random
tables (seeded) and on a few extreme ones:

``symbolic = concrete``
    the level of :meth:`~implgraph.definitions.base.Definition.symbolic` on each table equals the fast path's
    (``concrete`` or ``concrete_enclosed``), where the definition has both;
``within the declared range``
    every level is at least as strong as the declared weakest level (``weakest()``) and at most as strong as the most
    private table's (the scale's ``best_raw``), and a raw level is never below the scale's ``raw_min``;
``declared shape``
    the level does not depend on the order of the records; a definition declaring ``needs_classes`` is undefined on a
    table without classes; a definition declaring its level of one class (``class_level_formula``) has, on every
    table, the weakest of its classes' declared levels (each class's positive mean frequencies);
``weakest and strongest``
    a table whose records are all equal has the strongest level the scale declares (where it declares one); the
    declared weakest level is attained on a table of one-hot records (one class per record, or two classes), or
    approached: the levels of those tables move strictly towards it as N grows.

Each check is a :class:`Check`; a failing one carries the first table it failed on.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction

from implgraph.checks.definition_levels import Check, _concrete, _same, _symbolic, raw_level
from implgraph.core.errors import InputError

__all__ = ["check_definition", "Check", "DefinitionReport"]


@dataclass
class DefinitionReport:
    """Every check of :func:`check_definition`; ``ok`` when all pass."""

    name: str
    checks: list = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)


def _random_table(rng, classes=True):
    """Rows of exact probabilities (small integer weights, some zero) and class labels (or None)."""
    p, n = rng.randint(2, 4), rng.randint(2, 6)
    rows = []
    for _ in range(n):
        w = [rng.choice([0, 0, 1, 1, 2, 3, 5]) for _ in range(p)]
        if not any(w):
            w[rng.randrange(p)] = 1
        rows.append([Fraction(x, sum(w)) for x in w])
    labels = [f"E{rng.randint(1, 3)}" for _ in range(n)] if classes else None
    return rows, labels


def table_text(table) -> str:
    """A table as one line per record: ``class: p1, p2, ...``."""
    rows, labels = table
    return "; ".join(f"{labels[i] + ': ' if labels else ''}{', '.join(map(str, r))}" for i, r in enumerate(rows))


def _table(rows, labels):
    from implgraph.core.table import table_from_rows
    return table_from_rows(rows, classes=labels)


def _tables(d, params, count, seed):
    """``count`` random tables the parameters fit, with their raw levels ``[((rows, labels), raw)]`` (classes where
    the definition needs them; a table the parameters do not fit, e.g. a subset larger than it, is skipped)."""
    rng, out, tries = random.Random(seed), [], 0
    while len(out) < count and tries < 20 * count:
        tries += 1
        rows, labels = _random_table(rng, classes=d.needs_classes or rng.random() < 0.5)
        try:
            d.check_params(_table(rows, labels), params)
            raw = raw_level(d, rows, labels, params)
        except InputError:
            continue
        except (MemoryError, RecursionError, KeyboardInterrupt):
            raise
        except Exception as exc:        # the definition's own code failed on this table: a finding
            raise _Raised(f"computing the level raised {exc.__class__.__name__}: {str(exc)[:200]}",
                          (rows, labels)) from None
        out.append(((rows, labels), raw))
    return out


class _Raised(Exception):
    """The definition's code raised on a table (``args``: the message and the table)."""


def check_definition(name, params=None, tables: int = 30, seed: int = 0) -> DefinitionReport:
    """Run the four checks on the registered definition ``name`` (see the module notes).

    Parameters
    ----------
    name : str
        A registered definition (built-in, entry point, or registered in this process).
    params : dict, optional
        Its parameters (``{"k": 2}``); every declared parameter must be given.
    tables : int
        How many random tables (2..6 records, 2..4 buckets, up to 3 classes).
    seed : int
        The random tables' seed.

    Raises
    ------
    InputError
        An unknown definition or missing parameters (one line).
    """
    from implgraph import definitions
    from implgraph.checks.definition_shape import extremes_check, range_check, shape_check
    d = definitions.get(name)
    params = dict(params or {})
    missing = set(d.params) - set(params)
    if missing:
        raise InputError(f"{d.name} needs parameter(s) {', '.join(sorted(missing))}",
                         fix="give e.g. --param " + f"{sorted(missing)[0]}=2")
    try:
        sample = _tables(d, params, tables, seed)
    except _Raised as exc:
        return DefinitionReport(d.name, [Check("levels computable", False, *exc.args)])
    if not sample:      # no table of 2..6 records fits the parameters: say why, on the largest
        d.check_params(_table([[Fraction(1, 2)] * 2] * 6, ["E1"] * 6), params)
        raise InputError(f"{d.name}: no random table fits the parameters {params}", fix="give other --param values")
    report = DefinitionReport(d.name, [Check("levels computable", True, f"on {len(sample)} random tables")])
    for name, run in (("symbolic level = concrete level", lambda: _symbolic_check(d, params, [t for t, _ in sample])),
                      ("levels within the declared range", lambda: range_check(d, sample)),
                      ("declared shape agrees with the computed levels", lambda: shape_check(d, params, sample)),
                      ("weakest and strongest levels as declared", lambda: extremes_check(d, params, sample))):
        try:
            report.checks.append(run())
        except (MemoryError, RecursionError, KeyboardInterrupt):
            raise
        except Exception as exc:        # the definition's code failed on a table this check built: a finding
            report.checks.append(Check(name, False, f"raised {exc.__class__.__name__}: {str(exc)[:200]}"))
    return report


def _symbolic_check(d, params, sample) -> Check:
    name = "symbolic level = concrete level"
    from implgraph.definitions.levels import has_fast_path
    if not has_fast_path(d):
        return Check(name, True, "no fast path declared: only the symbolic level (nothing to compare)")
    compared = 0
    for rows, labels in sample:
        try:
            sym = _symbolic(d, rows, labels, params)
        except NotImplementedError:
            return Check(name, True, "no symbolic level declared: only the fast path (nothing to compare)")
        conc = _concrete(d, rows, labels, params)
        if not _same(sym, conc):
            return Check(name, False, f"symbolic {sym} != concrete {conc}", (rows, labels))
        compared += 1
    return Check(name, True, f"equal on {compared} random tables (exact)")
