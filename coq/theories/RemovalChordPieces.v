(** Record removal against a two-sided subset level of any size [s] (1 <= s <= N - 1), both ways, and the chords'
    values on an interval whose ends are a maximum and a minimum (implgraph.certify.lemmas.chord_subset_removal;
    docs/proofs/tight-subset-removal.md).

    With [P] the table's mean, [Q_i] the mean of the table without record [i] and [y = Q_i/P] bucket by bucket:
    - the [N - 1] others form a set of at least [s] records, within [[1/T, T]] of the table;
    - among the sets of [s - 1] of the others one has a mean at least [Q_i], one at most (none needed at [s = 1]);
      with record [i] added each is a set of [s] records, its sum [x_i + (s - 1) Q_i] at least (at most): so
      [(N - (N - s) y)/s] is within [[1/T, T]], [y] in [[(N - s T)/(N - s), (N - s/T)/(N - s)]];
    - [x_i >= 0]: [y <= N/(N - 1)].
    So [rconf] holds on [[max(1/T, (N - s T)/(N - s)), min(T, N/(N - 1), (N - s/T)/(N - s))]] ([subset_rconf_k]); at
    [T = 1] on [[1, 1]] ([subset_rconf_k_one]). B both ways on any [[lo, hi]] with [0 < lo < hi]: KL where the
    chords of phi and of its perspective [-ln q] are at most U ([rconf_kl]); Renyi of order 2 where
    [hi + lo - lo hi] and [(hi + lo - 1)/(lo hi)] are at most [X], [ln X <= U] ([rconf_renyi2]); with
    [lo <= 1 <= hi] total variation where [(1 - lo)(hi - 1)/(hi - lo) <= U] ([rconf_tv]) and the hockey stick of
    order [g >= 1] where [0], [(1 - lo)(hi - g)/(hi - lo)] and [(hi - 1)(1 - g lo)/(hi - lo)] are at most U
    ([rconf_hockey]). *)
From Coq Require Import Reals Lra Lia Bool.
From Implgraph Require Import Sums Tables Tactics Extreme Events Entropy Divergence RemovalChord.
Open Scope R_scope.

(** * A set with one record added *)
Definition addone (Y : rset) (i : nat) : rset := fun k => orb (Y k) (Nat.eqb k i).

Lemma sumS_addone n Y i f : (i < n)%nat -> Y i = false -> sumS n (addone Y i) f = sumS n Y f + f i.
Proof.
  intros Hi HY.
  rewrite (sumS_remove n (addone Y i) i f Hi) by (unfold addone; rewrite Nat.eqb_refl, orb_true_r; reflexivity).
  f_equal. unfold sumS, remove, addone. apply sum_ext. intros k _.
  destruct (Nat.eqb_spec k i) as [->|Hne]; [rewrite HY; reflexivity | destruct (Y k); reflexivity].
Qed.

Lemma card_addone n Y i : (i < n)%nat -> Y i = false -> card n (addone Y i) = card n Y + 1.
Proof. intros Hi HY. unfold card. rewrite sumS_addone by auto. reflexivity. Qed.

Lemma cnt_none n : cnt n (fun _ => false) = 0%nat.
Proof. induction n; simpl; [reflexivity | rewrite IHn; reflexivity]. Qed.

Lemma sumS_none n f : sumS n (fun _ => false) f = 0.
Proof. unfold sumS. apply sum_zero. Qed.

(** [sub_mean_ge] and [sub_mean_le] with [m = 0] allowed (the empty set). *)
Lemma sub_mean_ge0 N c n X : cnt N X = n -> forall m, (m <= n)%nat ->
  exists Y, (forall i, Y i = true -> X i = true) /\ cnt N Y = m /\ INR m * sumS N X c <= INR n * sumS N Y c.
Proof.
  intros HX m Hm. destruct m as [|m].
  - exists (fun _ => false). repeat split; [discriminate | apply cnt_none |]. rewrite sumS_none. simpl. lra.
  - apply (sub_mean_ge N c n X HX). lia.
Qed.

Lemma sub_mean_le0 N c n X : cnt N X = n -> forall m, (m <= n)%nat ->
  exists Y, (forall i, Y i = true -> X i = true) /\ cnt N Y = m /\ INR n * sumS N Y c <= INR m * sumS N X c.
