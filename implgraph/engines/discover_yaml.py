"""Discover's findings as YAML in the format of ``docs/DATA_FORMAT.md``, ready to paste.

:func:`yaml_snippet` prints one direction as a ``theorems/`` claim (and, for a non-implication, the
``counterexamples/`` table it names); :func:`write_data` writes every new finding to a folder that
``implgraph map --theorems`` reads.
"""

from __future__ import annotations

from dataclasses import replace

import sympy

from implgraph.definitions.nodes import N_SYM, parse_node
from implgraph.engines.direction import DirectionResult, proved_by_prover
from implgraph.engines.discover import DiscoverResult, Finding

__all__ = ["yaml_snippet", "write_data", "set_expects"]


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
    if direction.relation == "implication" and direction.verdict == "proved" and direction.tight_all_n:
        # proved for every N by the prover: the edge is written for every N, with the prover's tight f
        lines += [f'    f: "{_data_formula(direction.tight_all_n)}"', "    symbols: {N: integer}",
                  '    when: ["N >= 2"]', "    expect: proved", f'    notes: "{direction.evidence}"']
    elif direction.relation == "implication":
        ranged = n_min is not None and n_min < N and direction.tight_in_N
        if ranged:
            lines.append(f'    f: "{_data_formula(direction.tight_in_N)}"')
        elif direction.tight:
            lines.append(f'    f: "{_data_formula(direction.tight)}"')
        span = f'"{n_min} <= N", "N <= {N}"' if ranged else f'"N == {N}"'
        when = f'[{span}' + (f', "{ad.level_symbol} <= {_data_formula(direction.tight_upto)}"'
                             if direction.tight_upto and not ranged else "") + "]"
        expect = "proved" if direction.verdict == "proved" else "verified-bounded"
        lines += ["    symbols: {N: integer}", f"    when: {when}", f"    expect: {expect}",
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


def check_write_dir(directory, option="--write") -> None:
    """InputError unless ``directory`` can hold the written files: a folder, or a new one in an existing folder
    (checked before anything is computed)."""
    from pathlib import Path
    from implgraph.core.errors import InputError
    d = Path(directory)
    if d.exists() and not d.is_dir():
        raise InputError(f"{option} {directory} is not a directory", fix=f"give {option} a new or existing folder")
    parent = d if d.exists() else d.parent
    if not parent.is_dir():
        raise InputError(f"{option} {directory}: folder {parent} does not exist", fix="create it or choose another path")
    for sub in ("theorems", "counterexamples"):
        if (d / sub).exists() and not (d / sub).is_dir():
            raise InputError(f"{option} {directory}: {d / sub} is not a directory",
                             fix=f"give {option} a folder without a file named {sub}")


def write_data(result: DiscoverResult, directory, paper=None, option="--write") -> tuple:
    """Write the new findings as ``DIR/theorems/<paper>.yaml`` and ``DIR/counterexamples/<paper>.yaml``.

    The theorems file loads on its own (``implgraph map --theorems``): the ``witness:`` lines are
    commented out until the tables are pasted into the repository's ``counterexamples/``. Both files are
    written or neither (:func:`implgraph.io.output.write_outputs`; a failure is one line and the folders
    made for them are removed).
    """
    from pathlib import Path
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
            if d.relation == "implication":
                # proved for every N: the edge is written for every N; otherwise for the N checked, with
                # the verdict verify will give it (the prover may prove the one-N claim outright)
                every = proved_by_prover(d, result.N)
                one_n = None if every else proved_by_prover(d, result.N, [sympy.Eq(N_SYM, result.N)])
                d = every or (replace(d, verdict="proved") if one_n else d)
            text = yaml_snippet(d, result.N, paper=paper, witness_comment=True, n_min=result.n_min)
            claim, _, table = text.partition("\n# counterexamples/\n")
            claims.append(claim.replace("# theorems/\n", ""))
            if table:
                tables.append(table)
    header = (f"# Findings of `implgraph discover --N {result.N}` (machine-checked at N = {result.N}, bounded evidence; "
              f"an edge with `when: [\"N >= 2\"]` is proved for every N).\n"
              f"paper: {paper}\nreference: \"implgraph discover --N {result.N}\"\n")
    tpath = directory / "theorems" / f"{paper}.yaml"
    cpath = directory / "counterexamples" / f"{paper}.yaml"
    _write_files(directory, {tpath: header + "claims:\n" + "\n\n".join(claims) + "\n",
                             cpath: header + "tables:\n" + "\n\n".join(tables) + "\n"}, option)
    return tpath, cpath


def _write_files(directory, files: dict, option) -> None:
    """Write ``{path: text}`` (paths in sub-folders of ``directory``) all or none; the folders made here are
    removed again when the write fails."""
    from implgraph.io.output import output_error, write_outputs
    check_write_dir(directory, option)
    made = []
    try:
        for folder in dict.fromkeys(p.parent for p in files):
            for f in reversed([folder, *folder.parents]):
                if not f.exists():
                    f.mkdir()
                    made.append(f)
        write_outputs(files, option)
    except OSError as exc:
        _remove(made)
        raise output_error(exc, directory, option) from None
    except BaseException:
        _remove(made)
        raise


def _remove(folders) -> None:
    import contextlib
    import os
    for f in reversed(folders):
        with contextlib.suppress(OSError):
            os.rmdir(f)


def set_expects(path, verdicts: dict) -> int:
    """Rewrite the ``expect:`` of each claim of the written theorems file ``path`` whose id is in
    ``verdicts`` (``{id: verdict word}``) and differs; discover's own word is kept in a comment on that
    line. Returns how many were rewritten.

    A written implication's f is the tight f computed exactly at sample levels and joined by a fitted
    formula: between the samples it is what ``implgraph verify`` establishes (proved, verified-bounded,
    or unknown), so its ``expect:`` is that verdict, a guard against regressions only.
    """
    from pathlib import Path
    from implgraph.io.output import write_output
    path = Path(path)
    lines, current, changed = path.read_text().split("\n"), None, 0
    for i, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith("- id: "):
            current = stripped[len("- id: "):]
        elif stripped.startswith("expect: ") and current in verdicts:
            old = stripped[len("expect: "):]
            if old != verdicts[current]:
                indent = line[:len(line) - len(line.lstrip())]
                lines[i] = (f"{indent}expect: {verdicts[current]}    # implgraph verify at write time "
                            f"(discover's bounded evidence: {old})")
                changed += 1
    if changed:
        write_output(path, "\n".join(lines), "--write")
    return changed


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
