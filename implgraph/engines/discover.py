"""Discover the missing edges: check every ordered pair of registered definitions.

Every registered definition is instantiated at N records with each value of its parameters
(:func:`implgraph.definitions.families.param_grid`: k = 1..N-1 for the group-size definitions). Every ordered pair
of instances whose definitions have no edge in ``theorems/*.yaml`` is checked with
:func:`implgraph.engines.checkedge.check_direction`, in parallel across pairs on the machine's cores
(:class:`concurrent.futures.ProcessPoolExecutor`); the two directions of each pair are combined into
the kinds of ekenstedt2022 Definition 3. A definition that crashes in a worker is reported and
skipped: the other pairs go on.

With ``include_known=True`` the encoded pairs are checked too and :func:`compare_with_theorems`
says, claim by claim, whether discover re-found the paper's relation unaided.

The findings print as YAML snippets in the format of ``docs/DATA_FORMAT.md`` (a ``theorems/``
claim, and for a non-implication the ``counterexamples/`` table it names), ready to paste.
"""

from __future__ import annotations

import concurrent.futures as cf
import os
import time
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

import sympy

from implgraph import definitions
from implgraph.core.nodes import N_SYM, Node, make_node, parse_node
from implgraph.engines.checkedge import DirectionResult, _degenerate, check_direction, combine
from implgraph.core.errors import InputError
from implgraph.io.output import Progress
from implgraph.definitions.families import param_grid

__all__ = ["discover", "instances", "known_pairs", "compare_with_theorems", "yaml_snippet", "write_data",
           "Finding", "DiscoverResult"]


def instances(N, names=None):
    """(nodes, skipped): every registered definition at each parameter value allowed at N.

    With a range of N, call it with the smallest N: its parameter values are valid for every N.
    """
    nodes, skipped = [], []
    for name in (names or definitions.names()):
        d = definitions.get(name)
        grid = param_grid(d, N)
        if grid is None:
            skipped.append(f"{name}: parameters {', '.join(d.params)} have no default values "
                           "(define param_values(N) in the plugin)")
            continue
        for params in grid:
            nodes.append(make_node(name, {k: v if isinstance(v, str) else sympy.Integer(v)
                                          for k, v in params.items()}))
    return nodes, skipped


def known_pairs(edges=None) -> set:
    """(from, to) definition names that already have an edge in ``theorems/*.yaml``."""
    if edges is None:
        from implgraph.io.theorems import load_theorems
        edges = load_theorems()
    out = set()
    for e in edges:
        for a in (e.a, e.reading_a):
            if a is None:
                continue
            out.add((a.name, e.b.name))
            if e.kind in ("equivalent", "reciprocal"):
                out.add((e.b.name, a.name))
    return out


@dataclass
class Finding:
    """One unordered pair of instances with both directions and their combined kind."""

    a: str
    b: str
    kind: str
    summary: str
    forward: DirectionResult | None
    backward: DirectionResult | None
    known: bool = False

    def to_json(self):
        return {"a": self.a, "b": self.b, "kind": self.kind, "summary": self.summary, "known": self.known,
                "forward": self.forward.to_json() if self.forward else None,
                "backward": self.backward.to_json() if self.backward else None}


@dataclass
class DiscoverResult:
    N: int
    findings: list
    errors: list = field(default_factory=list)
    skipped: list = field(default_factory=list)
    seconds: float = 0.0
    pairs_checked: int = 0
    n_min: int | None = None

    def to_json(self):
        return {"N": self.N, "from_N": self.n_min or self.N, "pairs_checked": self.pairs_checked, "seconds": self.seconds,
                "findings": [f.to_json() for f in self.findings], "errors": self.errors,
                "skipped": self.skipped}


