"""A certificate's sides against the definitions registry: the declarations the checker reads itself.

The lemmas read a side's description (family, sides, subset size, distance, slack, ...) off the certificate; where a
side names a registered definition, :func:`registered_steps` checks that the description is the one the definition
declares, so that a certificate cannot describe a definition as something it is not. The registry is read here
(:mod:`implgraph.definitions`), never the prover.
"""

from __future__ import annotations

from fractions import Fraction

from implgraph.certify.expr import Unreadable, read_sympy

__all__ = ["registered", "registered_steps", "declared_min_class", "declared_family", "declared_sides",
           "declared_divergences"]


def registered(name):
    """The registered definition called ``name``, or None (not registered here, or no name)."""
    from implgraph import definitions
    try:
        return definitions.get(name) if name else None
    except Exception:       # an unknown name (a plugin not installed here)
        return None


def declared_divergences(cert):
    """``(A's, B's)`` divergences as their registered definitions declare them at the certificate's parameters
    (:func:`implgraph.definitions.divergences.divergence_of`; None for a side that is not registered or declares
    none)."""
    from implgraph.definitions.divergences import divergence_of
    out = []
    for k in ("A", "B"):
        side = cert.get(k) or {}
        d = registered(side.get("definition") or "")
        out.append(None if d is None else divergence_of(d, side.get("params")))
    return tuple(out)


def declared_family(d):
    """The record sets the definition ``d``'s level compares, by its declarations
    (:func:`implgraph.definitions.capabilities.family_of`), or None (no definition, or none declared)."""
    from implgraph.definitions.capabilities import family_of
    return None if d is None else family_of(d)


def declared_sides(d):
    """The sides of the definition ``d``'s declared ratio level (``"two-sided"``, ``"one-sided"``), or None."""
    from implgraph.definitions.capabilities import RatioLevel
    ratio = None if d is None else d.declared(RatioLevel)
    return None if ratio is None else ratio.sides


def declared_min_class(A, B, rd):
    """``[(what, ok)]`` where the certificate says A's registered definition makes a parameter a minimum class size
    (``A["min_class_param"]``): the registry must declare it, and both sides' class sizes be that parameter's value."""
    name = A.get("min_class_param")
    if name is None:
        return []
    from implgraph.definitions.capabilities import MinClassSize
    d = registered(A.get("definition"))
    value = (A.get("params") or {}).get(name)
    declared = None if d is None else d.declared(MinClassSize)
    ok = (declared is not None and declared.param == name and value is not None
          and all(side.get("family") != "class" or (side.get("max_class") is None
                                                    and rd.poly(side.get("min_class") or "1") == rd.poly(str(value)))
                  for side in (A, B)))
    return [(f"A's registered definition declares {name} a minimum class size, the sides' class size", ok)]


def registered_steps(cert) -> list:
    """``[(what, ok, how)]``: each side naming a registered definition is described as that definition
    declares it (family and sides): the lemmas read the description, so it must be the claim's. A side
    without a name, or naming a definition not registered here (a plugin not installed), is taken as given."""
    from implgraph.definitions.capabilities import AdditiveSlack, ClassSizeLevel, FiniteLevelOf
    out = []
    for label in ("A", "B"):
        side = cert.get(label) or {}
        name = side.get("definition")
        if not name:
            continue
        d = registered(name)
        if d is None:
            out.append((f"{label} ({name}) as registered", True, "not registered here: the description is taken as given"))
            continue
        finite, slack = d.declared(FiniteLevelOf), d.declared(AdditiveSlack)
        ok = (side.get("family") == declared_family(d) and side.get("sides") == declared_sides(d)
              and bool(side.get("class_size_level")) == d.has(ClassSizeLevel)
              and _uniform_as_registered(side, d)
              and side.get("finite_level_of") == (None if finite is None else finite.name)
              and side.get("increase_cap") == (None if finite is None else finite.increase_cap)
              and set(side.get("params") or {}) <= set(getattr(d, "params", {}) or {})
              and (side.get("slack") or {}).get("compares") == (None if slack is None else slack.compares)
              and _tail_ratio_as_registered(side, d)
              and (not side.get("slack") or _same_number(side["slack"].get("delta"), (side.get("params") or {}).get("delta"))))
        size_ok, size_how = _registered_size(side, d, cert.get("domain") or (), cert.get("symbols") or ())
        distance_ok, distance_how = _registered_distance(side, d)
        out.append((f"{label} ({name}) as registered", ok and size_ok and distance_ok,
                    f"family {side.get('family')}, sides {side.get('sides')} (declared: "
                    f"{declared_family(d)}, {declared_sides(d)}){size_how}{distance_how}"))
    return out


