(* The axiom audit of the library's general lemmas: each should depend only on the standard axioms of
   Coq's real numbers (Stdlib Reals: the classical reals' field and order axioms, completeness,
   archimed, total_order_T, ...), nothing Admitted. *)
From Implgraph Require Import Sums Tables Tactics Extreme Vertex Mass Compose Distance MaxValue.
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
