"""The randomized set channel of sei2019 (Section V-B): three lemmas about its releases.

**The channel** (trusted: the paper's definition). For one sensitive attribute with a domain of d values and
parameters (p, eta), 1 <= eta <= d and 0 <= p <= 1, a record with value v releases a set R of eta distinct values:
with probability p, v and eta - 1 others drawn uniformly, otherwise eta values drawn uniformly. Of the C(d, eta)
eta-subsets Z, C(d - 1, eta - 1) hold v, so ``Pr(R = Z | v) = kc = p / C(d - 1, eta - 1) + (1 - p) / C(d, eta)`` when v
is in Z and ``kd = (1 - p) / C(d, eta)`` otherwise. Every certificate states the channel (``channel``: ``p``, ``eta``,
``domain_size``, expressions in its symbols); the checker derives ``1 <= eta <= d`` and ``0 <= p <= 1`` on the domain
(the channel is defined only there), d and eta integers, and that kc and kd are a distribution over the eta-subsets:
``C1 kc + (C2 - C1) kd = 1`` identically in p, with C1, C2 = C(d - 1, eta - 1), C(d, eta) as symbols (sympy, exact).

``set-channel-diversity`` (sei2019 Theorems 2, 3, Section VII-D)
    Every release satisfies B at the certificate's ``level``, B a class level of the release's classes for the
    attribute (Definition 10), the worst class's, larger is stronger. **Lemma**: a class collects the sets of its m
    records, each of eta distinct values, so each value appears n_v <= m times and the counts sum to s = eta m; with
    n the largest count (``n_``, ``m_``, ``s_``) the facts ``m_ - n_ >= 0`` and ``s_ - eta*m_ == 0`` give
    *count* ``s_ - eta*n_ >= 0`` (the certificate's multipliers, the one of ``m_ - n_`` >= 0 on the domain), so
    1 / max q = s / n >= eta. B's registered definition declares its class level (``B["class_level"]``, read from the
    registry as :mod:`implgraph.certify.lemma_chain` reads it) and the chain of that module's facts ``steps`` leads
    from ``min-entropy`` (1 / max q) to it with a map x or ceiling(x), each >= x: B >= 1 / max q >= eta. *level*
    ``eta - level >= 0`` on the domain.
``set-channel-whole-domain`` (sei2019 Table V)
    With eta = d (*whole domain*, both ways on the domain) every record releases the whole domain with probability
    ``kc = p / C(d - 1, d - 1) + (1 - p) / C(d, d) = 1`` (exact, as C(n, n) = 1), whose Bayes posterior (eq. 12) is the
    prior: ``kc A_m / (kc sum A) = A_m`` with sum A = 1 (exact). A class's B_j (Definition 15, the average of its
    records' posteriors) is then A_j, at EMD ``D[A, A] = 0`` (Definition 5: the diagonal flow costs 0, every cost is
    >= 0): B (smaller is stronger, its best level 0, ``B["inference"] == "bayes"``) holds at every *level* >= 0.
``set-channel-closeness`` (sei2019 Theorem 4, as its text reads Algorithm 1: the smallest p over the subsets)
    **Lemma**: the channel's odds are ``r = kc / kd = 1 + x`` with ``x = p d / ((1 - p) eta)`` (C(d, eta) / C(d - 1,
    eta - 1) = d / eta: sympy ``combsimp``; checked against the certificate's ``x``). Bayes' rule (eq. 12) for a released
    set Z of prior mass a (``a_``) gives ``B_m - A_m = g(x) A_m (1[m in Z] - a)`` (the certificate's ``g``, both cases
    identically), so B - A = g(x) v_Z with v_Z free of p, and the EMD, positively homogeneous in B - A for a metric
    ground distance (Kantorovich-Rubinstein; not for a cost that is no metric), is ``D[A, B] = g(x) D[A, A + v_Z]``.
    The certificate names the grounds it covers (``B["grounds"]``, each with its cost ``d(i, j)`` over K values as a
    formula; the claim's ground if it states one, else every ground B's definition declares), each must be the cost
    B's registered definition declares for it, and each is proved a metric for every K >= 2
    (:mod:`implgraph.certify.ground_metric`: by cases on the weak orderings of three indices, exact); a certificate
    without grounds, or with a cost not so proved, is rejected. ``g(x(p))`` is increasing in p on (0, 1) (its
    derivative in u, p = u / (1 + u), is > 0: exact, sign proved), so the largest p with D <= t solves
    ``g = G = t / D[A, A + v_Z]``: the certificate's ``root`` ``x*(G)`` has ``g(x*) = G`` and its ``p_of_root`` gives
    back ``x(p) = x*`` (identities). Keeping the smallest such p over the subsets Z, every released set's posterior is
    within t of A; a class's B_j is the average of its records' posteriors, within t by the convexity of
    ``D[A, .]`` (the part, a ``transport-mixture`` certificate, re-checked).
"""

