"""The weakest-family lemma: B's weakest level is the tight f under A, attained by a family of tables.

A certificate of method ``weakest-family`` says that the supremum of B's raw level over the tables of N records whose
A raw level meets T is ``upper`` = U, B's weakest raw level, for every T and N on its domain (and the family's own).
The upper bound is B's registered scale's: every table meets its weakest level. Re-checked here, from the registry and
the certificate's numbers alone:

- U is B's weakest raw level as its registered scale declares it (exact, in N);
- the ``family``: blocks ``{"count", "values", "class"}`` (counts in N, numbers of values in N and T), each block's
  records uniform over that block's values, shared within the block and disjoint from the other blocks' (class
  ``"own"``: each record its own class). The counts are integers >= 1 for every N >= 2 adding up to N; a
  ``lone-record`` family's one class is uniform over its values (c_j/v_j the same for every block, symbolically), so
  A's declared level of a uniform class is the class's;
- B's level of the family is U, symbolically: the family's ``kind`` is the one B's registered declarations call for,
  and one quantity B's level is the largest of equals U for every N >= 2 whatever the numbers of values V_j (symbols):
  ``lone-record`` (B a total variation or a hockey-stick at a number gamma >= 1 between two records, or between the
  table and the table without one record): the divergence between records of two blocks (disjoint supports), or between
  the table and the table without a record of a block, both ways; ``singletons`` (B the smallest class's size): 1;
- A meets T on the family: A's registered level of the family's table at sampled N and T on the domain (exact); the
  family's own domain only the registry's conditions (where a uniform class meets T, two records or a class of A's
  minimum size).

A forged certificate (another U, another count, a family that does not meet A, a domain of its own the registry does
not give) fails a step.
"""

from __future__ import annotations

import sympy

from implgraph.certify.lemmas import lemma
from implgraph.certify.report import lemma_steps, steps_report as _report
from implgraph.core import methods
from implgraph.core.errors import InputError
from implgraph.core.formula import parse_expr

__all__ = ["check", "b_witness"]

_N = sympy.Symbol("N", positive=True, integer=True)
_T = sympy.Symbol("T", positive=True)
_n = sympy.Symbol("n", nonnegative=True, integer=True)     # N = n + 2
#: the most records the family's table is built with (A's level at sampled N)
_MAX_N = 6


def _read(text):
    return parse_expr(str(text), {"N": _N, "T": _T})


def _symbols(cert) -> dict:
    """The certificate's parameter symbols (plain symbols, by name): a parameter's value may be one (``k4``)."""
    return {n: sympy.Symbol(n) for n in (cert.get("symbols") or {}) if n not in ("N", "T") and str(n).isidentifier()}


def _param(cert, text):
    """A parameter's value read with the certificate's symbols."""
    return parse_expr(str(text), _symbols(cert))


def _same(x, y) -> bool:
    return sympy.simplify(sympy.expand_log(sympy.sympify(x) - y, force=True)) == 0


def _kind_of(b, params):
    """The family B's registered declarations call for, and B's divergence (or None; :data:`RECORD_RATIO` for a
    one-sided ratio of one record to the table)."""
    from implgraph.definitions.capabilities import ClassSizeLevel, MinClassSizeAboveWeakest, RatioLevel, SubsetSize
    from implgraph.definitions.divergences import divergence_of
    div = divergence_of(b, params)
    if div is not None:
        if div.compares not in ("pairs", "removal"):
            return None, div
        if div.kind == "tv":
            return "lone-record", div
        g = sympy.sympify(div.order) if div.kind == "hockey-stick" else None
        ok = g is not None and g.is_number and g.is_finite and bool(g >= 1)
        return ("lone-record" if ok else None), div
    ratio, size = b.declared(RatioLevel), b.declared(SubsetSize)
    if ratio is not None and (ratio.family, ratio.sides) == ("subset", "one-sided") and size is not None:
        one = sympy.sympify(size.size(_N, {k: sympy.sympify(v) for k, v in params.items()})) == 1
        return ("lone-record" if one else None), (RECORD_RATIO if one else None)
    floor = b.has(MinClassSizeAboveWeakest)
    return ("singletons" if b.has(ClassSizeLevel) or floor else None), None


#: B a one-sided ratio of one record's mean to the table's (a subset ratio level of subsets of size 1)
RECORD_RATIO = "record-ratio"


