"""``implgraph anonymize DATA --qid COLS (--l L | --t T | both) --keep/--drop COLS --out OUT``: sei2019's
randomized anonymization.

Every column named by ``--qid`` is a sensitive QID ``S_j``: with ``--l`` its parameters are ``p_j = 1``,
``eta_j = l_j`` (Theorems 2-3: frequency and entropy ``(l_1, ..., l_q)``-diversity when ``d_j >= l_j``); with
``--t`` they come from Algorithm 1 (Section V-C-3; exact, see
:mod:`implgraph.mechanisms.randomized_anonymization.optimise`); with both, Algorithm 1 tries ``eta`` from ``l_j``
(Section VII-D), for both guarantees at once. Every other column of the data must be named: ``--keep`` publishes
it as it is (``p = 1, eta = 1``, a non-sensitive QID of Section VII-B: not protected), ``--drop`` leaves it out.

Nothing is published on trust: before anything is written, the levels of the release are re-checked exactly
(:mod:`implgraph.mechanisms.randomized_anonymization.guarantee`: closeness over every set the channel can
release, diversity from the sets written) against the requested ``l`` and ``t``; a release that misses them is
refused with the level it reaches. The release (aggregated expression: Parquet, see
:mod:`implgraph.mechanisms.randomized_anonymization.parquet`, or the JSON format when ``--out`` ends in ``.json``;
read by ``implgraph reconstruct``) and the ``--class-csv`` files are written together, each to a temporary file in
its folder and then renamed; no output may be the input.

The data are read with pyarrow, only the columns named by ``--qid`` and ``--keep`` (any size; a record over 64 MiB
or a cell over 128 KiB is refused); each ``--qid`` column is randomized as integer codes, a ``--keep`` column is
published as its cells, untouched.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from fractions import Fraction
from pathlib import Path

import numpy as np
import sympy

from implgraph.commands._anonymize_options import _check_numbers, _columns, _requested, _targets
from implgraph.core.errors import InputError, printable
from implgraph.io.console import Progress
from implgraph.io.output import print_json
from implgraph.mechanisms.randomized_anonymization.guarantee import check_attribute
from implgraph.mechanisms.randomized_anonymization.optimise import closeness_parameters, diversity_parameters
from implgraph.mechanisms.randomized_anonymization.privacy import class_csv
from implgraph.mechanisms.randomized_anonymization.columns import coded as columns_coded
from implgraph.mechanisms.randomized_anonymization.columns import read_header, read_table
from implgraph.mechanisms.randomized_anonymization.parquet import to_arrow, write_table
from implgraph.mechanisms.randomized_anonymization.release import anonymize_codes, domain_order


NAME = "anonymize"
HELP = "anonymize a CSV's sensitive QIDs with sei2019's randomized algorithm (l-diversity, t-closeness or both)"
ORDER = 75
DESCRIPTION = (HELP + ".\n\nEvery column of the data is named once: --qid (randomized), --keep (published as it is, not "
               "protected) or --drop (left out). The release is written only after its levels are re-checked exactly "
               "against --l / --t (closeness over every set the channel can release); otherwise nothing is written "
               "and the level reached is shown.")


def add_arguments(p):
    p.add_argument("file", help="the input CSV (with a header; values are categories; .gz/.bz2/.zst by suffix)")
    p.add_argument("--qid", required=True, help="comma-separated sensitive QID columns (randomized)")
    p.add_argument("--l", help="diversity level: one integer, or one per --qid column (comma-separated)")
    p.add_argument("--t", help="closeness level: one number (e.g. 1/10 or 0.1, read exactly), or one per --qid "
                               "column; with --l too, both hold (Section VII-D)")
    p.add_argument("--keep", default="", help="comma-separated columns published as they are (not protected)")
    p.add_argument("--drop", default="", help="comma-separated columns left out of the release")
    p.add_argument("--order", metavar="COL=V1,V2,...", action="append", default=[],
                   help="the order of a --qid column's values for --ground ordered (repeatable); without it "
                        "numbers are ordered by value")
    p.add_argument("--eta-max", type=int, help="Algorithm 1's eta~ (default d_j - 1)")
    p.add_argument("--ground", choices=["equal", "ordered"], default="equal",
                   help="EMD ground distance for --t (default equal)")
    p.add_argument("--seed", type=int, help="random seed, a non-negative integer (default: fresh randomness)")
    p.add_argument("--out", required=True,
                   help="the release: Parquet (domains and (p, eta) as column metadata), or JSON when it ends in .json")
    p.add_argument("--class-csv", metavar="COL=FILE", action="append", default=[],
                   help="also write the classes for COL (Definition 10) of the non-aggregated release as a CSV "
                        "that `implgraph levels` reads (repeatable; small releases only)")
    p.add_argument("--json", action="store_true", help="print the parameters and the re-checked levels as JSON")


def _check_values(coded, qids, file) -> None:
    """Refuse a --qid column holding a missing value ('', nan, NA, ...: one more value of the domain, which the
    data does not say) or a NUL byte (not plain text); ``coded``: ``{name: (codes, distinct values)}``."""
    from implgraph.io.microdata import MISSING
    for q in qids:
        codes, values = coded[q]
        for k, v in enumerate(values):
            if v in MISSING or "\x00" in v:
                i = int(np.flatnonzero(codes == k)[0])
                if "\x00" in v:
                    raise InputError(f"column {printable(repr(q))[:60]} has a NUL byte in record {i + 1}", file=file,
                                     fix="save the data as plain text CSV (no NUL bytes)")
                raise InputError(f"column {printable(repr(q))[:60]} has a missing value ({printable(repr(v))}) in "
                                 f"record {i + 1}", file=file,
                                 fix="fill or drop the records with missing values first (implgraph does not guess "
                                     "what a missing value is), or --keep / --drop the column")


def _in_order(codes, values, dom) -> np.ndarray:
    """``codes`` into ``values`` re-indexed into ``dom`` (which holds every value)."""
    pos = {v: k for k, v in enumerate(dom)}
    lookup = np.array([pos[v] for v in values], dtype=np.int32)
    return lookup[codes] if len(lookup) else codes


def _parameters(args, coded, qids, orders, levels_l, levels_t) -> tuple:
    """``(params, coded, counts, rows)``: each --qid column's ``(p, eta)``, its codes into its domain in order,
    its counts."""
    params, ordered, counts, rows = {}, {}, {}, []
    progress = Progress(len(qids), "parameters")
    for q in qids:
        progress.step(q)
        codes, values = coded[q]
        dom = domain_order(values, q, orders.get(q), need_order=args.ground == "ordered" and levels_t is not None)
        codes = _in_order(codes, values, dom)
        d, l, t = len(dom), levels_l.get(q), levels_t.get(q) if levels_t else None
        row = {"attribute": q, "d": d}
        if l is not None:
            diversity_parameters(l, d, q)                       # l <= d (Theorems 2-3)
            row["l"] = l
        if t is not None:
            if l is not None and args.eta_max is not None and args.eta_max < l:
                raise InputError(f"--eta-max {args.eta_max} is below l = {l} for {q}", fix="give --eta-max >= l")
            cnt = np.bincount(codes, minlength=d).tolist()
            choice = closeness_parameters(cnt, t, args.eta_max, args.ground, name=q, eta_min=l or 1)
            p, eta = choice.p, choice.eta
            row.update(t=t, E_L2=choice.el2)
        else:
            p, eta = diversity_parameters(l, d, q)
        row.update(p=p, eta=eta)
        params[q], ordered[q] = (p, eta), (codes, dom)
        counts[q] = [int(c) for c in np.bincount(codes, minlength=d)]
        rows.append(row)
    progress.close()
    return params, ordered, counts, rows


def _recheck(release, qids, kept, counts, levels_l, levels_t, ground) -> list:
    """Every attribute's levels, computed again exactly from what is written; InputError when one misses."""
    if sorted(release.names) != sorted(qids + kept):
        raise InputError(f"the release holds {', '.join(release.names)}, not the named columns",
                         fix="report this as a bug")
    checks = []
    for q in qids:
        j = release.index(q)
        p, eta = release.params[j]
        if release.is_kept(j) or len(release.domains[j]) != len(counts[q]):
            raise InputError(f"{q}: the release does not hold its randomized sets", fix="report this as a bug")
        g = check_attribute(q, counts[q], Fraction(int(sympy.Rational(p).p), int(sympy.Rational(p).q)), eta,
                            release.codes(j), l=levels_l.get(q), t=levels_t.get(q) if levels_t else None,
                            ground=ground)
        if not g.met:
            raise InputError(f"{q}: the release would reach only {g.shortfall()}; nothing written",
                             fix="give a larger --t or a smaller --l (the level shown is what these parameters reach)")
        checks.append(g)
    return checks


