"""Signs of factors on a certificate's domain, read off its factored conditions, for the proofs that need more than
the shift argument (:mod:`implgraph.kernel_coq.shift`).

A domain condition ``g >= 0`` whose polynomial factors as ``c * h * prod h_j^e_j``, where the shift argument shows
each ``h_j`` of a strict sign, gives the sign of ``h``: ``s h >= 0`` with ``s`` the sign of ``c prod h_j^e_j``. (For
``-(T - 1)^2 (N T + N - 10 T + 10) >= 0`` where ``T - 1 > 0``: ``-(N T + N - 10 T + 10) >= 0``.) The Coq proof divides
the condition by the positive ``|c| prod (s_j h_j)^e_j`` (the library's ``pos_scaled``, ``pos_prod``); the facts are
asserted at the start of a proof so that ``lra`` and ``nra`` use them. The generator does not judge: Coq checks each
step.
"""

from __future__ import annotations

from implgraph.kernel_coq.shift import shift_choice

__all__ = ["derived_facts"]


def _strict_sign(h, atoms):
    if shift_choice(h, atoms, strict=True) is not None:
        return 1
    if shift_choice(-h, atoms, strict=True) is not None:
        return -1
    return None


def _derived(g, atoms):
    """``[(fact, positive cofactor, [(s_j h_j, e_j)], |c|)]`` for the factors of ``g >= 0`` of exponent 1."""
    c, factors = g.factor_list()
    if len(factors) < 2:
        return []
    out = []
    for t, (h, e) in enumerate(factors):
        others = factors[:t] + factors[t + 1:]
        signs = [_strict_sign(h2, atoms) for h2, _ in others]
        if e != 1 or None in signs:
            continue
        sign = 1 if c > 0 else -1
        for s, (_, e2) in zip(signs, others):
            sign *= s ** e2
        leaves = [(s * h2, e2) for s, (h2, e2) in zip(signs, others)]
        cof = g.ring(c * sign)
        for h2, e2 in others:
            cof *= h2 ** e2
        out.append((h * sign, cof, leaves, abs(c)))
    return out


def derived_facts(f, prefix="S"):
    """``(lines, facts)``: Coq lines asserting ``prefix<i> : 0 <= s h`` for each factor a condition of ``f``'s domain
    signs, and those facts as atoms ``(">=", s h)`` for the shift argument."""
    tr = f.tr
    atoms = f.atoms()
    lines, facts, seen = [], [], set()
    for op, g in atoms:
        if op not in (">=", ">"):
            continue
        for fact, cof, leaves, c in _derived(g, atoms):
            if fact in seen or fact.is_ground:
                continue
            seen.add(fact)
            name = f"{prefix}{len(facts)}"
            prod = " * ".join([f"({tr.poly(g.ring(c))})"] + [f"({tr.poly(h)}) ^ {e}" for h, e in leaves])
            lines += [f"assert ({name} : 0 <= {tr.poly(fact)}).",
                      f"{{ apply (pos_scaled ({tr.poly(cof)})).",
                      f"  - replace ({tr.poly(cof)}) with ({prod}) by ringq.",
                      *[f"    assert (0 < {tr.poly(h)}) by {f.nonneg(h, strict=True)}." for h, _ in leaves],
                      "    pos_prod.",
                      f"  - match goal with |- 0 <= ?g => replace g with ({tr.poly(g)}) by ringq end. lra. }}"]
            facts.append((">=", fact))
    return lines, facts


def _leaf_sign(h, atoms, facts, strict):
    """``(s, tactic)`` with ``0 <= s h`` (``<`` when strict) shown by the shift argument or a derived fact, or None."""
    for s in (1, -1):
        if shift_choice(s * h, atoms, strict) is not None:
            return s, None
    if not strict:
        for _, fact in facts:
            ratio = fact.cancel(h)
            if ratio[0].is_ground and ratio[1].is_ground:
                return (1 if ratio[0].LC * ratio[1].LC > 0 else -1), "lra"
    return None


def factor_tactic(f, p, facts, strict=False):
    """A tactic proving ``0 <= p`` (``0 < p``) factor by factor: each factor's sign by the shift argument or a derived
    fact (``facts``); one factor of unknown sign (odd exponent) takes the sign p's needs, shown by ``lra``/``nra``.
    None where p does not factor so."""
    c, factors = p.factor_list()
    if not factors or (len(factors) == 1 and factors[0][1] == 1):
        return None
    atoms = f.atoms([fa for fa in facts])
    signs, unknown = [], []
    for k, (h, e) in enumerate(factors):
        got = _leaf_sign(h, atoms, facts, strict)
        if got is None and e % 2 == 1:
            unknown.append(k)
        signs.append(got)
    if len(unknown) > 1 or (strict and any(s is None and e % 2 == 0 for s, (_, e) in zip(signs, factors))):
        return None
    total = 1 if c > 0 else -1
    for s, (_, e) in zip(signs, factors):
        total *= (s[0] if s else 1) ** e
    tr = f.tr
    leaves, steps = [], []
    rel = "<" if strict else "<="
    for k, ((h, e), s) in enumerate(zip(factors, signs)):
        if s is None and e % 2 == 0:
            steps.append(f"assert (0 <= ({tr.poly(h)}) ^ 2) by apply pow2_ge_0")
            leaves.append(f"(({tr.poly(h)}) ^ 2) ^ {e // 2}")
            continue
        sign = s[0] if s else total
        how = "first [lra | nra]" if s is None or s[1] else f.nonneg(sign * h, facts, strict=strict)
        steps.append(f"assert (0 {rel} {tr.poly(sign * h)}) by {how}")
        leaves.append(f"({tr.poly(sign * h)}) ^ {e}")
    prod = " * ".join([f"({tr.poly(p.ring(abs(c)))})"] + leaves)
    steps.append(f"match goal with |- _ {rel} ?g => replace g with ({prod}) by ringq end")
    steps.append("pos_prod" if strict else "pos")
    return "(" + "; ".join(steps) + ")"


def sign_tactic(f, p, facts, strict=False):
    """A tactic proving ``0 <= p`` (``0 < p``) on ``f``'s domain and the derived ``facts``: the shift argument, else
    :func:`factor_tactic`, else ``nra``."""
    atoms = f.atoms(facts)
    if p.is_ground or shift_choice(p, atoms, strict) is not None:
        return f.nonneg(p, facts, strict=strict)
    return factor_tactic(f, p, facts, strict) or "nra"
