"""A data set anonymized by sei2019's algorithm (Section V-B), in the aggregated expression.

A :class:`Release` holds, for every attribute ``S_j``, its domain, its parameters ``(p_j, eta_j)`` and the
released sets ``R_ij``: :meth:`Release.codes` gives them as an integer array ``(N, eta_j)`` of value indices
(``N eta_j`` small integers, the form the command line uses), :attr:`Release.member` as a boolean matrix
``(N, d_j)`` (computed when asked for). A column published as it is (``--keep``) is held as its values, untouched.
:func:`anonymize_codes` samples a release column by column (:func:`sample_sets`: vectorized numpy draws from the
channel's distribution of each true value).

Files (``implgraph anonymize --out``): Parquet
(:mod:`~implgraph.mechanisms.randomized_anonymization.parquet`, the default), or, when the name ends in
``.json``, the JSON format of small releases (:mod:`~implgraph.mechanisms.randomized_anonymization.release_json`).
A column's domain and codes are :mod:`~implgraph.mechanisms.randomized_anonymization.domain`'s.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import os
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import sympy

from implgraph.core.errors import InputError
from implgraph.io.output import atomic_write
from implgraph.mechanisms.randomized_anonymization.channel import check_parameters
from implgraph.mechanisms.randomized_anonymization.domain import code_dtype, domain_order, encode
from implgraph.mechanisms.randomized_anonymization.release_json import FORMAT, MAX_RELEASE_BYTES, SAMPLE_LIMIT
from implgraph.mechanisms.randomized_anonymization import release_json

__all__ = ["Release", "anonymize", "anonymize_codes", "sample_sets", "encode", "domain_order", "read_columns",
           "FORMAT"]

# (FORMAT, SAMPLE_LIMIT and MAX_RELEASE_BYTES are release_json's, encode and domain_order domain's: imported above for
# the importers of this module)


class _PerAttribute(Sequence):
    """A read-only list whose item ``j`` is computed (and kept) when first asked for."""

    def __init__(self, n, make):
        self._items, self._make = [None] * n, make

    def __len__(self):
        return len(self._items)

    def __getitem__(self, j):
        if isinstance(j, slice):
            return [self[k] for k in range(len(self))[j]]
        if self._items[j] is None:
            self._items[j] = self._make(j)
        return self._items[j]


class Release:
    """An anonymized database ``T*`` in the aggregated expression.

    Parameters
    ----------
    names : list of str
        Attribute names ``S_1..S_q``.
    domains : list of list
        ``D(S_j)`` (values as strings); an entry may be None for a column in ``kept`` (its domain is then its
        sorted distinct values, computed only when asked for).
    params : list of tuple
        ``(p_j, eta_j)``, exact (sympy number, int).
    member : list of numpy.ndarray, optional
        ``member[j]``: bool array ``(N, d_j)``, ``member[j][i, m]`` whether value ``m`` is in ``R_ij``.
    source : str
    meta : dict
    sets : list of numpy.ndarray, optional
        Instead of ``member``: ``sets[j]`` the integer array ``(N, eta_j)`` of the value indices of every
        ``R_ij`` (increasing along each row); None for a column in ``kept``.
    kept : dict, optional
        ``{name: values}``: the columns published as they are (``p = 1``, ``eta = 1``), their values exactly as
        read (a pyarrow string array or a list of str); no memory is spent on them beyond their values.

    Notes
    -----
    :attr:`member` and :attr:`domains` are computed per attribute when first used (a boolean matrix costs
    ``N d_j`` bytes): the command line's paths use :meth:`codes`, ``N eta_j`` small integers.
    """

    def __init__(self, names, domains, params, member=None, source: str = "", meta=None, *, sets=None, kept=None):
        self.names = list(names)
        self.params = list(params)
        self.source = source
        self.meta = dict(meta or {})
        self.kept = dict(kept or {})
        q = len(self.names)
        self._member_in = list(member) if member is not None else [None] * q
        self._sets_in = list(sets) if sets is not None else [None] * q
        self._domains_in = list(domains)
        self.domains = _PerAttribute(q, self._domain)
        self.member = _PerAttribute(q, self._member)
        self._codes = _PerAttribute(q, self._make_codes)

    def _domain(self, j):
        if self._domains_in[j] is not None:
            return list(self._domains_in[j])
        return sorted(set(_as_list(self.kept[self.names[j]])))

    def _member(self, j):
        if self._member_in[j] is not None:
            return self._member_in[j]
        sets = self.codes(j)
        out = np.zeros((sets.shape[0], len(self.domains[j])), dtype=bool)
        np.put_along_axis(out, sets.astype(np.intp), True, axis=1)
        return out

    def _make_codes(self, j):
        if self._sets_in[j] is not None:
            return self._sets_in[j]
        name = self.names[j]
        if self._member_in[j] is None and name in self.kept:          # a kept column: its values as indices
            codes, _ = encode(_as_list(self.kept[name]), self.domains[j])
            return codes.astype(code_dtype(len(self.domains[j])))[:, None]
        m = np.asarray(self._member_in[j], dtype=bool)
        sizes = m.sum(axis=1)
        if len(sizes) and (sizes != sizes[0]).any():
            raise InputError(f"{name}: the released sets are not all of one size", fix="report this as a bug")
        return np.nonzero(m)[1].reshape(m.shape[0], int(sizes[0]) if len(sizes) else 0).astype(
            code_dtype(m.shape[1]))

    def codes(self, j: int) -> np.ndarray:
        """``R_ij`` for every record ``i``: an integer array ``(N, eta_j)`` of value indices (rows increasing)."""
        return self._codes[j]

    def is_kept(self, j: int) -> bool:
        """Whether attribute ``j`` is a column published as it is (no randomization)."""
        return self.names[j] in self.kept

    @property
    def N(self) -> int:
        for j in range(len(self.names)):
            for src in (self._sets_in[j], self._member_in[j]):
                if src is not None:
                    return int(np.shape(src)[0])
            if self.names[j] in self.kept:
                return len(self.kept[self.names[j]])
        return 0

    def index(self, name: str) -> int:
        if name not in self.names:
            raise InputError(f"no attribute {name!r} in the release (it has {', '.join(self.names)})",
                             file=self.source or None, fix="name one of the release's attributes")
        return self.names.index(name)

    def sets(self, i: int) -> list:
        """Record ``i`` as a list of tuples of value indices (one per attribute)."""
        return [tuple(np.flatnonzero(m[i]).tolist()) for m in self.member]

    def save(self, path) -> None:
        """Write the release to ``path`` at once (a temporary file in the same folder, then renamed): Parquet
        (:mod:`~implgraph.mechanisms.randomized_anonymization.parquet`), or the JSON format when ``path`` ends in
        ``.json``."""
        if str(path).lower().endswith(".json"):
            atomic_write(path, self.dumps())
        else:
            from implgraph.mechanisms.randomized_anonymization.parquet import write_release
            write_release(self, path)

    def dumps(self) -> str:
        """The release in the JSON file format (one line); InputError for an attribute of more than
        :data:`SAMPLE_LIMIT` cells ``N d_j`` (a JSON release is read back as boolean matrices: write Parquet)."""
        return release_json.dumps(self)

    @classmethod
    def load(cls, path, columns=None) -> "Release":
        """Read a release written by :meth:`save` (Parquet, or the JSON format), checked: one line
        ``FILE:1: what; fix: how`` (InputError) for a file that is not one. ``columns``: read only these
        attributes (Parquet; an unknown name is refused)."""
        with contextlib.suppress(OSError):
            if not os.path.isfile(path):          # a FIFO or a device is never opened here (it could block)
                return cls._load_json(path)
            with open(path, "rb") as fh:
                if fh.read(4) == b"PAR1":
                    from implgraph.mechanisms.randomized_anonymization.parquet import read_release
                    return read_release(path, columns, cls)
        return cls._load_json(path)

    @classmethod
    def _load_json(cls, path) -> "Release":
        """The JSON format (``FORMAT``); at most :data:`SAMPLE_LIMIT` cells per attribute."""
        return release_json.load(path, cls)


def _as_list(values) -> list:
    """A column of values (a pyarrow array or a sequence) as a list of str."""
    if hasattr(values, "to_pylist"):
        return values.to_pylist()
    return [str(v) for v in values]


SUBSET_TABLE_LIMIT = 2 ** 22
"""Most cells ``C(d - 1, eta) eta`` of the tables of subsets :func:`sample_sets` draws from; beyond it the sets
are drawn by random keys, a bounded number of records at a time."""

_KEY_CHUNK = 2 ** 22
"""Most random keys (records x values) drawn at once by the random-keys route."""


def sample_sets(codes: np.ndarray, d: int, p, eta: int, rng) -> np.ndarray:
    """One attribute's released sets: an integer array ``(N, eta)`` of value indices, increasing along each row.

    Record ``i`` with value ``v = codes[i]`` releases the set ``Z`` with the channel's probability (Section V-B):
    ``kappa_c`` when ``v`` is in ``Z``, ``kappa_d`` otherwise. Equivalently, ``v`` is in the set with probability
    ``own = p + (1 - p) eta/d`` (eq. 19), and then its other ``eta - 1`` values are a uniform subset of the ``d - 1``
    other values; otherwise the set is a uniform ``eta``-subset of the others (``kappa_c = own / C(d-1, eta-1)``,
    ``kappa_d = (1 - own) / C(d-1, eta)``). When those subsets are few they are listed once and every record draws
    one coin and one index (vectorized over all records); otherwise each record draws ``d`` uniform keys, its true
    value's key forced to the front when its coin is head, and keeps the ``eta`` smallest (a bounded number of
    records at a time). The draw uses floats; the guarantee does not rest on it (it is re-checked exactly from
    ``(p, eta)``, the domain and the sets written).
    """
    codes = np.asarray(codes)
    n, eta, dtype = len(codes), int(eta), code_dtype(d)
    if eta >= d:
        return np.broadcast_to(np.arange(d, dtype=dtype), (n, d))
    if sympy.Rational(p) == 1 and eta == 1:
        return codes.astype(dtype)[:, None]
    p = Fraction(int(sympy.Rational(p).p), int(sympy.Rational(p).q))
    if math.comb(d - 1, eta) * eta <= SUBSET_TABLE_LIMIT:
        own = float(p + (1 - p) * Fraction(eta, d))
        with_v, without = (np.array(list(itertools.combinations(range(d - 1), k)), dtype=np.int64).reshape(
            math.comb(d - 1, k), k) for k in (eta - 1, eta))
        out = np.empty((n, eta), dtype=dtype)
        inside = rng.random(n) < own
        for rows, table in ((np.flatnonzero(inside), with_v), (np.flatnonzero(~inside), without)):
            v = codes[rows].astype(np.int64)[:, None]
            others = table[rng.integers(0, len(table), len(rows))]
            others += others >= v                          # index among the others -> value index
            out[rows] = np.sort(np.concatenate([v, others], axis=1), axis=1) if table is with_v else others
        return out
    out = np.empty((n, eta), dtype=dtype)
    step = max(1, _KEY_CHUNK // d)
    for lo in range(0, n, step):
        part = codes[lo:lo + step]
        keys = rng.random((len(part), d))
        head = rng.random(len(part)) < float(p)
        keys[np.flatnonzero(head), part[head]] = -1.0
        out[lo:lo + step] = np.sort(np.argpartition(keys, eta - 1, axis=1)[:, :eta], axis=1)
    return out


def anonymize_codes(coded: dict, params: dict, rng=None, kept=None, order=None, source: str = "",
                    progress=None) -> Release:
    """Anonymize columns given as integer codes (Section V-B), one attribute at a time.

    Parameters
    ----------
    coded : dict
        ``{name: (codes, domain)}`` of the sensitive QIDs: ``codes`` integer indices into ``domain``.
    params : dict
        ``{name: (p, eta)}`` for every name of ``coded``.
    rng : numpy.random.Generator, optional
    kept : dict, optional
        ``{name: values}``: columns published as they are (``p = 1, eta = 1``): no randomization, no memory.
    order : list of str, optional
        The published columns in order (default: ``coded`` then ``kept``).
    progress : callable, optional
        Called as ``progress(j, q, name)`` before each attribute.

    Returns
    -------
    Release
    """
    rng = np.random.default_rng() if rng is None else rng
    kept = dict(kept or {})
    names = list(order) if order is not None else [*coded, *kept]
    if sorted(names) != sorted([*coded, *kept]):
        raise InputError("the published columns are not the coded and kept ones", fix="report this as a bug")
    doms, pars, sets = [], [], []
    for j, name in enumerate(names):
        if progress:
            progress(j, len(names), name)
        if name in kept:
            doms.append(None)
            pars.append((sympy.Integer(1), 1))
            sets.append(None)
            continue
        codes, dom = coded[name]
        p, eta = check_parameters(*params[name], len(dom), name)
        doms.append(list(dom))
        pars.append((p, int(eta)))
        sets.append(sample_sets(codes, len(dom), p, int(eta), rng))
    return Release(names, doms, pars, None, source, sets=sets, kept=kept)


def anonymize(columns: dict, params: dict, rng=None, domains: dict | None = None, source: str = "",
              progress=None) -> Release:
    """Anonymize a data set attribute by attribute (Section V-B).

    Parameters
    ----------
    columns : dict
        ``{name: sequence of values}`` (all the same length ``N``).
    params : dict
        ``{name: (p, eta)}``; an attribute without an entry is released as is (``p = 1, eta = 1``: a
        non-sensitive QID, Section VII-B), with no randomization.
    rng : numpy.random.Generator, optional
    domains : dict, optional
        ``{name: list of values}``; default: the sorted values seen.
    progress : callable, optional
        Called as ``progress(j, q, name)`` before each attribute.

    Returns
    -------
    Release
    """
    coded, kept = {}, {}
    for name, column in columns.items():
        if name in params:
            coded[name] = encode(column, (domains or {}).get(name))
        else:
            kept[name] = [str(v) for v in column]
    release = anonymize_codes(coded, params, rng, kept, list(columns), source, progress)
    for j, name in enumerate(release.names):        # a kept column's given domain
        if name in kept and (domains or {}).get(name) is not None:
            release._domains_in[j] = list(domains[name])
    return release


def read_columns(path, names=None) -> dict:
    """``{column: list of str}`` of a CSV with a header (all columns, or ``names``), each cell stripped;
    InputError (one line) on bad input. Any size (pyarrow; see
    :mod:`~implgraph.mechanisms.randomized_anonymization.columns`)."""
    from implgraph.mechanisms.randomized_anonymization.columns import read_header, read_table
    header = read_header(path)
    for col in names or ():
        if col not in header:
            raise InputError(f"no column {col!r} (columns: {', '.join(header)})", file=str(path), line=1,
                             fix="name columns of the CSV's header")
    keep = list(names or header)
    table = read_table(path, header, keep)
    return {col: [v.strip() for v in table.column(col).to_pylist()] for col in keep}
