"""The ceiling-family lemma: B's own ceiling is its supremum under A, by a witness family.

A certificate of method ``ceiling-family`` says that the supremum of B's raw level over the tables of N records whose
A raw level is at most T is ``upper`` = U, for every T > 0 and N on its domain. It holds

- one ``part``: the certificate of B's own ceiling (``one-sided-ceiling``: a one-sided class ratio is at most N/s;
  ``divergence-ceiling``: a class's KL or Renyi divergence is at most log(N/s)), the same B and the same U, re-checked
  as it stands (the upper bound, whatever A);
- a ``family`` of tables satisfying A whose B level reaches U or tends to it (the lower bound). Two kinds:

``approach``
    blocks of equal records ``{"count", "values", "class"}``, counts in N, values in K (K >= K0, N >= n0). (Where A
    is a zero-concentrated level between records, the values are in K and T and the family is re-derived by
    :mod:`implgraph.certify.lemmas.ceiling_family_zcdp`, A's level cited from coq/theories/ZcdpCeiling.v.) Re-checked
    symbolically: the family is a table (counts integers >= 1 adding up to N, each record a distribution); A names a
    registered definition declaring a KL, Renyi (order in (1, 2]), total variation or hockey-stick (gamma >= 1)
    divergence whose raw level is the divergence itself, between pairs of records, under record removal or between
    a class and the table; chi^2 both ways and the total variation between every two distinct records are rational
    functions of K, >= 0 for K >= K0, tending to 0 (numerator of lower degree). Then A's level on the family is at
    most the largest of them: KL <= log(1 + chi^2) <= chi^2 and log(1 + chi^2) <= chi^2 (log w <= w - 1, re-checked),
    D_alpha <= D_2 = log(1 + chi^2) for alpha <= 2 (cited: the Renyi divergence is nondecreasing in its order; van
    Erven and Harremoes, IEEE Trans. Inf. Theory 60(7), 2014, Theorem 3), the hockey-stick at gamma >= 1 at most the
    total variation (each term max(x - gamma y, 0) <= max(x - y, 0)); a removal or a class compares two mixtures of
    records, at most the largest divergence between two records (cited: joint convexity, ibid. Theorem 11, and of
    every f-divergence). B names a registered one-sided class ratio on any partition, and one class's mean over the
    table's in one bucket, a rational function of K, tends to U as K grows (equal degrees, leading coefficients'
    quotient U, for every N); or B names a registered one-sided ratio of subsets whose declared size is 1 (one record
    against the table, e.g. pointwise maximal leakage), and one record's value over the table's mean in one bucket
    tends to U (B's level is the largest such ratio, so at least that record's). So for every T > 0 the family's tables at large K satisfy A at T with B as close to U
    as asked: the supremum is U. ``attained: "no"`` is accepted only where A is a KL or Renyi divergence between
    records or under record removal and U = N: B = N needs a class of one record positive in a bucket where every
    other record is 0, where that divergence is infinite.
``uniform``
    ``uniform_blocks`` (:mod:`implgraph.certify.family`): A meets T on the family at every sampled point, by the common
    family check (with B read there as the one-sided class ratio, which must be N/c on the family, c its smallest
    block), and, symbolically, each block's class is uniform over values of its own, so its ratio to the table is
    N/c_j on each of its buckets and its KL and every Renyi divergence from the table are log(N/c_j) (re-derived
    with the number of values a symbol); B names a registered KL or Renyi class divergence on any partition, and
    U = log(N/c) with c the smallest block for every N >= n0: attained there. Where A's registered definition
    declares one of its parameters a minimum class size s (``MinClassSize``), every block has >= s records for
    N >= n0 (and A's classes are read with that minimum in the family check); n0 > 2 only where the family's own
    domain states N >= n0 (two classes of >= s records: 2 s <= N).

The domain must state T > 0 (A's strongest level, 0, is outside the claim). A forged family (another value, another
count) fails the re-derivation.
"""

from __future__ import annotations

import sympy

from implgraph.certify.lemmas import lemma
from implgraph.certify.lemmas.divergence_family import _chi_square, _rows, _side, _table_steps
from implgraph.certify.log_facts import log_below_chord
from implgraph.certify.lemmas.divergence_family_table import mean, nonnegative_from
from implgraph.certify.report import lemma_steps, steps_report as _report
from implgraph.core import methods
from implgraph.core.errors import InputError
from implgraph.core.formula import parse_expr

__all__ = ["check"]

_N = sympy.Symbol("N", positive=True, integer=True)
_K = sympy.Symbol("K", positive=True)
_CEILINGS = (methods.ONE_SIDED_CEILING.name, methods.DIVERGENCE_CEILING.name)


