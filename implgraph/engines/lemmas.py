"""Registered inequality lemmas between definitions outside the linear-fractional family, chained by the prover.

Each :class:`Lemma` is one small entry (pi-Base style): definitions A and B (by name: the registry is data),
B's level ``f`` as a formula in A's level, the statement, the reference, and either a proof handler (a
function returning the argument's steps ``{step: bool}``; the lemma is *proved* when every step holds) or a
citation only (the lemma is *cited*, and every verdict resting on it says so). A lemma states, for every
table with classes (every N, every number of buckets, every partition into classes): B's optimal level is
at least as strong as ``f`` of A's optimal level. The proofs work on one class over any number ``k`` of
values (:mod:`implgraph.definitions.class_bounds`); the table's level is the minimum of its classes' levels
for each definition here, and a nondecreasing ``f`` commutes with that minimum, so the class inequality
lifts to tables.

:func:`lemma_verdict` is the prover's entry (called where :func:`implgraph.engines.bounds.tight_bound` has no
argument): it chains lemmas from A to B (:func:`find_chain`), composes their f, checks that each f preserves
the order of strength (so that a table satisfying A at ``alpha`` satisfies B at ``f(alpha)``), compares a
claimed f with it, and reads the tightness off the uniform class (:func:`tightness_of`): a class uniform over
``m`` values has level ``m`` under both end definitions (their declared class levels at ``q_i = 1/k``), so the
composed f is tight wherever it equals ``ceiling`` of A's level.
"""

from __future__ import annotations

import functools
from collections import deque
from fractions import Fraction

import sympy

from implgraph import definitions
from implgraph.core import methods
from implgraph.core.concrete import ConcreteTable
from implgraph.core.formula import parse_expr
from implgraph.core.region import Region
from implgraph.core.simplified import simplified
from implgraph.definitions.class_bounds import capped_entropy, uniform_class_level
from implgraph.engines.lemma_entries import LEMMAS, Lemma
from implgraph.engines.recheck import raw_level, weaker
from implgraph.engines.witness import witness_json
from implgraph.prover.answer import T

__all__ = ["Lemma", "LEMMAS", "established", "find_chain", "find_chains", "lemma_verdict", "tightness_of",
           "decide_with_integers"]


@functools.lru_cache(maxsize=None)
def _steps(lemma: Lemma):
    if lemma.proof is None:
        return None
    steps = dict(lemma.proof() or {})
    if lemma.family == "capped":      # the steps are about g: the lemma's f must be g itself
        x = sympy.Symbol("x_", positive=True)
        steps["the lemma's f is g, exp(H) of the capped distribution"] = simplified(
            _f_of(lemma, x) - capped_entropy(x)) == 0
    return steps


def established(lemma: Lemma) -> tuple[str | None, dict]:
    """``("proved", steps)`` when the proof handler's steps all hold, ``("cited", steps)`` for a cited lemma,
    ``(None, steps)`` otherwise (a proof that fails and no citation: the lemma is not used)."""
    steps = _steps(lemma) or {}
    if steps and all(steps.values()):
        return "proved", steps
    return ("cited" if lemma.cited else None), steps


#: the longest chain of lemmas tried
MAX_CHAIN = 3


def find_chains(a: str, b: str, lemmas=None) -> list:
    """Every chain of established lemmas from definition ``a`` to ``b`` (lists of lemmas, no definition twice,
    at most :data:`MAX_CHAIN` lemmas), shortest first and in the registry's order; ``lemmas`` defaults to
    :data:`LEMMAS`."""
    registry = LEMMAS if lemmas is None else lemmas
    queue, found = deque([(a, [], (a,))]), []
    while queue:
        name, path, seen = queue.popleft()
        if name == b and path:
            found.append(path)
            continue
        if len(path) >= MAX_CHAIN:
            continue
        for lm in registry:     # a lemma's proof runs only when the search reaches its A
            if lm.a == name and lm.b not in seen and established(lm)[0] is not None:
                queue.append((lm.b, path + [lm], seen + (lm.b,)))
    return found


def find_chain(a: str, b: str, lemmas=None) -> list | None:
    """The first of :func:`find_chains` (the shortest, the earliest registered), or None."""
    chains = find_chains(a, b, lemmas)
    return chains[0] if chains else None


