"""Is a certificate the proof of its row's claim? The statement a certificate proves, compared with the claim.

:func:`implgraph.certify.check_certificate` confirms that a certificate proves what the certificate itself states.
This module ties it to the row it is the evidence of: it reads the row's claim from the claim data (a claim node of
``theorems/*.yaml`` or ``counterexamples/*.yaml``, every formula through the project's whitelist parser
:func:`implgraph.core.formula.parse_expr` / :func:`~implgraph.core.formula.parse_condition`, never ``sympify`` of text)
and the definitions registry, never from an engine, and checks that the certificates state that claim:

- **the sides**: A and B are the claim's definitions (``from`` and ``to``; ``reading_from``/``reading_to`` on a
  ``#reading`` row), with the claim's parameters (equal as expressions) and no class hypothesis the claim does not
  state (a side's ``min_class`` is 1, a minimum class size the claim gives, or A's parameter the registry declares
  a minimum class size; a ``max_class`` one the claim gives); a side's level is taken over the whole table (``scope:
  table``), about no quantity the engine does not model (``of:``), except the view ``k_I`` of an ``intruder-views``
  certificate under the claim's own ``views:`` model;
- **the direction and scale of the levels**: T is A's raw level (the claim's level symbol alpha is A's level of T,
  ``A.level_from_raw(T)``), B's raw level of the claimed f is ``B.raw_from_level(f)``; an upper bound U is the
  certificate's only where B is smaller-is-stronger, a lower bound where larger is stronger (the registry's
  ``stronger``);
- **the claimed f**: some certificate's U is at least as strong as f on the claim's whole condition (``U <= raw f``
  for smaller-is-stronger B, decided as below, a ``Min`` by any of its arguments; or in B's units, where the claim's
  condition is written there, e.g. ``log(T) <= eps1``); for ``equivalent``/``reciprocal`` both directions, g for the
  reverse;
- **the tight f**: where the row states a tight f (``tight``) or that the claimed f is the tight one (``tightness:
  tight``), a certificate claims tightness for that direction and each such certificate's U equals it: identically
  (sympy), else exactly at every sampled point of its domain (the tightness family itself is checked at sampled
  points, :func:`implgraph.certify._check_family`);
- **the condition**: every condition of the certificate's ``domain`` is implied by the claim's: its ``when`` (in T),
  A's valid levels (T at least A's best raw level), tables of N >= 2 records (every definition compares records) and
  the parameters' ranges the registry declares (``Definition.param_ranges``). A condition the claim does not imply
  is an assumption of the certificate: accepted only where the row's verdict text states it (the condition as
  written, or, for a partition's premise ``2*(s) <= N`` / ``(s) >= 1``, the words "partition into at least 2
  classes");
- **a refutation by a proof**: the certificate proves the implication the paper denies (the claim's A => B, any
  U), on the whole condition or on an instance of it: the certificate's domain may pin parameters of the claim to
  numbers (``Eq(k, 1)``, never N or a level) where the claim's condition holds, and is then implied by the
  condition with the pins;
- the claims other than a bound between two levels: a ``set-channel-*`` certificate states the claim's definition,
  its ``mechanism.set_channel`` (p, eta, the domain size, or Algorithm 1 on a ``#reading`` row, run with the
  claimed level as its closeness) and a level at least as strong as the claimed one; a ``transport-mixture``
  certificate states the claim's ``formula`` (the same relation) and the program's ``convex_in``.

A condition is implied when it is one of the claim's (the same relation up to a positive factor), a true relation of
numbers, proved by nonnegative coefficients after a shift of the variables (:mod:`implgraph.certify.positive`,
exact) or by z3 and cvc5 (:func:`implgraph.certify.solve.refute`: its negation with the claim's condition is
unsatisfiable, and no solver finds it satisfiable).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import sympy

from implgraph.certify.report import CertificateReport

__all__ = ["check_statement", "read_claim", "ClaimStatement", "BASE_RECORDS", "PARTITION_WORDS"]

#: every table has at least this many records (each definition compares records: a pair, a record against the rest)
BASE_RECORDS = 2
#: how a verdict states the premise of a partition into two or more classes (``2*(s) <= N``, ``(s) >= 1``)
PARTITION_WORDS = re.compile(r"partition(?:s|ed)? into (?:at least 2|>= ?2|two or more) classes", re.I)
#: the edge kinds and the directions they state: (from => to with f) and, for both-way kinds, (to => from with g)
FORWARD_KINDS = ("implies", "generalisation", "not-implies")
BOTH_WAY_KINDS = ("equivalent", "reciprocal")
#: the ratio-bound certificates: their bound's key and whether it bounds B from above
BOUND_KEYS = {"class-size-floor": ("lower", False)}
#: a solver query's time limit while comparing statements (ms)
SOLVER_MS = 3000
#: sampled points of a tight f's comparison (at most)
MAX_TIGHT_POINTS = 48


class Mismatch(ValueError):
    """The claim or the certificate cannot be read for the comparison (one line: what)."""


# -- reading ------------------------------------------------------------------------------------------------------

def _symbol(name, kind):
    return sympy.Symbol(name, integer=True) if kind == "integer" else sympy.Symbol(name, real=True)


def _parse_expr(text, names):
    from implgraph.core.errors import InputError
    from implgraph.core.formula import parse_expr
    try:
        return parse_expr(str(text), names)
    except InputError as exc:
        raise Mismatch(f"cannot read {str(text)[:80]!r}: {exc.reason}") from None


def _parse_condition(text, names):
    from implgraph.core.errors import InputError
    from implgraph.core.formula import parse_condition
    try:
        rel = parse_condition(str(text), names)
    except InputError as exc:
        raise Mismatch(f"cannot read the condition {str(text)[:80]!r}: {exc.reason}") from None
    return list(sympy.And.make_args(rel)) if isinstance(rel, sympy.And) else [rel]


def _expr(x):
    """``x`` as a sympy expression: a sympy object or a number as it is; text is never read here (it was parsed by
    the whitelist parser where it was read)."""
    if isinstance(x, str):
        raise Mismatch(f"the word {x[:40]!r} where an expression was expected")
    if isinstance(x, (int, float)):
        return sympy.Integer(x) if isinstance(x, int) else sympy.Rational(str(x))
    return x


def _registered(name):
    from implgraph.certify.kernel import registered
    return registered(name)


@dataclass
class Side:
    """One side of an edge claim as the claim states it."""

    definition: object
    params: dict
    classes: dict
    level: sympy.Symbol
    scope: str = "table"
    of: object = None

    @property
    def name(self):
        return self.definition.name


@dataclass
class Direction:
    """A => B with f (None: some f), as the claim states it; ``label`` names it in the report."""

    a: Side
    b: Side
    f: object
    label: str


@dataclass
class ClaimStatement:
    """A row's claim, read from its claim node (:func:`read_claim`)."""

    id: str
    kind: str
    reading: bool
    names: dict
    kinds: dict
    conditions: list
    node: dict
    directions: list = field(default_factory=list)

    def symbol(self, name):
        return self.names.get(name)


