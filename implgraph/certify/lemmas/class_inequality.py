"""The checker's lemma for a researcher's inequality between two declared class levels (``class-inequality``).

A researcher states: for every table with equivalence classes (every N, every number of buckets, every partition),
B's optimal level is at least as strong as ``f`` of A's. Both definitions declare their level of one class over
``k`` values (the ``ClassLevel`` formula of a :class:`~implgraph.definitions._classes.GenericClass`: ``q_i > 0``,
``sum_i q_i = 1``, ``top = max_i q_i``), and a table's level is its weakest class's. The certificate reduces the
claim to obligations this module decides itself, exactly:

1. ``f`` (text in ``x``, A's level) preserves strength on A's valid levels: ``f'`` has the sign the two
   definitions' directions ask for (sympy's assumptions, or z3 and cvc5 on a rational derivative); an outer
   ``ceiling`` or ``floor`` keeps that order.
2. ``E = s (L_B^p - f(L_A)^p)`` (``s = +1`` where larger is stronger for B, else ``-1``; ``p``, the certificate's
   ``power``, a positive integer, with ``L_B >= 0`` and ``f(L_A) >= 0`` shown where ``p > 1``) is non-negative on
   every class. The certificate gives a ``factor`` ``P``, a ``term`` ``t(q)`` and a ``constant`` ``c`` (text in
   ``q``, ``top``, ``k`` and the power sums ``S2, S3, ...``, ``S_m = sum_i q_i^m``) with

   - ``P E = sum_i t(q_i) + c`` identically, every sum over the class read by linearity (``sum_i 1 = k``,
     ``sum_i q_i = 1``, ``sum_i q_i^m = S_m``, any other summand a symbol of its own);
   - ``P > 0`` on every class (``k >= 1``, ``0 < top <= 1``, ``k top >= 1``, ``top^m <= S_m <= top^(m-1)``:
     every ``q_i <= top``, one ``q_i`` equals ``top``);
   - ``t(q) >= 0`` for ``0 < q <= top``, and ``c + t(top) >= 0``: the sum of non-negative terms is at least the
     term of a value at ``top``, so ``P E >= t(top) + c >= 0``.

3. Lifting to tables: a class's ``B_E >= f(A_E)`` (in strength) for every class, and ``f`` preserving strength,
   give the weakest class's ``B`` at least ``f`` of the weakest class's ``A``.

Signs are decided by sympy's assumptions (the symbols are positive) or by the solvers (:mod:`.solve`: the negation
unsatisfiable, no backend finding a counterexample); a timeout or an expression outside polynomial arithmetic is no
proof: the step fails. The definitions' class levels are read from the registry, never from the certificate.
"""

from __future__ import annotations

import sympy

__all__ = ["check_part", "class_symbols", "FIELDS"]

#: the certificate's fields (texts) and their meaning
FIELDS = ("A", "B", "f", "factor", "term", "constant", "power")
#: the largest power sum S_m read and the largest ``power``
MAX_M = 12
#: the largest exponent a certificate's formula may hold (expanding ``(q + 1)**10**6`` would exhaust memory)
MAX_EXPONENT = 64


def class_symbols(cls):
    """``{name: Symbol}`` a certificate's texts may use: ``q``, ``top`` (the class's ``top``), ``k``, ``S2..S12``."""
    names = {"q": sympy.Symbol("q", positive=True), "top": cls.top, "k": cls.k}
    names.update({f"S{m}": sympy.Symbol(f"S{m}", positive=True) for m in range(2, MAX_M + 1)})
    return names


def _linear_sum(summand, names, var):
    """``sum_{i=1}^k summand(q_i)`` by linearity, ``summand`` in the plain symbol ``var``: None where a term is not
    ``coefficient * q^m`` (m = 0, 1, ..., MAX_M) with a coefficient free of ``var``."""
    out = sympy.Integer(0)
    for term in sympy.Add.make_args(sympy.expand(summand)):
        coeff, dep = term.as_independent(var, as_Add=False)
        if dep == 1:
            out += coeff * names["k"]
        elif dep == var:
            out += coeff
        elif dep.is_Pow and dep.base == var and dep.exp.is_Integer and 2 <= dep.exp <= MAX_M:
            out += coeff * names[f"S{int(dep.exp)}"]
        else:
            return None
    return out


def _linearize(expr, cls, names):
    """``expr`` (a declared class level) with each ``Sum(g(q[i]), (i, 1, k))`` read by linearity (power sums named
    ``S_m``, any other summand one symbol per summand); None where ``q[i]`` appears outside such a sum."""
    var = sympy.Symbol("q_", positive=True)
    reps = {}
    for s in expr.atoms(sympy.Sum):
        if len(s.limits) != 1 or tuple(s.limits[0][1:]) != (1, cls.k):
            return None
        g = s.function.xreplace({cls.q[s.limits[0][0]]: var})
        if g.atoms(sympy.Indexed) or g.has(s.limits[0][0]):
            return None
        lin = _linear_sum(g, names, var)
        reps[s] = lin if lin is not None else sympy.Symbol(f"Sigma[{sympy.srepr(g)}]", real=True)
    out = expr.xreplace(reps)
    return None if out.atoms(sympy.Indexed) else out


