"""Divergence-based privacy definitions of differential-privacy accounting and of closeness, declared once each
(:mod:`implgraph.definitions.divergences` computes their exact levels).

Local forms compare every two records' distributions (both ways), as eps-LDP (ekenstedt2022, Definition 6); central
forms compare the table's mean with the mean of the table without one record (both ways), as ``dp``; closeness
compares every equivalence class with the table. Renyi orders are the parameter ``alpha`` (a rational > 1, or oo:
the largest log ratio, so ``renyi-ldp(alpha=oo)`` is ``ldp``); the hockey-stick is taken at gamma = e^eps, where its
largest value is the least delta of (eps, delta) privacy.

References whose definition number was not checked against the paper say so.

The central total variation and hockey-stick are at most 1/N on N records (P - Q_i = (x_i - Q_i)/N, and the
hockey-stick at gamma >= 1 is at most the total variation): their scale ``removal-distance`` declares that weakest
level, 1/N, attained by one record (1, 0) beside N - 1 records (0, 1).
"""

from __future__ import annotations

import sympy

from implgraph.definitions.base import register
from implgraph.definitions.divergences import Divergence, DivergenceDefinition

_RECORDS = "the records of ekenstedt2022, Definition 6"
_MIRONOV = "Mironov, Renyi differential privacy, IEEE CSF 2017 ((alpha, eps)-RDP; definition number not checked)"
_KL = ("Barber and Duchi, Privacy and statistical risk: formalisms and minimax bounds, arXiv:1412.4451, 2014 "
       "(KL-privacy; definition number not checked)")
_TV = ("(0, delta)-DP: Dwork and Roth, The algorithmic foundations of differential privacy, 2014, Definition 2.4, "
       "eps = 0")
_DELTA = ("the least delta of (eps, delta)-DP (Dwork and Roth 2014, Definition 2.4) as the hockey-stick divergence "
          "E_{e^eps} (Barthe and Olmedo, ICALP 2013; Balle, Barthe and Gaboardi, NeurIPS 2018; definition numbers "
          "not checked)")
_ALPHA = {"alpha": "the Renyi order, a rational > 1 or oo"}


class _RenyiOrder:
    """The Renyi order as a parameter: stated 2 in the matrix and in discover."""

    params = _ALPHA
    ranges = {"alpha": (1, "oo")}
    level_symbol = "d"

    def param_values(self, N):
        return [{"alpha": sympy.Integer(2)}]


class _EpsGamma:
    """The hockey-stick's eps (gamma = e^eps): stated log 2 (gamma = 2) in the matrix and in discover."""

    params = {"eps": "the eps of (eps, delta) privacy, a real >= 0"}
    ranges = {"eps": (0, "oo")}
    level_symbol = "delta"

    def param_values(self, N):
        return [{"eps": sympy.log(2)}]


@register
class KLLDP(DivergenceDefinition):
    name = "kl-ldp"
    title = "KL local privacy"
    level_symbol = "d"
    model = "dp"
    reference = f"{_KL}; between every two records, {_RECORDS}"
    level = Divergence("kl", compares="pairs")


@register
class KLDP(DivergenceDefinition):
    name = "kl-dp"
    title = "KL privacy (record removal)"
    level_symbol = "d"
    model = "dp"
    reference = f"{_KL}; the table against the table without one record, as dp"
    level = Divergence("kl", compares="removal")


@register
class RenyiLDP(_RenyiOrder, DivergenceDefinition):
    name = "renyi-ldp"
    title = "Renyi local privacy of order alpha"
    model = "dp"
    label_format = "({alpha})-Renyi-LDP"
    reference = f"{_MIRONOV}; between every two records, {_RECORDS}"
    level = Divergence("renyi", order="alpha", compares="pairs")


@register
class RenyiDP(_RenyiOrder, DivergenceDefinition):
    name = "renyi-dp"
    title = "Renyi privacy of order alpha (record removal)"
    model = "dp"
    label_format = "({alpha})-Renyi-DP"
    reference = f"{_MIRONOV}; the table against the table without one record, as dp"
    level = Divergence("renyi", order="alpha", compares="removal")


@register
class TVLDP(DivergenceDefinition):
    name = "tv-ldp"
    title = "total-variation local privacy"
    level_symbol = "delta"
    model = "dp"
    reference = f"{_TV}; between every two records, {_RECORDS}"
    level = Divergence("tv", compares="pairs")


@register
class KLCloseness(DivergenceDefinition):
    name = "kl-closeness"
    title = "KL closeness"
    level_symbol = "d"
    model = "closeness"
    reference = ("Li, Li and Venkatasubramanian, t-closeness, ICDE 2007, Section 4 (KL named as a distance); "
                 "Rebollo-Monedero, Forne and Domingo-Ferrer, From t-closeness-like privacy to postrandomization via "
                 "information theory, IEEE TKDE 22(11), 2010")
    level = Divergence("kl", compares="class")


@register
class RenyiCloseness(_RenyiOrder, DivergenceDefinition):
    name = "renyi-closeness"
    title = "Renyi closeness of order alpha"
    model = "closeness"
    reference = ("no canonical reference: the Renyi divergence of order alpha (Renyi 1961) as the distance of "
                 "t-closeness (Li, Li and Venkatasubramanian, ICDE 2007); at alpha = oo, log(1 + beta) of basic "
                 "beta-likeness")
    level = Divergence("renyi", order="alpha", compares="class")


@register
class DeltaLDP(_EpsGamma, DivergenceDefinition):
    name = "delta-ldp"
    title = "the least delta of (eps, delta)-LDP"
    model = "dp"
    label_format = "({eps},δ)-LDP"
    reference = f"{_DELTA}; between every two records, {_RECORDS}"
    level = Divergence("hockey-stick", order="exp(eps)", compares="pairs")


@register
class TVDP(DivergenceDefinition):
    name = "tv-dp"
    title = "total-variation privacy (record removal)"
    level_symbol = "delta"
    model = "dp"
    reference = f"{_TV}; the table against the table without one record, as dp"
    level = Divergence("tv", compares="removal")


@register
class DeltaDP(_EpsGamma, DivergenceDefinition):
    name = "delta-dp"
    title = "the least delta of (eps, delta)-DP (record removal)"
    model = "dp"
    label_format = "({eps},δ)-DP"
    reference = f"{_DELTA}; the table against the table without one record, as dp"
    level = Divergence("hockey-stick", order="exp(eps)", compares="removal")


@register
class ZcdpLDP(DivergenceDefinition):
    name = "zcdp-ldp"
    title = "zero-concentrated local privacy"
    level_symbol = "rho"
    model = "dp"
    reference = ("Bun and Steinke, Concentrated differential privacy: simplifications, extensions, and lower bounds, "
                 f"TCC 2016, Definition 1.1 with xi = 0 (rho-zCDP); between every two records, {_RECORDS}")
    level = Divergence("zcdp", compares="pairs")


@register
class ZcdpDP(DivergenceDefinition):
    name = "zcdp-dp"
    title = "zero-concentrated privacy (record removal)"
    level_symbol = "rho"
    model = "dp"
    reference = ("Bun and Steinke, Concentrated differential privacy: simplifications, extensions, and lower bounds, "
                 "TCC 2016, Definition 1.1 with xi = 0 (rho-zCDP); the table against the table without one record, "
                 "as dp")
    level = Divergence("zcdp", compares="removal")
