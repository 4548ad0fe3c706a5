(** Finite sums over the first [n] naturals, and sets of records as boolean predicates. *)
From Coq Require Import Reals Lra Lia.
Open Scope R_scope.

Fixpoint sum (n : nat) (f : nat -> R) : R :=
  match n with O => 0 | S n' => sum n' f + f n' end.

Lemma sum_ext n f g : (forall i, (i < n)%nat -> f i = g i) -> sum n f = sum n g.
Proof.
  induction n as [|n IH]; intro H; simpl; [reflexivity|].
  rewrite IH by (intros; apply H; lia). rewrite H by lia. reflexivity.
Qed.

Lemma sum_plus n f g : sum n (fun i => f i + g i) = sum n f + sum n g.
Proof. induction n as [|n IH]; simpl; [ring|]. rewrite IH. ring. Qed.

Lemma sum_minus n f g : sum n (fun i => f i - g i) = sum n f - sum n g.
Proof. induction n as [|n IH]; simpl; [ring|]. rewrite IH. ring. Qed.

Lemma sum_scal n c f : sum n (fun i => c * f i) = c * sum n f.
Proof. induction n as [|n IH]; simpl; [ring|]. rewrite IH. ring. Qed.

Lemma sum_opp n f : sum n (fun i => - f i) = - sum n f.
Proof. induction n as [|n IH]; simpl; [ring|]. rewrite IH. ring. Qed.

Lemma sum_zero n : sum n (fun _ => 0) = 0.
Proof. induction n as [|n IH]; simpl; [reflexivity|]. rewrite IH. ring. Qed.

Lemma sum_le n f g : (forall i, (i < n)%nat -> f i <= g i) -> sum n f <= sum n g.
Proof.
  induction n as [|n IH]; intro H; simpl; [lra|].
  assert (sum n f <= sum n g) by (apply IH; intros; apply H; lia).
  assert (f n <= g n) by (apply H; lia). lra.
Qed.

Lemma sum_nonneg n f : (forall i, (i < n)%nat -> 0 <= f i) -> 0 <= sum n f.
Proof. intro H. rewrite <- (sum_zero n). apply sum_le. exact H. Qed.

Lemma sum_const n c : sum n (fun _ => c) = INR n * c.
Proof.
  induction n as [|n IH]; simpl sum; [simpl; ring|]. rewrite IH, S_INR. ring.
Qed.

(** The sum of [f] at one index [k < n]. *)
Lemma sum_single n k f :
  (k < n)%nat -> sum n (fun i => if Nat.eqb i k then f i else 0) = f k.
Proof.
  induction n as [|n IH]; intro Hk; [lia|]. simpl.
  destruct (Nat.eq_dec k n) as [->|Hne].
  - rewrite Nat.eqb_refl.
    rewrite (sum_ext n _ (fun _ => 0)); [rewrite sum_zero; ring|].
    intros i Hi. destruct (Nat.eqb_spec i n); [lia|reflexivity].
  - rewrite IH by lia. destruct (Nat.eqb_spec n k); [lia|ring].
Qed.

(** * Sets of records: a predicate on indices, counted among the first [n]. *)
Definition rset := nat -> bool.

Definition sumS (n : nat) (X : rset) (f : nat -> R) : R :=
  sum n (fun i => if X i then f i else 0).

Definition card (n : nat) (X : rset) : R := sumS n X (fun _ => 1).

