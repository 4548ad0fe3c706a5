"""The :class:`ProofContext` of one search: the two sides, their parameters and classes, the claim's region with the
parameters' ranges, N and T, and what every argument reads of them (subset sizes, class sizes), built once."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import sympy

from implgraph.prover.answer import T
from implgraph.prover.shapes import (as_definition, class_distance_of, class_level, param_ranges, subset_size_expr)

__all__ = ["ProofContext"]


@dataclass
class ProofContext:
    """A => B at the parameters, on ``region`` (the claim's condition in terms of A's raw level T), N records.

    Build it with :meth:`build`, which reads names as registered definitions, gives B's classes a default where B
    compares classes (any partition: classes of >= 1 record) and adds the parameters' ranges to the region.
    """

    a: object
    b: object
    a_params: dict
    b_params: dict
    a_classes: dict | None
    b_classes: dict | None
    region: object
    N: object
    T: sympy.Symbol = T

    @classmethod
    def build(cls, a, b, a_params, b_params, region, N, a_classes=None, b_classes=None) -> "ProofContext":
        a, b = as_definition(a), as_definition(b)
        if (class_level(b) or class_distance_of(b, b_params)) and not b_classes:
            b_classes = {"min_size": sympy.Integer(1)}   # any partition: classes of size >= 1
        region = region.add(*param_ranges(a, b, a_params, b_params, N, b_classes))
        return cls(a, b, a_params, b_params, a_classes, b_classes, region, N)

    @cached_property
    def ja(self):
        """A's subset size (a two-sided subset level), or None."""
        return subset_size_expr(self.a, self.N, self.a_params)

    @cached_property
    def jb(self):
        """B's subset size (a two-sided subset level), or None."""
        return subset_size_expr(self.b, self.N, self.b_params)

    @cached_property
    def a_distance(self):
        """The class distance A declares at its parameters, or None."""
        return class_distance_of(self.a, self.a_params)

    @cached_property
    def b_distance(self):
        """The class distance B declares at its parameters, or None."""
        return class_distance_of(self.b, self.b_params)

    @property
    def s(self):
        """B's minimum class size (sympy; 1 where B's classes state none)."""
        return sympy.sympify((self.b_classes or {}).get("min_size", 1))
