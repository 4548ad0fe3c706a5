"""The ``class-to-subset`` argument, as it was imported before :mod:`implgraph.prover` (a compatibility module): it
lives in :mod:`implgraph.prover.arguments.class_to_subset`."""

from __future__ import annotations

from implgraph.prover.arguments.class_to_subset import (class_to_subset, class_to_subset_table,
                                                        class_to_subset_values)

__all__ = ["class_to_subset", "class_to_subset_table", "class_to_subset_values"]
