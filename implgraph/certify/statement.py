"""Is a certificate the proof of its row's claim? The statement a certificate proves, compared with the claim.

:func:`implgraph.certify.check_certificate` confirms that a certificate proves what the certificate itself states.
This module ties it to the row it is the evidence of: it reads the row's claim from the claim data (a claim node of
``theorems/*.yaml`` or ``counterexamples/*.yaml``, every formula through the project's whitelist parser
:func:`implgraph.core.formula.parse_expr` / :func:`~implgraph.core.formula.parse_condition`, never ``sympify`` of text)
and the definitions registry, never from an engine, and checks that the certificates state that claim:

- **the sides**: A and B are the claim's definitions (``from`` and ``to``; ``reading_from``/``reading_to`` on a
  ``#reading`` row), with the claim's parameters (equal as expressions) and no class hypothesis the claim does not
  state (a side's ``min_class`` is 1, a minimum class size the claim gives, or A's parameter the registry declares
  a minimum class size; a ``max_class`` one the claim gives); a side's level is taken over the whole table (``scope:
  table``), about no quantity the engine does not model (``of:``), except the view ``k_I`` of an ``intruder-views``
  certificate under the claim's own ``views:`` model;
- **the direction and scale of the levels**: T is A's raw level (the claim's level symbol alpha is A's level of T,
  ``A.level_from_raw(T)``), B's raw level of the claimed f is ``B.raw_from_level(f)``; an upper bound U is the
  certificate's only where B is smaller-is-stronger, a lower bound where larger is stronger (the registry's
  ``stronger``);
- **the claimed f**: some certificate's U is at least as strong as f on the claim's whole condition (``U <= raw f``
  for smaller-is-stronger B, decided as below, a ``Min`` by any of its arguments; or in B's units, where the claim's
  condition is written there, e.g. ``log(T) <= eps1``); for ``equivalent``/``reciprocal`` both directions, g for the
  reverse;
- **the tight f**: where the row states a tight f (``tight``) or that the claimed f is the tight one (``tightness:
  tight``), a certificate claims tightness for that direction and each such certificate's U equals it: identically
  (sympy), else exactly at every sampled point of its domain (the tightness family itself is checked at sampled
  points, :func:`implgraph.certify.family.check_family`);
- **the condition**: every condition of the certificate's ``domain`` is implied by the claim's: its ``when`` (in T),
  A's valid levels (T at least A's best raw level), tables of N >= 2 records (every definition compares records) and
  the parameters' ranges the registry declares (``Definition.param_ranges``). A condition the claim does not imply
  is an assumption of the certificate: accepted only where the row's verdict text states it (the condition as
  written, or, for a partition's premise ``2*(s) <= N`` / ``(s) >= 1``, the words "partition into at least 2
  classes");
- **a refutation by a proof**: the certificate proves the implication the paper denies (the claim's A => B, any
  U), on the whole condition or on an instance of it: the certificate's domain may pin parameters of the claim to
  numbers (``Eq(k, 1)``, never N or a level) where the claim's condition holds, and is then implied by the
  condition with the pins;
- **a non-implication by a table family** (a certificate with ``claim: no-f``, e.g. ``zcdp-family``,
  ``divergence-family``): the row is refuted, the certificate's A and B are the claim's, its family index (a symbol it
  declares and the claim does not, e.g. ``j``) has a range of its own (``j >= 1``), its other conditions follow
  from the claim's and the claim has no ``when`` (the family's A level is bounded, not read against a condition); it
  denies every f, and counts as the proof of no implication or f;
- the claims other than a bound between two levels: the lemma registered for the certificate's method says which
  kind of claim it states and how (:attr:`implgraph.certify.lemmas.Lemma.claim`): a ``set-channel-*`` certificate
  states the claim's definition, its ``mechanism.set_channel`` (p, eta, the domain size, or Algorithm 1 on a
  ``#reading`` row, run with the claimed level as its closeness) and a level at least as strong as the claimed one;
  a ``transport-mixture`` certificate states the claim's ``formula`` (the same relation) and the program's
  ``convex_in``;
- a bound the lemma reads itself (:attr:`implgraph.certify.lemmas.Lemma.bound`): a ``class-size-floor``
  certificate's ``lower``; an ``inequality-lemmas`` or ``researcher-lemma`` certificate's ``f`` of A's level (B's
  level at least as strong as f of A's, on every table with classes), as B's raw level in T.

The parts: the claim read from the claim data (:mod:`implgraph.certify.claim`), relations decided under the claim's
condition (:mod:`implgraph.certify.hypotheses`), a certificate's domain and class hypotheses against it
(:mod:`implgraph.certify.statement_domain`) and one certificate read as one direction
(:mod:`implgraph.certify.direction`).

A condition is implied when it is one of the claim's (the same relation up to a positive factor), a true relation of
numbers, proved by nonnegative coefficients after a shift of the variables (:mod:`implgraph.certify.positive`,
exact) or by z3 and cvc5 (:func:`implgraph.certify.solve.refute`: its negation with the claim's condition is
unsatisfiable, and no solver finds it satisfiable).
"""

