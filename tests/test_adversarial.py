"""A fresh adversarial pass over every command and the Python API (cases not in test_injection / test_fuzz_input).

Each command-line case runs ``implgraph ARGV`` in a process forked from the test process (:mod:`_cli_run`), in
a temporary folder holding only the case's own files, and states the clean outcome it expects:

- ``"refused"``: exit status 2, exactly one line ``implgraph: ...; fix: ...`` on stderr, nothing on stdout, the
  folder left exactly as it was (no partial, temporary or stray file, no input overwritten);
- ``"timeout"``: exit status 3 (the command's ``--timeout`` passed), no traceback, nothing written;
- ``"ok"``: a hostile-looking input that is valid (a BOM, CRLF line ends, a quoted newline, a Unicode digit read
  as its value, a level no release can miss, ...): exit status 0, no error line or warning on stderr (a progress
  bar may be there), and the case's own files unchanged;
- ``"ok-escaped"``: valid, and the control characters it holds (an ANSI escape in a name or a value) are printed
  escaped, never raw.

In every case no input is overwritten, nothing runs (no PWN file), and the command answers within 60 s. A refused
case hands no text to sympy's string parser (which evaluates Python); a case that runs a check may hand it only
the engine's own texts (declared ranges such as 'N - 1', a certificate's domain), never one of the input.
Outputs that are devices are private nodes made with mknod in the case's folder (never /dev/full itself: a
command that replaced its output instead of writing into the device replaced the system's device node). The API cases call the public names (``implgraph.__all__``, :mod:`implgraph.api`,
:func:`implgraph.io.microdata.levels_of`) with arguments of the wrong type or outside their range and expect
one :class:`InputError` line with a fix.

The expected outcomes follow from the documented formats and ranges (docs/DATA_FORMAT.md, ``--help``), never
from the engine's output.
"""

from __future__ import annotations

import gzip
import json
import os
import stat
from pathlib import Path

import pytest

import implgraph
import implgraph.cli
from implgraph.core.errors import InputError

import _cli_run
from _cli_run import DIRECTORY, FIFO, check_refused, listing, make, parsed, run

implgraph.cli.build_parser()             # imports every command module before the forks
implgraph.checks.load_checkers()

MICRO = (Path(__file__).parent / "data" / "microdata" / "patients.csv").read_text()
NUMBERS = "s,c\n1,a\n2,b\n3,a\n4,b\n5,a\n6,b\n7,a\n8,b\n"
TABLE_CSV = "a1,a2\n1/2,1/2\n1/4,3/4\n1/3,2/3\n"
TABLE_YAML = """\
id: adv/t
symbols: {mu: real}
region: ["0 < mu", "mu <= 1/2"]
rows:
  - {p: "mu"}
  - {p: "1/2"}
"""
THEOREM = """\
paper: adv
claims:
  - id: adv/e1
    printed: "eps-LDP => (1,t)-closeness"
    kind: implies
    from: {definition: ldp, level: eps}
    to: {definition: kt-closeness, params: {k: "1"}, level: t}
    f: "(exp(eps)*(N - 1) + 1)/N"
    symbols: {N: integer}
    when: ["N >= 2"]
    expect: proved
"""
VERDICTS = '{"claims": []}'
MATRIX = '{"cells": [], "nodes": []}'
#: a private full device (``mknod`` of /dev/full's numbers in the case's folder): writes fail with ENOSPC. The
#: cases never name /dev/full itself: a command that replaced its output instead of writing into a device would
#: replace the system's device node.
FULL = "FULLDEV"

# a release of `implgraph anonymize` by hand (docs: release.py's file format): 4 records, c in {a, b}, p = 1/2
REL = {"format": "implgraph-randomized-anonymization/1", "N": 4, "source": "n.csv",
       "attributes": [{"name": "c", "domain": ["a", "b"], "p": "1/2", "eta": 1},
                      {"name": "s", "domain": ["1", "2", "3", "4"], "p": "1", "eta": 1}],
       "records": [[[0], [0]], [[1], [1]], [[0], [2]], [[1], [3]]]}
REL_TRUTH = "c,s\na,1\nb,2\na,3\nb,4\n"


def rel(**changes):
    """The release above with top-level keys changed (``None`` removes one), as JSON text."""
    doc = json.loads(json.dumps(REL))
    for k, v in changes.items():
        if v is None:
            doc.pop(k, None)
        else:
            doc[k] = v
    return json.dumps(doc)


def rel_attr(j=0, drop=(), **changes):
    """The release with attribute ``j``'s fields changed or dropped."""
    doc = json.loads(json.dumps(REL))
    doc["attributes"][j].update(changes)
    for k in drop:
        doc["attributes"][j].pop(k)
    return json.dumps(doc)


def rel_record(i, rec):
    doc = json.loads(json.dumps(REL))
    doc["records"][i] = rec
    return json.dumps(doc)


RECON = ("reconstruct", "r.json", "--attributes", "c")
ANON = ("anonymize", "n.csv", "--qid", "c", "--keep", "s", "--out", "r.json", "--seed", "1")
ANON_L = ANON + ("--l", "2")
CONSTRUCT = ("construct", "n.csv", "--t", "2", "--k", "3", "--attribute", "s", "--out", "o.csv")
LEVELS = ("levels", "g.csv", "--qi", "age,zip", "--sensitive", "disease")
GUAR = ("guarantees", "g.csv", "--qi", "age,zip", "--sensitive", "disease", "--verdicts", "v.json")
SITE = ("site", "--out", "site", "--matrix", "m.json", "--verdicts", "v.json", "--no-levels", "--no-certificates")
CE = ("check-edge", "ldp", "kdp(k=1)", "--N", "3")
CE_KT = ("check-edge", "kt-closeness(k=1)", "ldp", "--N", "3")
N_ = {"n.csv": NUMBERS}
G_ = {"g.csv": MICRO}
GV = {"g.csv": MICRO, "v.json": VERDICTS}
R_ = {"r.json": json.dumps(REL)}
LONGF = "+".join(["eps"] * 2500)                    # 10k characters
DEEPF = "(" * 400 + "eps" + ")" * 400
YAML_ROW = '{p: "1/2"}'


def tab(old, new):
    assert old in TABLE_YAML, old
    return {"t.yaml": TABLE_YAML.replace(old, new, 1)}


def anon_csv(text):
    return {"n.csv": text}


