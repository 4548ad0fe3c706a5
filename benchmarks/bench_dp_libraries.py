"""Differential-privacy accounting libraries against the tight conversions of implgraph's record model.

Run ``python benchmarks/bench_dp_libraries.py`` (``--quick`` for a small grid, ``--markdown`` for the docs'
tables, ``--plot docs/sections/dp-conversions.png`` for the figure). The libraries are optional: each one that
does not import is reported and skipped (``pip install dp-accounting autodp opendp``).

The model (docs/sections/dp-conversions.md): a table is N records, each a distribution over p buckets. The *local*
form of a divergence D is ``max_{i != j} D(x_i || x_j)``; the *central* form is ``max_i max(D(P || Q_i),
D(Q_i || P))`` with P the mean of the N records and Q_i the mean of the N - 1 others (record removal, as ``dp``).
A conversion A => B at level a has the tight f(a): the least B-level that every table at A-level <= a meets.

What is computed (floats: this is a benchmark, never a verdict): the reference side in ``dp_reference.py`` (its
docstring says how the tight f is found) and each library's conversion at the same parameters, with the ratio
library / tight and a flag wherever a library is below the tight f (the attaining table, re-checked with 50 digits,
then shows the library wrong) or the tight f could not be reproduced.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))     # dp_reference and dp_engine, beside this file
from dp_reference import (INF, central_tight_eps, divergence, local_tight_eps, pure_to_approx_local,  # noqa: E402
                          pure_to_kl_central, pure_to_kl_local, pure_to_renyi_local, pure_to_tv_central,
                          pure_to_tv_local, pure_to_zcdp_central, pure_to_zcdp_local, recheck_pair)

try:            # implgraph's certified tight f (benchmarks/dp_engine.py); without it the bench's own closed forms
    import dp_engine
except ImportError:
    dp_engine = None

def library_versions():
    from importlib.metadata import PackageNotFoundError, version
    out = {}
    for name in ("dp-accounting", "autodp", "opendp"):
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = None
    return out


def _quiet(f, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return float(f(*args))
        except Exception as exc:                                   # a library's refusal is reported, not fatal
            return f"error: {type(exc).__name__}"


class Libraries:
    """Each library's conversions as plain functions of the benchmark's parameters (None: not installed)."""

    def __init__(self):
        self.v = library_versions()
        self._opendp = None

    # dp-accounting ----------------------------------------------------------------------------------------
    def dpa_rdp(self, alpha, r, delta):
        from dp_accounting.rdp import rdp_privacy_accountant as rdp
        return _quiet(lambda: rdp.compute_epsilon([alpha], [r], delta)[0])

    def dpa_zcdp(self, rho, delta):
        from dp_accounting.rdp import rdp_privacy_accountant as rdp
        orders = rdp.DEFAULT_RDP_ORDERS
        return _quiet(lambda: rdp.compute_epsilon(orders, [rho * a for a in orders], delta)[0])

    def dpa_pure_approx(self, eps, delta):
        from dp_accounting.pld import common, privacy_loss_distribution as pld
        return _quiet(lambda: pld.from_privacy_parameters(common.DifferentialPrivacyParameters(eps, 0.0))
                      .get_epsilon_for_delta(delta))

    def dpa_rr_rdp(self, eps, alpha):
        """The RDP dp-accounting computes for binary randomized response with ratio e^eps (a mechanism, exact)."""
        from dp_accounting.rdp import rdp_privacy_accountant as rdp
        p = 2 / (math.exp(eps) + 1)
        return _quiet(lambda: rdp._compute_randomized_response_rdp(p, 2, [alpha], rdp.NeighborRel.REPLACE_ONE)[0])

    def dpa_laplace_rdp(self, eps, alpha):
        """The RDP of the Laplace mechanism of pure level eps (a mechanism, not a conversion from eps-DP)."""
        from dp_accounting.rdp import rdp_privacy_accountant as rdp
        return _quiet(lambda: rdp._laplace_rdp(eps, alpha))

    # autodp -----------------------------------------------------------------------------------------------
    def autodp_pure_rdp(self, eps, alpha):
        from autodp import converter
        return _quiet(lambda: converter.puredp_to_rdp(eps)(alpha))

    def autodp_pure_approx(self, eps, delta):
        from autodp import converter
        return _quiet(lambda: converter.puredp_to_approxdp(eps)(delta))

    def autodp_zcdp(self, rho, delta):
        from autodp import converter
        return _quiet(lambda: converter.rdp_to_approxdp(lambda a: rho * a)(delta))

    def autodp_rdp(self, alpha, r, delta):
        """A single order as the valid RDP curve r on (1, alpha] (D_beta is nondecreasing in beta), oo beyond."""
        from autodp import converter
        curve = lambda a: r if a <= alpha else INF               # noqa: E731
        return _quiet(lambda: converter.rdp_to_approxdp(curve)(delta))

    # opendp -----------------------------------------------------------------------------------------------
    def _dp(self):
        if self._opendp is None:
            import opendp.prelude as dp
            dp.enable_features("contrib", "honest-but-curious")
            self._opendp = dp
        return self._opendp

    def _user(self, measure, d_out):
        dp = self._dp()
        return dp.m.make_user_measurement(dp.atom_domain(T=float), dp.absolute_distance(T=float), measure,
                                          function=lambda x: x, privacy_map=lambda d_in: d_out)

    def opendp_zcdp(self, rho, delta):
        dp = self._dp()
        return _quiet(lambda: dp.c.make_zCDP_to_approxDP(self._user(dp.zero_concentrated_divergence(), rho))
                      .map(1.0).epsilon(delta))

    def opendp_pure_zcdp(self, eps):
        dp = self._dp()
        return _quiet(lambda: dp.c.make_pureDP_to_zCDP(self._user(dp.max_divergence(), eps)).map(1.0))


# -------------------------------------------------------------------------------------------------------------
# the comparison
# -------------------------------------------------------------------------------------------------------------

#: formulas from the papers, valid bounds the libraries build on (one-sided: D(P || Q) <= level only)
PAPERS = {
    "Mironov 2017, Prop. 3": lambda a, r, d: r + math.log(1 / d) / (a - 1),
    "CKS 2020, Prop. 12 / BBGHS 2020, Thm 21": lambda a, r, d: max(0.0, r + math.log1p(-1 / a) - math.log(d * a) / (a - 1)),
}


def bun_steinke(rho, delta):
    return rho + 2 * math.sqrt(rho * math.log(1 / delta))


def cks_zcdp(rho, delta):
    """inf over alpha > 1 of CKS's bound with r = rho alpha (Canonne, Kamath, Steinke 2020, Cor. 13)."""
    f = lambda a: rho * a + math.log1p(-1 / a) - math.log(delta * a) / (a - 1)   # noqa: E731
    grid = list(1 + np.logspace(-4, 6, 2000))
    return max(0.0, min(f(a) for a in grid))


