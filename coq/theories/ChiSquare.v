(** The chi-square bound of Renyi's divergence of order 2 (implgraph.certify.lemmas.tv_distance, [fact: chi-square]):
    two distributions whose [D_2] is at most [T] both ways are within total variation [sqrt(c/(4 + c))],
    [c = exp T - 1] (the certificates' text [sqrt(exp(T) - 1)/sqrt(exp(T) + 3)]).

    For an event [E] with masses [a] under [p] and [b] under [q]:

    - merging buckets: [q (p/q)^2 >= 2 t p - t^2 q] for every [t] (a square), so for every [t] and [u]
      [exp(D_2(p || q)) = sum q (p/q)^2 >= 2 t a - t^2 b + 2 u (1 - a) - u^2 (1 - b)] ([chi_merge]); at
      [t = a/b], [u = (1 - a)/(1 - b)] this is [1 + (a - b)^2/(b (1 - b))], so [(a - b)^2 <= c b (1 - b)]
      ([chi_two]; [b = 0] or [1] forces [a = b]);
    - both ways, [(a - b)^2 <= c a (1 - a)] too, and
      [c - (4 + c) s^2 = 2 (c a (1 - a) - s^2) + 2 (c b (1 - b) - s^2) + c (1 - a - b)^2 >= 0], [s = a - b]
      ([chi_square_event]). *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Entropy Events Distance DistanceLemmas Divergence CeilingChord Compose Pinsker.
Open Scope R_scope.

Lemma chi_term p q t : 0 <= q -> (q = 0 -> p = 0) -> 2 * t * p - t * t * q <= q * (p / q) ^ 2.
Proof.
  intros [Hq|Hq] Hd.
  - assert (E : q * (p / q) ^ 2 - (2 * t * p - t * t * q) = q * (p / q - t) ^ 2) by (field; lra).
    assert (0 <= q * (p / q - t) ^ 2) by (apply Rmult_le_pos; [lra | apply pow2_ge_0]). lra.
  - subst. rewrite (Hd eq_refl). unfold Rdiv. rewrite Rmult_0_l. nra.
Qed.

Lemma chi_merge K p q E t u :
  (forall l, (l < K)%nat -> 0 <= q l) -> sum K p = 1 -> sum K q = 1 -> dominated K p q ->
  2 * t * sumS K E p - t * t * sumS K E q + 2 * u * (1 - sumS K E p) - u * u * (1 - sumS K E q)
  <= fdiv K (phi_of (Renyi 2)) p q.
Proof.
  intros Hq Sp Sq Hd.
  assert (Cp : 1 - sumS K E p = sumS K (compl E) p) by (rewrite <- Sp, (sumS_split K E p); ring).
  assert (Cq : 1 - sumS K E q = sumS K (compl E) q) by (rewrite <- Sq, (sumS_split K E q); ring).
  rewrite Cp, Cq. unfold sumS, fdiv, compl.
  set (tau := fun l => if E l then t else u).
  assert (Eq : sum K (fun l => 2 * tau l * p l - tau l * tau l * q l) =
    2 * t * sum K (fun i => if E i then p i else 0) - t * t * sum K (fun i => if E i then q i else 0) +
    2 * u * sum K (fun i => if negb (E i) then p i else 0) - u * u * sum K (fun i => if negb (E i) then q i else 0)).
  { rewrite (sum_ext K _ (fun l => (2 * t) * (if E l then p l else 0) + (- (t * t)) * (if E l then q l else 0)
                                  + (2 * u) * (if negb (E l) then p l else 0) + (- (u * u)) * (if negb (E l) then q l else 0)))
      by (intros l _; unfold tau; destruct (E l); simpl; ring).
    rewrite !sum_plus, !sum_scal. ring. }
  rewrite <- Eq. apply sum_le. intros l Hl. simpl phi_of. apply chi_term; auto.
Qed.

Lemma chi_two a b c :
  0 <= a <= 1 -> 0 <= b <= 1 -> 0 <= c ->
  (forall t u, 2 * t * a - t * t * b + 2 * u * (1 - a) - u * u * (1 - b) <= 1 + c) ->
  (a - b) ^ 2 <= c * b * (1 - b).
Proof.
  intros Ha Hb Hc H.
  destruct (Req_dec b 0) as [B0|B0].
  - subst b. assert (a <= 0).
    { destruct (Rle_dec a 0) as [|Hp]; [assumption|].
      pose proof (H ((1 + c) / a) 0) as Ht. replace (2 * ((1 + c) / a) * a) with (2 * (1 + c)) in Ht by (field; lra).
      lra. }
    replace a with 0 by lra. nra.
  - destruct (Req_dec b 1) as [B1|B1].
    + subst b. assert (1 - a <= 0).
      { destruct (Rle_dec (1 - a) 0) as [|Hp]; [assumption|].
        pose proof (H 0 ((1 + c) / (1 - a))) as Ht.
        replace (2 * ((1 + c) / (1 - a)) * (1 - a)) with (2 * (1 + c)) in Ht by (field; lra). lra. }
      replace a with 1 by lra. nra.
    + pose proof (H (a / b) ((1 - a) / (1 - b))) as Ht.
      assert (E : 2 * (a / b) * a - a / b * (a / b) * b + 2 * ((1 - a) / (1 - b)) * (1 - a)
                  - (1 - a) / (1 - b) * ((1 - a) / (1 - b)) * (1 - b) = 1 + (a - b) ^ 2 / (b * (1 - b)))
        by (field; lra).
      rewrite E in Ht.
      assert (Hbb : 0 < b * (1 - b)) by (apply Rmult_lt_0_compat; lra).
      assert (Hq : (a - b) ^ 2 / (b * (1 - b)) <= c) by lra.
      apply Rmult_le_compat_r with (r := b * (1 - b)) in Hq; [|lra].
      replace ((a - b) ^ 2 / (b * (1 - b)) * (b * (1 - b))) with ((a - b) ^ 2) in Hq by (field; lra). lra.
Qed.

Lemma chi_final a b c :
  0 <= c -> (a - b) ^ 2 <= c * b * (1 - b) -> (a - b) ^ 2 <= c * a * (1 - a) -> (4 + c) * (a - b) ^ 2 <= c.
Proof.
  intros Hc H1 H2.
  assert (0 <= c * (1 - a - b) ^ 2) by (apply Rmult_le_pos; [lra | apply pow2_ge_0]).
  assert (E : c - (4 + c) * (a - b) ^ 2
              = 2 * (c * a * (1 - a) - (a - b) ^ 2) + 2 * (c * b * (1 - b) - (a - b) ^ 2) + c * (1 - a - b) ^ 2)
    by ring.
  lra.
Qed.

Lemma sumS_dist_bounds K p E :
  (forall l, (l < K)%nat -> 0 <= p l) -> sum K p = 1 -> 0 <= sumS K E p <= 1.
Proof.
  intros Hp Sp. split; [apply sumS_nonneg; exact Hp|]. rewrite <- Sp. apply sumS_le_sum. exact Hp.
Qed.

(** The certificates' bound: [sqrt(exp T - 1)/sqrt(exp T + 3)], in [[0, 1]], its square [c/(4 + c)]. *)
Definition chi_g (T : R) : R := sqrt (exp T - 1) / sqrt (exp T + 3).

Lemma chi_g_facts T : 0 <= T ->
  0 <= chi_g T /\ chi_g T <= 1 /\ chi_g T ^ 2 * (exp T + 3) = exp T - 1.
Proof.
  intros HT. assert (He : 1 <= exp T) by (pose proof (exp_ge_1_plus T); lra).
  pose proof (sqrt_pos (exp T - 1)). assert (Hs3 : 0 < sqrt (exp T + 3)) by (apply sqrt_lt_R0; lra).
  pose proof (sqrt_sqrt (exp T - 1) ltac:(lra)) as E1. pose proof (sqrt_sqrt (exp T + 3) ltac:(lra)) as E3.
  unfold chi_g.
  assert (Sq : (sqrt (exp T - 1) / sqrt (exp T + 3)) ^ 2 * (exp T + 3) = exp T - 1).
  { replace ((sqrt (exp T - 1) / sqrt (exp T + 3)) ^ 2 * (exp T + 3))
      with ((sqrt (exp T - 1) * sqrt (exp T - 1)) * (exp T + 3) / (sqrt (exp T + 3) * sqrt (exp T + 3)))
      by (field; lra).
    rewrite E1, E3. field. lra. }
  repeat split.
  - unfold Rdiv. apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra].
  - apply Rmult_le_reg_r with (sqrt (exp T + 3)); [lra|].
    replace (sqrt (exp T - 1) / sqrt (exp T + 3) * sqrt (exp T + 3)) with (sqrt (exp T - 1)) by (field; lra).
    rewrite Rmult_1_l. apply sqrt_le_1_alt. lra.
  - exact Sq.
Qed.

(** [chi_square_event]: [D_2] at most [T] both ways: every event's difference is at most [chi_g T]. *)
Theorem chi_square_event K p q E T :
  0 <= T -> (forall l, (l < K)%nat -> 0 <= p l) -> (forall l, (l < K)%nat -> 0 <= q l) -> sum K p = 1 ->
  sum K q = 1 -> div_le (Renyi 2) K p q T -> div_le (Renyi 2) K q p T -> sumS K E p - sumS K E q <= chi_g T.
Proof.
  intros HT Hp Hq Sp Sq [Hd1 H1] [Hd2 H2]. simpl dbound in H1, H2.
  replace ((1 + 1 - 1) * T) with T in H1, H2 by ring.
  set (c := exp T - 1). assert (Hc : 0 <= c) by (unfold c; pose proof (exp_ge_1_plus T); lra).
  set (a := sumS K E p). set (b := sumS K E q).
  pose proof (sumS_dist_bounds K p E Hp Sp) as Ha. pose proof (sumS_dist_bounds K q E Hq Sq) as Hb. fold a b in Ha, Hb.
  assert (Hb2 : (a - b) ^ 2 <= c * b * (1 - b)).
  { apply chi_two; auto. intros t u. pose proof (chi_merge K p q E t u Hq Sp Sq Hd1). fold a b in H. unfold c. lra. }
  assert (Ha2 : (b - a) ^ 2 <= c * a * (1 - a)).
  { apply chi_two; auto. intros t u. pose proof (chi_merge K q p E t u Hp Sq Sp Hd2). fold a b in H. unfold c. lra. }
  replace ((b - a) ^ 2) with ((a - b) ^ 2) in Ha2 by ring.
  pose proof (chi_final a b c Hc Hb2 Ha2) as F.
  destruct (chi_g_facts T HT) as [G0 [_ G2]].
  destruct (Rle_dec (a - b) 0) as [Hn|Hn]; [lra|].
  assert (Hsq : (a - b) ^ 2 <= chi_g T ^ 2).
  { apply Rmult_le_reg_r with (exp T + 3); [pose proof (exp_pos T); lra|]. rewrite G2.
    fold c. replace (exp T + 3) with (4 + c) by (unfold c; ring). lra. }
  assert (Habs : Rabs (a - b) <= Rabs (chi_g T)) by (apply Rsqr_le_abs_0; unfold Rsqr; simpl in Hsq; lra).
  rewrite Rabs_pos_eq in Habs by lra. rewrite Rabs_pos_eq in Habs by lra. exact Habs.
Qed.

(** * Tables: Renyi-2 between records, or of record removal, both ways *)
Lemma chi_pairs_slack N K x T :
  0 <= T -> table N K x -> div_pairs_le (Renyi 2) N K x T -> slack_pairs_le N K x (chi_g T) 1.
Proof.
  intros HT Htab HA E i k Hi Hk. rewrite Rmult_1_l. unfold mass.
  destruct (chi_g_facts T HT) as [G0 _].
  destruct (Nat.eq_dec i k) as [->|Hne]; [lra|].
  enough (sumS K E (fun b => x i b) - sumS K E (fun b => x k b) <= chi_g T) by lra.
  apply (chi_square_event K (row x i) (row x k) E T HT); auto.
  - intros l Hl. apply (proj1 Htab); auto.
  - intros l Hl. apply (proj1 Htab); auto.
  - apply (proj2 Htab); auto.
  - apply (proj2 Htab); auto.
Qed.

Lemma chi_removal_slack N K x T :
  0 <= T -> table N K x -> 2 <= INR N -> div_removal_le (Renyi 2) N K x T -> slack_removal_le N K x (chi_g T) 1.
Proof.
  intros HT Htab HN2 HA E k Hk. rewrite !Rmult_1_l, tmean_event, rmean_event by exact Hk.
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
  - pose proof (chi_square_event K _ _ E T HT Pt Pr St Sr H1 H2). lra.
  - pose proof (chi_square_event K _ _ E T HT Pr Pt Sr St H2 H1). lra.
Qed.

Lemma chi_g_le1 T : 0 <= T -> chi_g T <= 1.
Proof. intros HT. apply (chi_g_facts T HT). Qed.
Lemma chi_g_nonneg T : 0 <= T -> 0 <= chi_g T.
Proof. intros HT. apply (chi_g_facts T HT). Qed.
