(** The total variation lemmas of the certificates (implgraph.certify.kernel: [class-distance], [one-sided-distance],
    [pairwise-distance], [removal-distance], [removal-distance-pair], [subset-distance] and their additive-slack
    forms). Each is proved once, on every table, from its obligation: a polynomial fact about a few reals (a
    class's mass on an event and the table's, the largest record's, ...) that every table gives, stated as the
    kernel states it; a certificate proves the obligation with its multipliers.

    For a class [C] of [e] records and an event [E], [x] is the class's mean mass on [E] and [P] the table's; the
    class's distance on [E] is [x - P] (the largest over events is the total variation distance). A's constraints
    on each bucket hold on every event (a mediant, [Events]). *)
From Coq Require Import Reals Lra Lia Bool.
From Implgraph Require Import Sums Tables Extreme Distance MaxValue Events Columns.
Open Scope R_scope.

(** The common setting: the class [C] of [i] and an event's column [c], with [D] the table's sum and [S1] the
    class's. *)
Ltac class_setting Htab Hi :=
  match goal with |- sumS ?N (classof ?cls ?i) (emass ?K ?E ?x) / _ - _ <= _ =>
    let c := fresh "c" in let C := fresh "C" in let e := fresh "e" in let D := fresh "D" in
    let S1 := fresh "S1" in
    set (c := emass K E x); set (C := classof cls i); set (e := card N C);
    set (D := sum N c); set (S1 := sumS N C c);
    assert (Hcb : forall k, (k < N)%nat -> 0 <= c k <= 1) by (apply emass_bounds; exact Htab);
    assert (HD : 0 <= D <= INR N) by (apply sum_col_bounds; exact Hcb);
    assert (HS1 : 0 <= S1 <= e) by (apply sumS_col_bounds; exact Hcb);
    assert (He1 : 1 <= e) by (apply class_self_pos; exact Hi)
  end.

(** [class-distance]: A a two-sided class level. *)
Definition class_distance_obl (N s T U : R) : Prop :=
  forall e P x, 0 <= e - s -> 0 <= N - e - s -> 0 <= P -> 0 <= 1 - P -> 0 <= x -> 0 <= 1 - x ->
    0 <= T * P - x -> 0 <= T * (1 - x) - (1 - P) -> 0 <= T * N * P - T * e * x - (N - e) * P -> x - P <= U.

Theorem class_distance N K x cls s T U :
  table N K x -> partition N cls s -> 0 < T -> class_le TwoSided N K x cls T ->
  class_distance_obl (INR N) s T U -> tv_le N K x cls U.
Proof.
  intros Htab Hp HT HA Hob. apply tv_of_events. intros i E Hi. class_setting Htab Hi.
  assert (HN : 0 < INR N) by (apply lt_0_INR; lia).
  assert (Hes : s <= e) by (apply (proj1 Hp); auto). assert (HeN : s <= INR N - e) by (apply partition_other; auto).
  destruct (class_le_event TwoSided N K x cls T E i HA Hi) as [Hup Hlow].
  destruct (class_le_event TwoSided N K x cls T (compl E) i HA Hi) as [_ Hlow'].
  specialize (Hlow eq_refl). specialize (Hlow' eq_refl). unfold upper_ok, lower_ok in *.
  rewrite sum_emass_compl, sumS_emass_compl in Hlow' by exact Htab. fold c D C e S1 in Hup, Hlow, Hlow'.
  (* the other classes: each has mean at least D / (T N) *)
  assert (Hoth : card N (compl C) * (D / (T * INR N)) <= sumS N (compl C) c).
  { apply (class_mean_lower N cls); [apply compl_class_closed|]. intros k Hk _.
    destruct (class_le_event TwoSided N K x cls T E k HA Hk) as [_ Hl]. specialize (Hl eq_refl).
    unfold lower_ok in Hl. fold c D in Hl. apply Rmult_le_reg_r with (T * INR N); [nra|].
    replace (card N (classof cls k) * (D / (T * INR N)) * (T * INR N)) with (card N (classof cls k) * D)
      by (field; lra). lra. }
  rewrite card_compl in Hoth. pose proof (sumS_split N C c) as Hsplit. fold D S1 e in Hsplit, Hoth.
  refine (Hob e (D / INR N) (S1 / e) _ _ _ _ _ _ _ _ _).
  - lra. - lra.
  - apply (nonneg_frac D (INR N)); [lra|lra|reflexivity].
  - apply (nonneg_frac (INR N - D) (INR N)); [lra|lra|field; lra].
  - apply (nonneg_frac S1 e); [lra|lra|reflexivity].
  - apply (nonneg_frac (e - S1) e); [lra|lra|field; lra].
  - apply (nonneg_frac (T * e * D - INR N * S1) (INR N * e)); [lra|nra|field; repeat split; lra].
  - apply (nonneg_frac (T * (INR N * (e - S1)) - e * (INR N - D)) (INR N * e)); [lra|nra|field; repeat split; lra].
  - apply (nonneg_frac (T * INR N * (D - S1) - (INR N - e) * D) (INR N)); [|lra|field; lra].
    assert (Heq : T * INR N * ((INR N - e) * (D / (T * INR N))) = (INR N - e) * D) by (field; lra).
    assert (Hle : T * INR N * ((INR N - e) * (D / (T * INR N))) <= T * INR N * sumS N (compl C) c)
      by (apply Rmult_le_compat_l; [apply Rmult_le_pos; lra|exact Hoth]).
    rewrite Heq in Hle. replace (D - S1) with (sumS N (compl C) c) by lra. lra.
Qed.

(** [one-sided-distance]: A a one-sided class level. *)
Definition one_sided_distance_obl (N s T U : R) : Prop :=
  forall e P x, 0 <= e - s -> 0 <= N - e - s -> 0 <= P -> 0 <= 1 - P -> 0 <= x -> 0 <= 1 - x ->
    0 <= T * P - x -> 0 <= (T - 1) * (N - e) * (1 - P) - e * (x - P) -> 0 <= N * P - e * x -> x - P <= U.

Theorem one_sided_distance N K x cls s T U :
  table N K x -> partition N cls s -> 0 < T -> class_le OneSided N K x cls T ->
  one_sided_distance_obl (INR N) s T U -> tv_le N K x cls U.
Proof.
  intros Htab Hp HT HA Hob. apply tv_of_events. intros i E Hi. class_setting Htab Hi.
  assert (HN : 0 < INR N) by (apply lt_0_INR; lia).
  assert (Hes : s <= e) by (apply (proj1 Hp); auto). assert (HeN : s <= INR N - e) by (apply partition_other; auto).
  destruct (class_le_event OneSided N K x cls T E i HA Hi) as [Hup _]. unfold upper_ok in Hup. fold c D C e S1 in Hup.
  (* the other classes on the complement: each has mean at most T (N - D) / N *)
  set (c' := emass K (compl E) x).
  assert (Hoth : sumS N (compl C) c' <= card N (compl C) * (T * (INR N - D) / INR N)).
  { apply (class_mean_upper N cls); [apply compl_class_closed|]. intros k Hk _.
    destruct (class_le_event OneSided N K x cls T (compl E) k HA Hk) as [Hu _].
    unfold upper_ok in Hu. rewrite sum_emass_compl in Hu by exact Htab. fold c D c' in Hu.
    apply Rmult_le_reg_l with (INR N); [lra|].
    replace (INR N * (card N (classof cls k) * (T * (INR N - D) / INR N))) with (T * (card N (classof cls k) * (INR N - D)))
      by (field; lra). lra. }
  unfold c' in Hoth. rewrite sumS_emass_compl, card_compl in Hoth by exact Htab.
  pose proof (sumS_split N C c) as Hsplit. fold D S1 e in Hsplit, Hoth. fold c in Hoth.
  assert (Hoth' : INR N * (INR N - e - (D - S1)) <= (INR N - e) * T * (INR N - D)).
  { replace (D - S1) with (sumS N (compl C) c) by lra.
    replace ((INR N - e) * T * (INR N - D)) with (INR N * ((INR N - e) * (T * (INR N - D) / INR N))) by (field; lra).
    apply Rmult_le_compat_l; [lra|exact Hoth]. }
  assert (HSo : 0 <= sumS N (compl C) c) by (apply sumS_nonneg; intros; apply Hcb; auto).
  refine (Hob e (D / INR N) (S1 / e) _ _ _ _ _ _ _ _ _).
  - lra. - lra.
  - apply (nonneg_frac D (INR N)); [lra|lra|reflexivity].
  - apply (nonneg_frac (INR N - D) (INR N)); [lra|lra|field; lra].
  - apply (nonneg_frac S1 e); [lra|lra|reflexivity].
  - apply (nonneg_frac (e - S1) e); [lra|lra|field; lra].
  - apply (nonneg_frac (T * e * D - INR N * S1) (INR N * e)); [lra|nra|field; repeat split; lra].
  - apply (nonneg_frac ((T - 1) * (INR N - e) * (INR N - D) - (INR N * S1 - e * D)) (INR N)); [lra|lra|field; lra].
  - apply (nonneg_frac (D - S1) 1); [lra|lra|field; lra].
Qed.

(** [pairwise-distance] and [slack-pairwise-distance]: A compares every two records (a ratio T and an additive slack
    delta: delta = 0 is the pairwise level). [X] and [Y] are the means of the class's records and of the others. *)
Definition pairwise_distance_obl (N s T d U : R) : Prop :=
  forall e X Y, 0 <= e - s -> 0 <= N - e - s -> 0 <= X -> 0 <= 1 - X -> 0 <= Y -> 0 <= 1 - Y ->
    0 <= T * Y - X + d -> 0 <= T * (1 - X) - (1 - Y) + d -> (N - e) * (X - Y) <= U * N.

Theorem slack_pairwise_distance N K x cls s T d U :
  table N K x -> partition N cls s -> 0 <= d -> slack_pairs_le N K x d T ->
  pairwise_distance_obl (INR N) s T d U -> tv_le N K x cls U.
Proof.
  intros Htab Hp Hd HA Hob. apply tv_of_events. intros i E Hi. class_setting Htab Hi.
  assert (HN : 0 < INR N) by (apply lt_0_INR; lia).
  assert (Hes : s <= e) by (apply (proj1 Hp); auto). assert (HeN : s <= INR N - e) by (apply partition_other; auto).
  assert (Hs1 : 1 <= s \/ s < 1) by lra.
  assert (Hne : 0 < INR N - e).
  { destruct (proj2 Hp) as [i1 [k1 [Hi1 [Hk1 Hne]]]].
    destruct (Nat.eq_dec (cls i1) (cls i)) as [E1|E1].
    - assert (HC : compl C k1 = true) by (unfold compl, C, classof; rewrite <- E1; apply negb_true_iff, Nat.eqb_neq; auto).
      pose proof (card_pos N (compl C) k1 Hk1 HC). rewrite card_compl in H. fold e in H. lra.
    - assert (HC : compl C i1 = true) by (unfold compl, C, classof; apply negb_true_iff, Nat.eqb_neq; auto).
      pose proof (card_pos N (compl C) i1 Hi1 HC). rewrite card_compl in H. fold e in H. lra. }
  set (S2 := sumS N (compl C) c).
  pose proof (sumS_split N C c) as Hsplit. fold D S1 S2 in Hsplit.
  assert (HS2 : 0 <= S2 <= INR N - e) by (unfold S2, e; rewrite <- card_compl; apply sumS_col_bounds; exact Hcb).
  (* the class's records against the others: c i <= T c k + d *)
  assert (H1 : card N (compl C) * S1 <= card N C * sumS N (compl C) (fun k => T * c k + d)).
  { apply cross_sum. intros a b Ha Hb _ _. apply HA; auto. }
  rewrite sumS_plus, sumS_scal, sumS_const, card_compl in H1. fold e S2 in H1.
  set (c' := emass K (compl E) x).
  assert (H2 : card N C * sumS N (compl C) c' <= card N (compl C) * sumS N C (fun k => T * c' k + d)).
  { apply cross_sum. intros a b Ha Hb _ _. apply HA; auto. }
  rewrite sumS_plus, sumS_scal, sumS_const, card_compl in H2. unfold c' in H2.
  rewrite !sumS_emass_compl, card_compl in H2 by exact Htab. fold c C e S1 S2 in H2.
  rewrite Hsplit.
  replace (S1 / e - (S1 + S2) / INR N) with ((INR N - e) * (S1 / e - S2 / (INR N - e)) / INR N)
    by (field; repeat split; lra).
  assert (Hfin : (INR N - e) * (S1 / e - S2 / (INR N - e)) <= U * INR N).
  { refine (Hob e (S1 / e) (S2 / (INR N - e)) _ _ _ _ _ _ _ _); [lra|lra| | | | | |].
    - apply (nonneg_frac S1 e); [lra|lra|reflexivity].
    - apply (nonneg_frac (e - S1) e); [lra|lra|field; lra].
    - apply (nonneg_frac S2 (INR N - e)); [lra|lra|reflexivity].
    - apply (nonneg_frac (INR N - e - S2) (INR N - e)); [lra|lra|field; lra].
    - apply (nonneg_frac (e * (T * S2 + d * (INR N - e)) - (INR N - e) * S1) (e * (INR N - e)));
        [lra|nra|field; repeat split; lra].
    - apply (nonneg_frac ((INR N - e) * (T * (e - S1) + d * e) - e * (INR N - e - S2)) (e * (INR N - e)));
        [lra|nra|field; repeat split; lra]. }
  apply Rmult_le_reg_r with (INR N); [lra|]. unfold Rdiv at 1. rewrite Rmult_assoc, Rinv_l by lra. lra.
Qed.

Theorem pairwise_distance N K x cls s T U :
  table N K x -> partition N cls s -> pairwise_le N K x T ->
  pairwise_distance_obl (INR N) s T 0 U -> tv_le N K x cls U.
Proof.
  intros Htab Hp HA Hob. apply (slack_pairwise_distance N K x cls s T 0 U Htab Hp ltac:(lra)); auto.
  intros E a b Ha Hb. rewrite Rplus_0_r. exact (pairwise_event N K x T E a b HA Ha Hb).
Qed.

(** [removal-distance]: A a two-sided subset level of size [j] (record removal: j = N - 1); [M] the largest
    record's mass on the event (a class's mean mass is at most it). *)
Definition removal_distance_obl (N T U : R) : Prop :=
  forall P M, 0 <= P -> 0 <= 1 - P -> 0 <= M -> 0 <= 1 - M ->
    0 <= T * (N * P - M) - (N - 1) * P -> 0 <= (N - 1) * T * (1 - P) - N * (1 - P) + (1 - M) -> M - P <= U.

(** The largest record's mass [M] on the event bounds a class's mean mass. *)
Lemma class_below_max N K x cls E i k :
  table N K x -> (i < N)%nat -> (forall t, (t < N)%nat -> emass K E x t <= emass K E x k) ->
  sumS N (classof cls i) (emass K E x) / card N (classof cls i) <= emass K E x k.
Proof.
  intros Htab Hi Hmax. pose proof (class_self_pos N cls i Hi).
  pose proof (mean_below_max N (emass K E x) (classof cls i) _ Hmax).
  apply Rmult_le_reg_r with (card N (classof cls i)); [lra|]. unfold Rdiv.
  rewrite Rmult_assoc, Rinv_l by lra. lra.
Qed.

Theorem removal_distance N K x cls j T U :
  table N K x -> 2 <= INR N -> IsNat j -> 1 <= j -> j <= INR N - 1 -> 0 <= T -> subset_le TwoSided N K x j T ->
  removal_distance_obl (INR N) T U -> tv_le N K x cls U.
Proof.
  intros Htab HN Hj Hj1 HjN HT HA Hob. apply tv_of_events. intros i E Hi.
  set (c := emass K E x).
  assert (Hcb : forall k, (k < N)%nat -> 0 <= c k <= 1) by (apply emass_bounds; exact Htab).
  destruct (max_record N c ltac:(lia)) as [km [Hkm Hmax]].
  pose proof (class_below_max N K x cls E i km Htab Hi Hmax) as Hx. fold c in Hx.
  set (D := sum N c) in *. set (M := c km) in *.
  assert (HD : 0 <= D <= INR N) by (apply sum_col_bounds; exact Hcb).
  assert (HM := Hcb km Hkm). fold M in HM.
  (* the others: N - 1 >= j records *)
  assert (HR : j <= card N (others km)) by (rewrite card_others; auto).
  destruct (subset_col_larger TwoSided N c j T Hj Hj1 HT (subset_le_event TwoSided N K x j T E HA) _ HR) as [_ Hlow].
  specialize (Hlow eq_refl). unfold lower_ok in Hlow. rewrite card_others, sum_others in Hlow by auto. fold D M in Hlow.
  destruct (subset_col_larger TwoSided N _ j T Hj Hj1 HT (subset_le_event TwoSided N K x j T (compl E) HA) _ HR)
    as [Hup' _].
  unfold upper_ok in Hup'. rewrite card_others, sum_others, (emass_compl N K E x km Htab Hkm), sum_emass_compl in Hup'
    by auto.
  fold c D M in Hup'.
  assert (Hfin : M - D / INR N <= U).
  { refine (Hob (D / INR N) M _ _ _ _ _ _).
    - apply (nonneg_frac D (INR N)); [lra|lra|reflexivity].
    - apply (nonneg_frac (INR N - D) (INR N)); [lra|lra|field; lra].
    - lra. - lra.
    - apply (nonneg_frac (T * INR N * (D - M) - (INR N - 1) * D) (INR N)); [nra|lra|field; lra].
    - apply (nonneg_frac ((INR N - 1) * T * (INR N - D) - INR N * (INR N - D - (1 - M))) (INR N)); [nra|lra|field; lra]. }
  fold D. lra_div.
Qed.

(** [removal-distance-pair]: two records (N = 2), A a two-sided subset level of size 1; the classes are the two
    records. *)
Definition removal_pair_obl (T U : R) : Prop :=
  forall P x1, 0 <= P -> 0 <= 1 - P -> 0 <= x1 -> 0 <= 1 - x1 ->
    0 <= T * (2 * P - x1) - P -> 0 <= T * (1 - x1) - (1 - P) -> x1 - P <= U.

Theorem removal_pair N K x cls s j T U :
  table N K x -> INR N = 2 -> partition N cls s -> 1 <= s -> j = 1 -> 0 <= T -> subset_le TwoSided N K x j T ->
  removal_pair_obl T U -> tv_le N K x cls U.
Proof.
  intros Htab HN Hp Hs Hj HT HA Hob. subst j. apply tv_of_events. intros i E Hi.
  set (c := emass K E x).
  assert (Hcb : forall k, (k < N)%nat -> 0 <= c k <= 1) by (apply emass_bounds; exact Htab).
  assert (H1 : card N (classof cls i) = 1) by (apply (class_single_two N cls s); auto).
  rewrite H1, (sumS_card1 N _ i c Hi (classof_self cls i) H1).
  set (D := sum N c). assert (HD : 0 <= D <= INR N) by (apply sum_col_bounds; exact Hcb).
  pose proof (Hcb i Hi) as Hci.
  (* the other record: the set [others i] of one record *)
  assert (HR : card N (others i) = 1) by (rewrite card_others; auto; lra).
  destruct (subset_le_event TwoSided N K x 1 T E HA (others i) HR) as [_ Hlow].
  specialize (Hlow eq_refl). unfold lower_ok in Hlow. rewrite HR, sum_others in Hlow by auto. fold c D in Hlow.
  assert (Hsi : card N (single i) = 1) by (apply card_single; auto).
  destruct (subset_le_event TwoSided N K x 1 T (compl E) HA (single i) Hsi) as [_ Hlow'].
  specialize (Hlow' eq_refl). unfold lower_ok in Hlow'.
  rewrite Hsi, sumS_single, (emass_compl N K E x i Htab Hi), sum_emass_compl in Hlow' by auto. fold c D in Hlow'.
  rewrite HN in *.
  assert (Hfin : c i - D / 2 <= U).
  { refine (Hob (D / 2) (c i) _ _ _ _ _ _).
    - apply (nonneg_frac D 2); [lra|lra|reflexivity].
    - apply (nonneg_frac (2 - D) 2); [lra|lra|field].
    - lra. - lra.
    - apply (nonneg_frac (T * 2 * (D - c i) - D) 2); [lra|lra|field].
    - apply (nonneg_frac (T * 2 * (1 - c i) - (2 - D)) 2); [lra|lra|field]. }
  replace (c i / 1) with (c i) by field. lra_div.
Qed.

(** [subset-distance]: A a two-sided subset level of size [j] (1 <= j <= N - 1), any classes. [M] the largest
    record's mass on the event, [y] the others' mean; the facts are A on the j smallest and the j largest values,
    on the event and on its complement, scaled by N j (kernel: [_subset_distance_facts]). *)
Definition subset_distance_obl (N j T U : R) : Prop :=
  forall M y, 0 <= y -> 0 <= 1 - y -> 0 <= M - y -> 0 <= 1 - M ->
    0 <= j * (N * (T - 1) * y - (M - y)) ->
    0 <= N * j * (T - 1) * y - (N - T * j) * (M - y) ->
    0 <= j * (N * (T - 1) * (1 - y) - T * (M - y)) ->
    0 <= N * j * (T - 1) * (1 - y) - (N * T - j) * (M - y) ->
    0 <= N * j * (T - 1) * (1 - M) ->
    (N - 1) * (M - y) <= U * N.

Theorem subset_distance N K x cls j T U :
  table N K x -> 2 <= INR N -> IsNat j -> 1 <= j -> j <= INR N - 1 -> 1 <= T -> subset_le TwoSided N K x j T ->
  subset_distance_obl (INR N) j T U -> tv_le N K x cls U.
Proof.
  intros Htab HN Hj Hj1 HjN HT HA Hob. apply tv_of_events. intros i E Hi.
  set (c := emass K E x). set (c' := emass K (compl E) x).
  assert (Hcb : forall k, (k < N)%nat -> 0 <= c k <= 1) by (apply emass_bounds; exact Htab).
  destruct (max_record N c ltac:(lia)) as [km [Hkm Hmax]].
  pose proof (class_below_max N K x cls E i km Htab Hi Hmax) as Hx. fold c in Hx.
  set (D := sum N c) in *. set (M := c km) in *.
  assert (HD : 0 <= D <= INR N) by (apply sum_col_bounds; exact Hcb).
  assert (HM := Hcb km Hkm). fold M in HM.
  set (R := others km). set (SR := sumS N R c).
  assert (HSR : SR = D - M) by (unfold SR, R; rewrite sum_others; auto).
  assert (HcR := cnt_others N km Hkm). fold R in HcR.
  assert (HNm1 : INR (N - 1) = INR N - 1) by (rewrite minus_INR by lia; simpl; ring).
  assert (HMy : (INR N - 1) * M >= SR).
  { unfold SR. rewrite <- (Rmult_comm M), <- card_others with (k := km) by auto. fold R.
    rewrite Rmult_comm. apply Rle_ge, mean_below_max. intros; apply Hmax; auto. }
  destruct Hj as [nj Hnj].
  assert (Hnj1 : (1 <= nj)%nat) by (apply INR_le; simpl; lra).
  assert (HnjN : (nj <= N - 1)%nat) by (apply INR_le; rewrite HNm1; lra).
  (* the j smallest of the others: mean L <= y *)
  destruct (sub_mean_le N c (N - 1) R HcR nj ltac:(lia)) as [Y [Ysub [HY HL]]].
  assert (HcY : card N Y = j) by (rewrite card_cnt, HY; auto).
  destruct (subset_le_event TwoSided N K x j T E HA Y HcY) as [_ HlowY]. specialize (HlowY eq_refl).
  destruct (subset_le_event TwoSided N K x j T (compl E) HA Y HcY) as [HupY' _].
  unfold lower_ok, upper_ok in HlowY, HupY'. rewrite HcY in HlowY, HupY'. fold c D in HlowY.
  fold c' in HupY'. unfold c' in HupY'. rewrite sumS_emass_compl, sum_emass_compl, HcY in HupY' by exact Htab.
  fold c D in HupY'. set (SY := sumS N Y c) in *. rewrite HNm1, Hnj in HL.
  (* the j largest: km and j - 1 of the others with a mean at least theirs *)
  assert (Hlarge : exists Z, card N Z = j /\ (INR N - 1) * sumS N Z c >= (INR N - 1) * M + (j - 1) * SR).
  { destruct (Nat.eq_dec nj 1) as [E1|E1].
    - rewrite E1 in Hnj. simpl in Hnj. exists (single km). rewrite card_single, sumS_single by auto.
      split; [lra|]. rewrite <- Hnj. fold M. lra.
    - destruct (sub_mean_ge N c (N - 1) R HcR (nj - 1) ltac:(lia)) as [Y2 [Y2sub [HY2 Hmean]]].
      assert (HYk : Y2 km = false).
      { destruct (Y2 km) eqn:Yk; [|reflexivity]. apply Y2sub in Yk. unfold R, others, remove in Yk.
        rewrite Nat.eqb_refl in Yk. rewrite andb_false_r in Yk. discriminate. }
      exists (add Y2 km). rewrite card_add, sumS_add, card_cnt, HY2, minus_INR by (auto; lia). simpl.
      rewrite HNm1, minus_INR in Hmean by lia. simpl in Hmean. fold SR in Hmean. rewrite Hnj in *.
      split; [lra|]. fold M. nra. }
  destruct Hlarge as [Z [HcZ HZ]].
  destruct (subset_le_event TwoSided N K x j T E HA Z HcZ) as [HupZ _].
  destruct (subset_le_event TwoSided N K x j T (compl E) HA Z HcZ) as [_ HlowZ']. specialize (HlowZ' eq_refl).
  unfold lower_ok, upper_ok in HupZ, HlowZ'. rewrite HcZ in HupZ, HlowZ'. fold c D in HupZ.
  rewrite sumS_emass_compl, sum_emass_compl, HcZ in HlowZ' by exact Htab. fold c D in HlowZ'.
  set (SZ := sumS N Z c) in *.
  set (y := SR / (INR N - 1)).
  assert (Hy : SR = (INR N - 1) * y) by (unfold y; field; lra).
  assert (HSY : INR N - 1 > 0) by lra.
  assert (Hy0 : 0 <= y) by (apply (nonneg_frac SR (INR N - 1)); [|lra|reflexivity]; apply sumS_nonneg; intros; apply Hcb; auto).
  assert (Hy1 : 0 <= 1 - y).
  { assert (SR <= INR N - 1) by (unfold SR; rewrite <- (card_others N km) by auto; apply sumS_col_bounds; auto).
    apply (nonneg_frac (INR N - 1 - SR) (INR N - 1)); [lra|lra|unfold y; field; lra]. }
  assert (HMy' : 0 <= M - y) by (rewrite Hy in HMy; nra).
  assert (HDe : D = M + (INR N - 1) * y) by lra.
  fold SR in HL. rewrite Hy in HL.
  assert (HSYj : SY <= j * y) by (apply Rmult_le_reg_l with (INR N - 1); lra).
  assert (HSZj : M + (j - 1) * y <= SZ) by (rewrite Hy in HZ; apply Rmult_le_reg_l with (INR N - 1); lra).
  assert (HTN : 0 <= T * INR N) by (apply Rmult_le_pos; lra).
  assert (P1 : T * INR N * SY <= T * INR N * (j * y)) by (apply Rmult_le_compat_l; lra).
  assert (P2 : INR N * (M + (j - 1) * y) <= INR N * SZ) by (apply Rmult_le_compat_l; lra).
  assert (P3 : T * INR N * (j - SZ) <= T * INR N * (j - (M + (j - 1) * y))) by (apply Rmult_le_compat_l; lra).
  assert (P4 : INR N * (j - j * y) <= INR N * (j - SY)) by (apply Rmult_le_compat_l; lra).
  rewrite HDe in HlowY, HupY', HupZ, HlowZ'.
  assert (Hfin : (INR N - 1) * (M - y) <= U * INR N).
  { refine (Hob M y Hy0 Hy1 HMy' ltac:(lra) _ _ _ _ _); try lra.
    apply Rmult_le_pos; [|lra]. apply Rmult_le_pos; [|lra]. apply Rmult_le_pos; lra. }
  fold D. rewrite HDe.
  assert (Heq : M - (M + (INR N - 1) * y) / INR N = (INR N - 1) * (M - y) / INR N) by (field; lra).
  assert (Hq : (INR N - 1) * (M - y) / INR N <= U).
  { apply Rmult_le_reg_r with (INR N); [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra. }
  lra_div.
Qed.

(** The additive slack between the table and the table without one record, both ways, on every event
    ((eps, delta)-DP's constraints, [implgraph.certify.levels]): [P <= T Q + delta] and [Q <= T P + delta], with [P]
    the table's mean mass and [Q] the others' (events that are empty or every bucket hold whenever T >= 1). *)
Definition slack_removal_le (N K : nat) x (delta T : R) : Prop :=
  forall E k, (k < N)%nat ->
    sum N (emass K E x) / INR N <= T * ((sum N (emass K E x) - emass K E x k) / (INR N - 1)) + delta /\
    (sum N (emass K E x) - emass K E x k) / (INR N - 1) <= T * (sum N (emass K E x) / INR N) + delta.

(** [slack-removal-distance]. *)
Definition slack_removal_obl (N T d U : R) : Prop :=
  forall P M, 0 <= P -> 0 <= 1 - P -> 0 <= M -> 0 <= 1 - M ->
    0 <= T * (N * P - M) - (N - 1) * (P - d) ->
    0 <= (N - 1) * T * (1 - P) - N * (1 - P) + (1 - M) + (N - 1) * d ->
    0 <= N * P - M -> M - P <= U.

Theorem slack_removal_distance N K x cls T d U :
  table N K x -> 2 <= INR N -> slack_removal_le N K x d T -> slack_removal_obl (INR N) T d U -> tv_le N K x cls U.
Proof.
  intros Htab HN HA Hob. apply tv_of_events. intros i E Hi.
  set (c := emass K E x).
  assert (Hcb : forall k, (k < N)%nat -> 0 <= c k <= 1) by (apply emass_bounds; exact Htab).
  destruct (max_record N c ltac:(lia)) as [km [Hkm Hmax]].
  pose proof (class_below_max N K x cls E i km Htab Hi Hmax) as Hx. fold c in Hx.
  set (D := sum N c) in *. set (M := c km) in *.
  assert (HD : 0 <= D <= INR N) by (apply sum_col_bounds; exact Hcb).
  assert (HM := Hcb km Hkm). fold M in HM.
  assert (HDM : M <= D) by (unfold D; rewrite (sum_remove_one N km c Hkm);
    assert (0 <= sumS N (remove (fun _ => true) km) c) by (apply sumS_nonneg; intros; apply Hcb; auto); fold M; lra).
  destruct (HA E km Hkm) as [Hon _]. destruct (HA (compl E) km Hkm) as [_ Hrest].
  fold c D M in Hon. rewrite sum_emass_compl, (emass_compl N K E x km Htab Hkm) in Hrest by auto. fold c D M in Hrest.
  assert (Hfin : M - D / INR N <= U).
  { refine (Hob (D / INR N) M _ _ _ _ _ _ _).
    - apply (nonneg_frac D (INR N)); [lra|lra|reflexivity].
    - apply (nonneg_frac (INR N - D) (INR N)); [lra|lra|field; lra].
    - lra. - lra.
    - apply Rmult_le_compat_l with (r := INR N - 1) in Hon; [|lra].
      replace ((INR N - 1) * (T * ((D - M) / (INR N - 1)) + d)) with (T * (D - M) + (INR N - 1) * d) in Hon
        by (field; lra).
      replace (INR N * (D / INR N)) with D by (field; lra). lra.
    - apply Rmult_le_compat_l with (r := INR N - 1) in Hrest; [|lra].
      replace ((INR N - 1) * ((INR N - D - (1 - M)) / (INR N - 1))) with (INR N - D - (1 - M)) in Hrest by (field; lra).
      replace ((INR N - 1) * (T * ((INR N - D) / INR N) + d)) with ((INR N - 1) * T * (1 - D / INR N) + (INR N - 1) * d)
        in Hrest by (field; lra).
      replace (INR N * (1 - D / INR N)) with (INR N - D) by (field; lra). lra.
    - replace (INR N * (D / INR N)) with D by (field; lra). lra. }
  fold D. lra_div.
Qed.

(** [slack-removal-distance-pair]: two records. *)
Definition slack_removal_pair_obl (T d U : R) : Prop :=
  forall P x1, 0 <= P -> 0 <= 1 - P -> 0 <= x1 -> 0 <= 1 - x1 -> 0 <= 2 * P - x1 ->
    0 <= T * (2 * P - x1) - P + d -> 0 <= T * (1 - x1) - (1 - P) + d -> x1 - P <= U.

Theorem slack_removal_pair N K x cls s T d U :
  table N K x -> INR N = 2 -> partition N cls s -> 1 <= s -> slack_removal_le N K x d T ->
  slack_removal_pair_obl T d U -> tv_le N K x cls U.
Proof.
  intros Htab HN Hp Hs HA Hob. apply tv_of_events. intros i E Hi.
  assert (HN2 : N = 2%nat) by (apply INR_eq; simpl; lra). subst N.
  set (c := emass K E x).
  assert (Hcb : forall k, (k < 2)%nat -> 0 <= c k <= 1) by (apply emass_bounds; exact Htab).
  assert (H1 : card 2 (classof cls i) = 1) by (apply (class_single_two 2 cls s); auto).
  rewrite H1, (sumS_card1 2 _ i c Hi (classof_self cls i) H1).
  set (k := if Nat.eqb i 0 then 1%nat else 0%nat).
  assert (Hk : (k < 2)%nat) by (unfold k; destruct (Nat.eqb i 0); lia).
  assert (Hsum : forall f : nat -> R, sum 2 f = f i + f k).
  { intro f. simpl. unfold k. destruct i as [|[|i']]; simpl; [ring|ring|lia]. }
  destruct (HA E i Hi) as [Hon _]. destruct (HA (compl E) k Hk) as [Hrest _].
  rewrite sum_emass_compl, (emass_compl 2 K E x k Htab Hk) in Hrest by auto. fold c in Hon, Hrest.
  rewrite !Hsum in Hon, Hrest. simpl INR in Hon, Hrest. replace (1 + 1) with 2 in Hon, Hrest by ring.
  pose proof (Hcb i Hi). pose proof (Hcb k Hk).
  rewrite Hsum. simpl INR. replace (1 + 1) with 2 by ring.
  replace ((c i + c k - c i) / (2 - 1)) with (c k) in Hon by field.
  replace ((2 - (c i + c k) - (1 - c k)) / (2 - 1)) with (1 - c i) in Hrest by field.
  assert (Hfin : c i - (c i + c k) / 2 <= U).
  { apply Hob.
    - apply (nonneg_frac (c i + c k) 2); [lra|lra|reflexivity].
    - apply (nonneg_frac (2 - (c i + c k)) 2); [lra|lra|field].
    - lra. - lra.
    - replace (2 * ((c i + c k) / 2) - c i) with (c k) by field. lra.
    - replace (2 * ((c i + c k) / 2) - c i) with (c k) by field. lra.
    - replace (T * (1 - c i) - (1 - (c i + c k) / 2) + d) with (T * (1 - c i) + d - (2 - (c i + c k)) / 2) by field.
      lra. }
  replace (c i / 1) with (c i) by field. lra_div.
Qed.
