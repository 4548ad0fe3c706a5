"""``ceiling-family``: B's own ceiling is its supremum under A, shown by a witness family (docs/proofs/ceiling-family.md).

Where B's level has a finite ceiling on every table of N records whatever A is (``one-sided-ceiling``: a one-sided
class ratio is at most N/s, a one-sided ratio of j records against the table at most N/j; ``divergence-ceiling``: a class's KL or Renyi divergence from the table is at most
log(N/s)), an implication proved at that ceiling says nothing of A. This argument shows that nothing smaller holds
either: a family of tables satisfying A at every level T > 0 (A's raw level, the divergence or distance itself, or a
level met by a uniform class) whose B level reaches the ceiling (``uniform``) or tends to it (``approach``). The tight
f is then B's ceiling, a vacuous implication (:func:`implgraph.engines.prove_evidence.vacuous`): an implication by
every table, never drawn or counted as an edge. Two shapes, read from declarations only:

``approach``
    A declares a divergence (:class:`~implgraph.definitions.divergences.Divergence`) of kind KL, Renyi of order
    alpha in (1, 2], total variation or the hockey-stick at gamma >= 1, between pairs of records, between the table
    and the table without one record, or between a class and the table (every compared distribution a mixture of
    records: at most the largest divergence between two records, by joint convexity); B a one-sided class ratio on
    any partition, or a one-sided ratio of ONE record (a subset of size 1) against the table (pointwise maximal
    leakage: max over records i and buckets l of x_i(l)/P_l), ceiling N either way. The family, for every N >= 2 and K >= 3: one record at x = (K b, 1 - K b) in a class
    of its own and N - 1 at y = (b, 1 - b) in another, b = 1/(K (K - 1)^2 + 1). Then chi^2(x || y) = 1/K and
    chi^2(y || x) = (K - 1)/(K (K^2 - K - 1)) <= 1/K, TV(x, y) = (K - 1) b: every such divergence between x and y is
    at most max(chi^2, TV) (KL <= log(1 + chi^2) <= chi^2, D_alpha <= D_2 = log(1 + chi^2) <= chi^2, the
    hockey-stick <= TV), which tends to 0; while the lone class's first bucket (the lone record's: the same
    quantity) is N K/(K + N - 1) times the table's, which tends to N. For every T > 0 the tables at large K satisfy A
    at T, so B's supremum is N (the claim is for T > 0 only: A's level 0 between records or under removal makes every
    record the same, and B's level 1). Where B's ceiling N is also its declared weakest level (a record's ratio: log N
    on B's log scale), the tight f is that weakest level, known now: no stronger f holds at any T > 0. Where A is a KL
    or Renyi divergence between records or under record removal, it is not attained: B = N needs a class of one
    record (a record) positive in a bucket where every other record is 0, and there that record's divergence from
    another (or the table without it, from the table) is infinite; for the total variation and the hockey-stick it is
    (one record at (e, 1 - e), the others at (0, 1): distance e), not claimed by the certificate.

    A zero-concentrated level between pairs of records (Divergence kind ``zcdp``: sup over alpha > 1 of
    D_alpha(x || y)/alpha) is not bounded by chi^2 on that family (b ~ K^(-3) has level about 0.1 ln K, at orders
    alpha near 5), so there the family is parametrised by A's level T = rho: the same two records with
    K b = exp(-L (L + 1)/rho), L = ln K, i.e. b = exp(-ln K (ln K + 1)/T)/K. Where K >= 1, b > 0, K b <= 1/2,
    2 K b <= rho and ln K (ln K + 1) <= -rho ln(K b) (here an equality), the level is at most rho both ways
    (coq/theories/ZcdpCeiling.v, ``zcdp_family_rho``, ``fam_rho_zcdp``): with t = alpha - 1, x's Renyi sum is at most
    1 - e^c + e^(c + t L) (c = ln(K b)), below e^(rho (t + t^2)) by a derivative argument (``gauss_tail_rho``), so
    D_alpha <= rho alpha; y's is at most r^t, r = (1 - b)/(1 - K b), and ln r <= r - 1 <= 2 K b <= rho. As K grows,
    K b -> 0, so every large K meets the hypotheses, while the lone class's ratio N K/(K + N - 1) (b cancels) tends to
    N. Not attained, as for KL and Renyi between records (an infinite D_alpha). A zero-concentrated level under record
    removal (compares ``removal``) is at most the one between records on every table: P and Q_i are averages of
    records, and exp((alpha - 1) D_alpha) is jointly convex (van Erven and Harremoes 2014, Theorem 11), so each
    D_alpha, hence the supremum of D_alpha/alpha, is at most the largest over pairs of records: the same family.
``uniform``
    B a class's KL or Renyi divergence (any order) on any partition (ceiling log N); A's level of a class uniform over
    m values improves with m (the l-diversities: ``uniform_class_level``) or is a tail ratio with parameter l
    (recursive (c,l)-diversity, level 1 at m = l), A declaring no minimum class size among its parameters. The family
    of :func:`implgraph.prover.parts.uniform_family`: one record uniform over m values in a class of its own and
    N - 1 uniform over m other values in another satisfy A at T, and the lone class's ratio to the table is N on each
    of its m buckets, so its KL and every Renyi divergence are log N: attained.

The certificate (method ``ceiling-family``) holds the ceiling's own certificate as its part (the upper bound) and the
family; :mod:`implgraph.certify.lemmas.ceiling_family` re-checks both (the family symbolically in N and K, A's level
of a uniform family at sampled points as every tightness family), and the argument answers only where it accepts.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from implgraph.core import methods
from implgraph.definitions.capabilities import ClassSizeLevel, MinClassSize
from implgraph.definitions.divergences import divergence_of
from implgraph.prover.answer import Bound, T
from implgraph.prover.certificate import accepted
from implgraph.prover.parts import tail_param
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import any_partition, declared_subset_size, one_sided

METHOD = methods.CEILING_FAMILY

__all__ = ["APPROACH_ROWS", "ZCDP_APPROACH_ROWS", "approach_rows", "bound", "ceiling_family_certificate"]

#: the approach family's rows ``(count in N, values in K, class)``
_B = "1/(K*(K - 1)**2 + 1)"
APPROACH_ROWS = (("1", (f"K*{_B}", f"1 - K*{_B}"), "E1"), ("N - 1", (_B, f"1 - {_B}"), "E2"))
#: the approach family under a zero-concentrated A at level T = rho: K b = exp(-ln K (ln K + 1)/T) (module notes)
_KB = "exp(-log(K)*(log(K) + 1)/T)"
ZCDP_APPROACH_ROWS = (("1", (_KB, f"1 - {_KB}"), "E1"), ("N - 1", (f"{_KB}/K", f"1 - {_KB}/K"), "E2"))
#: the least K of the approach family
K0 = 3
#: the K of the table the prover builds where it needs one (a gap refutation; re-checked exactly there)
K_BUILD = 1000


def approach_rows(K, N):
    """The approach family's table at K and N (numbers): one record at (K b, 1 - K b), N - 1 at (b, 1 - b)."""
    b = Fraction(1, K * (K - 1) ** 2 + 1)
    return [[K * b, 1 - K * b]] + [[b, 1 - b]] * (N - 1)


