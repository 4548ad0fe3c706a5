"""Exact re-check of tables: every witness any engine reports passes here first.

A table is checked with each definition's own exact level (:func:`raw_level`: its ``concrete``
method, else the core's :func:`implgraph.definitions.levels.optimal_level`), never with a solver's view of
it. :func:`is_witness` is the one test of "A holds at level a and B is weaker than f(a)" (or "A
finite, B infinite") used by check-edge, the refuter and the prover.
"""

from __future__ import annotations

from fractions import Fraction

import sympy

from implgraph.core.concrete import INF
from implgraph.core.errors import InputError

__all__ = ["PluginError", "raw_level", "is_plugin", "is_witness", "weaker", "witness_dict", "level_str",
           "strongest_raw", "is_degenerate", "weakest_raw"]


class PluginError(InputError):
    """A plugin raised or returned something that is not a level."""


def _call_view(node_def, view, func, *args, **params):
    """``func(*args, **params)``, one of a definition's views: an exception of a plugin's view becomes a
    PluginError naming the definition and the view; an exception of a built-in is an engine bug, never hidden."""
    try:
        return func(*args, **params)
    except InputError:
        raise
    except Exception as exc:
        if not is_plugin(node_def):
            raise
        raise PluginError(f"definition {node_def.name} raised {exc.__class__.__name__}: {exc}",
                          fix=f"fix the plugin's {view} method") from None


def raw_level(node_def, params, ct):
    """The definition's own exact raw level on a concrete table (Fraction, INF or None).

    A plugin that raises, or returns something that is not a level, gives a :class:`PluginError`.
    """
    from implgraph.definitions.levels import optimal_level
    name = node_def.name
    if node_def.concrete is not None and not (node_def.needs_classes and ct.classes is None):
        raw = _call_view(node_def, "concrete", node_def.concrete, ct, **params)
        if raw is None:
            return None
        if raw == INF:
            return INF
        if isinstance(raw, sympy.Basic):
            if raw is sympy.oo:
                return INF
            if not raw.is_Rational:
                raise PluginError(f"definition {name} returned {raw!r}, not a level",
                                  fix="return a Fraction, math.inf or None from concrete()")
            raw = Fraction(int(raw.p), int(raw.q))
        if isinstance(raw, bool) or not isinstance(raw, (int, Fraction)):
            raise PluginError(f"definition {name} returned {raw!r}, not a level",
                              fix="return a Fraction, math.inf or None from concrete()")
        raw = Fraction(raw)
    else:
        lv = _call_view(node_def, "symbolic", optimal_level, ct, node_def, **params)
        if not lv.defined:
            return None
        value = sympy.sympify(lv.pieces[0].value) if len(lv.pieces) == 1 else None
        if value is sympy.oo:
            return INF
        enclosure = _enclosure(node_def, lv, value)
        if value is None or not value.is_number or (enclosure is None and (value.is_real is not True
                                                                           or value.is_finite is not True)):
            raise PluginError(f"definition {name} returned {value!r}, not a level",
                              fix="return a real number, oo, or None from symbolic()")
        if not value.is_Rational:
            raw_min = node_def.level_scale.raw_min
            if raw_min is not None and not (enclosure is not None and enclosure.lo >= raw_min) and value < raw_min:
                raise PluginError(f"definition {name} returned the negative ratio {value}, not a level",
                                  fix="return a ratio >= 0")
            _in_declared_range(node_def, value, ct.N, enclosure)
            return value            # an exact irrational level (e.g. a logarithm): kept symbolic
        raw = Fraction(int(value.p), int(value.q))
    if node_def.level_scale.raw_min is not None and raw < node_def.level_scale.raw_min:
        raise PluginError(f"definition {name} returned the negative ratio {raw}, not a level",
                          fix="return a ratio >= 0")
    _in_declared_range(node_def, raw, ct.N)
    return raw


def weakest_raw(d, N=None):
    """The raw value of ``d``'s weakest level (the level its scale declares every table of ``N`` records to satisfy:
    oo for a ratio, 1 for a count or a distance, 1/N for a removal distance; without ``N``, every table of every N),
    as sympy."""
    return sympy.sympify(d.raw_from_level(d.weakest(N)))


def _enclosure(d, lv, value):
    """The rational enclosure ``lo <= value <= hi`` a built-in definition's irrational level carries (a real, finite
    number between two rationals: the comparisons of the re-check read it instead of evaluating ``value``), or None
    (a plugin's level is checked by sympy alone)."""
    enc = getattr(lv, "enclosure", None)
    if enc is None or is_plugin(d) or value is None or enc.expr is not value and enc.expr != value:
        return None
    return enc