# (id, argv, files, expected outcome)
CASES = [
    # ---- reconstruct: malformed releases ---------------------------------------------------------------------
    ("recon-valid-template", RECON, R_, "ok"),
    ("recon-missing-eta", RECON, {"r.json": rel_attr(drop=("eta",))}, "refused"),
    ("recon-missing-p", RECON, {"r.json": rel_attr(drop=("p",))}, "refused"),
    ("recon-missing-domain", RECON, {"r.json": rel_attr(drop=("domain",))}, "refused"),
    ("recon-missing-records", RECON, {"r.json": rel(records=None)}, "refused"),
    ("recon-missing-N", RECON, {"r.json": rel(N=None)}, "refused"),
    ("recon-eta-string", RECON, {"r.json": rel_attr(eta="1")}, "refused"),
    ("recon-eta-bool", RECON, {"r.json": rel_attr(eta=True)}, "refused"),
    ("recon-eta-float", RECON, {"r.json": rel_attr(eta=1.0)}, "refused"),
    ("recon-eta-huge", RECON, {"r.json": rel_attr(eta=10 ** 30)}, "refused"),
    ("recon-eta-zero", RECON, {"r.json": rel_attr(eta=0)}, "refused"),
    ("recon-p-tiny-exponent", RECON, {"r.json": rel_attr(p="1e-999999")}, "refused"),
    ("recon-p-float", RECON, {"r.json": rel_attr(p=0.5)}, "refused"),
    ("recon-p-one-over-zero", RECON, {"r.json": rel_attr(p="1/0")}, "refused"),
    ("recon-p-above-one", RECON, {"r.json": rel_attr(p="3/2")}, "refused"),
    ("recon-p-negative", RECON, {"r.json": rel_attr(p="-1/2")}, "refused"),
    ("recon-p-code", RECON, {"r.json": rel_attr(p="__import__('os').system('touch PWN')")}, "refused"),
    ("recon-p-long-digits", RECON, {"r.json": rel_attr(p="1/" + "9" * 999)}, "ok"),
    ("recon-index-out-of-range", RECON, {"r.json": rel_record(0, [[5], [0]])}, "refused"),
    ("recon-index-negative", RECON, {"r.json": rel_record(0, [[-1], [0]])}, "refused"),
    ("recon-index-bool", RECON, {"r.json": rel_record(0, [[True], [0]])}, "refused"),
    ("recon-index-float", RECON, {"r.json": rel_record(0, [[0.0], [0]])}, "refused"),
    ("recon-index-repeated", RECON, {"r.json": rel_record(0, [[0, 0], [0]])}, "refused"),
    ("recon-record-dict", RECON, {"r.json": rel_record(0, {"c": [0]})}, "refused"),
    ("recon-record-short", RECON, {"r.json": rel_record(0, [[0]])}, "refused"),
    ("recon-N-wrong", RECON, {"r.json": rel(N=5)}, "refused"),
    ("recon-N-string", RECON, {"r.json": rel(N="4")}, "refused"),
    ("recon-N-huge-digits", RECON, {"r.json": json.dumps(REL).replace('"N": 4', '"N": ' + "9" * 5000)}, "refused"),
    ("recon-eta-huge-digits", RECON, {"r.json": json.dumps(REL).replace('"eta": 1', '"eta": ' + "1" * 5000, 1)},
     "refused"),
    ("recon-N-nan", RECON, {"r.json": json.dumps(REL).replace('"N": 4', '"N": NaN')}, "refused"),
    ("recon-N-infinity", RECON, {"r.json": json.dumps(REL).replace('"N": 4', '"N": 1e999999')}, "refused"),
    ("recon-format-wrong", RECON, {"r.json": rel(format="implgraph-randomized-anonymization/2")}, "refused"),
    ("recon-top-list", RECON, {"r.json": "[" + json.dumps(REL) + "]"}, "refused"),
    ("recon-deep-nesting", RECON, {"r.json": "[" * 200000 + "]" * 200000}, "refused"),
    ("recon-domain-numbers", RECON, {"r.json": rel_attr(domain=[1, 2])}, "refused"),
    ("recon-domain-empty", RECON, {"r.json": rel_attr(domain=[])}, "refused"),
    ("recon-domain-repeated", RECON, {"r.json": rel_attr(domain=["a", "a"])}, "refused"),
    ("recon-name-repeated", RECON, {"r.json": rel_attr(j=1, name="c")}, "refused"),
    ("recon-name-number", RECON, {"r.json": rel_attr(name=7)}, "refused"),
    ("recon-attributes-empty", RECON, {"r.json": rel(attributes=[])}, "refused"),
    ("recon-attributes-strings", RECON, {"r.json": rel(attributes=["c", "s"])}, "refused"),
    ("recon-meta-list", RECON, {"r.json": rel(meta=[1, 2])}, "ok"),
    ("recon-bom", RECON, {"r.json": "\ufeff" + json.dumps(REL)}, "ok"),
    ("recon-gzip", RECON, {"r.json": gzip.compress(json.dumps(REL).encode())}, "refused"),
    ("recon-not-utf8", RECON, {"r.json": json.dumps(REL).encode().replace(b'"a"', b'"\xff"')}, "refused"),
    ("recon-empty-file", RECON, {"r.json": ""}, "refused"),
    ("recon-directory", RECON, {"r.json": DIRECTORY}, "refused"),
    ("recon-domain-ansi", RECON, {"r.json": rel_attr(domain=["a\x1b[2J", "b"])}, "ok-escaped"),
    ("recon-name-ansi", ("reconstruct", "r.json", "--attributes", "c\x1b[31m"), {"r.json": rel_attr(name="c\x1b[31m")},
     "ok-escaped"),
    ("recon-attribute-absent", ("reconstruct", "r.json", "--attributes", "zz"), R_, "refused"),
    ("recon-attributes-commas", ("reconstruct", "r.json", "--attributes", ",,"), R_, "refused"),
    ("recon-attributes-twice", ("reconstruct", "r.json", "--attributes", "c,c"), R_, "refused"),
    ("recon-tol-inf", RECON + ("--tol", "inf"), R_, "refused"),
    ("recon-tol-1e309", RECON + ("--tol", "1e309"), R_, "refused"),
    ("recon-tol-minus-zero", RECON + ("--tol", "-0"), R_, "refused"),
    ("recon-truth-other-N", RECON + ("--truth", "t.csv"), {**R_, "t.csv": "c\na\nb\n"}, "refused"),
    ("recon-truth-value-outside", RECON + ("--truth", "t.csv"), {**R_, "t.csv": "c\na\nb\nz\nb\n"}, "refused"),
    ("recon-truth-no-column", RECON + ("--truth", "t.csv"), {**R_, "t.csv": "x\na\nb\na\nb\n"}, "refused"),
    ("recon-truth-is-release", RECON + ("--truth", "r.json"), R_, "refused"),
    ("recon-value-adding-p-zero", RECON + ("--method", "value-adding"), {"r.json": rel_attr(p="0")}, "ok"),
    ("recon-bayes-p-zero", RECON, {"r.json": rel_attr(p="0")}, "ok"),
    ("recon-timeout-tiny", RECON + ("--timeout", "1e-300"), R_, "timeout"),
    # ---- anonymize: data, options, outputs ------------------------------------------------------------------
    ("anon-valid-template", ANON_L, N_, "ok"),
    ("anon-crlf", ANON_L, anon_csv(NUMBERS.replace("\n", "\r\n")), "ok"),
    ("anon-bom", ANON_L, anon_csv("\ufeff" + NUMBERS), "ok"),
    ("anon-quoted-newline", ANON_L, anon_csv(NUMBERS.replace("1,a", '"1\nx",a')), "ok"),
    ("anon-nul-byte", ANON_L, anon_csv(NUMBERS.replace("1,a", "1,a\x00")), "refused"),
    ("anon-missing-value", ANON_L, anon_csv(NUMBERS.replace("1,a", "1,")), "refused"),
    ("anon-ansi-column", ("anonymize", "n.csv", "--qid", "c\x1b[2J", "--keep", "s", "--out", "r.json", "--l", "2"),
     anon_csv(NUMBERS.replace("s,c", "s,c\x1b[2J")), "ok-escaped"),
    ("anon-ansi-value", ANON_L, anon_csv(NUMBERS.replace("1,a", "1,a\x1b[2J")), "ok-escaped"),
    ("anon-empty-file", ANON_L, anon_csv(""), "refused"),
    ("anon-header-only", ANON_L, anon_csv("s,c\n"), "refused"),
    ("anon-one-column", ANON_L, anon_csv("c\na\nb\n"), "refused"),
    ("anon-gzip", ANON_L, {"n.csv": gzip.compress(NUMBERS.encode(), mtime=0)}, "refused"),
    # a gzip header whose timestamp bytes hold newlines: pyarrow reads a "header" of binary names
    ("anon-gzip-newline-in-header", ANON_L, {"n.csv": gzip.compress(NUMBERS.encode(), mtime=0x0a0a0a0a)}, "refused"),
    ("anon-qid-all-equal", ANON_L, anon_csv("s,c\n1,a\n2,a\n3,a\n"), "refused"),
    ("anon-qid-confusable", ("anonymize", "n.csv", "--qid", "\u0441", "--keep", "s", "--out", "r.json",
                             "--l", "2"), N_, "refused"),
    ("anon-long-cell", ANON_L, anon_csv(NUMBERS.replace("1,a", "1," + "a" * 200000)), "refused"),
    ("anon-duplicate-header", ANON_L, anon_csv("s,c,c\n1,a,a\n2,b,b\n"), "refused"),
    ("anon-out-is-input-dotdot", ("anonymize", "n.csv", "--qid", "c", "--keep", "s", "--out", "d/../n.csv",
                                  "--l", "2"), {**N_, "d/x": "x"}, "refused"),
    ("anon-out-is-input-symlink", ("anonymize", "n.csv", "--qid", "c", "--keep", "s", "--out", "link.json",
                                   "--l", "2"), {**N_, "link.json": "SYMLINK:n.csv"}, "refused"),
    ("anon-out-directory", ("anonymize", "n.csv", "--qid", "c", "--keep", "s", "--out", "d", "--l", "2"),
     {**N_, "d": DIRECTORY}, "refused"),
    ("anon-out-fifo", ("anonymize", "n.csv", "--qid", "c", "--keep", "s", "--out", "f.json", "--l", "2"),
     {**N_, "f.json": FIFO}, "refused"),
    ("anon-class-csv-fifo", ANON_L + ("--class-csv", "c=f.csv"), {**N_, "f.csv": FIFO}, "refused"),
    ("anon-class-csv-dev-full", ANON_L + ("--class-csv", "c=full"), {**N_, "full": FULL}, "refused"),
    ("anon-out-dev-full", ("anonymize", "n.csv", "--qid", "c", "--keep", "s", "--out", "full", "--l", "2"),
     {**N_, "full": FULL}, "refused"),
    ("anon-class-csv-is-input", ANON_L + ("--class-csv", "c=n.csv"), N_, "refused"),
    ("anon-class-csv-is-out", ANON_L + ("--class-csv", "c=r.json"), N_, "refused"),
    ("anon-class-csv-not-qid", ANON_L + ("--class-csv", "s=c.csv"), N_, "ok"),
    ("anon-l-count-mismatch", ANON + ("--l", "2,2"), N_, "refused"),
    ("anon-l-unicode-digit", ANON + ("--l", "\u0662"), N_, "ok"),
    ("anon-t-one-over-zero", ANON + ("--t", "1/0"), N_, "refused"),
    ("anon-t-1e309", ANON + ("--t", "1e309"), N_, "ok"),
    ("anon-t-inf", ANON + ("--t", "inf"), N_, "refused"),
    ("anon-t-minus-zero", ANON + ("--t", "-0"), N_, "ok"),
    ("anon-t-above-one", ANON + ("--t", "2"), N_, "ok"),
    ("anon-t-huge-rational", ANON + ("--t", "1/" + "9" * 5000), N_, "refused"),
    ("anon-no-level", ANON, N_, "refused"),
    ("anon-keep-is-qid", ("anonymize", "n.csv", "--qid", "c", "--keep", "s,c", "--out", "r.json", "--l", "2"),
     N_, "refused"),
    ("anon-keep-and-drop", ("anonymize", "n.csv", "--qid", "c", "--keep", "s", "--drop", "s", "--out", "r.json",
                            "--l", "2"), N_, "refused"),
    ("anon-column-unnamed", ("anonymize", "n.csv", "--qid", "c", "--out", "r.json", "--l", "2"), N_, "refused"),
    ("anon-order-not-qid", ANON_L + ("--ground", "ordered", "--order", "s=1,2"), N_, "refused"),
    ("anon-order-without-ordered", ANON_L + ("--order", "c=a,b"), N_, "refused"),
    ("anon-order-repeated", ANON + ("--t", "1/2", "--ground", "ordered", "--order", "c=a,a,b"), N_, "refused"),
    ("anon-eta-max-negative", ANON_L + ("--eta-max", "-1"), N_, "refused"),
    ("anon-eta-max-huge", ANON_L + ("--eta-max", "9" * 40), N_, "ok"),
    ("anon-seed-unicode", ANON_L[:-4] + ("--seed", "\u0661", "--l", "2"), N_, "ok"),
    ("anon-timeout-zero-out", ANON_L + ("--timeout", "-0.5"), N_, "refused"),
    # ---- construct --------------------------------------------------------------------------------------------
    ("construct-valid-template", CONSTRUCT, N_, "ok"),
    ("construct-out-is-input-dot", ("construct", "n.csv", "--t", "2", "--k", "3", "--attribute", "s",
                                    "--out", "./n.csv"), N_, "refused"),
    ("construct-out-is-input-symlink", CONSTRUCT[:-1] + ("l.csv",), {**N_, "l.csv": "SYMLINK:n.csv"}, "refused"),
    ("construct-out-fifo", CONSTRUCT[:-1] + ("f.csv",), {**N_, "f.csv": FIFO}, "refused"),
    ("construct-out-dev-full", CONSTRUCT[:-1] + ("full",), {**N_, "full": FULL}, "refused"),
    ("construct-attribute-text", CONSTRUCT[:-3] + ("c", "--out", "o.csv"), N_, "refused"),
    ("construct-attribute-nan", CONSTRUCT, anon_csv("s,c\n1,a\nnan,b\n3,a\n4,b\n"), "refused"),
    ("construct-attribute-inf", CONSTRUCT, anon_csv("s,c\n1,a\ninf,b\n3,a\n4,b\n"), "refused"),
    ("construct-attribute-huge", CONSTRUCT, anon_csv("s,c\n1,a\n1e999999,b\n3,a\n4,b\n"), "refused"),
    ("construct-attribute-giant-exponent", CONSTRUCT, anon_csv("s,c\n1,a\n1e999999999,b\n3,a\n4,b\n"), "refused"),
    ("construct-attribute-underscores", CONSTRUCT, anon_csv("s,c\n1_000,a\n2,b\n3,a\n4,b\n"), "refused"),
    ("construct-attribute-fraction", CONSTRUCT, anon_csv("s,c\n1/3,a\n2,b\n3,a\n4,b\n5,a\n6,b\n"), "ok"),
    ("construct-k-above-N", ("construct", "n.csv", "--t", "2", "--k", "99", "--attribute", "s", "--out", "o.csv"),
     N_, "refused"),
    ("construct-t-1e309", ("construct", "n.csv", "--t", "1e309", "--k", "3", "--attribute", "s", "--out", "o.csv"),
     N_, "refused"),
    ("construct-t-unicode", ("construct", "n.csv", "--t", "\u0662", "--k", "3", "--attribute", "s", "--out",
                             "o.csv"), N_, "refused"),
    ("construct-header-only", CONSTRUCT, anon_csv("s,c\n"), "refused"),
    # ---- levels: YAML and CSV oddities ----------------------------------------------------------------------
    ("yaml-bom", ("levels", "t.yaml"), {"t.yaml": "\ufeff" + TABLE_YAML}, "ok"),
    ("yaml-crlf", ("levels", "t.yaml"), {"t.yaml": TABLE_YAML.replace("\n", "\r\n")}, "ok"),
    ("yaml-anchor-alias-row", ("levels", "t.yaml"), tab('  - {p: "mu"}\n  - {p: "1/2"}\n',
                                                          '  - &r {p: "1/2"}\n  - *r\n'), "ok"),
    ("yaml-undefined-alias", ("levels", "t.yaml"), tab("rows:", "rows: *nosuch\nxrows:"), "refused"),
    ("yaml-merge-key", ("levels", "t.yaml"), tab(YAML_ROW, '{<<: {p: "1/2"}}'), "ok"),
    ("yaml-huge-int", ("levels", "t.yaml"), tab(YAML_ROW, "{p: " + "1" * 5000 + "}"), "refused"),
    ("yaml-huge-int-count", ("levels", "t.yaml"), tab(YAML_ROW, '{p: "1/2", count: ' + "1" * 5000 + "}"),
     "refused"),
    ("yaml-inf", ("levels", "t.yaml"), tab(YAML_ROW, "{p: .inf}"), "refused"),
    ("yaml-nan", ("levels", "t.yaml"), tab(YAML_ROW, "{p: .nan}"), "refused"),
    ("yaml-float", ("levels", "t.yaml"), tab(YAML_ROW, "{p: 0.5}"), "ok"),
    ("yaml-timestamp", ("levels", "t.yaml"), tab(YAML_ROW, "{p: 2001-12-14}"), "refused"),
    ("yaml-p-mapping", ("levels", "t.yaml"), tab(YAML_ROW, "{p: {a: 1}}"), "refused"),
    ("yaml-p-piecewise-otherwise", ("levels", "t.yaml"), tab(YAML_ROW, '{p: "Piecewise((1/2, mu > 1/4), (1/3, True))"}'),
     "ok"),
    ("yaml-binary", ("levels", "t.yaml"), tab(YAML_ROW, "{p: !!binary aGVsbG8=}"), "refused"),
    ("yaml-set-tag", ("levels", "t.yaml"), tab(YAML_ROW, "{p: !!set {a: null}}"), "refused"),
    ("yaml-complex-key", ("levels", "t.yaml"), tab("rows:", "? [a, b]\n: 1\nrows:"), "refused"),
    ("yaml-unhashable-key", ("levels", "t.yaml"), tab("rows:", "? {a: 1}\n: 1\nrows:"), "refused"),
    ("yaml-int-key", ("levels", "t.yaml"), tab("rows:", "1: 2\nrows:"), "ok"),
    ("yaml-null-document", ("levels", "t.yaml"), {"t.yaml": "~\n"}, "refused"),
    ("yaml-id-number", ("levels", "t.yaml"), tab("id: adv/t", "id: 12"), "ok"),
    ("yaml-count-zero", ("levels", "t.yaml"), tab(YAML_ROW, '{p: "1/2", count: 0}'), "refused"),
    ("yaml-count-negative", ("levels", "t.yaml"), tab(YAML_ROW, '{p: "1/2", count: -2}'), "refused"),
    ("yaml-region-not-list", ("levels", "t.yaml"), tab('["0 < mu", "mu <= 1/2"]', '"0 < mu"'), "refused"),
    ("yaml-region-number", ("levels", "t.yaml"), tab('["0 < mu", "mu <= 1/2"]', "[5]"), "refused"),
    ("yaml-p-piecewise-no-otherwise", ("levels", "t.yaml"), tab(YAML_ROW, '{p: "Piecewise((1/2, mu > 1/4))"}'),
     "refused"),
    ("yaml-p-imaginary", ("levels", "t.yaml"), tab(YAML_ROW, '{p: "1/2 + I"}'), "refused"),
    ("yaml-p-zoo", ("levels", "t.yaml"), tab(YAML_ROW, '{p: "zoo"}'), "refused"),
    ("yaml-utf16", ("levels", "t.yaml"), {"t.yaml": TABLE_YAML.encode("utf-16")}, "refused"),
    ("csv-crlf", ("levels", "x.csv"), {"x.csv": TABLE_CSV.replace("\n", "\r\n")}, "ok"),
    ("csv-bom", ("levels", "x.csv"), {"x.csv": "\ufeff" + TABLE_CSV}, "ok"),
    ("csv-gzip", ("levels", "x.csv"), {"x.csv": gzip.compress(TABLE_CSV.encode())}, "refused"),
    ("csv-one-bucket", ("levels", "x.csv"), {"x.csv": "a1\n1\n1\n"}, "ok"),
    ("csv-quoted-newline-number", ("levels", "x.csv"), {"x.csv": 'a1,a2\n"1/2\n",1/2\n'}, "ok"),
    ("csv-unicode-digits", ("levels", "x.csv"), {"x.csv": "a1,a2\n\u0661/\u0662,1/2\n1/2,1/2\n"}, "ok"),
    ("csv-fullwidth-digits", ("levels", "x.csv"), {"x.csv": "a1,a2\n\uff11/\uff12,1/2\n1/2,1/2\n"}, "ok"),
    ("csv-python-expression", ("levels", "x.csv"), {"x.csv": "a1,a2\n(1/2)**1,1/2\n1/2,1/2\n"}, "refused"),
    ("micro-bom", LEVELS, {"g.csv": "\ufeff" + MICRO}, "ok"),
    ("micro-crlf", LEVELS, {"g.csv": MICRO.replace("\n", "\r\n")}, "ok"),
    ("micro-quoted-newline", ("levels", "m.csv", "--qi", "zip", "--sensitive", "disease"),
     {"m.csv": 'zip,disease\n1,"fl\nu"\n1,hiv\n2,flu\n2,hiv\n'}, "ok"),
    ("micro-sensitive-all-equal", ("levels", "m.csv", "--qi", "zip", "--sensitive", "disease"),
     {"m.csv": "zip,disease\n1,flu\n1,flu\n2,flu\n2,flu\n"}, "ok"),
    ("micro-one-record", ("levels", "m.csv", "--qi", "zip", "--sensitive", "disease"),
     {"m.csv": "zip,disease\n1,flu\n"}, "refused"),
    ("micro-parquet-garbage", ("levels", "m.parquet", "--qi", "zip", "--sensitive", "disease"),
     {"m.parquet": "zip,disease\n1,flu\n"}, "refused"),
    ("micro-parquet-empty", ("levels", "m.parquet", "--qi", "zip", "--sensitive", "disease"),
     {"m.parquet": "PARQUET:empty"}, "refused"),
    ("micro-parquet-nan-qi", ("levels", "m.parquet", "--qi", "zip", "--sensitive", "disease"),
     {"m.parquet": "PARQUET:nan"}, "refused"),
    ("micro-ordered-giant-exponent", ("levels", "m.csv", "--qi", "zip", "--sensitive", "v", "--ground", "ordered"),
     {"m.csv": "zip,v\n1,1\n1,1e999999999\n2,2\n2,1\n"}, "ok"),
    ("release-bucketization-giant-exponent", ("release", "m.csv", "--sensitive", "v", "--mechanism",
                                              "bucketization", "--t", "1", "--class-size", "2"),
     {"m.csv": "zip,v\n1,1\n1,1e999999999\n2,2\n2,1\n"}, "ok"),
    ("anon-ordered-giant-exponent", ("anonymize", "m.csv", "--qid", "v", "--keep", "zip", "--out", "r.json", "--t",
                                     "1/2", "--ground", "ordered", "--seed", "1"),
     {"m.csv": "zip,v\n1,1\n1,1e999999999\n2,2\n2,1e-999999999\n"}, "ok"),
    ("micro-qi-confusable", ("levels", "g.csv", "--qi", "\u0430ge", "--sensitive", "disease"), G_, "refused"),
    ("micro-sensitive-two", ("levels", "g.csv", "--qi", "age", "--sensitive", "zip,disease"), G_, "ok"),
    ("levels-param-unicode-name", LEVELS + ("--param", "\u03b4=1/10"), G_, "refused"),
    ("levels-param-twice", LEVELS + ("--param", "delta=1/10", "--param", "delta=1/5"), G_, "refused"),
    ("levels-param-huge-rational", LEVELS + ("--param", "delta=1/" + "7" * 4000), G_, "refused"),
    # ---- release ----------------------------------------------------------------------------------------------
    ("release-p-minus-zero", ("release", "g.csv", "--sensitive", "disease", "--qi", "age", "--mechanism",
                              "randomised-response", "--p", "-0"), G_, "ok"),
    ("release-p-unicode", ("release", "g.csv", "--sensitive", "disease", "--qi", "age", "--mechanism",
                           "randomised-response", "--p", "\u0661/\u0662"), G_, "refused"),
    ("release-p-float-overflow", ("release", "g.csv", "--sensitive", "disease", "--qi", "age", "--mechanism",
                                  "randomised-response", "--p", "1e309"), G_, "refused"),
    ("release-sensitive-two", ("release", "g.csv", "--sensitive", "disease,zip", "--qi", "age", "--mechanism",
                               "randomised-response", "--p", "1/2"), G_, "refused"),
    ("release-t-piecewise", ("release", "n.csv", "--sensitive", "s", "--mechanism", "bucketization",
                             "--class-size", "2", "--t", "Piecewise((2, s > 1))"), N_, "refused"),
    ("release-eta-float", ("release", "g.csv", "--sensitive", "disease", "--qi", "age", "--mechanism",
                           "set-channel", "--p", "1/2", "--eta", "1.5"), G_, "refused"),
    # ---- check-edge -------------------------------------------------------------------------------------------
    ("edge-kt-log-f", CE_KT + ("--f", "2*log(t) + 1"), {}, "ok"),
    ("edge-f-piecewise-no-otherwise", CE + ("--f", "Piecewise((eps, eps > 1))"), {}, "refused"),
    ("edge-f-sqrt-minus-one", CE + ("--f", "sqrt(-1)"), {}, "refused"),
    ("edge-f-zoo", CE + ("--f", "zoo"), {}, "refused"),
    ("edge-f-I", CE + ("--f", "I*eps"), {}, "refused"),
    ("edge-f-nan", CE + ("--f", "nan"), {}, "refused"),
    ("edge-f-minus-oo", CE + ("--f", "-oo"), {}, "refused"),
    ("edge-f-E-tower", CE + ("--f", "E**E**E**E"), {}, "refused"),
    ("edge-f-10k", CE + ("--f", LONGF), {}, "refused"),
    ("edge-f-deep", CE + ("--f", DEEPF), {}, "refused"),
    ("edge-f-eps-tower", CE + ("--f", "eps**eps**eps**eps"), {}, "refused"),
    ("edge-f-unicode-digit", CE + ("--f", "\u0662*eps"), {}, "refused"),
    ("edge-f-bytes-escape", CE + ("--f", "eps\\x00"), {}, "refused"),
    ("edge-g-division-zero", CE + ("--g", "1/(eps - eps)"), {}, "refused"),
    ("edge-when-true", CE + ("--when", "True"), {}, "refused"),
    ("edge-when-false", CE + ("--when", "N < 0"), {}, "ok"),
    ("edge-when-dangling-and", CE + ("--when", "N >= 2 and"), {}, "refused"),
    ("edge-when-unknown-symbol", CE + ("--when", "q > 1"), {}, "refused"),
    ("edge-when-piecewise", CE + ("--when", "Piecewise((N > 2, N > 1))"), {}, "refused"),
    ("edge-N-unicode", ("check-edge", "ldp", "kdp(k=1)", "--N", "\u0663"), {}, "ok"),
    ("edge-N-minus-zero", ("check-edge", "ldp", "kdp(k=1)", "--N", "-0"), {}, "refused"),
    ("edge-param-twice", ("check-edge", "ldp", "kdp(k=1,k=2)"), {}, "refused"),
    ("edge-param-unbalanced", ("check-edge", "ldp", "kdp(k=1"), {}, "refused"),
    ("edge-param-empty", ("check-edge", "ldp", "kdp()"), {}, "refused"),
    ("edge-param-nested", ("check-edge", "ldp", "kdp(k=kdp(k=1))"), {}, "refused"),
    ("edge-name-trailing", ("check-edge", "ldp", "kdp(k=1)x"), {}, "refused"),
    ("edge-timeout", ("check-edge", "kt-closeness(k=1)", "mult-t-closeness", "--N", "8", "--timeout", "0.01"),
     {}, "timeout"),
    # ---- path, map, guarantees, site, discover, matrix ----------------------------------------------------------
    ("path-same-node", ("path", "ldp", "ldp", "--verdicts", "v.json"), {"v.json": VERDICTS}, "ok"),
    ("path-double-params", ("path", "ldp", "kdp(k=1)(k=2)", "--verdicts", "v.json"), {"v.json": VERDICTS},
     "refused"),
    ("path-verdicts-list", ("path", "ldp", "kdp", "--verdicts", "v.json"), {"v.json": "[1, 2]"}, "refused"),
    ("path-verdicts-huge-int", ("path", "ldp", "kdp", "--verdicts", "v.json"),
     {"v.json": '{"claims": [' + "9" * 5000 + "]}"}, "refused"),
    ("path-verdicts-deep", ("path", "ldp", "kdp", "--verdicts", "v.json"), {"v.json": "[" * 100000}, "refused"),
    ("map-verdicts-row-number", ("map", "--json", "--verdicts", "v.json"),
     {"v.json": '{"claims": [{"id": 5, "verdict": "proved"}]}'}, "refused"),
    ("map-verdicts-row-not-object", ("map", "--json", "--verdicts", "v.json"),
     {"v.json": '{"claims": ["ekenstedt2022/theorem-2b"]}'}, "refused"),
    ("map-verdicts-nan", ("map", "--json", "--verdicts", "v.json"),
     {"v.json": '{"claims": [{"id": "ekenstedt2022/theorem-2b", "verdict": NaN}]}'}, "refused"),
    ("map-verdicts-bom", ("map", "--json", "--verdicts", "v.json"), {"v.json": "\ufeff" + VERDICTS}, "ok"),
    ("map-out-dev-full", ("map", "--verdicts", "v.json", "--out", "full.svg"), {"v.json": VERDICTS, "full.svg": FULL},
     "refused"),
    ("map-out-is-verdicts", ("map", "--verdicts", "v.json", "--out", "l.svg"),
     {"v.json": VERDICTS, "l.svg": "SYMLINK:v.json"}, "refused"),
    ("map-out-directory", ("map", "--verdicts", "v.json", "--out", "d.svg"), {"v.json": VERDICTS, "d.svg": DIRECTORY},
     "refused"),
    ("map-max-list-huge", ("map", "--json", "--verdicts", "v.json", "--max-list", "9" * 40), {"v.json": VERDICTS},
     "ok"),
    ("map-theorems-directory", ("map", "--json", "--only", "--theorems", "theorems"), {"theorems": DIRECTORY},
     "refused"),
    ("map-theorems-crlf", ("map", "--json", "--only", "--theorems", "theorems/t.yaml"),
     {"theorems/t.yaml": THEOREM.replace("\n", "\r\n")}, "ok"),
    ("map-theorems-huge-int", ("map", "--json", "--only", "--theorems", "theorems/t.yaml"),
     {"theorems/t.yaml": THEOREM.replace("expect: proved", "expect: proved\n    weight: " + "1" * 5000)}, "refused"),
    ("map-theorems-f-piecewise", ("map", "--json", "--only", "--theorems", "theorems/t.yaml"),
     {"theorems/t.yaml": THEOREM.replace('f: "(exp(eps)*(N - 1) + 1)/N"', 'f: "Piecewise((eps, eps > 1))"')},
     "ok"),
    ("guar-html-fifo", GUAR + ("--html", "f.html"), {**GV, "f.html": FIFO}, "refused"),
    ("map-out-fifo", ("map", "--verdicts", "v.json", "--out", "f.svg"), {"v.json": VERDICTS, "f.svg": FIFO},
     "refused"),
    ("figure-out-fifo", ("figure", "fig-6", "--out", "f.png", "--points", "3"), {"f.png": FIFO}, "refused"),
    ("recon-truth-fifo", RECON + ("--truth", "t.csv"), {**R_, "t.csv": FIFO}, "refused"),
    ("recon-release-fifo", RECON, {"r.json": FIFO}, "refused"),
    ("site-out-symlink-to-inputs", SITE[:2] + ("l",) + SITE[3:],
     {"v.json": VERDICTS, "m.json": MATRIX, "l": "SYMLINK:."}, "refused"),
    ("guar-html-dev-full", GUAR + ("--html", "full.html"), {**GV, "full.html": FULL}, "refused"),
    ("guar-html-is-input", GUAR + ("--html", "l.html"), {**GV, "l.html": "SYMLINK:g.csv"}, "refused"),
    ("guar-html-directory", GUAR + ("--html", "d.html"), {**GV, "d.html": DIRECTORY}, "refused"),
    ("guar-verdicts-is-data", ("guarantees", "g.csv", "--qi", "age,zip", "--sensitive", "disease", "--verdicts",
                               "g.csv"), GV, "refused"),
    ("site-out-existing-file", SITE[:2] + ("f",) + SITE[3:], {"f": "x", "v.json": VERDICTS, "m.json": "{}"},
     "refused"),
    ("site-out-is-input", SITE[:2] + (".",) + SITE[3:], {"v.json": VERDICTS, "m.json": "{}"}, "refused"),
    ("site-matrix-deep", SITE, {"v.json": VERDICTS, "m.json": "[" * 100000}, "refused"),
    ("site-matrix-huge-int", SITE, {"v.json": VERDICTS, "m.json": '{"cells": [' + "7" * 5000 + '], "nodes": []}'},
     "refused"),
    ("site-matrix-deep-closed", SITE, {"v.json": VERDICTS, "m.json": "[" * 100000 + "]" * 100000}, "refused"),
    ("site-verdicts-huge-int", SITE, {"v.json": '{"claims": [' + "7" * 5000 + "]}", "m.json": MATRIX}, "refused"),
    ("guar-verdicts-deep-closed", GUAR, {**G_, "v.json": "[" * 100000 + "]" * 100000}, "refused"),
    ("site-matrix-list", SITE, {"v.json": VERDICTS, "m.json": "[1]"}, "refused"),
    ("site-matrix-garbage-pairs", SITE, {"v.json": VERDICTS, "m.json": '{"pairs": 5}'}, "refused"),
    ("site-out-dev-full", SITE[:2] + ("full/site",) + SITE[3:], {"v.json": VERDICTS, "m.json": "{}", "full": FULL},
     "refused"),
    ("discover-write-existing-file", ("discover", "--N", "3", "--definitions", "ldp", "dp", "--write", "w"),
     {"w": "x"}, "refused"),
    ("discover-write-dev-full", ("discover", "--N", "3", "--definitions", "ldp", "dp", "--write", "full"),
     {"full": FULL}, "refused"),
    ("discover-definitions-repeated", ("discover", "--N", "3", "--definitions", "ldp", "ldp"), {}, "refused"),
    ("matrix-definitions-repeated", ("matrix", "--definitions", "ldp", "ldp"), {}, "refused"),
    ("matrix-parameters-unicode", ("matrix", "--definitions", "ldp", "dp", "--parameters", "k=\u0662"), {},
     "refused"),
    ("matrix-N-minus-zero", ("matrix", "--definitions", "ldp", "dp", "--N", "-0"), {}, "refused"),
    # ---- definitions, claims, verify, certificate, table, figure, completion, global ----------------------------
    ("definitions-with-params", ("definitions", "kdp(k=2)"), {}, "refused"),
    ("definitions-empty", ("definitions", ""), {}, "refused"),
    ("claims-regex", ("claims", "(.*"), {}, "refused"),
    ("claims-glob", ("claims", "*"), {}, "refused"),
    ("claims-empty-id", ("claims", ""), {}, "refused"),
    ("verify-empty-id", ("verify", ""), {}, "refused"),
    ("verify-theorems-directory", ("verify", "--only", "--theorems", "theorems"), {"theorems": DIRECTORY},
     "refused"),
    ("verify-tables-outside-folder", ("verify", "--only", "--tables", "t.yaml"), {"t.yaml": "\ufeff" + TABLE_YAML},
     "refused"),
    ("verify-tables-bom", ("verify", "--only", "--tables", "counterexamples/t.yaml"),
     {"counterexamples/t.yaml": "\ufeff" + TABLE_YAML}, "ok"),
    ("certificate-empty-id", ("certificate", ""), {}, "refused"),
    ("certificate-budget-zero", ("certificate", "--budget", "0", "ekenstedt2022/theorem-2b"), {}, "ok"),
    ("certificate-budget-inf", ("certificate", "--budget", "1e309", "ekenstedt2022/theorem-2b"), {}, "refused"),
    ("certificate-edge-unbalanced", ("certificate", "--edge", "ldp", "kdp(k=1"), {}, "refused"),
    ("table-duplicate-ids", ("table", "t.yaml"),
     {"t.yaml": "tables:\n" + "".join("  - " + TABLE_YAML.replace("\n", "\n    ").rstrip() + "\n" for _ in range(2))},
     "refused"),
    ("verify-duplicate-claim-ids", ("verify", "--only", "--theorems", "theorems/t.yaml"),
     {"theorems/t.yaml": THEOREM + THEOREM[THEOREM.index("  - id"):]}, "refused"),
    ("verify-claim-id-reading", ("verify", "--only", "--theorems", "theorems/t.yaml"),
     {"theorems/t.yaml": THEOREM.replace("id: adv/e1", "id: adv/e1#reading")}, "refused"),
    ("path-k-beside-param", ("path", "ldp", "kdp(k=2)", "--k", "3", "--N", "5", "--verdicts", "v.json"),
     {"v.json": VERDICTS}, "ok"),
    ("completion-fish", ("completion", "fish"), {}, "ok"),
    ("definitions-case", ("definitions", "LDP"), {}, "refused"),
    ("claims-kind-list", ("claims", "--kind", "implies,level"), {}, "refused"),
    ("table-traversal", ("table", "../../../etc/passwd"), {}, "refused"),
    ("table-bundled-traversal", ("table", "ekenstedt2022/../../x"), {}, "refused"),
    ("figure-out-dev-full", ("figure", "fig-6", "--out", "full.png", "--points", "3"), {"full.png": FULL}, "refused"),
    ("figure-out-dotfile", ("figure", "fig-6", "--out", ".png", "--points", "3"), {}, "refused"),
    ("figure-points-1e309", ("figure", "fig-6", "--out", "f.png", "--points", "1e309"), {}, "refused"),
    ("completion-empty", ("completion", ""), {}, "refused"),
    ("completion-powershell", ("completion", "powershell"), {}, "refused"),
    ("global-quiet-verbose", ("-q", "-v", "definitions"), {}, "refused"),
    ("global-double-dash", ("--", "definitions"), {}, "refused"),
]


