"""``build_site``: write the explorer (pages, assets, search index) into a directory.

The site is built in a temporary folder beside ``--out`` and renamed into place when complete
(:func:`implgraph.io.output.output_folder`): a full or read-only disk, an error or a kill leaves no partial
site, and an existing ``--out`` is replaced only by a complete site, only if it holds nothing but a site's
pages (a previous build), and never when it holds one of the inputs.
"""

from __future__ import annotations

import json
import shutil
import time
from importlib import resources
from pathlib import Path

from implgraph.core.errors import InputError
from implgraph.io.output import PAGE_SUFFIXES, check_output_folder, output_folder
from implgraph.map.graph import family_of
from implgraph.site import pages
from implgraph.site.hasse import hasse
from implgraph.site.html import definition_file, edge_file
from implgraph.site.kernel import coq_file
from implgraph.site.matrix_view import matrix_page
from implgraph.site.model import gather, node_definition

ASSETS = ("site.css", "site.js", "matrix.js", "katex/katex.min.js", "katex/katex.min.css")
#: the folders of a site (relative to its top, ``"."``): an existing ``--out`` with other content is not replaced
FOLDERS = frozenset((".", "assets", "assets/katex", "assets/katex/fonts", "definitions", "edges"))
#: the suffixes of the files a site holds (an existing ``--out`` holding another file is not replaced); KaTeX's
#: licence is the comment at the top of its script and style sheet
SUFFIXES = PAGE_SUFFIXES + (".woff2", ".v")


def search_index(data) -> list:
    """``[{"t": text shown, "k": kind, "h": page[, "d": more words searched]}]``: every definition (its
    description searched too: "differential privacy" finds dp), pair and claim."""
    out = [{"t": f"{d['name']}: {d['title']}", "k": "definition", "h": definition_file(d["name"]),
            "d": str(d.get("description") or "")} for d in data["definitions"]]
    out += [{"t": f"{c['a']} ? {c['b']}: {c['relation']}", "k": "pair", "h": edge_file(c["a"], c["b"])}
            for c in data["matrix"]["cells"]]
    names = {d["name"] for d in data["definitions"]}
    for c in data["claims"]:
        side = next((f for f in (family_of(c.get("from") or ""), family_of(c.get("definition") or ""))
                     if f in names), None)
        out.append({"t": f"{c['id']}: {c.get('verdict') or ''}", "k": "claim",
                    "h": definition_file(side) if side else "definitions.html"})
    return out


def _check_names(data) -> None:
    files = {}
    for c in data["matrix"]["cells"]:
        f = edge_file(c["a"], c["b"])
        if files.setdefault(f, (c["a"], c["b"])) != (c["a"], c["b"]):
            raise InputError(f"the pairs {files[f]} and {(c['a'], c['b'])} have one file name {f}",
                             fix="rename a node of the matrix")
    unknown = {node_definition(n) for n in data["matrix"]["nodes"]} - {d["name"] for d in data["definitions"]}
    if unknown:
        raise InputError(f"matrix nodes of unregistered definitions: {', '.join(sorted(unknown))}",
                         fix="give a matrix of the registered definitions (`implgraph matrix --json`)")


def write_site(data, out, inputs=()) -> dict:
    """Write the pages of ``data`` (:func:`implgraph.site.model.gather`) into the folder ``out``, all at once
    (built beside it, renamed into place; see the module notes); file counts. ``inputs``: files the site is
    made from (an ``out`` that is or holds one is refused)."""
    check_output_folder(out, "--out", inputs, FOLDERS, SUFFIXES)
    data = {**data, "hasse": hasse(data["matrix"]["cells"])}
    _check_names(data)
    with output_folder(out, "--out", inputs, FOLDERS, SUFFIXES) as tmp:
        return _write_pages(data, tmp)


def _write_pages(data, out: Path) -> dict:
    for sub in ("assets", "assets/katex", "assets/katex/fonts", "definitions", "edges"):
        (out / sub).mkdir()
    src = resources.files("implgraph.site") / "assets"
    fonts = [f"katex/fonts/{p.name}" for p in (src / "katex" / "fonts").iterdir() if p.name.endswith(".woff2")]
    for name in ASSETS + tuple(sorted(fonts)):
        with resources.as_file(src / name) as p:
            shutil.copyfile(p, out / "assets" / name)
    index = json.dumps(search_index(data)).replace("</", "<\\/")
    (out / "assets" / "search-index.js").write_text(f"window.IMPLGRAPH_INDEX = {index};\n", encoding="utf-8")
    top = {"index.html": pages.index_page, "matrix.html": matrix_page, "hasse.html": pages.hasse_page,
           "groups.html": pages.groups_page,
           "open.html": pages.open_page, "definitions.html": pages.definitions_page}
    for name, fn in top.items():
        (out / name).write_text(fn(data), encoding="utf-8")
    for d in data["definitions"]:
        (out / definition_file(d["name"])).write_text(pages.definition_page(data, d), encoding="utf-8")
    for c in data["matrix"]["cells"]:
        (out / edge_file(c["a"], c["b"])).write_text(pages.edge_page(data, c), encoding="utf-8")
    for (a, b), entry in data.get("coq", {}).items():       # each proved pair's Coq file beside its page
        if entry["text"] is not None:
            (out / coq_file(edge_file(a, b))).write_text(entry["text"], encoding="utf-8")
    return {"pages": len(top), "definitions": len(data["definitions"]), "edges": len(data["matrix"]["cells"])}


def build_site(out, matrix=None, verdicts=None, tables=None, with_certificates: bool = True,
               groups_n: int | None = 4, kernel_check: bool = False) -> dict:
    """Gather the data (:func:`implgraph.site.model.gather`) and write the site into ``out``.

    ``out`` is checked before anything is computed (not a file, its parent exists, it holds neither input
    nor anything a site does not write); the site is written all at once (see the module notes).

    Returns
    -------
    dict
        Counts of the pages written and the build's ``seconds``.
    """
    start = time.perf_counter()
    inputs = [p for p in (matrix, verdicts) if p is not None]
    check_output_folder(out, "--out", inputs, FOLDERS, SUFFIXES)
    counts = write_site(gather(matrix, verdicts, tables, with_certificates, groups_n, kernel_check), out, inputs)
    return {**counts, "seconds": round(time.perf_counter() - start, 2)}
