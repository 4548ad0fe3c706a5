(** Pointwise maximal leakage (a one-sided subset level of size 1) bounds the total variation between the table and
    the table without one record by [min((T - 1)/N, (T - 1)/(T (N - 1)))] (implgraph.certify.lemmas.one_sided_removal;
    docs/proofs/pml-tv.md), stated as the additive slack on every event both ways ([slack_removal_le N K x U 1]).

    On an event [E], with [a = x_k(E)] and [p = P(E)]: [P(E) - Q_k(E) = (a - p)/(N - 1)]. pml gives [a <= T p] (record
    [k]), [a <= 1], and on the complement every other record's [1 - x_r(E) <= T (1 - p)], summed over the [N - 1]
    others: [N p - a >= (N - 1)(1 - T (1 - p))]. Their combinations give [a - p <= (N - 1)(T - 1)/N] and
    [a - p <= (T - 1)/T] ([or_gap]); the other direction is the same on the complement. *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Tactics Events Columns DistanceLemmas Slack.
Open Scope R_scope.

(** The two combinations on reals. *)
Lemma or_gap n p a T :
  2 <= n -> 1 <= T -> a <= T * p -> a <= 1 -> (n - 1) * (1 - T * (1 - p)) <= n * p - a ->
  a - p <= (n - 1) * ((T - 1) / n) /\ a - p <= (n - 1) * ((T - 1) / (T * (n - 1))).
Proof.
  intros Hn HT H1 H2 H3. split.
  - (* n (a - p) = (n - 1)(a - p) + (a - p) <= (n - 1)(T - 1) p + (n - 1)(T - 1)(1 - p) *)
    assert (Hm : (n - 1) * (a - p) <= (n - 1) * ((T - 1) * p)) by (apply Rmult_le_compat_l; lra).
    assert (Hw : (n - 1) * ((T - 1) / n) * n = (n - 1) * (T - 1)) by (field; lra).
    apply Rmult_le_reg_r with n; [lra|]. rewrite Hw. nra.
  - assert (Hm : (T - 1) * (a - p) <= (T - 1) * (1 - p)) by (apply Rmult_le_compat_l; lra).
    assert (Hw : (n - 1) * ((T - 1) / (T * (n - 1))) * T = T - 1) by (field; lra).
    apply Rmult_le_reg_r with T; [lra|]. rewrite Hw. nra.
Qed.

(** pml read on one event: record [k]'s mass at most [T P(E)]. *)
Lemma or_record N K x T E k :
  subset_le OneSided N K x 1 T -> (k < N)%nat -> INR N * emass K E x k <= T * sum N (emass K E x).
Proof.
  intros HA Hk. destruct (subset_le_event _ _ _ _ _ _ E HA (single k) (card_single N k Hk)) as [Hup _].
  unfold upper_ok in Hup. rewrite sumS_single, card_single in Hup by exact Hk. lra.
Qed.

(** The three facts on one event, as [or_gap] reads them. *)
Lemma or_facts N K x T E k :
  table N K x -> subset_le OneSided N K x 1 T -> 2 <= INR N -> (k < N)%nat ->
  let n := INR N in let D := sum N (emass K E x) in let a := emass K E x k in
  a <= T * (D / n) /\ a <= 1 /\ (n - 1) * (1 - T * (1 - D / n)) <= n * (D / n) - a.
Proof.
  intros Htab HA HN Hk n D a.
  assert (Hn : 0 < n) by (unfold n; lra).
  assert (Hnd : n * (D / n) = D) by (field; lra).
  split; [| split].
  - pose proof (or_record N K x T E k HA Hk) as H. fold n D a in H.
    apply Rmult_le_reg_l with n; [exact Hn|]. replace (n * (T * (D / n))) with (T * D) by (field; lra). lra.
  - apply emass_le1 with N; auto.
  - (* every other record r: n (1 - x_r(E)) <= T (n - D) *)
    assert (Ho : forall r, (r < N)%nat -> r <> k -> 1 - T * (1 - D / n) <= emass K E x r).
    { intros r Hr _. pose proof (or_record N K x T (compl E) r HA Hr) as H.
      rewrite (sum_emass_compl N K E x Htab), (emass_compl N K E x r Htab Hr) in H. fold n D in H.
      assert (Hx : n * (1 - T * (1 - D / n)) <= n * emass K E x r).
      { replace (n * (1 - T * (1 - D / n))) with (n - T * (n - D)) by (field; lra). lra. }
      apply Rmult_le_reg_l with n; [exact Hn | exact Hx]. }
    pose proof (sumS_others_ge N k (emass K E x) _ Ho) as G.
    fold (others k) in G. rewrite card_others, sum_others in G by exact Hk. fold D a in G.
    rewrite Hnd. unfold n in *. rewrite Rmult_comm. exact G.
Qed.

(** The table against the table without record [k], on one event: [P(E) - Q_k(E) = (a - p)/(N - 1) <= U]. *)
Lemma or_side n D a U : 2 <= n -> a - D / n <= (n - 1) * U -> D / n <= 1 * ((D - a) / (n - 1)) + U.
Proof.
  intros Hn H.
  assert (Hq : D / n - (D - a) / (n - 1) = (a - D / n) / (n - 1)) by (field; lra).
  assert (Hd : (a - D / n) / (n - 1) <= U).
  { apply Rmult_le_reg_l with (n - 1); [lra|]. replace ((n - 1) * ((a - D / n) / (n - 1))) with (a - D / n)
      by (field; lra). exact H. }
  lra.
Qed.

(** Both ways, every event, at [U = (T - 1)/N] ([which = true]) or [U = (T - 1)/(T (N - 1))]. *)
Theorem onesided_removal N K x T (which : bool) :
  table N K x -> subset_le OneSided N K x 1 T -> 2 <= INR N -> 1 <= T ->
  slack_removal_le N K x (if which then (T - 1) / INR N else (T - 1) / (T * (INR N - 1))) 1.
Proof.
  intros Htab HA HN HT E k Hk.
  set (U := if which then (T - 1) / INR N else (T - 1) / (T * (INR N - 1))).
  assert (Hgap : forall E', let D := sum N (emass K E' x) in let a := emass K E' x k in
                 a - D / INR N <= (INR N - 1) * U).
  { intros E' D a. destruct (or_facts N K x T E' k Htab HA HN Hk) as [F1 [F2 F3]].
    destruct (or_gap (INR N) (D / INR N) a T HN HT F1 F2 F3). unfold U. destruct which; assumption. }
  split.
  - exact (or_side (INR N) _ _ U HN (Hgap E)).
  - pose proof (or_side (INR N) _ _ U HN (Hgap (compl E))) as H.
    rewrite (sum_emass_compl N K E x Htab), (emass_compl N K E x k Htab Hk) in H.
    set (D := sum N (emass K E x)) in *. set (a := emass K E x k) in *.
    assert (Hx : (INR N - D) / INR N = 1 - D / INR N) by (field; lra).
    assert (Hy : (INR N - D - (1 - a)) / (INR N - 1) = 1 - (D - a) / (INR N - 1)) by (field; lra).
    rewrite Hx, Hy in H. lra.