#: cases that take about a second or more (a check, a figure or a map drawn, pandas started): `pytest -m slow`
SLOW = {"figure-out-fifo", "figure-out-dev-full", "map-out-fifo", "map-out-dev-full", "map-theorems-crlf",
        "map-theorems-f-piecewise", "certificate-budget-zero", "yaml-p-piecewise-otherwise", "map-max-list-huge",
        "path-k-beside-param", "edge-kt-log-f", "map-verdicts-bom", "micro-bom", "micro-sensitive-all-equal",
        "micro-crlf", "guar-html-fifo", "guar-html-dev-full", "path-same-node", "micro-parquet-empty",
        "micro-one-record", "micro-parquet-garbage", "certificate-empty-id", "micro-quoted-newline", "edge-N-unicode",
        "edge-timeout", "edge-when-false", "micro-ordered-giant-exponent", "micro-sensitive-two"}


def _make(tmp_path, name, content):
    """:func:`_cli_run.make` plus symbolic links (``"SYMLINK:target"``) and small Parquet files."""
    path = tmp_path / name
    if isinstance(content, str) and content.startswith("SYMLINK:"):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.symlink_to(content[len("SYMLINK:"):])
    elif content == FULL:
        try:
            os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 7))
        except OSError:
            pytest.skip("cannot create a device node here (mknod needs root)")
    elif isinstance(content, str) and content.startswith("PARQUET:"):
        import pandas as pd
        kind = content[len("PARQUET:"):]
        frame = {"empty": pd.DataFrame({"zip": pd.Series([], dtype=str), "disease": pd.Series([], dtype=str)}),
                 "nan": pd.DataFrame({"zip": [1.0, float("nan"), 2.0, 2.0], "disease": ["a", "b", "a", "b"]})}[kind]
        frame.to_parquet(path)
    else:
        make(tmp_path, name, content)


