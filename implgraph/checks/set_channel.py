"""``kind: level`` claims about a randomized set channel (``mechanism: {set_channel: ...}``).

The channel is :mod:`implgraph.mechanisms.randomized_anonymization.channel` (sei2019 Section V-B); its
release's classes for ``S_j`` (Definition 10) are the core's tables
(:func:`~implgraph.mechanisms.randomized_anonymization.privacy.class_table`), so every registered definition's
level is computed by the definition's own code.

**Fixed parameters** (``set_channel: {p, eta, domain_size}``): the claim's ``level`` is at most ``eta`` and
the definition's class level is at least ``1 / max q`` (a weighted geometric mean of the class frequencies):

1. the channel is a distribution over the ``eta``-subsets, for every ``p`` and ``d`` (symbolic);
2. a class for ``S_j`` with ``m`` contributing records has ``n_v <= m``, ``sum n_v = eta m``, so
   ``eta max n_v <= sum n_v`` (z3);
3. the definition's level of one class is at least ``1 / max q``: for a class over any number ``k`` of values
   when the definition declares its class level for a symbolic ``k`` (``class_level_formula``; the term-wise
   argument of :func:`~implgraph.mechanisms.randomized_anonymization.facts.class_level_steps`), otherwise from
   the level the core computes with symbolic frequencies, on every piece, for ``k <= K_SYMBOLIC``
   (:func:`~implgraph.mechanisms.randomized_anonymization.facts.geometric_mean_bound`);
4. every release of every small database (``N <= 3`` records, two attributes, ``d_j <= 3``) is checked exactly.

1-3 hold for every ``N``, ``q`` and ``p``: ``proved`` when step 3 covers every ``k``, else ``verified-bounded``
with ``d_j <= K_SYMBOLIC``; a failing release in 4 refutes with the release as witness.

**Fixed parameters, closeness with Bayes inference** (``set_channel: {p, eta, domain_size, inference: bayes}``,
Definition 15 with ``B_j`` from eq. 12): with ``eta = d`` every record releases the whole domain with
probability 1, whose posterior is the prior, so every class is at EMD ``D[A, A] = 0`` (symbolic, every size);
small databases are checked exactly (a farther class refutes). Other fixed parameters are "unknown".

**Algorithm 1** (``set_channel: {parameters: algorithm-1, closeness, domain_size}``): as printed (lines 6-13
keep the least E_L2 over the subsets, i.e. the largest ``p``), a small database is searched for a release
whose class is farther than ``t`` (refuted, with the exact witness). The proof's reading (the smallest ``p``
over the subsets, as the text says, and Definition 15's ``B_j`` of a class the average of its records'
posteriors) is judged as the extra row ``<id>#reading``: the closed-form root, the monotonicity in ``p`` and
``B - A = g(x) v_Z`` are symbolic, the convexity is the claim named by ``rests_on`` (its own verdict), and small
databases are checked exhaustively.
"""

from __future__ import annotations

import functools
import itertools
from fractions import Fraction

import numpy as np
import sympy

from implgraph.checks.common import claim_symbols, claim_verdict, condition_in, parse_in, theorem_claim, when_region
from implgraph.checks.lp_convexity import check_lp_convexity, lp_certificate
from implgraph.definitions.levels import optimal_level, satisfies
from implgraph.core.table import table_from_rows
from implgraph.core.verdict import checker
from implgraph.definitions.base import get as get_definition
from implgraph.engines.set_channel_certificates import (closeness_certificate, diversity_certificate,
                                                        whole_domain_certificate)
from implgraph.mechanisms.randomized_anonymization import facts
from implgraph.mechanisms.randomized_anonymization.channel import SetChannel, posterior
from implgraph.mechanisms.randomized_anonymization.optimise import closeness_parameters
from implgraph.mechanisms.randomized_anonymization.privacy import (class_table, classes_of_records, closeness_level,
                                                                   emd)
from implgraph.mechanisms.randomized_anonymization.release import Release

__all__ = ["check_set_channel", "K_SYMBOLIC"]

K_SYMBOLIC = 5
"""Largest number of values of a class whose level the core computes with symbolic frequencies."""

SMALL = {"records": 3, "domain": 3}
"""The exhaustive check: databases of at most this many records over two attributes of at most this domain."""

REAL_VALUES = (sympy.Rational(1, 2), sympy.Integer(1))
"""The values a real symbol (a probability such as ``p_j``) takes in the exhaustive check (every ``p < 1`` gives
the channel the same support as ``1/2``)."""