def _integers_for(expr, kinds):
    """``expr`` with each ``ceiling(x)`` / ``floor(x)`` replaced by a fresh integer ``c`` and the conditions
    ``x <= c < x + 1`` / ``x - 1 < c <= x`` (the solver sees no ceiling)."""
    conds, reps = [], {}
    for atom in sorted(expr.atoms(sympy.ceiling, sympy.floor), key=sympy.default_sort_key):
        c = sympy.Symbol(f"_c{len(reps)}", integer=True)
        x = atom.args[0]
        reps[atom] = c
        kinds[c] = "integer"
        conds += [x <= c, c < x + 1] if isinstance(atom, sympy.ceiling) else [x - 1 < c, c <= x]
    return expr.xreplace(reps), conds


def decide_with_integers(region: Region, cond):
    """``region.decide(cond)`` where ``cond`` may hold ``ceiling`` / ``floor`` (each an integer symbol bound to
    its argument): True / False / None."""
    cond = sympy.sympify(cond)
    if not cond.has(sympy.ceiling, sympy.floor):
        return region.decide(cond)
    kinds = {}
    new, conds = _integers_for(cond, kinds)
    return region.with_symbols(kinds).add(*conds).decide(new)


def _f_of(lemma: Lemma, level):
    """The lemma's f at A's level ``level`` (B's units)."""
    a = definitions.get(lemma.a)
    sym = sympy.Symbol(a.level_symbol, real=True)
    return parse_expr(lemma.f, {a.level_symbol: sym}).subs(sym, level)


@functools.lru_cache(maxsize=None)
def _monotone(lemma: Lemma) -> bool:
    """Does the lemma's f preserve strength (A's ``x`` at least as strong as ``y`` => B's ``f(x)`` at least as
    strong as ``f(y)``) on valid levels (raw >= 1)? Decided by the solver, ceilings as integers, or by the
    lemma's own proof steps (``monotone_by_proof``)."""
    if lemma.monotone_by_proof:
        return established(lemma)[0] == "proved"
    a, b = definitions.get(lemma.a), definitions.get(lemma.b)
    x, y = sympy.symbols("x_ y_", real=True)
    region = Region({x: "real", y: "real"}, (a.raw_from_level(x) >= 1, a.raw_from_level(y) >= 1,
                                            a.at_least_as_strong(x, y)))
    return decide_with_integers(region, b.at_least_as_strong(_f_of(lemma, x), _f_of(lemma, y))) is True


def tightness_of(a, b, g_raw, region) -> str | None:
    """Where the composed f (B's raw level in terms of A's raw level ``T``) is tight, by the uniform class.

    Both end definitions declare a class level equal to ``k`` at the uniform class over ``k`` values, so a table
    whose every record is uniform over ``m`` buckets (any partition) has both levels ``m``. At A's level
    ``alpha`` take ``m = ceiling(alpha)``: A holds at ``alpha`` and B's level is ``m``, so f is tight wherever it
    equals ``ceiling(alpha)``. Returns ``"every"`` (everywhere on ``region``), ``"integer"`` (at integer levels
    of A), or None (not derived).
    """
    for d in (a, b):
        uni = uniform_class_level(d)
        if uni is None or d.level_scale.identity is False or simplified(uni[0] - uni[1]) != 0:
            return None
    if decide_with_integers(region, sympy.Eq(g_raw, sympy.ceiling(T))) is True:
        return "every"
    n = sympy.Symbol("n_", integer=True, positive=True)
    if simplified(g_raw.subs(T, n) - n) == 0:
        return "integer"
    return None


def _uniform_table(m: int, N: int) -> ConcreteTable:
    """N records, each uniform over the first ``m`` of ``max(m, 2)`` buckets, in two classes (1 and N - 1)."""
    p = max(m, 2)
    row = [Fraction(1, m)] * m + [Fraction(0)] * (p - m)
    return ConcreteTable.from_fractions([row] * N, classes=["E1"] + ["E2"] * (N - 1))


