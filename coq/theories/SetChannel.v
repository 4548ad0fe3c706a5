(** The randomized set channel of sei2019 (Section V-B): its releases' class levels ([set-channel-diversity]).

    A release gives each record a set of [eta] distinct values of the sensitive attribute; a class's distribution
    of released values is its records' mean row when each record's row is uniform over its set (mass [1/eta] on each
    of its [eta] values: a class of [m] records holding value [v] [n_v] times has [q_v = n_v / (eta m)]). The lemma
    holds for every table whose rows put at most [1/eta] on each value ([set_release]), releases among them: every
    class then has [q_v <= 1/eta], so its min-entropy level [1 / max q] and its Shannon level [exp H(q)] are at
    least [eta]. *)
From Coq Require Import Reals Lra Lia.
From Flocq Require Import Raux.
From Implgraph Require Import Sums Tables Distance Events Columns Entropy.
Open Scope R_scope.

(** Every record's row puts at most [1/eta] on each value (a row uniform over [eta] distinct values does). *)
Definition set_release (N K : nat) (x : nat -> nat -> R) (eta : R) : Prop :=
  forall i b, (i < N)%nat -> (b < K)%nat -> eta * x i b <= 1.

(** A class's mean row is at most [1/eta] wherever every row is. *)
Theorem set_channel_minent N K x cls eta :
  table N K x -> 0 < eta -> set_release N K x eta -> minent_ge N K x cls eta.
Proof.
  intros Htab Heta HR i b Hi Hb. pose proof (class_self_pos N cls i Hi) as Hc. unfold cq.
  assert (H : sumS N (classof cls i) (fun k => eta * col x b k) <= sumS N (classof cls i) (fun _ => 1)).
  { apply sumS_le. intros k Hk _. apply HR; auto. }
  rewrite sumS_scal, sumS_const in H.
  replace (eta * (sumS N (classof cls i) (col x b) / card N (classof cls i)))
    with ((eta * sumS N (classof cls i) (col x b)) / card N (classof cls i)) by (field; lra).
  apply Rmult_le_reg_r with (card N (classof cls i)); [lra|].
  replace (eta * sumS N (classof cls i) (col x b) / card N (classof cls i) * card N (classof cls i))
    with (eta * sumS N (classof cls i) (col x b)) by (field; lra).
  lra.
Qed.

(** The min-entropy level is monotone: at least [T] gives at least any [T' <= T]. *)
Lemma minent_mono N K x cls T T' : table N K x -> T' <= T -> minent_ge N K x cls T -> minent_ge N K x cls T'.
Proof.
  intros Htab HT HA i b Hi Hb. pose proof (cq_nonneg N K x cls i b Htab Hi Hb). specialize (HA i b Hi Hb). nra.
Qed.

Lemma ln_le_of a b : 0 < a -> a <= b -> ln a <= ln b.
Proof. intros Ha Hab. destruct (Rle_lt_or_eq_dec a b Hab) as [H|H]; [left; apply ln_increasing; auto | rewrite H; lra]. Qed.

(** [shannon >= min-entropy]: every [q_b <= 1/T] gives [-ln q_b >= ln T] where [q_b > 0], so [H(q) >= ln T]. *)
Theorem shannon_of_minent_level N K x cls T :
  table N K x -> 0 < T -> minent_ge N K x cls T -> shannon_ge N K x cls T.
Proof.
  intros Htab HT HA i Hi. unfold shannon.
  assert (Hb : forall b, (b < K)%nat -> cq N x cls i b * ln T <= ent (cq N x cls i b)).
  { intros b Hbk. pose proof (cq_nonneg N K x cls i b Htab Hi Hbk) as H0. specialize (HA i b Hi Hbk).
    unfold ent. destruct (Rlt_dec 0 (cq N x cls i b)) as [Hp|Hp].
    - assert (Hl : ln (cq N x cls i b) <= ln (/ T)).
      { apply ln_le_of; [exact Hp|]. apply Rmult_le_reg_l with T; [lra|].
        replace (T * (/ T)) with 1 by (field; lra). lra. }
      rewrite ln_Rinv in Hl by lra.
      assert (0 <= cq N x cls i b * (- ln T - ln (cq N x cls i b))) by (apply Rmult_le_pos; lra). nra.
    - assert (cq N x cls i b = 0) by lra. rewrite H. lra. }
  assert (Hs : sum K (fun b => cq N x cls i b * ln T) <= sum K (fun b => ent (cq N x cls i b)))
    by (apply sum_le; exact Hb).
  rewrite sum_ext with (g := fun b => ln T * cq N x cls i b) in Hs by (intros; ring).
  rewrite sum_scal, (cq_sum N K x cls i Htab Hi), Rmult_1_r in Hs.
  rewrite <- (exp_ln T) at 1 by lra. apply exp_le. exact Hs.
Qed.
