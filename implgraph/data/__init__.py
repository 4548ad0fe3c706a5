"""Bundled data: theorems/ and counterexamples/ are installed here by the wheel, beside the published pair matrices.

:data:`MATRIX` is ``implgraph matrix --json`` at the stated parameter values and :data:`MATRIX_SYMBOLS` with the
parameters as symbols (``--parameters symbols``), as published: the explorer (``implgraph site``) reads the first by
default, after a plain ``pip install .`` too.
"""

from pathlib import Path

__all__ = ["MATRIX", "MATRIX_SYMBOLS"]

#: the published pair matrix (stated parameter values)
MATRIX = Path(__file__).resolve().parent / "matrix.json"
#: the published pair matrix with the integer parameters as symbols
MATRIX_SYMBOLS = Path(__file__).resolve().parent / "matrix-symbols.json"