from __future__ import annotations

import sympy

from implgraph.certify.lemmas import lemma
from implgraph.certify.lemmas.proof import Proof
from implgraph.core import methods

__all__ = ["check_diversity", "check_whole_domain", "check_closeness", "ALGORITHM_1_READING"]

#: how the closeness lemma reads Algorithm 1 (the certificate must say so)
ALGORITHM_1_READING = methods.ALGORITHM_1_READING
#: the count lemma's variables: a class's largest count, its records, the sum of its counts
COUNT_VARIABLES = {"n_": "real", "m_": "real", "s_": "real"}


def _describe(cert):
    ch = cert.get("channel") or {}
    out = [f"  domain: {', '.join(cert.get('domain') or [])}",
           "  channel: " + ", ".join(f"{k} = {v}" for k, v in ch.items())]
    if cert.get("level") is not None:
        out.append(f"  B = {(cert.get('B') or {}).get('definition')} at level {cert['level']} on every release")
    for key in ("x", "g", "root", "p_of_root"):
        if cert.get(key):
            out.append(f"  {key} = {cert[key]}")
    for name, mult in ((cert.get("upper_certificate") or {}).get("multipliers") or {}).items():
        out.append(f"  {name}: " + " + ".join(f"({m})*({k})" for k, m in mult.items()))
    return out


def _checked(check, variables=None):
    """``check(pf, cert, ns, timeout_ms)`` with the report's frame (the lemma's ``variables``): an unreadable
    certificate is a failed step."""
    def run(cert, ns=range(2, 13), timeout_ms=4000):
        from implgraph.certify import UNREADABLE
        pf = None
        try:
            pf = Proof(cert, variables or {}, timeout_ms)
            check(pf, cert, ns, timeout_ms)
        except UNREADABLE as exc:
            pf = pf or Proof({}, {}, timeout_ms)
            pf.add("certificate readable", False, f"{exc.__class__.__name__}: {exc}")
        return pf.report()
    run.__doc__ = check.__doc__
    return run


def _channel(pf, cert, where=""):
    """The channel's steps (module notes): defined on the domain (1 <= eta <= d, 0 <= p <= 1, integers), a
    distribution over the eta-subsets."""
    from implgraph.certify.obligation import integer_valued as _integer_valued
    ch = cert["channel"]
    p, eta, d = (str(ch[k]) for k in ("p", "eta", "domain_size"))
    pf.add("eta and d are integers (integer coefficients, integer symbols)",
           _integer_valued([pf.poly(eta), pf.poly(d)], cert.get("symbols") or {}), f"eta = {eta}, d = {d}")
    pf.nonnegative("eta >= 1 on the domain", f"({eta}) - 1")
    pf.nonnegative("eta <= d on the domain (the channel draws eta distinct values of d)", f"({d}) - ({eta})")
    pf.nonnegative("p >= 0 on the domain", p)
    pf.nonnegative("p <= 1 on the domain", f"1 - ({p})")
    c1, c2 = sympy.symbols("C1 C2", positive=True)
    ps = pf.rd.sympy(p)
    kc, kd = ps / c1 + (1 - ps) / c2, (1 - ps) / c2
    pf.zero("the channel is a distribution over the eta-subsets: C1 kc + (C2 - C1) kd = 1 (C1 = C(d - 1, eta - 1), "
            "C2 = C(d, eta))", c1 * kc + (c2 - c1) * kd - 1)
    return p, eta, d