def engine_tight(add, conv, p, oracle, eps, N=None, alpha=None):
    """The engine's tight f where it proves it (certificates re-checked), with the bench's own value as a row
    against it (the oracle: ratio 1 expected); else the bench's own value."""
    t = None if dp_engine is None else dp_engine.tight(conv, eps, N=N, alpha=alpha)
    if t is None:
        return oracle
    add(conv, p, "the bench's own closed form (oracle for the engine's f)", oracle, t, kind="oracle")
    return t


def rows_for(grid, libs, have):
    """Every (conversion, parameters, source, bound, tight) row of the comparison."""
    rows = []

    def add(conv, params, source, bound, tight, kind="conversion", witness=None):
        rows.append(dict(conversion=conv, params=params, source=source, bound=bound, tight=tight, kind=kind,
                         witness=witness))

    for eps in grid["eps"]:
        for alpha in grid["alpha_pure"]:
            p = f"eps={eps:g}, alpha={alpha:g}"
            t = engine_tight(add, "pure => Renyi (local)", p, pure_to_renyi_local(eps, alpha), eps, alpha=alpha)
            if have["autodp"]:
                add("pure => Renyi (local)", p, "autodp puredp_to_rdp", libs.autodp_pure_rdp(eps, alpha), t)
            if have["dp-accounting"]:
                add("pure => Renyi (local)", p, "dp-accounting RR event (mechanism)", libs.dpa_rr_rdp(eps, alpha), t,
                    kind="mechanism")
                add("pure => Renyi (local)", p, "dp-accounting Laplace event (mechanism)",
                    libs.dpa_laplace_rdp(eps, alpha), t, kind="mechanism")
            add("pure => Renyi (local)", p, "eps (D_alpha <= D_oo, monotonicity in alpha)", eps, t)
            add("pure => Renyi (local)", p, "Bun-Steinke 2016 (alpha eps^2/2)", alpha * eps ** 2 / 2, t)
        p = f"eps={eps:g}"
        t = engine_tight(add, "pure => KL (local)", p, pure_to_kl_local(eps), eps)
        if have["autodp"]:
            add("pure => KL (local)", p, "autodp puredp_to_rdp(alpha=1)", libs.autodp_pure_rdp(eps, 1), t)
        add("pure => KL (local)", p, "Dwork-Rothblum-Vadhan 2010 (eps (e^eps - 1))", eps * math.expm1(eps), t)
        if have["opendp"]:
            add("pure => zCDP (local)", p, "opendp make_pureDP_to_zCDP", libs.opendp_pure_zcdp(eps), t)
        add("pure => zCDP (local)", p, "Bun-Steinke 2016 Prop. 3.3 (eps^2/2)", eps ** 2 / 2, t)
        add("pure => TV (local)", p, "(none in the libraries)", None,
            engine_tight(add, "pure => TV (local)", p, pure_to_tv_local(eps), eps))
        for delta in grid["delta"]:
            t = pure_to_approx_local(eps, delta)
            pp = f"eps={eps:g}, delta={delta:g}"
            if have["autodp"]:
                add("pure => (eps',delta) (local)", pp, "autodp puredp_to_approxdp", libs.autodp_pure_approx(eps, delta), t)
            if have["dp-accounting"]:
                add("pure => (eps',delta) (local)", pp, "dp-accounting PLD from_privacy_parameters",
                    libs.dpa_pure_approx(eps, delta), t)
    for alpha in grid["alpha"]:
        for r in grid["r"]:
            for delta in grid["delta"]:
                t, wit = local_tight_eps(divergence("renyi", alpha), r, delta)
                t1, _ = local_tight_eps(divergence("renyi", alpha), r, delta, one_sided=True)
                p = f"alpha={alpha:g}, r={r:g}, delta={delta:g}"
                w = ("renyi", alpha, wit, r, delta)
                add("Renyi => (eps,delta) (local)", p, "tight, one direction only (optimal conversion)", t1, t)
                if have["dp-accounting"]:
                    add("Renyi => (eps,delta) (local)", p, "dp-accounting compute_epsilon", libs.dpa_rdp(alpha, r, delta),
                        t, witness=w)
                if have["autodp"]:
                    add("Renyi => (eps,delta) (local)", p, "autodp rdp_to_approxdp (curve r up to alpha)",
                        libs.autodp_rdp(alpha, r, delta), t, witness=w)
                for name, fml in PAPERS.items():
                    add("Renyi => (eps,delta) (local)", p, name, fml(alpha, r, delta), t, witness=w)
    local_zcdp = {}
    for rho in grid["rho"]:
        for delta in grid["delta"]:
            t, wit = local_zcdp[rho, delta] = local_tight_eps(divergence("zcdp"), rho, delta)
            p = f"rho={rho:g}, delta={delta:g}"
            w = ("zcdp", None, wit, rho, delta)
            if have["dp-accounting"]:
                add("zCDP => (eps,delta) (local)", p, "dp-accounting compute_epsilon (default orders)",
                    libs.dpa_zcdp(rho, delta), t, witness=w)
            if have["autodp"]:
                add("zCDP => (eps,delta) (local)", p, "autodp rdp_to_approxdp", libs.autodp_zcdp(rho, delta), t, witness=w)
            if have["opendp"]:
                add("zCDP => (eps,delta) (local)", p, "opendp make_zCDP_to_approxDP", libs.opendp_zcdp(rho, delta), t,
                    witness=w)
            add("zCDP => (eps,delta) (local)", p, "Bun-Steinke 2016 Prop. 1.3", bun_steinke(rho, delta), t, witness=w)
            add("zCDP => (eps,delta) (local)", p, "CKS 2020 (inf over alpha)", cks_zcdp(rho, delta), t, witness=w)
    for N in grid["N"]:
        for eps in grid["eps"]:
            p = f"N={N}, eps={eps:g}"
            add("pure => KL (central)", p, "local tight f (valid, N-free)", pure_to_kl_local(eps),
                engine_tight(add, "pure => KL (central)", p, pure_to_kl_central(eps, N), eps, N=N))
            add("pure => TV (central)", p, "local tight f (valid, N-free)", pure_to_tv_local(eps), pure_to_tv_central(eps, N))
            add("pure => zCDP (central)", p, "local tight f (valid, N-free)", pure_to_zcdp_local(eps),
                pure_to_zcdp_central(eps, N))
        for rho in grid["rho_central"] if N in grid["N_zcdp"] else ():
            for delta in grid["delta_central"]:
                if delta >= 1 / N:
                    continue
                t, _ = central_tight_eps(divergence("zcdp"), rho, delta, N)
                p = f"N={N}, rho={rho:g}, delta={delta:g}"
                if (rho, delta) not in local_zcdp:
                    local_zcdp[rho, delta] = local_tight_eps(divergence("zcdp"), rho, delta)
                tl = local_zcdp[rho, delta][0]
                add("zCDP => (eps,delta) (central)", p, "local tight f (valid, N-free)", tl, t)
                if have["opendp"]:
                    add("zCDP => (eps,delta) (central)", p, "opendp make_zCDP_to_approxDP", libs.opendp_zcdp(rho, delta), t)
    return rows


