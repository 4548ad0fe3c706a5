"""The divergence witness-family lemma: a table family in N (and K) on which A's level stays bounded, B's does not.

A certificate of method ``divergence-family`` refutes A => B for every f: its ``family`` is blocks of equal records
``{"count", "values", "class"}`` (the count an expression in N, the values in K or numbers), for every N >= ``n0``
(and K >= ``K0``). Two kinds:

``support``
    numbers as values: A's level is finite and B's infinite on the table of every N >= n0. Re-derived here from
    the registry (each side's declared divergence, or declared ratio family, sides and subset size), never from the
    certificate's words, by where the records are zero: a divergence KL or Renyi between two distributions is infinite
    exactly where one is positive and the other zero (and so is the zero-concentrated level, sup_a D_a/a: at least
    KL, infinite there, and at most D_oo, finite elsewhere; between two records, or between the table's mean and the
    mean without one record, read on their supports as KL's); a class's mean is positive only where the table's is (so a class
    divergence is finite, and its value in N is computed here); a two-sided ratio is infinite exactly where a compared
    set's mean is 0 and the table's (or the other record's) positive: for subsets of j records, where j or more
    records are zero in a bucket the table has. Every count and every comparison of counts with j is decided for
    every N >= n0 (a polynomial in u = N - n0 with coefficients of one sign).
``unbounded``
    values in K: A compares pairs of records by KL or Renyi of order <= 2, and the chi-square divergence between any
    two distinct records is at most 1 both ways for every K >= K0 (a rational function of K with coefficients of
    one sign after K = K0 + u). Then D_2 = log(1 + chi^2) <= log 2 exactly, and KL <= chi^2 <= 1 because
    log u <= u - 1 (re-checked here: u - 1 - log u is 0 at u = 1 and its derivative (u - 1)/u has the sign of
    u - 1); an order in (1, 2) is at most D_2 by the monotonicity of the Renyi divergence in its order (cited: van
    Erven and Harremoes, IEEE Trans. Inf. Theory 60(7), 2014, Theorem 3). A removal side compares two averages of
    records: at most the largest over pairs by joint convexity (cited: ibid., Theorem 11). B's raw level is at least
    a ratio computed here from the family (two records, or the table against a set of j records of one block, or
    against a class), which tends to infinity with K for every N >= n0. A subset size may be a parameter symbol
    (``kdp(k=k2)``: sets of N - k2 records): the set must have 1 <= size <= its block's count at every point of the
    range the registry declares for it (1 <= k2 <= N - 1), which the certificate's ``domain`` must state exactly
    (:mod:`implgraph.certify.lemmas.divergence_family_domain`). Where B declares a divergence instead (KL
    against Renyi of order >= 2 between records), :mod:`implgraph.certify.lemmas.divergence_growth` re-checks it.

Either way, for every f the family's table (at a K beyond f's value) satisfies A at its bound and not B at f: no f
works at any N >= n0. A forged family (another count, another value) fails the re-computation.
"""

from __future__ import annotations

import sympy

from implgraph.certify.lemmas import lemma
from implgraph.certify.lemmas.divergence_family_domain import ParameterDomain, parameter_domain, side_names
from implgraph.certify.lemmas.divergence_family_table import mean, nonnegative_from, tends_to_oo
from implgraph.certify.log_facts import log_below_chord
from implgraph.certify.report import lemma_steps, steps_report as _report
from implgraph.core import methods
from implgraph.core.formula import parse_expr

__all__ = ["check"]

_N = sympy.Symbol("N", positive=True, integer=True)
_K = sympy.Symbol("K", positive=True)
_U = sympy.Symbol("u", nonnegative=True)


# -- reading the family ------------------------------------------------------------------------------------------------

def _rows(fam, names):
    out = []
    for row in fam.get("rows") or []:
        count = parse_expr(str(row["count"]), names)
        values = tuple(parse_expr(str(v), names) for v in row["values"])
        out.append((count, values, str(row.get("class") or "E1")))
    if not out or len({len(v) for _, v, _ in out}) != 1:
        raise ValueError("a family needs rows of one number of buckets")
    return out


