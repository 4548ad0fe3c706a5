(** A bounded zero-concentrated level with an unbounded ratio: the witness family of [zcdp-family].

    Two records over two buckets, [x = (K b, 1 - K b)] and [y = (b, 1 - b)], with [K >= 1], [b > 0],
    [K b <= 1/2], and, for a level [rho > 0], [2 K b <= rho] and [L (L + 1) <= - rho ln (K b)] where [L = ln K] (a
    Gaussian tail scaled by [rho]: [K b = exp (- L (L + 1)/rho)] meets it with equality; [b] falls like
    [e^(-L^2/rho)]). Then the zero-concentrated level is at most [rho] both ways ([zcdp_family_rho]), while the
    ratio [x_1 / y_1 = K] is as large as one likes. With [t = a - 1 > 0]:

    - [x || y]: the Renyi sum is [K b K^t + (1 - K b) s^t] with [s = (1 - K b)/(1 - b) <= 1], so at most
      [1 - e^c + e^(c + t L)] ([c = ln (K b)]), and [gauss_tail_rho] puts that below [e^(rho (t + t^2))]:
      [g(u) = e^(rho (u + u^2)) - e^(c + u L)] has [g(0) = 1 - e^c] and [g' >= 0], since [L <= rho e^(L/rho - 1)]
      ([1 + x <= e^x]) and, with [w = L/rho], [w - 1 + c + u L <= rho (u + u^2)] from [c <= - w (rho w + 1)]
      ([rho (u^2 - u w + w^2) + rho u + 1 >= 0]); so [D_a <= rho (t + t^2)/t = rho a];
    - [y || x]: the sum is [b K^(-t) + (1 - b) r^t <= r^t], [r = (1 - b)/(1 - K b)], and
      [ln r <= r - 1 = (K - 1) b/(1 - K b) <= 2 K b <= rho], so [D_a <= rho <= rho a].

    [zcdp_family]: the same at [rho = 1] ([2 K b <= 1] is [K b <= 1/2]). [zcdp_family_pow2]: the family of the
    certificates, [K = 2^j], [b = 2^(-j^2 - 2 j)] for every [j >= 1] ([L (L + 1) = j^2 (ln 2)^2 + j ln 2 <=
    (j^2 + j) ln 2 = - ln (K b)] as [0 < ln 2 <= 1]). [ZcdpCeiling.v] uses [zcdp_family_rho] at every [rho]. *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Entropy Divergence Zcdp ZcdpOrder.
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

(** [ln S / (a - 1) <= rho a] from [ln S <= (a - 1) (rho a)]. *)
Lemma rdiv_le_rho rho a S : 1 < a -> ln S <= (a - 1) * (rho * a) -> ln S / (a - 1) <= rho * a.
Proof.
  intros Ha H. replace (rho * a) with ((a - 1) * (rho * a) / (a - 1)) by (field; lra). unfold Rdiv.
  apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; lra|exact H].
Qed.

(** The Gaussian tail at [rho]: [1 - e^c + e^(c + t L) <= e^(rho (t + t^2))] where [L (L + 1) <= - rho c]. *)
Lemma gauss_tail_rho rho L c t : 0 < rho -> 0 <= t -> L * (L + 1) <= - (rho * c) ->
  1 - exp c + exp (c + t * L) <= exp (rho * (t + t * t)).
Proof.
  intros Hr Ht Hc.
  set (g := fun u => exp (rho * (u + u * u)) - exp (c + u * L)).
  set (g' := fun u => exp (rho * (u + u * u)) * (rho * (1 + 2 * u)) - exp (c + u * L) * L).
  assert (G : g 0 <= g t).
  { apply (mono_deriv g g' 0 t Ht).
    - intros u _. unfold g, g'. eapply dpl_val.
      + apply dl_minus; apply dl_exp;
          [apply dl_mult; [apply dl_const|apply dl_plus; [apply dl_id|apply dl_mult; apply dl_id]]
          |apply dl_plus; [apply dl_const|apply dl_mult; [apply dl_id|apply dl_const]]].
      + cbv beta. ring.
    - intros u [Hu _]. unfold g'.
      set (w := L / rho).
      assert (Lw : L = rho * w) by (unfold w; field; lra).
      assert (HW : w <= exp (w - 1)) by (pose proof (exp_ineq1_le (w - 1)); lra).
      assert (Cw : c <= - (w * (rho * w + 1))).
      { rewrite Lw in Hc. assert (rho * (w * (rho * w + 1) + c) <= 0) by nra. nra. }
      assert (Q : w - 1 + (c + u * L) <= rho * (u + u * u)).
      { rewrite Lw. assert (0 <= rho * (u * u - u * w + w * w)).
        { apply Rmult_le_pos; [lra|nra]. }
        nra. }
      assert (E1 : exp (w - 1) * exp (c + u * L) <= exp (rho * (u + u * u))).
      { rewrite <- exp_plus. apply exp_le. lra. }
      assert (P1 : 0 < exp (rho * (u + u * u))) by apply exp_pos.
      assert (P2 : 0 < exp (c + u * L)) by apply exp_pos.
      assert (A1 : L * exp (c + u * L) <= rho * (exp (w - 1) * exp (c + u * L))).
      { assert (W1 : w * exp (c + u * L) <= exp (w - 1) * exp (c + u * L)) by (apply Rmult_le_compat_r; lra).
        assert (W2 : L * exp (c + u * L) = rho * (w * exp (c + u * L))) by (unfold w; field; lra).
        rewrite W2. apply Rmult_le_compat_l; lra. }
      assert (A2 : rho * exp (rho * (u + u * u)) <= exp (rho * (u + u * u)) * (rho * (1 + 2 * u))).
      { assert (0 <= exp (rho * (u + u * u)) * (rho * u)) by (apply Rmult_le_pos; [lra|nra]).
        replace (exp (rho * (u + u * u)) * (rho * (1 + 2 * u)))
          with (rho * exp (rho * (u + u * u)) + 2 * (exp (rho * (u + u * u)) * (rho * u))) by ring.
        lra. }
      assert (A3 : L * exp (c + u * L) <= rho * exp (rho * (u + u * u))).
      { apply Rle_trans with (rho * (exp (w - 1) * exp (c + u * L))); [exact A1|].
        apply Rmult_le_compat_l; lra. }
      rewrite (Rmult_comm (exp (c + u * L)) L). lra. }
  unfold g in G. replace (rho * (0 + 0 * 0)) with 0 in G by ring. replace (c + 0 * L) with c in G by ring.
  rewrite exp_0 in G. lra.
Qed.

Section FamilyRho.
Variables rho K b : R.
Hypothesis Hr : 0 < rho.
Hypothesis HK : 1 <= K.
Hypothesis Hb : 0 < b.
Hypothesis Hkb : K * b <= 1 / 2.
Hypothesis Hkr : 2 * (K * b) <= rho.
Hypothesis Htail : ln K * (ln K + 1) <= - (rho * ln (K * b)).

Lemma kb_pos_rho : 0 < K * b.
Proof. nra. Qed.

Theorem zcdp_family_rho_xy : zcdp_le 2 (fam_x K b) (fam_y b) rho.
Proof.
  pose proof kb_pos_rho as P. assert (Q : b <= K * b) by nra.
  intros a Ha. unfold rdiv. apply rdiv_le_rho; [exact Ha|]. rewrite rsum2. unfold fam_x, fam_y. simpl.
  rewrite !rterm_pos by lra.
  replace (K * b / b) with K by (field; lra).
  set (t := a - 1).
  assert (S1 : Rpower ((1 - K * b) / (1 - b)) t <= 1) by
    (apply rpower_le_1; [apply Rdiv_lt_0_compat; lra|apply div_le_1; lra|unfold t; lra]).
  assert (E : K * b * Rpower K t = exp (ln (K * b) + t * ln K)).
  { unfold Rpower. rewrite exp_plus, exp_ln by exact P. rewrite (Rmult_comm t). reflexivity. }
  assert (T : 1 - exp (ln (K * b)) + exp (ln (K * b) + t * ln K) <= exp (rho * (t + t * t))).
  { apply gauss_tail_rho; [exact Hr|unfold t; lra|exact Htail]. }
  rewrite exp_ln in T by exact P.
  assert (Pos : 0 < K * b * Rpower K t + (1 - K * b) * Rpower ((1 - K * b) / (1 - b)) t).
  { pose proof (Rpower_pos K t). pose proof (Rpower_pos ((1 - K * b) / (1 - b)) t).
    apply Rplus_lt_le_0_compat; [apply Rmult_lt_0_compat; lra|apply Rmult_le_pos; lra]. }
  apply Rle_trans with (ln (exp (rho * (t + t * t)))).
  - apply ln_le_mono; [exact Pos|]. rewrite E in *.
    assert ((1 - K * b) * Rpower ((1 - K * b) / (1 - b)) t <= 1 - K * b) by nra.
    lra.
  - rewrite ln_exp. unfold t. nra.
Qed.

Theorem zcdp_family_rho_yx : zcdp_le 2 (fam_y b) (fam_x K b) rho.
Proof.
  pose proof kb_pos_rho as P. assert (Q : b <= K * b) by nra.
  intros a Ha. unfold rdiv. apply rdiv_le_rho; [exact Ha|]. rewrite rsum2. unfold fam_x, fam_y. simpl.
  rewrite !rterm_pos by lra.
  set (t := a - 1). set (r := (1 - b) / (1 - K * b)).
  assert (Hr1 : 1 <= r) by (apply div_ge_1; lra).
  assert (Hr2 : r - 1 <= rho).
  { unfold r. replace ((1 - b) / (1 - K * b) - 1) with ((K * b - b) / (1 - K * b)) by (field; lra).
    apply (Rmult_le_reg_r (1 - K * b)); [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. nra. }
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
    assert (0 <= t) by (unfold t; lra).
    assert (t * ln r <= t * rho) by (apply Rmult_le_compat_l; lra).
    assert (0 <= t * rho * t) by (apply Rmult_le_pos; [apply Rmult_le_pos|]; lra).
    replace (rho * a) with (rho + rho * t) by (unfold t; ring).
    replace (t * (rho + rho * t)) with (t * rho + t * rho * t) by ring. lra.
Qed.

Theorem zcdp_family_rho : zcdp_le 2 (fam_x K b) (fam_y b) rho /\ zcdp_le 2 (fam_y b) (fam_x K b) rho.
Proof. split; [apply zcdp_family_rho_xy|apply zcdp_family_rho_yx]. Qed.

End FamilyRho.

(** A two-bucket record against itself: every Renyi divergence is 0, below [rho a]. *)
Lemma zcdp_self_rho rho p : 0 < rho -> 0 < p 0%nat < 1 -> p 1%nat = 1 - p 0%nat -> zcdp_le 2 p p rho.
Proof.
  intros Hr Hp E a Ha. unfold rdiv. rewrite rsum2, E.
  rewrite !rterm_pos by lra. replace (p 0%nat / p 0%nat) with 1 by (field; lra).
  replace ((1 - p 0%nat) / (1 - p 0%nat)) with 1 by (field; lra).
  unfold Rpower. rewrite ln_1, Rmult_0_r, exp_0.
  replace (p 0%nat * 1 + (1 - p 0%nat) * 1) with 1 by ring. rewrite ln_1. unfold Rdiv. nra.
Qed.

Section Family.
Variables K b : R.
Hypothesis HK : 1 <= K.
Hypothesis Hb : 0 < b.
Hypothesis Hkb : K * b <= 1 / 2.
Hypothesis Htail : ln K * (ln K + 1) <= - ln (K * b).

(** At [rho = 1] ([2 K b <= 1] is [K b <= 1/2]). *)
Theorem zcdp_family_xy : zcdp_le 2 (fam_x K b) (fam_y b) 1.
Proof. apply zcdp_family_rho_xy; try lra; rewrite Rmult_1_l; exact Htail. Qed.

Theorem zcdp_family_yx : zcdp_le 2 (fam_y b) (fam_x K b) 1.
Proof. apply zcdp_family_rho_yx; try lra; rewrite Rmult_1_l; exact Htail. Qed.

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

(** * The certificates' family: [K = 2^j], [b = 2^(-j^2 - 2 j)], every [j >= 1] *)
Definition fam_K (j : nat) : R := 2 ^ j.
Definition fam_b (j : nat) : R := / 2 ^ (j * j + 2 * j).

Lemma fam_hyps (j : nat) : (1 <= j)%nat ->
  1 <= fam_K j /\ 0 < fam_b j /\ fam_K j * fam_b j <= 1 / 2 /\
  ln (fam_K j) * (ln (fam_K j) + 1) <= - ln (fam_K j * fam_b j).
Proof.
  intro Hj. unfold fam_K, fam_b.
  assert (L0 : 0 < ln 2) by (rewrite <- ln_1; apply ln_increasing; lra).
  assert (L1 : ln 2 <= 1) by (pose proof (ln_le_minus_1 2 ltac:(lra)); lra).
  assert (P2 : forall n, 0 < 2 ^ n) by (intro n; apply pow_lt; lra).
  assert (KB : 2 ^ j * / 2 ^ (j * j + 2 * j) = / 2 ^ (j * j + j)).
  { replace (j * j + 2 * j)%nat with (j + (j * j + j))%nat by lia. rewrite pow_add.
    field. split; apply Rgt_not_eq, P2. }
  assert (J : 1 <= INR j) by (apply (le_INR 1); exact Hj).
  refine (conj _ (conj _ (conj _ _))).
  - apply pow_R1_Rle. lra.
  - apply Rinv_0_lt_compat, P2.
  - rewrite KB. replace (j * j + j)%nat with (S (j * j + j - 1)) by lia. simpl.
    pose proof (pow_R1_Rle 2 (j * j + j - 1) ltac:(lra)).
    rewrite Rinv_mult. assert (/ 2 ^ (j * j + j - 1) <= 1).
    { replace 1 with (/ 1) by field. apply Rinv_le_contravar; lra. }
    apply Rle_trans with (/ 2 * 1); [apply Rmult_le_compat_l; lra|lra].
  - rewrite KB, ln_Rinv by apply P2. rewrite !ln_pow by lra.
    rewrite plus_INR, mult_INR. nra.
Qed.

Theorem zcdp_family_pow2 (j : nat) : (1 <= j)%nat ->
  zcdp_le 2 (fam_x (fam_K j) (fam_b j)) (fam_y (fam_b j)) 1 /\
  zcdp_le 2 (fam_y (fam_b j)) (fam_x (fam_K j) (fam_b j)) 1.
Proof. intro Hj. destruct (fam_hyps j Hj) as [H1 [H2 [H3 H4]]]. apply zcdp_family; assumption. Qed.

(** The table: record 0 at [x], the others at [y]; the classes: record 0, the others. *)
Definition fam (j : nat) (i : nat) : nat -> R :=
  if Nat.eqb i 0 then fam_x (fam_K j) (fam_b j) else fam_y (fam_b j).
Definition fam_cls (i : nat) : nat := if Nat.eqb i 0 then 0%nat else 1%nat.

(** The zero-concentrated level between every two records is at most [rho]. *)
Definition zcdp_pairs_le (N : nat) (x : nat -> nat -> R) (rho : R) : Prop :=
  forall i k, (i < N)%nat -> (k < N)%nat -> zcdp_le 2 (x i) (x k) rho.

(** A two-bucket record against itself: every Renyi divergence is 0. *)
Lemma zcdp_self p : 0 < p 0%nat < 1 -> p 1%nat = 1 - p 0%nat -> zcdp_le 2 p p 1.
Proof. intros Hp E. apply zcdp_self_rho; [lra|exact Hp|exact E]. Qed.

Theorem fam_zcdp (j N : nat) : (1 <= j)%nat -> table N 2 (fam j) /\ zcdp_pairs_le N (fam j) 1.
Proof.
  intro Hj. destruct (fam_hyps j Hj) as [H1 [H2 [H3 H4]]].
  set (K := fam_K j) in *. set (b := fam_b j) in *.
  assert (Q : b <= K * b) by nra.
  split; [split|].
  - intros i l _ Hl. unfold fam. fold K b. destruct (Nat.eqb i 0); unfold fam_x, fam_y;
      destruct (Nat.eqb l 0); lra.
  - intros i _. unfold fam. fold K b. simpl. destruct (Nat.eqb i 0); unfold fam_x, fam_y; simpl; ring.
  - intros i k _ _. unfold fam. fold K b.
    destruct (Nat.eqb i 0); destruct (Nat.eqb k 0).
    + apply zcdp_self; unfold fam_x; simpl; lra.
    + apply zcdp_family; assumption.
    + apply zcdp_family; assumption.
    + apply zcdp_self; unfold fam_y; simpl; lra.
Qed.

(** * B's ratio grows: for every [U], some [j] has [2^j > U] *)
Lemma pow2_ge (n : nat) : INR n + 1 <= 2 ^ n.
Proof.
  induction n as [|n IH]; [simpl; lra|]. rewrite S_INR. change (2 ^ S n) with (2 * 2 ^ n).
  assert (1 <= 2 ^ n) by (apply pow_R1_Rle; lra). lra.
Qed.

Lemma pow2_unbounded (U : R) : exists j : nat, (1 <= j)%nat /\ U < 2 ^ j.
Proof.
  destruct (archimed U) as [H _].
  exists (S (Z.to_nat (up U))). split; [lia|].
  pose proof (pow2_ge (S (Z.to_nat (up U)))) as P. rewrite S_INR in P.
  destruct (Z_lt_le_dec (up U) 0) as [Z|Z].
  - pose proof (pos_INR (Z.to_nat (up U))). apply IZR_lt in Z. lra.
  - rewrite INR_IZR_INZ, Z2Nat.id in P by exact Z. lra.
Qed.

Lemma fam_col0 j i : fam j i 0%nat = if Nat.eqb i 0 then fam_K j * fam_b j else fam_b j.
Proof. unfold fam. destruct (Nat.eqb i 0); reflexivity. Qed.

(** Pairwise: record 0 against record 1 in bucket 0 is [K]. *)
Theorem fam_no_pairwise (N : nat) (U : R) : (2 <= N)%nat ->
  exists j : nat, (1 <= j)%nat /\ table N 2 (fam j) /\ zcdp_pairs_le N (fam j) 1 /\ ~ pairwise_le N 2 (fam j) U.
Proof.
  intro HN. destruct (pow2_unbounded U) as [j [Hj HU]]. exists j.
  destruct (fam_zcdp j N Hj) as [T Z]. split; [exact Hj|split; [exact T|split; [exact Z|]]].
  intro P. specialize (P 0%nat 0%nat 1%nat ltac:(lia) ltac:(lia) ltac:(lia)).
  rewrite !fam_col0 in P. simpl in P. destruct (fam_hyps j Hj) as [H1 [H2 _]].
  unfold fam_K in *. nra.
Qed.

(** A set of records at [y] (records [>= 1]) against the table in bucket 0: [(K + N - 1)/N]. *)
Lemma fam_sum0 j n : sum (S n) (col (fam j) 0%nat) = fam_K j * fam_b j + INR n * fam_b j.
Proof.
  induction n as [|n IH].
  - simpl. unfold col. rewrite fam_col0. simpl. ring.
  - replace (sum (S (S n)) (col (fam j) 0%nat)) with (sum (S n) (col (fam j) 0%nat) + col (fam j) 0%nat (S n))
      by reflexivity.
    rewrite IH. unfold col. rewrite fam_col0. rewrite S_INR. simpl Nat.eqb. cbv iota. ring.
Qed.

Lemma fam_sumS0 j n X : (forall i, (i < n)%nat -> X i = true -> (1 <= i)%nat) ->
  sumS n X (col (fam j) 0%nat) = fam_b j * card n X.
Proof.
  intro HX. rewrite <- sumS_const. unfold sumS. apply sum_ext. intros i Hi.
  destruct (X i) eqn:E; [|reflexivity]. specialize (HX i Hi E). unfold col. rewrite fam_col0.
  destruct (Nat.eqb i 0) eqn:E0; [apply Nat.eqb_eq in E0; lia|reflexivity].
Qed.

Lemma fam_no_lower j N X U : (1 <= j)%nat -> (1 <= N)%nat -> (forall i, (i < N)%nat -> X i = true -> (1 <= i)%nat) ->
  0 < card N X -> U * INR N < fam_K j ->
  ~ lower_ok N X (col (fam j) 0%nat) U.
Proof.
  intros Hj HN HX Hc HU L. unfold lower_ok in L.
  destruct (fam_hyps j Hj) as [H1 [H2 _]].
  rewrite (fam_sumS0 j N X HX) in L.
  assert (S0 : sum N (col (fam j) 0%nat) = fam_K j * fam_b j + INR (N - 1) * fam_b j).
  { replace N with (S (N - 1)) at 1 by lia. apply fam_sum0. }
  rewrite S0 in L.
  assert (EN : INR (N - 1) = INR N - 1) by (rewrite minus_INR by lia; simpl; ring).
  rewrite EN in L.
  assert (P : 0 < card N X * fam_b j) by (apply Rmult_lt_0_compat; lra).
  assert (L2 : card N X * fam_b j * (fam_K j + INR N - 1) <= card N X * fam_b j * (U * INR N)) by nra.
  apply Rmult_le_reg_l in L2; [|exact P].
  assert (1 <= INR N) by (apply (le_INR 1); exact HN). lra.
Qed.

Lemma card_mem n X i : (i < n)%nat -> X i = true -> 1 <= card n X.
Proof.
  intros Hi E. rewrite card_cnt. apply (le_INR 1).
  induction n as [|n IH]; [lia|]. simpl.
  destruct (Nat.eq_dec i n) as [->|D]; [rewrite E; lia|].
  assert (1 <= cnt n X)%nat by (apply IH; lia). lia.
Qed.

Lemma card_pos n X i : (i < n)%nat -> X i = true -> 0 < card n X.
Proof. intros Hi E. pose proof (card_mem n X i Hi E). lra. Qed.

(** Classes: record 0 alone, the others together. *)
Theorem fam_no_class (sd : sides) (N : nat) (U : R) : (2 <= N)%nat -> sd = TwoSided ->
  exists j : nat, (1 <= j)%nat /\ table N 2 (fam j) /\ zcdp_pairs_le N (fam j) 1 /\
    partition N fam_cls 1 /\ ~ class_le sd N 2 (fam j) fam_cls U.
Proof.
  intros HN Hsd. destruct (pow2_unbounded (U * INR N)) as [j [Hj HU]]. exists j.
  destruct (fam_zcdp j N Hj) as [T Z]. split; [exact Hj|split; [exact T|split; [exact Z|split]]].
  - split.
    + intros i Hi. apply (card_mem N _ i Hi). unfold classof. apply Nat.eqb_refl.
    + exists 0%nat, 1%nat. unfold fam_cls. simpl. repeat split; lia.
  - intro C. specialize (C 0%nat 1%nat ltac:(lia) ltac:(lia)). destruct C as [_ L].
    specialize (L Hsd). revert L. apply (fam_no_lower j N); [exact Hj|lia| |apply (card_pos N _ 1%nat); [lia|]|exact HU].
    + intros i _ E. unfold classof, fam_cls in E. simpl in E.
      destruct (Nat.eqb i 0) eqn:E0; [discriminate|]. apply Nat.eqb_neq in E0. lia.
    + unfold classof. apply Nat.eqb_refl.
Qed.

(** Subsets of [s] records, [1 <= s <= N - 1]: records [1 .. s]. *)
Definition first_s (s : nat) : rset := fun i => andb (Nat.leb 1 i) (Nat.leb i s).

Lemma cnt_first_s s n : (s < n)%nat -> cnt n (first_s s) = s.
Proof.
  revert s. induction n as [|n IH]; intros s Hs; [lia|]. simpl.
  unfold first_s at 2. destruct (Nat.eq_dec s n) as [->|D].
  - destruct n as [|n]; [simpl; reflexivity|].
    assert (C : cnt (S n) (first_s (S n)) = n).
    { clear IH Hs. assert (G : forall m, (m <= S n)%nat -> cnt m (first_s (S n)) = (m - 1)%nat).
      { induction m as [|m IHm]; intro Hm; [reflexivity|]. simpl. rewrite IHm by lia. unfold first_s.
        destruct m as [|m]; simpl; [reflexivity|].
        rewrite (proj2 (Nat.leb_le m n)) by lia. lia. }
      rewrite G by lia. lia. }
    rewrite C. rewrite (proj2 (Nat.leb_le 1 (S n))) by lia. rewrite Nat.leb_refl. simpl. lia.
  - rewrite IH by lia. destruct (Nat.leb n s) eqn:E; [apply Nat.leb_le in E; lia|].
    rewrite Bool.andb_false_r. lia.
Qed.

Theorem fam_no_subset (sd : sides) (N s : nat) (sz U : R) : (1 <= s)%nat -> (s + 1 <= N)%nat -> sz = INR s ->
  sd = TwoSided ->
  exists j : nat, (1 <= j)%nat /\ table N 2 (fam j) /\ zcdp_pairs_le N (fam j) 1 /\ ~ subset_le sd N 2 (fam j) sz U.
Proof.
  intros Hs HsN Hsz Hsd. destruct (pow2_unbounded (U * INR N)) as [j [Hj HU]]. exists j.
  destruct (fam_zcdp j N Hj) as [T Z]. split; [exact Hj|split; [exact T|split; [exact Z|]]].
  intro C. specialize (C 0%nat (first_s s) ltac:(lia)).
  assert (Card : card N (first_s s) = sz) by (rewrite card_cnt, cnt_first_s by lia; symmetry; exact Hsz).
  destruct (C Card) as [_ L]. specialize (L Hsd). revert L.
  apply (fam_no_lower j N); [exact Hj|lia| |apply (card_pos N _ 1%nat); [lia|]|exact HU].
  - intros i _ E. unfold first_s in E. apply andb_prop in E. destruct E as [E _]. apply Nat.leb_le in E. exact E.
  - unfold first_s. rewrite (proj2 (Nat.leb_le 1 1)) by lia. rewrite (proj2 (Nat.leb_le 1 s)) by lia. reflexivity.
Qed.