def _job(a_label, b_label, N, p, n_min=None):
    """Worker: one direction; never raises (errors come back as a string)."""
    try:
        res = check_direction(parse_node(a_label), parse_node(b_label), None, (), N, p,
                              n_min=N if n_min is None else n_min, prover=False)
        return a_label, b_label, res, None
    except BaseException as exc:  # a plugin may raise anything, even SystemExit
        return a_label, b_label, None, f"{a_label} -> {b_label}: {exc.__class__.__name__}: {exc}"


def discover(N=4, names=None, include_known=False, workers=None, progress=None, p=2, n_min=None) -> DiscoverResult:
    """Check every ordered pair of definition instances at ``N`` records.

    Parameters
    ----------
    N : int
        Number of records of the tables (every partition into classes is searched).
    names : list of str, optional
        Restrict to these definitions (default: every registered one, plugins included).
    include_known : bool
        Also check the pairs that already have an edge in ``theorems/`` (to re-find them).
    workers : int, optional
        Processes (default ``os.cpu_count()``); 1 runs in this process.
    progress : bool, optional
        Progress bar on stderr (default: when stderr is a terminal).
    n_min : int, optional
        Check every N from ``n_min`` to ``N`` (default: N only). The parameters then take the values
        valid at ``n_min`` (k = 1..n_min-1), and where the tight f of every N has one shape, one
        expression in N is fitted through them.

    Returns
    -------
    DiscoverResult
    """
    if N < 2:
        raise InputError(f"--N {N} is too small", fix="use N >= 2")
    n_min = N if n_min is None else n_min
    if not 2 <= n_min <= N:
        raise InputError(f"--from-N {n_min} is out of range", fix=f"use 2 <= from-N <= N = {N}")
    start = time.perf_counter()
    for n in names or []:
        definitions.get(n)
    nodes, skipped = instances(n_min, names)
    load_failures = [f"{e} (skipped)" for e in definitions.load_errors()]
    known = known_pairs() if not include_known else known_pairs()
    jobs = []
    for a in nodes:
        for b in nodes:
            if a.name == b.name and a.params == b.params:
                continue        # the same definition, differing at most in the partitions searched
            is_known = (a.name, b.name) in known
            if is_known and not include_known:
                continue
            jobs.append((a.label(), b.label()))
    bar = Progress(len(jobs), "discover", enabled=progress)
    results, errors = {}, []
    workers = workers or os.cpu_count() or 1
    pending = list(jobs)
    if workers <= 1:
        for a, b in pending:
            _, _, res, err = _job(a, b, N, p, n_min)
            _store(results, errors, a, b, res, err)
            bar.step(f"{a} -> {b}")
    else:
        while pending:
            done_now = set()
            try:
                with cf.ProcessPoolExecutor(max_workers=workers) as pool:
                    futs = {pool.submit(_job, a, b, N, p, n_min): (a, b) for a, b in pending}
                    for fut in cf.as_completed(futs):
                        a, b = futs[fut]
                        try:
                            _, _, res, err = fut.result()
                        except BrokenProcessPool:
                            raise
                        except BaseException as exc:
                            res, err = None, f"{a} -> {b}: {exc.__class__.__name__}: {exc}"
                        _store(results, errors, a, b, res, err)
                        done_now.add((a, b))
                        bar.step(f"{a} -> {b}")
                pending = []
            except BrokenProcessPool:
                # a plugin killed its worker: run the remaining pairs one per process, so that
                # only the culprit is lost (reported and skipped)
                pending = [j for j in pending if j not in done_now]
                for a, b in pending:
                    try:
                        with cf.ProcessPoolExecutor(max_workers=1) as pool:
                            _, _, res, err = pool.submit(_job, a, b, N, p, n_min).result()
                    except BrokenProcessPool:
                        res, err = None, f"{a} -> {b}: the worker process died (a plugin crashed it)"
                    _store(results, errors, a, b, res, err)
                    bar.step(f"{a} -> {b}")
                pending = []
    bar.close()
    findings = _combine(nodes, results, known)
    return DiscoverResult(N, findings, load_failures + errors, skipped, round(time.perf_counter() - start, 2),
                          len(jobs), n_min)