def _read(text):
    return parse_expr(str(text), {"N": _N, "K": _K})


def _same(x, y) -> bool:
    return sympy.simplify(sympy.expand_log(x - y, force=True)) == 0


def _any_partition(side) -> bool:
    return str(side.get("min_class") or "1") == "1" and side.get("max_class") is None


# -- approach: A's level tends to 0, B's to U ------------------------------------------------------------------------

def _tends_to_zero(expr) -> bool:
    """A rational function of K (no other symbol) whose numerator has the smaller degree: it tends to 0."""
    num, den = sympy.fraction(sympy.cancel(sympy.together(expr)))
    if (num.free_symbols | den.free_symbols) - {_K}:
        return False
    if num == 0:
        return True
    pn, pd = sympy.Poly(num, _K), sympy.Poly(den, _K)
    return pn.degree() < pd.degree()


def _tends_to(expr, U) -> bool:
    """A rational function of K (coefficients in N) tending to U as K grows: equal degrees in K, the leading
    coefficients' quotient U identically in N."""
    num, den = sympy.fraction(sympy.cancel(sympy.together(expr)))
    if not num.has(_K) and not den.has(_K):
        return False
    pn, pd = sympy.Poly(num, _K), sympy.Poly(den, _K)
    return pn.degree() == pd.degree() and _same(pn.LC() / pd.LC(), U)


def _total_variation(x, y, k0):
    """TV(x, y) = sum of the positive parts of x - y, each bucket's sign decided for K >= k0; None if undecided."""
    out = sympy.Integer(0)
    for a, b in zip(x, y):
        if nonnegative_from(a - b, {_K: k0}):
            out += a - b
        elif not nonnegative_from(b - a, {_K: k0}):
            return None
    return out


def _a_steps(d, div, rows, k0):
    """A's level on the family at most a rational function of K tending to 0 (module notes)."""
    x_ = sympy.Symbol("x", positive=True)
    steps = [("A's raw level is its divergence (the registry's level of a raw value is that value)",
              d is not None and sympy.simplify(d.level_from_raw(x_) - x_) == 0, "registry")]
    kinds = {"kl": "KL <= log(1 + chi^2) <= chi^2 (log w <= w - 1, re-checked)",
             "tv": "the total variation itself",
             "hockey-stick": "the hockey-stick at gamma >= 1 is at most the total variation (max(x - gamma y, 0) <= "
                             "max(x - y, 0))",
             "renyi": "D_alpha <= D_2 = log(1 + chi^2) <= chi^2 for alpha in (1, 2] (cited: van Erven and Harremoes "
                      "2014, Theorem 3; log w <= w - 1, re-checked)"}
    ok_kind = div.kind in ("kl", "tv") or (div.kind == "hockey-stick" and div.order is not None and
                                            bool(sympy.sympify(div.order) >= 1)) or \
        (div.kind == "renyi" and div.order is not sympy.oo and 1 < div.order <= 2)
    steps.append((f"A's divergence is bounded by chi^2 or the total variation: {kinds.get(div.kind, div.kind)}",
                  ok_kind and log_below_chord(), f"{div.kind} {div.order}"))
    if div.compares in ("removal", "class"):
        steps.append((f"A compares two mixtures of records ({div.compares}): at most the largest divergence between "
                      "two records (cited: joint convexity; van Erven and Harremoes 2014, Theorem 11, and every "
                      "f-divergence's)", True, "cited"))
    elif div.compares != "pairs":
        steps.append(("A compares pairs, removal or classes", False, div.compares))
    distinct = list(dict.fromkeys(v for _, v, _ in rows))
    bounds = []
    for i, x in enumerate(distinct):
        for y in distinct[i + 1:]:
            bounds += [_chi_square(x, y), _chi_square(y, x), _total_variation(x, y, k0)]
    ok = bool(bounds) and all(b is not None for b in bounds)
    ok = ok and all(nonnegative_from(b, {_K: k0}) and _tends_to_zero(b) for b in bounds)
    steps.append((f"chi^2 both ways and the total variation between every two distinct records are >= 0 for every "
                  f"K >= {k0} and tend to 0 as K grows", ok,
                  "; ".join(str(sympy.factor(sympy.cancel(b))) for b in bounds if b is not None)))
    return steps


def _lone_record(wb) -> bool:
    """Does the registry declare B a one-sided ratio of one record (a subset of size 1) against the table?"""
    return wb is not None and wb[:3] == ("ratio", "subset", "one-sided") and wb[3] is not None \
        and sympy.simplify(wb[3] - 1) == 0