def _side(spec, names, kinds, where):
    if not isinstance(spec, dict):
        raise Mismatch(f"the claim's `{where}` is not a mapping")
    d = _registered(spec.get("definition"))
    if d is None:
        raise Mismatch(f"the claim's `{where}` names {spec.get('definition')!r}, not a registered definition")
    level = str(spec.get("level") or d.level_symbol)
    if level not in names:
        names[level] = sympy.Symbol(level, real=True)
        kinds[level] = "real"
    params = {}
    for k, v in (spec.get("params") or {}).items():
        params[str(k)] = str(v) if k in (getattr(d, "words", None) or {}) else _parse_expr(v, names)
    classes = {str(k): _parse_expr(v, names) for k, v in (spec.get("classes") or {}).items()}
    return Side(d, params, classes, names[level], str(spec.get("scope") or "table"), spec.get("of"))


def read_claim(claim, row_id=None) -> ClaimStatement:
    """The claim of the row ``row_id`` (the claim's id, or ``<id>#reading``: the proof's reading) from its node.

    Raises
    ------
    Mismatch
        A formula the whitelist parser refuses, or a definition that is not registered.
    """
    cid = str(claim.get("id"))
    reading = row_id is not None and str(row_id) == cid + "#reading"
    kind = str((claim.get("reading_kind") if reading else None) or claim.get("kind"))
    kinds = {str(k): str(v) for k, v in (claim.get("symbols") or {}).items()}
    names = {k: _symbol(k, v) for k, v in kinds.items()}
    if "N" not in names:        # the number of records (implicit in every claim about tables)
        names["N"], kinds["N"] = sympy.Symbol("N", integer=True), "integer"
    when = list(claim.get("when") or []) + (list(claim.get("reading_when") or []) if reading else [])
    st = ClaimStatement(cid, kind, reading, names, kinds, [], claim)
    if kind in FORWARD_KINDS + BOTH_WAY_KINDS:
        a = _side(claim.get("reading_from") if reading and claim.get("reading_from") else claim.get("from"),
                  names, kinds, "from")
        b = _side(claim.get("reading_to") if reading and claim.get("reading_to") else claim.get("to"),
                  names, kinds, "to")
        f_text = claim.get("reading_f") if reading and claim.get("reading_f") is not None else claim.get("f")
        f = None if f_text is None or kind == "not-implies" else _parse_expr(f_text, names)
        st.directions.append(Direction(a, b, f, f"{a.name} => {b.name}"))
        if kind in BOTH_WAY_KINDS:
            g = None if claim.get("g") is None else _parse_expr(claim["g"], names)
            st.directions.append(Direction(b, a, g, f"{b.name} => {a.name}"))
    st.conditions = [c for w in when for c in _parse_condition(w, names)]
    return st


# -- deciding relations -------------------------------------------------------------------------------------------

def _normal(rel):
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
                self.normal.append(_normal(r))
            except Mismatch:
                pass

    def add(self, rels):
        return Hypotheses(self.rels + list(rels), self.kinds, self.names)

    def implied(self, rel):
        """``(ok, how)``: does ``rel`` follow from the hypotheses?"""
        try:
            op, e = _normal(rel)
        except Mismatch:        # a combination of relations (And, Or, Not): the solvers
            return self._solvers(rel) if isinstance(rel, sympy.logic.boolalg.Boolean) else (False, "not a relation")
        if op == "bool":
            return bool(e), "true" if e else "false"
        e = _expr(e)
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
                atoms.append(rd.relation_poly(_text(r)))
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


