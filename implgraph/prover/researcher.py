"""Lemmas a researcher registers, with their certificates, and the prover's use of them (alone or chained).

A plugin registers an inequality between two definitions' levels with :func:`register` (or through the entry-point
group ``implgraph.lemmas``): :class:`Lemma` names A and B, B's level ``f`` as a formula in A's level symbol, and a
certificate whose obligations the independent checker decides itself
(:mod:`implgraph.certify.lemmas.class_inequality`). Registration is data: every text is read by the project's formula
reader (:func:`implgraph.core.formula.parse_expr`), nothing is evaluated; :func:`register` asks the checker at once
and refuses a lemma it rejects (one line).

The prover (:func:`implgraph.prover.researcher_verdict.researcher_verdict`, called where no built-in argument applies) chains registered lemmas with the
built-in ones (:data:`implgraph.engines.lemmas.LEMMAS`): ``B >= g(C)`` and ``C >= h(A)`` give ``B >= g(h(A))``.
It uses a researcher's lemma only when the checker accepts its certificate (re-checked here, once per lemma); its
verdict names the lemma and carries the whole chain's certificate (method ``researcher-lemma``), which
``implgraph.certify`` re-checks with its own lemma module. A lemma the checker rejects is never used: the claim goes
to the bounded search, whose verdict says which lemma was rejected and why (:func:`rejected_note`). A chain gives an
upper bound on B's strength only: its f is reported with tightness "not derived".
"""

from __future__ import annotations

import json
from collections import deque
from dataclasses import dataclass, field

import sympy

from implgraph.core import methods
from implgraph.core.errors import InputError, printable
from implgraph.core.formula import parse_expr

__all__ = ["Lemma", "register", "unregister", "registered_lemmas", "checked", "find_chains",
           "rejected_note", "load_errors", "step_certificate"]

REGISTRY: dict = {}
_LOAD_ERRORS: list = []
_CHECKED: dict = {}
#: the longest chain of lemmas tried
MAX_CHAIN = 3
#: the certificate fields a researcher writes (texts in q, top, k and S2..S12; ``power`` a small integer)
CERT_FIELDS = ("factor", "term", "constant", "power")


@dataclass(frozen=True)
class Lemma:
    """``A(alpha) => B(f(alpha))`` on every table with equivalence classes, with its certificate.

    Attributes
    ----------
    name : str
        Short name, as the evidence cites it.
    a, b : str
        Registered definition names; both declare their level of one class (``ClassLevel``).
    f : str
        B's level as a formula in A's level symbol (e.g. ``"l"``, ``"sqrt(l)"``, ``"ceiling(l)"``).
    certificate : dict
        ``{"factor": P, "term": t, "constant": c, "power": p}`` (texts in ``q``, ``top``, ``k``, ``S2``..):
        ``P (B^p - f(A)^p) = sum_i t(q_i) + c`` on one class, ``P > 0``, ``t(q) >= 0`` for ``0 < q <= top`` and
        ``c + t(top) >= 0`` (see docs/sections/researcher-lemmas.md).
    statement, reference : str
        The inequality in words, and where it is stated in the literature.
    """

    name: str
    a: str
    b: str
    f: str
    certificate: dict = field(default_factory=dict, hash=False, compare=False)
    statement: str = ""
    reference: str = ""

    def key(self) -> str:
        """The lemma as canonical JSON (what the checker's answer is remembered by)."""
        return json.dumps([self.name, self.a, self.b, self.f, self.certificate], sort_keys=True, default=str)


def _definition(name, lemma_name):
    from implgraph import definitions
    try:
        return definitions.get(name)
    except InputError:
        raise InputError(f"lemma {printable(lemma_name)[:60]}: {printable(name)[:60]} is not a registered definition",
                         fix="register the definition first (its module, or its entry point)") from None


def _read(lemma: Lemma) -> None:
    """Refuse a lemma whose texts the formula reader cannot read (one line)."""
    if not isinstance(lemma, Lemma):
        raise InputError(f"{printable(repr(lemma))[:60]} is not a Lemma", fix="give implgraph.lemmas.Lemma(...)")
    if not isinstance(lemma.name, str) or not lemma.name or len(lemma.name) > 200:
        raise InputError("a lemma has no name", fix='give name="..." (at most 200 characters)')
    a = _definition(lemma.a, lemma.name)
    _definition(lemma.b, lemma.name)
    cert = lemma.certificate
    if not isinstance(cert, dict) or set(cert) - set(CERT_FIELDS) or not {"factor", "term", "constant"} <= set(cert):
        raise InputError(f"lemma {printable(lemma.name)[:60]}: certificate {printable(repr(cert))[:80]}",
                         fix="give certificate={'factor': ..., 'term': ..., 'constant': ...} (and 'power')")
    texts = [(lemma.f, {a.level_symbol: sympy.Symbol(a.level_symbol)}, "f")]
    names = {n: sympy.Symbol(n) for n in ("q", "top", "k", *(f"S{m}" for m in range(2, 13)))}
    texts += [(cert[k], names, k) for k in ("factor", "term", "constant")]
    for text, symbols, what in texts:
        if not isinstance(text, (str, int)) or len(str(text)) > 2000:
            raise InputError(f"lemma {printable(lemma.name)[:60]}: {what} is not a formula",
                             fix=f"give {what} as text of at most 2000 characters")
        try:
            parse_expr(str(text), symbols)
        except InputError as exc:
            raise InputError(f"lemma {printable(lemma.name)[:60]}: {what}: {exc.reason}", fix=exc.fix) from None


