"""Check a conjectured edge A => B between two registered definitions, in both directions.

For each number of records N (and each value of the definitions' parameters allowed by
``when``), on binary tables (p buckets, default 2) and every partition into equivalence classes:

1. **Non-implication.** Is there a table on which A's level is finite and B's infinite? The level of
   every ratio-of-averages definition is a max of linear-fractional forms
   (:func:`implgraph.definitions.families.lf_model`), so "A finite and B infinite" is a linear problem with
   disjunctions that the solver decides exactly (complete for linear real arithmetic). A model is an exact
   rational table; it is re-checked with the core's exact levels before it is reported. Such a
   table refutes A => B for every f (ekenstedt2022, Definition 2).
2. **Tight f.** Otherwise A => B holds at this N, and the tight function
   ``F(a) = sup{ B(T) : A(T) <= a }`` is computed exactly at sample levels a: one linear program
   per form of B (Charnes-Cooper), solved exactly (:mod:`implgraph.engines.lf`); the maximising table is
   re-checked too. A closed form (polynomial or rational of low degree in the raw level) is fitted
   through the samples and confirmed on the others.
3. **A given f.** A sample level where the tight value exceeds f gives a witness table (re-checked
   exactly): the conjecture is refuted. Otherwise f is an upper bound at every sampled level (the
   verdict says so: bounded evidence, never "proved"); where :mod:`implgraph.engines.prove` is installed it
   is asked for a proof for all N.

The two directions combine into the kinds of ekenstedt2022, Definition 3: equivalence (f and g
inverse to each other), reciprocal (both directions, not inverse), generalisation (A => B but
B =/=> A), implication / non-implication (the other direction undecided), or non-implication both
ways.

The steps at one N are :func:`implgraph.engines.instance.analyse`; one direction over N and the
parameter points is :func:`implgraph.engines.direction.check_direction`; this module combines the
two directions.

Examples
--------
A definition is equivalent to itself, with f the identity:

>>> from implgraph import definitions
>>> d = next(d for d in definitions.all_definitions() if not d.params and not d.needs_classes)
>>> r = check_edge(d.name, d.name, N=3)
>>> r.kind, r.forward.tight == d.level_symbol, r.forward.status
('equivalence', True, 'established')
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import sympy

from implgraph.definitions.nodes import N_SYM, Node, parse_node
from implgraph.core.verdict import math_html, trivial_open
from implgraph.engines.direction import DirectionResult, check_direction
from implgraph.engines.fit import level_symbol
from implgraph.core.simplified import simplified

__all__ = ["check_edge", "combine", "EdgeResult", "KINDS"]

KINDS = ("equivalence", "reciprocal", "generalisation", "implication", "non-implication", "vacuous", "unknown")


@dataclass
class EdgeResult:
    """Both directions of A <-> B and their combination (ekenstedt2022, Definition 3)."""

    a: str
    b: str
    kind: str
    summary: str
    forward: DirectionResult
    backward: DirectionResult
    seconds: float = 0.0

    @property
    def status(self) -> str:
        """The status of the conjecture A => B (the forward direction)."""
        return self.forward.status

    @property
    def strength(self) -> str | None:
        """The strength of the evidence on A => B (the forward direction)."""
        return self.forward.strength

    def to_json(self):
        return {"a": self.a, "b": self.b, "kind": self.kind, "summary": self.summary,
                "status": self.status, "strength": self.strength,
                "forward": self.forward.to_json(), "backward": self.backward.to_json(), "seconds": self.seconds}

    def __repr__(self):
        return f"<EdgeResult {self.a} ? {self.b}: {self.kind}; {self.summary}>"

    def _repr_html_(self):
        """Both directions as an HTML table: relation, verdict and bound, tight f (LaTeX), witness."""
        import html
        cells = []
        for d in (self.forward, self.backward):
            tight = d.tight_all_n or d.tight_in_N or d.tight
            rows = " ".join("(" + ", ".join(r) + ")" for r in (d.witness or {}).get("rows", []))
            cells.append("".join(f"<td>{x}</td>" for x in (
                html.escape(f"{d.a} => {d.b}"), html.escape(d.relation), html.escape(d.verdict),
                html.escape(d.bound or ""), math_html(tight), html.escape(rows))))
        head = "".join(f"<th>{h}</th>" for h in ("direction", "relation", "verdict", "bound", "tight f", "witness"))
        return (f"<table><caption><b>{html.escape(self.kind)}</b>: {html.escape(self.summary)}</caption>"
                f"<tr>{head}</tr>" + "".join(f"<tr>{c}</tr>" for c in cells) + "</table>")


def _inverse(f, g, a_def, b_def) -> bool:
    if f is None or g is None:
        return False
    alpha, beta = level_symbol(a_def), level_symbol(b_def)
    fe, ge = sympy.sympify(f, locals={alpha.name: alpha, beta.name: beta}), \
        sympy.sympify(g, locals={alpha.name: alpha, beta.name: beta})
    if alpha == beta:
        beta = sympy.Symbol(beta.name + "_", positive=True)
        ge = ge.subs(alpha, beta)
    one = simplified(ge.subs(beta, fe) - alpha)
    two = simplified(fe.subs(alpha, ge) - beta)
    return one == 0 and two == 0


def _fdesc(d: DirectionResult) -> str:
    """The f of an implication as the summary shows it: for every N where the prover gives it (tight, or an upper bound
    said to be one, beside the bounded check's tight f at the largest N checked), otherwise the bounded check's tight f
    (the direction's lines say at which N)."""
    if trivial_open(d):
        weakest = parse_node(d.b).definition.weakest(N_SYM)
        return (f"f = {weakest} holds trivially (the weakest level of {d.b}, met by every table); the tight f is not "
                "known, so a stronger f may hold")
    if d.trivial:
        return f"f = {d.tight_all_n or d.tight}, trivially: the weakest level of {d.b}"
    upto = f" for level <= {d.tight_upto}, piecewise beyond" if d.tight_upto else ""
    if d.tight_all_n:
        return f"f = {d.tight_all_n} for every N"
    if d.proved_f:
        at = f"; tight f at the largest N checked: {d.tight}{upto}" if d.tight is not None else ""
        return f"f <= {d.proved_f} for every N{at}"
    if d.tight is None:
        return "f has no closed form of low degree; see the samples"
    return f"f = {d.tight}{upto}"


def combine(fw: DirectionResult, bw: DirectionResult, a_def, b_def) -> tuple[str, str]:
    """Definition 3 of ekenstedt2022 from the two directions (over every partition into classes); where a table of one
    class decides a direction, the summary adds what it is under the assumption "partitions into at least 2
    classes"."""
    kind, summary = _combine(fw, bw, a_def, b_def)
    for d in (fw, bw):
        c = d.conditional
        if c is not None and c.relation != d.relation:
            arrow = "=>" if c.relation == "implication" else "=/=>" if c.relation == "non-implication" else "?"
            f = f" ({_fdesc(c)})" if c.relation == "implication" else ""
            summary += f"; under the assumption ({c.assumption}): {d.a} {arrow} {d.b}{f}"
    return kind, summary


def says_nothing(d: DirectionResult) -> str | None:
    """Why an implication holds of every table whatever A (f B's weakest level: trivial; or B's own ceiling on every
    table of N records: vacuous), or None: such a direction is no implication between A and B (Definition 3 counts
    neither way), never drawn or counted as one."""
    if d.relation != "implication":
        return None
    if d.vacuous:
        return "vacuously: " + d.vacuous.removeprefix("vacuous: ")
    if d.trivial and (d.tight is not None or d.tight_all_n):     # (the prover's tight f for every N counts too)
        return "trivially: " + _fdesc(d)
    return None


def _combine(fw: DirectionResult, bw: DirectionResult, a_def, b_def) -> tuple[str, str]:
    """:func:`combine` over every partition (a trivial or vacuous direction counts as neither relation)."""
    A, B = fw.a, fw.b
    fi, bi = ("unknown" if trivial_open(d) else d.relation for d in (fw, bw))
    empty = {d.a: says_nothing(d) for d in (fw, bw) if says_nothing(d)}
    if empty:
        fi = "vacuous" if fw.a in empty else fi
        bi = "vacuous" if bw.a in empty else bi
        notes = "; ".join(f"{d.a} => {d.b} only {empty[d.a]}" for d in (fw, bw) if d.a in empty)
        if fi == bi == "vacuous":
            return "vacuous", notes + " (no implication either way)"
        real, state = (fw, fi) if bi == "vacuous" else (bw, bi)
        if state == "implication":
            return "implication", f"{real.a} => {real.b} ({_fdesc(real)}); {notes}"
        if state == "non-implication":
            return "non-implication", f"{real.a} =/=> {real.b}; {notes}"
        return "unknown", f"{_undecided(real)}; {notes}"
    if fi == "implication" and bi == "implication":
        if not fw.tight_upto and not bw.tight_upto and _inverse(fw.tight, bw.tight, a_def, b_def):
            return "equivalence", f"{A} <=> {B}: f = {fw.tight} and g = {bw.tight} are inverse (equivalent)"
        return "reciprocal", f"{A} => {B} ({_fdesc(fw)}) and {B} => {A} ({_fdesc(bw)}): reciprocal implications"
    if fi == "implication" and bi == "non-implication":
        return "generalisation", (f"{A} => {B} ({_fdesc(fw)}) but {B} =/=> {A}: {A} is a generalisation of {B} "
                                  "(Definition 3)")
    if fi == "non-implication" and bi == "implication":
        return "generalisation", (f"{B} => {A} ({_fdesc(bw)}) but {A} =/=> {B}: {B} is a generalisation of {A} "
                                  "(Definition 3)")
    if fi == "non-implication" and bi == "non-implication":
        return "non-implication", f"{A} =/=> {B} and {B} =/=> {A}"
    if fi == "implication":
        return "implication", f"{A} => {B} ({_fdesc(fw)}); {_undecided(bw)}"
    if fi == "non-implication":
        return "non-implication", f"{A} =/=> {B}; {_undecided(bw)}"
    if bi in ("implication", "non-implication"):
        arrow = "=>" if bi == "implication" else "=/=>"
        return bi, f"{B} {arrow} {A}{f' ({_fdesc(bw)})' if bi == 'implication' else ''}; {_undecided(fw)}"
    return "unknown", f"neither direction was decided between {A} and {B}: {_undecided(fw)}; {_undecided(bw)}"


def _undecided(d: DirectionResult) -> str:
    """An undecided direction in words (a trivial implication whose tight f is not known says what holds)."""
    if trivial_open(d):
        return f"{d.a} => {d.b} beyond {d.b}'s weakest level is undecided ({_fdesc(d)})"
    return f"{d.a} => {d.b} is undecided"


def check_edge(a, b, f=None, when=(), N=4, p=2, g=None, jobs=1, progress=None) -> EdgeResult:
    """Check the conjecture A => B (with f, if given) and the reverse direction.

    Parameters
    ----------
    a, b : str or Node
        Definitions, e.g. ``"NAME"`` or ``"NAME(k=2)"`` (parameters may use N and symbols
        bound by ``when``).
    f : str, optional
        B's level as a function of A's level (A's level symbol, N, parameter symbols).
    when : list of str
        Conditions on N and the parameter symbols.
    N : int
        Check every N from 2 to ``N``.
    p : int
        Number of buckets of the tables searched.
    g : str, optional
        A conjectured function for the reverse direction.
    jobs : int
        Processes: 2 or more check the two directions side by side (the results are the same).
    progress : callable, optional
        Called with ``"A => B"`` when a direction is checked (twice in all), e.g. to advance a bar.

    Returns
    -------
    EdgeResult
    """
    start = time.perf_counter()
    a = a if isinstance(a, Node) else parse_node(a)
    b = b if isinstance(b, Node) else parse_node(b)
    if isinstance(when, str):
        when = [when]
    done = progress or (lambda what: None)
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor, as_completed
        with ProcessPoolExecutor(2) as pool:
            futures = {pool.submit(check_direction, a, b, f, when, N, p): f"{a.label()} => {b.label()}",
                       pool.submit(check_direction, b, a, g, when, N, p): f"{b.label()} => {a.label()}"}
            for fut in as_completed(futures):
                done(futures[fut])
            fw, bw = (fut.result() for fut in futures)
    else:
        fw = check_direction(a, b, f, when, N, p)
        done(f"{a.label()} => {b.label()}")
        bw = check_direction(b, a, g, when, N, p)
        done(f"{b.label()} => {a.label()}")
    kind, summary = combine(fw, bw, a.definition, b.definition)
    return EdgeResult(a.label(), b.label(), kind, summary, fw, bw, round(time.perf_counter() - start, 3))
