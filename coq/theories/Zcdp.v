(** Pure privacy bounds every real-order Renyi divergence: zero-concentrated privacy at [eps tanh(eps/2)].

    Where every ratio [p_l / q_l] lies in [[1/T, T]] ([T = e^eps >= 1]) the Renyi sum of a real order [a > 1],
    [sum_l q_l (p_l / q_l)^a], is at most the chord of [r^a] over [[1/T, T]] at 1 ([chord] of [Divergence]; [r^a]
    is convex on [(0, oo)]), which is [(T^a + T^(1-a)) / (T + 1)]. The logarithm of that is at most
    [a (a - 1) eps tanh(eps/2)]: with [t = (a - 1/2) eps] and [s = eps/2] the logarithm is
    [ln cosh t - ln cosh s], whose derivative in [a] is [eps tanh t], at most [(2a - 1) eps tanh s] because
    [tanh x / x] does not increase on [x > 0] (as [2x <= sinh 2x]), the derivative of the right side. Dividing by
    [a - 1]: the Renyi divergence of order [a] is at most [rho a] with [rho = eps tanh(eps/2)]
    ([pure_zcdp_pair]; [tanh(eps/2) = (T - 1)/(T + 1)]).

    The monotonicity arguments go through the mean value theorem ([MVT_cor2]); the derivatives are built from the
    standard library's rules ([derivable_pt_lim_plus], [_mult], [_div], [_comp], [_exp], [_ln], ...) by [dchain].
    [tanh] is written through [exp]: [th x = (e^(2x) - 1)/(e^(2x) + 1)]. *)
From Coq Require Import Reals Lra.
From Implgraph Require Import Sums Divergence.
Open Scope R_scope.

