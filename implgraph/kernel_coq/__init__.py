"""Kernel-checked certificates: Coq files that replay implgraph's certificates against the library in ``coq/``.

- :mod:`implgraph.kernel_coq.harvest`: the JSON of every current certificate (verify, the matrices, bench_prover);
- :mod:`implgraph.kernel_coq.generate`: one certificate -> a Coq file stating the implication in the library's
  terms, proved by instantiating its argument's lemma (``COVERED`` lists the methods handled); its pieces are
  :mod:`~implgraph.kernel_coq.statement` (the statement), :mod:`~implgraph.kernel_coq.obligations` (the proof steps
  the methods share) and :mod:`~implgraph.kernel_coq.methods`, :mod:`~implgraph.kernel_coq.methods_distance`,
  :mod:`~implgraph.kernel_coq.methods_ratio` (each method's proof);
- :mod:`implgraph.kernel_coq.check`: generate, run ``coqc`` on each file and audit ``Print Assumptions`` against
  the standard axioms of Coq's real numbers.

A prototype: the certificate format will be settled by the prover's redesign; what is here does not depend on more
than the fields of ``implgraph-certificate/1`` it reads.
"""