def _side(cert, label):
    """``(definition, what)``: what the registry declares of a side: ``("div", Divergence)``, ``("ratio", family,
    sides, size)`` or None."""
    from implgraph.certify.registered import registered
    from implgraph.definitions.capabilities import AdditiveSlack, RatioLevel, SubsetSize
    from implgraph.definitions.divergences import divergence_of
    side = cert.get(label) or {}
    d = registered(side.get("definition"))
    if d is None:
        return None, None
    div = divergence_of(d, side.get("params"))      # an order read from the side's parameters
    if div is not None:
        return d, ("div", div)
    slack = d.declared(AdditiveSlack)
    if slack is not None:
        delta = (side.get("params") or {}).get(slack.param)
        return d, (None if delta is None else ("slack", slack.compares, parse_expr(str(delta), {})))
    ratio = d.declared(RatioLevel)
    if ratio is None:
        return d, None
    size = None
    if ratio.family == "subset":
        declared = d.declared(SubsetSize)
        params = {k: parse_expr(str(v), side_names(cert)) for k, v in (side.get("params") or {}).items()}
        size = None if declared is None else sympy.sympify(declared.size(_N, params))
    return d, ("ratio", ratio.family, ratio.sides, size)


# -- support families: finite and infinite by where records are zero ------------------------------------------------

def _positive(v) -> bool:
    return bool(v > 0)


def _class_divergence(div, rows):
    """Each class's divergence from the table, in N (a class's mean is positive only where the table's is)."""
    table = mean(rows, _N)
    out = {}
    for label in dict.fromkeys(r[2] for r in rows):
        members = [r for r in rows if r[2] == label]
        m = mean(members, sympy.Add(*[c for c, _, _ in members]))
        pairs = [(a, b) for a, b in zip(m, table) if a != 0]
        if div.kind == "kl":
            out[label] = sympy.Add(*[a * sympy.log(a / b) for a, b in pairs])
        else:
            out[label] = sympy.log(sympy.Add(*[a ** div.order * b ** (1 - div.order) for a, b in pairs])) / \
                (div.order - 1)
    return out


def _infinite(what, rows, n0, dom=None):
    """``(infinite, how)`` of a side's level on the family for every N >= n0 (and every point of the parameters'
    domain ``dom``); None where undecided."""
    start = {_N: n0}
    dom = dom or ParameterDomain(n0)
    buckets = range(len(rows[0][1]))
    zero = [[not _positive(v[l]) for _, v, _ in rows] for l in buckets]
    table_pos = [any(not z for z in zero[l]) for l in buckets]
    if what[0] == "div":
        div = what[1]
        if div.kind not in ("kl", "renyi", "zcdp"):
            return False, "a bounded divergence is never infinite"
        if div.kind == "zcdp" and div.compares not in ("pairs", "removal"):
            return None, "a zero-concentrated level of a class, not re-derived here"
        # (zcdp: sup_a D_a/a is >= KL and <= D_oo, so it is infinite exactly where KL is: on the same supports, between
        # two records as between the table and the table without one record)
        if div.compares == "pairs":
            bad = [(l, i, j) for l in buckets for i in range(len(rows)) for j in range(len(rows))
                   if not zero[l][i] and zero[l][j]]
            return bool(bad), ("records of two blocks, one positive where the other is 0" if bad else
                               "every two records are positive in the same buckets")
        if div.compares == "class":
            levels = _class_divergence(div, rows)
            return False, "each class's divergence from the table: " + "; ".join(
                f"{k}: {sympy.simplify(v)}" for k, v in levels.items())
        for i, (c, _, _) in enumerate(rows):        # removal: the others all 0 where the removed record is not
            one = sympy.expand(c - 1) == 0
            if not one and not nonnegative_from(c - 2, start):
                return None, f"block {i}'s count is 1 at some N and more at others"
            if one and any(not zero[l][i] and all(zero[l][j] for j in range(len(rows)) if j != i) for l in buckets):
                return True, f"removing the record of block {i} leaves 0 where the table is positive"
        return False, "removing any record leaves a positive mean wherever the table's is"
    if what[0] == "slack":
        return _slack_infinite(what, rows, n0)
    _, family, sides, size = what
    if family == "pairwise":
        bad = any(zero[l][i] and not zero[l][j] for l in buckets for i in range(len(rows)) for j in range(len(rows)))
        return bad, "two records, one 0 where the other is positive" if bad else "every record positive alike"
    if sides != "two-sided":
        return False, "a one-sided ratio of a set to the table is finite (the table is positive where the set is)"
    if family == "class":
        for label in dict.fromkeys(r[2] for r in rows):
            for l in buckets:
                if table_pos[l] and all(zero[l][i] for i, r in enumerate(rows) if r[2] == label):
                    return True, f"class {label} is 0 in bucket {l + 1}, where the table is positive"
        return False, "every class is positive wherever the table is"
    if size is None or not (dom.nonneg(size - 1) and dom.nonneg(_N - size)):
        return None, f"the subset size {size} is not within 1..N for every N >= {n0}"
    for l in buckets:
        if not table_pos[l]:
            continue
        zeros = sympy.Add(*[c for i, (c, _, _) in enumerate(rows) if zero[l][i]])
        if dom.nonneg(zeros - size):
            return True, f"{zeros} records are 0 in bucket {l + 1}, where the table is positive: a set of {size} of them"
        if not dom.nonneg(size - zeros - 1):
            return None, f"bucket {l + 1}: {zeros} zeros against sets of {size} records, undecided"
    return False, f"fewer than {size} records are 0 in every bucket the table has"