def _domain(names, extra=()):
    """The class's domain: relations over the symbols ``extra`` uses."""
    top, k = names["top"], names["k"]
    rels = [k >= 1, top > 0, top <= 1, k * top >= 1]
    used = set().union(*(sympy.sympify(e).free_symbols for e in extra)) if extra else set()
    for m in range(2, MAX_M + 1):
        s = names[f"S{m}"]
        if s in used:
            rels += [s >= top ** m, s <= top ** (m - 1)]
    return rels


def _plain(exprs):
    """``(replacements, facts, kinds)``: every symbol of ``exprs`` as a plain real (or integer) symbol for the
    solvers, its sympy assumptions (positive, nonnegative) written out as relations (the solvers read no
    assumptions; a relation that sympy already decided from them is True and says nothing to a solver)."""
    reps, facts, kinds = {}, [], {}
    for s in sorted(set().union(*(sympy.sympify(e).free_symbols for e in exprs)), key=str):
        integer = s.is_integer is True
        p = sympy.Symbol(f"{s.name}__", integer=True) if integer else sympy.Symbol(f"{s.name}__", real=True)
        reps[s], kinds[p] = p, "integer" if integer else "real"
        if s.is_positive:
            facts.append(p >= 1 if integer else p > 0)
        elif s.is_nonnegative:
            facts.append(p >= 0)
    return reps, facts, kinds


def sign_holds(expr, rels, strict=False, timeout_ms=4000):
    """``(ok, how)``: ``expr >= 0`` (``> 0``) under ``rels``: by sympy's assumptions (positive symbols), else by the
    solvers on ``numerator`` and ``denominator`` (polynomials; the negation unsatisfiable)."""
    from implgraph.certify.solve import refute
    expr = sympy.sympify(expr)
    known = expr.is_positive if strict else expr.is_nonnegative
    if known is True:
        return True, "sympy's assumptions (positive symbols)"
    num, den = sympy.fraction(sympy.together(expr))
    syms = sorted(expr.free_symbols, key=str)
    if not all(x.is_polynomial(*syms) for x in (num, den)):
        return False, "not a rational function of the class's symbols: not decided"
    rels = [r for r in rels if r is not sympy.true]
    reps, facts, kinds = _plain([expr, *rels])
    base = [r.xreplace(reps) for r in rels] + facts
    num, den = num.xreplace(reps), den.xreplace(reps)
    for sign in (1, -1):
        ok_den, _ = refute(base + [sign * den <= 0], kinds, timeout_ms)
        if not ok_den:
            continue
        ok, answers = refute(base + [sign * num <= 0 if strict else sign * num < 0], kinds, timeout_ms)
        how = ", ".join(f"{b}: {a}" for b, a in answers.items())
        return ok, f"negation unsatisfiable ({how})" if ok else f"not proved ({how})"
    return False, "the denominator's sign is not decided"


def _read(text, names, what):
    from implgraph.certify.expr import read_sympy
    if not isinstance(text, (str, int)) or len(str(text)) > 2000:
        raise ValueError(f"{what} is not a formula of at most 2000 characters")
    expr = sympy.sympify(read_sympy(str(text), names))
    if any(p.exp.is_Number and abs(p.exp) > MAX_EXPONENT for p in expr.atoms(sympy.Pow)):
        raise ValueError(f"{what} has a power above {MAX_EXPONENT} (no input may exhaust memory)")
    return expr


def _levels(cert, cls):
    """``(A, B, L_A, L_B, steps)``: the registered definitions and their declared class levels (from the registry)."""
    from implgraph.certify.registered import registered
    from implgraph.definitions.capabilities import ClassLevel
    steps, out = [], []
    for side in ("A", "B"):
        d = registered(cert.get(side))
        declared = d.declared(ClassLevel) if d is not None else None
        declare = None if declared is None else declared.formula
        level = None
        if declare is not None:
            try:
                level = sympy.sympify(declare(cls))
            except Exception:       # a plugin's declaration that fails declares nothing
                level = None
        steps.append((f"{side} ({cert.get(side)}) is registered and declares its level of one class over k values",
                      level is not None, "read from the registry" if level is not None else "no class level"))
        out += [d, level]
    return (*out, steps)


