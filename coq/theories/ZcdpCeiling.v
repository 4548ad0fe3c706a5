(** The zero-concentrated level of the [ceiling-family] approach family at every level [rho > 0].

    Two records over two buckets, [x = (K b, 1 - K b)] and [y = (b, 1 - b)], as in [ZcdpFamily.v], now with the
    zero-concentrated level [rho > 0] a parameter: where [K >= 1], [b > 0], [K b <= 1/2], [2 K b <= rho] and
    [ln K (ln K + 1) <= - rho ln (K b)] (a Gaussian tail scaled by [rho]: [K b = exp (- L (L + 1)/rho)], [L = ln K],
    meets it with equality), the level is at most [rho] both ways ([zcdp_family_rho]). With [t = a - 1 > 0]:

    - [x || y]: the Renyi sum is at most [1 - e^c + e^(c + t L)] ([c = ln (K b)], as in [zcdp_family_xy]), and
      [gauss_tail_rho] puts that below [e^(rho (t + t^2))]: [g(u) = e^(rho (u + u^2)) - e^(c + u L)] has
      [g(0) = 1 - e^c] and [g' >= 0], since [L <= rho e^(L/rho - 1)] ([1 + x <= e^x]) and, with [w = L/rho],
      [w - 1 + c + u L <= rho (u + u^2)] from [c <= - w (rho w + 1)] ([rho (u^2 - u w + w^2) + rho u + 1 >= 0]);
      so [D_a <= rho (t + t^2)/t = rho a];
    - [y || x]: the sum is at most [r^t], [r = (1 - b)/(1 - K b)], and [ln r <= r - 1 = (K - 1) b/(1 - K b)
      <= 2 K b <= rho], so [D_a <= rho <= rho a].

    At [rho = 1] with [2 K b <= 1] this is [ZcdpFamily.zcdp_family]. [fam_rho_zcdp]: the table of N records, record
    0 at [x] and the others at [y], has level at most [rho] between every two records (two equal records: 0). The
    lone record's ratio to the table in bucket 0 is [N K/(K + N - 1)] whatever [b], which the Python checker
    (implgraph/certify/lemmas/ceiling_family_zcdp.py) re-derives. *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Entropy Divergence Zcdp ZcdpOrder ZcdpFamily.
Open Scope R_scope.

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

(** [ln S / (a - 1) <= rho a] from [ln S <= (a - 1) (rho a)]. *)
Lemma rdiv_le_rho rho a S : 1 < a -> ln S <= (a - 1) * (rho * a) -> ln S / (a - 1) <= rho * a.
Proof.
  intros Ha H. replace (rho * a) with ((a - 1) * (rho * a) / (a - 1)) by (field; lra). unfold Rdiv.
  apply Rmult_le_compat_r; [left; apply Rinv_0_lt_compat; lra|exact H].
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

(** The table: record 0 at [x], the others at [y]. *)
Definition fam_rho (K b : R) (i : nat) : nat -> R := if Nat.eqb i 0 then fam_x K b else fam_y b.

Theorem fam_rho_zcdp (rho K b : R) (N : nat) :
  0 < rho -> 1 <= K -> 0 < b -> K * b <= 1 / 2 -> 2 * (K * b) <= rho ->
  ln K * (ln K + 1) <= - (rho * ln (K * b)) ->
  table N 2 (fam_rho K b) /\ zcdp_pairs_le N (fam_rho K b) rho.
Proof.
  intros Hr HK Hb Hkb Hkr Ht.
  assert (Q : b <= K * b) by nra.
  split; [split|].
  - intros i l _ Hl. unfold fam_rho. destruct (Nat.eqb i 0); unfold fam_x, fam_y;
      destruct (Nat.eqb l 0); lra.
  - intros i _. unfold fam_rho. simpl. destruct (Nat.eqb i 0); unfold fam_x, fam_y; simpl; ring.
  - intros i k _ _. unfold fam_rho.
    destruct (Nat.eqb i 0); destruct (Nat.eqb k 0).
    + apply zcdp_self_rho; [exact Hr|unfold fam_x; simpl; nra|reflexivity].
    + apply zcdp_family_rho; assumption.
    + apply zcdp_family_rho; assumption.
    + apply zcdp_self_rho; [exact Hr|unfold fam_y; simpl; nra|reflexivity].
Qed.

(** The scaled tail with equality: [K b = exp (- ln K (ln K + 1)/rho)] meets [Htail]. *)
Lemma tail_exact rho K : 0 < rho -> 0 < K ->
  ln K * (ln K + 1) <= - (rho * ln (exp (- (ln K * (ln K + 1)) / rho))).
Proof. intros Hr HK. rewrite ln_exp. right. field. lra. Qed.
