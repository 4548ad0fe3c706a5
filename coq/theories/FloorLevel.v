(** A level whose parameter k is a minimum class size above its weakest level [w] only, and which equals another
    class level X on every table whose classes all have at least k records (p-sensitive k-anonymity: [w = 0], X
    distinct l-diversity, the fewest values a class holds; implgraph.definitions.capabilities.MinClassSizeAboveWeakest
    with [level_of]). "The level is at least T" is [T <= w] (every table meets the weakest level) or classes of at
    least k records with X at least T ([floor_level_ge]). The upper bound of a [weakest-family] certificate whose B is
    such a level ([weakest_floor_level]: at most its weakest, on every table), and the two tight f of a
    [floor-level] certificate (implgraph.certify.lemmas.floor_level): such a level above [w] gives X, the fewest values
    a class holds, at least [ceiling(T)] ([floor_level_support]); the smallest class's size above [k - 1] gives it at
    least 1 ([floor_level_of_size]); classes of at least k records on fewer than 2 k records are one class
    ([floor_level_class_size]); frequency and entropy l-diversity are at least 1, their weakest, on every table
    ([weakest_minent], [weakest_shannon]). *)
From Coq Require Import Reals Lra Lia ZArith.
From Flocq Require Import Raux.
From Implgraph Require Import Sums Tables Entropy.
Open Scope R_scope.

(** At least [T]: [T] at most the weakest level [w], or every class of at least [k] records and [X] (the other
    level at least [T]). *)
Definition floor_level_ge (N : nat) (cls : nat -> nat) (k w T : R) (X : Prop) : Prop :=
  T <= w \/ (class_size_ge N cls k /\ X).

(** Every table is at least its weakest level. *)
Lemma weakest_floor_level N cls k w T X : T <= w -> floor_level_ge N cls k w T X.
Proof. intros H. left. exact H. Qed.

(** [same]: above [w] the floor holds and X, the fewest values a class holds (a natural number), is at least T, so
    at least [ceiling(T)], and at least [ceiling(u)] for every [u <= T]. *)
Lemma floor_level_support N K x cls k w T u : w < T -> u <= T ->
  floor_level_ge N cls k w T (support_ge N K x cls T) -> support_ge N K x cls (IZR (Zceil u)).
Proof.
  intros Hw Hu [H | [_ H]]; [lra|].
  intros i Hi. specialize (H i Hi). unfold support in *. rewrite card_cnt in *.
  assert (IZR (Zceil u) <= IZR (Zceil T)) by (apply IZR_le, Zceil_le; exact Hu).
  pose proof (IZR_le_nat_ceil T _ H). lra.
Qed.

(** A count of records above [k - 1], [k] a natural number, is at least [k]. *)
Lemma class_size_nat N cls (k s : R) : IsNat k -> k - 1 < s -> class_size_ge N cls s -> class_size_ge N cls k.
Proof.
  intros [n Hn] Hs H i Hi. specialize (H i Hi). unfold card in *. subst k.
  assert (Hc : card N (classof cls i) = INR (cnt N (classof cls i))) by apply card_cnt.
  unfold card in Hc. rewrite Hc in *.
  destruct (le_lt_dec n (cnt N (classof cls i))) as [Hle|Hlt].
  - apply le_INR. exact Hle.
  - exfalso. assert (Hs1 : INR (S (cnt N (classof cls i))) <= INR n) by (apply le_INR; lia).
    rewrite S_INR in Hs1. lra.
Qed.

(** [size]: the smallest class's size above [k - 1] gives classes of at least [k] records, and each class holds at
    least one value: the level at least any [u <= 1]. *)
Lemma floor_level_of_size N K x cls (k T u : R) : table N K x -> IsNat k -> k - 1 < T -> u <= 1 ->
  class_size_ge N cls T -> floor_level_ge N cls k 0 u (support_ge N K x cls u).
Proof.
  intros Htab Hk HT Hu HA. right. split.
  - exact (class_size_nat N cls k T Hk HT HA).
  - intros i Hi. pose proof (support_pos N K x cls i Htab Hi). lra.
Qed.

(** [floor]: above [w] the classes have at least [k] records. *)
Lemma floor_level_floor N cls k w T X : w < T -> floor_level_ge N cls k w T X -> class_size_ge N cls k.
Proof. intros Hw [H | [H _]]; [lra | exact H]. Qed.

