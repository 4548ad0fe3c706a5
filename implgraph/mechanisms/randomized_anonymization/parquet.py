"""A release as a Parquet file (columnar; pyarrow), read back checked.

One column per published attribute, in order:

- a **randomized** attribute ``S_j`` (``--qid``) is a list column: record ``i``'s set ``R_ij`` as its ``eta_j``
  value indices into ``D(S_j)``, increasing (the smallest unsigned integer type that holds ``d_j - 1``); the
  column's field metadata hold ``implgraph.kind = randomized``, ``implgraph.domain`` (the JSON list of the
  values, in the domain's order: index ``m`` is ``domain[m]``), ``implgraph.p`` (an exact fraction such as
  ``"1/2"``) and ``implgraph.eta``;
- a **kept** column (``--keep``, ``p = 1, eta = 1``: published as it is, not protected) is a string column
  holding the input's cells exactly; its field metadata say ``implgraph.kind = kept``.

The file's schema metadata hold ``implgraph.release``: ``{"format": FORMAT, "source": ..., "meta": ...}`` (the
command's summary: columns, model, the re-checked guarantee). Any Parquet reader sees the sets and the values;
:func:`read_release` reads only the columns asked for and refuses, in one line, a file whose columns do not
agree with their metadata (a value index out of the domain, a set of the wrong size or with a repeated value, a
parameter out of range).
"""

from __future__ import annotations

import json
import os
import re

import numpy as np
import sympy

from implgraph.core.errors import InputError
from implgraph.mechanisms.randomized_anonymization.channel import check_parameters
from implgraph.mechanisms.randomized_anonymization.domain import code_dtype

__all__ = ["FORMAT", "to_arrow", "write_release", "read_release"]

FORMAT = "implgraph-randomized-anonymization/2 (parquet)"

_KEY = b"implgraph.release"
_RATIONAL = re.compile(r"\d{1,1000}(/\d{1,1000})?")
_FIX = "give the file written by `implgraph anonymize --out`"


def _pa():
    from implgraph.mechanisms.randomized_anonymization.columns import require_pyarrow
    pa, _ = require_pyarrow()
    import pyarrow.parquet as pq
    return pa, pq


def to_arrow(release):
    """The release as a pyarrow Table with the metadata above."""
    pa, _ = _pa()
    arrays, fields = [], []
    for j, name in enumerate(release.names):
        p, eta = release.params[j]
        if release.is_kept(j):
            values = release.kept[name]
            arr = values if isinstance(values, (pa.Array, pa.ChunkedArray)) else pa.array(list(values), pa.string())
            meta = {"implgraph.kind": "kept"}
        else:
            sets = np.ascontiguousarray(release.codes(j))
            arr = pa.FixedSizeListArray.from_arrays(pa.array(sets.ravel()), int(sets.shape[1]))
            meta = {"implgraph.kind": "randomized", "implgraph.domain": json.dumps(list(release.domains[j])),
                    "implgraph.p": str(sympy.Rational(p)), "implgraph.eta": str(int(eta))}
        arrays.append(arr)
        fields.append(pa.field(name, arr.type, nullable=False, metadata=meta))
    head = {"format": FORMAT, "source": release.source, "meta": release.meta}
    schema = pa.schema(fields, metadata={_KEY: json.dumps(head, default=str).encode()})
    return pa.Table.from_arrays(arrays, schema=schema)


def write_table(table, fh) -> None:
    """Write ``table`` (from :func:`to_arrow`) to the open binary file ``fh``."""
    _, pq = _pa()
    pq.write_table(table, fh, compression="zstd")


def write_release(release, path) -> None:
    """Write ``release`` to ``path`` at once (a temporary file beside it, then renamed; a failure or a kill
    leaves neither a half-written file nor the temporary one)."""
    from implgraph.io.output import atomic_path
    table = to_arrow(release)
    with atomic_path(os.path.realpath(path)) as tmp, open(tmp, "wb") as fh:
        write_table(table, fh)


def _bad(path, what, line=1):
    return InputError(what, file=str(path), line=line, fix=_FIX)


