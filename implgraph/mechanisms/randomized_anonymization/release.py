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
        path = str(path)
        try:
            doc = json.loads(Path(path).read_text())
        except OSError as e:
            raise InputError(f"cannot read the release: {e.strerror}", file=path,
                             fix="give the file written by `implgraph anonymize --out`") from None
        except json.JSONDecodeError as e:
            raise InputError(f"not a JSON release ({e.msg})", file=path, line=e.lineno,
                             fix="give the file written by `implgraph anonymize --out`") from None
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            raise InputError(f"not a release in format {FORMAT}", file=path, line=1,
                             fix="give the file written by `implgraph anonymize --out`")
        names, domains, params = [], [], []
        for a in doc["attributes"]:
            names.append(a["name"])
            domains.append(list(a["domain"]))
            params.append(check_parameters(sympy.Rational(a["p"]), a["eta"], len(a["domain"]), a["name"]))
        n = int(doc["N"])
        member = [np.zeros((n, len(dom)), dtype=bool) for dom in domains]
        for i, rec in enumerate(doc["records"]):
            for j, idx in enumerate(rec):
                member[j][i, idx] = True
        params = [(p, int(eta)) for p, eta in params]
        return cls(names, domains, params, member, path, doc.get("meta", {}))


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
