"""Nothing a user types runs as code: an injection string in every option and API argument that takes a value.

Each command-line case gives one option (or positional argument) of one command the string
``__import__('os').system('echo X > PWN')`` (or a text holding it, ``k=...``), with every other argument
valid, and asserts the standard for bad input: exit status 2, one line on stderr with a ``fix:``, no
traceback, nothing on stdout, no file created (in particular no ``PWN``). The command runs in a process
forked from the test process (:mod:`_cli_run`), in which sympy's string parser (what ``sympy.sympify``
evaluates Python with) is wrapped: the test also asserts that no text reached it from implgraph's code at
all, harmless or not.

An option whose value is a path takes the string as a path: an input file that does not exist, an output
file with an unknown suffix, or an output folder inside a folder that does not exist. The API cases call
the public functions (``implgraph/__init__.py``, :mod:`implgraph.api`, :func:`implgraph.io.microdata.levels_of`)
in this process with the same string and expect an :class:`InputError`, nothing written, nothing parsed by
sympy.

The expected outcome ("refused") follows from the options' documented types and ranges, not from the
engine's output.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest

import implgraph
import implgraph.cli
from implgraph.core.errors import InputError

import _cli_run
from _cli_run import check_refused, listing, make, parsed, run

implgraph.cli.build_parser()             # imports every command module before the forks

INJ = "__import__('os').system('echo X > PWN')"
#: the same payload in other spellings (a lambda, exec, a dunder walk, sympy's own constructors)
OTHER = ["exec(\"open('PWN', 'w').write('x')\")", "(lambda: __import__('os').system('touch PWN'))()",
         "().__class__.__base__.__subclasses__()", "Symbol('x').__class__", "S('1')", "eval('1')"]

MICRO = (Path(__file__).parent / "data" / "microdata" / "patients.csv").read_text()
TABLE_CSV = "a1,a2\n1/2,1/2\n1/4,3/4\n1/3,2/3\n"
TABLE_YAML = """\
id: inj/t
symbols: {mu: real}
region: ["0 < mu", "mu <= 1/2"]
rows:
  - {p: "mu"}
  - {p: "1/2"}