def _phi(div, p, q):
    """The divergence's term of one bucket, p and q the two distributions' masses there."""
    if div.kind == "tv":
        return sympy.Abs(sympy.factor(sympy.cancel(p - q))) / 2
    return sympy.Max(sympy.factor(sympy.cancel(p - sympy.sympify(div.order) * q)), 0)


def _divergence(div, groups, p, q):
    """The divergence of two distributions given bucket group by bucket group (``groups``: the number of buckets of
    each, p and q the mass of each of its buckets), or None where a term's sign is not decided."""
    out = sympy.Integer(0)
    for V, a, b in zip(groups, p, q):
        term = _phi(div, sympy.cancel(a), sympy.cancel(b))
        if term.has(sympy.Abs, sympy.Max):
            return None
        out += V * term
    return sympy.simplify(out)


def b_witness(div, counts):
    """``[(what, value)]``: the quantities B's level (a divergence between records or under record removal, or the
    ratio of one record to the table) is the largest of, on the family of blocks of ``counts`` (in N) uniform over V_j
    values of their own, for every N >= 2 (N = n + 2), or None for a sign left undecided."""
    V = [sympy.Symbol(f"V{j}", positive=True, integer=True) for j in range(len(counts))]
    c = [sympy.sympify(x).subs(_N, _n + 2) for x in counts]
    N = _n + 2
    out = []
    if div == RECORD_RATIO:     # a record of block j over the table's mean on a value of block j: (1/V_j)/(c_j/(N V_j))
        return [(f"a record of block {j + 1} against the table", sympy.cancel((1 / V[j]) / (c[j] / (N * V[j]))))
                for j in range(len(c))]
    if div.compares == "pairs":
        for i in range(len(c)):
            for j in range(len(c)):
                if i != j:
                    p = [1 / V[i] if k == i else 0 for k in range(len(c))]
                    q = [1 / V[j] if k == j else 0 for k in range(len(c))]
                    out.append((f"a record of block {i + 1} against one of block {j + 1}", _divergence(div, V, p, q)))
        return out
    for j in range(len(c)):
        P = [c[k] / (N * V[k]) for k in range(len(c))]
        Q = [(c[k] - (1 if k == j else 0)) / ((N - 1) * V[k]) for k in range(len(c))]
        out.append((f"the table against the table without a record of block {j + 1}", _divergence(div, V, P, Q)))
        out.append((f"the table without a record of block {j + 1} against the table", _divergence(div, V, Q, P)))
    return out


def _family_steps(cert, fam, kind, div, U):
    """The family's shape, and B's level of it symbolically (module notes)."""
    blocks = fam.get("blocks") or []
    counts = [_read(b["count"]) for b in blocks]
    labels = {str(b.get("class")) for b in blocks}
    steps = [(f"the family's kind is the one B's registered declarations call for ({kind})",
              kind is not None and fam.get("kind") == kind, str(fam.get("kind")))]
    steps.append(("the counts add up to N, each an integer >= 1 for every N >= 2", bool(counts) and
                  _same(sympy.Add(*counts), _N) and all(_integer_from_one(x) for x in counts),
                  " + ".join(map(str, counts))))
    if not all(s[1] for s in steps):
        return steps
    if kind == "singletons":
        steps.append(_singletons_step(cert, fam, labels, U))
        return steps
    steps.append(("one class holds every record", len(labels) == 1 and labels != {"own"}, f"classes {sorted(labels)}"))
    per_value = [sympy.cancel(c / _read(b["values"])) for c, b in zip(counts, blocks)]
    steps.append(("the class is uniform over its values (each block's records per value, c_j/v_j, the same for every "
                  "N and T: A's declared level of a uniform class applies)", all(_same(x, per_value[0])
                                                                                 for x in per_value),
                  ", ".join(map(str, per_value))))
    found = b_witness(div, counts)
    hit = next((w for w, v in (found or []) if v is not None and _same(v.subs(_n, _N - 2), U)), None)
    steps.append((f"a quantity B's level is the largest of equals U = {U} for every N >= 2 (the numbers of values "
                  "symbols)", hit is not None, hit or "; ".join(f"{w}: {v}" for w, v in (found or []))))
    return steps


