"""Exact foundations: formulas, regions, symbolic pieces, tables, levels, verdicts."""