"""
NUMBERS = "s,c\n1,a\n2,b\n3,a\n4,b\n5,a\n6,b\n7,a\n8,b\n"
FILES = {"g.csv": MICRO, "t.csv": TABLE_CSV, "t.yaml": TABLE_YAML, "n.csv": NUMBERS}

LEVELS = ("levels", "g.csv", "--qi", "age,zip", "--sensitive", "disease")
REMEDY = ("remedy", "g.csv", "--qi", "age,zip", "--sensitive", "disease", "--require", "k=4")
RELEASE = ("release", "g.csv", "--sensitive", "disease", "--qi", "age", "--mechanism", "randomised-response",
           "--p", "1/2")
GUAR = ("guarantees", "g.csv", "--qi", "age,zip", "--sensitive", "disease", "--verdicts", "v.json")
MAP = ("map", "--json", "--verdicts", "v.json")
PATH = ("path", "ldp", "kdp", "--verdicts", "v.json")
EDGE = ("check-edge", "ldp", "kdp(k=1)", "--N", "3")
CONSTRUCT = ("construct", "n.csv", "--t", "2", "--k", "2", "--attribute", "s", "--out", "o.csv")
ANON = ("anonymize", "n.csv", "--qid", "c", "--l", "2", "--keep", "s", "--out", "r.json", "--seed", "1")
RECON = ("reconstruct", "r.json", "--attributes", "c")
SITE = ("site", "--out", "site", "--matrix", "m.json", "--verdicts", "v.json", "--no-levels", "--no-certificates")
VERDICTS = '{"claims": []}'


def _swap(argv, option, value):
    """``argv`` with the value after ``option`` replaced (or ``option value`` appended)."""
    argv = list(argv)
    if option in argv:
        argv[argv.index(option) + 1] = value
    else:
        argv += [option, value]
    return tuple(argv)


def _at(argv, i, value):
    argv = list(argv)
    argv[i] = value
    return tuple(argv)


# (id, argv, extra files); every argv holds the injection string once
CASES = [
    ("definitions-name", ("definitions", INJ), {}),
    ("claims-id", ("claims", INJ), {}),
    ("claims-kind", ("claims", "--kind", INJ), {}),
    ("claims-paper", ("claims", "--paper", INJ), {}),
    ("verify-id", ("verify", INJ), {}),
    ("verify-max-n", ("verify", "--max-n", INJ, "ekenstedt2022/lemma-3.3"), {}),
    ("verify-jobs", ("verify", "--jobs", INJ, "ekenstedt2022/lemma-3.3"), {}),
    ("verify-theorems", ("verify", "--theorems", INJ), {}),
    ("verify-tables", ("verify", "--tables", INJ), {}),
    ("verify-recheck-budget", ("verify", "--recheck", "--recheck-budget", INJ, "ekenstedt2022/lemma-3.3"), {}),
    ("certificate-budget", ("certificate", "--budget", INJ, "ekenstedt2022/lemma-3.3"), {}),
    ("certificate-id", ("certificate", INJ), {}),
    ("certificate-edge-a", ("certificate", "--edge", INJ, "ldp"), {}),
    ("certificate-edge-b", ("certificate", "--edge", "ldp", INJ), {}),
    ("certificate-edge-param", ("certificate", "--edge", "ldp", f"kdp(k={INJ})"), {}),
    # an output folder inside a folder that does not exist; a Coq library folder that does not exist
    ("certificate-coq", ("certificate", "--coq", f"missing/{INJ}", "ekenstedt2022/lemma-3.3"), {}),
    ("certificate-coq-lib", ("certificate", "--coq", "out", "--coq-lib", INJ, "ekenstedt2022/lemma-3.3"), {}),
    ("levels-file", ("levels", INJ), {}),
    ("levels-id", ("levels", "t.yaml", "--id", INJ), {}),
    ("levels-k", ("levels", "t.csv", "--k", INJ), {}),
    ("levels-ground", ("levels", "t.csv", "--ground", INJ), {}),
    ("levels-qi", _swap(LEVELS, "--qi", INJ), {}),
    ("levels-sensitive", _swap(LEVELS, "--sensitive", INJ), {}),
    ("levels-param-k", LEVELS + ("--param", f"k={INJ}"), {}),
    ("levels-param-delta", LEVELS + ("--param", f"delta={INJ}"), {}),
    ("levels-param-l", LEVELS + ("--param", f"l={INJ}"), {}),
    ("levels-param-ground", LEVELS + ("--param", f"ground={INJ}"), {}),
    ("levels-param-name", LEVELS + ("--param", f"{INJ}=1"), {}),
    ("levels-microdata-k", LEVELS + ("--k", INJ), {}),
    ("levels-sep", LEVELS + ("--sep", INJ), {}),
    ("levels-names", LEVELS + ("--names", INJ), {}),
    # a label or marker is compared with the cells as text: here the label is already a value (refused) and the
    # marker makes a cell missing (refused by the default policy)
    ("levels-na", ("levels", "m.csv", "--qi", "zip", "--sensitive", "disease", "--na", INJ),
     {"m.csv": f"zip,disease\na,flu\na,{INJ}\nb,\nb,hiv\n"}),
    ("levels-na-values", ("levels", "m.csv", "--qi", "zip", "--sensitive", "disease", "--na-values", INJ),
     {"m.csv": f"zip,disease\na,flu\na,{INJ}\nb,flu\nb,hiv\n"}),
    ("levels-require", LEVELS + ("--require", f"k={INJ}"), {}),
    ("levels-require-name", LEVELS + ("--require", f"{INJ}=1"), {}),
    ("levels-definitions", LEVELS + ("--definitions", INJ), {}),
    ("levels-convention", LEVELS + ("--convention", INJ), {}),
    ("levels-report", LEVELS + ("--report", INJ), {}),
    ("levels-backend", LEVELS + ("--backend", INJ), {}),
    ("remedy-file", _at(REMEDY, 1, INJ), {}),
    ("remedy-k", REMEDY + ("--k", INJ), {}),
    ("remedy-ground", REMEDY + ("--ground", INJ), {}),
    ("remedy-qi", _swap(REMEDY, "--qi", INJ), {}),
    ("remedy-sensitive", _swap(REMEDY, "--sensitive", INJ), {}),
    ("remedy-param", REMEDY + ("--param", f"k={INJ}"), {}),
    ("remedy-sep", REMEDY + ("--sep", INJ), {}),
    ("remedy-names", REMEDY + ("--names", INJ), {}),
    ("remedy-na", ("remedy", "m.csv", "--qi", "zip", "--sensitive", "disease", "--require", "k=2", "--na", INJ),
     {"m.csv": f"zip,disease\na,flu\na,{INJ}\nb,\nb,hiv\n"}),
    ("remedy-na-values", ("remedy", "m.csv", "--qi", "zip", "--sensitive", "disease", "--require", "k=2",
                          "--na-values", INJ), {"m.csv": f"zip,disease\na,flu\na,{INJ}\nb,flu\nb,hiv\n"}),
    ("remedy-require", _swap(REMEDY, "--require", f"k={INJ}"), {}),
    ("remedy-require-name", _swap(REMEDY, "--require", f"{INJ}=1"), {}),
    ("remedy-suppress", REMEDY + ("--suppress", INJ), {}),
    ("remedy-out", REMEDY + ("--out", INJ + "/o.csv"), {}),
    ("release-file", _at(RELEASE, 1, INJ), {}),
    ("release-sensitive", _swap(RELEASE, "--sensitive", INJ), {}),
    ("release-qi", _swap(RELEASE, "--qi", INJ), {}),
    ("release-mechanism", _swap(RELEASE, "--mechanism", INJ), {}),
    ("release-p", _swap(RELEASE, "--p", INJ), {}),
    ("release-eta", _swap(_swap(RELEASE, "--mechanism", "set-channel"), "--eta", INJ), {}),
    ("release-t", ("release", "n.csv", "--sensitive", "s", "--mechanism", "bucketization", "--class-size", "2",
                   "--t", INJ), {}),
    ("release-class-size", ("release", "n.csv", "--sensitive", "s", "--mechanism", "bucketization", "--t", "2",
                            "--class-size", INJ), {}),
    ("release-k", RELEASE + ("--k", INJ), {}),
    ("release-ground", RELEASE + ("--ground", INJ), {}),
    ("release-param-k", RELEASE + ("--param", f"k={INJ}"), {}),
    ("release-param-delta", RELEASE + ("--param", f"delta={INJ}"), {}),
    ("table-id", ("table", INJ), {}),
    ("table-file-id", ("table", "t.yaml", "--id", INJ), {}),
    ("guarantees-file", _at(GUAR, 1, INJ), {"v.json": VERDICTS}),
    ("guarantees-qi", _swap(GUAR, "--qi", INJ), {"v.json": VERDICTS}),
    ("guarantees-sensitive", _swap(GUAR, "--sensitive", INJ), {"v.json": VERDICTS}),
    ("guarantees-k", GUAR + ("--k", INJ), {"v.json": VERDICTS}),
    ("guarantees-ground", GUAR + ("--ground", INJ), {"v.json": VERDICTS}),
    ("guarantees-param-k", GUAR + ("--param", f"k={INJ}"), {"v.json": VERDICTS}),
    ("guarantees-param-delta", GUAR + ("--param", f"delta={INJ}"), {"v.json": VERDICTS}),
    ("guarantees-mechanism", GUAR + ("--mechanism", INJ), {"v.json": VERDICTS}),
    ("guarantees-p", GUAR + ("--mechanism", "randomised-response", "--p", INJ), {"v.json": VERDICTS}),
    ("guarantees-eta", GUAR + ("--mechanism", "set-channel", "--p", "1/2", "--eta", INJ), {"v.json": VERDICTS}),
    ("guarantees-t", ("guarantees", "n.csv", "--sensitive", "s", "--verdicts", "v.json", "--mechanism",
                      "bucketization", "--class-size", "2", "--t", INJ), {"v.json": VERDICTS}),
    ("guarantees-class-size", ("guarantees", "n.csv", "--sensitive", "s", "--verdicts", "v.json", "--mechanism",
                               "bucketization", "--t", "2", "--class-size", INJ), {"v.json": VERDICTS}),
    ("guarantees-max-length", GUAR + ("--max-length", INJ), {"v.json": VERDICTS}),
    ("guarantees-html", GUAR + ("--html", INJ), {"v.json": VERDICTS}),
    ("guarantees-verdicts", _swap(GUAR, "--verdicts", INJ), {}),
    ("guarantees-theorems", GUAR + ("--theorems", INJ), {"v.json": VERDICTS}),
    ("guarantees-tables", GUAR + ("--tables", INJ), {"v.json": VERDICTS}),
    ("map-N", MAP + ("--N", INJ), {"v.json": VERDICTS}),
    ("map-level", MAP + ("--level", INJ), {"v.json": VERDICTS}),
    ("map-out", MAP + ("--out", INJ), {"v.json": VERDICTS}),
    ("map-out-folder", MAP + ("--out", INJ + "/map.svg"), {"v.json": VERDICTS}),
    ("map-verdicts", _swap(MAP, "--verdicts", INJ), {}),
    ("map-labels", MAP + ("--labels", INJ), {"v.json": VERDICTS}),
    ("map-theorems", MAP + ("--theorems", INJ), {"v.json": VERDICTS}),
    ("map-tables", MAP + ("--tables", INJ), {"v.json": VERDICTS}),
    ("map-max-list", MAP + ("--max-list", INJ), {"v.json": VERDICTS}),
    ("map-width", MAP + ("--out", "m.svg", "--width", INJ), {"v.json": VERDICTS}),
    ("map-overlay", MAP + ("--overlay", INJ), {"v.json": VERDICTS}),
    ("path-a", _at(PATH, 1, INJ), {"v.json": VERDICTS}),
    ("path-b", _at(PATH, 2, INJ), {"v.json": VERDICTS}),
    ("path-param", _at(PATH, 2, f"kdp(k={INJ})"), {"v.json": VERDICTS}),
    ("path-N", PATH + ("--N", INJ), {"v.json": VERDICTS}),
    ("path-k", PATH + ("--k", INJ), {"v.json": VERDICTS}),
    ("path-max-length", PATH + ("--max-length", INJ), {"v.json": VERDICTS}),
    ("path-verdicts", _swap(PATH, "--verdicts", INJ), {}),
    ("path-theorems", PATH + ("--theorems", INJ), {"v.json": VERDICTS}),
    ("path-tables", PATH + ("--tables", INJ), {"v.json": VERDICTS}),
    ("check-edge-a", _at(EDGE, 1, INJ), {}),
    ("check-edge-b", _at(EDGE, 2, INJ), {}),
    ("check-edge-param", _at(EDGE, 2, f"kdp(k={INJ})"), {}),
    ("check-edge-class-param", _at(EDGE, 2, f"k-anonymity(k={INJ})"), {}),
    ("check-edge-f", EDGE + ("--f", INJ), {}),
    ("check-edge-g", EDGE + ("--g", INJ), {}),
    ("check-edge-when", EDGE + ("--when", INJ), {}),
    ("check-edge-N", _swap(EDGE, "--N", INJ), {}),
    ("check-edge-p", EDGE + ("--p", INJ), {}),
    ("check-edge-jobs", EDGE + ("--jobs", INJ), {}),
    ("check-definition-name", ("check-definition", INJ), {}),
    ("check-definition-param", ("check-definition", "kdp", "--param", f"k={INJ}"), {}),
    ("check-definition-tables", ("check-definition", "ldp", "--tables", INJ), {}),
    ("check-definition-seed", ("check-definition", "ldp", "--seed", INJ), {}),
    ("discover-N", ("discover", "--N", INJ), {}),
    ("discover-from-N", ("discover", "--N", "3", "--from-N", INJ, "--definitions", "ldp", "dp"), {}),
    ("discover-definitions", ("discover", "--N", "3", "--definitions", INJ), {}),
    ("discover-jobs", ("discover", "--N", "3", "--jobs", INJ, "--definitions", "ldp", "dp"), {}),
    ("discover-write", ("discover", "--N", "3", "--definitions", "ldp", "dp", "--write", INJ + "/out"), {}),
    ("matrix-N", ("matrix", "--N", INJ, "--definitions", "ldp", "dp"), {}),
    ("matrix-p", ("matrix", "--p", INJ, "--definitions", "ldp", "dp"), {}),
    ("matrix-jobs", ("matrix", "--jobs", INJ, "--definitions", "ldp", "dp"), {}),
    ("matrix-definitions", ("matrix", "--definitions", INJ), {}),
    ("matrix-parameters", ("matrix", "--parameters", INJ, "--definitions", "ldp", "dp"), {}),
    ("site-out", _swap(SITE, "--out", INJ + "/site"), {"v.json": VERDICTS, "m.json": "{}"}),
    ("site-matrix", _swap(SITE, "--matrix", INJ), {"v.json": VERDICTS}),
    ("site-verdicts", _swap(SITE, "--verdicts", INJ), {"m.json": "{}"}),
    ("site-groups-n", SITE + ("--groups-n", INJ), {"v.json": VERDICTS, "m.json": "{}"}),
    ("figure-name", ("figure", INJ, "--out", "f.png"), {}),
    ("figure-out", ("figure", "fig-6", "--out", INJ, "--points", "3"), {}),
    ("figure-points", ("figure", "fig-6", "--out", "f.png", "--points", INJ), {}),
    ("construct-file", _at(CONSTRUCT, 1, INJ), {}),
    ("construct-t", _swap(CONSTRUCT, "--t", INJ), {}),
    ("construct-k", _swap(CONSTRUCT, "--k", INJ), {}),
    ("construct-attribute", _swap(CONSTRUCT, "--attribute", INJ), {}),
    ("construct-out", _swap(CONSTRUCT, "--out", INJ + "/o.csv"), {}),
    ("construct-definition", CONSTRUCT + ("--definition", INJ), {}),
    ("anonymize-file", _at(ANON, 1, INJ), {}),
    ("anonymize-qid", _swap(ANON, "--qid", INJ), {}),
    ("anonymize-l", _swap(ANON, "--l", INJ), {}),
    ("anonymize-t", ("anonymize", "n.csv", "--qid", "c", "--t", INJ, "--out", "r.json"), {}),
    ("anonymize-eta-max", ANON + ("--eta-max", INJ), {}),
    ("anonymize-ground", ANON + ("--ground", INJ), {}),
    ("anonymize-seed", _swap(ANON, "--seed", INJ), {}),
    ("anonymize-out", _swap(ANON, "--out", INJ + "/r.json"), {}),
    ("anonymize-class-csv-file", ANON + ("--class-csv", f"c={INJ}/c.csv"), {}),
    ("anonymize-class-csv-column", ANON + ("--class-csv", f"{INJ}=c.csv"), {}),
    ("anonymize-keep", _swap(ANON, "--keep", INJ), {}),
    ("anonymize-drop-column", ANON[:6] + ("--drop", INJ) + ANON[8:], {}),
    ("anonymize-order", ANON + ("--ground", "ordered", "--order", f"c={INJ}"), {}),
    ("anonymize-order-column", ANON + ("--ground", "ordered", "--order", f"{INJ}=a,b"), {}),
    ("reconstruct-release", _at(RECON, 1, INJ), {}),
    ("reconstruct-attributes", _swap(RECON, "--attributes", INJ), {"r.json": "RELEASE"}),
    ("reconstruct-method", RECON + ("--method", INJ), {"r.json": "RELEASE"}),
    ("reconstruct-truth", RECON + ("--truth", INJ), {"r.json": "RELEASE"}),
    ("reconstruct-tol", RECON + ("--tol", INJ), {"r.json": "RELEASE"}),
    ("completion-shell", ("completion", INJ), {}),
    ("global-verbosity", ("-q", INJ), {}),
] + [(f"{name}-timeout", (name, "--timeout", INJ), {}) for name in (
    "definitions", "claims", "verify", "certificate", "levels", "release", "table", "guarantees", "map", "path",
    "check-edge", "discover", "matrix", "site", "figure", "construct", "anonymize", "reconstruct", "completion",
    "check-definition", "remedy")]


@pytest.fixture(scope="module")
def release_json(tmp_path_factory):
    """A real release of ``n.csv`` (`implgraph anonymize`), for the reconstruct cases."""
    folder = tmp_path_factory.mktemp("release")
    make(folder, "n.csv", NUMBERS)
    result = run(ANON, folder, tmp_path_factory.mktemp("out"), timeout=60)
    assert result is not None and result[0] == 0, result
    return (folder / "r.json").read_text()


def test_every_option_has_a_case():
    """Every option that takes a value, of every command, has an injection case (``--help`` lists them)."""
    parser = implgraph.cli.build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    argv_of = {c[0]: c[1] for c in CASES}
    missing = []
    for name, p in sub.choices.items():
        given = [a for c in CASES if c[1][0] == name for a in c[1]]
        for action in p._actions:
            if action.option_strings and action.nargs == 0:
                continue                               # a flag takes no value
            if not action.option_strings:
                continue                               # positional arguments: the cases below name them
            if not any(o in given for o in action.option_strings) and action.dest not in ("help",):
                missing.append(f"{name} {action.option_strings[-1]}")
    assert not missing, missing
    assert len(argv_of) == len(CASES)


@pytest.mark.parametrize("argv, files", [pytest.param(a, f, id=i) for i, a, f in CASES])
def test_injection_is_refused(tmp_path, tmp_path_factory, argv, files, release_json):
    for name, content in {**FILES, **files}.items():
        make(tmp_path, name, release_json if content == "RELEASE" else content)
    before = listing(tmp_path)
    out_dir = tmp_path_factory.mktemp("out")
    result = run(argv, tmp_path, out_dir, timeout=30)
    assert result is not None, "no answer within 30 s"
    assert not (tmp_path / "PWN").exists(), "the injection ran"
    check_refused(*result)
    assert listing(tmp_path) == before
    assert parsed(out_dir) == "", "text reached sympy's parser (which evaluates Python)"


@pytest.mark.parametrize("text", OTHER)
def test_other_spellings_are_refused(tmp_path, tmp_path_factory, text):
    """The payload in other spellings, through the formula options that read it."""
    for name, content in FILES.items():
        make(tmp_path, name, content)
    before = listing(tmp_path)
    for argv in (LEVELS + ("--param", f"delta={text}"), EDGE + ("--f", text), _at(EDGE, 2, f"kdp(k={text})")):
        out_dir = tmp_path_factory.mktemp("out")
        result = run(argv, tmp_path, out_dir, timeout=30)
        assert result is not None
        check_refused(*result)
        assert listing(tmp_path) == before
        assert parsed(out_dir) == ""


# ---- the public API -----------------------------------------------------------------------------

@contextlib.contextmanager
def _guarded(tmp_path):
    """Run in ``tmp_path`` with sympy's string parser watched; yields the file of what reached it."""
    _cli_run.guard_sympy_parser()
    log = tmp_path / "parsed-api"
    here = os.getcwd()
    _cli_run._GUARD_LOG["path"] = str(log)
    os.chdir(tmp_path)
    try:
        yield log
    finally:
        os.chdir(here)
        _cli_run._GUARD_LOG["path"] = None