Proof.
  intros HX m Hm. destruct (sub_mean_ge0 N (fun i => - c i) n X HX m Hm) as [Y [Ys [HY H]]].
  exists Y. repeat split; auto. rewrite !sumS_opp in H. lra.
Qed.

(** * The sets of [s] records holding record [i] *)
Lemma others_cnt N i : (i < N)%nat -> cnt N (remove (fun _ => true) i) = (N - 1)%nat.
Proof.
  intro Hi. apply INR_eq. rewrite <- card_cnt, card_remove_one, minus_INR by (auto; lia). reflexivity.
Qed.

Lemma holding N K x s T i l :
  table N K x -> subset_le TwoSided N K x s T -> IsNat s -> 1 <= s -> s <= INR N - 1 -> 0 < T ->
  (i < N)%nat -> (l < K)%nat ->
  let R := sumS N (remove (fun _ => true) i) (col x l) in
  INR N * ((s - 1) * R + (INR N - 1) * x i l) <= (INR N - 1) * (T * (s * (R + x i l))) /\
  (INR N - 1) * (s * (R + x i l)) <= T * (INR N * ((s - 1) * R + (INR N - 1) * x i l)).
Proof.
  intros Htab HA [ns Es] Hs1 HsN HT Hi Hl R.
  set (X := remove (fun _ => true) i) in *.
  assert (HXi : X i = false) by (unfold X, remove; rewrite Nat.eqb_refl; reflexivity).
  assert (Hns : (1 <= ns)%nat) by (apply INR_le; rewrite Es; simpl; lra).
  assert (HnN : (ns <= N - 1)%nat) by (apply INR_le; rewrite minus_INR by lia; rewrite Es; simpl; lra).
  assert (Hm : INR (ns - 1) = s - 1) by (rewrite minus_INR by lia; rewrite Es; simpl; lra).
  assert (HN1 : INR (N - 1) = INR N - 1) by (rewrite minus_INR by lia; reflexivity).
  assert (Hsum : sum N (col x l) = R + x i l).
  { unfold R, X. rewrite <- sumS_full, (sumS_remove N (fun _ => true) i (col x l) Hi eq_refl). reflexivity. }
  assert (Hx : 0 <= x i l) by (destruct Htab as [Hn _]; apply Hn; auto).
  assert (HN : 2 <= INR N) by lra.
  assert (Hfresh : forall Y, (forall k, Y k = true -> X k = true) -> Y i = false)
    by (intros Y Ys; destruct (Y i) eqn:E; [apply Ys in E; congruence | reflexivity]).
  assert (Hcard : forall Y, (forall k, Y k = true -> X k = true) -> cnt N Y = (ns - 1)%nat ->
                  card N (addone Y i) = s).
  { intros Y Ys HY. rewrite card_addone by auto. rewrite card_cnt, HY, Hm. ring. }
  split.
  - destruct (sub_mean_ge0 N (col x l) (N - 1) X (others_cnt N i Hi) (ns - 1) ltac:(lia)) as [Y [Ys [HY Hmean]]].
    destruct (HA l (addone Y i) Hl (Hcard Y Ys HY)) as [Hup _]. unfold upper_ok in Hup.
    rewrite sumS_addone, Hcard, Hsum in Hup by auto. rewrite Hm, HN1 in Hmean. fold R in Hmean. unfold col in Hup.
    assert (E1 : INR N * ((s - 1) * R) <= INR N * ((INR N - 1) * sumS N Y (col x l)))
      by (apply Rmult_le_compat_l; lra).
    assert (E2 : (INR N - 1) * (INR N * (sumS N Y (col x l) + x i l)) <= (INR N - 1) * (T * (s * (R + x i l))))
      by (apply Rmult_le_compat_l; [lra | unfold col; exact Hup]).
    unfold col in *. nra.
  - destruct (sub_mean_le0 N (col x l) (N - 1) X (others_cnt N i Hi) (ns - 1) ltac:(lia)) as [Y [Ys [HY Hmean]]].
    destruct (HA l (addone Y i) Hl (Hcard Y Ys HY)) as [_ Hlow]. specialize (Hlow eq_refl). unfold lower_ok in Hlow.
    rewrite sumS_addone, Hcard, Hsum in Hlow by auto. rewrite Hm, HN1 in Hmean. fold R in Hmean.
    assert (E1 : T * INR N * ((INR N - 1) * sumS N Y (col x l)) <= T * INR N * ((s - 1) * R))
      by (apply Rmult_le_compat_l; [nra | lra]).
    assert (E2 : (INR N - 1) * (s * (R + x i l)) <= (INR N - 1) * (T * (INR N * (sumS N Y (col x l) + x i l))))
      by (apply Rmult_le_compat_l; [lra | unfold col in Hlow; exact Hlow]).
    unfold col in *. nra.
