(** A two-sided subset level of any size [s] (1 <= s <= N - 1) against a class divergence, every partition: the chord
    on the range of one record's ratio to the table (implgraph.certify.lemmas.subset_chord;
    docs/proofs/subset-closeness-chord.md).

    With [P] the table's mean, [Q_i] the mean of the others and [a = x_i/P], [Q_i/P = (N - a)/(N - 1)] lies in
    [subset_rconf_k]'s interval (the others' mean, the sets of [s] records holding record [i], [x_i >= 0]); read
    back through [a = N - (N - 1) Q_i/P], each record's ratio lies in [[sublo, subhi]] ([subset_xconf]):

      sublo = max(0, N - (N - 1) T, (s (N - 1)/T - (s - 1) N)/(N - s))
      subhi = min(N - (N - 1)/T, (s T (N - 1) - (s - 1) N)/(N - s))

    A class's mean is an average of its records, so its ratio to the table lies there too ([xconf_class]), and B is
    at most the chord of phi on any [[lo, hi]] around it ([xconf_chord], Divergence's [chord_between]). Where
    [T > 1], [sublo < 1 < subhi] ([sub_order]); the kinds: KL on [[lo, hi]] with [lo > 0] ([subset_chord_kl]) or on
    [[0, hi]] ([subset_chord_kl0], the value [ln hi]), Renyi of order 2 ([subset_chord_renyi2]: [hi + lo - lo hi]
    at most [X], [ln X <= U]); at [T = 1] every class's mean is the table's ([subset_chord_one]). *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Tactics Events Entropy Divergence RemovalChord RemovalChordPieces.
Open Scope R_scope.

(** Each record's ratio to the table in [[lo, hi]], bucket by bucket. *)
Definition xconf (N K : nat) (x : nat -> nat -> R) (lo hi : R) : Prop :=
  forall i l, (i < N)%nat -> (l < K)%nat -> lo * tmean N x l <= x i l /\ x i l <= hi * tmean N x l.

(** The ends A gives. *)
Definition sublo (N : nat) (s T : R) : R :=
  Rmax 0 (Rmax (INR N - (INR N - 1) * T) ((s * (INR N - 1) / T - (s - 1) * INR N) / (INR N - s))).
Definition subhi (N : nat) (s T : R) : R :=
  Rmin (INR N - (INR N - 1) / T) ((s * T * (INR N - 1) - (s - 1) * INR N) / (INR N - s)).

Lemma xconf_weaken N K x lo hi lo' hi' :
  table N K x -> xconf N K x lo hi -> lo' <= lo -> hi <= hi' -> xconf N K x lo' hi'.
Proof.
  intros Htab HC H1 H2 i l Hi Hl. destruct (HC i l Hi Hl) as [A B].
  pose proof (tmean_nonneg N K x l Htab Hl). split; nra.
Qed.

(** * One record's ratio, from the others' mean *)
Lemma lin_up n c P Q b b' : 0 <= P -> 0 <= c -> b * P <= Q -> b' <= b -> n * P - c * Q <= (n - c * b') * P.
Proof. intros HP Hc HQ Hb. assert (c * (b' * P) <= c * (b * P)) by (apply Rmult_le_compat_l; nra). nra. Qed.

Lemma lin_lo n c P Q b b' : 0 <= P -> 0 <= c -> Q <= b * P -> b <= b' -> (n - c * b') * P <= n * P - c * Q.
Proof. intros HP Hc HQ Hb. assert (c * (b * P) <= c * (b' * P)) by (apply Rmult_le_compat_l; nra). nra. Qed.

Lemma record_split N x i l : 2 <= INR N -> (i < N)%nat ->
  x i l = INR N * tmean N x l - (INR N - 1) * rmean N x i l.
Proof.
  intros HN Hi. unfold tmean, rmean. rewrite (rest_split N x i l Hi). field. lra.
Qed.

Theorem subset_xconf N K x s T :
  table N K x -> subset_le TwoSided N K x s T -> IsNat s -> 1 <= s -> s <= INR N - 1 -> 0 < T ->
  xconf N K x (sublo N s T) (subhi N s T).
Proof.
  intros Htab HA Hs Hs1 HsN HT i l Hi Hl.
  pose proof (subset_rconf_k N K x s T Htab HA Hs Hs1 HsN HT i l Hi Hl) as [Hlo Hhi].
  assert (HN : 2 <= INR N) by lra.
  assert (HP : 0 <= tmean N x l) by (apply (tmean_nonneg N K); auto).
  assert (Hx : 0 <= x i l) by (destruct Htab as [Hn _]; apply Hn; auto).
  pose proof (record_split N x i l HN Hi) as E.
  set (n := INR N) in *. set (P := tmean N x l) in *. set (Q := rmean N x i l) in *.
  assert (Hc : 0 <= n - 1) by lra.
  unfold sublo, subhi. fold n. split.
  - apply max_mul_le; [lra | apply max_mul_le].
    + rewrite E. apply (lin_lo n (n - 1) P Q _ T HP Hc Hhi). apply Rmin_l.
    + rewrite E. replace ((s * (n - 1) / T - (s - 1) * n) / (n - s)) with (n - (n - 1) * ((n - s / T) / (n - s)))
        by (field; lra).
      apply (lin_lo n (n - 1) P Q _ _ HP Hc Hhi).
      apply Rle_trans with (Rmin (n / (n - 1)) ((n - s / T) / (n - s))); [apply Rmin_r | apply Rmin_r].
  - apply rmin_mul; [exact HP | |].
    + rewrite E. replace (n - (n - 1) / T) with (n - (n - 1) * (1 / T)) by (field; lra).
      apply (lin_up n (n - 1) P Q _ _ HP Hc Hlo). apply Rmax_l.
    + rewrite E. replace ((s * T * (n - 1) - (s - 1) * n) / (n - s)) with (n - (n - 1) * ((n - s * T) / (n - s)))
        by (field; lra).
      apply (lin_up n (n - 1) P Q _ _ HP Hc Hlo). apply Rmax_r.
Qed.

(** * A class's ratio: an average of its records' *)
Lemma xconf_class N K x cls lo hi i l :
  xconf N K x lo hi -> (i < N)%nat -> (l < K)%nat ->
  lo * tmean N x l <= cmean N x cls i l /\ cmean N x cls i l <= hi * tmean N x l.
Proof.
  intros HC Hi Hl.
  assert (He : 1 <= card N (classof cls i)) by (apply class_self_pos; exact Hi).
  unfold cmean. set (e := card N (classof cls i)) in *. set (P := tmean N x l).
  assert (S1 : e * (lo * P) <= sumS N (classof cls i) (col x l)).
  { unfold e. rewrite Rmult_comm, <- sumS_const. apply sumS_le. intros k Hk _. unfold col. apply HC; auto. }
  assert (S2 : sumS N (classof cls i) (col x l) <= e * (hi * P)).
  { unfold e. rewrite Rmult_comm, <- sumS_const. apply sumS_le. intros k Hk _. unfold col. apply HC; auto. }
  split.
  - apply Rmult_le_reg_r with e; [lra|]. replace (sumS N (classof cls i) (col x l) / e * e)
      with (sumS N (classof cls i) (col x l)) by (field; lra). lra.
  - apply Rmult_le_reg_r with e; [lra|]. replace (sumS N (classof cls i) (col x l) / e * e)
      with (sumS N (classof cls i) (col x l)) by (field; lra). lra.
Qed.

(** * The chord on [[lo, hi]] around every record's ratio bounds every class's divergence from the table *)
Theorem xconf_chord k N K x cls lo hi U :
  table N K x -> (0 < N)%nat -> xconf N K x lo hi -> lo < hi ->
  below_chord (phi_of k) lo hi -> chord_val (phi_of k) lo hi <= dbound k U -> div_class_le k N K x cls U.
Proof.
  intros Htab HN HC Hlh Hc HU i Hi.
  apply (chord_between k K _ _ lo hi U); auto.
  - intros l Hl. apply (tmean_nonneg N K); auto.
  - apply (tmean_sum N K); auto.
  - apply (cmean_sum N K); auto.
  - intros l Hl. apply (xconf_class N K x cls lo hi i l HC Hi Hl).
Qed.

(** * Where T > 1 the ends lie on either side of 1 *)
Lemma sub_order N s T :
  1 <= s -> s <= INR N - 1 -> 1 < T -> sublo N s T < 1 /\ 1 < subhi N s T.
Proof.
  intros Hs1 HsN HT. unfold sublo, subhi. set (n := INR N) in *.
  assert (Hns : 0 < n - s) by lra.
  assert (Hs0 : 0 < s * (n - 1)) by (apply Rmult_lt_0_compat; lra).
  assert (L2 : (s * (n - 1) / T - (s - 1) * n) / (n - s) < 1).
  { apply Rmult_lt_reg_r with ((n - s) * T); [nra|].
    replace ((s * (n - 1) / T - (s - 1) * n) / (n - s) * ((n - s) * T)) with (s * (n - 1) - (s - 1) * n * T)
      by (field; lra). nra. }
  assert (H2 : 1 < (s * T * (n - 1) - (s - 1) * n) / (n - s)).
  { apply Rmult_lt_reg_r with (n - s); [lra|].
    replace ((s * T * (n - 1) - (s - 1) * n) / (n - s) * (n - s)) with (s * T * (n - 1) - (s - 1) * n)
      by (field; lra). nra. }
  assert (H1 : 1 < n - (n - 1) / T).
  { apply Rmult_lt_reg_r with T; [lra|].
    replace ((n - (n - 1) / T) * T) with (n * T - (n - 1)) by (field; lra). nra. }
  split.
  - apply Rmax_lub_lt; [lra | apply Rmax_lub_lt; [nra | exact L2]].
  - apply Rmin_glb_lt; assumption.
Qed.

Lemma sub_lt N s T lo hi :
  1 <= s -> s <= INR N - 1 -> 1 < T -> lo <= sublo N s T -> subhi N s T <= hi -> lo < 1 /\ 1 < hi.
Proof. intros H1 H2 HT Hl Hh. destruct (sub_order N s T H1 H2 HT). lra. Qed.

(** * B by kind *)
Theorem subset_chord_kl N K x cls s T lo hi U :
  table N K x -> subset_le TwoSided N K x s T -> IsNat s -> 1 <= s -> s <= INR N - 1 -> 1 < T ->
  lo <= sublo N s T -> subhi N s T <= hi -> 0 < lo ->
  ((1 - lo) * (hi * ln hi) + (hi - 1) * (lo * ln lo)) / (hi - lo) <= U ->
  div_class_le KL N K x cls U.
Proof.
  intros Htab HA Hs Hs1 HsN HT Hlo Hhi H0 HU.
  destruct (sub_lt N s T lo hi Hs1 HsN HT Hlo Hhi) as [L H].
  apply (xconf_chord KL N K x cls lo hi U Htab ltac:(apply INR_lt; simpl; lra)).
  - apply (xconf_weaken N K x _ _ lo hi Htab (subset_xconf N K x s T Htab HA Hs Hs1 HsN ltac:(lra)) Hlo Hhi).
  - lra.
  - apply below_kl; lra.
  - apply chord_kl; lra.
Qed.

Theorem subset_chord_kl0 N K x cls s T hi U :
  table N K x -> subset_le TwoSided N K x s T -> IsNat s -> 1 <= s -> s <= INR N - 1 -> 1 < T ->
  subhi N s T <= hi -> ln hi <= U -> div_class_le KL N K x cls U.
Proof.
  intros Htab HA Hs Hs1 HsN HT Hhi HU.
  destruct (sub_lt N s T 0 hi Hs1 HsN HT ltac:(unfold sublo; apply Rmax_l) Hhi) as [_ H].
  apply (xconf_chord KL N K x cls 0 hi U Htab ltac:(apply INR_lt; simpl; lra)).
  - apply (xconf_weaken N K x _ _ 0 hi Htab (subset_xconf N K x s T Htab HA Hs Hs1 HsN ltac:(lra)));
      [unfold sublo; apply Rmax_l | exact Hhi].
  - lra.
  - apply below_kl; lra.
  - apply chord_kl0; lra.
Qed.

Theorem subset_chord_renyi2 N K x cls s T lo hi X U :
  table N K x -> subset_le TwoSided N K x s T -> IsNat s -> 1 <= s -> s <= INR N - 1 -> 1 < T ->
  lo <= sublo N s T -> subhi N s T <= hi -> hi + lo - lo * hi <= X -> ln X <= U ->
  div_class_le (Renyi 2) N K x cls U.
Proof.
  intros Htab HA Hs Hs1 HsN HT Hlo Hhi HX HU.
  destruct (sub_lt N s T lo hi Hs1 HsN HT Hlo Hhi) as [L H].
  apply (xconf_chord (Renyi 2) N K x cls lo hi U Htab ltac:(apply INR_lt; simpl; lra)).
  - apply (xconf_weaken N K x _ _ lo hi Htab (subset_xconf N K x s T Htab HA Hs Hs1 HsN ltac:(lra)) Hlo Hhi).
  - lra.
  - apply below_renyi2; lra.
  - apply (chord_renyi2 lo hi X U ltac:(lra) ltac:(nra)); [| exact HU].
    replace (((1 - lo) * hi ^ 2 + (hi - 1) * lo ^ 2) / (hi - lo)) with (hi + lo - lo * hi) by (field; lra). exact HX.
Qed.

(** * At T = 1 every record's ratio is 1: every class's divergence is phi(1) *)
Theorem subset_chord_one k N K x cls s U :
  table N K x -> subset_le TwoSided N K x s 1 -> IsNat s -> 1 <= s -> s <= INR N - 1 ->
  phi_of k 1 <= dbound k U -> div_class_le k N K x cls U.
Proof.
  intros Htab HA Hs Hs1 HsN H1 i Hi.
  assert (HC : xconf N K x 1 1).
  { apply (xconf_weaken N K x _ _ 1 1 Htab (subset_xconf N K x s 1 Htab HA Hs Hs1 HsN ltac:(lra))); unfold sublo, subhi.
    - apply Rle_trans with (Rmax (INR N - (INR N - 1) * 1) ((s * (INR N - 1) / 1 - (s - 1) * INR N) / (INR N - s)));
        [apply Rle_trans with (INR N - (INR N - 1) * 1); [lra | apply Rmax_l] | apply Rmax_r].
    - apply Rle_trans with (INR N - (INR N - 1) / 1); [apply Rmin_l | right; field]. }
  assert (E : forall l, (l < K)%nat -> cmean N x cls i l = tmean N x l).
  { intros l Hl. destruct (xconf_class N K x cls 1 1 i l HC Hi Hl). lra. }
  split.
  - intros l Hl Z. rewrite E by exact Hl. exact Z.
  - rewrite (fdiv_same K _ _ _ E (tmean_sum N K x Htab ltac:(lia))). exact H1.
Qed.
