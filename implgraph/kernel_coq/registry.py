"""The generator's methods beyond :mod:`implgraph.kernel_coq.generate`'s own, in modules of their own.

Leaf methods (one lemma, proof lines from the generator's file of the certificate) are added to the generator's
table (``generate.METHODS``) when this module is imported, so that they serve as parts of ``min``, ``chain`` and
``composition`` too; certificates made of parts (``composition``) are dispatched here. :func:`theorem` and
:func:`generate` are the generator's with these methods: every caller (the checker, ``implgraph certificate
--coq``, the benchmark) uses them.

A theorem that needs a library module outside the generator's header (``Slack``, ``SetChannel``,
``Views``, ``Transport``, ``ExtremePoints``, ``Bayes``, ``Divergence``, ``BinaryProgram``) starts with its
``Require``.
"""

from __future__ import annotations

from implgraph.kernel_coq import (gen_ceiling, gen_ceiling_chord, gen_chord, gen_composition, gen_divergence,
                                  gen_divergence_ceiling, gen_extreme_points, gen_set_channel, gen_slack, gen_transport,
                                  gen_tv_distance, gen_views)
from implgraph.kernel_coq import (gen_binary_program, gen_chord_pieces, gen_floor_above, gen_max_value,
                                  gen_removal_scaling, gen_set_channel_closeness)
from implgraph.kernel_coq import gen_corners
from implgraph.kernel_coq import gen_corners_subset
from implgraph.kernel_coq import gen_slack_pairs_tv
from implgraph.kernel_coq import gen_slack_hockey_stick
from implgraph.kernel_coq import gen_subset_chord
from implgraph.kernel_coq import gen_subset_pairs
from implgraph.kernel_coq import gen_one_sided_pairs, gen_one_sided_removal
from implgraph.kernel_coq import gen_floor_level, gen_weakest_family
from implgraph.kernel_coq import gen_top_cap
from implgraph.kernel_coq import gen_chi_square_tv
from implgraph.kernel_coq import gen_attained_family
from implgraph.kernel_coq import gen_removal_cap
from implgraph.kernel_coq import gen_zcdp_chord
from implgraph.kernel_coq import generate as _gen
from implgraph.kernel_coq.coqexpr import Untranslatable

__all__ = ["theorem", "generate", "bundle", "COVERED", "Untranslatable"]

#: leaf method -> (proof lines of a generator's file, the library modules it needs)
LEAVES = {**{name: (fn, gen_slack.MODULES) for name, fn in gen_slack.METHODS.items()},
          **{name: (fn, gen_extreme_points.MODULES) for name, fn in gen_extreme_points.METHODS.items()},
          **{name: (fn, gen_chord.MODULES) for name, fn in gen_chord.METHODS.items()},
          **{name: (fn, gen_divergence_ceiling.MODULES) for name, fn in gen_divergence_ceiling.METHODS.items()},
          **{name: (fn, gen_divergence.MODULES) for name, fn in gen_divergence.METHODS.items()},
          **{name: (fn, gen_tv_distance.MODULES) for name, fn in gen_tv_distance.METHODS.items()},
          **{name: (fn, gen_ceiling_chord.MODULES) for name, fn in gen_ceiling_chord.METHODS.items()},
          **{name: (fn, gen_removal_scaling.MODULES) for name, fn in gen_removal_scaling.METHODS.items()},
          **{name: (fn, gen_max_value.MODULES) for name, fn in gen_max_value.METHODS.items()},
          **{name: (fn, gen_floor_above.MODULES) for name, fn in gen_floor_above.METHODS.items()},
          **{name: (fn, gen_corners.MODULES) for name, fn in gen_corners.METHODS.items()},
          **{name: (fn, gen_slack_pairs_tv.MODULES) for name, fn in gen_slack_pairs_tv.METHODS.items()},
          **{name: (fn, gen_chi_square_tv.MODULES) for name, fn in gen_chi_square_tv.METHODS.items()},
          **{name: (fn, gen_zcdp_chord.MODULES) for name, fn in gen_zcdp_chord.METHODS.items()}}
#: a certificate of parts: method -> (its text, the library modules it needs)
COMPOSITES = {"composition": gen_composition.composition,
              "set-channel-diversity": gen_set_channel.set_channel_diversity,
              "intruder-views": gen_views.intruder_views, "transport-mixture": gen_transport.transport_mixture,
              "extreme-points-pieces": gen_extreme_points.extreme_points_pieces,
              "set-channel-whole-domain": gen_set_channel.set_channel_whole_domain,
              "binary-program": gen_binary_program.binary_program,
              "set-channel-closeness": gen_set_channel_closeness.set_channel_closeness, **gen_ceiling.COMPOSITES}
