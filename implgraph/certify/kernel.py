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

__all__ = ["Obligation", "obligations", "structural_checks", "FACT_NAMES", "VARIABLES"]

#: the facts of ``extremes-and-mean`` (each ``>= 0``), by the names multipliers refer to
FACT_NAMES = ("max<=T*mean", "mean<=T*min", "mean>=extremes", "mean<=extremes", "min>=0", "max>=min")

#: the lemmas' own real variables (multipliers may mention them by these names): the vertex's
#: ``u_``, ``m_``, ``e_``, ``v_`` and the bucket's minimum ``a_``, maximum ``b_`` and mean ``m_``
VARIABLES = ("u_", "m_", "e_", "v_", "a_", "b_")


@dataclass
class Obligation:
    """``target >= 0`` (``strict``: ``> 0``) under ``hypotheses`` (``[(">=", g)]``: each g >= 0).

    ``target`` and the hypotheses are polynomials of the certificate's
    :class:`implgraph.certify.expr.Reader` ring; ``facts`` name the hypotheses multipliers refer to,
    ``multipliers`` (from the certificate) the claimed ``target = sum(lambda_i * fact_i)``.
    """

    name: str
    target: object
    hypotheses: list = field(default_factory=list)
    facts: dict | None = None
    strict: bool = False
    multipliers: dict | None = None


def _size(side, rd):
    s = side.get("size")
    return None if s is None else rd.poly(s)


def _ratio_obligations(label, num, den, U, hyps):
    """num/den <= U = P/Q with den > 0 and Q > 0: ``P den - Q num >= 0`` (polynomial)."""
    P, Q = U
    out = [Obligation(f"{label}: denominator > 0", den, hyps, strict=True)]
    if Q != 1:
        out.append(Obligation(f"{label}: denominator of U > 0", Q, hyps, strict=True))
    return out + [Obligation(f"{label} <= U", P * den - Q * num, hyps)]


def _vertex(B, upper, rd, multipliers):
    g = rd.gens
    T, N = g["T"], g["N"]
    if B["family"] == "subset":
        j = _size(B, rd)
        u, m = g["u_"], g["m_"]
        facts = {"u>=0": u, "j-u>=0": j - u, "m-u>=0": m - u, "N-j-(m-u)>=0": N - j - m + u}
        mean_s, mean_d = (u * T + j - u, j), (m * T + N - m, N)
        what = f"subset S of {j} records holding u high values, m high values in all"
    else:
        k = rd.poly(B["min_class"])
        e, u, v = g["e_"], g["u_"], g["v_"]
        facts = {"u>=0": u, "v>=0": v, "e-u>=0": e - u, "e-k>=0": e - k, "N-e>=0": N - e, "N-e-v>=0": N - e - v}
        mean_s, mean_d = (u * T + e - u, e), ((u + v) * T + N - u - v, N)
        what = f"class E of e >= {k} records holding u high values, v high values outside it"
    hyps = [(">=", f) for f in facts.values()]
    ratios = [("mean_S/mean_D", mean_s, mean_d)]
    if B.get("sides", "two-sided") == "two-sided":
        ratios.append(("mean_D/mean_S", mean_d, mean_s))
    U = rd.ratio(upper)
    out = []
    for label, (n1, d1), (n2, d2) in ratios:
        # (n1/d1) / (n2/d2) = (n1 d2) / (d1 n2)
        obs = _ratio_obligations(f"vertex {label} ({what})", n1 * d2, d1 * n2, U, hyps)
        obs[-1].facts, obs[-1].multipliers = facts, multipliers.get(label)
        out += obs
    return out


def _product(upper, rd, multipliers):
    g = rd.gens
    T, N, a, b, m = g["T"], g["N"], g["a_"], g["b_"], g["m_"]
    facts = dict(zip(FACT_NAMES, (T * m - b, T * a - m, N * m - b - (N - 1) * a, a + (N - 1) * b - N * m, a, b - a)))
    hyps = [(">=", f) for f in facts.values()]
    out = []
    for i, c in enumerate(rd.components(upper)):
        mult = multipliers[i] if i < len(multipliers) else None
        out.append(Obligation(f"max <= ({c}) * min", c * a - b, hyps, facts=facts, multipliers=mult))
    return out


def structural_checks(cert, rd):
    """``[(what, ok)]``: the shape conditions of the lemma the certificate invokes."""
    A, B, method = cert["A"], cert["B"], cert["method"]
    two = lambda d: d.get("sides", "two-sided") == "two-sided"      # noqa: E731
    T = rd.gens["T"]

    def upper_is_T():
        try:
            P, Q = rd.ratio(cert["upper"])
        except ValueError:
            return False
        return P == T * Q

    checks = []
    if method == "same-level":
        same = (A["family"] == B["family"] and A.get("sides") == B.get("sides")
                and rd.poly(A.get("size") or 0) == rd.poly(B.get("size") or 0) and A["family"] != "class")
        checks += [("A and B have identical descriptions", same), ("U = T", upper_is_T())]
    elif method == "subset-monotone":
        checks += [("A and B are two-sided subset levels", A["family"] == B["family"] == "subset" and two(A)
                    and two(B)), ("U = T", upper_is_T())]
    elif method == "subset-to-classes":
        checks += [("A is a two-sided subset level, B a two-sided class level", A["family"] == "subset"
                    and B["family"] == "class" and two(A) and two(B) and B.get("min_class") is not None),
                   ("U = T", upper_is_T())]
    elif method == "vertex":
        checks += [("A is pairwise", A["family"] == "pairwise"),
                   ("B is a subset or class level", B["family"] in ("subset", "class") and (
                       B["family"] == "subset" or B.get("min_class") is not None))]
    elif method == "product":
        size_one = A["family"] == "subset" and _size(A, rd) == 1
        singleton = A["family"] == "class" and str(A.get("max_class")) == "1"
        checks += [("A is a two-sided subset level of size 1 or has singleton classes",
                    (size_one or singleton) and two(A)), ("B is pairwise", B["family"] == "pairwise")]
    else:
        checks.append((f"known lemma for method {method!r}", False))
    return checks


def obligations(cert, rd):
    """The :class:`Obligation` list of the certificate's upper bound (its lemma's inequalities),
    over the ring of ``rd`` (an :class:`implgraph.certify.expr.Reader`)."""
    A, B, method = cert["A"], cert["B"], cert["method"]
    data = cert.get("upper_certificate") or {}
    if method == "subset-monotone":
        return [Obligation("j_B - j_A >= 0", _size(B, rd) - _size(A, rd))]
    if method == "subset-to-classes":
        return [Obligation("min class size - j_A >= 0", rd.poly(B["min_class"]) - _size(A, rd))]
    if method == "vertex":
        mults = {k: {f: rd.poly(x) for f, x in v.items()} for k, v in data.get("multipliers", {}).items()}
        return _vertex(B, cert["upper"], rd, mults)
    if method == "product":
        mults = [{k: rd.poly(v) for k, v in comp.items()} for comp in data.get("multipliers", [])]
        return _product(cert["upper"], rd, mults)
    return []
