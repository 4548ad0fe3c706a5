"""sei2019's Fig. 7: the original Adult cross tabulation of occupation x age, and its reconstructions from one
release at l = 5 (the proposed Bayes reconstruction, eq. 26-27, and ValueAdding, eq. 18), and the Rating method of
Liu et al. (ICDM Workshops 2011, reference [32]) at the same l_j, as sei2019 states it
(:mod:`implgraph.mechanisms.randomized_anonymization.rating`; its own paper is not among the project's sources).
Used by ``benchmarks/bench_sei2019.py``; floats for plots only.
"""

from __future__ import annotations

import numpy as np

from implgraph.mechanisms.randomized_anonymization.distances import l1
from implgraph.mechanisms.randomized_anonymization.rating import rating_reconstruct
from implgraph.mechanisms.randomized_anonymization.reconstruct import bayes, true_counts, value_adding
from implgraph.mechanisms.randomized_anonymization.release import encode

ATTRS = ["occupation", "age"]


def fig7(cols, release, rating=None) -> dict:
    """``{panel: (occupation x age) counts}``: the original and each reconstruction (same domains, same order as
    the release's); ``rating``: a Rating release of the same data (panel (d))."""
    doms = [release.domains[release.index(a)] for a in ATTRS]
    original = true_counts([encode(cols[a], dom)[0] for a, dom in zip(ATTRS, doms)],
                           tuple(len(d) for d in doms)).astype(float)
    return {"(a) original": original, "(b) proposed (Bayes)": bayes(release, ATTRS),
            "(c) ValueAdding": value_adding(release, ATTRS),
            **({"(d) Rating": rating_reconstruct(rating, ATTRS)} if rating is not None else {})}


def plot_fig7(path, cols, release, rating=None) -> dict:
    """Draw the panels of :func:`fig7` as bar charts (one bar per (occupation, age) cell, cells ordered by
    occupation then age) to ``path``; return ``{panel: L1 distance to the original}``."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    panels = fig7(cols, release, rating)
    original = panels["(a) original"].ravel()
    top = max(float(v.max()) for v in panels.values())
    fig, axes = plt.subplots(len(panels), 1, figsize=(11, 2.4 * len(panels)), sharex=True)
    out = {}
    for ax, (name, counts) in zip(axes, panels.items()):
        flat = counts.ravel()
        ax.bar(np.arange(flat.size), flat, width=1.0)
        ax.set_ylim(min(0.0, float(flat.min())), top * 1.05)
        out[name] = l1(original, flat)
        ax.set_title(f"{name}: sum {flat.sum():,.0f}" + ("" if name.startswith("(a)") else
                                                          f", L1 distance to (a) {out[name]:,.0f}"))
        ax.set_ylabel("records")
    axes[-1].set_xlabel("cell (occupation x age, 14 x 8)")
    fig.suptitle("Adult, l = 5: occupation x age" + ("" if rating is not None else " (Rating not drawn)"))
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return out