def _contents(root, names):
    """The bytes of the case's own files (links not followed), to check no input was overwritten."""
    out = {}
    for n in names:
        p = root / n
        if p.is_symlink():
            out[n] = ("link", os.readlink(p))
        elif p.is_file():
            out[n] = p.read_bytes()
    return out


def test_case_count():
    ids = [c[0] for c in CASES]
    assert len(ids) == len(set(ids)) and SLOW <= set(ids)
    assert len(ids) + len(API) >= 100
    commands = {c[1][0] for c in CASES} | {c[1][-1] for c in CASES if c[1][0] in ("-q", "--")}
    for name in ("definitions", "claims", "verify", "certificate", "levels", "release", "table", "guarantees",
                 "map", "path", "check-edge", "discover", "matrix", "site", "figure", "construct", "anonymize",
                 "reconstruct", "completion"):
        assert name in commands, name


@pytest.mark.parametrize("argv, files, expected", [
    pytest.param(a, f, e, id=i, marks=[pytest.mark.slow] if i in SLOW else []) for i, a, f, e in CASES])
def test_hostile_input_is_clean(tmp_path, tmp_path_factory, argv, files, expected):
    for name, content in files.items():
        _make(tmp_path, name, content)
    before = listing(tmp_path)
    own = _contents(tmp_path, files)
    out_dir = tmp_path_factory.mktemp("out")
    result = run(argv, tmp_path, out_dir, timeout=60)
    assert result is not None, "no answer within 60 s"
    code, out, err = result
    assert not (tmp_path / "PWN").exists(), "the injection ran"
    assert "Traceback" not in err, err[-2000:]
    if expected == "refused":
        check_refused(code, out, err)
        assert listing(tmp_path) == before
    elif expected == "timeout":
        assert code == 3, (code, err[-500:])
        assert listing(tmp_path) == before
    elif expected == "ok-escaped":      # valid, and the control characters in it are shown escaped
        assert code == 0 and "\x1b" not in out + err, (code, out[-500:], err[-500:])
    else:        # stderr may hold the progress bar, nothing else
        assert code == 0, (code, err[-1000:])
        assert "implgraph:" not in err and "Warning" not in err, err[-1000:]
    assert _contents(tmp_path, files) == own, "an input was changed"
    texts = parsed(out_dir).splitlines()
    if expected == "refused":
        assert texts == [], "text reached sympy's parser (which evaluates Python)"
    else:
        # a check that ran (or began to): only the engine's own texts (declared parameter ranges such as 'N - 1', a certificate's
        # domain) may reach sympy's parser, never a text of the case's input
        assert all(any(e in t for e in ENGINE) for t in texts), texts


