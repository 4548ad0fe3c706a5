(** A one-sided subset level of size [j] bounds the total variation between any two records by [j (T - 1)] and by
    1, and so every hockey-stick at a ratio [g >= 1] (implgraph.certify.lemmas.one_sided_pairs;
    docs/arguments/one-sided-pairs.md), stated as the additive slack on every event it is:
    [x_i(E) <= g x_k(E) + U] ([slack_pairs_le N K x U g]).

    For records [i <> k] take [W] any [j - 1] of the other [N - 2] records ([SubsetPairs.pair_sets]). [W] with [i] is
    a set of [j] records, so on the event [E] its mass is at most [j T P(E)]; [W] with [k] likewise on the
    complement of [E], at most [j T (1 - P(E))]. Summed: [x_i(E) - x_k(E) <= j T - j] ([onesided_col], on the event's
    column and its complement's, [1 - x(E)]). Only the upper side of the ratio is used: pointwise maximal leakage
    ([j = 1]) bounds nothing below. *)
From Coq Require Import Reals Lra Lia Bool.
From Implgraph Require Import Sums Tables Tactics Extreme Events Entropy RemovalChordPieces SubsetPairs.
Open Scope R_scope.

(** * One column and its complement's *)
Lemma onesided_col N (c c' : nat -> R) j T i k :
  subset_col OneSided N c j T -> subset_col OneSided N c' j T -> (forall r, (r < N)%nat -> c' r = 1 - c r) ->
  IsNat j -> 1 <= j -> j <= INR N - 1 -> (i < N)%nat -> (k < N)%nat -> i <> k ->
  c i - c k <= j * (T - 1).
Proof.
  intros Hc Hc' Hcc [nj Ej] Hj1 HjN Hi Hk Hne.
  assert (Hm : (nj - 1 <= N - 2)%nat).
  { assert (INR nj <= INR (N - 1)) by (rewrite minus_INR by (apply INR_le; simpl; lra); simpl; lra).
    apply INR_le in H. lia. }
  destruct (pair_sets N i k (nj - 1) Hi Hk Hne Hm) as [W [Wi [Wk HW]]].
  assert (Hn1 : (1 <= nj)%nat) by (apply INR_le; rewrite Ej; simpl; lra).
  assert (Hcard : forall r, (r < N)%nat -> W r = false -> card N (addone W r) = j).
  { intros r Hr Wr. rewrite card_addone, card_cnt, HW, minus_INR by auto. rewrite Ej. simpl. ring. }
  assert (HN : 0 < INR N) by lra.
  destruct (Hc (addone W i) (Hcard i Hi Wi)) as [U1 _]. unfold upper_ok in U1.
  rewrite sumS_addone, Hcard in U1 by auto.
  destruct (Hc' (addone W k) (Hcard k Hk Wk)) as [U2 _]. unfold upper_ok in U2.
  rewrite sumS_addone, Hcard in U2 by auto.
  assert (E1 : sumS N W c' = (j - 1) - sumS N W c).
  { rewrite (sumS_ext_in N W c' (fun r => 1 + - c r)) by (intros r Hr _; rewrite Hcc by exact Hr; ring).
    rewrite sumS_plus, sumS_opp, sumS_const, card_cnt, HW, minus_INR by auto. rewrite Ej. simpl. ring. }
  assert (E2 : sum N c' = INR N - sum N c).
  { rewrite (sum_ext N c' (fun r => 1 - c r)) by (intros r Hr; apply Hcc; exact Hr).
    rewrite sum_minus, sum_const. ring. }
  rewrite E1, E2, (Hcc k Hk) in U2.
  (* summed: N (j + c i - c k) <= T j N *)
  assert (H : INR N * (c i - c k) <= INR N * (j * (T - 1))) by nra.
  apply Rmult_le_reg_l with (INR N); lra.
Qed.

(** * Every two records, every event: the total variation *)
Theorem onesided_pairs N K x j T :
  table N K x -> subset_le OneSided N K x j T -> IsNat j -> 1 <= j -> j <= INR N - 1 -> 1 <= T ->
  slack_pairs_le N K x (j * (T - 1)) 1.
Proof.
  intros Htab HA Hj Hj1 HjN HT E i k Hi Hk. unfold mass. rewrite Rmult_1_l.
  destruct (Nat.eq_dec i k) as [<-|Hne].
  - assert (0 <= j * (T - 1)) by (apply Rmult_le_pos; lra). lra.
  - pose proof (onesided_col N (emass K E x) (emass K (compl E) x) j T i k (subset_le_event _ _ _ _ _ _ E HA)
                  (subset_le_event _ _ _ _ _ _ (compl E) HA) (fun r Hr => emass_compl N K E x r Htab Hr)
                  Hj Hj1 HjN Hi Hk Hne) as H.
    unfold emass in H. lra.
Qed.

(** * A hockey-stick at a ratio [g >= 1] is at most the total variation *)
Lemma slack_pairs_ratio N K x U g :
  table N K x -> 1 <= g -> slack_pairs_le N K x U 1 -> slack_pairs_le N K x U g.
Proof.
  intros Htab Hg H E i k Hi Hk. specialize (H E i k Hi Hk).
  pose proof (emass_nonneg N K E x k Htab Hk). unfold emass in *. unfold mass in *. nra.
Qed.
