"""The exact zero-concentrated level of two distributions: sup over alpha > 1 of D_alpha(x || y)/alpha.

Bun and Steinke (TCC 2016, Def. 1.1 with xi = 0) call a pair rho-zCDP when D_alpha(x || y) <= rho alpha for every
order alpha > 1; the least such rho is ``rho*(x || y) = sup_{alpha > 1} D_alpha(x || y)/alpha``. Write t = alpha - 1
and Z = log(x_l/y_l) under x (the buckets where x_l > 0). Then sum_l x_l^alpha y_l^(1 - alpha) = E_x[e^(t Z)], so
(alpha - 1) D_alpha = K(t), the cumulant generating function of Z, and

    rho* = sup_{t > 0} G(t),   G(t) = K(t)/(t (1 + t)).

Facts used (each elementary): K(0) = 0, K'(0) = E_x[Z] = KL(x || y) >= 0, K is convex (K'' is the variance of Z under
the tilted weights x_l e^(t Z_l)/E_x[e^(t Z)]), so K and K' are nondecreasing on t >= 0 and K(t)/t is nondecreasing
(the slope of a convex function's secant from 0). Hence G(t) -> KL as t -> 0, and G(t) <= D_oo/(1 + t) with
D_oo = max Z (D_alpha <= D_oo), so G(t) <= KL for t >= D_oo/KL - 1.

The supremum is either the limit KL at t -> 0 or a value at an interior critical point. :func:`zcdp_between` decides
which, rigorously (interval arithmetic, :mod:`mpmath.iv`, every quantity an enclosure):

- **Hoeffding's lemma** first: with R the range of Z, K(t) <= KL t + t^2 R^2/8, so G(t) <= (KL + t R^2/8)/(1 + t)
  <= max(KL, R^2/8): where R^2/8 <= KL the supremum is the limit KL, and where R^2/8 is within the enclosure's
  tolerance of KL (two nearly equal distributions) [KL, R^2/8] is the enclosure.
- **the limit** (randomized response is such a pair): rho* = KL exactly when F(t) = K(t) - KL t (1 + t) <= 0 for every
  t > 0. On [0, h]: F(0) = F'(0) = 0 and F'' = K'' - 2 KL <= 0 when an enclosure of K'' there is at most 2 KL
  (K''(t) <= E_w[(Z - c)^2] for any c, each term of numerator and denominator bounded at its own end of [0, h]); on
  [h, t_max] an enclosure of F on each piece [a, b] is negative: K(t) <= K(b) and KL t (1 + t) >= KL a (1 + a), or the
  centred form F(m) + F'([a, b]) [a - m, b - m] (pieces split until one holds; past :data:`_MOST_PIECES` pieces, or a
  piece narrower than :data:`_NARROWEST`, the limit is not shown); beyond t_max = D_oo/KL - 1, G <= KL. The level is
  then KL(x || y), an exact closed form.
- **an interior maximum** (or a limit not shown): branch and bound over [0, t_max]. On a piece [a, b]: G <= (K(b)/b)/
  (1 + a) (K(t)/t nondecreasing); for a > 0 the slope's numerator N(t) = t (1 + t) K'(t) - (1 + 2 t) K(t) (G' =
  N/(t (1 + t))^2) in centred form, N(m) + N'([a, b]) [a - m, b - m] with N' = t (1 + t) K'' - 2 K over the whole
  piece: where it has one sign G is monotone and its largest value is at an end, and otherwise
  G <= G(m) + max |N| (b - a)/(2 (a (1 + a))^2), whose error falls with the square of the width near a maximum. Pieces
  whose upper end is below the best value found (the limit KL, or G at a piece's midpoint) are dropped; the rest are
  halved until the enclosure has :data:`_DIGITS` digits. The level is the exact number :class:`ZcdpSup` (x, y) with
  that rational enclosure.

Examples
--------
>>> from fractions import Fraction as F
>>> zcdp_between((F(2, 3), F(1, 3)), (F(1, 3), F(2, 3)))          # randomized response at eps = log 2: the KL value
log(2)/3
>>> v = zcdp_between((F(1, 100), F(99, 100)), (F(1, 10000), F(9999, 10000)))
>>> v.expr.func.__name__, v.lo < v.hi, float(v.lo) > float(zcdp_kl((F(1, 100), F(99, 100)), (F(1, 10000), F(9999, 10000))))
('ZcdpSup', True, True)
"""

