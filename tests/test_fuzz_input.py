"""Fuzz table of malformed input: CSV, YAML data files, theorem files and command-line arguments.

Every case runs the command line in its own process, in a temporary directory holding only the
case's own files, with a 10 s timeout, and asserts the project's standard for bad input: exit status
2, exactly one line on stderr starting ``implgraph:`` and holding ``fix:``, no traceback, nothing on
stdout, and no file created or removed. The process is forked from the test process, which has
imported implgraph once (a fresh interpreter per case would spend most of the time importing);
:func:`test_console_script_subprocess` runs a few cases through ``python -m implgraph.cli`` itself.

The cases are malformed by construction (the expected outcome, "refused", follows from the input
format in docs/DATA_FORMAT.md and the commands' documented ranges, not from the engine's output).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import implgraph.cli
import implgraph.core.verdict

implgraph.cli.build_parser()             # imports every command module before the forks
implgraph.checks.load_checkers()

from _cli_run import DEV_ZERO, DIRECTORY, FIFO, check_refused as _check, listing as _listing, make as _make, \
    parsed, run as _run

GOOD_CSV = "a1,a2\n1/2,1/2\n1/4,3/4\n1/3,2/3\n"

GOOD_TABLE = """\
id: fuzz/t
symbols: {mu: real}
region: ["0 < mu", "mu <= 1/2"]
rows:
  - {p: "mu"}
  - {p: "1/2"}
"""

TABLE_WITH_CLAIM = """\
tables:
  - id: fuzz/t
    symbols: {mu: real}
    region: ["0 < mu", "mu <= 1/2"]
    rows:
      - {p: "mu"}
      - {p: "1/2"}
    claims:
      - id: fuzz/t/c
        printed: "x"
        kind: level
        definition: ldp
        params: {}
        level: "1"
        expect: holds
"""

TABLE_UNBOUNDED = """\
tables:
  - id: fuzz/u
    symbols: {mu: real, sigma: real}
    region: ["0 < sigma", "sigma < mu", "mu <= 1/2"]
    rows:
      - {p: "mu", class: E1}
      - {p: "mu", class: E1}
      - {p: "sigma", class: E2}
      - {p: "2*mu - sigma", class: E2}
    claims:
      - id: fuzz/u/c
        printed: "y"
        kind: unbounded
        from: {definition: mult-t-closeness, params: {}}
        to: {definition: ldp, params: {}, scope: table}
        free: sigma
        limit: "0"
        family: ["1/10", "1/100"]
        fix: {mu: "1/2"}
        bound: satisfies
        when: []
        expect: confirmed
"""

THEOREM = """\
paper: fuzz
claims:
  - id: fuzz/e1
    printed: "eps-LDP => (1,t)-closeness"
    kind: implies
    from: {definition: ldp, level: eps}
    to: {definition: kt-closeness, params: {k: "1"}, level: t}
    f: "(exp(eps)*(N - 1) + 1)/N"
    symbols: {N: integer}
    when: ["N >= 2"]
    expect: proved
"""

MATH = """\
paper: fuzz
claims:
  - id: fuzz/m1
    printed: "x"
    kind: math
    claim: "a number"
    formula: "y == 2*x"
    symbols: {x: real, y: real}
    values: {x: "1"}
    claimed: {y: "2"}
    tolerance: "0.05"
    expect: holds
