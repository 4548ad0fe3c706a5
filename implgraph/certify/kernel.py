"""The checker's lemmas: what each argument of a certificate must establish, as polynomial obligations.

The checker trusts these few textbook facts about ratio-of-averages levels (stated here with their
proofs) and nothing the prover computed:

``same-level``
    Two identical descriptions (family, sides, subset size) have the same level on every table.
``extreme-means-monotone``
    In one bucket the mean of the j smallest values is nondecreasing in j and the mean of the j
    largest nonincreasing (adding the next value moves the mean towards it), so a two-sided subset
    level with size j_B >= j_A is at most the one with size j_A.
``class-mean-between-extremes``
    A class of s records has its mean between the means of the s smallest and the s largest
    values, hence (s >= j) between the j-extreme means: a two-sided class level with classes of at
    least s >= j records is at most the subset level of size j.
``linear-fractional-vertex``
    Under a pairwise level T every bucket's values lie in a box [a, T a]; each ratio of B is
    ``mean_S / mean_D`` or its inverse, linear-fractional in the bucket's values, so its maximum over
    the box is at a vertex: values a or T a. Ratios are scale free (a = 1); a vertex is described by
    how many high values S (or class E) holds and how many the rest holds (``u``, ``m``/``v``, relaxed
    to reals: a larger set, so a proof there is a proof).
``extremes-and-mean``
    Under a two-sided subset level T of size 1 (or singleton classes), a bucket with minimum a,
    maximum b and mean m has b <= T m and m <= T a; with one value at a, one at b and N - 2 between,
    b + (N-1) a <= N m <= a + (N-1) b. B's pairwise ratio of the bucket is b/a.

Each obligation is ``target >= 0`` (or ``> 0``) under its hypotheses and the certificate's domain,
optionally with multipliers: ``target = sum(lambda_i * fact_i)`` identically, every ``lambda_i >= 0``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy

__all__ = ["Obligation", "obligations", "structural_checks", "FACT_NAMES"]

#: the facts of ``extremes-and-mean`` (each ``>= 0``), by the names multipliers refer to
FACT_NAMES = ("max<=T*mean", "mean<=T*min", "mean>=extremes", "mean<=extremes", "min>=0", "max>=min")


#: the vertex variables (multipliers may mention them by these names)
VARS = {n: sympy.Symbol(n, real=True) for n in ("u_", "m_", "e_", "v_")}


@dataclass
class Obligation:
    """``target >= 0`` (``strict``: ``> 0``) under ``hypotheses`` over extra ``variables``."""

    name: str
    target: sympy.Expr
    hypotheses: list = field(default_factory=list)
    variables: dict = field(default_factory=dict)
    facts: dict | None = None       # name -> expression >= 0, for multipliers
    strict: bool = False
    multipliers: dict | None = None  # fact name -> lambda (from the certificate)


def _size(side, S):
    s = side.get("size")
    return None if s is None else sympy.sympify(s, locals=S)


def _ratio_obligations(label, num, den, U, hyps, variables):
    """num/den <= U = P/Q with den > 0 and Q > 0: ``P den - Q num >= 0`` (polynomial)."""
    P, Q = sympy.fraction(sympy.together(U))
    out = [Obligation(f"{label}: denominator > 0", den, hyps, variables, strict=True)]
    if Q != 1:
        out.append(Obligation(f"{label}: denominator of U > 0", sympy.expand(Q), hyps, variables, strict=True))
    return out + [Obligation(f"{label} <= U", sympy.expand(P * den - Q * num), hyps, variables)]


def _vertex(A, B, U, S, T, N, multipliers):
    ratios = []
    if B["family"] == "subset":
        j = _size(B, S)
        u, m = VARS["u_"], VARS["m_"]
        facts = {"u>=0": u, "j-u>=0": j - u, "m-u>=0": m - u, "N-j-(m-u)>=0": N - j - m + u}
        mean_s, mean_d = (u * T + j - u) / j, (m * T + N - m) / N
        variables = {u: "real", m: "real"}
        what = f"subset S of {j} records holding u high values, m high values in all"
    else:
        k = sympy.sympify(B["min_class"], locals=S)
        e, u, v = VARS["e_"], VARS["u_"], VARS["v_"]
        facts = {"u>=0": u, "v>=0": v, "e-u>=0": e - u, "e-k>=0": e - k, "N-e>=0": N - e, "N-e-v>=0": N - e - v}
        mean_s, mean_d = (u * T + e - u) / e, ((u + v) * T + N - u - v) / N
        variables = {e: "real", u: "real", v: "real"}
        what = f"class E of e >= {k} records holding u high values, v high values outside it"
    hyps = [f >= 0 for f in facts.values()]
    ratios.append(("mean_S/mean_D", mean_s, mean_d))
    if B.get("sides", "two-sided") == "two-sided":
        ratios.append(("mean_D/mean_S", mean_d, mean_s))
    out = []
    for label, num, den in ratios:
        n1, d1 = sympy.fraction(sympy.together(num))
        n2, d2 = sympy.fraction(sympy.together(den))
        # num/den = (n1 d2) / (d1 n2); d1, d2 are positive constants-in-T (j, N, e)
        obs = _ratio_obligations(f"vertex {label} ({what})", sympy.expand(n1 * d2), sympy.expand(d1 * n2), U,
                                 hyps, variables)
        obs[-1].facts, obs[-1].multipliers = facts, (multipliers or {}).get(label)
        out += obs
    return out


def _product(U, T, N, multipliers):
    multipliers = multipliers or []
    a, b, m = sympy.symbols("a_ b_ m_", real=True)
    facts = dict(zip(FACT_NAMES, (T * m - b, T * a - m, N * m - b - (N - 1) * a, a + (N - 1) * b - N * m, a, b - a)))
    hyps = [f >= 0 for f in facts.values()]
    comps = list(U.args) if isinstance(U, sympy.Min) else [U]
    out = []
    for i, c in enumerate(comps):
        mult = multipliers[i] if i < len(multipliers) else None
        out.append(Obligation(f"max <= ({c}) * min", sympy.expand(c * a - b), hyps,
                              {a: "real", b: "real", m: "real"}, facts=facts, multipliers=mult))
    return out


def structural_checks(cert, S, T):
    """``[(what, ok)]``: the shape conditions of the lemma the certificate invokes."""
    A, B, method = cert["A"], cert["B"], cert["method"]
    U = sympy.sympify(cert["upper"], locals=S)
    two = lambda d: d.get("sides", "two-sided") == "two-sided"      # noqa: E731
    checks = []
    if method == "same-level":
        same = (A["family"] == B["family"] and A.get("sides") == B.get("sides")
                and sympy.simplify(sympy.sympify(A.get("size") or 0, locals=S)
                                   - sympy.sympify(B.get("size") or 0, locals=S)) == 0
                and A["family"] != "class")
        checks += [("A and B have identical descriptions", same), ("U = T", sympy.simplify(U - T) == 0)]
    elif method == "subset-monotone":
        checks += [("A and B are two-sided subset levels", A["family"] == B["family"] == "subset" and two(A)
                    and two(B)), ("U = T", sympy.simplify(U - T) == 0)]
    elif method == "subset-to-classes":
        checks += [("A is a two-sided subset level, B a two-sided class level", A["family"] == "subset"
                    and B["family"] == "class" and two(A) and two(B) and B.get("min_class") is not None),
                   ("U = T", sympy.simplify(U - T) == 0)]
    elif method == "vertex":
        checks += [("A is pairwise", A["family"] == "pairwise"),
                   ("B is a subset or class level", B["family"] in ("subset", "class") and (
                       B["family"] == "subset" or B.get("min_class") is not None))]
    elif method == "product":
        size_one = A["family"] == "subset" and sympy.simplify(_size(A, S) - 1) == 0
        singleton = A["family"] == "class" and str(A.get("max_class")) == "1"
        checks += [("A is a two-sided subset level of size 1 or has singleton classes",
                    (size_one or singleton) and two(A)), ("B is pairwise", B["family"] == "pairwise")]
    else:
        checks.append((f"known lemma for method {method!r}", False))
    return checks


def obligations(cert, S, T, N):
    """The :class:`Obligation` list of the certificate's upper bound (its lemma's inequalities)."""
    A, B, method = cert["A"], cert["B"], cert["method"]
    U = sympy.sympify(cert["upper"], locals=S)
    data = cert.get("upper_certificate") or {}
    if method == "subset-monotone":
        return [Obligation("j_B - j_A >= 0", sympy.expand(_size(B, S) - _size(A, S)))]
    if method == "subset-to-classes":
        return [Obligation("min class size - j_A >= 0",
                           sympy.expand(sympy.sympify(B["min_class"], locals=S) - _size(A, S)))]
    if method == "vertex":
        names = {**S, **VARS}
        mults = {k: {f: sympy.sympify(x, locals=names) for f, x in v.items()}
                 for k, v in data.get("multipliers", {}).items()}
        return _vertex(A, B, U, S, T, N, mults)
    if method == "product":
        mults = [{k: sympy.sympify(v, locals=S) for k, v in comp.items()} for comp in data.get("multipliers", [])]
        return _product(U, T, N, mults)
    return []
