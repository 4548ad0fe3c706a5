"""The attribute names definitions declared before capabilities were typed, read-only and derived from the
declarations (:mod:`implgraph.definitions.capabilities`) while the prover and the checker still read them.

Nothing may set them: a class that does is refused where it is registered
(:func:`implgraph.definitions.validation.old_form_error`). Once no reader is left this module and the base class
go (a test greps the readers: ``tests/test_capabilities.py``).
"""

from __future__ import annotations

from implgraph.definitions.capabilities import (AdditiveSlack, ClassDistance, ClassLevel, ClassSizeLevel, FiniteLevelOf,
                                                MinClassSize, RatioLevel, SubsetSize, TailRatio, family_of)

__all__ = ["OldNames"]


class OldNames:
    """The old names, each a read-only property (or method) derived from the declared capabilities."""

    def subset_size(self, N, **params):
        """Old name: the size j of the record subsets a ``subset`` ratio level compares with the whole table (its
        declared :class:`~implgraph.definitions.capabilities.SubsetSize`) at ``N`` and ``params``; None otherwise."""
        size = self.declared(SubsetSize)
        return None if size is None else size.size(N, params)

    def class_distance(self, **params):
        """Old name: the class distance the level is at ``params`` (its declared
        :class:`~implgraph.definitions.capabilities.ClassDistance`), or None."""
        distance = self.declared(ClassDistance)
        return None if distance is None else distance.at(params, self.words)

    @property
    def family(self):
        """Old name: the declared RatioLevel's family, ``"class"`` for another level over classes, else None."""
        return family_of(self)

    @property
    def sides(self):
        """Old name: the declared RatioLevel's sides, or None."""
        ratio = self.declared(RatioLevel)
        return None if ratio is None else ratio.sides

    @property
    def class_size_level(self) -> bool:
        """Old name: is ClassSizeLevel declared?"""
        return self.has(ClassSizeLevel)

    @property
    def min_class_param(self):
        """Old name: the declared MinClassSize's parameter, or None."""
        cap = self.declared(MinClassSize)
        return None if cap is None else cap.param

    @property
    def slack_compares(self):
        """Old name: the declared AdditiveSlack's records compared, or None."""
        cap = self.declared(AdditiveSlack)
        return None if cap is None else cap.compares

    @property
    def tail_ratio_param(self):
        """Old name: the declared TailRatio's parameter, or None."""
        cap = self.declared(TailRatio)
        return None if cap is None else cap.param

    @property
    def finite_level_of(self):
        """Old name: the declared FiniteLevelOf's definition, or None."""
        cap = self.declared(FiniteLevelOf)
        return None if cap is None else cap.name

    @property
    def increase_cap(self):
        """Old name: the declared FiniteLevelOf's increase cap, or None."""
        cap = self.declared(FiniteLevelOf)
        return None if cap is None else cap.increase_cap

    @property
    def class_level_formula(self):
        """Old name: the declared ClassLevel's formula (a function of a GenericClass), or None."""
        cap = self.declared(ClassLevel)
        return None if cap is None else cap.formula