def _text(rel):
    """A relation as the certificate reader's text (``Eq(a, b)`` for an equation)."""
    if isinstance(rel, sympy.Equality):
        return f"Eq({rel.lhs}, {rel.rhs})"
    return str(rel)


# -- comparing a certificate with a direction ---------------------------------------------------------------------

@dataclass
class _Context:
    """What one row's comparison needs: the claim, the verdict's text and words, where pins are allowed."""

    claim: ClaimStatement
    evidence: str
    refutation: bool
    tight: dict          # direction index -> the tight f (in A's level symbol) the row states


def _cert_names(cert, st: ClaimStatement):
    """The certificate's symbols as the claim's (the same objects), T A's raw level: ``(names, faults)``."""
    names = dict(st.names)
    faults = []
    for name, kind in (cert.get("symbols") or {}).items():
        name = str(name)
        if name == "T":
            continue
        if name not in st.kinds:
            faults.append(f"its symbol {name} is not the claim's")
        elif kind == "integer" and st.kinds[name] != "integer":
            faults.append(f"it takes {name} an integer, the claim a real")
    if "T" in st.names:
        faults.append("the claim names a symbol T (the certificates' name of A's raw level)")
    names["T"] = sympy.Symbol("T", real=True)
    return names, faults


def _base_conditions(direction, st, T):
    """The claim's condition for ``direction`` in terms of A's raw level T (module notes)."""
    a, b = direction.a, direction.b
    alpha = a.level
    of_t = a.definition.level_from_raw(T)
    out = []
    for c in st.conditions:
        free = c.free_symbols
        if b.level in free and b.level != alpha:
            continue        # a condition on B's level: not one on the tables A holds on
        out.append(c.subs(alpha, of_t) if alpha in free else c)
    best = a.definition.level_scale.best_raw
    out.append(sympy.Ge(T, 1 if best is None else sympy.Rational(best.numerator, best.denominator)))
    N = st.names["N"]
    out.append(sympy.Ge(N, BASE_RECORDS))
    for side in (a, b):
        d = side.definition
        if not getattr(d, "ranges", None):
            continue
        try:
            ranges = d.param_ranges(N, **side.params)
        except (KeyError, TypeError, ValueError):
            continue
        out += [r for r in ranges if r not in (True, sympy.true)]
    return out


def _pins(rels, st, direction):
    """The certificate's domain's equations ``parameter == number`` (an instance; never N or a level)."""
    levels = {direction.a.level, direction.b.level}
    out = {}
    for r in rels:
        if isinstance(r, sympy.Equality):
            for x, v in ((r.lhs, r.rhs), (r.rhs, r.lhs)):
                if x.is_Symbol and v.is_number and x in st.names.values() and x not in levels \
                        and str(x) not in ("N", "T"):
                    out[x] = v
    return out


def _a_point(rels, kinds):
    """A point (N = 2..12, the other symbols on the checker's grids) where every relation holds exactly, or None."""
    from implgraph.certify import UNREADABLE
    from implgraph.certify.domain import Domain
    used = {str(s) for r in rels for s in r.free_symbols} | {"N", "T"}
    try:
        domain = Domain({"symbols": {k: kinds.get(k, "real") for k in used}, "domain": [_text(r) for r in rels]},
                        variables={})
        for env in domain.points(range(2, 13)):
            return ", ".join(f"{k} = {v}" for k, v in sorted(env.items()))
    except UNREADABLE:
        return None
    return None


def _stated(text, rel, cert, evidence):
    """Does the verdict's text state the assumption ``text`` (module notes)?"""
    squash = lambda s: re.sub(r"[\s()*]", "", str(s))       # noqa: E731
    ev = squash(evidence)
    forms = {squash(text), squash(rel)}
    if isinstance(rel, sympy.core.relational.Relational):
        forms.add(squash(rel.reversed))
    if any(f and f in ev for f in forms):
        return True
    return _partition_premise(rel, cert) and bool(PARTITION_WORDS.search(evidence))


def _partition_premise(rel, cert):
    """Is ``rel`` the premise ``2*(s) <= N`` or ``(s) >= 1`` of a partition into classes of >= s records, s a side's
    ``min_class`` (or T, A's level a class size)?"""
    try:
        op, e = _normal(rel)
    except Mismatch:
        return False
    sizes = {str((cert.get(k) or {}).get("min_class")) for k in ("A", "B")} | {"T"}
    syms = {str(s): s for s in e.free_symbols}
    for s_text in sizes - {"None"}:
        try:
            s_ = _parse_expr(s_text, {**syms, "N": syms.get("N", sympy.Symbol("N", integer=True)),
                                      "T": syms.get("T", sympy.Symbol("T", real=True))})
        except Mismatch:
            continue
        N = syms.get("N")
        if op == ">=" and (sympy.expand(e - (s_ - 1)) == 0 or (N is not None and sympy.expand(e - (N - 2 * s_)) == 0)):
            return True
    return False


