(** Tightness families of two blocks: the first [n1] records all [(v1, 1 - v1)], the others all [(v2, 1 - v2)], in
    two classes (the blocks) where a side has classes. On such a table every level kind of the library is a handful
    of inequalities in [n1], [v1], [v2] (a set of records is described by how many of the first block it holds, and
    a constraint linear in that number holds on an interval where it holds at both ends), and a level equal to [U] is
    one constraint attaining [U]: then no [U' < U] bounds it. The generated tightness theorems state, for every value
    of the symbols in the certificate's domain, that the family is a table, satisfies A at T, and that B's level on
    it is not below U (with the certificate's theorem, B's level is U: the bound is attained). *)
From Coq Require Import Reals Lra Lia Bool.
From Implgraph Require Import Sums Tables Tactics Events Columns Extreme MaxValue.
Open Scope R_scope.

Definition inb (n : R) : rset := fun i => if Rlt_dec (INR i) n then true else false.
Definition wv (b : nat) (v : R) : R := if Nat.eqb b 0 then v else 1 - v.
Definition bval (n1 v1 v2 : R) (i : nat) : R := if Rlt_dec (INR i) n1 then v1 else v2.
Definition blk (n1 v1 v2 : R) : nat -> nat -> R := fun i b => wv b (bval n1 v1 v2 i).
Definition bcls (n1 : R) : nat -> nat := fun i => if Rlt_dec (INR i) n1 then 0%nat else 1%nat.
Definition meet (S X : rset) : rset := fun i => S i && X i.

Lemma cnt_inb N m : cnt N (inb (INR m)) = Nat.min N m.
Proof.
  induction N as [|N IH]; [reflexivity|]. cbn [cnt]. rewrite IH. unfold inb.
  destruct (Rlt_dec (INR N) (INR m)) as [H|H].
  - apply INR_lt in H. lia.
  - assert (~ (N < m)%nat) by (intro H'; apply H, lt_INR, H'). lia.
Qed.

Lemma card_inb N n : IsNat n -> n <= INR N -> card N (inb n) = n.
Proof. intros [m <-] Hm. apply INR_le in Hm. rewrite card_cnt, cnt_inb. f_equal. lia. Qed.

Lemma card_split N S X : card N S = card N (meet S X) + card N (meet S (compl X)).
Proof.
  unfold card, sumS, meet, compl. rewrite <- sum_plus. apply sum_ext. intros i _.
  destruct (S i), (X i); simpl; ring.
Qed.

Lemma sumS_two N S n1 a1 a2 :
  sumS N S (fun i => if Rlt_dec (INR i) n1 then a1 else a2) =
  card N (meet S (inb n1)) * a1 + card N (meet S (compl (inb n1))) * a2.
Proof.
  unfold card, sumS, meet, compl, inb. rewrite Rmult_comm, <- sum_scal, (Rmult_comm _ a2), <- sum_scal, <- sum_plus.
  apply sum_ext. intros i _. destruct (S i), (Rlt_dec (INR i) n1); simpl; ring.
Qed.

Lemma col_blk n1 v1 v2 b : col (blk n1 v1 v2) b = fun i => if Rlt_dec (INR i) n1 then wv b v1 else wv b v2.
Proof. unfold col, blk, bval. apply FunctionalExtensionality.functional_extensionality. intro i. destruct (Rlt_dec _ _); reflexivity. Qed.

Lemma blk_table N n1 v1 v2 : 0 <= v1 <= 1 -> 0 <= v2 <= 1 -> table N 2 (blk n1 v1 v2).
Proof.
  intros H1 H2. split.
  - intros i b _ Hb. unfold blk, wv, bval. destruct (Nat.eqb b 0), (Rlt_dec _ _); lra.
  - intros i _. simpl. unfold blk, wv, bval. simpl. destruct (Rlt_dec _ _); ring.
Qed.

(** The sums of a bucket: the table's, a block's, a set's. *)
Definition bsum (N : nat) (n1 w1 w2 : R) : R := n1 * w1 + (INR N - n1) * w2.

Lemma sum_blk N n1 v1 v2 b : IsNat n1 -> n1 <= INR N -> sum N (col (blk n1 v1 v2) b) = bsum N n1 (wv b v1) (wv b v2).
Proof.
  intros Hn Hle. rewrite col_blk. change (sum N ?f) with (sumS N (fun _ => true) f). rewrite sumS_two.
  unfold bsum. pose proof (card_split N (fun _ => true) (inb n1)) as H. rewrite card_all in H.
  replace (meet (fun _ => true) (inb n1)) with (inb n1) in * by reflexivity.
  rewrite card_inb in * by auto. replace (card N (meet (fun _ => true) (compl (inb n1)))) with (INR N - n1) by lra.
  reflexivity.
Qed.

Lemma classof_first n1 i k : INR i < n1 -> classof (bcls n1) i k = inb n1 k.
Proof.
  intro Hi. unfold classof, bcls, inb. destruct (Rlt_dec (INR i) n1) as [_|H]; [|lra].
  destruct (Rlt_dec (INR k) n1); reflexivity.
Qed.

Lemma classof_second n1 i k : ~ INR i < n1 -> classof (bcls n1) i k = compl (inb n1) k.
Proof.
  intro Hi. unfold classof, bcls, inb, compl. destruct (Rlt_dec (INR i) n1) as [H|_]; [lra|].
  destruct (Rlt_dec (INR k) n1); reflexivity.
Qed.

Lemma sumS_ext_fun N S X f : (forall k, S k = X k) -> sumS N S f = sumS N X f.
Proof. intro H. unfold sumS. apply sum_ext. intros k _. rewrite H. reflexivity. Qed.

Lemma card_ext N S X : (forall k, S k = X k) -> card N S = card N X.
Proof. apply sumS_ext_fun. Qed.

(** A block's sum and size. *)
Lemma block_first N n1 v1 v2 b i : IsNat n1 -> n1 <= INR N -> INR i < n1 ->
  card N (classof (bcls n1) i) = n1 /\ sumS N (classof (bcls n1) i) (col (blk n1 v1 v2) b) = n1 * wv b v1.
Proof.
  intros Hn Hle Hi. rewrite (card_ext N _ (inb n1)) by (intro; apply classof_first; auto).
  rewrite (sumS_ext_fun N _ (inb n1)) by (intro; apply classof_first; auto). rewrite card_inb by auto.
  split; [reflexivity|]. rewrite col_blk, sumS_two.
  rewrite (card_ext N (meet (inb n1) (inb n1)) (inb n1)) by (intro k; unfold meet; destruct (inb n1 k); reflexivity).
  rewrite (card_ext N (meet (inb n1) (compl (inb n1))) (fun _ => false))
    by (intro k; unfold meet, compl; destruct (inb n1 k); reflexivity).
  rewrite card_inb by auto. unfold card. rewrite sumS_none. ring.
Qed.

Lemma block_second N n1 v1 v2 b i : IsNat n1 -> n1 <= INR N -> ~ INR i < n1 ->
  card N (classof (bcls n1) i) = INR N - n1 /\
  sumS N (classof (bcls n1) i) (col (blk n1 v1 v2) b) = (INR N - n1) * wv b v2.
Proof.
  intros Hn Hle Hi. rewrite (card_ext N _ (compl (inb n1))) by (intro; apply classof_second; auto).
  rewrite (sumS_ext_fun N _ (compl (inb n1))) by (intro; apply classof_second; auto).
  rewrite card_compl, card_inb by auto. split; [reflexivity|]. rewrite col_blk, sumS_two.
  rewrite (card_ext N (meet (compl (inb n1)) (inb n1)) (fun _ => false))
    by (intro k; unfold meet, compl; destruct (inb n1 k); reflexivity).
  rewrite (card_ext N (meet (compl (inb n1)) (compl (inb n1))) (compl (inb n1)))
    by (intro k; unfold meet; destruct (compl (inb n1) k); reflexivity).
  rewrite card_compl, card_inb by auto. unfold card at 1. rewrite sumS_none. ring.
Qed.

(** * The levels of A on the family *)
Lemma blk_partition N n1 s : IsNat n1 -> 0 < n1 -> n1 < INR N -> s <= n1 -> s <= INR N - n1 -> partition N (bcls n1) s.
Proof.
  intros Hn H0 HN Hs1 Hs2. assert (HN0 : (0 < N)%nat) by (apply INR_lt; simpl; lra).
  destruct Hn as [m Hm].
  assert (Hlast : ~ INR (N - 1) < n1).
  { rewrite minus_INR by lia. simpl. rewrite <- Hm in *. intro H. assert (m < N)%nat by (apply INR_lt; lra).
    assert (INR (N - 1) < INR m) by (rewrite minus_INR by lia; simpl; lra). apply INR_lt in H2. lia. }
  split.
  - intros i Hi. destruct (Rlt_dec (INR i) n1) as [H|H].
    + rewrite (proj1 (block_first N n1 0 0 0 i ltac:(exists m; auto) ltac:(lra) H)). lra.
    + rewrite (proj1 (block_second N n1 0 0 0 i ltac:(exists m; auto) ltac:(lra) H)). lra.
  - exists 0%nat, (N - 1)%nat. repeat split; try lia. unfold bcls.
    destruct (Rlt_dec (INR 0) n1) as [_|H]; [|simpl in H; lra].
    destruct (Rlt_dec (INR (N - 1)) n1) as [H|_]; [contradiction|]. discriminate.
Qed.

Lemma blk_class_size N n1 T : IsNat n1 -> 0 < n1 -> n1 < INR N -> T <= n1 -> T <= INR N - n1 ->
  class_size_ge N (bcls n1) T.
Proof.
  intros Hn H0 HN H1 H2 i Hi. destruct (Rlt_dec (INR i) n1) as [H|H].
  - rewrite (proj1 (block_first N n1 0 0 0 i Hn ltac:(lra) H)). lra.
  - rewrite (proj1 (block_second N n1 0 0 0 i Hn ltac:(lra) H)). lra.
Qed.

Lemma blk_pairwise N n1 v1 v2 T :
  0 <= v1 <= 1 -> 0 <= v2 <= 1 -> 1 <= T -> v1 <= T * v2 -> v2 <= T * v1 -> 1 - v1 <= T * (1 - v2) ->
  1 - v2 <= T * (1 - v1) -> pairwise_le N 2 (blk n1 v1 v2) T.
Proof.
  intros H1 H2 HT A1 A2 A3 A4 b i k Hb Hi Hk. unfold blk, wv, bval.
  destruct (Nat.eqb b 0), (Rlt_dec (INR i) n1), (Rlt_dec (INR k) n1); nra.
Qed.

(** A class level: both blocks against the table, in both buckets. *)
Definition class_cond (N : nat) (n1 w1 w2 T : R) (two : bool) : Prop :=
  INR N * w1 <= T * bsum N n1 w1 w2 /\ INR N * w2 <= T * bsum N n1 w1 w2 /\
  (two = true -> bsum N n1 w1 w2 <= T * (INR N * w1) /\ bsum N n1 w1 w2 <= T * (INR N * w2)).

Definition two_sided (sd : sides) : bool := match sd with TwoSided => true | OneSided => false end.

Lemma blk_class sd N n1 v1 v2 T : IsNat n1 -> 0 < n1 -> n1 < INR N ->
  class_cond N n1 v1 v2 T (two_sided sd) -> class_cond N n1 (1 - v1) (1 - v2) T (two_sided sd) ->
  class_le sd N 2 (blk n1 v1 v2) (bcls n1) T.
Proof.
  intros Hn H0 HN C0 C1 b i Hb Hi. unfold ratio_ok, upper_ok, lower_ok.
  rewrite (sum_blk N n1 v1 v2 b Hn ltac:(lra)).
  assert (Hc : class_cond N n1 (wv b v1) (wv b v2) T (two_sided sd)).
  { unfold wv. destruct b as [|[|b]]; [exact C0|exact C1|lia]. }
  destruct Hc as [U1 [U2 L]].
  destruct (Rlt_dec (INR i) n1) as [H|H].
  - destruct (block_first N n1 v1 v2 b i Hn ltac:(lra) H) as [-> ->]. split.
    + nra.
    + intro Hsd. subst sd. destruct (L eq_refl) as [L1 _]. nra.
  - destruct (block_second N n1 v1 v2 b i Hn ltac:(lra) H) as [-> ->]. split.
    + nra.
    + intro Hsd. subst sd. destruct (L eq_refl) as [_ L2]. nra.
Qed.

(** The total variation distance: a block's distance on either bucket. *)
Definition tv_cond (N : nat) (n1 v1 v2 T : R) : Prop :=
  INR N * v1 - bsum N n1 v1 v2 <= T * INR N /\ bsum N n1 v1 v2 - INR N * v1 <= T * INR N /\
  INR N * v2 - bsum N n1 v1 v2 <= T * INR N /\ bsum N n1 v1 v2 - INR N * v2 <= T * INR N.

Lemma sumS_two_buckets (E : rset) (f : nat -> R) :
  sumS 2 E f = (if E 0%nat then f 0%nat else 0) + (if E 1%nat then f 1%nat else 0).
Proof. unfold sumS. simpl. ring. Qed.

Lemma blk_tv N n1 v1 v2 T : IsNat n1 -> 0 < n1 -> n1 < INR N -> 0 <= T -> tv_cond N n1 v1 v2 T ->
  tv_le N 2 (blk n1 v1 v2) (bcls n1) T.
Proof.
  intros Hn H0 HN HT [C1 [C2 [C3 C4]]] i E Hi. unfold mass. rewrite !sumS_two_buckets.
  assert (HNp : 0 < INR N) by lra.
  rewrite !(sum_blk N n1 v1 v2) by (auto; lra). unfold wv. simpl.
  destruct (Rlt_dec (INR i) n1) as [H|H].
  - destruct (block_first N n1 v1 v2 0 i Hn ltac:(lra) H) as [Hc Hs0].
    destruct (block_first N n1 v1 v2 1 i Hn ltac:(lra) H) as [_ Hs1]. rewrite Hc, Hs0, Hs1. unfold wv. simpl.
    unfold bsum in *.
    replace (n1 * v1 / n1) with v1 by (field; lra). replace (n1 * (1 - v1) / n1) with (1 - v1) by (field; lra).
    set (D := n1 * v1 + (INR N - n1) * v2) in *.
    replace (n1 * (1 - v1) + (INR N - n1) * (1 - v2)) with (INR N - D) by (unfold D; ring).
    assert (Ha : v1 - D / INR N <= T) by (apply Rmult_le_reg_r with (INR N); [lra|];
      replace ((v1 - D / INR N) * INR N) with (INR N * v1 - D) by (field; lra); lra).
    assert (Hb : D / INR N - v1 <= T) by (apply Rmult_le_reg_r with (INR N); [lra|];
      replace ((D / INR N - v1) * INR N) with (D - INR N * v1) by (field; lra); lra).
    replace ((INR N - D) / INR N) with (1 - D / INR N) by (field; lra).
    destruct (E 0%nat), (E 1%nat); lra_div.
  - destruct (block_second N n1 v1 v2 0 i Hn ltac:(lra) H) as [Hc Hs0].
    destruct (block_second N n1 v1 v2 1 i Hn ltac:(lra) H) as [_ Hs1]. rewrite Hc, Hs0, Hs1. unfold wv. simpl.
    unfold bsum in *.
    replace ((INR N - n1) * v2 / (INR N - n1)) with v2 by (field; lra).
    replace ((INR N - n1) * (1 - v2) / (INR N - n1)) with (1 - v2) by (field; lra).
    set (D := n1 * v1 + (INR N - n1) * v2) in *.
    replace (n1 * (1 - v1) + (INR N - n1) * (1 - v2)) with (INR N - D) by (unfold D; ring).
    assert (Ha : v2 - D / INR N <= T) by (apply Rmult_le_reg_r with (INR N); [lra|];
      replace ((v2 - D / INR N) * INR N) with (INR N * v2 - D) by (field; lra); lra).
    assert (Hb : D / INR N - v2 <= T) by (apply Rmult_le_reg_r with (INR N); [lra|];
      replace ((D / INR N - v2) * INR N) with (D - INR N * v2) by (field; lra); lra).
    replace ((INR N - D) / INR N) with (1 - D / INR N) by (field; lra).
    destruct (E 0%nat), (E 1%nat); lra_div.
Qed.

(** A subset level of size [j]: a set holds [a] records of the first block, [lo <= a <= hi]. *)
Definition sub_cond (N : nat) (j a w1 w2 D T : R) (two : bool) : Prop :=
  INR N * (a * w1 + (j - a) * w2) <= T * (j * D) /\ (two = true -> j * D <= T * (INR N * (a * w1 + (j - a) * w2))).

Lemma affine_between c0 c1 lo hi a : lo <= a <= hi -> 0 <= c0 + c1 * lo -> 0 <= c0 + c1 * hi -> 0 <= c0 + c1 * a.
Proof. intros [H1 H2] A B. destruct (Rle_dec 0 c1); nra. Qed.

Lemma blk_subset sd N n1 v1 v2 j T : IsNat n1 -> n1 <= INR N ->
  (forall b, (b < 2)%nat -> forall a, a = Rmax 0 (j - (INR N - n1)) \/ a = Rmin j n1 ->
     sub_cond N j a (wv b v1) (wv b v2) (bsum N n1 (wv b v1) (wv b v2)) T (two_sided sd)) ->
  subset_le sd N 2 (blk n1 v1 v2) j T.
Proof.
  intros Hn HN C b S Hb HS. unfold ratio_ok, upper_ok, lower_ok.
  rewrite (sum_blk N n1 v1 v2 b Hn HN). rewrite col_blk, sumS_two.
  set (a := card N (meet S (inb n1))).
  assert (Hrest : card N (meet S (compl (inb n1))) = j - a) by (rewrite <- HS, (card_split N S (inb n1)); unfold a; ring).
  rewrite Hrest.
  assert (Ha0 : 0 <= a) by apply card_nonneg.
  assert (Hc1 : card N (inb n1) = n1) by (apply card_inb; auto).
  assert (Hc2 : card N (compl (inb n1)) = INR N - n1) by (rewrite card_compl, Hc1; ring).
  assert (Ha1 : a <= n1) by (rewrite <- Hc1; apply card_mono; intros k _ Hk;
    unfold meet in Hk; apply andb_prop in Hk; tauto).
  assert (Ha2 : a <= j) by (rewrite <- HS; apply card_mono; intros k _ Hk; unfold meet in Hk; apply andb_prop in Hk; tauto).
  assert (Ha3 : j - a <= INR N - n1).
  { rewrite <- Hrest, <- Hc2. apply card_mono. intros k _ Hk.
    unfold meet in Hk. apply andb_prop in Hk. tauto. }
  assert (Hlo : Rmax 0 (j - (INR N - n1)) <= a) by (unfold Rmax; destruct (Rle_dec _ _); lra).
  assert (Hhi : a <= Rmin j n1) by (unfold Rmin; destruct (Rle_dec _ _); lra).
  destruct (C b Hb _ (or_introl eq_refl)) as [U1 L1]. destruct (C b Hb _ (or_intror eq_refl)) as [U2 L2].
  set (w1 := wv b v1) in *. set (w2 := wv b v2) in *. set (D := bsum N n1 w1 w2) in *.
  set (lo := Rmax 0 (j - (INR N - n1))) in *. set (hi := Rmin j n1) in *.
  split.
  - assert (0 <= (T * (j * D) - INR N * j * w2) + (INR N * (w2 - w1)) * a).
    { apply (affine_between _ _ lo hi); [lra| |]; nra. }
    nra.
  - intro Hsd. specialize (L1 (f_equal two_sided Hsd)). specialize (L2 (f_equal two_sided Hsd)).
    assert (0 <= (T * INR N * j * w2 - j * D) + (T * INR N * (w1 - w2)) * a).
    { apply (affine_between _ _ lo hi); [lra| |]; nra. }
    nra.
Qed.

(** * B's level is not below U: one constraint attains U. *)
Lemma class_reach sd N K x cls U b i :
  (b < K)%nat -> (i < N)%nat -> 0 < card N (classof cls i) * sum N (col x b) ->
  INR N * sumS N (classof cls i) (col x b) = U * (card N (classof cls i) * sum N (col x b)) ->
  forall U', U' < U -> ~ class_le sd N K x cls U'.
Proof.
  intros Hb Hi Hpos Heq U' HU H. destruct (H b i Hb Hi) as [Hu _]. unfold upper_ok in Hu. rewrite Heq in Hu. nra.
Qed.

Lemma class_reach_low N K x cls U b i :
  (b < K)%nat -> (i < N)%nat -> 0 < INR N * sumS N (classof cls i) (col x b) ->
  card N (classof cls i) * sum N (col x b) = U * (INR N * sumS N (classof cls i) (col x b)) ->
  forall U', U' < U -> ~ class_le TwoSided N K x cls U'.
Proof.
  intros Hb Hi Hpos Heq U' HU H. destruct (H b i Hb Hi) as [_ Hl]. specialize (Hl eq_refl). unfold lower_ok in Hl.
  rewrite Heq in Hl. nra.
Qed.

(** The blocks' records: record 0 in the first block, record N - 1 in the second. *)
Lemma first_record n1 : 0 < n1 -> INR 0 < n1.
Proof. simpl. auto. Qed.

Lemma last_record N n1 : IsNat n1 -> n1 < INR N -> ~ INR (N - 1) < n1.
Proof.
  intros [m <-] HN H. assert (m < N)%nat by (apply INR_lt; auto). apply INR_lt in H. lia.
Qed.

Lemma last_lt N n1 : 0 <= n1 -> n1 < INR N -> (N - 1 < N)%nat.
Proof. intros H0 H. assert (0 < N)%nat by (apply INR_lt; simpl; lra). lia. Qed.

(** A block's ratio against the table attains U (upper: the block's mean over the table's; lower: the inverse). *)
Lemma blk_class_reach sd N n1 v1 v2 U (first : bool) b : IsNat n1 -> 0 < n1 -> n1 < INR N -> (b < 2)%nat ->
  0 < bsum N n1 (wv b v1) (wv b v2) ->
  INR N * (if first then wv b v1 else wv b v2) = U * bsum N n1 (wv b v1) (wv b v2) ->
  forall U', U' < U -> ~ class_le sd N 2 (blk n1 v1 v2) (bcls n1) U'.
Proof.
  intros Hn H0 HN Hb Hpos Heq. assert (HNr : 0 < INR N) by lra.
  destruct first; simpl in Hpos, Heq.
  - destruct (block_first N n1 v1 v2 b 0 Hn ltac:(lra) (first_record n1 H0)) as [Hc Hs].
    apply (class_reach sd N 2 _ _ U b 0); [auto|apply INR_lt; simpl; lra| |].
    + rewrite Hc, sum_blk by (auto; lra). nra.
    + rewrite Hc, Hs, sum_blk by (auto; lra).
      replace (INR N * (n1 * wv b v1)) with (n1 * (INR N * wv b v1)) by ring. rewrite Heq. ring.
  - destruct (block_second N n1 v1 v2 b (N - 1) Hn ltac:(lra) (last_record N n1 Hn HN)) as [Hc Hs].
    apply (class_reach sd N 2 _ _ U b (N - 1)); [auto|apply (last_lt N n1); lra| |].
    + rewrite Hc, sum_blk by (auto; lra). nra.
    + rewrite Hc, Hs, sum_blk by (auto; lra).
      replace (INR N * ((INR N - n1) * wv b v2)) with ((INR N - n1) * (INR N * wv b v2)) by ring. rewrite Heq. ring.
Qed.

Lemma blk_class_reach_low N n1 v1 v2 U (first : bool) b : IsNat n1 -> 0 < n1 -> n1 < INR N -> (b < 2)%nat ->
  0 < (if first then wv b v1 else wv b v2) ->
  bsum N n1 (wv b v1) (wv b v2) = U * (INR N * (if first then wv b v1 else wv b v2)) ->
  forall U', U' < U -> ~ class_le TwoSided N 2 (blk n1 v1 v2) (bcls n1) U'.
Proof.
  intros Hn H0 HN Hb Hpos Heq. assert (HNr : 0 < INR N) by lra.
  destruct first; simpl in Hpos, Heq.
  - destruct (block_first N n1 v1 v2 b 0 Hn ltac:(lra) (first_record n1 H0)) as [Hc Hs].
    apply (class_reach_low N 2 _ _ U b 0); [auto|apply INR_lt; simpl; lra| |].
    + rewrite Hs. apply Rmult_lt_0_compat; [lra|]. apply Rmult_lt_0_compat; lra.
    + rewrite Hc, Hs, sum_blk by (auto; lra). rewrite Heq. ring.
  - destruct (block_second N n1 v1 v2 b (N - 1) Hn ltac:(lra) (last_record N n1 Hn HN)) as [Hc Hs].
    apply (class_reach_low N 2 _ _ U b (N - 1)); [auto|apply (last_lt N n1); lra| |].
    + rewrite Hs. apply Rmult_lt_0_compat; [lra|]. apply Rmult_lt_0_compat; lra.
    + rewrite Hc, Hs, sum_blk by (auto; lra). rewrite Heq. ring.
Qed.

(** A block's total variation distance on an event of one bucket attains U. *)
Lemma blk_tv_reach N n1 v1 v2 U (first : bool) (up : bool) : IsNat n1 -> 0 < n1 -> n1 < INR N ->
  (if up then INR N * (if first then v1 else v2) - bsum N n1 v1 v2
   else bsum N n1 v1 v2 - INR N * (if first then v1 else v2)) = U * INR N ->
  forall U', U' < U -> ~ tv_le N 2 (blk n1 v1 v2) (bcls n1) U'.
Proof.
  intros Hn H0 HN Heq U' HU H. assert (HNr : 0 < INR N) by lra.
  set (i := if first then 0%nat else (N - 1)%nat).
  assert (Hi : (i < N)%nat) by (unfold i; destruct first; [apply INR_lt; simpl; lra|apply (last_lt N n1); lra]).
  specialize (H i (fun b => Nat.eqb b (if up then 0 else 1)) Hi). unfold mass in H. rewrite !sumS_two_buckets in H.
  rewrite !(sum_blk N n1 v1 v2) in H by (auto; lra).
  destruct first.
  - destruct (block_first N n1 v1 v2 0 i Hn ltac:(lra) (first_record n1 H0)) as [Hc Hs0].
    destruct (block_first N n1 v1 v2 1 i Hn ltac:(lra) (first_record n1 H0)) as [_ Hs1].
    rewrite Hc, Hs0, Hs1 in H. unfold wv, bsum in *. simpl in H.
    destruct up; simpl in H.
    + replace (n1 * v1 / n1 + 0 - (((n1 * v1 + (INR N - n1) * v2) / INR N) + 0)) with
        ((INR N * v1 - (n1 * v1 + (INR N - n1) * v2)) / INR N) in H by (field; lra).
      rewrite Heq in H. replace (U * INR N / INR N) with U in H by (field; lra). lra.
    + replace (0 + n1 * (1 - v1) / n1 - (0 + (n1 * (1 - v1) + (INR N - n1) * (1 - v2)) / INR N)) with
        ((n1 * v1 + (INR N - n1) * v2 - INR N * v1) / INR N) in H by (field; lra).
      rewrite Heq in H. replace (U * INR N / INR N) with U in H by (field; lra). lra.
  - destruct (block_second N n1 v1 v2 0 i Hn ltac:(lra) (last_record N n1 Hn HN)) as [Hc Hs0].
    destruct (block_second N n1 v1 v2 1 i Hn ltac:(lra) (last_record N n1 Hn HN)) as [_ Hs1].
    rewrite Hc, Hs0, Hs1 in H. unfold wv, bsum in *. simpl in H.
    destruct up; simpl in H.
    + replace ((INR N - n1) * v2 / (INR N - n1) + 0 - (((n1 * v1 + (INR N - n1) * v2) / INR N) + 0)) with
        ((INR N * v2 - (n1 * v1 + (INR N - n1) * v2)) / INR N) in H by (field; lra).
      rewrite Heq in H. replace (U * INR N / INR N) with U in H by (field; lra). lra.
    + replace (0 + (INR N - n1) * (1 - v2) / (INR N - n1) - (0 + (n1 * (1 - v1) + (INR N - n1) * (1 - v2)) / INR N))
        with ((n1 * v1 + (INR N - n1) * v2 - INR N * v2) / INR N) in H by (field; lra).
      rewrite Heq in H. replace (U * INR N / INR N) with U in H by (field; lra). lra.
Qed.

(** Two records of different blocks in one bucket attain the pairwise ratio U. *)
Lemma blk_pairwise_reach N n1 v1 v2 U (first : bool) b : IsNat n1 -> 0 < n1 -> n1 < INR N -> (b < 2)%nat ->
  0 < (if first then wv b v2 else wv b v1) ->
  (if first then wv b v1 else wv b v2) = U * (if first then wv b v2 else wv b v1) ->
  forall U', U' < U -> ~ pairwise_le N 2 (blk n1 v1 v2) U'.
Proof.
  intros Hn H0 HN Hb Hpos Heq U' HU H.
  assert (H1 : (0 < N)%nat) by (apply INR_lt; simpl; lra).
  pose proof (first_record n1 H0) as F. pose proof (last_record N n1 Hn HN) as L.
  destruct first; simpl in Hpos, Heq.
  - specialize (H b 0%nat (N - 1)%nat Hb H1 ltac:(lia)). unfold blk, bval in H.
    destruct (Rlt_dec (INR 0) n1) as [_|C]; [|contradiction]. destruct (Rlt_dec (INR (N - 1)) n1) as [C|_]; [contradiction|].
    rewrite Heq in H. nra.
  - specialize (H b (N - 1)%nat 0%nat Hb ltac:(lia) H1). unfold blk, bval in H.
    destruct (Rlt_dec (INR 0) n1) as [_|C]; [|contradiction]. destruct (Rlt_dec (INR (N - 1)) n1) as [C|_]; [contradiction|].
    rewrite Heq in H. nra.
Qed.

(** A set of [j] records attains U: the first [j] (holding [Rmin j n1] of the first block) or the last [j]. *)
Lemma meet_inb j n1 : forall k, meet (inb j) (inb n1) k = inb (Rmin j n1) k.
Proof.
  intro k. unfold meet, inb. destruct (Rlt_dec (INR k) j) as [H1|H1], (Rlt_dec (INR k) n1) as [H2|H2];
    destruct (Rlt_dec (INR k) (Rmin j n1)) as [H3|H3]; simpl; auto; exfalso;
    unfold Rmin in H3; destruct (Rle_dec j n1); lra.
Qed.

Definition first_set (j : R) : rset := inb j.
Definition last_set (N : nat) (j : R) : rset := compl (inb (INR N - j)).

Lemma blk_subset_sum N n1 v1 v2 j b S a : IsNat n1 -> n1 <= INR N -> card N S = j -> card N (meet S (inb n1)) = a ->
  sumS N S (col (blk n1 v1 v2) b) = a * wv b v1 + (j - a) * wv b v2.
Proof.
  intros Hn HN HS Ha. rewrite col_blk, sumS_two, Ha.
  pose proof (card_split N S (inb n1)) as H. rewrite Ha, HS in H. replace (card N (meet S (compl (inb n1)))) with (j - a)
    by lra. reflexivity.
Qed.

Lemma blk_subset_first N n1 j : IsNat n1 -> IsNat j -> n1 <= INR N -> j <= INR N ->
  card N (first_set j) = j /\ card N (meet (first_set j) (inb n1)) = Rmin j n1.
Proof.
  intros Hn Hj H1 H2. unfold first_set. split; [apply card_inb; auto|].
  rewrite (card_ext N _ (inb (Rmin j n1))) by apply meet_inb. apply card_inb.
  - unfold Rmin; destruct (Rle_dec j n1); auto.
  - unfold Rmin; destruct (Rle_dec j n1); lra.
Qed.

Lemma blk_subset_last N n1 j : IsNat n1 -> IsNat j -> n1 <= INR N -> j <= INR N ->
  card N (last_set N j) = j /\ card N (meet (last_set N j) (inb n1)) = n1 - Rmin n1 (INR N - j).
Proof.
  intros Hn Hj H1 H2. assert (HNj : IsNat (INR N - j)) by (apply isnat_minus; [apply isnat_INR|auto|lra]).
  assert (Hj0 : 0 <= j) by (destruct Hj as [m <-]; apply pos_INR).
  assert (Hn0 : 0 <= n1) by (destruct Hn as [m <-]; apply pos_INR).
  unfold last_set. split; [rewrite card_compl, card_inb by (auto; lra); ring|].
  pose proof (card_split N (inb n1) (inb (INR N - j))) as H. rewrite card_inb in H by auto.
  rewrite (card_ext N (meet (inb n1) (inb (INR N - j))) (inb (Rmin n1 (INR N - j)))) in H by apply meet_inb.
  rewrite card_inb in H by (unfold Rmin; destruct (Rle_dec n1 (INR N - j)); auto; lra).
  rewrite (card_ext N (meet (compl (inb (INR N - j))) (inb n1)) (meet (inb n1) (compl (inb (INR N - j)))))
    by (intro k; unfold meet; apply andb_comm). lra.
Qed.

Lemma blk_subset_reach sd N n1 v1 v2 j U (first : bool) b : IsNat n1 -> IsNat j -> n1 <= INR N -> j <= INR N ->
  (b < 2)%nat ->
  0 < j * bsum N n1 (wv b v1) (wv b v2) ->
  INR N * ((if first then Rmin j n1 else n1 - Rmin n1 (INR N - j)) * wv b v1 +
           (j - (if first then Rmin j n1 else n1 - Rmin n1 (INR N - j))) * wv b v2) =
    U * (j * bsum N n1 (wv b v1) (wv b v2)) ->
  forall U', U' < U -> ~ subset_le sd N 2 (blk n1 v1 v2) j U'.
Proof.
  intros Hn Hj H1 H2 Hb Hpos Heq U' HU H.
  set (S := if first then first_set j else last_set N j).
  assert (HS : card N S = j /\ card N (meet S (inb n1)) = (if first then Rmin j n1 else n1 - Rmin n1 (INR N - j)))
    by (unfold S; destruct first; [apply blk_subset_first|apply blk_subset_last]; auto).
  destruct HS as [HS Ha]. destruct (H b S Hb HS) as [Hu _]. unfold upper_ok in Hu.
  rewrite (blk_subset_sum N n1 v1 v2 j b S _ Hn H1 HS Ha), HS, sum_blk in Hu by auto. rewrite Heq in Hu. nra.
Qed.

Lemma blk_subset_reach_low N n1 v1 v2 j U (first : bool) b : IsNat n1 -> IsNat j -> n1 <= INR N -> j <= INR N ->
  (b < 2)%nat ->
  0 < INR N * ((if first then Rmin j n1 else n1 - Rmin n1 (INR N - j)) * wv b v1 +
           (j - (if first then Rmin j n1 else n1 - Rmin n1 (INR N - j))) * wv b v2) ->
  j * bsum N n1 (wv b v1) (wv b v2) =
    U * (INR N * ((if first then Rmin j n1 else n1 - Rmin n1 (INR N - j)) * wv b v1 +
           (j - (if first then Rmin j n1 else n1 - Rmin n1 (INR N - j))) * wv b v2)) ->
  forall U', U' < U -> ~ subset_le TwoSided N 2 (blk n1 v1 v2) j U'.
Proof.
  intros Hn Hj H1 H2 Hb Hpos Heq U' HU H.
  set (S := if first then first_set j else last_set N j).
  assert (HS : card N S = j /\ card N (meet S (inb n1)) = (if first then Rmin j n1 else n1 - Rmin n1 (INR N - j)))
    by (unfold S; destruct first; [apply blk_subset_first|apply blk_subset_last]; auto).
  destruct HS as [HS Ha]. destruct (H b S Hb HS) as [_ Hl]. specialize (Hl eq_refl). unfold lower_ok in Hl.
  rewrite (blk_subset_sum N n1 v1 v2 j b S _ Hn H1 HS Ha), HS, sum_blk in Hl by auto. rewrite Heq in Hl. nra.
Qed.

(** Helpers of the generated proofs: an inequality from a nonnegative quotient, a positive one, a slack pair. *)
Lemma le_frac lhs rhs P Q : 0 <= P -> 0 < Q -> rhs - lhs = P / Q -> lhs <= rhs.
Proof. intros HP HQ H. assert (0 <= P / Q) by (apply (nonneg_frac P Q); [lra|lra|reflexivity]). lra. Qed.

Lemma lt_frac e P Q : 0 < P -> 0 < Q -> e = P / Q -> 0 < e.
Proof. intros HP HQ ->. apply Rdiv_lt_0_compat; auto. Qed.
