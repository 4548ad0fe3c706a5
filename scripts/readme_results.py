"""Regenerate the verdict summary of README.md and the verdict table of docs/results.md from
`implgraph verify --json`.

    implgraph verify --json > verify.json
    python scripts/readme_results.py verify.json            # rewrite both generated blocks
    python scripts/readme_results.py verify.json --check    # exit 1 if either is not up to date

Each block sits between the markers ``<!-- results:begin -->`` and ``<!-- results:end -->``: in the
README, one paragraph (the counts by verdict and by paper); in docs/results.md, one table per paper with
every claim's verdict and evidence. Both hold only what the engine computed (verdicts, bounds, tight
functions, witness parameters), never timings.
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
ROOT = Path(__file__).resolve().parent.parent
GENERATED = "generated from `implgraph verify --json` by `scripts/readme_results.py`; CI checks it"


def _cell(text, n=90):
    text = " ".join(str(text or "").replace("|", " or ").split())      # (a table cell holds no pipe)
    return text if len(text) <= n else text[: n - 3] + "..."


def _witness(w: dict) -> str:
    """A witness in a few words: its parameters, and what the engine and the paper give there."""
    if w.get("claim"):
        return f"witness {w['claim']}"
    point = w.get("params") or {k: w[k] for k in ("t0", "n", "N", "k") if k in w}
    if not point:
        return ""
    text = "witness at " + ", ".join(f"{k} = {v}" for k, v in point.items())
    classes = w.get("classes")
    if isinstance(classes, list) and len(classes) > 1 and len(set(classes)) == 1:
        text += " (one class)"
    if w.get("optimal_level"):
        text += f" (level {w['optimal_level']}, printed {w.get('printed_level')})"
    elif w.get("engine") is not None and w.get("printed") is not None:
        text += f" (exact {w['engine']}, printed {w['printed']})"
    elif w.get("lhs") is not None and w.get("rhs") is not None:
        text += f" ({w['lhs']} against {w['rhs']})"
    return text


def _what(row) -> str:
    bits = []
    details = row.get("details") or {}
    if row.get("tight"):
        bits.append(f"tight f = `{_cell(row['tight'], 70)}`")
    if isinstance(details.get("assumptions"), list) and row.get("verdict") == "proved":
        bits.append(f"only under the claim's {len(details['assumptions'])} stated assumptions")
    w = row.get("witness") or {}
    if isinstance(w, dict) and _witness(w):
        bits.append(_witness(w))
    if row.get("bound"):
        bits.append(f"bound: {_cell(row['bound'], 60)}")
    cond = details.get("conditional")
    if isinstance(cond, dict) and cond.get("verdict"):
        extra = f", tight f = `{_cell(cond['tight'], 40)}`" if cond.get("tight") else ""
        bits.append(f"under the assumption \"{cond.get('assumption')}\": **{cond['verdict']}**{extra}")
    return "; ".join(bits)


def _counts(rows) -> str:
    counts = Counter(r["verdict"] for r in rows)
    return ", ".join(f"{counts[v]} {v}" for v in ORDER if counts.get(v))


def _papers(rows) -> dict:
    papers: dict = {}
    for r in rows:
        papers.setdefault(r["id"].split("/")[0], []).append(r)
    return papers


def summary(doc: dict) -> str:
    """The README's block: one paragraph of counts, by verdict and by paper."""
    rows = doc["claims"]
    per_paper = "; ".join(f"{p} {len(items)}" for p, items in _papers(rows).items())
    return "\n".join([
        BEGIN,
        f"`implgraph verify` gives {len(rows)} verdicts, one per claim of the papers and one per proof reading",
        f"(`ID#reading`): {_counts(rows)}",
        f"({per_paper}). Every claim with its verdict and evidence is in [docs/results.md](docs/results.md).",
        f"This paragraph is {GENERATED}.",
        END])


def table(doc: dict) -> str:
    """docs/results.md's block: one table per paper, a row per claim."""
    rows = doc["claims"]
    out = [BEGIN, "", f"{len(rows)} verdicts: {_counts(rows)}. This section is {GENERATED}.", ""]
    for paper, items in _papers(rows).items():
        out += [f"## {paper}", "", f"{len(items)} verdicts: {_counts(items)}.", "",
                "| claim | verdict | evidence |", "| --- | --- | --- |"]
        for r in items:
            out.append(f"| {r['id'].split('/', 1)[1]} | **{r['verdict']}** | {_what(r)} |")
        out.append("")
    out.append(END)
    return "\n".join(out)


def _replace(path: Path, block: str) -> tuple:
    """``(old text, new text)`` of ``path`` with its generated block replaced (SystemExit 2 if it has none)."""
    text = path.read_text(encoding="utf-8")
    if text.count(BEGIN) != 1 or text.count(END) != 1:
        print(f"{path}: no single {BEGIN} ... {END} block; fix: put the two markers in it once",
              file=sys.stderr)
        raise SystemExit(2)
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return text, head + block + tail


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("verify_json")
    ap.add_argument("--readme", default=str(ROOT / "README.md"))
    ap.add_argument("--results-page", default=str(ROOT / "docs" / "results.md"))
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args(argv)
    doc = json.loads(Path(args.verify_json).read_text(encoding="utf-8"))
    status = 0
    for path, block in ((Path(args.readme), summary(doc)), (Path(args.results_page), table(doc))):
        old, new = _replace(path, block)
        if not args.check:
            path.write_text(new, encoding="utf-8")
        elif new != old:
            print(f"{path}: the results block differs from `implgraph verify --json`; run "
                  f"python scripts/readme_results.py {args.verify_json}", file=sys.stderr)
            sys.stderr.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                                       path.name, "generated", n=0))
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
