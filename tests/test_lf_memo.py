"""The memo of linear-program optima (implgraph.engines.lf._OPTIMA): with no table asked for, tight_at
gives the values it gives with tables, whether the optimum is computed or read from the memo (the
values themselves are checked against the brute force in test_checkedge)."""

from __future__ import annotations

import pytest

from implgraph.definitions import get
from implgraph.definitions.families import lf_model
from implgraph.engines import lf
from implgraph.engines.instance import samples_for

PAIRS = [("ldp", {}, "kt-closeness", {"k": 2}), ("mult-t-closeness", {}, "delta-disclosure-privacy", {}),
         ("dp", {}, "basic-beta-likeness", {})]


def _models(a, ap, b, bp, N, p=2):
    classed = a.needs_classes or b.needs_classes
    parts = lf.partitions_for(N) if classed else [(N,)]
    return [(s, lf_model(a, N, s, p, **ap), lf_model(b, N, s, p, **bp)) for s in parts], classed


@pytest.mark.parametrize("an,ap,bn,bp", PAIRS)
def test_values_without_tables_equal_those_with_tables(an, ap, bn, bp, monkeypatch):
    monkeypatch.setattr(lf, "_OPTIMA", {})
    a, b = get(an), get(bn)
    N = 3
    models, classed = _models(a, ap, b, bp, N)
    for level in samples_for(a, N):
        v, _ = lf.tight_at(a, b, models, level, N, 2, classed, lf.new_context())
        assert v is not None
        cold = lf.tight_at(a, b, models, level, N, 2, classed, lf.new_context(), tables=False)
        size = len(lf._OPTIMA)
        warm = lf.tight_at(a, b, models, level, N, 2, classed, lf.new_context(), tables=False)
        assert cold == warm == (v, None)
        assert len(lf._OPTIMA) == size > 0      # the second call read every optimum from the memo


def test_an_unknown_optimum_is_not_kept(monkeypatch):
    monkeypatch.setattr(lf, "_OPTIMA", {})

    class Timeout:
        def maximise(self, t):
            return "unknown", None

    assert lf._optimum(lambda: Timeout(), ("k",), "t") == "unknown"
    assert lf._OPTIMA == {}
