"""Non-implications for every N by a witness family: a bounded divergence between records never bounds their ratio.

A is a divergence (:class:`implgraph.definitions.divergences.Divergence`) of kind KL or Renyi of order alpha in
(1, 2] between pairs of records, or between the table and the table without one record (two averages of records:
the divergence is jointly convex, so at most the largest over pairs of records; van Erven and Harremoes 2014,
Theorem 11, cited); an order stated by a parameter (``renyi-ldp(alpha=2)``) is read at A's parameters, and the checker
reads it from the certificate's. B is a two-sided ratio of averages (its declared family, sides and subset size at its parameters:
pairwise, subsets of j <= N - 1 records, or classes, the first record in a class of its own). The family, for every
N >= n0 (the least N with 1 <= j <= N - 1; 2 for a pairwise or class level) and K >= 3: one record at
x = (K b, 1 - K b) and N - 1 at y = (b, 1 - b), with b = 1/((K - 1)^2 + 1).

- chi^2(x || y) = (K - 1)^2 b/(1 - b) = 1 and chi^2(y || x) = (K - 1)/(K (K - 2)) <= 1 for K >= 3 (exact algebra:
  1 - chi^2 is a quotient of polynomials with nonnegative coefficients in u = K - 3 >= 0), so D_2 = log(1 + chi^2)
  <= log 2 both ways, and KL <= chi^2 <= 1 (log u <= u - 1: sum_l x_l log(x_l/y_l) <= sum_l x_l (x_l/y_l - 1));
  an order alpha in (1, 2) is at most D_2 (the Renyi divergence is nondecreasing in its order: van Erven and
  Harremoes, IEEE Trans. Inf. Theory 60(7), 2014, Theorem 3, cited);
- B's raw level is at least x_1/y_1 = K (pairwise), or the table's mean against the mean of records at y,
  (K + N - 1)/N (a subset of j <= N - 1 records at y; the class of the N - 1 records at y): for each N it grows
  without bound in K.

A subset size stated by a parameter symbol (``kdp(k=k2)``: sets of N - k2 records; ``kt-closeness(k=k1)``: of k1) is
taken over the whole range B declares for the parameter (read from the registry: ``ranges`` and ``param_kinds``, here
the integers 1 <= k <= N - 1): the family refutes for every N >= n0 and every k of the range when 1 <= j <= N - 1 at
each of its points (j - 1 and N - 1 - j have nonnegative coefficients in p, q >= 0 at k = lo + p, N = k + c + q for
a range lo <= k <= N - c; n0 = lo + c, where the range starts to be non-empty); the certificate states the range in
its ``domain`` and the checker re-derives it from the registry (:mod:`implgraph.certify.lemmas.divergence_family_domain`).
Where j leaves 1..N - 1 somewhere in the range (a range reaching k = N: the whole table, ratio 1), the family is not
this argument's case and nothing is claimed (docs/proofs/divergence-family-subset-size.md).

So for every f, the family's table at K > f's raw value at A's bound satisfies A and not B at f: no f works. The
verdict carries the family's certificate (method ``divergence-family``, kind ``unbounded``: the rows in N and K), which
the independent checker :mod:`implgraph.certify.lemmas.divergence_family` re-derives symbolically for every N >= n0
and K >= 3 and must accept; the tables at N = n0, n0 + 1 and K = 3..6 are re-checked in exact arithmetic with the
registry's levels. The support families (A finite, B infinite at every N, without K: a closeness divergence against a
ratio, a ratio against a divergence between records) are :mod:`implgraph.prover.divergence_witness`'s, with
certificates of the same method.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import sympy

from implgraph.core import methods
from implgraph.definitions.capabilities import RatioLevel
from implgraph.definitions.divergences import divergence_of

METHOD = methods.DIVERGENCE_FAMILY
#: where the prover tries it (it has no handler of its own)
TRIED = ("by the prover (`engines/prove.py`) where no direct argument applies, after the registered lemma chains: a "
         "refutation for every N; its support families (`prover/divergence_witness.py`) by check-edge beside a "
         "refutation by one table")

__all__ = ["refutation", "divergence_refutation", "family_rows", "chi_square_bounded", "KL_FAMILY"]

_K = sympy.Symbol("K", positive=True)


def family_rows(K, N=2):
    """The family's table at K (a number) with N records: one at (K b, 1 - K b), N - 1 at (b, 1 - b)."""
    b = Fraction(1, (K - 1) ** 2 + 1)
    return [[K * b, 1 - K * b]] + [[b, 1 - b]] * (N - 1)