def _show(value) -> str:
    """A number for the terminal: exact when short, else about 6 digits (the exact value is in --json and the
    release)."""
    text = str(value)
    if len(text) <= 16:
        return text
    try:
        return f"~{float(value):.6g}"
    except OverflowError:                  # beyond a float's range (--t 1e309): the exponent from the digits
        return f"~{sympy.Float(sympy.Rational(value.numerator, value.denominator), 6)}" \
            if hasattr(value, "numerator") else f"~{sympy.Float(value, 6)}"


def _write_together(outputs) -> None:
    """Write every ``(path, data, option)`` to a temporary file in its folder, then rename them all; on a failure
    nothing new is left behind (the temporary files are removed). ``data``: text, or a function that writes into
    an open binary file (the Parquet release)."""
    from implgraph.io.output import _device, _signals_raise, _umask, write_output
    devices = [(path, option) for path, _, option in outputs if _device(path)]
    if devices:               # a device or a FIFO (/dev/null) is written in place, never replaced by a file
        if len(outputs) > 1:
            path, option = devices[0]
            raise InputError(f"{option} {path} is a device or a pipe, and the outputs are written all or none",
                             fix="write every output to a regular file")
        path, data, option = outputs[0]
        if callable(data):
            import io
            buffer = io.BytesIO()
            data(buffer)
            data = buffer.getvalue()
        write_output(path, data, option)
        return
    staged = []
    with _signals_raise():
        try:
            for path, text, option in outputs:
                folder = path.parent if str(path.parent) else Path(".")
                try:
                    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
                    staged.append(tmp)
                    with os.fdopen(fd, "wb") as fh:
                        os.fchmod(fh.fileno(), 0o666 & ~_umask())
                        if callable(text):
                            text(fh)
                        else:
                            fh.write(text.encode("utf-8"))
                except OSError as exc:
                    raise InputError(f"{option} {path}: cannot write ({exc.strerror or exc})",
                                     fix="choose a writable folder with free space") from None
            for tmp, (path, _, option) in zip(staged, outputs):
                try:
                    os.replace(tmp, path)
                except OSError as exc:
                    raise InputError(f"{option} {path}: cannot write ({exc.strerror or exc})",
                                     fix="choose a writable folder") from None
        finally:
            for tmp in staged:
                with contextlib.suppress(OSError):
                    os.unlink(tmp)


