"""``implgraph figure fig-6|fig-7 --out FILE``: regenerate Fig. 6 or Fig. 7 of ekenstedt2022 (PNG, SVG
or PDF, chosen by the file's extension).

Each figure has two panels: the paper's printed formulas (eq. 1, 2, 5, 6 with its calibration) and the
engine's reading (utilities by eq. 4 from the exact channels of Fig. 4 and Fig. 5, p_LDP and p_t from the
core's exact levels). The curves are the exact expressions of :mod:`implgraph.papers.ekenstedt2022`,
evaluated in floating point for drawing only; where floating point cannot evaluate one (a division by
0 at an end of the range) the point is the value just inside the range (:func:`values`).  The figure is a
journal's double column (17.8 cm) with text of at least 7 pt; the file records a digest of the curves it
draws (:func:`curves_digest`), so a committed figure can be checked against a fresh computation.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
from pathlib import Path

import sympy

from implgraph.core.errors import InputError
from implgraph.io.console import QUIET, Progress, verbosity
from implgraph.io.output import check_output_path, print_json, write_output

NAME = "figure"
HELP = "regenerate Fig. 6 or Fig. 7 of ekenstedt2022 (utility of the mechanisms) as PNG, SVG or PDF"
ORDER = 60

FORMATS = ("png", "svg", "pdf")
MAX_POINTS = 10_000
"""Most grid points per curve (each is a float evaluation of an exact expression)."""

STYLES = {"U_LDP": ("-", "eps-LDP mechanism"), "U_tClo_LDP": ("--", "t-closeness + eps-LDP"),
          "U_tClo": ("-.", "t-closeness mechanism")}
#: the curves' names as drawn (math typeset by mathtext)
TEX = {"U_LDP": r"$\epsilon$-LDP mechanism", "U_tClo_LDP": r"$t$-closeness + $\epsilon$-LDP",
       "U_tClo": r"$t$-closeness mechanism"}


def add_arguments(p):
    p.add_argument("figure", choices=["fig-6", "fig-7"], help="which figure")
    p.add_argument("--out", required=True, help="the file to write: .png, .svg or .pdf")
    p.add_argument("--points", type=int, default=201,
                   help=f"grid points per curve, 2 to {MAX_POINTS} (default 201)")
    p.add_argument("--json", action="store_true", help="print JSON: the file written, its format, size and curves")


#: the figure's size (centimetres: a journal's double column) and its text (points): labels and titles at 10, whose
#: sub- and superscripts mathtext sets at 0.7 of it (7), legends and ticks at 7
WIDTH_CM, HEIGHT_CM = 17.8, 9.0
TEXT_PT, SMALL_PT = 10.0, 7.0


def values(expr, var, xs) -> list:
    """``expr`` at each of ``xs`` in floating point (for drawing only).  Where that is not a finite number
    (at an end of the range an expression may divide by 0 and have only a limit there) the point is the
    value just inside the range when it settles (the same at 1e-7 and 1e-9 from the end, to 1e-6), else
    missing (NaN: matplotlib leaves a gap)."""
    import numpy as np
    f = sympy.lambdify(var, expr, modules=["numpy"])
    lo, hi = min(xs), max(xs)

    def at(x):
        with np.errstate(all="ignore"):
            return float(f(np.float64(x)))

    out = []
    for x in xs:
        y = at(x)
        if not math.isfinite(y):
            inward = 1.0 if x <= (lo + hi) / 2 else -1.0
            near, nearer = at(x + inward * 1e-7), at(x + inward * 1e-9)
            settled = (math.isfinite(near) and math.isfinite(nearer)
                       and abs(near - nearer) <= 1e-6 * max(1.0, abs(nearer)))
            y = nearer if settled else float("nan")
        out.append(y)
    return out


def _fig6(ax_pair, xs, curves):
    from implgraph.papers.ekenstedt2022 import fig6_exprs
    py1 = sympy.Symbol("py1", real=True)
    panels = (("as printed (eq. 1, 2, 5, 6)", fig6_exprs("printed")),
              ("engine: exact channels and levels", fig6_exprs("engine")))
    for ax, (title, ex) in zip(ax_pair, panels):
        for key, (ls, label) in STYLES.items():
            ys = values(ex[key], py1, xs)
            curves.append({"panel": title, "curve": label, "y": ys})
            ax.plot(xs, ys, ls, color="black", label=TEX[key])
        ax.set_title(title, fontsize=TEXT_PT)
        ax.set_xlabel("$p_y(a_1)$", fontsize=TEXT_PT)
        ax.grid(alpha=0.3)
    ax_pair[0].set_ylabel("utility $\\mathcal{U}$ (eq. 4)", fontsize=TEXT_PT)


def _fig7(ax_pair, xs, curves):
    from implgraph.papers.ekenstedt2022 import fig7_exprs
    t0 = sympy.Symbol("t0", real=True)
    colors = {2: "tab:blue", 4: "tab:orange", 6: "tab:green"}
    titles = ("as printed (eq. 1, 2, 5, 6)", "engine: exact channels and levels")
    for n in (2, 4, 6):
        for ax, title, ex in zip(ax_pair, titles, (fig7_exprs(n, "printed"), fig7_exprs(n, "engine"))):
            for key, (ls, label) in STYLES.items():
                ys = values(ex[key], t0, xs)
                curves.append({"panel": title, "curve": f"{label}, n = {n}", "y": ys})
                ax.plot(xs, ys, ls, color=colors[n], label=f"{TEX[key]}, $n = {n}$")
    for ax, title in zip(ax_pair, titles):
        ax.set_title(title, fontsize=TEXT_PT)
        ax.set_xlabel("$t_0$", fontsize=TEXT_PT)
        ax.grid(alpha=0.3)
    ax_pair[0].set_ylabel("utility $\\mathcal{U}$ (eq. 4)", fontsize=TEXT_PT)


def curves_digest(curves, xs) -> str:
    """A digest of the curves a figure draws (their points to 9 significant digits): the same curves give
    the same digest on any machine, a changed formula or verdict another."""
    rows = [[f"{x:.9g}" for x in xs]] + [[c["panel"], c["curve"]] + [f"{y:.9g}" for y in c["y"]] for c in curves]
    return hashlib.sha256(json.dumps(rows).encode()).hexdigest()


def check_points(points: int) -> None:
    """InputError unless 2 <= points <= :data:`MAX_POINTS`."""
    if not 2 <= points <= MAX_POINTS:
        raise InputError(f"--points {points} is out of range", fix=f"give 2 <= --points <= {MAX_POINTS}")


def output_format(path) -> str:
    """``png``, ``svg`` or ``pdf`` from the file name (InputError otherwise)."""
    fmt = Path(str(path)).suffix.lower().lstrip(".")
    if fmt not in FORMATS:
        raise InputError(f"--out {path}: unknown figure format {fmt or '(no extension)'!r}",
                         fix="end the file name in .png, .svg or .pdf")
    return fmt


def render(which: str, points: int = 201, fmt: str = "png") -> bytes:
    """The bytes of ``fig-6`` or ``fig-7`` in ``fmt`` (png, svg or pdf); the digest of its curves
    (:func:`curves_digest`) is in the file's description."""
    return draw(which, points, fmt)[0]


