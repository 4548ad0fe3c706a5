"""The checker's lemmas about claims other than a ratio bound between two levels, one module per lemma.

Each module states its lemma (what the checker trusts, with its proof) and registers the function that re-checks a
certificate invoking it, under the certificate's ``method`` (:func:`lemma`); :func:`implgraph.certify.check_certificate`
dispatches here. A lemma derives its obligations from the certificate's statement; the certificate gives only the data
(multipliers, a table family, closed forms), which the checker re-checks exactly (:mod:`.proof`).

================================  ==============================================================================
method                            claim
================================  ==============================================================================
``intruder-views``                :mod:`.views`: a class level bounds the privacy of the intruder's view of one
                                  individual (domingo-ferrer2015 Proposition 3, under its views model)
``set-channel-diversity``         :mod:`.set_channel`: every release of the randomized set channel has a class
                                  level of at least eta (sei2019 Theorems 2, 3)
``set-channel-whole-domain``      :mod:`.set_channel`: with eta = d every class is at EMD 0 (sei2019 Table V)
``set-channel-closeness``         :mod:`.set_channel`: Algorithm 1, read as its text, releases t-close classes
                                  (sei2019 Theorem 4's reading)
``transport-mixture``             :mod:`.transport`: the optimum of a transportation program is convex in a
                                  marginal (sei2019 Lemma 1)
``researcher-lemma``              :mod:`.researcher`: a researcher's registered lemma between class levels
                                  (:mod:`.class_inequality`), chained with the built-in lemmas
================================  ==============================================================================
"""

from __future__ import annotations

__all__ = ["LEMMAS", "lemma", "describe"]

#: ``{method: check(cert, ns, timeout_ms) -> CertificateReport}``
LEMMAS: dict = {}
#: ``{method: describe(cert) -> [str]}``: the certificate as text, for ``implgraph certificate --text``
DESCRIBE: dict = {}


def lemma(method, describe=None):
    """Register the decorated ``check(cert, ns, timeout_ms)`` for certificates whose ``method`` is ``method``."""
    def register(check):
        LEMMAS[method] = check
        if describe is not None:
            DESCRIBE[method] = describe
        return check
    return register


def describe(cert) -> list:
    """The certificate's statement and data as lines of text (empty for a method registered without a description)."""
    return list(DESCRIBE.get(cert.get("method"), lambda c: [])(cert))


# the modules register their lemmas on import
from implgraph.certify.lemmas import researcher, set_channel, transport, views  # noqa: E402,F401