from __future__ import annotations

import sympy

from implgraph.certify.claim import BOTH_WAY_KINDS, FORWARD_KINDS, ClaimStatement, Mismatch, parse_expr, read_claim
from implgraph.certify.direction import covered, direction_report
from implgraph.certify.report import CertificateReport
from implgraph.certify.statement_domain import BASE_RECORDS, PARTITION_WORDS, Context, unstated

__all__ = ["check_statement", "read_claim", "ClaimStatement", "BASE_RECORDS", "PARTITION_WORDS", "Mismatch"]


def _field(row, name, default=None):
    if isinstance(row, dict):
        return row.get(name, default)
    return getattr(row, name, default)


def _tightness(details, i):
    t = (details or {}).get("tightness")
    if isinstance(t, (list, tuple)):
        return t[i] if i < len(t) else None
    return t if i == 0 else None


def check_statement(claim, row, certs) -> CertificateReport:
    """Do the certificates ``certs`` of ``row`` (a verdict: ``id``, ``verdict``, ``evidence``, ``tight``,
    ``details``, ``refuted_by``; an object or its JSON) state its claim ``claim`` (the claim node; None when the
    row has none)? One report, each step naming the certificate it is about (module notes)."""
    rid = str(_field(row, "id"))
    if not isinstance(claim, dict):
        return CertificateReport(False, [("statement: the row's claim", False,
                                          f"no claim {rid.split('#')[0]!r} in the claim data")], "statement")
    try:
        st = read_claim(claim, rid)
    except Mismatch as exc:
        return CertificateReport(False, [("statement: the claim readable", False, str(exc))], "statement")
    verdict = str(_field(row, "verdict"))
    refutation = verdict == "refuted" and _field(row, "refuted_by") == "proved"
    details = _field(row, "details") or {}
    steps = []
    try:
        if st.kind in FORWARD_KINDS + BOTH_WAY_KINDS:
            steps = _edge_steps(st, row, certs, verdict, refutation, details)
        else:
            steps = _claim_steps(st, certs)
    except Mismatch as exc:
        steps.append(("statement: readable", False, str(exc)))
    return CertificateReport(bool(steps) and all(s[1] for s in steps), steps, "statement")


def _claim_steps(st, certs):
    """The steps of a claim other than an edge: each certificate's lemma states a claim of the row's kind
    (:attr:`implgraph.certify.lemmas.Lemma.claim`) and its steps hold."""
    from implgraph.certify.lemmas import get
    steps = []
    for i, cert in enumerate(certs, 1):
        lm = get(str((cert or {}).get("method")))
        kind, steps_of = (lm.claim if lm is not None and lm.claim is not None else (None, None))
        if kind != st.kind:
            steps.append((f"statement: certificate {i} ({(cert or {}).get('method')}) states a claim of kind "
                          f"{st.kind}", False, f"it states a claim of kind {kind or 'it does not name'}"))
            continue
        steps += [(f"statement: certificate {i}: {w}", ok, how) for w, ok, how in steps_of(cert, st, None)]
    if not certs:
        steps.append(("statement: a certificate", False, "none"))
    return steps


def _edge_context(st, row, refutation, details) -> Context:
    """The row's context: its evidence, whether it is a refutation, and the tight f it states per direction."""
    tight_text = _field(row, "tight")
    tight = {}
    for i, d in enumerate(st.directions):
        stated = tight_text if i == 0 and tight_text else None
        if stated is None and _tightness(details, i) == "tight" and d.f is not None:
            tight[i] = d.f
        elif stated is not None:
            tight[i] = parse_expr(stated, st.names)
    return Context(st, str(_field(row, "evidence") or ""), refutation, tight)


def _edge_steps(st, row, certs, verdict, refutation, details):
    """The steps of an edge claim's row (module notes)."""
    ctx = _edge_context(st, row, refutation, details)
    steps, by_direction = [], [[] for _ in st.directions]
    for i, cert in enumerate(certs, 1):
        if isinstance(cert, dict) and cert.get("claim") == "no-f":
            steps += _no_f_steps(i, cert, st, ctx, verdict)
            continue
        steps += _certificate_steps(i, cert, st, ctx, by_direction)
    proved = verdict == "proved"
    for j, d in enumerate(st.directions):
        steps += _direction_steps(j, d, by_direction[j], ctx, proved, refutation)
    if not certs:
        steps.append(("statement: a certificate", False, "none"))
    return steps