SMALL_CLOSENESS = {"records": 2, "domain": 3}
"""The same for closeness (each release's classes need exact EMDs)."""


def _conditions(claim) -> list:
    """Every condition of the claim's ``when`` (equalities included), for its certificate."""
    names, _ = claim_symbols(claim)
    return [condition_in(claim, text, names) for text in claim.get("when") or []]


def _is_set_channel(claim) -> bool:
    spec = claim.get("mechanism")
    return isinstance(spec, dict) and isinstance(spec.get("set_channel"), dict)


def _positive(expr, kinds):
    """``expr`` with its integer symbols declared positive (the claim's ``when`` has them >= 1)."""
    return sympy.sympify(expr).subs({s: sympy.Symbol(s.name, integer=True, positive=True)
                                     for s in sympy.sympify(expr).free_symbols if kinds.get(s) == "integer"})


def _class_level_bound(definition) -> bool:
    """Step 3: the definition's level of one class over k values is >= 1/max q, for k = 1..K_SYMBOLIC (k = 1:
    the point mass, level >= 1; k >= 2: symbolic positive frequencies)."""
    return _class_level_bound_of(definition.name)


@functools.lru_cache(maxsize=None)
def _class_level_bound_of(name) -> bool:
    definition = get_definition(name)
    if definition.stronger != "larger":
        return False
    one = optimal_level(table_from_rows([[1, 0]], classes=["E"]), definition)   # a class over one value: q = 1
    if not one.defined or any(piece.value is None or not sympy.sympify(definition.level_from_raw(piece.value)) >= 1
                              for piece in one.pieces):
        return False
    for k in range(2, K_SYMBOLIC + 1):
        qs = sympy.symbols(f"q1:{k + 1}", positive=True)
        level = optimal_level(table_from_rows([list(qs)], classes=["E"]), definition)
        if not level.defined:
            return False
        for piece in level.pieces:
            if piece.value is None or not facts.geometric_mean_bound(definition.level_from_raw(piece.value), qs):
                return False
    return True


def _small_databases(d, n_max):
    """Databases with S_1 over ``d`` values and S_2 over 2 values, N = 1..n_max records (as columns)."""
    for n in range(1, n_max + 1):      # the order of the records changes no class: multisets of rows
        for rows in itertools.combinations_with_replacement(itertools.product(range(d), range(2)), n):
            yield {"S1": [r[0] for r in rows], "S2": [r[1] for r in rows]}


def _fixed(claim, spec):
    """The claim's symbol kinds, region and fixed-parameter expressions ``{p, eta, size, level}`` (a ``when``
    equality ``x == e`` substituted in them, as in the region)."""
    names, kinds = claim_symbols(claim)
    region, subs = when_region(claim, names, kinds)
    exprs = {k: sympy.sympify(parse_in(claim, spec.get(key), names)).subs(subs)
             for k, key in (("p", "p"), ("eta", "eta"), ("size", "domain_size"))}
    exprs["level"] = sympy.sympify(parse_in(claim, claim.get("level"), names)).subs(subs)
    kinds = {s: k for s, k in kinds.items() if s not in subs}
    return kinds, region, exprs


def _points(exprs, kinds, region, d, top=None):
    """The points of the claim's symbols (integers ``1..top``, default ``1..d``; reals :data:`REAL_VALUES`) in its
    region with domain size ``d`` and a set size ``1 <= eta <= d`` (``top`` given: any set size), each with the
    parameters ``{p, eta, level}`` there."""
    free = sorted(set().union(*(sympy.sympify(x).free_symbols for x in exprs.values())), key=str)
    points = []
    ranges = [range(1, (top or d) + 1) if kinds.get(s) == "integer" else REAL_VALUES for s in free]
    for values in itertools.product(*ranges):
        point = dict(zip(free, values))
        if sympy.sympify(exprs["size"]).subs(point) == d and region.contains(point) is True:
            at = {k: sympy.sympify(exprs[k]).subs(point) for k in ("p", "eta", "level")}
            if top is not None or (at["eta"].is_integer and 1 <= at["eta"] <= d):
                points.append((point, at))
    return points


