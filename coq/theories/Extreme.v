(** Extreme means: among the sets of [m] members of a set [X], one has a mean at least [X]'s and one a
    mean at most [X]'s (drop a smallest, resp. largest, member: the mean moves away from it). Hence the
    subset monotonicity (lemma [extreme-means-monotone]) and a class's mean between the extreme means
    (lemma [class-mean-between-extremes]): a subset level of size [j] bounds the ratio of every set of
    at least [j] records by the same T. *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables.
Open Scope R_scope.

Lemma cnt_remove n X k :
  (k < n)%nat -> X k = true -> cnt n (remove X k) = (cnt n X - 1)%nat.
Proof.
  intros Hk HX. apply INR_eq. rewrite <- card_cnt, card_remove by auto.
  assert (0 < cnt n X)%nat.
  { assert (H := card_remove n X k Hk HX). rewrite !card_cnt in H.
    pose proof (pos_INR (cnt n (remove X k))).
    destruct (cnt n X); [simpl in H; lra|lia]. }
  rewrite minus_INR by lia. rewrite card_cnt. simpl. ring.
Qed.

Lemma min_below_mean n X c k :
  X k = true -> (forall i, (i < n)%nat -> X i = true -> c k <= c i) ->
  INR (cnt n X) * c k <= sumS n X c.
Proof.
  intros _ Hmin. rewrite <- card_cnt, Rmult_comm, <- sumS_const.
  apply sumS_le. intros i Hi Xi. apply Hmin; auto.
Qed.

(** A subset of [m] members whose mean is at least the mean of [X]. *)
Lemma sub_mean_ge N (c : nat -> R) : forall n X, cnt N X = n -> forall m, (1 <= m <= n)%nat ->
  exists Y, (forall i, Y i = true -> X i = true) /\ cnt N Y = m /\
            INR m * sumS N X c <= INR n * sumS N Y c.
Proof.
  induction n as [|n IH]; intros X HX m Hm; [lia|].
  destruct (Nat.eq_dec m (S n)) as [->|Hne].
  - exists X. repeat split; auto. lra.
  - destruct (exists_min N X c ltac:(lia)) as [k [Hk [Xk Hmin]]].
    assert (HX' : cnt N (remove X k) = n) by (rewrite cnt_remove by auto; lia).
    destruct (IH (remove X k) HX' m ltac:(lia)) as [Y [Ysub [HY Hmean]]].
    exists Y. repeat split; [intros i Yi; apply remove_sub with k; auto|auto|].
    pose proof (min_below_mean N X c k Xk Hmin) as Hlow. rewrite HX in Hlow.
    rewrite (sumS_remove N X k c Hk Xk) in *.
    assert (Hn : 1 <= INR n) by (apply (le_INR 1); lia).
    assert (Hm1 : 0 <= INR m) by apply pos_INR.
    rewrite S_INR in *.
    set (a := sumS N (remove X k) c) in *. set (y := sumS N Y c) in *.
    (* n m (a + ck) <= n (n+1) y, from m a <= n y and (n+1) ck <= a + ck *)
    apply Rmult_le_reg_l with (INR n); [lra|].
    assert (INR m * ((INR n + 1) * c k) <= INR m * (a + c k)) by (apply Rmult_le_compat_l; lra).
    assert ((INR n + 1) * (INR m * a) <= (INR n + 1) * (INR n * y)) by (apply Rmult_le_compat_l; lra).
    nra.
Qed.

(** A subset of [m] members whose mean is at most the mean of [X]. *)
Lemma sub_mean_le N (c : nat -> R) n X : cnt N X = n -> forall m, (1 <= m <= n)%nat ->
  exists Y, (forall i, Y i = true -> X i = true) /\ cnt N Y = m /\
            INR n * sumS N Y c <= INR m * sumS N X c.
Proof.
  intros HX m Hm. destruct (sub_mean_ge N (fun i => - c i) n X HX m Hm) as [Y [Ys [HY H]]].
  exists Y. repeat split; auto. rewrite !sumS_opp in H. lra.
Qed.

(** A subset level of size [j] (a natural number >= 1) bounds every set of at least [j] records. *)
Theorem subset_bounds_larger sd N K x j T :
  IsNat j -> 1 <= j -> 0 <= T -> subset_le sd N K x j T ->
  forall b S, (b < K)%nat -> j <= card N S -> ratio_ok sd N S (col x b) T.
Proof.
  intros [nj Hj] Hj1 HT HA b S Hb HS.
  rewrite card_cnt in HS. subst j.
  assert (Hnj : (1 <= nj)%nat) by (apply INR_le; simpl; lra).
  assert (Hle : (nj <= cnt N S)%nat) by (apply INR_le; lra).
  set (n := cnt N S) in *. set (c := col x b).
  assert (Hn : 0 < INR n) by (apply lt_0_INR; lia).
  assert (Hj0 : 0 < INR nj) by (apply lt_0_INR; lia).
  pose proof (pos_INR N) as HN.
  split.
  - destruct (sub_mean_ge N c n S eq_refl nj ltac:(lia)) as [Y [_ [HY Hmean]]].
    destruct (HA b Y Hb ltac:(rewrite card_cnt, HY; reflexivity)) as [Hup _].
    unfold upper_ok in *. rewrite card_cnt in *. fold n. rewrite HY in Hup. fold c in Hup |- *.
    (* N sumS * nj <= N n sumY <= n T nj sum *)
    apply Rmult_le_reg_l with (INR nj); [lra|].
    assert (INR N * (INR nj * sumS N S c) <= INR N * (INR n * sumS N Y c)) by (apply Rmult_le_compat_l; lra).
    assert (INR n * (INR N * sumS N Y c) <= INR n * (T * (INR nj * sum N c))) by (apply Rmult_le_compat_l; lra).
    nra.
  - intro Hsd. destruct (sub_mean_le N c n S eq_refl nj ltac:(lia)) as [Y [_ [HY Hmean]]].
    destruct (HA b Y Hb ltac:(rewrite card_cnt, HY; reflexivity)) as [_ Hlow].
    specialize (Hlow Hsd).
    unfold lower_ok in *. rewrite card_cnt in *. fold n. rewrite HY in Hlow. fold c in Hlow |- *.
    apply Rmult_le_reg_l with (INR nj); [lra|].
    assert (INR n * (INR nj * sum N c) <= INR n * (T * (INR N * sumS N Y c))) by (apply Rmult_le_compat_l; lra).
    assert (T * INR N * (INR n * sumS N Y c) <= T * INR N * (INR nj * sumS N S c))
      by (apply Rmult_le_compat_l; [apply Rmult_le_pos|]; lra).
    nra.
Qed.

(** [extreme-means-monotone]: a subset level of size [ja] bounds the one of size [jb >= ja]. *)
Theorem subset_monotone sd N K x ja jb T :
  IsNat ja -> 1 <= ja -> 0 <= T -> ja <= jb -> subset_le sd N K x ja T -> subset_le sd N K x jb T.
Proof.
  intros Hn H1 HT Hle HA b S Hb HS. apply (subset_bounds_larger sd N K x ja T Hn H1 HT HA b S Hb). lra.
Qed.

(** [class-mean-between-extremes]: a subset level of size [j] bounds a class level whose classes have
    at least [s >= j] records. *)
Theorem subset_to_classes sd N K x cls j s T :
  IsNat j -> 1 <= j -> 0 <= T -> j <= s -> partition N cls s -> subset_le sd N K x j T -> class_le sd N K x cls T.
Proof.
  intros Hn H1 HT Hle [Hpart _] HA b i Hb Hi.
  apply (subset_bounds_larger sd N K x j T Hn H1 HT HA b _ Hb).
  specialize (Hpart i Hi). lra.
Qed.