def _no_f_steps(i, cert, st, ctx, verdict):
    """The steps of a non-implication's certificate (``claim: no-f``, a table family whose A level stays bounded while
    B's grows without bound): the row is refuted, the certificate's A and B are the claim's first direction, its
    family index, where it has one (a symbol the certificate declares and the claim does not; a family in N alone has
    none), is conditioned on its own (e.g. ``j >= 1``) and its other conditions follow from the claim's. It proves nothing the claim states, so it counts for no
    direction's implication or f."""
    from dataclasses import replace
    from implgraph.certify.claim import parse_condition
    from implgraph.certify.domain import declared_names
    d = st.directions[0]
    kinds = {str(k): v for k, v in (cert.get("symbols") or {}).items()}
    names = declared_names(cert, {**st.names, "N": st.names.get("N", sympy.Symbol("N", integer=True))})
    index = {n for n in kinds if n not in st.kinds and n not in ("N", "T")}
    own, rest, ranged = [], [], set()
    for text in cert.get("domain") or []:
        free = {x.name for r in parse_condition(str(text), names) for x in r.free_symbols}
        if free and free <= index:
            own.append(str(text))
            ranged |= free
        else:
            rest.append(str(text))
    label = f"statement: certificate {i} ({d.label}, a non-implication)"
    steps = [(f"{label}: the row is refuted", verdict == "refuted", f"verdict {verdict}"),
             # (a family's A level is bounded, not read against a condition: a claim with one is not matched here)
             (f"{label}: the claim has no condition its family would have to meet", not st.conditions,
              ", ".join(str(c) for c in st.conditions) or "none"),
             (f"{label}: its family index, if any, is its own", index <= ranged,
              f"index {', '.join(sorted(index))}; its range {', '.join(own) or 'not stated'}" if index else
              "none: a family in N alone")]
    # the rest read as the claim's first direction without an f: the family denies every f, the claim's included
    view = dict(cert, symbols={k: v for k, v in kinds.items() if k not in index}, domain=rest)
    r = direction_report(view, replace(d, f=None), ctx, 0)
    steps += [(f"{label}: {w}", o, h) for w, o, h in r.steps]
    if r.extras:
        steps += [(f"{label}: {w}", o, h) for w, o, h in unstated(r.extras)]
    return steps


def _certificate_steps(i, cert, st, ctx, by_direction):
    """The steps of the row's ``i``-th certificate, read as the direction of the claim it states (appended to
    ``by_direction``)."""
    if not isinstance(cert, dict):
        return [(f"statement: certificate {i}", False, "not a mapping")]
    found = []
    for j, d in enumerate(st.directions):
        r = direction_report(cert, d, ctx, j)
        if r.sides_ok:
            found.append((r.ok and not (r.extras and not (cert.get("tight") and r.tight_ok)), j, r))
    if not found:
        A, B = cert.get("A") or {}, cert.get("B") or {}
        why = [f"{w}: {h}" for d in st.directions for w, o, h in direction_report(cert, d, ctx, 0).steps if not o]
        return [(f"statement: certificate {i} states the row's A => B", False,
                 f"it states {_side_text(A.get('definition') or B.get('view'), A.get('params'))} => "
                 f"{_side_text(B.get('definition') or B.get('view'), B.get('params'))}, the claim "
                 + " and ".join(f"{_side_text(d.a.name, d.a.params)} => {_side_text(d.b.name, d.b.params)}"
                                for d in st.directions) + (f" ({why[0]})" if why else ""))]
    _, j, r = max(found, key=lambda x: x[0])
    label = st.directions[j].label
    steps = [(f"statement: certificate {i} ({label}): {w}", o, h) for w, o, h in r.steps]
    if r.extras and not (cert.get("tight") and j in ctx.tight):
        # an assumption of its own: only a tightness certificate of a part of the condition may have one
        steps += [(f"statement: certificate {i} ({label}): {w}", o, h) for w, o, h in unstated(r.extras)]
    by_direction[j].append((r, cert))
    return steps


def _direction_steps(j, d, readings, ctx, proved, refutation):
    """The steps of the claim's ``j``-th direction: a certificate proves it (its f) on the whole condition, and
    where the row states a tight f, certificates attain it and cover the condition."""
    steps = []
    whole = [r for r, _ in readings if r.ok and not r.extras]
    if proved and d.f is not None:
        steps.append((f"statement: a certificate proves the claimed f of {d.label} on the claim's whole condition",
                      any(r.proves for r in whole), f"f = {d.f}"))
    elif proved or (refutation and j == 0):
        steps.append((f"statement: a certificate proves {d.label}" + (" (the implication the claim denies)"
                                                                      if refutation else "") +
                      " on the claim's whole condition" + (" or an instance of it" if refutation else ""),
                      bool(whole), f"{len(whole)} certificate(s)"))
    if j in ctx.tight and (proved or refutation):
        tight = [r for r, c in readings if c.get("tight") and r.ok and r.tight_ok]
        steps.append((f"statement: a certificate attains the row's tight f of {d.label}", bool(tight),
                      f"tight f = {ctx.tight[j]}"))
        if tight:
            base = next(r.hyps for r in tight)
            ok, how = covered(tight, base)
            steps.append((f"statement: the tight certificates of {d.label} cover the claim's condition", ok, how))
            if not ok:      # their own conditions are then assumptions of the tight f: name them
                steps += [(f"statement: {d.label}: {w}", o, h) for r in tight for w, o, h in unstated(r.extras)]
    return steps


def _side_text(name, params):
    inner = ", ".join(f"{k}={v}" for k, v in (params or {}).items())
    return f"{name}({inner})" if inner else str(name)