Fixpoint cnt (n : nat) (X : rset) : nat :=
  match n with O => O | S n' => (cnt n' X + (if X n' then 1 else 0))%nat end.

Lemma card_cnt n X : card n X = INR (cnt n X).
Proof.
  unfold card, sumS. induction n as [|n IH]; simpl; [reflexivity|].
  rewrite IH, plus_INR. destruct (X n); simpl; ring.
Qed.

Lemma cnt_le n X : (cnt n X <= n)%nat.
Proof. induction n; simpl; [lia|]. destruct (X n); lia. Qed.

Lemma card_nonneg n X : 0 <= card n X.
Proof. rewrite card_cnt. apply pos_INR. Qed.

Lemma card_le n X : card n X <= INR n.
Proof. rewrite card_cnt. apply le_INR, cnt_le. Qed.

Definition compl (X : rset) : rset := fun i => negb (X i).

Lemma sumS_split n X f : sum n f = sumS n X f + sumS n (compl X) f.
Proof.
  unfold sumS, compl. rewrite <- sum_plus. apply sum_ext. intros i _.
  destruct (X i); simpl; ring.
Qed.

Lemma card_compl n X : card n (compl X) = INR n - card n X.
Proof.
  pose proof (sumS_split n X (fun _ => 1)) as H. rewrite sum_const in H.
  unfold card. lra.
Qed.

Lemma sumS_le n X f g :
  (forall i, (i < n)%nat -> X i = true -> f i <= g i) -> sumS n X f <= sumS n X g.
Proof.
  intro H. apply sum_le. intros i Hi. destruct (X i) eqn:E; [apply H; auto|lra].
Qed.

Lemma sumS_nonneg n X f :
  (forall i, (i < n)%nat -> 0 <= f i) -> 0 <= sumS n X f.
Proof. intro H. apply sum_nonneg. intros i Hi. destruct (X i); [apply H; auto|lra]. Qed.

Lemma sumS_le_sum n X f :
  (forall i, (i < n)%nat -> 0 <= f i) -> sumS n X f <= sum n f.
Proof.
  intro H. rewrite (sumS_split n X f).
  assert (0 <= sumS n (compl X) f) by (apply sumS_nonneg; exact H). lra.
Qed.

Lemma sumS_opp n X f : sumS n X (fun i => - f i) = - sumS n X f.
Proof.
  unfold sumS. rewrite <- sum_opp. apply sum_ext. intros i _. destruct (X i); ring.
Qed.

Lemma sumS_const n X c : sumS n X (fun _ => c) = c * card n X.
Proof.
  unfold card, sumS. rewrite <- sum_scal. apply sum_ext. intros i _. destruct (X i); ring.
Qed.

(** Removing one member [k] of [X]. *)
Definition remove (X : rset) (k : nat) : rset := fun i => andb (X i) (negb (Nat.eqb i k)).

Lemma sumS_remove n X k f :
  (k < n)%nat -> X k = true -> sumS n X f = sumS n (remove X k) f + f k.
Proof.
  intros Hk HS. unfold sumS, remove.
  rewrite <- (sum_single n k f Hk). rewrite <- sum_plus. apply sum_ext. intros i _.
  destruct (Nat.eqb_spec i k) as [->|Hne]; rewrite ?HS; simpl.
  - ring.
  - destruct (X i); simpl; ring.
Qed.

Lemma card_remove n X k :
  (k < n)%nat -> X k = true -> card n (remove X k) = card n X - 1.
Proof. intros Hk HS. unfold card. rewrite (sumS_remove n X k _ Hk HS). ring. Qed.

Lemma remove_sub X k i : remove X k i = true -> X i = true.
Proof. unfold remove. intro H. apply andb_prop in H. tauto. Qed.

(** A member of a nonempty set where [f] is smallest. *)
Lemma exists_min n X f :
  (0 < cnt n X)%nat ->
  exists k, (k < n)%nat /\ X k = true /\ forall i, (i < n)%nat -> X i = true -> f k <= f i.
Proof.
  induction n as [|n IH]; simpl; intro H; [lia|].
  destruct (X n) eqn:Sn.
  - destruct (Nat.eq_dec (cnt n X) 0) as [H0|H0].
    + exists n. repeat split; auto. intros i Hi Si.
      destruct (Nat.eq_dec i n) as [->|Hne]; [lra|].
      exfalso. assert (Hpos : forall m, (i < m)%nat -> (m <= n)%nat -> (0 < cnt m X)%nat).
      { induction m as [|m IHm]; intros Him Hmn; [lia|]. simpl.
        destruct (Nat.eq_dec i m) as [->|Hne2]; [rewrite Si; lia|].
        assert (0 < cnt m X)%nat by (apply IHm; lia). lia. }
      assert (0 < cnt n X)%nat by (apply Hpos; lia). lia.
    + destruct (IH ltac:(lia)) as [k [Hk [Sk Hmin]]].
      destruct (Rle_dec (f k) (f n)) as [Hle|Hgt].
      * exists k. repeat split; auto. intros i Hi Si.
        destruct (Nat.eq_dec i n) as [->|Hne]; [exact Hle|]. apply Hmin; auto; lia.
      * exists n. repeat split; auto. intros i Hi Si.
        destruct (Nat.eq_dec i n) as [->|Hne]; [lra|].
        assert (f k <= f i) by (apply Hmin; auto; lia). lra.
  - destruct (IH ltac:(lia)) as [k [Hk [Sk Hmin]]].
    exists k. repeat split; auto. intros i Hi Si.
    destruct (Nat.eq_dec i n) as [->|Hne]; [congruence|]. apply Hmin; auto; lia.
Qed.

Lemma sumS_mult_r n X f c : sumS n X (fun i => f i * c) = sumS n X f * c.
Proof.
  unfold sumS. rewrite Rmult_comm, <- sum_scal. apply sum_ext. intros i _. destruct (X i); ring.
Qed.

Lemma sumS_plus n X f g : sumS n X (fun i => f i + g i) = sumS n X f + sumS n X g.
Proof.
  unfold sumS. rewrite <- sum_plus. apply sum_ext. intros i _. destruct (X i); ring.
Qed.
