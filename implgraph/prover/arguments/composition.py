"""``composition``: A => C with h, C => B with g, hence A => B with g(h) (docs/arguments/composition.md).

The first part says that every table whose A raw level is at most T has C's raw level at most h(T); the
second, for every threshold t >= C's most private raw level (and the claim's conditions on N and the
parameters, nothing else on t), that every table whose C raw level is at most t has B's raw level at most
g(t). A table with A <= T has C <= h(T), so (taking t = h(T), which is at least C's own level, hence at
least C's most private level) B <= g(h(T)). No monotonicity of g is needed: the second part holds at every
threshold. The composed bound is an upper bound only; where a table family read from the sides' declarations attains
it, :func:`implgraph.prover.arguments.attained_family.attach` adds that (the bound's ``exact``, method
``attained-family``: the composition's certificate stays the upper bound's).

The intermediate C is any registered definition whose raw levels are bounded from above (smaller is stronger),
other than A and B, tried in the registry's order, at each assignment of its parameters: a parameter B states under the
same name takes B's value, else one A states takes A's (e.g. alpha = 2, delta = A's delta), else each value C
declares (its word default such as ``ground=equal``, or its ``param_values`` where they are the same at every N); a
C that compares classes takes B's classes (A's where B compares none), the same partition in both parts. The first C
whose two parts are both proved by a direct argument (:func:`implgraph.prover.search.tight_bound`, each part a
single certificate) gives the bound; where a bound ``beat`` is given (B's ceiling, by the prover where that is the
only bound), a C whose composed bound is at least it everywhere is passed over. The certificate records C with its
parameters (``via``), and the checker re-checks each part at them.

Two intermediates (depth 2) are tried only where no one intermediate gives a bound and no ``beat`` is given (so no
claim that one intermediate decides changes), and only among definitions of the privacy model A and B both declare
(``model``; a narrower search, never a reason to claim more): C as above with C => B a direct argument and A => C none, and A => C
itself a composition through one intermediate C' (A => C' and C' => C direct; the C' where A => C' is direct are
found first, so that only their C' => C are asked). Its proof is the one above twice: a table with A <= T has
C' <= h'(T) (the first part's first part); C' => C holds at every threshold t >= C''s most private level, and h'(T) is
one, so C <= g'(h'(T)) = h(T); C => B holds at every threshold too, and h(T) is one, so B <= g(h(T)). The
certificate's first part is then a ``composition`` certificate of its own, re-checked (recursively) as such by the
checker, and its Coq theorem is proved before the whole's, which applies it like any first part. The bound is an upper
bound only, as through one intermediate. Nothing is composed deeper, and a second part is never a composition.

For example kl-dp => delta-ldp(eps=log 2): kl-dp => tv-dp by Pinsker (h' = sqrt(d/2)), tv-dp => tv-ldp (between two
records x_i - x_k = (N - 1)(Q_k - Q_i) with Q_i the mean without record i: g'(t) = min(1, 2 (N - 1) t)), then
tv-ldp => delta-ldp(eps=log 2) (the hockey stick at 2 is at most the total variation: g(t) = t), so
f = min(1, sqrt(2 d) (N - 1)). Where it is 1 (delta-ldp's weakest level) it is attained for N >= 3 and
d >= log((N - 1)^2/(N (N - 2)))/2, the kl-dp level of the table (1, 0), (0, 1) and N - 2 records (1/2, 1/2), whose
delta-ldp level is 1 (log(1 + 1/(N (N - 2))) >= 1/(N - 1)^2 gives f = 1 there): :func:`attach` adds it, the
``weakest-pair`` family of ``attained-family``, tight there only.
"""

from __future__ import annotations

from typing import NamedTuple

import sympy

from implgraph import definitions
from implgraph.core import methods
from implgraph.core.errors import InputError
from implgraph.core.formula import Word
from implgraph.core.region import Region
from implgraph.core.simplified import simplified
from implgraph.prover.answer import Bound, T
from implgraph.prover.arguments.attained_family import attach
from implgraph.prover.registry import certificate_parts
from implgraph.prover.shapes import decide, lowest_raw

