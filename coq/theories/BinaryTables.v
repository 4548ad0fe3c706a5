(** Events and tables of the binary programs ([BinaryProgram.v]): B's slack on every event of two distributions
    ([slack_ok]) from Renyi of order 2 both ways ([chi_slack]) or KL ([kl_event], [kl_piece_slack]); between records
    ([bp_pairs], [kl_pairs]), of record removal ([bp_removal_same], [kl_removal_same]), from records to record removal
    ([bp_removal_pairs] at [c/(N (N - 1))], [kl_removal_pairs] by joint convexity) and where [N d >= 1]
    ([bp_removal_tv]). *)
From Coq Require Import Reals Lra Lia.
From Flocq Require Import Raux.
From Implgraph Require Import Sums Tables Entropy Events Distance DistanceLemmas Divergence CeilingChord Compose Pinsker
  ChiSquare RemovalChord BinaryProgram.
Open Scope R_scope.

(** * Events of two distributions *)
Definition slack_ok (K : nat) (p q : nat -> R) (d U : R) : Prop := forall E, sumS K E p <= U * sumS K E q + d.

Definition dist (K : nat) (p : nat -> R) : Prop := (forall l, (l < K)%nat -> 0 <= p l) /\ sum K p = 1.

(** [chi_slack]: Renyi of order 2 at most T both ways; the program at [c = exp T - 1] bounds every event. *)
Lemma chi_slack K p q T d U :
  dist K p -> dist K q -> div_le (Renyi 2) K p q T -> div_le (Renyi 2) K q p T -> bp_ok (exp T - 1) d U ->
  slack_ok K p q d U.
Proof.
  intros [Hp Sp] [Hq Sq] [Hd1 H1] [Hd2 H2] HB E. simpl dbound in H1, H2.
  replace ((1 + 1 - 1) * T) with T in H1, H2 by ring.
  set (c := exp T - 1). set (a := sumS K E p). set (b := sumS K E q).
  assert (Hc : 0 <= c) by (unfold c; pose proof (exp_pos T); pose proof (chi_merge K p q E 1 1 Hq Sp Sq Hd1); lra).
  pose proof (sumS_dist_bounds K p E Hp Sp) as Ha. pose proof (sumS_dist_bounds K q E Hq Sq) as Hb. fold a b in Ha, Hb.
  assert (Hb2 : (a - b) ^ 2 <= c * b * (1 - b)).
  { apply chi_two; auto. intros t u. pose proof (chi_merge K p q E t u Hq Sp Sq Hd1). fold a b in H. unfold c. lra. }
  assert (Ha2 : (b - a) ^ 2 <= c * a * (1 - a)).
  { apply chi_two; auto. intros t u. pose proof (chi_merge K q p E t u Hp Sq Sp Hd2). fold a b in H. unfold c. lra. }
  apply HB. replace ((b - a) ^ 2) with ((a - b) ^ 2) in Ha2 by ring. exact (conj Ha (conj Hb (conj Hb2 Ha2))).
Qed.

(** [kl_event]: KL at most T gives [a ln t - t b + b <= T] for every [t > 0] (the tangent [(ln t + 1) p - t q] of
    [q (p/q) ln (p/q)] on E's buckets, [p - q] on the others'). *)
Lemma kl_event K p q E T :
  dist K p -> dist K q -> div_le KL K p q T ->
  forall t, 0 < t -> sumS K E p * ln t - t * sumS K E q + sumS K E q <= T.
Proof.
  intros [Hp Sp] [Hq Sq] [Hd HT] t Ht. simpl dbound in HT.
  assert (Cp : 1 - sumS K E p = sumS K (compl E) p) by (rewrite <- Sp, (sumS_split K E p); ring).
  assert (Cq : 1 - sumS K E q = sumS K (compl E) q) by (rewrite <- Sq, (sumS_split K E q); ring).
  set (tau := fun l => if E l then t else 1).
  assert (Eq : sum K (fun l => ta KL (tau l) * p l + tb KL (tau l) * q l) =
    (ln t + 1) * sumS K E p - t * sumS K E q + sumS K (compl E) p - sumS K (compl E) q).
  { unfold sumS, compl, tau, ta, tb.
    rewrite (sum_ext K _ (fun l => (ln t + 1) * (if E l then p l else 0) + (- t) * (if E l then q l else 0)
                                  + 1 * (if negb (E l) then p l else 0) + (- 1) * (if negb (E l) then q l else 0)))
      by (intros l _; destruct (E l); simpl; rewrite ?ln_1; ring).
    rewrite !sum_plus, !sum_scal. ring. }
  assert (Le : sum K (fun l => ta KL (tau l) * p l + tb KL (tau l) * q l) <= fdiv K (phi_of KL) p q).
  { unfold fdiv. apply sum_le. intros l Hl. apply term_above; [left; reflexivity | | auto | auto | auto].
    unfold tdom, tau. destruct (E l); lra. }
  rewrite Eq, <- Cp, <- Cq in Le. lra.