(** Classes of at least [k] records on fewer than [2 k] records: one class, the whole table (a record [j] outside
    record [i]'s class has a class of [>= k] records outside it too). *)
Lemma one_class_below N cls (k : R) : class_size_ge N cls k -> INR N < 2 * k -> class_size_ge N cls (INR N).
Proof.
  intros H HN i Hi.
  destruct (Rle_lt_dec (INR N) (card N (classof cls i))) as [Hle|Hlt]; [exact Hle|exfalso].
  assert (Hc : card N (compl (classof cls i)) = INR N - card N (classof cls i)) by apply card_compl.
  assert (Hpos : (0 < cnt N (compl (classof cls i)))%nat).
  { rewrite card_cnt in Hc. apply INR_lt. simpl. lra. }
  destruct (exists_min N (compl (classof cls i)) (fun _ => 0) Hpos) as [j [Hj [Xj _]]].
  assert (Hsub : card N (classof cls j) <= card N (compl (classof cls i))).
  { unfold card, sumS. apply sum_le. intros m Hm. unfold compl, classof in *.
    destruct (Nat.eqb (cls m) (cls j)) eqn:E1; [|destruct (negb (Nat.eqb (cls m) (cls i))); lra].
    apply Nat.eqb_eq in E1. destruct (Nat.eqb (cls m) (cls i)) eqn:E2; simpl; [|lra].
    exfalso. apply Nat.eqb_eq in E2. rewrite E1 in E2. rewrite E2, Nat.eqb_refl in Xj. discriminate. }
  pose proof (H i Hi). pose proof (H j Hj). lra.
Qed.

(** [floor]: the smallest class's size is at least [N] below [2 k] records, else at least [k]. *)
Lemma floor_level_class_size N cls k w T X u : w < T -> floor_level_ge N cls k w T X ->
  u <= (if Rlt_dec (INR N) (2 * k) then INR N else k) -> class_size_ge N cls u.
Proof.
  intros Hw HA Hu. pose proof (floor_level_floor N cls k w T X Hw HA) as Hk.
  intros i Hi. destruct (Rlt_dec (INR N) (2 * k)) as [Hlt|Hge].
  - pose proof (one_class_below N cls k Hk Hlt i Hi). lra.
  - pose proof (Hk i Hi). lra.
Qed.

(** A class's distribution is at most 1 on each bucket. *)
Lemma cq_le1 N K x cls i b : table N K x -> (i < N)%nat -> (b < K)%nat -> cq N x cls i b <= 1.
Proof.
  intros Htab Hi Hb. pose proof (cq_sum N K x cls i Htab Hi) as Hs.
  rewrite <- (sum_single K b (cq N x cls i) Hb).
  rewrite <- Hs. apply sum_le. intros c Hc. destruct (Nat.eqb c b); [lra|].
  apply (cq_nonneg N K x cls i c Htab Hi Hc).
Qed.

(** The weakest levels of the l-diversities' frequency and entropy: 1 on every table. *)
Lemma weakest_minent N K x cls u : table N K x -> u <= 1 -> minent_ge N K x cls u.
Proof.
  intros Htab Hu i b Hi Hb. pose proof (cq_le1 N K x cls i b Htab Hi Hb). pose proof (cq_nonneg N K x cls i b Htab Hi Hb).
  destruct (Rle_dec 0 u); nra.
Qed.

Lemma weakest_shannon N K x cls u : table N K x -> u <= 1 -> shannon_ge N K x cls u.
Proof.
  intros Htab Hu i Hi. unfold shannon.
  assert (H0 : 0 <= sum K (fun b => ent (cq N x cls i b))).
  { apply sum_nonneg. intros b Hb. unfold ent. destruct (Rlt_dec 0 (cq N x cls i b)) as [Hp|]; [|lra].
    pose proof (cq_le1 N K x cls i b Htab Hi Hb).
    assert (ln (cq N x cls i b) <= 0).
    { destruct (Rlt_le_dec (cq N x cls i b) 1) as [Hl|Hg].
      - rewrite <- ln_1. left. apply ln_increasing; lra.
      - replace (cq N x cls i b) with 1 by lra. rewrite ln_1. lra. }
    nra. }
  destruct (Rle_lt_or_eq_dec 0 _ H0) as [Hlt|Heq].
  - pose proof (exp_increasing 0 _ Hlt). rewrite exp_0 in H. lra.
  - rewrite <- Heq, exp_0. lra.
Qed.
