"""``attained-family``: a proved upper bound U is the tight f, shown by a family of tables that attains it
(docs/arguments/attained-family.md).

Some arguments prove an upper bound U without looking for a table that attains it: a ``composition`` (A => C, then
C => B: its two parts are each attained, but by different tables) and the direct arguments that bound a pair before
turning it into B's comparison (``tv-distance``). Where U is nevertheless attained, a table family says so: blocks of
equal rows whose counts are expressions in N and whose values (binary rows: the first bucket's) are expressions in N,
T and the sides' parameters. The family is a lower bound only; the upper bound stays the original certificate,
carried inside the new one as its one part.

The family is read from the two sides' declarations (the certificate's descriptions of A and B and the divergences
they declare), never from a definition's name; :data:`SHAPES` lists them:

``lone-ratio``
    A a two-sided ratio between every two records, B one record's one-sided ratio to the table (a subset of size 1):
    one record at T/(T + 1), the N - 1 others at 1/(T + 1). A's ratio is T on both buckets; the lone record's ratio
    to the table's mean on bucket 1 is N T/(N + T - 1).
``one-record-class``
    A one record's one-sided ratio to the table (a subset of size 1), B a class's total variation distance from the
    table: one record at a = min(1, T (N - 1)/N) (its own class), the others at c = max(0, min(1 - T/N,
    (N/T - 1)/(N - 1))) (a class). For T <= N/(N - 1) the table's mean is (N - 1)/N on bucket 1, a = T P_1 and
    1 - c = T (1 - P_1): TV = (N - 1)(T - 1)/N; for N/(N - 1) <= T <= N, a = 1 and P_1 = 1/T: TV = (T - 1)/T; for
    T >= N, the two rows (1, 0) and (0, 1): TV = (N - 1)/N.
``lone-removal``
    A the total variation between the table and the table without one record, B a class's total variation distance:
    one record at min(1, N T), the others at 0. Removing the lone record moves the mean by x_1/N = min(T, 1/N);
    removing another by less; the lone record's class is at (N - 1) min(T, 1/N) from the table.
``mirror-pair``
    A a bound between every two records, either an additive slack (x(E) <= T y(E) + delta on every event) or a
    hockey-stick divergence at a number gamma >= 1 (level T), B the total variation on record removal: one record at
    (1/2 + m, 1/2 - m), the others at its mirror (1/2 - m, 1/2 + m), with 2 m = (T - 1 + 2 delta)/(T + 1) (the slack:
    x_1 = (T + delta)/(T + 1)) or 2 m = min(1, (2 T + gamma - 1)/(gamma + 1)) (the hockey stick, both ways equal).
    The table's total variation against the table without the lone record is 2 m/N.
``removal-class-divergence``
    A the total variation on record removal, B a class's KL or Renyi divergence from the table: one record at
    (0, m, 1 - m) (its own class), the others at (m, 0, 1 - m) (a class), m = min(1, N T). The table's mean is
    ((N - 1) m/N, m/N, 1 - m); removing the lone record moves it by m/N = min(T, 1/N); the lone record's likelihood
    ratio to the table is 0, N and 1 on the three buckets, the equality case of the chord of phi on [0, N]: KL =
    m log N, exp(D_2) = 1 + (N - 1) m (three buckets: the tightness theorem in Coq is not stated).
``point-mass-class``
    A and B a class's KL or Renyi divergence from the table: one record at (1, 0) (its own class), the others at
    ((N e^-T - 1)/(N - 1), ...) (a class), where T <= log N. The table's mean is e^-T on bucket 1, so the lone
    record's class has every Renyi divergence and KL log(1/P_1) = T (its likelihood ratio is constant on its
    support, the equality case of KL <= D_alpha); the other class is nearer the table. Sampled at T = log r (its
    values are then rational).
``removal-to-pairs``
    A the total variation on record removal, B a total variation or hockey stick between two records: one record at
    x = min(1, 2 (N - 1) T), one at 0 and the N - 2 others at x/2. The table's mean is x/2 on bucket 1; removing
    either end record moves it by x/(2 (N - 1)) <= T, removing a middle one not at all; B between the two end records
    is x on bucket 1 (and less on bucket 2 and between other records).

``weakest-pair``
    A a KL or Renyi divergence on record removal, B a total variation or hockey stick (gamma >= 1) between two records,
    U B's weakest level 1 there: x = (1, 0), y = (0, 1) and N - 2 records at (1/2, 1/2), for N >= 3. B between x and y
    is 1; the mean is (1/2, 1/2), and without x it is ((1 - u)/2, (1 + u)/2) with u = 1/(N - 1), so A's level on the
    family is a closed form in N (KL: log((N - 1)^2/(N (N - 2)))/2, the larger direction; Renyi-2 twice that), the
    largest comparison written from A's description (:func:`weakest_pair_level`). The family's own domain is N >= 3 and
    T >= that level: it meets A at every T there. (At N = 2 there is no third record and A's level is infinite.)

A family is attached only where the independent checker (:mod:`implgraph.certify.lemmas.attained_family`) accepts
the certificate built with it: the family meets A at T and has B's level exactly U at every sampled point (N = 2..12,
A's levels on a grid, the parameters' values), with the registry's exact levels. The answer is the original bound with
``exact`` this bound (U itself, tight): the cell's tight f is U, the certificate of the upper bound unchanged. Where
the family attains U only up to A's weakest raw level w (beyond it A holds on every table, so U, still growing, is
not attained), the family's own domain is ``T <= w`` and the bound is tight there only (``attained_where``); a family
whose A level is stated (``weakest-pair``) is tight on its own domain only, ``N >= 3`` and ``T >=`` that level.
"""