def _refute_at_integer(a, b, raw_f, region, alpha, max_m=8):
    """A witness where the claimed f is stronger than B's level at an integer level ``m`` of A (where the
    uniform table is tight): (point, table, m), or None."""
    for m in range(1, max_m + 1):
        at = region.add(sympy.Eq(T, a.raw_from_level(m)))
        pt = at.find_point(sympy.Not(b.at_least_as_strong(sympy.Integer(m), raw_f)))
        if not pt:
            continue
        N_ = next((v for k, v in pt.items() if getattr(k, "name", "") == "N"), 2)
        table = _uniform_table(m, int(N_))
        target = simplified(raw_f.subs(pt).subs(T, a.raw_from_level(m)))
        ra, rb = raw_level(a, {}, table), raw_level(b, {}, table)
        if ra is not None and rb is not None and not target.free_symbols and ra >= m and weaker(b, rb, target):
            return pt, table, m
    return None


def _chain_text(chain) -> tuple[str, list, list]:
    parts, cited, info = [], [], []
    for lm in chain:
        how, steps = established(lm)
        word = "proved" if how == "proved" else "cited, not proved here"
        parts.append(f"lemma '{lm.name}' ({lm.a} => {lm.b} with f = {lm.f}; {lm.statement}; {word}"
                     + (f": {'; '.join(steps)}" if how == "proved" else "") + f"; reference: {lm.reference})")
        if how == "cited":
            cited.append(f"'{lm.name}' ({lm.reference})")
        info.append({"name": lm.name, "a": lm.a, "b": lm.b, "f": lm.f, "status": how, "reference": lm.reference,
                     "steps": {k: bool(v) for k, v in steps.items()}})
    return "; ".join(parts), cited, info


def _certificate(chain, a, b, where) -> dict:
    """The chain as a certificate for :mod:`implgraph.certify` (method ``inequality-lemmas``): its facts, the
    composed map of A's level (``x``, ``ceiling(x)`` once an integer-valued level is reached, or ``capped(x)``)
    and, where its tables attain it, that family (uniform or capped)."""
    from implgraph.certify.lemma_chain import FACTS, compose      # the checker's names of the class levels
    f = compose([FACTS[lm.fact][2] for lm in chain])
    family = {"capped": True} if chain[-1].family == "capped" else {"uniform": True}
    return {"format": "implgraph-certificate/1", "method": methods.INEQUALITY_LEMMAS.name,
            "A": {"definition": a.name, "class_level": FACTS[chain[0].fact][0]},
            "B": {"definition": b.name, "class_level": FACTS[chain[-1].fact][1]},
            "steps": [lm.fact for lm in chain], "f": f, "tight": where is not None,
            "tightness": dict(family, where=where) if where is not None else None,
            "lemmas": [{"name": lm.name, "reference": lm.reference} for lm in chain],
            # each lemma bounds one class's level by another's: it holds for every class, whatever the others
            "min_classes": 1}


def lemma_verdict(a, b, region, raw_f, alpha, a_params=None, b_params=None) -> dict | None:
    """The prover's verdict on A => B (f) from a chain of registered lemmas, or None (no chain, or f not shown).

    Parameters
    ----------
    a, b : Definition
    region : Region
        The claim's condition in terms of A's raw level ``T`` (and N, ...).
    raw_f : sympy expression or None
        B's claimed raw level in terms of ``T``; None: only that some f exists.
    alpha : Symbol
        A's level symbol (the tight f is written in it).
    a_params, b_params : dict
        The lemmas are stated for definitions without parameters: any parameter and the chain is not used.

    Returns
    -------
    dict or None
        Keyword arguments of the prover's result (``verdict``, ``evidence``, ``tight``, ``tightness``,
        ``method``, ``details``, and ``witness`` of a refutation).
    """
    if a_params or b_params or a.params or b.params:
        return None
    kept = None
    for chain in find_chains(a.name, b.name):
        if not all(_monotone(lm) for lm in chain):
            continue
        if len(chain) > 1 and any(lm.family != "uniform" for lm in chain):
            continue        # a transcendental f composed further: its tightness is not read (not tried)
        r = _chain_verdict(chain, a, b, region, raw_f, alpha)
        if r is None:
            continue
        if (r["verdict"] == "proved" and (raw_f is not None or r["tightness"] == "tight")) or r["verdict"] == "refuted":
            return r        # f proved (or, asked for the tight f, a tight one), or a witness against f
        kept = kept or r
    return kept