def _table():
    return implgraph.table_from_rows([["1/2", "1/2"], ["1/4", "3/4"], ["1/3", "2/3"]], classes=["E1", "E1", "E2"])


def _sym_table(tmp_path):
    (tmp_path / "s.yaml").write_text(TABLE_YAML)
    return implgraph.load_table(tmp_path / "s.yaml")


def _frame():
    import pandas as pd
    return pd.DataFrame({"zip": ["13*", "13*", "14*", "14*"], "disease": ["flu", "hiv", "flu", "flu"]})


def _levels_of(**kw):
    from implgraph.io.microdata import levels_of
    args = {"data": _frame(), "qi": ["zip"], "sensitive": ["disease"], **kw}
    return levels_of(**args)


API = [
    ("load_table-source", lambda tp: implgraph.load_table(INJ)),
    ("load_table-id", lambda tp: implgraph.load_table(_write(tp, "s.yaml", TABLE_YAML), INJ)),
    ("load_table_file", lambda tp: implgraph.load_table_file(INJ)),
    ("load_csv", lambda tp: implgraph.load_csv(INJ)),
    ("table_from_rows-cell", lambda tp: implgraph.table_from_rows([[INJ, "1/2"], ["1/2", "1/2"]])),
    ("Block-probs", lambda tp: implgraph.levels(implgraph.Table(
        blocks=[implgraph.Block(probs=(INJ, "1/2")), implgraph.Block(probs=("1/2", "1/2"))], buckets=["a", "b"]),
        "ldp")),
    ("Block-count", lambda tp: implgraph.levels(implgraph.Table(
        blocks=[implgraph.Block(probs=("1/2", "1/2"), count=INJ), implgraph.Block(probs=("1/2", "1/2"))],
        buckets=["a", "b"]), "ldp")),
    ("levels-table", lambda tp: implgraph.levels(INJ)),
    ("levels-definition", lambda tp: implgraph.levels(_table(), INJ)),
    ("levels-param", lambda tp: implgraph.levels(_table(), "kdp", k=INJ)),
    ("levels-param-symbolic", lambda tp: implgraph.levels(_sym_table(tp), "kdp", k=INJ)),
    ("levels-param-delta", lambda tp: implgraph.levels(_table(), "eps-delta-dp", delta=INJ)),
    ("levels-k", lambda tp: implgraph.levels(_table(), k=INJ)),
    ("levels-param-name", lambda tp: implgraph.levels(_table(), "kdp", **{INJ[:10]: 1})),
    ("optimal_level-param", lambda tp: implgraph.optimal_level(_table(), "kdp", k=INJ)),
    ("optimal_level-definition", lambda tp: implgraph.optimal_level(_table(), INJ)),
    ("satisfies-level", lambda tp: implgraph.satisfies(_table(), "ldp", INJ)),
    ("satisfies-param", lambda tp: implgraph.satisfies(_table(), "kdp", "2", k=INJ)),
    ("all_levels-k", lambda tp: implgraph.all_levels(_table(), k=INJ)),
    ("all_levels-show-value", lambda tp: implgraph.all_levels(_table(), show={"kdp": {"k": INJ}})),
    ("all_levels-show-name", lambda tp: implgraph.all_levels(_table(), show={INJ: {}})),
    ("check_edge-a", lambda tp: implgraph.check_edge(INJ, "ldp", N=3)),
    ("check_edge-b", lambda tp: implgraph.check_edge("ldp", INJ, N=3)),
    ("check_edge-param", lambda tp: implgraph.check_edge("ldp", f"kdp(k={INJ})", N=3)),
    ("check_edge-f", lambda tp: implgraph.check_edge("ldp", "kdp(k=1)", f=INJ, N=3)),
    ("check_edge-g", lambda tp: implgraph.check_edge("ldp", "kdp(k=1)", g=INJ, N=3)),
    ("check_edge-when", lambda tp: implgraph.check_edge("ldp", "kdp(k=1)", when=INJ, N=3)),
    ("check_edge-when-list", lambda tp: implgraph.check_edge("ldp", "kdp(k=1)", when=[INJ], N=3)),
    ("check_edge-N", lambda tp: implgraph.check_edge("ldp", "kdp(k=1)", N=INJ)),
    ("check_edge-p", lambda tp: implgraph.check_edge("ldp", "kdp(k=1)", N=3, p=INJ)),
    ("check_edge-jobs", lambda tp: implgraph.check_edge("ldp", "kdp(k=1)", N=3, jobs=INJ)),
    ("verify-ids", lambda tp: implgraph.verify(INJ)),
    ("verify-max_n", lambda tp: implgraph.verify("ekenstedt2022/lemma-3.3", max_n=INJ)),
    ("verify-jobs", lambda tp: implgraph.verify("ekenstedt2022/lemma-3.3", jobs=INJ)),
    ("verify-timeout", lambda tp: implgraph.verify("ekenstedt2022/lemma-3.3", timeout=INJ)),
    ("implication_map-N", lambda tp: implgraph.implication_map(N=INJ, verdicts={})),
    ("implication_map-level", lambda tp: implgraph.implication_map(level=INJ, verdicts={})),
    ("implication_map-theorems", lambda tp: implgraph.implication_map(theorems=[INJ], verdicts={})),
    ("implication_map-verdicts-path", lambda tp: implgraph.implication_map(verdicts=INJ)),
    ("definitions-names", lambda tp: implgraph.api.definitions([INJ])),
    ("claims-ids", lambda tp: implgraph.claims(INJ)),
    ("claims-kind", lambda tp: implgraph.claims(kind=INJ)),
    ("claims-paper", lambda tp: implgraph.claims(paper=INJ)),
    ("levels_of-data", lambda tp: _levels_of(data=INJ)),
    ("levels_of-qi", lambda tp: _levels_of(qi=[INJ])),
    ("levels_of-sensitive", lambda tp: _levels_of(sensitive=[INJ])),
    ("levels_of-k", lambda tp: _levels_of(k=INJ)),
    ("levels_of-ground", lambda tp: _levels_of(ground=INJ)),
    ("levels_of-params", lambda tp: _levels_of(params={"delta": INJ})),
    ("levels_of-params-name", lambda tp: _levels_of(params={INJ: 1})),
]


