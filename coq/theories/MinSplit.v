(** Bounds written with [Rmin] of several arguments (a composition whose first part's bound is a [Min]): the
    first part's bound [h = Rmin a1 (Rmin a2 ...)] is a threshold the second part covers when every argument is
    ([min_ge], [min_gt]), and two [Rmin]s of equal arguments in any order are equal ([min_split] splits every
    [Rmin] of a goal into its cases, then [lra] decides). *)
From Coq Require Import Reals Lra.
Open Scope R_scope.

Lemma Rmin_cases a b : (Rmin a b = a /\ a <= b) \/ (Rmin a b = b /\ b <= a).
Proof. unfold Rmin. destruct (Rle_dec a b); [left|right]; split; lra. Qed.

Lemma min_ge a b r : a >= r -> b >= r -> Rmin a b >= r.
Proof. intros Ha Hb. apply Rle_ge, Rmin_glb; lra. Qed.

Lemma min_gt a b r : a > r -> b > r -> Rmin a b > r.
Proof. intros Ha Hb. apply Rlt_gt, Rmin_glb_lt; lra. Qed.

(** Split every [Rmin] of the goal into its two cases, innermost first (the equation rewritten, the order kept as
    a hypothesis). *)
Ltac min_split :=
  repeat match goal with
  | |- context [Rmin ?a ?b] =>
      lazymatch a with context [Rmin _ _] => fail | _ => idtac end;
      lazymatch b with context [Rmin _ _] => fail | _ => idtac end;
      let E := fresh "Em" in let O := fresh "Om" in
      destruct (Rmin_cases a b) as [[E O]|[E O]]; rewrite E; clear E
  end.

(** A threshold of [Rmin a1 (Rmin a2 ...)] from one per argument. *)
Ltac min_threshold :=
  repeat first [apply min_ge | apply min_gt]; lra.