def _domain_steps(cert, direction, ctx, names):
    """``[(what, ok, how)]``: the certificate's domain against the claim's condition (module notes)."""
    st = ctx.claim
    T = names["T"]
    base = _base_conditions(direction, st, T)
    hyps = Hypotheses(base, {**st.kinds, "T": "real"}, names)
    rels = []
    for text in cert.get("domain") or []:
        rels += [(text, r) for r in _parse_condition(text, names)]
    pins = _pins([r for _, r in rels], st, direction) if ctx.refutation else {}
    extra = []
    if pins:        # an instance of the claim: inside its condition, then implied by the condition with the pins
        at = base + [sympy.Eq(x, v) for x, v in pins.items()]
        where = ", ".join(f"{x} = {v}" for x, v in pins.items())
        point = _a_point(at, {**st.kinds, "T": "real"})
        extra.append((f"the instance {where} is inside the claim's condition", point is not None,
                      f"the condition holds at {point}" if point is not None else
                      "no point of the condition with the instance found"))
        hyps = Hypotheses(at, hyps.kinds, names)
    out, implied, extras, assumed = [], [], [], []
    for text, rel in rels:
        ok, how = hyps.implied(rel)
        if ok:
            implied.append(text)
            continue
        if _stated(text, rel, cert, ctx.evidence):
            out.append((f"its domain's {text} is stated in the verdict", True, "an assumption the verdict states"))
            assumed.append((text, rel, how))
            continue
        extras.append((text, rel, how))
    summary = [(f"its domain follows from the claim's condition{' with the instance' if pins else ''}", True,
                f"{len(implied)} of its {len(rels)} conditions implied by the claim's condition, A's valid levels, "
                f"N >= {BASE_RECORDS} and the declared parameter ranges")] if not extras else []
    return extra + summary + out, hyps, pins, extras, assumed


def _unstated(extras):
    """The steps failing on a certificate's assumptions that neither the claim nor the verdict states."""
    return [(f"its domain's {text} follows from the claim's condition", False,
             f"{text} is an assumption the claim does not state (its condition with the declared ranges does not imply "
             f"it: {how}) and the verdict does not state") for text, _, how in extras]


def _class_steps(cert, direction, st, names, pins):
    """The certificate's class hypotheses are the claim's (module notes)."""
    claim_min = [s.classes["min_size"] for s in (direction.a, direction.b) if s.classes.get("min_size") is not None]
    claim_max = [s.classes["max_size"] for s in (direction.a, direction.b) if s.classes.get("max_size") is not None]
    out = []
    for label, side, cside in (("A", direction.a, cert.get("A") or {}), ("B", direction.b, cert.get("B") or {})):
        for key, given, what in (("min_class", claim_min, "minimum"), ("max_class", claim_max, "maximum")):
            if cside.get(key) is None:
                continue
            value = _parse_expr(cside[key], names).subs(pins)
            if key == "min_class" and value == 1:
                continue
            ok = any(sympy.simplify(value - _expr(g).subs(pins)) == 0 for g in given)
            declared = getattr(direction.a.definition, "min_class_param", None)
            if not ok and key == "min_class" and declared is not None and declared in direction.a.params:
                ok = cert.get("A", {}).get("min_class_param") == declared and \
                    sympy.simplify(value - _expr(direction.a.params[declared]).subs(pins)) == 0
            out.append((f"{label}'s {what} class size {cside[key]} is the claim's", ok,
                        "stated by the claim or declared by the registry" if ok else
                        "a class hypothesis the claim does not state"))
    return out


def _side_steps(cert, direction, st, names, pins):
    """A and B are the claim's sides: ``(ok, [(what, ok, how)])``."""
    steps = []
    A, B = cert.get("A") or {}, cert.get("B") or {}
    views = cert.get("method") == "intruder-views"
    for label, side, cside in (("A", direction.a, A), ("B", direction.b, B)):
        if label == "B" and views:
            from implgraph.certify.lemmas.views import B_DEFINITION
            model = st.node.get("views")
            ok = (side.name == B_DEFINITION and isinstance(model, dict) and dict(cside.get("model") or {}) == dict(model)
                  and cside.get("view") == "k_I" and not side.params)
            steps.append(("B is the claim's: the view k_I under the claim's views model", ok,
                          f"the claim: {side.name} under {model}; the certificate: {cside.get('view')} under "
                          f"{cside.get('model')}"))
            continue
        ok = cside.get("definition") == side.name and side.scope == "table" and side.of is None
        how = (f"the claim: {side.name}" + ("" if side.scope == "table" else f" (scope {side.scope})")
               + ("" if side.of is None else " (of a quantity the certificate does not model)")
               + f"; the certificate: {cside.get('definition')}")
        if ok:
            given = {str(k): v for k, v in (cside.get("params") or {}).items()}
            words = getattr(side.definition, "words", None) or {}
            for k in set(given) | set(side.params):
                if k not in given or k not in side.params:
                    ok = False
                elif k in words:
                    ok = ok and str(given[k]) == str(side.params[k])
                else:
                    ok = ok and sympy.simplify(_parse_expr(given[k], names).subs(pins)
                                               - _expr(side.params[k]).subs(pins)) == 0
            how += f"; parameters {side.params} / {given}"
        steps.append((f"{label} is the claim's {'from' if label == 'A' else 'to'} side", ok, how))
    if all(s[1] for s in steps):
        steps += _class_steps(cert, direction, st, names, pins)
    return all(s[1] for s in steps), steps