from __future__ import annotations

import contextlib
import functools
from fractions import Fraction

import sympy
from mpmath import iv, mp

from implgraph.core.concrete import INF, Enclosed

__all__ = ["zcdp_between", "zcdp_kl", "ZcdpSup", "enclose"]

#: digits of the rational enclosure of an interior supremum
_DIGITS = 30
#: the narrowest piece of [h, t_max] split while showing F < 0 (below it the limit is not shown: the level is then
#: enclosed as an interior supremum, still exact)
_NARROWEST = Fraction(1, 10 ** 12)
#: the most pieces examined by one branch and bound (a bound on time and memory, whatever the input)
_MOST_PIECES = 5_000


def zcdp_kl(x, y):
    """KL(x || y) = sum_l x_l log(x_l/y_l) as exact sympy (0 where x = y; INF where some x_l > 0 = y_l)."""
    if any(a > 0 and b == 0 for a, b in zip(x, y)):
        return INF
    terms = [sympy.Rational(a.numerator, a.denominator)
             * sympy.log(sympy.Rational(a.numerator, a.denominator) / sympy.Rational(b.numerator, b.denominator))
             for a, b in zip(x, y) if a > 0]
    return sympy.Add(*terms)


def zcdp_between(x, y):
    """rho*(x || y) = sup_{alpha > 1} D_alpha(x || y)/alpha for two distributions of Fractions (module notes).

    Returns
    -------
    Fraction(0) where x = y on x's support, INF where some x_l > 0 = y_l, exact sympy KL(x || y) where the supremum is
    the limit at alpha -> 1, else an :class:`~implgraph.core.concrete.Enclosed` :class:`ZcdpSup` with a rational
    enclosure.
    """
    x, y = tuple(Fraction(a) for a in x), tuple(Fraction(b) for b in y)
    if any(a > 0 and b == 0 for a, b in zip(x, y)):
        return INF
    if all(a == b for a, b in zip(x, y) if a > 0):
        return Fraction(0)
    lo, hi, at_limit = _supremum(_support(x, y))
    if at_limit:
        return zcdp_kl(x, y)
    return Enclosed(ZcdpSup(_as_tuple(x), _as_tuple(y)), lo, hi, _DIGITS)


def enclose(x, y, digits=_DIGITS):
    """A rational enclosure ``(lo, hi)`` of rho*(x || y) to ``digits`` digits (x != y on x's support, finite)."""
    lo, hi, _ = _supremum(_support(tuple(x), tuple(y)), digits)
    return lo, hi


# -- the sympy number -------------------------------------------------------------------------------------------------

class ZcdpSup(sympy.Function):
    """The exact real number sup_{alpha > 1} D_alpha(x || y)/alpha of two rational distributions ``x``, ``y`` (sympy
    Tuples), where it is not the limit at alpha -> 1: numerical values to any precision from the rigorous enclosure
    (:func:`enclose`), as sympy's ``CRootOf`` gives a polynomial's root."""

    is_real = True
    is_positive = True
    is_finite = True
    #: a real constant (its arguments are tuples of rationals, which sympy does not count as numbers: without this
    #: the re-check of a level, engines/recheck.raw_level, refused every table where the level is this supremum)
    is_number = True

    @classmethod
    def eval(cls, x, y):
        return None

    def _eval_evalf(self, prec):
        digits = int(prec * 0.30103) + 5
        x, y = (tuple(Fraction(int(v.p), int(v.q)) for v in t) for t in self.args)
        lo, hi = enclose(x, y, digits)
        mid = (lo + hi) / 2
        return sympy.Float(sympy.Rational(mid.numerator, mid.denominator), digits)

    def _sympystr(self, printer):
        x, y = self.args
        return f"zcdp({', '.join(map(str, x))} || {', '.join(map(str, y))})"


