(** Additive slacks on record removal as the target ([implgraph.certify.lemmas.slack_target_removal] and
    [slack_averaging]): the table against the table without one record, with an additive slack delta on every
    event ([DistanceLemmas.slack_removal_le]). *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Events Columns DistanceLemmas.
Open Scope R_scope.

(** On the records other than [k]: their sum, and the bounds every record meets averaged over them. *)
Lemma sumS_others_le N k (f : nat -> R) c :
  (forall i, (i < N)%nat -> i <> k -> f i <= c) ->
  sumS N (remove (fun _ => true) k) f <= c * card N (remove (fun _ => true) k).
Proof.
  intro H. rewrite <- sumS_const. apply sumS_le. intros i Hi Hr.
  unfold remove in Hr. apply Bool.andb_true_iff in Hr as [_ Hr].
  apply Bool.negb_true_iff, Nat.eqb_neq in Hr. apply H; auto.
Qed.

Lemma sumS_others_ge N k (f : nat -> R) c :
  (forall i, (i < N)%nat -> i <> k -> c <= f i) ->
  c * card N (remove (fun _ => true) k) <= sumS N (remove (fun _ => true) k) f.
Proof.
  intro H. rewrite <- sumS_const. apply sumS_le. intros i Hi Hr.
  unfold remove in Hr. apply Bool.andb_true_iff in Hr as [_ Hr].
  apply Bool.negb_true_iff, Nat.eqb_neq in Hr. apply H; auto.
Qed.

(** The two masses of [slack_removal_le] as a sum over the others and the removed record. *)
Lemma removal_parts N K E x k : (k < N)%nat ->
  sum N (emass K E x) - emass K E x k = sumS N (remove (fun _ => true) k) (emass K E x).
Proof. intro Hk. rewrite (sum_remove_one N k _ Hk). ring. Qed.

(** [slack-target-removal]: a two-sided subset level of size N - 1 at T (the table against the table without one
    record, no slack) gives the additive-slack comparison at T with any slack [d >= 0]. *)
Theorem slack_target_removal N K x j d T :
  table N K x -> 2 <= INR N -> j = INR N - 1 -> 0 <= d ->
  subset_le TwoSided N K x j T -> slack_removal_le N K x d T.
Proof.
  intros Htab HN Hj Hd HA E k Hk.
  pose proof (subset_le_event TwoSided N K x j T E HA) as HE.
  set (S := remove (fun _ => true) k).
  assert (HS : card N S = j) by (unfold S; rewrite card_remove_one; auto).
  destruct (HE S HS) as [Hup Hlow]. specialize (Hlow eq_refl).
  unfold upper_ok, lower_ok in Hup, Hlow. rewrite HS in Hup, Hlow.
  rewrite (removal_parts N K E x k Hk). fold S.
  set (D := sum N (emass K E x)) in *. set (Q := sumS N S (emass K E x)) in *.
  subst j.
  assert (HN1 : 0 < INR N - 1) by lra.
  split.
  - (* D / N <= T (Q / (N - 1)) + d, from (N - 1) D <= T N Q *)
    apply Rle_trans with (r2 := T * (Q / (INR N - 1))); [|lra].
    replace (T * (Q / (INR N - 1))) with ((T * (INR N * Q)) / (INR N * (INR N - 1))) by (field; lra).
    replace (D / INR N) with (((INR N - 1) * D) / (INR N * (INR N - 1))) by (field; lra).
    apply Rmult_le_compat_r; [|lra].
    left. apply Rinv_0_lt_compat. nra.
  - (* Q / (N - 1) <= T (D / N) + d, from N Q <= T (N - 1) D *)
    apply Rle_trans with (r2 := T * (D / INR N)); [|lra].
    replace (T * (D / INR N)) with ((T * ((INR N - 1) * D)) / (INR N * (INR N - 1))) by (field; lra).
    replace (Q / (INR N - 1)) with ((INR N * Q) / (INR N * (INR N - 1))) by (field; lra).
    apply Rmult_le_compat_r; [|lra].
    left. apply Rinv_0_lt_compat. nra.
Qed.

(** [slack-pairs-to-removal] ([slack-averaging]): an additive slack [da] between any two records at T >= 1 gives
    the one on record removal at T with any slack [db >= da]: the removed record against the others' mean, averaged
    over the others; each other record against the table's mean, averaged over the table and then the others. *)
Theorem slack_averaging N K x da db T :
  table N K x -> 2 <= INR N -> 1 <= T -> 0 <= da -> da <= db ->
  slack_pairs_le N K x da T -> slack_removal_le N K x db T.
Proof.
  intros Htab HN HT Hda Hdb HA E k Hk.
  rewrite (removal_parts N K E x k Hk).
  set (c := emass K E x).
  assert (Hcb : forall i, (i < N)%nat -> 0 <= c i) by (intros i Hi; exact (emass_nonneg N K E x i Htab Hi)).
  assert (Hpair : forall i m, (i < N)%nat -> (m < N)%nat -> c i <= T * c m + da)
    by (intros i m Hi Hm; exact (HA E i m Hi Hm)).
  set (S := remove (fun _ => true) k).
  assert (HS : card N S = INR N - 1) by (unfold S; apply card_remove_one; auto).
  set (Q := sumS N S c). set (D := sum N c).
  assert (HD : D = Q + c k) by (unfold D, Q, S; apply sum_remove_one; auto).
  assert (HQ0 : 0 <= Q) by (unfold Q; apply sumS_nonneg; intros; apply Hcb; auto).
  assert (HN1 : 0 < INR N - 1) by lra.
  (* the removed record against the others: (N - 1) c_k <= T Q + (N - 1) da *)
  assert (Hk1 : (INR N - 1) * c k <= T * Q + (INR N - 1) * da).
  { assert (H := sumS_others_ge N k (fun i => T * c i + da) (c k)
                   (fun i Hi _ => Hpair k i Hk Hi)).
    fold S in H. rewrite HS in H. rewrite sumS_plus, sumS_const, HS in H.
    unfold sumS in H. rewrite sum_ext with (g := fun i => T * (if S i then c i else 0)) in H.
    2: { intros i _. destruct (S i); ring. }
    rewrite sum_scal in H. fold (sumS N S c) in H. fold Q in H. lra. }
  (* every record against the table: N c_i <= T D + N da *)
  assert (Hall : forall i, (i < N)%nat -> INR N * c i <= T * D + INR N * da).
  { intros i Hi. unfold D. rewrite <- sum_const with (c := c i).
    replace (T * sum N c + INR N * da) with (sum N (fun m => T * c m + da))
      by (rewrite sum_plus, sum_scal, sum_const; ring).
    apply sum_le. intros m Hm. apply Hpair; auto. }
  (* averaged over the others: N Q <= (N - 1) (T D + N da) *)
  assert (Hq : INR N * Q <= (INR N - 1) * (T * D + INR N * da)).
  { assert (H := sumS_others_le N k (fun i => INR N * c i) (T * D + INR N * da)
                   (fun i Hi _ => Hall i Hi)).
    fold S in H. rewrite HS in H.
    unfold sumS in H. rewrite sum_ext with (g := fun i => INR N * (if S i then c i else 0)) in H.
    2: { intros i _. destruct (S i); ring. }
    rewrite sum_scal in H. fold (sumS N S c) in H. fold Q in H. lra. }
  split.
  - (* D / N <= T (Q / (N - 1)) + db *)
    assert (Hgoal : (INR N - 1) * D <= INR N * (T * Q + (INR N - 1) * db)).
    { rewrite HD.
      assert (H1 : 0 <= (INR N - 1) * ((T - 1) * Q)) by (apply Rmult_le_pos; [lra | apply Rmult_le_pos; lra]).
      assert (H2 : 0 <= (INR N - 1) * (INR N * db - da)) by (apply Rmult_le_pos; [lra | nra]).
      nra. }
    apply Rmult_le_reg_l with (r := INR N * (INR N - 1)); [nra|].
    replace (INR N * (INR N - 1) * (D / INR N)) with ((INR N - 1) * D) by (field; lra).
    replace (INR N * (INR N - 1) * (T * (Q / (INR N - 1)) + db)) with (INR N * (T * Q + (INR N - 1) * db))
      by (field; lra).
    exact Hgoal.
  - (* Q / (N - 1) <= T (D / N) + db *)
    apply Rmult_le_reg_l with (r := INR N * (INR N - 1)); [nra|].
    replace (INR N * (INR N - 1) * (Q / (INR N - 1))) with (INR N * Q) by (field; lra).
    replace (INR N * (INR N - 1) * (T * (D / INR N) + db)) with ((INR N - 1) * (T * D + INR N * db))
      by (field; lra).
    assert (0 <= (INR N - 1) * (INR N * (db - da))) by (apply Rmult_le_pos; [lra | apply Rmult_le_pos; lra]).
    nra.
Qed.