def _bound(cert, names):
    """``(expression, upper)``: the certificate's bound of B's raw level in T (upper: from above), or None."""
    method = cert.get("method")
    if method == "inequality-lemmas":
        return None
    key, upper = BOUND_KEYS.get(method, ("upper", True))
    if cert.get(key) is None:
        return None
    return _parse_expr(cert[key], names), upper


def _lemma_bound(cert, direction, T):
    """An ``inequality-lemmas`` certificate's lower bound of B's raw level: its ``f`` of A's level (``x``,
    ``ceiling(x)``, ``capped(x)``), or None (another map)."""
    x = sympy.Symbol("x", positive=True)
    n = sympy.floor(x)
    # capped(x): exp(H) of the capped distribution, floor(x) values at 1/x and one at 1 - floor(x)/x
    # (implgraph.certify.lemma_chain), x^(n/x) (1 - n/x)^(-(1 - n/x)) with n = floor(x)
    forms = {"x": x, "ceiling(x)": sympy.ceiling(x), "capped(x)": x ** (n / x) * (1 - n / x) ** (-(1 - n / x))}
    f = forms.get(str(cert.get("f")))
    if f is None:
        return None
    level = f.subs(x, direction.a.definition.level_from_raw(T))
    return direction.b.definition.raw_from_level(level)


def _raw_f(f, direction, T):
    """The claimed f as B's raw level in terms of T."""
    of_t = direction.a.definition.level_from_raw(T)
    raw = direction.b.definition.raw_from_level(_expr(f).subs(direction.a.level, of_t))
    return raw.rewrite(sympy.exp) if raw.has(sympy.tanh) else raw


def _proves_f(bound, upper, direction, hyps, T):
    """``(ok, how)``: the bound is at least as strong as the claimed f on the claim's condition."""
    raw_f = _raw_f(direction.f, direction, T)
    if raw_f is sympy.oo and upper:
        return True, "f is oo (every table)"
    mine = list(bound.args) if isinstance(bound, (sympy.Min if upper else sympy.Max)) else [bound]
    theirs = list(raw_f.args) if isinstance(raw_f, (sympy.Max if upper else sympy.Min)) else [raw_f]
    f_t = _expr(direction.f).subs(direction.a.level, direction.a.definition.level_from_raw(T))
    tried = []
    for u in mine:
        for r in theirs:
            rel = sympy.Le(u, r, evaluate=False) if upper else sympy.Ge(u, r, evaluate=False)
            ok, how = hyps.implied(rel)
            if ok:
                return True, f"{rel} ({how})"
            tried.append(how)
        level = direction.b.definition.level_from_raw(u)
        if level != u:      # in B's own units (a condition of the claim may be written there)
            rel = sympy.Le(level, f_t, evaluate=False) if upper else sympy.Ge(level, f_t, evaluate=False)
            ok, how = hyps.implied(rel)
            if ok:
                return True, f"{rel} ({how})"
    return False, f"{'U' if upper else 'L'} = {bound} against raw f = {raw_f}: not shown ({'; '.join(tried[:2])})"


def _equal_tight(cert, bound, tight, direction, names, pins):
    """``(ok, how)``: the certificate's bound (B's raw level in T) equals the stated tight f (B's level in A's level
    symbol): identically, or exactly at every sampled point of the certificate's domain (each side evaluated there:
    the tight f at A's level of the point's T, then B's raw level of that number)."""
    from fractions import Fraction
    from implgraph.certify import UNREADABLE
    from implgraph.certify.domain import Domain
    a_def, b_def, alpha, T = direction.a.definition, direction.b.definition, direction.a.level, names["T"]
    tight, bound = tight.xreplace(pins), bound.xreplace(pins)
    if not any(e.has(sympy.Piecewise, sympy.Min, sympy.Max) for e in (tight, bound)):
        raw = b_def.raw_from_level(tight.subs(alpha, a_def.level_from_raw(T)))
        if sympy.expand(raw - bound) == 0:
            return True, "identically (sympy)"
    checked = 0
    try:
        for env in Domain(cert).points(range(2, 9)):
            at = {names[k]: sympy.Rational(Fraction(v).numerator, Fraction(v).denominator)
                  for k, v in env.items() if k in names}
            u = bound.xreplace(at)
            level = tight.xreplace({**at, alpha: a_def.level_from_raw(at[T])})
            r = b_def.raw_from_level(level)
            if u.free_symbols or r.free_symbols:
                return False, f"not a number at {env}"
            if not (u == r or sympy.simplify(u - r) == 0):
                return False, f"U = {u} but the tight f's raw level is {r} at " + ", ".join(
                    f"{k} = {v}" for k, v in sorted(env.items()))
            checked += 1
            if checked >= MAX_TIGHT_POINTS:
                break
    except UNREADABLE as exc:
        return False, f"{exc.__class__.__name__}: {exc}"
    if not checked:
        return False, "no point of the certificate's domain sampled"
    return True, f"equal exactly at {checked} sampled points of its domain"