def _b_steps(cert, wb, rows, U):
    """B a one-sided class ratio on any partition, or a one-sided ratio of one record against the table; one class's
    (one record's) ratio to the table in a bucket tends to U."""
    lone = _lone_record(wb)
    ok = lone or (wb is not None and wb[0] == "ratio" and wb[1] == "class" and wb[2] == "one-sided")
    steps = [("B declares a one-sided class ratio, or a one-sided ratio of one record against the table, on any "
              "partition", ok and _any_partition(cert.get("B") or {}), "registry")]
    table = mean(rows, _N)
    found = None
    # B's level is at least one set's ratio: a class's mean, or (sets of one record) each block's record itself
    sets = [(f"record of block {i + 1}", [(sympy.Integer(1), r[1], r[2])]) for i, r in enumerate(rows)] if lone else \
        [(f"class {label}", [r for r in rows if r[2] == label]) for label in dict.fromkeys(r[2] for r in rows)]
    for label, members in sets:
        m = mean(members, sympy.Add(*[c for c, _, _ in members]))
        for l in range(len(table)):
            if m[l] != 0 and _tends_to(m[l] / table[l], U):
                found = f"{label}, bucket {l + 1}: {sympy.factor(sympy.cancel(m[l] / table[l]))}"
                break
        if found:
            break
    steps.append((f"a {'record' if lone else 'class'}'s mean over the table's tends to U = {U} as K grows, for "
                  "every N", found is not None,
                  found or "no compared ratio tends to U"))
    return steps


def _approach_steps(cert, fam, wa, wb, U):
    if wa is not None and wa[0] == "div" and wa[1].kind == "zcdp":     # the family parametrised by T (1b)
        from implgraph.certify.lemmas.ceiling_family_zcdp import zcdp_approach_steps
        return zcdp_approach_steps(cert, fam, wa, wb, U, _b_steps)
    n0, k0 = int(fam.get("n0")), sympy.Rational(str(fam.get("K0")))
    rows = _rows(fam, {"N": _N, "K": _K})
    if any(v.has(_N) for _, vals, _ in rows for v in vals):
        return [("the records' values do not depend on N", False, "they do")]
    steps = _table_steps(rows, {_K: k0}, n0)
    steps.append((f"the domain is within N >= {n0}", f"N >= {n0}" in (cert.get("domain") or []), "exact"))
    if wa is None or wa[0] != "div":
        return steps + [("A declares a divergence", False, "registry")]
    from implgraph.certify.registered import registered
    d = registered((cert.get("A") or {}).get("definition"))
    steps += _a_steps(d, wa[1], rows, k0)
    steps += _b_steps(cert, wb, rows, U)
    attained = fam.get("attained")
    if attained == "no":
        div = wa[1]
        steps.append(("not attained: A is KL or Renyi between records or under removal (infinite where a record is "
                      "positive and the others 0, which B = N needs) and U = N",
                      div.kind in ("kl", "renyi") and div.compares in ("pairs", "removal") and _same(U, _N), "exact"))
    elif attained != "not claimed":
        steps.append(("the family says whether U is attained ('no' or 'not claimed')", False, str(attained)))
    return steps


# -- uniform: attained -----------------------------------------------------------------------------------------------

def _uniform_divergence(div, c):
    """The KL or Renyi divergence from the table of a class of c records uniform over M values of its own (M a
    symbol), simplified: log(N/c) is expected."""
    M = sympy.Symbol("M", positive=True, integer=True)
    mine, table = 1 / M, c / (_N * M)
    if div.kind == "kl":
        return M * mine * sympy.log(mine / table)
    if div.order is sympy.oo:
        return sympy.log(mine / table)
    a = sympy.sympify(div.order)
    return sympy.log(M * mine ** a * table ** (1 - a)) / (a - 1)