def flag(row):
    b, t = row["bound"], row["tight"]
    if not isinstance(b, float):
        return ""
    if row["kind"] == "oracle":         # the engine's certified f against the bench's own value
        return "= engine" if abs(b - t) <= 1e-9 * max(1.0, abs(t)) else "ENGINE AND ORACLE DIFFER"
    if row["kind"] == "mechanism":
        return "exact for its mechanism" if abs(b - t) <= 1e-7 * max(1, abs(t)) else (
            "below: not a conversion" if b < t else "")
    if b < t - 1e-7 * max(1.0, abs(t)):
        return "BELOW TIGHT"
    if abs(b - t) <= 1e-7 * max(1.0, abs(t)):
        return "= tight"
    return ""


def ratio(row):
    b, t = row["bound"], row["tight"]
    if not isinstance(b, float) or t is None:
        return None
    if t == 0:
        return INF if b > 0 else 1.0
    return b / t


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a small grid")
    ap.add_argument("--markdown", action="store_true", help="print the docs' summary table before the rows")
    ap.add_argument("--plot", help="write the ratio figure (PNG) there")
    args = ap.parse_args(argv)
    grid = dict(eps=[0.1, 0.5, 1.0, 2.0, 5.0], alpha_pure=[1.5, 2, 10, 32], delta=[1e-3, 1e-6, 1e-9],
                alpha=[2, 5, 10, 32], r=[0.1, 0.5, 1.0, 2.0], rho=[0.01, 0.1, 0.5, 1.0, 2.0],
                rho_central=[0.1, 1.0], N=[2, 10, 100], N_zcdp=[2, 10], delta_central=[1e-3, 1e-6])
    if args.quick:
        grid.update(eps=[0.5, 2.0], alpha_pure=[2, 10], delta=[1e-6], alpha=[2, 10], r=[0.5], rho=[0.1, 1.0],
                    rho_central=[0.1], N=[2, 10], N_zcdp=[10], delta_central=[1e-6])
    libs = Libraries()
    have = {k: v is not None for k, v in libs.v.items()}
    print("tight f: " + ("implgraph's engine where it proves it tight (certificates re-checked), the bench's own "
                         "closed forms as its oracle" if dp_engine is not None and dp_engine.available() else
                         "the bench's own closed forms (implgraph does not import: engine skipped)"))
    print("libraries: " + ", ".join(f"{k} {v or 'NOT INSTALLED (skipped)'}" for k, v in libs.v.items()))
    t0 = time.process_time()
    rows = rows_for(grid, libs, have)
    print(f"{len(rows)} rows in {time.process_time() - t0:.1f} s of CPU")
    problems = 0
    for row in rows:
        row["flag"] = flag(row)
        if row["flag"] == "BELOW TIGHT" and row["witness"]:
            kind, alpha, (x, y), level, delta = row["witness"]
            lvl, need, beaten = recheck_pair(kind, alpha, x, y, level, row["bound"], delta)
            row["flag"] += (f" (witness x={x}, y={y}: A-level {lvl:.6g} <= {level:g}, eps needed {need:.6g}; "
                            + ("library wrong" if beaten else "NOT confirmed: the tight f is wrong") + ")")
            problems += 1
        elif row["flag"] in ("BELOW TIGHT", "ENGINE AND ORACLE DIFFER"):
            problems += 1
    if args.markdown:
        print_markdown(rows)
    print_plain(rows)
    if args.plot:
        plot(rows, args.plot)
        print(f"wrote {args.plot}")
    print(f"{problems} rows below the tight f or where the engine and its oracle differ")
    return 0


