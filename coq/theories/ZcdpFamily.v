(** A bounded zero-concentrated level with an unbounded ratio: the witness family of [zcdp-family].

    Two records over two buckets, [x = (K b, 1 - K b)] and [y = (b, 1 - b)], with [K >= 1], [b > 0],
    [K b <= 1/2] and [L (L + 1) <= - ln (K b)] where [L = ln K] (a Gaussian tail: [b] falls like
    [e^(-L^2)]). Then the zero-concentrated level is at most 1 both ways ([zcdp_family]), while the ratio
    [x_1 / y_1 = K] is as large as one likes. With [t = a - 1 > 0]:

    - [x || y]: the Renyi sum is [K b K^t + (1 - K b) s^t] with [s = (1 - K b)/(1 - b) <= 1], so at most
      [1 - e^c + e^(c + t L)] ([c = ln (K b)]), and that is at most [e^(t + t^2)] ([gauss_tail]: the difference
      [g(u) = e^(u + u^2) - e^(c + u L)] has [g(0) = 1 - e^c] and [g' >= 0]: [L <= e^(L - 1)] and
      [u^2 + u - (L - 1 + c + u L) >= u^2 - u L + L^2 + 1 + u > 0]); so [D_a <= (t + t^2)/t = a];
    - [y || x]: the sum is [b K^(-t) + (1 - b) r^t <= r^t] with [r = (1 - b)/(1 - K b) in [1, 2]], so
      [D_a <= ln r <= r - 1 <= 1 < a].

    [zcdp_family_pow2]: the family of the certificates, [K = 2^j], [b = 2^(-j^2 - 2 j)] for every [j >= 1]
    ([L (L + 1) = j^2 (ln 2)^2 + j ln 2 <= (j^2 + j) ln 2 = - ln (K b)] as [0 < ln 2 <= 1]). *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Entropy Divergence Zcdp ZcdpOrder.
Open Scope R_scope.

Definition fam_x (K b : R) (l : nat) : R := if Nat.eqb l 0 then K * b else 1 - K * b.
Definition fam_y (b : R) (l : nat) : R := if Nat.eqb l 0 then b else 1 - b.

Lemma exp_le x y : x <= y -> exp x <= exp y.
Proof. intros [H|H]; [left; apply exp_increasing, H|subst; lra]. Qed.

Lemma rsum2 p q a : rsum 2 p q a = rterm a (p 0%nat) (q 0%nat) + rterm a (p 1%nat) (q 1%nat).
Proof. unfold rsum. simpl. ring. Qed.

Lemma rpower_le_1 s t : 0 < s -> s <= 1 -> 0 <= t -> Rpower s t <= 1.
Proof.
  intros Hs H1 Ht. unfold Rpower. rewrite <- exp_0. apply exp_le.
  assert (ln s <= 0) by (rewrite <- ln_1; apply ln_le_mono; lra). nra.
Qed.

Lemma rpower_ge_1 r t : 1 <= r -> 0 <= t -> 1 <= Rpower r t.
Proof.
  intros Hr Ht. unfold Rpower. rewrite <- exp_0. apply exp_le.
  assert (0 <= ln r) by (rewrite <- ln_1; apply ln_le_mono; lra). nra.
Qed.

Lemma div_le_1 x y : 0 < y -> x <= y -> x / y <= 1.
Proof.
  intros Hy H. replace 1 with (y / y) by (field; lra). unfold Rdiv.
  apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; lra|exact H].
Qed.

Lemma div_ge_1 x y : 0 < y -> y <= x -> 1 <= x / y.
Proof.
  intros Hy H. replace 1 with (y / y) by (field; lra). unfold Rdiv.
  apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; lra|exact H].
Qed.

(** [ln S / (a - 1) <= a] from [ln S <= (a - 1) a]. *)
Lemma rdiv_le a S : 1 < a -> ln S <= (a - 1) * a -> ln S / (a - 1) <= 1 * a.
Proof.
  intros Ha H. replace (1 * a) with ((a - 1) * a / (a - 1)) by (field; lra). unfold Rdiv.
  apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; lra|exact H].
Qed.