Qed.

(** [kl_logsum]: at [t = exp s], [s d = T]: [a <= U b + d] with [U T = (exp s - 1) d]. *)
Lemma kl_slack K p q T d s U :
  dist K p -> dist K q -> div_le KL K p q T -> 0 < T -> 0 < d -> s * d = T -> U * T = (exp s - 1) * d ->
  slack_ok K p q d U.
Proof.
  intros Hp Hq HA HT Hd Hs HU E.
  pose proof (kl_event K p q E T Hp Hq HA (exp s) (exp_pos s)) as H. rewrite ln_exp in H.
  set (a := sumS K E p) in *. set (b := sumS K E q) in *.
  assert (Hm : d * (a * s - exp s * b + b) <= d * T) by (apply Rmult_le_compat_l; lra).
  assert (Hm' : T * a <= T * (U * b + d)).
  { replace (T * (U * b + d)) with ((U * T) * b + T * d) by ring. rewrite HU, <- Hs. nra. }
  apply Rmult_le_reg_l with T; lra.
Qed.

Lemma kl_u_ge1 T d s U : 0 < T -> 0 < d -> s * d = T -> U * T = (exp s - 1) * d -> 1 <= U.
Proof.
  intros HT Hd Hs HU. pose proof (exp_ge_1_plus s) as He.
  assert (Hs0 : 0 < s) by nra.
  assert (U * T >= T) by (rewrite HU; nra). nra.
Qed.

Lemma pinsker_slack K p q T d :
  dist K p -> dist K q -> div_le KL K p q T -> 0 <= d -> T <= 2 * d ^ 2 -> slack_ok K p q d 1.
Proof.
  intros [Hp Sp] [Hq Sq] HA Hd HT E. pose proof (pinsker_event K p q E T d Hp Hq Sp Sq HA Hd HT). lra.
Qed.

(** * Tables: between records, record removal *)
Lemma slack_pairs_of N K x d U :
  table N K x -> 0 <= d -> 1 - d <= U ->
  (forall i k, (i < N)%nat -> (k < N)%nat -> i <> k -> slack_ok K (row x i) (row x k) d U) ->
  slack_pairs_le N K x d U.
Proof.
  intros Htab Hd HU H E i k Hi Hk. unfold mass.
  destruct (Nat.eq_dec i k) as [->|Hne].
  - assert (B : 0 <= sumS K E (fun b => x k b) <= 1)
      by (apply sumS_dist_bounds; [intros l Hl; apply (proj1 Htab); auto | apply (proj2 Htab); auto]).
    nra.
  - exact (H i k Hi Hk Hne E).
Qed.

Lemma row_dist N K x i : table N K x -> (i < N)%nat -> dist K (row x i).
Proof. intros Htab Hi. split; [intros l Hl; apply (proj1 Htab); auto | apply (proj2 Htab); auto]. Qed.

Lemma tmean_dist N K x : table N K x -> 2 <= INR N -> dist K (tmean N x).
Proof.
  intros Htab HN. assert (HN0 : (0 < N)%nat) by (apply INR_lt; simpl; lra).
  split; [intros l Hl; apply (tmean_nonneg N K); auto | apply (tmean_sum N K); auto].
Qed.

Lemma rmean_dist N K x k : table N K x -> 2 <= INR N -> (k < N)%nat -> dist K (rmean N x k).
Proof. intros Htab HN Hk. split; [intros l Hl; apply (rmean_nonneg N K); auto | apply (rmean_sum N K); auto]. Qed.

Lemma slack_removal_of N K x d U :
  (forall k, (k < N)%nat -> slack_ok K (tmean N x) (rmean N x k) d U /\ slack_ok K (rmean N x k) (tmean N x) d U) ->
  slack_removal_le N K x d U.
Proof.
  intros H E k Hk. rewrite tmean_event, rmean_event by exact Hk.
  destruct (H k Hk) as [H1 H2]. split; [apply H1 | apply H2].
Qed.

(** Renyi of order 2 between records, B between records ([renyi2-ldp => eps-delta-ldp]). *)
Theorem bp_pairs N K x T d U :
  table N K x -> 0 <= T -> 0 <= d -> div_pairs_le (Renyi 2) N K x T -> bp_ok (exp T - 1) d U ->
  slack_pairs_le N K x d U.
Proof.
  intros Htab HT Hd HA HB.
  assert (Hc : 0 <= exp T - 1) by (pose proof (exp_ge_1_plus T); lra).
  apply slack_pairs_of; auto. { exact (bp_self _ d U Hc HB). }
  intros i k Hi Hk Hne. apply (chi_slack K _ _ T d U); try apply (row_dist N K x); auto.
Qed.

(** Renyi of order 2 of record removal, B the same pair ([renyi-dp(2) => eps-delta-dp]). *)
Theorem bp_removal_same N K x T d U :
  table N K x -> 2 <= INR N -> div_removal_le (Renyi 2) N K x T -> bp_ok (exp T - 1) d U ->
  slack_removal_le N K x d U.
Proof.
  intros Htab HN HA HB. apply slack_removal_of. intros k Hk. destruct (HA k Hk) as [H1 H2].
  split; apply (chi_slack K _ _ T d U); auto; first [apply (tmean_dist N K x) | apply (rmean_dist N K x)]; auto.
Qed.

(** KL between records or of record removal (by joint convexity from records), B on the pairs or removal. *)
Definition kl_piece (T d U : R) : Prop :=
  (0 <= d /\ T <= 2 * d ^ 2 /\ U = 1) \/ (exists s, 0 < T /\ 0 < d /\ s * d = T /\ U * T = (exp s - 1) * d).

Lemma kl_piece_slack K p q T d U : dist K p -> dist K q -> div_le KL K p q T -> kl_piece T d U -> slack_ok K p q d U.
Proof.
  intros Hp Hq HA [[Hd [HT ->]] | [s [HT [Hd [Hs HU]]]]].
  - exact (pinsker_slack K p q T d Hp Hq HA Hd HT).
  - exact (kl_slack K p q T d s U Hp Hq HA HT Hd Hs HU).
Qed.

Lemma kl_piece_self T d U : kl_piece T d U -> 0 <= d /\ 1 - d <= U.
Proof.
  intros [[Hd [_ ->]] | [s [HT [Hd [Hs HU]]]]]; [lra|].
  pose proof (kl_u_ge1 T d s U HT Hd Hs HU). lra.
Qed.

Theorem kl_pairs N K x T d U :
  table N K x -> div_pairs_le KL N K x T -> kl_piece T d U -> slack_pairs_le N K x d U.
Proof.
  intros Htab HA HP. destruct (kl_piece_self T d U HP) as [Hd HU].
  apply slack_pairs_of; auto. intros i k Hi Hk Hne.
  apply (kl_piece_slack K _ _ T d U); try apply (row_dist N K x); auto.
Qed.

Theorem kl_removal_same N K x T d U :
  table N K x -> 2 <= INR N -> div_removal_le KL N K x T -> kl_piece T d U -> slack_removal_le N K x d U.
Proof.
  intros Htab HN HA HP. apply slack_removal_of. intros k Hk. destruct (HA k Hk) as [H1 H2].
  split; apply (kl_piece_slack K _ _ T d U); auto; first [apply (tmean_dist N K x) | apply (rmean_dist N K x)]; auto.
Qed.

Theorem kl_removal_pairs N K x T d U :
  table N K x -> 2 <= INR N -> 0 <= T -> div_pairs_le KL N K x T -> kl_piece T d U -> slack_removal_le N K x d U.
Proof.
  intros Htab HN HT HA HP. apply (kl_removal_same N K x T); auto.
  apply pairs_to_removal; auto; [left; reflexivity | apply one_kl; exact HT].
Qed.

(** Record removal where [N d >= 1]: [P(E) - Q_i(E) = (x_i(E) - Q_i(E))/N] in [[-1/N, 1/N]], whatever A is. *)
Theorem bp_removal_tv N K x d :
  table N K x -> 2 <= INR N -> 1 <= INR N * d -> slack_removal_le N K x d 1.
Proof.
  intros Htab HN Hd E k Hk.
  pose proof (emass_nonneg N K E x k Htab Hk). pose proof (emass_le1 N K E x k Htab Hk).
  pose proof (sumS_dist_bounds K _ E (proj1 (rmean_dist N K x k Htab HN Hk)) (proj2 (rmean_dist N K x k Htab HN Hk))).
  rewrite <- (rmean_event N K x E k Hk) in H1.
  set (S := sum N (emass K E x)) in *. set (e := emass K E x k) in *.
  assert (HN1 : 0 < INR N - 1) by lra.
  set (Q := (S - e) / (INR N - 1)) in *.
  assert (HS : S = (INR N - 1) * Q + e) by (unfold Q; field; lra).
  assert (HP : S / INR N = Q + (e - Q) / INR N) by (rewrite HS; field; lra).
  rewrite HP. assert (Hb : -1 / INR N <= (e - Q) / INR N <= 1 / INR N).
  { split; apply Rmult_le_compat_r; try (left; apply Rinv_0_lt_compat; lra); lra. }
  assert (H1N : 1 / INR N <= d) by (apply (Rmult_le_reg_l (INR N)); [lra|]; field_simplify; lra).
  split; lra.
Qed.

(** * Renyi of order 2 between records, B on record removal: the removal pair at [c/(N (N - 1))] *)
Lemma chi_event2 K p q T E :
  dist K p -> dist K q -> div_le (Renyi 2) K p q T -> div_le (Renyi 2) K q p T ->
  chi_pair (exp T - 1) (sumS K E p) (sumS K E q).
Proof.
  intros Hp Hq H1 H2. set (a := sumS K E p). set (b := sumS K E q).
  assert (Hc : 0 <= exp T - 1).
  { destruct Hp as [Hp Sp]. destruct Hq as [Hq Sq]. destruct H1 as [Hd1 H1]. simpl dbound in H1.
    pose proof (chi_merge K p q E 1 1 Hq Sp Sq Hd1). replace ((1 + 1 - 1) * T) with T in H1 by ring. lra. }
  assert (Hok : bp_ok (exp T - 1) 0 1 -> True) by auto.
  destruct Hp as [Hp Sp]. destruct Hq as [Hq Sq]. destruct H1 as [Hd1 H1]. destruct H2 as [Hd2 H2].
  simpl dbound in H1, H2. replace ((1 + 1 - 1) * T) with T in H1, H2 by ring.
  pose proof (sumS_dist_bounds K p E Hp Sp) as Ha. pose proof (sumS_dist_bounds K q E Hq Sq) as Hb. fold a b in Ha, Hb.
  assert (Hb2 : (a - b) ^ 2 <= (exp T - 1) * b * (1 - b)).
  { apply chi_two; auto. intros t u. pose proof (chi_merge K p q E t u Hq Sp Sq Hd1). fold a b in H. lra. }
  assert (Ha2 : (b - a) ^ 2 <= (exp T - 1) * a * (1 - a)).
  { apply chi_two; auto. intros t u. pose proof (chi_merge K q p E t u Hp Sq Sp Hd2). fold a b in H. lra. }
  replace ((b - a) ^ 2) with ((a - b) ^ 2) in Ha2 by ring. exact (conj Ha (conj Hb (conj Hb2 Ha2))).
Qed.

Lemma smean_single N x k l : (k < N)%nat -> smean N x (single k) l = row x k l.
Proof. intro Hk. unfold smean, row, col. rewrite sumS_single, card_single by exact Hk. field. Qed.

Theorem bp_removal_pairs N K x T d U :
  table N K x -> 2 <= INR N -> 0 <= T -> div_pairs_le (Renyi 2) N K x T ->
  bp_ok ((exp T - 1) / (INR N * (INR N - 1))) d U -> slack_removal_le N K x d U.
Proof.
  intros Htab HN HT HA HB E k Hk.
  assert (Hc : 0 <= exp T - 1) by (pose proof (exp_ge_1_plus T); lra).
  assert (H1 : phi_of (Renyi 2) 1 <= dbound (Renyi 2) T)
    by (simpl; replace ((1 + 1 - 1) * T) with T by ring; pose proof (exp_ge_1_plus T); lra).
  assert (Hc1 : card N (single k) = 1) by (apply card_single; exact Hk).
  assert (Hc2 : card N (remove (fun _ => true) k) = INR N - 1) by (apply card_remove_one; exact Hk).
  assert (Er : forall l, (l < K)%nat -> rmean N x k l = smean N x (remove (fun _ => true) k) l)
    by (intros l _; unfold rmean, smean; rewrite Hc2; reflexivity).
  assert (Es : forall l, (l < K)%nat -> row x k l = smean N x (single k) l)
    by (intros l _; rewrite smean_single by exact Hk; reflexivity).
  assert (D1 : div_le (Renyi 2) K (row x k) (rmean N x k) T).
  { apply (div_le_ext _ K _ _ _ _ T Es Er). apply pairs_to_means; auto; [right; reflexivity | lra | lra]. }
  assert (D2 : div_le (Renyi 2) K (rmean N x k) (row x k) T).
  { apply (div_le_ext _ K _ _ _ _ T Er Es). apply pairs_to_means; auto; [right; reflexivity | lra | lra]. }
  pose proof (chi_event2 K _ _ T E (row_dist N K x k Htab Hk) (rmean_dist N K x k Htab HN Hk) D1 D2) as CP.
  rewrite (rmean_event N K x E k Hk) in *.
  set (e := emass K E x k). set (Q := sumS K E (rmean N x k)).
  assert (He : sumS K E (row x k) = e) by reflexivity. rewrite He in CP.
  assert (HS : sum N (emass K E x) = e + (INR N - 1) * Q).
  { unfold Q. rewrite <- (rmean_event N K x E k Hk). unfold e. field. lra. }
  rewrite HS. pose proof (chi_mix (INR N) (exp T - 1) e Q HN Hc CP) as M.
  split.
  - apply HB. exact M.
  - apply HB. apply chi_pair_sym. exact M.
Qed.
