"""An independent checker of the prover's certificates (issue 12).

A certificate (JSON, ``format: implgraph-certificate/1``) says that B's raw level is at most
``upper`` = U(T, N, parameters) on every table whose A raw level is at most T, for every point of
``domain`` (sympy relations over ``symbols``), and, when ``tight``, gives a table family attaining
U. This package re-checks both without importing the prover or the refuter:

- the **upper bound**: the lemma named by ``method`` (:mod:`implgraph.certify.kernel`) turns into
  polynomial obligations; identities are checked by sympy (exact), inequalities by z3 and cvc5
  (:mod:`implgraph.certify.solve`; each step names the solvers' answers), multipliers (``product``)
  as ``target = sum(lambda_i * fact_i)`` with every ``lambda_i >= 0``;
- the **tightness family**: blocks of equal binary rows ``{"count", "value", "class"}`` (expressions
  in N, T and the parameters) evaluated at every point of the domain with N = 2..12, every integer
  parameter and a grid of levels; the exact levels (:mod:`implgraph.certify.levels`, from the
  definitions) must give A <= T and B = U.

Examples
--------
>>> cert = {"format": "implgraph-certificate/1", "method": "same-level",
...         "symbols": {"N": "integer", "T": "real"}, "domain": ["N >= 2", "T >= 1"],
...         "A": {"family": "pairwise", "sides": "two-sided"}, "B": {"family": "pairwise", "sides": "two-sided"},
...         "upper": "T", "tight": True,
...         "tightness": {"blocks": [{"count": "1", "value": "1/(T + 1)"},
...                                  {"count": "N - 1", "value": "T/(T + 1)"}]}}
>>> check_certificate(cert, ns=range(2, 5)).ok
True
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from fractions import Fraction

import sympy

from implgraph.certify.kernel import obligations, structural_checks
from implgraph.certify.levels import INF, expand, raw_level
from implgraph.certify.solve import discharge

__all__ = ["check_certificate", "certificates_in", "CertificateReport", "FORMAT"]

FORMAT = "implgraph-certificate/1"
_T_GRID = (sympy.Integer(1), sympy.Rational(5, 4), sympy.Rational(3, 2), sympy.Integer(2), sympy.Integer(3),
           sympy.Rational(7, 2), sympy.Integer(10))
_REAL_GRID = (sympy.Integer(0), sympy.Integer(1), sympy.Rational(3, 2), sympy.Integer(2), sympy.Integer(5))


@dataclass
class CertificateReport:
    """The checker's answer: ``ok`` and every step ``(what, ok, how)``."""

    ok: bool
    steps: list = field(default_factory=list)

    def to_json(self):
        return {"ok": self.ok, "steps": [{"step": w, "ok": o, "how": h} for w, o, h in self.steps]}

    def failures(self):
        return [s for s in self.steps if not s[1]]


def _symbols(cert):
    kinds_in = cert.get("symbols") or {}
    S = {n: sympy.Symbol(n, integer=True) if k == "integer" else sympy.Symbol(n, real=True)
         for n, k in kinds_in.items()}
    S.setdefault("N", sympy.Symbol("N", integer=True))
    S.setdefault("T", sympy.Symbol("T", real=True))
    kinds = {s: ("integer" if s.is_integer else "real") for s in S.values()}
    return S, kinds


def _value(e, env):
    """Exact value of a rational expression (Add, Mul, integer Pow, Min, Max) at ``env`` as a
    Fraction; ValueError for anything else (e.g. a logarithm)."""
    if e.is_Rational:
        return Fraction(int(e.p), int(e.q))
    if e.is_Symbol:
        return env[e]
    if e.is_Add:
        return sum((_value(x, env) for x in e.args), Fraction(0))
    if e.is_Mul:
        out = Fraction(1)
        for x in e.args:
            out *= _value(x, env)
        return out
    if e.is_Pow and e.exp.is_Integer:
        return _value(e.base, env) ** int(e.exp)
    if isinstance(e, (sympy.Min, sympy.Max)):
        vals = [_value(x, env) for x in e.args]
        return min(vals) if isinstance(e, sympy.Min) else max(vals)
    raise ValueError(f"{e.func} is not a rational operation")


_FLOAT = {}


def _float_diff(rel, point):
    """lhs - rhs in floating point (only to choose sample points; a near tie goes to sympy)."""
    syms = sorted(rel.free_symbols, key=str)
    key = (rel, tuple(syms))
    if key not in _FLOAT:
        _FLOAT[key] = sympy.lambdify(syms, rel.lhs - rel.rhs, "math")
    try:
        return float(_FLOAT[key](*(float(point[x]) for x in syms)))
    except (ValueError, ZeroDivisionError, KeyError, OverflowError, TypeError):
        return None


def _holds(rel, point):
    if isinstance(rel, sympy.core.relational.Relational):
        env = {k: Fraction(int(v.p), int(v.q)) for k, v in point.items()}
        try:
            lhs, rhs = _value(rel.lhs, env), _value(rel.rhs, env)
        except (ValueError, ZeroDivisionError, KeyError):
            lhs = None
        if lhs is not None:
            return {"<=": lhs <= rhs, "<": lhs < rhs, ">=": lhs >= rhs, ">": lhs > rhs, "==": lhs == rhs,
                    "!=": lhs != rhs}[rel.rel_op]
        diff = _float_diff(rel, point)
        if diff is not None and abs(diff) > 1e-9:
            return {"<=": diff < 0, "<": diff < 0, ">=": diff > 0, ">": diff > 0, "==": False,
                    "!=": True}[rel.rel_op]
    v = sympy.sympify(rel).subs(point)
    if v in (sympy.true, sympy.false):
        return bool(v)
    try:
        return bool(v)
    except TypeError:
        return False


