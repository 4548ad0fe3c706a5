"""The witness table and its Coq literals (:mod:`implgraph.kernel_coq.witness`): exact fractions, rationals as
``Q`` literals, boolean lists, a table's columns, classes and means, and the events over ``K`` buckets.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

__all__: list = []


# Q literals and lists ---------------------------------------------------------------------------------------------


def _q(x: Fraction) -> str:
    x = Fraction(x)
    return f"({x.numerator} # {x.denominator})" if x >= 0 else f"(Qmake ({x.numerator})%Z {x.denominator})"


def _bools(bs) -> str:
    return "[" + "; ".join("true" if b else "false" for b in bs) + "]"


# the table ------------------------------------------------------------------------------------------------------


class _Table:
    def __init__(self, rows, classes):
        self.rows = [[Fraction(str(v)) for v in row] for row in rows]
        self.N, self.K = len(self.rows), len(self.rows[0])
        names = list(dict.fromkeys(classes or [f"r{i}" for i in range(self.N)]))
        self.labels = [names.index(c) for c in (classes or [f"r{i}" for i in range(self.N)])]

    def col(self, b):
        return [r[b] for r in self.rows]

    def classes(self):
        out = {}
        for i, c in enumerate(self.labels):
            out.setdefault(c, []).append(i)
        return out

    def cmean(self, i, b):
        members = [k for k in range(self.N) if self.labels[k] == self.labels[i]]
        return sum(self.rows[k][b] for k in members) / len(members)

    def tmean(self, b):
        return sum(r[b] for r in self.rows) / self.N

    def mass(self, i, event):
        return sum(self.rows[i][b] for b in range(self.K) if event[b])


def _events(K):
    return [bs for bs in itertools.product((True, False), repeat=K)]
