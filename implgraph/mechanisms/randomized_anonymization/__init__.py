"""sei2019's randomized anonymization system (Sei et al., IEEE TDSC 2019, Sections IV-VII).

Modules, one topic each:

- :mod:`~implgraph.mechanisms.randomized_anonymization.channel`: the per-attribute set channel of
  Section V-B as exact (sympy) probabilities, symbolic in ``p``, ``eta``, ``d``;
- :mod:`~implgraph.mechanisms.randomized_anonymization.release`: a data set anonymized with that channel
  (the aggregated expression) and its sampling column by column;
- :mod:`~implgraph.mechanisms.randomized_anonymization.release_json`: the JSON format of small releases, written
  and read back checked;
- :mod:`~implgraph.mechanisms.randomized_anonymization.domain`: a column's domain in order and its values as codes;
- :mod:`~implgraph.mechanisms.randomized_anonymization.columns`: the data's named columns read with pyarrow at
  any size, as integer codes;
- :mod:`~implgraph.mechanisms.randomized_anonymization.parquet`: a release as a Parquet file (domains and
  ``(p, eta)`` as column metadata), read back checked;
- :mod:`~implgraph.mechanisms.randomized_anonymization.privacy`: the privacy models of Section IV and
  Definitions 17-18 on a release (equivalence classes for S_j, Definition 10);
- :mod:`~implgraph.mechanisms.randomized_anonymization.optimise`: E_L2 (eq. 9) and Algorithm 1;
- :mod:`~implgraph.mechanisms.randomized_anonymization.reconstruct`: ValueAdding (eq. 17-18) and the
  Bayes reconstruction (eq. 19-27);
- :mod:`~implgraph.mechanisms.randomized_anonymization.rating`: the Rating method the evaluation compares with
  (Section VI), as sei2019 states it;
- :mod:`~implgraph.mechanisms.randomized_anonymization.distances`: L1, L2 and Hellinger (Definitions 7-9);
- :mod:`~implgraph.mechanisms.randomized_anonymization.facts`: the facts Theorems 2-4 rest on, checked
  symbolically or exhaustively (used by the claim checker of ``mechanism: {set_channel: ...}``).
"""