def _slack_infinite(what, rows, n0):
    """An additive slack x(S) <= e^eps y(S) + delta on every event S is met by a finite eps exactly where every event
    with y(S) = 0 has x(S) <= delta: the largest such S is the set of y's zeros. Between records (``pairs``), or the
    table P and the table without record i, Q_i (``removal``: P's zeros are every record's; Q_i's the other
    records', where record i's block has one record)."""
    _, compares, delta = what
    buckets = range(len(rows[0][1]))
    zero = [[not _positive(v[l]) for _, v, _ in rows] for l in buckets]
    pairs = []
    if compares == "pairs":
        pairs = [(rows[i][1], [l for l in buckets if zero[l][j]], True) for i in range(len(rows))
                 for j in range(len(rows)) if i != j]
    else:
        table = mean(rows, _N)
        for i, (c, v, _) in enumerate(rows):
            one = sympy.expand(c - 1) == 0
            many = not one and nonnegative_from(c - 2, {_N: n0})
            # Q_i is 0 where every other record is, and record i too unless its block has one record; where the
            # count is 1 at some N only, the larger set (every other block 0): a finite level is decided on it
            rest_zero = [l for l in buckets if all(zero[l][j] for j in range(len(rows)) if j != i) and
                         (not many or zero[l][i])]
            pairs.append((table, rest_zero, one or many))   # P against Q_i on Q_i's zeros (P's zeros are Q_i's)
    for x, zeros, exact in pairs:
        mass = sympy.Add(*[x[l] for l in zeros])
        if not nonnegative_from(delta - mass, {_N: n0}):
            if exact and nonnegative_from(mass - delta, {_N: n0}) and sympy.simplify(mass - delta) != 0:
                return True, f"a mass {mass} > delta = {delta} where the other distribution is 0"
            return None, f"a mass {mass} against delta = {delta}, undecided"
    return False, f"every event where one distribution is 0 has mass <= delta = {delta} in the other"


def _support_steps(cert, fam, wa, wb):
    n0 = int(fam.get("n0"))
    rows = _rows(fam, {"N": _N})
    steps = _table_steps(rows, {}, n0)
    dom, dom_steps = parameter_domain(cert, n0)
    steps += dom_steps
    if dom is None:
        return steps
    a_inf, a_how = _infinite(wa, rows, n0, dom)
    b_inf, b_how = _infinite(wb, rows, n0, dom)
    steps.append((f"A's level is finite for every N >= {n0}", a_inf is False, a_how))
    steps.append((f"B's level is infinite for every N >= {n0}", b_inf is True, b_how))
    return steps


