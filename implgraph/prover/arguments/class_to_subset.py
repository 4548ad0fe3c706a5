"""``class-to-subset``: a removal bounded by the mass of the classes (docs/arguments/class-to-subset.md).

A a two-sided class level with classes of >= s records (default s = 1; no maximum class size), B a two-sided subset
level of size j_B = N - 1 on the whole condition (record removal): ``U = (N - 1) T / s``, tight
(:mod:`implgraph.engines.class_subset`, docs/proofs/class-to-subset.md); for j_B <= N - 2 the supremum is infinite
(not handled here).
"""

from __future__ import annotations

from implgraph.core import methods
from implgraph.engines.class_subset import class_to_subset
from implgraph.prover.answer import Bound, T, final
from implgraph.prover.parts import two_classes
from implgraph.prover.registry import argument, certificate_parts
from implgraph.prover.shapes import at_least_one, compares, decide

METHOD = methods.CLASS_TO_SUBSET


@argument(METHOD, order=190, applies=lambda ctx: compares(ctx.a, "class") and ctx.jb is not None)
def bound(ctx):
    return final(class_to_subset(ctx.a_classes, ctx.jb, ctx.region, ctx.N, T=T, decide=decide, Bound=Bound,
                                 at_least_one=at_least_one))


def _class_mass_family(A):
    """The table of docs/proofs/class-to-subset.md, c = 1/(T (N T + 1)): class E1 of N - s records (one
    at (N T - s) c, N - s - 1 at 0), class E2 of s records at c."""
    s_ = f"({A.get('min_class', '1')})"
    return [{"count": "1", "value": f"(N*T - {s_})/(T*(N*T + 1))", "class": "E1"},
            {"count": f"N - {s_} - 1", "value": "0", "class": "E1"},
            {"count": s_, "value": "1/(T*(N*T + 1))", "class": "E2"}]


#: the multipliers of ``class-mass``'s identities (the checker's fact names)
_CLASS_MASS_MULTIPLIERS = {
    "lower": {"T*L >= N - e": "1", "N - e - s >= 0": "1"},
    "upper": {"T - 1 >= 0": "(N - 1)**2", "N - 2s >= 0": "N/2", "1": "(N**2 - 4*N + 2)/2"},
    "pair": {"N - 2s >= 0": "T/2", "N - 2 == 0": "T/2"}}


@certificate_parts(METHOD, family=lambda cert, ctx: {"blocks": _class_mass_family(cert["A"])})
def upper_certificate(cert, ctx):
    s_ = cert["A"].get("min_class", "1")
    two_classes(cert, s_)
    cert["upper_certificate"] = {"lemma": METHOD.lemma, "multipliers": {
        k: dict(v) for k, v in _CLASS_MASS_MULTIPLIERS.items()}}