def _store(results, errors, a, b, res, err):
    if err:
        errors.append(err)
    else:
        results[(a, b)] = res


def _combine(nodes, results, known):
    """One finding per unordered pair, in the order of the instances (deterministic)."""
    out = []
    for i, first in enumerate(nodes):
        for second in nodes[i + 1:]:
            x, y = first, second
            a, b = x.label(), y.label()
            fw, bw = results.get((a, b)), results.get((b, a))
            if fw is None and bw is None:
                continue
            if fw is None:
                a, b, fw, bw, x, y = b, a, bw, None, y, x
            if bw is None:
                bw = DirectionResult(b, a, "unknown", "unknown", "", "not checked (encoded in theorems/ or failed)")
            kind, summary = combine(fw, bw, x.definition, y.definition)
            out.append(Finding(a, b, kind, summary, fw, bw,
                               known=(x.name, y.name) in known or (y.name, x.name) in known))
    return out


# -- data snippets --------------------------------------------------------------------------------

def _side_yaml(label, level_symbol):
    n = parse_node(label)
    params = ", ".join(f'{k}: "{v}"' for k, v in n.params)
    p = f", params: {{{params}}}" if params else ""
    classes = ", ".join(f'{k}: "{v}"' for k, v in n.classes)
    c = f", classes: {{{classes}}}" if classes else ""
    return f"{{definition: {n.name}{p}, level: {level_symbol}{c}}}"


def _slug(label):
    return "".join(c if c.isalnum() else "-" for c in label).strip("-").replace("--", "-")


def yaml_snippet(direction: DirectionResult, N: int, paper=None, witness_comment=False, n_min=None) -> str:
    """A ``theorems/`` claim (and a ``counterexamples/`` table) for one direction, as YAML text.

    With ``witness_comment`` the claim's ``witness:`` line is commented out, so that the claim
    loads before its table has been pasted into ``counterexamples/``.
    """
    paper = paper or f"discover-N{N}"
    a, b = parse_node(direction.a), parse_node(direction.b)
    ad, bd = a.definition, b.definition
    cid = f"{paper}/{_slug(direction.a)}--{_slug(direction.b)}-N{N}"
    lines = [f"  - id: {cid}",
             f'    source: "implgraph discover --N {N}"',
             f'    printed: "{direction.a} {"=>" if direction.relation == "implication" else "=/=>"} {direction.b} (machine finding)"',
             f"    kind: {'implies' if direction.relation == 'implication' else 'not-implies'}",
             f"    from: {_side_yaml(direction.a, ad.level_symbol)}",
             f"    to: {_side_yaml(direction.b, bd.level_symbol)}"]
    table = None
    if direction.relation == "implication":
        ranged = n_min is not None and n_min < N and direction.tight_in_N
        if ranged:
            lines.append(f'    f: "{_data_formula(direction.tight_in_N)}"')
        elif direction.tight:
            lines.append(f'    f: "{_data_formula(direction.tight)}"')
        span = f'"{n_min} <= N", "N <= {N}"' if ranged else f'"N == {N}"'
        when = f'[{span}' + (f', "{ad.level_symbol} <= {_data_formula(direction.tight_upto)}"'
                             if direction.tight_upto and not ranged else "") + "]"
        lines += ["    symbols: {N: integer}", f"    when: {when}", "    expect: verified-bounded",
                  f'    notes: "{direction.evidence}"']
    else:
        wN = int((direction.witness or {}).get("point", {}).get("N", N))
        tid = f"{paper}/table-{_slug(direction.a)}--{_slug(direction.b)}-N{wN}"
        lines += ["    symbols: {N: integer}", f'    when: ["N == {wN}"]',
                  f"    {'# ' if witness_comment else ''}witness: {tid}",
                  "    expect: confirmed", f'    notes: "{direction.evidence}"']
        w = direction.witness
        rows = "\n".join(
            f'      - {{p: [{", ".join(chr(34) + v + chr(34) for v in r)}]'
            + (f", class: {w['classes'][i]}}}" if w.get("classes") else "}")
            for i, r in enumerate(w["rows"]))
        table = "\n".join([f"  - id: {tid}", f'    source: "implgraph discover --N {N}"',
                           f'    caption: "{direction.a} level {w["level_a"]}, {direction.b} level {w["level_b"]}"',
                           f"    buckets: [{', '.join(f'a{i + 1}' for i in range(len(w['rows'][0])))}]",
                           "    binary: false", "    rows:", rows])
    text = "# theorems/\n" + "\n".join(lines)
    if table:
        text += "\n# counterexamples/\n" + table
    return text


