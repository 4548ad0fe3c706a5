(** A bounded Renyi-2 (hence KL) level between records never bounds the zero-concentrated level: a witness family.

    For a real [K >= 3] and [b = 1 / ((K - 1)^2 + 1)], the two-bucket distributions [x = (K b, 1 - K b)] and
    [y = (b, 1 - b)] (implgraph's ``zcdp-lower-family`` certificates, docs/arguments/zcdp-lower-family.md), and the
    table [ftab K] of [N] records, the first at [x], the others at [y]:

    - [fam_renyi2_xy], [fam_renyi2_yx]: [sum x^2/y = 2] and [sum y^2/x = 1 + (K - 1)/(K (K - 2)) <= 2], so Renyi of
      order 2 is at most [ln 2] both ways, and KL too ([Divergence.kl_of_renyi2]): [fam_pairs];
    - [fam_zcdp_lower]: a zero-concentrated level [rho] of the pair [(x, y)] is at least [ln K / 6]
      ([ZcdpOrder.zcdp_lower] at the order 3: [S_3 >= x_1^3 / y_1^2 = K^3 b >= K], every term of [S_3] being [>= 0]);
    - [zcdp_family]: for every [N >= 2] and every [rho], some [K >= 3] gives a table whose Renyi-2 (and KL) level
      between records is at most [ln 2] and whose zero-concentrated level between records is not at most [rho]: no
      function of the one bounds the other. *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Entropy Divergence ZcdpOrder.
Open Scope R_scope.

Definition fb (K : R) : R := / ((K - 1) ^ 2 + 1).
Definition fx (K : R) : nat -> R := fun l => match l with O => K * fb K | _ => 1 - K * fb K end.
Definition fy (K : R) : nat -> R := fun l => match l with O => fb K | _ => 1 - fb K end.
Definition ftab (K : R) : nat -> nat -> R := fun i => match i with O => fx K | _ => fy K end.

(** The zero-concentrated level between every two distinct records is at most [rho]. *)
Definition zcdp_pairs_le (N K : nat) (x : nat -> nat -> R) (rho : R) : Prop :=
  forall i j, (i < N)%nat -> (j < N)%nat -> i <> j -> zcdp_le K (row x i) (row x j) rho.

Section Family.
Variable K : R.
Hypothesis HK : 3 <= K.

Let d := (K - 1) ^ 2 + 1.
Ltac nz := repeat split; apply Rgt_not_eq; nra.
Lemma d_pos : 0 < d.
Proof. unfold d. nra. Qed.

Lemma fb_eq : fb K = / d.
Proof. reflexivity. Qed.

Lemma fb_pos : 0 < fb K.
Proof. rewrite fb_eq. apply Rinv_0_lt_compat, d_pos. Qed.

Lemma kb_pos : 0 < K * fb K.
Proof. pose proof fb_pos. nra. Qed.

(** [1 - K b = (K - 1)(K - 2) b] and [1 - b = (K - 1)^2 b]. *)
Lemma one_kb : 1 - K * fb K = (K - 1) * (K - 2) * fb K.
Proof. rewrite fb_eq. pose proof d_pos. unfold d in *. field. nz. Qed.

Lemma one_b : 1 - fb K = (K - 1) ^ 2 * fb K.
Proof. rewrite fb_eq. pose proof d_pos. unfold d in *. field. nz. Qed.

Lemma one_kb_pos : 0 < 1 - K * fb K.
Proof. rewrite one_kb. pose proof fb_pos. apply Rmult_lt_0_compat; [nra|exact H]. Qed.

Lemma one_b_pos : 0 < 1 - fb K.
Proof. rewrite one_b. pose proof fb_pos. apply Rmult_lt_0_compat; [nra|exact H]. Qed.

Lemma fx_nonneg l : 0 <= fx K l.
Proof. destruct l; simpl; [left; apply kb_pos|left; apply one_kb_pos]. Qed.

Lemma fy_nonneg l : 0 <= fy K l.
Proof. destruct l; simpl; [left; apply fb_pos|left; apply one_b_pos]. Qed.

Lemma fx_pos l : 0 < fx K l.
Proof. destruct l; simpl; [apply kb_pos|apply one_kb_pos]. Qed.

Lemma fy_pos l : 0 < fy K l.
Proof. destruct l; simpl; [apply fb_pos|apply one_b_pos]. Qed.

Lemma fx_sum : sum 2 (fx K) = 1.
Proof. simpl. ring. Qed.

Lemma fy_sum : sum 2 (fy K) = 1.
Proof. simpl. ring. Qed.

(** [sum x^2 / y = 2]. *)
Lemma fam_renyi2_xy : div_le (Renyi 2) 2 (fx K) (fy K) (ln 2).
Proof.
  split.
  - intros l _ Z. pose proof (fy_pos l). lra.
  - unfold fdiv. simpl. replace ((1 + 1 - 1) * ln 2) with (ln 2) by ring. rewrite exp_ln by lra.
    pose proof fb_pos as B. pose proof one_b_pos as B1. pose proof one_kb_pos as K1.
    assert (E : fb K * (K * fb K / fb K) ^ 2 + (1 - fb K) * ((1 - K * fb K) / (1 - fb K)) ^ 2 = 2).
    { rewrite fb_eq in *. pose proof d_pos. unfold d in *. field. nz. }
    simpl in E. lra.
Qed.

(** [sum y^2 / x = 1 + (K - 1)/(K (K - 2)) <= 2]. *)
Lemma fam_renyi2_yx : div_le (Renyi 2) 2 (fy K) (fx K) (ln 2).
Proof.
  split.
  - intros l _ Z. pose proof (fx_pos l). lra.
  - unfold fdiv. simpl. replace ((1 + 1 - 1) * ln 2) with (ln 2) by ring. rewrite exp_ln by lra.
    pose proof fb_pos as B. pose proof kb_pos as KB. pose proof one_kb_pos as K1.
    assert (E : K * fb K * (fb K / (K * fb K)) ^ 2 + (1 - K * fb K) * ((1 - fb K) / (1 - K * fb K)) ^ 2
                = 1 + (K - 1) / (K * (K - 2))).
    { rewrite one_kb, one_b. rewrite fb_eq in *. pose proof d_pos. unfold d in *. field. nz. }
    simpl in E. assert ((K - 1) / (K * (K - 2)) <= 1).
    { apply Rmult_le_reg_r with (K * (K - 2)); [nra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by nra. nra. }
    lra.
Qed.

Lemma fy_same k : phi_of k 1 <= dbound k (ln 2) -> div_le k 2 (fy K) (fy K) (ln 2).
Proof.
  intro H1. split.
  - intros l _ Z. pose proof (fy_pos l). lra.
  - rewrite (fdiv_same 2 (phi_of k) (fy K) (fy K)); [exact H1|reflexivity|exact fy_sum].
Qed.

Lemma ftab_table N : table N 2 (ftab K).
Proof.
  split.
  - intros i l _ _. destruct i; [apply fx_nonneg|apply fy_nonneg].
  - intros i _. destruct i; [exact fx_sum|exact fy_sum].
Qed.

(** The family's Renyi-2 and KL levels between records are at most [ln 2]. *)
Theorem fam_pairs N k : k = Renyi 2 \/ k = KL -> div_pairs_le k N 2 (ftab K) (ln 2).
Proof.
  intros Hk i j _ _ Hij. unfold row.
  assert (R : forall p q, (forall l, 0 <= p l) -> (forall l, 0 <= q l) -> sum 2 p = 1 -> sum 2 q = 1 ->
                          div_le (Renyi 2) 2 p q (ln 2) -> div_le k 2 p q (ln 2)).
  { intros p q Hp Hq Sp Sq H. destruct Hk as [E|E]; subst k; [exact H|].
    apply (kl_of_renyi2 2 p q); [intros; apply Hq|intros; apply Hp|exact Sq|exact Sp|exact H]. }
  assert (L2 : 0 < ln 2) by (rewrite <- ln_1; apply ln_increasing; lra).
  destruct i as [|i], j as [|j]; simpl.
  - lia.
  - apply R; [exact fx_nonneg|exact fy_nonneg|exact fx_sum|exact fy_sum|exact fam_renyi2_xy].
  - apply R; [exact fy_nonneg|exact fx_nonneg|exact fy_sum|exact fx_sum|exact fam_renyi2_yx].
  - apply fy_same. destruct Hk as [E|E]; subst k; simpl.
    + replace ((1 + 1 - 1) * ln 2) with (ln 2) by ring. rewrite exp_ln by lra. lra.
    + unfold xlnx, ent. destruct (Rlt_dec 0 1); [rewrite ln_1; lra|lra].
Qed.

(** A zero-concentrated level [rho] of [(x, y)] is at least [ln K / 6]. *)
Theorem fam_zcdp_lower rho : zcdp_le 2 (fx K) (fy K) rho -> ln K / 6 <= rho.
Proof.
  intro Hz. pose proof (zcdp_lower 2 (fx K) (fy K) rho 3 Hz ltac:(lra)) as H.
  unfold rdiv, rsum in H. simpl sum in H.
  pose proof fb_pos as B. pose proof kb_pos as KB.
  assert (T0 : rterm 3 (fx K 0) (fy K 0) = K ^ 3 * fb K).
  { simpl. rewrite rterm_pos by assumption. replace (K * fb K / fb K) with K by (field; lra).
    replace (3 - 1) with (INR 2) by (simpl; ring). rewrite Rpower_pow by lra. ring. }
  assert (T1 : 0 <= rterm 3 (fx K 1) (fy K 1)) by (apply rterm_nonneg, fy_nonneg).
  assert (KK : K <= K ^ 3 * fb K).
  { rewrite fb_eq. pose proof d_pos. unfold d in *. apply Rmult_le_reg_r with ((K - 1) ^ 2 + 1); [lra|].
    rewrite Rmult_assoc, Rinv_l by lra. nra. }
  assert (Hln : ln K <= ln (0 + rterm 3 (fx K 0) (fy K 0) + rterm 3 (fx K 1) (fy K 1))).
  { assert (KS : K <= 0 + rterm 3 (fx K 0) (fy K 0) + rterm 3 (fx K 1) (fy K 1)) by lra.
    destruct KS as [L|E]; [left; apply ln_increasing; lra|rewrite <- E; lra]. }
  simpl in Hln. replace (3 - 1) with 2 in H by ring. lra.
Qed.
End Family.

(** No function of the Renyi-2 (or KL) level between records bounds the zero-concentrated level, at any [N >= 2]. *)
Theorem zcdp_family N k rho :
  (2 <= N)%nat -> k = Renyi 2 \/ k = KL ->
  exists K, 3 <= K /\ table N 2 (ftab K) /\ div_pairs_le k N 2 (ftab K) (ln 2) /\ ~ zcdp_pairs_le N 2 (ftab K) rho.
Proof.
  intros HN Hk. set (K := exp (6 * Rabs rho + 6)).
  assert (HK : 3 <= K).
  { unfold K. pose proof (exp_ineq1_le (6 * Rabs rho + 6)). pose proof (Rabs_pos rho). lra. }
  exists K. refine (conj HK (conj (ftab_table K HK N) (conj (fam_pairs K HK N k Hk) _))).
  intro Hz. pose proof (fam_zcdp_lower K HK rho (Hz 0%nat 1%nat ltac:(lia) ltac:(lia) ltac:(lia))) as H.
  unfold K in H. rewrite ln_exp in H. pose proof (Rle_abs rho). lra.
Qed.
