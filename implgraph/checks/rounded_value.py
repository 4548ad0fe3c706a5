"""``kind: math`` claims with ``values:`` and ``claimed:``: a printed rounded value of the solution of
``formula:``, within ``tolerance:`` (exact comparison and an interval-arithmetic enclosure).
"""

from __future__ import annotations

import sympy

from implgraph.checks.common import as_float, claim_error, claim_symbols, claim_verdict, condition_in, parse_in, truth
from implgraph.core.simplified import solved
from implgraph.core.verdict import checker

__all__ = ["check_rounded_value"]


def _solve_unique_real(claim, eq, sym):
    sols = [s for s in solved(eq, sym) if s.is_real is not False]
    if len(sols) != 1:
        raise claim_error(claim, f"{sym}: {len(sols)} real solutions of {eq}", "check the equation")
    return sols[0]


@checker("math", when=lambda c: "values" in c and "claimed" in c)
def check_rounded_value(claim, context=None):
    """A printed rounded value (``claimed:`` within ``tolerance:``) of the solution of ``formula:`` at ``values:``."""
    names, kinds = claim_symbols(claim)
    values = {names[k]: parse_in(claim, v, names) for k, v in (claim.get("values") or {}).items()}
    eq = condition_in(claim, claim["formula"], names).subs(values)
    (name, text), = (claim.get("claimed") or {}).items()
    sym = names[name]
    exact = _solve_unique_real(claim, eq, sym)
    if isinstance(exact, sympy.log):
        exact = sympy.log(sympy.nsimplify(exact.args[0]))
    claimed = parse_in(claim, text, names)
    tol = parse_in(claim, claim.get("tolerance", "0"), names)
    inside = truth(sympy.And(exact - claimed <= tol, claimed - exact <= tol))
    equal = truth(sympy.Eq(exact, claimed))
    # an independent interval-arithmetic enclosure (mpmath.iv, outward rounding) of a log of a rational
    import mpmath
    enc, interval_ok = None, None
    if isinstance(exact, sympy.log) and exact.args[0].is_Rational and claimed.is_Rational and tol.is_Rational:
        arg = exact.args[0]
        lo_f, hi_f = claimed - tol, claimed + tol
        with mpmath.workprec(80):
            enc = mpmath.iv.log(mpmath.iv.mpf(int(arg.p)) / int(arg.q))
            interval_ok = bool(enc.a >= mpmath.iv.mpf(int(lo_f.p)) / int(lo_f.q)
                               and enc.b <= mpmath.iv.mpf(int(hi_f.p)) / int(hi_f.q))
    verdict = "holds" if inside and interval_ok is not False else ("refuted" if inside is False else "unknown")
    evidence = (f"Solving {claim['formula']} at {claim.get('values')} exactly gives {name} = {exact} = "
                f"{as_float(exact, 10)}; |{name} - {claimed}| <= {tol} is {inside} (exact comparison; interval "
                f"enclosure {enc}: {interval_ok}); {name} = {claimed} exactly is {equal}.")
    return claim_verdict(claim, verdict, exact=f"{name} = {exact}", evidence=evidence,
                    details={name: str(exact), f"{name}_float": as_float(exact, 12), f"equals_{claimed}_exactly": equal,
                             "interval_enclosure": str(enc), "interval_check": interval_ok})
