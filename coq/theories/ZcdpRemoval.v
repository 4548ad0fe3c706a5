(** Zero-concentrated privacy on record removal (implgraph's ``zcdp-dp``): the predicate, what bounds it and what it
    bounds (``zcdp-chord`` on record removal, ``divergence-order`` from and into it;
    implgraph.certify.lemmas.zcdp_chord, implgraph.certify.zcdp_facts).

    [zcdp_removal_le N K x rho]: for every record [i], the table's mean [P = tmean N x] and the mean
    [Q_i = rmean N x i] of the table without record [i] are each dominated by the other (else the level is infinite)
    and at zero-concentrated level at most [rho] both ways ([ZcdpOrder.zcdp_le]: the Renyi divergence of every real
    order [a > 1] at most [rho a]). This is the statement of a zero-concentrated side on record removal.

    - [zcdp_rconf]: A confining every [Q_i/P] to [[lo, hi]] ([RemovalChord.rconf]) within [[1/R, R]] ([R lo >= 1],
      [hi <= R], [R >= 1]) gives [rho = ln R (R - 1)/(R + 1)] ([ZcdpChord.zcdp_within] both ways); its instances
      [zcdp_chord_removal_pairs] (a pairwise level T: [RemovalChord.pairwise_rconf], [R = (N + T - 1)/N], as
      [N T/((N - 1) T + 1) <= R] by [(N - 1)(T - 1)^2 >= 0]), [zcdp_chord_removal_subset] (a two-sided subset
      level of size N - 1: [RemovalChord.subset_rconf], [R = T]) and [zcdp_chord_removal_single] (each record against
      the table, a two-sided subset level of size 1: [single_rconf_inv] and [single_rconf_hi], [R = T], as
      [(N - 1/T)/(N - 1) <= T] by [(T - 1)(T (N - 1) - 1) >= 0]);
    - [zcdp_kl_removal]: KL of record removal both ways at most [rho] ([ZcdpOrder.zcdp_kl_div]);
      [zcdp_renyi_removal]: Renyi of a natural order [n >= 2] at [rho n] ([ZcdpOrder.zcdp_renyi]);
    - [zcdp_pairs_to_removal]: a zero-concentrated level [rho >= 0] between every two records gives it on record
      removal, by joint convexity of each order's Renyi sum: the tangent of [r^a] at [t > 0] lies below it
      ([rpower_tangent], Bernoulli's inequality by [Zcdp.mono_deriv]), so [a t^(a-1) p + (1 - a) t^a q] lies below the
      Renyi term [q (p/q)^a] and meets it at [t = p/q] ([rterm_above], [rterm_at]); summed over a double mixture
      ([rsum_joint], as [Divergence.joint_convex] for KL and Renyi 2), the Renyi sum of two means of records is at
      most the largest over pairs of records ([zcdp_means], the weights [Divergence.mixw_facts]: each pair's sum at
      most [exp((a - 1) rho a)], a record against itself 1); the means' domination is KL's
      ([Divergence.pairs_to_removal] after [ZcdpOrder.zcdp_kl_div]). *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Distance Events Entropy Divergence Zcdp ZcdpOrder RemovalChord.
From Implgraph Require Export ZcdpChord.
Open Scope R_scope.

Definition zcdp_removal_le (N K : nat) (x : nat -> nat -> R) (rho : R) : Prop :=
  forall i, (i < N)%nat ->
    (dominated K (tmean N x) (rmean N x i) /\ zcdp_le K (tmean N x) (rmean N x i) rho) /\
    (dominated K (rmean N x i) (tmean N x) /\ zcdp_le K (rmean N x i) (tmean N x) rho).

(** * A's interval of [Q_i/P] within [[1/R, R]] *)
Theorem zcdp_rconf N K x lo hi R :
  table N K x -> 2 <= INR N -> rconf N K x lo hi -> 1 <= R -> 1 <= R * lo -> hi <= R ->
  zcdp_removal_le N K x (ln R * (R - 1) / (R + 1)).
Proof.
  intros Htab HN2 HC HR Hlo Hhi i Hi.
  assert (HN : (0 < N)%nat) by (destruct N; [simpl in HN2; lra | lia]).
  assert (Hp : forall l, (l < K)%nat -> 0 <= tmean N x l) by (intros l Hl; apply (tmean_nonneg N K); auto).
  assert (Hq : forall l, (l < K)%nat -> 0 <= rmean N x i l) by (intros l Hl; apply (rmean_nonneg N K); auto).
  assert (Sp : sum K (tmean N x) = 1) by (apply tmean_sum; auto).
  assert (Sq : sum K (rmean N x i) = 1) by (apply (rmean_sum N K); auto).
  assert (W : within K (rmean N x i) (tmean N x) R).
  { intros l Hl. destruct (HC i l Hi Hl) as [A B]. pose proof (Hp l Hl). split; nra. }
  split; [apply zcdp_within; auto; apply within_sym; exact W | apply zcdp_within; auto].
Qed.

Theorem zcdp_chord_removal_pairs N K x T :
  table N K x -> pairwise_le N K x T -> 2 <= INR N -> 1 <= T ->
  zcdp_removal_le N K x (ln ((INR N + T - 1) / INR N) * ((INR N + T - 1) / INR N - 1) / ((INR N + T - 1) / INR N + 1)).
Proof.
  intros Htab HA HN2 HT.
  apply (zcdp_rconf N K x (INR N / (INR N + T - 1)) (INR N * T / (T * (INR N - 1) + 1))); auto.
  - apply pairwise_rconf; auto.
  - apply (Rmult_le_reg_r (INR N)); [lra|]. replace ((INR N + T - 1) / INR N * INR N) with (INR N + T - 1) by (field; lra).
    lra.
  - right. field. lra.
  - assert (D : 0 < T * (INR N - 1) + 1) by nra.
    apply (Rmult_le_reg_r (INR N * (T * (INR N - 1) + 1))); [nra|].
    replace (INR N * T / (T * (INR N - 1) + 1) * (INR N * (T * (INR N - 1) + 1))) with (INR N * INR N * T)
      by (field; lra).
    replace ((INR N + T - 1) / INR N * (INR N * (T * (INR N - 1) + 1))) with ((INR N + T - 1) * (T * (INR N - 1) + 1))
      by (field; lra).
    assert (0 <= (INR N - 1) * ((T - 1) * (T - 1))) by (apply Rmult_le_pos; [lra | apply Rle_0_sqr]). nra.
Qed.

Theorem zcdp_chord_removal_subset N K x T :
  table N K x -> subset_le TwoSided N K x (INR N - 1) T -> 2 <= INR N -> 1 <= T ->
  zcdp_removal_le N K x (ln T * (T - 1) / (T + 1)).
Proof.
  intros Htab HA HN2 HT.
  apply (zcdp_rconf N K x (1 / T) T); auto; [apply subset_rconf; auto; lra | right; field; lra | lra].
Qed.

Theorem zcdp_chord_removal_single N K x T :
  table N K x -> subset_le TwoSided N K x 1 T -> 2 <= INR N -> 1 <= T ->
  zcdp_removal_le N K x (ln T * (T - 1) / (T + 1)).
Proof.
  intros Htab HA HN2 HT.
  apply (zcdp_rconf N K x (1 / T) ((INR N - 1 / T) / (INR N - 1))); auto.
  - apply single_rconf_hi; auto. intros i l Hi Hl. apply (single_rconf_inv N K x T); auto.
  - right. field. lra.
  - apply (Rmult_le_reg_r (T * (INR N - 1))); [nra|].
    replace ((INR N - 1 / T) / (INR N - 1) * (T * (INR N - 1))) with (INR N * T - 1) by (field; lra).
    assert (0 <= (T - 1) * (T * (INR N - 1) - 1)) by (apply Rmult_le_pos; nra). nra.
Qed.

(** * What it bounds on the same pairs: KL at [rho], Renyi of a natural order [n >= 2] at [rho n] *)
Lemma removal_dists N K x i :
  table N K x -> 2 <= INR N -> (i < N)%nat ->
  (forall l, (l < K)%nat -> 0 <= tmean N x l) /\ (forall l, (l < K)%nat -> 0 <= rmean N x i l) /\
  sum K (tmean N x) = 1 /\ sum K (rmean N x i) = 1.
Proof.
  intros Htab HN2 Hi. assert (HN : (0 < N)%nat) by (destruct N; [simpl in HN2; lra | lia]).
  split; [intros l Hl; apply (tmean_nonneg N K); auto|]. split; [intros l Hl; apply (rmean_nonneg N K); auto|].
  split; [apply tmean_sum; auto | apply (rmean_sum N K); auto].
Qed.

Theorem zcdp_kl_removal N K x rho :
  table N K x -> 2 <= INR N -> zcdp_removal_le N K x rho -> div_removal_le KL N K x rho.
Proof.
  intros Htab HN2 HA i Hi. destruct (removal_dists N K x i Htab HN2 Hi) as [Hp [Hq [Sp Sq]]].
  destruct (HA i Hi) as [[D1 Z1] [D2 Z2]]. split; apply zcdp_kl_div; auto.
Qed.

Theorem zcdp_renyi_removal N K x rho n :
  table N K x -> 2 <= INR N -> zcdp_removal_le N K x rho -> (2 <= n)%nat ->
  div_removal_le (Renyi n) N K x (rho * INR n).
Proof.
  intros Htab HN2 HA Hn i Hi. destruct (removal_dists N K x i Htab HN2 Hi) as [Hp [Hq [Sp Sq]]].
  destruct (HA i Hi) as [[D1 Z1] [D2 Z2]]. split; apply zcdp_renyi; auto.
Qed.

(** * From every two records to record removal: joint convexity of the Renyi sum of a real order *)

(** The tangent of [r^a] at [t > 0] lies below it on [(0, oo)] (Bernoulli's inequality for a real order [a >= 1]). *)
Lemma rpower_tangent a t r :
  1 <= a -> 0 < t -> 0 < r -> Rpower t a + a * Rpower t (a - 1) * (r - t) <= Rpower r a.
Proof.
  intros Ha Ht Hr.
  set (g := fun y => Rpower y a - a * Rpower t (a - 1) * y).
  set (g' := fun y => a * Rpower y (a - 1) - a * Rpower t (a - 1)).
  assert (Hd : forall c, 0 < c -> derivable_pt_lim g c (g' c)).
  { intros c Hc. unfold g, g'. apply dl_minus; [apply derivable_pt_lim_power; exact Hc|].
    apply (dpl_val _ _ (0 * c + a * Rpower t (a - 1) * 1)); [|ring].
    exact (dl_mult (fun _ => a * Rpower t (a - 1)) (fun y => y) c 0 1 (dl_const _ c) (dl_id c)). }
  assert (G : g t <= g r).
  { destruct (Rle_lt_dec t r) as [Htr|Hrt].
    - apply (mono_deriv g g' t r Htr); [intros c Hc; apply Hd; lra|].
      intros c Hc. unfold g'. assert (Rpower t (a - 1) <= Rpower c (a - 1)) by (apply Rle_Rpower_l; lra). nra.
    - assert (M : (fun y => - g y) r <= (fun y => - g y) t).
      { apply (mono_deriv (fun y => - g y) (fun y => - g' y) r t ltac:(lra)).
        - intros c Hc. apply dl_opp, Hd. lra.
        - intros c Hc. unfold g'. assert (Rpower c (a - 1) <= Rpower t (a - 1)) by (apply Rle_Rpower_l; lra). nra. }
      simpl in M. lra. }
  unfold g in G. lra.
Qed.

Lemma rpower_succ t a : 0 < t -> Rpower t a = Rpower t (a - 1) * t.
Proof.
  intro Ht. replace a with ((a - 1) + 1) at 1 by ring. rewrite Rpower_plus, Rpower_1 by exact Ht. reflexivity.
Qed.

(** One bucket: the tangent family [a t^(a-1) p + (1 - a) t^a q] ([t > 0]) lies below the Renyi term, and meets it
    at [t = p/q]. *)
Lemma rterm_above a t p q :
  1 < a -> 0 < t -> 0 <= p -> 0 <= q -> (q = 0 -> p = 0) ->
  a * Rpower t (a - 1) * p + (1 - a) * Rpower t a * q <= rterm a p q.
Proof.
  intros Ha Ht Hp Hq Hd. pose proof (Rpower_pos t a) as Pa. pose proof (Rpower_pos t (a - 1)) as Pa1.
  unfold rterm. destruct (Rlt_dec 0 p) as [P|P].
  - assert (Q : 0 < q) by (destruct (Req_dec q 0) as [Z|Z]; [specialize (Hd Z); lra | lra]).
    pose proof (rpower_tangent a t (p / q) ltac:(lra) Ht ltac:(apply Rdiv_lt_0_compat; lra)) as Tg.
    rewrite (rpower_succ t a Ht) in Tg |- *.
    apply Rmult_le_compat_l with (r := q) in Tg; [|lra].
    replace (q * (Rpower t (a - 1) * t + a * Rpower t (a - 1) * (p / q - t)))
      with (a * Rpower t (a - 1) * p + (1 - a) * (Rpower t (a - 1) * t) * q) in Tg by (field; lra). exact Tg.
  - assert (p = 0) by lra. subst p. assert (0 <= (a - 1) * Rpower t a * q) by (apply Rmult_le_pos; [|lra]; nra).
    nra.
Qed.

Lemma rterm_at a P Q :
  0 < P -> 0 < Q -> rterm a P Q = a * Rpower (P / Q) (a - 1) * P + (1 - a) * Rpower (P / Q) a * Q.
Proof.
  intros HP HQ. rewrite rterm_pos by assumption. rewrite (rpower_succ (P / Q) a) by (apply Rdiv_lt_0_compat; lra).
  field. lra.
Qed.

(** The Renyi sum of two mixtures is at most the mixture of the Renyi sums (each pair dominated, and the mixtures). *)
Theorem rsum_joint a K n m w p q :
  1 < a -> (forall i j, (i < n)%nat -> (j < m)%nat -> 0 <= w i j) ->
  (forall i j l, (i < n)%nat -> (j < m)%nat -> (l < K)%nat -> 0 <= p i j l /\ 0 <= q i j l) ->
  (forall i j, (i < n)%nat -> (j < m)%nat -> dominated K (p i j) (q i j)) ->
  dominated K (mix2 n m w p) (mix2 n m w q) ->
  rsum K (mix2 n m w p) (mix2 n m w q) a <= sum n (fun i => sum m (fun j => w i j * rsum K (p i j) (q i j) a)).
Proof.
  intros Ha Hw Hpq Hd Hdm. unfold rsum.
  apply Rle_trans with (sum K (fun l => sum n (fun i => sum m (fun j => w i j * rterm a (p i j l) (q i j l))))).
  - apply sum_le. intros l Hl.
    assert (HQ : 0 <= mix2 n m w q l).
    { unfold mix2. apply sum_nonneg. intros i Hi. apply sum_nonneg. intros j Hj.
      apply Rmult_le_pos; [apply Hw; auto | apply (Hpq i j l Hi Hj Hl)]. }
    assert (HR : 0 <= sum n (fun i => sum m (fun j => w i j * rterm a (p i j l) (q i j l)))).
    { apply sum_nonneg. intros i Hi. apply sum_nonneg. intros j Hj.
      apply Rmult_le_pos; [apply Hw; auto | apply rterm_nonneg, (Hpq i j l Hi Hj Hl)]. }
    destruct (Rlt_dec 0 (mix2 n m w p l)) as [P|P].
    + assert (Q : 0 < mix2 n m w q l).
      { destruct (Req_dec (mix2 n m w q l) 0) as [Z|Z]; [rewrite (Hdm l Hl Z) in P; lra | lra]. }
      rewrite rterm_at by assumption.
      set (t := mix2 n m w p l / mix2 n m w q l).
      assert (Ht : 0 < t) by (unfold t; apply Rdiv_lt_0_compat; lra).
      unfold mix2. rewrite <- !sum_scal, <- sum_plus. apply sum_le. intros i Hi.
      rewrite <- !sum_scal, <- sum_plus. apply sum_le. intros j Hj.
      destruct (Hpq i j l Hi Hj Hl) as [H1 H2].
      pose proof (rterm_above a t (p i j l) (q i j l) Ha Ht H1 H2 (Hd i j Hi Hj l Hl)).
      pose proof (Hw i j Hi Hj). nra.
    + unfold rterm at 1. destruct (Rlt_dec 0 (mix2 n m w p l)); [contradiction | exact HR].
  - right. rewrite sum_swap. apply sum_ext. intros i Hi. rewrite sum_swap. apply sum_ext. intros j Hj.
    rewrite <- sum_scal. reflexivity.
Qed.

(** A record against itself: the Renyi sum is 1. *)
Lemma rsum_self K p a : (forall l, (l < K)%nat -> 0 <= p l) -> sum K p = 1 -> rsum K p p a = 1.
Proof.
  intros Hp S. rewrite <- S, <- (sum_support K p Hp). unfold rsum. apply sum_ext. intros l Hl. unfold rterm.
  destruct (Rlt_dec 0 (p l)) as [P|P]; [|reflexivity].
  replace (p l / p l) with 1 by (field; lra). unfold Rpower. rewrite ln_1, Rmult_0_r, exp_0. ring.
Qed.

(** Two means of records of a table at zero-concentrated level [rho >= 0] between every two records, the first
    dominated by the second, are at that level. *)
Theorem zcdp_means N K x X Y rho :
  table N K x -> zcdp_pairs_le N K x rho -> 0 <= rho -> 0 < card N X -> 0 < card N Y ->
  dominated K (smean N x X) (smean N x Y) -> zcdp_le K (smean N x X) (smean N x Y) rho.
Proof.
  intros Htab HA Hrho HX HY Hdm a Ha.
  destruct (mixw_facts N K x X Y HX HY) as [Hw [Hws [Ep Eq]]]. set (w := mixw N X Y) in *.
  assert (Hn : forall i l, (i < N)%nat -> (l < K)%nat -> 0 <= row x i l)
    by (intros i l Hi Hl; destruct Htab as [Hn _]; apply Hn; auto).
  assert (Hpq : forall i j l, (i < N)%nat -> (j < N)%nat -> (l < K)%nat -> 0 <= row x i l /\ 0 <= row x j l)
    by (intros i j l Hi Hj Hl; split; apply Hn; auto).
  set (E := exp ((a - 1) * (rho * a))).
  assert (HE : 1 <= E).
  { unfold E. pose proof (exp_ineq1_le ((a - 1) * (rho * a))).
    assert (0 <= (a - 1) * (rho * a)) by (apply Rmult_le_pos; [lra | apply Rmult_le_pos; lra]). lra. }
  assert (Hpair : forall i j, (i < N)%nat -> (j < N)%nat ->
            dominated K (row x i) (row x j) /\ rsum K (row x i) (row x j) a <= E).
  { intros i j Hi Hj. destruct (Nat.eq_dec i j) as [->|Hne].
    - split; [intros l _ Z; exact Z|]. rewrite rsum_self; [exact HE | intros l Hl; apply Hn; auto |
        apply (row_sum N K x j Htab Hj)].
    - destruct (HA i j Hi Hj Hne) as [Hd Hz]. split; [exact Hd|].
      assert (Pos : 0 < rsum K (row x i) (row x j) a)
        by (apply rsum_pos; [intros l Hl; apply Hn; auto | intros l Hl; apply Hn; auto
                            | apply (row_sum N K x i Htab Hi) | exact Hd]).
      pose proof (Hz a Ha) as Z. unfold rdiv in Z.
      assert (L : ln (rsum K (row x i) (row x j) a) <= (a - 1) * (rho * a)).
      { apply (Rmult_le_compat_r (a - 1)) in Z; [|lra].
        replace (ln (rsum K (row x i) (row x j) a) / (a - 1) * (a - 1)) with (ln (rsum K (row x i) (row x j) a))
          in Z by (field; lra). lra. }
      unfold E. rewrite <- (exp_ln (rsum K (row x i) (row x j) a)) by exact Pos.
      destruct L as [L|L]; [left; apply exp_increasing; exact L | rewrite L; lra]. }
  assert (Hdm' : dominated K (mix2 N N w (fun i j => row x i)) (mix2 N N w (fun i j => row x j))).
  { intros l Hl Z. rewrite <- Ep by exact Hl. apply Hdm; [exact Hl|]. rewrite Eq by exact Hl. exact Z. }
  assert (S : rsum K (smean N x X) (smean N x Y) a <= E).
  { assert (R : rsum K (smean N x X) (smean N x Y) a =
                rsum K (mix2 N N w (fun i j => row x i)) (mix2 N N w (fun i j => row x j)) a).
    { unfold rsum. apply sum_ext. intros l Hl. rewrite Ep, Eq by exact Hl. reflexivity. }
    rewrite R. eapply Rle_trans.
    - apply (rsum_joint a K N N w (fun i j => row x i) (fun i j => row x j) Ha Hw Hpq
               (fun i j Hi Hj => proj1 (Hpair i j Hi Hj)) Hdm').
    - apply Rle_trans with (sum N (fun i => sum N (fun j => w i j * E))).
      + apply sum_le. intros i Hi. apply sum_le. intros j Hj. apply Rmult_le_compat_l; [apply Hw; auto|].
        apply (proj2 (Hpair i j Hi Hj)).
      + right. rewrite (sum_ext N _ (fun i => sum N (fun j => w i j) * E))
          by (intros; rewrite <- sum_mult_r'; reflexivity).
        rewrite sum_mult_r', Hws. ring. }
  assert (Pos : 0 < rsum K (smean N x X) (smean N x Y) a).
  { apply rsum_pos; [intros l Hl; apply (smean_nonneg N K); auto | intros l Hl; apply (smean_nonneg N K); auto
                    | apply (smean_sum N K); auto | exact Hdm]. }
  unfold rdiv. apply (Rmult_le_reg_r (a - 1)); [lra|].
  replace (ln (rsum K (smean N x X) (smean N x Y) a) / (a - 1) * (a - 1))
    with (ln (rsum K (smean N x X) (smean N x Y) a)) by (field; lra).
  apply Rle_trans with (ln E); [apply ln_le_mono; assumption|]. unfold E. rewrite ln_exp. lra.
Qed.

(** Record removal: the two means' domination from KL's ([Divergence.pairs_to_removal] through
    [ZcdpPairs.zcdp_kl_pairs]: KL <= rho between records), their level from [zcdp_means]. *)
Theorem zcdp_pairs_to_removal N K x rho :
  table N K x -> 2 <= INR N -> zcdp_pairs_le N K x rho -> 0 <= rho -> zcdp_removal_le N K x rho.
Proof.
  intros Htab HN2 HA Hrho i Hi.
  assert (HKL : div_pairs_le KL N K x rho).
  { intros j k Hj Hk Hne. destruct (HA j k Hj Hk Hne) as [Hd Hz].
    apply zcdp_kl_div; [intros l Hl; destruct Htab as [Hn _]; apply Hn; auto
                       | intros l Hl; destruct Htab as [Hn _]; apply Hn; auto | apply (row_sum N K x j Htab Hj)
                       | exact Hd | exact Hz]. }
  destruct (pairs_to_removal KL N K x rho (or_introl eq_refl) Htab HN2 HKL (one_kl rho Hrho) i Hi)
    as [[D1 _] [D2 _]].
  assert (Hcr : card N (remove (fun _ => true) i) = INR N - 1) by (apply card_remove_one; exact Hi).
  assert (Et : forall l, (l < K)%nat -> tmean N x l = smean N x (fun _ => true) l)
    by (intros l _; unfold tmean, smean; rewrite card_full_set; reflexivity).
  assert (Er : forall l, (l < K)%nat -> rmean N x i l = smean N x (remove (fun _ => true) i) l)
    by (intros l _; unfold rmean, smean; rewrite Hcr; reflexivity).
  assert (HX : 0 < card N (fun _ => true)) by (rewrite card_full_set; lra).
  assert (HY : 0 < card N (remove (fun _ => true) i)) by lra.
  assert (Rt : forall p q p' q', (forall l, (l < K)%nat -> p l = p' l) -> (forall l, (l < K)%nat -> q l = q' l) ->
             zcdp_le K p' q' rho -> zcdp_le K p q rho).
  { intros p q p' q' Ep Eq Z a Ha. unfold rdiv, rsum.
    rewrite (sum_ext K _ (fun l => rterm a (p' l) (q' l))) by (intros l Hl; rewrite Ep, Eq by exact Hl; reflexivity).
    apply Z, Ha. }
  assert (Dt : forall p q p' q', (forall l, (l < K)%nat -> p l = p' l) -> (forall l, (l < K)%nat -> q l = q' l) ->
             dominated K p q -> dominated K p' q').
  { intros p q p' q' Ep Eq D l Hl Z. rewrite <- Ep by exact Hl. apply D; [exact Hl|]. rewrite Eq by exact Hl. exact Z. }
  split; split; try assumption.
  - apply (Rt _ _ _ _ Et Er). apply zcdp_means; auto. exact (Dt _ _ _ _ Et Er D1).
  - apply (Rt _ _ _ _ Er Et). apply zcdp_means; auto. exact (Dt _ _ _ _ Er Et D2).
Qed.