@dataclass
class _Reading:
    """One certificate read as one direction of the claim."""

    sides_ok: bool
    steps: list
    proves: bool = False        # its bound is at least as strong as the claimed f (on its domain)
    tight_ok: object = None     # its bound equals the row's tight f (None: not compared)
    extras: list = field(default_factory=list)      # its domain's conditions the claim does not imply
    assumed: list = field(default_factory=list)     # those of them the verdict states (an assumption it makes)
    hyps: object = None         # the claim's condition (with an instance's pins) as hypotheses

    @property
    def ok(self):
        return self.sides_ok and all(s[1] for s in self.steps)


def _direction_report(cert, direction, ctx, index) -> _Reading:
    """The certificate read as ``direction`` (module notes)."""
    st = ctx.claim
    names, faults = _cert_names(cert, st)
    T = names["T"]
    steps = [("its symbols are the claim's", not faults, "; ".join(faults) or "the same kinds")]
    rels = []
    for text in cert.get("domain") or []:
        rels += _parse_condition(text, names)
    pins = _pins(rels, st, direction) if ctx.refutation else {}
    ok, side_steps = _side_steps(cert, direction, st, names, pins)
    steps += side_steps
    if not ok or faults:
        return _Reading(False, steps)
    dom_steps, hyps, pins, extras, assumed = _domain_steps(cert, direction, ctx, names)
    steps += dom_steps
    out = _Reading(True, steps, extras=extras, assumed=assumed, hyps=hyps)
    if not all(s[1] for s in steps):
        return out
    d_b = direction.b.definition
    found = _bound(cert, names)
    if found is None:
        lemma = _lemma_bound(cert, direction, T) if cert.get("method") == "inequality-lemmas" else None
        found = None if lemma is None else (lemma, False)
    if found is None:
        steps.append(("its bound can be compared with the claim", direction.f is None,
                      f"method {cert.get('method')} states no bound this check reads"))
        return out
    bound, upper = found
    views = cert.get("method") == "intruder-views"
    smaller = d_b.stronger == "smaller"
    steps.append(("the bound's direction is B's (an upper bound where smaller is stronger)", upper == smaller,
                  f"{'an upper' if upper else 'a lower'} bound; {d_b.name}: {d_b.stronger} is stronger"
                  + (" (the view's eps-DP)" if views else "")))
    if upper != smaller:
        return out
    if direction.f is not None and not pins:
        out.proves, how = _proves_f(bound, upper, direction, hyps, T)
        steps.append((f"{'U' if upper else 'L'} is at least as strong as the claimed f on the claim's "
                      f"{'whole condition' if not extras else 'condition where its domain holds'}", out.proves, how))
    tight = ctx.tight.get(index)
    if cert.get("tight") and tight is not None:
        out.tight_ok, how = _equal_tight(cert, bound, _expr(tight), direction, names, pins)
        steps.append(("its tight bound is the row's tight f" + (" where its domain holds" if extras else ""),
                      out.tight_ok, how))
    return out


def _covered(readings, hyps):
    """``(ok, how)``: the tight certificates' domains cover the claim's condition (one has no condition of its own,
    or the condition with none of their own conditions sets is unsatisfiable: z3, cvc5); an assumption the verdict
    states is the verdict's, not a certificate's own condition."""
    own = [r.extras for r in readings]
    if any(not x for x in own):
        return True, "a certificate on the whole condition"
    outside = [sympy.Not(sympy.And(*[rel for _, rel, _ in x])) for x in own]
    ok, how = hyps.implied(sympy.Not(sympy.And(*outside)))
    texts = " | ".join(" & ".join(t for t, _, _ in x) for x in own)
    return ok, f"their own conditions {texts}: {how}"


# -- the claims other than a bound between two levels ----------------------------------------------------------------

def _same_expression(a, b):
    try:
        return sympy.simplify(_expr(a) - _expr(b)) == 0
    except (TypeError, ValueError):
        return False


def _statement_domain(cert, st, names):
    """The domain of a certificate over the claim's own symbols, against its ``when``."""
    hyps = Hypotheses(st.conditions, st.kinds, names)
    steps = []
    for text in cert.get("domain") or []:
        for rel in _parse_condition(text, names):
            ok, how = hyps.implied(rel)
            steps.append((f"its domain's {text} follows from the claim's condition", ok, how))
    return steps, hyps