def _a_divergence(ctx):
    """A's divergence where the approach family bounds it (KL, Renyi of order <= 2, TV, hockey-stick), else None."""
    div = divergence_of(ctx.a, ctx.a_params)
    if div is None:
        return None
    if div.kind in ("kl", "tv") or (div.kind == "zcdp" and div.compares in ("pairs", "removal")):
        return div
    order = sympy.sympify(div.order)
    if div.kind == "hockey-stick":
        return div if (order >= 1) is sympy.true else None
    # (an order that is a symbol decides nothing: not this argument's case)
    return div if div.kind == "renyi" and order is not sympy.oo and (order <= 2) is sympy.true else None


def _lone_record(ctx) -> bool:
    """B a one-sided ratio of one record against the table (subset size 1): the lone record's ratio is the lone
    class's."""
    if not one_sided(ctx.b, "subset"):
        return False
    size = declared_subset_size(ctx.b, ctx.N, ctx.b_params or {})
    return size is not None and sympy.simplify(size - 1) == 0


def _approach_shape(ctx):
    return (ctx.a is not None and _a_divergence(ctx) is not None and (one_sided(ctx.b, "class") or _lone_record(ctx))
            and any_partition(ctx.a_classes) and any_partition(ctx.b_classes))


def _uniform_shape(ctx):
    if ctx.a is None:
        return False
    div = divergence_of(ctx.b, ctx.b_params)
    if div is None or div.compares != "class" or div.kind not in ("kl", "renyi"):
        return False
    if ctx.a.has(ClassSizeLevel) or not (any_partition(ctx.a_classes) and any_partition(ctx.b_classes)):
        return False
    floor = ctx.a.declared(MinClassSize)
    if floor is not None and floor.param in (ctx.a_params or {}) and _floor(ctx) is None:
        return False        # a minimum class size that is not a number
    from implgraph.definitions.class_bounds import uniform_values
    return uniform_values(ctx.a, T) is not None or tail_param(ctx) is not None