def test_api_verdict_word_is_only_compared(tmp_path):
    """A verdict given to the map is a word that is compared, never read: an unknown word is refused."""
    with _guarded(tmp_path) as log:
        with pytest.raises(InputError) as info:
            implgraph.implication_map(N=3, verdicts={"ekenstedt2022/theorem-2b": INJ})
        assert not (tmp_path / "PWN").exists()
        assert "not a verdict word" in str(info.value)
    assert not log.exists()


def _write(tmp_path, name, text):
    (tmp_path / name).write_text(text)
    return tmp_path / name


@pytest.mark.parametrize("call", [pytest.param(c, id=i) for i, c in API])
def test_api_injection_is_refused(tmp_path, call):
    with _guarded(tmp_path) as log:
        before = listing(tmp_path)
        with pytest.raises(InputError) as info:
            call(tmp_path)
        assert not (tmp_path / "PWN").exists()
        after = [x for x in listing(tmp_path) if x[0] not in ("parsed-api", "s.yaml")]
        assert after == [x for x in before if x[0] != "s.yaml"]
    assert not log.exists(), log.read_text()
    assert "fix:" in info.value.format() and "\n" not in info.value.format()


# ---- data files, plugin metadata, printed text read back ------------------------------------------

def test_theorem_file_formula_is_refused(tmp_path, tmp_path_factory):
    """A theorem file's ``linear_program`` cost (read by sympy's evaluating parser before) is read by the formula
    reader: the file is refused at load with its line, nothing runs."""
    import yaml
    from implgraph.io.datafile import data_files
    path = next(p for p in data_files("theorems") if p.name == "sei2019.yaml")
    claim = next(c for c in yaml.safe_load(path.read_text())["claims"] if "linear_program" in c)
    claim = {**claim, "id": "inj/lemma", "linear_program": {**claim["linear_program"], "cost": INJ}}
    claim.pop("reading", None)
    make(tmp_path, "theorems/inj.yaml", yaml.safe_dump({"paper": "inj", "claims": [claim]}, sort_keys=False))
    before = listing(tmp_path)
    out_dir = tmp_path_factory.mktemp("out")
    result = run(("verify", "--only", "--theorems", "theorems/inj.yaml"), tmp_path, out_dir, timeout=60)
    assert result is not None
    assert not (tmp_path / "PWN").exists()
    check_refused(*result)
    assert "theorems/inj.yaml:" in result[2] and "linear_program" in result[2]
    assert listing(tmp_path) == before and parsed(out_dir) == ""