from __future__ import annotations

from dataclasses import replace

import sympy

from implgraph.definitions.divergence_gamma import gamma_of as declared_gamma
from implgraph.core import methods
from implgraph.definitions.divergences import divergence_of
from implgraph.prover.answer import Bound, T
from implgraph.prover.parts import said
from implgraph.prover.registry import certificate_parts

METHOD = methods.ATTAINED_FAMILY
#: where the prover tries it (it has no handler of its own)
TRIED = ("attached by `composition`, `tv-distance` and `divergence-order` to the upper bound they prove (`attach`), "
         "where a family fits the sides and the checker accepts it")

__all__ = ["attach", "family_of", "SHAPES", "CARRIERS"]

#: the methods whose upper bound an attained family may be attached to (the callers of :func:`attach`)
CARRIERS = (methods.COMPOSITION.name, methods.TV_DISTANCE.name, methods.DIVERGENCE_ORDER.name)


def _ratio(side, family, sides, size=None):
    return (side.get("family") == family and side.get("sides") == sides
            and (size is None or str(side.get("size")) == size))


def _class_tv(side):
    """A class's total variation distance from the table, over any partition (no class limits)."""
    return (side.get("family") == "class" and side.get("distance") == "total-variation"
            and str(side.get("min_class") or "1") == "1" and side.get("max_class") is None)


def _is(div, kind, compares):
    return div is not None and div.kind == kind and div.compares == compares


def _gamma(div):
    """The hockey stick's order as a number >= 1, else None."""
    return declared_gamma(div, None, 1, tv=False)


def _lone_ratio(A, da, B, db):
    if _ratio(A, "pairwise", "two-sided") and _ratio(B, "subset", "one-sided", "1"):
        return [("1", "T/(T + 1)", "E1"), ("N - 1", "1/(T + 1)", "E2")]
    return None


def _one_record_class(A, da, B, db):
    if _ratio(A, "subset", "one-sided", "1") and _class_tv(B):
        return [("1", "Min(1, T*(N - 1)/N)", "E1"), ("N - 1", "Max(0, Min(1 - T/N, (N/T - 1)/(N - 1)))", "E2")]
    return None


