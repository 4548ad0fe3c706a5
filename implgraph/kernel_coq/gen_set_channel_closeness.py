"""Coq proofs of ``set-channel-closeness`` certificates (sei2019 Theorem 4, Algorithm 1 read as its text: the
smallest p over the subsets).

The statement (the library's ``SetChannelCloseness.closeness_shifted``), in the certificate's terms: for every value
of the certificate's symbols on its domain and every closeness ``t >= 0`` Algorithm 1 is run with, every prior ``a``
over K values, B's ground distance one of those the certificate names (``B["grounds"]``, each a cost formula the
library defines and proves a metric: ``equal_ground``, ``ordered_ground K``; another is Untranslatable), channel
``1 <= eta <= K``, ``0 <= p <= 1`` and records' released sets ``Z k`` of positive probability: if for each released
set of prior mass ``s > 0`` the distance ``D[A, A + v_Z]`` (``v_Z m = a m (1[m in Z] - s)``, eq. 12's direction
``B - A = g(x) v_Z``) is at most some ``D`` with either ``D <= s t`` (``g(x) = t / D`` has no root: every p serves)
or p at most the p Algorithm 1 solves for, ``p_of_root(root(t / D))`` (the certificate's forms, with ``a_`` the set's
mass, ``h_`` eta, ``d_`` K), then every class's mean Bayes posterior is within ``t`` of the prior (EMD, sei2019
Definitions 5 and 15). The library proves both grounds metrics and the distance homogeneous along the segment from
the prior to the prior conditioned on the set for a metric (``TransportMetric.emd_scale_up``), which turns
``D[A, A + v_Z]`` into ``closeness_root``'s ``s E``. The proof instantiates the lemma with the certificate's forms
``x``, ``g``, ``root``, ``p_of_root`` as Coq functions and proves the section's four hypotheses, each an identity on
its domain, by ``field``: an edited form fails there. The convexity part (``transport-mixture``, the convexity the
closeness rests on, at weights ``1 - lam`` and ``lam``) is proved in the same file by its own generator
(``gen_transport``: an edited bound fails its ``ring``).
"""

from __future__ import annotations

import ast

import sympy

from implgraph.core.errors import InputError
from implgraph.core.formula import parse_expr
from implgraph.kernel_coq import adapter
from implgraph.kernel_coq.coqexpr import Translator, Untranslatable
from implgraph.kernel_coq.gen_transport import transport_mixture

__all__ = ["set_channel_closeness", "MODULES", "COQ_GROUNDS"]

MODULES = ("Bayes", "SetChannelCloseness", "Transport", "TransportMetric")
#: the forms' variables -> their Coq names (bound by each form's ``fun``)
_VARS = {"p_": "fp", "h_": "fh", "d_": "fd", "a_": "fs", "x_": "fx", "G_": "fG"}
#: each form: its certificate key and its parameters, in the order of the library's section variables
_FORMS = (("x", ("p_", "h_", "d_")), ("g", ("x_", "a_")), ("root", ("G_", "a_")), ("p_of_root", ("x_", "h_", "d_")))
#: the four hypotheses' proofs (identities on their domains)
_PROOFS = ("intros fp fh fd H1 H2 H3; cbv beta; field; repeat split; nra.",
           "intros fx fs H1 H2; cbv beta; field; nra.",
           "intros fG fs H1 H2 H3; cbv beta; field; lra.",
           "intros fx fh fd H1 H2 H3; cbv beta; field; nra.")
_BOUND = {"t", "N", "K", "eta", "p", "a", "dist", "Z", "cls", "i", "k", "m", "D", *_VARS.values()}
_CONVEXITY = {"method": "transport-mixture", "program": {"convex_in": "columns"}, "weights": ["1 - lam", "lam"]}
#: the library's ground distances (``TransportMetric.v``), each proved a metric there (``metric_equal``,
#: ``metric_ordered``, the disjuncts of ``emd_ground``): its cost d(i, j) over K values as a certificate writes it
#: -> its Coq term
COQ_GROUNDS = {"Piecewise((0, Eq(i, j)), (1, True))": "equal_ground", "Abs(i - j)/(K - 1)": "ordered_ground K"}


def _grounds(B):
    """The disjunction ``dist = ... \\/ ...`` of the certificate's grounds, each by the library's definition of
    its cost (the cost formulas compared as the formula reader reads them)."""
    names = {n: sympy.Symbol(n) for n in ("i", "j", "K")}
    known = {parse_expr(text, names): term for text, term in COQ_GROUNDS.items()}
    grounds = B.get("grounds")
    if not isinstance(grounds, dict) or not grounds:
        raise Untranslatable("a set-channel closeness whose certificate names no ground distance")
    terms = []
    for name, cost in grounds.items():
        try:
            term = known.get(parse_expr(str(cost), names))
        except InputError:
            term = None
        if term is None:
            raise Untranslatable(f"the ground {name} (d(i, j) = {str(cost)[:60]}): no Coq definition proved a metric")
        terms.append(f"dist = {term}")
    return " \\/ ".join(dict.fromkeys(terms))