def _floor(ctx):
    """A's declared minimum class size at its parameters where it is an integer >= 1 (else None; 1 where A declares
    none)."""
    from implgraph.prover.arguments.divergence_ceiling import class_floor
    floor = ctx.a.declared(MinClassSize)
    if floor is None or floor.param not in (ctx.a_params or {}):
        return sympy.Integer(1)
    s = class_floor(ctx)
    return s if s is not None and s.is_Integer and s >= 1 else None


def _applies(ctx):
    return _approach_shape(ctx) or _uniform_shape(ctx)


def _ceiling(ctx):
    """B's own ceiling on every table of N records whatever A (a ``ceiling`` or ``supremum`` stage answer), or None."""
    from implgraph.prover.search import ceiling_bound, supremum_bound
    if ctx.a is not None and _uniform_shape(ctx) and _floor(ctx) != 1:
        from implgraph.prover.arguments.divergence_ceiling import floor_ceiling
        return floor_ceiling(ctx)       # log(N/s), s A's declared minimum class size
    found = ceiling_bound(ctx.b, ctx.b_params, ctx.b_classes, ctx.region, ctx.N) or \
        supremum_bound(ctx.b, ctx.b_params, ctx.b_classes, ctx.region, ctx.N)
    ok = (methods.ONE_SIDED_CEILING.name, methods.DIVERGENCE_CEILING.name)
    return found if found is not None and found.method in ok else None


@argument(METHOD, order=201.4, applies=_applies)
def bound(ctx):
    """B's ceiling, its supremum under A by the family (module notes); None where the checker does not accept it."""
    ceiling = _ceiling(ctx)
    if ceiling is None:
        return None
    base = ceiling.argument.replace(" (an upper bound; not argued to be attained)", "")
    if _approach_shape(ctx) and ceiling.method == methods.ONE_SIDED_CEILING.name \
            and sympy.simplify(ceiling.upper - ctx.N) == 0:
        found = _approach(ctx, ceiling, base)
    elif _uniform_shape(ctx) and ceiling.method == methods.DIVERGENCE_CEILING.name \
            and sympy.simplify(sympy.expand_log(ceiling.upper - sympy.log(ctx.N / _floor(ctx)), force=True)) == 0:
        found = _uniform(ctx, ceiling, base)
    else:
        return None
    return found if found is not None and accepted(ctx, found) else None


def _not_attained(div) -> bool:
    return div.kind in ("kl", "renyi", "zcdp") and div.compares in ("pairs", "removal")


def _approach(ctx, ceiling, base):
    div = _a_divergence(ctx)
    kind = {"kl": "KL", "tv": "total variation", "hockey-stick": f"the hockey-stick at gamma = {div.order}",
            "zcdp": "zero-concentrated"}.get(div.kind, f"Renyi of order {div.order}")
    lone = _lone_record(ctx)
    attained = (f"; not attained: B = N needs {'a record' if lone else 'a class of one record'} positive in a bucket "
                "where every other record is 0, and there that record's divergence from another (or the table's from "
                "the table without it) is infinite" if _not_attained(div) else
                "; whether it is attained is not claimed here")
    zero = (f"; at T = 0 every record is the same and {ctx.b.name}'s raw level is 1" if div.compares != "class"
            else "")
    head = (f"{base}; and it is {ctx.b.name}'s supremum whatever {ctx.a.name}'s level T > 0 (the claim's assumption"
            f"{zero}; a witness family, method ceiling-family): for every N >= 2 and K >= 3, one record at "
            "x = (K b, 1 - K b) in a class of its own and N - 1 at y = (b, 1 - b) in another")
    tail = (f"the lone {'record' if lone else 'class'}'s first bucket is N K/(K + N - 1) times the table's, which tends "
            f"to N: the supremum N is approached as K grows{attained}")
    if div.kind == "zcdp":
        removal = ("" if div.compares == "pairs" else
                   " (and so on record removal: P and Q_i are averages of records, exp((alpha - 1) D_alpha) jointly "
                   "convex, each D_alpha at most the largest over pairs)")
        arg = (f"{head}, K b = exp(-ln K (ln K + 1)/T), have {ctx.a.name}'s zero-concentrated level at most T between "
               f"every two records{removal} wherever K b <= 1/2 and 2 K b <= T, which holds for every K large enough "
               "(coq/theories/ZcdpCeiling.v, fam_rho_zcdp: x's Renyi sum of order 1 + t is at most 1 - K b + K b K^t "
               f"<= e^(T (t + t^2)), y's at most r^t with ln r <= 2 K b <= T), while {tail}")
    else:
        arg = (f"{head}, b = 1/(K (K - 1)^2 + 1), have chi^2(x || y) = 1/K, chi^2(y || x) <= 1/K and TV(x, y) = "
               f"(K - 1) b, so {ctx.a.name}'s {kind} level ({div.compares}: every compared distribution a mixture of "
               "records, at most the largest divergence between two, by joint convexity) is at most max(chi^2, TV), "
               f"which tends to 0, while {tail}")

    def build(point):
        from implgraph.core.concrete import ConcreteTable
        Nv = int(point[ctx.N]) if ctx.N in point else int(ctx.N)
        return ConcreteTable.from_fractions(approach_rows(K_BUILD, Nv), classes=["E1"] + ["E2"] * (Nv - 1))

    return Bound(ceiling.upper, True, METHOD.name, arg, build=None if div.kind == "zcdp" else build,
                 checks=ceiling.checks + [f"A ({ctx.a.name}) declares a {kind} divergence ({div.compares}): True",
                                          f"B a one-sided {'ratio of one record' if lone else 'class ratio'}, any "
                                          "partition: True"],
                 parts=[(sympy.true, ceiling)], approached=_not_attained(div))     # (KL, Renyi: at no T > 0)