Qed.

(** Every table: [1/N], the weakest level ([a - p = ((N - 1) a - others)/N <= (N - 1)/N]). *)
Theorem onesided_removal_weakest N K x :
  table N K x -> 2 <= INR N -> slack_removal_le N K x (1 / INR N) 1.
Proof.
  intros Htab HN.
  assert (Hgap : forall E' k, (k < N)%nat -> emass K E' x k - sum N (emass K E' x) / INR N <= (INR N - 1) * (1 / INR N)).
  { intros E' k Hk. pose proof (emass_le1 N K E' x k Htab Hk) as H1.
    assert (H0 : 0 <= sumS N (others k) (emass K E' x))
      by (apply sumS_nonneg; intros r Hr; apply emass_nonneg with N; auto).
    rewrite sum_others in H0 by exact Hk.
    assert (Hw : (INR N - 1) * (1 / INR N) = 1 - 1 / INR N) by (field; lra).
    rewrite Hw. apply Rmult_le_reg_l with (INR N); [lra|].
    replace (INR N * (emass K E' x k - sum N (emass K E' x) / INR N)) with
      (INR N * emass K E' x k - sum N (emass K E' x)) by (field; lra).
    replace (INR N * (1 - 1 / INR N)) with (INR N - 1) by (field; lra). nra. }
  intros E k Hk. split.
  - exact (or_side (INR N) _ _ _ HN (Hgap E k Hk)).
  - pose proof (or_side (INR N) _ _ _ HN (Hgap (compl E) k Hk)) as H.
    rewrite (sum_emass_compl N K E x Htab), (emass_compl N K E x k Htab Hk) in H.
    set (D := sum N (emass K E x)) in *. set (a := emass K E x k) in *.
    assert (Hx : (INR N - D) / INR N = 1 - D / INR N) by (field; lra).
    assert (Hy : (INR N - D - (1 - a)) / (INR N - 1) = 1 - (D - a) / (INR N - 1)) by (field; lra).
    rewrite Hx, Hy in H. lra.
Qed.

(** The two bounds of [onesided_removal], each by name. *)
Corollary onesided_removal_n N K x T :
  table N K x -> subset_le OneSided N K x 1 T -> 2 <= INR N -> 1 <= T -> slack_removal_le N K x ((T - 1) / INR N) 1.
Proof. exact (onesided_removal N K x T true). Qed.

Corollary onesided_removal_t N K x T :
  table N K x -> subset_le OneSided N K x 1 T -> 2 <= INR N -> 1 <= T ->
  slack_removal_le N K x ((T - 1) / (T * (INR N - 1))) 1.
Proof. exact (onesided_removal N K x T false). Qed.

(** * The hockey-stick at a ratio [g] with [g (N - 1) >= N] (so [g >= 1]) *)

Lemma or_div_nonneg u v : 0 <= u -> 0 < v -> 0 <= u / v.
Proof. intros Hu Hv. unfold Rdiv. apply Rmult_le_pos; [exact Hu | apply Rlt_le, Rinv_0_lt_compat; exact Hv]. Qed.

(** From the table against the table without each record at ratio 1 to ratio [g >= 1] (the masses are >= 0). *)
Lemma slack_removal_ratio1 N K x U g :
  table N K x -> 2 <= INR N -> 1 <= g -> slack_removal_le N K x U 1 -> slack_removal_le N K x U g.
Proof.
  intros Htab HN Hg H E k Hk. destruct (H E k Hk) as [H1 H2].
  set (D := sum N (emass K E x)) in *. set (a := emass K E x k) in *.
  assert (HD : 0 <= D) by (apply sum_nonneg; intros r Hr; apply emass_nonneg with N; auto).
  assert (HQ : 0 <= D - a).
  { assert (H0 : 0 <= sumS N (others k) (emass K E x))
      by (apply sumS_nonneg; intros r Hr; apply emass_nonneg with N; auto).
    rewrite sum_others in H0 by exact Hk. exact H0. }
  assert (HQn : 0 <= (D - a) / (INR N - 1)) by (apply or_div_nonneg; lra).
  assert (HPn : 0 <= D / INR N) by (apply or_div_nonneg; lra).
  split; nra.
Qed.

(** The real step of the first direction: [g a - c p <= max(0, g - c/T)] for [a <= T p], [0 <= a <= 1], [c > 0]. *)
Lemma or_hockey_step a p T g c :
  1 <= T -> 0 < c -> 0 <= a -> a <= 1 -> a <= T * p -> g * a - c * p <= Rmax 0 (g - c / T).
Proof.
  intros HT Hc Ha0 Ha1 Hap.
  assert (Hp : a / T <= p).
  { apply Rmult_le_reg_l with T; [lra|]. replace (T * (a / T)) with a by (field; lra). lra. }
  assert (H1 : g * a - c * p <= a * (g - c / T)).
  { assert (c * (a / T) <= c * p) by (apply Rmult_le_compat_l; lra).
    replace (a * (g - c / T)) with (g * a - c * (a / T)) by (field; lra). lra. }
  unfold Rmax. destruct (Rle_dec 0 (g - c / T)); nra.
Qed.

(** Both ways, every event: the hockey-stick at [g] with [g (N - 1) >= N] at most
    [max(0, (g T - g N + N - 1)/(T (N - 1)))]. *)
Theorem onesided_removal_hockey N K x T g :
  table N K x -> subset_le OneSided N K x 1 T -> 2 <= INR N -> 1 <= T -> INR N <= g * (INR N - 1) ->
  slack_removal_le N K x (Rmax 0 ((g * T - g * INR N + INR N - 1) / (T * (INR N - 1)))) g.
Proof.
  intros Htab HA HN HT Hg E k Hk.
  destruct (or_facts N K x T E k Htab HA HN Hk) as [F1 [F2 _]].
  set (n := INR N) in *. set (D := sum N (emass K E x)) in *. set (a := emass K E x k) in *.
  assert (Ha0 : 0 <= a) by (apply emass_nonneg with N; auto).
  assert (HQ : 0 <= D - a).
  { assert (H0 : 0 <= sumS N (others k) (emass K E x))
      by (apply sumS_nonneg; intros r Hr; apply emass_nonneg with N; auto).
    rewrite sum_others in H0 by exact Hk. exact H0. }
  set (c := g * n - n + 1).
  assert (Hc : 0 < c) by (unfold c; nra).
  assert (Hstep := or_hockey_step a (D / n) T g c HT Hc Ha0 F2 F1).
  assert (HW : (g * T - g * n + n - 1) / (T * (n - 1)) = (g - c / T) / (n - 1)) by (unfold c; field; lra).
  rewrite HW.
  assert (HM : Rmax 0 ((g - c / T) / (n - 1)) = Rmax 0 (g - c / T) / (n - 1)).
  { unfold Rmax. destruct (Rle_dec 0 ((g - c / T) / (n - 1))) as [H1|H1];
      destruct (Rle_dec 0 (g - c / T)) as [H2|H2]; try reflexivity.
    - exfalso. apply H2. apply Rmult_le_reg_r with (/ (n - 1)); [apply Rinv_0_lt_compat; lra|].
      rewrite Rmult_0_l. exact H1.
    - exfalso. apply H1. apply or_div_nonneg; lra.
    - unfold Rdiv. lra. }
  rewrite HM. set (M := Rmax 0 (g - c / T)) in *.
  assert (HM0 : 0 <= M) by (unfold M; apply Rmax_l).
  split.
  - (* D/n <= g (D - a)/(n - 1) + M/(n - 1): times (n - 1), (g a - c p) <= M *)
    assert (Hx : D / n - g * ((D - a) / (n - 1)) = (g * a - c * (D / n)) / (n - 1)) by (unfold c; field; lra).
    assert (Hy : (g * a - c * (D / n)) / (n - 1) <= M / (n - 1))
      by (apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat; lra | exact Hstep]).
    lra.
  - (* (D - a)/(n - 1) - g D/n = ((n - g (n - 1)) p - a)/(n - 1) <= 0 *)
    assert (Hx : (D - a) / (n - 1) - g * (D / n) = ((n - g * (n - 1)) * (D / n) - a) / (n - 1)) by (field; lra).
    assert (HDn : 0 <= D / n) by (apply or_div_nonneg; [apply sum_nonneg; intros r Hr; apply emass_nonneg with N;
                                                          auto | lra]).
    assert (Hz : ((n - g * (n - 1)) * (D / n) - a) / (n - 1) <= 0).
    { apply Rmult_le_reg_r with (n - 1); [lra|]. rewrite Rmult_0_l.
      replace (((n - g * (n - 1)) * (D / n) - a) / (n - 1) * (n - 1)) with ((n - g * (n - 1)) * (D / n) - a)
        by (field; lra). nra. }
    assert (0 <= M / (n - 1)) by (apply or_div_nonneg; lra).
    lra.
Qed.

(** A larger slack; the smaller of two (at any ratio [g]). *)
Lemma slack_removal_weaken_g N K x d d' g :
  slack_removal_le N K x d g -> d <= d' -> slack_removal_le N K x d' g.
Proof. intros H Hd E k Hk. destruct (H E k Hk). split; lra. Qed.

Lemma slack_removal_min_g N K x a b g :
  slack_removal_le N K x a g -> slack_removal_le N K x b g -> slack_removal_le N K x (Rmin a b) g.
Proof. intros Ha Hb. unfold Rmin. destruct (Rle_dec a b); assumption. Qed.