def _singletons_step(cert, fam, labels, U):
    """Each record its own class: B, the smallest class's size, is 1 = U; or B's declared minimum class size above
    its weakest level, k, is at least 2 (a number, or ``k >= 2`` on the family's domain), so B is at its weakest, U."""
    from implgraph.certify.registered import registered
    from implgraph.definitions.capabilities import MinClassSizeAboveWeakest
    b = registered((cert.get("B") or {}).get("definition"))
    floor = b.declared(MinClassSizeAboveWeakest)
    if floor is None:
        return ("each record its own class (class \"own\"): B, the smallest class's size, is 1 = U",
                labels == {"own"} and _same(U, 1), f"classes {sorted(labels)}, U = {U}")
    value = ((cert.get("B") or {}).get("params") or {}).get(floor.param)
    k = None if value is None else _param(cert, value)
    stated = {_read_relation(t, cert) for t in fam.get("domain") or []}
    two = k is not None and ((k.is_Integer and k >= 2) or sympy.Ge(k, 2).canonical in stated)
    return (f"each record its own class (class \"own\"), fewer than B's minimum class size above its weakest level "
            f"k = {k} >= 2: B is at its weakest, U", labels == {"own"} and two, f"classes {sorted(labels)}, k = {k}")


def _integer_from_one(x) -> bool:
    """An integer polynomial in N, >= 1 for every N >= 2 (its coefficients in N = n + 2 nonnegative, constant >= 1)."""
    poly = sympy.Poly(sympy.expand(x.subs(_N, _n + 2)), _n)
    coeffs = poly.all_coeffs()
    return all(k.is_Integer and k >= 0 for k in coeffs) and coeffs[-1] >= 1


def _licensed(cert, fam):
    """``(ok, how)``: the family's own domain holds only conditions the registry gives: where a uniform class over the
    values of A's declared class level meets T, and N at least A's declared minimum class size."""
    from implgraph.certify.registered import registered
    from implgraph.definitions.capabilities import MinClassSize, MinClassSizeAboveWeakest
    from implgraph.definitions.class_bounds import uniform_values
    texts = fam.get("domain") or []
    if not texts:
        return True, "none"
    A = cert.get("A") or {}
    a = registered(A.get("definition"))
    if a is None or registered((cert.get("B") or {}).get("definition")) is None:
        return False, "A is not registered here"
    allowed = []
    above = a.declared(MinClassSizeAboveWeakest)
    x = registered(above.level_of) if above is not None and above.level_of else a
    found = uniform_values(x, _T) if x is not None else None
    if found is not None:
        allowed += list(sympy.And.make_args(found[1]))
    declared = a.declared(MinClassSize) or a.declared(MinClassSizeAboveWeakest)
    value = None if declared is None else (A.get("params") or {}).get(declared.param)
    if value is not None:
        allowed.append(sympy.Ge(_N, _param(cert, value)))
    b = registered((cert.get("B") or {}).get("definition"))
    above = None if b is None else b.declared(MinClassSizeAboveWeakest)
    k = None if above is None else ((cert.get("B") or {}).get("params") or {}).get(above.param)
    if k is not None:
        allowed.append(sympy.Ge(_param(cert, k), 2))       # a one-record class is at B's weakest
    allowed = [r.canonical for r in allowed if isinstance(r, sympy.core.relational.Relational)]
    bad = [t for t in texts if _read_relation(t, cert) not in allowed]
    return not bad, f"conditions not given by the registry: {bad}" if bad else "the registry's"


def _read_relation(text, cert):
    """A condition's text as a relation in canonical form, or None."""
    from implgraph.core.formula import parse_condition
    try:
        rel = parse_condition(str(text), {**_symbols(cert), "N": _N, "T": _T})
    except InputError:
        return None
    return rel.canonical if isinstance(rel, sympy.core.relational.Relational) else None


