(** [max-value] beyond classes: B one record against the table (a one-sided subset level, any size >= 1, as
    pointwise maximal leakage is stated), and A a one-sided subset level of size 1 (pointwise maximal leakage as A).

    A set [X] is the class of any of its records under the labels [0] on [X] and [S k] off it, so
    [MaxValue.max_value]'s one-sided class ratio bounds every set's ([max_value_subset]). Where A bounds only
    each record's value against the table (one-sided, size 1), the bucket's largest value [M] is at most [T] times
    the table's mean, and at most the table's sum: with the mean scaled to 1, [T - M >= 0] and [N - M >= 0], and
    every class mean is at most [M] ([max_value_one]: the certificate's obligation in the kernel's variables, [H]
    the others' mean, [(N - 1) H = N - M]). *)
From Coq Require Import Reals Lra Lia Bool FunctionalExtensionality.
From Implgraph Require Import Sums Tables Extreme MaxValue.
Open Scope R_scope.

Definition set_labels (X : rset) : nat -> nat := fun k => if X k then 0%nat else S k.

Lemma set_as_class X i : X i = true -> classof (set_labels X) i = X.
Proof.
  intro Hi. apply functional_extensionality. intro k. unfold classof, set_labels. rewrite Hi.
  destruct (X k); reflexivity.
Qed.

Lemma set_member N X : 0 < card N X -> exists i, (i < N)%nat /\ X i = true.
Proof.
  intro H. rewrite card_cnt in H.
  assert (Hc : (0 < cnt N X)%nat) by (destruct (cnt N X); [simpl in H; lra | lia]).
  destruct (exists_min N X (fun _ => 0) Hc) as [k [Hk [HX _]]]. exists k. auto.
Qed.

Theorem max_value_subset N K x j T U j' :
  table N K x -> IsNat j -> 1 <= j -> j <= INR N - 1 -> 0 <= T -> subset_le TwoSided N K x j T ->
  max_value_obl (INR N) j T U -> 0 < j' -> subset_le OneSided N K x j' U.
Proof.
  intros Htab Hj Hj1 HjN HT HA Hob Hj' b X Hb HX.
  destruct (set_member N X ltac:(lra)) as [i [Hi HXi]].
  pose proof (max_value N K x (set_labels X) j T U Htab Hj Hj1 HjN HT HA Hob b i Hb Hi) as H.
  rewrite (set_as_class X i HXi) in H. exact H.
Qed.

(** The obligation where A is one-sided: the [j largest] facts and [mass] (the others are >= 0). *)
Definition max_value_one_obl (N j T U : R) : Prop :=
  forall M H, 0 <= M -> 0 <= H -> 0 <= j * T - (j - 1) * H - M -> 0 <= (N - 1) * H - (N - M) -> 0 <= N - M ->
    M <= U.

Theorem max_value_one N K x cls T U :
  table N K x -> 2 <= INR N -> subset_le OneSided N K x 1 T ->
  max_value_one_obl (INR N) 1 T U -> class_le OneSided N K x cls U.
Proof.
  intros Htab HN HA Hob b i Hb Hi.
  split; [|discriminate]. unfold upper_ok.
  set (c := col x b). assert (Hnn : forall k, (k < N)%nat -> 0 <= c k) by (apply col_nonneg with K; auto).
  assert (HN0 : (0 < N)%nat) by (destruct N; [simpl in HN; lra | lia]).
  destruct (exists_min N (fun _ => true) (fun k => - c k) ltac:(rewrite all_cnt; lia)) as [km [Hkm [_ Hmax]]].
  set (M := c km).
  assert (HM : forall k, (k < N)%nat -> c k <= M) by (intros k Hk; specialize (Hmax k Hk eq_refl); unfold M; lra).
  set (E := classof cls i). set (D := sum N c).
  assert (HE : sumS N E c <= M * card N E).
  { rewrite <- sumS_const. apply sumS_le. intros; apply HM; auto. }
  assert (He0 : 0 <= card N E) by apply card_nonneg.
  assert (HM0 : 0 <= M) by (apply Hnn; auto).
  assert (HMD : M <= D).
  { unfold D. rewrite (sumS_split N (fun k => Nat.eqb k km) c).
    assert (0 <= sumS N (compl (fun k => Nat.eqb k km)) c) by (apply sumS_nonneg; auto).
    unfold sumS at 1. rewrite (sum_single N km c Hkm) in *. fold M. lra. }
  (* A on the record km alone: N M <= T D *)
  assert (HTop : INR N * M <= T * D).
  { set (S1 := add (fun _ => false) km).
    assert (Hc1 : card N S1 = 1) by (unfold S1; rewrite card_add by auto; unfold card; rewrite sumS_none; ring).
    destruct (HA b S1 Hb Hc1) as [Hup _]. unfold upper_ok in Hup. rewrite Hc1 in Hup.
    unfold S1 in Hup. rewrite sumS_add, sumS_none in Hup by auto. fold c M D in Hup. lra. }
  enough (Hcore : INR N * M <= U * D).
  { assert (INR N * sumS N E c <= INR N * (M * card N E)) by (apply Rmult_le_compat_l; [apply pos_INR|lra]).
    assert (card N E * (INR N * M) <= card N E * (U * D)) by (apply Rmult_le_compat_l; lra).
    fold D. nra. }
  destruct (Req_dec D 0) as [HD0|HD0].
  { assert (M = 0) by lra. rewrite H, HD0. lra. }
  assert (HD : 0 < D) by (assert (0 <= D) by (apply sum_nonneg; auto); lra).
  (* scale the table's mean to 1 *)
  set (M' := INR N * M / D).
  assert (HM' : INR N * M = M' * D) by (unfold M'; field; lra).
  assert (HM'0 : 0 <= M') by (unfold M'; apply Rmult_le_pos; [nra | apply Rlt_le, Rinv_0_lt_compat; lra]).
  assert (HM'T : M' <= T).
  { apply Rmult_le_reg_r with D; [lra|]. rewrite <- HM'. exact HTop. }
  assert (HM'N : M' <= INR N).
  { apply Rmult_le_reg_r with D; [lra|]. rewrite <- HM'. nra. }
  assert (Hfacts : M' <= U).
  { apply (Hob M' ((INR N - M') / (INR N - 1))); try lra.
    - apply Rmult_le_pos; [lra | apply Rlt_le, Rinv_0_lt_compat; lra].
    - replace ((INR N - 1) * ((INR N - M') / (INR N - 1)) - (INR N - M')) with 0 by (field; lra). lra. }
  rewrite HM'. apply Rmult_le_compat_r; lra.
Qed.