def _level_claim_steps(cert, st, ctx):
    """A ``set-channel-*`` certificate against a ``kind: level`` claim (module notes)."""
    names = dict(st.names)
    faults = [f"its symbol {k} is not the claim's" for k in (cert.get("symbols") or {}) if k not in st.kinds]
    faults += [f"it takes {k} an integer, the claim a real" for k, v in (cert.get("symbols") or {}).items()
               if v == "integer" and st.kinds.get(k) not in (None, "integer")]
    steps = [("its symbols are the claim's", not faults, "; ".join(faults) or "the same kinds")]
    if faults:
        return steps
    d = _registered(st.node.get("definition"))
    B = cert.get("B") or {}
    steps.append(("B is the claim's definition", d is not None and B.get("definition") == d.name,
                  f"the claim: {st.node.get('definition')}; the certificate: {B.get('definition')}"))
    channel = (st.node.get("mechanism") or {}).get("set_channel") or {}
    given = cert.get("channel") or {}
    level = _parse_expr(st.node.get("level"), names)
    if cert.get("method") == "set-channel-closeness":
        steps.append(("the channel is the claim's: Algorithm 1 (the proof's reading of it, on a #reading row)",
                      channel.get("parameters") == given.get("parameters") == "algorithm-1" and st.reading,
                      f"the claim: {channel.get('parameters')}{' (its reading)' if st.reading else ''}; the "
                      f"certificate: {given.get('parameters')}, {given.get('reading')!r}"))
        closeness = channel.get("closeness")
        steps.append(("Algorithm 1 is run with the claimed level as its closeness", closeness is not None
                      and _same_expression(_parse_expr(closeness, names), level),
                      f"closeness {closeness}, level {st.node.get('level')}"))
    else:
        same = all(k in channel and k in given and _same_expression(_parse_expr(channel[k], names),
                                                                     _parse_expr(given[k], names))
                   for k in ("p", "eta", "domain_size"))
        steps.append(("the channel is the claim's (p, eta, the domain size)", same,
                      f"the claim: {dict((k, channel.get(k)) for k in ('p', 'eta', 'domain_size'))}; the certificate: "
                      f"{dict((k, given.get(k)) for k in ('p', 'eta', 'domain_size'))}"))
    if channel.get("inference") is not None or B.get("inference") is not None:
        steps.append(("B's inference is the claim's", channel.get("inference") in (None, B.get("inference")),
                      f"the claim: {channel.get('inference')}; the certificate: {B.get('inference')}"))
    dom, hyps = _statement_domain(cert, st, names)
    steps += dom
    if cert.get("level") is not None and d is not None:
        mine = _parse_expr(cert["level"], names)
        rel = sympy.Ge(mine, level, evaluate=False) if d.stronger == "larger" else sympy.Le(mine, level, evaluate=False)
        ok, how = hyps.implied(rel)
        steps.append(("its level is at least as strong as the claimed level", ok, f"{rel} ({how})"))
    return steps


def _math_claim_steps(cert, st, ctx):
    """A ``transport-mixture`` certificate against a ``kind: math`` claim (module notes)."""
    names = dict(st.names)
    faults = [f"its symbol {k} is not the claim's" for k in (cert.get("symbols") or {}) if k not in st.kinds]
    steps = [("its symbols are the claim's", not faults, "; ".join(faults) or "the same kinds")]
    if faults:
        return steps
    formula = st.node.get("formula")
    mine = (cert.get("claim") or {}).get("formula")
    claimed = _parse_condition(formula, names) if formula is not None else []
    stated = _parse_condition(mine, names) if mine is not None else []
    same = len(claimed) == len(stated) == 1 and type(claimed[0]) is type(stated[0]) and \
        _same_expression(claimed[0].lhs, stated[0].lhs) and _same_expression(claimed[0].rhs, stated[0].rhs)
    steps.append(("its formula is the claim's", same, f"the claim: {formula}; the certificate: {mine}"))
    program = st.node.get("linear_program") or {}
    steps.append(("the program is convex in the claim's marginal", program.get("convex_in") is not None
                  and program.get("convex_in") == (cert.get("program") or {}).get("convex_in"),
                  f"the claim: {program.get('convex_in')}; the certificate: {(cert.get('program') or {}).get('convex_in')}"))
    dom, _ = _statement_domain(cert, st, names)
    return steps + dom


#: certificate methods whose statement is not a bound between two levels: method -> the claim kind they state
LEMMA_CLAIMS = {"set-channel-diversity": ("level", _level_claim_steps),
                "set-channel-whole-domain": ("level", _level_claim_steps),
                "set-channel-closeness": ("level", _level_claim_steps),
                "transport-mixture": ("math", _math_claim_steps)}


# -- the row ------------------------------------------------------------------------------------------------------

def _field(row, name, default=None):
    if isinstance(row, dict):
        return row.get(name, default)
    return getattr(row, name, default)


def _tightness(details, i):
    t = (details or {}).get("tightness")
    if isinstance(t, (list, tuple)):
        return t[i] if i < len(t) else None
    return t if i == 0 else None