def _set_size_in_domain(region, exprs, kinds):
    """Step 0: ``1 <= eta <= d`` on the claim's region (Section V-B draws ``eta`` distinct values of ``D(S_j)``).

    Returns ``(holds, evidence)``: ``holds`` True when decided on the region; otherwise a point of small values
    where it fails, if one is found, in the evidence."""
    eta, size = exprs["eta"], exprs["size"]
    if region.decide(sympy.And(1 <= eta, eta <= size)) is True:
        return True, ""
    for d in range(1, SMALL["domain"] + 1):
        for point, at in _points(exprs, kinds, region, d, top=d + 2):
            if not (at["eta"].is_integer and 1 <= at["eta"] <= d):
                shown = ", ".join(f"{k} = {v}" for k, v in sorted(point.items(), key=lambda kv: str(kv[0])))
                return False, (f"at {shown} the set size is {at['eta']} with a domain of {d} value(s): the channel "
                               f"draws eta distinct values of D(S_j), so no release exists there")
    return False, "1 <= eta <= domain size is not proved on the claim's region"


def _diversity(claim, spec, definition):
    kinds, region, exprs = _fixed(claim, spec)
    p, eta, size, level = (exprs[k] for k in ("p", "eta", "size", "level"))
    in_domain, outside = _set_size_in_domain(region, exprs, kinds)
    steps = {"1 <= eta <= domain size": in_domain,
             "channel over eta-subsets": facts.support_is_eta_subsets(_positive(p, kinds), _positive(eta, kinds),
                                                                      _positive(size, kinds)),
             "class counts: eta max n_v <= sum n_v": facts.class_count_bound() is True,
             "level <= eta": region.decide(level <= eta) is True}
    every_k = facts.class_level_steps(definition)
    bounded = not (every_k and all(every_k.values()))
    if bounded:
        steps[f"class level >= 1/max q (classes over <= {K_SYMBOLIC} values)"] = _class_level_bound(definition)
    else:
        steps["class level >= 1/max q for a class over any number k of values (the definition's declared level; "
              + " / ".join(every_k) + ")"] = True
    checked, seen = 0, set()
    for d in range(1, SMALL["domain"] + 1):
        points = _points(exprs, kinds, region, d)
        for cols in _small_databases(d, SMALL["records"]) if points else ():
            for point, at in points:
                params = {"S1": (list(range(d)), at["p"], int(at["eta"])), "S2": ([0, 1], 1, 1)}
                for records in facts.supported_records(cols, params):
                    checked += 1
                    key = (at["level"], tuple(sorted(tuple(c) for c, _ in classes_of_records(records, 0, d).values())))
                    if key in seen:
                        continue
                    seen.add(key)
                    rel = facts.release_of(cols, params, records)
                    if satisfies(class_table(rel, 0), definition, at["level"]) is False:
                        witness = {"params": {str(k): str(v) for k, v in point.items()}, "database": cols,
                                   "release": [rel.sets(i) for i in range(rel.N)]}
                        return claim_verdict(claim, "refuted", witness=witness,
                                        evidence=f"a release of a {rel.N}-record database is not at level "
                                                 f"{at['level']} for S1 (exact)")
    bound = f"{size} <= {K_SYMBOLIC}"
    summary = "; ".join(f"{k}: {'proved' if v else 'not shown'}" for k, v in steps.items())
    if not in_domain:
        return claim_verdict(claim, "unknown", evidence=f"{summary}: {outside}; the claim speaks of parameters the "
                                                        f"mechanism does not take ({checked} releases at points with "
                                                        f"1 <= eta <= d satisfy it)")
    if all(steps.values()) and not bounded:
        cert = diversity_certificate(kinds, _conditions(claim), p, eta, size, definition, level)
        return claim_verdict(claim, "proved", evidence=f"{summary} (every N, q, p and domain size; {checked} "
                                                       f"releases of small databases also checked exactly)",
                             details={"certificate": cert} if cert else {})
    if all(steps.values()):
        return claim_verdict(claim, "verified-bounded", bound=bound,
                        evidence=f"{summary} (every N, q and p; {checked} releases of small databases checked "
                                 f"exactly); the last step is bounded: the core evaluates a definition's level "
                                 f"only on a table with a fixed number of value columns, and the definition "
                                 f"declares no class level as a formula in the number of values k, so the "
                                 f"step is checked for each k <= {K_SYMBOLIC} (a class has at most {size} "
                                 f"values), hence the bound")
    return claim_verdict(claim, "unknown", evidence=f"{summary}; {checked} releases of small databases satisfy it")


