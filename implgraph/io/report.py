"""The report of ``implgraph levels DATA --report FILE.html`` (or ``FILE.pdf``): one self-contained page.

The page (a Jinja2 template, ``implgraph/io/templates/levels_report.html``, autoescaped) holds the summary, each
requirement's pass or fail with its violating classes, every definition's exact level with its decimal and the
cause of an infinite one, and the plots: the distribution of the class sizes and, for every definition whose
level of one class is declared (:func:`implgraph.io.requirements.class_levels`), the distribution of the classes'
own levels. The plots are inline SVG drawn by matplotlib (text drawn as paths: no font, script or file is loaded
from anywhere, so the page works offline); no text of the data is drawn in them (it is in the page, escaped).

A PDF is the same page printed by headless Chromium (``chromium --headless --print-to-pdf``), when installed.
Both are written to a temporary file renamed once complete.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import tempfile
from pathlib import Path

import sympy

from implgraph.core.errors import InputError, printable
from implgraph.io.output import atomic_path

__all__ = ["write_report", "report_html", "chromium", "PLOT_CLASSES"]

PLOT_CLASSES = 5000
"""Per-class levels are plotted for at most this many classes (each is exact, one by one); the sizes always."""

REPORT_SUFFIXES = (".html", ".htm", ".pdf")


def chromium() -> str | None:
    """The Chromium program (``chromium``, ``chromium-browser`` or ``google-chrome`` on the path), or None."""
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def check_report_path(path, inputs) -> Path:
    """The report's path, checked: .html or .pdf (Chromium installed), its folder exists, not an input."""
    out = Path(path)
    if out.suffix.lower() not in REPORT_SUFFIXES:
        raise InputError(f"--report {printable(str(path))[:80]}: unknown kind {out.suffix or '(none)'}",
                         fix="give a .html or .pdf file name")
    if out.suffix.lower() == ".pdf" and chromium() is None:
        raise InputError("--report FILE.pdf prints the page with Chromium, which is not installed",
                         fix="install it (apt-get install chromium) or give --report FILE.html")
    if not out.parent.is_dir():
        raise InputError(f"--report {printable(str(path))[:80]}: no folder {printable(str(out.parent))[:80]}",
                         fix="create the folder first, or write elsewhere")
    if any(out.resolve() == Path(p).resolve() for p in inputs):
        raise InputError(f"--report {printable(str(path))[:80]} is the input file", fix="give another file name")
    return out


def _svg(fig) -> str:
    """A matplotlib figure as inline SVG (the XML prologue dropped; glyphs as paths, no font loaded)."""
    import matplotlib.pyplot as plt
    buf = io.StringIO()
    with plt.rc_context({"svg.fonttype": "path"}):
        fig.savefig(buf, format="svg", bbox_inches="tight",
                    metadata={"Creator": None, "Date": None, "Format": None, "Type": None})
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]


def _figure():
    import matplotlib
    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt
    return plt.subplots(figsize=(6.4, 2.8))


def size_plot(sizes) -> str:
    """How many classes have each size (a bar per size, or a histogram over many sizes)."""
    import numpy as np
    fig, ax = _figure()
    sizes = np.asarray(sizes, dtype=np.int64)
    values, counts = np.unique(sizes, return_counts=True)
    if len(values) <= 60:
        ax.bar(values, counts, width=0.8, color="#4a78b0")
        if len(values) <= 20:
            ax.set_xticks(values, [str(v) for v in values])
    else:
        ax.hist(sizes, bins=np.unique(np.geomspace(1, sizes.max() + 1, 40).astype(int)), color="#4a78b0")
        ax.set_xscale("log")
    ax.set_xlabel("records in the class")
    ax.set_ylabel("classes")
    _integer_counts(ax)
    return _svg(fig)


def level_plot(values, name, symbol) -> str:
    """The distribution of the classes' own (finite) levels of one definition."""
    import numpy as np
    fig, ax = _figure()
    x = np.asarray(values, dtype=float)
    distinct = np.unique(x)
    if len(distinct) <= 40:
        counts = [(x == v).sum() for v in distinct]
        ax.bar(range(len(distinct)), counts, color="#5a9a5a")
        ax.set_xticks(range(len(distinct)), [f"{v:.3g}" for v in distinct], rotation=60 if len(distinct) > 12 else 0)
    else:
        ax.hist(x, bins=40, color="#5a9a5a")
    ax.set_xlabel(f"{name}: {symbol} of the class")
    ax.set_ylabel("classes")
    _integer_counts(ax)
    return _svg(fig)


