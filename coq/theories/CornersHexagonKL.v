(** The corners lemma on the hexagon, KL (implgraph.prover.arguments.corners, "Few records"): three records each
    within [[1/T, T]] of the mean, [1 <= T < 2], every two records' KL divergence at most [WK T], the value at (1, 1) of
    the affine [h] through [g(a, b) = a ln(a/b)] at (T, 1/T), (1/T, T), (1/T, k) ([k = 3 - T - 1/T]). [h - g] at the
    other three vertices is [A ln T + B ln x] ([x = T k = 3 T - T^2 - 1]) with [A], [B] of one sign on [[1, 2]];
    [Pinsker.ln_lower] bounds [ln r] below by [(5 r^2 - 4 r - 1)/(2 r^2 + 4 r)] and ([ln_upper], at [1/r]) above by
    [(r^2 + 4 r - 5)/(4 r + 2)], and [A] times its bound plus [B] times its bound is a rational function [>= 0] on
    [[1, 2]] (numerator in Bernstein form) ([hex_ok_kl]); [corners_hexagon_kl] is the theorem the generated proofs
    apply. *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Tactics Divergence RemovalChord CeilingChord Pinsker Corners CornersHexagon.
Open Scope R_scope.

Definition hx (T : R) : R := 3 * T - T ^ 2 - 1.

Lemma hx_ge_one T : 1 <= T -> T <= 2 -> 1 <= hx T.
Proof. intros. unfold hx. nra. Qed.

Lemma ln_upper r : 0 < r -> ln r <= (r * r + 4 * r - 5) / (4 * r + 2).
Proof.
  intros Hr. pose proof (ln_lower (/ r) ltac:(apply Rinv_0_lt_compat; lra)) as H. rewrite ln_Rinv in H by lra.
  replace ((5 * / r * / r - 4 * / r - 1) / (2 * / r * / r + 4 * / r)) with (- ((r * r + 4 * r - 5) / (4 * r + 2))) in H
    by (field; split; lra). lra.
Qed.

Lemma persp_kl a b : 0 < a -> 0 < b -> persp (phi_of KL) a b = a * ln (a / b).
Proof. intros. unfold persp, phi_of. rewrite xlnx_pos by (apply Rdiv_lt_0_compat; lra). field. lra. Qed.

Ltac kfacts T := let H1 := fresh in let H2 := fresh in intros H1 H2;
  assert (1 <= hx T) by (apply hx_ge_one; lra);
  assert (0 < 3 - T - 1 / T) by (apply Rmult_lt_reg_l with T; [lra|]; rewrite Rmult_0_r;
    replace (T * (3 - T - 1 / T)) with (hx T) by (unfold hx; field; lra); lra);
  assert (0 < 1 / T) by (apply Rdiv_lt_0_compat; lra).

Lemma kv1 T : 1 < T -> T < 2 -> persp (phi_of KL) T (1 / T) = T * (2 * ln T).
Proof. kfacts T. rewrite persp_kl by lra. replace (T / (1 / T)) with (T * T) by (field; lra). rewrite ln_mult by lra. ring. Qed.

Lemma kv2 T : 1 < T -> T < 2 -> persp (phi_of KL) T (3 - T - 1 / T) = T * (2 * ln T - ln (hx T)).
Proof.
  kfacts T. rewrite persp_kl by lra. replace (T / (3 - T - 1 / T)) with (T * T * / hx T) by (unfold hx in *; field; split; lra).
  rewrite ln_mult, ln_mult, ln_Rinv by (try apply Rmult_lt_0_compat; try apply Rinv_0_lt_compat; lra). ring.
Qed.

Lemma kv3 T : 1 < T -> T < 2 -> persp (phi_of KL) (3 - T - 1 / T) T = (3 - T - 1 / T) * (ln (hx T) - 2 * ln T).
Proof.
  kfacts T. rewrite persp_kl by lra. replace ((3 - T - 1 / T) / T) with (hx T * / T * / T) by (unfold hx; field; lra).
  rewrite ln_mult, ln_mult, !ln_Rinv by (try apply Rmult_lt_0_compat; try apply Rinv_0_lt_compat; lra). ring.
Qed.

Lemma kv4 T : 1 < T -> T < 2 -> persp (phi_of KL) (1 / T) T = 1 / T * (- 2 * ln T).
Proof.
  kfacts T. rewrite persp_kl by lra. replace (1 / T / T) with (/ T * / T) by (field; lra).
  rewrite ln_mult, !ln_Rinv by (try apply Rinv_0_lt_compat; lra). ring.
Qed.

Lemma kv5 T : 1 < T -> T < 2 -> persp (phi_of KL) (1 / T) (3 - T - 1 / T) = 1 / T * (- ln (hx T)).
Proof.
  kfacts T. rewrite persp_kl by lra. replace (1 / T / (3 - T - 1 / T)) with (/ hx T) by (unfold hx in *; field; split; lra).
  rewrite ln_Rinv by lra. ring.
Qed.

Lemma kv6 T : 1 < T -> T < 2 -> persp (phi_of KL) (3 - T - 1 / T) (1 / T) = (3 - T - 1 / T) * ln (hx T).
Proof. kfacts T. rewrite persp_kl by lra. replace ((3 - T - 1 / T) / (1 / T)) with (hx T) by (unfold hx; field; lra). ring. Qed.

Definition klc0 (T : R) : R := -((ln (hx T)) - 2*(ln T) + (ln (hx T))*T + (ln (hx T))*T^2 + (ln (hx T))*T^3 - 6*(ln T)*T^2 - 2*(ln T)*T + 6*(ln T)*T^3)/(T*(1 + T)*(-1 + T)*(-1 + 2*T)).
Definition klc1 (T : R) : R := ((ln (hx T)) - 4*(ln T) + (ln (hx T))*T - 2*(ln T)*T^2 + 2*(ln T)*T + 4*(ln T)*T^3)/((1 + T)*(-1 + T)*(-1 + 2*T)).
Definition klc2 (T : R) : R := -(-(ln (hx T)) + 2*(ln T))/((-1 + T)*(-1 + 2*T)).
Definition WK (T : R) : R := (-1 + T)*(-(ln (hx T)) + 2*(ln T) - (ln (hx T))*T + 4*(ln T)*T^2)/(T*(1 + T)*(-1 + 2*T)).

Lemma hex_ok_kl T : 1 < T -> T < 2 -> hex_ok (phi_of KL) (1 / T) (3 - T - 1 / T) T (klc0 T) (klc1 T) (klc2 T).
Proof.
  intros H1 H2. pose proof (hx_ge_one T ltac:(lra) ltac:(lra)) as Hx.
  assert (HT0 : T <> 0) by lra. assert (HT1 : -1 + T <> 0) by lra. assert (HT2 : -1 + 2 * T <> 0) by lra.
  assert (HT3 : 1 + T <> 0) by lra. assert (HT4 : 3 - T - 1 / T <> 0).
  { apply Rgt_not_eq. apply Rmult_lt_reg_l with T; [lra|]. rewrite Rmult_0_r.
    replace (T * (3 - T - 1 / T)) with (hx T) by (unfold hx; field; lra). lra. }
  assert (HL1 := ln_lower T ltac:(lra)). assert (HU1 := ln_upper T ltac:(lra)).
  assert (HL2 := ln_lower (hx T) ltac:(lra)). assert (HU2 := ln_upper (hx T) ltac:(lra)).
  unfold hex_ok. repeat split.
  - rewrite (kv1 T H1 H2). right. unfold haff, klc0, klc1, klc2. field. repeat split; assumption.
  - rewrite (kv2 T H1 H2).
    assert (PR : 0 <= (-1 + T)^2*(-2 + T)*(2 - 39*T^3 - 38*T^4 - 21*T^2 + 20*T^5 + 22*T)/(2*T*(1 + 2*T)*(-1 + 2*T)*(1 + T^2 - 3*T)*(-1 + T^2 - 3*T))).
    { replace ((-1 + T)^2*(-2 + T)*(2 - 39*T^3 - 38*T^4 - 21*T^2 + 20*T^5 + 22*T)/(2*T*(1 + 2*T)*(-1 + 2*T)*(1 + T^2 - 3*T)*(-1 + T^2 - 3*T))) with ((-4 - 118*T^7 - 113*T^3 - 95*T^5 - 34*T - 13*T^4 + 20*T^8 + 144*T^2 + 213*T^6) / ((2) * (T) * (-1 + 2*T) * (1 + 2*T) * (1 - T^2 + 3*T) * (-1 - T^2 + 3*T))) by (field; nz_from_hyps).
      apply Rmult_le_pos; [replace (-4 - 118*T^7 - 113*T^3 - 95*T^5 - 34*T - 13*T^4 + 20*T^8 + 144*T^2 + 213*T^6) with (54 * (T - 1) ^ 2 * (2 - T) ^ 6 + 459 * (T - 1) ^ 3 * (2 - T) ^ 5 + 1462 * (T - 1) ^ 4 * (2 - T) ^ 4 + 2163 * (T - 1) ^ 5 * (2 - T) ^ 3 + 1444 * (T - 1) ^ 6 * (2 - T) ^ 2 + 318 * (T - 1) ^ 7 * (2 - T) ^ 1) by ring; pos |].
      left; apply Rinv_0_lt_compat. repeat apply Rmult_lt_0_compat; nra. }
    assert (SA : 0 <= -2*(-2 + T)/(T*(-1 + 2*T))).
    { replace (-2*(-2 + T)/(T*(-1 + 2*T))) with ((4 - 2*T) / ((1) * (T) * (-1 + 2*T))) by (field; nz_from_hyps).
      apply Rmult_le_pos; [replace (4 - 2*T) with (2 * (T - 1) ^ 0 * (2 - T) ^ 1) by ring; pos |].
      left; apply Rinv_0_lt_compat. repeat apply Rmult_lt_0_compat; nra. }
    assert (SB : 0 <= (1 + T)*(2 - 3*T + 2*T^2)/(T*(-1 + 2*T))).
    { replace ((1 + T)*(2 - 3*T + 2*T^2)/(T*(-1 + 2*T))) with ((2 - T - T^2 + 2*T^3) / ((1) * (T) * (-1 + 2*T))) by (field; nz_from_hyps).
      apply Rmult_le_pos; [replace (2 - T - T^2 + 2*T^3) with (2 * (T - 1) ^ 0 * (2 - T) ^ 3 + 9 * (T - 1) ^ 1 * (2 - T) ^ 2 + 17 * (T - 1) ^ 2 * (2 - T) ^ 1 + 12 * (T - 1) ^ 3 * (2 - T) ^ 0) by ring; pos |].
      left; apply Rinv_0_lt_compat. repeat apply Rmult_lt_0_compat; nra. }
    assert (P1 : 0 <= (-2*(-2 + T)/(T*(-1 + 2*T))) * ((T * T + 4 * T - 5) / (4 * T + 2) - ln T)) by (apply Rmult_le_pos; [exact SA | lra]).
    assert (P2 : 0 <= ((1 + T)*(2 - 3*T + 2*T^2)/(T*(-1 + 2*T))) * (ln (hx T) - (5 * (hx T) * (hx T) - 4 * (hx T) - 1) / (2 * (hx T) * (hx T) + 4 * (hx T)))) by (apply Rmult_le_pos; [exact SB | lra]).
    assert (E : haff (klc0 T) (klc1 T) (klc2 T) T (3 - T - 1 / T) - T * (2 * ln T - ln (hx T)) = ((-1 + T)^2*(-2 + T)*(2 - 39*T^3 - 38*T^4 - 21*T^2 + 20*T^5 + 22*T)/(2*T*(1 + 2*T)*(-1 + 2*T)*(1 + T^2 - 3*T)*(-1 + T^2 - 3*T))) + (-2*(-2 + T)/(T*(-1 + 2*T))) * ((T * T + 4 * T - 5) / (4 * T + 2) - ln T) + ((1 + T)*(2 - 3*T + 2*T^2)/(T*(-1 + 2*T))) * (ln (hx T) - (5 * (hx T) * (hx T) - 4 * (hx T) - 1) / (2 * (hx T) * (hx T) + 4 * (hx T)))).
    { unfold haff, klc0, klc1, klc2, hx in *. field. repeat split; try assumption; nra. }
    lra.
  - rewrite (kv3 T H1 H2).
    assert (PR : 0 <= -(-1 + T)^2*(-2 + T)*(2 - 165*T^4 - 15*T^3 - 5*T^6 + 2*T^7 + 6*T^2 + 10*T + 57*T^5)/(2*T^2*(1 + T)*(-1 + 2*T)*(2 + T)*(1 - 6*T + 2*T^2))).
    { replace (-(-1 + T)^2*(-2 + T)*(2 - 165*T^4 - 15*T^3 - 5*T^6 + 2*T^7 + 6*T^2 + 10*T + 57*T^5)/(2*T^2*(1 + T)*(-1 + 2*T)*(2 + T)*(1 - 6*T + 2*T^2))) with ((-4 - 873*T^5 - 422*T^7 - 13*T^9 - 10*T + 2*T^10 + 22*T^3 + 30*T^2 + 87*T^8 + 241*T^4 + 940*T^6) / ((2) * (1 + T) * (2 + T) * (-1 + 2*T) * (T) * (T) * (-1 - 2*T^2 + 6*T))) by (field; nz_from_hyps).
      apply Rmult_le_pos; [replace (-4 - 873*T^5 - 422*T^7 - 13*T^9 - 10*T + 2*T^10 + 22*T^3 + 30*T^2 + 87*T^8 + 241*T^4 + 940*T^6) with (108 * (T - 1) ^ 2 * (2 - T) ^ 8 + 1170 * (T - 1) ^ 3 * (2 - T) ^ 7 + 5244 * (T - 1) ^ 4 * (2 - T) ^ 6 + 12585 * (T - 1) ^ 5 * (2 - T) ^ 5 + 17405 * (T - 1) ^ 6 * (2 - T) ^ 4 + 13794 * (T - 1) ^ 7 * (2 - T) ^ 3 + 5748 * (T - 1) ^ 8 * (2 - T) ^ 2 + 954 * (T - 1) ^ 9 * (2 - T) ^ 1) by ring; pos |].
      left; apply Rinv_0_lt_compat. repeat apply Rmult_lt_0_compat; nra. }
    assert (SA : 0 <= -2*(-1 + T)*(-2 + T)*(1 + 2*T + 4*T^2)/(T*(1 + T)*(-1 + 2*T))).
    { replace (-2*(-1 + T)*(-2 + T)*(1 + 2*T + 4*T^2)/(T*(1 + T)*(-1 + 2*T))) with ((-4 - 8*T^4 - 6*T^2 - 2*T + 20*T^3) / ((1) * (T) * (1 + T) * (-1 + 2*T))) by (field; nz_from_hyps).
      apply Rmult_le_pos; [replace (-4 - 8*T^4 - 6*T^2 - 2*T + 20*T^3) with (14 * (T - 1) ^ 1 * (2 - T) ^ 3 + 48 * (T - 1) ^ 2 * (2 - T) ^ 2 + 42 * (T - 1) ^ 3 * (2 - T) ^ 1) by ring; pos |].
      left; apply Rinv_0_lt_compat. repeat apply Rmult_lt_0_compat; nra. }
    assert (SB : 0 <= -(-1 + T)*(-1 - 5*T + 2*T^2)/(T*(-1 + 2*T))).
    { replace (-(-1 + T)*(-1 - 5*T + 2*T^2)/(T*(-1 + 2*T))) with ((-1 - 4*T - 2*T^3 + 7*T^2) / ((1) * (T) * (-1 + 2*T))) by (field; nz_from_hyps).
      apply Rmult_le_pos; [replace (-1 - 4*T - 2*T^3 + 7*T^2) with (4 * (T - 1) ^ 1 * (2 - T) ^ 2 + 9 * (T - 1) ^ 2 * (2 - T) ^ 1 + 3 * (T - 1) ^ 3 * (2 - T) ^ 0) by ring; pos |].
      left; apply Rinv_0_lt_compat. repeat apply Rmult_lt_0_compat; nra. }
    assert (P1 : 0 <= (-2*(-1 + T)*(-2 + T)*(1 + 2*T + 4*T^2)/(T*(1 + T)*(-1 + 2*T))) * (ln T - (5 * T * T - 4 * T - 1) / (2 * T * T + 4 * T))) by (apply Rmult_le_pos; [exact SA | lra]).
    assert (P2 : 0 <= (-(-1 + T)*(-1 - 5*T + 2*T^2)/(T*(-1 + 2*T))) * (((hx T) * (hx T) + 4 * (hx T) - 5) / (4 * (hx T) + 2) - ln (hx T))) by (apply Rmult_le_pos; [exact SB | lra]).
    assert (E : haff (klc0 T) (klc1 T) (klc2 T) (3 - T - 1 / T) T - (3 - T - 1 / T) * (ln (hx T) - 2 * ln T) = (-(-1 + T)^2*(-2 + T)*(2 - 165*T^4 - 15*T^3 - 5*T^6 + 2*T^7 + 6*T^2 + 10*T + 57*T^5)/(2*T^2*(1 + T)*(-1 + 2*T)*(2 + T)*(1 - 6*T + 2*T^2))) + (-2*(-1 + T)*(-2 + T)*(1 + 2*T + 4*T^2)/(T*(1 + T)*(-1 + 2*T))) * (ln T - (5 * T * T - 4 * T - 1) / (2 * T * T + 4 * T)) + (-(-1 + T)*(-1 - 5*T + 2*T^2)/(T*(-1 + 2*T))) * (((hx T) * (hx T) + 4 * (hx T) - 5) / (4 * (hx T) + 2) - ln (hx T))).
    { unfold haff, klc0, klc1, klc2, hx in *. field. repeat split; try assumption; nra. }
    lra.
  - rewrite (kv4 T H1 H2). right. unfold haff, klc0, klc1, klc2. field. repeat split; assumption.
  - rewrite (kv5 T H1 H2). right. unfold haff, klc0, klc1, klc2. field. repeat split; assumption.
  - rewrite (kv6 T H1 H2).
    assert (PR : 0 <= -(-1 + T)^3*(-2 + T)*(2 + T^5 - T^4 - 28*T^2 + 2*T + 6*T^3)/(2*T^2*(1 + T)*(2 + T)*(1 - 6*T + 2*T^2))).
    { replace (-(-1 + T)^3*(-2 + T)*(2 + T^5 - T^4 - 28*T^2 + 2*T + 6*T^3)/(2*T^2*(1 + T)*(2 + T)*(1 - 6*T + 2*T^2))) with ((4 + T^9 - 304*T^4 - 74*T^6 - 52*T^2 - 10*T - 6*T^8 + 20*T^7 + 205*T^5 + 216*T^3) / ((2) * (1 + T) * (2 + T) * (T) * (T) * (-1 - 2*T^2 + 6*T))) by (field; nz_from_hyps).
      apply Rmult_le_pos; [replace (4 + T^9 - 304*T^4 - 74*T^6 - 52*T^2 - 10*T - 6*T^8 + 20*T^7 + 205*T^5 + 216*T^3) with (18 * (T - 1) ^ 3 * (2 - T) ^ 6 + 125 * (T - 1) ^ 4 * (2 - T) ^ 5 + 326 * (T - 1) ^ 5 * (2 - T) ^ 4 + 396 * (T - 1) ^ 6 * (2 - T) ^ 3 + 220 * (T - 1) ^ 7 * (2 - T) ^ 2 + 42 * (T - 1) ^ 8 * (2 - T) ^ 1) by ring; pos |].
      left; apply Rinv_0_lt_compat. repeat apply Rmult_lt_0_compat; nra. }
    assert (SA : 0 <= -2*(1 + T^2)*(-2 + T)/(T*(1 + T))).
    { replace (-2*(1 + T^2)*(-2 + T)/(T*(1 + T))) with ((4 - 2*T - 2*T^3 + 4*T^2) / ((1) * (T) * (1 + T))) by (field; nz_from_hyps).
      apply Rmult_le_pos; [replace (4 - 2*T - 2*T^3 + 4*T^2) with (4 * (T - 1) ^ 0 * (2 - T) ^ 3 + 12 * (T - 1) ^ 1 * (2 - T) ^ 2 + 10 * (T - 1) ^ 2 * (2 - T) ^ 1) by ring; pos |].
      left; apply Rinv_0_lt_compat. repeat apply Rmult_lt_0_compat; nra. }
    assert (SB : 0 <= 3 - T).
    { replace (3 - T) with ((3 - T) / ((1))) by (field; nz_from_hyps).
      apply Rmult_le_pos; [replace (3 - T) with (2 * (T - 1) ^ 0 * (2 - T) ^ 1 + 1 * (T - 1) ^ 1 * (2 - T) ^ 0) by ring; pos |].
      left; apply Rinv_0_lt_compat. repeat apply Rmult_lt_0_compat; nra. }
    assert (P1 : 0 <= (-2*(1 + T^2)*(-2 + T)/(T*(1 + T))) * (ln T - (5 * T * T - 4 * T - 1) / (2 * T * T + 4 * T))) by (apply Rmult_le_pos; [exact SA | lra]).
    assert (P2 : 0 <= (3 - T) * (((hx T) * (hx T) + 4 * (hx T) - 5) / (4 * (hx T) + 2) - ln (hx T))) by (apply Rmult_le_pos; [exact SB | lra]).
    assert (E : haff (klc0 T) (klc1 T) (klc2 T) (3 - T - 1 / T) (1 / T) - (3 - T - 1 / T) * ln (hx T) = (-(-1 + T)^3*(-2 + T)*(2 + T^5 - T^4 - 28*T^2 + 2*T + 6*T^3)/(2*T^2*(1 + T)*(2 + T)*(1 - 6*T + 2*T^2))) + (-2*(1 + T^2)*(-2 + T)/(T*(1 + T))) * (ln T - (5 * T * T - 4 * T - 1) / (2 * T * T + 4 * T)) + (3 - T) * (((hx T) * (hx T) + 4 * (hx T) - 5) / (4 * (hx T) + 2) - ln (hx T))).
    { unfold haff, klc0, klc1, klc2, hx in *. field. repeat split; try assumption; nra. }
    lra.
Qed.

(** The theorem the generated proofs apply: three records each within [[1/T, T]] of the mean, [1 <= T < 2], and
    [WK T <= U]: every two records' KL divergence is at most U. *)
Theorem corners_hexagon_kl K x T U :
  table 3 K x -> subset_le TwoSided 3 K x 1 T -> 1 <= T -> T < 2 -> WK T <= U -> div_pairs_le KL 3 K x U.
Proof.
  intros Htab HA H1 H2 HU. destruct (Rle_lt_or_eq_dec 1 T H1) as [HT|HT].
  - apply (corners_hexagon KL K x T (klc0 T) (klc1 T) (klc2 T) U Htab HA H1 H2 convex_kl (hex_ok_kl T HT H2)).
    simpl dbound. replace (klc0 T + klc1 T + klc2 T) with (WK T) by (unfold klc0, klc1, klc2, WK; field; lra).
    exact HU.
  - subst T. assert (HW : WK 1 = 0) by (unfold WK; field).
    apply (corners_kl 3 K x 1 1 1 U Htab HA ltac:(lra) ltac:(lra) ltac:(right; field) ltac:(lra)).
    replace ((1 - 1) * ln (1 / 1)) with 0 by ring. lra.
Qed.
