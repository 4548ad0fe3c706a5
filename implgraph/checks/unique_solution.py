"""``kind: math`` claims with ``solution:``: the equation ``formula:`` has exactly the printed
solution on the ``when`` region.
"""

from __future__ import annotations

import sympy

from implgraph.checks.common import claim_symbols, claim_verdict, condition_in, decide, when_region
from implgraph.core.verdict import checker
from implgraph.core.simplified import simplified, solved

__all__ = ["check_unique_solution"]


@checker("math", when=lambda c: "solution" in c)
def check_unique_solution(claim, context=None):
    """``formula:`` (an equation) has exactly the printed ``solution:`` on the ``when`` region."""
    names, kinds = claim_symbols(claim)
    region, subs = when_region(claim, names, kinds)
    # the when equalities (x == e) hold on the whole region: the equation and the solution are read there
    eq = condition_in(claim, claim["formula"], names).xreplace(subs)
    sol = condition_in(claim, claim["solution"], names)
    var = sol.lhs
    if var in subs:
        return claim_verdict(claim, "unknown", evidence=f"the when condition fixes {var} = {subs[var]}, the unknown "
                                                        "the solution is about", details={})
    sol = sympy.Eq(var, sympy.sympify(sol.rhs).xreplace(subs))
    if eq in (sympy.true, sympy.false):     # on the region the equation reads 0 = 0 or 0 = 1
        return claim_verdict(claim, "refuted", exact=f"the equation is {eq} on the region",
                             evidence=f"with the when equalities {subs} the equation is {eq}: "
                                      + ("every value solves it" if eq is sympy.true else "no value solves it"),
                             details={"solutions": []})
    sols = solved(eq, var)
    unique = len(sols) == 1 and simplified(sols[0] - sol.rhs) == 0
    # the equation is linear in var: unique exactly where its coefficient is non-zero
    poly = sympy.Poly(sympy.together(eq.lhs - eq.rhs).as_numer_denom()[0], var)
    coeff = sympy.factor(poly.coeff_monomial(var)) if poly.degree() == 1 else None
    nonzero = None if coeff is None else (decide(region, sympy.Ne(coeff, 0)) if coeff.free_symbols else coeff != 0)
    verdict = "holds" if unique and nonzero is True else ("refuted" if sols and not unique else "unknown")
    return claim_verdict(claim, verdict, exact=f"{var} = {sols[0] if sols else None}",
                    evidence=(f"sympy.solve gives {sols}; the equation is linear in {var} with coefficient "
                              f"(numerator) {coeff}, non-zero on the region {list(region.constraints)}: {nonzero}, "
                              f"so the solution is unique there."),
                    details={"solutions": [str(s) for s in sols], "coefficient": str(coeff)})
