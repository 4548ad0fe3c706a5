"""Certificates of the prover's "proved", as they were imported before :mod:`implgraph.prover` (a compatibility
module): the header is :mod:`implgraph.prover.certificate`'s, each method's parts its argument module's
(:func:`implgraph.prover.registry.certificate_parts`). New code imports from :mod:`implgraph.prover.certificate`.
"""

from __future__ import annotations

from implgraph.core import methods as _methods
from implgraph.prover.arguments.intruder_views import VIEW_MULTIPLIERS, views_certificate
from implgraph.prover.certificate import (EVERY_TABLE_METHODS, FORMAT, certificate, class_floor_certificate,
                                          every_partition_certificate, weakest_level_certificate)
from implgraph.prover.certificate import side as _side
from implgraph.prover.registry import parts_of as _parts_of

__all__ = ["certificate", "class_floor_certificate", "weakest_level_certificate", "every_partition_certificate",
           "EVERY_TABLE_METHODS", "FORMAT", "METHODS", "VIEW_MULTIPLIERS", "views_certificate", "_side"]

#: method name -> its registered certificate parts (the methods certified by a lemma of their own, not composites)
METHODS: dict = {name: p for name in _methods.names() if (p := _parts_of(name)) is not None and p.whole is None}
