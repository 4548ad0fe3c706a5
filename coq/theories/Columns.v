(** Small facts about columns of masses on an event (values in [0, 1]) shared by the distance and ratio lemmas:
    sums of such columns, their complements, sums over singletons, and sums over two sets of records compared
    member by member. *)
From Coq Require Import Reals Lra Lia Bool.
From Implgraph Require Import Sums Tables Extreme Distance MaxValue Events.
Open Scope R_scope.

Lemma nonneg_frac a b v : 0 <= a -> 0 < b -> v = a / b -> 0 <= v.
Proof. intros Ha Hb ->. unfold Rdiv. apply Rmult_le_pos; [lra|]. apply Rlt_le, Rinv_0_lt_compat; lra. Qed.

Lemma sum_col_bounds N (c : nat -> R) :
  (forall k, (k < N)%nat -> 0 <= c k <= 1) -> 0 <= sum N c <= INR N.
Proof.
  intro H. split; [apply sum_nonneg; intros; apply H; auto|].
  rewrite <- (Rmult_1_r (INR N)), <- sum_const. apply sum_le. intros; apply H; auto.
Qed.

Lemma sumS_col_bounds N X (c : nat -> R) :
  (forall k, (k < N)%nat -> 0 <= c k <= 1) -> 0 <= sumS N X c <= card N X.
Proof.
  intro H. split; [apply sumS_nonneg; intros; apply H; auto|].
  unfold card. apply sumS_le. intros; apply H; auto.
Qed.

Lemma emass_bounds N K E x : table N K x -> forall k, (k < N)%nat -> 0 <= emass K E x k <= 1.
Proof. intros Htab k Hk. split; [apply emass_nonneg with N|apply emass_le1 with N]; auto. Qed.

Lemma sumS_emass_compl N K E x X :
  table N K x -> sumS N X (emass K (compl E) x) = card N X - sumS N X (emass K E x).
Proof.
  intro Htab. transitivity (sumS N X (fun k => 1 - emass K E x k)).
  { unfold sumS. apply sum_ext. intros k Hk. destruct (X k); [apply emass_compl with N; auto|reflexivity]. }
  unfold card, sumS. rewrite <- sum_minus. apply sum_ext. intros k _. destruct (X k); ring.
Qed.

Lemma sum_emass_compl N K E x : table N K x -> sum N (emass K (compl E) x) = INR N - sum N (emass K E x).
Proof.
  intro Htab. pose proof (sumS_emass_compl N K E x (fun _ => true) Htab) as H. rewrite card_all in H. exact H.
Qed.

(** A set of one member [k]: its sum is [f k]. *)
Lemma sumS_card0 n X f : card n X = 0 -> sumS n X f = 0.
Proof.
  induction n as [|n IH]; intro H; [reflexivity|]. unfold card, sumS in *. simpl in *.
  assert (H0 : 0 <= sum n (fun i => if X i then 1 else 0)) by (apply sum_nonneg; intros; destruct (X i); lra).
  destruct (X n); [lra|]. rewrite IH by lra. ring.
Qed.

Lemma sumS_card1 n X k f : (k < n)%nat -> X k = true -> card n X = 1 -> sumS n X f = f k.
Proof.
  intros Hk HX H1. rewrite (sumS_remove n X k f Hk HX), sumS_card0; [ring|].
  rewrite card_remove; auto. lra.
Qed.

(** Every member of [X] at most every member of [Y]: the means compare. *)
Lemma cross_sum N X Y (f g : nat -> R) :
  (forall i k, (i < N)%nat -> (k < N)%nat -> X i = true -> Y k = true -> f i <= g k) ->
  card N Y * sumS N X f <= card N X * sumS N Y g.
Proof.
  intro H. rewrite Rmult_comm, <- sumS_mult_r.
  replace (card N X * sumS N Y g) with (sumS N X (fun _ => sumS N Y g)) by (rewrite sumS_const; ring).
  apply sumS_le. intros i Hi Xi. rewrite <- sumS_const.
  apply sumS_le. intros k Hk Yk. apply H; auto.
Qed.

(** The records other than [k]: [N - 1] of them, summing to the rest. *)
Definition others (k : nat) : rset := remove (fun _ => true) k.

Lemma card_others N k : (k < N)%nat -> card N (others k) = INR N - 1.
Proof. apply card_remove_one. Qed.

Lemma sum_others N k f : (k < N)%nat -> sumS N (others k) f = sum N f - f k.
Proof. intro Hk. rewrite (sum_remove_one N k f Hk). unfold others. ring. Qed.

Lemma cnt_others N k : (k < N)%nat -> cnt N (others k) = (N - 1)%nat.
Proof.
  intro Hk. apply INR_eq. rewrite <- card_cnt, card_others, minus_INR by (auto; lia). simpl. ring.
Qed.

(** The class of [i] on a table of two records with a partition: the record alone. *)
Lemma class_single_two N cls s i :
  partition N cls s -> 1 <= s -> INR N = 2 -> (i < N)%nat -> card N (classof cls i) = 1.
Proof.
  intros Hp Hs HN Hi. pose proof (partition_other N cls s i Hp Hi). pose proof (class_self_pos N cls i Hi).
  lra.
Qed.

(** [lra] on a goal with quotients by non-constants: each quotient an atom. *)
Ltac atomize_div :=
  repeat match goal with
  | |- context [?a / ?b] => let z := fresh "q" in set (z := a / b) in *
  | H : context [?a / ?b] |- _ => let z := fresh "q" in set (z := a / b) in *
  end.
Ltac lra_div := atomize_div; lra.
