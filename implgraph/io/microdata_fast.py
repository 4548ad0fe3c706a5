"""``implgraph levels DATA`` without sympy, when every level it computes is a count or a ratio of counts.

:func:`plan` reads ``--require`` and ``--definitions`` against the definitions' cards
(:mod:`implgraph.io.level_cards`) and says whether every selected definition has a recipe; :func:`column_results`
computes the levels and the requirements' outcomes on the counted tables, in the form
:func:`implgraph.commands.levels.column_results` gives them, or None when a column needs the registry (e.g. the
ordered ground distance of a numeric sensitive column). Whatever this path does not take (``--definitions all``,
``--param``, ``--k``, ``--convention pycanon``, ``--report``, a requirement's value that is not a plain number, a
plugin, no quasi-identifiers), the registry's path answers, with the same output where both answer.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Plan", "plan", "column_results"]


@dataclass
class Plan:
    """The selected definitions' cards (in the registry's order) and the requirements on them."""

    cards: list
    requirements: list


def _resolve(deck, key: str):
    """The card named ``key``, or the one card whose level symbol is ``key``; None otherwise."""
    for card in deck:
        if card.name == key:
            return card
    having = [c for c in deck if c.level_symbol == key]
    return having[0] if len(having) == 1 else None


def _requirements(deck, text) -> list | None:
    """``--require`` read like :func:`implgraph.io.requirements.parse_requirements`, values as Fractions; None
    where that reader is needed (an error to report, a value that is not a plain number)."""
    from implgraph.io.count_levels import plain_number
    from implgraph.io.requirements import Requirement
    out, seen = [], set()
    for item in str(text).split(","):
        key, sep, value = item.partition("=")
        key, value = key.strip(), value.strip()
        card = _resolve(deck, key) if sep and key and value else None
        number = plain_number(value) if card is not None else None
        if number is None or card.name in seen:
            return None
        seen.add(card.name)
        out.append(Requirement(card, number, f"{card.level_symbol}={value}" if key == card.level_symbol
                               else f"{card.name}={value}"))
    return out


def plan(args) -> Plan | None:
    """The plan of ``levels DATA`` (``args``: its options) when every selected definition has a recipe, else None."""
    if getattr(args, "report", None) or getattr(args, "param", None) or getattr(args, "k", None) is not None \
            or getattr(args, "convention", None) not in (None, "definition") or not str(args.qi or "").strip():
        return None
    from implgraph.io.level_cards import cards
    deck = cards()
    if deck is None:
        return None
    requirements = _requirements(deck, args.require) if args.require is not None else []
    if requirements is None:
        return None
    names = {r.definition.name for r in requirements}
    text = getattr(args, "definitions", None)
    if text is not None:
        if str(text).strip() == "all":
            return None
        chosen = [_resolve(deck, item.strip()) for item in str(text).split(",")]
        if any(c is None for c in chosen) or len({c.name for c in chosen}) < len(chosen):
            return None
        names |= {c.name for c in chosen}
    selected = [c for c in deck if c.name in names]
    if not selected or any(c.recipe is None for c in selected):
        return None
    return Plan(selected, requirements)


def column_results(fast: Plan, tables, grounds, args) -> dict | None:
    """``{column: (table, levels, why infinite, requirement checks, {})}`` like
    :func:`implgraph.commands.levels.column_results`, or None when a level needs the registry."""
    from implgraph.io.count_levels import CountLevel, table_value
    from implgraph.io.requirements import check_requirement
    results = {}
    for col, ct in tables.items():
        levels = {}
        for card in fast.cards:
            params = {"ground": args.ground or grounds[col]} if "ground" in card.params else {}
            recipe = card.recipe_at(params)
            value = table_value(recipe, ct, card.stronger, card.offset, card.log) if recipe is not None else None
            if value is None:
                return None
            levels[card.name] = CountLevel(card, dict(card.where), value, recipe)
        checks = [check_requirement(req, levels[req.definition.name], ct) for req in fast.requirements]
        results[col] = (ct, levels, {name: "" for name in levels}, checks, {})
    return results