def test_printed_conditions_are_read_safely(tmp_path):
    """Printed results read back (a verdict's ``exact`` text, possibly from a file) go through the formula
    reader: a payload in a condition is left as text, never run."""
    from implgraph.io.pieces_text import simplified_pieces, tidy_conditions
    from implgraph.core.region import Region
    with _guarded(tmp_path) as log:
        assert tidy_conditions(f"1 if {INJ}; 2 if x > 1") == f"1 if {INJ}; 2 if x > 1"
        pieces = [{"level": "1", "when": INJ}]
        assert simplified_pieces(pieces, Region(), {}) == [("1", INJ)]
        assert not (tmp_path / "PWN").exists()
    assert not log.exists()


def test_plugin_metadata_is_read_safely(tmp_path):
    """A plugin's declared range bound is text read by the formula reader when the plugin registers: a payload
    is refused (one line), nothing runs; a name or level symbol outside the grammar is refused too."""
    from implgraph.definitions import REGISTRY, register
    from implgraph.definitions.base import Definition

    def plugin(**attrs):
        return type("P", (Definition,), {"name": "inj-plugin", "level_symbol": "t", "params": {"k": "size"},
                                         **attrs})

    bad = [plugin(ranges={"k": (1, INJ)}), plugin(ranges={"k": ("N - 1",)}), plugin(param_kinds={"k": "word"}),
           plugin(ranges={"q": (1, "N")}), plugin(level_symbol="t; import os"), plugin(name="a\x1b[2Jb"),
           plugin(params={"k=1": "x"}), plugin(level_symbol="N")]
    with _guarded(tmp_path) as log:
        for cls in bad:
            with pytest.raises(InputError):
                register(cls)
            assert "inj-plugin" not in REGISTRY
        assert not (tmp_path / "PWN").exists()
    assert not log.exists()