Qed.

Lemma max_mul_le a b P Q : a * P <= Q -> b * P <= Q -> Rmax a b * P <= Q.
Proof. intros Ha Hb. unfold Rmax. destruct (Rle_dec a b); assumption. Qed.

(** * The interval of Q_i/P *)
Theorem subset_rconf_k N K x s T :
  table N K x -> subset_le TwoSided N K x s T -> IsNat s -> 1 <= s -> s <= INR N - 1 -> 0 < T ->
  rconf N K x (Rmax (1 / T) ((INR N - s * T) / (INR N - s)))
              (Rmin T (Rmin (INR N / (INR N - 1)) ((INR N - s / T) / (INR N - s)))).
Proof.
  intros Htab HA Hs Hs1 HsN HT i l Hi Hl.
  destruct (holding N K x s T i l Htab HA Hs Hs1 HsN HT Hi Hl) as [H1 H2].
  destruct (subset_bounds_larger TwoSided N K x s T Hs Hs1 ltac:(lra) HA l (remove (fun _ => true) i) Hl
              ltac:(rewrite card_remove_one by exact Hi; lra)) as [Hup Hlow].
  specialize (Hlow eq_refl). unfold upper_ok, lower_ok in Hup, Hlow. rewrite card_remove_one in Hup, Hlow by exact Hi.
  unfold rmean, tmean. rewrite (rest_split N x i l Hi) in *.
  set (R := sumS N (remove (fun _ => true) i) (col x l)) in *.
  assert (Hx : 0 <= x i l) by (destruct Htab as [Hn _]; apply Hn; auto).
  assert (HR : 0 <= R) by (apply sumS_nonneg; intros k Hk; apply (col_nonneg N K x l Htab Hl k Hk)).
  set (n := INR N) in *. set (y := x i l) in *.
  assert (Hn : 2 <= n) by lra.
  assert (HP : 0 <= (R + y) / n) by (unfold Rdiv; apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra]).
  split.
  - apply max_mul_le.
    + apply Rmult_le_reg_r with (T * n * (n - 1)); [apply Rmult_lt_0_compat; [apply Rmult_lt_0_compat|]; lra|].
      replace (1 / T * ((R + y) / n) * (T * n * (n - 1))) with ((n - 1) * (R + y)) by (field; lra).
      replace (R / (n - 1) * (T * n * (n - 1))) with (T * (n * R)) by (field; lra). exact Hlow.
    + apply Rmult_le_reg_r with ((n - s) * n * (n - 1));
        [apply Rmult_lt_0_compat; [apply Rmult_lt_0_compat|]; lra|].
      replace ((n - s * T) / (n - s) * ((R + y) / n) * ((n - s) * n * (n - 1)))
        with ((n - s * T) * (R + y) * (n - 1)) by (field; lra).
      replace (R / (n - 1) * ((n - s) * n * (n - 1))) with ((n - s) * n * R) by (field; lra). nra.
  - apply rmin_mul; [exact HP | |apply rmin_mul; [exact HP | |]].
    + apply Rmult_le_reg_r with (n * (n - 1)); [apply Rmult_lt_0_compat; lra|].
      replace (R / (n - 1) * (n * (n - 1))) with (n * R) by (field; lra).
      replace (T * ((R + y) / n) * (n * (n - 1))) with (T * ((n - 1) * (R + y))) by (field; lra). exact Hup.
    + replace (n / (n - 1) * ((R + y) / n)) with ((R + y) / (n - 1)) by (field; lra).
      unfold Rdiv. apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; lra | lra].
    + apply Rmult_le_reg_r with (T * n * (n - 1) * (n - s));
        [apply Rmult_lt_0_compat; [apply Rmult_lt_0_compat; [apply Rmult_lt_0_compat|]|]; lra|].
      replace (R / (n - 1) * (T * n * (n - 1) * (n - s))) with (T * n * (n - s) * R) by (field; lra).
      replace ((n - s / T) / (n - s) * ((R + y) / n) * (T * n * (n - 1) * (n - s)))
        with ((n * T - s) * (n - 1) * (R + y)) by (field; lra). nra.