def _in_declared_range(d, raw, N=None, enclosure=None) -> None:
    """A finite raw level must be at least as strong as ``d``'s weakest level: the scale declares that every table
    meets it at ``N`` records (a count is >= 1, a distance <= 1, a removal distance <= 1/N), and a trivial implication
    (f = B's weakest level) rests on it. A plugin's level outside the range is its error (:class:`PluginError`,
    naming it); a built-in's is an engine bug.
    ``enclosure`` (rationals ``lo <= raw <= hi``) decides the comparison where it lies on one side of the weakest
    level."""
    w = weakest_raw(d, N)
    if w is sympy.oo or raw == INF:
        return
    if enclosure is not None and w.is_Rational:
        wf = Fraction(int(w.p), int(w.q))
        if (enclosure.hi <= wf) if d.stronger == "smaller" else (enclosure.lo >= wf):
            return
    value = raw if isinstance(raw, sympy.Basic) else sympy.Rational(raw.numerator, raw.denominator)
    outside = bool(value > w) if d.stronger == "smaller" else bool(value < w)
    if not outside:
        return
    side = "above" if d.stronger == "smaller" else "below"
    what = (f"definition {d.name} returned the level {d.level_from_raw(value)}, {side} its {d.scale} scale's weakest "
            f"level {d.weakest(N)} (a level every table meets)")
    if not is_plugin(d):
        raise RuntimeError(what + ": a bug in the definition")
    bound = "at most" if d.stronger == "smaller" else "at least"
    raise PluginError(what, fix=f"return levels {bound} {d.weakest(N)} from the plugin (its declared scale {d.scale}: "
                                f"the weakest level is met by every table), or declare another scale")


def is_plugin(d) -> bool:
    """A definition from outside the package (its errors are the plugin's, reported as such)."""
    return not type(d).__module__.startswith("implgraph.")


def is_witness(a_def, a_params, b_def, b_params, ct, a_raw=None, f_raw=None) -> bool:
    """Exact re-check of a witness table against A => B.

    Without ``f_raw``: A's level is finite (defined) and B's is infinite. With ``a_raw`` and
    ``f_raw`` (raw values): the table satisfies A at raw level ``a_raw`` and B's raw level is weaker
    than ``f_raw``.
    """
    ra = raw_level(a_def, a_params, ct)
    rb = raw_level(b_def, b_params, ct)
    if ra is None or rb is None:
        return False
    if f_raw is None:
        return ra != INF and rb == INF
    a_ok = ra <= a_raw if a_def.stronger == "smaller" else ra >= a_raw
    return bool(a_ok and weaker(b_def, rb, f_raw))


def weaker(b_def, rb, f_raw) -> bool:
    if rb == INF:
        return f_raw != sympy.oo
    rb_s = rb if isinstance(rb, sympy.Basic) else sympy.Rational(rb.numerator, rb.denominator)
    return bool(rb_s > f_raw) if b_def.stronger == "smaller" else bool(rb_s < f_raw)


def witness_dict(ct, a_def, a_params, b_def, b_params, extra=None):
    ra = raw_level(a_def, a_params, ct)
    rb = raw_level(b_def, b_params, ct)
    out = {"rows": [[str(v) for v in r] for r in ct.to_rows()],
           "classes": None if ct.classes is None else [str(c) for c in ct.classes],
           "level_a": level_str(a_def, ra), "level_b": level_str(b_def, rb)}
    out.update(extra or {})
    return out


def level_str(d, raw):
    if raw is None:
        return "undefined"
    if raw == INF:
        return "oo"
    if isinstance(raw, sympy.Basic):
        return str(d.level_from_raw(raw))
    return str(d.level_from_raw(sympy.Rational(raw.numerator, raw.denominator)))


def strongest_raw(d):
    """The raw level of the most private table (1 for a ratio, 0 for a distance), or None (a count)."""
    return d.level_scale.best_raw


def is_degenerate(b_def, f_raw) -> bool:
    """Is ``f_raw`` stronger than every level B can have (e.g. t < 1, eps < 0)? Not a valid level."""
    best = strongest_raw(b_def)
    if best is None:
        return False
    best = sympy.Rational(best.numerator, best.denominator)
    return bool(f_raw < best) if b_def.stronger == "smaller" else bool(f_raw > best)
