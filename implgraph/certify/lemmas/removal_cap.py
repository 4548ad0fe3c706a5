"""The lemma ``removal-cap``: every table of N >= n0 >= 1/delta records is at B's strongest level; the part below.

B compares the table's mean P with Q_i, the table without record i, with an additive slack delta > 0 on every event
(``B["slack"]``, ``compares == "removal"``, as the definition registers it). ``P = (x_i + (N - 1) Q_i)/N``, so
``P(E) - Q_i(E) = (x_i(E) - Q_i(E))/N`` and, both masses in [0, 1], ``|P(E) - Q_i(E)| <= 1/N``: where
``N >= n0`` and ``n0 delta >= 1`` both constraints ``P(E) <= Q_i(E) + delta`` and ``Q_i(E) <= P(E) + delta`` hold
at e^eps = 1, B's raw level is 1 on every table, whatever A is. A ``removal-cap`` certificate is accepted when

- B is such a slack (delta a rational in (0, 1)), n0 (``upper_certificate["least_records"]``) a positive rational
  with ``n0 delta >= 1`` (re-derived here, not read from the definition), and the domain states ``N >= 2``;
- it has one part, re-checked as a certificate of its own, with the certificate's sides and symbols, stated on the
  certificate's conditions and ``N < n0`` (each of its conditions one of those);
- U is ``Piecewise((1, N >= n0), (U', True))`` with U' the part's U (read, not compared as text; a Piecewise U'
  written flat, its pieces after the first), and no tightness is claimed.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from implgraph.certify.expr import read_sympy
from implgraph.certify.lemmas import lemma
from implgraph.certify.report import CertificateReport, lemma_steps, steps_report
from implgraph.core import methods

__all__ = ["check"]


def _cap_steps(cert):
    """``(n0, steps)``: B's slack on record removal, n0 and n0 delta >= 1."""
    slack = (cert.get("B") or {}).get("slack") or {}
    delta = Fraction(str(slack.get("delta")))
    n0 = Fraction(str((cert.get("upper_certificate") or {}).get("least_records")))
    steps = [("B an additive slack on record removal, delta in (0, 1)",
              slack.get("compares") == "removal" and 0 < delta < 1, f"delta = {delta}"),
             ("n0 delta >= 1: |P(E) - Q_i(E)| = |x_i(E) - Q_i(E)|/N <= 1/N <= delta where N >= n0",
              n0 > 0 and n0 * delta >= 1, f"n0 = {n0}, n0 delta = {n0 * delta}"),
             ("the domain states N >= 2", "N >= 2" in [str(c) for c in cert.get("domain", [])], "exact")]
    return n0, steps


def _part_steps(cert, part, n0, ns, timeout_ms):
    from implgraph.certify.accepted import part_report
    rep = part_report(part, ns, timeout_ms)
    mine = {str(c) for c in cert.get("domain", [])} | {f"N < {n0}"}
    extra = [str(c) for c in part.get("domain", []) if str(c) not in mine]
    return [(f"the part ({part.get('method')}) re-checked", rep.ok,
             "; ".join(w for w, _, _ in rep.failures()) or "every step holds"),
            ("the part has the certificate's sides and symbols",
             all(part.get(k) == cert.get(k) for k in ("A", "B", "symbols")), "exact"),
            (f"the part is stated on the certificate's conditions and N < {n0}", not extra,
             ", ".join(extra) or "exact")]


def _upper_steps(cert, part, n0):
    symbols = {name: sympy.Symbol(name) for name in (cert.get("symbols") or {})}
    N = symbols["N"]
    got = read_sympy(cert.get("upper"), symbols)
    below = read_sympy(part.get("upper"), symbols)
    n0s = sympy.Rational(n0.numerator, n0.denominator)
    rest = below.args if isinstance(below, sympy.Piecewise) else ((below, sympy.true),)
    expected = sympy.Piecewise((sympy.Integer(1), N >= n0s), *rest)      # (a Piecewise U' flattened into U)
    ok = isinstance(got, sympy.Piecewise) and got == expected
    return [("U = Piecewise((1, N >= n0), (the part's U, True))", ok, str(got)[:120])]


@lemma(methods.REMOVAL_CAP)
def check(cert, ns=range(2, 13), timeout_ms=4000) -> CertificateReport:
    """Re-check a ``removal-cap`` certificate (module notes)."""
    parts = cert.get("parts") or []
    with lemma_steps(cert) as steps:
        steps += [("one part", len(parts) == 1, f"{len(parts)} parts"),
                  ("no tightness claimed", not cert.get("tight"), "exact")]
        if len(parts) == 1:
            n0, cap = _cap_steps(cert)
            steps += cap + _part_steps(cert, parts[0], n0, ns, timeout_ms) + _upper_steps(cert, parts[0], n0)
    return steps_report(steps)
