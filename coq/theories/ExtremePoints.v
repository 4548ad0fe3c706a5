(** [quasi-convex-extreme-points] (method [extreme-points], implgraph.certify.lemmas.extreme_points): A an
    additive slack [da] between any two records ([Tables.slack_pairs_le]; a pairwise ratio level is the slack 0,
    [pairwise_slack]), B the table against the table without one record with a slack [d]
    ([DistanceLemmas.slack_removal_le]).

    The reduction to a polygon, proved once: for an event [E] and the removed record [k], B's two requirements
    depend on [u], record [k]'s mass on [E], and [v], the mean mass of the others, only (the table's mean is
    [(u + (N - 1) v) / N]). A's comparisons of record [k] with each other record, on [E] and on its complement,
    averaged over the others, put [(u, v)] in the polygon [ep_polygon] (the box and the four sides
    [T q - p + da >= 0] on both "buckets" [E] and its complement). So B holds at [U] wherever both requirements
    (times [N]) are at most [U] on the polygon ([ep_obl]): a certificate proves that, for each requirement
    [n / den], by [D (P den - Q n) = sum mu_k g_k + mu_0] with [D > 0], every [mu_k >= 0], [U = P / Q], [Q > 0]
    ([ep_req]). Averaging replaces the engine's symmetrisation over the permutations: it is all a pairwise
    comparison needs. *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Tactics Events Columns DistanceLemmas Slack.
Open Scope R_scope.

(** A's condition on one record at [u] and the others' mean [v]: the box, and each comparison on [E] and on
    its complement. *)
Definition ep_polygon (T da u v : R) : Prop :=
  0 <= u /\ 0 <= 1 - u /\ 0 <= v /\ 0 <= 1 - v /\
  0 <= T * v - u + da /\ 0 <= T * u - v + da /\
  0 <= T * (1 - v) - (1 - u) + da /\ 0 <= T * (1 - u) - (1 - v) + da.

(** Both requirements of B at most [U] on the polygon, times [N]: [(P - d) / Q_k] and [(Q_k - d) / P]. *)
Definition ep_obl (N T da d U : R) : Prop :=
  forall u v, ep_polygon T da u v ->
    (u + (N - 1) * v) - N * d <= U * (N * v) /\ N * (v - d) <= U * (u + (N - 1) * v).

