"""Exact foundations: formulas, regions, symbolic pieces, tables, verdicts.

Nothing here imports another part of implgraph: the solver a region asks is registered from above
(:mod:`implgraph.core.backends`).
"""
