"""The checker's own registry of lemmas: one module per lemma, registered under its proof method.

Every certificate names a ``method`` (a constant of :mod:`implgraph.core.methods`, the module the prover imports
too); the checker re-checks it with the :class:`Lemma` registered under that method here, and with nothing the
prover computed. The modules of this package register their lemmas when :func:`load` imports them (every module of
the package, found on disk: adding a proof method is adding one module here and nothing else in
:mod:`implgraph.certify`). A lemma is one of two kinds:

- **a bound between two levels** (``structure`` and ``obligations``): the certificate says that B's raw level is at
  most ``upper`` on every table whose A raw level is at most T, on its ``domain``. The common re-check
  (:func:`implgraph.certify.kernel.check_bound`) reads the sides against the registry, asks ``structure`` what the
  certificate must contain (its sides and U, as ``[(what, ok)]``), decides every
  :class:`~implgraph.certify.obligation.Obligation` that ``obligations`` derives from the statement and the
  certificate's data, and checks the tightness family (:mod:`implgraph.certify.family`) where it claims tightness;
- **a claim of its own** (``check``): the lemma re-checks the whole certificate itself and returns a
  :class:`~implgraph.certify.report.CertificateReport` (the claims other than a bound between two levels, composite
  certificates, the lemma chains).

How a lemma registers
---------------------
A bound between two levels: two functions and one call at the module's end::

    from implgraph.certify.lemmas import lemma
    from implgraph.certify.obligation import Obligation, upper_is
    from implgraph.core import methods

    def structure(cert, A, B, rd):            # what the certificate must contain: [(what, ok)]
        return [("A is pairwise", A.get("family") == "pairwise"),
                ("U = T", upper_is(cert, rd, rd.gens["T"], 1))]

    def obligations(cert, A, B, rd, data):    # what is re-checked: [Obligation]
        return [Obligation("T - 1 >= 0", rd.gens["T"] - 1)]

    lemma(methods.CHORD, structure=structure, obligations=obligations)

``cert`` is the certificate (JSON), ``A`` and ``B`` its sides, ``rd`` the :class:`~implgraph.certify.expr.Reader` of
its symbols (``rd.poly``, ``rd.ratio``, ``rd.gens``: N, T, the parameters and the lemma variables of
:data:`implgraph.certify.obligation.VARIABLES`), ``data`` its ``upper_certificate`` (multipliers, by the names the
obligations give their facts). A claim of its own: decorate its check::

    @lemma(methods.TRANSPORT_MIXTURE, describe=describe)
    def check(cert, ns=range(2, 13), timeout_ms=4000) -> CertificateReport: ...

The parameters of a lemma are those of :func:`lemma` (and the fields of :class:`Lemma`).

Examples
--------
>>> from implgraph.certify.lemmas import get
>>> from implgraph.core import methods
>>> get(methods.VERTEX.name).name, get(methods.VERTEX.name).kind
('linear-fractional-vertex', 'bound')
>>> get("no-such-method") is None
True
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Callable

from implgraph.core import methods as _methods

__all__ = ["Lemma", "REGISTRY", "LEMMAS", "lemma", "register", "get", "load", "describe"]


@dataclass(frozen=True)
class Lemma:
    """A lemma of the checker, registered under its proof method.

    Attributes
    ----------
    method : implgraph.core.methods.Method
        The proof method it checks.
    structure, obligations, check, describe, claim, bound, b_side, every_partition, own_partitions
        As the parameters of :func:`lemma`.
    """

    method: _methods.Method
    structure: Callable | None = None
    obligations: Callable | None = None
    check: Callable | None = None
    describe: Callable | None = None
    claim: tuple | None = None
    bound: Callable | None = None
    b_side: Callable | None = None
    every_partition: str | None = None
    own_partitions: bool = False

    @property
    def name(self) -> str:
        """The lemma's name (the method's ``lemma``, as a certificate's ``upper_certificate["lemma"]`` gives it)."""
        return self.method.lemma

    @property
    def kind(self) -> str:
        """``"bound"`` (a bound between two levels, the common re-check) or ``"claim"`` (its own check)."""
        return "bound" if self.structure is not None else "claim"


