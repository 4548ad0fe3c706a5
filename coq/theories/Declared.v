(** Levels the registry declares by what they imply, formalised:

    - a level that is the size of the smallest class ([class_size_level], k-anonymity): [Tables.class_size_ge], larger
      is stronger;
    - a parameter that is a minimum class size ([min_class_param], (alpha,k)-anonymity): the level is infinite on a
      table with a smaller class, so a finite level says every class has at least that many records, whatever else
      it says ([min_class_level]);
    - a level that is another definition's wherever it is finite ([finite_level_of]), with the condition that makes
      it finite ([increase_cap], enhanced beta-likeness: every class's increase [q/p - 1] over the table's mass [p],
      where [p < q], at most [-ln p]): the level at most T is the other level at most T and the cap
      ([capped_level]).

    The class-size lemmas of the certificates ([class-size]: U = N/T or (N - T)/N) are [Mass.set_mass_class] and
    [Distance.tv_mass] with classes of at least T records. *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables.
Open Scope R_scope.

(** A level whose declaration makes it infinite on a class of fewer than [k] records: at most T says the classes
    have at least [k] records and [rest] (the rest of the definition, whatever it is). *)
Definition min_class_level (N : nat) (cls : nat -> nat) (k : R) (rest : Prop) : Prop :=
  class_size_ge N cls k /\ rest.

(** [class-size-floor]: such a level at a finite T bounds the smallest class's size from below by [k]. *)
Theorem class_size_floor N cls k rest : min_class_level N cls k rest -> class_size_ge N cls k.
Proof. intros [H _]. exact H. Qed.

(** A class's mean mass in a bucket and the table's. *)
Definition class_mean (N : nat) (x : nat -> nat -> R) (cls : nat -> nat) (i b : nat) : R :=
  sumS N (classof cls i) (col x b) / card N (classof cls i).
Definition table_mean (N : nat) (x : nat -> nat -> R) (b : nat) : R := sum N (col x b) / INR N.

(** The increase cap [-ln p] of enhanced beta-likeness. *)
Definition increase_cap_log (N K : nat) (x : nat -> nat -> R) (cls : nat -> nat) : Prop :=
  forall i b, (i < N)%nat -> (b < K)%nat -> table_mean N x b < class_mean N x cls i b ->
    class_mean N x cls i b / table_mean N x b - 1 <= - ln (table_mean N x b).

(** A level that is [level]'s where [cap] holds, and infinite elsewhere: at most T is both. *)
Definition capped_level (level cap : Prop) : Prop := level /\ cap.

(** [declared-finite-level] (method [finite-level-of]): such a level at most T has the other at most T. *)
Theorem finite_level_of level cap : capped_level level cap -> level.
Proof. intros [H _]. exact H. Qed.
