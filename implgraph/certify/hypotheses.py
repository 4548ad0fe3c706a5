"""Does a relation follow from a claim's condition? Decided exactly where it can be, else by the solvers.

A condition is implied when it is one of the claim's (the same relation up to a positive factor), a true relation of
numbers, proved by nonnegative coefficients after a shift of the variables (:mod:`implgraph.certify.positive`,
exact) or by z3 and cvc5 (:func:`implgraph.certify.solve.refute`: its negation with the claim's condition is
unsatisfiable, and no solver finds it satisfiable).
"""

from __future__ import annotations

import sympy

from implgraph.certify.claim import Mismatch, as_expr, parse_condition

__all__ = ["Hypotheses", "domain_hypotheses", "normal", "relation_text", "statement_domain", "SOLVER_MS"]

#: a solver query's time limit while comparing statements (ms)
SOLVER_MS = 3000


def normal(rel):
    """``(op, e)``: ``rel`` as ``e op 0``, op one of ``>=``, ``>``, ``==``, ``!=``; ``("bool", value)`` for a truth value."""
    if rel in (sympy.true, True):
        return "bool", True
    if rel in (sympy.false, False):
        return "bool", False
    if isinstance(rel, sympy.Equality):
        return "==", rel.lhs - rel.rhs
    if isinstance(rel, sympy.Unequality):
        return "!=", rel.lhs - rel.rhs
    if isinstance(rel, (sympy.GreaterThan, sympy.StrictGreaterThan)):
        return (">=" if isinstance(rel, sympy.GreaterThan) else ">"), rel.lhs - rel.rhs
    if isinstance(rel, (sympy.LessThan, sympy.StrictLessThan)):
        return (">=" if isinstance(rel, sympy.LessThan) else ">"), rel.rhs - rel.lhs
    raise Mismatch(f"{rel} is not a relation")


def _same_up_to_factor(e, h, sign_free):
    """Is ``e`` a positive multiple of ``h`` (any nonzero multiple when ``sign_free``)?"""
    if sympy.expand(e - h) == 0:
        return True
    try:
        q = sympy.cancel(e / h)
    except (ZeroDivisionError, TypeError):
        return False
    return bool(q.is_number and q.is_real and q != 0 and (sign_free or q > 0))


def _number_holds(op, e):
    """Does ``e op 0`` hold, ``e`` a number (False where sympy cannot decide)?"""
    truth = {">=": sympy.Ge, ">": sympy.Gt, "==": sympy.Eq, "!=": sympy.Ne}[op](e, 0)
    return truth is sympy.true


class Hypotheses:
    """The claim's condition as hypotheses: decides whether a relation follows (module notes)."""

    def __init__(self, rels, kinds, names):
        self.rels = [r for r in rels if r not in (sympy.true, True)]
        self.kinds = kinds
        self.names = names
        self.normal = []
        for r in self.rels:
            try:
                self.normal.append(normal(r))
            except Mismatch:
                pass

    def add(self, rels):
        return Hypotheses(self.rels + list(rels), self.kinds, self.names)

    def implied(self, rel):
        """``(ok, how)``: does ``rel`` follow from the hypotheses?"""
        try:
            op, e = normal(rel)
        except Mismatch:        # a combination of relations (And, Or, Not): the solvers
            return self._solvers(rel) if isinstance(rel, sympy.logic.boolalg.Boolean) else (False, "not a relation")
        if op == "bool":
            return bool(e), "true" if e else "false"
        e = as_expr(e)
        if not e.free_symbols:
            return _number_holds(op, e), "numbers"
        for hop, h in self.normal:
            if op == ">=" and hop in (">=", ">") and _same_up_to_factor(e, h, False):
                return True, "the claim's condition"
            if op == ">" and hop == ">" and _same_up_to_factor(e, h, False):
                return True, "the claim's condition"
            if op in (">=", "==") and hop == "==" and _same_up_to_factor(e, h, True):
                return True, "the claim's condition"
            if op == "!=" and hop == "!=" and _same_up_to_factor(e, h, True):
                return True, "the claim's condition"
        exact = self._shifted(op, e)
        if exact:
            return True, exact
        return self._solvers(rel)

    def _shifted(self, op, e):
        """The exact argument of :mod:`implgraph.certify.positive` on a rational function, or ''."""
        from implgraph.certify.expr import Reader, Unreadable
        from implgraph.certify.positive import nonnegative
        if op not in (">=", ">", "=="):
            return ""
        names = sorted({str(s) for s in e.free_symbols} | {str(s) for r in self.rels for s in r.free_symbols})
        try:
            rd = Reader(names)
            P, Q = rd.ratio(str(e))
        except (Unreadable, ValueError, TypeError, SyntaxError, ZeroDivisionError):
            return ""
        atoms = []
        for r in self.rels:
            try:
                atoms.append(rd.relation_poly(relation_text(r)))
            except (Unreadable, ValueError, TypeError, SyntaxError, ZeroDivisionError):
                continue
        if not Q.is_ground:     # the sign of P / Q: Q > 0 shown, then P's
            if not nonnegative(Q, atoms, True):
                return ""
        elif Q.LC < 0:
            P = -P
        if op == "==":
            ok = nonnegative(P, atoms) and nonnegative(-P, atoms)
        else:
            ok = nonnegative(P, atoms, op == ">")
        return f"nonnegative coefficients after {ok} (exact)" if ok and ok != "constant" else \
            "a constant (exact)" if ok else ""

    def _solvers(self, rel):
        from implgraph.certify.solve import refute
        kinds = {s: self.kinds.get(str(s), "real") for r in [*self.rels, rel] for s in r.free_symbols}
        try:
            ok, answers = refute([*self.rels, sympy.Not(rel)], kinds, SOLVER_MS)
        except Exception as exc:      # a relation the solvers' front end does not take: not shown
            return False, f"not shown ({exc.__class__.__name__})"
        how = ", ".join(f"{k}: {v}" for k, v in answers.items())
        return ok, f"negation unsatisfiable ({how})" if ok else f"not shown ({how})"


def domain_hypotheses(cert, names):
    """The certificate's ``domain`` as :class:`Hypotheses`, its texts read with ``names`` (``{name: symbol}``; a
    symbol's kind integer or real from its assumptions)."""
    rels = [r for text in cert.get("domain") or [] for r in parse_condition(text, names)]
    return Hypotheses(rels, {str(v): "integer" if v.is_integer else "real" for v in names.values()}, names)


def relation_text(rel):
    """A relation as the certificate reader's text (``Eq(a, b)`` for an equation)."""
    if isinstance(rel, sympy.Equality):
        return f"Eq({rel.lhs}, {rel.rhs})"
    return str(rel)


def statement_domain(cert, st, names):
    """The domain of a certificate over the claim's own symbols, against its ``when``."""
    hyps = Hypotheses(st.conditions, st.kinds, names)
    steps = []
    for text in cert.get("domain") or []:
        for rel in parse_condition(text, names):
            ok, how = hyps.implied(rel)
            steps.append((f"its domain's {text} follows from the claim's condition", ok, how))
    return steps, hyps