def _as_tuple(v):
    return sympy.Tuple(*[sympy.Rational(a.numerator, a.denominator) for a in v])


# -- the branch and bound (module notes) ------------------------------------------------------------------------------

def _support(x, y):
    """((x_l, y_l) for x_l > 0): the terms of E_x[e^(t Z)]."""
    return tuple((a, b) for a, b in zip(x, y) if a > 0)


class _Pair:
    """K(t) and K'(t) of one pair as interval enclosures, KL and D_oo as rational ends."""

    def __init__(self, terms):
        self.w = [_iv(a) for a, _ in terms]
        self.z = [iv.log(_iv(a) / _iv(b)) for a, b in terms]
        self.kl_iv = sum((w * z for w, z in zip(self.w, self.z)), iv.mpf(0))
        self.kl = _lo(self.kl_iv)                      # a lower end of KL
        self.top = iv.mpf(max(_hi(z) for z in self.z))  # an upper end of D_oo
        self.bottom = iv.mpf(min(_lo(z) for z in self.z))  # a lower end of the smallest log ratio

    def K(self, t):
        t = _iv(t)
        return iv.log(sum((w * iv.exp(t * z) for w, z in zip(self.w, self.z)), iv.mpf(0)))

    def dK(self, t):
        t = _iv(t)
        e = [w * iv.exp(t * z) for w, z in zip(self.w, self.z)]
        return sum((v * z for v, z in zip(e, self.z)), iv.mpf(0)) / sum(e, iv.mpf(0))

    def d2K_upper(self, h: Fraction):
        """An upper end of K'' on [0, h]: K''(t) <= E_w[(Z - KL)^2] under the tilted weights, each numerator term
        w e^(t z) (z - KL)^2 at most its value with e^(h max(z, 0)), each denominator term at least w e^(h min(z, 0))."""
        hh = _iv(h)
        num = sum((w * iv.exp(hh * iv.mpf(max(_hi(z), 0))) * (z - self.kl_iv) ** 2 for w, z in zip(self.w, self.z)),
                  iv.mpf(0))
        den = sum((w * iv.exp(hh * iv.mpf(min(_lo(z), 0))) for w, z in zip(self.w, self.z)), iv.mpf(0))
        return _hi(num / den)


def _iv(q):
    if isinstance(q, Fraction):
        return iv.mpf(q.numerator) / q.denominator
    return iv.mpf(q)


def _exact(v) -> Fraction:
    """An end (a binary floating-point number, exact) as a rational; for the result's enclosure only (a level's
    size: the branch and bound compares ends as they are, whatever their exponents)."""
    sign, man, exp, _ = v._mpf_
    r = Fraction(man) * (Fraction(2) ** exp)
    return -r if sign else r


def _lo(v):
    """The lower end of an interval: an exact binary floating-point number (compared exactly)."""
    return mp.make_mpf(v._mpi_[0])


def _hi(v):
    """The upper end of an interval: an exact binary floating-point number (compared exactly)."""
    return mp.make_mpf(v._mpi_[1])


@contextlib.contextmanager
def _precision(dps):
    """mpmath's interval context at ``dps`` digits, restored after (it has no ``workdps``)."""
    saved = iv.dps
    iv.dps = dps
    try:
        yield
    finally:
        iv.dps = saved


@functools.lru_cache(maxsize=4096)
def _supremum(terms, digits=_DIGITS):
    """``(lo, hi, at_limit)``: a rational enclosure of sup_t G(t), and whether it is shown to be the limit KL. Computed
    at ``digits + 25`` digits, and again at twice as many (up to :data:`_MOST_DIGITS`) where that is too few to tell
    KL from 0 or to narrow the enclosure (two distributions nearly equal: KL is about the square of their gap)."""
    dps = digits + 25
    while True:
        try:
            return _supremum_at(terms, digits, dps)
        except _TooFewDigits as e:
            dps = max(2 * dps, e.needed)
            if dps > _MOST_DIGITS:
                raise ArithmeticError("zcdp: KL not told from 0 within the most digits") from None


