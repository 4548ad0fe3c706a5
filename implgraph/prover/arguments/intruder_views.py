"""``intruder-views``: an implication about the intruder's view (:mod:`implgraph.checks.intruder_views`), whose
certificate the check builds with :func:`views_certificate` (docs/arguments/intruder-views.md); no handler of the
search (the check is not a bound between two levels)."""

from __future__ import annotations

from implgraph.core import methods
from implgraph.core.simplified import simplified
from implgraph.prover.certificate import FORMAT, side, symbols_and_domain

METHOD = methods.INTRUDER_VIEWS
#: where the prover tries it (it has no handler of its own)
TRIED = "by the intruder-view check (`checks/intruder_views.py`), not a bound between two levels"

#: the multipliers of the ``intruder-views`` lemma for U = T^2 (implgraph.certify.lemmas.views): per compared pair of
#: views (x under D1, y under D2), U y - x as a combination of A's facts on one bucket
VIEW_MULTIPLIERS = {"P/P": {"P_": "T**2 - 1"}, "P/w": {"T*w_ - P_": "T", "P_": "T - 1"},
                    "v/P": {"T*P_ - v_": "1", "P_": "T**2 - T"}, "v/w": {"T*w_ - P_": "T", "T*P_ - v_": "1"}}


def views_certificate(a, a_params, a_classes, region, N, model, family, family_domain, attained):
    """The certificate of an implication about the intruder's view, method ``intruder-views``: A's side as declared,
    B the view ``k_I`` under ``model``, U = T^2 with :data:`VIEW_MULTIPLIERS`, and the tightness family ``family``
    (``[(count, value, class)]`` of binary rows, on ``family_domain``; the classes ``attained`` = ``(E, F)`` give U on
    the first bucket)."""
    kinds, domain = symbols_and_domain(region, [*a_params.values(), *(a_classes or {}).values()])
    blocks = [{"count": str(c), "value": str(simplified(v)), "class": label} for c, v, label in family]
    return {"format": FORMAT, "method": METHOD.name, "symbols": kinds, "domain": domain,
            "A": side(a, a_params, a_classes, N), "B": {"view": "k_I", "model": dict(model)},
            "min_classes": 1,   # each class is bounded against the whole table only: every partition, one class too
            "upper": "T**2", "upper_certificate": {"multipliers": VIEW_MULTIPLIERS}, "tight": True,
            "tightness": {"blocks": blocks, "domain": [str(c) for c in family_domain],
                          "attained": {"classes": list(attained), "bucket": 1}}}
