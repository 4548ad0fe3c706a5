"""Witness families in N where a divergence definition meets a ratio definition: A finite, B infinite at every N.

A divergence (:class:`implgraph.definitions.divergences.Divergence`) between a class and the table is finite on every
table (a class's mean is positive only where the table's is), while a two-sided ratio of averages is infinite as soon
as a compared set has a 0 where the table (or another record) has not; and a KL or Renyi divergence between two
records is infinite where one is 0 and the other is not, while a ratio of averages may stay finite. So one table of
zeros refutes such an A => B at one N; the families here do it at every N >= n0, with counts functions of N:

- ``one against the rest``: one record at (1, 0) in a class of its own, N - 1 at (0, 1) in another (a class divergence
  log N, finite; every two-sided ratio of two records, of a set of j <= N - 1 records or of a class, infinite);
- ``two opposite records``: one record at (0, 1) and one at (1, 0) in one class, N - 2 at (1/2, 1/2) in another (the
  first class and the table at (1/2, 1/2): a class ratio at 1, a set of j records finite wherever fewer than j of them
  are 0 in a bucket; two records 0 and positive: a divergence between records infinite);
- ``one zero``: one record at (0, 1), N - 1 at (1/2, 1/2).

:func:`support_certificate` picks the first family whose exact levels (the registry's) are A finite and B infinite at
every N from some n0 to :data:`SCAN_MAX`, then hands its certificate (method ``divergence-family``, kind ``support``)
to the independent checker (:mod:`implgraph.certify.lemmas.divergence_family`), which re-derives both levels
symbolically for every N >= n0; only an accepted certificate is returned. :func:`attach` adds it to a check-edge
direction already refuted by one table.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from implgraph.core import methods
from implgraph.core.errors import InputError
from implgraph.definitions.divergences import divergence_of

__all__ = ["FAMILIES", "support_certificate", "attach", "family_certificate_of", "SCAN_MAX"]

#: the largest N of the scan choosing n0 (the certificate is then checked for every N >= n0)
SCAN_MAX = 6

#: ``(name, rows)``: rows ``(count in N, values, class)``
FAMILIES = (
    ("one record at (1, 0) in a class of its own, N - 1 at (0, 1) in another",
     (("1", ("1", "0"), "E1"), ("N - 1", ("0", "1"), "E2"))),
    ("one record at (0, 1) and one at (1, 0) in one class, N - 2 at (1/2, 1/2) in another",
     (("1", ("0", "1"), "E1"), ("1", ("1", "0"), "E1"), ("N - 2", ("1/2", "1/2"), "E2"))),
    ("one record at (0, 1) in a class of its own, N - 1 at (1/2, 1/2) in another",
     (("1", ("0", "1"), "E1"), ("N - 1", ("1/2", "1/2"), "E2"))),
)


def _count(text, n):
    import sympy

    from implgraph.core.formula import parse_expr
    N = sympy.Symbol("N", integer=True, positive=True)
    return int(parse_expr(text, {"N": N}).subs(N, n))


def _table(rows, n):
    from implgraph.core.concrete import ConcreteTable
    out, classes = [], []
    for count, values, label in rows:
        c = _count(count, n)
        if c < 1:         # every block present (the family's partition)
            return None
        out += [[Fraction(v) for v in values]] * c
        classes += [label] * c
    return ConcreteTable.from_fractions(out, classes=classes) if out and len(out) == n else None


def _first_n(a, ap, b, bp, rows):
    """The least n0 with A finite and B infinite at every N = n0..SCAN_MAX (exact registry levels), or None."""
    from implgraph.core.concrete import INF
    from implgraph.engines.recheck import raw_level
    n0 = None
    for n in range(2, SCAN_MAX + 1):
        ct = _table(rows, n)
        ok = False
        if ct is not None:
            try:
                ra, rb = raw_level(a, ap, ct), raw_level(b, bp, ct)
                ok = ra is not None and ra != INF and rb == INF
            except InputError:      # a level these parameters do not take (a plugin's error included): no family
                ok = False
        n0 = (n if n0 is None else n0) if ok else None
    return n0


def family_certificate(a, ap, b, bp, kind, rows, n0, k0=None, a_classes=None, b_classes=None):
    """The certificate of a witness family (method ``divergence-family``)."""
    import sympy

    from implgraph.prover.certificate import side
    N = sympy.Symbol("N", integer=True, positive=True)
    fam = {"kind": kind, "n0": n0, "rows": [{"count": c, "values": list(v), "class": k} for c, v, k in rows]}
    symbols = {"N": "integer"}
    if k0 is not None:
        fam["K0"] = str(k0)
        symbols["K"] = "real"
    return {"format": "implgraph-certificate/1", "method": methods.DIVERGENCE_FAMILY.name, "claim": "no-f",
            "symbols": symbols, "domain": [f"N >= {n0}"] + ([f"K >= {k0}"] if k0 is not None else []),
            "A": side(a, ap, a_classes, N), "B": side(b, bp, b_classes, N), "tight": False, "family": fam}


def _slack_families(a, ap):
    """Where A declares an additive slack delta (a number): one record at (delta, 1 - delta) in a class of its own,
    N - 1 at (0, 1) in another: every event where one record is 0 has mass <= delta in the other (A finite)."""
    from implgraph.definitions.capabilities import AdditiveSlack
    slack = a.declared(AdditiveSlack)
    delta = None if slack is None else ap.get(slack.param)
    try:
        d = Fraction(str(delta))
    except (TypeError, ValueError, ZeroDivisionError):
        return ()
    if not 0 < d < 1:
        return ()
    return ((f"one record at ({d}, {1 - d}) in a class of its own, N - 1 at (0, 1) in another",
             (("1", (str(d), str(1 - d)), "E1"), ("N - 1", ("0", "1"), "E2"))),)


def support_certificate(a, ap, b, bp, a_classes=None, b_classes=None):
    """``(certificate, family text)`` of a support family accepted by the checker, or None."""
    from implgraph.certify.accepted import accepted
    if divergence_of(a, ap) is None and divergence_of(b, bp) is None:      # (an order read at the parameters)
        return None
    for spec in (a_classes, b_classes):
        if spec and (spec.get("max_size") is not None or str(spec.get("min_size", 1)) != "1"):
            return None
    for text, rows in (*_slack_families(a, ap), *FAMILIES):
        n0 = _first_n(a, ap, b, bp, rows)
        if n0 is None:
            continue
        cert = family_certificate(a, ap, b, bp, "support", rows, n0, a_classes=a_classes, b_classes=b_classes)
        if accepted(cert):
            return cert, f"{text}, every N >= {n0}"
    return None


def attach(res, a, b) -> None:
    """A check-edge direction between a divergence and another definition, not proved: where a support family in N
    applies, its certificate (re-checked symbolically for every N >= n0) and its words are added; a direction the
    search left open (no table of the N searched, or A infinite there) becomes a non-implication, its witness the
    family's table at n0, re-checked in exact arithmetic."""
    if res.verdict == "proved" or res.certificate is not None or (res.witness or {}).get("family"):
        return
    if divergence_of(a.definition, a.param_dict) is None and divergence_of(b.definition, b.param_dict) is None:
        return
    if res.relation == "non-implication" and not res.witness:
        return
    if any(isinstance(v, sympy.Basic) and v.free_symbols for v in (*a.param_dict.values(), *b.param_dict.values())):
        return      # a parameter left as a symbol (the matrix's symbols mode): the family's tables need its value
    found = support_certificate(a.definition, a.param_dict, b.definition, b.param_dict, a.class_dict or None,
                                b.class_dict or None)
    if found is None:
        return
    cert, text = found
    n0 = cert["family"]["n0"]
    if res.relation != "non-implication":
        from implgraph.engines.recheck import is_witness, witness_dict
        rows = tuple((r["count"], tuple(r["values"]), r["class"]) for r in cert["family"]["rows"])
        ct = _table(rows, n0)
        if ct is None or not is_witness(a.definition, a.param_dict, b.definition, b.param_dict, ct):
            return
        held = f"the search found none at the N checked ({res.relation}: {res.bound or res.verdict})"
        res.relation, res.verdict = "non-implication", "refuted"
        res.witness = dict(witness_dict(ct, a.definition, a.param_dict, b.definition, b.param_dict), point={"N": n0})
        res.evidence = (f"at N = {n0}: the family's table, where {a.label()} has level {res.witness['level_a']} and "
                        f"{b.label()} level oo (re-checked in exact arithmetic): no f can work; {held}")
        res.bound, res.tight, res.tight_upto, res.tight_in_N, res.trivial = "", None, None, None, False
        if res.f is not None:
            res.f_verdict = "refuted"
    res.certificate = cert
    res.witness = dict(res.witness, family=text)
    res.evidence += (f"; and for every N >= {n0}: a witness family ({text}), {a.label()} finite and "
                     f"{b.label()} infinite on each, re-derived symbolically in N by implgraph.certify "
                     "(method divergence-family)")


def family_certificate_of(result):
    """The witness family's certificate a prover's refutation carries (method ``divergence-family``), else None."""
    if result.method != methods.DIVERGENCE_FAMILY.name:
        return None
    return (result.details or {}).get("certificate")
