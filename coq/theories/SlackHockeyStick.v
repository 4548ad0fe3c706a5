(** [slack-hockey-stick] ([implgraph.certify.lemmas.slack_hockey_stick]): an additive slack [d] at the ratio [T]
    between every two records ([Tables.slack_pairs_le]: an (eps, delta) level) bounds the hockey-stick slack at a
    ratio [g], between two records and on record removal (Kairouz, Oh and Viswanath 2015's dominating pair).

    The hockey-stick at [g] is the largest [x(E) - g y(E)] over the events, so B at most [U] is the slack [U] at the
    ratio [g]: [slack_pairs_le N K x U g] between records, [slack_removal_le N K x U g] on record removal.

    - The pair step ([kov_step]): [u <= T v + d] and [1 - v <= T (1 - u) + d] with [T, g >= 1], [v >= 0] give
      [u - g v <= max(d, (T - g + (1 + g) d)/(T + 1))], split at [v = (1 - d)/(T + 1)].
    - Between records ([slack_hockey_pairs]): [u = x_i(E)], [v = x_k(E)] (A on [E], and on its complement the other
      way).
    - On record removal ([slack_hockey_removal], [g (N - 1) >= N]): [u = x_k(E)], [v = Q_k(E)] the others' mean (A
      averaged over the others) at the ratio [1 + N (g - 1)], since [P - g Q_k = (x_k - (1 + N (g - 1)) Q_k)/N]; and
      [Q_k - g P = ((N - g (N - 1)) Q_k - g x_k)/N <= 0]. *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Events Columns DistanceLemmas Slack.
Open Scope R_scope.

(** The pair step: the linear program's two vertices. *)
Lemma kov_step u v T g d :
  1 <= T -> 1 <= g -> 0 <= v -> u <= T * v + d -> 1 - v <= T * (1 - u) + d ->
  u <= g * v + Rmax d ((T - g + (1 + g) * d) / (T + 1)).
Proof.
  intros HT Hg Hv H1 H2.
  set (K := (T - g + (1 + g) * d) / (T + 1)).
  assert (HK : (T + 1) * K = T - g + (1 + g) * d) by (unfold K; field; lra).
  destruct (Rle_lt_dec ((1 - d) / (T + 1)) v) as [Hw | Hw].
  - assert (Hw' : 1 - d <= (T + 1) * v).
    { replace (1 - d) with ((T + 1) * ((1 - d) / (T + 1))) by (field; lra).
      apply Rmult_le_compat_l; lra. }
    assert (Hp : (g * T - 1) * (1 - d) <= (g * T - 1) * ((T + 1) * v)) by (apply Rmult_le_compat_l; nra).
    assert (H2' : (T + 1) * (T * u) <= (T + 1) * (T - 1 + v + d)) by (apply Rmult_le_compat_l; lra).
    assert (Hu : u <= g * v + K).
    { apply Rmult_le_reg_l with (r := T * (T + 1)); [nra|].
      replace (T * (T + 1) * (g * v + K)) with (T * (T + 1) * g * v + T * ((T + 1) * K)) by ring.
      rewrite HK. nra. }
    pose proof (Rmax_r d K). lra.
  - assert (Hw' : (T + 1) * v <= 1 - d).
    { replace (1 - d) with ((T + 1) * ((1 - d) / (T + 1))) by (field; lra).
      apply Rmult_le_compat_l; lra. }
    destruct (Rle_lt_dec g T) as [HgT | HgT].
    + assert (Hp : (T - g) * ((T + 1) * v) <= (T - g) * (1 - d)) by (apply Rmult_le_compat_l; lra).
      assert (Hu : u <= g * v + K).
      { apply Rmult_le_reg_l with (r := T + 1); [lra|].
        rewrite Rmult_plus_distr_l, HK. nra. }
      pose proof (Rmax_r d K). lra.
    + assert (Hu : u <= g * v + d) by nra.
      pose proof (Rmax_l d K). lra.
Qed.

(** Between records: the slack [d] at [T >= 1] gives the hockey-stick at [g >= 1] at most
    [max(d, (T - g + (1 + g) d)/(T + 1))]. *)
Theorem slack_hockey_pairs N K x d T g :
  table N K x -> 1 <= T -> 1 <= g -> slack_pairs_le N K x d T ->
  slack_pairs_le N K x (Rmax d ((T - g + (1 + g) * d) / (T + 1))) g.
Proof.
  intros Htab HT Hg HA E i k Hi Hk.
  pose proof (HA E i k Hi Hk) as H1. pose proof (HA (compl E) k i Hk Hi) as H2.
  pose proof (emass_nonneg N K E x k Htab Hk) as Hv.
  change (emass K (compl E) x k <= T * emass K (compl E) x i + d) in H2.
  rewrite (emass_compl N K E x k Htab Hk), (emass_compl N K E x i Htab Hi) in H2.
  unfold emass in H2, Hv. unfold mass in *.
  apply kov_step; lra.
Qed.

(** [Rmax] of two quotients by the same positive [n]. *)
Lemma Rmax_div a b n : 0 < n -> Rmax (a / n) (b / n) = Rmax a b / n.
Proof.
  intro Hn. destruct (Rle_dec a b) as [Hab | Hab].
  - rewrite (Rmax_right a b Hab). apply Rmax_right.
    unfold Rdiv. apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; lra | exact Hab].
  - rewrite (Rmax_left a b) by lra. apply Rmax_left.
    unfold Rdiv. apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; lra | lra].
Qed.

(** The removal step on reals: [n] records, [D] the event's sum, [a = x_k(E)], [Q] the others' sum. *)
Lemma removal_hockey_step n D a Q g M :
  2 <= n -> 0 <= a -> 0 <= Q -> 0 <= M -> n <= g * (n - 1) -> D = Q + a ->
  a <= (1 + n * (g - 1)) * (Q / (n - 1)) + M ->
  D / n <= g * ((D - a) / (n - 1)) + M / n /\ (D - a) / (n - 1) <= g * (D / n) + M / n.
Proof.
  intros Hn Ha HQ HM Hg HD H.
  set (v := Q / (n - 1)) in *.
  assert (HQv : Q = (n - 1) * v) by (unfold v; field; lra).
  assert (Hv : 0 <= v) by (unfold v; apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra]).
  replace (D - a) with Q by lra. fold v.
  assert (HDn : D / n = (a + (n - 1) * v) / n) by (rewrite HD, HQv; field; lra).
  rewrite HDn. split.
  - apply Rmult_le_reg_l with (r := n); [lra|].
    replace (n * ((a + (n - 1) * v) / n)) with (a + (n - 1) * v) by (field; lra).
    replace (n * (g * v + M / n)) with (n * g * v + M) by (field; lra).
    nra.
  - apply Rmult_le_reg_l with (r := n); [lra|].
    replace (n * (g * ((a + (n - 1) * v) / n) + M / n)) with (g * a + g * (n - 1) * v + M) by (field; lra).
    assert (0 <= g) by nra.
    assert (n * v <= g * (n - 1) * v) by nra.
    nra.
Qed.

(** On record removal: the slack [d >= 0] at [T >= 1] between records gives the hockey-stick at [g], with
    [g (N - 1) >= N], at most [max(d, (T - r + (1 + r) d)/(T + 1))/N] both ways, [r = 1 + N (g - 1)]. *)
Theorem slack_hockey_removal N K x d T g :
  table N K x -> 2 <= INR N -> 1 <= T -> 0 <= d -> INR N <= g * (INR N - 1) -> slack_pairs_le N K x d T ->
  slack_removal_le N K x
    (Rmax d ((T - (1 + INR N * (g - 1)) + (1 + (1 + INR N * (g - 1))) * d) / (T + 1)) / INR N) g.
Proof.
  intros Htab HN HT Hd Hg HA E k Hk.
  set (c := emass K E x). set (c' := emass K (compl E) x).
  set (S := remove (fun _ => true) k).
  assert (HS : card N S = INR N - 1) by (unfold S; apply card_remove_one; auto).
  set (Q := sumS N S c). set (D := sum N c).
  assert (HD : D = Q + c k) by (unfold D, Q, S; apply sum_remove_one; auto).
  assert (HQ0 : 0 <= Q) by (unfold Q; apply sumS_nonneg; intros; apply (emass_nonneg N K E x); auto).
  assert (Hck : 0 <= c k) by (apply (emass_nonneg N K E x); auto).
  assert (Hck1 : c' k = 1 - c k) by (apply (emass_compl N K E x k Htab Hk)).
  (* the others' complement sum: (N - 1) - Q *)
  assert (HQ' : sumS N S c' = INR N - 1 - Q).
  { unfold Q, c', c, S. rewrite <- (removal_parts N K (compl E) x k Hk), <- (removal_parts N K E x k Hk).
    rewrite (sum_emass_compl N K E x Htab), (emass_compl N K E x k Htab Hk). ring. }
  (* the removed record against the others on E: (N - 1) c_k <= T Q + (N - 1) d *)
  assert (Hk1 : (INR N - 1) * c k <= T * Q + (INR N - 1) * d).
  { assert (H := sumS_others_ge N k (fun i => T * c i + d) (c k) (fun i Hi _ => HA E k i Hk Hi)).
    fold S in H. rewrite HS in H. rewrite sumS_plus, sumS_const, HS in H.
    unfold sumS in H. rewrite sum_ext with (g := fun i => T * (if S i then c i else 0)) in H.
    2: { intros i _. destruct (S i); ring. }
    rewrite sum_scal in H. fold (sumS N S c) in H. fold Q in H. lra. }
  (* the others against the removed record on the complement: (N - 1) - Q <= (N - 1) (T (1 - c_k) + d) *)
  assert (Hk2 : INR N - 1 - Q <= (INR N - 1) * (T * (1 - c k) + d)).
  { assert (H := sumS_others_le N k c' (T * c' k + d) (fun i Hi _ => HA (compl E) i k Hi Hk)).
    fold S in H. rewrite HS, HQ', Hck1 in H. lra. }
  assert (HN1 : 0 < INR N - 1) by lra.
  set (r := 1 + INR N * (g - 1)).
  assert (Hr : 1 <= r) by (unfold r; nra).
  assert (Hstep : c k <= r * (Q / (INR N - 1)) +
                          Rmax d ((T - r + (1 + r) * d) / (T + 1))).
  { apply kov_step; [lra | lra | apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra] | |].
    - apply Rmult_le_reg_l with (r := INR N - 1); [lra|].
      replace ((INR N - 1) * (T * (Q / (INR N - 1)) + d)) with (T * Q + (INR N - 1) * d) by (field; lra).
      exact Hk1.
    - apply Rmult_le_reg_l with (r := INR N - 1); [lra|].
      replace ((INR N - 1) * (1 - Q / (INR N - 1))) with (INR N - 1 - Q) by (field; lra).
      exact Hk2. }
  assert (HM : 0 <= Rmax d ((T - r + (1 + r) * d) / (T + 1))) by (pose proof (Rmax_l d ((T - r + (1 + r) * d) / (T + 1))); lra).
  exact (removal_hockey_step (INR N) D (c k) Q g _ HN Hck HQ0 HM Hg HD Hstep).
Qed.

(** The certificate's [Max] of two arguments equal, each, to the lemma's. *)
Lemma pairs_max_eq N K x U0 U1 A0 A1 g :
  U0 = A0 -> U1 = A1 -> slack_pairs_le N K x (Rmax A0 A1) g -> slack_pairs_le N K x (Rmax U0 U1) g.
Proof. intros -> ->. exact (fun H => H). Qed.

Lemma removal_max_eq N K x U0 U1 A0 A1 g :
  U0 = A0 -> U1 = A1 -> slack_removal_le N K x (Rmax A0 A1) g -> slack_removal_le N K x (Rmax U0 U1) g.
Proof. intros -> ->. exact (fun H => H). Qed.

Lemma pairs_max_swap N K x a b g : slack_pairs_le N K x (Rmax a b) g -> slack_pairs_le N K x (Rmax b a) g.
Proof. rewrite Rmax_comm. exact (fun H => H). Qed.

Lemma removal_max_swap N K x a b g : slack_removal_le N K x (Rmax a b) g -> slack_removal_le N K x (Rmax b a) g.
Proof. rewrite Rmax_comm. exact (fun H => H). Qed.

(** On removal, with the [Max] of the quotients by [N]. *)
Theorem slack_hockey_removal_div N K x d T g :
  table N K x -> 2 <= INR N -> 1 <= T -> 0 <= d -> INR N <= g * (INR N - 1) -> slack_pairs_le N K x d T ->
  slack_removal_le N K x
    (Rmax (d / INR N) ((T - (1 + INR N * (g - 1)) + (1 + (1 + INR N * (g - 1))) * d) / (T + 1) / INR N)) g.
Proof.
  intros Htab HN HT Hd Hg HA. rewrite Rmax_div by lra.
  exact (slack_hockey_removal N K x d T g Htab HN HT Hd Hg HA).
Qed.

(** The theorems at the certificate's data: its delta [d] equal to A's [dA], its gamma [g] to B's [gB]. *)
Theorem slack_hockey_pairs_at N K x dA gB d T g :
  dA = d -> gB = g -> table N K x -> 1 <= T -> 1 <= g -> slack_pairs_le N K x dA T ->
  slack_pairs_le N K x (Rmax d ((T - g + (1 + g) * d) / (T + 1))) gB.
Proof. intros -> ->. apply slack_hockey_pairs. Qed.

Theorem slack_hockey_removal_at N K x dA gB d T g :
  dA = d -> gB = g -> table N K x -> 2 <= INR N -> 1 <= T -> 0 <= d -> INR N <= g * (INR N - 1) ->
  slack_pairs_le N K x dA T ->
  slack_removal_le N K x
    (Rmax (d / INR N) ((T - (1 + INR N * (g - 1)) + (1 + (1 + INR N * (g - 1))) * d) / (T + 1) / INR N)) gB.
Proof. intros -> ->. apply slack_hockey_removal_div. Qed.