def _nonneg_from(expr, at=3) -> bool:
    """Is the rational function ``expr`` of K >= ``at`` nonnegative: numerator and denominator, in u = K - at, have
    coefficients of one sign?"""
    num, den = sympy.fraction(sympy.cancel(sympy.together(expr)))
    u = sympy.Symbol("u", nonnegative=True)
    signs = []
    for p in (num, den):
        coeffs = sympy.Poly(sympy.expand(p.subs(_K, u + at)), u).all_coeffs()
        if all(c >= 0 for c in coeffs):
            signs.append(1)
        elif all(c <= 0 for c in coeffs):
            signs.append(-1)
        else:
            return False
    return signs[0] == signs[1]


def chi_square_bounded() -> bool:
    """chi^2 <= 1 both ways on the family for every K >= 3 (exact algebra)."""
    b = 1 / ((_K - 1) ** 2 + 1)
    x, y = (_K * b, 1 - _K * b), (b, 1 - b)
    chi = [sympy.Add(*[(p - q) ** 2 / q for p, q in zip(u, v)]) for u, v in ((x, y), (y, x))]
    return all(_nonneg_from(1 - c) for c in chi)


def _unbounded_rows():
    """The family's rows in K (count in N, values, class), as the certificate states them."""
    b = "1/((K - 1)**2 + 1)"
    return (("1", (f"K*{b}", f"1 - K*{b}"), "E1"), ("N - 1", (b, f"1 - {b}"), "E2"))


def _first_n(ratio, b, b_params):
    """``(n0, over)``: the least N from which B's compared sets include one of j <= N - 1 records at y (a subset
    level's size j is within 1..N - 1), checked at N = 2..8, 2 for a pairwise or class level, and ``over`` None; or,
    where j is stated by a parameter symbol (``kdp(k=k2)``), :func:`_over_range`'s; or None."""
    from implgraph.prover.shapes import declared_subset_size
    if ratio.family != "subset":
        return 2, None
    N = sympy.Symbol("N", integer=True, positive=True)
    j = declared_subset_size(b, N, b_params)
    if j is None:
        return None
    if j.free_symbols - {N}:        # a size given by a parameter symbol: for every value of its declared range
        over = _over_range(b, b_params, j, N)
        return None if over is None else (over["n0"], over)
    for n in range(2, 9):
        if all(1 <= j.subs(N, m) <= m - 1 for m in range(n, 9)):
            return n, None
    return None


def _over_range(b, b_params, j, N):
    """Where B's subset size j is an expression in N and one parameter symbol k (B's parameter stated by it, of the
    integer range lo <= k <= N - c that B declares, lo a number): ``{"n0", "symbol", "param", "range", "conditions"}``
    when 1 <= j <= N - 1 at every point of the range (j - 1 and N - 1 - j polynomials with nonnegative coefficients
    in p, q >= 0 at k = lo + p, N = k + c + q), n0 = lo + c the least N the range is not empty at (at least 2);
    else None."""
    from implgraph.definitions._params import range_bound
    symbols = j.free_symbols - {N}
    named = [(name, v) for name, v in b_params.items() if isinstance(v, sympy.Symbol) and v in symbols]
    if len(symbols) != 1 or len(named) != 1:
        return None
    name, k = named[0]
    if name not in b.ranges or b.param_kinds.get(name) != "integer":
        return None
    lo, hi = (range_bound(x, N) for x in b.ranges[name])
    c = None if hi is sympy.oo else sympy.expand(N - hi)
    if not (lo.is_Integer and c is not None and c.is_Integer and lo + c >= 2):
        return None
    p, q = sympy.symbols("p q", nonnegative=True)
    at = {k: lo + p, N: lo + p + c + q}
    for e in (j - 1, N - 1 - j):
        poly = sympy.Poly(sympy.expand(e.subs(at)), p, q)
        if any(coeff < 0 for coeff in poly.coeffs()):
            return None
    return {"n0": int(lo + c), "symbol": k, "param": name, "lo": int(lo), "c": int(c),
            "conditions": [f"{lo} <= {k}", f"{k} <= {hi}"], "range": f"{lo} <= {k} <= {hi}"}


