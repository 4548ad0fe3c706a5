(** The ratio-of-averages lemmas of the certificates (implgraph.certify.kernel: [rest-mass], [class-mass],
    [extreme-means-supremum], [extremes-and-mean], [slack-target-pairs]), each proved once on every table from its
    obligation in the kernel's variables; a certificate proves the obligation with its multipliers. *)
From Coq Require Import Reals Lra Lia Bool.
From Implgraph Require Import Sums Tables Extreme Distance MaxValue Events Columns Compose.
Open Scope R_scope.

(** [rest-mass] (method [one-sided-class]): A a two-sided class level, B a one-sided class level on the same
    partition; per bucket with the table's mean scaled to 1, a class of [e] records has [e x = N - (N - e) y] with
    [y] the other records' mean. *)
Definition rest_mass_obl (N s T U : R) : Prop :=
  forall e y, 0 <= e - s -> 0 <= N - e - s -> 0 <= y -> 0 <= N - (N - e) * y -> 0 <= T * y - 1 ->
    0 <= T * e - (N - (N - e) * y) -> N - (N - e) * y <= U * e.

Theorem rest_mass N K x cls s T U :
  table N K x -> partition N cls s -> 0 < T -> class_le TwoSided N K x cls T -> rest_mass_obl (INR N) s T U ->
  class_le OneSided N K x cls U.
Proof.
  intros Htab Hp HT HA Hob b i Hb Hi. split; [|discriminate]. unfold upper_ok.
  set (c := col x b). set (C := classof cls i). set (e := card N C). set (D := sum N c). set (S1 := sumS N C c).
  assert (Hnn : forall k, (k < N)%nat -> 0 <= c k) by (apply col_nonneg with K; auto).
  assert (He1 : 1 <= e) by (apply class_self_pos; exact Hi).
  assert (HN : 0 < INR N) by (apply lt_0_INR; lia).
  assert (Hes : s <= e) by (apply (proj1 Hp); auto). assert (HeN : s <= INR N - e) by (apply partition_other; auto).
  assert (HS0 : 0 <= S1) by (apply sumS_nonneg; auto).
  pose proof (sumS_split N C c) as Hsplit. fold D S1 in Hsplit. set (S2 := sumS N (compl C) c) in *.
  assert (HS2 : 0 <= S2) by (apply sumS_nonneg; auto).
  destruct (Req_dec D 0) as [HD0|HD0].
  { assert (S1 = 0) by lra. rewrite H, HD0. lra. }
  assert (HD : 0 < D) by lra.
  destruct (HA b i Hb Hi) as [Hup _]. unfold upper_ok in Hup. fold c C e D S1 in Hup.
  (* the other classes: each has mean at least D / (T N) *)
  assert (Hoth : card N (compl C) * (D / (T * INR N)) <= S2).
  { apply (class_mean_lower N cls); [apply compl_class_closed|]. intros k Hk _.
    destruct (HA b k Hb Hk) as [_ Hl]. specialize (Hl eq_refl). unfold lower_ok in Hl. fold c D in Hl.
    apply Rmult_le_reg_r with (T * INR N); [nra|].
    replace (card N (classof cls k) * (D / (T * INR N)) * (T * INR N)) with (card N (classof cls k) * D)
      by (field; lra). lra. }
  rewrite card_compl in Hoth. fold e in Hoth.
  assert (Hoth' : (INR N - e) * D <= T * INR N * S2).
  { replace ((INR N - e) * D) with (T * INR N * ((INR N - e) * (D / (T * INR N)))) by (field; lra).
    apply Rmult_le_compat_l; [apply Rmult_le_pos; lra|exact Hoth]. }
  set (y := INR N * S2 / ((INR N - e) * D)).
  assert (Hne : 0 < INR N - e).
  { assert (0 < s \/ s <= 0) as [Hs|Hs] by lra; [lra|].
    (* s <= 0: the other class is nonempty all the same *)
    destruct (proj2 Hp) as [i1 [k1 [Hi1 [Hk1 Hne]]]].
    assert (Ht : exists t, (t < N)%nat /\ compl C t = true).
    { destruct (Nat.eq_dec (cls i1) (cls i)) as [E1|E1].
      - exists k1. split; auto. unfold compl, C, classof. rewrite <- E1. apply negb_true_iff, Nat.eqb_neq; auto.
      - exists i1. split; auto. unfold compl, C, classof. apply negb_true_iff, Nat.eqb_neq; auto. }
    destruct Ht as [t [Ht Hct]]. pose proof (card_pos N (compl C) t Ht Hct). rewrite card_compl in H. fold e in H.
    lra. }
  assert (Hxe : INR N - (INR N - e) * y = INR N * S1 / D) by (unfold y; rewrite Hsplit; field; split; lra).
  assert (Hfin := Hob e y ltac:(lra) ltac:(lra)).
  rewrite Hxe in Hfin.
  assert (HNS : 0 <= INR N * S1 / D) by (apply (nonneg_frac (INR N * S1) D); [nra|lra|reflexivity]).
  assert (Hy0 : 0 <= y) by (apply (nonneg_frac (INR N * S2) ((INR N - e) * D)); [nra|nra|reflexivity]).
  assert (HTy : 0 <= T * y - 1).
  { apply (nonneg_frac (T * INR N * S2 - (INR N - e) * D) ((INR N - e) * D)); [lra|nra|unfold y; field; split; lra]. }
  assert (HTe : 0 <= T * e - INR N * S1 / D).
  { apply (nonneg_frac (T * e * D - INR N * S1) D); [lra|lra|field; lra]. }
  specialize (Hfin Hy0 HNS HTy HTe).
  apply Rmult_le_compat_r with (r := D) in Hfin; [|lra].
  replace (INR N * S1 / D * D) with (INR N * S1) in Hfin by (field; lra). lra.
Qed.

(** [class-mass] (method [class-to-subset]): A a two-sided class level with classes of >= s records (s an
    integer), B the two-sided subset level of size N - 1 (record removal). The set misses one record [r]; with the
    table's mean scaled to 1 its values sum to [L], and the other classes than [r]'s give [T L >= N - e]. *)
Definition class_mass_lower (N s T U : R) : Prop :=
  forall L e, 0 <= L -> 0 <= e - s -> 0 <= T * L - N + e -> 0 <= N - e - s -> N - 1 <= U * L.
Definition class_mass_upper (N s T U : R) : Prop := 0 <= N - 4 -> N <= U * (N - 1).
Definition class_mass_three (N s T U : R) : Prop := N = 3 -> s = 1 -> N <= U * (N - 1).
Definition class_mass_pair (N s T U : R) : Prop := N = 2 -> T <= U.

(** A set of [N - 1] records misses one. *)
Lemma missing_one N S : card N S = INR N - 1 -> exists r, (r < N)%nat /\ S r = false /\ card N (compl S) = 1.
Proof.
  intro H. assert (Hc : card N (compl S) = 1) by (rewrite card_compl; lra).
  assert (Hex : (0 < cnt N (compl S))%nat) by (apply INR_lt; rewrite <- card_cnt, Hc; simpl; lra).
  destruct (exists_min N (compl S) (fun _ => 0) Hex) as [r [Hr [HSr _]]].
  exists r. split; [auto|]. unfold compl in HSr. split; [apply negb_true_iff; auto|auto].
Qed.

Theorem class_mass N K x cls s T U :
  table N K x -> partition N cls s -> IsNat s -> 1 <= s -> 1 <= T -> 0 <= U -> class_le TwoSided N K x cls T ->
  class_mass_lower (INR N) s T U -> class_mass_upper (INR N) s T U -> class_mass_three (INR N) s T U ->
  class_mass_pair (INR N) s T U -> subset_le TwoSided N K x (INR N - 1) U.
Proof.
  intros Htab Hp Hsn Hs HT HU HA Hlo Hhi H3 H2 b S Hb HS.
  set (c := col x b). set (D := sum N c).
  assert (Hnn : forall k, (k < N)%nat -> 0 <= c k) by (apply col_nonneg with K; auto).
  assert (HD0 : 0 <= D) by (apply sum_nonneg; auto).
  pose proof (partition_two N cls s Hp) as H2s.
  assert (HN : 2 <= INR N) by lra.
  destruct (missing_one N S HS) as [r [Hr [HSr Hc1]]].
  assert (Hsr : sumS N (compl S) c = c r) by (apply sumS_card1; auto; unfold compl; rewrite HSr; auto).
  pose proof (sumS_split N S c) as Hsplit. fold D in Hsplit. rewrite Hsr in Hsplit.
  assert (Hcr : 0 <= c r) by auto.
  split.
  - (* mean_S / m: the records of the other classes than r's are all in S *)
    unfold upper_ok. rewrite HS. fold D.
    assert (HSS : sumS N S c <= D) by lra.
    destruct (Rle_dec 4 (INR N)) as [H4|H4].
    { assert (INR N <= U * (INR N - 1)) by (apply Hhi; lra).
      assert (INR N * sumS N S c <= INR N * D) by (apply Rmult_le_compat_l; lra).
      assert (INR N * D <= U * (INR N - 1) * D) by (apply Rmult_le_compat_r; lra). lra. }
    destruct (Rle_dec 3 (INR N)) as [H3'|H3'].
    { assert (HN3 : INR N = 3).
      { assert (N = 3%nat) by (assert (3 <= N)%nat by (apply INR_le; simpl; lra);
          assert (N < 4)%nat by (apply INR_lt; simpl; lra); lia). subst N. simpl. ring. }
      assert (Hs1 : s = 1).
      { destruct Hsn as [n Hn]. assert (n = 1%nat) by (assert (1 <= n)%nat by (apply INR_le; simpl; lra);
          assert (n < 2)%nat by (apply INR_lt; simpl; lra); lia). subst n. simpl in Hn. lra. }
      assert (INR N <= U * (INR N - 1)) by (apply H3; auto).
      assert (INR N * sumS N S c <= INR N * D) by (apply Rmult_le_compat_l; lra).
      assert (INR N * D <= U * (INR N - 1) * D) by (apply Rmult_le_compat_r; lra). lra. }
    (* N = 2: S is one record, a class of its own *)
    assert (HN2 : INR N = 2) by (assert (N = 2%nat) by (assert (2 <= N)%nat by (apply INR_le; simpl; lra);
          assert (N < 3)%nat by (apply INR_lt; simpl; lra); lia); subst N; simpl; ring).
    assert (HTU : T <= U) by (apply H2; auto).
    assert (HcS : card N S = 1) by lra.
    assert (Hex : (0 < cnt N S)%nat) by (apply INR_lt; rewrite <- card_cnt, HcS; simpl; lra).
    destruct (exists_min N S (fun _ => 0) Hex) as [k [Hk [HSk _]]].
    assert (Hone : card N (classof cls k) = 1) by (apply (class_single_two N cls s); auto).
    rewrite (sumS_card1 N S k c Hk HSk HcS).
    destruct (HA b k Hb Hk) as [Hup _]. unfold upper_ok in Hup. fold c in Hup.
    rewrite Hone, (sumS_card1 N _ k c Hk (classof_self cls k) Hone) in Hup. fold c D in Hup.
    assert (T * (1 * D) <= U * (1 * D)) by (apply Rmult_le_compat_r; lra). rewrite HN2 in *. lra.
  - intros _. unfold lower_ok. rewrite HS. fold D.
    set (E := classof cls r). set (e := card N E).
    assert (He : s <= e) by (apply (proj1 Hp); auto). assert (HeN : s <= INR N - e) by (apply partition_other; auto).
    (* the other classes lie in S *)
    assert (Hoth : card N (compl E) * (D / (T * INR N)) <= sumS N (compl E) c).
    { apply (class_mean_lower N cls); [apply compl_class_closed|]. intros k Hk _.
      destruct (HA b k Hb Hk) as [_ Hl]. specialize (Hl eq_refl). unfold lower_ok in Hl. fold c D in Hl.
      apply Rmult_le_reg_r with (T * INR N); [nra|].
      replace (card N (classof cls k) * (D / (T * INR N)) * (T * INR N)) with (card N (classof cls k) * D)
        by (field; lra). lra. }
    rewrite card_compl in Hoth. fold e in Hoth.
    assert (Hsub : sumS N (compl E) c <= sumS N S c).
    { unfold sumS. apply sum_le. intros k Hk. unfold compl, E, classof.
      destruct (Nat.eqb_spec (cls k) (cls r)) as [Hkr|Hkr]; simpl.
      - destruct (S k); [apply Hnn; auto|lra].
      - destruct (S k) eqn:Sk; [lra|].
        destruct (Nat.eq_dec k r) as [->|Hne]; [congruence|].
        (* compl S is the single record r *)
        exfalso.
        assert (Hrm : card N (remove (compl S) r) = card N (compl S) - 1)
          by (apply card_remove; auto; unfold compl; rewrite HSr; auto).
        assert (1 <= card N (remove (compl S) r)).
        { apply card_pos with k; auto. unfold remove, compl. rewrite Sk. simpl.
          apply negb_true_iff, Nat.eqb_neq; auto. }
        lra. }
    assert (HTL : (INR N - e) * D <= T * INR N * sumS N S c).
    { replace ((INR N - e) * D) with (T * INR N * ((INR N - e) * (D / (T * INR N)))) by (field; lra).
      apply Rmult_le_compat_l; [apply Rmult_le_pos; lra|lra]. }
    destruct (Req_dec D 0) as [HD|HD].
    { rewrite HD. assert (0 <= sumS N S c) by (apply sumS_nonneg; auto).
      assert (0 <= U * (INR N * sumS N S c)) by (apply Rmult_le_pos; [lra|]; apply Rmult_le_pos; lra). lra. }
    set (L := INR N * sumS N S c / D).
    assert (HL := Hlo L e).
    assert (HL0 : 0 <= L) by (apply (nonneg_frac (INR N * sumS N S c) D);
      [apply Rmult_le_pos; [lra|apply sumS_nonneg; auto]|lra|reflexivity]).
    assert (HTLe : 0 <= T * L - INR N + e).
    { apply (nonneg_frac (T * INR N * sumS N S c - (INR N - e) * D) D); [lra|lra|unfold L; field; lra]. }
    specialize (HL HL0 ltac:(lra) HTLe ltac:(lra)).
    apply Rmult_le_compat_r with (r := D) in HL; [|lra].
    replace (U * L * D) with (U * (INR N * sumS N S c)) in HL by (unfold L; field; lra). lra.
Qed.

(** [extreme-means-supremum] (method [subset-supremum]): two two-sided subset levels, sizes [ja <= jb], an integer
    [q] (1 <= q <= jb, ja <= N - q): [U = Min(T, 1/Max(1 - (N/q - 1)(T - 1), 1/T))]. Per bucket: [a], [b] the
    means of q and N - q records, [m] the table's. *)
Definition supremum_lower (N q T : R) : Prop :=
  forall a b m, 0 <= a -> 0 <= b -> 0 <= m -> 0 <= q * a + (N - q) * b - N * m -> 0 <= T * m - b ->
    0 <= q * a - m * (N - (N - q) * T).
Definition supremum_upper (N q T : R) : Prop :=
  forall a b m, 0 <= a -> 0 <= b -> 0 <= m -> 0 <= N * m - q * b - (N - q) * a -> 0 <= T * a - m ->
    0 <= m * (N * T - (N - q)) - q * T * b.
Definition supremum_gap (N q T : R) : Prop := 0 <= q * q * T - (N * T - (N - q)) * (N - (N - q) * T).

Definition supremum_bound (N q T : R) : R := Rmin T (1 / Rmax (1 - (N / q - 1) * (T - 1)) (1 / T)).

Theorem supremum N K x ja jb q T :
  table N K x -> IsNat ja -> IsNat q -> 1 <= ja -> ja <= jb -> 1 <= q -> q <= jb -> ja <= INR N - q -> 1 <= T ->
  subset_le TwoSided N K x ja T ->
  supremum_lower (INR N) q T -> supremum_upper (INR N) q T -> supremum_gap (INR N) q T ->
  subset_le TwoSided N K x jb (supremum_bound (INR N) q T).
Proof.
  intros Htab Hja Hq Hja1 Hjab Hq1 Hqb HjaN HT HA Hlo Hup Hgap.
  assert (Hmono : subset_le TwoSided N K x jb T) by (apply (subset_monotone TwoSided N K x ja jb T); auto; lra).
  unfold supremum_bound. set (D := INR N - (INR N - q) * T).
  assert (HDq : 1 - (INR N / q - 1) * (T - 1) = D / q) by (unfold D; field; lra).
  rewrite HDq. unfold Rmax. destruct (Rle_dec (D / q) (1 / T)) as [Hle|Hgt].
  { assert (H1T : 1 / (1 / T) = T) by (field; lra). rewrite H1T.
    replace (Rmin T T) with T by (unfold Rmin; destruct (Rle_dec T T); auto). exact Hmono. }
  assert (HDpos : 0 < D).
  { assert (0 < D / q) by (assert (0 < 1 / T) by (apply Rdiv_lt_0_compat; lra); lra).
    apply Rmult_lt_reg_r with (/ q); [apply Rinv_0_lt_compat; lra|]. rewrite Rmult_0_l. exact H. }
  replace (1 / (D / q)) with (q / D) by (field; lra).
  assert (HqD : subset_le TwoSided N K x jb (q / D)).
  { intros b S Hb HS.
    set (c := col x b). set (Dm := sum N c).
    assert (Hnn : forall k, (k < N)%nat -> 0 <= c k) by (apply col_nonneg with K; auto).
    assert (HN : 0 < INR N) by (assert (0 < INR N - q) by lra; assert (q <= INR N) by lra; lra).
    assert (HD0 : 0 <= Dm) by (apply sum_nonneg; auto).
    destruct Hq as [nq Hnq].
    assert (HjbN : jb = card N S) by (symmetry; exact HS).
    assert (Hcnt : (nq <= cnt N S)%nat) by (apply INR_le; rewrite <- card_cnt; lra).
    assert (Hnq1 : (1 <= nq)%nat) by (apply INR_le; simpl; lra).
    set (m := Dm / INR N).
    split.
    - (* high: a set Y of q records of S with a mean at least S's; its complement holds N - q >= ja records *)
      unfold upper_ok. fold c Dm.
      destruct (sub_mean_ge N c (cnt N S) S eq_refl nq ltac:(lia)) as [Y [Ysub [HY Hmean]]].
      assert (HcY : card N Y = q) by (rewrite card_cnt, HY; auto).
      assert (HcYc : ja <= card N (compl Y)) by (rewrite card_compl, HcY; lra).
      destruct (subset_bounds_larger TwoSided N K x ja T Hja Hja1 ltac:(lra) HA b (compl Y) Hb HcYc) as [_ Hl].
      specialize (Hl eq_refl). unfold lower_ok in Hl. fold c Dm in Hl. rewrite card_compl, HcY in Hl.
      pose proof (sumS_split N Y c) as Hsp. fold Dm in Hsp.
      set (SY := sumS N Y c) in *. set (SYc := sumS N (compl Y) c) in *.
      rewrite <- card_cnt, Hnq, <- HjbN in Hmean.
      (* b = SY / q, a = SYc / (N - q) *)
      assert (HNq : 0 < INR N - q) by lra.
      assert (HU := Hup (SYc / (INR N - q)) (SY / q) m).
      assert (Hfacts : 0 <= m * (INR N * T - (INR N - q)) - q * T * (SY / q)).
      { apply HU.
        - apply (nonneg_frac SYc (INR N - q)); [apply sumS_nonneg; auto|lra|reflexivity].
        - apply (nonneg_frac SY q); [apply sumS_nonneg; auto|lra|reflexivity].
        - apply (nonneg_frac Dm (INR N)); [lra|lra|reflexivity].
        - unfold m. assert (Heq : INR N * (Dm / INR N) - q * (SY / q) - (INR N - q) * (SYc / (INR N - q)) =
            Dm - SY - SYc) by (field; repeat split; lra). rewrite Heq. lra.
        - apply (nonneg_frac (T * INR N * SYc - (INR N - q) * Dm) (INR N * (INR N - q))); [lra|nra|].
          unfold m. field. split; lra. }
      (* mean_S <= SY / q <= m (N T - (N - q)) / (q T) <= (q / D) m *)
      replace (q * T * (SY / q)) with (T * SY) in Hfacts by (field; lra).
      set (X := INR N * T - (INR N - q)) in *.
      assert (Hm0 : 0 <= m) by (unfold m; apply (nonneg_frac Dm (INR N)); [lra|lra|reflexivity]).
      assert (Hg : X * D <= q * q * T) by (unfold X, D; unfold supremum_gap in Hgap; lra).
      assert (A1 : T * SY * D <= m * X * D) by (apply Rmult_le_compat_r; lra).
      assert (A2 : m * (X * D) <= m * (q * q * T)) by (apply Rmult_le_compat_l; lra).
      assert (H3 : SY * D <= m * q * q).
      { apply Rmult_le_reg_l with T; [lra|]. lra. }
      apply Rmult_le_reg_r with (q * D); [apply Rmult_lt_0_compat; lra|].
      replace (q / D * (card N S * Dm) * (q * D)) with (q * q * card N S * Dm) by (field; lra).
      rewrite <- HjbN.
      assert (HSS : 0 <= INR N * D) by (apply Rmult_le_pos; lra).
      assert (B1 : INR N * D * (q * sumS N S c) <= INR N * D * (jb * SY)) by (apply Rmult_le_compat_l; lra).
      assert (B2 : INR N * jb * (SY * D) <= INR N * jb * (m * q * q))
        by (apply Rmult_le_compat_l; [apply Rmult_le_pos; lra|lra]).
      assert (B3 : INR N * m = Dm) by (unfold m; field; lra).
      assert (B4 : INR N * jb * (m * q * q) = q * q * jb * Dm) by (rewrite <- B3; ring).
      lra.
    - (* low: a set Y of q records of S with a mean at most S's; its complement's mean is at most T m *)
      intros _. unfold lower_ok. fold c Dm.
      destruct (sub_mean_le N c (cnt N S) S eq_refl nq ltac:(lia)) as [Y [Ysub [HY Hmean]]].
      assert (HcY : card N Y = q) by (rewrite card_cnt, HY; auto).
      assert (HcYc : ja <= card N (compl Y)) by (rewrite card_compl, HcY; lra).
      destruct (subset_bounds_larger TwoSided N K x ja T Hja Hja1 ltac:(lra) HA b (compl Y) Hb HcYc) as [Hu _].
      unfold upper_ok in Hu. fold c Dm in Hu. rewrite card_compl, HcY in Hu.
      pose proof (sumS_split N Y c) as Hsp. fold Dm in Hsp.
      set (SY := sumS N Y c) in *. set (SYc := sumS N (compl Y) c) in *.
      rewrite <- card_cnt, Hnq, <- HjbN in Hmean.
      assert (HNq : 0 < INR N - q) by lra.
      assert (Hfacts : 0 <= q * (SY / q) - m * D).
      { apply (Hlo (SY / q) (SYc / (INR N - q)) m).
        - apply (nonneg_frac SY q); [apply sumS_nonneg; auto|lra|reflexivity].
        - apply (nonneg_frac SYc (INR N - q)); [apply sumS_nonneg; auto|lra|reflexivity].
        - apply (nonneg_frac Dm (INR N)); [lra|lra|reflexivity].
        - unfold m. assert (Heq : q * (SY / q) + (INR N - q) * (SYc / (INR N - q)) - INR N * (Dm / INR N) =
            SY + SYc - Dm) by (field; repeat split; lra). rewrite Heq. lra.
        - apply (nonneg_frac (T * (INR N - q) * Dm - INR N * SYc) (INR N * (INR N - q))); [lra|nra|].
          unfold m. field. split; lra. }
      replace (q * (SY / q)) with SY in Hfacts by (field; lra).
      (* jb Dm <= (q / D) N sumS: from m D <= SY and jb SY <= q sumS *)
      apply Rmult_le_reg_r with D; [lra|].
      replace (q / D * (INR N * sumS N S c) * D) with (q * INR N * sumS N S c) by (field; lra).
      rewrite HS. unfold m in Hfacts.
      assert (HDm : Dm * D <= INR N * SY) by
        (replace Dm with (INR N * (Dm / INR N)) by (field; lra); replace (INR N * (Dm / INR N) * D) with
           (INR N * (Dm / INR N * D)) by ring; apply Rmult_le_compat_l; lra).
      assert (jb * (Dm * D) <= jb * (INR N * SY)) by (apply Rmult_le_compat_l; lra).
      assert (INR N * (jb * SY) <= INR N * (q * sumS N S c)) by (apply Rmult_le_compat_l; lra).
      nra. }
  intros b S Hb HS. destruct (Hmono b S Hb HS) as [Hu1 Hl1]. destruct (HqD b S Hb HS) as [Hu2 Hl2].
  unfold Rmin. destruct (Rle_dec T (q / D)); split; auto.
Qed.

(** [extremes-and-mean] (method [product]): A bounds each record against the table (a two-sided subset level of
    size 1, or singleton classes), B the pairwise level. Per bucket: minimum [a], maximum [b], mean [m]. *)
Definition record_le (N K : nat) x (T : R) : Prop :=
  forall b k, (b < K)%nat -> (k < N)%nat ->
    INR N * x k b <= T * sum N (col x b) /\ sum N (col x b) <= T * (INR N * x k b).

Lemma record_of_subset N K x T : subset_le TwoSided N K x 1 T -> record_le N K x T.
Proof.
  intros HA b k Hb Hk. destruct (HA b (single k) Hb (card_single N k Hk)) as [Hu Hl].
  specialize (Hl eq_refl). unfold upper_ok, lower_ok in *. rewrite card_single, sumS_single in * by auto.
  unfold col in *. split; lra.
Qed.

Lemma record_of_classes N K x cls T :
  class_le TwoSided N K x cls T -> max_class N cls 1 -> record_le N K x T.
Proof.
  intros HA Hmax b k Hb Hk. pose proof (class_self_pos N cls k Hk). pose proof (Hmax k Hk).
  assert (H1 : card N (classof cls k) = 1) by lra.
  destruct (HA b k Hb Hk) as [Hu Hl]. specialize (Hl eq_refl). unfold upper_ok, lower_ok in *.
  rewrite H1, (sumS_card1 N _ k _ Hk (classof_self cls k) H1) in *. unfold col in *. split; lra.
Qed.

Definition product_obl (N T U : R) : Prop :=
  forall a b m, 0 <= T * m - b -> 0 <= T * a - m -> 0 <= N * m - b - (N - 1) * a -> 0 <= a + (N - 1) * b - N * m ->
    0 <= a -> 0 <= b - a -> b <= U * a.

Theorem product N K x T U :
  table N K x -> 2 <= INR N -> 0 <= U -> record_le N K x T -> product_obl (INR N) T U -> pairwise_le N K x U.
Proof.
  intros Htab HN HU HA Hob b i k Hb Hi Hk.
  set (c := col x b).
  assert (Hnn : forall t, (t < N)%nat -> 0 <= c t) by (apply col_nonneg with K; auto).
  destruct (max_record N c ltac:(apply INR_lt; simpl; lra)) as [kM [HkM Hmax]].
  destruct (max_record N (fun t => - c t) ltac:(apply INR_lt; simpl; lra)) as [km [Hkm Hmin]].
  assert (Hmin' : forall t, (t < N)%nat -> c km <= c t) by (intros t Ht; specialize (Hmin t Ht); lra).
  set (D := sum N c).
  destruct (HA b kM Hb HkM) as [HuM _]. destruct (HA b km Hb Hkm) as [_ Hlm]. fold c D in HuM, Hlm.
  assert (Hab : c kM <= U * c km).
  { apply (Hob (c km) (c kM) (D / INR N)).
    - replace (T * (D / INR N) - c kM) with ((T * D - INR N * c kM) / INR N) by (field; lra).
      apply (nonneg_frac (T * D - INR N * c kM) (INR N)); [unfold c, col; lra|lra|reflexivity].
    - replace (T * c km - D / INR N) with ((T * (INR N * c km) - D) / INR N) by (field; lra).
      apply (nonneg_frac (T * (INR N * c km) - D) (INR N)); [unfold c, col; lra|lra|reflexivity].
    - replace (INR N * (D / INR N)) with D by (field; lra). unfold D. rewrite (sum_remove_one N kM c HkM).
      rewrite <- (card_others N kM HkM). unfold others.
      assert (card N (remove (fun _ => true) kM) * c km <= sumS N (remove (fun _ => true) kM) c).
      { rewrite Rmult_comm, <- sumS_const. apply sumS_le. intros; apply Hmin'; auto. }
      lra.
    - replace (INR N * (D / INR N)) with D by (field; lra). unfold D. rewrite (sum_remove_one N km c Hkm).
      rewrite <- (card_others N km Hkm). unfold others.
      assert (sumS N (remove (fun _ => true) km) c <= card N (remove (fun _ => true) km) * c kM).
      { rewrite Rmult_comm, <- sumS_const. apply sumS_le. intros; apply Hmax; auto. }
      lra.
    - apply Hnn; auto.
    - pose proof (Hmax km Hkm). lra. }
  pose proof (Hmax i Hi). pose proof (Hmin' k Hk).
  assert (U * c km <= U * c k) by (apply Rmult_le_compat_l; auto). unfold c, col in *. lra.
Qed.

(** [slack-target-pairs]: A the pairwise level T, B compares two records with an additive slack [delta]
    ([Tables.slack_pairs_le]); [X], [Y] the two records' masses on an event. *)
Definition slack_target_obl (T d U : R) : Prop :=
  forall X Y, 0 <= X -> 0 <= 1 - X -> 0 <= Y -> 0 <= 1 - Y -> 0 <= T * Y - X -> 0 <= T * (1 - X) - (1 - Y) ->
    X - d <= U * Y.

Theorem slack_target N K x T d U :
  table N K x -> pairwise_le N K x T -> slack_target_obl T d U -> slack_pairs_le N K x d U.
Proof.
  intros Htab HA Hob E i k Hi Hk.
  change (mass K E (fun b => x i b)) with (emass K E x i). change (mass K E (fun b => x k b)) with (emass K E x k).
  pose proof (emass_bounds N K E x Htab i Hi). pose proof (emass_bounds N K E x Htab k Hk).
  pose proof (pairwise_event N K x T E i k HA Hi Hk) as H1.
  pose proof (pairwise_event N K x T (compl E) k i HA Hk Hi) as H2.
  rewrite (emass_compl N K E x k Htab Hk), (emass_compl N K E x i Htab Hi) in H2.
  assert (emass K E x i - d <= U * emass K E x k) by (apply Hob; lra). lra.
Qed.
