(** Pinsker's inequality (implgraph.certify.lemmas.tv_distance and divergence_order, [fact: pinsker]): the total
    variation distance of two distributions is at most [sqrt(KL/2)].

    The proof is elementary (Tsybakov 2009, proof of Lemma 2.5) and needs no reduction to two points:

    - [ln r >= (r - 1)(5 r + 1)/(2 r (r + 2))] for [r > 0] ([ln_lower]): the difference [lnb] is 0 at 1 and its
      derivative is [(r - 1)^3/(r^2 (r + 2)^2)], of the sign of [r - 1] (the mean value theorem on [[r, 1]] or
      [[1, r]]);
    - so [3 (r - 1)^2 <= (4 + 2 r)(r ln r - r + 1)] for [r >= 0] ([pinsker_point]), and bucket by bucket, with
      [k_l = q_l phi(p_l/q_l) - p_l + q_l >= 0], [3 (p_l - q_l)^2 <= (4 q_l + 2 p_l) k_l] ([pinsker_term]);
    - for every [t > 0], [|p_l - q_l| <= (t (4 q_l + 2 p_l)/3 + k_l/t)/2] (arithmetic and geometric means); summed,
      as [sum (4 q + 2 p)/3 = 2] and [sum k = KL], [D = sum |p_l - q_l| <= t + KL/(2 t)]; at [t = D/2],
      [D^2 <= 2 KL] ([pinsker_l1]);
    - an event's mass under [p] less its mass under [q] is at most [D/2] (the sum of [(p_l - q_l)^+]), so at most
      any [g >= 0] with [KL <= 2 g^2] ([pinsker_event]): no square root is needed in the library; a certificate's
      [sqrt(T/2)] is such a [g] with [KL <= T].

    Then for tables: A's KL between every two records, of each class against the table, or of the table against
    the table without a record (both ways), at most [T], gives the additive slack [g] on every event of the same
    distributions ([pinsker_pairs_slack], [pinsker_class_tv], [pinsker_removal_slack]); the library's total
    variation lemmas compose it to a class's distance ([DistanceLemmas]). *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Entropy Events Distance DistanceLemmas Divergence CeilingChord Compose.
Open Scope R_scope.

(** * A rational lower bound of the logarithm *)
Definition lnb (r : R) : R := ln r - (5 * r * r - 4 * r - 1) / (2 * r * r + 4 * r).

Lemma lnb_deriv r : 0 < r -> derivable_pt_lim lnb r ((r - 1) ^ 3 / (r ^ 2 * (r + 2) ^ 2)).
Proof.
  intros Hr.
  assert (Hn : derivable_pt_lim (fun r => 5 * r * r - 4 * r - 1) r (10 * r - 4)).
  { replace (10 * r - 4) with ((5 * 1 * r + 5 * r * 1) - 4 * 1 - 0) by ring.
    apply (derivable_pt_lim_minus (fun r => 5 * r * r - 4 * r) (fun _ => 1)); [|apply derivable_pt_lim_const].
    apply (derivable_pt_lim_minus (fun r => 5 * r * r) (fun r => 4 * r)).
    - apply (derivable_pt_lim_mult (fun r => 5 * r) id); [|apply derivable_pt_lim_id].
      replace (5 * 1) with (0 * id r + 5 * 1) by ring.
      apply (derivable_pt_lim_mult (fun _ => 5) id); [apply derivable_pt_lim_const | apply derivable_pt_lim_id].
    - replace (4 * 1) with (0 * id r + 4 * 1) by ring.
      apply (derivable_pt_lim_mult (fun _ => 4) id); [apply derivable_pt_lim_const | apply derivable_pt_lim_id]. }
  assert (Hd : derivable_pt_lim (fun r => 2 * r * r + 4 * r) r (4 * r + 4)).
  { replace (4 * r + 4) with ((2 * 1 * r + 2 * r * 1) + 4 * 1) by ring.
    apply (derivable_pt_lim_plus (fun r => 2 * r * r) (fun r => 4 * r)).
    - apply (derivable_pt_lim_mult (fun r => 2 * r) id); [|apply derivable_pt_lim_id].
      replace (2 * 1) with (0 * id r + 2 * 1) by ring.
      apply (derivable_pt_lim_mult (fun _ => 2) id); [apply derivable_pt_lim_const | apply derivable_pt_lim_id].
    - replace (4 * 1) with (0 * id r + 4 * 1) by ring.
      apply (derivable_pt_lim_mult (fun _ => 4) id); [apply derivable_pt_lim_const | apply derivable_pt_lim_id]. }
  assert (Hnz : 2 * r * r + 4 * r <> 0) by nra.
  pose proof (derivable_pt_lim_div _ _ r _ _ Hn Hd Hnz) as Hq.
  pose proof (derivable_pt_lim_minus ln _ r _ _ (derivable_pt_lim_ln r Hr) Hq) as H.
  unfold lnb.
  replace ((r - 1) ^ 3 / (r ^ 2 * (r + 2) ^ 2)) with
    (/ r - ((10 * r - 4) * (2 * r * r + 4 * r) - (4 * r + 4) * (5 * r * r - 4 * r - 1)) / Rsqr (2 * r * r + 4 * r)).
  - exact H.
  - unfold Rsqr. field. split; lra.
Qed.

Lemma lnb_1 : lnb 1 = 0.
Proof. unfold lnb. rewrite ln_1. field. Qed.

Lemma lnb_nonneg r : 0 < r -> 0 <= lnb r.
Proof.
  intros Hr.
  assert (Hder : forall a b, 0 < a -> forall c, a <= c <= b ->
            derivable_pt_lim lnb c ((fun c => (c - 1) ^ 3 / (c ^ 2 * (c + 2) ^ 2)) c)).
  { intros a b Ha c [Hc _]. apply lnb_deriv. lra. }
  assert (Hden : forall c, 0 < c -> 0 < / (c ^ 2 * (c + 2) ^ 2)).
  { intros c Hc. apply Rinv_0_lt_compat. apply Rmult_lt_0_compat; apply pow_lt; lra. }
  destruct (Rtotal_order r 1) as [Hlt|[Heq|Hgt]].
  - destruct (MVT_cor2 lnb _ r 1 Hlt (Hder r 1 Hr)) as [c [E Hc]].
    rewrite lnb_1 in E. pose proof (Hden c ltac:(lra)) as Hi.
    assert (Hneg : (c - 1) ^ 3 <= 0) by (replace ((c - 1) ^ 3) with ((c - 1) * (c - 1) * (c - 1)) by ring;
                                         assert (0 <= (c - 1) * (c - 1)) by nra; nra).
    unfold Rdiv in E.
    assert (0 <= (- (c - 1) ^ 3) * / (c ^ 2 * (c + 2) ^ 2) * (1 - r)) by (apply Rmult_le_pos; [apply Rmult_le_pos|]; lra).
    lra.
  - subst. rewrite lnb_1. lra.
  - destruct (MVT_cor2 lnb _ 1 r Hgt (Hder 1 r ltac:(lra))) as [c [E Hc]].
    rewrite lnb_1 in E. pose proof (Hden c ltac:(lra)) as Hi.
    assert (Hpos : 0 <= (c - 1) ^ 3) by (apply pow_le; lra).
    unfold Rdiv in E.
    assert (0 <= (c - 1) ^ 3 * / (c ^ 2 * (c + 2) ^ 2) * (r - 1)) by (apply Rmult_le_pos; [apply Rmult_le_pos|]; lra).
    lra.
Qed.

Lemma ln_lower r : 0 < r -> (5 * r * r - 4 * r - 1) / (2 * r * r + 4 * r) <= ln r.
Proof. intros Hr. pose proof (lnb_nonneg r Hr). unfold lnb in H. lra. Qed.

(** * The pointwise inequality and a bucket's *)
Lemma pinsker_point r : 0 <= r -> 3 * (r - 1) ^ 2 <= (4 + 2 * r) * (xlnx r - r + 1).
Proof.
  intros [Hr|Hr].
  - rewrite xlnx_pos by exact Hr. pose proof (ln_lower r Hr) as L.
    assert (E : (5 * r * r - 4 * r - 1) = (2 * r * r + 4 * r) * ((5 * r * r - 4 * r - 1) / (2 * r * r + 4 * r)))
      by (field; nra).
    set (b := (5 * r * r - 4 * r - 1) / (2 * r * r + 4 * r)) in *.
    assert (0 <= (2 * r * r + 4 * r) * (ln r - b)) by (apply Rmult_le_pos; nra).
    nra.
  - subst. rewrite xlnx_0. lra.
Qed.

Lemma xlnx_above r : 0 <= r -> 0 <= xlnx r - r + 1.
Proof. intros Hr. pose proof (xlnx_tangent r 1 Hr ltac:(lra)). rewrite ln_1 in H. lra. Qed.

Definition kterm (p q : R) : R := q * xlnx (p / q) - p + q.

Lemma kterm_zero : kterm 0 0 = 0.
Proof. unfold kterm. ring. Qed.

Lemma kterm_nonneg p q : 0 <= p -> 0 <= q -> (q = 0 -> p = 0) -> 0 <= kterm p q.
Proof.
  intros Hp [Hq|Hq] Hd.
  - assert (Hr : 0 <= p / q) by (unfold Rdiv; apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra]).
    pose proof (xlnx_above _ Hr). unfold kterm.
    replace (q * xlnx (p / q) - p + q) with (q * (xlnx (p / q) - p / q + 1)) by (field; lra).
    apply Rmult_le_pos; lra.
  - subst. rewrite (Hd eq_refl), kterm_zero. lra.
Qed.

Lemma pinsker_term p q : 0 <= p -> 0 <= q -> (q = 0 -> p = 0) -> 3 * (p - q) ^ 2 <= (4 * q + 2 * p) * kterm p q.
Proof.
  intros Hp [Hq|Hq] Hd.
  - assert (Hr : 0 <= p / q) by (unfold Rdiv; apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra]).
    pose proof (pinsker_point _ Hr) as P.
    apply Rmult_le_compat_l with (r := q ^ 2) in P; [|apply pow_le; lra].
    replace (q ^ 2 * (3 * (p / q - 1) ^ 2)) with (3 * (p - q) ^ 2) in P by (field; lra).
    replace (q ^ 2 * ((4 + 2 * (p / q)) * (xlnx (p / q) - p / q + 1))) with ((4 * q + 2 * p) * kterm p q) in P
      by (unfold kterm; field; lra).
    exact P.
  - subst. rewrite (Hd eq_refl), kterm_zero. lra.
