"""Verdicts on the map: which verdict words make a rule a fact, and how chains weaken them.

The map never computes a verdict: its callers hand it ``{claim id: verdict}`` (from ``implgraph
verify``, computed or cached, or from a saved ``verify --json``; see :mod:`implgraph.commands.map`),
and :func:`verdict_lookup` reads any of those shapes.  Only rules whose verdict is *established*
(:data:`ESTABLISHED`) are used as facts; the status of a chain is its weakest link
(:func:`weakest`). A verdict file given with ``--verdicts`` (map, path, guarantees, site) is user input, read
by :func:`read_verdict_file`: typed and checked row by row, one line ``FILE:LINE: ...; fix: ...`` on
anything else.
"""

from __future__ import annotations

__all__ = ["ESTABLISHED", "STATUS_ORDER", "is_established", "weakest", "verdict_lookup", "read_verdict_file"]

#: verdicts under which a rule is a fact (``verified-bounded`` is weaker and is carried as such).
ESTABLISHED = ("proved", "confirmed", "holds", "holds-not-tight", "verified-bounded")
#: status order, strongest first (the status of a chain is its weakest link).
STATUS_ORDER = ("proved", "confirmed", "holds", "holds-not-tight", "verified-bounded")


def is_established(verdict) -> bool:
    """True when ``verdict`` makes a rule a fact (:data:`ESTABLISHED`)."""
    return verdict in ESTABLISHED


def weakest(statuses) -> str:
    """The weakest of several established statuses (``proved`` for none).

    Examples
    --------
    >>> weakest(["proved", "holds"])
    'holds'
    >>> weakest([])
    'proved'
    """
    worst = 0
    for s in statuses:
        worst = max(worst, STATUS_ORDER.index(s) if s in STATUS_ORDER else len(STATUS_ORDER))
    return STATUS_ORDER[worst] if worst < len(STATUS_ORDER) else "unknown"


def verdict_lookup(verdicts) -> dict:
    """``{claim id or id#reading: verdict string}`` from verify results.

    Accepts a dict (id -> Verdict / dict / str) or a list of Verdicts / dicts with ``id`` and
    ``verdict`` (the JSON of ``implgraph verify --json``).  A reading's verdict is looked up under
    ``ID#reading`` or in a verdict's ``details["reading_verdict"]``.

    Examples
    --------
    >>> verdict_lookup([{"id": "p/t-1", "verdict": "proved", "details": {"reading_verdict": "refuted"}}])
    {'p/t-1': 'proved', 'p/t-1#reading': 'refuted'}
    """
    out: dict = {}
    if not verdicts:
        return out
    items = verdicts.items() if isinstance(verdicts, dict) else ((None, v) for v in verdicts)
    for key, v in items:
        if isinstance(v, str):
            out[str(key)] = v
            continue
        vid = getattr(v, "id", None) if not isinstance(v, dict) else v.get("id")
        verdict = getattr(v, "verdict", None) if not isinstance(v, dict) else v.get("verdict")
        details = (getattr(v, "details", None) if not isinstance(v, dict) else v.get("details")) or {}
        vid = str(vid or key)
        if verdict:
            out[vid] = str(verdict)
        rv = details.get("reading_verdict") if isinstance(details, dict) else None
        if rv and f"{vid}#reading" not in out:
            out[f"{vid}#reading"] = str(rv)
    return out


# -- reading a verdict file (``--verdicts FILE``) --------------------------------------------------------------

#: the largest verdict file read (``implgraph verify --json`` of every bundled claim is about 300 kB)
MAX_VERDICT_FILE_BYTES = 64 * 2 ** 20
#: the longest claim id accepted
MAX_ID_LENGTH = 400
#: the longest text field (evidence, tight f) kept from a row
MAX_TEXT_LENGTH = 2 ** 20
_FIX = "give the output of `implgraph verify --json`"


def read_verdict_file(path) -> list:
    """The rows of a verdict file, typed and checked: ``[{"id", "verdict", "evidence", "tight", "details"}]``.

    A verdict file is user input: the output of ``implgraph verify --json`` (``{"claims": [row, ...]}``), a list
    of rows, or a mapping ``{claim id: verdict}``. Each row must have a claim id (one line of printable text)
    and a verdict that is one of :data:`implgraph.core.verdict.VERDICTS`; ``evidence`` and ``tight`` are text
    (shown, never evaluated), ``details.reading_verdict`` a verdict word. Nothing else of a row is kept; no
    field is ever parsed as a formula.

    Raises
    ------
    InputError
        One line ``FILE:LINE: what is wrong; fix: how`` (a missing, oversized, non-UTF-8 or non-JSON file, a
        row without an id or with an unknown verdict word, a duplicate id with another verdict, ...).
    """
    import json

    from implgraph.core.errors import InputError
    from implgraph.io.datafile import read_text
    name = str(path)
    text = read_text(path, limit=MAX_VERDICT_FILE_BYTES, what="a verdict file (`implgraph verify --json`)")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"not JSON ({exc.msg})", file=name, line=exc.lineno, fix=_FIX) from None
    except (ValueError, RecursionError) as exc:
        raise InputError(f"not a verdict file ({exc.__class__.__name__}: {str(exc)[:80]})", file=name, line=1,
                         fix=_FIX) from None
    try:
        return _typed_rows(data)
    except _RowError as exc:
        raise InputError(exc.what, file=name, line=_line_of(text, exc.index), fix=exc.fix or _FIX) from None


