(** A cap on every class's top frequency bounds the class levels of the l-diversities (implgraph.certify.lemmas.top_cap;
    docs/arguments/top-cap.md). A's level caps each class's distribution [q] ([cq], its records' mean row) bucket by
    bucket:

    - [top_cap_le t]: every [q_b <= t] ((alpha, k)-anonymity at alpha = t: its class level is the top frequency);
    - [tail2_le c]: every [q_b <= c (1 - q_b)] (recursive (c, 2)-diversity at c: with l = 2 the tail is everything but
      the top, [r_1 <= c (r_2 + ... + r_m) = c (1 - r_1)]; a bucket below the top meets it too, as [q_b <= r_1]).

    Either gives [1 / max q >= x] with [x = max(1, 1/t)] or [x = 1 + 1/c] ([minent_ge x]), from which
    [Entropy.support_of_minent] and [Entropy.shannon_of_minent] give distinct and entropy l-diversity. A cap [t <= 0]
    is met by no table ([top_cap_empty]). *)
From Coq Require Import Reals Lra Lia ZArith.
From Flocq Require Import Raux.
From Implgraph Require Import Sums Tables Distance Events Columns Entropy Declared FloorLevel.
Open Scope R_scope.

Definition top_cap_le (N K : nat) x cls (t : R) : Prop :=
  forall i b, (i < N)%nat -> (b < K)%nat -> cq N x cls i b <= t.
Definition tail2_le (N K : nat) x cls (c : R) : Prop :=
  forall i b, (i < N)%nat -> (b < K)%nat -> cq N x cls i b <= c * (1 - cq N x cls i b).