def _uniform_steps(cert, fam, wb, U, ns):
    from implgraph.certify.domain import Domain
    from implgraph.certify.family import check_family
    blocks = fam.get("uniform_blocks") or []
    steps = [("a uniform family of blocks, each a class of its own", bool(blocks) and
              len({str(b.get("class")) for b in blocks}) == len(blocks), f"{len(blocks)} blocks")]
    ok = wb is not None and wb[0] == "div" and wb[1].compares == "class" and wb[1].kind in ("kl", "renyi")
    steps.append(("B declares a KL or Renyi divergence of each class from the table, on any partition",
                  ok and _any_partition(cert.get("B") or {}), "registry"))
    if not ok or not steps[0][1]:
        return steps
    floor, floor_steps = _a_floor(cert)
    steps += floor_steps
    n0 = int(fam.get("n0", 2))
    steps.append((f"the family is claimed where N >= {n0} (its own domain says so)", n0 >= 2 and
                  (n0 == 2 or _states(fam.get("domain") or [], sympy.Ge(_N, n0))), str(fam.get("domain"))))
    counts = [_read(b["count"]) for b in blocks]
    steps.append((f"the counts add up to N, each >= {floor} (A's smallest class) for every N >= {n0}",
                  _same(sympy.Add(*counts), _N) and all(nonnegative_from(c - floor, {_N: n0}) for c in counts),
                  " + ".join(map(str, counts))))
    div = wb[1]
    each = [_uniform_divergence(div, c) for c in counts]
    same = all(_same(e, sympy.log(_N / c)) for e, c in zip(each, counts))
    steps.append(("each block's class is uniform over values of its own, at N/c_j times the table's mean on each: "
                  "its divergence from the table is log(N/c_j)", same, "; ".join(f"log(N/({c}))" for c in counts)))
    small = next((c for c in counts if all(nonnegative_from(o - c, {_N: n0}) for o in counts)), None)
    steps.append((f"U = log(N/c), c the smallest block for every N >= {n0}", small is not None and
                  _same(U, sympy.log(_N / small)), f"c = {small}"))
    if small is None:
        return steps
    tightness = {"uniform_blocks": blocks, **({"domain": fam["domain"]} if fam.get("domain") else {})}
    probe = {**cert, "A": {**(cert.get("A") or {}), "min_class": str(floor)},
             "B": {"family": "class", "sides": "one-sided", "min_class": "1"}, "upper": f"N/({small})",
             "tight": True, "tightness": tightness}
    ok, how = check_family(probe, Domain(probe), ns)
    where = f" where {' and '.join(fam['domain'])}" if fam.get("domain") else ""
    steps.append((f"A meets T on the family{where} (and its smallest class holds N/c times the table's mean)", ok, how))
    return steps


def _states(conditions, rel) -> bool:
    """Is ``rel`` one of ``conditions`` (texts), read exactly (in sympy's canonical form)?"""
    from implgraph.core.formula import parse_condition
    for text in conditions:
        try:
            got = parse_condition(str(text), {"N": _N, "T": sympy.Symbol("T", positive=True)})
        except InputError:
            continue
        if isinstance(got, sympy.core.relational.Relational) and got.canonical == rel.canonical:
            return True
    return False


def _a_floor(cert):
    """``(s, steps)``: A's smallest class, the parameter its registered definition declares a minimum class size
    (``MinClassSize``: its level is infinite on a smaller class), else 1."""
    from implgraph.certify.registered import registered
    from implgraph.definitions.capabilities import MinClassSize
    A = cert.get("A") or {}
    a = registered(A.get("definition"))
    declared = None if a is None else a.declared(MinClassSize)
    value = None if declared is None else (A.get("params") or {}).get(declared.param)
    if value is None:
        return sympy.Integer(1), []
    s = parse_expr(str(value), {})
    ok = s.is_Integer and s >= 1
    return (s if ok else sympy.Integer(1)), [(f"A's registered definition declares its parameter {declared.param} a "
                                              f"minimum class size: s = {value}", ok, "registry")]


def describe(cert) -> list:
    fam = cert.get("family") or {}
    return [f"{(cert.get('A') or {}).get('definition')} => {(cert.get('B') or {}).get('definition')}: the supremum is "
            f"B's ceiling {cert.get('upper')} (the {fam.get('kind')} family; the ceiling's certificate inside)"]


@lemma(methods.CEILING_FAMILY, describe=describe)
def check(cert, ns=range(2, 13), timeout_ms=4000):
    """Re-check a ceiling-family certificate (see the module notes)."""
    from implgraph.certify.composite import recheck_parts
    with lemma_steps(cert) as steps:
        U = _read(cert.get("upper"))
        parts = cert.get("parts") or []
        steps.append(("one part: the certificate of B's own ceiling", len(parts) == 1 and
                      parts[0].get("method") in _CEILINGS, ", ".join(str(p.get("method")) for p in parts)))
        if len(parts) != 1:
            return _report(steps)
        steps += recheck_parts(cert, parts, ns, timeout_ms, lambda i, part: (
            "the part bounds the same B by the same U, whatever A", part.get("B") == cert.get("B")
            and _same(_read(part.get("upper")), U) and not part.get("tight")))
        steps.append(("the supremum is claimed (tight), for A's levels T > 0", cert.get("tight") is True and
                      "T > 0" in (cert.get("domain") or []), "exact"))
        _, wa = _side(cert, "A")
        _, wb = _side(cert, "B")
        fam = cert.get("family") or {}
        if fam.get("kind") == "approach":
            steps += _approach_steps(cert, fam, wa, wb, U)
        elif fam.get("kind") == "uniform":
            steps += _uniform_steps(cert, fam, wb, U, ns)
        else:
            steps.append(("a family of a known kind (approach, uniform)", False, str(fam.get("kind"))))
    return _report(steps)
