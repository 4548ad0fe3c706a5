"""A data set anonymized by sei2019's algorithm (Section V-B), in the aggregated expression.

A :class:`Release` holds, for every attribute ``S_j``, its domain, its parameters ``(p_j, eta_j)`` and a
boolean membership matrix ``member[j]`` of shape ``(N, d_j)``: ``member[j][i, m]`` says whether value
``m`` is in ``R_ij``. :func:`anonymize` samples it (numpy; one pass per attribute: each record draws
uniform keys for the ``d_j`` values, the true value's key is forced to the front when the coin is head,
and the ``eta_j`` smallest keys form ``R_ij``, a uniform subset of the right kind).

The file format (``implgraph anonymize --out``) is JSON::

    {"format": "implgraph-randomized-anonymization/1", "N": ..., "source": ...,
     "attributes": [{"name": ..., "domain": [...], "p": "1/2", "eta": 2}, ...],
     "records": [[[indices of R_i1], [indices of R_i2], ...], ...]}
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path

import numpy as np
import sympy

from implgraph.core.errors import InputError
from implgraph.io.tablefile import MAX_CSV_BYTES, csv_header, csv_records
from implgraph.io.datafile import read_text
from implgraph.io.output import atomic_write
from implgraph.mechanisms.randomized_anonymization.channel import check_parameters

__all__ = ["Release", "anonymize", "encode", "domain_order", "read_columns", "FORMAT"]

FORMAT = "implgraph-randomized-anonymization/1"

SAMPLE_LIMIT = 25_000_000
"""Most cells ``N d_j`` of one attribute's sets (a boolean matrix, and one random key per cell while sampling)."""

MAX_RELEASE_BYTES = 2 ** 30
"""Largest release file :meth:`Release.load` reads."""

_RATIONAL = re.compile(r"\d{1,1000}(/\d{1,1000})?")


@dataclass
class Release:
    """An anonymized database ``T*`` in the aggregated expression.

    Parameters
    ----------
    names : list of str
        Attribute names ``S_1..S_q``.
    domains : list of list
        ``D(S_j)`` (values as strings).
    params : list of tuple
        ``(p_j, eta_j)``, exact (sympy number, int).
    member : list of numpy.ndarray
        ``member[j]``: bool array ``(N, d_j)``.
    source : str
    """

    names: list
    domains: list
    params: list
    member: list
    source: str = ""
    meta: dict = field(default_factory=dict)

    @property
    def N(self) -> int:
        return int(self.member[0].shape[0]) if self.member else 0

    def index(self, name: str) -> int:
        if name not in self.names:
            raise InputError(f"no attribute {name!r} in the release (it has {', '.join(self.names)})",
                             file=self.source or None, fix="name one of the release's attributes")
        return self.names.index(name)

    def sets(self, i: int) -> list:
        """Record ``i`` as a list of tuples of value indices (one per attribute)."""
        return [tuple(np.flatnonzero(m[i]).tolist()) for m in self.member]

    def save(self, path) -> None:
        """Write the release to ``path`` at once (a temporary file in the same folder, then renamed)."""
        atomic_write(path, self.dumps())

    def dumps(self) -> str:
        """The release in the JSON file format (one line)."""
        attrs = [{"name": n, "domain": list(dom), "p": str(p), "eta": int(eta)}
                 for n, dom, (p, eta) in zip(self.names, self.domains, self.params)]
        cols = [[np.flatnonzero(row).tolist() for row in m] for m in self.member]
        records = [list(r) for r in zip(*cols)] if cols else []
        doc = {"format": FORMAT, "N": self.N, "source": self.source, "attributes": attrs,
               "records": records, **({"meta": self.meta} if self.meta else {})}
        return json.dumps(doc, separators=(",", ":")) + "\n"

    @classmethod
    def load(cls, path) -> "Release":
        """Read a release written by :meth:`save`, checked: one line ``FILE:1: what; fix: how`` (InputError) for a
        file that is not one (missing fields, a parameter out of range, a set of the wrong size or outside its
        domain, more than :data:`SAMPLE_LIMIT` cells per attribute)."""
        path = str(path)
        fix = "give the file written by `implgraph anonymize --out`"
        try:
            doc = json.loads(read_text(path, limit=MAX_RELEASE_BYTES, what="a release (JSON)"))
        except json.JSONDecodeError as e:
            raise InputError(f"not a JSON release ({e.msg})", file=path, line=e.lineno, fix=fix) from None
        except RecursionError:
            raise InputError("not a JSON release (nested too deeply)", file=path, line=1, fix=fix) from None
        except ValueError as e:         # an integer of more digits than Python converts (int_max_str_digits)
            raise InputError(f"not a JSON release ({str(e).split(':')[0]})", file=path, line=1, fix=fix) from None
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise InputError(f"not a release in format {FORMAT}", file=path, line=1, fix=fix)

        def bad(what):
            return InputError(what, file=path, line=1, fix=fix)

        attrs, n, records = doc.get("attributes"), doc.get("N"), doc.get("records")
        if not isinstance(attrs, list) or not attrs or not all(isinstance(a, dict) for a in attrs):
            raise bad("'attributes' is not a non-empty list of objects")
        if not _is_int(n) or n < 0 or not isinstance(records, list) or len(records) != n:
            raise bad("'N' is not the number of 'records'")
        names, domains, params = [], [], []
        for a in attrs:
            name, dom, eta = a.get("name"), a.get("domain"), a.get("eta")
            if not isinstance(name, str) or name in names:
                raise bad(f"an attribute's name {str(name)[:40]!r} is not a string or is repeated")
            if not isinstance(dom, list) or not dom or not all(isinstance(v, str) for v in dom) \
                    or len(set(dom)) != len(dom):
                raise bad(f"{name}: 'domain' is not a list of distinct strings")
            if n * len(dom) > SAMPLE_LIMIT:
                raise bad(f"{name}: {n} records x {len(dom)} values is more than {SAMPLE_LIMIT} cells")
            p = a.get("p")
            if not isinstance(p, str) or not _RATIONAL.fullmatch(p) or not int(p.partition("/")[2] or 1):
                raise bad(f"{name}: 'p' = {str(p)[:40]!r} is not a fraction such as \"1/2\"")
            if not _is_int(eta):
                raise bad(f"{name}: 'eta' = {str(eta)[:40]!r} is not an integer")
            try:
                p, eta = check_parameters(sympy.Rational(p), eta, len(dom), name)
            except InputError as exc:
                raise bad(exc.reason) from None
            names.append(name)
            domains.append(list(dom))
            params.append((p, int(eta)))
        member = [np.zeros((n, len(dom)), dtype=bool) for dom in domains]
        for i, rec in enumerate(records):
            if not isinstance(rec, list) or len(rec) != len(names):
                raise bad(f"record {i + 1} does not hold one set per attribute")
            for j, idx in enumerate(rec):
                d, eta = len(domains[j]), params[j][1]
                if not isinstance(idx, list) or not all(_is_int(k) and 0 <= k < d for k in idx) \
                        or len(set(idx)) != len(idx) or len(idx) != min(eta, d):
                    raise bad(f"record {i + 1}: its set of {names[j]} is not {eta} distinct value indices below {d}")
                member[j][i, idx] = True
        meta = doc.get("meta", {})
        return cls(names, domains, params, member, path, meta if isinstance(meta, dict) else {})


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


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


