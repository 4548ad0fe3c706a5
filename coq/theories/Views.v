(** The intruder's view of one individual (domingo-ferrer2015, Proposition 3: [intruder-views]).

    The views model t-closeness's assumptions give: on data set [D] the intruder's view of individual I's value is
    the whole table's distribution [P] when I is not in [D] ([o = None]) and the distribution of I's class when I is
    record [i] of [D] ([o = Some i]); the data sets compared share [P] (it is public). The view is [R]-private when
    every set of values [E] has [Pr(view1 in E) <= R Pr(view2 in E)]. Under a two-sided class level at most [T] in
    both data sets, each bucket's class value [c] has [c <= T P] and [P <= T c]; where the certificate's polynomial
    obligation turns these facts into [x <= U y] for each pair of views, every set of values follows (a sum of
    numerators is at most U times the sum of their denominators). *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Events Columns.
Open Scope R_scope.

Definition tmean (N : nat) (x : nat -> nat -> R) (b : nat) : R := sum N (col x b) / INR N.
Definition cmean (N : nat) (x : nat -> nat -> R) (cls : nat -> nat) (i b : nat) : R :=
  sumS N (classof cls i) (col x b) / card N (classof cls i).
Definition view (N : nat) x cls (o : option nat) (b : nat) : R :=
  match o with None => tmean N x b | Some i => cmean N x cls i b end.

(** The individual, where it is in the data set, is one of its records. *)
Definition in_data (N : nat) (o : option nat) : Prop := forall i, o = Some i -> (i < N)%nat.

(** The two data sets share the whole table's distribution. *)
Definition same_prior (N1 N2 K : nat) x1 x2 : Prop := forall b, (b < K)%nat -> tmean N1 x1 b = tmean N2 x2 b.

(** [k_I] is [U]-private: every set of values. *)
Definition views_le (N1 N2 K : nat) x1 x2 cls1 cls2 o1 o2 (U : R) : Prop :=
  forall E, sumS K E (view N1 x1 cls1 o1) <= U * sumS K E (view N2 x2 cls2 o2).

(** The obligation on one bucket: [P] the table's value, [v], [w] I's class value in D1, D2. *)
Definition views_obl (T U : R) : Prop :=
  forall P v w, 0 <= P -> 0 <= v -> 0 <= w -> 0 <= T * P - v -> 0 <= T * v - P -> 0 <= T * P - w ->
    0 <= T * w - P -> 0 <= T - 1 -> P <= U * P /\ P <= U * w /\ v <= U * P /\ v <= U * w.

Lemma class_bounds N K x cls T i b :
  table N K x -> (0 < N)%nat -> (i < N)%nat -> (b < K)%nat -> class_le TwoSided N K x cls T ->
  0 <= tmean N x b /\ 0 <= cmean N x cls i b /\
  cmean N x cls i b <= T * tmean N x b /\ tmean N x b <= T * cmean N x cls i b.
Proof.
  intros Htab HN Hi Hb HA. destruct (HA b i Hb Hi) as [Hup Hlow]. specialize (Hlow eq_refl).
  unfold upper_ok, lower_ok in Hup, Hlow. unfold tmean, cmean.
  pose proof (class_self_pos N cls i Hi) as Hc.
  assert (HN' : 0 < INR N) by (apply lt_0_INR; exact HN).
  set (S := sumS N (classof cls i) (col x b)) in *. set (D := sum N (col x b)) in *.
  set (c := card N (classof cls i)) in *.
  assert (HS : 0 <= S) by (apply sumS_nonneg; intros; apply (col_nonneg N K x b Htab Hb); auto).
  assert (HD : 0 <= D) by (apply sum_nonneg; intros; apply (col_nonneg N K x b Htab Hb); auto).
  repeat split.
  - apply (nonneg_frac D (INR N)); [lra | lra | reflexivity].
  - apply (nonneg_frac S c); [lra | lra | reflexivity].
  - apply Rmult_le_reg_r with (c * INR N); [nra|].
    replace (S / c * (c * INR N)) with (INR N * S) by (field; lra).
    replace (T * (D / INR N) * (c * INR N)) with (T * (c * D)) by (field; lra). lra.
  - apply Rmult_le_reg_r with (c * INR N); [nra|].
    replace (D / INR N * (c * INR N)) with (c * D) by (field; lra).
    replace (T * (S / c) * (c * INR N)) with (T * (INR N * S)) by (field; lra). lra.
Qed.

Theorem intruder_views N1 N2 K x1 x2 cls1 cls2 o1 o2 T U :
  table N1 K x1 -> table N2 K x2 -> (0 < N1)%nat -> (0 < N2)%nat -> 1 <= T ->
  in_data N1 o1 -> in_data N2 o2 -> same_prior N1 N2 K x1 x2 ->
  class_le TwoSided N1 K x1 cls1 T -> class_le TwoSided N2 K x2 cls2 T -> views_obl T U ->
  views_le N1 N2 K x1 x2 cls1 cls2 o1 o2 U.
Proof.
  intros H1 H2 HN1 HN2 HT Ho1 Ho2 Hp HA1 HA2 Hob E.
  rewrite <- sumS_scal. apply sumS_le. intros b Hb _.
  (* the table's value P, and I's class values v (D1) and w (D2), where I is in the data set *)
  assert (HP : 0 <= tmean N1 x1 b).
  { unfold tmean. apply (nonneg_frac (sum N1 (col x1 b)) (INR N1)); [|apply lt_0_INR; exact HN1|reflexivity].
    apply sum_nonneg; intros; apply (col_nonneg N1 K x1 b H1 Hb); auto. }
  assert (Hv : exists v, view N1 x1 cls1 o1 b = tmean N1 x1 b \/
                         (view N1 x1 cls1 o1 b = v /\ 0 <= v /\ v <= T * tmean N1 x1 b /\ tmean N1 x1 b <= T * v)).
  { destruct o1 as [i|]; [|exists 0; left; reflexivity].
    destruct (class_bounds N1 K x1 cls1 T i b H1 HN1 (Ho1 i eq_refl) Hb HA1) as [_ [Ha [Hb1 Hb2]]].
    exists (cmean N1 x1 cls1 i b). right. repeat split; auto. }
  assert (Hw : exists w, view N2 x2 cls2 o2 b = tmean N1 x1 b \/
                         (view N2 x2 cls2 o2 b = w /\ 0 <= w /\ w <= T * tmean N1 x1 b /\ tmean N1 x1 b <= T * w)).
  { rewrite (Hp b Hb). destruct o2 as [i|]; [|exists 0; left; reflexivity].
    destruct (class_bounds N2 K x2 cls2 T i b H2 HN2 (Ho2 i eq_refl) Hb HA2) as [_ [Ha [Hb1 Hb2]]].
    exists (cmean N2 x2 cls2 i b). right. repeat split; auto. }
  destruct Hv as [v Hv]. destruct Hw as [w Hw].
  set (P := tmean N1 x1 b) in *.
  destruct Hv as [Hv | [Hv [Hv0 [Hv1 Hv2]]]]; destruct Hw as [Hw | [Hw [Hw0 [Hw1 Hw2]]]]; rewrite Hv, Hw.
  - destruct (Hob P P P HP HP HP ltac:(nra) ltac:(nra) ltac:(nra) ltac:(nra) ltac:(lra)) as [H _]. exact H.
  - destruct (Hob P P w HP HP Hw0 ltac:(nra) ltac:(nra) ltac:(lra) ltac:(lra) ltac:(lra)) as [_ [H _]]. exact H.
  - destruct (Hob P v P HP Hv0 HP ltac:(lra) ltac:(lra) ltac:(nra) ltac:(nra) ltac:(lra)) as [_ [_ [H _]]]. exact H.
  - destruct (Hob P v w HP Hv0 Hw0 ltac:(lra) ltac:(lra) ltac:(lra) ltac:(lra) ltac:(lra)) as [_ [_ [_ H]]]. exact H.
Qed.