"""

LAUGHS = """\
a: &a [x, x, x, x, x, x, x, x, x, x]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]
f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]
g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]
h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g, *g]
i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h, *h]
"""


def _sub(text, old, new):
    assert old in text, old
    return text.replace(old, new, 1)


def _thm(old, new):
    return {"theorems/t.yaml": _sub(THEOREM, old, new)}


def _tc(old, new):
    return {"t.yaml": _sub(TABLE_WITH_CLAIM, old, new)}


def _tu(old, new):
    return {"t.yaml": _sub(TABLE_UNBOUNDED, old, new)}


def _tab(old, new):
    return {"t.yaml": _sub(GOOD_TABLE, old, new)}


MAP = ("map", "--json", "--only", "--theorems", "theorems/t.yaml")
PATH = ("path", "ldp", "kdp", "--theorems", "theorems/t.yaml")

# (id, argv, files, owner of the failing code when the case is still open, else None)
CASES = [
    # ---- CSV for `implgraph levels FILE.csv` -------------------------------------------------
    ("csv-empty", ("levels", "e.csv"), {"e.csv": ""}, None),
    ("csv-header-only", ("levels", "h.csv"), {"h.csv": "a1,a2\n"}, None),
    ("csv-blank-header", ("levels", "b.csv"), {"b.csv": "\n1/2,1/2\n"}, None),
    ("csv-duplicate-header", ("levels", "d.csv"), {"d.csv": "a1,a1\n0.5,0.5\n"}, None),
    ("csv-duplicate-header-class", ("levels", "d.csv"), {"d.csv": "class,a1,a1\nE1,0.5,0.5\n"}, None),
    ("csv-ragged-row", ("levels", "r.csv"), {"r.csv": "a1,a2\n0.5,0.5\n0.5\n"}, None),
    ("csv-long-row", ("levels", "r.csv"), {"r.csv": "a1,a2\n0.5,0.5,0\n"}, None),
    ("csv-tiny-exponent", ("levels", "x.csv"), {"x.csv": "a1,a2\n1e-1000000000,1\n"}, None),
    ("csv-huge-exponent", ("levels", "x.csv"), {"x.csv": "a1,a2\n1e999999,0\n"}, None),
    ("csv-huge-fraction", ("levels", "x.csv"), {"x.csv": "a1,a2\n1/" + "9" * 200000 + ",1\n"}, None),
    ("csv-many-digits", ("levels", "x.csv"), {"x.csv": "a1,a2\n0." + "1" * 300000 + ",0.5\n"}, None),
    ("csv-nan", ("levels", "x.csv"), {"x.csv": "a1,a2\nnan,nan\n"}, None),
    ("csv-inf", ("levels", "x.csv"), {"x.csv": "a1,a2\ninf,0\n"}, None),
    ("csv-negative", ("levels", "x.csv"), {"x.csv": "a1,a2\n-0.5,1.5\n"}, None),
    ("csv-not-summing", ("levels", "x.csv"), {"x.csv": "a1,a2\n0.5,0.6\n"}, None),
    ("csv-divide-by-zero", ("levels", "x.csv"), {"x.csv": "a1,a2\n1/0,1\n"}, None),
    ("csv-missing-class", ("levels", "x.csv"), {"x.csv": "class,a1,a2\nE1,0.5,0.5\n,0.5,0.5\n"}, None),
    ("csv-only-class-column", ("levels", "x.csv"), {"x.csv": "class\nE1\n"}, None),
    ("csv-nul-byte", ("levels", "x.csv"), {"x.csv": "a1,a2\n0.5\x00,0.5\n"}, None),
    ("csv-unclosed-quote", ("levels", "x.csv"), {"x.csv": 'a1,a2\n"0.5,0.5\n'}, None),
    ("csv-field-too-large", ("levels", "x.csv"), {"x.csv": 'a1,a2\n"' + "1" * 200000 + '",0\n'}, None),
    ("csv-not-utf8", ("levels", "x.csv"), {"x.csv": b"a1,a2\n\xff\xfe,0.5\n"}, None),
    ("csv-million-columns", ("levels", "x.csv"),
     {"x.csv": ",".join(f"c{i}" for i in range(10 ** 6)) + "\n"}, None),
    ("csv-fifo", ("levels", "f.csv"), {"f.csv": FIFO}, None),
    ("csv-directory", ("levels", "d.csv"), {"d.csv": DIRECTORY}, None),
    ("csv-dev-zero", ("levels", "z.csv"), {"z.csv": DEV_ZERO}, None),
    ("csv-missing-file", ("levels", "nosuch.csv"), {}, None),
    ("levels-unknown-suffix", ("levels", "x.txt"), {"x.txt": GOOD_CSV}, None),
    ("levels-k-zero", ("levels", "g.csv", "--k", "0"), {"g.csv": GOOD_CSV}, None),
    ("levels-k-huge", ("levels", "g.csv", "--k", "100000"), {"g.csv": GOOD_CSV}, None),
    ("levels-yaml-k-huge", ("levels", "t.yaml", "--k", "100000"), {"t.yaml": GOOD_TABLE}, None),
    ("levels-symbolic-k-negative", ("levels", "t.yaml", "--k", "-3"),
     {"t.yaml": 'id: fuzz/s\nsymbols: {N: integer}\nregion: ["N >= 2"]\nrows:\n  - {p: "0", count: "N - 1"}\n'
                '  - {p: "1/2"}\n'}, None),
    # ---- YAML tables for `implgraph levels FILE.yaml` and `implgraph table FILE` -------------
    ("yaml-empty", ("levels", "t.yaml"), {"t.yaml": ""}, None),
    ("yaml-syntax-error", ("levels", "t.yaml"), {"t.yaml": "rows: [\n"}, None),
    ("yaml-tab-indent", ("levels", "t.yaml"), {"t.yaml": "rows:\n\t- {p: 1}\n"}, None),
    ("yaml-python-tag", ("levels", "t.yaml"), {"t.yaml": "rows: !!python/object:os.system [ls]\n"}, None),
    ("yaml-two-documents", ("levels", "t.yaml"), {"t.yaml": GOOD_TABLE + "---\n" + GOOD_TABLE}, None),
    ("yaml-top-level-list", ("levels", "t.yaml"), {"t.yaml": "- 1\n- 2\n"}, None),
    ("yaml-duplicate-key", ("levels", "t.yaml"), _tab("id: fuzz/t\n", "id: fuzz/t\nid: fuzz/u\n"), None),
    ("yaml-not-utf8", ("levels", "t.yaml"), {"t.yaml": b"rows: [\xff]\n"}, None),
    ("yaml-billion-laughs", ("table", "t.yaml"), {"t.yaml": LAUGHS + _sub(GOOD_TABLE, "id: fuzz/t\n", "id: *i\n")},
     None),
    ("yaml-billion-laughs-caption", ("table", "t.yaml"),
     {"t.yaml": LAUGHS + _sub(GOOD_TABLE, "id: fuzz/t\n", "id: fuzz/t\ncaption: *i\n")}, None),
    ("yaml-deep-nesting", ("levels", "t.yaml"), {"t.yaml": "rows: " + "[" * 10000 + "]" * 10000 + "\n"}, None),
    ("yaml-deep-block-nesting", ("levels", "t.yaml"),
     {"t.yaml": "".join(" " * i + f"k{i}:\n" for i in range(3000))}, None),
    ("yaml-too-large", ("levels", "t.yaml"), {"t.yaml": GOOD_TABLE + "#" + "x" * (9 * 2 ** 20) + "\n"}, None),
    ("yaml-fifo", ("table", "f.yaml"), {"f.yaml": FIFO}, None),
    ("yaml-directory", ("table", "d.yaml"), {"d.yaml": DIRECTORY}, None),
    ("yaml-dev-zero", ("levels", "z.yaml"), {"z.yaml": DEV_ZERO}, None),
    ("tables-empty-list-levels", ("levels", "t.yaml"), {"t.yaml": "tables: []\n"}, None),
    ("tables-empty-list-table", ("table", "t.yaml"), {"t.yaml": "tables: []\n"}, None),
    ("tables-not-list", ("table", "t.yaml"), {"t.yaml": "tables: {a: 1}\n"}, None),
    ("rows-not-list", ("levels", "t.yaml"), _tab('  - {p: "mu"}\n  - {p: "1/2"}\n', "  x\n"), None),
    ("rows-scalar-items", ("levels", "t.yaml"), _tab('  - {p: "mu"}\n  - {p: "1/2"}\n', "  - 1\n  - 2\n"), None),
    ("row-bool-probability", ("levels", "t.yaml"), _tab('{p: "1/2"}', "{p: true}"), None),
    ("symbols-unknown-type", ("levels", "t.yaml"), _tab("{mu: real}", "{mu: complex}"), None),
    ("symbols-a-list", ("levels", "t.yaml"), _tab("{mu: real}", "[mu]"), None),
    ("symbols-bad-name", ("levels", "t.yaml"), _tab("{mu: real}", "{mu: real, 2x: real}"), None),
    ("buckets-one", ("levels", "t.yaml"), _tab("rows:", "buckets: [a1]\nrows:"), None),
    ("show-unknown-definition", ("levels", "t.yaml"), _tab("rows:", 'show: {nosuch: {k: "2"}}\nrows:'), None),
    ("show-params-list", ("table", "t.yaml"), _tab("rows:", "show: {kdp: [2]}\nrows:"), None),
    ("show-unknown-parameter", ("levels", "t.yaml"), _tab("rows:", "show: {kdp: {q: 2}}\nrows:"), None),
    ("show-undeclared-symbol", ("levels", "t.yaml"), _tab("rows:", 'show: {kdp: {k: "x"}}\nrows:'), None),
    ("show-a-list", ("table", "t.yaml"), _tab("rows:", "show: [1]\nrows:"), None),
    ("region-empty", ("levels", "t.yaml"), _tab('"mu <= 1/2"', '"mu <= -1"'), None),
    ("formula-tower-power", ("levels", "t.yaml"), _tab('{p: "1/2"}', '{p: "2**10**10"}'), None),
    ("formula-caret-tower", ("levels", "t.yaml"), _tab('{p: "1/2"}', '{p: "10^(10^10)"}'), None),
    ("formula-deep-parentheses", ("levels", "t.yaml"), _tab('{p: "1/2"}', '{p: "' + "(" * 900 + "1" + ")" * 900 + '"}'),
     None),
    ("formula-long-digits", ("levels", "t.yaml"), _tab('{p: "1/2"}', '{p: "' + "9" * 1900 + '"}'), None),
    ("formula-one-over-zero", ("levels", "t.yaml"), _tab('{p: "1/2"}', '{p: "1/0"}'), None),
    ("formula-ln-zero", ("levels", "t.yaml"), _tab('{p: "1/2"}', '{p: "ln(0)"}'), None),
    ("formula-code", ("levels", "t.yaml"), _tab('{p: "1/2"}', "{p: \"__import__('os').system('id')\"}"), None),
    ("block-count-real-symbol", ("levels", "t.yaml"), _tab('{p: "1/2"}', '{p: "1/2", count: "mu"}'), None),
    ("block-count-tower", ("levels", "t.yaml"), _tab('{p: "1/2"}', '{p: "1/2", count: "10**10**10"}'),
     None),
    ("block-count-fraction", ("levels", "t.yaml"), _tab('{p: "1/2"}', '{p: "1/2", count: "3/2"}'), None),
    ("claim-unknown-kind", ("table", "t.yaml"), _tc("kind: level", "kind: levle"), None),
    ("claim-missing-kind", ("table", "t.yaml"), _tc("        kind: level\n", ""), None),
    ("claim-unknown-definition", ("table", "t.yaml"), _tc("definition: ldp", "definition: nosuch"), None),
    ("claim-bad-expect", ("table", "t.yaml"), _tc("expect: holds", "expect: maybe"), None),
    ("claim-bad-level", ("table", "t.yaml"), _tc('level: "1"', 'level: "1 +"'), None),
    ("claim-params-list", ("table", "t.yaml"), _tc("params: {}", "params: [1]"), None),
    ("claim-level-list", ("table", "t.yaml"), _tc('level: "1"', "level: [1]"), None),
    ("claim-id-list", ("table", "t.yaml"), _tc("id: fuzz/t/c", "id: [1]"), None),
    ("claim-bad-confidence", ("table", "t.yaml"), _tc("expect: holds", "expect: holds\n        expect_confidence: high"),
     None),
    ("claim-bound-word", ("table", "t.yaml"), _tu("bound: satisfies", "bound: sometimes"), None),
    ("claim-when-string", ("table", "t.yaml"), _tu("when: []", 'when: "mu > 0"'), None),
    ("claim-family-string", ("table", "t.yaml"), _tu('family: ["1/10", "1/100"]', 'family: "1/10"'), None),
    ("claim-fix-undeclared", ("table", "t.yaml"), _tu('fix: {mu: "1/2"}', 'fix: {nu: "1/2"}'), None),
    ("claim-fix-list", ("table", "t.yaml"), _tu('fix: {mu: "1/2"}', "fix: [mu]"), None),
    ("claim-from-string", ("table", "t.yaml"),
     _tu("from: {definition: mult-t-closeness, params: {}}", "from: mult-t-closeness"), None),
    ("claim-side-scope-word", ("table", "t.yaml"), _tu("scope: table}", "scope: everywhere}"), None),
    ("claim-free-undeclared", ("table", "t.yaml"), _tu("free: sigma", "free: nu"), None),
    ("claim-limit-one-over-zero", ("table", "t.yaml"), _tu('limit: "0"', 'limit: "1/0"'), None),
    ("table-unknown-id", ("table", "t.yaml", "--id", "nosuch"), {"t.yaml": TABLE_WITH_CLAIM}, None),
    ("table-unknown-bundled-id", ("table", "ekenstedt2022/table-IX"), {}, None),
    # ---- theorem files (`map --theorems`, `path --theorems`) ---------------------------------
    ("thm-unknown-definition", MAP, _thm("definition: ldp", "definition: nosuch"), None),
    ("thm-unknown-kind", MAP, _thm("kind: implies", "kind: implie"), None),
    ("thm-unknown-kind-path", PATH, _thm("kind: implies", "kind: implie"), None),
    ("thm-bad-expect", MAP, _thm("expect: proved", "expect: prooved"), None),
    ("thm-bad-reading-expect", MAP, _thm("expect: proved", "expect: proved\n    reading_expect: yes"), None),
    ("thm-bad-symbol-type", MAP, _thm("{N: integer}", "{N: natural}"), None),
    ("thm-bad-f", MAP, _thm('f: "(exp(eps)*(N - 1) + 1)/N"', 'f: "exp(eps"'), None),
    ("thm-claims-not-list", MAP, {"theorems/t.yaml": "paper: fuzz\nclaims: {a: 1}\n"}, None),
    ("thm-bad-tolerance", MAP, {"theorems/t.yaml": _sub(MATH, 'tolerance: "0.05"', 'tolerance: "abc"')}, None),
    ("thm-negative-tolerance", MAP, {"theorems/t.yaml": _sub(MATH, 'tolerance: "0.05"', 'tolerance: "-1"')}, None),
    ("thm-billion-laughs", MAP, {"theorems/t.yaml": LAUGHS + _sub(THEOREM, 'printed: "eps-LDP => (1,t)-closeness"',
                                                                  "printed: *i")}, None),
    ("thm-outside-theorems-folder", ("map", "--json", "--theorems", "t.yaml"), {"t.yaml": THEOREM}, None),
    ("thm-fifo", MAP, {"theorems/t.yaml": FIFO}, None),
    # ---- command-line arguments --------------------------------------------------------------
    ("cli-no-command", (), {}, None),
    ("cli-unknown-command", ("nosuch",), {}, None),
    ("cli-unknown-flag", ("levels", "--bogus", "g.csv"), {"g.csv": GOOD_CSV}, None),
    ("cli-missing-argument", ("levels",), {}, None),
    ("cli-int-not-a-number", ("verify", "--jobs", "two"), {}, None),
    ("verify-jobs-zero", ("verify", "--jobs", "0", "ekenstedt2022/lemma-3.3"), {}, None),
    ("verify-jobs-huge", ("verify", "--jobs", "10000", "ekenstedt2022/lemma-3.3"), {}, None),
    ("verify-max-n-small", ("verify", "--max-n", "1", "ekenstedt2022/lemma-3.3"), {}, None),
    ("verify-max-n-huge", ("verify", "--max-n", "100000", "ekenstedt2022/lemma-3.3"), {}, None),
    ("verify-unknown-id", ("verify", "nosuch/claim"), {}, None),
    ("check-edge-N-zero", ("check-edge", "ldp", "kdp", "--N", "0"), {}, None),
    ("check-edge-N-huge", ("check-edge", "ldp", "kdp", "--N", "100000"), {}, None),
    ("check-edge-p-huge", ("check-edge", "ldp", "kdp", "--p", "100"), {}, None),
    ("check-edge-unknown-definition", ("check-edge", "ldp", "nosuch"), {}, None),
    ("check-edge-f-one-over-zero", ("check-edge", "ldp", "ldp", "--N", "2", "--f", "1/0"), {}, None),
    ("check-edge-f-ln-zero", ("check-edge", "ldp", "ldp", "--N", "2", "--f", "ln(0)"), {}, None),
    ("check-edge-f-tower", ("check-edge", "ldp", "ldp", "--N", "2", "--f", "2**10**10"), {}, None),
    ("check-edge-bad-when", ("check-edge", "ldp", "kdp(k=k)", "--when", "k >"), {}, None),
    ("discover-N-zero", ("discover", "--N", "0"), {}, None),
    ("discover-N-huge", ("discover", "--N", "100000"), {}, None),
    ("discover-workers-zero", ("discover", "--N", "2", "--workers", "0", "--definitions", "nosuch"), {}, None),
    ("discover-workers-huge", ("discover", "--N", "2", "--workers", "10000"), {}, None),
    ("figure-unknown", ("figure", "fig-9", "--out", "x.png"), {}, None),
    ("figure-points-zero", ("figure", "fig-6", "--out", "x.png", "--points", "0"), {}, None),
    ("figure-points-huge", ("figure", "fig-6", "--out", "x.png", "--points", "100000000"), {}, None),
    ("figure-out-directory", ("figure", "fig-6", "--out", "d", "--points", "3"), {"d": DIRECTORY}, None),
    ("construct-k-zero", ("construct", "c.csv", "--t", "2", "--k", "0", "--attribute", "s", "--out", "o.csv"),
     {"c.csv": "s\n1\n2\n3\n"}, None),
    ("construct-bad-t", ("construct", "c.csv", "--t", "two", "--k", "1", "--attribute", "s", "--out", "o.csv"),
     {"c.csv": "s\n1\n2\n3\n"}, None),
    ("construct-fifo", ("construct", "f.csv", "--t", "2", "--k", "1", "--attribute", "s", "--out", "o.csv"),
     {"f.csv": FIFO}, None),
    ("construct-out-directory", ("construct", "c.csv", "--t", "1", "--k", "1", "--attribute", "s", "--out", "d"),
     {"c.csv": "s\n1\n2\n3\n4\n", "d": DIRECTORY}, None),
    ("claims-unknown-id", ("claims", "nosuch/id"), {}, None),
    ("claims-unknown-kind", ("claims", "--kind", "nosuch"), {}, None),
    ("claims-unknown-paper", ("claims", "--paper", "nosuch"), {}, None),
    ("claims-unknown-flag", ("claims", "--bogus"), {}, None),
    ("definitions-unknown-name", ("definitions", "nosuch"), {}, None),
    ("map-nothing-to-do", ("map",), {}, None),
    ("map-N-zero", ("map", "--N", "0", "--json"), {}, None),
    ("map-N-huge", ("map", "--N", "100000", "--json"), {}, None),
    ("map-bad-suffix", ("map", "--out", "x.jpg"), {}, None),
    ("map-verdicts-fifo", ("map", "--json", "--verdicts", "v.json"), {"v.json": FIFO},
     None),
    ("map-verdicts-dev-zero", ("map", "--json", "--verdicts", "v.json"), {"v.json": DEV_ZERO},
     None),
    ("path-unknown-definition", ("path", "ldp", "nosuch"), {}, None),
    ("path-N-zero", ("path", "ldp", "kdp", "--N", "0"), {}, None),
    ("path-N-huge", ("path", "ldp", "kdp", "--N", "100000"), {}, None),
    ("path-max-length-zero", ("path", "ldp", "kdp", "--max-length", "0"), {}, None),
    ("path-max-length-huge", ("path", "ldp", "kdp", "--max-length", "100000"), {}, None),
    ("path-k-zero", ("path", "ldp", "kdp", "--k", "0", "--N", "4"), {}, None),
]


MICRO = (Path(__file__).parent / "data" / "microdata" / "patients.csv").read_text()
NUMBERS = "s,c\n1,a\n2,b\n3,a\n4,b\n5,a\n6,b\n7,a\n8,b\n"
G = {"g.csv": MICRO}
LV = ("levels", "g.csv", "--qi", "age,zip", "--sensitive", "disease")
RR = ("release", "g.csv", "--sensitive", "disease", "--qi", "age", "--mechanism", "randomised-response")
SC = ("release", "g.csv", "--sensitive", "disease", "--qi", "age", "--mechanism", "set-channel", "--p", "1/2")
BK = ("release", "n.csv", "--sensitive", "s", "--mechanism", "bucketization")
GU = ("guarantees", "g.csv", "--qi", "age,zip", "--sensitive", "disease", "--verdicts", "v.json")
VJ = {"g.csv": MICRO, "v.json": '{"claims": []}'}
CE = ("check-edge", "ldp", "kdp(k=1)", "--N", "3")
CO = ("construct", "n.csv", "--k", "2", "--attribute", "s", "--out", "o.csv")
AN = ("anonymize", "n.csv", "--qid", "c", "--out", "r.json", "--seed", "1")
NC = {"n.csv": NUMBERS}
DEEP = "(1 + " * 150 + "1" + ")" * 150
LONG = "x" * 100_000
ESC = "\x1b[2J\x1b[31mred\x07"

# Hostile values for every command's value-taking options: huge, negative, zero, NaN, inf, unicode, control
# characters, very long strings, nested formulas, unknown names, wrong types. (id, argv, files, owner)
HOSTILE = [
    ("h-levels-param-k-zero", LV + ("--param", "k=0"), G, None),
    ("h-levels-param-k-huge", LV + ("--param", "k=1e400"), G, None),
    ("h-levels-param-k-nan", LV + ("--param", "k=nan"), G, None),
    ("h-levels-param-k-oo", LV + ("--param", "k=oo"), G, None),
    ("h-levels-param-k-float", LV + ("--param", "k=2.5"), G, None),
    ("h-levels-param-k-one-over-zero", LV + ("--param", "k=1/0"), G, None),
    ("h-levels-param-k-deep", LV + ("--param", "k=" + DEEP), G, None),
    ("h-levels-param-k-digits", LV + ("--param", "k=" + "9" * 5000), G, None),
    ("h-levels-param-k-tower", LV + ("--param", "k=10**10**10"), G, None),
    ("h-levels-param-k-unicode-digit", LV + ("--param", "k=\u0663"), G, None),
    ("h-levels-param-k-superscript", LV + ("--param", "k=2\u00b2"), G, None),
    ("h-levels-param-k-complex", LV + ("--param", "k=sqrt(-1)"), G, None),
    ("h-levels-param-delta-negative", LV + ("--param", "delta=-1/10"), G, None),
    ("h-levels-param-delta-one", LV + ("--param", "delta=1"), G, None),
    ("h-levels-param-delta-tiny", LV + ("--param", "delta=1e-5000"), G, None),
    ("h-levels-param-delta-irrational", LV + ("--param", "delta=1/pi"), G, None),
    ("h-levels-param-l-zero", LV + ("--param", "l=0"), G, None),
    ("h-levels-param-l-negative", LV + ("--param", "l=-3"), G, None),
    ("h-levels-param-no-name", LV + ("--param", "=1"), G, None),
    ("h-levels-param-no-value", LV + ("--param", "k"), G, None),
    ("h-levels-param-unknown", LV + ("--param", "kk=2"), G, None),
    ("h-levels-param-dunder", LV + ("--param", "__class__=1"), G, None),
    ("h-levels-param-control-name", LV + ("--param", ESC + "=1"), G, None),
    ("h-levels-param-ground-word", LV + ("--param", "ground=" + ESC), G, None),
    ("h-levels-param-long", LV + ("--param", "delta=" + LONG), G, None),
    ("h-levels-k-negative", LV + ("--k", "-1"), G, None),
    ("h-levels-k-huge", LV + ("--k", "9" * 30), G, None),
    ("h-levels-qi-empty", ("levels", "g.csv", "--qi", "", "--sensitive", "disease"), G, None),
    ("h-levels-qi-commas", ("levels", "g.csv", "--qi", ",,", "--sensitive", "disease"), G, None),
    ("h-levels-qi-control", ("levels", "g.csv", "--qi", "age" + ESC, "--sensitive", "disease"), G, None),
    ("h-levels-qi-long", ("levels", "g.csv", "--qi", LONG, "--sensitive", "disease"), G, None),
    ("h-levels-qi-is-sensitive", ("levels", "g.csv", "--qi", "disease", "--sensitive", "disease"), G, None),
    ("h-levels-qi-twice", ("levels", "g.csv", "--qi", "age,age", "--sensitive", "disease"), G, None),
    ("h-levels-sensitive-empty", ("levels", "g.csv", "--qi", "age", "--sensitive", ""), G, None),
    ("h-levels-missing-values", ("levels", "m.csv", "--qi", "zip", "--sensitive", "disease"),
     {"m.csv": "zip,disease\n1,flu\n1,\n2,nan\n2,NaN\n"}, None),
    ("h-levels-missing-qi", ("levels", "m.csv", "--qi", "zip", "--sensitive", "disease"),
     {"m.csv": "zip,disease\n1,flu\nNaN,hiv\n2,flu\n"}, None),
    ("h-levels-duplicate-header", ("levels", "d.csv", "--qi", "zip", "--sensitive", "disease"),
     {"d.csv": "zip,disease,zip\n1,flu,1\n2,hiv,2\n"}, None),
    ("h-levels-id-control", ("levels", "t.yaml", "--id", ESC), {"t.yaml": GOOD_TABLE}, None),
    ("h-levels-file-unicode", ("levels", "\u00e9t\u00e9\u202e.csv"), {}, None),
    ("h-release-p-two", RR + ("--p", "2"), G, None),
    ("h-release-p-negative", RR + ("--p", "-1/2"), G, None),
    ("h-release-p-nan", RR + ("--p", "nan"), G, None),
    ("h-release-p-tiny", RR + ("--p", "1e-5000"), G, None),
    ("h-release-p-oo", RR + ("--p", "oo"), G, None),
    ("h-release-p-symbol", RR + ("--p", "p"), G, None),
    ("h-release-eta-zero", SC + ("--eta", "0"), G, None),
    ("h-release-eta-negative", SC + ("--eta", "-2"), G, None),
    ("h-release-eta-huge", SC + ("--eta", "1000000"), G, None),
    ("h-release-t-zero", BK + ("--t", "0", "--class-size", "2"), NC, None),
    ("h-release-t-negative", BK + ("--t", "-3", "--class-size", "2"), NC, None),
    ("h-release-class-size-zero", BK + ("--t", "2", "--class-size", "0"), NC, None),
    ("h-release-class-size-huge", BK + ("--t", "2", "--class-size", "1000000000"), NC, None),
    ("h-release-k-zero", RR + ("--p", "1/2", "--k", "0"), G, None),
    ("h-release-param-delta-two", RR + ("--p", "1/2", "--param", "delta=2"), G, None),
    ("h-guarantees-max-length-zero", GU + ("--max-length", "0"), VJ, None),
    ("h-guarantees-max-length-negative", GU + ("--max-length", "-1"), VJ, None),
    ("h-guarantees-max-length-huge", GU + ("--max-length", "100000"), VJ, None),
    ("h-guarantees-k-zero", GU + ("--k", "0"), VJ, None),
    ("h-guarantees-html-suffix", GU + ("--html", "report.txt"), VJ, None),
    ("h-guarantees-param-unknown", GU + ("--param", "zz=1"), VJ, None),
    ("h-map-N-negative", ("map", "--json", "--N", "-5"), {}, None),
    ("h-map-max-list-negative", ("map", "--json", "--max-list", "-1"), {}, None),
    ("h-path-N-negative", ("path", "ldp", "kdp", "--N", "-1"), {}, None),
    ("h-path-k-negative", ("path", "ldp", "kdp", "--k", "-1", "--N", "4"), {}, None),
    ("h-path-param-fraction", ("path", "ldp", "kdp(k=1/2)"), {}, None),
    ("h-check-edge-N-one", ("check-edge", "ldp", "kdp(k=1)", "--N", "1"), {}, None),
    ("h-check-edge-N-billion", ("check-edge", "ldp", "kdp(k=1)", "--N", "1000000000"), {}, None),
    ("h-check-edge-p-one", CE + ("--p", "1"), {}, None),
    ("h-check-edge-p-five", CE + ("--p", "5"), {}, None),
    ("h-check-edge-jobs-zero", CE + ("--jobs", "0"), {}, None),
    ("h-check-edge-jobs-huge", CE + ("--jobs", "1000"), {}, None),
    ("h-check-edge-f-empty", CE + ("--f", ""), {}, None),
    ("h-check-edge-f-blank", CE + ("--f", "   "), {}, None),
    ("h-check-edge-f-dangling", CE + ("--f", "eps +"), {}, None),
    ("h-check-edge-f-undeclared", CE + ("--f", "x"), {}, None),
    ("h-check-edge-f-tower", CE + ("--f", "exp(exp(exp(exp(exp(exp(eps))))))"), {}, None),
    ("h-check-edge-f-deep", CE + ("--f", DEEP), {}, None),
    ("h-check-edge-f-long", CE + ("--f", "eps+" * 1000 + "eps"), {}, None),
    ("h-check-edge-f-unicode", CE + ("--f", "\u03b5"), {}, None),
    ("h-check-edge-f-control", CE + ("--f", "eps" + ESC), {}, None),
    ("h-check-edge-f-condition", CE + ("--f", "eps > 1"), {}, None),
    ("h-check-edge-f-imaginary", ("check-edge", "kt-closeness(k=1)", "ldp", "--N", "3", "--f", "sqrt(-1)"), {}, None),
    ("h-check-edge-f-cube-root", CE + ("--f", "(-8)^(1/3)*eps"), {}, None),
    ("h-check-edge-g-lambda", CE + ("--g", "lambda: 1"), {}, None),
    ("h-check-edge-when-empty", CE + ("--when", ""), {}, None),
    ("h-check-edge-when-value", CE + ("--when", "N + 1"), {}, None),
    ("h-check-edge-k-negative", ("check-edge", "ldp", "kdp(k=-1)"), {}, None),
    ("h-check-edge-k-fraction", ("check-edge", "ldp", "kdp(k=1/2)"), {}, None),
    ("h-check-edge-k-googol", ("check-edge", "ldp", "kdp(k=10**100)"), {}, None),
    ("h-check-edge-k-beyond-N", ("check-edge", "ldp", "kdp(k=4)", "--N", "4"), {}, None),
    ("h-check-edge-class-size-zero", ("check-edge", "ldp", "k-anonymity(k=0)"), {}, None),
    ("h-check-edge-unknown-parameter", ("check-edge", "ldp", "kdp(q=1)"), {}, None),
    ("h-check-edge-name-control", ("check-edge", "ldp", "kdp" + ESC), {}, None),
    ("h-check-edge-timeout-negative", CE + ("--timeout", "-5"), {}, None),
    ("h-check-edge-timeout-inf", CE + ("--timeout", "inf"), {}, None),
    ("h-check-edge-timeout-nan", CE + ("--timeout", "nan"), {}, None),
    ("h-discover-from-N-zero", ("discover", "--N", "3", "--from-N", "0", "--definitions", "ldp", "dp"), {}, None),
    ("h-discover-from-N-beyond", ("discover", "--N", "3", "--from-N", "9", "--definitions", "ldp", "dp"), {}, None),
    ("h-discover-definitions-unknown", ("discover", "--N", "3", "--definitions", "nosuch"), {}, None),
    ("h-discover-write-file", ("discover", "--N", "3", "--definitions", "ldp", "dp", "--write", "f"), {"f": "x"},
     None),
    ("h-matrix-N-one", ("matrix", "--N", "1", "--definitions", "ldp", "dp"), {}, None),
    ("h-matrix-N-million", ("matrix", "--N", "1000000", "--definitions", "ldp", "dp"), {}, None),
    ("h-matrix-p-million", ("matrix", "--p", "1000000", "--definitions", "ldp", "dp"), {}, None),
    ("h-matrix-jobs-zero", ("matrix", "--jobs", "0", "--definitions", "ldp", "dp"), {}, None),
    ("h-matrix-definitions-unknown", ("matrix", "--definitions", "nosuch", "dp"), {}, None),
    ("h-site-groups-n-million", ("site", "--out", "s", "--groups-n", "1000000"), {}, None),
    ("h-site-groups-n-one", ("site", "--out", "s", "--groups-n", "1"), {}, None),
    ("h-site-groups-n-negative", ("site", "--out", "s", "--groups-n", "-1"), {}, None),
    ("h-figure-points-one", ("figure", "fig-6", "--out", "f.png", "--points", "1"), {}, None),
    ("h-figure-out-suffix", ("figure", "fig-6", "--out", "f.jpg", "--points", "3"), {}, None),
    ("h-construct-t-zero", CO + ("--t", "0"), NC, None),
    ("h-construct-t-negative", CO + ("--t", "-1"), NC, None),
    ("h-construct-t-fraction", CO + ("--t", "1/2"), NC, None),
    ("h-construct-t-nan", CO + ("--t", "nan"), NC, None),
    ("h-construct-t-huge", CO + ("--t", "1e999999999"), NC, None),
    ("h-construct-k-negative", ("construct", "n.csv", "--t", "2", "--k", "-1", "--attribute", "s", "--out", "o.csv"),
     NC, None),
    ("h-construct-attribute-empty", ("construct", "n.csv", "--t", "2", "--k", "2", "--attribute", "", "--out", "o.csv"),
     NC, None),
    ("h-construct-definition-unknown", CO + ("--t", "2", "--definition", "nosuch"), NC, None),
    ("h-anonymize-seed-negative", AN[:-2] + ("--seed", "-1", "--l", "2"), NC, None),
    ("h-anonymize-seed-huge", AN[:-2] + ("--seed", str(2 ** 200), "--l", "2"), NC, None),
    ("h-anonymize-l-zero", AN + ("--l", "0"), NC, None),
    ("h-anonymize-l-negative", AN + ("--l", "-1"), NC, None),
    ("h-anonymize-l-huge", AN + ("--l", "1000000000"), NC, None),
    ("h-anonymize-l-fraction", AN + ("--l", "1.5"), NC, None),
    ("h-anonymize-t-negative", AN + ("--t", "-1"), NC, None),
    ("h-anonymize-t-nan", AN + ("--t", "nan"), NC, None),
    ("h-anonymize-t-tiny", AN + ("--t", "1e-999999999"), NC, None),
    ("h-anonymize-eta-max-zero", AN + ("--l", "2", "--eta-max", "0"), NC, None),
    ("h-anonymize-qid-empty", ("anonymize", "n.csv", "--qid", "", "--l", "2", "--out", "r.json"), NC, None),
    ("h-anonymize-qid-twice", ("anonymize", "n.csv", "--qid", "c,c", "--l", "2", "--out", "r.json"), NC, None),
    ("h-reconstruct-tol-zero", ("reconstruct", "r.json", "--attributes", "c", "--tol", "0"), {}, None),
    ("h-reconstruct-tol-nan", ("reconstruct", "r.json", "--attributes", "c", "--tol", "nan"), {}, None),
    ("h-reconstruct-release-missing", ("reconstruct", "nosuch.json", "--attributes", "c"), {}, None),
    ("h-verify-timeout-negative", ("verify", "--timeout", "-1", "ekenstedt2022/lemma-3.3"), {}, None),
    ("h-verify-max-n-zero", ("verify", "--max-n", "0", "ekenstedt2022/lemma-3.3"), {}, None),
    ("h-claims-kind-empty", ("claims", "--kind", ""), {}, None),
    ("h-claims-paper-control", ("claims", "--paper", ESC), {}, None),
    ("h-certificate-edge-k-zero", ("certificate", "--edge", "ldp", "kdp(k=0)"), {}, None),
    ("h-table-id-empty", ("table", "t.yaml", "--id", ""), {"t.yaml": TABLE_WITH_CLAIM}, None),
    ("h-definitions-control", ("definitions", ESC), {}, None),
    ("h-completion-control", ("completion", "bash" + ESC), {}, None),
]


def _param(case):
    cid, argv, files, owner = case
    marks = [pytest.mark.xfail(strict=True, reason=f"owner: {owner}")] if owner else []
    return pytest.param(argv, files, id=cid, marks=marks)


def test_at_least_fifty_cases():
    assert len({c[0] for c in CASES}) == len(CASES) >= 60
    assert len({c[0] for c in HOSTILE}) == len(HOSTILE) >= 100
    assert not {c[0] for c in CASES} & {c[0] for c in HOSTILE}


@pytest.mark.parametrize("argv, files", [_param(c) for c in CASES + HOSTILE])
def test_malformed_input_is_refused_in_one_line(tmp_path, tmp_path_factory, argv, files):
    for name, content in files.items():
        _make(tmp_path, name, content)
    before = _listing(tmp_path)
    out = tmp_path_factory.mktemp("out")
    result = _run(argv, tmp_path, out)
    assert result is not None, "no answer within 10 s"
    _check(*result)
    assert _listing(tmp_path) == before
    assert parsed(out) == "", "text reached sympy's parser (which evaluates Python)"


VALID = [
    ("levels", "g.csv"), {"g.csv": GOOD_CSV},
    ("levels", "t.yaml"), {"t.yaml": GOOD_TABLE},
    ("table", "t.yaml", "--claims-only"), {"t.yaml": TABLE_WITH_CLAIM},
    ("table", "t.yaml", "--claims-only"), {"t.yaml": TABLE_UNBOUNDED},
    ("map", "--json", "--only", "--theorems", "theorems/t.yaml"), {"theorems/t.yaml": THEOREM},
    ("map", "--json", "--only", "--theorems", "theorems/t.yaml"), {"theorems/t.yaml": MATH},
]


@pytest.mark.parametrize("argv, files", list(zip(VALID[::2], VALID[1::2])),
                         ids=["csv", "table", "level-claim", "unbounded-claim", "theorem", "math"])
def test_templates_are_accepted(tmp_path, tmp_path_factory, argv, files):
    """The inputs the cases mutate are valid: each case is malformed by its own change only."""
    for name, content in files.items():
        _make(tmp_path, name, content)
    result = _run(argv, tmp_path, tmp_path_factory.mktemp("out"), timeout=60)
    assert result is not None and result[0] == 0 and result[2] == "", result


SUBPROCESS_CASES = ["csv-fifo", "yaml-dev-zero", "cli-unknown-flag", "yaml-billion-laughs", "thm-bad-expect"]


@pytest.mark.parametrize("cid", SUBPROCESS_CASES)
def test_console_script_subprocess(tmp_path, cid):
    """The real entry point ``python -m implgraph.cli`` on a few of the cases."""
    _, argv, files, _ = next(c for c in CASES if c[0] == cid)
    for name, content in files.items():
        _make(tmp_path, name, content)
    before = _listing(tmp_path)
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    try:
        proc = subprocess.run([sys.executable, "-m", "implgraph.cli", *argv], cwd=tmp_path, env=env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail("no answer within 30 s (10 s of work after the interpreter's start)")
    _check(proc.returncode, proc.stdout, proc.stderr)
    assert _listing(tmp_path) == before