def _fmt(v):
    if v is None:
        return "-"
    if isinstance(v, str):
        return v
    return "oo" if v == INF else f"{v:.6g}"


def print_plain(rows):
    conv = None
    for row in rows:
        if row["conversion"] != conv:
            conv = row["conversion"]
            print(f"\n== {conv}")
            print(f"{'parameters':34} {'source':56} {'bound':>10} {'tight f':>10} {'ratio':>8}  flag")
        r = ratio(row)
        print(f"{row['params']:34} {row['source']:56} {_fmt(row['bound']):>10} {_fmt(row['tight']):>10} "
              f"{_fmt(r):>8}  {row['flag']}")


def print_markdown(rows):
    """One table per conversion: the ratio range of each source over the grid, then the rows."""
    by = {}
    for row in rows:
        by.setdefault(row["conversion"], {}).setdefault(row["source"], []).append(row)
    print("\n| conversion | source | ratio bound / tight f (min - max over the grid) | below the tight f |")
    print("| --- | --- | --- | --- |")
    for conv, sources in by.items():
        for src, rs in sources.items():
            rat = [ratio(r) for r in rs if ratio(r) is not None and not (r["tight"] == 0 and r["bound"] == 0)]
            fin = [v for v in rat if v != INF]
            rng = "-" if not rat else (f"{min(fin):.4g} - {max(fin):.4g}" if fin else "oo") + \
                (" (oo where f = 0)" if INF in rat and fin else "")
            below = sum(r["flag"].startswith("BELOW") for r in rs)
            print(f"| {conv} | {src} | {rng} | {below} of {len(rs)} |")