def count_steps(rows, n0) -> list:
    """The family's counts are integers >= 1 summing to N for every N >= n0."""
    counts = [c for c, _, _ in rows]
    steps = [("the counts add up to N", sympy.simplify(sympy.Add(*counts) - _N) == 0, " + ".join(map(str, counts)))]
    integral = all(x.is_Integer for c in counts for x in sympy.Poly(sympy.expand(c.subs(_N, n0 + _U)), _U).all_coeffs())
    steps.append((f"each count is an integer >= 1 for every N >= {n0}",
                  integral and all(nonnegative_from(c - 1, {_N: n0}) for c in counts), "integer coefficients in N - n0"))
    return steps


def rows_text(fam) -> str:
    """A certificate family's rows as text, ``count x (values)``, for a lemma's description."""
    return ", ".join(f"{r.get('count')} x ({', '.join(map(str, r.get('values', [])))})" for r in fam.get("rows") or [])


def _table_steps(rows, start, n0):
    """The family is a table of N records for every N >= n0 (and K >= K0): counts integers >= 1 summing to N, each
    record a distribution."""
    steps = count_steps(rows, n0)
    sums = all(sympy.simplify(sympy.Add(*v) - 1) == 0 for _, v, _ in rows)
    nonneg = all(nonnegative_from(x, start) for _, v, _ in rows for x in v)
    steps.append(("each record is a distribution (values >= 0 adding up to 1)", sums and nonneg, "exact"))
    return steps


# -- unbounded families: chi-square at most 1, a ratio growing with K ------------------------------------------------


def _chi_square(x, y):
    return sympy.Add(*[(a - b) ** 2 / b for a, b in zip(x, y)])


def _a_bounded(div, rows, k0):
    """``[(what, ok, how)]``: A's level at most log 2 (Renyi 2, orders below by the cited monotonicity) or 1 (KL)."""
    start = {_K: k0}
    distinct = list(dict.fromkeys(v for _, v, _ in rows))
    chis = [_chi_square(x, y) for x in distinct for y in distinct if x != y]
    chi_ok = bool(chis) and all(nonnegative_from(1 - c, start) for c in chis)
    steps = [(f"chi^2 <= 1 between every two distinct records, both ways, for every K >= {k0}", chi_ok,
              "; ".join(str(sympy.factor(sympy.cancel(c))) for c in chis))]
    if div.kind == "kl":
        steps.append(("KL <= chi^2 (log u <= u - 1, re-checked: u - 1 - log u is 0 at 1, derivative (u - 1)/u)",
                      log_below_chord(), "exact"))
    elif div.kind == "renyi" and div.order == 2:
        steps.append(("D_2 = log(1 + chi^2) <= log 2", True, "the definition of D_2"))
    elif div.kind == "renyi" and div.order is not sympy.oo and 1 < div.order < 2:
        steps.append((f"D_{div.order} <= D_2 (cited: the Renyi divergence is nondecreasing in its order; van Erven "
                      "and Harremoes 2014, Theorem 3)", True, "cited"))
    else:
        steps.append(("A's divergence is KL or Renyi of order <= 2", False, f"{div.kind} {div.order}"))
    if div.compares == "removal":
        steps.append(("a removal compares two averages of records: at most the largest over pairs (cited: joint "
                       "convexity, van Erven and Harremoes 2014, Theorem 11)", True, "cited"))
    elif div.compares != "pairs":
        steps.append(("A compares pairs of records (or a removal)", False, div.compares))
    return steps


