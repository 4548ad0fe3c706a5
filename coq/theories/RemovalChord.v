(** The chord lemma on record removal, both ways, on the interval A confines Q_i/P to
    (implgraph.certify.lemmas.chord, chord_removal, chord_narrowed; docs/proofs/chord-removal.md and
    tight-pairwise-removal.md); the hockey stick's chord with a maximum; a one-sided level of each record against
    the table bounding every class's ratio; a subset level of size N - 1 at 1 against the classes.

    [rconf N K x lo hi]: for every record [i] and bucket [l], [lo P_l <= Q_i,l <= hi P_l], with [P] the table's mean
    and [Q_i] the mean of the table without record [i]. B compares them both ways: D(Q_i || P) has its ratios
    [Q_i/P] in [[lo, hi]], D(P || Q_i) has [P/Q_i] in [[1/hi, 1/lo]] (the chord there is the chord of phi's
    perspective [q phi(1/q)] on [[lo, hi]]); so B holds at U where both chords' values are at most U
    ([chord_rconf]). What A gives:
    - a pairwise level T: [[N/(N - 1 + T), N T/((N - 1) T + 1)]] ([pairwise_rconf]: [Q_i/P = N/(N - 1 + x_i/Q_i)],
      [x_i/Q_i] in [[1/T, T]]);
    - a two-sided subset level of size 1 (each record against the table): [Q_i/P <= (N - 1/T)/(N - 1)],
      [>= (N - T)/(N - 1)] and [>= 1/T] ([single_rconf_hi], [single_rconf_lo], [single_rconf_inv]);
    - a two-sided subset level of size N - 1: [[1/T, T]], [Q_i/P <= N/(N - 1)] ([x_i >= 0]) and
      [Q_i/P <= N - (N - 1)/T] (every other record's [N x_j <= (N - (N - 1)/T) sum]; at N = 2 it is 2 - 1/T)
      ([subset_rconf], [subset_rconf_n], [subset_rconf_sum]). *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Events Entropy Divergence.
Open Scope R_scope.

Definition rconf (N K : nat) (x : nat -> nat -> R) (lo hi : R) : Prop :=
  forall i l, (i < N)%nat -> (l < K)%nat ->
    lo * tmean N x l <= rmean N x i l /\ rmean N x i l <= hi * tmean N x l.

Lemma rmean_nonneg N K x i l : table N K x -> 2 <= INR N -> (l < K)%nat -> 0 <= rmean N x i l.
Proof.
  intros Htab HN Hl. unfold rmean, Rdiv. apply Rmult_le_pos.
  - apply sumS_nonneg. intros k Hk. apply (col_nonneg N K x l Htab Hl k Hk).
  - left. apply Rinv_0_lt_compat. lra.
Qed.

Lemma rmean_sum N K x i : table N K x -> 2 <= INR N -> (i < N)%nat -> sum K (rmean N x i) = 1.
Proof.
  intros Htab HN Hi.
  assert (Hcr : card N (remove (fun _ => true) i) = INR N - 1) by (apply card_remove_one; exact Hi).
  rewrite (sum_ext K _ (smean N x (remove (fun _ => true) i)))
    by (intros l _; unfold rmean, smean; rewrite Hcr; reflexivity).
  apply (smean_sum N K); [exact Htab | lra].
Qed.

Lemma rconf_weaken N K x lo hi lo' hi' :
  table N K x -> rconf N K x lo hi -> lo' <= lo -> hi <= hi' -> rconf N K x lo' hi'.
Proof.
  intros Htab HC H1 H2 i l Hi Hl. destruct (HC i l Hi Hl) as [A B].
  pose proof (tmean_nonneg N K x l Htab Hl). split; nra.
Qed.

(** * B both ways on the interval *)
Theorem chord_rconf k N K x lo hi lo2 hi2 U :
  table N K x -> 2 <= INR N -> rconf N K x lo hi -> 0 < lo -> lo < hi ->
  below_chord (phi_of k) lo hi -> chord_val (phi_of k) lo hi <= dbound k U ->
  lo2 * hi <= 1 -> 1 <= hi2 * lo -> lo2 < hi2 ->
  below_chord (phi_of k) lo2 hi2 -> chord_val (phi_of k) lo2 hi2 <= dbound k U ->
  div_removal_le k N K x U.
Proof.
  intros Htab HN2 HC H0 Hlh Hc1 HU1 H2l H2h H2lh Hc2 HU2 i Hi.
  assert (HN : (0 < N)%nat) by (destruct N; [simpl in HN2; lra | lia]).
  assert (Sr : sum K (rmean N x i) = 1) by (apply (rmean_sum N K); auto).
  assert (St : sum K (tmean N x) = 1) by (apply tmean_sum; [exact Htab | exact HN]).
  split.
  - apply (chord_between k K _ _ lo2 hi2 U); auto.
    + intros l Hl. apply (rmean_nonneg N K); auto.
    + intros l Hl. destruct (HC i l Hi Hl) as [A B].
      pose proof (tmean_nonneg N K x l Htab Hl) as Pt. pose proof (rmean_nonneg N K x i l Htab HN2 Hl) as Pr.
      assert (Hh2 : 0 < hi2) by nra. split.
      * destruct (Rle_lt_dec lo2 0) as [Z|Z]; [nra|].
        apply Rle_trans with (lo2 * (hi * tmean N x l)); [apply Rmult_le_compat_l; lra | nra].
      * apply Rle_trans with (hi2 * (lo * tmean N x l)); [nra | apply Rmult_le_compat_l; lra].
  - apply (chord_between k K _ _ lo hi U); auto.
    intros l Hl. apply (tmean_nonneg N K); auto.
Qed.

(** At ratio 1 both ways the two means are equal: the divergence is [phi 1]. *)
Theorem one_rconf k N K x U :
  table N K x -> 2 <= INR N -> rconf N K x 1 1 -> phi_of k 1 <= dbound k U -> div_removal_le k N K x U.
Proof.
  intros Htab HN2 HC H1 i Hi.
  assert (HN : (0 < N)%nat) by (destruct N; [simpl in HN2; lra | lia]).
  assert (E : forall l, (l < K)%nat -> rmean N x i l = tmean N x l)
    by (intros l Hl; destruct (HC i l Hi Hl); lra).
  assert (Sr : sum K (rmean N x i) = 1) by (apply (rmean_sum N K); auto).
  assert (St : sum K (tmean N x) = 1) by (apply tmean_sum; [exact Htab | exact HN]).
  split; split.
  - intros l Hl Z. rewrite <- E by exact Hl. exact Z.
  - rewrite (fdiv_same K _ _ _ (fun l Hl => eq_sym (E l Hl)) Sr). exact H1.
  - intros l Hl Z. rewrite E by exact Hl. exact Z.
  - rewrite (fdiv_same K _ _ _ E St). exact H1.
Qed.

(** * What A confines Q_i/P to *)

(** The others' sum [R] and the record's value: [sum = R + x_i], [card = N - 1]. *)
Lemma rest_split N x i l : (i < N)%nat ->
  sum N (col x l) = sumS N (remove (fun _ => true) i) (col x l) + x i l.
Proof. intro Hi. rewrite (sum_remove_one N i (col x l) Hi). reflexivity. Qed.

Lemma pairwise_rconf N K x T :
  table N K x -> pairwise_le N K x T -> 2 <= INR N -> 1 <= T ->
  rconf N K x (INR N / (INR N + T - 1)) (INR N * T / (T * (INR N - 1) + 1)).
Proof.
  intros Htab HA HN2 HT i l Hi Hl.
  set (X := remove (fun _ => true) i).
  assert (Hc : card N X = INR N - 1) by (apply card_remove_one; exact Hi).
  set (Rr := sumS N X (col x l)).
  assert (Hs : sum N (col x l) = Rr + x i l) by (apply rest_split; exact Hi).
  assert (H1 : (INR N - 1) * x i l <= T * Rr).
  { rewrite <- Hc. replace (card N X * x i l) with (sumS N X (fun _ => x i l)) by (rewrite sumS_const; ring).
    unfold Rr. rewrite <- sumS_scal. apply sumS_le. intros j Hj _. unfold col. apply HA; auto. }
  assert (H2 : Rr <= T * (INR N - 1) * x i l).
  { rewrite <- Hc. replace (T * card N X * x i l) with (sumS N X (fun _ => T * x i l)) by (rewrite sumS_const; ring).
    unfold Rr. apply sumS_le. intros j Hj _. unfold col. apply HA; auto. }
  assert (Hx : 0 <= x i l) by (destruct Htab as [Hn _]; apply Hn; auto).
  assert (HR : 0 <= Rr) by (apply sumS_nonneg; intros k Hk; apply (col_nonneg N K x l Htab Hl k Hk)).
  unfold rmean, tmean. fold X. fold Rr. rewrite Hs.
  assert (D1 : 0 < INR N + T - 1) by lra. assert (D2 : 0 < T * (INR N - 1) + 1) by nra.
  split.
  - apply Rmult_le_reg_r with ((INR N + T - 1) * (INR N - 1)); [nra|].
    replace (INR N / (INR N + T - 1) * ((Rr + x i l) / INR N) * ((INR N + T - 1) * (INR N - 1)))
      with ((INR N - 1) * (Rr + x i l)) by (field; lra).
    replace (Rr / (INR N - 1) * ((INR N + T - 1) * (INR N - 1))) with ((INR N + T - 1) * Rr) by (field; lra).
    nra.
  - apply Rmult_le_reg_r with ((T * (INR N - 1) + 1) * (INR N - 1)); [nra|].
    replace (INR N * T / (T * (INR N - 1) + 1) * ((Rr + x i l) / INR N) * ((T * (INR N - 1) + 1) * (INR N - 1)))
      with (T * (INR N - 1) * (Rr + x i l)) by (field; lra).
    replace (Rr / (INR N - 1) * ((T * (INR N - 1) + 1) * (INR N - 1))) with ((T * (INR N - 1) + 1) * Rr)
      by (field; lra).
    nra.
Qed.

(** Each record against the table (a two-sided subset level of size 1): [x_j <= T P] and [P <= T x_j]. *)
Lemma single_bounds N K x T j l :
  subset_le TwoSided N K x 1 T -> (j < N)%nat -> (l < K)%nat ->
  INR N * x j l <= T * sum N (col x l) /\ sum N (col x l) <= T * (INR N * x j l).
Proof.
  intros HA Hj Hl. destruct (HA l (single j) Hl (card_single N j Hj)) as [Hup Hlow]. specialize (Hlow eq_refl).
  unfold upper_ok, lower_ok in *. rewrite card_single, sumS_single in * by exact Hj. unfold col in *. lra.
Qed.

Lemma single_rconf_hi N K x T lo :
  table N K x -> subset_le TwoSided N K x 1 T -> 2 <= INR N -> 1 <= T ->
  (forall i l, (i < N)%nat -> (l < K)%nat -> lo * tmean N x l <= rmean N x i l) ->
  rconf N K x lo ((INR N - 1 / T) / (INR N - 1)).
Proof.
  intros Htab HA HN2 HT Hlo i l Hi Hl. split; [apply Hlo; auto|].
  destruct (single_bounds N K x T i l HA Hi Hl) as [_ H2].
  unfold rmean, tmean. rewrite (rest_split N x i l Hi) in *.
  set (Rr := sumS N (remove (fun _ => true) i) (col x l)) in *.
  apply Rmult_le_reg_r with (T * INR N * (INR N - 1)); [apply Rmult_lt_0_compat; nra|].
  replace (Rr / (INR N - 1) * (T * INR N * (INR N - 1))) with (T * INR N * Rr) by (field; lra).
  replace ((INR N - 1 / T) / (INR N - 1) * ((Rr + x i l) / INR N) * (T * INR N * (INR N - 1)))
    with ((INR N * T - 1) * (Rr + x i l)) by (field; lra).
  nra.
Qed.

Lemma single_rconf_lo N K x T i l :
  table N K x -> subset_le TwoSided N K x 1 T -> 2 <= INR N -> (i < N)%nat -> (l < K)%nat ->
  (INR N - T) / (INR N - 1) * tmean N x l <= rmean N x i l.
Proof.
  intros Htab HA HN2 Hi Hl.
  destruct (single_bounds N K x T i l HA Hi Hl) as [H1 _].
  unfold rmean, tmean. rewrite (rest_split N x i l Hi) in *.
  set (Rr := sumS N (remove (fun _ => true) i) (col x l)) in *.
  apply Rmult_le_reg_r with (INR N * (INR N - 1)); [nra|].
  replace (Rr / (INR N - 1) * (INR N * (INR N - 1))) with (INR N * Rr) by (field; lra).
  replace ((INR N - T) / (INR N - 1) * ((Rr + x i l) / INR N) * (INR N * (INR N - 1)))
    with ((INR N - T) * (Rr + x i l)) by (field; lra).
  nra.
Qed.

Lemma single_rconf_inv N K x T i l :
  table N K x -> subset_le TwoSided N K x 1 T -> 2 <= INR N -> 1 <= T -> (i < N)%nat -> (l < K)%nat ->
  1 / T * tmean N x l <= rmean N x i l.
Proof.
  intros Htab HA HN2 HT Hi Hl.
  set (X := remove (fun _ => true) i).
  assert (Hc : card N X = INR N - 1) by (apply card_remove_one; exact Hi).
  assert (H : (INR N - 1) * sum N (col x l) <= T * (INR N * sumS N X (col x l))).
  { rewrite <- Hc. rewrite Rmult_comm, <- sumS_const. rewrite <- !sumS_scal. apply sumS_le. intros j Hj _.
    destruct (single_bounds N K x T j l HA Hj Hl) as [_ H2]. unfold col in *. lra. }
  unfold rmean, tmean. fold X.
  apply Rmult_le_reg_r with (T * INR N * (INR N - 1)); [apply Rmult_lt_0_compat; nra|].
  replace (1 / T * (sum N (col x l) / INR N) * (T * INR N * (INR N - 1))) with ((INR N - 1) * sum N (col x l))
    by (field; lra).
  replace (sumS N X (col x l) / (INR N - 1) * (T * INR N * (INR N - 1))) with (T * (INR N * sumS N X (col x l)))
    by (field; lra).
  exact H.
Qed.

(** A two-sided subset level of size N - 1 (record removal as A). *)
Lemma subset_rconf N K x T :
  table N K x -> subset_le TwoSided N K x (INR N - 1) T -> 2 <= INR N -> 0 < T -> rconf N K x (1 / T) T.
Proof.
  intros Htab HA HN2 HT i l Hi Hl.
  pose proof (subset_within N K x T i Htab HA HN2 Hi l Hl) as [H1 H2].
  assert (Hcr : card N (remove (fun _ => true) i) = INR N - 1) by (apply card_remove_one; exact Hi).
  assert (Et : tmean N x l = smean N x (fun _ => true) l)
    by (unfold tmean, smean; rewrite card_full_set; reflexivity).
  assert (Er : rmean N x i l = smean N x (remove (fun _ => true) i) l)
    by (unfold rmean, smean; rewrite Hcr; reflexivity).
  rewrite Et, Er. split; [|exact H1].
  apply Rmult_le_reg_l with T; [exact HT|].
  replace (T * (1 / T * smean N x (fun _ => true) l)) with (smean N x (fun _ => true) l) by (field; lra). exact H2.
Qed.

Lemma subset_rconf_n N K x T :
  table N K x -> subset_le TwoSided N K x (INR N - 1) T -> 2 <= INR N -> 0 < T ->
  rconf N K x (1 / T) (INR N / (INR N - 1)).
Proof.
  intros Htab HA HN2 HT i l Hi Hl. split; [apply (subset_rconf N K x T Htab HA HN2 HT i l Hi Hl)|].
  assert (Hx : 0 <= x i l) by (destruct Htab as [Hn _]; apply Hn; auto).
  unfold rmean, tmean. rewrite (rest_split N x i l Hi).
  set (Rr := sumS N (remove (fun _ => true) i) (col x l)).
  replace (INR N / (INR N - 1) * ((Rr + x i l) / INR N)) with ((Rr + x i l) / (INR N - 1)) by (field; lra).
  unfold Rdiv. apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; lra | lra].
Qed.

Lemma subset_rconf_sum N K x T :
  table N K x -> subset_le TwoSided N K x (INR N - 1) T -> 2 <= INR N -> 0 < T ->
  rconf N K x (1 / T) (INR N - (INR N - 1) / T).
Proof.
  intros Htab HA HN2 HT i l Hi Hl. split; [apply (subset_rconf N K x T Htab HA HN2 HT i l Hi Hl)|].
  set (X := remove (fun _ => true) i).
  assert (Hc : card N X = INR N - 1) by (apply card_remove_one; exact Hi).
  assert (H : INR N * sumS N X (col x l) <= (INR N - 1) * ((INR N - (INR N - 1) / T) * sum N (col x l))).
  { replace ((INR N - 1) * ((INR N - (INR N - 1) / T) * sum N (col x l)))
      with (sumS N X (fun _ => (INR N - (INR N - 1) / T) * sum N (col x l))) by (rewrite sumS_const, Hc; ring).
    rewrite <- sumS_scal. apply sumS_le. intros j Hj _.
    destruct (removal_record N K x T l j HA HT Hl Hj) as [H1 _]. unfold col in *. lra. }
  unfold rmean, tmean. fold X.
  apply Rmult_le_reg_r with (INR N * (INR N - 1)); [nra|].
  replace (sumS N X (col x l) / (INR N - 1) * (INR N * (INR N - 1))) with (INR N * sumS N X (col x l))
    by (field; lra).
  replace ((INR N - (INR N - 1) / T) * (sum N (col x l) / INR N) * (INR N * (INR N - 1)))
    with ((INR N - 1) * ((INR N - (INR N - 1) / T) * sum N (col x l))) by (field; lra).
  exact H.
Qed.

(** * A subset level of size N - 1 at 1 against each class and the table: every class's mean is the table's *)
Theorem one_subset_class k N K x cls U :
  table N K x -> subset_le TwoSided N K x (INR N - 1) 1 -> 2 <= INR N -> phi_of k 1 <= dbound k U ->
  div_class_le k N K x cls U.
Proof.
  intros Htab HA HN2 H1 i Hi.
  assert (HN : (0 < N)%nat) by (destruct N; [simpl in HN2; lra | lia]).
  assert (Hc1 : 1 <= card N (classof cls i)) by (apply class_self_pos; exact Hi).
  assert (Ej : forall l j, (l < K)%nat -> (j < N)%nat -> x j l = sum N (col x l) / INR N).
  { intros l j Hl Hj. destruct (removal_record N K x 1 l j HA ltac:(lra) Hl Hj) as [A B].
    apply Rmult_eq_reg_l with (INR N); [|lra]. field_simplify; [|lra].
    replace (INR N - (INR N - 1) / 1) with 1 in A by (field; lra).
    replace (INR N - (INR N - 1) * 1) with 1 in B by ring. lra. }
  assert (E : forall l, (l < K)%nat -> cmean N x cls i l = tmean N x l).
  { intros l Hl. unfold cmean, tmean.
    rewrite (sumS_ext_in N (classof cls i) (col x l) (fun _ => sum N (col x l) / INR N))
      by (intros j Hj _; unfold col; apply Ej; auto).
    rewrite sumS_const. field. lra. }
  split.
  - intros l Hl Z. rewrite E by exact Hl. exact Z.
  - rewrite (fdiv_same K _ _ _ E (tmean_sum N K x Htab HN)). exact H1.
Qed.

(** * One record against the table at most T (a one-sided subset level of size 1): every class's mean too *)
Lemma onesub_upper N K x cls T :
  subset_le OneSided N K x 1 T -> forall i l, (i < N)%nat -> (l < K)%nat -> cmean N x cls i l <= T * tmean N x l.
Proof.
  intros HA i l Hi Hl.
  assert (HN : 0 < INR N) by (apply lt_0_INR; lia).
  assert (Hc1 : 1 <= card N (classof cls i)) by (apply class_self_pos; exact Hi).
  assert (H : INR N * sumS N (classof cls i) (col x l) <= card N (classof cls i) * (T * sum N (col x l))).
  { rewrite <- sumS_scal, Rmult_comm, <- sumS_const. apply sumS_le. intros j Hj _.
    destruct (HA l (single j) Hl (card_single N j Hj)) as [Hup _]. unfold upper_ok in Hup.
    rewrite card_single, sumS_single in Hup by exact Hj. lra. }
  unfold cmean, tmean.
  apply Rmult_le_reg_r with (INR N * card N (classof cls i)); [nra|].
  replace (sumS N (classof cls i) (col x l) / card N (classof cls i) * (INR N * card N (classof cls i)))
    with (INR N * sumS N (classof cls i) (col x l)) by (field; lra).
  replace (T * (sum N (col x l) / INR N) * (INR N * card N (classof cls i)))
    with (card N (classof cls i) * (T * sum N (col x l))) by (field; lra). exact H.
Qed.

(** * The hockey stick's chord with a maximum: [(1 - lo) max(hi - g, 0)/(hi - lo)] (lo <= g) *)
Lemma chord_hockey_max g lo hi U :
  lo <= g -> lo < hi -> 0 <= U -> (1 - lo) * (hi - g) / (hi - lo) <= U ->
  chord_val (phi_of (Hockey g)) lo hi <= dbound (Hockey g) U.
Proof.
  intros H1 Hlh H0 H. unfold chord_val, dbound, phi_of.
  rewrite (Rmax_right (lo - g) 0) by lra.
  unfold Rmax at 1. destruct (Rle_dec (hi - g) 0).
  - replace (((1 - lo) * 0 + (hi - 1) * 0) / (hi - lo)) with 0 by (field; lra). exact H0.
  - replace (((1 - lo) * (hi - g) + (hi - 1) * 0) / (hi - lo)) with ((1 - lo) * (hi - g) / (hi - lo))
      by (field; lra). exact H.
Qed.

(** * Reading the domain: a relation with a denominator, cleared *)
Lemma frac_pos n d : 0 < d -> 0 < n / d -> 0 < n.
Proof.
  intros Hd H. replace n with (n / d * d) by (field; lra). apply Rmult_lt_0_compat; lra.
Qed.

Lemma frac_nonneg n d : 0 < d -> 0 <= n / d -> 0 <= n.
Proof.
  intros Hd H. replace n with (n / d * d) by (field; lra). apply Rmult_le_pos; lra.
Qed.

(** A logarithm of a quantity at least some [a >= 1] is >= 0 (a Renyi bound [log(max(...))] at T = 1). *)
Lemma ln_ge_0 a X : 1 <= a -> a <= X -> 0 <= ln X.
Proof.
  intros H1 H2. rewrite <- ln_1.
  destruct (Rle_lt_or_eq_dec 1 X ltac:(lra)) as [H|H]; [left; apply ln_increasing; lra | rewrite H; lra].
Qed.