def _printed_witness(ground, t_values=(Fraction(1, 10), Fraction(1, 5))):
    """A database and a release that Algorithm 1 as printed allows, with a class farther than t (exact)."""
    for d in (3, 4):
        for counts in itertools.product(range(1, 5), repeat=d):
            n = sum(counts)
            prior = [Fraction(c, n) for c in counts]
            for t in t_values:
                choice = closeness_parameters(counts, t, ground=ground, reading="printed")
                if choice.p == 0:
                    continue
                worst = max(itertools.combinations(range(d), choice.eta),
                            key=lambda z: emd(prior, posterior(prior, z, choice.p, choice.eta), ground))
                if emd(prior, posterior(prior, worst, choice.p, choice.eta), ground) <= t:
                    continue
                # S_2 holds a distinct value per record and t_2 = 1: Algorithm 1 releases it as is (p = 1, eta = 1),
                # so every class for S_1 is one record's rows
                s1 = [v for v, c in enumerate(counts) for _ in range(c)]
                other = closeness_parameters([1] * n, 1)
                made = _release_with(s1, worst, choice, d, n, other) if (other.p, other.eta) == (1, 1) else None
                if made is None:
                    continue
                release, i0 = made
                level = closeness_level(release, 0, prior, ground)
                if level > t:
                    return {"S1": s1, "S2": list(range(n)), "t_1": str(t), "t_2": "1", "ground": ground,
                            "p_1": str(choice.p), "eta_1": choice.eta, "record": i0 + 1,
                            "its_released_S1_set": list(worst), "class_emd": str(level)}
    return None


def _release_with(s1, worst, choice, d, n, other):
    """Record ``i0`` (one whose value is in ``worst`` when ``p = 1``) releases ``worst``; the others their value
    and the next ones; S_2 as is. None if ``worst`` has probability 0 for every record."""
    ch = SetChannel(list(range(d)), choice.p, choice.eta)
    i0 = next((i for i in range(n) if ch.prob(worst, s1[i]) != 0), None)
    if i0 is None:
        return None
    m1 = np.zeros((n, d), dtype=bool)
    for i in range(n):
        if i == i0:
            m1[i, list(worst)] = True
        else:
            m1[i, [(s1[i] + k) % d for k in range(choice.eta)]] = True
    return Release(["S1", "S2"], [list(range(d)), list(range(n))], [(choice.p, choice.eta), (other.p, other.eta)],
                   [m1, np.eye(n, dtype=bool)]), i0


def _text_reading(claim, ground):
    """``(verdict, evidence, certificate or None)`` of the proof's reading."""
    steps = {"B - A = g(x) v_Z": facts.posterior_direction(),
             "D[A, B] increasing in p": facts.distance_increases_in_p(),
             "closed-form root g(x*) = G": facts.closed_form_root()}
    for cid in claim.get("rests_on") or []:
        node = theorem_claim(cid)
        steps[f"{cid} (convexity)"] = (node is not None and isinstance(node.get("linear_program"), dict)
                                       and check_lp_convexity(node).verdict == "proved")
    checked, seen = 0, set()
    for d in range(1, SMALL_CLOSENESS["domain"] + 1):
        for cols in _small_databases(d, SMALL_CLOSENESS["records"]):
            counts = [cols["S1"].count(v) for v in range(d)]
            prior = [Fraction(c, len(cols["S1"])) for c in counts]
            for t in (Fraction(1, 10), Fraction(1, 4)):
                choice = closeness_parameters(counts, t, ground=ground)
                params = {"S1": (list(range(d)), choice.p, choice.eta), "S2": ([0, 1], 1, 1)}
                for sets in facts.supported_records(cols, params):
                    checked += 1
                    key = (tuple(counts), t, tuple(sorted(tuple(sorted(sets[i][0] for i in records))
                                                          for _, records in classes_of_records(sets, 0, d).values())))
                    if key in seen:
                        continue
                    seen.add(key)
                    if closeness_level(facts.release_of(cols, params, sets), 0, prior, ground) > t:
                        return "refuted", f"a release of {cols} is farther than t = {t} (exact)"
    summary = "; ".join(f"{k}: {'proved' if v else 'not shown'}" for k, v in steps.items())
    verdict = "proved" if all(steps.values()) else "unknown"
    nodes = [theorem_claim(cid) for cid in claim.get("rests_on") or []]
    convexity = [lp_certificate(n) if n is not None and isinstance(n.get("linear_program"), dict) else None
                 for n in nodes]
    cert = None
    if verdict == "proved" and len(convexity) == 1 and convexity[0] is not None:
        names, kinds = claim_symbols(claim)
        cert = closeness_certificate(kinds, _conditions(claim), get_definition(str(claim.get("definition"))),
                                     convexity[0], claim.get("params"))
    return verdict, f"{summary}; {checked} releases of small databases within t (exact)", cert