def _chain_verdict(chain, a, b, region, raw_f, alpha) -> dict | None:
    """:func:`lemma_verdict` on one chain of lemmas."""
    level = a.level_from_raw(T)
    for lm in chain:
        level = _f_of(lm, level)
    g_raw = simplified(b.raw_from_level(level))
    text, cited, info = _chain_text(chain)
    capped = len(chain) == 1 and chain[0].family == "capped"
    where = "every" if capped else tightness_of(a, b, g_raw, region)
    g_level = simplified(b.level_from_raw(g_raw.subs(T, a.raw_from_level(alpha))))
    details = {"method": "inequality lemmas", "lemmas": info, "lemma_f": str(g_level)}
    argument = (f"A's optimal level alpha gives B's optimal level at least f(alpha) = {g_level} on every table "
                f"(every N, every number of buckets, every partition into classes; a class's values are its buckets of "
                f"positive mean frequency), f nondecreasing (checked): {text}")
    if cited:
        argument += "; rests on a cited lemma: " + ", ".join(cited)
    every = (f"tight for every level: a table whose records all have the capped distribution (floor({alpha}) "
             f"values at 1/{alpha}, one at 1 - floor({alpha})/{alpha}) has A's level {alpha} and B's level {g_level}"
             if capped else f"tight for every level: a table whose records are all uniform over ceiling({alpha}) "
             f"buckets has A's level ceiling({alpha}) and B's level {g_level}")
    tight_text = {"every": every,
                  "integer": f"tight at every integer level {alpha} = m: a table whose records are all uniform over m "
                             "buckets (p >= m) has both levels m; at a non-integer level it is not claimed tight "
                             "(1/max q = exp(H) only for a distribution uniform on its support, whose level is an "
                             "integer, so the tight f there is larger; it is irrational in general and not derived)",
                  None: "tightness not derived"}[where]
    tight = g_level if where == "every" else None
    label = {"every": "tight", "integer": "tight at integer levels", None: "not derived"}[where]
    details["lemma_tightness"] = label
    if all(lm.fact for lm in chain):
        details["certificate"] = _certificate(chain, a, b, where)
    if raw_f is None:
        return dict(verdict="proved", evidence=f"proved for every parameter value (inequality lemmas): {argument}; "
                    f"f = {g_level} is {tight_text}", tight=tight, tightness=label, method="inequality lemmas",
                    details=details)
    if decide_with_integers(region, b.at_least_as_strong(g_raw, raw_f)) is True:
        same = simplified(raw_f - g_raw) == 0 or decide_with_integers(region, sympy.Eq(raw_f, g_raw)) is True
        if same:
            tightness, note = label, f"f is the lemmas' f, {tight_text}"
        elif where == "every":
            tightness, note = "loose", f"f is loose: the tight f is {g_level} ({tight_text})"
        else:
            tightness, note = "not derived", f"f is at most as strong as the lemmas' f = {g_level} ({tight_text})"
        return dict(verdict="proved", evidence=f"proved for every parameter value (inequality lemmas): {argument}; "
                    + note, tight=tight, tightness=tightness, method="inequality lemmas", details=details)
    if where is None:
        return None
    wit = _refute_at_integer(a, b, raw_f, region, alpha)
    if wit is None:
        return None
    pt, table, m = wit
    rb = raw_level(b, {}, table)
    shown = {str(k): v for k, v in pt.items() if k != T}
    evidence = (f"f is stronger than B's level on a table satisfying A at {alpha} = {m}: every record uniform over "
                f"{m} buckets gives {a.name} level {m} and {b.name} level {b.level_from_raw(sympy.sympify(rb))} "
                f"< f = {b.level_from_raw(simplified(raw_f.subs(pt).subs(T, a.raw_from_level(m))))}"
                + (f" at {shown}" if shown else "") + f"; the lemmas' f = {g_level} is {tight_text}")
    return dict(verdict="refuted", evidence=evidence, tight=tight, tightness="wrong", method="inequality lemmas",
                details=details, witness=witness_json(table, shown, **{str(alpha): m}))