def _diversity(pf, cert, ns, timeout_ms):
    """Re-check a ``set-channel-diversity`` certificate (module notes)."""
    from implgraph.certify.registered import registered
    from implgraph.certify.lemma_chain import FACTS, _declares, compose
    B = cert["B"]
    d = registered(B.get("definition"))
    pf.add("B is a registered definition, larger is stronger", d is not None and d.stronger == "larger",
           f"{B.get('definition')}")
    pf.add("B's registered definition declares the class level described", _declares(B.get("definition"),
                                                                                     B.get("class_level")),
           f"{B.get('definition')}: {B.get('class_level')}")
    chain = list(cert.get("steps") or [])
    known = all(s in FACTS for s in chain)
    ends = [FACTS[s] for s in chain] if known else []
    linked = known and all(x[1] == y[0] for x, y in zip(ends, ends[1:]))
    start, end = (ends[0][0], ends[-1][1]) if ends else ("min-entropy", "min-entropy")
    f = compose([x[2] for x in ends]) if known else None
    pf.add("B's class level >= 1 / max q: the facts chain from min-entropy to B's class level, each map >= x",
           known and linked and start == "min-entropy" and end == B.get("class_level") and f in ("x", "ceiling(x)"),
           " -> ".join(["min-entropy"] + [x[1] for x in ends]) + f" ({f})")
    _, eta, _ = _channel(pf, cert)
    rd = pf.rd
    n, m, s = (rd.gens[v] for v in ("n_", "m_", "s_"))
    e = pf.poly(eta)
    facts = {"m_ - n_": (">=", m - n), "s_ - eta*m_": ("==", s - e * m)}
    pf.combination("count: s_ - eta*n_ >= 0 (a class's counts sum to eta m, none above m: 1 / max q >= eta)",
                   s - e * n, facts, ((cert.get("upper_certificate") or {}).get("multipliers") or {}).get("count"))
    pf.nonnegative("level: eta - level >= 0 on the domain", f"({eta}) - ({cert['level']})")


def _whole_domain(pf, cert, ns, timeout_ms):
    """Re-check a ``set-channel-whole-domain`` certificate (module notes)."""
    from implgraph.certify.registered import registered
    B = cert["B"]
    d = registered(B.get("definition"))
    best = getattr(getattr(d, "level_scale", None), "best_raw", None)
    pf.add("B is a registered definition, smaller is stronger, its best level 0; B_j inferred by Bayes' theorem",
           d is not None and d.stronger == "smaller" and best == 0 and B.get("inference") == "bayes",
           f"{B.get('definition')}, inference {B.get('inference')}")
    p, eta, size = _channel(pf, cert)
    pf.nonnegative("whole domain: eta - d >= 0 on the domain", f"({eta}) - ({size})")
    pf.nonnegative("whole domain: d - eta >= 0 on the domain", f"({size}) - ({eta})")
    pf.identical("Pr(R = D | v) = p / C(d - 1, d - 1) + (1 - p) / C(d, d) = 1", f"({p}) + (1 - ({p}))", "1")
    k, a = sympy.symbols("kappa A_m", positive=True)
    pf.zero("the posterior of the whole domain is the prior: kappa A_m / (kappa * 1) = A_m", k * a / (k * 1) - a)
    pf.nonnegative("level >= 0 on the domain (every class at EMD D[A, A] = 0)", str(cert["level"]))


