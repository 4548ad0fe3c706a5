"""Bundled data: theorems/ and counterexamples/ are installed here by the wheel."""
