(** [distance-mass]: a class's total variation distance from the table is at most [(N - s)/N] on every
    table whose classes have at least [s] records, whatever A is: on an event, the class's mean mass [X/e]
    exceeds the table's [(X + Y)/N] by at most [X (N - e)/(e N) <= (N - e)/N], since the other records'
    mass [Y] is nonnegative and each record's mass is at most 1. *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables.
Open Scope R_scope.

Lemma sum_swap n m (f : nat -> nat -> R) :
  sum n (fun b => sum m (fun i => f i b)) = sum m (fun i => sum n (fun b => f i b)).
Proof.
  induction n as [|n IH]; simpl.
  - rewrite sum_zero. reflexivity.
  - rewrite IH, <- sum_plus. reflexivity.
Qed.

Lemma sumS_swap K N (E C : rset) (x : nat -> nat -> R) :
  sumS K E (fun b => sumS N C (fun i => x i b)) = sumS N C (fun i => sumS K E (fun b => x i b)).
Proof.
  unfold sumS.
  rewrite (sum_ext K _ (fun b => sum N (fun i => if E b then (if C i then x i b else 0) else 0))).
  2: { intros b _. destruct (E b); [reflexivity|rewrite sum_zero; reflexivity]. }
  rewrite sum_swap. apply sum_ext. intros i _.
  destruct (C i); [apply sum_ext; intros b _; destruct (E b); reflexivity|].
  rewrite (sum_ext K _ (fun _ => 0)); [apply sum_zero|]. intros b _. destruct (E b); reflexivity.
Qed.

Lemma sumS_div n S f c : sumS n S (fun i => f i / c) = sumS n S f / c.
Proof. unfold Rdiv. apply sumS_mult_r. Qed.

Theorem tv_mass N K x cls s :
  table N K x -> 0 < s -> (forall i, (i < N)%nat -> s <= card N (classof cls i)) ->
  tv_le N K x cls ((INR N - s) / INR N).
Proof.
  intros [Hnn Hrow] Hs Hcls i E Hi. unfold mass.
  set (C := classof cls i).
  assert (He : s <= card N C) by (apply Hcls; exact Hi).
  assert (HeN : card N C <= INR N) by apply card_le.
  set (e := card N C) in *.
  assert (HN : 0 < INR N) by lra.
  set (X := sumS K E (fun b => sumS N C (col x b))).
  set (Y := sumS K E (fun b => sumS N (compl C) (col x b))).
  rewrite sumS_div.
  assert (Hp : sumS K E (fun b => sum N (col x b) / INR N) = (X + Y) / INR N).
  { rewrite sumS_div. f_equal. unfold X, Y. rewrite <- sumS_plus. unfold sumS at 1. apply sum_ext.
    intros b _. rewrite (sumS_split N C (col x b)). reflexivity. }
  rewrite Hp. fold X.
  assert (HY : 0 <= Y).
  { apply sumS_nonneg. intros b Hb. apply sumS_nonneg. intros k Hk. apply Hnn; auto. }
  assert (HX0 : 0 <= X).
  { apply sumS_nonneg. intros b Hb. apply sumS_nonneg. intros k Hk. apply Hnn; auto. }
  assert (HX : X <= e).
  { unfold X, col. rewrite sumS_swap. unfold e, card. apply sumS_le. intros k Hk _.
    rewrite <- (Hrow k Hk). apply sumS_le_sum. intros b Hb. apply Hnn; auto. }
  (* X/e - (X + Y)/N <= X (N - e)/(e N) <= (N - e)/N <= (N - s)/N *)
  assert (H1 : X / e - (X + Y) / INR N <= X * (INR N - e) / (e * INR N)).
  { unfold Rdiv. rewrite Rinv_mult. field_simplify; [|lra|lra].
    apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat; nra|]. nra. }
  assert (H2 : X * (INR N - e) / (e * INR N) <= (INR N - e) / INR N).
  { apply Rmult_le_reg_r with (e * INR N); [nra|].
    unfold Rdiv. rewrite Rmult_assoc, Rinv_l by nra.
    replace ((INR N - e) * / INR N * (e * INR N)) with ((INR N - e) * e) by (field; lra). nra. }
  assert (H3 : (INR N - e) / INR N <= (INR N - s) / INR N).
  { unfold Rdiv. apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat; lra|lra]. }
  lra.
Qed.
