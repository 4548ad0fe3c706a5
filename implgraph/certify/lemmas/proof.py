"""What a lemma module asks of a certificate, each answer one step ``(what, ok, how)`` of its report.

:class:`Proof` holds the certificate's symbols and domain (:class:`implgraph.certify.domain.Domain`) with the lemma's
own variables, and the steps so far:

- :meth:`Proof.identical`: two rational expressions are equal identically (cross-multiplied polynomials over QQ,
  exact);
- :meth:`Proof.nonnegative`: a rational expression is >= 0 (> 0) wherever the domain, and the step's hypotheses on
  the lemma's variables, hold: first exactly at sample points of the domain (a counterexample rejects, with the
  point), then proved: its denominator > 0 and its numerator >= 0 by
  :func:`implgraph.certify.solve.prove_nonnegative` (nonnegative coefficients after shifts, exact; else z3 and cvc5);
- :meth:`Proof.combination`: ``target = sum(multiplier * fact)`` identically, each multiplier of an inequality fact
  >= 0 on the domain (of an equation, any polynomial): the lemma's target and facts, the certificate's multipliers.

Examples
--------
>>> pf = Proof({"symbols": {"T": "real"}, "domain": ["T >= 1"]}, {"x_": "real"})
>>> pf.nonnegative("T^2 - 1 >= 0", "T**2 - 1")
True
>>> pf.nonnegative("1 - T >= 0", "1 - T")
False
>>> pf.steps[-1][2]
'fails at T = 5/4: -1/4'
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from implgraph.certify.domain import T_GRID, Domain
from implgraph.certify.expr import Unreadable
from implgraph.certify.report import CertificateReport
from implgraph.certify.size import MAX_OBLIGATIONS
from implgraph.certify.solve import prove_nonnegative

__all__ = ["Proof", "SAMPLES"]

#: the values each kind of symbol takes at the sample points (N and T their own)
SAMPLES = {"integer": tuple(range(0, 9)), "real": (0, Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), 1,
                                                   Fraction(3, 2), 2, 5),
           "N": tuple(range(2, 13)), "T": T_GRID}
#: the most sample points tried for one expression (each symbol's values thinned until the product is below)
MAX_SAMPLES = 4096


class Proof:
    """The steps of re-checking one certificate (see the module notes).

    Parameters
    ----------
    cert : dict
        The certificate (its ``symbols`` and ``domain``).
    variables : dict
        The lemma's own variables ``{name: "integer" | "real"}`` (none of the certificate's symbols).
    timeout_ms : int
        Per solver query, when one is needed (a timeout is no proof: the step fails).
    extra_domain : list of str
        Conditions added to the certificate's domain (a family's own).
    budget : list of one int
        How many signs may still be proved (:data:`implgraph.certify.size.MAX_OBLIGATIONS` for a new certificate);
        each sign costs one, and beyond it the step fails as too large.
    """

    def __init__(self, cert, variables=None, timeout_ms=4000, extra_domain=(), budget=None):
        self.cert = cert
        #: the signs still to be proved before the certificate is too large (shared with the Proofs of its parts)
        self.budget = budget if budget is not None else [MAX_OBLIGATIONS]
        self.domain = Domain({**cert, "domain": [*cert.get("domain", []), *extra_domain]}, variables or {})
        self.rd = self.domain.reader
        self.timeout_ms = timeout_ms
        self.steps = []
        self._points = {}

    # the report ---------------------------------------------------------------------------------------------

    def add(self, what, ok, how="exact") -> bool:
        self.steps.append((what, bool(ok), how))
        return bool(ok)

    def report(self) -> CertificateReport:
        return CertificateReport(bool(self.steps) and all(s[1] for s in self.steps), list(self.steps))

    # identities -----------------------------------------------------------------------------------------------

    def same(self, a, b) -> bool:
        """Are the rational expressions ``a`` and ``b`` (texts or polynomials of the reader's ring) equal
        identically?"""
        (p, q), (r, s) = (self._ratio(x) for x in (a, b))
        return p * s == r * q

    def identical(self, what, a, b) -> bool:
        """The step ``what``: ``a == b`` identically (exact)."""
        return self.add(what, self.same(a, b), "identical rational functions (exact)" if self.same(a, b) else
                        f"{a} - ({b}) is not identically 0")

    def zero(self, what, expr) -> bool:
        """The step ``what``: the sympy expression ``expr`` is identically 0 (``sympy.cancel``: a rational function is 0
        exactly when its cancelled form is)."""
        import sympy
        residue = sympy.cancel(expr)
        return self.add(what, residue == 0, "identically 0 (cancel)" if residue == 0 else
                        f"{residue} is not identically 0")

    def _ratio(self, x):
        if isinstance(x, str):
            return self.rd.ratio(x)
        return x, self.rd.ring.one

    # signs ----------------------------------------------------------------------------------------------------

    def nonnegative(self, what, text, strict=False, hypotheses=()) -> bool:
        """The step ``what``: ``text >= 0`` (``> 0``) where the domain and ``hypotheses`` (``[(op, poly)]``, op
        ``>=``, ``>`` or ``==``) hold; sampled exactly first, then proved (module notes)."""
        return self.add(what, *self.sign(text, strict, hypotheses))

    def sign(self, text, strict=False, hypotheses=()):
        """``(ok, how)`` of :meth:`nonnegative` (``text``: an expression, or a polynomial of the reader's ring)."""
        text = text if isinstance(text, str) else str(text)
        if self.budget[0] <= 0:
            return False, f"too large: more than {MAX_OBLIGATIONS} obligations"
        self.budget[0] -= 1
        bad = self._counterexample(text, strict)
        if bad:
            return False, bad
        num, den = self._ratio(text)
        if den.is_ground and not strict and any(op in (">=", ">") and num == g for op, g in self.domain.atoms):
            return True, "a condition of the domain"
        tries = [(den, num)] if den.is_ground else [(den, num), (-den, -num)]
        hows = []
        for d, n in tries:
            if not d.is_ground:
                ok, how = prove_nonnegative(d, list(hypotheses), self.domain, True, self.timeout_ms)
                if not ok:
                    hows.append(f"denominator {d} > 0 not shown ({how})")
                    continue
            ok, how = prove_nonnegative(n, list(hypotheses), self.domain, strict, self.timeout_ms)
            if ok:
                return True, (how if d.is_ground else f"denominator {d} > 0, numerator: {how}")
            hows.append(f"numerator {n} {'>' if strict else '>='} 0 not shown ({how})")
        return False, "; ".join(hows)

    def _counterexample(self, text, strict) -> str:
        """A sample point of the domain where ``text`` is < 0 (<= 0 when ``strict``), as text; '' if none (an
        expression of the lemma's variables is not sampled: its hypotheses are not the domain's)."""
        try:
            used = self.rd.names_in(text)
            f = self.rd.function(text)
        except Unreadable as exc:
            return f"unreadable: {exc}"
        if used & set(self.domain.variables):
            return ""
        for env in self.points(used):
            try:
                x = f(env)
            except (ZeroDivisionError, ValueError):
                continue
            if x < 0 or (strict and x == 0):
                return f"fails at {', '.join(f'{k} = {v}' for k, v in sorted(env.items()))}: {x}"
        return ""

    def points(self, names=frozenset()):
        """Sample points of the domain's symbols (those of its relations and ``names``) where every relation of the
        domain holds."""
        key = frozenset(names)
        if key not in self._points:
            used = set(key)
            for text in self.domain.texts:
                used |= self.rd.names_in(text)
            used -= set(self.domain.variables)
            order = sorted(used)
            values = [list(SAMPLES.get(n, SAMPLES[self.domain.kinds.get(n, "real")])) for n in order]
            while _product(values) > MAX_SAMPLES:
                longest = max(values, key=len)
                del longest[len(longest) // 2]
            found = []
            for combo in itertools.product(*values):
                env = dict(zip(order, combo))
                if self.domain.holds(env, frozenset(env)):
                    found.append(env)
            self._points[key] = found
        return self._points[key]

    # combinations ---------------------------------------------------------------------------------------------

    def combination(self, what, target, facts, multipliers, hypotheses=()) -> bool:
        """The step ``what``: ``target = sum(multipliers[k] * facts[k])`` identically (``facts``: ``{name: (op,
        poly)}``, op ``>=`` or ``==``; ``multipliers``: the certificate's ``{name: text}``), each multiplier of an
        inequality fact >= 0 on the domain under ``hypotheses``."""
        if not isinstance(multipliers, dict) or not multipliers:
            return self.add(what, False, "no multipliers given")
        unknown = sorted(set(multipliers) - set(facts))
        if unknown:
            return self.add(what, False, f"multipliers name unknown facts {unknown} (known: {sorted(facts)})")
        lams = {k: self.rd.poly(str(x)) for k, x in multipliers.items()}
        residue = target - sum((lam * facts[k][1] for k, lam in lams.items()), self.rd.ring.zero)
        if residue:
            return self.add(what, False, f"target - sum(multiplier * fact) = {residue}, not 0")
        hows = []
        for k, lam in lams.items():
            if facts[k][0] == "==":
                continue
            ok, how = self.sign(lam, hypotheses=hypotheses)
            if not ok:
                return self.add(what, False, f"multiplier {lam} of {k} not shown >= 0 ({how})")
            hows.append(f"{k}: {lam} >= 0")
        return self.add(what, True, "identity target = sum(multiplier * fact) (exact); " + "; ".join(hows))

    def poly(self, text):
        return self.rd.poly(str(text))


def _product(values) -> int:
    out = 1
    for v in values:
        out *= len(v)
    return out
