(** Parametric tables and the level kinds of implgraph's certificates, stated as "the raw level is at most T".

    A table has [N] records and [K] buckets; [x i b] is record [i]'s probability of bucket [b]
    (nonnegative, each record's row summing to 1). A level is never computed here: each kind is the
    predicate [level <= T], i.e. every constraint of the definition holds with [T]. For a ratio of
    averages this is the definition of implgraph.certify.levels: [mean_S / mean_D <= T] for every
    bucket and every set [S] of the family ([mean_D / mean_S <= T] too when two-sided), written
    without division ([N * sum_S <= T * |S| * sum_D]), so that [0/0] constrains nothing and [x/0]
    (x > 0) is never at most T, as the Python checker reads them. *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums.
Open Scope R_scope.

Definition table (N K : nat) (x : nat -> nat -> R) : Prop :=
  (forall i b, (i < N)%nat -> (b < K)%nat -> 0 <= x i b) /\
  (forall i, (i < N)%nat -> sum K (fun b => x i b) = 1).

(** One bucket's column. *)
Definition col (x : nat -> nat -> R) (b : nat) : nat -> R := fun i => x i b.

Inductive sides := OneSided | TwoSided.

(** [mean_S <= T mean_D] and, two-sided, [mean_D <= T mean_S], for the records [S] of a column [c]. *)
Definition upper_ok (N : nat) (S : rset) (c : nat -> R) (T : R) : Prop :=
  INR N * sumS N S c <= T * (card N S * sum N c).
Definition lower_ok (N : nat) (S : rset) (c : nat -> R) (T : R) : Prop :=
  card N S * sum N c <= T * (INR N * sumS N S c).
Definition ratio_ok (sd : sides) N S c T : Prop :=
  upper_ok N S c T /\ (sd = TwoSided -> lower_ok N S c T).

(** Pairwise (local) ratio level: every two records' values in every bucket within ratio T. *)
Definition pairwise_le (N K : nat) (x : nat -> nat -> R) (T : R) : Prop :=
  forall b i k, (b < K)%nat -> (i < N)%nat -> (k < N)%nat -> x i b <= T * x k b.

(** Subset ratio level of size [j]: every set of [j] records against the table. *)
Definition subset_le (sd : sides) (N K : nat) x (j T : R) : Prop :=
  forall b S, (b < K)%nat -> card N S = j -> ratio_ok sd N S (col x b) T.

(** Partitions into classes: a label per record; the class of record [i]. *)
Definition classof (cls : nat -> nat) (i : nat) : rset := fun k => Nat.eqb (cls k) (cls i).

(** Classes of at least [s] (and, where given, at most [smax]) records, at least two classes. *)
Definition partition (N : nat) (cls : nat -> nat) (s : R) : Prop :=
  (forall i, (i < N)%nat -> s <= card N (classof cls i)) /\
  (exists i k, (i < N)%nat /\ (k < N)%nat /\ cls i <> cls k).
Definition max_class (N : nat) (cls : nat -> nat) (smax : R) : Prop :=
  forall i, (i < N)%nat -> card N (classof cls i) <= smax.

(** Class ratio level: every class against the table. *)
Definition class_le (sd : sides) (N K : nat) x (cls : nat -> nat) (T : R) : Prop :=
  forall b i, (b < K)%nat -> (i < N)%nat -> ratio_ok sd N (classof cls i) (col x b) T.

(** Events are sets of buckets; a record's (or a mean's) mass on an event. *)
Definition mass (K : nat) (E : rset) (row : nat -> R) : R := sumS K E row.

(** Total variation distance of every class's distribution from the table's, at most T:
    [q_E(E') - p(E') <= T] on every event E' (the largest such difference is the distance). *)
Definition tv_le (N K : nat) x (cls : nat -> nat) (T : R) : Prop :=
  forall i E, (i < N)%nat ->
    mass K E (fun b => sumS N (classof cls i) (col x b) / card N (classof cls i))
    - mass K E (fun b => sum N (col x b) / INR N) <= T.

(** An additive slack between two records: [x_i(E) <= T x_k(E) + delta] on every event. *)
Definition slack_pairs_le (N K : nat) x (delta T : R) : Prop :=
  forall E i k, (i < N)%nat -> (k < N)%nat -> mass K E (fun b => x i b) <= T * mass K E (fun b => x k b) + delta.

(** The size of the smallest class is at least T (larger is stronger). *)
Definition class_size_ge (N : nat) (cls : nat -> nat) (T : R) : Prop :=
  forall i, (i < N)%nat -> T <= card N (classof cls i).

(** A size is a natural number. *)
Definition IsNat (r : R) : Prop := exists n : nat, INR n = r.

Lemma classof_self cls i : classof cls i i = true.
Proof. unfold classof. apply Nat.eqb_refl. Qed.

Lemma col_nonneg N K x b : table N K x -> (b < K)%nat -> forall i, (i < N)%nat -> 0 <= col x b i.
Proof. intros [H _] Hb i Hi. apply H; auto. Qed.