def refutation(a, b, a_params, b_params, b_classes=None):
    """The prover's verdict fields refuting A => B for every f by the family, or None (not its case: among others, B
    comparing classes of a minimum size above 1 or a maximum size, which the family's partition may not meet). The
    verdict carries the family's certificate, which the independent checker accepted (symbolically in N and K)."""
    from implgraph.certify.accepted import accepted
    from implgraph.engines.recheck import raw_level
    from implgraph.prover.divergence_witness import family_certificate
    a_params, b_params = a_params or {}, b_params or {}
    div = divergence_of(a, a_params)        # an order read from the parameters (None where it cannot be)
    if div is None or div.compares == "class":
        return None
    if divergence_of(b, b_params) is not None:
        return divergence_refutation(a, b, a_params, b_params)
    if not (div.kind == "kl" or (div.kind == "renyi" and div.order is not sympy.oo and div.order <= 2)):
        return None
    ratio = b.declared(RatioLevel)
    if ratio is None or ratio.sides != "two-sided":      # pairwise, subset or class, two-sided
        return None
    compared = ratio.family
    spec = b_classes or {}
    if compared == "class" and (spec.get("max_size") is not None or sympy.sympify(spec.get("min_size", 1)) != 1):
        return None
    first = _first_n(ratio, b, b_params or {})
    if first is None or not chi_square_bounded():
        return None
    n0, over = first
    cert = family_certificate(a, a_params, b, b_params, "unbounded", _unbounded_rows(), n0, 3, b_classes=b_classes)
    if over is not None:        # the parameter symbol: an integer over B's declared range, stated in the domain
        cert["symbols"][str(over["symbol"])] = "integer"
        cert["domain"] += over["conditions"]
    if not accepted(cert):
        return None
    from implgraph.core.concrete import INF, ConcreteTable
    cap = sympy.log(2)
    checked = []
    for N, K in itertools.product((n0, n0 + 1), (3, 4, 5, 6)):
        ct = ConcreteTable.from_fractions(family_rows(K, N), classes=["E1"] + ["E2"] * (N - 1))
        # a parameter symbol at each value of its range at N
        values = [{}] if over is None else [{over["param"]: sympy.Integer(v)}
                                            for v in range(over["lo"], N - over["c"] + 1)]
        for at in values:
            ra, rb = raw_level(a, a_params, ct), raw_level(b, {**b_params, **at}, ct)
            if ra is None or rb is None or ra == INF:
                return None
            ra_s = ra if isinstance(ra, sympy.Basic) else sympy.Rational(ra.numerator, ra.denominator)
            if not bool(ra_s <= cap) or not (rb == INF or Fraction(rb) >= Fraction(K + N - 1, N)):
                return None
        at_k = "" if over is None else f" with {over['symbol']} = " + ", ".join(str(v) for at in values
                                                                                 for v in at.values())
        checked.append(f"(N, K) = ({N}, {K}){at_k}")
    return _verdict(a, b, div, compared, n0, checked, cert, over)