def _lone_removal(A, da, B, db):
    if _is(da, "tv", "removal") and _class_tv(B):
        return [("1", "Min(1, N*T)", "E1"), ("N - 1", "0", "E2")]
    return None


def _mirror_pair(A, da, B, db):
    if not _is(db, "tv", "removal"):
        return None
    slack = A.get("slack") or {}
    if slack.get("compares") == "pairs" and slack.get("delta") is not None:
        x = f"(T + ({slack['delta']}))/(T + 1)"
    elif _gamma(da) is not None and da.compares == "pairs":
        g = _gamma(da)
        x = f"1/2 + Min(1, (2*T + ({g}) - 1)/(({g}) + 1))/2"
    else:
        return None
    return [("1", x, "E1"), ("N - 1", f"1 - ({x})", "E2")]


def _removal_to_pairs(A, da, B, db):
    if _is(da, "tv", "removal") and db is not None and db.compares == "pairs" \
            and (db.kind == "tv" or _gamma(db) is not None):
        x = "Min(1, 2*(N - 1)*T)"
        return [("1", x, "E1"), ("1", "0", "E2"), ("N - 2", f"({x})/2", "E3")]
    return None


def _removal_class_divergence(A, da, B, db):
    if _is(da, "tv", "removal") and db is not None and db.compares == "class" and db.kind in ("kl", "renyi") \
            and str(B.get("min_class") or "1") == "1" and B.get("max_class") is None:
        m = "Min(1, N*T)"
        return [("1", ["0", m, f"1 - {m}"], "E1"), ("N - 1", [m, "0", f"1 - {m}"], "E2")]
    return None


def _point_mass_class(A, da, B, db):
    if da is not None and db is not None and da.compares == "class" and db.compares == "class" \
            and da.kind in ("kl", "renyi") and db.kind in ("kl", "renyi") \
            and str(B.get("min_class") or "1") == "1" and B.get("max_class") is None:
        return [("1", "1", "E1"), ("N - 1", "(N*exp(-T) - 1)/(N - 1)", "E2")]
    return None


def _weakest_pair(A, da, B, db):
    if da is not None and da.kind in ("kl", "renyi") and da.compares == "removal" and db is not None \
            and db.compares == "pairs" and (db.kind == "tv" or _gamma(db) is not None):
        return [("1", "1", "E1"), ("1", "0", "E2"), ("N - 2", "1/2", "E3")]
    return None


def weakest_pair_level(da, N):
    """A's raw level on the ``weakest-pair`` family with N records (N >= 3): the largest divergence of the table's mean
    against the mean without one record, both ways (:func:`implgraph.certify.lemmas.attained_symbolic.b_expression`,
    the expression the checker writes), simplified."""
    from implgraph.certify.lemmas.attained_symbolic import b_expression
    half = sympy.Rational(1, 2)
    blocks = [(sympy.Integer(1), [sympy.Integer(1), sympy.Integer(0)], "E1"),
              (sympy.Integer(1), [sympy.Integer(0), sympy.Integer(1)], "E2"), (N - 2, [half, half], "E3")]
    return sympy.Max(*[sympy.simplify(x) for x in b_expression({}, da, blocks, N).args])


#: the family shapes whose own domain is stated: name -> its conditions on N and T (A's level on it at most T)
OWN_DOMAIN = {"weakest-pair": lambda da, N: [sympy.Ge(N, 3), sympy.Ge(T, weakest_pair_level(da, N))]}

#: the family shapes, by name (module notes), tried in this order
SHAPES = {"lone-ratio": _lone_ratio, "one-record-class": _one_record_class, "lone-removal": _lone_removal,
          "mirror-pair": _mirror_pair, "removal-to-pairs": _removal_to_pairs,
          "removal-class-divergence": _removal_class_divergence, "point-mass-class": _point_mass_class,
          "weakest-pair": _weakest_pair}