class _RowError(Exception):
    def __init__(self, what, index=None, fix=None):
        super().__init__(what)
        self.what, self.index, self.fix = what, index, fix


def _words() -> tuple:
    from implgraph.core.verdict import VERDICTS
    return VERDICTS


def _text(value, what, index, limit=MAX_TEXT_LENGTH, one_line=False):
    if value is None:
        return None
    if not isinstance(value, str):
        raise _RowError(f"row {index + 1}: `{what}` is a {type(value).__name__}, not text", index)
    if len(value) > limit:
        raise _RowError(f"row {index + 1}: `{what}` is {len(value)} characters long (at most {limit})", index)
    if one_line and not value.isprintable():
        raise _RowError(f"row {index + 1}: `{what}` {value[:40]!r} holds a control character or a line break",
                        index)
    return value


def _word(value, what, index):
    if value not in _words():
        shown = repr(value)[:40] if isinstance(value, str) else f"a {type(value).__name__}"
        raise _RowError(f"row {index + 1}: `{what}` is {shown}, not a verdict word", index,
                        fix=f"give a verdict of `implgraph verify --json` ({', '.join(_words())})")
    return value


def _typed_rows(data) -> list:
    if isinstance(data, dict) and "claims" in data:
        rows = data["claims"]
        if not isinstance(rows, list):
            raise _RowError(f"`claims` is a {type(rows).__name__}, not a list of verdict rows")
    elif isinstance(data, list):
        rows = data
    elif isinstance(data, dict):          # {claim id: verdict word} (``verdict_lookup``'s shape)
        rows = [{"id": k, "verdict": v} for k, v in data.items()]
    else:
        raise _RowError(f"a JSON {type(data).__name__}, not verdict rows")
    out, seen = [], {}
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            raise _RowError(f"row {i + 1} is a {type(row).__name__}, not an object with id and verdict", i)
        cid = row.get("id")
        if not isinstance(cid, str) or not cid.strip():
            raise _RowError(f"row {i + 1} has no claim id (`id`)", i)
        _text(cid, "id", i, MAX_ID_LENGTH, one_line=True)
        verdict = _word(row.get("verdict"), "verdict", i)
        details = row.get("details")
        if details is not None and not isinstance(details, dict):
            raise _RowError(f"row {i + 1}: `details` is a {type(details).__name__}, not an object", i)
        reading = (details or {}).get("reading_verdict")
        typed = {"id": cid, "verdict": verdict, "evidence": _text(row.get("evidence"), "evidence", i),
                 "tight": _text(row.get("tight"), "tight", i), "witness": None,
                 "details": {} if reading is None else {"reading_verdict": _word(reading, "details.reading_verdict",
                                                                                 i)}}
        if cid in seen and seen[cid] != verdict:
            raise _RowError(f"row {i + 1}: claim {cid!r} again, with another verdict ({seen[cid]}, then {verdict})",
                            i, fix="give each claim once")
        seen[cid] = verdict
        out.append(typed)
    return out


def _line_of(text: str, index) -> int:
    """The line of the ``index``-th verdict row of the JSON ``text`` (1 for the document itself), read again
    with the pure-Python JSON scanner, which records where each value of an array or object starts."""
    import bisect
    import json
    import json.decoder
    import json.scanner
    if index is None:
        return 1
    newlines = [i for i, ch in enumerate(text) if ch == "\n"]
    starts: dict = {}

    def recording(scan_once, into):
        def scan(s, idx):
            into.append(idx)
            return scan_once(s, idx)
        return scan

    def parse_object(s_and_end, strict, scan_once, *args):
        where: list = []
        obj, end = json.decoder.JSONObject(s_and_end, strict, recording(scan_once, where), *args)
        starts[id(obj)] = where
        return obj, end

    def parse_array(s_and_end, scan_once):
        where: list = []
        arr, end = json.decoder.JSONArray(s_and_end, recording(scan_once, where))
        starts[id(arr)] = where
        return arr, end

    decoder = json.JSONDecoder()
    decoder.parse_object, decoder.parse_array = parse_object, parse_array
    decoder.scan_once = json.scanner.py_make_scanner(decoder)
    try:
        data = decoder.decode(text)
    except (ValueError, RecursionError):
        return 1
    rows = data.get("claims") if isinstance(data, dict) and "claims" in data else data
    where = starts.get(id(rows)) or []
    if isinstance(rows, (list, dict)) and 0 <= index < len(where):
        return bisect.bisect_left(newlines, where[index]) + 1
    return 1