def _verdict(a, b, div, compared, n0, checked, cert, over=None):
    rows = [[str(v) for v in r] for r in family_rows(3, n0)]
    lower = {"pairwise": "K (bucket 1's ratio between the two kinds of records)",
             "subset": "(K + N - 1)/N (the table's mean against a set of records at y, bucket 1)",
             "class": "(K + N - 1)/N (the table's mean against the class of the records at y, bucket 1)"}[compared]
    order = "KL" if div.kind == "kl" else f"Renyi-{div.order}"
    how = ("KL <= chi^2 <= 1 (log u <= u - 1)" if div.kind == "kl" else "D_2 = log(1 + chi^2) <= log 2"
           if div.order == 2 else f"D_{div.order} <= D_2 <= log 2 (the Renyi divergence is nondecreasing in its order; "
           "van Erven and Harremoes 2014, Theorem 3)")
    mixed = "" if div.compares == "pairs" else (
        f" (its distributions, {div.compares}, are averages of records, and the divergence is jointly convex: at most "
        "the largest over pairs of records; van Erven and Harremoes 2014, Theorem 11)")
    where, every, k = f"every N >= {n0}", "", None
    if over is not None:
        k, size = str(over["symbol"]), (cert.get("B") or {}).get("size")
        rng = over["range"]
        where = f"every N >= {n0} and every integer {k} with {rng}"
        every = (f" (the parameter {over['param']} = {k} over the range {b.name} declares, {rng}: the compared sets "
                 f"of {size} records, 1 <= {size} <= N - 1 at every point of it, include a set of records at y)")
    evidence = (f"no f can work: a witness family for {where} and K >= 3, one record at (K b, 1 - K b) and "
                f"N - 1 at (b, 1 - b), b = 1/((K - 1)^2 + 1): chi^2 is 1 one way and (K - 1)/(K (K - 2)) <= 1 the "
                f"other (exact algebra), so {a.name}'s {order} level is bounded: {how}{mixed}, while {b.name}'s raw "
                f"level is >= {lower}{every}, unbounded as K grows, at {where}; its certificate (method "
                f"divergence-family) re-checked symbolically in N{' and K' if over is None else ', K and ' + k}"
                f" by implgraph.certify; the tables re-checked in exact arithmetic at {', '.join(checked)}")
    family = (f"one record at (K b, 1 - K b), N - 1 at (b, 1 - b), b = 1/((K - 1)^2 + 1), {where} and K >= 3"
              + (" (classes: the first record, the others)" if compared == "class" else ""))
    point = {"K": 3, "N": n0, **({} if over is None else {str(over["symbol"]): over["lo"]})}
    witness = {"rows": rows, "classes": ["E1"] + ["E2"] * (n0 - 1) if compared == "class" else None,
               "family": family, "point": point}
    return {"verdict": "refuted", "evidence": evidence, "witness": witness, "tightness": "wrong",
            "method": methods.DIVERGENCE_FAMILY.name, "details": {"certificate": cert}}


#: KL against Renyi of order >= 2 between records: one record at x = (1/K, 1 - 1/K), N - 1 at y = (1/K^3, 1 - 1/K^3)
KL_FAMILY = (("1", ("1/K", "1 - 1/K"), "E1"), ("N - 1", ("1/K**3", "1 - 1/K**3"), "E2"))
#: the bound of the family's KL level, both ways, for every K >= 2
KL_CAP = 2


def kl_family_rows(K, N=2):
    """:data:`KL_FAMILY`'s table at K (a number) with N records."""
    K = Fraction(K)
    return [[1 / K, 1 - 1 / K]] + [[1 / K ** 3, 1 - 1 / K ** 3]] * (N - 1)


def divergence_refutation(a, b, a_params=None, b_params=None):
    """A KL between pairs of records (or a removal: at most the pairs', joint convexity), B Renyi of order >= 2
    between pairs (or a removal: D_2(P || y) = log(1 + chi^2(x || y)/N^2) with x removed): the refutation of A => B for every f by
    :data:`KL_FAMILY` (KL(x || y) <= x_1 2 (sqrt(K^2) - 1) = 2 (K - 1)/K < 2, since log u <= 2 (sqrt(u) - 1), bucket 2
    below 1; KL(y || x) <= y_2 (r_2 - 1) = (1 - 1/K^3)(K + 1)/K^2 <= 1; chi^2(x || y) >= K - 1, D_2 = log(1 + chi^2)
    unbounded), its certificate re-checked by the checker, the tables at N = 2, 3 and K = 2..5 in exact arithmetic;
    else None."""
    from implgraph.certify.accepted import accepted
    from implgraph.prover.divergence_witness import family_certificate
    a_params, b_params = a_params or {}, b_params or {}
    da, db = divergence_of(a, a_params), divergence_of(b, b_params)     # orders read from the parameters
    if da is None or db is None or da.kind != "kl" or da.compares not in ("pairs", "removal") \
            or db.compares not in ("pairs", "removal"):
        return None
    if not (db.kind == "renyi" and (db.order is sympy.oo or db.order >= 2)):
        return None
    cert = family_certificate(a, a_params, b, b_params, "unbounded", KL_FAMILY, 2, 2)
    cert["family"]["A_bound"] = str(KL_CAP)
    if not accepted(cert):
        return None
    # chi^2 >= K - 1 between the records, D_beta >= D_2 >= log K; a removal's P - Q = (x - y)/N: chi^2/N^2
    checked = spot_checked(a, a_params, b, b_params, kl_family_rows, ((2, 3), (2, 3, 4, 5)), KL_CAP,
                           lambda N, K: sympy.log(K) if db.compares == "pairs"
                           else sympy.log(1 + sympy.Rational(K - 1, N ** 2)))
    return None if checked is None else _kl_verdict(a, b, da, db, checked, cert)