(** * Derivatives: the standard library's rules over [fun y => ...], and a value given up to an equation *)
Lemma dpl_val f x l l' : derivable_pt_lim f x l -> l = l' -> derivable_pt_lim f x l'.
Proof. intros D E. subst. exact D. Qed.
Lemma dl_const (a : R) x : derivable_pt_lim (fun _ => a) x 0.
Proof. exact (derivable_pt_lim_const a x). Qed.
Lemma dl_id x : derivable_pt_lim (fun y => y) x 1.
Proof. exact (derivable_pt_lim_id x). Qed.
Lemma dl_plus f g x lf lg :
  derivable_pt_lim f x lf -> derivable_pt_lim g x lg -> derivable_pt_lim (fun y => f y + g y) x (lf + lg).
Proof. exact (derivable_pt_lim_plus f g x lf lg). Qed.
Lemma dl_minus f g x lf lg :
  derivable_pt_lim f x lf -> derivable_pt_lim g x lg -> derivable_pt_lim (fun y => f y - g y) x (lf - lg).
Proof. exact (derivable_pt_lim_minus f g x lf lg). Qed.
Lemma dl_opp f x l : derivable_pt_lim f x l -> derivable_pt_lim (fun y => - f y) x (- l).
Proof. exact (derivable_pt_lim_opp f x l). Qed.
Lemma dl_mult f g x lf lg :
  derivable_pt_lim f x lf -> derivable_pt_lim g x lg -> derivable_pt_lim (fun y => f y * g y) x (lf * g x + f x * lg).
Proof. exact (derivable_pt_lim_mult f g x lf lg). Qed.
Lemma dl_div f g x lf lg :
  derivable_pt_lim f x lf -> derivable_pt_lim g x lg -> g x <> 0 ->
  derivable_pt_lim (fun y => f y / g y) x ((lf * g x - lg * f x) / (g x * g x)).
Proof. exact (derivable_pt_lim_div f g x lf lg). Qed.
Lemma dl_exp f x l : derivable_pt_lim f x l -> derivable_pt_lim (fun y => exp (f y)) x (exp (f x) * l).
Proof. intro D. exact (derivable_pt_lim_comp f exp x l (exp (f x)) D (derivable_pt_lim_exp (f x))). Qed.
Lemma dl_ln f x l : derivable_pt_lim f x l -> 0 < f x -> derivable_pt_lim (fun y => ln (f y)) x (/ f x * l).
Proof. intros D P. exact (derivable_pt_lim_comp f ln x l (/ f x) D (derivable_pt_lim_ln (f x) P)). Qed.

Ltac dchain :=
  repeat first [ apply dl_const | apply dl_id | apply dl_div | apply dl_minus | apply dl_plus | apply dl_opp
               | apply dl_mult | apply dl_exp | apply dl_ln ].

(** * A function whose derivative is nonnegative on an interval does not decrease there *)
Lemma mono_deriv (f f' : R -> R) x y :
  x <= y -> (forall c, x <= c <= y -> derivable_pt_lim f c (f' c)) -> (forall c, x <= c <= y -> 0 <= f' c) ->
  f x <= f y.
Proof.
  intros Hxy Hd Hp. destruct Hxy as [Hlt|Heq]; [|subst; lra].
  destruct (MVT_cor2 f f' x y Hlt) as [c [E Hc]].
  { intros c Hc. apply Hd, Hc. }
  assert (0 <= f' c) by (apply Hp; lra).
  assert (0 <= f' c * (y - x)) by (apply Rmult_le_pos; lra).
  lra.
Qed.

(** * The real-order generator [r^a] lies below its chords on [(0, oo)] *)
Lemma below_rpower a lo hi : 1 <= a -> 0 < lo -> lo < hi -> below_chord (fun r => Rpower r a) lo hi.
Proof.
  intros Ha Hlo Hlh r [H1 H2].
  destruct H1 as [H1|H1]; [|subst; lra]. destruct H2 as [H2|H2]; [|subst; lra].
  set (f := fun r => Rpower r a). set (f' := fun r => a * Rpower r (a - 1)).
  assert (Hd : forall x y, 0 < x -> x < y -> exists c, f y - f x = f' c * (y - x) /\ x < c < y).
  { intros x y Hx Hxy. apply MVT_cor2; [exact Hxy|]. intros c Hc. apply derivable_pt_lim_power. lra. }
  destruct (Hd lo r Hlo H1) as [c1 [E1 C1]]. destruct (Hd r hi ltac:(lra) H2) as [c2 [E2 C2]].
  assert (M : f' c1 <= f' c2).
  { unfold f'. apply Rmult_le_compat_l; [lra|]. apply Rle_Rpower_l; lra. }
  assert (P : 0 <= (r - lo) * (hi - r) * (f' c2 - f' c1)) by (apply Rmult_le_pos; [apply Rmult_le_pos|]; lra).
  fold (f r) (f hi) (f lo).
  assert (E : (r - lo) * f hi + (hi - r) * f lo - (hi - lo) * f r
              = (r - lo) * (f hi - f r) - (hi - r) * (f r - f lo)) by ring.
  rewrite E1 in E. rewrite E2 in E. lra.
Qed.

(** The chord's value at 1 over [[1/T, T]]: [(T^a + T^(1-a)) / (T + 1)]. *)
Lemma rpower_inv_base T a : 0 < T -> Rpower (1 / T) a = Rpower T (1 - a) / T.
Proof.
  intro HT. unfold Rpower. unfold Rdiv at 1. rewrite Rmult_1_l, ln_Rinv by exact HT.
  rewrite <- (exp_ln T) at 3 by exact HT. unfold Rdiv. rewrite <- exp_Ropp, <- exp_plus.
  f_equal. ring.
Qed.

Lemma chord_rpower_val T a :
  1 < T -> chord_val (fun r => Rpower r a) (1 / T) T = (Rpower T a + Rpower T (1 - a)) / (T + 1).
Proof.
  intro HT. unfold chord_val. rewrite rpower_inv_base by lra.
  field. split; [lra|]. split; [lra|]. nra.
Qed.

(** The Renyi sum of a real order over distributions whose ratios lie in [[1/T, T]]. *)
Lemma renyi_sum_chord K p q T a :
  1 < T -> 1 <= a -> (forall l, (l < K)%nat -> 0 <= q l) -> sum K q = 1 -> sum K p = 1 -> dominated K p q ->
  (forall l, (l < K)%nat -> 0 < q l -> 1 / T <= p l / q l <= T) ->
  sum K (fun l => q l * Rpower (p l / q l) a) <= (Rpower T a + Rpower T (1 - a)) / (T + 1).
Proof.
  intros HT Ha Hq Sq Sp Hd Hr. rewrite <- chord_rpower_val by exact HT.
  assert (H0 : 0 < 1 / T) by (unfold Rdiv; rewrite Rmult_1_l; apply Rinv_0_lt_compat; lra).
  assert (H1 : 1 / T < T).
  { apply Rmult_lt_reg_r with T; [lra|]. unfold Rdiv. rewrite Rmult_1_l, Rinv_l by lra. nra. }
  apply (chord K (fun r => Rpower r a) p q (1 / T) T H1 Hq Sq Sp Hd Hr).
  apply below_rpower; assumption.
Qed.

(** * [tanh x / x] does not increase on [x > 0] *)
Definition th (x : R) : R := (exp (2 * x) - 1) / (exp (2 * x) + 1).

Lemma sinh_ge y : 0 <= y -> 2 * y <= exp y - exp (- y).
Proof.
  intro Hy.
  pose proof (mono_deriv (fun y => exp y - exp (- y) - 2 * y) (fun y => exp y + exp (- y) - 2) 0 y Hy) as M.
  simpl in M. rewrite Ropp_0, exp_0 in M.
  assert (1 - 1 - 2 * 0 <= exp y - exp (- y) - 2 * y); [|lra].
  apply M.
  - intros c _. eapply dpl_val; [dchain|]. cbv beta. ring.
  - intros c _. rewrite exp_Ropp. pose proof (exp_pos c) as Hc. set (u := exp c) in *.
    assert (E : u + / u - 2 = (u - 1) * (u - 1) / u) by (field; lra).
    rewrite E. unfold Rdiv. apply Rmult_le_pos; [pose proof (Rle_0_sqr (u - 1)) as Q; unfold Rsqr in Q; exact Q|left; apply Rinv_0_lt_compat; lra].
Qed.

Lemma th_ratio s t : 0 < s -> s <= t -> s * th t <= t * th s.
Proof.
  intros Hs Hst.
  set (g := fun x => (exp (2 * x) * exp (2 * x) - 1 - 4 * x * exp (2 * x))
                     / ((exp (2 * x) + 1) * (exp (2 * x) + 1) * (x * x))).
  pose proof (mono_deriv (fun x => - (th x / x)) g s t Hst) as M. simpl in M.
  assert (- (th s / s) <= - (th t / t)) as N.
  { apply M.
    - intros c Hc. unfold th, g. pose proof (exp_pos (2 * c)).
      eapply dpl_val; [dchain|]; cbv beta; first [lra | field; split; lra].
    - intros c Hc. unfold g. pose proof (exp_pos (2 * c)) as He. set (E := exp (2 * c)) in *.
      pose proof (sinh_ge (2 * c) ltac:(lra)) as Sh. rewrite exp_Ropp in Sh. fold E in Sh.
      assert (Num : 0 <= E * E - 1 - 4 * c * E).
      { assert (E * (E - / E) = E * E - 1) by (field; lra).
        assert (E * (2 * (2 * c)) <= E * (E - / E)) by (apply Rmult_le_compat_l; lra). nra. }
      apply Rmult_le_pos; [exact Num|]. left. apply Rinv_0_lt_compat.
      apply Rmult_lt_0_compat; [apply Rmult_lt_0_compat|apply Rmult_lt_0_compat]; lra. }
  assert (th t / t <= th s / s) by lra.
  apply Rmult_le_reg_r with (/ (s * t)); [apply Rinv_0_lt_compat; nra|].
  replace (s * th t * / (s * t)) with (th t / t) by (field; lra).
  replace (t * th s * / (s * t)) with (th s / s) by (field; lra). exact H.
Qed.

(** * The tanh lemma *)
Theorem tanh_bound eps a :
  0 < eps -> 1 < a ->
  ln ((exp (a * eps) + exp ((1 - a) * eps)) / (exp eps + 1)) <=
    a * (a - 1) * eps * (exp eps - 1) / (exp eps + 1).
Proof.
  intros He Ha.
  set (c := (exp eps - 1) / (exp eps + 1)).
  assert (Hc : c = th (eps / 2)) by (unfold c, th; replace (2 * (eps / 2)) with eps by field; reflexivity).
  set (G := fun b => b * (b - 1) * eps * c - ln (exp (b * eps) + exp ((1 - b) * eps))).
  set (G' := fun b => (2 * b - 1) * eps * c
                      - (eps * exp (b * eps) - eps * exp ((1 - b) * eps)) / (exp (b * eps) + exp ((1 - b) * eps))).
  assert (M : G 1 <= G a).
  { apply (mono_deriv G G' 1 a); [lra| |].
    - intros b _. unfold G, G'. pose proof (exp_pos (b * eps)). pose proof (exp_pos ((1 - b) * eps)).
      eapply dpl_val; [dchain|]; cbv beta; first [lra | field; lra].
    - intros b Hb. unfold G'.
      set (t := (b - 1 / 2) * eps).
      pose proof (exp_pos ((1 - b) * eps)) as HB. set (B := exp ((1 - b) * eps)) in *.
      assert (EA : exp (b * eps) = exp (2 * t) * B).
      { unfold B. rewrite <- exp_plus. f_equal. unfold t. field. }
      rewrite EA. pose proof (exp_pos (2 * t)) as HE.
      replace ((eps * (exp (2 * t) * B) - eps * B) / (exp (2 * t) * B + B)) with (eps * th t)
        by (unfold th; field; split; nra).
      pose proof (th_ratio (eps / 2) t ltac:(lra) ltac:(unfold t; nra)) as R.
      rewrite <- Hc in R.
      replace (t * c) with (eps / 2 * ((2 * b - 1) * c)) in R by (unfold t; field).
      assert (Tt : th t <= (2 * b - 1) * c) by (apply Rmult_le_reg_l with (eps / 2); lra).
      assert (0 <= eps * ((2 * b - 1) * c - th t)) by (apply Rmult_le_pos; lra).
      lra. }
  unfold G in M.
  replace (1 * (1 - 1) * eps * c) with 0 in M by ring.
  replace ((1 - 1) * eps) with 0 in M by ring. rewrite exp_0 in M. replace (1 * eps) with eps in M by ring.
  pose proof (exp_pos eps). pose proof (exp_pos (a * eps)). pose proof (exp_pos ((1 - a) * eps)).
  unfold Rdiv at 1. rewrite ln_mult, ln_Rinv by (try apply Rinv_0_lt_compat; lra).
  replace (a * (a - 1) * eps * (exp eps - 1) / (exp eps + 1)) with (a * (a - 1) * eps * c) by (unfold c; field; lra).
  lra.
Qed.

(** * Pure privacy at [T] bounds the Renyi divergence of every real order [a > 1] by [rho a],
      [rho = ln T (T - 1)/(T + 1) = eps tanh(eps/2)] *)
Lemma ln_le_mono x y : 0 < x -> x <= y -> ln x <= ln y.
Proof. intros Hx [H|H]; [left; apply ln_increasing; assumption|subst; lra]. Qed.

Lemma ln_nonpos x : x <= 0 -> ln x = 0.
Proof. intro H. unfold ln. case Rlt_dec; intro L; [exfalso; lra|reflexivity]. Qed.

Theorem pure_zcdp_pair K p q T a :
  1 <= T -> 1 < a ->
  (forall l, (l < K)%nat -> 0 <= q l) -> sum K q = 1 -> sum K p = 1 -> dominated K p q ->
  (forall l, (l < K)%nat -> 0 < q l -> 1 / T <= p l / q l <= T) ->
  ln (sum K (fun l => q l * Rpower (p l / q l) a)) / (a - 1) <= a * (ln T * (T - 1) / (T + 1)).
Proof.
  intros HT Ha Hq Sq Sp Hd Hr.
  destruct HT as [HT|HT].
  - set (S := sum K (fun l => q l * Rpower (p l / q l) a)).
    assert (Hln : 0 < ln T) by (rewrite <- ln_1; apply ln_increasing; lra).
    assert (Hrhs : 0 <= a * (ln T * (T - 1) / (T + 1))).
    { apply Rmult_le_pos; [lra|]. unfold Rdiv. apply Rmult_le_pos; [apply Rmult_le_pos; lra|].
      left. apply Rinv_0_lt_compat. lra. }
    destruct (Rle_lt_dec S 0) as [S0|S0].
    + rewrite ln_nonpos by exact S0. unfold Rdiv at 1. rewrite Rmult_0_l. exact Hrhs.
    + assert (HS : S <= (Rpower T a + Rpower T (1 - a)) / (T + 1))
        by (apply renyi_sum_chord; auto; lra).
      pose proof (tanh_bound (ln T) a Hln Ha) as Tb.
      rewrite exp_ln in Tb by lra.
      change (exp (a * ln T)) with (Rpower T a) in Tb. change (exp ((1 - a) * ln T)) with (Rpower T (1 - a)) in Tb.
      assert (L : ln S <= a * (a - 1) * ln T * (T - 1) / (T + 1)) by (eapply Rle_trans; [apply ln_le_mono; eassumption|exact Tb]).
      apply Rmult_le_reg_r with (a - 1); [lra|].
      replace (ln S / (a - 1) * (a - 1)) with (ln S) by (field; lra).
      replace (a * (ln T * (T - 1) / (T + 1)) * (a - 1)) with (a * (a - 1) * ln T * (T - 1) / (T + 1)) by (field; lra).
      exact L.
  - subst T.
    assert (E : forall l, (l < K)%nat -> p l = q l).
    { intros l Hl. destruct (Req_dec (q l) 0) as [Z|Z]; [rewrite Z; apply Hd; assumption|].
      assert (Qp : 0 < q l) by (pose proof (Hq l Hl); lra).
      pose proof (Hr l Hl Qp) as R. replace (1 / 1) with 1 in R by field.
      assert (p l / q l = 1) by lra.
      apply Rmult_eq_reg_r with (/ q l); [|apply Rinv_neq_0_compat; lra].
      rewrite Rinv_r by lra. exact H. }
    pose proof (fdiv_same K (fun r => Rpower r a) p q E Sq) as F. unfold fdiv in F. rewrite F.
    unfold Rpower. rewrite ln_1, Rmult_0_r, exp_0, ln_1.
    replace (0 / (a - 1)) with 0 by (field; lra). lra.
Qed.

(** The same with [T = e^eps]: the Renyi divergence of order [a] is at most [a eps tanh(eps/2)]. *)
Corollary pure_zcdp_eps K p q eps a :
  0 <= eps -> 1 < a ->
  (forall l, (l < K)%nat -> 0 <= q l) -> sum K q = 1 -> sum K p = 1 -> dominated K p q ->
  (forall l, (l < K)%nat -> 0 < q l -> exp (- eps) <= p l / q l <= exp eps) ->
  ln (sum K (fun l => q l * Rpower (p l / q l) a)) / (a - 1) <= a * (eps * (exp eps - 1) / (exp eps + 1)).
Proof.
  intros He Ha Hq Sq Sp Hd Hr.
  assert (HT : 1 <= exp eps) by (pose proof (exp_ineq1_le eps); lra).
  assert (Hr' : forall l, (l < K)%nat -> 0 < q l -> 1 / exp eps <= p l / q l <= exp eps).
  { intros l Hl Hp. unfold Rdiv at 1. rewrite Rmult_1_l, <- exp_Ropp. apply Hr; assumption. }
  pose proof (pure_zcdp_pair K p q (exp eps) a HT Ha Hq Sq Sp Hd Hr') as P.
  rewrite ln_exp in P. exact P.
Qed.
