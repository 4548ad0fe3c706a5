"""A certificate's symbols and domain: the ring it is read in, its hypotheses, its sample points.

``symbols`` maps each name to ``"integer"`` or ``"real"`` (N is an integer and T, A's raw level, a
real unless stated); ``domain`` is a list of relations over them. :class:`Domain` gives

- the polynomial hypotheses (``(op, g)``, ``g op 0``) the exact positivity argument may use
  (:mod:`implgraph.certify.positive`; a relation that is not polynomial, e.g. ``log(T) <= eps``, is
  left out there, which only weakens the hypotheses);
- the same relations read by sympy for the solvers (:mod:`implgraph.certify.solve`, only when the
  exact argument does not apply);
- :meth:`Domain.points`: the sample points of the tightness family (N in a range, other integers
  0..N, other reals and T on small grids: ratios >= 1, or levels in (0, 1] where A is a distance) where every
  relation holds, tested exactly (a
  non-rational relation is decided in floating point away from ties, by sympy at a tie).
"""

from __future__ import annotations

import functools
import itertools
import math
from fractions import Fraction

import sympy

from implgraph.certify.expr import Reader, Unreadable
from implgraph.certify.obligation import VARIABLES

__all__ = ["Domain", "T_GRID", "DISTANCE_GRID", "REAL_GRID", "declared_names", "conditions_over"]

T_GRID = (1, Fraction(5, 4), Fraction(3, 2), 2, 3, Fraction(7, 2), 10)
#: A's raw levels sampled where A is a distance (its level lies in [0, 1]: a grid of ratios >= 1 would test only
#: where every distance is allowed), 0 and small levels included (a domain ``T > 0`` leaves 0 out), and 2
DISTANCE_GRID = (0, Fraction(1, 100), Fraction(1, 20), Fraction(1, 10), Fraction(1, 4), Fraction(1, 3), Fraction(1, 2),
                 Fraction(2, 3), Fraction(3, 4), 1, 2)
REAL_GRID = (0, 1, Fraction(3, 2), 2, 5)


class Domain:
    """The symbols and the domain of a certificate (see the module notes).

    Attributes
    ----------
    reader : Reader
        Over the certificate's symbols and the lemma's variables (``variables``, ``{name: kind}``; by default the
        lemmas', :data:`implgraph.certify.obligation.VARIABLES`, all real).
    kinds : dict
        ``{name: "integer" | "real"}`` of every symbol of the reader.
    atoms : list of (str, PolyElement)
        The polynomial relations of the domain.
    """

    def __init__(self, cert, variables=None):
        kinds = dict(cert.get("symbols") or {})
        if any(k not in ("integer", "real") for k in kinds.values()):
            raise ValueError(f"a symbol's kind is not integer or real: {kinds}")
        # the lemma's own variables: the kernel's reals, or ``{name: kind}`` of a lemma module
        variables = {v: "real" for v in VARIABLES} if variables is None else dict(variables)
        clash = set(kinds) & set(variables)
        if clash:
            raise ValueError(f"symbols {sorted(clash)} are reserved for the lemmas' variables")
        kinds.setdefault("N", "integer")
        kinds.setdefault("T", "real")
        self.variables = variables
        self.kinds = {**kinds, **variables}
        self.reader = Reader([*sorted(kinds), *variables])
        self.texts = list(dict.fromkeys(str(c) for c in cert.get("domain", [])))
        self.atoms, self._tests = [], []
        for text in self.texts:
            try:
                self.atoms.append(self.reader.relation_poly(text))
            except Unreadable:
                pass
            try:
                test = self.reader.relation_function(text)
            except Unreadable:
                test = _SympyTest(self.reader.sympy(text), self.reader.symbols)
            self._tests.append((self.reader.names_in(text), test))
        self._sympy = None
        #: A's raw levels the tightness family is checked at: the grid, and where a linear condition on T alone bounds
        #: it at r > 0, r, r + 1 and 2 r (a piece of a bound beyond the grid, e.g. T >= 19, is sampled too)
        grid = DISTANCE_GRID if (cert.get("A") or {}).get("distance") is not None else T_GRID
        self.t_grid = tuple(sorted(set(grid) | {x for r in self._thresholds() for x in (r, r + 1, 2 * r)}))

    def _thresholds(self):
        """Where the domain's relations on T alone change truth: their real roots r > 0, rational ones exactly, others
        as the rationals just below and above (1/1000 apart), at most :data:`MAX_THRESHOLDS` of them (the smallest and
        the largest)."""
        t = self.reader.symbols.get("T")
        out = set()
        for text in self.texts:
            try:
                rel = self.reader.sympy(text)
            except (Unreadable, ValueError, TypeError, SyntaxError):
                continue
            if not isinstance(rel, sympy.core.relational.Relational) or rel.free_symbols != {t}:
                continue
            out |= _roots(rel.lhs - rel.rhs, t)
        found = sorted(out)
        half = MAX_THRESHOLDS // 2
        return found if len(found) <= MAX_THRESHOLDS else found[:half] + found[-half:]

    def sympy_relations(self):
        """The domain read by sympy (for the solvers)."""
        if self._sympy is None:
            self._sympy = [self.reader.sympy(t) for t in self.texts]
        return self._sympy

    def sympy_kinds(self):
        """``{sympy Symbol: kind}`` for the solvers."""
        return {self.reader.symbols[n]: k for n, k in self.kinds.items()}

    def holds(self, env, names=None):
        """Does every relation hold at ``env`` (``{name: int | Fraction}``)? With ``names``, only the
        relations over those names are tested."""
        try:
            return all(test(env) for used, test in self._tests if names is None or used <= names)
        except ZeroDivisionError:
            return False

    def points(self, ns):
        """The sample points ``{name: int | Fraction}`` of the domain (see the module notes)."""
        names = [n for n in self.kinds if n not in self.variables]
        ints = sorted(n for n in names if self.kinds[n] == "integer" and n != "N")
        reals = sorted(n for n in names if self.kinds[n] == "real" and n != "T")
        known = frozenset(names) - {"T"}
        for n in ns:
            for ivals in itertools.product(range(0, n + 1), repeat=len(ints)):
                for rvals in itertools.product(REAL_GRID, repeat=len(reals)):
                    base = {"N": n, **dict(zip(ints, ivals)), **dict(zip(reals, rvals))}
                    if not self.holds(base, known):
                        continue
                    for t in self.t_grid:
                        if self.kinds.get("T") == "integer" and Fraction(t).denominator != 1:
                            continue        # T an integer (A's level is a class size)
                        env = {**base, "T": t}
                        if self.holds(env):
                            yield env


