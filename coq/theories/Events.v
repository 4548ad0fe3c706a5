(** Events and merged columns: a record's mass on an event (a set of buckets) is a column like a bucket's, and every
    level kind's constraint on the buckets carries over to it (a mediant: summing the bucket constraints over the
    event). Also the facts about partitions the distance lemmas share: a class's complement holds at least [s]
    records (another class), the other classes' mean is bounded where each class's is (the class average), and a
    class's total variation distance is read on events. *)
From Coq Require Import Reals Lra Lia Bool.
From Implgraph Require Import Sums Tables Extreme Distance MaxValue.
Open Scope R_scope.

(** Record [i]'s mass on the event [E]. *)
Definition emass (K : nat) (E : rset) (x : nat -> nat -> R) (i : nat) : R := sumS K E (fun b => x i b).

Lemma emass_nonneg N K E x i : table N K x -> (i < N)%nat -> 0 <= emass K E x i.
Proof. intros [Hnn _] Hi. apply sumS_nonneg. intros b Hb. apply Hnn; auto. Qed.

Lemma emass_compl N K E x i : table N K x -> (i < N)%nat -> emass K (compl E) x i = 1 - emass K E x i.
Proof.
  intros [_ Hrow] Hi. unfold emass. pose proof (sumS_split K E (fun b => x i b)) as H.
  rewrite (Hrow i Hi) in H. lra.
Qed.

Lemma emass_le1 N K E x i : table N K x -> (i < N)%nat -> emass K E x i <= 1.
Proof.
  intros Htab Hi. pose proof (emass_nonneg N K (compl E) x i Htab Hi).
  rewrite (emass_compl N K E x i Htab Hi) in H. lra.
Qed.

Lemma sumS_scal n X c f : sumS n X (fun i => c * f i) = c * sumS n X f.
Proof. unfold sumS. rewrite <- sum_scal. apply sum_ext. intros i _. destruct (X i); ring. Qed.

Lemma sumS_emass N K E x S : sumS N S (emass K E x) = sumS K E (fun b => sumS N S (col x b)).
Proof. unfold emass, col. symmetry. apply sumS_swap. Qed.

Lemma sum_emass N K E x : sum N (emass K E x) = sumS K E (fun b => sum N (col x b)).
Proof. exact (sumS_emass N K E x (fun _ => true)). Qed.

(** The ratio constraints of every bucket hold on every event (summed over its buckets). *)
Lemma upper_event N K x E S T :
  (forall b, (b < K)%nat -> upper_ok N S (col x b) T) -> upper_ok N S (emass K E x) T.
Proof.
  intro H. unfold upper_ok in *. rewrite sumS_emass, sum_emass.
  rewrite <- sumS_scal. replace (T * (card N S * sumS K E (fun b => sum N (col x b))))
    with (sumS K E (fun b => T * (card N S * sum N (col x b)))) by (rewrite !sumS_scal; ring).
  apply sumS_le. intros b Hb _. apply H; auto.
Qed.

Lemma lower_event N K x E S T :
  (forall b, (b < K)%nat -> lower_ok N S (col x b) T) -> lower_ok N S (emass K E x) T.
Proof.
  intro H. unfold lower_ok in *. rewrite sumS_emass, sum_emass.
  rewrite <- sumS_scal. replace (T * (INR N * sumS K E (fun b => sumS N S (col x b))))
    with (sumS K E (fun b => T * (INR N * sumS N S (col x b)))) by (rewrite !sumS_scal; ring).
  apply sumS_le. intros b Hb _. apply H; auto.
Qed.

Lemma ratio_event sd N K x E S T :
  (forall b, (b < K)%nat -> ratio_ok sd N S (col x b) T) -> ratio_ok sd N S (emass K E x) T.
Proof.
  intro H. split.
  - apply upper_event. intros b Hb. apply H; auto.
  - intro Hsd. apply lower_event. intros b Hb. apply (proj2 (H b Hb)); auto.
Qed.

(** A subset level on one column (any nonnegative values, e.g. masses on an event). *)
Definition subset_col (sd : sides) (N : nat) (c : nat -> R) (j T : R) : Prop :=
  forall S, card N S = j -> ratio_ok sd N S c T.

Lemma subset_le_event sd N K x j T E : subset_le sd N K x j T -> subset_col sd N (emass K E x) j T.
Proof. intros HA S HS. apply ratio_event. intros b Hb. apply HA; auto. Qed.

Lemma class_le_event sd N K x cls T E i :
  class_le sd N K x cls T -> (i < N)%nat -> ratio_ok sd N (classof cls i) (emass K E x) T.
Proof. intros HA Hi. apply ratio_event. intros b Hb. apply HA; auto. Qed.

Lemma pairwise_event N K x T E i k :
  pairwise_le N K x T -> (i < N)%nat -> (k < N)%nat -> emass K E x i <= T * emass K E x k.
Proof.
  intros HA Hi Hk. unfold emass. rewrite <- sumS_scal. apply sumS_le. intros b Hb _. apply HA; auto.
Qed.

(** [Extreme.subset_bounds_larger] on one column: a subset level of size [j] bounds every larger set. *)
Theorem subset_col_larger sd N (c : nat -> R) j T :
  IsNat j -> 1 <= j -> 0 <= T -> subset_col sd N c j T ->
  forall S, j <= card N S -> ratio_ok sd N S c T.
Proof.
  intros Hj Hj1 HT HA S HS.
  (* a one-bucket table holding the column, scaled: the bucket lemma applies to it *)
  set (x := fun (i b : nat) => c i).
  assert (HA' : subset_le sd N 1 x j T).
  { intros b Y Hb HY. exact (HA Y HY). }
  exact (subset_bounds_larger sd N 1 x j T Hj Hj1 HT HA' 0 S ltac:(lia) HS).
Qed.

(** * Sets of records *)
Lemma card_pos n X k : (k < n)%nat -> X k = true -> 1 <= card n X.
Proof. intros Hk HX. pose proof (card_remove n X k Hk HX). pose proof (card_nonneg n (remove X k)). lra. Qed.

Lemma card_mono n X Y : (forall i, (i < n)%nat -> X i = true -> Y i = true) -> card n X <= card n Y.
Proof.
  intro H. unfold card, sumS. apply sum_le. intros i Hi.
  destruct (X i) eqn:E; [rewrite (H i Hi E); lra|destruct (Y i); lra].
Qed.

Lemma class_self_pos N cls i : (i < N)%nat -> 1 <= card N (classof cls i).
Proof. intro Hi. apply card_pos with i; auto. apply classof_self. Qed.

(** A class's complement holds another class, so at least [s] records. *)
Lemma partition_other N cls s i :
  partition N cls s -> (i < N)%nat -> s <= INR N - card N (classof cls i).
Proof.
  intros [Hs [i1 [k1 [Hi1 [Hk1 Hne]]]]] Hi.
  assert (Ht : exists t, (t < N)%nat /\ cls t <> cls i) by
    (destruct (Nat.eq_dec (cls i1) (cls i)); [exists k1; split; [auto|congruence] | exists i1; auto]).
  destruct Ht as [t [Ht Hti]].
  rewrite <- card_compl. apply Rle_trans with (card N (classof cls t)); [apply Hs; auto|].
  apply card_mono. intros k _ Hk. unfold classof, compl in *. apply Nat.eqb_eq in Hk.
  rewrite Hk. apply negb_true_iff, Nat.eqb_neq. auto.
Qed.

Lemma partition_two N cls s : partition N cls s -> 2 * s <= INR N.
Proof.
  intros Hp. pose proof Hp as [Hs [i1 [k1 [Hi1 _]]]].
  pose proof (partition_other N cls s i1 Hp Hi1). pose proof (Hs i1 Hi1). lra.
Qed.

(** The class average: over a union of classes, the mean of the class means (weighted by members) is the sum. *)
Definition closed (cls : nat -> nat) (X : rset) : Prop := forall i k, cls i = cls k -> X i = X k.

Lemma classof_eq cls i k : cls i = cls k -> classof cls i = classof cls k.
Proof. intro H. unfold classof. rewrite H. reflexivity. Qed.

Lemma sum_div n f c : sum n (fun i => f i / c) = sum n f / c.
Proof. exact (sumS_div n (fun _ => true) f c). Qed.

Lemma class_avg N cls X f :
  closed cls X ->
  sumS N X (fun i => sumS N (classof cls i) f / card N (classof cls i)) = sumS N X f.
Proof.
  intro Hc. unfold sumS at 1.
  transitivity (sum N (fun i => sum N (fun k => if X i then (if Nat.eqb (cls k) (cls i) then f k / card N (classof cls i)
                                                           else 0) else 0))).
  { apply sum_ext. intros i _. destruct (X i); [|rewrite sum_zero; reflexivity].
    unfold sumS. rewrite <- sum_div. apply sum_ext. intros k _. unfold classof.
    destruct (Nat.eqb (cls k) (cls i)); unfold Rdiv; ring. }
  rewrite <- sum_swap. unfold sumS. apply sum_ext. intros k Hk.
  transitivity (sum N (fun i => if X k then (if Nat.eqb (cls i) (cls k) then f k / card N (classof cls k) else 0)
                                else 0)).
  { apply sum_ext. intros i _. destruct (Nat.eqb_spec (cls k) (cls i)) as [He|He].
    - rewrite (Hc i k (eq_sym He)), (classof_eq cls i k (eq_sym He)), <- He, Nat.eqb_refl. reflexivity.
    - destruct (Nat.eqb_spec (cls i) (cls k)); [congruence|]. destruct (X i), (X k); reflexivity. }
  destruct (X k); [|apply sum_zero].
  pose proof (class_self_pos N cls k Hk) as Hpos.
  set (ck := card N (classof cls k)) in *.
  transitivity (f k / ck * ck); [|field; lra].
  transitivity (f k / ck * sum N (fun i => if Nat.eqb (cls i) (cls k) then 1 else 0)).
  - rewrite <- sum_scal. apply sum_ext. intros i _. destruct (Nat.eqb (cls i) (cls k)); ring.
  - f_equal.
Qed.

(** Every class of [X] has mean at least [a] (resp. at most): so has [X]. *)
Lemma class_mean_lower N cls X f a :
  closed cls X -> (forall i, (i < N)%nat -> X i = true -> card N (classof cls i) * a <= sumS N (classof cls i) f) ->
  card N X * a <= sumS N X f.
Proof.
  intros Hc H. rewrite <- (class_avg N cls X f Hc). rewrite Rmult_comm, <- sumS_const.
  apply sumS_le. intros i Hi Xi. specialize (H i Hi Xi). pose proof (class_self_pos N cls i Hi).
  apply Rmult_le_reg_r with (card N (classof cls i)); [lra|]. unfold Rdiv.
  rewrite Rmult_assoc, Rinv_l by lra. lra.
Qed.

Lemma class_mean_upper N cls X f a :
  closed cls X -> (forall i, (i < N)%nat -> X i = true -> sumS N (classof cls i) f <= card N (classof cls i) * a) ->
  sumS N X f <= card N X * a.
Proof.
  intros Hc H. rewrite <- (class_avg N cls X f Hc). rewrite Rmult_comm, <- sumS_const.
  apply sumS_le. intros i Hi Xi. specialize (H i Hi Xi). pose proof (class_self_pos N cls i Hi).
  apply Rmult_le_reg_r with (card N (classof cls i)); [lra|]. unfold Rdiv.
  rewrite Rmult_assoc, Rinv_l by lra. lra.
Qed.

Lemma compl_class_closed cls i : closed cls (compl (classof cls i)).
Proof. intros a b H. unfold compl, classof. rewrite H. reflexivity. Qed.

(** A class's total variation distance on events: the class's mean mass minus the table's. *)
Lemma tv_of_events N K x cls U :
  (forall i E, (i < N)%nat ->
     sumS N (classof cls i) (emass K E x) / card N (classof cls i) - sum N (emass K E x) / INR N <= U) ->
  tv_le N K x cls U.
Proof.
  intros H i E Hi. unfold mass. rewrite !sumS_div, <- sumS_emass, <- sum_emass. apply H; auto.
Qed.

(** The largest mass on an event, and a class's mean mass below it. *)
Lemma max_record N (c : nat -> R) :
  (0 < N)%nat -> exists k, (k < N)%nat /\ forall i, (i < N)%nat -> c i <= c k.
Proof.
  intro HN. destruct (exists_min N (fun _ => true) (fun i => - c i) ltac:(rewrite all_cnt; lia)) as [k [Hk [_ H]]].
  exists k. split; auto. intros i Hi. specialize (H i Hi eq_refl). lra.
Qed.

Lemma mean_below_max N (c : nat -> R) X M :
  (forall i, (i < N)%nat -> c i <= M) -> sumS N X c <= card N X * M.
Proof. intro H. rewrite Rmult_comm, <- sumS_const. apply sumS_le. intros; apply H; auto. Qed.

(** A singleton set. *)
Definition single (k : nat) : rset := fun i => Nat.eqb i k.

Lemma sumS_single N k f : (k < N)%nat -> sumS N (single k) f = f k.
Proof.
  intro Hk. unfold sumS, single. rewrite <- (sum_single N k f Hk). apply sum_ext. intros i _.
  destruct (Nat.eqb i k); reflexivity.
Qed.

Lemma card_single N k : (k < N)%nat -> card N (single k) = 1.
Proof. intro Hk. unfold card. apply sumS_single; auto. Qed.

Lemma sum_remove_one N k f : (k < N)%nat -> sum N f = sumS N (remove (fun _ => true) k) f + f k.
Proof. intro Hk. exact (sumS_remove N (fun _ => true) k f Hk eq_refl). Qed.

Lemma card_remove_one N k : (k < N)%nat -> card N (remove (fun _ => true) k) = INR N - 1.
Proof. intro Hk. rewrite card_remove, card_all; auto. Qed.