METHOD = methods.COMPOSITION
#: where the prover tries it (it has no handler of its own)
TRIED = ("by the prover (`engines/prove.py`) where no direct argument applies and no small table refutes the claim, "
         "before the bounded check; through two intermediates only where one gives nothing")

__all__ = ["composed_bound", "part_region", "Via"]


class Via(NamedTuple):
    """The intermediate C of a composition: its definition, its parameters and its classes (the same in both
    parts)."""

    definition: object
    params: dict
    classes: object


def part_region(region, c):
    """The second part's region: the claim's conditions that do not mention T, and T >= C's most private level."""
    kept = [x for x in region.constraints if T not in sympy.sympify(x).free_symbols]
    return Region(region.kinds, tuple(kept)).add(sympy.Ge(T, lowest_raw(c)))


def _decide_positive_T(region, relation):
    """:func:`decide` on the region with A's raw level T > 0 stated (T is positive by its declaration, so the
    condition T > 0 is read as true and dropped from a region; it is put back here on a real T)."""
    real_T = sympy.Symbol("T_real", real=True)
    kinds = {k: v for k, v in region.kinds.items() if k != T}
    kinds[real_T] = region.kinds.get(T, "real")
    kept = tuple(sympy.sympify(x).subs(T, real_T) for x in region.constraints)
    return decide(Region(kinds, kept + (sympy.Gt(real_T, 0),)), relation.subs(T, real_T))


#: the second parts found, C => B (they do not depend on A): at most _SECOND_SIZE of them, the oldest dropped
_SECOND: dict = {}
_SECOND_SIZE = 4096


def _second_part(c, b, c_params, b_params, region, N, c_classes, b_classes, beat):
    """The second part C => B as one certificate (:func:`_single`), remembered; None where there is none, or where it
    is at least ``beat`` at every threshold (no first part can then bring the composition below ``beat``)."""
    from implgraph.prover.search import tight_bound

    def found():
        try:
            return _single(tight_bound(c, b, c_params, b_params, region, N, c_classes, b_classes))
        except InputError:      # a value outside C's range
            return None
    second = _remembered(_SECOND, _part_key(c, c_params, b, b_params, region, N, c_classes, b_classes), found)
    if second is None or (beat is not None and _decide_positive_T(region, sympy.Ge(second.upper, beat)) is True):
        return None
    return second


def _key(params):
    return tuple(sorted((k, str(v)) for k, v in params.items()))


def _part_key(x, x_params, y, y_params, region, N, x_classes, y_classes):
    """The key of a part X => Y in :data:`_SECOND` or :data:`_FIRST`."""
    return (x.name, _key(x_params), y.name, _key(y_params), str(region.kinds), str(region.constraints), str(N),
            repr(x_classes), repr(y_classes))


def _remembered(store, key, compute):
    """``store[key]``, computed by ``compute()`` the first time; at most :data:`_SECOND_SIZE` kept, the oldest
    dropped."""
    if key not in store:
        if len(store) >= _SECOND_SIZE:
            store.pop(next(iter(store)))
        store[key] = compute()
    return store[key]


#: arguments whose certificate is a claim of its own, not one bound between two levels that a part states: a minimum
#: or chain of bounds, and the binary program (the optimum of a program piece by piece, whose kernel theorem states
#: the whole claim: a composition through it could not be kernel-checked)
NOT_A_PART = (methods.MIN.name, methods.CHAIN.name, methods.BINARY_PROGRAM.name)


def _single(bound):
    """The part's bound as one certificate: the bound itself (no pieces, an argument that states one bound; a bound
    capped from N >= n0 records on, its bound without the cap), else None."""
    if bound is not None and bound.uncapped is not None:
        bound = bound.uncapped
    if bound is None or bound.parts or bound.method in NOT_A_PART:
        return None
    return bound