#: the most digits of the interval arithmetic (beyond: an ArithmeticError)
_MOST_DIGITS = 2000
#: the fewest digits an enclosure may have when the branch and bound reaches :data:`_MOST_PIECES` (fewer: an error)
_FEWEST_DIGITS = 12


class _TooFewDigits(ArithmeticError):
    """The working precision cannot tell KL from 0, or leaves too few digits of it (``needed``: enough)."""

    def __init__(self, text, needed=0):
        super().__init__(text)
        self.needed = needed


def _supremum_at(terms, digits, dps):
    with _precision(dps):
        pair = _Pair(terms)
        if pair.kl <= 0:
            raise _TooFewDigits("zcdp: KL not shown positive")
        needed = digits + 25 + max(0, int(-mp.log10(pair.kl)) + 1)      # digits below KL's own size
        if needed > dps:
            raise _TooFewDigits("zcdp: KL small against the working precision", needed)
        # Hoeffding's lemma: K(t) <= KL t + t^2 R^2/8 with R the range of Z, so G(t) <= (KL + t R^2/8)/(1 + t), which
        # lies between KL and R^2/8: the supremum is KL where R^2/8 <= KL, and within [KL, R^2/8] always
        hoeffding = _hi((iv.mpf(pair.top) - iv.mpf(pair.bottom)) ** 2 / 8)
        if hoeffding <= pair.kl:
            return _exact(_lo(pair.kl_iv)), _exact(_hi(pair.kl_iv)), True
        if hoeffding - pair.kl <= mp.mpf(10) ** (-digits - 2) * pair.kl:
            return _exact(pair.kl), _exact(hoeffding), False
        t_max = max(Fraction(1), _dyadic_above(_exact(_hi(pair.top / pair.kl_iv - 1))))
        if _limit_shown(pair, t_max):
            return _exact(_lo(pair.kl_iv)), _exact(_hi(pair.kl_iv)), True
        lo, hi = _interior(pair, t_max, digits)
        return _exact(lo), _exact(hi), False


def _limit_shown(pair, t_max) -> bool:
    """F(t) = K(t) - KL t (1 + t) <= 0 for every t > 0 (module notes)."""
    h = Fraction(1)
    while pair.d2K_upper(h) > 2 * pair.kl:
        h /= 2
        if h < Fraction(1, 1 << 20):
            return False
    todo, seen = ([(h, t_max)] if h < t_max else []), 0
    while todo:
        a, b = todo.pop()
        seen += 1
        if seen > _MOST_PIECES:
            return False
        if _F_negative(pair, a, b):
            continue
        if b - a < _NARROWEST:
            return False
        m = _split(a, b)
        todo += [(a, m), (m, b)]
    return True


def _F_negative(pair, a: Fraction, b: Fraction) -> bool:
    """F(t) = K(t) - KL t (1 + t) < 0 on all of [a, b] (a > 0): K(t) <= K(b) and KL t (1 + t) >= KL a (1 + a), or the
    centred form F(m) + F'([a, b]) [a - m, b - m] with F' = K' - KL (1 + 2 t) over the whole piece (its error falls with
    the width times t, where F itself falls like t^2: pieces about as wide as they are far from 0 suffice)."""
    if _hi(pair.K(b) - pair.kl_iv * _iv(a) * (1 + _iv(a))) < 0:
        return True
    m = (a + b) / 2
    M, T = _iv(m), iv.mpf([_iv(a).a, _iv(b).b])
    e = [w * iv.exp(T * z) for w, z in zip(pair.w, pair.z)]
    dK = sum((v * z for v, z in zip(e, pair.z)), iv.mpf(0)) / sum(e, iv.mpf(0))
    F = pair.K(m) - pair.kl_iv * M * (1 + M) + (dK - pair.kl_iv * (1 + 2 * T)) * iv.mpf([_iv(a - m).a, _iv(b - m).b])
    return _hi(F) < 0


