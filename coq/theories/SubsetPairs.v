(** A two-sided subset level of size [j] bounds the total variation between any two records by [j (1 - 1/T)] and by 1
    (implgraph.certify.lemmas.subset_pairs; docs/arguments/subset-pairs.md), stated as the additive slack on every
    event it is: [x_i(E) <= x_k(E) + U] ([slack_pairs_le N K x U 1]; the library's divergence predicate would also ask
    domination, which a subset level of size [j >= 2] does not give).

    For records [i <> k] take [W] any [j - 1] of the other [N - 2] records ([pair_sets]). [W] with [k] is a set of [j]
    records, so on the event [E] its mass is at least [j P(E)/T]; [W] with [i] likewise on the complement of [E], its
    mass at least [j (1 - P(E))/T]. Summed: [x_i(E) - x_k(E) <= j - j/T] ([pairs_col], on the event's column and its
    complement's, [1 - x(E)]). *)
From Coq Require Import Reals Lra Lia Bool.
From Implgraph Require Import Sums Tables Tactics Extreme Events Entropy RemovalChordPieces.
Open Scope R_scope.

(** * [j - 1] records other than [i] and [k] *)
Lemma pair_sets N i k m : (i < N)%nat -> (k < N)%nat -> i <> k -> (m <= N - 2)%nat ->
  exists W, W i = false /\ W k = false /\ cnt N W = m.
Proof.
  intros Hi Hk Hne Hm.
  set (X := remove (remove (fun _ => true) i) k).
  assert (Xk : remove (fun _ => true) i k = true)
    by (unfold remove; simpl; destruct (Nat.eqb_spec k i); [congruence | reflexivity]).
  assert (HX : cnt N X = (N - 2)%nat) by (unfold X; rewrite cnt_remove, others_cnt by auto; lia).
  destruct (sub_mean_ge0 N (fun _ => 0) (N - 2) X HX m Hm) as [W [Ws [HW _]]].
  exists W. split; [| split; [| exact HW]].
  - destruct (W i) eqn:E; [| reflexivity]. apply Ws in E. unfold X, remove in E.
    rewrite Nat.eqb_refl in E. simpl in E. discriminate.
  - destruct (W k) eqn:E; [| reflexivity]. apply Ws in E. unfold X, remove in E.
    rewrite Nat.eqb_refl in E. rewrite andb_false_r in E. discriminate.
Qed.

(** * One column and its complement's *)
Lemma pairs_col N (c c' : nat -> R) j T i k :
  subset_col TwoSided N c j T -> subset_col TwoSided N c' j T -> (forall r, (r < N)%nat -> c' r = 1 - c r) ->
  IsNat j -> 1 <= j -> j <= INR N - 1 -> 0 < T -> (i < N)%nat -> (k < N)%nat -> i <> k ->
  c i - c k <= j * (1 - 1 / T).
Proof.
  intros Hc Hc' Hcc [nj Ej] Hj1 HjN HT Hi Hk Hne.
  assert (Hn1 : (1 <= nj)%nat) by (apply INR_le; rewrite Ej; simpl; lra).
  assert (Hm : (nj - 1 <= N - 2)%nat).
  { assert (INR nj <= INR (N - 1)) by (rewrite minus_INR by (apply INR_le; simpl; lra); simpl; lra).
    apply INR_le in H. lia. }
  destruct (pair_sets N i k (nj - 1) Hi Hk Hne Hm) as [W [Wi [Wk HW]]].
  assert (Hcard : forall r, (r < N)%nat -> W r = false -> card N (addone W r) = j).
  { intros r Hr Wr. rewrite card_addone, card_cnt, HW, minus_INR by auto. rewrite Ej. simpl. ring. }
  assert (HN : 0 < INR N) by lra.
  destruct (Hc (addone W k) (Hcard k Hk Wk)) as [_ L2]. specialize (L2 eq_refl). unfold lower_ok in L2.
  rewrite sumS_addone, Hcard in L2 by auto.
  destruct (Hc' (addone W i) (Hcard i Hi Wi)) as [_ L1]. specialize (L1 eq_refl). unfold lower_ok in L1.
  rewrite sumS_addone, Hcard in L1 by auto.
  assert (E1 : sumS N W c' = (j - 1) - sumS N W c).
  { rewrite (sumS_ext_in N W c' (fun r => 1 + - c r)) by (intros r Hr _; rewrite Hcc by exact Hr; ring).
    rewrite sumS_plus, sumS_opp, sumS_const, card_cnt, HW, minus_INR by auto. rewrite Ej. simpl. ring. }
  assert (E2 : sum N c' = INR N - sum N c).
  { rewrite (sum_ext N c' (fun r => 1 - c r)) by (intros r Hr; apply Hcc; exact Hr).
    rewrite sum_minus, sum_const. ring. }
  rewrite E1, E2, (Hcc i Hi) in L1.
  assert (H : j * INR N <= T * INR N * (j + c k - c i)) by lra.
  apply Rmult_le_reg_l with (T * INR N); [nra |].
  replace (T * INR N * (j * (1 - 1 / T))) with (T * INR N * j - j * INR N) by (field; lra). nra.
Qed.

(** * Every two records, every event *)
Theorem subset_pairs N K x j T :
  table N K x -> subset_le TwoSided N K x j T -> IsNat j -> 1 <= j -> j <= INR N - 1 -> 1 <= T ->
  slack_pairs_le N K x (j * (1 - 1 / T)) 1.
Proof.
  intros Htab HA Hj Hj1 HjN HT E i k Hi Hk. unfold mass. rewrite Rmult_1_l.
  destruct (Nat.eq_dec i k) as [<-|Hne].
  - assert (0 <= 1 - 1 / T) by (unfold Rdiv; rewrite Rmult_1_l; rewrite <- Rinv_1 at 1;
                                 assert (/ T <= / 1) by (apply Rinv_le_contravar; lra); lra).
    assert (0 <= j * (1 - 1 / T)) by (apply Rmult_le_pos; lra). lra.
  - pose proof (pairs_col N (emass K E x) (emass K (compl E) x) j T i k (subset_le_event _ _ _ _ _ _ E HA)
                  (subset_le_event _ _ _ _ _ _ (compl E) HA) (fun r Hr => emass_compl N K E x r Htab Hr)
                  Hj Hj1 HjN ltac:(lra) Hi Hk Hne) as H.
    unfold emass in H. lra.
Qed.

(** Total variation is at most 1. *)
Lemma slack_pairs_one N K x : table N K x -> slack_pairs_le N K x 1 1.
Proof.
  intros Htab E i k Hi Hk. pose proof (emass_nonneg N K E x k Htab Hk). pose proof (emass_le1 N K E x i Htab Hi).
  unfold mass. unfold emass in *. lra.
Qed.

(** A larger slack; the smaller of two. *)
Lemma slack_pairs_weaken N K x d d' : slack_pairs_le N K x d 1 -> d <= d' -> slack_pairs_le N K x d' 1.
Proof. intros H Hd E i k Hi Hk. specialize (H E i k Hi Hk). lra. Qed.

Lemma slack_pairs_min N K x a b :
  slack_pairs_le N K x a 1 -> slack_pairs_le N K x b 1 -> slack_pairs_le N K x (Rmin a b) 1.
Proof. intros Ha Hb. unfold Rmin. destruct (Rle_dec a b); assumption. Qed.
