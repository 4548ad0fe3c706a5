"""Non-implications for every N by a witness family: a bounded zero-concentrated level never bounds a ratio.

A is the zero-concentrated level between every two records (divergence kind ``zcdp``, compares ``pairs``:
rho*(x || y) = sup_{alpha > 1} D_alpha(x || y)/alpha, both ways; Bun and Steinke 2016), or between the table and the
table without one record (compares ``removal``: P against Q_i, both ways). A removal compares two averages of records,
(P, Q_i) the uniform average of the pairs (x_k, x_m) with x_k, x_m records (P = ((N - 1) Q_i + x_i)/N, Q_i the mean of
the others), and exp((alpha - 1) D_alpha) is jointly convex for alpha > 1 (van Erven and Harremoes 2014, Theorem 11,
cited), so each D_alpha of the averages is at most the largest over pairs of records, and so is rho* (a supremum over
alpha of D_alpha/alpha): the family's removal level is at most its level between records, <= 1. B is a two-sided ratio of
averages (pairwise, subsets of 1 <= size <= N - 1 records, or classes; read as by
:mod:`implgraph.prover.arguments.divergence_family`, whose reading of B this module reuses). The family, for every
N >= n0 and integer j >= 1: one record at x = (K b, 1 - K b) and N - 1 at y = (b, 1 - b), with K = 2^j and
b = 2^(-j^2 - 2 j) (so K b = 2^(-j^2 - j)).

Why a much smaller b than the divergence family's 1/((K - 1)^2 + 1): rho* weighs every order alpha, and at large
alpha the sum b K^alpha alone makes D_alpha/alpha about (alpha log K + log b)/alpha^2; bounded only when
-log b grows like (log K)^2 (a Gaussian tail). With L = ln K and a = -ln(K b) the condition used is L (L + 1) <= a
(here L = j ln 2, a = (j^2 + j) ln 2, and (j ln 2)^2 + j ln 2 <= (j^2 + j) ln 2 as ln 2 <= 1). Then, t = alpha - 1:

- rho*(x || y) <= 1: the Renyi sum is K b K^t + (1 - K b) s^t with s = (1 - K b)/(1 - b) <= 1, so at most
  1 - K b + K b e^(t L) = 1 - e^(-a) + e^(t L - a). The function g(t) = e^(t + t^2) - e^(t L - a) has g(0) = 1 - e^(-a)
  and g'(t) = (1 + 2 t) e^(t + t^2) - L e^(t L - a) >= e^(t + t^2) - e^(L - 1 + t L - a) >= 0 (L <= e^(L - 1), and
  t^2 + t - (L - 1 + t L - a) >= t^2 - (L - 1) t + L^2 + 1 = (t - (L - 1)/2)^2 + L^2 + 1 - (L - 1)^2/4 > 0): the sum
  is at most e^(t (1 + t)), D_alpha = ln(sum)/t <= 1 + t = alpha;
- rho*(y || x) <= ln 2: the sum is b K^(-t) + (1 - b)(1 + d)^t <= (1 + d)^t with d = (K - 1) b/(1 - K b) <= 1
  (K b <= 1/2), so D_alpha <= ln(1 + d) <= ln 2 < alpha.

Both are the library's ``ZcdpFamily.zcdp_family`` (coq/theories/ZcdpFamily.v), for real K >= 1, b > 0, K b <= 1/2
and L (L + 1) <= a. B's raw level is at least K = 2^j (pairwise: bucket 1's ratio), or (K + N - 1)/N (the table
against a set of records at y, or the class of the records at y): unbounded as j grows, at every N >= n0. So for
every f, the family's table at a j with B's level beyond f(1) satisfies A at 1 and not B at f: no f works.

The verdict carries the family's certificate (method ``zcdp-family``), re-derived for every N >= n0 and j >= 1 by the
independent checker :mod:`implgraph.certify.lemmas.zcdp_family`; the tables at N = n0, n0 + 1 and j = 1, 2 are
re-checked in exact arithmetic with the registry's levels (the exact zCDP level: an enclosure at 30 digits).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import sympy

from implgraph.core import methods
from implgraph.definitions.capabilities import RatioLevel
from implgraph.definitions.divergences import divergence_of

METHOD = methods.ZCDP_FAMILY
#: where the prover tries it (it has no handler of its own)
TRIED = ("by the prover (`engines/prove.py`) where no direct argument applies, after the divergence family: a "
         "refutation for every N, A a zero-concentrated level between records")

__all__ = ["refutation", "family_rows", "ZCDP_FAMILY_ROWS", "A_BOUND"]

#: the family's rows ``(count in N, values in j, class)``
ZCDP_FAMILY_ROWS = (("1", ("2**(-j**2 - j)", "1 - 2**(-j**2 - j)"), "E1"),
                    ("N - 1", ("2**(-j**2 - 2*j)", "1 - 2**(-j**2 - 2*j)"), "E2"))
#: the bound of A's level on the family, both ways, for every j >= 1
A_BOUND = 1
#: the least j
J0 = 1


def family_rows(j, N=2):
    """The family's table at j (an integer >= 1) with N records."""
    kb, b = Fraction(1, 2 ** (j * j + j)), Fraction(1, 2 ** (j * j + 2 * j))
    return [[kb, 1 - kb]] + [[b, 1 - b]] * (N - 1)