def spot_checked(a, a_params, b, b_params, rows_of, points, a_cap, b_low):
    """``["(N, K) = ..."]``: the family's tables ``rows_of(K, N)`` at every (N, K) of ``points`` (two ranges), each
    with A's exact raw level finite and at most ``a_cap`` and B's infinite or at least ``b_low(N, K)``; None where a
    table is not."""
    from implgraph.core.concrete import INF, ConcreteTable
    from implgraph.engines.recheck import raw_level
    checked = []
    for N, K in itertools.product(*points):
        ct = ConcreteTable.from_fractions(rows_of(K, N))
        ra, rb = raw_level(a, a_params, ct), raw_level(b, b_params, ct)
        if ra is None or rb is None or ra == INF or not bool(_num(ra) <= a_cap):
            return None
        if not (rb == INF or bool(_num(rb) >= b_low(N, K))):
            return None
        checked.append(f"(N, K) = ({N}, {K})")
    return checked


def _num(v):
    return v if isinstance(v, sympy.Basic) else sympy.Rational(v.numerator, v.denominator)


def _kl_verdict(a, b, da, db, checked, cert):
    order = "oo" if db.order is sympy.oo else str(db.order)
    mixed = "" if da.compares == "pairs" else (" (a removal compares averages of records: at most the largest over "
                                               "pairs, joint convexity; van Erven and Harremoes 2014, Theorem 11)")
    grows = ("D_2 = log(1 + chi^2(x || y)) >= log K" if db.compares == "pairs" else
             "D_2 between the table P and the others y (x removed): log(1 + chi^2(x || y)/N^2) >= "
             "log(1 + (K - 1)/N^2), as P - y = (x - y)/N")
    evidence = (f"no f can work: a witness family for every N >= 2 and K >= 2, one record at x = (1/K, 1 - 1/K) and "
                f"N - 1 at y = (1/K^3, 1 - 1/K^3): {a.name}'s KL level is < 2 both ways (log u <= 2 (sqrt(u) - 1) on "
                "bucket 1, where x/y = K^2: KL(x || y) <= 2 (K - 1)/K; log u <= u - 1 on bucket 2 of KL(y || x): "
                f"<= (1 - 1/K^3)(K + 1)/K^2 <= 1; the other buckets' terms are <= 0){mixed}, while {b.name}'s "
                f"Renyi-{order} level is >= {grows}, unbounded as K grows; its certificate (method "
                "divergence-family) re-checked symbolically in K by implgraph.certify; the tables re-checked in exact "
                f"arithmetic at {', '.join(checked)}")
    witness = {"rows": [[str(v) for v in r] for r in kl_family_rows(2, 2)], "classes": None,
               "family": "one record at (1/K, 1 - 1/K), N - 1 at (1/K^3, 1 - 1/K^3), every N >= 2 and K >= 2",
               "point": {"K": 2, "N": 2}}
    return {"verdict": "refuted", "evidence": evidence, "witness": witness, "tightness": "wrong",
            "method": methods.DIVERGENCE_FAMILY.name, "details": {"certificate": cert}}