def _declared_values(c, name):
    """The values C declares for its parameter ``name`` (the same at every N: its ``param_values``, else its word
    default), or None where they depend on N or none is declared."""
    if name in c.words:
        return [Word(c.words[name])]
    if not hasattr(c, "param_values"):
        return None
    grids = [[g.get(name) for g in c.param_values(n)] for n in (2, 3)]
    if grids[0] != grids[1] or any(v is None for v in grids[0]):
        return None
    return grids[0]


def _param_choices(c, a, b, a_params, b_params):
    """C's parameter assignments: each parameter at B's value where B states one of that name, else A's, else each
    value C declares (:func:`_declared_values`); None where a parameter has none of these."""
    choices = [{}]
    for name in c.params:
        if name in b.params and name in b_params:
            values = [b_params[name]]
        elif name in a.params and name in a_params:
            values = [a_params[name]]
        else:
            values = _declared_values(c, name)
        if not values:
            return []
        choices = [dict(ch, **{name: v}) for ch in choices for v in values]
    return choices


def _classes_of(c, a, b, a_classes, b_classes):
    """C's classes (the same partition in both parts): B's where B compares classes, else A's; ``(False, None)`` where
    A and B both compare classes under different specifications."""
    if not c.needs_classes:
        return True, None
    if a.needs_classes and b.needs_classes and (a_classes or None) != (b_classes or None):
        return False, None
    return True, (b_classes if b.needs_classes else a_classes)


def _candidates(a, b, a_params, b_params, a_classes, b_classes):
    """``(C, C's params, C's classes)`` in the registry's order: every definition other than A and B whose raw level
    is bounded from above (smaller is stronger), at each parameter assignment of :func:`_param_choices`."""
    for name in definitions.names():
        c = definitions.get(name)
        if c.name in (a.name, b.name) or c.stronger != "smaller":
            continue
        ok, c_classes = _classes_of(c, a, b, a_classes, b_classes)
        if not ok:
            continue
        for c_params in _param_choices(c, a, b, a_params, b_params):
            yield c, c_params, c_classes


def composed_bound(a, b, a_params, b_params, region, N, a_classes=None, b_classes=None, beat=None):
    """A :class:`Bound` of method ``composition`` (parts: A => C and C => B; ``via`` the :class:`Via` C), or None.

    ``beat``: a bound already proved (B's ceiling); an intermediate whose composed bound is at least it everywhere
    on the region is passed over. Without ``beat``, where no one intermediate gives a bound, two are tried
    (:func:`_through_two`: the first part itself a composition)."""
    found = _through_one(a, b, a_params, b_params, region, N, a_classes, b_classes, beat)
    if found is None and beat is None:
        found = _through_two(a, b, a_params, b_params, region, N, a_classes, b_classes)
    return None if found is None else attach(found, a, b, a_params, b_params, a_classes, b_classes, region, N)


def _through_one(a, b, a_params, b_params, region, N, a_classes, b_classes, beat, first_first=False, model=None):
    """The first intermediate C whose two parts are direct arguments (module notes), its bound not attached.

    ``first_first``: the first part A => C asked first, the second only where there is one (:func:`_through_two`
    asks this of every C with the same A: A => C is then remembered, and most C => B are not needed). ``model``: only
    intermediates that declare this privacy model."""
    from implgraph.prover.search import tight_bound
    for c, c_params, c_classes in _candidates(a, b, a_params, b_params, a_classes, b_classes):
        if model is not None and c.model != model:
            continue
        # (by default) the second part first: it does not depend on A and is remembered, and where nothing bounds B
        # through C the first part (often the costlier search) is not needed
        try:
            if first_first:
                first = _single(tight_bound(a, c, a_params, c_params, region, N, a_classes, c_classes))
                if first is None:
                    continue
            second = _second_part(c, b, c_params, b_params, part_region(region, c), N, c_classes, b_classes, beat)
            if second is None:
                continue
            if not first_first:
                first = _single(tight_bound(a, c, a_params, c_params, region, N, a_classes, c_classes))
        except InputError:      # a value outside C's range
            continue
        found = _composed(first, second, c, c_params, c_classes, region, beat)
        if found is not None:
            return found
    return None


#: the first parts through one intermediate found by :func:`_through_two`, A => C (at most _SECOND_SIZE of them)
_FIRST: dict = {}