def certificate(a, a_params, b, b_params, n0, over=None, b_classes=None):
    """The family's certificate (method ``zcdp-family``)."""
    from implgraph.prover.certificate import side
    N = sympy.Symbol("N", integer=True, positive=True)
    fam = {"kind": "unbounded", "n0": n0, "J0": str(J0), "A_bound": str(A_BOUND),
           "rows": [{"count": c, "values": list(v), "class": k} for c, v, k in ZCDP_FAMILY_ROWS]}
    cert = {"format": "implgraph-certificate/1", "method": METHOD.name, "claim": "no-f",
            "symbols": {"N": "integer", "j": "integer"}, "domain": [f"N >= {n0}", f"j >= {J0}"],
            "A": side(a, a_params, None, N), "B": side(b, b_params, b_classes, N), "tight": False, "family": fam}
    if over is not None:
        cert["symbols"][str(over["symbol"])] = "integer"
        cert["domain"] += over["conditions"]
    return cert


def refutation(a, b, a_params, b_params, b_classes=None):
    """The prover's verdict fields refuting A => B for every f by the family, or None (not its case)."""
    from implgraph.certify.accepted import accepted
    from implgraph.core.concrete import INF, ConcreteTable
    from implgraph.engines.recheck import raw_level
    from implgraph.prover.arguments.divergence_family import _first_n
    a_params, b_params = a_params or {}, b_params or {}
    div = divergence_of(a, a_params)
    if div is None or div.kind != "zcdp" or div.compares not in ("pairs", "removal") \
            or divergence_of(b, b_params) is not None:
        return None
    ratio = b.declared(RatioLevel)
    if ratio is None or ratio.sides != "two-sided":
        return None
    spec = b_classes or {}
    if ratio.family == "class" and (spec.get("max_size") is not None
                                    or sympy.sympify(spec.get("min_size", 1)) != 1):
        return None
    first = _first_n(ratio, b, b_params)
    if first is None:
        return None
    n0, over = first
    cert = certificate(a, a_params, b, b_params, n0, over, b_classes)
    if not accepted(cert):
        return None
    checked = []
    for N, j in itertools.product((n0, n0 + 1), (1, 2)):
        ct = ConcreteTable.from_fractions(family_rows(j, N), classes=["E1"] + ["E2"] * (N - 1))
        values = [{}] if over is None else [{over["param"]: sympy.Integer(v)}
                                            for v in range(over["lo"], N - over["c"] + 1)]
        K = 2 ** j
        for at in values:
            # A's exact level from its declared divergence (an enclosure of the supremum at 30 digits)
            ra, rb = div.level(family_rows(j, N)), raw_level(b, {**b_params, **at}, ct)   # (removal: P, Q_i)
            if ra is None or rb is None or ra == INF or not _at_most(ra, A_BOUND):
                return None
            if not (rb == INF or Fraction(rb) >= Fraction(K + N - 1, N)):
                return None
        at_k = "" if over is None else f" with {over['symbol']} = " + ", ".join(str(v) for at in values
                                                                                 for v in at.values())
        checked.append(f"(N, j) = ({N}, {j}){at_k}")
    return _verdict(a, b, ratio.family, n0, checked, cert, over, div.compares)


def _at_most(level, bound) -> bool:
    """Is an exact level (a number, a sympy value or an enclosure) at most ``bound``?"""
    hi = getattr(level, "hi", None)
    if hi is not None:
        return Fraction(hi) <= bound
    v = level if isinstance(level, sympy.Basic) else sympy.sympify(getattr(level, "expr", level))
    return bool(v <= bound)


def _verdict(a, b, compared, n0, checked, cert, over=None, a_compares="pairs"):
    rows = [[str(v) for v in r] for r in family_rows(1, n0)]
    lower = {"pairwise": "K = 2^j (bucket 1's ratio between the two kinds of records)",
             "subset": "(K + N - 1)/N (the table's mean against a set of records at y, bucket 1)",
             "class": "(K + N - 1)/N (the table's mean against the class of the records at y, bucket 1)"}[compared]
    where = f"every N >= {n0}"
    if over is not None:
        where = f"every N >= {n0} and every integer {over['symbol']} with {over['range']}"
    evidence = (f"no f can work: a witness family for {where} and integer j >= 1, one record at x = (K b, 1 - K b) "
                f"and N - 1 at y = (b, 1 - b), K = 2^j, b = 2^(-j^2 - 2 j): {a.name}'s zero-concentrated level is "
                "<= 1 both ways (x's Renyi sum <= 1 - K b + K b K^t <= e^(t (1 + t)) as ln K (ln K + 1) <= "
                "-ln(K b); y's <= (1 + d)^t, d = (K - 1) b/(1 - K b) <= 1; t = alpha - 1)"
                + ("" if a_compares == "pairs" else
                   " between records, hence on record removal (P and Q_i are averages of records and "
                   "exp((alpha - 1) D_alpha) is jointly convex: at most the largest over pairs; van Erven and "
                   "Harremoes 2014, Theorem 11)")
                + ", while "
                f"{b.name}'s raw level is >= {lower}, unbounded as j grows, at {where}; its certificate (method "
                "zcdp-family) re-checked symbolically in N and j by implgraph.certify; the tables re-checked in exact "
                f"arithmetic at {', '.join(checked)}")
    family = (f"one record at (K b, 1 - K b), N - 1 at (b, 1 - b), K = 2^j, b = 2^(-j^2 - 2 j), {where} and "
              "integer j >= 1" + (" (classes: the first record, the others)" if compared == "class" else ""))
    point = {"j": 1, "N": n0, **({} if over is None else {str(over["symbol"]): over["lo"]})}
    witness = {"rows": rows, "classes": ["E1"] + ["E2"] * (n0 - 1) if compared == "class" else None,
               "family": family, "point": point}
    return {"verdict": "refuted", "evidence": evidence, "witness": witness, "tightness": "wrong",
            "method": METHOD.name, "details": {"certificate": cert}}
