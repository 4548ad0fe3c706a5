"""A Coq theorem per certificate: the implication stated in the library's terms (``coq/theories``), proved by
instantiating its argument's lemma with the certificate's data.

The statement: for every value of the certificate's symbols satisfying its domain, every table of N records
(``table N K x``, any number K of buckets) and every partition ``cls`` into classes the sides declare, A's level at
most T implies B's level at most U (U the certificate's ``upper``; at least ``lower`` for a level where larger is
stronger). Each side is the library's predicate for its declared kind (:func:`side_predicate`). The proof applies the
method's general lemma (proved once in the library) and discharges its premises with the certificate's own data:

- sizes are natural numbers (``isnat``), orderings and signs on the domain by ``lra``;
- U equals the lemma's bound (``field``), or each of U's ``Min`` components ``P/Q`` bounds the lemma's quantity: the
  lemma's obligation ``P B - Q A >= 0`` is, up to a factor > 0, the certificate's combination ``sum(multiplier *
  fact)`` (``ring``), every multiplier >= 0 on the domain by the shift argument (:mod:`implgraph.kernel_coq.shift`)
  and every fact >= 0 by ``lra`` (a hypothesis of the obligation).

An edited number or relation in a certificate makes one of these steps fail, so ``coqc`` rejects the file (the
generator does not judge: where the data do not fit it writes the step anyway). A certificate of a method the
generator does not cover raises :class:`Untranslatable` with the reason.

:func:`generate` writes one certificate's file; :func:`bundle` many theorems in one file (the cost of loading the
real numbers' library is paid once).

The pieces, a module each: the statement and its helpers (:mod:`implgraph.kernel_coq.statement`), the proof steps
shared by the methods (:mod:`implgraph.kernel_coq.obligations`), and the methods' proofs by the library module of
their lemmas (:mod:`implgraph.kernel_coq.methods`, :mod:`~implgraph.kernel_coq.methods_distance`,
:mod:`~implgraph.kernel_coq.methods_ratio`); here, the registry of methods and the file around them.
"""

from __future__ import annotations

from implgraph.kernel_coq import adapter
from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.methods import (_class_size, _class_size_floor, _distance_ceiling, _finite_level,
                                          _max_value, _same_distance, _same_level, _set_mass, _subset_monotone,
                                          _subset_to_classes, _vertex)
from implgraph.kernel_coq.methods_distance import (_class_distance, _one_sided_distance, _pairwise_distance,
                                                   _removal_distance, _removal_pair, _slack_removal,
                                                   _slack_removal_pair, _subset_distance)
from implgraph.kernel_coq.methods_ratio import _class_mass, _product, _rest_mass, _slack_target, _supremum
from implgraph.kernel_coq.obligations import _need, _u_is
from implgraph.kernel_coq.statement import CLASS_LEVELS, _describe, _File, side_predicate, whatever_a

__all__ = ["generate", "theorem", "bundle", "header", "COVERED", "side_predicate", "Untranslatable"]

#: the library's modules every generated file loads, and the ones a theorem may add
BASE_MODULES = ("Sums", "Tables", "Tactics", "Extreme", "Vertex", "Mass", "Compose", "Distance", "MaxValue", "Events",
                "Columns", "DistanceLemmas", "RatioLemmas", "Declared")
ENTROPY = "Entropy"
WITNESS = "Witness"
TIGHT = "Tight"


def header(extra=()) -> str:
    """The ``Require`` lines of a generated file (``extra``: more of the library's modules)."""
    mods = " ".join(BASE_MODULES)
    out = "From Coq Require Import Reals Lra Lia.\n"
    if WITNESS in extra:        # (before the library: its names, e.g. Tables.partition, win over List's)
        out += "From Coq Require Import QArith Qreals List.\nImport ListNotations.\n"
    out += f"From Implgraph Require Import {mods}.\n"
    if ENTROPY in extra or WITNESS in extra:
        out += f"From Flocq Require Import Raux.\nFrom Implgraph Require Import {ENTROPY}.\n"
    if WITNESS in extra:
        out += f"From Implgraph Require Import {WITNESS}.\n"
    if TIGHT in extra:
        out += f"From Implgraph Require Import {TIGHT}.\n"
    return out + "Open Scope R_scope.\n"


