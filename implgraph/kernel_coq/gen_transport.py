"""Coq proofs of ``transport-mixture`` certificates (sei2019 Lemma 1: the earth mover's distance is convex in one
marginal).

The statement (the library's ``Transport.v``): for every value of the certificate's symbols on its domain, every
number K of values, ground distance and marginals ``a``, ``b1``, ``b2``, if the program from ``a`` to ``b1`` has a
flow costing at most ``parts[0]`` and to ``b2`` one costing at most ``parts[1]``, then the program to the mixture
``w1 b1 + w2 b2`` has one costing at most the right side of the certificate's ``claim`` formula (``mixed <= ...``).
The optimum is attained, so this is the claim about the three optima. The proof rewrites the right side into ``w1
parts[0] + w2 parts[1]`` (``ring``: an edited formula fails here) and applies ``Transport.transport_mixture`` with
the weights' signs and sum from the domain (``lra``, ``ring``).
"""

from __future__ import annotations

import ast

from implgraph.kernel_coq.coqexpr import Translator, Untranslatable

__all__ = ["transport_mixture", "MODULES"]

MODULES = ("Transport",)
_BOUND = {"K", "dist", "a", "b1", "b2", "H1", "H2"}


def transport_mixture(cert, name):
    """The Coq text of a ``transport-mixture`` certificate's theorem ``name``."""
    raw = cert.raw if hasattr(cert, "raw") and not isinstance(cert, dict) else cert
    if (raw.get("program") or {}).get("convex_in") != "columns":
        raise Untranslatable("a transportation program convex in other than its columns' marginal")
    symbols = dict(raw.get("symbols") or {})
    if _BOUND & set(symbols) or any(k != "real" for k in symbols.values()):
        raise Untranslatable("transport-mixture symbols must be reals not named like the theorem's variables")
    claim = raw.get("claim") or {}
    weights, parts, mixed = list(raw.get("weights") or []), list(claim.get("parts") or []), claim.get("mixed")
    if len(weights) != 2 or len(parts) != 2 or mixed not in symbols or any(p not in symbols for p in parts):
        raise Untranslatable("a transport-mixture claim other than two weighted parts and a mixed optimum")
    node = ast.parse(str(claim.get("formula")).strip(), mode="eval").body
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.LtE)
            and isinstance(node.left, ast.Name) and node.left.id == mixed):
        raise Untranslatable("a transport-mixture formula other than mixed <= ...")
    tr = Translator({k: v for k, v in symbols.items()})
    rhs = tr.expr(ast.unparse(node.comparators[0]))
    w1, w2 = (tr.expr(w) for w in weights)
    p1, p2 = (tr.name(p) for p in parts)
    doms = [tr.relation(d) for d in dict.fromkeys(raw.get("domain") or [])]
    reals = sorted(symbols)
    lines = [f"Theorem {name} : forall ({' '.join(reals)} : R),"] + [f"  {d} ->" for d in doms] + [
        "  forall (K : nat) (dist : nat -> nat -> R) (a b1 b2 : nat -> R),",
        f"  emd_le K dist a b1 {p1} -> emd_le K dist a b2 {p2} ->",
        f"  emd_le K dist a (fun j => {w1} * b1 j + {w2} * b2 j) ({rhs}).", "Proof."]
    hyps = " ".join(f"D{i}" for i in range(len(doms)))
    lines += ["  " + " ".join(f"intros {' '.join(reals)} {hyps} K dist a b1 b2 H1 H2.".split()),
              f"  replace ({rhs}) with ({w1} * {p1} + {w2} * {p2}) by ring.",
              f"  apply (transport_mixture K dist a b1 b2 ({w1}) ({w2}) {p1} {p2}); "
              "[lra | lra | ring | exact H1 | exact H2].", "Qed.\n"]
    return "\n".join(lines)