#: the closeness lemma's variables: p, eta, d, a_Z, A_m, x, G, x*, and u (p = u / (1 + u))
CLOSENESS_VARIABLES = {"p_": "real", "h_": "real", "d_": "real", "a_": "real", "A_": "real", "x_": "real",
                       "G_": "real", "u_": "real"}


def _closeness(pf, cert, ns, timeout_ms):
    """Re-check a ``set-channel-closeness`` certificate (module notes)."""
    from implgraph.certify.accepted import part_report
    from implgraph.certify.ground_metric import ground_steps
    from implgraph.certify.registered import registered
    B, ch = cert["B"], cert["channel"]
    d = registered(B.get("definition"))
    best = getattr(getattr(d, "level_scale", None), "best_raw", None)
    pf.add("B is a registered definition, smaller is stronger, its best level 0; B_j inferred by Bayes' theorem",
           d is not None and d.stronger == "smaller" and best == 0 and B.get("inference") == "bayes",
           f"{B.get('definition')}, inference {B.get('inference')}")
    pf.add("Algorithm 1 read as its text: the smallest p over the subsets", ch.get("reading") == ALGORITHM_1_READING,
           f"reading: {ch.get('reading')!r}")
    ground_steps(pf, B, d, timeout_ms)
    rd = pf.rd
    p, h, size = sympy.symbols("p_ h_ d_", positive=True)
    odds = sympy.combsimp(sympy.binomial(size, h) / sympy.binomial(size - 1, h - 1))
    x_channel = p * odds / (1 - p)
    pf.identical("x = kc / kd - 1 = p C(d, eta) / ((1 - p) C(d - 1, eta - 1)) (combsimp)", cert["x"],
                 str(sympy.cancel(x_channel)))
    g = rd.sympy(cert["g"])
    x, a, am = (rd.symbols[v] for v in ("x_", "a_", "A_"))
    r = 1 + x
    pf.zero("eq. 12: B_m - A_m = g(x) A_m (1 - a_Z) for m in Z", am * r / (r * a + 1 - a) - am - g * am * (1 - a))
    pf.zero("eq. 12: B_m - A_m = g(x) A_m (0 - a_Z) for m not in Z", am / (r * a + 1 - a) - am - g * am * (0 - a))
    u = rd.symbols["u_"]
    of_u = sympy.cancel(g.subs(x, rd.sympy(cert["x"])).subs(rd.symbols["p_"], u / (1 + u)))
    pf.nonnegative("g(x(p)) increases with p: its derivative in u (p = u / (1 + u)) is > 0",
                   str(sympy.cancel(sympy.diff(of_u, u))), strict=True,
                   hypotheses=[(">", pf.poly("u_")), (">=", pf.poly("h_ - 1")), (">=", pf.poly("d_ - h_")),
                               (">=", pf.poly("a_")), (">=", pf.poly("1 - a_"))])
    big_g = rd.symbols["G_"]
    root = rd.sympy(cert["root"])
    pf.zero("g(x*) = G at the root x* = root(G)", g.subs(x, root) - big_g)
    back = rd.sympy(cert["x"]).subs(rd.symbols["p_"], rd.sympy(cert["p_of_root"]))
    pf.zero("x(p_of_root(x*)) = x*", back - x)
    parts = cert.get("parts") or []
    convex = [q for q in parts if isinstance(q, dict) and q.get("method") == methods.TRANSPORT_MIXTURE.name]
    pf.add("one part: D[A, .] is convex (a transport-mixture certificate)", len(parts) == 1 and len(convex) == 1,
           f"{len(parts)} parts")
    for q in convex:
        rep = part_report(q, ns, timeout_ms)      # (within the whole's budget)
        pf.add("the convexity part re-checked", rep.ok, "; ".join(w for w, _, _ in rep.failures()) or "every step holds")