#: certificate method -> the library lemma its proof instantiates
COVERED = {
    "same-level": "(the hypothesis itself: one level predicate)",
    "subset-monotone": "Extreme.subset_monotone",
    "subset-to-classes": "Extreme.subset_to_classes",
    "vertex": "Vertex.vertex_subset / Vertex.vertex_class",
    "one-sided-ceiling": "Mass.set_mass_subset / Mass.set_mass_class",
    "min": "Compose.min_bound",
    "chain": "Declared.finite_level_of, then the second part's lemma",
    "distance-ceiling": "Distance.tv_mass",
    "same-distance": "Distance.tv_mass and Compose.min_bound",
    "subset-to-one-sided": "MaxValue.max_value",
    "subset-supremum": "RatioLemmas.supremum",
    "class-to-subset": "RatioLemmas.class_mass",
    "one-sided-class": "RatioLemmas.rest_mass",
    "product": "RatioLemmas.product (record_of_subset / record_of_classes)",
    "slack-target-pairs": "RatioLemmas.slack_target",
    "class-distance": "DistanceLemmas.class_distance",
    "one-sided-distance": "DistanceLemmas.one_sided_distance",
    "pairwise-distance": "DistanceLemmas.pairwise_distance",
    "slack-pairwise-distance": "DistanceLemmas.slack_pairwise_distance",
    "removal-distance": "DistanceLemmas.removal_distance",
    "removal-distance-pair": "DistanceLemmas.removal_pair",
    "subset-distance": "DistanceLemmas.subset_distance",
    "slack-removal-distance": "DistanceLemmas.slack_removal_distance",
    "slack-removal-distance-pair": "DistanceLemmas.slack_removal_pair",
    "class-size": "Mass.set_mass_class / Distance.tv_mass (classes of >= T records)",
    "class-size-floor": "Declared.class_size_floor",
    "finite-level-of": "Declared.finite_level_of",
    "inequality-lemmas": "Entropy.support_of_minent / support_of_shannon / shannon_of_minent",
}


METHODS = {"same-level": _same_level, "subset-monotone": _subset_monotone, "subset-to-classes": _subset_to_classes,
           "vertex": _vertex, "one-sided-ceiling": _set_mass,
           "distance-ceiling": _distance_ceiling, "same-distance": _same_distance,
           "subset-to-one-sided": _max_value, "class-distance": _class_distance,
           "one-sided-distance": _one_sided_distance, "pairwise-distance": _pairwise_distance,
           "slack-pairwise-distance": lambda f: _pairwise_distance(f, slack=True),
           "removal-distance": _removal_distance, "removal-distance-pair": _removal_pair,
           "subset-distance": _subset_distance, "slack-removal-distance": _slack_removal,
           "slack-removal-distance-pair": _slack_removal_pair, "slack-target-pairs": _slack_target,
           "one-sided-class": _rest_mass, "class-to-subset": _class_mass, "product": _product,
           "subset-supremum": _supremum, "class-size": _class_size, "class-size-floor": _class_size_floor,
           "finite-level-of": _finite_level}



def _leaf(cert, name):
    """``(file, proof lines)`` of a leaf certificate (one lemma)."""
    method = cert.method
    if method not in METHODS:
        raise Untranslatable(f"method {method!r} is not covered by the generator yet")
    f = _File(cert, name)
    if f.a is None and not whatever_a(cert):
        raise Untranslatable(f"A's level kind ({_describe(cert.A)}) has no predicate in the library")
    lines = METHODS[method](f)
    return f, lines


def _block(statement, lines):
    body = "\n".join(f"  {ln}" for ln in lines)
    return f"{statement}\nProof.\n{body}\nQed.\n"


def _call(whole, part, part_name, ha):
    """``part_name`` applied to the whole certificate's own intros: its symbols, the domain conditions and partition
    hypotheses it states (each one of the whole's), the table and ``ha`` (A's hypothesis for the part)."""
    if part.syms() != whole.syms():
        raise Untranslatable("a part whose symbols differ from the certificate's")
    # a domain condition of the part's that the whole does not state is shown from the whole's by lra (coqc
    # rejects the file where it does not follow)
    doms = [f"D{whole.doms.index(d)}" if d in whole.doms else "ltac:(lra)" for d in part.doms]
    try:
        parts = [f"P{whole.parts.index(p)}" for p in part.parts]
    except ValueError:
        raise Untranslatable("a part whose partition is not among the certificate's") from None
    rest = ["Arest"] if part.extra_binders else []
    return f"({part_name} {' '.join(whole.syms() + doms + ['K', 'x', 'cls'] + rest + ['Htab'] + parts + [ha])})"


def _min(cert, name):
    """``min``: each part its own theorem, then U = Min of the parts' bounds by ``min_bound``."""
    parts = cert.parts
    if len(parts) != 2:
        raise Untranslatable("min of other than two parts")
    out, fs = [], []
    for i, part in enumerate(parts):
        f, lines = _leaf(part, f"{name}_part{i + 1}")
        out.append(_block(f.statement(), [f.intros()] + lines))
        fs.append(f)
    whole = _File(cert, name)
    order = [0, 1] if whole.upper == f"(Rmin {fs[0].upper} {fs[1].upper})" else [1, 0]
    if whole.upper != f"(Rmin {fs[order[0]].upper} {fs[order[1]].upper})":
        raise Untranslatable("min whose U is not the Min of its two parts' bounds as written")
    lines = [whole.intros(), f"apply (min_bound (fun U => {whole.b_of('U')}))."]
    for i in order:
        pf = fs[i]
        ha = "HA" if pf.a is not None else ""
        call = _call(whole, pf, f"{name}_part{i + 1}", ha)
        lines.append(f"- exact {call.replace(' )', ')')}.")
    out.append(_block(whole.statement(), lines))
    return "\n".join(out)


