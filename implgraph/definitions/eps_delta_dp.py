"""(eps, delta)-differential privacy with record removal (C. Dwork, K. Kenthapadi, F. McSherry,
I. Mironov, M. Naor, Our data, ourselves: privacy via distributed noise generation, EUROCRYPT 2006,
Section 2; C. Dwork, A. Roth, The algorithmic foundations of differential privacy, 2014,
Definition 2.4), on the record model of ekenstedt2022 Definition 5.

For every record i and every output event B (a union of buckets):
``P(B) <= e^eps Q_i(B) + delta`` and ``Q_i(B) <= e^eps P(B) + delta``, with P the table's
distribution and Q_i the distribution after removing record i. The level is the smallest eps for
the stated delta (:mod:`implgraph.definitions._eps_delta`); with delta = 0 it is eps-DP's.
"""

from implgraph.definitions import _eps_delta as ed
from implgraph.definitions.base import Definition, register


@register
class EpsDeltaDP(Definition):
    name = "eps-delta-dp"
    title = "(eps,delta)-DP"
    level_symbol = "eps"
    scale = "log"
    stronger = "smaller"
    params = ed.PARAMS
    ranges = ed.RANGES
    reference = ("Dwork, Kenthapadi, McSherry, Mironov, Naor, EUROCRYPT 2006; Dwork and Roth 2014, Definition 2.4; "
                 "record removal as ekenstedt2022, Definition 5")
    model = "dp"
    label_format = "(ε,{delta})-DP"

    def check_params(self, table, params):
        return ed.check_delta(self.name, params)

    def param_values(self, N):
        return [{"delta": ed.as_fraction("1/10")}]

    def symbolic(self, ctx, table, delta):
        return ed.dp_symbolic(ctx, table, delta)

    def concrete(self, ct, delta):
        return ed.dp_concrete(ct, delta)

    def lf_terms(self, N, sizes, p, delta):
        return ed.dp_terms(N, p, delta)