def monotone_steps(f, x, a, b, timeout_ms=4000):
    """The step ``f preserves strength`` on A's valid levels: ``[(what, ok, how)]``."""
    inner = f.args[0] if isinstance(f, (sympy.ceiling, sympy.floor)) else f
    s = 1 if a.stronger == b.stronger else -1
    u = sympy.Symbol("u_", nonnegative=True)
    domain = list(a.level_scale.domain(x))
    weakest = sympy.sympify(a.weakest())
    if weakest.is_finite:
        domain.append(a.at_least_as_strong(x, weakest))
    deriv = sympy.diff(inner, x)
    lows = [r.rhs for r in domain if isinstance(r, sympy.GreaterThan) and r.lhs == x and r.rhs.is_number]
    shifted = s * deriv.xreplace({x: max(lows) + u}) if lows else None
    if shifted is not None and (shifted.is_nonnegative is True or sympy.simplify(shifted).is_nonnegative is True):
        ok, how = True, f"f' = {deriv} at x = {max(lows)} + u, u >= 0: sympy's assumptions"
    else:
        ok, how = sign_holds(s * deriv, domain, timeout_ms=timeout_ms)
    word = "nondecreasing" if s == 1 else "nonincreasing"
    return [(f"f is {word} on A's valid levels ({', '.join(map(str, domain)) or 'every real'}): strength preserved",
             ok and not inner.has(sympy.ceiling, sympy.floor, sympy.Min, sympy.Max, sympy.Abs), how)]


def check_part(cert, timeout_ms=4000) -> list:
    """Re-check one ``class-inequality`` part: ``[(what, ok, how)]`` (every step must hold)."""
    from implgraph.definitions._classes import GenericClass
    cls = GenericClass()
    names = class_symbols(cls)
    a, la, b, lb, steps = _levels(cert, cls)
    if la is None or lb is None:
        return steps
    x = sympy.Symbol("x", real=True)
    try:
        f = _read(cert.get("f"), {"x": x}, "f")
        power = int(cert.get("power", 1))
        if not 1 <= power <= MAX_M or str(cert.get("power", 1)) != str(power):
            raise ValueError(f"power {cert.get('power')!r} is not an integer 1..{MAX_M}")
        P, t, c = (_read(cert.get(k), names, k) for k in ("factor", "term", "constant"))
    except (ValueError, TypeError, SyntaxError) as exc:
        return steps + [("certificate readable", False, f"{exc.__class__.__name__}: {exc}")]
    steps += monotone_steps(f, x, a, b, timeout_ms)
    if isinstance(f, sympy.ceiling):        # an integer level at least g is at least ceiling(g)
        whole = b.stronger == "larger" and sympy.sympify(lb).is_integer is True
        steps.append(("f = ceiling(g): B's class level is an integer, larger stronger (B >= g gives B >= ceiling(g))",
                      whole, f"B's class level {lb}"))
        f = f.args[0]
    return steps + _class_steps(la, lb, f.xreplace({x: la}), power, P, t, c, cls, names, b, timeout_ms)


def _class_steps(la, lb, fa, power, P, t, c, cls, names, b, timeout_ms) -> list:
    """The per-class obligations of :func:`check_part` (its item 2)."""
    s = 1 if b.stronger == "larger" else -1
    E = _linearize(s * (lb ** power - fa ** power), cls, names)
    if E is None:
        return [("B's and f(A)'s class levels read by linearity of the sums", False, "q[i] outside a sum")]
    q, top = names["q"], names["top"]
    tsum = _linear_sum(t, names, q)
    steps = [("the term t(q) is a polynomial in q (coefficients free of q, powers q^0..q^12)", tsum is not None,
              str(t))]
    if tsum is None:
        return steps
    diff = P * E - tsum - c
    same = sympy.cancel(sympy.together(diff)) == 0 or sympy.simplify(diff) == 0
    powers = f" (powers compared: ^{power})" if power > 1 else ""
    steps.append((f"P (B - f(A)) = sum_i t(q_i) + c identically{powers}", same, f"P = {P}, t(q) = {t}, c = {c}"))
    rels = _domain(names, [P, E, t, c])
    if power > 1:
        for what, e in (("B's class level", lb), ("f of A's class level", fa)):
            lin = _linearize(e, cls, names)
            steps.append((f"{what} >= 0 (powers preserve the order)",
                          *(sign_holds(lin, rels, timeout_ms=timeout_ms) if lin is not None
                            else (False, "q[i] outside a sum"))))
    steps.append(("P > 0 on every class", *sign_holds(P, rels, strict=True, timeout_ms=timeout_ms)))
    steps.append(("t(q) >= 0 for 0 < q <= top", *sign_holds(t, _domain(names, [t]) + [q > 0, q <= top],
                                                           timeout_ms=timeout_ms)))
    steps.append(("c + t(top) >= 0 (a value of the class is at top)",
                  *sign_holds(c + t.xreplace({q: top}), rels, timeout_ms=timeout_ms)))
    return steps