COMPOSITES["subset-chord"] = gen_subset_chord.subset_chord
#: the library modules a non-leaf method needs beyond the generator's header
_COMPOSITE_MODULES = {"set-channel-diversity": gen_set_channel.MODULES, "intruder-views": gen_views.MODULES,
                      "transport-mixture": gen_transport.MODULES,
                      "extreme-points-pieces": gen_extreme_points.MODULES,
                      "set-channel-whole-domain": gen_set_channel.WHOLE_MODULES,
                      "binary-program": gen_binary_program.MODULES,
                      "set-channel-closeness": gen_set_channel_closeness.MODULES}
_COMPOSITE_MODULES["subset-chord"] = gen_subset_chord.MODULES
# subset-pairs: standalone certificates only, not yet a part (a composition's own B, a total variation or hockey stick
# stated with domination, does not follow from its part's slack)
COMPOSITES["subset-pairs"] = gen_subset_pairs.subset_pairs_theorem
_COMPOSITE_MODULES["subset-pairs"] = gen_subset_pairs.MODULES
COMPOSITES["one-sided-pairs"] = gen_one_sided_pairs.one_sided_pairs_theorem
_COMPOSITE_MODULES["one-sided-pairs"] = gen_one_sided_pairs.MODULES
COMPOSITES["one-sided-removal"] = gen_one_sided_removal.one_sided_removal_theorem
_COMPOSITE_MODULES["one-sided-removal"] = gen_one_sided_removal.MODULES
COMPOSITES["subset-corners"] = gen_corners_subset.subset_corners
_COMPOSITE_MODULES["subset-corners"] = gen_corners_subset.MODULES
COMPOSITES["weakest-family"] = gen_weakest_family.weakest_family
_COMPOSITE_MODULES["weakest-family"] = gen_weakest_family.MODULES
COMPOSITES["top-cap"] = gen_top_cap.top_cap
_COMPOSITE_MODULES["top-cap"] = gen_top_cap.MODULES
COMPOSITES["skew-family"] = gen_top_cap.skew_family
_COMPOSITE_MODULES["skew-family"] = gen_top_cap.MODULES
COMPOSITES["slack-hockey-stick"] = gen_slack_hockey_stick.slack_hockey_stick
_COMPOSITE_MODULES["slack-hockey-stick"] = gen_slack_hockey_stick.MODULES
COMPOSITES["floor-level"] = gen_floor_level.floor_level_theorem
_COMPOSITE_MODULES["floor-level"] = gen_floor_level.MODULES
_COMPOSITE_MODULES["removal-cap"] = gen_removal_cap.MODULES
#: certificates whose part may be of any method: their part is stated by this module's :func:`theorem`, handed to
#: them (so that they import nothing above them)
COMPOSITES["attained-family"] = lambda cert, name: gen_attained_family.attained_family(cert, name, theorem)
COMPOSITES["removal-cap"] = lambda cert, name: gen_removal_cap.removal_cap(cert, name, theorem)
#: the generator's optional header modules (generate.header's ``extra``) a non-leaf method needs
_HEADER = {"set-channel-diversity": (_gen.ENTROPY,), "top-cap": (_gen.ENTROPY,), "skew-family": (_gen.ENTROPY,),
           "floor-level": (_gen.ENTROPY,)}

_gen.METHODS.update({name: fn for name, (fn, _) in LEAVES.items()})

