"""(eps, delta)-local differential privacy (S. P. Kasiviswanathan, H. K. Lee, K. Nissim,
S. Raskhodnikova, A. Smith, What can we learn privately?, FOCS 2008 / SIAM J. Comput. 2011,
Definition 2.2 with the approximate slack of Dwork and Roth 2014, Definition 2.4), on the record
model of ekenstedt2022 Definition 6.

For every ordered pair of records i, j and every output event B (a union of buckets):
``x_i(B) <= e^eps x_j(B) + delta``. The level is the smallest eps for the stated delta
(:mod:`implgraph.definitions._eps_delta`); with delta = 0 it is eps-LDP's.
"""

from implgraph.definitions import _eps_delta as ed
from implgraph.definitions.base import register
from implgraph.definitions.capabilities import AdditiveSlack


@register
class EpsDeltaLDP(ed.EpsDeltaDefinition):
    name = "eps-delta-ldp"
    title = "(eps,delta)-LDP"
    reference = ("Kasiviswanathan, Lee, Nissim, Raskhodnikova, Smith, FOCS 2008, Definition 2.2, with the "
                 "slack delta of Dwork and Roth 2014, Definition 2.4; records as ekenstedt2022, Definition 6")
    label_format = "(ε,{delta})-LDP"
    views = (ed.ldp_symbolic, ed.ldp_concrete, ed.ldp_terms)
    declares = (AdditiveSlack("pairs", "delta"),)
