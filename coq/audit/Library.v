(* The axiom audit of the library's general lemmas: each should depend only on the standard axioms of
   Coq's real numbers (Stdlib Reals: the classical reals' field and order axioms, completeness,
   archimed, total_order_T, ...), nothing Admitted. *)
From Implgraph Require Import Sums Tables Tactics Extreme Vertex Mass Compose Distance MaxValue.
From Implgraph Require Import Events Columns DistanceLemmas RatioLemmas Declared Entropy Slack SetChannel Views Transport.
From Implgraph Require Import ExtremePoints Bayes.
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