#: every method covered, with the library lemma its proof instantiates
COVERED = {**_gen.COVERED, "slack-target-removal": "Slack.slack_target_removal",
           "slack-pairs-to-removal": "Slack.slack_averaging",
           "composition": "the parts' lemmas, the second at T = h (Compose.ge_from_ratio)",
           "set-channel-diversity": "SetChannel.set_channel_minent, minent_mono, shannon_of_minent_level",
           "intruder-views": "Views.intruder_views", "transport-mixture": "Transport.transport_mixture",
           "extreme-points": "ExtremePoints.extreme_points / extreme_points_ratio (ep_req per requirement)",
           "extreme-points-pieces": "the parts' theorems, one per clause of the Piecewise U (decided conditions)",
           "set-channel-whole-domain": "Bayes.whole_domain (the posterior of a release of the whole domain)",
           "set-channel-closeness": "SetChannelCloseness.closeness_shifted (D[A, A + v_Z] for emd-t-closeness's "
                                    "grounds, TransportMetric.emd_scale_up; closeness_root: the posterior on the "
                                    "segment from the prior to the prior conditioned on the set; the certificate's "
                                    "forms as identities); its part's Transport.transport_mixture",
           "chord": "Divergence.chord_pairs / chord_class / chord_subset_class (the chord lemma Divergence.chord); "
                    "RemovalChord.chord_rconf (record removal both ways), chord_hockey_max",
           "divergence-ceiling": "Divergence.size_upper and chord_class_upper (the chord on [0, N/T])",
           "tv-distance": "DistanceLemmas.slack_pairwise_distance / slack_removal_distance (A total variation or a "
                          "hockey stick, stated as its slack on every event)",
           "ceiling-chord": "CeilingChord.ceiling_chord_kl / ceiling_chord_renyi2 (ceiling_chord: phi below its chords "
                            "on [0, 1] and [1, N])",
           "ceiling-family": "its part's lemma (the upper bound: Mass.set_mass_class / set_mass_subset, "
                             "Divergence.size_upper and chord_class_upper); the approach family under a "
                             "zero-concentrated A cites ZcdpCeiling.fam_rho_zcdp (the Python checker's step)",
           "subset-to-one-sided": "MaxValue.max_value; MaxValueSets.max_value_subset (B one record against the table), "
                                  "max_value_one (A one record against the table)",
           "removal-scaling": "RemovalScaling.removal_scaling (A between records), SlackOrder.slack_removal_ratio "
                              "(A on removal)",
           "corners": "Corners.corners_kl / corners_renyi2 / corners_tv / corners_hockey (Corners.corners_pairs: "
                      "the perspective below the affine function through its corner values); CornersNarrow."
                      "corners_narrow_kl / _renyi2 / _hockey (the box [1/T, N - (N - 1)/T]); CornersHexagon."
                      "corners_hexagon_renyi2 (three records: the hexagon)",
           "divergence-order": "Divergence.renyi2_kl_pairs / renyi2_kl_class (kl_le_renyi2), tv_hockey_pairs; "
                               "ZcdpPairs.zcdp_kl_pairs / zcdp_renyi_pairs (zero-concentrated A), "
                               "ZcdpRemoval.zcdp_kl_removal / zcdp_renyi_removal (on record removal), "
                               "zcdp_pairs_to_removal (zero-concentrated between records into record removal)",
           "binary-program": "BinaryTables.bp_pairs / bp_removal_same / bp_removal_pairs (BinaryProgram.flat_piece, "
                             "middle_piece, top_piece), kl_pairs / kl_removal_same / kl_removal_pairs (kl_piece), "
                             "bp_removal_tv"}

COVERED["subset-chord"] = "SubsetChord.subset_chord_kl / _kl0 / _renyi2 / _one (subset_xconf: each record's ratio)"
COVERED["subset-pairs"] = ("SubsetPairs.subset_pairs, slack_pairs_one, slack_pairs_min (B stated as its slack on every "
                           "event)")

COVERED["one-sided-pairs"] = ("OneSidedPairs.onesided_pairs, slack_pairs_ratio; SubsetPairs.slack_pairs_one, "
                              "slack_pairs_min (B stated as its slack on every event)")
COVERED["one-sided-removal"] = ("OneSidedRemoval.onesided_removal_n / _t / _weakest, onesided_removal_hockey, "
                                "slack_removal_ratio1, slack_removal_min_g (B stated as its slack on every event, both "
                                "ways)")
COVERED["subset-corners"] = ("CornersSubset.corners_subset_hockey / corners_subset_one (B stated as its slack on every "
                              "event)")
COVERED["slack-pairs-tv"] = "SlackPairsTV.slack_pairs_tv_pairs / slack_pairs_tv_removal, slack_pairs_tv_one (A a slack)"
COVERED["slack-hockey-stick"] = ("SlackHockeyStick.slack_hockey_pairs_at / slack_hockey_removal_at (A a slack between "
                                 "records, B stated as its slack on every event)")
COVERED["chi-square-tv"] = "ChiSquare.chi_pairs_slack (between records), RemovalScaling.removal_scaling (on removal), ChiSquareTV.chi_class_tv (a class against the table)"
COVERED["chord"] += "; RecordClassChord.chord_record_class / record_class_one (each record's ratio <= N - (N - 1)/T)"
COVERED["chord"] += "; RecordClassChord.chord_onesub_low / onesub_one / cmean_le_N (one record <= T, pml)"

COVERED["weakest-family"] = ("WeakestFamily.weakest_pairs / weakest_removal (B stated as its slack on every event), "
                              "weakest_class_size, weakest_record_ratio (one record against the table), "
                              "FloorLevel.weakest_floor_level (a class floor above the weakest level) (the upper "
                              "bound, whatever A; the family is the checker's)")

COVERED["floor-level"] = ("FloorLevel.floor_level_support (B the fewest values: ceiling), floor_level_of_size (A the "
                          "smallest class's size), weakest_floor_level, FloorShare.floor_share_ratio / "
                          "floor_share_tv (B a class level against the table)")