def run(args) -> int:
    """Anonymize the data of ``args.file`` as the options ask, re-check the release's levels exactly, write it.

    Parameters
    ----------
    args : argparse.Namespace
        The options of :func:`add_arguments`.

    Returns
    -------
    int
        0; bad input raises :class:`~implgraph.core.errors.InputError` before anything is written.
    """
    _check_numbers(args)
    out, class_csvs = _targets(args)
    header = read_header(args.file)
    qids, kept = _columns(args, header)
    orders, levels_l, levels_t = _requested(args, qids, kept, class_csvs)
    published = [c for c in header if c in set(qids) | set(kept)]       # only the columns named, in file order
    release, checks, summary = _release(args, header, published, qids, kept, orders, (levels_l, levels_t))
    _write_together(_outputs(release, out, class_csvs))
    for row, g in zip(summary, checks):
        row.update(achieved_l=g.achieved_l, achieved_t=g.achieved_t, achieved_t_exact=g.t_exact, recheck=g.how)
    if args.json:
        rows = [{k: v if isinstance(v, (int, bool, type(None))) else str(v) for k, v in row.items()}
                for row in summary]
        print_json({"file": args.file, "out": args.out, "N": release.N, "attributes": rows, "kept": kept,
                    "dropped": [c for c in header if c not in published]})
        return 0
    _print_summary(args, release, len(header) - len(published), qids, kept, summary)
    return 0


