"""The options of ``implgraph anonymize``, read and checked before any data is read.

Each column of the data is named once (:func:`_columns`); ``--l`` and ``--t`` are read exactly, one value or one
per ``--qid`` column (:func:`_levels`); the outputs are none of them the input or another output
(:func:`_targets`).
"""

from __future__ import annotations

import contextlib
import os
from fractions import Fraction
from pathlib import Path

import sympy

from implgraph.core.errors import InputError
from implgraph.core.formula import parse_expr
from implgraph.io.output import check_output_path


def _check_numbers(args) -> None:
    """Refuse an ``--eta-max`` below 1, a ``--seed`` outside ``0 .. 2^128 - 1``, and neither ``--l`` nor ``--t``."""
    if args.eta_max is not None and args.eta_max < 1:
        raise InputError(f"--eta-max {args.eta_max} is out of range", fix="give --eta-max >= 1")
    if args.seed is not None and args.seed < 0:
        raise InputError(f"--seed {args.seed} is negative", fix="give 0 <= --seed < 2^128, or leave it out")
    if args.seed is not None and not 0 <= args.seed < 2 ** 128:
        raise InputError(f"--seed {args.seed} is out of range", fix="give 0 <= --seed < 2^128, or leave it out")
    if args.l is None and args.t is None:
        raise InputError("give --l, --t or both", fix="e.g. --l 2 (diversity) or --t 1/10 (closeness)")


def _requested(args, qids, kept, class_csvs) -> tuple:
    """``(orders, levels_l, levels_t)``: the ``--order`` of each --qid column, and the ``--l`` and ``--t`` asked for
    each (``levels_t`` None without ``--t``); every ``--class-csv`` column must be published."""
    for col, _ in class_csvs:
        if col not in qids and col not in kept:
            raise InputError(f"--class-csv names {col!r}, which is not published (--qid or --keep)",
                             fix="give the classes of a --qid or --keep column")
    orders = _orders(args.order, qids)
    if orders and not (args.ground == "ordered" and args.t is not None):
        raise InputError("--order is used only by the ordered ground distance of --t",
                         fix="add --t and --ground ordered, or leave --order out")
    levels_l = _levels(args.l, qids, "--l", _l_value) if args.l is not None else {}
    levels_t = _levels(args.t, qids, "--t", _t_value) if args.t is not None else None
    return orders, levels_l, levels_t


def _names(text: str, option: str) -> list:
    names = [q.strip() for q in text.split(",") if q.strip()]
    if len(set(names)) != len(names):
        raise InputError(f"{option} {text[:60]!r} names a column twice", fix="give distinct column names")
    return names


def _t_value(text: str):
    try:
        value = parse_expr(text, {})
    except InputError as exc:
        raise InputError(f"--t value {text[:40]!r}: {exc.reason}", fix=exc.fix or "give e.g. --t 1/10") from None
    if not isinstance(value, sympy.Rational):
        raise InputError(f"--t value {text[:40]!r} is not a rational number",
                         fix="give e.g. --t 1/10; a column published as it is goes in --keep")
    if value < 0:
        raise InputError(f"--t {text[:40]} is negative", fix="give t >= 0")
    return Fraction(int(value.p), int(value.q))


def _l_value(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise InputError(f"--l value {text[:40]!r} is not a number", fix="give e.g. --l 2") from None
    if value < 1:
        raise InputError(f"--l {value} is below 1", fix="give an integer l >= 1")
    return value


def _levels(text: str, qids: list, option: str, parse) -> dict:
    parts = [x.strip() for x in text.split(",")]
    if len(parts) == 1:
        parts = parts * len(qids)
    if len(parts) != len(qids):
        raise InputError(f"{option} has {len(parts)} values for {len(qids)} --qid columns",
                         fix="give one value, or one per --qid column")
    return {q: parse(x) for q, x in zip(qids, parts)}


def _orders(items, qids) -> dict:
    out = {}
    for item in items:
        col, sep, values = item.partition("=")
        col = col.strip()
        order = [v.strip() for v in values.split(",")]
        if not sep or not col or not values.strip() or any(not v for v in order):
            raise InputError(f"--order {item[:60]!r} is not COL=V1,V2,...", fix="give e.g. --order age=10,20,30")
        if col not in qids:
            raise InputError(f"--order names {col!r}, which is not a --qid column", fix="order --qid columns only")
        if col in out:
            raise InputError(f"--order gives {col!r} twice", fix="give one order per column")
        out[col] = order
    return out


def _same_file(a, b) -> bool:
    a, b = Path(a), Path(b)
    with contextlib.suppress(OSError):
        if a.exists() and b.exists():
            return os.path.samefile(a, b)
    return a.resolve() == b.resolve()


def _targets(args) -> tuple:
    """``--out`` and the ``--class-csv`` targets, none of them the input or another output."""
    out = check_output_path(args.out)
    csvs = []
    for item in args.class_csv:
        col, sep, target = item.partition("=")
        if not sep or not col.strip() or not target.strip():
            raise InputError(f"--class-csv {item!r} is not COL=FILE", fix="give e.g. --class-csv disease=classes.csv")
        csvs.append((col.strip(), check_output_path(target.strip(), "--class-csv")))
    named = [("--out", out)] + [("--class-csv", t) for _, t in csvs]
    for k, (option, path) in enumerate(named):
        if _same_file(path, args.file):
            raise InputError(f"{option} {path} is the input file", fix="write the release to another file")
        for other_option, other in named[:k]:
            if _same_file(path, other):
                raise InputError(f"{option} {path} is also {other_option}", fix="give every output its own file")
    return out, csvs


def _columns(args, header: list) -> tuple:
    """``(qids, kept)``: every column of the data is named once by --qid, --keep or --drop."""
    qids = _names(args.qid, "--qid")
    if not qids:
        raise InputError(f"--qid {args.qid!r} names no column", fix="give the sensitive QID columns")
    keep, drop = _names(args.keep, "--keep"), _names(args.drop, "--drop")
    named = {}
    for option, cols in (("--qid", qids), ("--keep", keep), ("--drop", drop)):
        for c in cols:
            if c not in header:
                raise InputError(f"{option} names {c!r}, not a column (columns: {', '.join(header)})", file=args.file,
                                 line=1, fix=f"name columns of the CSV's header in {option}")
            if c in named:
                raise InputError(f"column {c!r} is named by {named[c]} and {option}",
                                 fix="name each column once: --qid, --keep or --drop")
            named[c] = option
    rest = [c for c in header if c not in named]
    if rest:
        shown = ", ".join(repr(c) for c in rest[:5]) + (f" and {len(rest) - 5} more" if len(rest) > 5 else "")
        raise InputError(f"the column(s) {shown} are named by none of --qid, --keep, --drop", file=args.file, line=1,
                         fix="name every column: --keep publishes it as it is (not protected), --drop leaves it out")
    return qids, [c for c in header if named.get(c) == "--keep"]
