"""``implgraph figure fig-6|fig-7 --out FILE``: regenerate Fig. 6 or Fig. 7 of ekenstedt2022 (PNG, SVG
or PDF, chosen by the file's extension).

Each figure has two panels: the paper's printed formulas (eq. 1, 2, 5, 6 with its calibration) and the
engine's reading (utilities by eq. 4 from the exact channels of Fig. 4 and Fig. 5, p_LDP and p_t from the
core's exact levels). The curves are the exact expressions of :mod:`implgraph.papers.ekenstedt2022`,
evaluated in floating point for drawing only.
"""

from __future__ import annotations

import io
from pathlib import Path

import sympy

from implgraph.core.errors import InputError
from implgraph.io.console import Progress
from implgraph.io.output import check_output_path, print_json, write_output

NAME = "figure"
HELP = "regenerate Fig. 6 or Fig. 7 of ekenstedt2022 (utility of the mechanisms) as PNG, SVG or PDF"
ORDER = 60

FORMATS = ("png", "svg", "pdf")
MAX_POINTS = 10_000
"""Most grid points per curve (each is a float evaluation of an exact expression)."""

STYLES = {"U_LDP": ("-", "eps-LDP mechanism"), "U_tClo_LDP": ("--", "t-closeness + eps-LDP"),
          "U_tClo": ("-.", "t-closeness mechanism")}


def add_arguments(p):
    p.add_argument("figure", choices=["fig-6", "fig-7"], help="which figure")
    p.add_argument("--out", required=True, help="the file to write: .png, .svg or .pdf")
    p.add_argument("--points", type=int, default=201,
                   help=f"grid points per curve, 2 to {MAX_POINTS} (default 201)")
    p.add_argument("--json", action="store_true", help="print JSON: the file written, its format, size and curves")


def _lambdas(exprs, var):
    return {k: sympy.lambdify(var, exprs[k], modules=["numpy"]) for k in STYLES}


def _fig6(ax_pair, xs):
    from implgraph.papers.ekenstedt2022 import fig6_exprs
    py1 = sympy.Symbol("py1", real=True)
    panels = (("as printed (eq. 1, 2, 5, 6)", fig6_exprs("printed")),
              ("engine: exact channels and levels", fig6_exprs("engine")))
    for ax, (title, ex) in zip(ax_pair, panels):
        f = _lambdas(ex, py1)
        for key, (ls, label) in STYLES.items():
            ax.plot(xs, [float(f[key](x)) for x in xs], ls, color="black", label=label)
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("$p_y(a_1)$")
        ax.grid(alpha=0.3)
    ax_pair[0].set_ylabel("utility $\\mathcal{U}$ (eq. 4)")
    ax_pair[0].legend(fontsize=7)


def _fig7(ax_pair, xs):
    from implgraph.papers.ekenstedt2022 import fig7_exprs
    t0 = sympy.Symbol("t0", real=True)
    colors = {2: "tab:blue", 4: "tab:orange", 6: "tab:green"}
    for n in (2, 4, 6):
        for ax, ex in zip(ax_pair, (fig7_exprs(n, "printed"), fig7_exprs(n, "engine"))):
            f = _lambdas(ex, t0)
            for key, (ls, label) in STYLES.items():
                ax.plot(xs, [float(f[key](x)) for x in xs], ls, color=colors[n],
                        label=f"{label}, n = {n}")
    ax_pair[0].set_title("as printed (eq. 1, 2, 5, 6)", fontsize=9)
    ax_pair[1].set_title("engine: exact channels and levels", fontsize=9)
    for ax in ax_pair:
        ax.set_xlabel("$t_0$")
        ax.grid(alpha=0.3)
    ax_pair[0].set_ylabel("utility $\\mathcal{U}$ (eq. 4)")
    ax_pair[0].legend(fontsize=6, ncol=1)


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
    """The bytes of ``fig-6`` or ``fig-7`` in ``fmt`` (png, svg or pdf)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    check_points(points)
    if which not in ("fig-6", "fig-7"):
        raise InputError(f"unknown figure {which!r}", fix="use fig-6 or fig-7")
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    # a curve undefined at an end of the grid (0/0 at p_y = 0 or 1) is left out of the plot (nan), silently:
    # numpy's RuntimeWarnings would print code lines on stderr
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if which == "fig-6":
            _fig6(axes, np.linspace(0, 1, points))
            fig.suptitle("Fig. 6 (ekenstedt2022): t0 = 2, n = 2, N = 100, k = 5", fontsize=10)
        else:
            _fig7(axes, np.linspace(1, 10, points))
            fig.suptitle("Fig. 7 (ekenstedt2022): p_y uniform, N = 100, k = 5", fontsize=10)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=120)
    plt.close(fig)
    return buf.getvalue()


def run(args) -> int:
    check_points(args.points)
    fmt = output_format(args.out)
    check_output_path(args.out)
    with Progress(None, f"figure {args.figure}"):
        data = render(args.figure, args.points, fmt)
    write_output(args.out, data)
    if args.json:
        print_json({"figure": args.figure, "out": str(args.out), "format": fmt, "points": args.points,
                    "bytes": len(data), "curves": [label for _, label in STYLES.values()]})
    else:
        print(f"wrote {args.out}")
    return 0
