(** [removal-scaling] ([implgraph.certify.lemmas.removal_scaling]): a removal total variation or hockey stick is at
    most 1/N of a record's. The table's mean [P] and the mean [Q_k] without record [k]: [P = (x_k + (N - 1) Q_k)/N],
    so [N (P - g Q_k) = x_k - (g N - N + 1) Q_k] and [N (Q_k - g P) = (N - g (N - 1)) Q_k - g x_k]; where A, an additive
    slack [T] of ratio [ga] between every two records on every event, is averaged over the others, both are at most
    [T] for any ratio [g >= max(1, ga)]: B, the table against the table without each record (both ways, ratio [g],
    [DistanceLemmas.slack_removal_le]), holds with slack [T / N]. Where A already compares the table with the table
    without each record, a larger ratio keeps its slack ([SlackOrder.slack_removal_ratio]). *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Events Columns DistanceLemmas Slack.
Open Scope R_scope.

Theorem removal_scaling N K x T ga g :
  table N K x -> 2 <= INR N -> 1 <= g -> ga <= g ->
  slack_pairs_le N K x T ga -> slack_removal_le N K x (T / INR N) g.
Proof.
  intros Htab HN Hg Hga HA E k Hk.
  rewrite (removal_parts N K E x k Hk).
  set (c := emass K E x).
  assert (Hcb : forall i, (i < N)%nat -> 0 <= c i) by (intros i Hi; exact (emass_nonneg N K E x i Htab Hi)).
  assert (Hpair : forall i m, (i < N)%nat -> (m < N)%nat -> c i <= ga * c m + T)
    by (intros i m Hi Hm; exact (HA E i m Hi Hm)).
  set (S := remove (fun _ => true) k).
  assert (HS : card N S = INR N - 1) by (unfold S; apply card_remove_one; auto).
  set (Q := sumS N S c). set (D := sum N c).
  assert (HD : D = Q + c k) by (unfold D, Q, S; apply sum_remove_one; auto).
  assert (HQ0 : 0 <= Q) by (unfold Q; apply sumS_nonneg; intros; apply Hcb; auto).
  assert (Hck : 0 <= c k) by (apply Hcb; exact Hk).
  assert (HN1 : 0 < INR N - 1) by lra.
  (* the removed record against each other one, averaged: (N - 1) c_k <= ga Q + (N - 1) T *)
  assert (Hk1 : (INR N - 1) * c k <= ga * Q + (INR N - 1) * T).
  { assert (H := sumS_others_ge N k (fun i => ga * c i + T) (c k)
                   (fun i Hi _ => Hpair k i Hk Hi)).
    fold S in H. rewrite HS in H. rewrite sumS_plus, sumS_const, HS in H.
    unfold sumS in H. rewrite sum_ext with (g := fun i => ga * (if S i then c i else 0)) in H.
    2: { intros i _. destruct (S i); ring. }
    rewrite sum_scal in H. fold (sumS N S c) in H. fold Q in H. lra. }
  (* each other record against the removed one, averaged: Q <= (N - 1) (ga c_k + T) *)
  assert (Hq : Q <= (ga * c k + T) * (INR N - 1)).
  { assert (H := sumS_others_le N k c (ga * c k + T) (fun i Hi _ => Hpair i k Hi Hk)).
    fold S in H. rewrite HS in H. exact H. }
  split.
  - (* D / N <= g (Q / (N - 1)) + T / N: N (P - g Q_k) = c_k - (g N - N + 1) Q_k *)
    apply Rmult_le_reg_l with (r := INR N * (INR N - 1)); [nra|].
    replace (INR N * (INR N - 1) * (D / INR N)) with ((INR N - 1) * D) by (field; lra).
    replace (INR N * (INR N - 1) * (g * (Q / (INR N - 1)) + T / INR N))
      with (INR N * g * Q + (INR N - 1) * T) by (field; lra).
    rewrite HD.
    assert (0 <= ((g - 1) * (INR N - 1) + (g - ga)) * Q) by (apply Rmult_le_pos; nra).
    nra.
  - (* Q / (N - 1) <= g (D / N) + T / N: N (Q_k - g P) = (N - g (N - 1)) Q_k - g c_k *)
    apply Rmult_le_reg_l with (r := INR N * (INR N - 1)); [nra|].
    replace (INR N * (INR N - 1) * (Q / (INR N - 1))) with (INR N * Q) by (field; lra).
    replace (INR N * (INR N - 1) * (g * (D / INR N) + T / INR N))
      with ((INR N - 1) * (g * D + T)) by (field; lra).
    rewrite HD.
    assert (0 <= (INR N - 1) * ((g - 1) * Q)) by (apply Rmult_le_pos; nra).
    assert (0 <= (INR N - 1) * ((g - ga) * c k)) by (apply Rmult_le_pos; nra).
    nra.
Qed.