def _b_unbounded(what, rows, n0, dom=None):
    """``(ok, how)``: a ratio B's raw level is at least, tending to oo with K at every N >= n0 (a compared set of
    ``size`` records of one block: 1 <= size <= the block's count at every point of the parameters' domain ``dom``)."""
    dom = dom or ParameterDomain(n0)
    if what is None or what[0] != "ratio" or what[2] != "two-sided":
        return False, "B is no two-sided ratio of averages"
    _, family, _, size = what
    table = mean(rows, _N)
    cands = []
    for l in range(len(rows[0][1])):
        if family == "pairwise":
            cands += [(x[l] / y[l], f"bucket {l + 1}: {x[l]} / {y[l]}") for _, x, _ in rows for _, y, _ in rows
                      if x != y and y[l] != 0]
        elif family == "subset":
            cands += [(table[l] / v[l], f"bucket {l + 1}: the table against {size} records of a block of {c}")
                      for c, v, _ in rows if v[l] != 0 and size is not None and dom.nonneg(c - size)
                      and dom.nonneg(size - 1)]
        else:
            for label in dict.fromkeys(r[2] for r in rows):
                members = [r for r in rows if r[2] == label]
                m = mean(members, sympy.Add(*[c for c, _, _ in members]))
                if m[l] != 0:
                    cands.append((table[l] / m[l], f"bucket {l + 1}: the table against class {label}"))
    for ratio, how in cands:
        if tends_to_oo(ratio, n0):
            return True, f"{how} = {sympy.factor(sympy.cancel(ratio))}, unbounded in K"
    return False, "no compared ratio of the family grows without bound in K"


def _unbounded_steps(cert, fam, wa, wb):
    n0, k0 = int(fam.get("n0")), sympy.Rational(str(fam.get("K0")))
    rows = _rows(fam, {"N": _N, "K": _K})
    if any(v.has(_N) for _, vals, _ in rows for v in vals):
        return [("the records' values do not depend on N", False, "they do")]
    steps = _table_steps(rows, {_K: k0}, n0)
    if wa is None or wa[0] != "div":
        return steps + [("A declares a divergence", False, "registry")]
    if wb is not None and wb[0] == "div":       # B a divergence too: KL bounded, Renyi >= 2 not (divergence_growth)
        from implgraph.certify.lemmas.divergence_growth import divergence_steps
        return steps + divergence_steps(wa[1], wb[1], rows, k0, n0, fam)
    steps += _a_bounded(wa[1], rows, k0)
    dom, dom_steps = parameter_domain(cert, n0)
    steps += dom_steps
    if dom is None:
        return steps
    ok, how = _b_unbounded(wb, rows, n0, dom)
    over = "" if not dom.symbols else f" and every {', '.join(sorted(map(str, dom.symbols)))} in its declared range"
    steps.append((f"B's raw level grows without bound in K, for every N >= {n0}{over}", ok, how))
    return steps


def describe(cert) -> list:
    fam = cert.get("family") or {}
    rows = rows_text(fam)
    return [f"{(cert.get('A') or {}).get('definition')} =/=> {(cert.get('B') or {}).get('definition')} for every f: "
            f"the {fam.get('kind')} family {rows}, every N >= {fam.get('n0')}"]


@lemma(methods.DIVERGENCE_FAMILY, own_partitions=True, describe=describe)
def check(cert, ns=range(2, 13), timeout_ms=4000):
    """Re-check a divergence witness-family certificate (see the module notes)."""
    with lemma_steps(cert) as steps:
        _, wa = _side(cert, "A")
        _, wb = _side(cert, "B")
        steps.append(("both sides are registered, and declare a divergence or a ratio of averages",
                      wa is not None and wb is not None, "registry"))
        if wa is None or wb is None:
            return _report(steps)
        steps.append(("a non-implication (no f), nothing else claimed", cert.get("claim") == "no-f"
                      and not cert.get("tight") and cert.get("upper") is None, "exact"))
        for label in ("A", "B"):
            side = cert.get(label) or {}
            if side.get("family") == "class":
                steps.append((f"{label}'s classes: every partition (no minimum class size above 1, no maximum)",
                              str(side.get("min_class") or "1") == "1" and side.get("max_class") is None, "exact"))
        fam = cert.get("family") or {}
        if fam.get("kind") == "support":
            steps += _support_steps(cert, fam, wa, wb)
        elif fam.get("kind") == "unbounded":
            steps += _unbounded_steps(cert, fam, wa, wb)
        else:
            steps.append(("a family of a known kind (support, unbounded)", False, str(fam.get("kind"))))
    return _report(steps)