Qed.

(** At [T = 1] the interval is the point 1. *)
Lemma subset_rconf_k_one N K x s :
  table N K x -> subset_le TwoSided N K x s 1 -> IsNat s -> 1 <= s -> s <= INR N - 1 -> rconf N K x 1 1.
Proof.
  intros Htab HA Hs H1 H2.
  apply (rconf_weaken N K x _ _ 1 1 Htab (subset_rconf_k N K x s 1 Htab HA Hs H1 H2 ltac:(lra))).
  - apply Rle_trans with (1 / 1); [right; field | apply Rmax_l].
  - apply Rmin_l.
Qed.

(** * B both ways on [[lo, hi]]: the chords of phi and of its perspective *)
Theorem rconf_kl N K x lo hi U :
  table N K x -> 2 <= INR N -> rconf N K x lo hi -> 0 < lo -> lo < hi ->
  ((1 - lo) * (hi * ln hi) + (hi - 1) * (lo * ln lo)) / (hi - lo) <= U ->
  ((hi - 1) * (- ln lo) + (1 - lo) * (- ln hi)) / (hi - lo) <= U ->
  div_removal_le KL N K x U.
Proof.
  intros Htab HN2 HC H0 Hlh H1 H2.
  assert (Ih : 0 < / hi) by (apply Rinv_0_lt_compat; lra).
  assert (Il : / hi < / lo) by (apply Rinv_lt_contravar; [apply Rmult_lt_0_compat|]; lra).
  apply (chord_rconf KL N K x lo hi (/ hi) (/ lo) U Htab HN2 HC H0 Hlh (below_kl lo hi ltac:(lra) Hlh)
           (chord_kl lo hi U H0 Hlh H1)).
  - right; field; lra.
  - right; field; lra.
  - exact Il.
  - apply below_kl; lra.
  - apply chord_kl; [exact Ih | exact Il |].
    rewrite !ln_Rinv by lra.
    replace (((1 - / hi) * (/ lo * - ln lo) + (/ lo - 1) * (/ hi * - ln hi)) / (/ lo - / hi))
      with (((hi - 1) * (- ln lo) + (1 - lo) * (- ln hi)) / (hi - lo)) by (field; nz_from_hyps). exact H2.
Qed.

Theorem rconf_renyi2 N K x lo hi X U :
  table N K x -> 2 <= INR N -> rconf N K x lo hi -> 0 < lo -> lo < hi -> lo <= 1 -> 1 <= hi ->
  hi + lo - lo * hi <= X -> (hi + lo - 1) / (lo * hi) <= X -> ln X <= U ->
  div_removal_le (Renyi 2) N K x U.
Proof.
  intros Htab HN2 HC H0 Hlh Hl1 Hh1 H1 H2 HU.
  assert (HX : 0 < X) by nra.
  assert (Il : / hi < / lo) by (apply Rinv_lt_contravar; [apply Rmult_lt_0_compat|]; lra).
  apply (chord_rconf (Renyi 2) N K x lo hi (/ hi) (/ lo) U Htab HN2 HC H0 Hlh (below_renyi2 lo hi Hlh)).
  - apply (chord_renyi2 lo hi X U Hlh HX); [| exact HU].
    replace (((1 - lo) * hi ^ 2 + (hi - 1) * lo ^ 2) / (hi - lo)) with (hi + lo - lo * hi) by (field; lra). exact H1.
  - right; field; lra.
  - right; field; lra.
  - exact Il.
  - apply below_renyi2; exact Il.
  - apply (chord_renyi2 (/ hi) (/ lo) X U Il HX); [| exact HU].
    replace (((1 - / hi) * (/ lo) ^ 2 + (/ lo - 1) * (/ hi) ^ 2) / (/ lo - / hi))
      with ((hi + lo - 1) / (lo * hi)) by (field; nz_from_hyps). exact H2.
Qed.