def _sample_sets(codes: np.ndarray, d: int, p, eta: int, rng) -> np.ndarray:
    """One attribute's membership matrix ``(N, d)`` (floats used only for the random draw)."""
    n = len(codes)
    if eta >= d:
        return np.ones((n, d), dtype=bool)
    keys = rng.random((n, d))
    head = rng.random(n) < float(p)
    keys[np.flatnonzero(head), codes[head]] = -1.0
    chosen = np.argpartition(keys, eta - 1, axis=1)[:, :eta]
    out = np.zeros((n, d), dtype=bool)
    np.put_along_axis(out, chosen, True, axis=1)
    return out


def anonymize(columns: dict, params: dict, rng=None, domains: dict | None = None, source: str = "",
              progress=None) -> Release:
    """Anonymize a data set attribute by attribute (Section V-B).

    Parameters
    ----------
    columns : dict
        ``{name: sequence of values}`` (all the same length ``N``).
    params : dict
        ``{name: (p, eta)}``; an attribute without an entry is released as is (``p = 1, eta = 1``: a
        non-sensitive QID, Section VII-B).
    rng : numpy.random.Generator, optional
    domains : dict, optional
        ``{name: list of values}``; default: the sorted values seen.
    progress : callable, optional
        Called as ``progress(j, q, name)`` before each attribute.

    Returns
    -------
    Release
    """
    rng = np.random.default_rng() if rng is None else rng
    names = list(columns)
    doms, pars, member = [], [], []
    for j, name in enumerate(names):
        if progress:
            progress(j, len(names), name)
        codes, dom = encode(columns[name], (domains or {}).get(name))
        if len(codes) * len(dom) > SAMPLE_LIMIT:
            raise InputError(f"{name}: {len(codes)} records x {len(dom)} values is more than {SAMPLE_LIMIT} cells of "
                             f"released sets", fix=f"coarsen {name} to fewer values, drop it, or anonymize fewer records")
        p, eta = params.get(name, (1, 1))
        p, eta = check_parameters(p, eta, len(dom), name)
        doms.append(dom)
        pars.append((p, int(eta)))
        member.append(_sample_sets(codes, len(dom), p, int(eta), rng))
    return Release(names, doms, pars, member, source)


def read_columns(path, names=None) -> dict:
    """``{column: list of str}`` of a CSV with a header (all columns, or ``names``); InputError on bad input."""
    name = str(path)
    text = read_text(path, limit=MAX_CSV_BYTES, what="a UTF-8 CSV file")
    with io.StringIO(text, newline="") as fh:
        reader = csv.reader(fh)
        try:
            header, _ = csv_header(reader, name)
            for col in names or ():
                if col not in header:
                    raise InputError(f"no column {col!r} (columns: {', '.join(header)})", file=name, line=1,
                                     fix="name columns of the CSV's header")
            rows = [rec for _, rec in csv_records(reader, header, name)]
        except (csv.Error, UnicodeDecodeError) as exc:
            raise InputError(f"not a CSV ({exc.__class__.__name__})", file=name, fix="give a UTF-8 CSV") from None
    if not rows:
        raise InputError("no records", file=name, fix="add rows below the header")
    keep = names or header
    return {col: [r[header.index(col)].strip() for r in rows] for col in keep}