COVERED["top-cap"] = ("TopCap.top_cap_minent_max / top_cap_minent_inv / minent_of_tail (A's cap on the top frequency), "
                      "then Entropy.support_of_minent / shannon_of_minent; TopCap.two_le_ceil (2 values under a tail); "
                      "TopCap.floor_level_of_min_class, FloorLevel.weakest_floor_level (B a class floor above its "
                      "weakest)")
COVERED["skew-family"] = ("TopCap.minent_ge_one / shannon_ge_one (B's weakest level 1, whatever A; the approaching family "
                          "is the checker's)")
COVERED["removal-cap"] = ("BinaryTables.bp_removal_tv (B at its strongest where N >= n0 >= 1/delta), then the part's "
                          "theorem (N < n0)")
COVERED["attained-family"] = "its part's lemmas (the upper bound; the family is the checker's, and Tight.v's for two blocks)"

bundle = _gen.bundle


def _methods(cert):
    out = [cert.method]
    for p in cert.parts:
        out += _methods(p)
    return out


def _sides(cert):
    out = [cert.A, cert.B]
    for p in cert.parts:
        out += _sides(p)
    return out


def _requires(cert):
    """The library's modules the theorem needs: its methods', and ``Divergence`` where a side is stated as a
    divergence (a whatever-A ceiling states A's divergence predicate in its hypothesis), with ``ZcdpChord`` where
    that divergence is zero-concentrated (its predicate ``zcdp_pairs_le`` lives there) and ``ZcdpRemoval`` where it
    is zero-concentrated on record removal (``zcdp_removal_le``)."""
    from implgraph.kernel_coq import adapter
    mods = {m for name in _methods(cert) for m in (LEAVES[name][1] if name in LEAVES
                                                    else _COMPOSITE_MODULES.get(name, ()))}
    for s in _sides(cert):
        div = adapter.divergence_side(s) if s is not None and s.definition else None
        if div is not None:
            mods.add("Divergence")
            if div.kind == "zcdp":
                mods.add("ZcdpChord")
                if div.compares == "removal":
                    mods.add("ZcdpRemoval")
    mods = sorted(mods)
    return f"From Implgraph Require Import {' '.join(mods)}.\n" if mods else ""


def theorem(cert, name="certificate"):
    """``(text, modules)`` as :func:`implgraph.kernel_coq.generate.theorem`, with this module's methods."""
    from implgraph.kernel_coq import adapter
    if isinstance(cert, dict):
        cert = adapter.read(cert)
    if cert.method in COMPOSITES:
        text, mods = COMPOSITES[cert.method](cert, name), set(_HEADER.get(cert.method, ()))
    elif gen_chord_pieces.applies(cert):        # a removal chord whose U is a Piecewise: stated clause by clause
        text, mods = gen_chord_pieces.subset_pieces(cert, name), set()
    else:
        text, mods = _gen.theorem(cert, name)
    return _requires(cert) + text, mods


def generate(cert, sources=()) -> str:
    """The Coq file of one certificate (raises :class:`Untranslatable`), with this module's methods."""
    text, mods = theorem(cert, "certificate")
    head = "(* Generated by implgraph.kernel_coq from a certificate; do not edit. *)\n" + _gen._comment(cert, sources)
    return head + _gen.header(mods) + "\n" + text + "\nPrint Assumptions certificate.\n"

from implgraph.kernel_coq import gen_zcdp_family  # noqa: E402
COMPOSITES["zcdp-family"] = gen_zcdp_family.zcdp_family_theorem
_COMPOSITE_MODULES["zcdp-family"] = gen_zcdp_family.MODULES
COVERED["zcdp-family"] = ("ZcdpFamily.fam_no_pairwise / fam_no_class / fam_no_subset (zcdp_family: the zero-concentrated "
                          "level <= 1 on the family K = 2^j, b = 2^(-j^2 - 2 j); B's ratio above every U)")
from implgraph.kernel_coq import gen_zcdp_lower_family  # noqa: E402
COMPOSITES["zcdp-lower-family"] = gen_zcdp_lower_family.zcdp_lower_family
_COMPOSITE_MODULES["zcdp-lower-family"] = gen_zcdp_lower_family.MODULES
COVERED["zcdp-lower-family"] = ("ZcdpLowerFamily.zcdp_family (fam_pairs: Renyi-2 and KL at most ln 2; fam_zcdp_lower: "
                                "ZcdpOrder.zcdp_lower at the order 3) (the no-f claim, the family the library's)")
COVERED["zcdp-chord"] = ("ZcdpChord.zcdp_chord_pairs (the chord of r^alpha over [1/T, T] and Zcdp.tanh_bound: the "
                         "zero-concentrated level between records at most ln T (T - 1)/(T + 1)); on record removal "
                         "ZcdpRemoval.zcdp_chord_removal_pairs / _subset / _single (zcdp_rconf: Q_i/P within [1/R, R])")
