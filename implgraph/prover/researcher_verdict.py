"""The prover's verdict on A => B from a chain holding a researcher's registered lemma (:mod:`.researcher`).

``B >= g(C)`` and ``C >= h(A)`` in strength on every table, each map preserving strength (checked by the checker),
give ``B >= g(h(A))``; the chain's certificate (method ``researcher-lemma``) lists every step, and
:mod:`implgraph.certify.lemmas.researcher` re-checks it. A chain is an upper bound on B's strength only: its f is
reported "tightness not derived"; a claimed f weaker than (or equal to) it is proved, a stronger one is left to the
bounded search (no refutation comes from a lemma).
"""

from __future__ import annotations

import sympy

from implgraph.core import methods
from implgraph.core.simplified import simplified

__all__ = ["researcher_verdict", "chain_certificate"]


def _map(origin, lemma, level):
    """The step's f at A's level ``level`` (B's units)."""
    from implgraph import definitions
    from implgraph.core.formula import parse_expr
    if origin == "built-in":
        from implgraph.engines.lemmas import _f_of
        return _f_of(lemma, level)
    a = definitions.get(lemma.a)
    sym = sympy.Symbol(a.level_symbol, real=True)
    return parse_expr(str(lemma.f), {a.level_symbol: sym}).xreplace({sym: level})


def chain_certificate(chain, a, b) -> dict:
    """The chain's certificate for :mod:`implgraph.certify` (method ``researcher-lemma``)."""
    from implgraph.engines.lemmas import _certificate
    from implgraph.prover.researcher import step_certificate
    steps, info, level = [], [], sympy.Symbol("x", real=True)
    for origin, lm in chain:
        if origin == "built-in":
            d_a, d_b = (_definition(n) for n in (lm.a, lm.b))
            steps.append({"kind": "built-in", "certificate": _certificate([lm], d_a, d_b, None)})
        else:
            steps.append(step_certificate(lm))
        level = _map(origin, lm, level)
        info.append({"name": lm.name, "origin": "researcher" if origin == "researcher" else "built-in",
                     "statement": lm.statement, "reference": lm.reference})
    return {"format": "implgraph-certificate/1", "method": methods.RESEARCHER_LEMMA.name,
            "A": {"definition": a.name}, "B": {"definition": b.name}, "f": str(level), "steps": steps,
            "lemmas": info, "min_classes": 1}


def _definition(name):
    from implgraph import definitions
    return definitions.get(name)


def _usable(chain) -> bool:
    """Every researcher lemma of the chain accepted by the checker."""
    from implgraph.prover.researcher import checked
    return all(checked(lm).ok for origin, lm in chain if origin == "researcher")


def _chain_text(chain) -> str:
    parts = []
    for origin, lm in chain:
        if origin == "researcher":
            cert = lm.certificate
            parts.append(f"the researcher's lemma '{lm.name}' ({lm.a} => {lm.b} with f = {lm.f}"
                         + (f"; {lm.statement}" if lm.statement else "") + (f"; reference: {lm.reference}"
                                                                           if lm.reference else "")
                         + f"; registered by a plugin, its certificate re-checked by implgraph.certify: P = "
                           f"{cert.get('factor')}, t(q) = {cert.get('term')}, c = {cert.get('constant')}"
                         + (f", powers {cert['power']}" if str(cert.get("power", 1)) != "1" else "") + ")")
        else:
            parts.append(f"the built-in lemma '{lm.name}' ({lm.a} => {lm.b} with f = {lm.f}; proved)")
    return "; then ".join(parts)


def researcher_verdict(a, b, region, raw_f, alpha, a_params=None, b_params=None) -> dict | None:
    """The prover's verdict from the first usable chain holding a researcher lemma, or None.

    Parameters and result as :func:`implgraph.engines.lemmas.lemma_verdict` (``verdict``, ``evidence``, ``tight``,
    ``tightness``, ``method``, ``details``); only ``proved`` is returned (an f stronger than the chain's is left to
    the bounded search). Definitions with parameters, or without classes, are not covered.
    """
    from implgraph.engines.bounds import T
    from implgraph.engines.lemmas import decide_with_integers
    from implgraph.prover.researcher import find_chains, registered_lemmas
    if a_params or b_params or a.params or b.params or not (a.needs_classes and b.needs_classes):
        return None
    if not registered_lemmas():
        return None
    for chain in find_chains(a.name, b.name):
        if not _usable(chain):
            continue
        level = a.level_from_raw(T)
        for origin, lm in chain:
            level = _map(origin, lm, level)
        g_raw = simplified(b.raw_from_level(level))
        g_level = simplified(b.level_from_raw(g_raw.subs(T, a.raw_from_level(alpha))))
        if raw_f is not None and decide_with_integers(region, b.at_least_as_strong(g_raw, raw_f)) is not True:
            continue
        names = [lm.name for o, lm in chain if o == "researcher"]
        cert = chain_certificate(chain, a, b)
        details = {"method": methods.RESEARCHER_LEMMA.name, "lemma_f": str(g_level),
                   "lemma_tightness": "not derived", "researcher_lemmas": names, "lemmas": cert["lemmas"],
                   "certificate": cert}
        argument = (f"A's optimal level {alpha} gives B's optimal level at least f({alpha}) = {g_level} on every table "
                    f"with equivalence classes (every N, every number of buckets, every partition; each step's f "
                    f"preserves strength, checked): {_chain_text(chain)}; rests on the researcher's lemma"
                    f"{'s' if len(names) > 1 else ''} " + ", ".join(f"'{n}'" for n in names))
        note = ("f is the chain's f" if raw_f is None or simplified(raw_f - g_raw) == 0
                else f"f is at most as strong as the chain's f = {g_level}")
        return dict(verdict="proved", evidence=f"proved for every parameter value (researcher lemma): {argument}; "
                    f"{note}; tightness not derived (an upper bound)", tight=None, tightness="not derived",
                    method=methods.RESEARCHER_LEMMA.name, details=details)
    return None