def _interior(pair, t_max, digits):
    """Branch and bound for sup_{0 < t <= t_max} G(t) (module notes); every other t has G <= KL <= the result. A piece
    whose upper end is within the tolerance of the best value found is settled (its upper end kept for the enclosure,
    not split further): where G is flat over a wide range of orders (two nearly equal distributions) every piece is."""
    best = pair.kl                        # the limit at 0: approached, at most the supremum
    pieces, seen, settled = [(Fraction(0), t_max)], 0, []
    tol = mp.mpf(10) ** (-digits - 2)
    while pieces:
        kept = []
        for a, b in pieces:
            seen += 1
            sign, up, mid = _piece(pair, a, b)
            best = max(best, mid)
            if up <= best:
                continue
            if sign:                      # G monotone on [a, b]: its largest value is at one end
                best = max(best, _G_lo(pair, a if sign < 0 else b))
                continue
            kept.append((a, b, up))
        settled += [up for a, b, up in kept if up - best <= tol * best]
        kept = [(a, b) for a, b, up in kept if up - best > tol * best]
        if seen > _MOST_PIECES and kept:      # the enclosure reached, if narrow enough
            top = max(settled + [_piece(pair, a, b)[1] for a, b in kept] + [best])
            if top - best <= mp.mpf(10) ** -_FEWEST_DIGITS * best:
                return best, top
            raise ArithmeticError("zcdp: the enclosure did not narrow within the piece limit")
        pieces = [half for a, b in kept for half in ((a, _split(a, b)), (_split(a, b), b))]
    return best, max(settled + [best])


def _piece(pair, a: Fraction, b: Fraction):
    """``(sign, upper, lower)`` on [a, b]: the sign of G' there where shown (0 otherwise), an upper end of G there and
    a lower end of G at the midpoint (0 where a = 0).

    For a > 0 the slope's numerator N(t) = t (1 + t) K'(t) - (1 + 2 t) K(t) is enclosed in centred form,
    N(m) + N'([a, b]) [a - m, b - m] with N' = t (1 + t) K''(t) - 2 K(t) evaluated over the whole piece; G' = N/(t (1 + t))^2,
    so G <= G(m) + max |N| (b - a)/2 / (a (1 + a))^2 (the error falls with the square of the width near a maximum);
    also G <= (K(b)/b)/(1 + a) (K(t)/t nondecreasing), the only bound used where a = 0."""
    first = _hi(pair.K(b) / (_iv(b) * (1 + _iv(a))))
    if a == 0:
        return 0, first, mp.mpf(0)
    m = (a + b) / 2
    T = iv.mpf([_iv(a).a, _iv(b).b])
    e = [w * iv.exp(T * z) for w, z in zip(pair.w, pair.z)]
    S = sum(e, iv.mpf(0))
    mu = sum((v * z for v, z in zip(e, pair.z)), iv.mpf(0)) / S
    K2 = sum((v * (z - mu) ** 2 for v, z in zip(e, pair.z)), iv.mpf(0)) / S
    dN = T * (1 + T) * K2 - 2 * iv.log(S)
    N = _N(pair, m) + dN * iv.mpf([_iv(a - m).a, _iv(b - m).b])
    sign = -1 if _hi(N) < 0 else 1 if _lo(N) > 0 else 0
    M = _iv(m)
    Gm = pair.K(m) / (M * (1 + M))
    A = _iv(a)
    centred = Gm + iv.mpf(max(abs(_lo(N)), abs(_hi(N)))) * _iv((b - a) / 2) / (A * (1 + A)) ** 2
    return sign, min(first, _hi(centred)), _lo(Gm)


def _G_lo(pair, t: Fraction):
    T = _iv(t)
    return _lo(pair.K(t) / (T * (1 + T)))


def _N(pair, t: Fraction):
    T = _iv(t)
    return T * (1 + T) * pair.dK(t) - (1 + 2 * T) * pair.K(t)


def _split(a: Fraction, b: Fraction) -> Fraction:
    """The midpoint, or 2 a where b is far above a > 0 (a wide range of t split geometrically)."""
    if a > 0 and b > 4 * a:
        return 2 * a
    return (a + b) / 2


def _dyadic_above(v: Fraction) -> Fraction:
    """A short rational at least v (a multiple of 1/1024)."""
    return Fraction(-((-v.numerator * 1024) // v.denominator), 1024)
