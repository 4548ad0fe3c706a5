(** Each record within [[1/T, T]] of the table (a two-sided subset level of size 1) against a class divergence, every
    partition: the chord on [[1/T, N - (N - 1)/T]] (implgraph.prover.removal_record_class; the certify lemma
    implgraph.certify.lemmas.chord).

    A record's ratio [a = x_i/P] is [N] minus the others' [N - 1] ratios, each [>= 1/T], so [a <= N - (N - 1)/T];
    with [a >= 1/T] it lies in [[1/T, N - (N - 1)/T]] ([SubsetChord.subset_xconf] at size 1: [sublo N 1 T >= 1/T],
    [subhi N 1 T <= N - (N - 1)/T]); a class's mean is an average of its records, so its ratio too, and B is at most
    the chord of phi on any [[lo, hi]] around it ([xconf_chord]). Where [T >= N - 1] this end is at most [T]: the
    narrower interval, whose chord is the supremum there. A two-sided class level on B's partition: the same end,
    from the records outside a class (below, [chord_class_narrow]). *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Tactics Distance Events Entropy Divergence RemovalChord RemovalChordPieces
  SubsetChord.
Open Scope R_scope.

Lemma record_class_xconf N K x T lo hi :
  table N K x -> subset_le TwoSided N K x 1 T -> 2 <= INR N -> 0 < T ->
  lo <= 1 / T -> INR N - (INR N - 1) / T <= hi -> xconf N K x lo hi.
Proof.
  intros Htab HA HN HT Hlo Hhi.
  apply (xconf_weaken N K x _ _ lo hi Htab
           (subset_xconf N K x 1 T Htab HA ltac:(exists 1%nat; reflexivity) ltac:(lra) ltac:(lra) HT)).
  - unfold sublo.
    replace ((1 * (INR N - 1) / T - (1 - 1) * INR N) / (INR N - 1)) with (1 / T) by (field; split; lra).
    apply Rle_trans with (1 / T); [exact Hlo |].
    apply Rle_trans with (Rmax (INR N - (INR N - 1) * T) (1 / T)); apply Rmax_r.
  - unfold subhi. apply Rle_trans with (INR N - (INR N - 1) / T); [apply Rmin_l | exact Hhi].
Qed.

Theorem chord_record_class k N K x cls T lo hi U :
  table N K x -> subset_le TwoSided N K x 1 T -> 2 <= INR N -> 0 < T ->
  lo <= 1 / T -> INR N - (INR N - 1) / T <= hi -> lo < hi ->
  below_chord (phi_of k) lo hi -> chord_val (phi_of k) lo hi <= dbound k U -> div_class_le k N K x cls U.
Proof.
  intros Htab HA HN HT Hlo Hhi Hlh Hc HU.
  apply (xconf_chord k N K x cls lo hi U Htab ltac:(apply INR_lt; simpl; lra)); auto.
  apply (record_class_xconf N K x T lo hi Htab HA HN HT Hlo Hhi).
Qed.

(** At [T = 1] every record is the table: every class's divergence is [phi 1]. *)
Theorem record_class_one k N K x cls U :
  table N K x -> subset_le TwoSided N K x 1 1 -> 2 <= INR N -> phi_of k 1 <= dbound k U -> div_class_le k N K x cls U.
Proof.
  intros Htab HA HN H1.
  exact (subset_chord_one k N K x cls 1 U Htab HA ltac:(exists 1%nat; reflexivity) ltac:(lra) ltac:(lra) H1).
Qed.

(** * A two-sided class level on B's partition (each class's mean within [[1/T, T]] of the table's) against a class
    divergence: the chord on [[1/T, N - (N - 1)/T]] (implgraph.prover.removal_record_class; the certify lemma
    implgraph.certify.lemmas.chord).

    The records outside a class [C] are a union of classes, so their sum is the sum of their classes' means over
    them ([sumS_class_means], a double sum exchanged: [Distance.sum_swap]), each mean [>= P/T]: the rest's sum is
    [>= (N - c) P/T], and [C]'s mean, [(N P - rest)/c], is at most [(N - (N - c)/T) P/c <= (N - (N - 1)/T) P]
    ([class_narrow], [c >= 1], [T >= 1]). With the class level's own lower end [1/T], B is at most the chord of phi on
    any [[lo, hi]] around [[1/T, N - (N - 1)/T]] ([chord_class_narrow]). *)

(** A set [S] closed under the classes: its records' sum is the sum of their classes' means over them. *)
Lemma sumS_class_means N x cls (S : rset) l :
  (forall j k, (j < N)%nat -> (k < N)%nat -> cls j = cls k -> S j = S k) ->
  sumS N S (fun j => cmean N x cls j l) = sumS N S (col x l).
Proof.
  intro HS. unfold sumS.
  transitivity (sum N (fun j => sum N (fun k =>
                  if S j then (if classof cls j k then x k l / card N (classof cls k) else 0) else 0))).
  { apply sum_ext. intros j Hj. destruct (S j) eqn:Ej.
    - unfold cmean, sumS, Rdiv. rewrite Rmult_comm, <- sum_scal. apply sum_ext. intros k Hk. unfold col.
      destruct (classof cls j k) eqn:E; [|ring].
      unfold classof in E. apply Nat.eqb_eq in E.
      assert (Ec : classof cls k = classof cls j) by (unfold classof; rewrite E; reflexivity).
      rewrite Ec. ring.
    - rewrite sum_zero. reflexivity. }
  rewrite sum_swap. apply sum_ext. intros k Hk.
  assert (Hc : 1 <= card N (classof cls k)) by (apply class_self_pos; exact Hk).
  transitivity (sum N (fun j => (if classof cls k j then 1 else 0) *
                                  (if S k then x k l / card N (classof cls k) else 0))).
  { apply sum_ext. intros j Hj. unfold classof.
    destruct (Nat.eqb_spec (cls k) (cls j)) as [E|E]; destruct (Nat.eqb_spec (cls j) (cls k)) as [E'|E'];
      try congruence.
    - rewrite (HS j k Hj Hk E'). destruct (S k); ring.
    - destruct (S j), (S k); ring. }
  rewrite sum_mult_r'. change (sum N (fun j => if classof cls k j then 1 else 0)) with (card N (classof cls k)).
  unfold col. destruct (S k); [field; lra | ring].
Qed.

(** Each class's mean is at most [N - (N - 1)/T] times the table's, bucket by bucket. *)
Lemma class_narrow N K x cls T i l :
  table N K x -> class_le TwoSided N K x cls T -> 1 <= T -> (i < N)%nat -> (l < K)%nat ->
  cmean N x cls i l <= (INR N - (INR N - 1) / T) * tmean N x l.
Proof.
  intros Htab HA HT Hi Hl.
  assert (HN : 0 < INR N) by (apply lt_0_INR; lia).
  set (C := classof cls i).
  assert (Hc : 1 <= card N C) by (apply class_self_pos; exact Hi).
  assert (Htm : 0 <= tmean N x l) by (apply (tmean_nonneg N K); auto).
  (* each class's mean is >= tmean/T *)
  assert (Hlow : forall j, (j < N)%nat -> tmean N x l / T <= cmean N x cls j l).
  { intros j Hj. destruct (HA l j Hl Hj) as [_ Hlo]. specialize (Hlo eq_refl). unfold lower_ok in Hlo.
    assert (Hcj : 1 <= card N (classof cls j)) by (apply class_self_pos; exact Hj).
    unfold cmean, tmean. apply Rmult_le_reg_r with (T * INR N * card N (classof cls j));
      [apply Rmult_lt_0_compat; [apply Rmult_lt_0_compat |]; lra |].
    replace (sum N (col x l) / INR N / T * (T * INR N * card N (classof cls j)))
      with (card N (classof cls j) * sum N (col x l)) by (field; lra).
    replace (sumS N (classof cls j) (col x l) / card N (classof cls j) * (T * INR N * card N (classof cls j)))
      with (T * (INR N * sumS N (classof cls j) (col x l))) by (field; lra). exact Hlo. }
  assert (Hclosed : forall j k, (j < N)%nat -> (k < N)%nat -> cls j = cls k -> compl C j = compl C k)
    by (intros j k _ _ E; unfold compl, C, classof; rewrite E; reflexivity).
  assert (Hrest : (INR N - card N C) * (tmean N x l / T) <= sumS N (compl C) (col x l)).
  { rewrite <- (sumS_class_means N x cls (compl C) l Hclosed), <- card_compl, Rmult_comm, <- sumS_const.
    apply sumS_le. intros j Hj _. apply Hlow. exact Hj. }
  pose proof (sumS_split N C (col x l)) as Hsplit.
  assert (Hsum : sum N (col x l) = INR N * tmean N x l) by (unfold tmean; field; lra).
  unfold cmean. fold C.
  apply Rmult_le_reg_r with (card N C); [lra|].
  replace (sumS N C (col x l) / card N C * card N C) with (sumS N C (col x l)) by (field; lra).
  assert (Hgap : 0 <= INR N * (card N C - 1) * (1 - 1 / T) * tmean N x l).
  { apply Rmult_le_pos; [apply Rmult_le_pos; [apply Rmult_le_pos; lra |] | exact Htm].
    assert (1 / T <= 1) by (apply Rmult_le_reg_r with T; [lra|]; unfold Rdiv; rewrite Rmult_assoc, Rinv_l; lra).
    lra. }
  assert (E : (INR N - (INR N - 1) / T) * tmean N x l * card N C
              = INR N * tmean N x l - (INR N - card N C) * (tmean N x l / T)
                + INR N * (card N C - 1) * (1 - 1 / T) * tmean N x l) by (field; lra).
  rewrite E. lra.
Qed.

Theorem chord_class_narrow k N K x cls T lo hi U :
  table N K x -> class_le TwoSided N K x cls T -> 2 <= INR N -> 1 <= T ->
  lo <= 1 / T -> INR N - (INR N - 1) / T <= hi -> lo < hi ->
  below_chord (phi_of k) lo hi -> chord_val (phi_of k) lo hi <= dbound k U -> div_class_le k N K x cls U.
Proof.
  intros Htab HA HN HT Hlo Hhi Hlh Hc HU i Hi.
  assert (HN0 : (0 < N)%nat) by (apply INR_lt; simpl; lra).
  apply (chord_between k K _ _ lo hi U); auto.
  - intros l Hl. apply (tmean_nonneg N K); auto.
  - apply (tmean_sum N K); auto.
  - apply (cmean_sum N K); auto.
  - intros l Hl. pose proof (tmean_nonneg N K x l Htab Hl) as Htm.
    pose proof (class_narrow N K x cls T i l Htab HA HT Hi Hl) as Hup.
    destruct (HA l i Hl Hi) as [_ Hlow]. specialize (Hlow eq_refl). unfold lower_ok in Hlow.
    assert (Hci : 1 <= card N (classof cls i)) by (apply class_self_pos; exact Hi).
    split.
    + assert (1 / T * tmean N x l <= cmean N x cls i l).
      { unfold cmean, tmean. apply Rmult_le_reg_r with (T * INR N * card N (classof cls i));
          [apply Rmult_lt_0_compat; [apply Rmult_lt_0_compat |]; lra |].
        replace (1 / T * (sum N (col x l) / INR N) * (T * INR N * card N (classof cls i)))
          with (card N (classof cls i) * sum N (col x l)) by (field; lra).
        replace (sumS N (classof cls i) (col x l) / card N (classof cls i) * (T * INR N * card N (classof cls i)))
          with (T * (INR N * sumS N (classof cls i) (col x l))) by (field; lra). exact Hlow. }
      assert (lo * tmean N x l <= 1 / T * tmean N x l) by (apply Rmult_le_compat_r; lra). lra.
    + assert ((INR N - (INR N - 1) / T) * tmean N x l <= hi * tmean N x l) by (apply Rmult_le_compat_r; lra). lra.
Qed.

(** * One record against the table at most T (a one-sided subset level of size 1, pml) against a class divergence:
    the chord on [[N - (N - 1) T, T]] (implgraph.prover.removal_record_class, the piece T < N/(N - 1); the certify
    lemma implgraph.certify.lemmas.chord).

    Each record's ratio is at most [T] ([onesub_upper] at the record's own class), and the others' [N - 1] records
    are each at most [T P], so a record is [x_i = N P - (N - 1) Q_i >= (N - (N - 1) T) P] ([onesub_record_low]); a
    class's mean is an average of its records: B is at most the chord of phi on any [[lo, hi]] around
    [[N - (N - 1) T, T]] ([chord_onesub_low]); at [T = 1] every record is the table ([onesub_one]). *)
Lemma onesub_record_high N K x T i l :
  subset_le OneSided N K x 1 T -> (i < N)%nat -> (l < K)%nat -> x i l <= T * tmean N x l.
Proof.
  intros HA Hi Hl.
  assert (HN : 0 < INR N) by (apply lt_0_INR; lia).
  destruct (HA l (single i) Hl (card_single N i Hi)) as [Hup _]. unfold upper_ok in Hup.
  rewrite card_single, sumS_single in Hup by exact Hi. unfold col in Hup. unfold tmean.
  apply Rmult_le_reg_l with (INR N); [lra|].
  replace (INR N * (T * (sum N (col x l) / INR N))) with (T * (1 * sum N (col x l))) by (field; lra). exact Hup.
Qed.

Lemma onesub_record_low N K x T i l :
  subset_le OneSided N K x 1 T -> 2 <= INR N -> (i < N)%nat -> (l < K)%nat ->
  (INR N - (INR N - 1) * T) * tmean N x l <= x i l.
Proof.
  intros HA HN Hi Hl.
  assert (Hc : card N (remove (fun _ => true) i) = INR N - 1)
    by (rewrite card_remove, card_full_set by auto; reflexivity).
  assert (Hs : sumS N (remove (fun _ => true) i) (col x l) <= T * tmean N x l * (INR N - 1)).
  { rewrite <- Hc, <- sumS_const. apply sumS_le. intros j Hj _. unfold col.
    exact (onesub_record_high N K x T j l HA Hj Hl). }
  rewrite (record_split N x i l HN Hi). unfold rmean.
  replace (INR N * tmean N x l - (INR N - 1) * (sumS N (remove (fun _ => true) i) (col x l) / (INR N - 1)))
    with (INR N * tmean N x l - sumS N (remove (fun _ => true) i) (col x l)) by (field; lra).
  lra.
Qed.

Theorem chord_onesub_low k N K x cls T lo hi U :
  table N K x -> subset_le OneSided N K x 1 T -> 2 <= INR N -> 0 < T ->
  lo <= INR N - (INR N - 1) * T -> T <= hi -> lo < hi ->
  below_chord (phi_of k) lo hi -> chord_val (phi_of k) lo hi <= dbound k U -> div_class_le k N K x cls U.
Proof.
  intros Htab HA HN HT Hlo Hhi Hlh Hc HU.
  apply (xconf_chord k N K x cls lo hi U Htab ltac:(apply INR_lt; simpl; lra)); auto.
  intros i l Hi Hl. pose proof (tmean_nonneg N K x l Htab Hl) as HP.
  pose proof (onesub_record_low N K x T i l HA HN Hi Hl) as H1.
  pose proof (onesub_record_high N K x T i l HA Hi Hl) as H2.
  split; nra.
Qed.

Theorem onesub_one k N K x cls U :
  table N K x -> subset_le OneSided N K x 1 1 -> 2 <= INR N -> phi_of k 1 <= dbound k U -> div_class_le k N K x cls U.
Proof.
  intros Htab HA HN2 H1 i Hi.
  assert (HN : (0 < N)%nat) by (destruct N; [simpl in HN2; lra | lia]).
  assert (Hc1 : 1 <= card N (classof cls i)) by (apply class_self_pos; exact Hi).
  assert (Ej : forall l j, (l < K)%nat -> (j < N)%nat -> x j l = tmean N x l).
  { intros l j Hl Hj. pose proof (onesub_record_low N K x 1 j l HA HN2 Hj Hl) as A.
    pose proof (onesub_record_high N K x 1 j l HA Hj Hl) as B. lra. }
  assert (E : forall l, (l < K)%nat -> cmean N x cls i l = tmean N x l).
  { intros l Hl. unfold cmean.
    rewrite (sumS_ext_in N (classof cls i) (col x l) (fun _ => tmean N x l))
      by (intros j Hj _; unfold col; apply Ej; auto).
    rewrite sumS_const. field. lra. }
  split.
  - intros l Hl Z. rewrite E by exact Hl. exact Z.
  - rewrite (fdiv_same K _ _ _ E (tmean_sum N K x Htab HN)). exact H1.
Qed.

(** On every table a class's mean is at most [N] times the table's (its records' sum is at most the table's sum): at
    [T >= N] the chord on [[0, N]] ([Divergence.chord_class_upper] at [T0 = N]). *)
Lemma cmean_le_N N K x cls :
  table N K x -> forall i l, (i < N)%nat -> (l < K)%nat -> cmean N x cls i l <= INR N * tmean N x l.
Proof.
  intros Htab i l Hi Hl.
  assert (HN : 0 < INR N) by (apply lt_0_INR; lia).
  assert (Hc : 1 <= card N (classof cls i)) by (apply class_self_pos; exact Hi).
  assert (Hnn : forall j, (j < N)%nat -> 0 <= col x l j) by (intros j Hj; destruct Htab as [Hn _]; apply Hn; auto).
  pose proof (sumS_le_sum N (classof cls i) (col x l) Hnn) as Hs.
  pose proof (sumS_nonneg N (classof cls i) (col x l) Hnn) as H0.
  unfold cmean, tmean.
  replace (INR N * (sum N (col x l) / INR N)) with (sum N (col x l)) by (field; lra).
  apply Rle_trans with (sumS N (classof cls i) (col x l)); [| exact Hs].
  apply Rmult_le_reg_r with (card N (classof cls i)); [lra|].
  replace (sumS N (classof cls i) (col x l) / card N (classof cls i) * card N (classof cls i))
    with (sumS N (classof cls i) (col x l)) by (field; lra). nra.
Qed.

(** * Record removal (a two-sided subset level of size [N - 1]) at [N = 2] against a class divergence: the chord on
    [[1/T, 2 - 1/T]] (implgraph.prover.removal_record_class, the piece [N <= 2]; the certify lemma
    implgraph.certify.lemmas.chord).

    At [N = 2] removing one record leaves the other: the level of size [N - 1] is the level of size 1, each record
    within [[1/T, T]] of the table, and a record's ratio is [2] minus the other's, so at most [2 - 1/T]
    ([chord_record_class] at [N = 2], whose narrowed end [N - (N - 1)/T] is [2 - 1/T]). *)
Theorem chord_removal_two k N K x cls T lo hi U :
  table N K x -> subset_le TwoSided N K x (INR N - 1) T -> 2 <= INR N -> INR N <= 2 -> 0 < T ->
  lo <= 1 / T -> 2 - 1 / T <= hi -> lo < hi ->
  below_chord (phi_of k) lo hi -> chord_val (phi_of k) lo hi <= dbound k U -> div_class_le k N K x cls U.
Proof.
  intros Htab HA HN2 HN2' HT Hlo Hhi Hlh Hc HU.
  assert (E2 : INR N = 2) by lra.
  replace (INR N - 1) with 1 in HA by lra.
  apply (chord_record_class k N K x cls T lo hi U Htab HA HN2 HT Hlo); auto.
  rewrite E2. replace (2 - (2 - 1) / T) with (2 - 1 / T) by (field; lra). exact Hhi.
Qed.

(** * A one-sided class level on B's partition (each class's mean at most [T] times the table's: basic beta-likeness)
    against a class divergence: the chord on [[N - (N - 1) T, T]] where [T < N/(N - 1)], on [[0, N]] where [T > N]
    (implgraph.prover.removal_record_class; the certify lemma implgraph.certify.lemmas.chord).

    The records outside a class [C] of [c] records are a union of classes, each of mean at most [T P]: their sum is at
    most [(N - c) T P] ([sumS_class_means]), so [C]'s mean, [(N P - rest)/c], is at least
    [(N - (N - c) T) P/c >= (N - (N - 1) T) P] (the gap is [N (c - 1)(T - 1) P/c >= 0]: [oneclass_low]). With the
    level's own upper end [T] B is at most the chord of phi on any [[lo, hi]] around [[N - (N - 1) T, T]]
    ([chord_oneclass_low]); at [T = 1] every class's mean is the table's ([oneclass_one]); beyond [T = N] the chord
    on [[0, N]] ([cmean_le_N], every table). *)
Lemma oneclass_low N K x cls T i l :
  table N K x -> class_le OneSided N K x cls T -> 1 <= T -> (i < N)%nat -> (l < K)%nat ->
  (INR N - (INR N - 1) * T) * tmean N x l <= cmean N x cls i l.
Proof.
  intros Htab HA HT Hi Hl.
  assert (HN : 0 < INR N) by (apply lt_0_INR; lia).
  set (C := classof cls i).
  assert (Hc : 1 <= card N C) by (apply class_self_pos; exact Hi).
  assert (Htm : 0 <= tmean N x l) by (apply (tmean_nonneg N K); auto).
  assert (Hclosed : forall j k, (j < N)%nat -> (k < N)%nat -> cls j = cls k -> compl C j = compl C k)
    by (intros j k _ _ E; unfold compl, C, classof; rewrite E; reflexivity).
  assert (Hrest : sumS N (compl C) (col x l) <= (INR N - card N C) * (T * tmean N x l)).
  { rewrite <- (sumS_class_means N x cls (compl C) l Hclosed), <- card_compl, Rmult_comm, <- sumS_const.
    apply sumS_le. intros j Hj _. exact (oneclass_upper N K x cls T HA j l Hj Hl). }
  pose proof (sumS_split N C (col x l)) as Hsplit.
  assert (Hsum : sum N (col x l) = INR N * tmean N x l) by (unfold tmean; field; lra).
  unfold cmean. fold C.
  apply Rmult_le_reg_r with (card N C); [lra|].
  replace (sumS N C (col x l) / card N C * card N C) with (sumS N C (col x l)) by (field; lra).
  assert (Hgap : 0 <= INR N * (card N C - 1) * (T - 1) * tmean N x l).
  { apply Rmult_le_pos; [apply Rmult_le_pos; [apply Rmult_le_pos; lra |] | exact Htm]. lra. }
  assert (E : (INR N - (INR N - 1) * T) * tmean N x l * card N C
              = INR N * tmean N x l - (INR N - card N C) * (T * tmean N x l)
                - INR N * (card N C - 1) * (T - 1) * tmean N x l) by ring.
  rewrite E. lra.
Qed.

Theorem chord_oneclass_low k N K x cls T lo hi U :
  table N K x -> class_le OneSided N K x cls T -> 2 <= INR N -> 1 <= T ->
  lo <= INR N - (INR N - 1) * T -> T <= hi -> lo < hi ->
  below_chord (phi_of k) lo hi -> chord_val (phi_of k) lo hi <= dbound k U -> div_class_le k N K x cls U.
Proof.
  intros Htab HA HN HT Hlo Hhi Hlh Hc HU i Hi.
  assert (HN0 : (0 < N)%nat) by (apply INR_lt; simpl; lra).
  apply (chord_between k K _ _ lo hi U); auto.
  - intros l Hl. apply (tmean_nonneg N K); auto.
  - apply (tmean_sum N K); auto.
  - apply (cmean_sum N K); auto.
  - intros l Hl. pose proof (tmean_nonneg N K x l Htab Hl) as HP.
    pose proof (oneclass_low N K x cls T i l Htab HA HT Hi Hl) as H1.
    pose proof (oneclass_upper N K x cls T HA i l Hi Hl) as H2.
    split; nra.
Qed.

Theorem oneclass_one k N K x cls U :
  table N K x -> class_le OneSided N K x cls 1 -> 2 <= INR N -> phi_of k 1 <= dbound k U -> div_class_le k N K x cls U.
Proof.
  intros Htab HA HN2 H1 i Hi.
  assert (HN : (0 < N)%nat) by (destruct N; [simpl in HN2; lra | lia]).
  assert (E : forall l, (l < K)%nat -> cmean N x cls i l = tmean N x l).
  { intros l Hl. pose proof (oneclass_low N K x cls 1 i l Htab HA ltac:(lra) Hi Hl) as A.
    pose proof (oneclass_upper N K x cls 1 HA i l Hi Hl) as B. nra. }
  split.
  - intros l Hl Z. rewrite E by exact Hl. exact Z.
  - rewrite (fdiv_same K _ _ _ E (tmean_sum N K x Htab HN)). exact H1.
Qed.
