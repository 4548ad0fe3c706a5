"""Coq proofs of ``subset-to-one-sided`` certificates (``max-value``) beyond a one-sided class level as B from a
two-sided subset level as A (:func:`implgraph.kernel_coq.methods._max_value`, ``MaxValue.max_value``):

- B one record against the table (a one-sided subset level of size 1, pointwise maximal leakage): the same
  obligation, by ``MaxValueSets.max_value_subset`` (a set is the class of its records under labels of its own);
- A a one-sided subset level of size 1 (pointwise maximal leakage as A), B a one-sided class level: the *j largest*
  and *mass* obligations with j = 1, by ``MaxValueSets.max_value_one``.

Each of U's ``Min`` components is proved from the certificate's multipliers (:func:`implgraph.kernel_coq.obligations
._bounded`): an edited U, multiplier or size makes ``coqc`` reject the file.
"""

from __future__ import annotations

from implgraph.kernel_coq.methods import _max_value
from implgraph.kernel_coq.obligations import _bounded, _need

__all__ = ["max_value", "METHODS", "MODULES"]

MODULES = ("MaxValue", "MaxValueSets")


def _facts(rd):
    g = rd.gens
    T, N, M, H = g["T"], g["N"], g["b_"], g["a_"]
    return T, N, M, H


def max_value(f):
    """Proof lines of a ``subset-to-one-sided`` certificate."""
    A, B = f.cert.A, f.cert.B
    rd, tr = f.rd, f.tr
    one = rd.poly("1")
    b_record = B.family == "subset" and B.sides == "OneSided" and B.size is not None and rd.poly(B.size) == one
    if A.family == "subset" and A.sides == "TwoSided" and B.family == "class" and B.sides == "OneSided":
        return _max_value(f)
    T, N, M, H = _facts(rd)
    if A.family == "subset" and A.sides == "TwoSided" and b_record and f.a is not None:
        j = rd.poly(A.size)
        kernel = [("all", N * T - N + 1, T), ("j largest", j * T * (N - 1) - (j - 1) * N, N - j)]
        facts = {"T*(N - M) - (N - 1) >= 0": T * (N - M) - (N - 1),
                 "j*T - (j - 1)*H - M >= 0": j * T - (j - 1) * H - M,
                 "(N - 1)*H - (N - M) >= 0": (N - 1) * H - (N - M)}
        atoms = [(">=", M), (">=", H)] + [(">=", x) for x in facts.values()]
        lines = [f"apply (max_value_subset N K x ({tr.expr(A.size)}) T); "
                 "[exact Htab | isnat | lra | lra | lra | exact HA | | lra].",
                 "unfold max_value_obl. intros vb va. intros."]
        return lines + _bounded(f, M, None, kernel, f.cert.multipliers, facts, atoms)
    a_record = A.family == "subset" and A.sides == "OneSided" and A.size is not None and rd.poly(A.size) == one
    _need(a_record and f.a is not None and B.family == "class" and B.sides == "OneSided",
          "max-value needs A a two-sided subset level (B a one-sided class level or one record against the table) or "
          "A one record against the table (B a one-sided class level)")
    j = one
    kernel = [("j largest", j * T * (N - 1) - (j - 1) * N, N - j), ("mass", N, one)]
    facts = {"j*T - (j - 1)*H - M >= 0": j * T - (j - 1) * H - M,
             "(N - 1)*H - (N - M) >= 0": (N - 1) * H - (N - M), "N - M >= 0": N - M}
    atoms = [(">=", M), (">=", H)] + [(">=", x) for x in facts.values()]
    lines = ["apply (max_value_one N K x cls T); [exact Htab | lra | exact HA |].",
             "unfold max_value_one_obl. intros vb va. intros."]
    return lines + _bounded(f, M, None, kernel, f.cert.multipliers, facts, atoms)


METHODS = {"subset-to-one-sided": max_value}
