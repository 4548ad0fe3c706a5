"""The chi-square-tv lemma: a Renyi level of order 2 bounds the total variation (docs/arguments/chi-square-tv.md).

With c = e^T - 1 (chi^2 = exp(D_2) - 1 <= c), re-derived here from the registry, never from the prover's words:

- **the case**, from the sides' registered declarations: A the Renyi divergence of the number 2 between every two
  records (``pairs``) and B the total variation between two records (``pairs``) or on record removal (``removal``);
  or A each class against the table (``class``) and B a class's total variation distance from the table (classes
  of >= s records, no maximum); the certificate's ``case`` must be that one;
- **two buckets**: merging buckets does not raise sum x^2/y (the identity x1^2/y1 + x2^2/y2 - (x1 + x2)^2/(y1 + y2)
  = (x1 y2 - x2 y1)^2/(y1 y2 (y1 + y2))), and on two buckets chi^2 = (a - b)^2/(b (1 - b)) (exact);
- **pairs**: c - (4 + c)(a - b)^2 = 2 (c a (1 - a) - (a - b)^2) + 2 (c b (1 - b) - (a - b)^2) + c (1 - a - b)^2
  (exact), so U = sqrt(c/(c + 4)); **removal**: P - Q_i = (x_i - Q_i)/N for P = (x_i + (N - 1) Q_i)/N (exact) and
  Q_i a mean of records (the triangle inequality), U = sqrt(c/(c + 4))/N;
- **class**: c/4 - c p (1 - p) = c (p - 1/2)^2 (so t = a - p <= sqrt(c)/2); t (1 - t) - p (1 - p) =
  (1 - t - p)(t - p) >= 0 where t > 1/2 and p <= 1 - t (so t^2 <= c t (1 - t), t <= c/(1 + c)); c/(1 + c) = 1 - e^-T
  (exact); TV(P_E, P) = (N - e) TV(P_E, P_O)/N <= (N - s)/N (exact identity);
- the domain implies T >= 0 (and N >= 2 on removal); **U** is the case's value, compared as an expression;
- **tightness**: the family's rows (one record in E1, N - 1 in E2; s = 1 for a class) are, between records, the
  symmetric pair at TV U with chi^2 = c both ways (symbolic); and at sample points (T = log(1 + c) for rational c
  where the rows are rational) the rows are a table of N records whose registered A level is at most T and whose
  registered B level is U.
"""

from __future__ import annotations

import sympy

from implgraph.certify.lemmas import lemma
from implgraph.certify.lemmas.tv_distance import _chi_steps, _report, _zero
from implgraph.certify.report import lemma_steps
from implgraph.core import methods
from implgraph.core.formula import parse_expr

__all__ = ["check", "value", "case_of"]

_T = sympy.Symbol("T", positive=True)
_N = sympy.Symbol("N", integer=True, positive=True)
_C = sympy.exp(_T) - 1

#: sampled chi^2 levels c per case: the rows are rational at T = log(1 + c)
_SAMPLES = {"pairs": ("1/6", "4/3", "9/4"), "removal": ("1/6", "4/3"), "class": ("1/4", "1", "2", "8")}


def value(case, s=1):
    """The lemma's U for the case (classes of >= ``s`` records)."""
    pair = sympy.sqrt(_C / (_C + 4))
    if case == "pairs":
        return pair
    if case == "removal":
        return pair / _N
    half = sympy.Rational(1, 2)
    return sympy.Min(sympy.sqrt(_C) / 2, sympy.Max(half, 1 - sympy.exp(-_T)), (_N - s) / _N)


def case_of(cert):
    """``(case, s, A's divergence, B's divergence)`` from the registry, case None where the lemma does not apply."""
    from implgraph.certify.registered import declared_divergences, registered
    B = cert.get("B") or {}
    da, db = declared_divergences(cert)
    s = sympy.Integer(int(str(B.get("min_class") or "1")))
    renyi2 = da is not None and da.kind == "renyi" and da.order is not None and da.order.is_number and da.order == 2
    case = None
    if renyi2 and da.compares == "pairs" and db is not None and db.kind == "tv" and db.compares in ("pairs",
                                                                                                  "removal"):
        case = db.compares
    elif renyi2 and da.compares == "class" and registered(B.get("definition") or "") is not None \
            and B.get("distance") == "total-variation" and B.get("max_class") is None and s >= 1:
        case = "class"
    return case, s, da, db


def _identities(case):
    """The case's exact identities (module notes)."""
    a, b, p, t, x, Q, e, X, Y = sympy.symbols("a b p t x Q e X Y", positive=True)
    c = sympy.Symbol("c", positive=True)
    out = [("merging buckets does not raise chi^2; on two buckets chi^2 = (a - b)^2/(b (1 - b)); both ways "
            "c - (4 + c) s^2 = 2 (c q(a) - s^2) + 2 (c q(b) - s^2) + c (1 - a - b)^2", _chi_steps(), "exact")]
    if case == "removal":
        P = (x + (_N - 1) * Q) / _N
        out.append(("P - Q_i = (x_i - Q_i)/N", _zero((P - Q) - (x - Q) / _N), "exact identity"))
    if case == "class":
        P = (e * X + (_N - e) * Y) / _N
        ok = (_zero(c / 4 - c * p * (1 - p) - c * (p - sympy.Rational(1, 2)) ** 2)
              and _zero(t * (1 - t) - p * (1 - p) - (1 - t - p) * (t - p))
              and _zero(_C / (1 + _C) - (1 - sympy.exp(-_T)))
              and _zero((X - P) - (_N - e) * (X - Y) / _N))
        out.append(("c/4 - c p (1 - p) = c (p - 1/2)^2; t (1 - t) - p (1 - p) = (1 - t - p)(t - p); c/(1 + c) = "
                    "1 - e^-T; P_E - P = (N - e)(P_E - P_O)/N", ok, "exact identities"))
    return out