def _uniform_as_registered(side, d) -> bool:
    """A side's ``uniform_class_level`` (the raw level of a class uniform over m values) is the registered
    definition's, identically in m, and present exactly where the definition's declared class level improves strictly
    with m (:func:`implgraph.definitions.class_bounds.uniform_values`)."""
    import sympy
    from implgraph.definitions.class_bounds import M, uniform_class_raw, uniform_values
    given = side.get("uniform_class_level")
    if uniform_values(d, sympy.Symbol("T", positive=True)) is None:
        return given is None
    try:
        return given is not None and sympy.simplify(read_sympy(given, {"m": M}) - uniform_class_raw(d)) == 0
    except (Unreadable, TypeError, SyntaxError):
        return False


def _tail_ratio_as_registered(side, d) -> bool:
    """A side's ``tail_ratio`` is its registered definition's declared parameter (its ``TailRatio``) at the side's
    value, and present exactly where the definition declares one."""
    from implgraph.definitions.capabilities import TailRatio
    tail = d.declared(TailRatio)
    name = None if tail is None else tail.param
    if name is not None and name not in (side.get("params") or {}):
        return False        # the declared parameter is the level's own: a side without it is not the definition
    if side.get("tail_ratio") is None:
        return name is None
    return name is not None and _same_number(side["tail_ratio"], (side.get("params") or {}).get(name))


def _same_number(a, b) -> bool:
    """Are two texts the same rational number (a slack's delta and the side's parameter)?"""
    try:
        return Fraction(str(a)) == Fraction(str(b))
    except (ValueError, ZeroDivisionError):
        return False


def _registered_distance(side, d):
    """``(ok, how)``: a side's ``distance`` is the one the registered definition declares at the side's parameters
    (its ``ClassDistance``; the lemma and the family's level read it off the certificate)."""
    from implgraph.definitions.capabilities import ClassDistance
    try:
        distance = d.declared(ClassDistance)
        declared = None if distance is None else distance.at(
            {k: str(v) for k, v in (side.get("params") or {}).items()}, d.words)
    except Exception as exc:        # a parameter the declaration does not take: not the registered one
        return False, f"; distance unreadable: {exc.__class__.__name__}"
    if side.get("distance") is None and declared is None:
        return True, ""
    return side.get("distance") == declared, f"; distance {side.get('distance')} (declared: {declared})"


def _registered_size(side, d, domain=(), symbols=()):
    """``(ok, how)``: a subset side's ``size`` is the registered definition's ``SubsetSize`` at the side's
    parameters (the lemmas read the size off the certificate), identically or after the domain's equations
    (``Eq(N, 4)`` pins N - 3 to 1); the texts read by the whitelist parser over the certificate's ``symbols``."""
    if side.get("family") != "subset":
        return True, ""
    import sympy

    from implgraph.definitions.capabilities import SubsetSize
    N = sympy.Symbol("N", integer=True)
    try:
        names = {"N": N, **{str(k): sympy.Symbol(str(k)) for k in symbols if str(k) != "N"}}
        params = {k: read_sympy(v, names) for k, v in (side.get("params") or {}).items()}
        size = d.declared(SubsetSize)
        declared = None if size is None else size.size(N, params)
        given = read_sympy(side.get("size"), names)
        pins = {}
        for c in domain:
            rel = read_sympy(c, names)
            if isinstance(rel, sympy.Equality) and isinstance(rel.lhs, sympy.Symbol) and rel.rhs.is_number:
                pins[rel.lhs] = rel.rhs
        ok = declared is not None and sympy.simplify((sympy.sympify(declared) - given).subs(pins)) == 0
    except Exception as exc:        # an unreadable size or parameter: not the registered one
        return False, f"; size unreadable: {exc.__class__.__name__}"
    return ok, f"; size {side.get('size')} (declared: {declared})"