(** Total variation and the hockey stick of order [g >= 1] on [[lo, hi]] with [lo <= 1 <= hi]: TV is its own
    perspective, [(1 - lo)(hi - 1)/(hi - lo)] both ways ([rconf_tv]); the hockey stick's chord of phi is
    [max(0, (1 - lo)(hi - g)/(hi - lo))], of its perspective [max(0, (hi - 1)(1 - g lo)/(hi - lo))]
    ([rconf_hockey], through [chord_hockey_max] on [[lo, hi]] and on [[1/hi, 1/lo]]). *)
Lemma inv_order lo hi : 0 < lo -> lo < hi -> lo <= 1 -> 1 <= hi ->
  0 < / hi /\ / hi < / lo /\ / hi <= 1 /\ 1 <= / lo.
Proof.
  intros H0 Hlh Hl1 Hh1. repeat split.
  - apply Rinv_0_lt_compat; lra.
  - apply Rinv_lt_contravar; [apply Rmult_lt_0_compat|]; lra.
  - rewrite <- Rinv_1. apply Rinv_le_contravar; lra.
  - rewrite <- Rinv_1. apply Rinv_le_contravar; lra.
Qed.

Theorem rconf_tv N K x lo hi U :
  table N K x -> 2 <= INR N -> rconf N K x lo hi -> 0 < lo -> lo < hi -> lo <= 1 -> 1 <= hi ->
  (1 - lo) * (hi - 1) / (hi - lo) <= U -> div_removal_le TV N K x U.
Proof.
  intros Htab HN2 HC H0 Hlh Hl1 Hh1 HU.
  destruct (inv_order lo hi H0 Hlh Hl1 Hh1) as [Ih [Il [Ih1 Il1]]].
  apply (chord_rconf TV N K x lo hi (/ hi) (/ lo) U Htab HN2 HC H0 Hlh (below_tv lo hi Hlh)
           (chord_tv lo hi U Hl1 Hh1 Hlh HU)).
  - right; field; lra.
  - right; field; lra.
  - exact Il.
  - apply below_tv; exact Il.
  - apply chord_tv; [exact Ih1 | exact Il1 | exact Il |].
    replace ((1 - / hi) * (/ lo - 1) / (/ lo - / hi)) with ((1 - lo) * (hi - 1) / (hi - lo))
      by (field; nz_from_hyps). exact HU.
Qed.

Theorem rconf_hockey N K x g lo hi U :
  table N K x -> 2 <= INR N -> rconf N K x lo hi -> 0 < lo -> lo < hi -> lo <= 1 -> 1 <= hi -> 1 <= g ->
  0 <= U -> (1 - lo) * (hi - g) / (hi - lo) <= U -> (hi - 1) * (1 - g * lo) / (hi - lo) <= U ->
  div_removal_le (Hockey g) N K x U.
Proof.
  intros Htab HN2 HC H0 Hlh Hl1 Hh1 Hg HU0 HU1 HU2.
  destruct (inv_order lo hi H0 Hlh Hl1 Hh1) as [Ih [Il [Ih1 Il1]]].
  apply (chord_rconf (Hockey g) N K x lo hi (/ hi) (/ lo) U Htab HN2 HC H0 Hlh (below_hockey g lo hi Hlh)
           (chord_hockey_max g lo hi U ltac:(lra) Hlh HU0 HU1)).
  - right; field; lra.
  - right; field; lra.
  - exact Il.
  - apply below_hockey; exact Il.
  - apply chord_hockey_max; [lra | exact Il | exact HU0 |].
    replace ((1 - / hi) * (/ lo - g) / (/ lo - / hi)) with ((hi - 1) * (1 - g * lo) / (hi - lo))
      by (field; nz_from_hyps). exact HU2.
Qed.

(** * The generated proofs' steps through a maximum: a quantity at most one of its arguments *)
Ltac via_max_l := match goal with |- ?c <= Rmax ?a ?b => apply (Rle_trans c a (Rmax a b)); [| apply Rmax_l] end.
Ltac via_max_r := match goal with |- ?c <= Rmax ?a ?b => apply (Rle_trans c b (Rmax a b)); [| apply Rmax_r] end.
Ltac via_min_l := match goal with |- Rmin ?a ?b <= ?c => apply (Rle_trans (Rmin a b) a c); [apply Rmin_l |] end.
Ltac via_min_r := match goal with |- Rmin ?a ?b <= ?c => apply (Rle_trans (Rmin a b) b c); [apply Rmin_r |] end.
