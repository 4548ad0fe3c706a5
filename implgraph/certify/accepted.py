"""Whether the checker accepts a certificate, remembered in the process for the certificates it accepted.

The prover asks the independent checker about the certificate of a bound before it answers with it (an argument
that answers only where its certificate checks, an attained family attached to a composition); the pair matrix asks
about the same certificate again in other pairs (the same composition's family under another claim's first steps,
the same lemma's bound in both directions of a pair). :func:`accepted` re-checks a certificate the first time and
remembers an acceptance, keyed by the certificate's whole text (JSON, keys sorted: two certificates that differ in any
number, inequality or field are two keys); a certificate the checker did not accept is checked again each time (a
rejection may be a solver's time limit). Only the certificates that are plain JSON (texts, numbers, lists, mappings)
are remembered.
"""

from __future__ import annotations

import json

__all__ = ["accepted", "part_report"]

#: the texts of the certificates accepted in this process (at most _SIZE of them, the oldest dropped)
_ACCEPTED: dict = {}
_SIZE = 4096


def _key(cert):
    """The memo's key of ``cert``: its whole text (JSON, keys sorted), or None where it is not plain JSON."""
    try:
        return json.dumps(cert, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError):
        return None


def _remember(key):
    if len(_ACCEPTED) >= _SIZE:
        _ACCEPTED.pop(next(iter(_ACCEPTED)))
    _ACCEPTED[key] = True


def accepted(cert) -> bool:
    """Does :func:`implgraph.certify.check_certificate` (its default settings) accept ``cert``? An acceptance is
    remembered (module notes).

    Examples
    --------
    >>> cert = {"format": "implgraph-certificate/1", "method": "same-level",
    ...         "symbols": {"N": "integer", "T": "real"}, "domain": ["N >= 2", "T >= 1"],
    ...         "A": {"family": "pairwise", "sides": "two-sided"}, "B": {"family": "pairwise", "sides": "two-sided"},
    ...         "upper": "T", "tight": True,
    ...         "tightness": {"blocks": [{"count": "1", "value": "1/(T + 1)"},
    ...                                  {"count": "N - 1", "value": "T/(T + 1)"}]}}
    >>> accepted(cert), accepted(dict(cert, upper="T/2"))
    (True, False)
    """
    from implgraph.certify import check_certificate
    key = _key(cert)
    if key is None:         # not plain JSON: checked every time
        return check_certificate(cert).ok
    if key in _ACCEPTED:
        return True
    ok = check_certificate(cert).ok
    if ok:
        _remember(key)
    return ok


#: the settings :func:`accepted` checks at (:func:`implgraph.certify.check_certificate`'s defaults)
_DEFAULTS = (range(2, 13), 4000)


def part_report(part, ns, timeout_ms):
    """The report of re-checking ``part``, a part of a composite certificate, within its whole's budget
    (``check_certificate(part, ns, timeout_ms, budget=None)``): at the default settings, a part accepted before in
    this process (by :func:`accepted` or as another whole's part) is one step saying so, and an accepted part is
    remembered (a time budget only turns an acceptance into a rejection, so one accepted with its own budget is
    accepted without it).

    Examples
    --------
    >>> cert = {"format": "implgraph-certificate/1", "method": "same-level",
    ...         "symbols": {"N": "integer", "T": "real"}, "domain": ["N >= 2", "T >= 1"],
    ...         "A": {"family": "pairwise", "sides": "two-sided"}, "B": {"family": "pairwise", "sides": "two-sided"},
    ...         "upper": "T", "tight": False}
    >>> part_report(cert, range(2, 13), 4000).ok, part_report(cert, range(2, 13), 4000).steps[0][0]
    (True, 'accepted before in this process')
    """
    from implgraph.certify import CertificateReport, check_certificate
    key = _key(part) if (ns, timeout_ms) == _DEFAULTS else None
    if key is not None and key in _ACCEPTED:
        return CertificateReport(True, [("accepted before in this process", True, "the same certificate text")])
    rep = check_certificate(part, ns, timeout_ms, budget=None)
    if key is not None and rep.ok:
        _remember(key)
    return rep