# ---- the Python API ------------------------------------------------------------------------------------------

def _table():
    return implgraph.table_from_rows([["1/2", "1/2"], ["1/4", "3/4"], ["1/3", "2/3"]], classes=["E1", "E1", "E2"])


def _frame(**cols):
    import pandas as pd
    base = {"zip": ["13*", "13*", "14*", "14*"], "disease": ["flu", "hiv", "flu", "flu"]}
    return pd.DataFrame({**base, **cols})


def _levels_of(**kw):
    from implgraph.io.microdata import levels_of
    return levels_of(**{"data": _frame(), "qi": ["zip"], "sensitive": ["disease"], **kw})


NAN = float("nan")
#: the engine's own code (its searches and the prover's arguments), the only callers whose texts may reach sympy's parser
ENGINE = (f"{os.sep}implgraph{os.sep}engines{os.sep}", f"{os.sep}implgraph{os.sep}prover{os.sep}")
#: a payload in a container: sympy.sympify(strict=True) reads the texts inside a dict, set or tuple as Python
CODE = "__import__('os').system('touch PWN')"

API = [
    ("load_table-none", lambda: implgraph.load_table(None)),
    ("load_table-bytes", lambda: implgraph.load_table(b"ekenstedt2022/table-III")),
    ("load_table-int", lambda: implgraph.load_table(3)),
    ("load_table-id-int", lambda: implgraph.load_table("ekenstedt2022/table-III", 5)),
    ("load_table-traversal", lambda: implgraph.load_table("ekenstedt2022/../../etc/passwd")),
    ("load_csv-none", lambda: implgraph.load_csv(None)),
    ("load_csv-list", lambda: implgraph.load_csv(["a1,a2", "1/2,1/2"])),
    ("load_table_file-none", lambda: implgraph.load_table_file(None)),
    ("load_table_file-dict", lambda: implgraph.load_table_file({"rows": []})),
    ("table_from_rows-none", lambda: implgraph.table_from_rows(None)),
    ("table_from_rows-empty", lambda: implgraph.table_from_rows([])),
    ("table_from_rows-empty-row", lambda: implgraph.table_from_rows([[]])),
    ("table_from_rows-nan", lambda: implgraph.table_from_rows([[NAN, 0.5], [0.5, 0.5]])),
    ("table_from_rows-bytes", lambda: implgraph.table_from_rows([[b"1/2", "1/2"], ["1/2", "1/2"]])),
    ("table_from_rows-dict-cell", lambda: implgraph.table_from_rows([[{"p": 1}, "1/2"], ["1/2", "1/2"]])),
    ("table_from_rows-huge-int", lambda: implgraph.table_from_rows([[10 ** 400, 0], ["1/2", "1/2"]])),
    ("table_from_rows-classes-short", lambda: implgraph.table_from_rows([["1/2", "1/2"], ["1/2", "1/2"]],
                                                                        classes=["E1"])),
    ("table_from_rows-classes-none-cell", lambda: implgraph.table_from_rows([["1/2", "1/2"], ["1/2", "1/2"]],
                                                                            classes=["E1", None])),
    ("table_from_rows-string", lambda: implgraph.table_from_rows("1/2,1/2")),
    ("Block-probs-dict-code", lambda: implgraph.Block(probs=({CODE: 1}, "1/2"))),
    ("Block-probs-set-code", lambda: implgraph.Block(probs=({CODE}, "1/2"))),
    ("Block-probs-tuple-code", lambda: implgraph.Block(probs=((CODE,), "1/2"))),
    ("Block-count-dict-code", lambda: implgraph.Block(probs=("1/2", "1/2"), count={CODE: 1})),
    ("Block-probs-complex", lambda: implgraph.Block(probs=(0.5j, "1/2"))),
    ("table_from_rows-dict-code", lambda: implgraph.table_from_rows([[{CODE: 1}, "1/2"], ["1/2", "1/2"]])),
    ("table_from_rows-above-one", lambda: implgraph.table_from_rows([[2, -1], ["1/2", "1/2"]])),
    ("table_from_rows-not-summing", lambda: implgraph.table_from_rows([["1/2", "1/3"], ["1/2", "1/2"]])),
    ("table_from_rows-ragged", lambda: implgraph.table_from_rows([["1/2", "1/2"], ["1/3", "1/3", "1/3"]])),
    ("Block-probs-none", lambda: implgraph.levels(implgraph.Table(
        blocks=[implgraph.Block(probs=None), implgraph.Block(probs=("1/2", "1/2"))], buckets=["a", "b"]), "ldp")),
    ("Block-count-negative", lambda: implgraph.levels(implgraph.Table(
        blocks=[implgraph.Block(probs=("1/2", "1/2"), count=-1), implgraph.Block(probs=("1/2", "1/2"))],
        buckets=["a", "b"]), "ldp")),
    ("Table-with-id-count-negative", lambda: implgraph.levels(implgraph.Table(
        blocks=[implgraph.Block(probs=("1/2", "1/2"), count=-1), implgraph.Block(probs=("1/2", "1/2"))],
        buckets=["a", "b"], id="mine"), "ldp")),
    ("Table-blocks-none", lambda: implgraph.levels(implgraph.Table(blocks=None, buckets=["a", "b"]), "ldp")),
    ("levels-none", lambda: implgraph.levels(None)),
    ("levels-definition-int", lambda: implgraph.levels(_table(), 5)),
    ("levels-k-nan", lambda: implgraph.levels(_table(), "kdp", k=NAN)),
    ("levels-k-googol", lambda: implgraph.levels(_table(), "kdp", k=10 ** 100)),
    ("levels-k-list", lambda: implgraph.levels(_table(), "kdp", k=[2])),
    ("levels-k-bool", lambda: implgraph.levels(_table(), "kdp", k=True)),
    ("levels-all-k-float", lambda: implgraph.levels(_table(), k=2.5)),
    ("optimal_level-none", lambda: implgraph.optimal_level(None, "ldp")),
    ("optimal_level-definition-none", lambda: implgraph.optimal_level(_table(), None)),
    ("satisfies-level-none", lambda: implgraph.satisfies(_table(), "ldp", None)),
    ("satisfies-level-nan", lambda: implgraph.satisfies(_table(), "ldp", NAN)),
    ("satisfies-level-list", lambda: implgraph.satisfies(_table(), "ldp", [1])),
    ("all_levels-k-negative", lambda: implgraph.all_levels(_table(), k=-1)),
    ("all_levels-show-string", lambda: implgraph.all_levels(_table(), show="kdp")),
    ("check_edge-a-none", lambda: implgraph.check_edge(None, "ldp", N=3)),
    ("check_edge-b-list", lambda: implgraph.check_edge("ldp", ["kdp"], N=3)),
    ("check_edge-N-huge", lambda: implgraph.check_edge("ldp", "kdp(k=1)", N=2 ** 100)),
    ("check_edge-N-bool", lambda: implgraph.check_edge("ldp", "kdp(k=1)", N=True)),
    ("check_edge-N-float", lambda: implgraph.check_edge("ldp", "kdp(k=1)", N=3.0)),
    ("check_edge-p-none", lambda: implgraph.check_edge("ldp", "kdp(k=1)", N=3, p=None)),
    ("check_edge-when-int", lambda: implgraph.check_edge("ldp", "kdp(k=1)", N=3, when=5)),
    ("check_edge-when-none-item", lambda: implgraph.check_edge("ldp", "kdp(k=1)", N=3, when=[None])),
    ("check_edge-f-int", lambda: implgraph.check_edge("ldp", "kdp(k=1)", N=3, f=5)),
    ("check_edge-f-bytes", lambda: implgraph.check_edge("ldp", "kdp(k=1)", N=3, f=b"eps")),
    ("check_edge-jobs-negative", lambda: implgraph.check_edge("ldp", "kdp(k=1)", N=3, jobs=-1)),
    ("verify-ids-int", lambda: implgraph.verify(5)),
    ("verify-ids-none-item", lambda: implgraph.verify([None])),
    ("verify-max_n-string", lambda: implgraph.verify("ekenstedt2022/lemma-3.3", max_n="3")),
    ("verify-timeout-nan", lambda: implgraph.verify("ekenstedt2022/lemma-3.3", timeout=NAN)),
    ("verify-unknown-id", lambda: implgraph.verify("nosuch/claim")),
    ("implication_map-N-bool", lambda: implgraph.implication_map(N=True, verdicts={})),
    ("implication_map-verdicts-int", lambda: implgraph.implication_map(N=3, verdicts=5)),
    ("implication_map-verdicts-list", lambda: implgraph.implication_map(N=3, verdicts=[1])),
    ("implication_map-theorems-string", lambda: implgraph.implication_map(N=3, theorems="nosuch.yaml",
                                                                          verdicts={})),
    ("implication_map-theorems-int", lambda: implgraph.implication_map(N=3, theorems=5, verdicts={})),
    ("implication_map-verdict-dict-value", lambda: implgraph.implication_map(
        N=3, verdicts={"ekenstedt2022/theorem-2b": {CODE: 1}})),
    ("load_table-id-list", lambda: implgraph.load_table("ekenstedt2022/table-III", ["x"])),
    ("claims-ids-int", lambda: implgraph.claims(5)),
    ("claims-kind-list", lambda: implgraph.claims(kind=["implies"])),
    ("definitions-string", lambda: implgraph.api.definitions("ldp")),
    ("register-none", lambda: implgraph.register(None)),
    ("register-int", lambda: implgraph.register(5)),
    ("register-object", lambda: implgraph.register(object)),
    ("levels_of-data-none", lambda: _levels_of(data=None)),
    ("levels_of-qi-string", lambda: _levels_of(qi="zip")),
    ("levels_of-sensitive-none", lambda: _levels_of(sensitive=None)),
    ("levels_of-k-nan", lambda: _levels_of(k=NAN)),
    ("levels_of-params-list", lambda: _levels_of(params=[("delta", "1/10")])),
    ("levels_of-nan-cells", lambda: _levels_of(data=_frame(disease=["flu", NAN, "flu", "flu"]))),
    ("levels_of-qi-int", lambda: _levels_of(qi=[0])),
]


