"""The answer at one instance of A => B (:class:`Instance`: fixed N and parameter values) and the notes of an
instance whose search stopped early (:data:`PENDING_TIGHT`, :data:`PENDING_SEARCH`, :data:`VACUOUS`); see
:mod:`implgraph.engines.instance`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Instance", "samples_for", "PENDING_TIGHT", "PENDING_SEARCH", "STAGES", "VACUOUS"]

#: the note of an instance where A is infinite on every table of every partition searched (e.g. a class smaller
#: than (alpha,k)'s k in each): an implication there holds of no table, and shows nothing
VACUOUS = "vacuous: A is infinite on every table searched"


def samples_for(d, N):
    """The raw levels of ``d`` at which the tight function is sampled."""
    return d.level_scale.samples(N)


@dataclass
class Instance:
    """A => B at one N and one assignment of the parameters."""

    N: int
    point: dict
    relation: str                       # implication | non-implication | unknown
    witness: dict | None = None         # exact table (rows, classes) + levels
    samples: list = field(default_factory=list)   # [(raw a, raw F(a))] as strings
    tight: str | None = None            # f in level units, fitted through the samples
    fit_range: str | None = None
    fit_upto: str | None = None         # the fit holds for raw levels of A up to this value
    raw_fit: str | None = None          # the fitted tight F(a) on raw levels (symbol a)
    trivial: bool = False
    f_status: str | None = None         # refuted | holds-at-samples | None
    f_witness: dict | None = None
    f_witness_degenerate: dict | None = None    # a witness where f is no valid level, beside f_witness
    note: str = ""
    proved_checked: bool = False        # the tight f proved for every N equals the exact values here


#: the notes of an instance whose first stage (:func:`analyse` with ``stage="first"``) found no witness
#: of A finite, B infinite and whose second stage has not run: with linear-fractional forms it is an
#: implication at this instance (the first stage is exact) whose tight f is not computed; on a grid
#: the finer grids are not searched (they may still hold a witness)
PENDING_TIGHT = "tight f not computed: the direction fails at another instance"
PENDING_SEARCH = "finer grids not searched: the direction fails at another instance"
#: the stages of :func:`analyse`
STAGES = ("all", "first", "rest")