#: the most thresholds of the domain sampled (a domain of many conditions on T is not sampled at each)
MAX_THRESHOLDS = 8


@functools.lru_cache(maxsize=4096)
def _roots(expr, t) -> frozenset:
    """The real roots r > 0 of ``expr`` in ``t`` below 10^6: a rational one exactly, another as the two rationals of
    denominator 1000 around it; an empty set where sympy does not find them."""
    try:
        found = sympy.solveset(expr, t, sympy.Interval.open(0, 10 ** 6))
    except (NotImplementedError, ValueError, TypeError):
        return frozenset()
    if not isinstance(found, sympy.FiniteSet) or len(found) > 16:
        return frozenset()
    out = set()
    for r in found:
        if r.is_Rational:
            out.add(Fraction(int(r.p), int(r.q)))
        elif r.is_real:
            x = float(r)
            out |= {Fraction(math.floor(x * 1000), 1000), Fraction(math.ceil(x * 1000), 1000)}
    return frozenset(x for x in out if x > 0)


class _SympyTest:
    """A relation the exact reader rejects: floating point away from ties, sympy at a tie."""

    def __init__(self, rel, symbols):
        self.rel, self.symbols = rel, symbols
        self.syms = sorted(rel.free_symbols, key=str)
        self.names = [str(x) for x in self.syms]
        self.diff, self.memo = None, {}
        if isinstance(rel, sympy.core.relational.Relational) and rel.rel_op != "==":
            self.diff = sympy.lambdify(self.syms, rel.lhs - rel.rhs, "math")

    def __call__(self, env):
        key = tuple(env[x] for x in self.names)
        if key not in self.memo:
            self.memo[key] = self._decide(env)
        return self.memo[key]

    def _decide(self, env):
        if self.diff is not None:
            try:
                d = float(self.diff(*(float(env[x]) for x in self.names)))
            except (ValueError, ZeroDivisionError, KeyError, OverflowError, TypeError):
                d = None
            if d is not None and abs(d) > 1e-9:
                return {"<=": d < 0, "<": d < 0, ">=": d > 0, ">": d > 0, "!=": True}[self.rel.rel_op]
        v = self.rel.subs({self.symbols[n]: sympy.Rational(x.numerator, x.denominator) for n, x in env.items()
                           if n in self.symbols})
        try:
            return bool(v)
        except TypeError:
            return False


def declared_names(cert, base):
    """``base`` (name -> symbol, e.g. a lemma's own N and T) with each other symbol the certificate declares under
    ``symbols`` (an integer one an integer symbol, any other real), so that its domain and values read whatever
    parameters the claim states as symbols (the matrix's k1, k2, ...); an undeclared name stays unreadable."""
    names = dict(base)
    for name, kind in (cert.get("symbols") or {}).items():
        if name not in names:
            names[name] = sympy.Symbol(name, integer=True) if kind == "integer" else sympy.Symbol(name, real=True)
    return names


def conditions_over(conditions, symbols):
    """The conditions whose free symbols are among ``symbols``: the others constrain only symbols a lemma's statement
    does not mention, and leaving a hypothesis out only makes the statement re-checked stronger."""
    allowed = set(symbols)
    return [c for c in conditions if getattr(c, "free_symbols", set()) <= allowed]