def step_certificate(lemma: Lemma) -> dict:
    """The checker's step of one researcher lemma (``class-inequality``; f in ``x``)."""
    from implgraph import definitions
    a = definitions.get(lemma.a)
    x = sympy.Symbol("x", real=True)
    f = parse_expr(str(lemma.f), {a.level_symbol: x})
    return {"kind": "class-inequality", "A": lemma.a, "B": lemma.b, "f": str(f),
            **{k: str(v) for k, v in lemma.certificate.items()}}


def _single_certificate(lemma: Lemma) -> dict:
    return {"format": "implgraph-certificate/1", "method": methods.RESEARCHER_LEMMA.name,
            "A": {"definition": lemma.a}, "B": {"definition": lemma.b},
            "f": step_certificate(lemma)["f"], "steps": [step_certificate(lemma)],
            "lemmas": [{"name": lemma.name, "origin": "researcher", "statement": lemma.statement,
                        "reference": lemma.reference}], "min_classes": 1}


def checked(lemma: Lemma):
    """The checker's report on the lemma's own certificate (remembered per lemma)."""
    key = lemma.key()
    if key not in _CHECKED:
        from implgraph.certify import check_certificate
        try:
            _read(lemma)
            _CHECKED[key] = check_certificate(_single_certificate(lemma))
        except InputError as exc:
            from implgraph.certify import CertificateReport
            _CHECKED[key] = CertificateReport(False, [("lemma readable", False, exc.reason)])
    return _CHECKED[key]


def _why(report) -> str:
    bad = report.failures()
    return "; ".join(f"{w} ({h})" for w, _, h in bad[:2]) or "not accepted"


def register(lemma: Lemma, check: bool = True) -> Lemma:
    """Register ``lemma`` (its texts read, its certificate re-checked by :mod:`implgraph.certify` when ``check``).

    Raises
    ------
    InputError
        An unreadable lemma, or (``check``) one whose certificate the checker rejects: one line naming the step.
    """
    _read(lemma)
    if check:
        report = checked(lemma)
        if not report.ok:
            raise InputError(f"lemma {printable(lemma.name)[:60]} ({lemma.a} => {lemma.b}, f = {lemma.f}): the checker "
                             f"rejects its certificate: {_why(report)[:300]}",
                             fix="correct the inequality or its certificate (docs/sections/researcher-lemmas.md)")
    REGISTRY[lemma.name] = lemma
    return lemma


def unregister(name: str) -> None:
    """Remove the lemma called ``name`` (nothing if there is none)."""
    REGISTRY.pop(name, None)


def _load_entry_points() -> None:
    """Lemmas of the entry-point group ``implgraph.lemmas`` (a Lemma or a list of them), read once; errors recorded."""
    if _LOAD_ERRORS[:1] == [None]:
        return
    _LOAD_ERRORS.insert(0, None)
    from importlib import metadata
    try:
        eps = metadata.entry_points(group="implgraph.lemmas")
    except Exception:  # pragma: no cover - broken metadata
        return
    for ep in eps:
        try:
            obj = ep.load()
            for lm in (obj if isinstance(obj, (list, tuple)) else [obj]):
                _read(lm)
                REGISTRY.setdefault(lm.name, lm)        # re-checked before any use (checked)
        except Exception as exc:  # a broken plugin must not take the tool down
            _LOAD_ERRORS.append(f"lemma plugin {ep.name}: {exc.__class__.__name__}: {printable(exc)[:200]}")


def load_errors() -> list:
    """The entry points of ``implgraph.lemmas`` that failed to load, one line each."""
    _load_entry_points()
    return [e for e in _LOAD_ERRORS if e]


def registered_lemmas() -> list:
    """Every registered researcher lemma (those of the entry points included), in registration order."""
    _load_entry_points()
    return list(REGISTRY.values())


def _edges():
    """``[(a, b, step)]``: built-in lemmas (uniform family, a certificate fact) and researcher lemmas."""
    from implgraph.engines.lemmas import LEMMAS, established
    out = [(lm.a, lm.b, ("built-in", lm)) for lm in LEMMAS
           if lm.family == "uniform" and lm.fact and established(lm)[0] == "proved"]
    return out + [(lm.a, lm.b, ("researcher", lm)) for lm in registered_lemmas()]


def find_chains(a: str, b: str) -> list:
    """Every chain of lemmas from ``a`` to ``b`` (at most :data:`MAX_CHAIN`, no definition twice) with at least one
    researcher lemma, shortest first; each a list of ``(origin, lemma)``."""
    edges = _edges()
    queue, found = deque([(a, [], (a,))]), []
    while queue:
        name, path, seen = queue.popleft()
        if name == b and path:
            if any(o == "researcher" for o, _ in path):
                found.append(path)
            continue
        if len(path) >= MAX_CHAIN:
            continue
        for x, y, step in edges:
            if x == name and y not in seen:
                queue.append((y, path + [step], seen + (y,)))
    return found


def rejected_note(a, b) -> str:
    """``"; ..."``: the researcher lemmas on a chain from A to B that the checker rejects (so none was used)."""
    bad = []
    if not registered_lemmas():     # (no researcher lemma: nothing to search, the built-in proofs are not run)
        return ""
    for chain in find_chains(a.name, b.name):
        for origin, lm in chain:
            if origin == "researcher" and not checked(lm).ok and lm.name not in [n for n, _ in bad]:
                bad.append((lm.name, _why(checked(lm))))
    if not bad:
        return ""
    return "; not used: " + "; ".join(f"registered lemma '{n}' is rejected by the checker (unchecked, never a "
                                      f"proof): {w[:200]}" for n, w in bad)
