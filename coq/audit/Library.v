(* The axiom audit of the library's general lemmas: each should depend only on the standard axioms of
   Coq's real numbers (Stdlib Reals: the classical reals' field and order axioms, completeness,
   archimed, total_order_T, ...), nothing Admitted. *)
From Implgraph Require Import Sums Tables Tactics Extreme Vertex Mass Compose Distance MaxValue.
From Implgraph Require Import Events Columns DistanceLemmas RatioLemmas Declared Entropy Slack SetChannel Views Transport.
From Implgraph Require Import ExtremePoints Bayes Divergence CeilingChord SlackOrder.
Print Assumptions subset_monotone.
Print Assumptions subset_to_classes.
Print Assumptions vertex_subset.
Print Assumptions vertex_class.
Print Assumptions set_mass_subset.
Print Assumptions set_mass_class.
Print Assumptions min_bound.
Print Assumptions chain.
Print Assumptions subset_le_mono.
Print Assumptions class_le_mono.
Print Assumptions tv_mass.
Print Assumptions max_value.
Print Assumptions class_distance.
Print Assumptions one_sided_distance.
Print Assumptions slack_pairwise_distance.
Print Assumptions pairwise_distance.
Print Assumptions removal_distance.
Print Assumptions removal_pair.
Print Assumptions subset_distance.
Print Assumptions slack_removal_distance.
Print Assumptions slack_removal_pair.
Print Assumptions rest_mass.
Print Assumptions class_mass.
Print Assumptions supremum.
Print Assumptions record_of_subset.
Print Assumptions record_of_classes.
Print Assumptions product.
Print Assumptions slack_target.
Print Assumptions class_size_floor.
Print Assumptions finite_level_of.
Print Assumptions support_of_minent.
Print Assumptions support_of_shannon.
Print Assumptions shannon_of_minent.
Print Assumptions slack_target_removal.
Print Assumptions slack_averaging.
Print Assumptions ge_from_ratio.
Print Assumptions gt_from_ratio.
Print Assumptions set_channel_minent.
Print Assumptions minent_mono.
Print Assumptions shannon_of_minent_level.
Print Assumptions intruder_views.
Print Assumptions transport_mixture.
Print Assumptions extreme_points.
Print Assumptions extreme_points_ratio.
Print Assumptions ep_req.
Print Assumptions whole_domain.
Print Assumptions chord.
Print Assumptions chord_pairs.
Print Assumptions chord_class.
Print Assumptions chord_subset_class.
Print Assumptions chord_pairs_removal.
Print Assumptions chord_subset_removal.
Print Assumptions chord_class_upper.
Print Assumptions one_pairs.
Print Assumptions one_class.
Print Assumptions one_pairs_removal.
Print Assumptions one_subset_removal.
Print Assumptions kl_le_renyi2.
Print Assumptions hockey_of_tv.
Print Assumptions renyi2_kl_pairs.
Print Assumptions renyi2_kl_class.
Print Assumptions renyi2_kl_removal.
Print Assumptions joint_convex.
Print Assumptions pairs_to_class.
Print Assumptions pairs_to_removal.
Print Assumptions mixw_facts.
Print Assumptions size_upper.
Print Assumptions oneclass_upper.
Print Assumptions ceiling_chord_kl.
Print Assumptions ceiling_chord_renyi2.
Print Assumptions class_ratio_n.
Print Assumptions slack_pairs_ratio.
Print Assumptions slack_removal_ratio.
From Implgraph Require Import Pinsker.
Print Assumptions pinsker_l1.
Print Assumptions pinsker_event.
Print Assumptions pinsker_pairs_slack.
Print Assumptions pinsker_class_tv.
Print Assumptions pinsker_removal_slack.
Print Assumptions slack_pairs_tv.
Print Assumptions class_tv_min.
Print Assumptions slack_removal_tv.
Print Assumptions pinsker_g.
From Implgraph Require Import ChiSquare.
Print Assumptions chi_square_event.
Print Assumptions chi_pairs_slack.
Print Assumptions chi_removal_slack.
Print Assumptions chi_g_facts.
From Implgraph Require Import RemovalChord.
Print Assumptions chord_rconf.
Print Assumptions one_rconf.
Print Assumptions rconf_weaken.
Print Assumptions pairwise_rconf.
Print Assumptions single_rconf_hi.
Print Assumptions single_rconf_lo.
Print Assumptions single_rconf_inv.
Print Assumptions subset_rconf.
Print Assumptions subset_rconf_n.
Print Assumptions subset_rconf_sum.
Print Assumptions one_subset_class.
Print Assumptions onesub_upper.
Print Assumptions chord_hockey_max.
Print Assumptions ln_ge_0.
From Implgraph Require Import MinSplit.
Print Assumptions Rmin_cases.
Print Assumptions min_ge.
Print Assumptions min_gt.
From Implgraph Require Import RemovalScaling.
Print Assumptions removal_scaling.
From Implgraph Require Import MaxValueSets.
Print Assumptions max_value_subset.
Print Assumptions max_value_one.
From Implgraph Require Import FloorAbove.
Print Assumptions class_size_floor_above.
From Implgraph Require Import BinaryProgram BinaryTables.
Print Assumptions bp_flat.
Print Assumptions bp_top.
Print Assumptions bp_middle.
Print Assumptions bp_pairs.
Print Assumptions bp_removal_same.
Print Assumptions bp_removal_pairs.
Print Assumptions bp_removal_tv.
Print Assumptions kl_pairs.
Print Assumptions kl_removal_same.
Print Assumptions kl_removal_pairs.
From Implgraph Require Import SetChannelCloseness.
Print Assumptions set_channel_closeness.
Print Assumptions closeness_root.
Print Assumptions closeness_shifted.
From Implgraph Require Import TransportMetric.
Print Assumptions unshift.
Print Assumptions emd_scale_up.
Print Assumptions emd_ground_metric.
From Implgraph Require Import Corners.
Print Assumptions corners_pairs.
Print Assumptions corners_kl.
Print Assumptions corners_renyi2.
Print Assumptions corners_tv.
Print Assumptions corners_hockey.
From Implgraph Require Import SubsetChord.
Print Assumptions subset_xconf.
Print Assumptions subset_chord_kl.
Print Assumptions subset_chord_kl0.
Print Assumptions subset_chord_renyi2.
Print Assumptions subset_chord_one.
From Implgraph Require Import SlackPairsTV.
Print Assumptions slack_pairs_tv_pairs.
Print Assumptions slack_pairs_tv_removal.
Print Assumptions slack_pairs_tv_removal_min.
Print Assumptions slack_pairs_tv_one.
From Implgraph Require Import SlackHockeyStick.
Print Assumptions kov_step.
Print Assumptions slack_hockey_pairs.
Print Assumptions slack_hockey_removal.
Print Assumptions slack_hockey_removal_div.
Print Assumptions slack_hockey_pairs_at.
Print Assumptions slack_hockey_removal_at.
From Implgraph Require Import WeakestFamily.
Print Assumptions weakest_pairs.
Print Assumptions weakest_removal.
Print Assumptions weakest_class_size.
Print Assumptions weakest_record_ratio.
From Implgraph Require Import RecordClassChord.
Print Assumptions chord_record_class.
Print Assumptions record_class_one.
Print Assumptions chord_class_narrow.
Print Assumptions chord_onesub_low.
Print Assumptions onesub_one.
Print Assumptions cmean_le_N.
Print Assumptions chord_removal_two.
Print Assumptions chord_oneclass_low.
Print Assumptions oneclass_one.
From Implgraph Require Import CornersNarrow.
Print Assumptions corners_conf.
Print Assumptions corners_narrow_kl.
Print Assumptions corners_narrow_renyi2.
Print Assumptions corners_narrow_hockey.
From Implgraph Require Import CornersHexagon.
Print Assumptions hex_conf.
Print Assumptions corners_hexagon.
Print Assumptions corners_hexagon_renyi2.
From Implgraph Require Import CornersHexagonKL.
Print Assumptions hex_ok_kl.
Print Assumptions corners_hexagon_kl.
From Implgraph Require Import TopCap.
Print Assumptions top_cap_minent_max.
Print Assumptions top_cap_minent_inv.
Print Assumptions minent_of_tail.
Print Assumptions two_le_ceil.
Print Assumptions minent_ge_one.
Print Assumptions shannon_ge_one.
Print Assumptions floor_level_of_min_class.
From Implgraph Require Import OneSidedPairs.
Print Assumptions onesided_pairs.
Print Assumptions slack_pairs_ratio.
From Implgraph Require Import OneSidedRemoval.
Print Assumptions onesided_removal.
Print Assumptions onesided_removal_weakest.
Print Assumptions onesided_removal_hockey.
Print Assumptions slack_removal_min_g.
From Implgraph Require Import FloorLevel.
Print Assumptions weakest_floor_level.
Print Assumptions floor_level_support.
Print Assumptions floor_level_of_size.
Print Assumptions floor_level_class_size.
Print Assumptions one_class_below.
Print Assumptions weakest_minent.
Print Assumptions weakest_shannon.
From Implgraph Require Import FloorShare.
Print Assumptions floor_share_ratio.
Print Assumptions floor_share_tv.
Print Assumptions floor_share_div.
From Implgraph Require Import Zcdp.
Print Assumptions below_rpower.
Print Assumptions renyi_sum_chord.
Print Assumptions tanh_bound.
Print Assumptions pure_zcdp_pair.
Print Assumptions pure_zcdp_eps.
From Implgraph Require Import ZcdpOrder.
Print Assumptions kl_le_rdiv.
Print Assumptions zcdp_kl.
Print Assumptions zcdp_kl_div.
Print Assumptions renyi_nat_iff.
Print Assumptions zcdp_renyi.
Print Assumptions zcdp_lower.
From Implgraph Require Import ZcdpFamily.
Print Assumptions zcdp_family.
Print Assumptions zcdp_self.
Print Assumptions zcdp_family_pow2.
Print Assumptions fam_zcdp.
Print Assumptions fam_no_pairwise.
Print Assumptions fam_no_class.
Print Assumptions fam_no_subset.
From Implgraph Require Import ZcdpLowerFamily.
Print Assumptions fam_pairs.
Print Assumptions fam_zcdp_lower.
Print Assumptions zcdp_family.
From Implgraph Require Import ZcdpChord.
Print Assumptions rsum_bounded.
Print Assumptions zcdp_within.
Print Assumptions zcdp_chord_pairs.
Print Assumptions rr_kl.
Print Assumptions zcdp_rr_lower.
From Implgraph Require Import ZcdpPairs.
Print Assumptions zcdp_kl_pairs.
Print Assumptions zcdp_renyi_pairs.
From Implgraph Require Import ZcdpCeiling.
Print Assumptions gauss_tail_rho.
Print Assumptions zcdp_family_rho.
Print Assumptions zcdp_self_rho.
Print Assumptions fam_rho_zcdp.
Print Assumptions tail_exact.
From Implgraph Require Import ZcdpRemoval.
Print Assumptions zcdp_rconf.
Print Assumptions zcdp_chord_removal_pairs.
Print Assumptions zcdp_chord_removal_subset.
Print Assumptions zcdp_chord_removal_single.
Print Assumptions zcdp_kl_removal.
Print Assumptions zcdp_renyi_removal.
Print Assumptions rpower_tangent.
Print Assumptions rsum_joint.
Print Assumptions zcdp_means.
Print Assumptions zcdp_pairs_to_removal.