Qed.

(** The arithmetic and geometric means: [|d| <= (t a + k/t)/2] where [d^2 <= a k]. *)
Lemma amgm_term d a k t : 0 <= a -> 0 <= k -> 0 < t -> d * d <= a * k -> Rabs d <= (t * a + k / t) / 2.
Proof.
  intros Ha Hk Ht Hd.
  set (b := k / t). assert (Ek : k = b * t) by (unfold b; field; lra).
  assert (Hb : 0 <= b) by (unfold b, Rdiv; apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra]).
  assert (Hm : 0 <= (t * a + b) / 2) by nra.
  rewrite <- (Rabs_pos_eq ((t * a + b) / 2)) by exact Hm.
  apply Rsqr_le_abs_0. unfold Rsqr. rewrite Ek in Hd.
  assert (Hsq : 0 <= (t * a - b) * (t * a - b)) by (pose proof (Rle_0_sqr (t * a - b)) as Q; unfold Rsqr in Q; exact Q).
  replace ((t * a + b) / 2 * ((t * a + b) / 2)) with (a * (b * t) + (t * a - b) * (t * a - b) / 4) by field. lra.
Qed.

(** * Pinsker's inequality: [(sum |p - q|)^2 <= 2 KL] *)
Theorem pinsker_l1 K p q :
  (forall l, (l < K)%nat -> 0 <= p l) -> (forall l, (l < K)%nat -> 0 <= q l) -> sum K p = 1 -> sum K q = 1 ->
  dominated K p q -> (sum K (fun l => Rabs (p l - q l))) ^ 2 <= 2 * fdiv K (phi_of KL) p q.
Proof.
  intros Hp Hq Sp Sq Hd.
  set (F := fdiv K (phi_of KL) p q). set (D := sum K (fun l => Rabs (p l - q l))).
  assert (EF : sum K (fun l => kterm (p l) (q l)) = F).
  { unfold kterm, F, fdiv. rewrite !sum_plus, sum_minus, Sp, Sq. simpl. ring. }
  assert (HF : 0 <= F) by (rewrite <- EF; apply sum_nonneg; intros l Hl; apply kterm_nonneg; auto).
  assert (HD : 0 <= D) by (apply sum_nonneg; intros; apply Rabs_pos).
  assert (Ht : forall t, 0 < t -> D <= t + F / (2 * t)).
  { intros t Ht. unfold D.
    apply Rle_trans with (sum K (fun l => (t * ((4 * q l + 2 * p l) / 3) + kterm (p l) (q l) / t) / 2)).
    - apply sum_le. intros l Hl. apply amgm_term; [pose proof (Hp l Hl); pose proof (Hq l Hl); lra
        | apply kterm_nonneg; auto | exact Ht |].
      pose proof (pinsker_term (p l) (q l) (Hp l Hl) (Hq l Hl) (Hd l Hl)).
      replace ((4 * q l + 2 * p l) / 3 * kterm (p l) (q l)) with ((4 * q l + 2 * p l) * kterm (p l) (q l) / 3)
        by field. lra.
    - unfold Rdiv. rewrite (sum_ext K _ (fun l => (t * / 3 * / 2) * (4 * q l + 2 * p l) + (/ t * / 2) * kterm (p l) (q l)))
        by (intros; ring).
      rewrite sum_plus, !sum_scal, sum_plus, !sum_scal, Sp, Sq, EF. right. field. lra. }
  destruct HD as [HD|HD].
  - pose proof (Ht (D / 2) ltac:(lra)) as H.
    replace (F / (2 * (D / 2))) with (F / D) in H by (field; lra).
    apply Rmult_le_compat_l with (r := D) in H; [|lra].
    replace (D * (D / 2 + F / D)) with (D * D / 2 + F) in H by (field; lra). nra.
  - rewrite <- HD. lra.
Qed.

(** An event's mass under [p] less under [q] is at most half the [L1] distance. *)
Lemma event_half_l1 K p q E :
  sum K p = sum K q -> sumS K E p - sumS K E q <= sum K (fun l => Rabs (p l - q l)) / 2.
Proof.
  intros S.
  assert (E1 : sumS K E p - sumS K E q = sumS K E (fun l => p l - q l)).
  { unfold sumS. rewrite <- sum_minus. apply sum_ext. intros l _. destruct (E l); ring. }
  assert (E2 : sum K (fun l => Rabs (p l - q l)) / 2 = sum K (fun l => ppart (p l - q l))).
  { assert (sum K (fun l => ppart (p l - q l)) * 2 = sum K (fun l => Rabs (p l - q l)) + (sum K p - sum K q)).
    { rewrite <- sum_minus, Rmult_comm, <- sum_scal, <- sum_plus. apply sum_ext. intros l _.
      unfold ppart, Rmax. destruct (Rle_dec (p l - q l) 0).
      - rewrite Rabs_left1 by lra. ring.
      - rewrite Rabs_pos_eq by lra. ring. }
    rewrite S in H. lra. }
  rewrite E1, E2. unfold sumS. apply sum_le. intros l _. unfold ppart, Rmax.
  destruct (E l), (Rle_dec (p l - q l) 0); lra.
Qed.

(** [pinsker_event]: KL at most [T] and [T <= 2 g^2], [g >= 0]: every event's difference is at most [g]. *)
Theorem pinsker_event K p q E T g :
  (forall l, (l < K)%nat -> 0 <= p l) -> (forall l, (l < K)%nat -> 0 <= q l) -> sum K p = 1 -> sum K q = 1 ->
  div_le KL K p q T -> 0 <= g -> T <= 2 * g ^ 2 -> sumS K E p - sumS K E q <= g.
Proof.
  intros Hp Hq Sp Sq [Hd HT] Hg Hgt.
  pose proof (pinsker_l1 K p q Hp Hq Sp Sq Hd) as H. simpl dbound in HT.
  pose proof (event_half_l1 K p q E ltac:(lra)) as Hev.
  set (D := sum K (fun l => Rabs (p l - q l))) in *.
  assert (HD : 0 <= D) by (apply sum_nonneg; intros; apply Rabs_pos).
  assert (D / 2 <= g) by nra. lra.
Qed.

(** * Tables: KL between records, of a class against the table, of record removal *)
Lemma pinsker_pairs_slack N K x T g :
  table N K x -> div_pairs_le KL N K x T -> 0 <= g -> T <= 2 * g ^ 2 -> slack_pairs_le N K x g 1.
Proof.
  intros Htab HA Hg Hgt E i k Hi Hk. rewrite Rmult_1_l. unfold mass.
  destruct (Nat.eq_dec i k) as [->|Hne]; [lra|].
  assert (H := pinsker_event K (row x i) (row x k) E T g).
  unfold row in H.
  enough (sumS K E (fun b => x i b) - sumS K E (fun b => x k b) <= g) by lra.
  apply H; auto.
  - intros l Hl. apply (proj1 Htab); auto.
  - intros l Hl. apply (proj1 Htab); auto.
  - apply (proj2 Htab); auto.
  - apply (proj2 Htab); auto.
Qed.

Lemma pinsker_class_tv N K x cls T g :
  table N K x -> 0 < INR N -> div_class_le KL N K x cls T -> 0 <= g -> T <= 2 * g ^ 2 -> tv_le N K x cls g.
Proof.
  intros Htab HN0 HA Hg Hgt i E Hi. unfold mass.
  assert (HN : (0 < N)%nat) by (apply INR_lt; simpl; lra).
  apply (pinsker_event K (cmean N x cls i) (tmean N x) E T g); auto.
  - intros l Hl. apply (cmean_nonneg N K); auto.
  - intros l Hl. apply (tmean_nonneg N K); auto.
  - apply (cmean_sum N K); auto.
  - apply (tmean_sum N K); auto.
Qed.

Lemma tmean_event N K x E : sum N (emass K E x) / INR N = sumS K E (tmean N x).
Proof. unfold tmean. rewrite sumS_div, sum_emass. reflexivity. Qed.

Lemma rmean_event N K x E k :
  (k < N)%nat -> (sum N (emass K E x) - emass K E x k) / (INR N - 1) = sumS K E (rmean N x k).
Proof.
  intros Hk. unfold rmean. rewrite sumS_div, <- sumS_emass.
  rewrite (sum_remove_one N k (emass K E x) Hk). f_equal. ring.
Qed.

Lemma pinsker_removal_slack N K x T g :
  table N K x -> 2 <= INR N -> div_removal_le KL N K x T -> 0 <= g -> T <= 2 * g ^ 2 -> slack_removal_le N K x g 1.
Proof.
  intros Htab HN2 HA Hg Hgt E k Hk. rewrite !Rmult_1_l, tmean_event, rmean_event by exact Hk.
  assert (Hc : card N (remove (fun _ => true) k) = INR N - 1) by (rewrite card_remove, card_full_set by auto; reflexivity).
  assert (Et : forall l, (l < K)%nat -> tmean N x l = smean N x (fun _ => true) l)
    by (intros l _; unfold tmean, smean; rewrite card_full_set; reflexivity).
  assert (Er : forall l, (l < K)%nat -> rmean N x k l = smean N x (remove (fun _ => true) k) l)
    by (intros l _; unfold rmean, smean; rewrite Hc; reflexivity).
  assert (HX : 0 < card N (fun _ => true)) by (rewrite card_full_set; lra).
  assert (HY : 0 < card N (remove (fun _ => true) k)) by lra.
  assert (Pt : forall l, (l < K)%nat -> 0 <= tmean N x l) by (intros l Hl; rewrite Et by exact Hl; apply (smean_nonneg N K); auto).
  assert (Pr : forall l, (l < K)%nat -> 0 <= rmean N x k l) by (intros l Hl; rewrite Er by exact Hl; apply (smean_nonneg N K); auto).
  assert (St : sum K (tmean N x) = 1) by (rewrite (sum_ext K _ _ Et); apply (smean_sum N K); auto).
  assert (Sr : sum K (rmean N x k) = 1) by (rewrite (sum_ext K _ _ Er); apply (smean_sum N K); auto).
  destruct (HA k Hk) as [H1 H2]. split.
  - pose proof (pinsker_event K _ _ E T g Pt Pr St Sr H1 Hg Hgt). lra.
  - pose proof (pinsker_event K _ _ E T g Pr Pt Sr St H2 Hg Hgt). lra.
Qed.

(** * To a class's total variation distance, at the certificates' bounds *)
Lemma min_mono a b c d : a <= c -> b <= d -> Rmin a b <= Rmin c d.
Proof. intros. unfold Rmin. destruct (Rle_dec a b), (Rle_dec c d); lra. Qed.
Lemma min_mono_swap a b c d : a <= d -> b <= c -> Rmin a b <= Rmin c d.
Proof. intros. rewrite (Rmin_comm c d). apply min_mono; auto. Qed.

(** A between every two records: the slack [g] gives [(N - s) min(1, g)/N]. *)
Theorem slack_pairs_tv N K x cls s g U :
  table N K x -> partition N cls s -> 0 <= s -> 0 <= g -> slack_pairs_le N K x g 1 ->
  (INR N - s) * Rmin 1 g / INR N <= U -> tv_le N K x cls U.
Proof.
  intros Htab Hp Hs Hg HA HU.
  assert (HN : 2 * s <= INR N) by (apply (partition_two N cls s Hp)).
  apply (slack_pairwise_distance N K x cls s 1 g U Htab Hp Hg HA).
  intros e X Y H1 H2 H3 H4 H5 H6 H7 H8.
  assert (HN0 : 0 < INR N).
  { destruct (proj2 Hp) as [i1 [k1 [Hi1 _]]]. apply lt_0_INR. lia. }
  assert (Hm1 : Rmin 1 g <= 1) by apply Rmin_l. assert (Hmg : Rmin 1 g <= g) by apply Rmin_r.
  assert (HXY : X - Y <= Rmin 1 g) by (unfold Rmin; destruct (Rle_dec 1 g); lra).
  apply Rle_trans with ((INR N - s) * Rmin 1 g); [|].
  - assert (H0m : 0 <= Rmin 1 g) by (unfold Rmin; destruct (Rle_dec 1 g); lra).
    destruct (Rle_dec 0 (X - Y)).
    + apply Rmult_le_compat; lra.
    + assert (0 <= (INR N - e) * (Y - X)) by (apply Rmult_le_pos; lra).
      assert (0 <= (INR N - s) * Rmin 1 g) by (apply Rmult_le_pos; lra). lra.
  - apply Rmult_le_reg_r with (/ INR N); [apply Rinv_0_lt_compat; lra|].
    replace (U * INR N * / INR N) with U by (field; lra). exact HU.
Qed.

(** A of each class against the table: [min(g, (N - s)/N)]. *)
Theorem class_tv_min N K x cls s g U :
  table N K x -> partition N cls s -> 0 < s -> tv_le N K x cls g ->
  Rmin g ((INR N - s) / INR N) <= U -> tv_le N K x cls U.
Proof.
  intros Htab Hp Hs HA HU.
  assert (Hm : tv_le N K x cls ((INR N - s) / INR N)) by (apply tv_mass; auto; apply (proj1 Hp)).
  assert (Hmin : tv_le N K x cls (Rmin g ((INR N - s) / INR N))) by (apply min_bound; auto).
  intros i E Hi. pose proof (Hmin i E Hi). lra.
Qed.

(** A of the table against the table without each record, both ways: the slack [g] gives
    [min((N - s)/N, (N - 1) g)] (the largest record's mass, [DistanceLemmas.slack_removal_distance]). *)
Theorem slack_removal_tv N K x cls s g U :
  table N K x -> partition N cls s -> 0 < s -> 2 <= INR N -> 0 <= g -> slack_removal_le N K x g 1 ->
  Rmin ((INR N - s) / INR N) ((INR N - 1) * g) <= U -> tv_le N K x cls U.
Proof.
  intros Htab Hp Hs HN Hg HA HU.
  assert (Hm : tv_le N K x cls ((INR N - s) / INR N)) by (apply tv_mass; auto; apply (proj1 Hp)).
  assert (Hr : tv_le N K x cls ((INR N - 1) * g)).
  { apply (slack_removal_distance N K x cls 1 g); auto.
    intros P M H1 H2 H3 H4 H5 H6 H7. nra. }
  assert (Hmin : tv_le N K x cls (Rmin ((INR N - s) / INR N) ((INR N - 1) * g))) by (apply min_bound; auto).
  intros i E Hi. pose proof (Hmin i E Hi). lra.
Qed.

(** The certificates' [g] for Pinsker: [sqrt 2 * sqrt T / 2] is [sqrt(T/2)]. *)
Lemma pinsker_g T : 0 <= T -> 0 <= sqrt 2 * sqrt T / 2 /\ T <= 2 * (sqrt 2 * sqrt T / 2) ^ 2.
Proof.
  intros HT. pose proof (sqrt_pos 2). pose proof (sqrt_pos T).
  pose proof (sqrt_sqrt 2 ltac:(lra)) as E2. pose proof (sqrt_sqrt T HT) as ET. split.
  - apply Rmult_le_pos; [apply Rmult_le_pos|]; lra.
  - replace (2 * (sqrt 2 * sqrt T / 2) ^ 2) with ((sqrt 2 * sqrt 2) * (sqrt T * sqrt T) / 2) by (simpl; field).
    rewrite E2, ET. lra.
Qed.

Lemma sqrt_nz a : 0 < a -> sqrt a <> 0.
Proof. intros Ha E. pose proof (sqrt_lt_R0 a Ha). lra. Qed.

(** The generated proofs' last step: the lemma's bound at most the certificate's U, the two equal up to [field]
    (argument by argument under a [Rmin], either order), the square roots and minima read as atoms. *)
Ltac nz_atoms :=
  repeat split;
  repeat match goal with
  | |- _ * _ <> 0 => apply Rmult_integral_contrapositive_currified
  | |- sqrt ?a <> 0 => apply sqrt_nz; repeat match a with context [exp ?t] =>
                          match goal with H : 0 < exp t |- _ => fail 1 | _ => pose proof (exp_pos t) end end
  end;
  try (apply Rgt_not_eq; lra); try (apply Rlt_not_eq; lra); try lra.
Ltac bound_eq := solve [right; field; nz_atoms].
Ltac ucmp := first [bound_eq | solve [apply min_mono; bound_eq] | solve [apply min_mono_swap; bound_eq]].

(** [0 < e] for a product, quotient, minimum or square root of terms each [> 0] by [lra] (a composition's first
    bound through Pinsker's inequality is a threshold of its second part). *)
Lemma exp_minus_1_pos t : 0 < t -> 0 < exp t - 1.
Proof. intros Ht. pose proof (exp_increasing 0 t Ht). rewrite exp_0 in H. lra. Qed.

Ltac pos_atoms :=
  match goal with
  | |- 0 < exp ?t - 1 => apply exp_minus_1_pos; lra
  | |- 0 < _ * _ => apply Rmult_lt_0_compat; pos_atoms
  | |- 0 < _ / _ => apply Rdiv_lt_0_compat; pos_atoms
  | |- 0 < Rmin _ _ => apply Rmin_glb_lt; pos_atoms
  | |- 0 < sqrt _ => apply sqrt_lt_R0; pos_atoms
  | |- 0 < exp _ => apply exp_pos
  | |- 0 < ?e => first [lra | match e with context [exp ?t] => pose proof (exp_pos t); lra end]
  end.