(** A class's value is at most 1: the values are >= 0 and sum to 1. *)
Lemma cq_le_1 N K x cls i b : table N K x -> (i < N)%nat -> (b < K)%nat -> cq N x cls i b <= 1.
Proof.
  intros Htab Hi Hb. rewrite <- (cq_sum N K x cls i Htab Hi).
  rewrite <- (sum_single K b (cq N x cls i) Hb).
  apply sum_le. intros k Hk. destruct (Nat.eqb k b); [lra|]. apply cq_nonneg with K; auto.
Qed.

(** [1 / max q >= max(1, 1/t)] under the cap [t > 0]. *)
Lemma minent_of_cap N K x cls t :
  table N K x -> 0 < t -> top_cap_le N K x cls t -> minent_ge N K x cls (Rmax 1 (1 / t)).
Proof.
  intros Htab Ht HA i b Hi Hb. pose proof (cq_nonneg N K x cls i b Htab Hi Hb). specialize (HA i b Hi Hb).
  unfold Rmax. destruct (Rle_dec 1 (1 / t)).
  - apply Rle_trans with ((1 / t) * t); [apply Rmult_le_compat_l; [left; apply Rdiv_lt_0_compat; lra|lra]|].
    right. field. lra.
  - pose proof (cq_le_1 N K x cls i b Htab Hi Hb). lra.
Qed.

(** [1 / max q >= 1 + 1/c] under the tail ratio [c > 0] (l = 2). *)
Lemma minent_of_tail N K x cls c :
  0 < c -> tail2_le N K x cls c -> minent_ge N K x cls (1 + 1 / c).
Proof.
  intros Hc HA i b Hi Hb. specialize (HA i b Hi Hb).
  replace ((1 + 1 / c) * cq N x cls i b) with ((cq N x cls i b + c * cq N x cls i b) / c) by (field; lra).
  apply Rmult_le_reg_r with c; [lra|]. replace ((cq N x cls i b + c * cq N x cls i b) / c * c)
    with (cq N x cls i b + c * cq N x cls i b) by (field; lra). lra.
Qed.

(** No table of at least one record meets a cap [t <= 0]: its first class's values sum to 1. *)
Lemma top_cap_empty N K x cls t :
  table N K x -> (0 < N)%nat -> t <= 0 -> ~ top_cap_le N K x cls t.
Proof.
  intros Htab HN Ht HA. pose proof (cq_sum N K x cls 0 Htab HN) as H1.
  assert (Hs : sum K (cq N x cls 0) <= sum K (fun _ => 0)) by (apply sum_le; intros b Hb; specialize (HA 0%nat b HN Hb); lra).
  rewrite sum_zero in Hs. lra.
Qed.

Lemma minent_ge_weaken N K x cls U V :
  table N K x -> U <= V -> minent_ge N K x cls V -> minent_ge N K x cls U.
Proof.
  intros Htab H HV i b Hi Hb. specialize (HV i b Hi Hb). pose proof (cq_nonneg N K x cls i b Htab Hi Hb).
  apply Rle_trans with (V * cq N x cls i b); [apply Rmult_le_compat_r; lra|exact HV].
Qed.

(** Under a cap [t], whatever [t] and [N]: no record, nothing to bound; else [t > 0] and the bounds above. *)
Lemma top_cap_minent_max N K x cls t :
  table N K x -> top_cap_le N K x cls t -> minent_ge N K x cls (Rmax 1 (1 / t)).
Proof.
  intros Htab HA. destruct N as [|n]; [intros i b Hi; lia|].
  destruct (Rle_dec t 0) as [Ht|Ht]; [exfalso; exact (top_cap_empty (S n) K x cls t Htab (Nat.lt_0_succ n) Ht HA)|].
  apply minent_of_cap; auto; lra.
Qed.

Lemma top_cap_minent_inv N K x cls t :
  table N K x -> top_cap_le N K x cls t -> minent_ge N K x cls (1 / t).
Proof.
  intros Htab HA. destruct N as [|n]; [intros i b Hi; lia|].
  destruct (Rle_dec t 0) as [Ht|Ht]; [exfalso; exact (top_cap_empty (S n) K x cls t Htab (Nat.lt_0_succ n) Ht HA)|].
  apply minent_ge_weaken with (Rmax 1 (1 / t)); [exact Htab|apply Rmax_r|apply minent_of_cap; auto; lra].
Qed.

(** The bounds' maps: at least 1 (the hypothesis of [shannon_of_minent]), and a ceiling at least 2 above 1. *)
Lemma rmax_ge_1 y : 1 <= Rmax 1 y.
Proof. apply Rmax_l. Qed.

Lemma tail_ge_1 c : 0 < c -> 1 <= 1 + 1 / c.
Proof. intro Hc. assert (0 < 1 / c) by (apply Rdiv_lt_0_compat; lra). lra. Qed.

Lemma tail_gt_1 c : 0 < c -> 1 < 1 + 1 / c.
Proof. intro Hc. assert (0 < 1 / c) by (apply Rdiv_lt_0_compat; lra). lra. Qed.

Lemma two_le_ceil y : 1 < y -> 2 <= IZR (Zceil y).
Proof.
  intro Hy. destruct (Z_lt_le_dec (Zceil y) 2) as [H|H]; [|apply IZR_le in H; simpl in H; lra].
  exfalso. pose proof (Zceil_ub y). assert (IZR (Zceil y) <= 1) by (apply IZR_le; lia). lra.
Qed.

(** Weakening: a class level at least [V] is at least every [U <= V]. *)
Lemma support_ge_weaken N K x cls U V : U <= V -> support_ge N K x cls V -> support_ge N K x cls U.
Proof. intros H HV i Hi. specialize (HV i Hi). lra. Qed.

Lemma shannon_ge_weaken N K x cls U V : U <= V -> shannon_ge N K x cls V -> shannon_ge N K x cls U.
Proof. intros H HV i Hi. specialize (HV i Hi). lra. Qed.


(** B's weakest level 1, met by every table (implgraph.certify.lemmas.skew_family): [1/max q >= 1] ([q_b <= 1]) and
    [exp H >= 1] ([-q ln q >= 0] on [0, 1]). *)
Lemma minent_ge_one N K x cls : table N K x -> minent_ge N K x cls 1.
Proof. intros Htab i b Hi Hb. pose proof (cq_le_1 N K x cls i b Htab Hi Hb). lra. Qed.

Lemma ent_nonneg t : t <= 1 -> 0 <= ent t.
Proof.
  intro Ht. unfold ent. destruct (Rlt_dec 0 t) as [Hp|]; [|lra].
  pose proof (ln_le_minus_1 t Hp).
  assert (t * ln t <= t * 0) by (apply Rmult_le_compat_l; lra). lra.
Qed.

Lemma shannon_ge_one N K x cls : table N K x -> shannon_ge N K x cls 1.
Proof.
  intros Htab i Hi. unfold shannon. rewrite <- exp_0. apply exp_le.
  apply Rle_trans with (sum K (fun _ => 0)); [rewrite sum_zero; lra|].
  apply sum_le. intros b Hb. apply ent_nonneg, (cq_le_1 N K x cls i b Htab Hi Hb).
Qed.


(** B a level with a class floor [kB] above its weakest level [w], equal to a class level [X] where the floor holds
    (FloorLevel.floor_level_ge); A a level with a declared minimum class size [kA] (Declared.min_class_level): where
    [kB <= kA] the floor holds on every table meeting A, so B at least U wherever X is at least U
    ([floor_level_of_min_class]); elsewhere B at least its weakest [w], whatever U <= w ([FloorLevel.weakest_floor_level]). *)
Lemma floor_level_of_min_class N cls (kA kB w U : R) (X : Prop) :
  kB <= kA -> class_size_ge N cls kA -> X -> floor_level_ge N cls kB w U X.
Proof.
  intros Hk HA HX. right. split; [|exact HX].
  intros i Hi. specialize (HA i Hi). lra.
Qed.