@pytest.mark.parametrize("call", [pytest.param(c, id=i) for i, c in API])
def test_api_hostile_argument(tmp_path, call):
    _cli_run.guard_sympy_parser()
    log = tmp_path / "parsed-api"
    _cli_run._GUARD_LOG["path"] = str(log)
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        with pytest.raises(InputError) as info:
            call()
    finally:
        os.chdir(here)
        _cli_run._GUARD_LOG["path"] = None
    text = info.value.format()
    assert "fix:" in text and "\n" not in text, text
    assert [p.name for p in tmp_path.iterdir()] == [], "the call wrote a file (or ran the payload: PWN)"
    assert not log.exists(), log.read_text()


@pytest.mark.slow
def test_figure_prints_no_warnings(tmp_path):
    """A figure in a fresh interpreter (the forked cases inherit pytest's warning capture): numpy's RuntimeWarnings
    at the ends of the grid (0/0 at p_y = 0, 1) printed the generated code on stderr on every run."""
    import subprocess
    import sys
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    env.pop("PYTHONWARNINGS", None)
    proc = subprocess.run([sys.executable, "-m", "implgraph", "figure", "fig-6", "--out", "f.png", "--points", "3"],
                          cwd=tmp_path, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr[-1000:]
    assert (tmp_path / "f.png").stat().st_size > 0
