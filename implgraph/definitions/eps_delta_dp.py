"""(eps, delta)-differential privacy with record removal (C. Dwork, K. Kenthapadi, F. McSherry,
I. Mironov, M. Naor, Our data, ourselves: privacy via distributed noise generation, EUROCRYPT 2006,
Section 2; C. Dwork, A. Roth, The algorithmic foundations of differential privacy, 2014,
Definition 2.4), on the record model of ekenstedt2022 Definition 5.

For every record i and every output event B (a union of buckets):
``P(B) <= e^eps Q_i(B) + delta`` and ``Q_i(B) <= e^eps P(B) + delta``, with P the table's
distribution and Q_i the distribution after removing record i. The level is the smallest eps for
the stated delta (:mod:`implgraph.definitions._eps_delta`); with delta = 0 it is eps-DP's. Every table of
N >= 1/delta records is at eps = 0 (declared ``StrongestFrom``: P(E) - Q_i(E) = (x_i(E) - Q_i(E))/N lies in
[-1/N, 1/N]).
"""

from implgraph.definitions import _eps_delta as ed
from implgraph.definitions.base import register
from implgraph.definitions.capabilities import AdditiveSlack
from implgraph.definitions.capability_strongest import StrongestFrom


@register
class EpsDeltaDP(ed.EpsDeltaDefinition):
    name = "eps-delta-dp"
    title = "(eps,delta)-DP"
    reference = ("Dwork, Kenthapadi, McSherry, Mironov, Naor, EUROCRYPT 2006; Dwork and Roth 2014, Definition 2.4; "
                 "record removal as ekenstedt2022, Definition 5")
    label_format = "(ε,{delta})-DP"
    views = (ed.dp_symbolic, ed.dp_concrete, ed.dp_terms)
    declares = (AdditiveSlack("removal", "delta"),
                StrongestFrom("1/delta", "P(E) - Q_i(E) = (x_i(E) - Q_i(E))/N, so |P(E) - Q_i(E)| <= 1/N <= delta "
                              "on every event once N >= 1/delta"))
