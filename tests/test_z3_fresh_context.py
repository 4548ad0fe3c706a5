"""A region question answered by z3 depends on the question alone, not on the questions asked before it.

z3 5.4 ran on without end, past its time limit, on this small query over N, T and three logarithms (placeholders), in
the monomial bounds of its nonlinear arithmetic (a k-th root of a huge rational, which it does not interrupt): on its
own it is sat in a few hundredths of a second, but asked again in the same context after three answers of itself it
never came back (found by the pair matrix: mult-t-closeness => renyi-closeness(alpha=2), asked after the pairs before
it; the suite's lip => renyi-closeness(alpha=2) ran minutes on it). :func:`implgraph.solvers.z3_region.check` asks each
question in a context of its own. The loop runs in a child process, so that a hang fails the test (its time limit)
instead of stopping the suite.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

#: the query, as the region interface asked it (T >= 1, N >= 2; the Piecewise of two logarithms at least log N)
QUERY = """
(declare-fun T () Real) (declare-fun N () Int)
(declare-fun _0_log () Real) (declare-fun _1_log () Real) (declare-fun _2_log () Real)
(assert (<= 1.0 T))
(assert (<= 0.0 (+ (- 2.0) (to_real N))))
(assert (>= (ite (<= T (+ (- 1.0) (to_real N))) _1_log _0_log) _2_log))
(assert (= (<= 0.0 _0_log) (<= 1.0 (* (/ 1.0 (* T T)) (+ (- 1.0) (to_real N) (* 2.0 T) (* (to_real N) (* T T))
                                                          (* (- 2.0) (to_real N) T))))))
(assert (<= _0_log (+ (* (/ 1.0 (* T T)) (+ (- 1.0) (to_real N) (* 2.0 T) (* (to_real N) (* T T))
                                             (* (- 2.0) (to_real N) T))) (- 1.0))))
(assert (= (<= 0.0 _1_log) (<= 1.0 (* (/ 1.0 T) (+ 1.0 (* T T) (* (- 1.0) T))))))
(assert (<= _1_log (+ (* (/ 1.0 T) (+ 1.0 (* T T) (* (- 1.0) T))) (- 1.0))))
(assert (= (<= 0.0 _2_log) (<= 1.0 (to_real N))))
(assert (<= _2_log (+ (to_real N) (- 1.0))))
"""

CHILD = textwrap.dedent("""
    import sys, z3
    from implgraph.solvers import z3_region
    fs = list(z3.parse_smt2_string(sys.stdin.read()))
    T, N = z3.Real("T"), z3.Int("N")
    answers = [z3_region.check(fs, 300, {"T": T, "N": N})[0] for _ in range(20)]
    print(" ".join(answers))
""")


def test_a_question_asked_again_gets_its_answer_each_time():
    """20 answers of the query, each sat (T = N = 2 is a model: the logarithms' placeholders 0 <= ... <= 1 hold), in a
    child process given 120 s (a few hundredths of a second each on their own; the same context ran on after three)."""
    out = subprocess.run([sys.executable, "-c", CHILD], input=QUERY, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["sat"] * 20
