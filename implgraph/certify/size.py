"""The size bound of a certificate: a hostile certificate is refused before anything in it is read.

The checker's work grows with a certificate's size (a family's blocks are evaluated at every sampled point, an
expression is parsed and expanded, each obligation may ask a solver), so every dimension is bounded first, by one
walk over the JSON that stops as soon as a bound is passed:

- the whole certificate: at most :data:`MAX_NODES` JSON values and :data:`MAX_TEXT_TOTAL` characters of text,
  composite parts nested at most :data:`MAX_PART_DEPTH` deep;
- each list: at most :data:`MAX_BLOCKS` blocks of a tightness family, :data:`MAX_PARTS` parts,
  :data:`MAX_ITEMS` items of any other list (domain conditions, chain steps);
- each mapping: at most :data:`MAX_ITEMS` keys (symbols, the multipliers of one identity, the identities of a lemma);
- each text: at most :data:`MAX_TEXT` characters, and an expression nested at most :data:`MAX_DEPTH` deep.

- the obligations one lemma derives: at most :data:`MAX_OBLIGATIONS` (a ``Min`` of many components would give
  many);
- the time of the whole re-check: at most :data:`MAX_SECONDS` (configurable), past which the certificate is not
  accepted (:func:`implgraph.certify.within_budget`).

The bounds are far above what the prover writes (its largest certificate has fewer than 130 JSON values, 5,100
characters, 3 blocks, texts of fewer than 1,400 characters nested fewer than 20 deep, and 15 obligations). :func:`size_fault` says, in one line, the first
dimension that is too large; the checker then rejects the certificate with that line and reads nothing else.

Examples
--------
>>> size_fault({"tightness": {"blocks": [{"count": "1", "value": "1"}] * 100000}})
'100000 blocks in tightness.blocks (at most 64)'
>>> size_fault({"upper": "T"})
''
"""

from __future__ import annotations

import ast

__all__ = ["size_fault", "expression_depth", "MAX_NODES", "MAX_TEXT_TOTAL", "MAX_BLOCKS", "MAX_PARTS", "MAX_ITEMS",
           "MAX_TEXT", "MAX_DEPTH", "MAX_PART_DEPTH", "MAX_OBLIGATIONS", "MAX_SECONDS"]

MAX_NODES = 5_000
"""JSON values (mappings, lists, texts, numbers) in one certificate, its parts included."""
MAX_TEXT_TOTAL = 50_000
"""Characters of text in one certificate."""
MAX_BLOCKS = 64
"""Blocks of one tightness family (``blocks``, ``uniform_blocks``)."""
MAX_PARTS = 16
"""Parts of one composite certificate (``min``, ``chain``, a lemma's own parts)."""
MAX_PART_DEPTH = 4
"""Composite certificates nested in one another."""
MAX_ITEMS = 64
"""Items of any other list, keys of any mapping: domain conditions, chain steps, symbols, multipliers, identities."""
MAX_TEXT = 4_000
"""Characters of one text (an expression, a condition)."""
MAX_DEPTH = 60
"""Nesting depth of one expression (``((T + 1)*N)``: 3), so that no reader recurses without end."""
MAX_OBLIGATIONS = 64
"""Obligations one certificate's lemma derives (each may ask a solver)."""
MAX_SECONDS = 60.0
"""The time budget of one certificate's re-check (seconds; ``check_certificate(budget=...)``, ``verify
--recheck-budget``): the obligations' bound caps the solver queries, each limited in time, and this bounds their sum
with everything else. The slowest certificate of ``verify`` takes about 1 s."""

#: lists whose items are a family's blocks / a composite's parts
_BLOCK_KEYS = ("blocks", "uniform_blocks")
_PART_KEYS = ("parts",)


def expression_depth(text: str, limit: int = MAX_DEPTH) -> int:
    """The nesting depth of ``text`` read as a Python expression (0 when it is not one), counted without recursion;
    the count stops just past ``limit``."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return 0
    deepest, stack = 0, [(node, 1)]
    while stack:
        x, d = stack.pop()
        if d > deepest:
            deepest = d
            if deepest > limit:
                return deepest
        stack.extend((c, d + 1) for c in ast.iter_child_nodes(x))
    return deepest


def _where(path) -> str:
    return ".".join(str(p) for p in path if not isinstance(p, int)) or "the certificate"


def size_fault(cert) -> str:
    """The first dimension of ``cert`` beyond its bound (module notes), as one line; ``''`` when every one is
    within. Reads at most :data:`MAX_NODES` values."""
    nodes, chars = 0, 0
    stack = [(cert, (), 0)]
    texts = []
    while stack:
        x, path, parts_deep = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            return f"more than {MAX_NODES} JSON values (at most {MAX_NODES})"
        key = path[-1] if path else None
        if isinstance(x, dict):
            if len(x) > MAX_ITEMS:
                return f"{len(x)} keys in {_where(path)} (at most {MAX_ITEMS})"
            for k in x:
                chars += len(str(k))
                if len(str(k)) > MAX_TEXT:
                    return f"a key of {len(str(k))} characters in {_where(path)} (at most {MAX_TEXT})"
            stack.extend((v, path + (k,), parts_deep) for k, v in x.items())
        elif isinstance(x, (list, tuple)):
            limit, what = ((MAX_BLOCKS, "blocks") if key in _BLOCK_KEYS else (MAX_PARTS, "parts")
                           if key in _PART_KEYS else (MAX_ITEMS, "items"))
            if len(x) > limit:
                return f"{len(x)} {what} in {_where(path)} (at most {limit})"
            deeper = parts_deep + (key in _PART_KEYS)
            if deeper > MAX_PART_DEPTH:
                return f"parts nested {deeper} deep in {_where(path)} (at most {MAX_PART_DEPTH})"
            stack.extend((v, path + (i,), deeper) for i, v in enumerate(x))
        elif isinstance(x, str):
            if len(x) > MAX_TEXT:
                return f"a text of {len(x)} characters in {_where(path)} (at most {MAX_TEXT})"
            chars += len(x)
            if chars > MAX_TEXT_TOTAL:
                return f"more than {MAX_TEXT_TOTAL} characters of text (at most {MAX_TEXT_TOTAL})"
            texts.append((x, path))
    for text, path in texts:      # (bounded: at most MAX_TEXT_TOTAL characters in all)
        if any(c in text for c in "()+-*/<>="):
            depth = expression_depth(text)
            if depth > MAX_DEPTH:
                return f"an expression nested more than {MAX_DEPTH} deep in {_where(path)} (at most {MAX_DEPTH})"
    return ""
