"""Regenerate the README's verdict summary and table from `implgraph verify --json`.

    implgraph verify --json > verify.json
    python scripts/readme_results.py verify.json            # rewrite the block in README.md
    python scripts/readme_results.py verify.json --check    # exit 1 if README.md is not up to date

The block sits between the markers ``<!-- results:begin -->`` and ``<!-- results:end -->``. It holds
only what the engine computed (verdicts, bounds, tight functions, witness parameters), never timings.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from collections import Counter
from pathlib import Path

BEGIN, END = "<!-- results:begin -->", "<!-- results:end -->"
ORDER = ("proved", "confirmed", "holds", "holds-not-tight", "verified-bounded", "refuted", "unknown")


def _cell(text, n=90):
    text = " ".join(str(text or "").replace("|", "/").split())
    return text if len(text) <= n else text[: n - 3] + "..."


def _what(row) -> str:
    bits = []
    if row.get("tight"):
        bits.append(f"tight f = `{_cell(row['tight'], 70)}`")
    w = row.get("witness") or {}
    if isinstance(w, dict) and w.get("params"):
        ps = ", ".join(f"{k} = {v}" for k, v in w["params"].items())
        lv = w.get("optimal_level")
        bits.append(f"witness at {ps}" + (f" (level {lv}, printed {w.get('printed_level')})" if lv else ""))
    elif isinstance(w, dict) and w.get("claim"):
        bits.append(f"witness {w['claim']}")
    if row.get("bound"):
        bits.append(f"bound: {_cell(row['bound'], 60)}")
    return "; ".join(bits)


def block(doc: dict) -> str:
    rows = doc["claims"]
    counts = Counter(r["verdict"] for r in rows)
    summary = ", ".join(f"{counts[v]} {v}" for v in ORDER if counts.get(v))
    out = [BEGIN, "",
           f"`implgraph verify` gives {len(rows)} verdicts (one per claim of `theorems/` and `counterexamples/`,",
           "plus one per proof reading, id `...#reading`): " + summary + ".",
           "This block is generated from `implgraph verify --json` by `scripts/readme_results.py` (CI checks it).", ""]
    papers: dict = {}
    for r in rows:
        papers.setdefault(r["id"].split("/")[0], []).append(r)
    for paper, items in papers.items():
        out += [f"<details><summary>{paper}: {len(items)} verdicts</summary>", "",
                "| claim | verdict | evidence |", "| --- | --- | --- |"]
        for r in items:
            out.append(f"| {r['id'].split('/', 1)[1]} | **{r['verdict']}** | {_what(r)} |")
        out += ["", "</details>", ""]
    out.append(END)
    return "\n".join(out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("verify_json")
    ap.add_argument("--readme", default=str(Path(__file__).resolve().parent.parent / "README.md"))
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args(argv)
    doc = json.loads(Path(args.verify_json).read_text(encoding="utf-8"))
    readme = Path(args.readme)
    text = readme.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        print(f"{readme}: no {BEGIN} ... {END} block", file=sys.stderr)
        return 2
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    new = head + block(doc) + tail
    if args.check:
        if new != text:
            print(f"{readme}: the results block differs from `implgraph verify --json`; run "
                  f"python scripts/readme_results.py {args.verify_json}", file=sys.stderr)
            sys.stderr.writelines(difflib.unified_diff(text.splitlines(True), new.splitlines(True),
                                                       "README.md", "generated", n=0))
            return 1
        return 0
    readme.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