def write_data(result: DiscoverResult, directory, paper=None) -> tuple:
    """Write the new findings as ``DIR/theorems/<paper>.yaml`` and ``DIR/counterexamples/<paper>.yaml``.

    The theorems file loads on its own (``implgraph map --theorems``): the ``witness:`` lines are
    commented out until the tables are pasted into the repository's ``counterexamples/``.
    """
    from pathlib import Path
    from implgraph.io.output import atomic_write
    paper = paper or f"discover-N{result.N}"
    directory = Path(directory)
    claims, tables = [], []
    for f in result.findings:
        if f.known:
            continue
        if f.kind == "equivalence":
            claims.append(_equivalence_yaml(f, result.N, paper))
            continue
        for d in (f.forward, f.backward):
            if d is None or d.relation == "unknown" or (d.relation == "implication" and not d.tight):
                continue
            text = yaml_snippet(d, result.N, paper=paper, witness_comment=True, n_min=result.n_min)
            claim, _, table = text.partition("\n# counterexamples/\n")
            claims.append(claim.replace("# theorems/\n", ""))
            if table:
                tables.append(table)
    header = (f"# Findings of `implgraph discover --N {result.N}` (machine-checked at N = {result.N}; bounded evidence).\n"
              f"paper: {paper}\nreference: \"implgraph discover --N {result.N}\"\n")
    (directory / "theorems").mkdir(parents=True, exist_ok=True)
    (directory / "counterexamples").mkdir(parents=True, exist_ok=True)
    tpath = directory / "theorems" / f"{paper}.yaml"
    cpath = directory / "counterexamples" / f"{paper}.yaml"
    atomic_write(tpath, header + "claims:\n" + "\n\n".join(claims) + "\n")
    atomic_write(cpath, header + "tables:\n" + "\n\n".join(tables) + "\n")
    return tpath, cpath


def _equivalence_yaml(f: Finding, N: int, paper: str) -> str:
    a, b = parse_node(f.a), parse_node(f.b)
    fw, bw = (f.forward, f.backward) if f.forward.a == f.a else (f.backward, f.forward)
    return "\n".join([
        f"  - id: {paper}/{_slug(f.a)}--{_slug(f.b)}-N{N}",
        f'    source: "implgraph discover --N {N}"',
        f'    printed: "{f.a} <=> {f.b} (machine finding)"',
        "    kind: equivalent",
        f"    from: {_side_yaml(f.a, a.definition.level_symbol)}",
        f"    to: {_side_yaml(f.b, b.definition.level_symbol)}",
        f'    f: "{_data_formula(fw.tight)}"',
        f'    g: "{_data_formula(bw.tight)}"',
        "    symbols: {N: integer}", f'    when: ["N == {N}"]', "    expect: verified-bounded",
        f'    notes: "{f.summary}; {fw.evidence}"'])


def _data_formula(expr: str) -> str:
    """A sympy string as a data-file formula (``log`` -> ``ln``)."""
    return str(expr).replace("log(", "ln(")


# -- re-finding the papers' relations -----------------------------------------------------------

