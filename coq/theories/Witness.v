(** Refutations by witness: a concrete table of rational values (rows of [Q], a class label per record), boolean
    level evaluators over the rationals, and the lemmas tying each evaluator to the library's predicate on the
    table's real values ([Q2R]). A generated fact checks by [vm_compute] that the evaluator accepts the witness at
    A's level, and that B's constraint fails at a named place (a bucket and a set, a class, two records or an event
    where B's compared mass is 0 and the other is not), which makes B's level infinite: no U bounds it. *)
From Coq Require Import Reals Lra Lia QArith Qreals Qminmax List Bool.
From Implgraph Require Import Sums Tables Events Columns Declared DistanceLemmas Entropy.
Import ListNotations.
Open Scope R_scope.

(** * The table *)
Definition qval (rows : list (list Q)) (i b : nat) : Q := nth b (nth i rows []) 0%Q.
Definition qx (rows : list (list Q)) : nat -> nat -> R := fun i b => Q2R (qval rows i b).
Definition qcls (labels : list nat) : nat -> nat := fun i => nth i labels 0%nat.

Fixpoint sumQ (n : nat) (f : nat -> Q) : Q := match n with O => 0%Q | S n' => (sumQ n' f + f n')%Q end.
Definition sumSQ (n : nat) (X : rset) (f : nat -> Q) : Q := sumQ n (fun i => if X i then f i else 0%Q).
Definition cardQ (n : nat) (X : rset) : Q := sumSQ n X (fun _ => 1%Q).
Definition natQ (n : nat) : Q := inject_Z (Z.of_nat n).

Lemma Q2R_sumQ n f : Q2R (sumQ n f) = sum n (fun i => Q2R (f i)).
Proof. induction n as [|n IH]; simpl; [apply RMicromega.Q2R_0|]. rewrite Q2R_plus, IH. reflexivity. Qed.

Lemma Q2R_sumSQ n X f : Q2R (sumSQ n X f) = sumS n X (fun i => Q2R (f i)).
Proof.
  unfold sumSQ, sumS. rewrite Q2R_sumQ. apply sum_ext. intros i _. destruct (X i); [reflexivity|].
  apply RMicromega.Q2R_0.
Qed.

Lemma Q2R_cardQ n X : Q2R (cardQ n X) = card n X.
Proof. unfold cardQ, card. rewrite Q2R_sumSQ. apply sum_ext. intros i _. destruct (X i); [apply RMicromega.Q2R_1|reflexivity]. Qed.

Lemma Q2R_natQ n : Q2R (natQ n) = INR n.
Proof. unfold natQ, Q2R, inject_Z. simpl. rewrite INR_IZR_INZ. field. Qed.

Lemma Qle_R x y : Qle_bool x y = true -> Q2R x <= Q2R y.
Proof. apply RMicromega.Qle_true. Qed.

Definition Qltb (x y : Q) : bool := negb (Qle_bool y x).
Lemma Qlt_R x y : Qltb x y = true -> Q2R x < Q2R y.
Proof.
  unfold Qltb. intro H. apply negb_true_iff in H. apply Qlt_Rlt. apply Qnot_le_lt.
  intro H'. apply Qle_bool_iff in H'. congruence.
Qed.

Lemma Qeq_R x y : Qeq_bool x y = true -> Q2R x = Q2R y.
Proof. apply RMicromega.Qeq_true. Qed.

(** Quantifiers over [0 .. n - 1]. *)
Definition all_below (n : nat) (p : nat -> bool) : bool := forallb p (seq 0 n).

Lemma all_below_spec n p : all_below n p = true -> forall i, (i < n)%nat -> p i = true.
Proof. unfold all_below. rewrite forallb_forall. intros H i Hi. apply H, in_seq. lia. Qed.

Definition table_b (N K : nat) (rows : list (list Q)) : bool :=
  all_below N (fun i => all_below K (fun b => Qle_bool 0 (qval rows i b)) && Qeq_bool (sumQ K (qval rows i)) 1).

Lemma table_of_b N K rows : table_b N K rows = true -> table N K (qx rows).
Proof.
  intro H. pose proof (all_below_spec _ _ H) as H1. split.
  - intros i b Hi Hb. specialize (H1 i Hi). apply andb_true_iff in H1. destruct H1 as [H1 _].
    pose proof (all_below_spec _ _ H1 b Hb) as H2. apply Qle_R in H2. rewrite RMicromega.Q2R_0 in H2. exact H2.
  - intros i Hi. specialize (H1 i Hi). apply andb_true_iff in H1. destruct H1 as [_ H1].
    apply Qeq_R in H1. rewrite Q2R_sumQ, RMicromega.Q2R_1 in H1. exact H1.
Qed.

(** * Sets as lists: every set of records is one of the [2^N] lists of booleans. *)
Fixpoint all_lists (n : nat) : list (list bool) :=
  match n with O => [[]] | S n' => map (cons true) (all_lists n') ++ map (cons false) (all_lists n') end.

Lemma all_lists_complete l : In l (all_lists (length l)).
Proof.
  induction l as [|a l IH]; simpl; [auto|]. apply in_or_app.
  destruct a; [left|right]; apply in_map; exact IH.
Qed.

Definition of_list (l : list bool) : rset := fun i => nth i l false.
Definition to_list (n : nat) (S : rset) : list bool := map S (seq 0 n).

Lemma to_list_nth n S i : (i < n)%nat -> of_list (to_list n S) i = S i.
Proof.
  intro Hi. unfold of_list, to_list. rewrite nth_indep with (d' := S 0%nat) by (rewrite map_length, seq_length; lia).
  rewrite map_nth, seq_nth by lia. reflexivity.
Qed.

Lemma sumS_of_list n S (f : nat -> R) : sumS n (of_list (to_list n S)) f = sumS n S f.
Proof. unfold sumS. apply sum_ext. intros i Hi. rewrite to_list_nth by auto. reflexivity. Qed.

Lemma card_of_list n S : card n (of_list (to_list n S)) = card n S.
Proof. apply sumS_of_list. Qed.

Lemma to_list_in n S : In (to_list n S) (all_lists n).
Proof.
  pose proof (all_lists_complete (to_list n S)) as H. unfold to_list in H at 2.
  rewrite map_length, seq_length in H. exact H.
Qed.

(** * Ratio levels *)
Definition colQ (rows : list (list Q)) (b : nat) : nat -> Q := fun i => qval rows i b.

Definition upper_b (N : nat) (S : rset) (c : nat -> Q) (T : Q) : bool :=
  Qle_bool (natQ N * sumSQ N S c) (T * (cardQ N S * sumQ N c)).
Definition lower_b (N : nat) (S : rset) (c : nat -> Q) (T : Q) : bool :=
  Qle_bool (cardQ N S * sumQ N c) (T * (natQ N * sumSQ N S c)).
Definition ratio_b (sd : sides) N S c T : bool :=
  upper_b N S c T && (match sd with TwoSided => lower_b N S c T | OneSided => true end).

Lemma ratio_of_b sd N S rows b T : ratio_b sd N S (colQ rows b) T = true -> ratio_ok sd N S (col (qx rows) b) (Q2R T).
Proof.
  unfold ratio_b. intro H. apply andb_true_iff in H. destruct H as [Hu Hl]. split.
  - apply Qle_R in Hu. unfold upper_ok. rewrite !Q2R_mult, Q2R_natQ, Q2R_sumSQ, Q2R_cardQ, Q2R_sumQ in Hu. exact Hu.
  - intro Hsd. subst sd. apply Qle_R in Hl. unfold lower_ok.
    rewrite !Q2R_mult, Q2R_natQ, Q2R_sumSQ, Q2R_cardQ, Q2R_sumQ in Hl. exact Hl.
Qed.

Definition pairwise_b (N K : nat) rows (T : Q) : bool :=
  all_below K (fun b => all_below N (fun i => all_below N (fun k => Qle_bool (qval rows i b) (T * qval rows k b)))).

Lemma pairwise_of_b N K rows T : pairwise_b N K rows T = true -> pairwise_le N K (qx rows) (Q2R T).
Proof.
  intros H b i k Hb Hi Hk. pose proof (all_below_spec _ _ (all_below_spec _ _ (all_below_spec _ _ H b Hb) i Hi) k Hk)
    as H1. apply Qle_R in H1. rewrite Q2R_mult in H1. exact H1.
Qed.

Definition class_b (sd : sides) (N K : nat) rows labels (T : Q) : bool :=
  all_below K (fun b => all_below N (fun i => ratio_b sd N (classof (qcls labels) i) (colQ rows b) T)).

Lemma class_of_b sd N K rows labels T :
  class_b sd N K rows labels T = true -> class_le sd N K (qx rows) (qcls labels) (Q2R T).
Proof.
  intros H b i Hb Hi. apply ratio_of_b. exact (all_below_spec _ _ (all_below_spec _ _ H b Hb) i Hi).
Qed.

Fixpoint count_true (l : list bool) : nat := match l with [] => O | x :: l' => ((if x then 1 else 0) + count_true l')%nat end.

Lemma count_to_list n S : count_true (to_list n S) = cnt n S.
Proof.
  unfold to_list. induction n as [|n IH]; [reflexivity|]. rewrite seq_S, map_app. simpl.
  rewrite <- IH. clear IH. induction (map S (seq 0 n)) as [|a l IHl]; simpl; [lia|]. rewrite IHl. lia.
Qed.

Definition subset_b (sd : sides) (N K : nat) rows (j : nat) (T : Q) : bool :=
  all_below K (fun b => forallb (fun l => if Nat.eqb (count_true l) j then ratio_b sd N (of_list l) (colQ rows b) T
                                         else true) (all_lists N)).

Lemma subset_of_b sd N K rows j T :
  subset_b sd N K rows j T = true -> subset_le sd N K (qx rows) (INR j) (Q2R T).
Proof.
  intros H b S Hb HS. pose proof (all_below_spec _ _ H b Hb) as H1. rewrite forallb_forall in H1.
  specialize (H1 _ (to_list_in N S)). rewrite count_to_list in H1.
  assert (Hc : cnt N S = j) by (apply INR_eq; rewrite <- card_cnt; exact HS).
  rewrite Hc, Nat.eqb_refl in H1. apply ratio_of_b in H1.
  destruct H1 as [Hu Hl]. unfold upper_ok, lower_ok in *. rewrite sumS_of_list, card_of_list in *. split; auto.
Qed.

(** * Class sizes, distances, the class distributions *)
Definition class_size_b (N : nat) labels (T : Q) : bool :=
  all_below N (fun i => Qle_bool T (cardQ N (classof (qcls labels) i))).

Lemma class_size_of_b N labels T : class_size_b N labels T = true -> class_size_ge N (qcls labels) (Q2R T).
Proof. intros H i Hi. pose proof (all_below_spec _ _ H i Hi) as H1. apply Qle_R in H1. rewrite Q2R_cardQ in H1. exact H1. Qed.

Definition cmeanQ N rows labels i b : Q := sumSQ N (classof (qcls labels) i) (colQ rows b) / cardQ N (classof (qcls labels) i).
Definition tmeanQ N rows b : Q := sumQ N (colQ rows b) / natQ N.

Lemma cardQ_pos N labels i : (i < N)%nat -> ~ (cardQ N (classof (qcls labels) i) == 0)%Q.
Proof.
  intros Hi H. apply Qeq_eqR in H. rewrite Q2R_cardQ, RMicromega.Q2R_0 in H.
  pose proof (class_self_pos N (qcls labels) i Hi). lra.
Qed.

Lemma natQ_pos N : (0 < N)%nat -> ~ (natQ N == 0)%Q.
Proof. intros HN H. apply Qeq_eqR in H. rewrite Q2R_natQ, RMicromega.Q2R_0 in H. apply lt_0_INR in HN. lra. Qed.

Lemma Q2R_cmean N rows labels i b : (i < N)%nat ->
  Q2R (cmeanQ N rows labels i b) = sumS N (classof (qcls labels) i) (col (qx rows) b) / card N (classof (qcls labels) i).
Proof. intro Hi. unfold cmeanQ. rewrite Q2R_div by (apply cardQ_pos; auto). rewrite Q2R_sumSQ, Q2R_cardQ. reflexivity. Qed.

Lemma Q2R_tmean N rows b : (0 < N)%nat -> Q2R (tmeanQ N rows b) = sum N (col (qx rows) b) / INR N.
Proof. intro HN. unfold tmeanQ. rewrite Q2R_div by (apply natQ_pos; auto). rewrite Q2R_sumQ, Q2R_natQ. reflexivity. Qed.

Lemma sumS_minus_fun n X (f g : nat -> R) : sumS n X (fun i => f i - g i) = sumS n X f - sumS n X g.
Proof. unfold sumS. rewrite <- sum_minus. apply sum_ext. intros i _. destruct (X i); ring. Qed.

(** The total variation distance: the largest difference on an event is the sum of the positive parts. *)
Definition tv_b (N K : nat) rows labels (T : Q) : bool :=
  all_below N (fun i => Qle_bool (sumQ K (fun b => Qmax 0 (cmeanQ N rows labels i b - tmeanQ N rows b))) T).

Lemma tv_of_b N K rows labels T : (0 < N)%nat -> tv_b N K rows labels T = true -> tv_le N K (qx rows) (qcls labels) (Q2R T).
Proof.
  intros HN H i E Hi. pose proof (all_below_spec _ _ H i Hi) as H1. apply Qle_R in H1. rewrite Q2R_sumQ in H1.
  eapply Rle_trans; [|exact H1]. unfold mass. rewrite <- sumS_minus_fun.
  apply Rle_trans with (sumS K E (fun b => Q2R (Qmax 0 (cmeanQ N rows labels i b - tmeanQ N rows b)))).
  - apply sumS_le. intros b Hb _. rewrite <- Q2R_cmean, <- Q2R_tmean by auto. rewrite <- Q2R_minus.
    apply Qle_R. apply Qle_bool_iff. apply Q.le_max_r.
  - apply sumS_le_sum. intros b Hb. rewrite <- RMicromega.Q2R_0. apply Qle_R, Qle_bool_iff, Q.le_max_l.
Qed.

(** The l-diversities' class levels. *)
Lemma cq_cmean N rows labels i b : (i < N)%nat ->
  cq N (qx rows) (qcls labels) i b = Q2R (cmeanQ N rows labels i b).
Proof. intro Hi. rewrite Q2R_cmean by auto. reflexivity. Qed.

Definition minent_b (N K : nat) rows labels (T : Q) : bool :=
  all_below N (fun i => all_below K (fun b => Qle_bool (T * cmeanQ N rows labels i b) 1)).

Lemma minent_of_b N K rows labels T : minent_b N K rows labels T = true -> minent_ge N K (qx rows) (qcls labels) (Q2R T).
Proof.
  intros H i b Hi Hb. pose proof (all_below_spec _ _ (all_below_spec _ _ H i Hi) b Hb) as H1.
  apply Qle_R in H1. rewrite Q2R_mult, RMicromega.Q2R_1 in H1. rewrite cq_cmean by auto. exact H1.
Qed.

Definition support_b (N K : nat) rows labels (T : Q) : bool :=
  all_below N (fun i => Qle_bool T (natQ (count_true (map (fun b => Qltb 0 (cmeanQ N rows labels i b)) (seq 0 K))))).

Lemma support_of_b N K rows labels T :
  support_b N K rows labels T = true -> support_ge N K (qx rows) (qcls labels) (Q2R T).
Proof.
  intros H i Hi. pose proof (all_below_spec _ _ H i Hi) as H1. apply Qle_R in H1. rewrite Q2R_natQ in H1.
  unfold support. rewrite card_cnt. eapply Rle_trans; [exact H1|]. right. f_equal.
  rewrite <- (count_to_list K (held N (qx rows) (qcls labels) i)). f_equal. unfold to_list. apply map_ext_in.
  intros b Hb. apply in_seq in Hb. unfold held. rewrite cq_cmean by auto.
  destruct (Rlt_dec 0 (Q2R (cmeanQ N rows labels i b))) as [Hp|Hp]; unfold Qltb.
  - rewrite <- RMicromega.Q2R_0 in Hp. apply Rlt_Qlt in Hp. destruct (Qle_bool (cmeanQ N rows labels i b) 0) eqn:E; [|reflexivity].
    apply Qle_bool_iff in E. exfalso. apply (Qlt_not_le _ _ Hp E).
  - destruct (Qle_bool (cmeanQ N rows labels i b) 0) eqn:E; [reflexivity|]. exfalso. apply Hp.
    rewrite <- RMicromega.Q2R_0. apply Qlt_Rlt. apply Qnot_le_lt. intro H'. apply Qle_bool_iff in H'. congruence.
Qed.

(** [exp H >= 1 >= T]: every table has a Shannon class level at least 1. *)
Lemma ent_nonneg t : 0 <= t <= 1 -> 0 <= ent t.
Proof.
  intros [H0 H1]. unfold ent. destruct (Rlt_dec 0 t) as [Ht|Ht]; [|lra].
  destruct (Req_dec t 1) as [->|Hne]; [rewrite ln_1; lra|].
  assert (ln t < 0) by (rewrite <- ln_1; apply ln_increasing; lra). nra.
Qed.

Lemma shannon_one N K x cls T : table N K x -> T <= 1 -> shannon_ge N K x cls T.
Proof.
  intros Htab HT i Hi. unfold shannon. apply Rle_trans with 1; [exact HT|].
  rewrite <- exp_0. apply exp_le. apply sum_nonneg. intros b Hb. apply ent_nonneg.
  split; [apply cq_nonneg with K; auto|].
  pose proof (cq_sum N K x cls i Htab Hi) as Hs. rewrite (sum_remove_one K b _ Hb) in Hs.
  assert (0 <= sumS K (remove (fun _ => true) b) (cq N x cls i)) by (apply sumS_nonneg; intros; apply cq_nonneg with K; auto).
  lra.
Qed.

(** * Additive slacks: events are lists of buckets too. *)
Definition emassQ (K : nat) (l : list bool) rows (i : nat) : Q := sumSQ K (of_list l) (qval rows i).

Lemma Q2R_emass K E rows i : Q2R (emassQ K (to_list K E) rows i) = emass K E (qx rows) i.
Proof. unfold emassQ, emass. rewrite Q2R_sumSQ. apply sumS_of_list. Qed.

Definition slack_pairs_b (N K : nat) rows (d T : Q) : bool :=
  forallb (fun l => all_below N (fun i => all_below N (fun k =>
    Qle_bool (emassQ K l rows i) (T * emassQ K l rows k + d)))) (all_lists K).

Lemma slack_pairs_of_b N K rows d T :
  slack_pairs_b N K rows d T = true -> slack_pairs_le N K (qx rows) (Q2R d) (Q2R T).
Proof.
  intros H E i k Hi Hk. unfold slack_pairs_b in H. rewrite forallb_forall in H.
  pose proof (all_below_spec _ _ (all_below_spec _ _ (H _ (to_list_in K E)) i Hi) k Hk) as H1.
  apply Qle_R in H1. rewrite Q2R_plus, Q2R_mult, !Q2R_emass in H1. exact H1.
Qed.

Definition removalQ (N K : nat) (l : list bool) rows (k : nat) : Q * Q :=
  let tot := sumQ N (emassQ K l rows) in ((tot / natQ N)%Q, ((tot - emassQ K l rows k) / (natQ N - 1))%Q).

Definition slack_removal_b (N K : nat) rows (d T : Q) : bool :=
  forallb (fun l => all_below N (fun k => let (P, Q) := removalQ N K l rows k in
    Qle_bool P (T * Q + d)%Q && Qle_bool Q (T * P + d)%Q)) (all_lists K).

Lemma Q2R_sum_emass N K E rows : Q2R (sumQ N (emassQ K (to_list K E) rows)) = sum N (emass K E (qx rows)).
Proof. rewrite Q2R_sumQ. apply sum_ext. intros i _. apply Q2R_emass. Qed.

Lemma slack_removal_of_b N K rows d T : (2 <= N)%nat ->
  slack_removal_b N K rows d T = true -> slack_removal_le N K (qx rows) (Q2R d) (Q2R T).
Proof.
  intros HN H E k Hk. unfold slack_removal_b in H. rewrite forallb_forall in H.
  pose proof (all_below_spec _ _ (H _ (to_list_in K E)) k Hk) as H1. unfold removalQ in H1.
  apply andb_true_iff in H1. destruct H1 as [H1 H2]. apply Qle_R in H1. apply Qle_R in H2.
  assert (HN0 : ~ (natQ N == 0)%Q) by (apply natQ_pos; lia).
  assert (HN1 : ~ (natQ N - 1 == 0)%Q).
  { intro Hz. apply Qeq_eqR in Hz. rewrite Q2R_minus, Q2R_natQ, RMicromega.Q2R_1, RMicromega.Q2R_0 in Hz.
    apply le_INR in HN. simpl in HN. lra. }
  rewrite !Q2R_plus, !Q2R_mult, !Q2R_div, !Q2R_minus, Q2R_natQ, RMicromega.Q2R_1, Q2R_sum_emass, Q2R_emass
    in H1, H2 by auto.
  split; assumption.
Qed.

(** * Enhanced beta-likeness: the increase cap, from a lower bound on [-ln p] per bucket (each proved by [interval]). *)
Definition cap_b (N K : nat) rows labels (lb : list Q) : bool :=
  all_below N (fun i => all_below K (fun b =>
    if Qltb (tmeanQ N rows b) (cmeanQ N rows labels i b)
    then Qltb 0 (tmeanQ N rows b) && Qle_bool (cmeanQ N rows labels i b / tmeanQ N rows b - 1) (nth b lb 0%Q)
    else true)).

Lemma cap_of_b N K rows labels lb : (0 < N)%nat ->
  (forall b, (b < K)%nat -> Qltb 0 (tmeanQ N rows b) = true -> Q2R (nth b lb 0%Q) <= - ln (Q2R (tmeanQ N rows b))) ->
  cap_b N K rows labels lb = true -> increase_cap_log N K (qx rows) (qcls labels).
Proof.
  intros HN Hlb H i b Hi Hb Hpq. pose proof (all_below_spec _ _ (all_below_spec _ _ H i Hi) b Hb) as H1.
  unfold class_mean, table_mean in *. rewrite <- Q2R_cmean, <- Q2R_tmean in * by auto.
  assert (Hq : Qltb (tmeanQ N rows b) (cmeanQ N rows labels i b) = true).
  { unfold Qltb. apply negb_true_iff.
    destruct (Qle_bool (cmeanQ N rows labels i b) (tmeanQ N rows b)) eqn:E; [|reflexivity].
    apply Qle_bool_iff, Qle_Rle in E. lra. }
  rewrite Hq in H1. apply andb_true_iff in H1. destruct H1 as [H0 H1]. apply Qlt_R in H0. apply Qle_R in H1.
  assert (Hp : ~ (tmeanQ N rows b == 0)%Q) by (intro Hz; apply Qeq_eqR in Hz; rewrite RMicromega.Q2R_0 in *; lra).
  rewrite Q2R_minus, Q2R_div, RMicromega.Q2R_1 in H1 by exact Hp. specialize (Hlb b Hb).
  assert (H0' : Qltb 0 (tmeanQ N rows b) = true).
  { unfold Qltb. apply negb_true_iff. destruct (Qle_bool (tmeanQ N rows b) 0) eqn:E; [|reflexivity].
    apply Qle_bool_iff, Qle_Rle in E. rewrite RMicromega.Q2R_0 in E. lra. }
  specialize (Hlb H0'). lra.
Qed.

(** * Infinite levels: a constraint whose compared mass is 0 while the other is not fails at every U. *)
Lemma pairwise_oo N K x b i k :
  (b < K)%nat -> (i < N)%nat -> (k < N)%nat -> x k b = 0 -> 0 < x i b -> forall U, ~ pairwise_le N K x U.
Proof. intros Hb Hi Hk H0 Hp U HA. specialize (HA b i k Hb Hi Hk). rewrite H0 in HA. lra. Qed.

Lemma subset_oo N K x j b S :
  (b < K)%nat -> card N S = j -> 0 < j -> sumS N S (col x b) = 0 -> 0 < sum N (col x b) ->
  forall U, ~ subset_le TwoSided N K x j U.
Proof.
  intros Hb HS Hj H0 Hp U HA. destruct (HA b S Hb HS) as [_ Hl]. specialize (Hl eq_refl). unfold lower_ok in Hl.
  rewrite H0, HS in Hl. nra.
Qed.

Lemma class_oo N K x cls b i :
  (b < K)%nat -> (i < N)%nat -> sumS N (classof cls i) (col x b) = 0 -> 0 < sum N (col x b) ->
  forall U, ~ class_le TwoSided N K x cls U.
Proof.
  intros Hb Hi H0 Hp U HA. destruct (HA b i Hb Hi) as [_ Hl]. specialize (Hl eq_refl). unfold lower_ok in Hl.
  rewrite H0 in Hl. pose proof (class_self_pos N cls i Hi). nra.
Qed.

Lemma slack_pairs_oo N K x d E i k :
  (i < N)%nat -> (k < N)%nat -> emass K E x k = 0 -> d < emass K E x i -> forall U, ~ slack_pairs_le N K x d U.
Proof.
  intros Hi Hk H0 Hp U HA. specialize (HA E i k Hi Hk). change (mass K E (fun b => x i b)) with (emass K E x i) in HA.
  change (mass K E (fun b => x k b)) with (emass K E x k) in HA. rewrite H0 in HA. lra.
Qed.

Lemma slack_removal_oo N K x d E k :
  (k < N)%nat ->
  ((d < sum N (emass K E x) / INR N /\ (sum N (emass K E x) - emass K E x k) / (INR N - 1) = 0) \/
   (d < (sum N (emass K E x) - emass K E x k) / (INR N - 1) /\ sum N (emass K E x) / INR N = 0)) ->
  forall U, ~ slack_removal_le N K x d U.
Proof.
  intros Hk H U HA. destruct (HA E k Hk) as [H1 H2].
  destruct H as [[Ha Hb] | [Ha Hb]]; [rewrite Hb in H1 | rewrite Hb in H2]; lra.
Qed.

Lemma min_class_oo N cls k i :
  (i < N)%nat -> card N (classof cls i) < k -> forall rest, ~ min_class_level N cls k rest.
Proof. intros Hi Hc rest [H _]. specialize (H i Hi). lra. Qed.

Lemma capped_oo_cap N K x cls (level : Prop) i b :
  (i < N)%nat -> (b < K)%nat -> table_mean N x b < class_mean N x cls i b ->
  - ln (table_mean N x b) < class_mean N x cls i b / table_mean N x b - 1 ->
  ~ capped_level level (increase_cap_log N K x cls).
Proof. intros Hi Hb Hpq Hln [_ Hcap]. specialize (Hcap i b Hi Hb Hpq). lra. Qed.

Lemma capped_oo_level (level cap : Prop) : ~ level -> ~ capped_level level cap.
Proof. intros H [Hl _]. exact (H Hl). Qed.

(** The real values of a concrete table's sums, for the facts above. *)
Lemma sum_col_Q N rows b : sum N (col (qx rows) b) = Q2R (sumQ N (colQ rows b)).
Proof. rewrite Q2R_sumQ. reflexivity. Qed.

Lemma sumS_col_Q N S rows b : sumS N S (col (qx rows) b) = Q2R (sumSQ N S (colQ rows b)).
Proof. rewrite Q2R_sumSQ. reflexivity. Qed.

Lemma card_Q N S : card N S = Q2R (cardQ N S).
Proof. rewrite Q2R_cardQ. reflexivity. Qed.

Lemma emass_Q K l rows i : emass K (of_list l) (qx rows) i = Q2R (emassQ K l rows i).
Proof. unfold emassQ, emass. rewrite Q2R_sumSQ. reflexivity. Qed.

Lemma sum_emass_Q N K l rows : sum N (emass K (of_list l) (qx rows)) = Q2R (sumQ N (emassQ K l rows)).
Proof. rewrite Q2R_sumQ. apply sum_ext. intros i _. apply emass_Q. Qed.

Lemma x_Q rows i b : qx rows i b = Q2R (qval rows i b).
Proof. reflexivity. Qed.

Lemma Q2R_eq0 q : Qeq_bool q 0 = true -> Q2R q = 0.
Proof. intro H. apply Qeq_R in H. rewrite RMicromega.Q2R_0 in H. exact H. Qed.

Lemma Q2R_pos q : Qltb 0 q = true -> 0 < Q2R q.
Proof. intro H. apply Qlt_R in H. rewrite RMicromega.Q2R_0 in H. exact H. Qed.

Lemma Q2R_lt q r : Qltb q r = true -> Q2R q < Q2R r.
Proof. apply Qlt_R. Qed.

Lemma slack_removal_oo_b N K rows d l k :
  (2 <= N)%nat -> (k < N)%nat -> length l = K ->
  (let (P, Q) := removalQ N K l rows k in (Qltb d P && Qeq_bool Q 0) || (Qltb d Q && Qeq_bool P 0)) = true ->
  forall U, ~ slack_removal_le N K (qx rows) (Q2R d) U.
Proof.
  intros HN Hk Hl H U HA. destruct (HA (of_list l) k Hk) as [H1 H2]. unfold removalQ in H.
  assert (HN0 : ~ (natQ N == 0)%Q) by (apply natQ_pos; lia).
  assert (HN1 : ~ (natQ N - 1 == 0)%Q).
  { intro Hz. apply Qeq_eqR in Hz. rewrite Q2R_minus, Q2R_natQ, RMicromega.Q2R_1, RMicromega.Q2R_0 in Hz.
    apply le_INR in HN. simpl in HN. lra. }
  rewrite sum_emass_Q, emass_Q in H1, H2.
  apply orb_true_iff in H. destruct H as [H|H]; apply andb_true_iff in H; destruct H as [Ha Hb];
    apply Qlt_R in Ha; apply Q2R_eq0 in Hb;
    rewrite ?Q2R_div, ?Q2R_minus, ?Q2R_natQ, ?RMicromega.Q2R_1 in Ha by auto;
    rewrite ?Q2R_div, ?Q2R_minus, ?Q2R_natQ, ?RMicromega.Q2R_1 in Hb by auto.
  - rewrite Hb in H1. lra.
  - rewrite Hb in H2. lra.
Qed.

Lemma capped_oo_b N K rows labels i b :
  (0 < N)%nat -> (i < N)%nat -> (b < K)%nat -> Qltb (tmeanQ N rows b) (cmeanQ N rows labels i b) = true ->
  Qltb 0 (tmeanQ N rows b) = true ->
  - ln (Q2R (tmeanQ N rows b)) < Q2R (cmeanQ N rows labels i b / tmeanQ N rows b - 1) ->
  forall U, ~ capped_level (class_le OneSided N K (qx rows) (qcls labels) U) (increase_cap_log N K (qx rows) (qcls labels)).
Proof.
  intros HN Hi Hb Hpq Hp Hln U. apply (capped_oo_cap N K (qx rows) (qcls labels) _ i b Hi Hb).
  - unfold class_mean, table_mean. rewrite <- Q2R_cmean, <- Q2R_tmean by auto. apply Qlt_R. exact Hpq.
  - unfold class_mean, table_mean. rewrite <- Q2R_cmean, <- Q2R_tmean by auto.
    apply Qlt_R in Hp. rewrite RMicromega.Q2R_0 in Hp.
    rewrite Q2R_minus, Q2R_div, RMicromega.Q2R_1 in Hln by (intro Hz; apply Qeq_eqR in Hz; rewrite RMicromega.Q2R_0 in Hz; lra).
    exact Hln.
Qed.

(** Two records in different classes: a partition into at least two classes (of at least one record). *)
Lemma partition_of_two N labels i k :
  (i < N)%nat -> (k < N)%nat -> Nat.eqb (qcls labels i) (qcls labels k) = false -> partition N (qcls labels) 1.
Proof.
  intros Hi Hk H. split; [intros t Ht; apply class_self_pos; auto|]. exists i, k. repeat split; auto.
  apply Nat.eqb_neq. exact H.
Qed.

(** * Logarithms of rationals without interval arithmetic: [exp x >= (1 + x/n)^n] (for [x >= -n]) gives both
    [-ln p >= c] (from [p <= (1 - c/n)^n]) and [-ln p < r] (from [p (1 + r/n)^n > 1]), decided over [Q] by
    [vm_compute]. (coq-interval's tactic would rest on Coq's primitive integers and floats, whose specifications are
    axioms beyond the real numbers'.) *)
Fixpoint Qpow (q : Q) (n : nat) : Q := match n with O => 1%Q | S n' => (q * Qpow q n')%Q end.

Lemma Q2R_Qpow q n : Q2R (Qpow q n) = Q2R q ^ n.
Proof. induction n as [|n IH]; simpl; [apply RMicromega.Q2R_1|]. rewrite Q2R_mult, IH. reflexivity. Qed.

Lemma exp_nat_mult n y : exp (INR n * y) = exp y ^ n.
Proof.
  induction n as [|n IH]; [simpl; rewrite Rmult_0_l; apply exp_0|].
  rewrite S_INR, Rmult_plus_distr_r, Rmult_1_l, exp_plus, IH. simpl. ring.
Qed.

Lemma exp_pow_lower x n : (0 < n)%nat -> - INR n <= x -> (1 + x / INR n) ^ n <= exp x.
Proof.
  intros Hn Hx. assert (HN : 0 < INR n) by (apply lt_0_INR; auto).
  replace x with (INR n * (x / INR n)) at 2 by (field; lra). rewrite exp_nat_mult.
  apply pow_incr. split.
  - apply (nonneg_frac (INR n + x) (INR n)); [lra|lra|field; lra].
  - apply exp_ge_1_plus.
Qed.

Lemma neg_ln_ge_q (p c : Q) (n : nat) :
  Qltb 0 p = true -> Qle_bool 0 c = true -> Nat.ltb 0 n = true -> Qle_bool c (natQ n) = true ->
  Qle_bool p (Qpow (1 - c / natQ n) n) = true -> Q2R c <= - ln (Q2R p).
Proof.
  intros Hp Hc Hn Hcn H. apply Qlt_R in Hp. apply Qle_R in Hc. apply Nat.ltb_lt in Hn. apply Qle_R in Hcn.
  apply Qle_R in H. rewrite RMicromega.Q2R_0 in Hp, Hc. rewrite Q2R_natQ in Hcn.
  assert (HN : 0 < INR n) by (apply lt_0_INR; auto).
  rewrite Q2R_Qpow, Q2R_minus, Q2R_div, RMicromega.Q2R_1, Q2R_natQ in H
    by (apply natQ_pos; auto).
  pose proof (exp_pow_lower (- Q2R c) n Hn ltac:(lra)) as He.
  replace (1 + - Q2R c / INR n) with (1 - Q2R c / INR n) in He by (field; lra).
  assert (Hle : Q2R p <= exp (- Q2R c)) by lra.
  assert (ln (Q2R p) <= - Q2R c).
  { rewrite <- (ln_exp (- Q2R c)). destruct Hle as [Hlt|Heq]; [left; apply ln_increasing; auto|rewrite Heq; lra]. }
  lra.
Qed.

Lemma neg_ln_nonneg_q (p c : Q) :
  Qltb 0 p = true -> Qle_bool p 1 = true -> Qle_bool c 0 = true -> Q2R c <= - ln (Q2R p).
Proof.
  intros Hp H1 Hc. apply Qlt_R in Hp. apply Qle_R in H1. apply Qle_R in Hc.
  rewrite RMicromega.Q2R_0 in Hp, Hc. rewrite RMicromega.Q2R_1 in H1.
  assert (ln (Q2R p) <= 0).
  { rewrite <- ln_1. destruct H1 as [Hlt|Heq]; [left; apply ln_increasing; auto|rewrite Heq; lra]. }
  lra.
Qed.

Lemma neg_ln_lt_q (p r : Q) (n : nat) :
  Qltb 0 p = true -> Qle_bool 0 r = true -> Nat.ltb 0 n = true ->
  Qltb 1 (p * Qpow (1 + r / natQ n) n) = true -> - ln (Q2R p) < Q2R r.
Proof.
  intros Hp Hr Hn H. apply Qlt_R in Hp. apply Qle_R in Hr. apply Nat.ltb_lt in Hn. apply Qlt_R in H.
  rewrite RMicromega.Q2R_0 in Hp, Hr. assert (HN : 0 < INR n) by (apply lt_0_INR; auto).
  rewrite Q2R_mult, Q2R_Qpow, Q2R_plus, Q2R_div, RMicromega.Q2R_1, Q2R_natQ in H by (apply natQ_pos; auto).
  pose proof (exp_pow_lower (Q2R r) n Hn ltac:(lra)) as He.
  assert (H0 : 0 <= (1 + Q2R r / INR n) ^ n) by (apply pow_le; apply (nonneg_frac (INR n + Q2R r) (INR n)); [lra|lra|field; lra]).
  assert (1 < Q2R p * exp (Q2R r)) by (apply Rlt_le_trans with (Q2R p * (1 + Q2R r / INR n) ^ n); [lra|];
    apply Rmult_le_compat_l; lra).
  assert (Hx : exp (- Q2R r) < Q2R p).
  { rewrite exp_Ropp. apply Rmult_lt_reg_r with (exp (Q2R r)); [apply exp_pos|].
    rewrite Rinv_l by (apply Rgt_not_eq, exp_pos). lra. }
  apply ln_increasing in Hx; [|apply exp_pos]. rewrite ln_exp in Hx. lra.
Qed.
