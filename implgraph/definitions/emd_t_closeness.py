"""t-closeness with the earth mover's distance (Li et al. 2007; domingo-ferrer2015 Def. 1;
sei2019 Definitions 4-5).

Every equivalence class's bucket distribution Q is within EMD t of the table's distribution P.
Ground distance ``equal`` (d_ij = 1 for i != j): EMD = (1/2) sum_l |Q_l - P_l|. Ground distance
``ordered`` (d_ij = |i - j| / (p - 1)): EMD = (1/(p-1)) sum_i |sum_{j<=i} (Q_j - P_j)|.
Undefined (None) on a table without equivalence classes.
"""


from fractions import Fraction

import sympy

from implgraph.core.errors import InputError
from implgraph.definitions._classes import largest_class_distance
from implgraph.definitions.capabilities import ClassDistance
from implgraph.definitions.capability_grounds import GroundDistances
from implgraph.definitions.base import Definition, register
from implgraph.core.simplified import simplified

#: the ground distances, each with its cost d(i, j) over K values (indices from 0): both metrics, which the
#: closeness of sei2019's set channel rests on (its certificate names them, and the checker proves each a metric)
GROUND_DISTANCES = GroundDistances("ground", (("equal", "Piecewise((0, Eq(i, j)), (1, True))"),
                                              ("ordered", "Abs(i - j)/(K - 1)")))
GROUNDS = GROUND_DISTANCES.names()


def _emd(diffs, ground, absf):
    p = len(diffs)
    if ground == "equal":
        return sum((absf(d) for d in diffs), 0) / 2
    acc, out = 0, 0
    for d in diffs[:-1]:
        acc = acc + d
        out = out + absf(acc)
    return out / (p - 1)


@register
class EMDTCloseness(Definition):
    name = "emd-t-closeness"
    title = "t-closeness (EMD)"
    level_symbol = "t"
    scale = "distance"
    stronger = "smaller"
    params = {"ground": "ground distance: equal or ordered"}
    words = {"ground": "equal"}
    reference = "Li et al. 2007; domingo-ferrer2015 Definition 1; sei2019 Definitions 4-5"
    #: under the equal ground distance the EMD of a class is the total variation distance
    declares = (ClassDistance("total-variation", where={"ground": "equal"}), GROUND_DISTANCES)
    model = "closeness"

    def lf_terms(self, N, sizes, p, ground="equal"):
        """The EMD of every class against the table as a maximum of linear forms (check-edge, prove)."""
        from implgraph.definitions.families import LFModel, emd_terms
        if not sizes:
            return None
        return LFModel(emd_terms(N, sizes, p, str(ground)), Fraction(0))

    def check_params(self, table, params):
        params = dict(params)
        params.setdefault("ground", self.words["ground"])
        if str(params["ground"]) not in GROUNDS:
            raise InputError(f"ground distance {params['ground']!r}", fix="use equal or ordered")
        extra = set(params) - {"ground"}
        if extra:
            raise InputError(f"{self.name} has no parameter(s) {', '.join(sorted(extra))}",
                             fix="its only parameter is ground")
        return {"ground": str(params["ground"])}

    def symbolic(self, ctx, table, ground="equal"):
        if not table.has_classes:
            return None
        n = table.size
        totals = [sum((b.probs[l] * b.count for b in table.blocks), sympy.Integer(0)) / n for l in range(table.p)]
        worst = sympy.Integer(0)
        for blocks in table.classes.values():
            size = sum((b.count for b in blocks), sympy.Integer(0))
            q = [sum((b.probs[l] * b.count for b in blocks), sympy.Integer(0)) / size for l in range(table.p)]
            d = _emd([simplified(q[l] - totals[l]) for l in range(table.p)], ground, ctx.abs)
            worst = ctx.max([worst, simplified(d)])
        return worst

    def concrete(self, ct, ground="equal"):
        """The largest class EMD: ``equal`` sums ``|Q_l - P_l|`` over the buckets (halved), ``ordered``
        the cumulative differences over the first ``p - 1`` prefixes (over ``p - 1``)."""
        if ground == "equal":
            return largest_class_distance(ct, [(l,) for l in range(ct.p)], 2)
        return largest_class_distance(ct, [tuple(range(i + 1)) for i in range(ct.p - 1)], ct.p - 1)