def plot(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    eps = np.linspace(0.02, 6, 200)
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.4))
    ax = axes[0]
    ax.plot(eps, [(e * e / 2) / pure_to_zcdp_local(e) for e in eps], label="eps^2/2 (Bun-Steinke; opendp)")
    ax.plot(eps, [(e * math.expm1(e)) / pure_to_kl_local(e) for e in eps], label="eps (e^eps - 1) (DRV 2010)")
    ax.plot(eps, [(e * e) / pure_to_renyi_local(e, 2) for e in eps], label="Renyi-2: alpha eps^2/2 (Bun-Steinke)")
    ax.plot(eps, [e / pure_to_renyi_local(e, 2) for e in eps], label="Renyi-2: eps (alpha = oo)")
    ax.set_yscale("log")
    ax.set_xlabel("eps (pure, local)")
    ax.set_ylabel("bound / tight f")
    ax.set_title("pure eps => zCDP, KL, Renyi-2")
    ax.legend(fontsize=7)
    for ax, conv in ((axes[1], "Renyi => (eps,delta) (local)"), (axes[2], "zCDP => (eps,delta) (local)")):
        by = {}
        for row in rows:
            if row["conversion"] == conv and isinstance(row["bound"], float) and row["tight"] > 0:
                by.setdefault(row["source"], []).append((row["tight"], row["bound"] / row["tight"]))
        for src, pts in by.items():
            pts.sort()
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "o", ms=3, label=src)
        ax.axhline(1, color="k", lw=0.6)
        ax.set_xscale("log")
        ax.set_xlabel("tight eps (grid of levels and delta)")
        ax.set_ylabel("bound / tight f")
        ax.set_title(conv)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    sys.exit(main())
