"""``transport-mixture``: the optimum of a transportation program is convex in one marginal (sei2019 Lemma 1).

**Lemma** (trusted: linear programming). Definition 5's program, of any size and any ground distance: flows
``f[i, j] >= 0`` with row sums ``a[i]`` and column sums ``b[j]``, cost ``sum dist[i, j] f[i, j]``, ``D[a, b]`` its
minimum (the marginals' roles swap for ``program: {convex_in: rows}``). If f is optimal for (a, b) and g for (a, b'),
then ``h = w1 f + w2 g`` with weights ``w1 + w2 = 1``, ``w1, w2 >= 0`` is a flow (``h >= 0``) whose shared marginal is
``w1 a + w2 a = a`` and whose other marginal is the mixture ``w1 b + w2 b'``, and it costs ``w1 cost(f) + w2 cost(g)``
(finite sums, term by term); so ``D[a, w1 b + w2 b'] <= w1 D[a, b] + w2 D[a, b']``.

**Obligations** (one term: ``f_``, ``g_``, the shared marginal's ``a_``, the cost ``c_``): the certificate's
``weights`` sum to 1 (exact) and each is >= 0 on the domain (so h >= 0 wherever f, g >= 0); *shared marginal*
``w1 a_ + w2 a_ = a_`` and *cost* ``c_ (w1 f_ + w2 g_) = w1 c_ f_ + w2 c_ g_`` identically; and the certificate's
``claim``: its ``formula`` is the relation ``mixed <= w1 * parts[0] + w2 * parts[1]`` (its right side identically
so), the symbols ``mixed`` and ``parts`` standing for the three optima.
"""

from __future__ import annotations

import ast

from implgraph.certify.lemmas import lemma
from implgraph.certify.lemmas.proof import Proof
from implgraph.core import methods

__all__ = ["check"]

#: one term of the program: the two flows, the shared marginal, the cost
VARIABLES = {"f_": "real", "g_": "real", "a_": "real", "c_": "real"}


def _describe(cert):
    claim = cert.get("claim") or {}
    return [f"  domain: {', '.join(cert.get('domain') or [])}",
            f"  h = ({(cert.get('weights') or ['?', '?'])[0]}) f + ({(cert.get('weights') or ['?', '?'])[-1]}) g: a "
            f"flow for the mixed marginal ({(cert.get('program') or {}).get('convex_in')}), costing the mixture",
            f"  claim: {claim.get('formula')}"]


@lemma(methods.TRANSPORT_MIXTURE, describe=_describe, claim=("math", lambda cert, st, ctx: claim_steps(cert, st, ctx)))
def check(cert, ns=range(2, 13), timeout_ms=4000):
    """Re-check a ``transport-mixture`` certificate (module notes): a
    :class:`~implgraph.certify.report.CertificateReport`."""
    from implgraph.certify import UNREADABLE
    pf = None
    try:
        pf = Proof(cert, VARIABLES, timeout_ms)
        pf.add("the program is convex in its rows or its columns", (cert.get("program") or {}).get("convex_in")
               in ("rows", "columns"), f"convex_in: {(cert.get('program') or {}).get('convex_in')}")
        weights = [str(w) for w in cert.get("weights") or []]
        if not pf.add("two weights", len(weights) == 2, f"{len(weights)} weights"):
            return pf.report()
        w1, w2 = weights
        pf.identical("the weights sum to 1", f"({w1}) + ({w2})", "1")
        pf.nonnegative("w1 >= 0 on the domain (h >= 0)", w1)
        pf.nonnegative("w2 >= 0 on the domain (h >= 0)", w2)
        pf.identical("shared marginal: w1 a + w2 a = a", f"({w1})*a_ + ({w2})*a_", "a_")
        pf.identical("cost: c (w1 f + w2 g) = w1 c f + w2 c g", f"c_*(({w1})*f_ + ({w2})*g_)",
                     f"({w1})*c_*f_ + ({w2})*c_*g_")
        claim = cert.get("claim") or {}
        op, lhs, rhs = pf.rd.relation(str(claim.get("formula")))
        mixed, parts = str(claim.get("mixed")), [str(x) for x in claim.get("parts") or []]
        pf.add("the claim is mixed <= (the right side)", op == "<=" and ast.unparse(lhs) == mixed and len(parts) == 2
               and all(x in (cert.get("symbols") or {}) for x in [mixed, *parts]), str(claim.get("formula")))
        if len(parts) == 2:
            pf.identical("the claim's right side is w1 D[a, b] + w2 D[a, b']", ast.unparse(rhs),
                         f"({w1})*{parts[0]} + ({w2})*{parts[1]}")
    except UNREADABLE as exc:
        pf = pf or Proof({}, {}, timeout_ms)
        pf.add("certificate readable", False, f"{exc.__class__.__name__}: {exc}")
    return pf.report()


def claim_steps(cert, st, ctx):
    """A ``transport-mixture`` certificate against a ``kind: math`` claim (module notes)."""
    from implgraph.certify.claim import parse_condition, same_expression
    from implgraph.certify.hypotheses import statement_domain
    names = dict(st.names)
    faults = [f"its symbol {k} is not the claim's" for k in (cert.get("symbols") or {}) if k not in st.kinds]
    steps = [("its symbols are the claim's", not faults, "; ".join(faults) or "the same kinds")]
    if faults:
        return steps
    formula = st.node.get("formula")
    mine = (cert.get("claim") or {}).get("formula")
    claimed = parse_condition(formula, names) if formula is not None else []
    stated = parse_condition(mine, names) if mine is not None else []
    same = len(claimed) == len(stated) == 1 and type(claimed[0]) is type(stated[0]) and \
        same_expression(claimed[0].lhs, stated[0].lhs) and same_expression(claimed[0].rhs, stated[0].rhs)
    steps.append(("its formula is the claim's", same, f"the claim: {formula}; the certificate: {mine}"))
    program = st.node.get("linear_program") or {}
    steps.append(("the program is convex in the claim's marginal", program.get("convex_in") is not None
                  and program.get("convex_in") == (cert.get("program") or {}).get("convex_in"),
                  f"the claim: {program.get('convex_in')}; the certificate: {(cert.get('program') or {}).get('convex_in')}"))
    dom, _ = statement_domain(cert, st, names)
    return steps + dom