def compare_with_theorems(result: DiscoverResult, edges=None) -> list:
    """For every encoded implies / not-implies / equivalent / generalisation edge, what discover found.

    Each claim (and its proof's ``reading``) is instantiated at discover's N for every value of its
    parameters allowed by its ``when``. Claims that restrict the class sizes (``classes:
    {min_size, max_size}``) are re-checked on the spot with those restrictions; claims with
    ``scope: class`` are not modelled and reported as such.

    Returns a list of dicts: ``claim``, ``instance``, ``point``, ``claimed`` (kind), ``found``
    (relation), ``status``: ``re-found``, ``re-found, same f (tight)``, ``re-found, paper f is
    loose``, ``refuted: paper f below the tight f``, ``refuted: discover finds a witness``,
    ``contradicted: discover finds an implication``, ``undecided`` or ``not modelled``.
    """
    if edges is None:
        from implgraph.io.theorems import load_theorems
        edges = load_theorems()
    dirs = {}
    for fnd in result.findings:
        for d in (fnd.forward, fnd.backward):
            if d is not None:
                dirs[(d.a, d.b)] = d
    out = []
    for e in edges:
        for edge, tag in ((e, ""), (e.as_reading(), " (reading)")):
            if edge is None or edge.kind not in ("implies", "not-implies", "equivalent", "generalisation"):
                continue
            out += _compare_edge(edge, tag, dirs, result.N)
    return out


def _compare_edge(e, tag, dirs, N):
    import itertools
    rows, seen = [], set()
    syms = {str(s): s for s in e.symbols.values()} if isinstance(e.symbols, dict) else {}
    used = set()
    for side in (e.a, e.b):
        for v in side.params.values():
            used |= getattr(sympy.sympify(v), "free_symbols", set()) if not isinstance(v, str) else set()
        for v in (side.classes or {}).values():
            used |= sympy.sympify(v).free_symbols
    for c in e.when:
        used |= sympy.sympify(c).free_symbols
    levels = {e.a.level.name, e.b.level.name}
    free = sorted((s for s in used if s.name != "N" and s.name not in levels and s.name in syms
                   and getattr(s, "is_integer", False)), key=lambda s: s.name)
    Nsym = syms.get("N", sympy.Symbol("N"))
    for values in itertools.product(range(1, N), repeat=len(free)):
        point = {Nsym: N, **dict(zip(free, values))}
        try:
            if not all(bool(sympy.sympify(c).subs(point)) for c in e.when
                       if not (sympy.sympify(c).free_symbols & {e.a.level, e.b.level})):
                continue
        except TypeError:
            continue
        a = Node(e.a.name, tuple(sorted((k, _v(v, point)) for k, v in e.a.params.items())))
        b = Node(e.b.name, tuple(sorted((k, _v(v, point)) for k, v in e.b.params.items())))
        classes = e.a.classes or e.b.classes
        key = (a.label(), b.label(), tuple(sorted((str(k), str(_v(v, point))) for k, v in (classes or {}).items())))
        if key in seen:
            continue
        seen.add(key)
        rec = {"claim": e.id + tag, "instance": f"{a.label()} -> {b.label()}",
               "point": {str(k): int(v) for k, v in point.items()}, "claimed": e.kind,
               "expect": e.node.get("reading_expect") if tag else e.expect}
        if e.a.scope != "table" or e.b.scope != "table" or getattr(e.a, "of", None) or getattr(e.b, "of", None):
            rec.update(found=None, status="not modelled",
                       note="the claim evaluates a definition per class or of another mechanism")
            rows.append(rec)
            continue
        if classes:
            lim = {k: sympy.sympify(v).subs(point) for k, v in classes.items()}
            d = check_direction(a, b, None, (), N, n_min=N, classes=lim, prover=False)
            rec["note"] = "classes restricted: " + ", ".join(f"{k} = {v}" for k, v in lim.items())
        else:
            d = dirs.get((a.label(), b.label()))
        if d is None:
            continue
        whole = d
        d = _at_N(d, N)
        back = dirs.get((b.label(), a.label())) if e.kind == "generalisation" else None
        back = _at_N(back, N) if back is not None else None
        if d is None:
            continue
        rec["found"] = d.relation
        rec["tight"] = d.tight
        want = "non-implication" if e.kind == "not-implies" else "implication"
        if d.relation == "unknown":
            rec["status"] = "undecided"
        elif d.relation != want:
            rec["status"] = ("refuted: discover finds a witness" if want == "implication"
                             else "contradicted: discover finds an implication")
        elif back is not None and back.relation == "implication":
            rec["status"] = "contradicted: the reverse implication holds too (not a generalisation)"
        else:
            rec["status"] = "re-found"
            if e.f is not None and e.kind in ("implies", "equivalent"):
                rec["status"] = _compare_f(e.f.subs(point), d, e.a.level, e.a.definition, e.b.definition)
                if whole.tight_in_N and rec["status"] == "re-found, same f (tight)" and not classes:
                    ns = sorted({i.N for i in whole.instances})
                    if _same_in_N(e.f, whole.tight_in_N, point, Nsym, e.a.level, e.a.definition):
                        rec["status"] = f"re-found, same f for every N = {ns[0]}..{ns[-1]} (tight)"
        rows.append(rec)
    return rows


