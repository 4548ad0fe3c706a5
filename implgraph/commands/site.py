"""``implgraph site --out DIR [--verdicts FILE] [--matrix FILE] [--no-levels] [--no-certificates] [--kernel-check]
[--json]``:
the static explorer.

Writes an offline HTML site (no external resource: plain HTML, a small script and a style sheet
shipped in the package) with the pair matrix coloured by verdict, the Hasse diagram, one page per
definition and one per ordered pair, the open pairs and a search box (:mod:`implgraph.site`).
"""

from __future__ import annotations

from implgraph.core.errors import InputError
from implgraph.io.console import Progress
from implgraph.io.output import print_json

NAME = "site"
HELP = "write the static HTML explorer: pair matrix, Hasse diagram, a page per definition and pair, search"
ORDER = 46


def add_arguments(p):
    p.add_argument("--out", required=True, metavar="DIR", help="directory to write the site into (built beside it and renamed into place "
                   "when complete; an existing folder is replaced only if it holds a site and nothing else)")
    p.add_argument("--matrix", metavar="FILE", help="the pair matrix, `implgraph matrix --json` (default: "
                                                     "implgraph/data/matrix.json, shipped with the package)")
    p.add_argument("--verdicts", metavar="FILE", help="the claims' verdicts, `implgraph verify --json` "
                                                       "(default: computed, through the verdict cache)")
    p.add_argument("--no-levels", action="store_true", help="leave out the levels on the bundled tables")
    p.add_argument("--no-certificates", action="store_true",
                   help="leave out the certificates of the proved pairs (no prover run)")
    p.add_argument("--kernel-check", action="store_true",
                   help="check each proved pair's Coq file with coqc (Debian's coq) and mark the kernel-checked pairs")
    p.add_argument("--groups-n", type=int, default=4, metavar="N",
                   help="N of the k-expanded map of the papers' theorems (one node per definition and k; "
                        "default 4; 0: no such map)")
    p.add_argument("--json", action="store_true", help="print what was written as JSON")


def run(args) -> int:
    from implgraph.site.build import build_site
    from implgraph.commands.map import MAX_N
    if args.groups_n != 0 and not 2 <= args.groups_n <= MAX_N:
        raise InputError(f"--groups-n {args.groups_n} is out of range",
                         fix=f"give 2 <= N <= {MAX_N}, or 0 for no k-expanded map")
    with Progress(None, f"site {args.out}", delay=1.0):     # a spinner with the elapsed time, after 1 s
        counts = build_site(args.out, matrix=args.matrix, verdicts=args.verdicts,
                            tables=[] if args.no_levels else None, with_certificates=not args.no_certificates,
                            groups_n=args.groups_n or None, kernel_check=args.kernel_check)
    if args.json:
        print_json({"out": str(args.out), **counts})
    else:
        print(f"{args.out}: {counts['pages']} pages, {counts['definitions']} definitions, {counts['edges']} pairs "
              f"({counts['seconds']} s); open {args.out}/index.html")
    return 0
