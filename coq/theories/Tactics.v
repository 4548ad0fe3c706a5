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