(** A pairwise ratio level is an additive slack 0 between two records (summed over an event's buckets). *)
Lemma pairwise_slack N K x T : pairwise_le N K x T -> slack_pairs_le N K x 0 T.
Proof.
  intros HA E i k Hi Hk. rewrite Rplus_0_r. exact (pairwise_event N K x T E i k HA Hi Hk).
Qed.

(** A bound every other record meets, averaged over the others. *)
Lemma others_avg N k (f : nat -> R) a b c : (k < N)%nat ->
  (forall i, (i < N)%nat -> i <> k -> a <= b * f i + c) ->
  (INR N - 1) * a <= b * sumS N (others k) f + c * (INR N - 1).
Proof.
  intros Hk H. pose proof (sumS_others_ge N k (fun i => b * f i + c) a H) as G.
  fold (others k) in G. rewrite card_others in G by exact Hk.
  rewrite sumS_plus, sumS_const, sumS_scal, card_others in G by exact Hk. lra.
Qed.

(** The averaged comparisons: record [k] at [c k], the others' sum [Q] ([(N - 1) v]). *)
Lemma ep_sums N K x T da E k : table N K x -> (k < N)%nat -> slack_pairs_le N K x da T ->
  let c := emass K E x in let Q := sumS N (others k) c in
  0 <= Q <= INR N - 1 /\
  (INR N - 1) * c k <= T * Q + da * (INR N - 1) /\
  (INR N - 1) * (- (T * c k + da)) <= - 1 * Q + 0 * (INR N - 1) /\
  (INR N - 1) * (1 - c k - T - da) <= - T * Q + 0 * (INR N - 1) /\
  (INR N - 1) * (1 - T * (1 - c k) - da) <= 1 * Q + 0 * (INR N - 1).
Proof.
  intros Htab Hk HA c Q.
  assert (Hcb : forall i, (i < N)%nat -> 0 <= c i <= 1) by (apply emass_bounds; exact Htab).
  assert (Hc : forall E' i, (i < N)%nat -> emass K (compl E') x i = 1 - emass K E' x i)
    by (intros; apply (emass_compl N K); auto).
  assert (H0 : (INR N - 1) * 0 <= 1 * Q + 0 * (INR N - 1))
    by (apply others_avg; auto; intros i Hi _; pose proof (Hcb i Hi); lra).
  assert (H1 : (INR N - 1) * (-1) <= -1 * Q + 0 * (INR N - 1))
    by (apply others_avg; auto; intros i Hi _; pose proof (Hcb i Hi); lra).
  repeat split; [lra | lra | | | |].
  - apply others_avg; auto. intros i Hi _. exact (HA E k i Hk Hi).
  - apply others_avg; auto. intros i Hi _. pose proof (HA E i k Hi Hk) as H.
    change (c i <= T * c k + da) in H. lra.
  - apply others_avg; auto. intros i Hi _. pose proof (HA (compl E) k i Hk Hi) as H.
    change (emass K (compl E) x k <= T * emass K (compl E) x i + da) in H.
    rewrite !Hc in H by auto. fold c in H. lra.
  - apply others_avg; auto. intros i Hi _. pose proof (HA (compl E) i k Hi Hk) as H.
    change (emass K (compl E) x i <= T * emass K (compl E) x k + da) in H.
    rewrite !Hc in H by auto. fold c in H. lra.
Qed.

(** [0 <= g] from [0 <= a g - ...] written as [a * lhs <= a * rhs], [a > 0]. *)
Lemma scaled_le a l r : 0 < a -> a * l <= a * r -> l <= r.
Proof. intros Ha H. apply Rmult_le_reg_l with a; assumption. Qed.

(** [quasi-convex-extreme-points] for an additive slack [da] between two records. *)
Theorem extreme_points N K x T da d U :
  table N K x -> 2 <= INR N -> slack_pairs_le N K x da T -> ep_obl (INR N) T da d U ->
  slack_removal_le N K x d U.
Proof.
  intros Htab HN HA Hob E k Hk.
  destruct (ep_sums N K x T da E k Htab Hk HA) as [HQ [H1 [H2 [H3 H4]]]].
  set (c := emass K E x) in *. set (Q := sumS N (others k) c) in *.
  assert (HD : sum N c = Q + c k) by (unfold Q; rewrite sum_others by exact Hk; ring).
  assert (HN1 : 0 < INR N - 1) by lra.
  set (v := Q / (INR N - 1)).
  assert (HQv : Q = (INR N - 1) * v) by (unfold v; field; lra).
  rewrite HQv in HQ, H1, H2, H3, H4.
  assert (Hcb : 0 <= c k <= 1) by (apply (emass_bounds N K E x Htab k Hk)).
  destruct (Hob (c k) v) as [R1 R2].
  { unfold ep_polygon. repeat split; try lra;
      apply (scaled_le (INR N - 1)); try lra; ring_simplify; ring_simplify in H1; ring_simplify in H2;
      ring_simplify in H3; ring_simplify in H4; lra. }
  rewrite HD. replace (Q + c k - c k) with Q by ring. rewrite HQv.
  replace ((INR N - 1) * v / (INR N - 1)) with v by (field; lra).
  split.
  - apply (scaled_le (INR N)); [lra|].
    replace (INR N * (((INR N - 1) * v + c k) / INR N)) with (c k + (INR N - 1) * v) by (field; lra).
    lra.
  - apply (scaled_le (INR N)); [lra|].
    replace (INR N * (U * (((INR N - 1) * v + c k) / INR N) + d))
      with (U * (c k + (INR N - 1) * v) + INR N * d) by (field; lra).
    lra.
Qed.

(** The same for a pairwise ratio level (slack 0). *)
Theorem extreme_points_ratio N K x T d U :
  table N K x -> 2 <= INR N -> pairwise_le N K x T -> ep_obl (INR N) T 0 d U -> slack_removal_le N K x d U.
Proof. intros Htab HN HA Hob. exact (extreme_points N K x T 0 d U Htab HN (pairwise_slack N K x T HA) Hob). Qed.

(** One requirement [n <= U den] from a certificate's data: [U = P / Q], [Q > 0], a scale [D > 0] and
    [D (P den - Q n) = S] with [S >= 0] (the multipliers' combination of the polygon's sides). *)
Lemma ep_req n den U P Q D S :
  U = P / Q -> 0 < Q -> 0 < D -> D * (P * den - Q * n) = S -> 0 <= S -> n <= U * den.
Proof.
  intros -> HQ HD HS H. apply (scaled_le (D * Q)); [apply Rmult_lt_0_compat; lra|].
  replace (D * Q * (P / Q * den)) with (D * (P * den)) by (field; lra).
  assert (0 <= D * (P * den - Q * n)) by lra. nra.
Qed.

(** [0 < p] for a product of powers of terms each shown [> 0] by [lra] (signs on a domain from its factored
    conditions). *)
Ltac pos_prod :=
  match goal with
  | |- 0 < _ * _ => apply Rmult_lt_0_compat; pos_prod
  | |- 0 < _ ^ _ => apply pow_lt; pos_prod
  | |- _ => lra
  end.