def check_statement(claim, row, certs) -> CertificateReport:
    """Do the certificates ``certs`` of ``row`` (a verdict: ``id``, ``verdict``, ``evidence``, ``tight``,
    ``details``, ``refuted_by``; an object or its JSON) state its claim ``claim`` (the claim node; None when the
    row has none)? One report, each step naming the certificate it is about (module notes)."""
    rid = str(_field(row, "id"))
    if not isinstance(claim, dict):
        return CertificateReport(False, [("statement: the row's claim", False,
                                          f"no claim {rid.split('#')[0]!r} in the claim data")], "statement")
    try:
        st = read_claim(claim, rid)
    except Mismatch as exc:
        return CertificateReport(False, [("statement: the claim readable", False, str(exc))], "statement")
    verdict = str(_field(row, "verdict"))
    refutation = verdict == "refuted" and _field(row, "refuted_by") == "proved"
    details = _field(row, "details") or {}
    steps = []
    try:
        if st.kind in FORWARD_KINDS + BOTH_WAY_KINDS:
            steps = _edge_steps(st, row, certs, verdict, refutation, details)
        else:
            for i, cert in enumerate(certs, 1):
                kind, steps_of = LEMMA_CLAIMS.get(str((cert or {}).get("method")), (None, None))
                if kind != st.kind:
                    steps.append((f"statement: certificate {i} ({(cert or {}).get('method')}) states a claim of kind "
                                  f"{st.kind}", False, f"it states a claim of kind {kind or 'it does not name'}"))
                    continue
                steps += [(f"statement: certificate {i}: {w}", ok, how) for w, ok, how in steps_of(cert, st, None)]
            if not certs:
                steps.append(("statement: a certificate", False, "none"))
    except Mismatch as exc:
        steps.append(("statement: readable", False, str(exc)))
    return CertificateReport(bool(steps) and all(s[1] for s in steps), steps, "statement")


def _edge_steps(st, row, certs, verdict, refutation, details):
    """The steps of an edge claim's row (module notes)."""
    tight_text = _field(row, "tight")
    tight = {}
    for i, d in enumerate(st.directions):
        stated = tight_text if i == 0 and tight_text else None
        if stated is None and _tightness(details, i) == "tight" and d.f is not None:
            tight[i] = d.f
        elif stated is not None:
            tight[i] = _parse_expr(stated, st.names)
    ctx = _Context(st, str(_field(row, "evidence") or ""), refutation, tight)
    steps, by_direction = [], [[] for _ in st.directions]
    for i, cert in enumerate(certs, 1):
        if not isinstance(cert, dict):
            steps.append((f"statement: certificate {i}", False, "not a mapping"))
            continue
        found = []
        for j, d in enumerate(st.directions):
            r = _direction_report(cert, d, ctx, j)
            if r.sides_ok:
                found.append((r.ok and not (r.extras and not (cert.get("tight") and r.tight_ok)), j, r))
        if not found:
            A, B = cert.get("A") or {}, cert.get("B") or {}
            why = [f"{w}: {h}" for d in st.directions for w, o, h in _direction_report(cert, d, ctx, 0).steps if not o]
            steps.append((f"statement: certificate {i} states the row's A => B", False,
                          f"it states {_side_text(A.get('definition') or B.get('view'), A.get('params'))} => "
                          f"{_side_text(B.get('definition') or B.get('view'), B.get('params'))}, the claim "
                          + " and ".join(f"{_side_text(d.a.name, d.a.params)} => {_side_text(d.b.name, d.b.params)}"
                                         for d in st.directions) + (f" ({why[0]})" if why else "")))
            continue
        _, j, r = max(found, key=lambda x: x[0])
        label = st.directions[j].label
        steps += [(f"statement: certificate {i} ({label}): {w}", o, h) for w, o, h in r.steps]
        if r.extras and not (cert.get("tight") and j in ctx.tight):
            # an assumption of its own: only a tightness certificate of a part of the condition may have one
            steps += [(f"statement: certificate {i} ({label}): {w}", o, h) for w, o, h in _unstated(r.extras)]
        by_direction[j].append((r, cert))
    proved = verdict == "proved"
    for j, d in enumerate(st.directions):
        whole = [r for r, _ in by_direction[j] if r.ok and not r.extras]
        if proved and d.f is not None:
            steps.append((f"statement: a certificate proves the claimed f of {d.label} on the claim's whole condition",
                          any(r.proves for r in whole), f"f = {d.f}"))
        elif proved or (refutation and j == 0):
            steps.append((f"statement: a certificate proves {d.label}" + (" (the implication the claim denies)"
                                                                          if refutation else "") +
                          " on the claim's whole condition" + (" or an instance of it" if refutation else ""),
                          bool(whole), f"{len(whole)} certificate(s)"))
        if j in ctx.tight and (proved or refutation):
            tight = [r for r, c in by_direction[j] if c.get("tight") and r.ok and r.tight_ok]
            steps.append((f"statement: a certificate attains the row's tight f of {d.label}", bool(tight),
                          f"tight f = {ctx.tight[j]}"))
            if tight:
                base = next(r.hyps for r in tight)
                ok, how = _covered(tight, base)
                steps.append((f"statement: the tight certificates of {d.label} cover the claim's condition", ok, how))
                if not ok:      # their own conditions are then assumptions of the tight f: name them
                    steps += [(f"statement: {d.label}: {w}", o, h) for r in tight for w, o, h in _unstated(r.extras)]
    if not certs:
        steps.append(("statement: a certificate", False, "none"))
    return steps


def _side_text(name, params):
    inner = ", ".join(f"{k}={v}" for k, v in (params or {}).items())
    return f"{name}({inner})" if inner else str(name)