def _closeness(claim, spec, context):
    ground = str(spec.get("ground", "equal"))
    witness = _printed_witness(ground)
    if witness:
        v = claim_verdict(claim, "refuted", witness=witness,
                     evidence="Algorithm 1 as printed keeps the largest p over the subsets; the exact witness "
                              f"releases a class at EMD {witness['class_emd']} > t = {witness['t_1']}")
    else:
        v = claim_verdict(claim, "unknown", evidence="no witness found for Algorithm 1 as printed on small databases")
    if claim.get("reading"):
        verdict, evidence, cert = _text_reading(claim, ground)
        rv = claim_verdict(claim, verdict, evidence=evidence, details={"certificate": cert} if cert else {})
        rv.id = f"{claim.get('id')}#reading"
        rv.printed = rv.reading = str(claim.get("reading"))
        rv.expect = claim.get("reading_expect")
        v.details["reading_verdict"], v.details["reading_evidence"] = verdict, evidence
        if context is not None:
            context.setdefault("extra_rows", []).append(rv)
    return v


def _inferred_closeness(claim, spec):
    """Fixed ``(p, eta)`` with ``B_j`` inferred by Bayes' theorem (eq. 12, ``inference: bayes``)."""
    kinds, region, exprs = _fixed(claim, spec)
    ground = str(spec.get("ground", "equal"))
    in_domain, outside = _set_size_in_domain(region, exprs, kinds)
    steps = {"1 <= eta <= domain size": in_domain,
             "eta = d: a released set holds every value": region.decide(sympy.Eq(exprs["eta"], exprs["size"])) is True,
             "Pr(R = D(S_j) | v) = 1 for every v and p": facts.whole_domain_release(_positive(exprs["p"], kinds),
                                                                                   _positive(exprs["size"], kinds)),
             "B_j = A_j for the released D(S_j) (eq. 12), so a class's average of posteriors is A_j":
                 facts.posterior_of_whole_domain(),
             "D[A, A] = 0 (Definition 5)": facts.emd_to_itself(),
             "0 <= level": region.decide(exprs["level"] >= 0) is True}
    checked = 0
    for d in range(1, SMALL_CLOSENESS["domain"] + 1):
        points = _points(exprs, kinds, region, d)
        for cols in _small_databases(d, SMALL_CLOSENESS["records"]) if points else ():
            prior = [Fraction(cols["S1"].count(v), len(cols["S1"])) for v in range(d)]
            for point, at in points:
                params = {"S1": (list(range(d)), at["p"], int(at["eta"])), "S2": ([0, 1], 1, 1)}
                for rel in facts.supported_releases(cols, params):
                    checked += 1
                    far = closeness_level(rel, 0, prior, ground)
                    if far > at["level"]:
                        witness = {"params": {str(k): str(v) for k, v in point.items()}, "database": cols,
                                   "release": [rel.sets(i) for i in range(rel.N)], "class_emd": str(far)}
                        return claim_verdict(claim, "refuted", witness=witness,
                                             evidence=f"a release of a {rel.N}-record database has a class for S1 "
                                                      f"at EMD {far} > {at['level']} from A_1 (exact)")
    summary = "; ".join(f"{k}: {'proved' if v else 'not shown'}" for k, v in steps.items())
    if not in_domain:
        return claim_verdict(claim, "unknown", evidence=f"{summary}: {outside}; the claim speaks of parameters the "
                                                        f"mechanism does not take")
    if all(steps.values()):
        cert = whole_domain_certificate(kinds, _conditions(claim), exprs["p"], exprs["eta"], exprs["size"],
                                        get_definition(str(claim.get("definition"))), exprs["level"])
        return claim_verdict(claim, "proved", evidence=f"{summary} (every N, A_j, p and domain size; {checked} "
                                                       f"releases of small databases also checked exactly)",
                             details={"certificate": cert})
    return claim_verdict(claim, "unknown", evidence=f"{summary}: the symbolic argument covers only eta = d (every "
                                                    f"record releases the whole domain); {checked} releases of "
                                                    f"small databases are within the level")


@checker("level", when=_is_set_channel)
def check_set_channel(claim, context=None):
    """Judge a level claim about the set channel (fixed parameters, or Algorithm 1's)."""
    spec = claim["mechanism"]["set_channel"]
    if str(spec.get("parameters", "")) == "algorithm-1":
        return _closeness(claim, spec, context)
    if str(spec.get("inference", "")) == "bayes":
        return _inferred_closeness(claim, spec)
    return _diversity(claim, spec, get_definition(str(claim.get("definition"))))