def _uniform(ctx, ceiling, base):
    from implgraph.definitions.class_bounds import uniform_class_raw, uniform_values
    from implgraph.prover.tables import uniform_classes
    tail = tail_param(ctx)
    if tail is not None:
        m, where = tail, sympy.true
        how = (f"{ctx.a.name}'s level is a tail ratio with l = {tail}: a class uniform over l values is at level 1, "
               "the strongest")
    else:
        m, where = uniform_values(ctx.a, T)
        how = (f"{ctx.a.name}'s raw level of a class uniform over m values is {uniform_class_raw(ctx.a)} (its declared "
               f"class level), improving with m, the table's its worst class's; m = {m} meets T")
    s = _floor(ctx)
    if s != 1:      # two classes of >= s records
        where = sympy.And(where, 2 * s <= ctx.N)
    who, them = ("one record", "its") if s == 1 else (f"{s} records", "their")
    arg = (f"{base}; and it is attained whatever {ctx.a.name}'s level T"
           f"{'' if where is sympy.true else f' with {where}'} (method ceiling-family): {how}; {who} uniform "
           f"over m values in a class of {them} own and N - {s} records uniform over m other values in another (2 m "
           f"buckets) satisfy A at T, and the class of {s}'s ratio to the table is N/{s} on each of its m buckets, so "
           f"its KL and every Renyi divergence from the table are log(N/{s}), the other class's log(N/(N - {s})) <= "
           "that")
    return Bound(ceiling.upper, True, METHOD.name, arg, build=uniform_classes(ctx.N, m, s),
                 checks=ceiling.checks + [f"A ({ctx.a.name}): a uniform class meets T at m = {m}: True"],
                 parts=[(sympy.true, ceiling)], buckets=2 * sympy.sympify(m), attained_where=where)


@certificate_parts(METHOD, whole=True)
def ceiling_family_certificate(a, b, a_params, b_params, a_classes, b_classes, region, N, bound):
    """The ceiling's certificate (the upper bound, whatever A) as the part, and the family (module notes)."""
    from implgraph.prover.certificate import FORMAT, CertContext, certificate, every_partition_certificate
    from implgraph.prover.parts import uniform_family
    (_, ceiling), = bound.parts
    part = certificate(a, b, a_params, b_params, a_classes, b_classes, region, N, ceiling)
    if part.get("min_classes") == 2:        # B's strongest level on a table of one class: at most the ceiling
        part = every_partition_certificate(part)
    cert = {"format": FORMAT, "method": METHOD.name, "symbols": part["symbols"], "domain": list(part["domain"]),
            "A": part["A"], "B": part["B"], "upper": str(bound.upper), "tight": True, "argument": bound.argument,
            "parts": [part]}
    if ceiling.method == methods.ONE_SIDED_CEILING.name:
        div = divergence_of(a, a_params)
        rows = ZCDP_APPROACH_ROWS if div.kind == "zcdp" else APPROACH_ROWS
        cert["family"] = {"kind": "approach", "n0": 2, "K0": str(K0),
                          "rows": [{"count": c, "values": list(v), "class": k} for c, v, k in rows],
                          "attained": "no" if _not_attained(div) else "not claimed"}
    else:
        s = sympy.sympify(cert["parts"][0]["A"]["params"].get(
            (cert["parts"][0].get("upper_certificate") or {}).get("class_floor") or "", 1))
        fam = uniform_family({**cert["A"], "min_class": str(s)}, CertContext(a, N, bound))
        cert["family"] = {"kind": "uniform", **fam, "n0": 2 * int(s) if s != 1 else 2}
    return cert
