(** A parameter that is a minimum class size above the level's weakest only (p-sensitive k-anonymity's k: a table
    with a class of fewer than k records is at the weakest level, p = 0, which every table meets): the level at
    least T, for T stronger than the weakest level [w], says the classes have at least k records, and [rest] (the
    rest of the definition, whatever it is). At the weakest level itself it says nothing of the classes. *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables.
Open Scope R_scope.

(** A level where larger is stronger, at least [T]: above the weakest level [w], classes of at least [k] records. *)
Definition floor_above_level (N : nat) (cls : nat -> nat) (k w T : R) (rest : Prop) : Prop :=
  (w < T -> class_size_ge N cls k) /\ rest.

(** [class-floor-above-weakest]: such a level at a T above the weakest bounds the smallest class's size by [k]. *)
Theorem class_size_floor_above N cls k w T rest :
  w < T -> floor_above_level N cls k w T rest -> class_size_ge N cls k.
Proof. intros Hw [H _]. exact (H Hw). Qed.
