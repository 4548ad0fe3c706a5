"""The Python API's checks: edges, the papers' claims and the registered definitions.

:func:`check_edge` checks a conjectured implication both ways, :func:`verify` machine-checks the papers' claims,
:func:`claims` lists them unchecked and :func:`definitions` lists the registered definitions. Every name here is
importable from :mod:`implgraph.api` (and the package: ``implgraph.verify``, ...).

Examples
--------
>>> import implgraph
>>> implgraph.api.verify is verify
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from implgraph import definitions as _registry
from implgraph.core.errors import InputError
from implgraph.definitions.base import Definition
from implgraph.results import ClaimList, Verdicts

if TYPE_CHECKING:                   # heavy imports, for a type checker only (the edge checker)
    from implgraph.engines.checkedge import EdgeResult

__all__ = ["check_edge", "verify", "definitions", "claims"]


def check_edge(a: str, b: str, f: str | None = None, when: str | Sequence[str] = (), N: int = 4, p: int = 2,
               g: str | None = None, jobs: int = 1) -> EdgeResult:
    """Check a conjectured implication ``a => b`` (and the reverse) with exact evidence.

    Parameters
    ----------
    a, b : str
        Definitions in the node grammar: ``NAME`` or ``NAME(k=2)`` (a class-based definition's ``k``
        is the minimum class size).
    f, g : str, optional
        Conjectured functions: b's level from a's (``f``), a's level from b's (``g``).
    when : str or sequence of str
        Conditions on ``N`` and the parameters, e.g. ``"k >= 2"``.
    N : int
        Every number of records from 2 to ``N`` is checked (exhaustively, on tables of ``p`` buckets).
    p : int
        Buckets of the tables searched.
    jobs : int
        Processes (2 checks both directions side by side).

    Returns
    -------
    EdgeResult
        ``kind`` (equivalence, generalisation, implication, non-implication, ...), and per direction
        (``forward``, ``backward``) the verdict, the tight f (``tight_f``: a sympy expression; ``tight_all_n``,
        ``tight``: its text), the witness and the bound.

    Examples
    --------
    >>> import implgraph
    >>> d = next(d for d in implgraph.api.definitions() if not d.params and not d.needs_classes)
    >>> r = check_edge(d.name, d.name, N=3)
    >>> r.kind, r.forward.status
    ('equivalence', 'established')
    >>> import sympy                          # the tight f as a sympy expression: a level implies itself, f(x) = x
    >>> r.forward.tight_f == sympy.Symbol(d.level_symbol)
    True
    """
    from implgraph.commands.check_edge import read_check
    from implgraph.engines.checkedge import check_edge as _check_edge
    a, b = read_check(a, b, f=f, g=g, when=when, N=N, p=p, jobs=jobs)
    when = [when] if isinstance(when, str) else list(when or ())
    return _check_edge(a, b, f=f, when=when, N=N, p=p, g=g, jobs=jobs)


def verify(ids: str | Sequence[str] | None = None, max_n: int | None = None, jobs: int = 1,
           timeout: float | None = None) -> Verdicts:
    """Machine-check the papers' claims (all of them, or the ids and id prefixes given).

    Parameters
    ----------
    ids : str or sequence of str, optional
        Claim ids or prefixes (``"ekenstedt2022/table-III"`` selects that table's claims); the
        ``#reading`` row of a claim follows it. Omitted: every claim (about 30 s on 2 cores).
    max_n : int, optional
        Largest N of the bounded checks (default 8).
    jobs : int
        Processes.
    timeout : float, optional
        Seconds per claim; a claim not decided by then is ``unknown``.

    Returns
    -------
    Verdicts
        A list of :class:`~implgraph.core.verdict.Verdict` with a summary and an HTML table.

    Examples
    --------
    >>> vs = verify("ekenstedt2022/theorem-2b")
    >>> [(v.id, v.verdict) for v in vs]
    [('ekenstedt2022/theorem-2b', 'proved')]
    >>> vs[0].tight              # a sympy expression (vs[0].tight_str: the text)
    ((N - 1)*exp(eps) + 1)/N
    >>> vs[0].tight.subs({"N": 3, "eps": 0})
    1
    """
    from implgraph.checks.verify import DEFAULT_MAX_N, run_verify
    from implgraph.commands.verify import MAX_MAX_N
    ids = _ids(ids)
    _check_int("max_n", max_n, 2, MAX_MAX_N, none_ok=True)
    _check_int("jobs", jobs, 1, 64)
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, (int, float))
                                or not 0 <= timeout <= 86400):
        raise InputError(f"timeout {str(repr(timeout))[:60]} is not a number of seconds in 0..86400",
                         fix="give timeout=None (no limit) or a number of seconds")
    return Verdicts(run_verify(ids, max_n=max_n or DEFAULT_MAX_N, jobs=jobs, timeout=timeout))


def _ids(ids) -> list:
    """Claim ids or prefixes: one text or a sequence of texts (InputError otherwise)."""
    if ids is not None and not isinstance(ids, (str, list, tuple, set, frozenset)):
        raise InputError(f"claim ids must be text or a list of texts, not {type(ids).__name__}",
                         fix='give ids such as "ekenstedt2022/theorem-2b"')
    ids = [ids] if isinstance(ids, str) else list(ids or [])
    bad = [i for i in ids if not isinstance(i, str)]
    if bad:
        raise InputError(f"a claim id must be text, not {type(bad[0]).__name__}",
                         fix='give ids such as "ekenstedt2022/theorem-2b"')
    return ids


def _check_int(name, value, low, high, none_ok=False) -> None:
    """Refuse an API argument that is not an int in ``low..high`` (None too, with ``none_ok``)."""
    if value is None and none_ok:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InputError(f"{name} = {str(repr(value))[:60]} is not an integer in {low}..{high}",
                         fix=f"give {low} <= {name} <= {high}")


def definitions(names: Sequence[str] | None = None) -> list[Definition]:
    """The registered privacy definitions (built-in and plugins), in registry order.

    ``implgraph.definitions`` is the registry module (``get``, ``names``, ``register``); this
    function is ``implgraph.api.definitions``.

    Parameters
    ----------
    names : sequence of str, optional
        Only these (an unknown name raises :class:`~implgraph.core.errors.InputError`).

    Returns
    -------
    list of Definition
        Each with ``name``, ``title``, ``level_symbol``, ``params``, ``reference``, ...

    Examples
    --------
    >>> ds = definitions()
    >>> len(ds) >= 7 and all(d.name for d in ds)
    True
    >>> definitions([ds[0].name]) == [ds[0]]
    True
    """
    known = _registry.names()
    for n in names or ():
        if n not in known:
            raise InputError(f"unknown definition {n!r}", fix="give one of " + ", ".join(known))
    return [_registry.get(n) for n in (names or known)]


def claims(ids: str | Sequence[str] = (), kind: str | None = None, paper: str | None = None) -> ClaimList:
    """The claims of the bundled data (not checked): id, kind, printed statement, expectation.

    Parameters
    ----------
    ids : str or sequence of str
        Claim ids or id prefixes (as :func:`verify`).
    kind : str, optional
        Only claims of this kind (``implies``, ``not-implies``, ``level``, ...).
    paper : str, optional
        Only this paper's claims (e.g. ``"sei2019"``).

    Returns
    -------
    ClaimList
        A list of dicts (the rows of ``implgraph claims --json``).

    Examples
    --------
    >>> rows = claims("ekenstedt2022/theorem-2b")
    >>> rows[0]["kind"], rows[0]["expect"]
    ('implies', 'proved')
    """
    from implgraph.commands.claims import all_rows, select
    ids = _ids(ids)
    for name, value in (("kind", kind), ("paper", paper)):
        if value is not None and not isinstance(value, str):
            raise InputError(f"{name} must be text, not {type(value).__name__}", fix=f"give {name} as a word")
    return ClaimList(select(all_rows(), ids, kind=kind, paper=paper))
