(** Pure privacy between records bounds zero-concentrated privacy between records, tightly (implgraph's
    ``zcdp-chord`` argument; implgraph.certify.lemmas.zcdp_chord).

    [zcdp_pairs_le N K x rho]: every ordered pair of distinct records [(i, j)] has [row x i] dominated by [row x j]
    (else the level is infinite) and zero-concentrated level at most [rho] ([ZcdpOrder.zcdp_le]: the Renyi divergence
    of every real order [a > 1] at most [rho a]). This is the statement of a zero-concentrated B between pairs.

    - [zcdp_within]: two distributions within ratio [R >= 1] of each other in every bucket ([Divergence.within]) are
      at [rho = ln R (R - 1)/(R + 1)] both ways (each direction its own application); the pairs below and the
      removal pairs of [ZcdpRemoval] are its instances;
    - [zcdp_chord_pairs]: a table at pairwise ratio level [T >= 1] ([Tables.pairwise_le]: every bucket's ratio between
      two records in [[1/T, T]]) is at [rho = ln T (T - 1)/(T + 1)] = [eps tanh(eps/2)] ([eps = ln T]): the chord of
      [r^a] over [[1/T, T]] and the tanh lemma ([Zcdp.pure_zcdp_pair], through [zcdp_within]); the Renyi sum [rsum]
      of [ZcdpOrder] is the sum of [Zcdp] there, as no bucket has [p_l = 0 < q_l] ([rsum_bounded]).
    - [zcdp_rr_lower]: randomized response at [T] (two buckets, [p = (T, 1)/(T + 1)], [q = (1, T)/(T + 1)]) has
      Kullback-Leibler divergence [ln T (T - 1)/(T + 1)], so no smaller [rho] bounds it ([ZcdpOrder.zcdp_kl]): the
      bound is attained. *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Entropy Divergence Zcdp ZcdpOrder.
Open Scope R_scope.

Definition zcdp_pairs_le (N K : nat) (x : nat -> nat -> R) (rho : R) : Prop :=
  forall i j, (i < N)%nat -> (j < N)%nat -> i <> j ->
    dominated K (row x i) (row x j) /\ zcdp_le K (row x i) (row x j) rho.

(** Where [q_l > 0] forces [p_l > 0] (and [q_l = 0] forces [p_l = 0]) the Renyi sum is [Zcdp]'s. *)
Lemma rsum_bounded K p q a :
  (forall l, (l < K)%nat -> 0 <= q l) -> dominated K p q -> (forall l, (l < K)%nat -> 0 < q l -> 0 < p l) ->
  rsum K p q a = sum K (fun l => q l * Rpower (p l / q l) a).
Proof.
  intros Hq Hd Hpos. unfold rsum. apply sum_ext. intros l Hl. unfold rterm.
  destruct (Rlt_dec 0 (p l)) as [P|P]; [reflexivity|].
  destruct (Req_dec (q l) 0) as [Z|Z]; [rewrite Z; ring|].
  exfalso. apply P, Hpos; [exact Hl|]. pose proof (Hq l Hl). lra.
Qed.

(** Two distributions within ratio [R >= 1] of each other, bucket by bucket ([Divergence.within]: [p_l <= R q_l],
    [q_l <= R p_l]), are at zero-concentrated level [ln R (R - 1)/(R + 1)]: the chord of [r^a] over [[1/R, R]] and
    the tanh lemma ([Zcdp.pure_zcdp_pair]). *)
Theorem zcdp_within K p q R :
  (forall l, (l < K)%nat -> 0 <= p l) -> (forall l, (l < K)%nat -> 0 <= q l) -> sum K p = 1 -> sum K q = 1 ->
  within K p q R -> 1 <= R -> dominated K p q /\ zcdp_le K p q (ln R * (R - 1) / (R + 1)).
Proof.
  intros Hp Hq Sp Sq HW HR.
  assert (HR0 : 0 < R) by lra.
  assert (Hd : dominated K p q).
  { intros l Hl Z. destruct (HW l Hl) as [H1 _]. pose proof (Hp l Hl). rewrite Z in H1. lra. }
  assert (Hr : forall l, (l < K)%nat -> 0 < q l -> 1 / R <= p l / q l <= R).
  { intros l Hl Hpos. destruct (HW l Hl) as [H1 H2]. exact (ratio_between (p l) (q l) R HR0 Hpos H1 H2). }
  assert (Hpos : forall l, (l < K)%nat -> 0 < q l -> 0 < p l).
  { intros l Hl Q. destruct (HW l Hl) as [_ H2]. pose proof (Hp l Hl). nra. }
  split; [exact Hd|]. intros a Ha. unfold rdiv. rewrite (rsum_bounded K _ _ a Hq Hd Hpos).
  pose proof (pure_zcdp_pair K p q R a HR Ha Hq Sq Sp Hd Hr) as P.
  replace (ln R * (R - 1) / (R + 1) * a) with (a * (ln R * (R - 1) / (R + 1))) by ring. exact P.
Qed.

Theorem zcdp_chord_pairs N K x T :
  table N K x -> pairwise_le N K x T -> 1 <= T -> zcdp_pairs_le N K x (ln T * (T - 1) / (T + 1)).
Proof.
  intros Htab HA HT i j Hi Hj _.
  apply zcdp_within; [intros l Hl; destruct Htab as [Hn _]; apply Hn; auto
                     | intros l Hl; destruct Htab as [Hn _]; apply Hn; auto
                     | apply (row_sum N K x i Htab Hi) | apply (row_sum N K x j Htab Hj) | | exact HT].
  intros l Hl. unfold row. split; apply HA; auto.
Qed.

(** * Randomized response at [T] attains it *)
Definition rr_p (T : R) (l : nat) : R := match l with O => T / (T + 1) | _ => 1 / (T + 1) end.
Definition rr_q (T : R) (l : nat) : R := match l with O => 1 / (T + 1) | _ => T / (T + 1) end.

Lemma rr_kl T : 1 <= T -> kl 2 (rr_p T) (rr_q T) = ln T * (T - 1) / (T + 1).
Proof.
  intro HT.
  assert (H1 : 0 < T + 1) by lra.
  assert (Hp : forall l, (l < 2)%nat -> 0 <= rr_p T l).
  { intros l _. destruct l; unfold rr_p; left; apply Rdiv_lt_0_compat; lra. }
  assert (Hq : forall l, (l < 2)%nat -> 0 <= rr_q T l).
  { intros l _. destruct l; unfold rr_q; left; apply Rdiv_lt_0_compat; lra. }
  assert (P0 : 0 < T / (T + 1)) by (apply Rdiv_lt_0_compat; lra).
  assert (P1 : 0 < 1 / (T + 1)) by (apply Rdiv_lt_0_compat; lra).
  assert (Hd : dominated 2 (rr_p T) (rr_q T)).
  { intros l _ Z. exfalso. destruct l; unfold rr_q in Z; lra. }
  rewrite (kl_sum 2 _ _ Hp Hq Hd). simpl.
  unfold rr_p, rr_q.
  destruct (Rlt_dec 0 (T / (T + 1))) as [_|N0]; [|contradiction].
  destruct (Rlt_dec 0 (1 / (T + 1))) as [_|N1]; [|contradiction].
  replace (T / (T + 1) / (1 / (T + 1))) with T by (field; lra).
  replace (1 / (T + 1) / (T / (T + 1))) with (/ T) by (field; lra).
  rewrite ln_Rinv by lra. field. lra.
Qed.

Theorem zcdp_rr_lower T rho :
  1 <= T -> zcdp_le 2 (rr_p T) (rr_q T) rho -> ln T * (T - 1) / (T + 1) <= rho.
Proof.
  intros HT Hz. rewrite <- (rr_kl T HT).
  assert (H1 : 0 < T + 1) by lra.
  apply zcdp_kl; [| | | |exact Hz].
  - intros l _. destruct l; unfold rr_p; left; apply Rdiv_lt_0_compat; lra.
  - intros l _. destruct l; unfold rr_q; left; apply Rdiv_lt_0_compat; lra.
  - simpl. unfold rr_p. field. lra.
  - intros l Hl Z. destruct l as [|[|l]]; [| |lia]; unfold rr_q in Z.
    + exfalso. assert (1 / (T + 1) > 0) by (apply Rdiv_lt_0_compat; lra). lra.
    + exfalso. assert (T / (T + 1) > 0) by (apply Rdiv_lt_0_compat; lra). lra.
Qed.

(** And randomized response is at pairwise level [T] and at that zero-concentrated level: both directions have
    ratios [T] and [1/T] (the theorem above, [N = 2], gives [rho <= ln T (T - 1)/(T + 1)] there). *)