def _rows(cert):
    rows = (cert.get("tightness") or {}).get("rows") or []
    return [(parse_expr(str(r["count"]), {"N": _N}), parse_expr(str(r["value"]), {"T": _T, "N": _N}),
             str(r.get("class"))) for r in rows]


def _symbolic_pair(rows, upper) -> bool:
    """Between records: one record at x, N - 1 at y = 1 - x, x - y = U, chi^2 = c both ways."""
    if [(str(c), k) for c, _, k in rows] != [("1", "E1"), (str(_N - 1), "E2")]:
        return False
    x, y = rows[0][1], rows[1][1]
    chi = (x - y) ** 2 / y + (x - y) ** 2 / (1 - y)
    chi_rev = (x - y) ** 2 / x + (x - y) ** 2 / (1 - x)
    return _zero(x + y - 1) and _zero(x - y - upper) and _zero(chi - _C) and _zero(chi_rev - _C)


def _sample(cert, case, rows, upper, db, ns):
    """The rows at sampled (N, T = log(1 + c)): a table of N records, A's registered level <= T, B's = U."""
    from implgraph.certify.pointwise import level_number
    from implgraph.certify.registered import registered
    from implgraph.core.concrete import ConcreteTable
    from fractions import Fraction
    B = cert.get("B") or {}
    da = case_of(cert)[2]
    b_def = registered(B.get("definition"))
    params_b = {k: str(v) for k, v in (B.get("params") or {}).items()}
    bad, tried = [], 0
    for c_text in _SAMPLES[case]:
        c = sympy.Rational(c_text)
        for n in ns:
            env = {_T: sympy.log(1 + c), _N: sympy.Integer(n)}
            table, labels = [], []
            for count, val, label in rows:
                k, v = sympy.simplify(count.subs(env)), sympy.nsimplify(sympy.simplify(val.subs(env)))
                if not (k.is_Integer and k >= 0 and v.is_Rational and 0 <= v <= 1):
                    bad.append(f"N = {n}, c = {c}: a row is no record ({k} x {v})")
                    break
                f = Fraction(int(v.p), int(v.q))
                table += [[f, 1 - f]] * int(k)
                labels += [label] * int(k)
            else:
                tried += 1
                ra = level_number(da.level([list(r) for r in table], labels))
                rb = level_number(db.level([list(r) for r in table], labels)) if case != "class" else \
                    level_number(b_def.concrete(ConcreteTable.from_fractions(table, classes=labels), **params_b))
                want = sympy.simplify(upper.subs(env))
                if len(table) != n or not bool(sympy.simplify(sympy.exp(ra)) <= 1 + c) or \
                        not _zero(rb - want):
                    bad.append(f"N = {n}, c = {c}: A {ra}, B {rb}, U {want}")
    return (f"the family attains U at {tried} sampled points (registry levels)", tried > 0 and not bad,
            "; ".join(bad[:3]) or "exact")


@lemma(methods.CHI_SQUARE_TV, own_partitions=True)
def check(cert, ns=range(2, 6), timeout_ms=4000):
    """Re-check a chi-square-tv certificate (see the module notes)."""
    from implgraph.certify.domain import declared_names
    from implgraph.certify.hypotheses import domain_hypotheses
    with lemma_steps(cert) as steps:
        case, s, _, db = case_of(cert)
        steps.append(("A declares the Renyi divergence of order 2 between records (B the total variation between "
                      "records or on record removal) or of each class against the table (B a class's total "
                      "variation distance, no maximum class)", case is not None, "registry"))
        if case is None:
            return _report(steps)
        data = cert.get("upper_certificate") or {}
        steps.append(("the certificate's case is the registry's", data.get("lemma") == methods.CHI_SQUARE_TV.lemma
                      and data.get("case") == case, "registry"))
        steps += _identities(case)
        hyps = domain_hypotheses(cert, declared_names(cert, {"T": _T, "N": _N}))
        least = [sympy.Ge(_T, 0)] + ([sympy.Ge(_N, 2)] if case != "pairs" else [])
        steps.append(("the domain implies T >= 0" + (" and N >= 2" if case != "pairs" else ""),
                      all(bool(hyps.implied(r)[0]) for r in least), "the domain's conditions"))
        upper = parse_expr(str(cert.get("upper")), {"T": _T, "N": _N})
        want = value(case, s)
        steps.append(("U is the lemma's value", upper == want or _zero(upper - want), f"want {want}"))
        if cert.get("tight"):
            rows = _rows(cert)
            steps.append(("a tight claim: classes of >= 1 record", s == 1, "registry"))
            if case != "class":
                steps.append(("the family: one record at x, N - 1 at 1 - x, x - (1 - x) the pair's bound, chi^2 = c "
                              "both ways (symbolic)", _symbolic_pair(rows, value("pairs")), "exact"))
            steps.append(_sample(cert, case, rows, upper, db, ns))
        else:
            steps.append(("no tightness claimed", True, "exact"))
    return _report(steps)
