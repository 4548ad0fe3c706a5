"""The JSON format of small releases: :func:`dumps` writes a :class:`~.release.Release` in it, :func:`load` reads
one back checked (``implgraph anonymize --out FILE.json``; Parquet, :mod:`.parquet`, is the default)::

    {"format": "implgraph-randomized-anonymization/1", "N": ..., "source": ...,
     "attributes": [{"name": ..., "domain": [...], "p": "1/2", "eta": 2}, ...],
     "records": [[[indices of R_i1], [indices of R_i2], ...], ...]}

:class:`~.release.Release` calls these (``Release.dumps``, ``Release.load``); this module imports nothing of it.
"""

from __future__ import annotations

import json
import re

import numpy as np
import sympy

from implgraph.core.errors import InputError
from implgraph.io.datafile import read_text
from implgraph.mechanisms.randomized_anonymization.channel import check_parameters

__all__ = ["FORMAT", "SAMPLE_LIMIT", "MAX_RELEASE_BYTES", "dumps", "load"]

FORMAT = "implgraph-randomized-anonymization/1"

SAMPLE_LIMIT = 25_000_000
"""Most cells ``N d_j`` of one attribute's sets in a JSON release (read as boolean matrices); Parquet has no
limit but the machine's."""

MAX_RELEASE_BYTES = 2 ** 30
"""Largest JSON release :meth:`Release.load` reads."""

_RATIONAL = re.compile(r"\d{1,1000}(/\d{1,1000})?")


def dumps(release) -> str:
    """The release in the JSON file format (one line); InputError for an attribute of more than
    :data:`SAMPLE_LIMIT` cells ``N d_j`` (a JSON release is read back as boolean matrices: write Parquet).

    Parameters
    ----------
    release : Release

    Returns
    -------
    str
    """
    for name, dom in zip(release.names, release.domains):
        if release.N * len(dom) > SAMPLE_LIMIT:
            raise InputError(f"{name}: {release.N} records x {len(dom)} values is more than {SAMPLE_LIMIT} cells of "
                             f"a JSON release", fix="write the release as Parquet (--out FILE.parquet)")
    attrs = [{"name": n, "domain": list(dom), "p": str(p), "eta": int(eta)}
             for n, dom, (p, eta) in zip(release.names, release.domains, release.params)]
    cols = [release.codes(j).tolist() for j in range(len(release.names))]
    records = [list(r) for r in zip(*cols)] if cols else []
    doc = {"format": FORMAT, "N": release.N, "source": release.source, "attributes": attrs,
           "records": records, **({"meta": release.meta} if release.meta else {})}
    return json.dumps(doc, separators=(",", ":")) + "\n"


def load(path, cls):
    """The release in the JSON format (``FORMAT``) at ``path``; at most :data:`SAMPLE_LIMIT` cells per attribute.

    Parameters
    ----------
    path : str or os.PathLike
    cls : type
        The class to build (:class:`~.release.Release`), called as ``cls(names, domains, params, member, path,
        meta)``.

    Returns
    -------
    Release
        Checked: InputError (one line ``FILE:1: what; fix: how``) for a file that is not one.
    """
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
        name, dom, p, eta = _attribute(a, n, names, bad)
        names.append(name)
        domains.append(list(dom))
        params.append((p, int(eta)))
    member = _member(records, names, domains, params, n, bad)
    meta = doc.get("meta", {})
    return cls(names, domains, params, member, path, meta if isinstance(meta, dict) else {})


def _attribute(a, n, names, bad) -> tuple:
    """``(name, domain, p, eta)`` of one attribute's object ``a`` of a release of ``n`` records, checked
    (``names``: the attributes read before; ``bad(what)``: the error to raise)."""
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
    return name, dom, p, eta


def _member(records, names, domains, params, n, bad) -> list:
    """The released sets of ``records`` as one boolean matrix ``(n, d_j)`` per attribute, each set checked: ``eta_j``
    distinct value indices below ``d_j`` (``bad(what)``: the error to raise)."""
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
    return member


def _is_int(x) -> bool:
    """Is ``x`` an int (not a bool)?"""
    return isinstance(x, int) and not isinstance(x, bool)
