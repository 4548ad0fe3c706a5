"""``implgraph anonymize DATA --qid COLS (--l L | --t T) --out OUT``: sei2019's randomized anonymization.

Every column named by ``--qid`` is a sensitive QID ``S_j``: with ``--l`` its parameters are ``p_j = 1``,
``eta_j = l_j`` (Theorems 2-3: frequency and entropy ``(l_1, ..., l_q)``-diversity when ``d_j >= l_j``); with
``--t`` they come from Algorithm 1 (Section V-C-3; exact, see
:mod:`implgraph.mechanisms.randomized_anonymization.optimise`). Other columns are released as they are
(``p = 1, eta = 1``, Section VII-B). The release (aggregated expression) is written as JSON to ``--out``
and read by ``implgraph reconstruct``.
"""

from __future__ import annotations

import numpy as np

from implgraph.core.errors import InputError
from implgraph.core.formula import parse_number
from implgraph.io.console import Progress
from implgraph.io.output import check_output_path, print_json, write_output
from implgraph.mechanisms.randomized_anonymization.privacy import class_csv
from implgraph.mechanisms.randomized_anonymization.optimise import closeness_parameters, diversity_parameters
from implgraph.mechanisms.randomized_anonymization.release import anonymize, encode, read_columns

NAME = "anonymize"
HELP = "anonymize a CSV's sensitive QIDs with sei2019's randomized algorithm (l-diversity or t-closeness)"
ORDER = 75


def add_arguments(p):
    p.add_argument("file", help="the input CSV (with a header; values are categories)")
    p.add_argument("--qid", required=True, help="comma-separated sensitive QID columns")
    level = p.add_mutually_exclusive_group(required=True)
    level.add_argument("--l", help="diversity level: one integer, or one per --qid column (comma-separated)")
    level.add_argument("--t", help="closeness level: one number, or one per --qid column (comma-separated)")
    p.add_argument("--eta-max", type=int, help="Algorithm 1's eta~ (default d_j - 1)")
    p.add_argument("--ground", choices=["equal", "ordered"], default="equal",
                   help="EMD ground distance for --t (default equal)")
    p.add_argument("--seed", type=int, help="random seed (default: fresh randomness)")
    p.add_argument("--out", required=True, help="the release (JSON)")
    p.add_argument("--class-csv", metavar="COL=FILE", action="append", default=[],
                   help="also write the classes for COL (Definition 10) of the non-aggregated release as a CSV "
                        "that `implgraph levels` reads (repeatable; small releases only)")
    p.add_argument("--json", action="store_true", help="print the parameters as JSON")


def _levels(text: str, qids: list, option: str, parse) -> dict:
    parts = [x.strip() for x in text.split(",")]
    if len(parts) == 1:
        parts = parts * len(qids)
    if len(parts) != len(qids):
        raise InputError(f"{option} has {len(parts)} values for {len(qids)} --qid columns",
                         fix="give one value, or one per --qid column")
    out = {}
    for q, x in zip(qids, parts):
        try:
            out[q] = parse(x)
        except (ValueError, ZeroDivisionError):
            raise InputError(f"{option} value {x!r} is not a number", fix=f"give e.g. {option} 2") from None
    return out


def _class_csv_targets(items) -> list:
    out = []
    for item in items:
        col, sep, target = item.partition("=")
        if not sep or not col.strip() or not target.strip():
            raise InputError(f"--class-csv {item!r} is not COL=FILE", fix="give e.g. --class-csv disease=classes.csv")
        out.append((col.strip(), check_output_path(target.strip(), "--class-csv")))
    return out


def run(args) -> int:
    if args.eta_max is not None and args.eta_max < 1:
        raise InputError(f"--eta-max {args.eta_max} is out of range", fix="give --eta-max >= 1")
    if args.seed is not None and not 0 <= args.seed < 2 ** 128:
        raise InputError(f"--seed {args.seed} is out of range", fix="give 0 <= --seed < 2^128, or leave it out")
    check_output_path(args.out)
    class_csvs = _class_csv_targets(args.class_csv)
    qids = [q.strip() for q in args.qid.split(",") if q.strip()]
    if not qids or len(set(qids)) != len(qids):
        raise InputError(f"--qid {args.qid!r} names no column or a column twice", fix="give distinct column names")
    columns = read_columns(args.file)
    missing = [q for q in qids if q not in columns]
    if missing:
        raise InputError(f"no column {missing[0]!r} (columns: {', '.join(columns)})", file=args.file, line=1,
                         fix="name columns of the CSV's header in --qid")
    missing = [c for c, _ in class_csvs if c not in columns]
    if missing:
        raise InputError(f"--class-csv: no column {missing[0]!r} (columns: {', '.join(columns)})", file=args.file,
                         line=1, fix="name a column of the CSV's header in --class-csv COL=FILE")
    params, summary = {}, []
    if args.l is not None:
        levels = _levels(args.l, qids, "--l", int)
    else:
        levels = _levels(args.t, qids, "--t", lambda x: parse_number(x, "--t"))
    progress = Progress(len(qids), "parameters")
    for q in qids:
        progress.step(q)
        codes, dom = encode(columns[q])
        if args.l is not None:
            p, eta = diversity_parameters(levels[q], len(dom), q)
            row = {"attribute": q, "d": len(dom), "l": levels[q], "p": str(p), "eta": eta}
        else:
            if levels[q] < 0:
                raise InputError(f"--t {levels[q]} for {q} is negative", fix="give t >= 0")
            counts = np.bincount(codes, minlength=len(dom)).tolist()
            choice = closeness_parameters(counts, levels[q], args.eta_max, args.ground, name=q)
            p, eta = choice.p, choice.eta
            row = {"attribute": q, "d": len(dom), "t": str(levels[q]), "p": str(p), "eta": eta,
                   "E_L2": str(choice.el2)}
        params[q] = (p, eta)
        summary.append(row)
    progress.close()
    rng = np.random.default_rng(args.seed)
    bar = Progress(len(columns), "anonymize")
    release = anonymize(columns, params, rng, source=args.file, progress=lambda j, q, name: bar.step(name))
    bar.close()
    release.meta = {"qid": qids, "model": "l" if args.l is not None else "t", "ground": args.ground}
    path = check_output_path(args.out)
    write_output(path, release.dumps())
    for col, target in class_csvs:
        write_output(target, class_csv(release, release.index(col)), option="--class-csv")
    if args.json:
        print_json({"file": args.file, "out": args.out, "N": release.N, "attributes": summary})
        return 0
    print(f"{args.file}: N = {release.N}, {len(qids)} sensitive QID(s) -> {args.out}")
    for row in summary:
        extra = f", E_L2 = {row['E_L2']}" if "E_L2" in row else ""
        level = f"l = {row['l']}" if "l" in row else f"t = {row['t']}"
        print(f"  {row['attribute']}: d = {row['d']}, {level}: p = {row['p']}, eta = {row['eta']}{extra}")
    return 0

