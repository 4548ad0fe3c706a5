(** B's weakest level, met by every table (implgraph.certify.lemmas.weakest_family; docs/arguments/weakest-family.md):
    the upper bound of a [weakest-family] certificate, whatever A. B a total variation or a hockey stick at [g >= 0]
    between two records is at most 1, stated as its additive slack on every event ([x_i(E) <= g x_k(E) + d], [d >= 1]);
    between the table and the table without one record at most 1/N, both ways ([g >= 1], [d >= 1/N], [N >= 2]); the
    smallest class's size is at least 1; a one-sided ratio of one record's mean to the table's is at most N. *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Events DistanceLemmas.
Open Scope R_scope.

(** Between two records: [x_i(E) <= 1 <= g x_k(E) + d]. *)
Lemma weakest_pairs N K x g d : table N K x -> 0 <= g -> 1 <= d -> slack_pairs_le N K x d g.
Proof.
  intros Htab Hg Hd E i k Hi Hk.
  pose proof (emass_nonneg N K E x k Htab Hk). pose proof (emass_le1 N K E x i Htab Hi).
  unfold emass in *. unfold mass.
  assert (0 <= g * sumS K E (fun b => x k b)) by (apply Rmult_le_pos; lra). lra.
Qed.

(** One record's mass on an event against the sum over the table: [m_k <= S] and [S - m_k <= N - 1]. *)
Lemma one_of_sum N K E x k : table N K x -> (k < N)%nat ->
  emass K E x k <= sum N (emass K E x) /\ sum N (emass K E x) - emass K E x k <= INR N - 1.
Proof.
  intros Htab Hk.
  rewrite <- (sum_single N k (emass K E x) Hk).
  rewrite <- sum_minus. split.
  - apply sum_le. intros i Hi. destruct (Nat.eqb i k); [lra|]. apply (emass_nonneg N K E x i Htab Hi).
  - assert (Hc : sum N (fun i => (if Nat.eqb i k then 1 else 0)) = 1) by (apply (sum_single N k (fun _ => 1) Hk)).
    assert (Hle : sum N (fun i => emass K E x i - (if Nat.eqb i k then emass K E x i else 0))
                  <= sum N (fun i => 1 - (if Nat.eqb i k then 1 else 0))).
    { apply sum_le. intros i Hi. pose proof (emass_le1 N K E x i Htab Hi).
      destruct (Nat.eqb i k); lra. }
    rewrite !sum_minus, sum_const, Hc in Hle. rewrite sum_minus. lra.
Qed.

(** A quotient of a nonnegative number by [N (N - 1)], [N >= 2], is nonnegative. *)
Lemma over_pairs_nonneg N a : 1 < INR N -> 0 <= a -> 0 <= a / (INR N * (INR N - 1)).
Proof.
  intros HN Ha. unfold Rdiv. apply Rmult_le_pos; [exact Ha|].
  apply Rlt_le, Rinv_0_lt_compat, Rmult_lt_0_compat; lra.
Qed.

(** Between the table and the table without one record, both ways: at most [1/N]. *)
Lemma weakest_removal N K x g d : table N K x -> 2 <= INR N -> 1 <= g -> 1 / INR N <= d ->
  slack_removal_le N K x d g.
Proof.
  intros Htab HN2 Hg Hd E k Hk.
  destruct (one_of_sum N K E x k Htab Hk) as [H1 H2].
  pose proof (emass_nonneg N K E x k Htab Hk). pose proof (emass_le1 N K E x k Htab Hk).
  set (S := sum N (emass K E x)) in *. set (m := emass K E x k) in *.
  assert (HR : 0 <= (S - m) / (INR N - 1)).
  { unfold Rdiv. apply Rmult_le_pos; [lra|]. apply Rlt_le, Rinv_0_lt_compat. lra. }
  assert (HP : 0 <= S / INR N).
  { unfold Rdiv. apply Rmult_le_pos; [lra|]. apply Rlt_le, Rinv_0_lt_compat. lra. }
  assert (E1 : (S - m) / (INR N - 1) + 1 / INR N - S / INR N = (S - INR N * m + INR N - 1) / (INR N * (INR N - 1)))
    by (field; lra).
  assert (E2 : S / INR N + 1 / INR N - (S - m) / (INR N - 1) = (INR N - 1 - S + INR N * m) / (INR N * (INR N - 1)))
    by (field; lra).
  assert (F1 : 0 <= (INR N - 1) * (1 - m)) by (apply Rmult_le_pos; lra).
  assert (F2 : 0 <= (INR N - 1) * m) by (apply Rmult_le_pos; lra).
  pose proof (over_pairs_nonneg N (S - INR N * m + INR N - 1) ltac:(lra) ltac:(nra)).
  pose proof (over_pairs_nonneg N (INR N - 1 - S + INR N * m) ltac:(lra) ltac:(nra)).
  assert ((S - m) / (INR N - 1) <= g * ((S - m) / (INR N - 1))) by nra.
  assert (S / INR N <= g * (S / INR N)) by nra.
  split; lra.
Qed.

(** Every class holds at least one record, its own: the smallest class's size is at least 1. *)
Lemma weakest_class_size N cls s : s <= 1 -> class_size_ge N cls s.
Proof.
  intros Hs i Hi. unfold card, sumS.
  pose proof (sum_single N i (fun _ => 1) Hi) as H1. cbv beta in H1.
  assert (sum N (fun j => if Nat.eqb j i then 1 else 0) <= sum N (fun j => if classof cls i j then 1 else 0)).
  { apply sum_le. intros j Hj. destruct (Nat.eqb_spec j i) as [->|_].
    - rewrite classof_self. lra.
    - destruct (classof cls i j); lra. }
  lra.
Qed.

(** One record against the table, one-sided: [N x_i(b) <= d * 1 * sum_k x_k(b)] for [d >= N] (a record's value is at
    most the column's sum): a one-sided ratio of one record to the table is at most N. *)
Lemma weakest_record_ratio N K x d : table N K x -> INR N <= d -> subset_le OneSided N K x 1 d.
Proof.
  intros Htab Hd b S Hb HS. split; [|discriminate].
  unfold upper_ok. rewrite HS.
  assert (H1 : sumS N S (col x b) <= sum N (col x b))
    by (apply sumS_le_sum; intros i Hi; apply (col_nonneg N K x b Htab Hb i Hi)).
  assert (H0 : 0 <= sumS N S (col x b))
    by (apply sumS_nonneg; intros i Hi; apply (col_nonneg N K x b Htab Hb i Hi)).
  pose proof (pos_INR N). nra.
Qed.