class _Rename(ast.NodeTransformer):
    def visit_Name(self, node):
        if node.id not in _VARS:
            raise Untranslatable(f"a form of the set channel in a name other than its variables: {node.id}")
        return ast.copy_location(ast.Name(id=_VARS[node.id], ctx=node.ctx), node)


def _form(raw, key, params):
    """``(fun ... => e)``: the certificate's form ``key`` over its ``params`` only."""
    try:
        tree = ast.parse(str(raw[key]).strip(), mode="eval")
    except (KeyError, SyntaxError):
        raise Untranslatable(f"a set-channel-closeness certificate without a readable {key}") from None
    text = ast.unparse(_Rename().visit(tree))
    names = [_VARS[v] for v in params]
    return f"(fun {' '.join(names)} => {Translator({n: 'real' for n in names}).expr(text)})"


def _parts_ok(raw):
    parts = list(raw.get("parts") or [])
    return len(parts) == 1 and all(parts[0].get(k) == v for k, v in _CONVEXITY.items())


def set_channel_closeness(cert, name):
    """The Coq text of a ``set-channel-closeness`` certificate's theorem ``name``."""
    raw = cert.raw if isinstance(cert, adapter.Cert) else cert
    symbols = dict(raw.get("symbols") or {})
    B, ch = raw.get("B") or {}, raw.get("channel") or {}
    if B.get("definition") != "emd-t-closeness" or B.get("inference") != "bayes":
        raise Untranslatable("a set-channel closeness judged by other than EMD t-closeness of the Bayes posteriors")
    if ch.get("parameters") != "algorithm-1" or ch.get("reading") != "the smallest p over the subsets Z":
        raise Untranslatable("a set channel other than Algorithm 1 read as the smallest p over the subsets")
    if not _parts_ok(raw):
        raise Untranslatable("a closeness resting on other than the transportation program's convexity")
    if set(symbols) & _BOUND:
        raise Untranslatable("a symbol named like the theorem's own variables")
    grounds = _grounds(B)
    X, g, root, pr = (_form(raw, key, params) for key, params in _FORMS)
    tr = Translator(symbols)
    doms = [tr.relation(d) for d in dict.fromkeys(raw.get("domain") or [])]
    nats = sorted(s for s, k in symbols.items() if k == "integer")
    reals = sorted(s for s, k in symbols.items() if k != "integer")
    binders = " ".join(b for b in (f"({' '.join(nats)} : nat)" if nats else "",
                                   f"({' '.join(reals)} : R)" if reals else "") if b)
    head = f"Theorem {name} : forall {binders}," if binders else f"Theorem {name} :"
    mass = "sumS K (Z k) a"
    shifted = f"(fun m => a m + a m * ((if Z k m then 1 else 0) - {mass}))"
    alg1 = f"{pr} ({root} (t / D) ({mass})) (INR eta) (INR K)"
    lines = [head] + [f"  {d} ->" for d in doms] + [
        "  forall (t : R), 0 <= t ->",
        "  forall (N K eta : nat) (p : R) (a : nat -> R) (dist : nat -> nat -> R) (Z : nat -> rset) (cls : nat -> nat),",
        f"  (1 <= eta <= K)%nat -> prior K a -> ({grounds}) -> 0 <= p <= 1 ->",
        "  (forall k, (k < N)%nat -> 0 < evid K eta p a (Z k)) ->",
        f"  (forall k, (k < N)%nat -> 0 < {mass} -> exists D, emd_le K dist a {shifted} D /\\",
        f"     (D <= {mass} * t \\/ ({mass} * t < D /\\ p <= {alg1}))) ->",
        "  forall i, (i < N)%nat -> emd_le K dist a (class_posterior N K eta p a Z cls i) t.", "Proof."]
    hyps = " ".join(f"D{i}" for i in range(len(doms)))
    lines.append("  " + " ".join(f"intros {' '.join(nats + reals)} {hyps} t Ht N K eta p a dist Z cls Heta Ha Hd Hp "
                                 "Hev HZ.".split()))
    lines.append("  assert (Hg : emd_ground K dist) by (unfold emd_ground; tauto).")
    lines.append(f"  refine (closeness_shifted {X}\n    {g}\n    {root}\n    {pr}\n"
                 "    _ _ _ _ N K eta p a dist Z cls t Heta Ha Hg Ht Hp Hev HZ).")
    lines += [f"  - {p}" for p in _PROOFS]
    convexity = transport_mixture(raw["parts"][0], f"{name}_convexity")
    return convexity + "\n" + "\n".join(lines + ["Qed.\n"])