def _integer_counts(ax) -> None:
    from matplotlib.ticker import MaxNLocator
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))


def _level_rows(levels, why) -> list:
    from implgraph.io.console import level_with_decimal
    rows = []
    for name, lv in levels.items():
        params = ", ".join(f"{k}={v}" for k, v in lv.params.items())
        text = level_with_decimal(lv)
        exact, _, decimal = text.partition(" \u2248 ")
        rows.append({"label": f"{name}({params})" if params else name, "symbol": lv.definition.level_symbol,
                     "exact": exact, "decimal": decimal, "note": (why or {}).get(name) or lv.note or ""})
    return rows


def _plots(ct, levels) -> tuple:
    """``(plots, why none)`` of the per-class levels of one sensitive column."""
    from implgraph.io.requirements import class_levels
    if ct.class_labels is None:
        return [], "no classes: no per-class levels"
    if len(ct.class_labels) > PLOT_CLASSES:
        return [], f"per-class levels are plotted for at most {PLOT_CLASSES} classes ({len(ct.class_labels)} here)"
    plots = []
    for name, lv in levels.items():
        d = lv.definition
        if not lv.defined:
            continue
        per = class_levels(d, ct, dict(lv.params))
        if per is None:
            continue
        finite = [float(sympy.N(v, 20)) for v in per if v is not sympy.oo]
        if not finite:
            continue
        plots.append({"name": name, "symbol": d.level_symbol, "classes": len(per),
                      "infinite": len(per) - len(finite), "svg": level_plot(finite, name, d.level_symbol)})
    return plots, ""


def report_html(summary, results) -> str:
    """The report's page (text) from ``implgraph levels``' summary and per-column results."""
    import jinja2
    columns = []
    sizes = None
    for col, (ct, levels, why, checks, _) in results.items():
        plots, no_plots = _plots(ct, levels)
        if ct.class_labels is not None and sizes is None:
            sizes = [int(s) for s in ct.class_sums()[0]]
        shown = [{**c, "verdict": {True: "pass", False: "FAIL", None: "undecided"}[c["holds"]],
                  "css": {True: "pass", False: "fail", None: "undecided"}[c["holds"]]} for c in checks]
        columns.append({"name": col, "buckets": ct.buckets, "levels": _level_rows(levels, why), "checks": shown,
                        "plots": plots, "no_plots": no_plots})
    env = jinja2.Environment(loader=jinja2.PackageLoader("implgraph.io", "templates"), autoescape=True)
    return env.get_template("levels_report.html").render(
        file=summary["file"], n=summary["N"], qi=summary["qi"], classes=summary["classes"],
        dropped=summary["dropped"], requirements=summary["requirements"], failed=summary["failed"],
        size_plot=size_plot(sizes) if sizes else "", smallest=min(sizes) if sizes else None,
        largest=max(sizes) if sizes else None, columns=columns)


def write_report(path, summary, results, data_file) -> Path:
    """Write the report to ``path`` (.html, or .pdf printed by Chromium) through a temporary file renamed."""
    out = check_report_path(path, [data_file])
    html = report_html(summary, results)
    with atomic_path(out) as tmp:
        if out.suffix.lower() == ".pdf":
            _print_pdf(html, tmp)
        else:
            Path(tmp).write_text(html, encoding="utf-8")
    return out


def _print_pdf(html: str, target: str) -> None:
    """The page printed to ``target`` by headless Chromium (no network: the page loads nothing)."""
    with tempfile.TemporaryDirectory(prefix="implgraph-report-") as folder:
        page = Path(folder) / "report.html"
        page.write_text(html, encoding="utf-8")
        cmd = [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
               f"--user-data-dir={Path(folder) / 'profile'}", f"--print-to-pdf={target}", page.as_uri()]
        try:
            done = subprocess.run(cmd, capture_output=True, timeout=120, check=False)
        except subprocess.TimeoutExpired:
            raise InputError("Chromium did not print the report within 120 s",
                             fix="give --report FILE.html and print it yourself") from None
        if done.returncode != 0 or not Path(target).exists() or Path(target).stat().st_size == 0:
            raise InputError(f"Chromium could not print the report (exit {done.returncode})",
                             fix="give --report FILE.html and print it yourself")
