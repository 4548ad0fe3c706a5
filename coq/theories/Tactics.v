(** Tactics the generated files use: [pos] proves [0 <= p] for a polynomial written as a sum of
    products of nonnegative factors (each leaf by [lra] from the hypotheses), [isnat] proves that a
    size is a natural number, and [ratio_from_poly] turns [P den - Q num >= 0], [Q > 0] into
    [num <= (P / Q) den]. *)
From Coq Require Import Reals Lra Lia ZArith.
From Implgraph Require Import Sums Tables.
Open Scope R_scope.

Ltac pos :=
  match goal with
  | |- 0 <= _ + _ => apply Rplus_le_le_0_compat; pos
  | |- 0 <= _ * _ => apply Rmult_le_pos; pos
  | |- 0 <= _ ^ _ => apply pow_le; pos
  | |- _ => lra
  end.

(** [0 < c + t1 + ... ]: the constant first and > 0, every other term >= 0. *)
Ltac pos_strict :=
  match goal with
  | |- 0 < _ + _ => apply Rplus_lt_le_0_compat; [pos_strict|pos]
  | |- _ => lra
  end.

Lemma ratio_from_poly P Q num den : 0 < Q -> 0 <= P * den - Q * num -> num <= P / Q * den.
Proof.
  intros HQ H. apply Rmult_le_reg_l with Q; [exact HQ|].
  replace (Q * (P / Q * den)) with (P * den) by (field; lra). lra.
Qed.

Lemma le_from_poly P Q M : 0 < Q -> 0 <= P - Q * M -> M <= P / Q.
Proof.
  intros HQ H. apply Rmult_le_reg_l with Q; [exact HQ|].
  replace (Q * (P / Q)) with P by (field; lra). lra.
Qed.

Lemma isnat_INR n : IsNat (INR n).
Proof. exists n. reflexivity. Qed.

Lemma isnat_IZR z : (0 <= z)%Z -> IsNat (IZR z).
Proof. intro H. exists (Z.to_nat z). rewrite INR_IZR_INZ, Z2Nat.id; auto. Qed.

Lemma isnat_plus a b : IsNat a -> IsNat b -> IsNat (a + b).
Proof. intros [n <-] [m <-]. exists (n + m)%nat. apply plus_INR. Qed.

Lemma isnat_mult a b : IsNat a -> IsNat b -> IsNat (a * b).
Proof. intros [n <-] [m <-]. exists (n * m)%nat. apply mult_INR. Qed.

Lemma isnat_minus a b : IsNat a -> IsNat b -> b <= a -> IsNat (a - b).
Proof.
  intros [n <-] [m <-] H. exists (n - m)%nat. apply minus_INR. apply INR_le. exact H.
Qed.

Ltac isnat :=
  match goal with
  | |- IsNat (INR _) => apply isnat_INR
  | |- IsNat (IZR _) => apply isnat_IZR; lia
  | |- IsNat (_ + _) => apply isnat_plus; isnat
  | |- IsNat (_ * _) => apply isnat_mult; isnat
  | |- IsNat (_ - _) => apply isnat_minus; [isnat|isnat|lra]
  end.

(** A component [c = P / Q] of a bound: [A <= c B] (or [A <= c]) from [P B - Q A >= 0]. *)
Lemma comp_le_mul A B c P Q : c = P / Q -> 0 < Q -> 0 <= P * B - Q * A -> A <= c * B.
Proof.
  intros -> HQ H. apply Rmult_le_reg_l with Q; [exact HQ|].
  replace (Q * (P / Q * B)) with (P * B) by (field; lra). lra.
Qed.

Lemma comp_le A c P Q : c = P / Q -> 0 < Q -> 0 <= P - Q * A -> A <= c.
Proof.
  intros -> HQ H. apply Rmult_le_reg_l with Q; [exact HQ|].
  replace (Q * (P / Q)) with P by (field; lra). lra.
Qed.

(** The smaller of two bounds. *)
Lemma rmin_mul A B u v : 0 <= B -> A <= u * B -> A <= v * B -> A <= Rmin u v * B.
Proof. intros HB Hu Hv. unfold Rmin. destruct (Rle_dec u v); assumption. Qed.

Lemma rmin_le A u v : A <= u -> A <= v -> A <= Rmin u v.
Proof. intros Hu Hv. unfold Rmin. destruct (Rle_dec u v); assumption. Qed.

(** [0 <= g] from [0 <= alpha g], [alpha > 0]. *)
Lemma pos_scaled alpha g : 0 < alpha -> 0 <= alpha * g -> 0 <= g.
Proof.
  intros Ha H. apply Rmult_le_reg_l with alpha; [exact Ha|]. lra.
Qed.

Lemma isnat_min a b : IsNat a -> IsNat b -> IsNat (Rmin a b).
Proof. intros Ha Hb. unfold Rmin. destruct (Rle_dec a b); assumption. Qed.

Ltac isnat_full :=
  match goal with
  | |- IsNat (Rmin _ _) => apply isnat_min; isnat_full
  | |- _ => isnat
  end.

(** Goals about [Rmin] / [Rmax] terms: split every one, then [lra] (or [nra]). *)
Ltac rmin_cases :=
  repeat match goal with
  | |- context [Rmin ?a ?b] => unfold Rmin; destruct (Rle_dec a b)
  | |- context [Rmax ?a ?b] => unfold Rmax; destruct (Rle_dec a b)
  end.
Ltac rmin_lra := rmin_cases; lra.
Ltac rmin_nra := rmin_cases; nra.

(** [x <> 0] for the denominators of [field]. *)
Ltac nonzero := repeat split; (intro; nra).

(** A polynomial identity with rational coefficients ([ring] leaves [2 * (1/2)] as it is). *)
Ltac ringq := first [ring | field].

(** A fact of an obligation: a hypothesis up to [lra], or a square. *)
Ltac fact := first [lra | nra].

(** [0 <= g] from [a g = b t], [a > 0], [b >= 0], [t >= 0]. *)
Lemma pos_ratio a b g t : 0 < a -> 0 <= b -> a * g = b * t -> 0 <= t -> 0 <= g.
Proof.
  intros Ha Hb Heq Ht. apply Rmult_le_reg_l with a; [exact Ha|]. rewrite Rmult_0_r, Heq.
  apply Rmult_le_pos; assumption.
Qed.

(** The side conditions of [field] from the hypotheses [d <> 0] of the denominators' factors. *)
Ltac nz_from_hyps :=
  repeat split; repeat apply Rmult_integral_contrapositive_currified; try assumption;
  try (apply Rgt_not_eq; lra); try (intro; nra).

Lemma pos_nz x : 0 < x -> x <> 0.
Proof. intros H E. lra. Qed.

Lemma neg_nz x y : y = - x -> 0 < y -> x <> 0.
Proof. intros -> H E. lra. Qed.
