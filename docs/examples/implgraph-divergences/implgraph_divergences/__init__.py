"""Divergence-based privacy definitions (docs/sections/divergences.md), one module each."""