(** The Gaussian tail: [1 - e^c + e^(c + t L) <= e^(t + t^2)] where [L (L + 1) <= - c], [t >= 0]. *)
Lemma gauss_tail L c t : 0 <= t -> L * (L + 1) <= - c -> 1 - exp c + exp (c + t * L) <= exp (t + t * t).
Proof.
  intros Ht Hc.
  set (g := fun u => exp (u + u * u) - exp (c + u * L)).
  set (g' := fun u => exp (u + u * u) * (1 + 2 * u) - exp (c + u * L) * L).
  assert (G : g 0 <= g t).
  { apply (mono_deriv g g' 0 t Ht).
    - intros u _. unfold g, g'. eapply dpl_val.
      + apply dl_minus; apply dl_exp; [apply dl_plus; [apply dl_id|apply dl_mult; apply dl_id]
                                      |apply dl_plus; [apply dl_const|apply dl_mult; [apply dl_id|apply dl_const]]].
      + cbv beta. ring.
    - intros u [Hu _]. unfold g'.
      assert (HL : L <= exp (L - 1)) by (pose proof (exp_ineq1_le (L - 1)); lra).
      assert (E1 : exp (L - 1) * exp (c + u * L) <= exp (u + u * u)).
      { rewrite <- exp_plus. apply exp_le. nra. }
      assert (P1 : 0 < exp (u + u * u)) by apply exp_pos.
      assert (P2 : 0 < exp (c + u * L)) by apply exp_pos.
      assert (L * exp (c + u * L) <= exp (L - 1) * exp (c + u * L)) by (apply Rmult_le_compat_r; lra).
      nra. }
  unfold g in G. replace (0 + 0 * 0) with 0 in G by ring. replace (c + 0 * L) with c in G by ring.
  rewrite exp_0 in G. lra.
Qed.

Section Family.
Variables K b : R.
Hypothesis HK : 1 <= K.
Hypothesis Hb : 0 < b.
Hypothesis Hkb : K * b <= 1 / 2.
Hypothesis Htail : ln K * (ln K + 1) <= - ln (K * b).

Lemma kb_pos : 0 < K * b.
Proof. nra. Qed.

Lemma b_le_kb : b <= K * b.
Proof. nra. Qed.

Theorem zcdp_family_xy : zcdp_le 2 (fam_x K b) (fam_y b) 1.
Proof.
  pose proof kb_pos as P. pose proof b_le_kb as Q.
  intros a Ha. unfold rdiv. apply rdiv_le; [exact Ha|]. rewrite rsum2. unfold fam_x, fam_y. simpl.
  rewrite !rterm_pos by lra.
  replace (K * b / b) with K by (field; lra).
  set (t := a - 1).
  assert (S1 : Rpower ((1 - K * b) / (1 - b)) t <= 1) by
    (apply rpower_le_1; [apply Rdiv_lt_0_compat; lra|apply div_le_1; lra|unfold t; lra]).
  assert (E : K * b * Rpower K t = exp (ln (K * b) + t * ln K)).
  { unfold Rpower. rewrite exp_plus, exp_ln by exact P. rewrite (Rmult_comm t). reflexivity. }
  assert (T : 1 - exp (ln (K * b)) + exp (ln (K * b) + t * ln K) <= exp (t + t * t)).
  { apply gauss_tail; [unfold t; lra|lra]. }
  rewrite exp_ln in T by exact P.
  assert (Pos : 0 < K * b * Rpower K t + (1 - K * b) * Rpower ((1 - K * b) / (1 - b)) t).
  { pose proof (Rpower_pos K t). pose proof (Rpower_pos ((1 - K * b) / (1 - b)) t).
    apply Rplus_lt_le_0_compat; [apply Rmult_lt_0_compat; lra|apply Rmult_le_pos; lra]. }
  apply Rle_trans with (ln (exp (t + t * t))).
  - apply ln_le_mono; [exact Pos|]. rewrite E in *.
    assert ((1 - K * b) * Rpower ((1 - K * b) / (1 - b)) t <= 1 - K * b) by nra.
    lra.
  - rewrite ln_exp. unfold t. nra.
Qed.

Theorem zcdp_family_yx : zcdp_le 2 (fam_y b) (fam_x K b) 1.
Proof.
  pose proof kb_pos as P. pose proof b_le_kb as Q.
  intros a Ha. unfold rdiv. apply rdiv_le; [exact Ha|]. rewrite rsum2. unfold fam_x, fam_y. simpl.
  rewrite !rterm_pos by lra.
  set (t := a - 1). set (r := (1 - b) / (1 - K * b)).
  assert (Hr1 : 1 <= r) by (apply div_ge_1; lra).
  assert (Hr2 : r - 1 <= 1).
  { unfold r. replace ((1 - b) / (1 - K * b) - 1) with ((K * b - b) / (1 - K * b)) by (field; lra).
    apply div_le_1; lra. }
  assert (S1 : Rpower (b / (K * b)) t <= 1).
  { apply rpower_le_1; [apply Rdiv_lt_0_compat; lra|apply div_le_1; lra|unfold t; lra]. }
  assert (R1 : 1 <= Rpower r t) by (apply rpower_ge_1; [exact Hr1|unfold t; lra]).
  assert (Pos : 0 < b * Rpower (b / (K * b)) t + (1 - b) * Rpower r t).
  { pose proof (Rpower_pos (b / (K * b)) t). pose proof (Rpower_pos r t).
    apply Rplus_lt_le_0_compat; [apply Rmult_lt_0_compat; lra|apply Rmult_le_pos; lra]. }
  apply Rle_trans with (ln (Rpower r t)).
  - apply ln_le_mono; [exact Pos|].
    assert (b * Rpower (b / (K * b)) t <= b) by nra.
    nra.
  - rewrite ln_Rpower.
    assert (ln r <= r - 1) by (apply ln_le_minus_1; lra).
    unfold t. nra.
Qed.

Theorem zcdp_family : zcdp_le 2 (fam_x K b) (fam_y b) 1 /\ zcdp_le 2 (fam_y b) (fam_x K b) 1.
Proof. split; [apply zcdp_family_xy|apply zcdp_family_yx]. Qed.

End Family.

(** A record against itself: level 0 (the Renyi sum of [p] against [p] is [sum p = 1]). *)
Lemma zcdp_self_2 c : 0 < c < 1 -> zcdp_le 2 (fam_y c) (fam_y c) 0.
Proof.
  intros Hc a Ha. unfold rdiv. rewrite rsum2. unfold fam_y. simpl.
  rewrite !rterm_pos by lra. replace (c / c) with 1 by (field; lra).
  replace ((1 - c) / (1 - c)) with 1 by (field; lra). unfold Rpower. rewrite ln_1, Rmult_0_r, exp_0.
  replace (c * 1 + (1 - c) * 1) with 1 by ring. rewrite ln_1. unfold Rdiv. lra.
Qed.

(** The certificates' family: [K = 2^j], [b = 2^(-j^2 - 2 j)], every [j >= 1]. *)
Theorem zcdp_family_pow2 (j : nat) : (1 <= j)%nat ->
  zcdp_le 2 (fam_x (2 ^ j) (/ 2 ^ (j * j + 2 * j))) (fam_y (/ 2 ^ (j * j + 2 * j))) 1 /\
  zcdp_le 2 (fam_y (/ 2 ^ (j * j + 2 * j))) (fam_x (2 ^ j) (/ 2 ^ (j * j + 2 * j))) 1.
Proof.
  intro Hj.
  assert (L0 : 0 < ln 2) by (rewrite <- ln_1; apply ln_increasing; lra).
  assert (L1 : ln 2 <= 1) by (pose proof (ln_le_minus_1 2 ltac:(lra)); lra).
  assert (P2 : forall n, 0 < 2 ^ n) by (intro n; apply pow_lt; lra).
  assert (KB : 2 ^ j * / 2 ^ (j * j + 2 * j) = / 2 ^ (j * j + j)).
  { replace (j * j + 2 * j)%nat with (j + (j * j + j))%nat by lia. rewrite pow_add.
    field. split; apply Rgt_not_eq, P2. }
  assert (J : 1 <= INR j) by (apply (le_INR 1); exact Hj).
  apply zcdp_family.
  - apply pow_R1_Rle. lra.
  - apply Rinv_0_lt_compat, P2.
  - rewrite KB. replace (j * j + j)%nat with (S (j * j + j - 1)) by lia. simpl.
    pose proof (pow_R1_Rle 2 (j * j + j - 1) ltac:(lra)).
    rewrite Rinv_mult. assert (/ 2 ^ (j * j + j - 1) <= 1).
    { replace 1 with (/ 1) by field. apply Rinv_le_contravar; lra. }
    pose proof (Rinv_0_lt_compat _ (P2 (j * j + j - 1)%nat)). nra.
  - rewrite KB, ln_Rinv by apply P2. rewrite !ln_pow by lra.
    rewrite plus_INR, mult_INR. nra.
Qed.
