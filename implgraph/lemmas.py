"""Researcher lemmas: ``implgraph.lemmas.register(Lemma(...))`` (see :mod:`implgraph.prover.researcher`).

Examples
--------
>>> from implgraph.lemmas import Lemma, register
>>> lemma = Lemma("support >= 1/max q", "frequency-l-diversity", "distinct-l-diversity", "ceiling(l)",
...               certificate={"factor": "top", "term": "top - q", "constant": "0"})
>>> register(lemma).name
'support >= 1/max q'
>>> unregister(lemma.name)
"""

from implgraph.prover.researcher import Lemma, load_errors, register, registered_lemmas, unregister

__all__ = ["Lemma", "register", "unregister", "registered_lemmas", "load_errors"]