def _sampled_steps(cert, fam, a, b, div, U, ns):
    """A meets T, and B's registered level is U, on the family's table at sampled N and T (exact)."""
    from implgraph.certify.domain import Domain
    from implgraph.core.concrete import ConcreteTable
    domain = Domain({**cert, "domain": [*(cert.get("domain") or []), *(fam.get("domain") or [])]})
    pa = {k: _param(cert, v) for k, v in ((cert.get("A") or {}).get("params") or {}).items()}
    pb = {k: _param(cert, v) for k, v in ((cert.get("B") or {}).get("params") or {}).items()}
    blocks = fam.get("blocks") or []
    checked = 0
    for env in domain.points([n for n in ns if n <= _MAX_N]):
        at = {_N: env["N"], _T: sympy.Rational(env["T"].numerator, env["T"].denominator)
              if hasattr(env["T"], "numerator") else env["T"]}
        ev = [(_read(x["count"]).subs(at), _read(x["values"]).subs(at), x.get("class")) for x in blocks]
        if any(not (c.is_Integer and v.is_Integer and c >= 0 and v >= 1) for c, v, _ in ev):
            return [("the family is a table at every sampled point", False, f"at {env}: {ev}")]
        rows, classes = _rows(ev)
        table = ConcreteTable.from_fractions(rows, classes=classes)
        point = {sympy.Symbol(n): v for n, v in env.items() if n not in ("N", "T")}
        ra = _level(a, table, _at(pa, point))
        rb = div.level(rows, classes) if div not in (None, RECORD_RATIO) else _level(b, table, _at(pb, point))
        t, u = at[_T], U.subs(_N, env["N"])
        ra_s = None if ra is None or ra == float("inf") else _number(ra)
        meets = ra_s is not None and bool(ra_s >= t if a.stronger == "larger" else ra_s <= t)
        if not meets:
            return [("A meets T on the family at every sampled point", False,
                     f"A's level {ra} against T = {t} at {env}")]
        if rb is None or rb == float("inf") or not _same(_number(rb), u):
            return [("B's registered level is U on the family", False, f"B's level {rb} against U = {u} at {env}")]
        checked += 1
    return [("A meets T and B's registered level is U on the family's table (exact)", checked > 0,
             f"{checked} points, N = 2..{min(max(ns), _MAX_N)}, T in {', '.join(map(str, domain.t_grid))}")]


def _at(params, point):
    """The parameters at a sample point (their symbols' values there): integers stay integers."""
    out = {}
    for k, v in params.items():
        v = sympy.sympify(sympy.sympify(v).xreplace({s: sympy.sympify(point[s]) for s in sympy.sympify(v).free_symbols
                                                      if s in point}))
        out[k] = int(v) if v.is_Integer else v
    return out


def _number(level):
    """A registered level as a sympy number (a Fraction, an exact value carrying ``expr``, or a sympy number)."""
    from implgraph.certify.pointwise import level_number
    return level if isinstance(level, sympy.Basic) else level_number(level)


def _level(d, table, params):
    """``d``'s registered raw level of a concrete table (exact: a Fraction, INF, or a sympy number)."""
    if d.concrete is not None:
        return d.concrete(table, **params)
    from implgraph.definitions.levels import optimal_level
    pieces = optimal_level(table, d, **params).pieces
    return pieces[0].value if len(pieces) == 1 else None


def _rows(blocks):
    """The rows and class labels of the family at a point: each block's records uniform over its own values."""
    from fractions import Fraction
    rows, classes, first = [], [], 0
    width = sum(int(v) for c, v, _ in blocks if c)
    for c, v, label in blocks:
        for _ in range(int(c)):
            rows.append([Fraction(1, int(v)) if first <= l < first + int(v) else Fraction(0) for l in range(width)])
            classes.append(f"R{len(rows)}" if label == "own" else str(label))
        first += int(v) if c else 0
    return rows, classes


def describe(cert) -> list:
    fam = cert.get("family") or {}
    return [f"{(cert.get('A') or {}).get('definition')} => {(cert.get('B') or {}).get('definition')}: B's weakest "
            f"level {cert.get('upper')} is the tight f (the {fam.get('kind')} family)"]


@lemma(methods.WEAKEST_FAMILY, describe=describe,
       every_partition="B's weakest level is met by every table, whatever its classes (its registered scale)")
def check(cert, ns=range(2, 13), timeout_ms=4000):
    """Re-check a weakest-family certificate (see the module notes)."""
    from implgraph.certify.registered import registered
    with lemma_steps(cert) as steps:
        a, b = (registered((cert.get(k) or {}).get("definition")) for k in ("A", "B"))
        if a is None or b is None:
            return _report(steps + [("A and B are registered definitions", False, "not registered here")])
        U = _read(cert.get("upper"))
        weakest = sympy.sympify(b.raw_from_level(b.weakest(_N)))
        steps.append((f"U is B's weakest raw level {weakest} (its registered scale: every table meets it)",
                      _same(U, weakest), f"U = {U}"))
        steps.append(("the supremum is claimed (tight)", cert.get("tight") is True, str(cert.get("tight"))))
        params = {k: _param(cert, v) for k, v in ((cert.get("B") or {}).get("params") or {}).items()}
        kind, div = _kind_of(b, params)
        fam = cert.get("family") or {}
        steps += _family_steps(cert, fam, kind, div, U)
        ok, how = _licensed(cert, fam)
        steps.append(("the family's own domain holds only the registry's conditions", ok, how))
        if all(s[1] for s in steps):
            steps += _sampled_steps(cert, fam, a, b, div, U, ns)
    return _report(steps)
