(** Composition of bounds: the smaller of two bounds is a bound ([min]), a chain of bounds composes
    ([chain]), and a ratio level at most T is at most any larger T' (the levels are monotone). *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables.
Open Scope R_scope.

Lemma min_bound (P : R -> Prop) a b : P a -> P b -> P (Rmin a b).
Proof. intros Ha Hb. unfold Rmin. destruct (Rle_dec a b); assumption. Qed.

Lemma max_bound (P : R -> Prop) a b : P a -> P b -> P (Rmax a b).
Proof. intros Ha Hb. unfold Rmax. destruct (Rle_dec a b); assumption. Qed.

(** A => X at the same level, X => B with bound f: A => B with bound f. *)
Lemma chain (A X B : R -> Prop) (f : R -> R) :
  (forall t, A t -> X t) -> (forall t, X t -> B (f t)) -> forall t, A t -> B (f t).
Proof. intros H1 H2 t Ht. apply H2, H1, Ht. Qed.

Lemma ratio_ok_mono sd N S c T T' :
  (forall i, (i < N)%nat -> 0 <= c i) -> T <= T' -> ratio_ok sd N S c T -> ratio_ok sd N S c T'.
Proof.
  intros Hnn HT [Hup Hlow]. unfold ratio_ok, upper_ok, lower_ok in *.
  assert (0 <= sum N c) by (apply sum_nonneg; exact Hnn).
  assert (0 <= sumS N S c) by (apply sumS_nonneg; exact Hnn).
  pose proof (card_nonneg N S). pose proof (pos_INR N).
  split.
  - assert (0 <= card N S * sum N c) by (apply Rmult_le_pos; lra).
    assert (T * (card N S * sum N c) <= T' * (card N S * sum N c)) by (apply Rmult_le_compat_r; lra). lra.
  - intro Hsd. specialize (Hlow Hsd). assert (0 <= INR N * sumS N S c) by (apply Rmult_le_pos; lra).
    assert (T * (INR N * sumS N S c) <= T' * (INR N * sumS N S c)) by (apply Rmult_le_compat_r; lra). lra.
Qed.

Lemma subset_le_mono sd N K x j T T' :
  table N K x -> T <= T' -> subset_le sd N K x j T -> subset_le sd N K x j T'.
Proof.
  intros Htab HT H b S Hb HS. apply ratio_ok_mono with T; auto. apply col_nonneg with K; auto.
Qed.

Lemma class_le_mono sd N K x cls T T' :
  table N K x -> T <= T' -> class_le sd N K x cls T -> class_le sd N K x cls T'.
Proof.
  intros Htab HT H b i Hb Hi. apply ratio_ok_mono with T; auto. apply col_nonneg with K; auto.
Qed.

Lemma pairwise_le_mono N K x T T' :
  table N K x -> T <= T' -> pairwise_le N K x T -> pairwise_le N K x T'.
Proof.
  intros [Hnn _] HT H b i k Hb Hi Hk. specialize (H b i k Hb Hi Hk).
  assert (0 <= x k b) by (apply Hnn; auto). nra.
Qed.

(** A bound written differently: where [U = bound], a level at most [bound] is at most [U]. *)
Lemma level_eq (P : R -> Prop) (U bound : R) : U = bound -> P bound -> P U.
Proof. intros ->. exact (fun H => H). Qed.

(** [composition]: the first part's bound [h = P / Q] is a threshold the second part covers ([h >= r], [h > r]),
    shown by its polynomial form; the generated proof then applies the second part's theorem at [T = h]. *)
Lemma ge_from_ratio h P Q r : h = P / Q -> 0 < Q -> 0 <= P - Q * r -> h >= r.
Proof.
  intros -> HQ H. apply Rle_ge. apply (Rmult_le_reg_r Q); [exact HQ|].
  unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra.
Qed.

Lemma gt_from_ratio h P Q r : h = P / Q -> 0 < Q -> 0 < P - Q * r -> h > r.
Proof.
  intros -> HQ H. apply Rlt_gt. apply (Rmult_lt_reg_r Q); [exact HQ|].
  unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra.
Qed.