def test_raising_plugin_in_levels(tmp_path, tmp_path_factory):
    """A plugin whose level raises: `levels` prints every other level and that one undefined with the reason
    (was a traceback); asking for it alone is one line with a fix."""
    from _plugin_fixtures import registered
    from implgraph.definitions.base import Definition

    class Raising(Definition):
        name = "raising-plugin"
        level_symbol = "r"

        def symbolic(self, ctx, table, **params):
            raise ValueError("broken symbolic view")

        def concrete(self, ct, **params):
            raise ZeroDivisionError("broken concrete view")

    Raising.__module__ = "some_plugin_package"
    for name, content in FILES.items():
        make(tmp_path, name, content)
    with registered(Raising):
        for argv in (LEVELS, ("levels", "t.csv"), ("levels", "t.yaml")):
            result = run(argv, tmp_path, tmp_path_factory.mktemp("out"), timeout=60)
            assert result is not None
            code, out, err = result
            assert code == 0 and err == "" and "Traceback" not in out, (code, err[-500:])
            line = next(x for x in out.splitlines() if "raising-plugin" in x)
            assert "undefined (the plugin definition raising-plugin raised" in line
        with pytest.raises(InputError, match="raising-plugin raised ZeroDivisionError.*fix: fix or uninstall"):
            implgraph.levels(_table(), "raising-plugin")


