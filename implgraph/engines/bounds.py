"""The prover's arguments, as they were imported before :mod:`implgraph.prover` (a compatibility module).

The arguments live in :mod:`implgraph.prover.arguments` (one module each, registered with
:mod:`implgraph.prover.registry`); :func:`tight_bound` and :func:`ceiling_bound` are
:mod:`implgraph.prover.search`'s. New code imports from :mod:`implgraph.prover`.
"""

from __future__ import annotations

from implgraph.prover.answer import ANY_BUCKETS, BINARY_EXTREMAL, Bound, ProofResult, T
from implgraph.prover.arguments.chain import finite_level_chain
from implgraph.prover.arguments.min import capped_finite_level
from implgraph.prover.arguments.subset_distance import subset_distance_facts
from implgraph.prover.arguments.subset_supremum import subset_supremum
from implgraph.prover.arguments.subset_to_one_sided import subset_one_sided_bound as _subset_one_sided_bound
from implgraph.prover.arguments.subset_to_one_sided import subset_one_sided_upper
from implgraph.prover.attained import attained_ceiling
from implgraph.prover.search import ceiling_bound, tight_bound
from implgraph.prover.shapes import (any_partition, as_definition, class_distance_of, compares, decide,
                                     declared_subset_size, integer_param, level_conditions, lowest_raw, param_ranges,
                                     subset_size_expr)
from implgraph.prover.tables import CAP_SPLIT

__all__ = ["ANY_BUCKETS", "BINARY_EXTREMAL", "Bound", "ProofResult", "T", "tight_bound", "ceiling_bound",
           "any_partition", "class_distance_of", "lowest_raw", "param_ranges", "subset_size_expr",
           "declared_subset_size", "compares", "decide", "as_definition", "integer_param", "level_conditions",
           "attained_ceiling", "finite_level_chain", "capped_finite_level", "subset_supremum", "subset_one_sided_upper",
           "subset_distance_facts", "CAP_SPLIT", "_subset_one_sided_bound"]
