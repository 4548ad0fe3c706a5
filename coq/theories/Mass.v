(** [set-mass]: a one-sided ratio over sets of at least [s] records is at most [N / s] on every table,
    whatever A is (a set's sum is at most the table's: values are nonnegative). *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables.
Open Scope R_scope.

Lemma mass_upper N K x b S s :
  table N K x -> (b < K)%nat -> 0 < s -> s <= card N S -> upper_ok N S (col x b) (INR N / s).
Proof.
  intros Htab Hb Hs HS. unfold upper_ok.
  assert (Hnn := col_nonneg N K x b Htab Hb).
  assert (H1 : sumS N S (col x b) <= sum N (col x b)) by (apply sumS_le_sum; exact Hnn).
  assert (H0 : 0 <= sumS N S (col x b)) by (apply sumS_nonneg; exact Hnn).
  pose proof (pos_INR N).
  replace (INR N / s * (card N S * sum N (col x b))) with (INR N * (card N S / s) * sum N (col x b)) by (field; lra).
  assert (1 <= card N S / s) by (apply Rmult_le_reg_r with s; [lra|]; unfold Rdiv; rewrite Rmult_assoc, Rinv_l; lra).
  assert (INR N * 1 <= INR N * (card N S / s)) by (apply Rmult_le_compat_l; lra).
  nra.
Qed.

Theorem set_mass_subset N K x s :
  table N K x -> 0 < s -> subset_le OneSided N K x s (INR N / s).
Proof.
  intros Htab Hs b S Hb HS. split; [apply (mass_upper N K); auto; lra|discriminate].
Qed.

Theorem set_mass_class N K x cls s :
  table N K x -> 0 < s -> (forall i, (i < N)%nat -> s <= card N (classof cls i)) ->
  class_le OneSided N K x cls (INR N / s).
Proof.
  intros Htab Hs Hcls b i Hb Hi. split; [apply (mass_upper N K); auto|discriminate].
Qed.