def claim_steps(cert, st, ctx):
    """A ``set-channel-*`` certificate against a ``kind: level`` claim (module notes)."""
    from implgraph.certify.claim import parse_expr, same_expression
    from implgraph.certify.hypotheses import statement_domain
    from implgraph.certify.registered import registered
    names = dict(st.names)
    faults = [f"its symbol {k} is not the claim's" for k in (cert.get("symbols") or {}) if k not in st.kinds]
    faults += [f"it takes {k} an integer, the claim a real" for k, v in (cert.get("symbols") or {}).items()
               if v == "integer" and st.kinds.get(k) not in (None, "integer")]
    steps = [("its symbols are the claim's", not faults, "; ".join(faults) or "the same kinds")]
    if faults:
        return steps
    d = registered(st.node.get("definition"))
    B = cert.get("B") or {}
    steps.append(("B is the claim's definition", d is not None and B.get("definition") == d.name,
                  f"the claim: {st.node.get('definition')}; the certificate: {B.get('definition')}"))
    channel = (st.node.get("mechanism") or {}).get("set_channel") or {}
    given = cert.get("channel") or {}
    level = parse_expr(st.node.get("level"), names)
    if cert.get("method") == methods.SET_CHANNEL_CLOSENESS.name:
        steps.append(("the channel is the claim's: Algorithm 1 (the proof's reading of it, on a #reading row)",
                      channel.get("parameters") == given.get("parameters") == "algorithm-1" and st.reading,
                      f"the claim: {channel.get('parameters')}{' (its reading)' if st.reading else ''}; the "
                      f"certificate: {given.get('parameters')}, {given.get('reading')!r}"))
        from implgraph.certify.ground_metric import covers_claim
        steps.append(covers_claim(st.node.get("params"), B, d))
        closeness = channel.get("closeness")
        steps.append(("Algorithm 1 is run with the claimed level as its closeness", closeness is not None
                      and same_expression(parse_expr(closeness, names), level),
                      f"closeness {closeness}, level {st.node.get('level')}"))
    else:
        same = all(k in channel and k in given and same_expression(parse_expr(channel[k], names),
                                                                     parse_expr(given[k], names))
                   for k in ("p", "eta", "domain_size"))
        steps.append(("the channel is the claim's (p, eta, the domain size)", same,
                      f"the claim: {dict((k, channel.get(k)) for k in ('p', 'eta', 'domain_size'))}; the certificate: "
                      f"{dict((k, given.get(k)) for k in ('p', 'eta', 'domain_size'))}"))
    if channel.get("inference") is not None or B.get("inference") is not None:
        steps.append(("B's inference is the claim's", channel.get("inference") in (None, B.get("inference")),
                      f"the claim: {channel.get('inference')}; the certificate: {B.get('inference')}"))
    dom, hyps = statement_domain(cert, st, names)
    steps += dom
    if cert.get("level") is not None and d is not None:
        mine = parse_expr(cert["level"], names)
        rel = sympy.Ge(mine, level, evaluate=False) if d.stronger == "larger" else sympy.Le(mine, level, evaluate=False)
        ok, how = hyps.implied(rel)
        steps.append(("its level is at least as strong as the claimed level", ok, f"{rel} ({how})"))
    return steps


def _claim(cert, st, ctx):
    return claim_steps(cert, st, ctx)


check_diversity = lemma(methods.SET_CHANNEL_DIVERSITY, describe=_describe, claim=("level", _claim))(
    _checked(_diversity, COUNT_VARIABLES))
check_whole_domain = lemma(methods.SET_CHANNEL_WHOLE_DOMAIN, describe=_describe, claim=("level", _claim))(
    _checked(_whole_domain))
check_closeness = lemma(methods.SET_CHANNEL_CLOSENESS, describe=_describe, claim=("level", _claim))(
    _checked(_closeness, CLOSENESS_VARIABLES))
