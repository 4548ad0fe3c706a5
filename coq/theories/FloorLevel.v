(** A level whose parameter k is a minimum class size above its weakest level [w] only, and which equals another
    class level X on every table whose classes all have at least k records (p-sensitive k-anonymity: [w = 0], X
    distinct l-diversity, the fewest values a class holds; implgraph.definitions.capabilities.MinClassSizeAboveWeakest
    with [level_of]). "The level is at least T" is [T <= w] (every table meets the weakest level) or classes of at
    least k records with X at least T ([floor_level_ge]). The upper bound of a [weakest-family] certificate whose B is
    such a level ([weakest_floor_level]: at most its weakest, on every table). *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables.
Open Scope R_scope.

(** At least [T]: [T] at most the weakest level [w], or every class of at least [k] records and [X] (the other
    level at least [T]). *)
Definition floor_level_ge (N : nat) (cls : nat -> nat) (k w T : R) (X : Prop) : Prop :=
  T <= w \/ (class_size_ge N cls k /\ X).

(** Every table is at least its weakest level. *)
Lemma weakest_floor_level N cls k w T X : T <= w -> floor_level_ge N cls k w T X.
Proof. intros H. left. exact H. Qed.