def _same_in_N(paper_f, tight_in_N, point, Nsym, level, a_def):
    """Is the claim's f (other parameters substituted) the expression in N discover fitted?"""
    alpha = sympy.Symbol(a_def.level_symbol, positive=True)
    pf = sympy.sympify(paper_f).subs({k: v for k, v in point.items() if k != Nsym})
    pf = pf.subs({Nsym: N_SYM, level: alpha})
    tf = sympy.sympify(tight_in_N, locals={alpha.name: alpha, "N": N_SYM})
    return sympy.simplify(pf - tf) == 0


def _at_N(d, N):
    """The direction restricted to its instance(s) at N (discover may have checked a range of N)."""
    from implgraph.engines.checkedge import _aggregate
    insts = [i for i in d.instances if i.N == N]
    if not insts:
        return None
    if len(insts) == len(d.instances):
        return d
    return _aggregate(parse_node(d.a), parse_node(d.b), None, insts, 2)


def _v(v, point):
    if isinstance(v, str):
        return v
    return sympy.sympify(v).subs(point)


def _compare_f(paper_f, d, level, a_def, b_def):
    """Compare a paper's f with the exact tight values discover computed at the sample levels."""
    inst = d.instances[-1] if d.instances else None
    if inst is None or not inst.samples:
        return "re-found (f not compared)"
    less, degenerate, more = [], [], []
    for a_s, F_s in inst.samples:
        if F_s in ("None", "inf", "oo"):
            continue
        a_raw, F_raw = sympy.Rational(a_s), sympy.Rational(F_s)
        target = sympy.simplify(b_def.raw_from_level(sympy.sympify(paper_f).subs(level, a_def.level_from_raw(a_raw))))
        diff = sympy.nsimplify(target - F_raw) if target.is_number else None
        if diff is None or not diff.is_number:
            return "re-found (f not compared)"
        if diff < 0:
            (degenerate if _degenerate(b_def, target) else less).append(str(a_def.level_from_raw(a_raw)))
        elif diff > 0:
            more.append(a_s)
    sym = a_def.level_symbol
    if less:
        return f"refuted: paper f below the tight value at {sym} = {less[0]}" + (
            f" (and at the degenerate level {sym} = {degenerate[0]}, where f is no valid level)" if degenerate else "")
    if degenerate:
        return (f"refuted only at degenerate levels: paper f below the tight value at {sym} = {degenerate[0]}, "
                "where f is no valid level")
    if more:
        return "re-found, paper f is loose" + (" (tight on the fitted range)" if d.tight_upto else "")
    return "re-found, same f (tight)"