def family_of(A, da, B, db):
    """``[(shape, blocks)]``: the shapes whose declarations fit the sides (A, B the certificate's descriptions, da, db
    the divergences they declare or None); blocks ``[(count, value, class)]`` as texts."""
    out = []
    for name, shape in SHAPES.items():
        blocks = shape(A, da, B, db)
        if blocks is not None:
            out.append((name, blocks))
    return out


def attach(bound, a, b, a_params, b_params, a_classes, b_classes, region, N):
    """``bound`` with ``exact`` an attained-family bound (U itself, tight) where a family fits the sides and the
    independent checker accepts its certificate; else ``bound`` unchanged."""
    if bound is None or bound.tight or bound.exact is not None or bound.method not in CARRIERS:
        return bound
    from implgraph.certify.accepted import accepted
    from implgraph.prover.certificate import certificate, side
    A, B = side(a, a_params, a_classes, N), side(b, b_params, b_classes, N)
    weakest = _weakest_raw(a, a_params, N)
    for name, blocks in family_of(A, divergence_of(a, a_params), B, divergence_of(b, b_params)):
        text = "; ".join(f"{c} record(s) at ({', '.join(v) if isinstance(v, list) else f'{v}, 1 - ({v})'}) in class {k}"
                         for c, v, k in blocks)
        own = OWN_DOMAIN.get(name)
        wheres = (sympy.true, None if weakest is None else sympy.Le(T, weakest)) if own is None else \
            (sympy.And(*own(divergence_of(a, a_params), sympy.Symbol("N", integer=True, positive=True))),)
        for where in wheres:
            if where is None:
                continue
            on = "" if where is sympy.true else (f", where T <= {weakest} (A's weakest level: beyond it A holds on "
                                                 "every table)" if own is None else
                                                 f", where {where} (A's level on the family is at most T)")
            arg = (f"U = {said(bound.upper)} ({bound.method}) is attained{on} by the {name} family, read from the sides' "
                   f"declarations: {text}; it meets A at T and has B's level U (the upper bound: {bound.method})")
            exact = Bound(bound.upper, True, METHOD.name, arg, checks=[f"family: {name}"], attained_where=where,
                          via=(bound, name, blocks))
            try:
                cert = certificate(a, b, a_params, b_params, a_classes, b_classes, region, N, exact)
            except (ValueError, TypeError, KeyError):
                continue
            if accepted(cert):
                return replace(bound, exact=exact)
    return bound


def _weakest_raw(a, a_params, N):
    """A's weakest raw level at N where it is finite (a number or an expression in N), or log N for a class's KL or
    Renyi divergence over any partition (a class's mean is at most N times the table's), else None."""
    try:
        w = sympy.sympify(a.raw_from_level(a.weakest(N)))
    except (TypeError, ValueError, AttributeError):
        return None
    div = divergence_of(a, a_params)
    if w.has(sympy.oo) and div is not None and div.compares == "class" and div.kind in ("kl", "renyi"):
        return sympy.log(N)
    return w if w.is_finite is not False and not w.has(sympy.oo, sympy.zoo) else None


@certificate_parts(METHOD, whole=True)
def attained_certificate(a, b, a_params, b_params, a_classes, b_classes, region, N, bound):
    """The original bound's certificate as the one part (the upper bound), the same claim, and the family."""
    from implgraph.prover.certificate import FORMAT, certificate
    original, name, blocks = bound.via
    part = certificate(a, b, a_params, b_params, a_classes, b_classes, region, N, original)
    cert = {"format": FORMAT, "method": METHOD.name, **{k: part[k] for k in ("symbols", "domain", "A", "B", "upper")},
            "tight": True, "argument": bound.argument, "parts": [part],
            "tightness": {"shape": name, "blocks": [{"count": c, ("row" if isinstance(v, list) else "value"): v,
                                                     "class": k} for c, v, k in blocks]}}
    if bound.attained_where is not sympy.true:
        where = bound.attained_where
        cert["tightness"]["domain"] = [str(c) for c in (where.args if isinstance(where, sympy.And) else (where,))]
    return cert
