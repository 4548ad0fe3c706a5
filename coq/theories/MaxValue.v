(** [max-value]: a two-sided subset level T of size [j] (1 <= j <= N - 1) bounds every one-sided class ratio,
    on any partition: a class's mean is at most the bucket's largest value [M], and with the table's mean
    scaled to 1, A gives [T (N - M) >= N - 1] (the other N - 1 records, a set of >= j records) and
    [M + (j - 1) H <= j T] with [(N - 1) H >= N - M] ([H] the mean of j - 1 of the others whose mean is at
    least theirs: [Extreme.sub_mean_ge]). Where every [M] meeting these facts is at most [U] (the
    certificate's polynomial obligations), every class ratio is at most [U]. *)
From Coq Require Import Reals Lra Lia Bool.
From Implgraph Require Import Sums Tables Extreme.
Open Scope R_scope.

(** The obligation, in the kernel's variables (the table's mean 1, [M] the largest value, [H] a mean). *)
Definition max_value_obl (N j T U : R) : Prop :=
  forall M H, 0 <= M -> 0 <= H -> 0 <= T * (N - M) - (N - 1) ->
    0 <= j * T - (j - 1) * H - M -> 0 <= (N - 1) * H - (N - M) -> M <= U.

Definition add (X : rset) (k : nat) : rset := fun i => orb (X i) (Nat.eqb i k).

Lemma sumS_add n X k f :
  (k < n)%nat -> X k = false -> sumS n (add X k) f = sumS n X f + f k.
Proof.
  intros Hk HX. rewrite (sumS_remove n (add X k) k f Hk) by (unfold add; rewrite Nat.eqb_refl, orb_true_r; auto).
  f_equal. unfold sumS, remove, add. apply sum_ext. intros i _.
  destruct (Nat.eqb_spec i k) as [->|Hne]; [rewrite HX; reflexivity|].
  rewrite orb_false_r. simpl. rewrite andb_true_r. reflexivity.
Qed.

Lemma sumS_none n f : sumS n (fun _ => false) f = 0.
Proof. unfold sumS. induction n as [|n IH]; simpl; [reflexivity|]. rewrite IH. ring. Qed.

Lemma card_add n X k : (k < n)%nat -> X k = false -> card n (add X k) = card n X + 1.
Proof. intros. unfold card. rewrite sumS_add; auto. Qed.

Lemma all_cnt n : cnt n (fun _ => true) = n.
Proof. induction n as [|n IH]; simpl; [reflexivity|]. rewrite IH. lia. Qed.

Lemma card_all n : card n (fun _ => true) = INR n.
Proof. rewrite card_cnt, all_cnt. reflexivity. Qed.

Lemma sumS_all n f : sumS n (fun _ => true) f = sum n f.
Proof. reflexivity. Qed.

Theorem max_value N K x cls j T U :
  table N K x -> IsNat j -> 1 <= j -> j <= INR N - 1 -> 0 <= T -> subset_le TwoSided N K x j T ->
  max_value_obl (INR N) j T U -> class_le OneSided N K x cls U.
Proof.
  intros Htab Hj Hj1 HjN HT HA Hob b i Hb Hi.
  split; [|discriminate]. unfold upper_ok.
  set (c := col x b). assert (Hnn : forall k, (k < N)%nat -> 0 <= c k) by (apply col_nonneg with K; auto).
  assert (HN : (0 < N)%nat) by lia.
  destruct (exists_min N (fun _ => true) (fun k => - c k) ltac:(rewrite all_cnt; lia)) as [km [Hkm [_ Hmax]]].
  set (M := c km). assert (HM : forall k, (k < N)%nat -> c k <= M) by (intros k Hk; specialize (Hmax k Hk eq_refl); unfold M; lra).
  set (E := classof cls i). set (D := sum N c).
  assert (HE : sumS N E c <= M * card N E).
  { rewrite <- sumS_const. apply sumS_le. intros; apply HM; auto. }
  assert (He0 : 0 <= card N E) by apply card_nonneg.
  assert (HM0 : 0 <= M) by (apply Hnn; auto).
  assert (HMD : M <= D).
  { unfold D. rewrite (sumS_split N (fun k => Nat.eqb k km) c).
    assert (0 <= sumS N (compl (fun k => Nat.eqb k km)) c) by (apply sumS_nonneg; auto).
    unfold sumS at 1. rewrite (sum_single N km c Hkm) in *. fold M. lra. }
  (* it suffices: N M <= U D *)
  enough (Hcore : INR N * M <= U * D).
  { assert (INR N * sumS N E c <= INR N * (M * card N E)) by (apply Rmult_le_compat_l; [apply pos_INR|lra]).
    assert (card N E * (INR N * M) <= card N E * (U * D)) by (apply Rmult_le_compat_l; lra).
    fold D. nra. }
  destruct (Req_dec D 0) as [HD0|HD0].
  { assert (M = 0) by lra. rewrite H, HD0. lra. }
  assert (HD : 0 < D) by (assert (0 <= D) by (apply sum_nonneg; auto); lra).
  assert (HNr : 2 <= INR N) by lra.
  (* the others: R = all but km, N - 1 >= j records *)
  set (R := remove (fun _ => true) km).
  assert (HRc : card N R = INR N - 1) by (unfold R; rewrite card_remove, card_all; auto).
  assert (HRs : sumS N R c = D - M).
  { pose proof (sumS_remove N (fun _ => true) km c Hkm eq_refl) as H0.
    change (sumS N (fun _ => true) c) with (sum N c) in H0. unfold R, D, M. lra. }
  assert (Hall : (INR N - 1) * D <= T * (INR N * (D - M))).
  { destruct (subset_bounds_larger TwoSided N K x j T Hj Hj1 HT HA b R Hb ltac:(lra)) as [_ Hlow].
    specialize (Hlow eq_refl). unfold lower_ok in Hlow. fold c D in Hlow. rewrite HRc, HRs in Hlow. exact Hlow. }
  (* j largest: km and j - 1 of the others with a mean at least theirs *)
  destruct Hj as [nj Hnj].
  assert (Hlarge : exists SY, 0 <= SY /\ (j - 1) * (D - M) <= (INR N - 1) * SY /\ INR N * (SY + M) <= T * (j * D)).
  { destruct (Nat.eq_dec nj 1) as [E1|E1].
    - subst nj. simpl in Hnj. subst j. exists 0. split; [lra|]. split; [lra|].
      set (S1 := add (fun _ => false) km).
      assert (Hc1 : card N S1 = 1) by (unfold S1; rewrite card_add by auto; unfold card; rewrite sumS_none; ring).
      destruct (HA b S1 Hb Hc1) as [Hup _]. unfold upper_ok in Hup. rewrite Hc1 in Hup.
      unfold S1 in Hup. rewrite sumS_add, sumS_none in Hup by auto.
      fold c M D in Hup. lra.
    - assert (HcR : cnt N R = (N - 1)%nat).
      { apply INR_eq. rewrite <- card_cnt, HRc, minus_INR by lia. simpl. ring. }
      assert (Hnj2 : (2 <= nj)%nat) by (assert (1 <= nj)%nat by (apply INR_le; simpl; lra); lia).
      assert (HnjN : (nj <= N - 1)%nat) by (apply INR_le; rewrite minus_INR by lia; simpl; lra).
      destruct (sub_mean_ge N c (N - 1) R HcR (nj - 1) ltac:(lia)) as [Y [Ysub [HY Hmean]]].
      exists (sumS N Y c). split; [apply sumS_nonneg; auto|].
      assert (HYk : Y km = false).
      { destruct (Y km) eqn:Yk; [|reflexivity]. apply Ysub in Yk. unfold R, remove in Yk.
        rewrite Nat.eqb_refl in Yk. discriminate. }
      rewrite HRs, !minus_INR in Hmean by lia. simpl in Hmean.
      split; [rewrite <- Hnj; lra|].
      assert (HcS : card N (add Y km) = j) by (rewrite card_add, card_cnt, HY, minus_INR by (auto; lia); simpl; lra).
      destruct (HA b (add Y km) Hb HcS) as [Hup _]. unfold upper_ok in Hup.
      rewrite sumS_add in Hup by auto. rewrite HcS in Hup. fold c M D in Hup. lra. }
  destruct Hlarge as [SY [HSY0 [HSY1 HSY2]]].
  (* scale the table's mean to 1 *)
  set (M' := INR N * M / D).
  assert (HM' : INR N * M = M' * D) by (unfold M'; field; lra).
  assert (Hj2 : 0 < j - 1 \/ j = 1) by lra.
  set (H' := if Req_EM_T j 1 then (INR N - M') / (INR N - 1) else INR N * SY / ((j - 1) * D)).
  assert (Hfacts : M' <= U).
  { apply (Hob M' H').
    - unfold M'. apply Rmult_le_pos; [nra|]. apply Rlt_le, Rinv_0_lt_compat; lra.
    - unfold H'. destruct (Req_EM_T j 1).
      + apply Rmult_le_pos; [|apply Rlt_le, Rinv_0_lt_compat; lra].
        unfold M'. apply Rmult_le_reg_r with D; [lra|]. unfold Rdiv.
        rewrite Rmult_minus_distr_r, Rmult_assoc, Rinv_l by lra. nra.
      + apply Rmult_le_pos; [nra|]. apply Rlt_le, Rinv_0_lt_compat. nra.
    - apply Rmult_le_reg_r with D; [lra|]. unfold M'.
      replace ((T * (INR N - INR N * M / D) - (INR N - 1)) * D) with (T * (INR N * (D - M)) - (INR N - 1) * D) by (field; lra).
      lra.
    - unfold H'. destruct (Req_EM_T j 1) as [J1|J1].
      + rewrite J1 in *. apply Rmult_le_reg_r with D; [lra|]. unfold M'.
        replace ((1 * T - (1 - 1) * ((INR N - INR N * M / D) / (INR N - 1)) - INR N * M / D) * D) with (T * D - INR N * M)
          by (field; lra). assert (0 <= INR N * SY) by (apply Rmult_le_pos; lra). lra.
      + apply Rmult_le_reg_r with D; [lra|]. unfold M'.
        replace ((j * T - (j - 1) * (INR N * SY / ((j - 1) * D)) - INR N * M / D) * D) with (j * T * D - INR N * SY - INR N * M)
          by (field; lra). lra.
    - unfold H'. destruct (Req_EM_T j 1) as [J1|J1].
      + replace ((INR N - 1) * ((INR N - M') / (INR N - 1)) - (INR N - M')) with 0 by (field; lra). lra.
      + apply Rmult_le_reg_r with ((j - 1) * D); [nra|].
        replace (((INR N - 1) * (INR N * SY / ((j - 1) * D)) - (INR N - M')) * ((j - 1) * D))
          with (INR N * ((INR N - 1) * SY - (j - 1) * (D - M))) by (unfold M'; field; lra).
        rewrite Rmult_0_l. apply Rmult_le_pos; lra. }
  rewrite HM'. apply Rmult_le_compat_r; lra.
Qed.