def _through_two(a, b, a_params, b_params, region, N, a_classes, b_classes):
    """Two intermediates: A => C a composition through one intermediate (:func:`_through_one`, remembered), then
    C => B a direct argument; C's where A => C has a direct argument are passed over (:func:`_through_one` tried
    them). Both intermediates declare the privacy model A and B declare (none is tried where theirs differ: the
    search stays among definitions of one model, so that it asks few A => C' and C' => C). Its bound not attached."""
    from implgraph.prover.search import tight_bound
    if a.model != b.model:
        return None
    for c, c_params, c_classes in _candidates(a, b, a_params, b_params, a_classes, b_classes):
        if c.model != a.model:
            continue
        second = _second_part(c, b, c_params, b_params, part_region(region, c), N, c_classes, b_classes, None)
        if second is None:
            continue
        try:
            if _single(tight_bound(a, c, a_params, c_params, region, N, a_classes, c_classes)) is not None:
                continue
            first = _remembered(_FIRST, _part_key(a, a_params, c, c_params, region, N, a_classes, c_classes),
                                lambda: _through_one(a, c, a_params, c_params, region, N, a_classes, c_classes, None,
                                                     first_first=True, model=a.model))
        except InputError:      # a value outside C's range
            continue
        found = _composed(first, second, c, c_params, c_classes, region, None)
        if found is not None:
            return found
    return None


def _composed(first, second, c, c_params, c_classes, region, beat):
    """The composition of ``first`` (A => C) and ``second`` (C => B), or None where h is not shown a threshold the
    second part covers, or (with ``beat``) where it is at least ``beat`` everywhere."""
    # h must lie where the second part holds: at least C's most private raw level, and above it where that is 0
    # (C's raw level is a positive symbol: the second part's certificate states T > 0, and nothing is proved at
    # C's level 0 itself)
    least = lowest_raw(c)
    if first is None or _decide_positive_T(region, sympy.Gt(first.upper, least) if least == 0
                                           else sympy.Ge(first.upper, least)) is not True:
        return None
    upper = simplified(second.upper.subs(T, first.upper))
    if beat is not None and _decide_positive_T(region, sympy.Ge(upper, beat)) is True:
        return None
    label = c.name + (f"({', '.join(f'{k}={v}' for k, v in c_params.items())})" if c_params else "")
    arg = (f"A => {label} ({first.method}): {first.argument}; then {label} => B ({second.method}), at every "
           f"threshold of {label}'s raw level: {second.argument}; a table with A's raw level <= T has {label}'s "
           f"<= h(T) = {first.upper}, so B's raw level <= g(h(T)) = {upper} (an upper bound; tightness not "
           "derived)")
    return Bound(upper, False, METHOD.name, arg, checks=first.checks + second.checks,
                 parts=[(sympy.true, first), (sympy.true, second)], via=Via(c, c_params, c_classes))


@certificate_parts(METHOD, whole=True)
def composition_certificate(a, b, a_params, b_params, a_classes, b_classes, region, N, bound):
    """Its two parts' certificates (the second on C's own region: the claim's conditions without T, and T >= C's most
    private level) and U = the second's bound at T = the first's."""
    from implgraph.prover.certificate import FORMAT, certificate, symbols_and_domain
    c, c_params, c_classes = bound.via
    (_, first), (_, second) = bound.parts
    parts = [certificate(a, c, a_params, c_params, a_classes, c_classes, region, N, first),
             certificate(c, b, c_params, b_params, c_classes, b_classes, part_region(region, c), N, second)]
    kinds, domain = symbols_and_domain(region, [*a_params.values(), *b_params.values()])
    return {"format": FORMAT, "method": METHOD.name, "symbols": kinds, "domain": domain, "A": parts[0]["A"],
            "B": parts[1]["B"], "via": parts[0]["B"], "upper": str(bound.upper), "tight": False,
            "argument": bound.argument, "parts": parts, "tightness": None,
            "tightness_note": "U, the second part's bound at the first part's, is an upper bound only"}