def _chain(cert, name):
    """``chain``: A => X at the same level (``finite-level-of``), then X => B (the second part's theorem)."""
    parts = cert.parts
    if len(parts) != 2 or parts[0].method != "finite-level-of":
        raise Untranslatable("a chain other than finite-level-of followed by one part")
    f2, lines2 = _leaf(parts[1], f"{name}_part2")
    out = [_block(f2.statement(), [f2.intros()] + lines2)]
    whole = _File(cert, name)
    _need(whole.a is not None and whole.a.startswith("capped_level"), "a chain whose A is not a capped level")
    call = _call(whole, f2, f"{name}_part2", "(finite_level_of _ _ HA)")
    lines = [whole.intros()] + _u_is(whole, f2.upper) + [f"exact {call}."]
    out.append(_block(whole.statement(), lines))
    return "\n".join(out)


#: inequality-lemmas: fact -> (the library's theorem, the class level it assumes, the one it bounds, f, needs T >= 1)
FACTS = {"support>=min-entropy": ("support_of_minent", "min-entropy", "support", "ceiling(x)", False),
         "support>=shannon": ("support_of_shannon", "shannon", "support", "ceiling(x)", False),
         "shannon>=capped": ("shannon_of_minent", "min-entropy", "shannon", "capped(x)", True)}
_F = {"x": "T", "ceiling(x)": "IZR (Zceil T)", "capped(x)": "capped T"}


def _inequality_lemmas(cert, name):
    """``inequality-lemmas`` (one fact): B's class level at least f(T) wherever A's is at least T."""
    if len(cert.steps) != 1 or cert.steps[0] not in FACTS:
        raise Untranslatable("an inequality-lemmas certificate other than one known fact")
    lemma, _, _, _, needs_one = FACTS[cert.steps[0]]
    a = CLASS_LEVELS.get(cert.A.class_level)
    b = CLASS_LEVELS.get(cert.B.class_level)
    fb = _F.get(cert.f)
    if a is None or b is None or fb is None:
        raise Untranslatable("a class level or map the library does not state")
    one = "1 <= T -> " if needs_one else ""
    statement = (f"Theorem {name} : forall (T : R), {one}forall (N K : nat) (x : nat -> nat -> R) (cls : nat -> nat),\n"
                 f"  table N K x -> {a} N K x cls T -> {b} N K x cls ({fb}).")
    intros = "intros T H1 N K x cls Htab HA." if needs_one else "intros T N K x cls Htab HA."
    app = f"exact ({lemma} N K x cls T Htab {'H1 ' if needs_one else ''}HA)."
    return _block(statement, [intros, app])


def theorem(cert, name="certificate"):
    """``(text, modules)``: the Coq text of one certificate's theorem ``name`` (and its parts' theorems, named
    ``name_partI``), and the library's modules it needs beyond :data:`BASE_MODULES`. Raises :class:`Untranslatable`."""
    if isinstance(cert, dict):
        cert = adapter.read(cert)
    if cert.method == "min":
        return _min(cert, name), set()
    if cert.method == "chain":
        return _chain(cert, name), set()
    if cert.method == "inequality-lemmas":
        return _inequality_lemmas(cert, name), {ENTROPY}
    f, lines = _leaf(cert, name)
    return _block(f.statement(), [f.intros()] + lines), set()


def _comment(cert, sources):
    raw = cert if isinstance(cert, dict) else cert.raw
    return ("(* " + "".join(f"source: {s}\n   " for s in list(sources)[:6]) + f"method: {raw.get('method')} *)\n")


def generate(cert, sources=()) -> str:
    """The Coq file of one certificate (raises :class:`Untranslatable`)."""
    text, mods = theorem(cert, "certificate")
    head = "(* Generated by implgraph.kernel_coq from a certificate; do not edit. *)\n" + _comment(cert, sources)
    return head + header(mods) + "\n" + text + "\nPrint Assumptions certificate.\n"


#: the name of a bundle's tuple of all its theorems (its one ``Print Assumptions``)
ALL = "all_theorems"


def bundle(blocks) -> str:
    """One file of many theorems: ``blocks`` is ``[(name, text, modules, comment)]`` (from :func:`theorem`). One
    ``Print Assumptions`` at the end, of the tuple of all the theorems (:data:`ALL`): its axioms are every theorem's
    together (Print Assumptions walks the real numbers' library once per command: once per file, not per theorem)."""
    mods = set().union(*(m for _, _, m, _ in blocks)) if blocks else set()
    out = ["(* Generated by implgraph.kernel_coq; do not edit. *)\n", header(mods)]
    for name, text, _, comment in blocks:
        out.append("\n" + comment + text)
    names = ", ".join(name for name, *_ in blocks)
    out.append(f"\nDefinition {ALL} := ({names}{', I' if len(blocks) == 1 else ''}).\nPrint Assumptions {ALL}.\n")
    return "".join(out)