def test_control_characters_are_escaped_when_echoed(tmp_path, tmp_path_factory):
    """Column names and values holding terminal escapes are shown escaped (``\\x1b``), never sent raw."""
    esc = "\x1b[2J\x1b[31m"
    make(tmp_path, "e.csv", f"zip{esc},dis{esc}ease\n1,flu{esc}\n1,hiv\n2,flu{esc}\n")
    result = run(("levels", "e.csv", "--qi", f"zip{esc}", "--sensitive", f"dis{esc}ease"), tmp_path,
                 tmp_path_factory.mktemp("out"), timeout=60)
    assert result is not None and result[0] == 0, result
    assert "\x1b" not in result[1] and "\\x1b[2J" in result[1]
    result = run(("levels", "e.csv", "--qi", f"nosuch{esc}", "--sensitive", f"dis{esc}ease"), tmp_path,
                 tmp_path_factory.mktemp("out"), timeout=60)
    check_refused(*result)
    assert "\x1b" not in result[2] and "\\x1b[2J" in result[2]
    make(tmp_path, "e.yaml", 'id: "e\\e[31m"\nrows:\n  - {p: "1/2"}\n  - {p: "1/4"}\n')
    result = run(("table", "e.yaml"), tmp_path, tmp_path_factory.mktemp("out"), timeout=60)
    check_refused(*result)
    assert "e.yaml:1:" in result[2] and "\x1b" not in result[2]


def test_parquet_column_of_lists(tmp_path, tmp_path_factory):
    """A Parquet column of lists is refused in one line (was a traceback from pandas.factorize)."""
    import pandas as pd
    pd.DataFrame({"zip": ["1", "1", "2", "2"], "disease": [["a"], ["b"], ["a"], ["a", "b"]]}).to_parquet(
        tmp_path / "l.parquet")
    for argv in (("levels", "l.parquet", "--qi", "zip", "--sensitive", "disease"),
                 ("levels", "l.parquet", "--qi", "disease", "--sensitive", "zip")):
        result = run(argv, tmp_path, tmp_path_factory.mktemp("out"), timeout=60)
        check_refused(*result)
        assert "holds lists" in result[2]
