"""Rules: the encoded edge claims as directed facts between two endpoints.

Every encoded edge claim of ``theorems/*.yaml`` becomes one or more directed *rules*
(:class:`Rule`): an implication ``A => B`` with its level function ``f`` or a non-implication
``A =/=> B`` with its witness, each with the claim id, the paper, the conditions and a verdict (from
``implgraph verify``, handed in by the caller; never the data's ``expect``, and ``unknown`` when not
given).  An ``equivalent`` or ``reciprocal`` claim gives two implications, a ``generalisation`` an
implication and the converse non-implication; a claim whose proof reads differently from its printed
statement gives the printed rules *and* the reading's rules (``basis="reading"``).

:func:`structural_rules` adds the implications that hold by definition between the partition sizes of
a class-based definition (classes of at least k + 1 records are classes of at least k records).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import sympy

from implgraph import definitions
from implgraph.core.errors import InputError
from implgraph.definitions.capabilities import RatioLevel, SubsetSize
from implgraph.definitions.nodes import node_text
from implgraph.io.datafile import data_files
from implgraph.io.validate import load_yaml
from implgraph.io.theorems import load_theorems
from implgraph.map.verdicts import is_established, verdict_lookup

__all__ = ["Endpoint", "Rule", "PAPER_DASHED", "N_SYM", "STRUCTURAL_BASIS", "SINGLETON_BASIS", "DEFINITION_BASES",
           "load_edges", "load_rules", "rules_from_edges", "structural_rules", "singleton_rules", "is_structural",
           "check_theorem_paths"]

#: papers whose edges are drawn dashed (Fig. 1/2 of [1]: "findings by Domingo-Ferrer and Soria-Comas").
PAPER_DASHED = ("domingo-ferrer2015",)
#: the basis of a structural rule (:func:`structural_rules`); its key is ``definition/NAME#min-class-size``.
STRUCTURAL_BASIS = "min-class-size"
#: the basis of an identity by definition (:func:`singleton_rules`): a class-based definition on singleton
#: classes is the subset-based one on subsets of one record; key ``definition/A=B#singleton-classes``.
SINGLETON_BASIS = "singleton-classes"
#: the bases of the rules that hold by definition (labelled so, never a paper's claim)
DEFINITION_BASES = (STRUCTURAL_BASIS, SINGLETON_BASIS)

N_SYM = sympy.Symbol("N", integer=True)


@dataclass(frozen=True)
class Endpoint:
    """One end of a rule: a definition family with its (symbolic) parameters.

    ``params`` holds the definition's own parameters (e.g. a group size ``k``) and, for a
    definition evaluated on a partition (``needs_classes``), ``k`` = the minimum class size and
    ``max`` = the maximum class size when the claim restricts them.  ``generic`` is True for a
    partition-based definition without any class restriction (any partition: minimum size >= 1).

    Not a :class:`implgraph.definitions.nodes.Node`: an endpoint also carries the level symbol of its side and
    the ``generic`` flag ("every partition"), and its class sizes are unified like any parameter when
    a rule is instantiated; it is *printed* in the one node grammar (:meth:`label`).
    """

    definition: str
    params: tuple = ()          # ((name, sympy expr), ...)
    scope: str = "table"
    level: sympy.Symbol | None = None
    generic: bool = False

    @property
    def family(self) -> str:
        return self.definition + ("@class" if self.scope == "class" else "")

    @property
    def param_dict(self) -> dict:
        return dict(self.params)

    def label(self) -> str:
        """The endpoint in the node grammar: ``NAME(k=k0)``, ``NAME(k=k)@class``."""
        return node_text(self.definition, self.params, "@class" if self.scope == "class" else "")


@dataclass
class Rule:
    """A directed fact (or printed claim) between two endpoints.

    Attributes
    ----------
    claim : str
        The claim id (``ekenstedt2022/theorem-2b``).
    kind : str
        ``implies`` or ``not-implies``.
    basis : str
        ``printed``, ``reading`` (the proof's reading of a printed statement), ``converse`` (the
        second direction of an equivalence) or ``strict`` (the converse non-implication of a
        generalisation).
    a, b : Endpoint
    f : sympy expression or None
        B's level as a function of A's level symbol ``a.level`` (implications).
    when : tuple
        Conditions (sympy relations), a conjunction.
    kinds : dict
        ``{Symbol: "real" | "integer"}`` of every symbol.
    verdict : str
        From computed verify results (``unknown`` where none was computed).
    witness : str or None
    paper, source, printed : str
    file, line : where the claim is written.
    """

    claim: str
    kind: str
    basis: str
    a: Endpoint
    b: Endpoint
    f: object = None
    when: tuple = ()
    kinds: dict = field(default_factory=dict)
    verdict: str = "unknown"
    verdict_from: str = "not computed"
    witness: str | None = None
    witness_min_class: int | None = None
    paper: str = ""
    source: str = ""
    printed: str = ""
    file: str | None = None
    line: int | None = None

    @property
    def key(self) -> str:
        return self.claim if self.basis == "printed" else f"{self.claim}#{self.basis}"

    @property
    def established(self) -> bool:
        return is_established(self.verdict)

    @property
    def dashed(self) -> bool:
        return self.paper in PAPER_DASHED

    def __repr__(self):
        arrow = "=>" if self.kind == "implies" else "=/=>"
        return f"<Rule {self.key}: {self.a.label()} {arrow} {self.b.label()} [{self.verdict}]>"


# ------------------------------------------------------------------------------------------------
# loading
# ------------------------------------------------------------------------------------------------

def check_theorem_paths(paths):
    """InputError unless every path is a ``.yaml`` file in a folder named ``theorems``."""
    for p in paths or []:
        path = Path(p)
        if not path.is_file():
            raise InputError("no such file", file=str(p), fix="give a theorems data file (.yaml)")
        if path.parent.name != "theorems" or path.suffix not in (".yaml", ".yml"):
            raise InputError("a theorems file must be a .yaml file in a folder named `theorems`", file=str(p),
                             fix="move it to a `theorems/` folder")


def load_edges(paths=None) -> list:
    """The validated edge claims (:class:`implgraph.io.theorems.Edge`) of the theorems data.

    ``paths``: theorem files (``.../theorems/*.yaml``) instead of the bundled data.
    """
    check_theorem_paths(paths)
    return load_theorems(paths)


def _witness_min_class_sizes() -> dict:
    """``{table id: smallest class size}`` for witness tables with concrete classes."""
    out = {}
    for path in data_files("counterexamples"):
        doc = load_yaml(path)
        if not isinstance(doc, dict):
            continue
        for t in doc.get("tables") or []:
            if not isinstance(t, dict) or not t.get("id"):
                continue
            sizes: dict = {}
            ok = True
            for row in t.get("rows") or []:
                if not isinstance(row, dict) or row.get("class") is None:
                    ok = False
                    break
                count = row.get("count", 1)
                try:
                    n = int(str(count))
                except ValueError:
                    ok = False
                    break
                sizes[str(row["class"])] = sizes.get(str(row["class"]), 0) + n
            if ok and sizes:
                out[str(t["id"])] = min(sizes.values())
    return out


def _endpoint(side, generic_ok=True) -> Endpoint:
    params = dict(side.params)
    generic = False
    if side.classes:
        if "min_size" in side.classes:
            params["k"] = side.classes["min_size"]
        if "max_size" in side.classes:
            params["max"] = side.classes["max_size"]
    elif side.definition.needs_classes:
        generic = True
    return Endpoint(definition=side.name, params=tuple(params.items()), scope=side.scope or "table",
                    level=side.level, generic=generic)


def rules_from_edges(edges, verdicts=None) -> list:
    """Turn edge claims into directed rules (see the module docstring)."""
    lookup = verdict_lookup(verdicts)
    min_class = _witness_min_class_sizes()
    rules = []
    for e in edges:
        if e.a.of or e.b.of:
            continue    # about another quantity (e.g. an intruder's view, ``of:``), not the definitions' levels
        node = e.node
        paper = str(e.id).split("/")[0]
        common = dict(claim=str(e.id), kinds=dict(e.kinds), when=tuple(e.when), paper=paper,
                      source=str(node.get("source", "")), printed=str(node.get("printed", "")),
                      file=node.file, line=node.line)

        def verdict_of(key):
            if key in lookup:
                return lookup[key], "verify"
            return "unknown", "not computed"

        v, vfrom = verdict_of(str(e.id))
        rules += _rules_of(e.kind, e.a, e.b, e.f, e.g, e.witness, v, vfrom, "printed", common, min_class)
        if e.reading_kind:
            rv, rfrom = verdict_of(f"{e.id}#reading")
            ra = e.reading_a or e.a
            rf = e.reading_f if e.reading_f is not None else e.f
            rules += _rules_of(e.reading_kind, ra, e.reading_b or e.b, rf, e.g, e.reading_witness or e.witness, rv, rfrom,
                               "reading", common, min_class)
    return rules


def _rules_of(kind, a, b, f, g, witness, verdict, vfrom, basis, common, min_class) -> list:
    A, B = _endpoint(a), _endpoint(b)
    mk = lambda **kw: Rule(verdict=verdict, verdict_from=vfrom, **common, **kw)  # noqa: E731
    wmin = min_class.get(str(witness)) if witness else None
    if kind == "implies":
        return [mk(kind="implies", basis=basis, a=A, b=B, f=f)]
    if kind == "not-implies":
        return [mk(kind="not-implies", basis=basis, a=A, b=B, witness=witness, witness_min_class=wmin)]
    if kind in ("equivalent", "reciprocal"):
        out = [mk(kind="implies", basis=basis, a=A, b=B, f=f)]
        if g is not None:
            out.append(mk(kind="implies", basis="converse" if basis == "printed" else f"{basis}-converse",
                          a=B, b=A, f=g))
        return out
    if kind == "generalisation":
        return [mk(kind="implies", basis=basis, a=A, b=B, f=f),
                mk(kind="not-implies", basis="strict" if basis == "printed" else f"{basis}-strict", a=B, b=A,
                   witness=witness, witness_min_class=wmin)]
    return []


def load_rules(paths=None, verdicts=None) -> list:
    """Load the theorems data and return its rules (verdicts from ``verdicts``; ``unknown`` where none is given)."""
    return rules_from_edges(load_edges(paths), verdicts)



def is_structural(key: str) -> bool:
    """True for the key of a rule from :func:`structural_rules`."""
    return key.startswith("definition/") and key.endswith("#" + STRUCTURAL_BASIS)


def structural_rules(families) -> list:
    """The implications between partition sizes that hold by definition (Definition 4 of [1]).

    For every class-based family (``needs_classes``) among ``families``: a partition whose classes
    all have at least k + 1 records has classes of at least k records, at the same level.
    Key ``definition/NAME#min-class-size`` (:func:`is_structural`), ``paper="definition"``.

    References
    ----------
    .. [1] E. Ekenstedt et al., "When Differential Privacy Implies Syntactic Privacy", IEEE TIFS 17, 2022.
    """
    out = []
    for fam in families:
        try:
            d = definitions.get(fam.replace("@class", ""))
        except InputError:
            continue
        if not d.needs_classes:
            continue
        k, k1 = sympy.Symbol("k", integer=True), sympy.Symbol("k1", integer=True)
        lvl = sympy.Symbol(d.level_symbol, real=True)
        scope = "class" if fam.endswith("@class") else "table"
        out.append(Rule(claim=f"definition/{d.name}", kind="implies", basis=STRUCTURAL_BASIS,
                        a=Endpoint(d.name, (("k", k1),), scope, lvl), b=Endpoint(d.name, (("k", k),), scope, lvl),
                        f=lvl, when=(sympy.Eq(k1, k + 1), k >= 1), kinds={k: "integer", k1: "integer"},
                        verdict="proved", verdict_from="definition", paper="definition",
                        source=f"{d.reference or d.name}: a partition whose classes have >= k + 1 records "
                               "has classes of >= k records (same level)",
                        printed=f"{d.name} with classes >= k + 1 => with classes >= k"))
    return out + singleton_rules(families)


def _one_record_params(d):
    """``{name: value in N}`` for which the subset-based definition ``d`` compares subsets of exactly one
    record with the table (its declared ``subset_size``; one parameter solved for), or None."""
    free = [p for p in d.params if p not in d.words]
    size = d.declared(SubsetSize)
    if len(free) > 1 or size is None:
        return None
    if not free:
        return {} if sympy.simplify(size.size(N_SYM, {}) - 1) == 0 else None
    sym = sympy.Symbol(free[0], integer=True)
    try:
        sols = sympy.solve(sympy.Eq(size.size(N_SYM, {free[0]: sym}), 1), sym)
    except (NotImplementedError, TypeError, KeyError):
        return None
    return {free[0]: sols[0]} if len(sols) == 1 else None


def singleton_rules(families) -> list:
    """The identities by definition between a class-based and a subset-based ratio of averages.

    A class-based definition (``family = "class"``) on a partition into singleton classes (classes of at
    least and at most 1 record) compares every record with the whole table, as a subset-based one
    (``family = "subset"``) with subsets of one record does, on the same sides: both levels are the same
    raw ratio, each in its own scale. Both directions, ``paper="definition"``, key
    ``definition/A=B#singleton-classes``; unlike :func:`structural_rules`' steps these compose: the
    singleton partition is the only partition into classes of 1 record, so the identity holds for a table
    with its partition and for every such partition alike.
    """
    defs = {}
    for fam in families:
        if fam.endswith("@class"):
            continue
        try:
            defs[fam] = definitions.get(fam)
        except InputError:
            continue
    out = []
    one = sympy.Integer(1)
    ratios = [(d, d.declared(RatioLevel)) for d in defs.values()]
    for c, rc in ((d, r) for d, r in ratios if r is not None and r.family == "class"):
        for s, rs in ((d, r) for d, r in ratios if r is not None and r.family == "subset"):
            if rc.sides != rs.sides:
                continue
            params = _one_record_params(s)
            if params is None:
                continue
            lc, ls = sympy.Symbol(c.level_symbol, real=True), sympy.Symbol(s.level_symbol + "_", real=True)
            ca = Endpoint(c.name, (("k", one), ("max", one)), "table", lc)
            sb = Endpoint(s.name, tuple(params.items()), "table", ls)
            common = dict(claim=f"definition/{c.name}={s.name}", basis=SINGLETON_BASIS, kind="implies",
                          when=(N_SYM >= 2,), kinds={N_SYM: "integer"}, verdict="proved", verdict_from="definition",
                          paper="definition",
                          source=(f"{c.reference or c.name} and {s.reference or s.name}: a class of one record and "
                                  "a subset of one record are the same set, compared with the whole table the same "
                                  "way (same level, each in its own scale)"))
            out.append(Rule(a=ca, b=sb, f=s.level_from_raw(c.raw_from_level(lc)),
                            printed=f"{c.name} on singleton classes => {sb.label()}", **common))
            out.append(Rule(a=sb, b=ca, f=c.level_from_raw(s.raw_from_level(ls)),
                            printed=f"{sb.label()} => {c.name} on singleton classes", **common))
    return out