def draw(which: str, points: int = 201, fmt: str = "png") -> tuple:
    """``(bytes, digest)`` of ``fig-6`` or ``fig-7`` in ``fmt`` (see :func:`render`)."""
    import matplotlib
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    import numpy as np
    check_points(points)
    if which not in ("fig-6", "fig-7"):
        raise InputError(f"unknown figure {which!r}", fix="use fig-6 or fig-7")
    curves: list = []
    with matplotlib.rc_context({"font.size": SMALL_PT, "svg.hashsalt": "implgraph", "svg.fonttype": "none",
                                "pdf.fonttype": 42}):
        fig = Figure(figsize=(WIDTH_CM / 2.54, HEIGHT_CM / 2.54))
        FigureCanvasAgg(fig)
        axes = fig.subplots(1, 2, sharey=True)
        if which == "fig-6":
            xs = [float(x) for x in np.linspace(0, 1, points)]
            _fig6(axes, xs, curves)
            fig.suptitle("Fig. 6 (ekenstedt2022): $t_0 = 2$, $n = 2$, $N = 100$, $k = 5$", fontsize=TEXT_PT)
        else:
            xs = [float(x) for x in np.linspace(1, 10, points)]
            _fig7(axes, xs, curves)
            fig.suptitle("Fig. 7 (ekenstedt2022): $p_y$ uniform, $N = 100$, $k = 5$", fontsize=TEXT_PT)
        for ax in axes:
            ax.tick_params(labelsize=SMALL_PT)
        # the key below both panels, where it hides no curve: one row per three curves
        handles, labels = axes[0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="lower center", ncol=3, fontsize=SMALL_PT, frameon=False)
        rows = -(-len(labels) // 3)
        fig.tight_layout(rect=(0, (0.3 + 0.4 * rows) / HEIGHT_CM, 1, 1))
        digest = curves_digest(curves, xs)
        description = f"implgraph {which}, {points} points; curves sha256 {digest}"
        meta = {"png": {"Software": None, "Description": description},
                "svg": {"Date": None, "Description": description},
                "pdf": {"CreationDate": None, "ModDate": None, "Subject": description}}[fmt]
        buf = io.BytesIO()
        fig.savefig(buf, format=fmt, dpi=300 if fmt == "png" else 72, metadata=meta)
    return buf.getvalue(), digest


def run(args) -> int:
    check_points(args.points)
    fmt = output_format(args.out)
    check_output_path(args.out)
    with Progress(None, f"figure {args.figure}"):
        data, digest = draw(args.figure, args.points, fmt)
    write_output(args.out, data)
    if args.json:
        print_json({"figure": args.figure, "out": str(args.out), "format": fmt, "points": args.points,
                    "bytes": len(data), "curves": [label for _, label in STYLES.values()], "digest": digest})
    elif verbosity() > QUIET:
        print(f"wrote {args.out}")
    return 0