def _points(S, kinds, domain, ns):
    """Points of the domain: N in ``ns``, other integers 0..N, other reals and T from small grids."""
    N, T = S["N"], S["T"]
    ints = sorted((s for s, k in kinds.items() if k == "integer" and s != N), key=str)
    reals = sorted((s for s, k in kinds.items() if k == "real" and s != T), key=str)
    for n in ns:
        for ivals in itertools.product(range(0, n + 1), repeat=len(ints)):
            for rvals in itertools.product(_REAL_GRID, repeat=len(reals)):
                base = {N: sympy.Integer(n), **dict(zip(ints, map(sympy.Integer, ivals))), **dict(zip(reals, rvals))}
                for t in _T_GRID:
                    pt = {**base, T: t}
                    if all(_holds(c, pt) for c in domain):
                        yield pt


def _side_size(size, env):
    return None if size is None else int(_value(size, env))


def _check_family(cert, S, kinds, domain, ns):
    """``(ok, how)``: the tightness family at every sampled point of the domain."""
    fam = cert.get("tightness") or {}
    blocks = fam.get("blocks")
    if not blocks:
        return False, "no table family given"
    U = sympy.sympify(cert["upper"], locals=S)
    T = S["T"]
    parsed = [(sympy.sympify(b["count"], locals=S), sympy.sympify(b["value"], locals=S)) for b in blocks]
    size_a, size_b = (None if d.get("size") is None else sympy.sympify(d["size"], locals=S)
                      for d in (cert["A"], cert["B"]))
    checked, seen = 0, {}
    for pt in _points(S, kinds, domain, ns):
        env = {k: Fraction(int(v.p), int(v.q)) for k, v in pt.items()}
        try:
            evald = []
            for (count, value), b in zip(parsed, blocks):
                c = _value(count, env)
                if c.denominator != 1:
                    raise ValueError(f"block size {c} is not an integer")
                evald.append((int(c), None if c == 0 else _value(value, env), b.get("class")))
            rows, classes = expand(evald, singleton_classes=bool(fam.get("singleton_classes")))
        except (ValueError, ZeroDivisionError, TypeError) as exc:
            return False, f"the family is not a table at {_pt(pt)}: {exc}"
        if len(rows) != int(pt[S["N"]]):
            return False, f"the family has {len(rows)} rows, not N, at {_pt(pt)}"
        ja, jb = _side_size(size_a, env), _side_size(size_b, env)
        key = (tuple(evald), ja, jb)
        if key not in seen:
            seen[key] = (raw_level(cert["A"], rows, classes, ja), raw_level(cert["B"], rows, classes, jb))
        a, b = seen[key]
        t, u = env[T], _value(U, env)
        if a == INF or a > t:
            return False, f"A's level {a} exceeds T = {t} at {_pt(pt)}"
        if b != u:
            return False, f"B's level {b} differs from U = {u} at {_pt(pt)}"
        checked += 1
    if not checked:
        return False, "no point of the domain was sampled"
    return True, f"A <= T and B = U exactly at {checked} points (N = {min(ns)}..{max(ns)}, levels {_grid()})"


def _grid():
    return ", ".join(map(str, _T_GRID))


def _pt(pt):
    return ", ".join(f"{k} = {v}" for k, v in sorted(pt.items(), key=lambda kv: str(kv[0])))


def check_certificate(cert, ns=range(2, 13), timeout_ms=4000) -> CertificateReport:
    """Re-check a certificate; see the module notes.

    Parameters
    ----------
    cert : dict
        The JSON certificate.
    ns : range
        The N at which the tightness family is evaluated.
    timeout_ms : int
        Per solver query (a timeout is no proof: the step fails).

    Returns
    -------
    CertificateReport
    """
    steps = []
    if cert.get("format") != FORMAT:
        return CertificateReport(False, [("format", False, f"expected {FORMAT}, got {cert.get('format')!r}")])
    try:
        S, kinds = _symbols(cert)
        domain = [sympy.sympify(c, locals=S) for c in cert.get("domain", [])]
        T, N = S["T"], S["N"]
        for what, ok in structural_checks(cert, S, T):
            steps.append((what, bool(ok), "sympy (exact)"))
        for ob in obligations(cert, S, T, N):
            ok, how = discharge(ob, domain, kinds, timeout_ms)
            steps.append((ob.name, ok, how))
        if cert.get("tight"):
            ok, how = _check_family(cert, S, kinds, domain, ns)
            steps.append(("tightness family attains U", ok, how))
    except (sympy.SympifyError, KeyError, TypeError, ValueError, AttributeError) as exc:
        steps.append(("certificate readable", False, f"{exc.__class__.__name__}: {exc}"))
    ok = bool(steps) and all(s[1] for s in steps)
    return CertificateReport(ok, steps)


def certificates_in(details) -> list:
    """The certificates a verdict's ``details`` carries (``certificate`` and ``certificates``)."""
    details = details or {}
    out = [details.get("certificate")] + list(details.get("certificates") or [])
    return [c for c in out if c]