def _params(path, name, meta):
    try:
        domain = json.loads(meta.get(b"implgraph.domain", b"null"))
    except ValueError:
        domain = None
    if not isinstance(domain, list) or not domain or not all(isinstance(v, str) for v in domain) \
            or len(set(domain)) != len(domain):
        raise _bad(path, f"{name}: 'implgraph.domain' is not a list of distinct strings")
    p, eta = meta.get(b"implgraph.p", b"").decode("utf-8", "replace"), meta.get(b"implgraph.eta", b"").decode(
        "utf-8", "replace")
    if not _RATIONAL.fullmatch(p) or not int(p.partition("/")[2] or 1):
        raise _bad(path, f"{name}: 'implgraph.p' = {p[:40]!r} is not a fraction such as \"1/2\"")
    if not re.fullmatch(r"\d{1,9}", eta):
        raise _bad(path, f"{name}: 'implgraph.eta' = {eta[:40]!r} is not an integer")
    try:
        p, eta = check_parameters(sympy.Rational(p), int(eta), len(domain), name)
    except InputError as exc:
        raise _bad(path, exc.reason) from None
    return domain, (p, int(eta))


def _sets(path, name, column, d, eta, n):
    """The column's sets as an ``(n, eta)`` integer array, checked."""
    pa, _ = _pa()
    import pyarrow.compute as pc
    column = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    if not (pa.types.is_list(column.type) or pa.types.is_fixed_size_list(column.type)
            or pa.types.is_large_list(column.type)) or not pa.types.is_integer(column.type.value_type):
        raise _bad(path, f"{name}: not a column of sets of value indices ({column.type})")
    if column.null_count or (len(column) and pc.min(pc.list_value_length(column)).as_py() != eta) \
            or (len(column) and pc.max(pc.list_value_length(column)).as_py() != eta):
        raise _bad(path, f"{name}: not every record's set has eta = {eta} values")
    flat = column.flatten()
    if flat.null_count:
        raise _bad(path, f"{name}: a set holds a missing value index")
    sets = flat.to_numpy(zero_copy_only=False).reshape(n, eta)
    if sets.size and (sets.min() < 0 or sets.max() >= d):
        raise _bad(path, f"{name}: a value index is outside its domain of {d} values")
    sets = sets.astype(code_dtype(d), copy=False)
    if eta > 1:
        ordered = np.sort(sets, axis=1)
        if (np.diff(ordered, axis=1) == 0).any():
            raise _bad(path, f"{name}: a set repeats a value")
        sets = ordered
    return sets


def read_release(path, columns, cls):
    """The release in the Parquet file at ``path`` (only ``columns``, if not None), checked, built as ``cls``
    (:class:`~implgraph.mechanisms.randomized_anonymization.release.Release`, called as ``cls(names, domains,
    params, None, path, meta, sets=..., kept=...)``); InputError (one line) for a file that is not one."""
    pa, pq = _pa()
    try:
        schema = pq.read_schema(str(path))
    except (pa.ArrowException, OSError) as exc:
        raise _bad(path, f"not a Parquet release ({str(exc).splitlines()[0][:100]})") from None
    try:
        head = json.loads((schema.metadata or {}).get(_KEY, b"null"))
    except ValueError:
        head = None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise _bad(path, f"not a release in format {FORMAT}")
    names = list(schema.names)
    if len(set(names)) != len(names):
        raise _bad(path, "a column name is repeated")
    wanted = names if columns is None else list(columns)
    for c in wanted:
        if c not in names:
            raise InputError(f"no attribute {c!r} in the release (it has {', '.join(names)})", file=str(path),
                             fix="name one of the release's attributes")
    wanted = [c for c in names if c in set(wanted)]
    try:
        table = pq.read_table(str(path), columns=wanted)
    except (pa.ArrowException, OSError) as exc:
        raise _bad(path, f"not a Parquet release ({str(exc).splitlines()[0][:100]})") from None
    n = table.num_rows
    doms, pars, sets, kept = [], [], [], {}
    for name in wanted:
        field = schema.field(name)
        meta = field.metadata or {}
        kind = meta.get(b"implgraph.kind")
        col = table.column(name)
        if kind == b"kept":
            if not (pa.types.is_string(col.type) or pa.types.is_large_string(col.type)) or col.null_count:
                raise _bad(path, f"{name}: a kept column is not text without missing values ({col.type})")
            kept[name] = col
            doms.append(None)
            pars.append((sympy.Integer(1), 1))
            sets.append(None)
        elif kind == b"randomized":
            dom, (p, eta) = _params(path, name, meta)
            doms.append(dom)
            pars.append((p, eta))
            sets.append(_sets(path, name, col, len(dom), eta, n))
        else:
            raise _bad(path, f"{name}: the column's metadata do not say whether it is randomized or kept")
    meta = head.get("meta")
    return cls(wanted, doms, pars, None, os.fspath(path), meta if isinstance(meta, dict) else {}, sets=sets,
                   kept=kept)