def _release(args, header, published, qids, kept, orders, levels) -> tuple:
    """``(release, checks, summary)``: the published columns read, each --qid column coded, randomized with its
    parameters and re-checked exactly (:func:`_recheck`); ``levels``: ``(levels_l, levels_t)``."""
    levels_l, levels_t = levels
    table = read_table(args.file, header, published)
    coded = {}
    for q in qids:
        coded[q] = columns_coded(table.column(q))
        table = table.drop_columns([q])                # the text of a --qid column is not kept once coded
    _check_values(coded, qids, args.file)
    params, coded, counts, summary = _parameters(args, coded, qids, orders, levels_l, levels_t)
    rng = np.random.default_rng(args.seed)
    bar = Progress(len(published), "anonymize")
    release = anonymize_codes(coded, params, rng, kept={c: table.column(c) for c in kept}, order=published,
                              source=args.file, progress=lambda j, q, name: bar.step(name))
    bar.close()
    del coded
    checks = _recheck(release, qids, kept, counts, levels_l, levels_t, args.ground)
    model = "+".join(m for m, on in (("l", args.l is not None), ("t", args.t is not None)) if on)
    release.meta = {"qid": qids, "kept": kept, "model": model, "ground": args.ground,
                    "guarantee": [g.to_json() for g in checks]}
    return release, checks, summary


def _outputs(release, out, class_csvs) -> list:
    """The ``(path, data, option)`` of every output: the release (JSON where ``out`` ends in .json, else Parquet,
    written by a function) and each ``--class-csv``."""
    if str(out).lower().endswith(".json"):
        outputs = [(out, release.dumps(), "--out")]
    else:
        table = to_arrow(release)
        outputs = [(out, lambda fh: write_table(table, fh), "--out")]
    outputs += [(target, class_csv(release, release.index(col)), "--class-csv") for col, target in class_csvs]
    return outputs


def _print_summary(args, release, dropped, qids, kept, summary) -> None:
    """Print the release's size, and each attribute's parameters and re-checked levels (``dropped``: how many
    columns were left out)."""
    print(f"{printable(args.file)}: N = {release.N}, {len(qids)} sensitive QID(s), {len(kept)} column(s) kept as "
          f"they are, {dropped} dropped -> {printable(args.out)}")
    for row in summary:
        extra = f", E_L2 = {_show(row['E_L2'])}" if "E_L2" in row else ""
        asked = ", ".join(f"{k} = {_show(row[k])}" for k in ("l", "t") if k in row)
        reached = [f"l = {row['achieved_l']}"] if "l" in row else []
        if row["achieved_t"] is not None:
            reached.append(f"t {'=' if row['achieved_t_exact'] else '<='} {_show(row['achieved_t'])} "
                           f"({row['recheck']})")
        print(f"  {printable(row['attribute'])}: d = {row['d']}, {asked}: p = {_show(row['p'])}, eta = {row['eta']}"
              f"{extra}; re-checked: {', '.join(reached)}")
    for c in kept:
        print(f"  {printable(c)}: kept as it is (not protected)")