#: ``{method name: Lemma}``: every registered lemma
REGISTRY: dict = {}
#: ``{method name: check}`` of the lemmas that describe their certificates themselves (``implgraph certificate
#: --text`` prints :func:`describe`)
LEMMAS: dict = {}


def register(lm: Lemma) -> Lemma:
    """Register ``lm`` under its method's name (module notes for the errors)."""
    name = lm.method.name
    if _methods.ALL.get(name) is not lm.method:
        raise ValueError(f"lemma for {name!r}: not a method of implgraph.core.methods")
    if name in REGISTRY:
        raise ValueError(f"lemma for {name!r}: registered twice")
    if (lm.structure is None) == (lm.check is None):
        raise ValueError(f"lemma for {name!r}: give either structure (a bound between two levels) or check")
    REGISTRY[name] = lm
    if lm.describe is not None:
        LEMMAS[name] = lm.check
    return lm


def lemma(method, **parts):
    """Register the checker's lemma for a proof method (module notes).

    Parameters
    ----------
    method : implgraph.core.methods.Method or str
        The proof method (its ``name`` is the certificate's ``method``; its ``lemma`` the name a certificate's
        ``upper_certificate["lemma"]`` must give), or its name (the constant of :mod:`implgraph.core.methods`).
    structure : callable, optional
        A bound between two levels: ``structure(cert, A, B, rd) -> [(what, ok)]``, what the certificate must
        contain (its sides, U, the integers it relies on).
    obligations : callable, optional
        With ``structure``: ``obligations(cert, A, B, rd, data) -> [Obligation]``, what is re-checked (none: the
        structure is the whole argument, e.g. ``same-level``).
    describe : callable, optional
        ``describe(cert) -> [str]``: the certificate in words (``implgraph certificate --text``).
    claim : (str, callable), optional
        A certificate of a claim other than an edge: the claim kind it states (``"level"``, ``"math"``) and
        ``steps(cert, st, ctx) -> [(what, ok, how)]``, whether it states the row's claim
        (:mod:`implgraph.certify.statement`; ``st`` the :class:`~implgraph.certify.claim.ClaimStatement`).
    bound : callable, optional
        ``bound(cert, direction, names) -> (expression, upper) | None``: the certificate's bound of B's raw level
        in T as the statement check reads it (default: ``upper``, from above).
    b_side : callable, optional
        ``b_side(cert, side, st) -> (what, ok, how)``: the statement's step for a B that is not a registered
        definition (the intruder's view).
    every_partition : str, optional
        Why a certificate of this method holds for every partition (then ``min_classes`` must be 1).
    own_partitions : bool, optional
        The lemma reads the certificate's classes itself (no common partition step).

    Returns
    -------
    Lemma or callable
        With ``structure``: the registered :class:`Lemma`. Without: a decorator registering the decorated
        ``check(cert, ns, timeout_ms) -> CertificateReport`` as the lemma's check (and returning it).

    Raises
    ------
    ValueError
        A method registered twice, a method :mod:`implgraph.core.methods` does not declare, or both or neither of
        ``structure`` and a check.
    """
    if isinstance(method, str):         # a method's name: the constant of implgraph.core.methods
        if method not in _methods.ALL:
            raise ValueError(f"lemma for {method!r}: not a method of implgraph.core.methods")
        method = _methods.ALL[method]
    if parts.get("structure") is not None:
        return register(Lemma(method, **parts))

    def decorate(check):
        register(Lemma(method, check=check, **parts))
        return check
    return decorate


def load() -> dict:
    """Import every module of this package (each registers its lemmas): the registry."""
    for info in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{info.name}")
    return REGISTRY


def get(name) -> Lemma | None:
    """The lemma registered for the method called ``name`` (None for a method without one)."""
    return REGISTRY.get(name) if isinstance(name, str) else None


def describe(cert) -> list:
    """The certificate's statement and data as lines of text (empty for a method registered without a description)."""
    lm = get(cert.get("method"))
    return list(lm.describe(cert)) if lm is not None and lm.describe is not None else []


load()
