"""The number of records from which every table is at a level's strongest value, declared as a typed capability.

:class:`StrongestFrom` says: every table of ``N`` records with ``N >= least`` (``least`` a formula of the parameters,
read by the project's formula reader, never evaluated) is at the definition's most private raw level (1 for a ratio
level, eps = 0), whatever its records are. The central (eps, delta)-DP declares it with ``least = 1/delta``: the table's
mean P against the table without record i, Q_i, differ by ``P(E) - Q_i(E) = (x_i(E) - Q_i(E))/N`` on every event E, so
``|P(E) - Q_i(E)| <= 1/N <= delta`` once ``N >= 1/delta`` and both constraints hold at e^eps = 1. Where the formula is
not a finite positive number at the parameters (delta = 0) no N is declared.

The prover reads it once for every A => B with such a B (``removal-cap``, :mod:`implgraph.prover.arguments.removal_cap`;
the binary programs still state the same clause in their own pieces); the checker and the Coq theorem re-derive the
fact from B's declared slack alone.

Examples
--------
>>> s = StrongestFrom("1/delta")
>>> s.least({"delta": "1/10"}), s.least({"delta": 0})
(10, None)
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy

from implgraph.core.errors import InputError, printable
from implgraph.definitions._capability_values import _exact, _names, _size_formula
from implgraph.definitions.capabilities import Capability

__all__ = ["StrongestFrom", "strongest_from"]


@dataclass(frozen=True)
class StrongestFrom(Capability):
    """Every table of ``N >= least`` records is at the strongest level (see the module notes).

    Parameters
    ----------
    least_text : str
        The fewest records, a formula of the definition's parameters (``"1/delta"``).
    reason : str
        Why, in one line (shown in the prover's argument).
    """

    least_text: str
    reason: str = ""

    def __post_init__(self):
        if not isinstance(self.least_text, str) or "N" in _names(self.least_text):
            raise InputError(f"StrongestFrom: {printable(repr(self.least_text))[:60]} is not a formula of the "
                             "parameters", fix='give the fewest records, e.g. StrongestFrom("1/delta")')
        _size_formula(self.least_text)      # read once now: an unreadable formula is refused where it is declared

    def params_named(self) -> tuple:
        return tuple(sorted(_names(self.least_text)))

    def least(self, params: dict):
        """The fewest records at the parameter values ``params`` (exact), or None where it is not a finite positive
        number (a symbolic or zero delta)."""
        swap = {sympy.Symbol(str(k)): _exact(v) for k, v in (params or {}).items() if str(k) in self.params_named()}
        try:
            value = _size_formula(self.least_text).xreplace(swap)
        except (TypeError, ValueError, ZeroDivisionError):
            return None
        if not (value.is_number and value.is_finite and value.is_positive):
            return None
        return value


def strongest_from(d, params):
    """``d``'s declared fewest records from which every table is at its strongest level, at ``params``, or None."""
    declared = d.declared(StrongestFrom)
    return None if declared is None else declared.least(params)
