"""A column's domain: its values in order (:func:`domain_order`), and the column as codes into it (:func:`encode`;
stored in the smallest unsigned type that holds them: :func:`code_dtype`)."""

from __future__ import annotations

import re
from decimal import Decimal

import numpy as np

from implgraph.core.errors import InputError

__all__ = ["encode", "domain_order", "code_dtype"]


def encode(column, domain=None):
    """``(codes, domain)``: a column of values as indices into its (sorted) domain."""
    values = [str(v) for v in column]
    if domain is None:
        domain = sorted(set(values))
    pos = {v: k for k, v in enumerate(domain)}
    try:
        codes = np.fromiter((pos[v] for v in values), dtype=np.int64, count=len(values))
    except KeyError as e:
        raise InputError(f"value {e.args[0]!r} is not in the domain", fix="add it to the domain") from None
    return codes, list(domain)


_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def domain_order(values, name: str = "S_j", order=None, need_order: bool = False) -> list:
    """The domain of a column in its order: ``order`` if given, else numbers by their value, else text order.

    Parameters
    ----------
    values : iterable of str
        The column.
    name : str
    order : list of str, optional
        The user's order: every value of the column once (values the column lacks are domain values of
        count 0).
    need_order : bool
        The order matters (the ordered ground distance): refuse a column of three or more values that are not all
        numbers when no ``order`` is given.

    Examples
    --------
    >>> domain_order(["10", "2", "1", "2"])
    ['1', '2', '10']
    >>> domain_order(["b", "a"])
    ['a', 'b']
    """
    seen = sorted(set(values))
    if order is not None:
        order = list(order)
        dup = next((v for k, v in enumerate(order) if v in order[:k]), None)
        if dup is not None:
            raise InputError(f"--order {name}: value {dup!r} is given twice", fix="give every value once")
        missing = [v for v in seen if v not in set(order)]
        if missing:
            raise InputError(f"--order {name} lacks the value {missing[0]!r} of the column"
                             + (f" and {len(missing) - 1} more" if len(missing) > 1 else ""),
                             fix=f"list every value of {name} in --order")
        return order
    if seen and all(_NUMBER.fullmatch(v) for v in seen):
        ranked = sorted(seen, key=Decimal)
        same = next(((a, b) for a, b in zip(ranked, ranked[1:]) if Decimal(a) == Decimal(b)), None)
        if same:
            raise InputError(f"{name}: the values {same[0]!r} and {same[1]!r} are the same number",
                             fix=f"write each number of {name} one way, or give its order with --order")
        return ranked
    if need_order and len(seen) > 2:
        odd = next(v for v in seen if not _NUMBER.fullmatch(v))
        raise InputError(f"{name}: the ordered ground distance needs the order of its values, which are not all "
                         f"numbers (e.g. {odd[:40]!r})", fix=f"give --order {name}=V1,V2,... (every value, in order)")
    return seen


def code_dtype(d: int):
    """The smallest unsigned integer type holding the value indices ``0..d-1``."""
    return np.uint8 if d <= 2 ** 8 else np.uint16 if d <= 2 ** 16 else np.uint32
