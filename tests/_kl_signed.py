"""Does the solver sign KL's lowest chord piece above 0 (tests/test_chain_kl_pieces.py)?

The chain enhanced beta-likeness => basic beta-likeness => kl-closeness states basic beta-likeness's supremum piece
by piece only where each piece is >= 0 (B's strongest level: a table of one class has KL 0). The lowest piece,
U = ((N - 1) T log T + lo log lo)/N with lo = N - (N - 1) T, is >= 0 by x log x >= x - 1 (the terms sum to
(N - 1)(T - 1) + lo - 1 = 0), a fact the solver's abstraction of log must know; :data:`KL_LOW_SIGNED` says whether it
does in this tree.
"""

from __future__ import annotations

import sympy

from implgraph.core.region import Region

N = sympy.Symbol("N", integer=True, positive=True)
T = sympy.Symbol("T", positive=True)
LOW = N - (N - 1) * T
U_LOW = ((N - 1) * T * sympy.log(T) + LOW * sympy.log(LOW)) / N

KL_LOW_SIGNED = Region({N: "integer", T: "real"}, (T >= 1, N >= 2, T < N / (N - 1))).decide(sympy.Ge(U_LOW, 0)) is True
