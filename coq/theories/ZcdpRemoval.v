(** Zero-concentrated privacy on record removal (implgraph's ``zcdp-dp``): the predicate, what bounds it and what it
    bounds (``zcdp-chord`` on record removal, ``divergence-order`` from and into it;
    implgraph.certify.lemmas.zcdp_chord, implgraph.certify.zcdp_facts).

    [zcdp_removal_le N K x rho]: for every record [i], the table's mean [P = tmean N x] and the mean
    [Q_i = rmean N x i] of the table without record [i] are each dominated by the other (else the level is infinite)
    and at zero-concentrated level at most [rho] both ways ([ZcdpOrder.zcdp_le]: the Renyi divergence of every real
    order [a > 1] at most [rho a]). This is the statement of a zero-concentrated side on record removal.

    - [zcdp_rconf]: A confining every [Q_i/P] to [[lo, hi]] ([RemovalChord.rconf]) within [[1/R, R]] ([R lo >= 1],
      [hi <= R], [R >= 1]) gives [rho = ln R (R - 1)/(R + 1)] ([ZcdpChord.zcdp_within] both ways); its instances
      [zcdp_chord_removal_pairs] (a pairwise level T: [RemovalChord.pairwise_rconf], [R = (N + T - 1)/N], as
      [N T/((N - 1) T + 1) <= R] by [(N - 1)(T - 1)^2 >= 0]), [zcdp_chord_removal_subset] (a two-sided subset
      level of size N - 1: [RemovalChord.subset_rconf], [R = T]) and [zcdp_chord_removal_single] (each record against
      the table, a two-sided subset level of size 1: [single_rconf_inv] and [single_rconf_hi], [R = T], as
      [(N - 1/T)/(N - 1) <= T] by [(T - 1)(T (N - 1) - 1) >= 0]);
    - [zcdp_kl_removal]: KL of record removal both ways at most [rho] ([ZcdpOrder.zcdp_kl_div]);
      [zcdp_renyi_removal]: Renyi of a natural order [n >= 2] at [rho n] ([ZcdpOrder.zcdp_renyi]). *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Events Entropy Divergence Zcdp ZcdpOrder RemovalChord.
From Implgraph Require Export ZcdpChord.
Open Scope R_scope.

Definition zcdp_removal_le (N K : nat) (x : nat -> nat -> R) (rho : R) : Prop :=
  forall i, (i < N)%nat ->
    (dominated K (tmean N x) (rmean N x i) /\ zcdp_le K (tmean N x) (rmean N x i) rho) /\
    (dominated K (rmean N x i) (tmean N x) /\ zcdp_le K (rmean N x i) (tmean N x) rho).

(** * A's interval of [Q_i/P] within [[1/R, R]] *)
Theorem zcdp_rconf N K x lo hi R :
  table N K x -> 2 <= INR N -> rconf N K x lo hi -> 1 <= R -> 1 <= R * lo -> hi <= R ->
  zcdp_removal_le N K x (ln R * (R - 1) / (R + 1)).
Proof.
  intros Htab HN2 HC HR Hlo Hhi i Hi.
  assert (HN : (0 < N)%nat) by (destruct N; [simpl in HN2; lra | lia]).
  assert (Hp : forall l, (l < K)%nat -> 0 <= tmean N x l) by (intros l Hl; apply (tmean_nonneg N K); auto).
  assert (Hq : forall l, (l < K)%nat -> 0 <= rmean N x i l) by (intros l Hl; apply (rmean_nonneg N K); auto).
  assert (Sp : sum K (tmean N x) = 1) by (apply tmean_sum; auto).
  assert (Sq : sum K (rmean N x i) = 1) by (apply (rmean_sum N K); auto).
  assert (W : within K (rmean N x i) (tmean N x) R).
  { intros l Hl. destruct (HC i l Hi Hl) as [A B]. pose proof (Hp l Hl). split; nra. }
  split; [apply zcdp_within; auto; apply within_sym; exact W | apply zcdp_within; auto].
Qed.

Theorem zcdp_chord_removal_pairs N K x T :
  table N K x -> pairwise_le N K x T -> 2 <= INR N -> 1 <= T ->
  zcdp_removal_le N K x (ln ((INR N + T - 1) / INR N) * ((INR N + T - 1) / INR N - 1) / ((INR N + T - 1) / INR N + 1)).
Proof.
  intros Htab HA HN2 HT.
  apply (zcdp_rconf N K x (INR N / (INR N + T - 1)) (INR N * T / (T * (INR N - 1) + 1))); auto.
  - apply pairwise_rconf; auto.
  - apply (Rmult_le_reg_r (INR N)); [lra|]. replace ((INR N + T - 1) / INR N * INR N) with (INR N + T - 1) by (field; lra).
    lra.
  - right. field. lra.
  - assert (D : 0 < T * (INR N - 1) + 1) by nra.
    apply (Rmult_le_reg_r (INR N * (T * (INR N - 1) + 1))); [nra|].
    replace (INR N * T / (T * (INR N - 1) + 1) * (INR N * (T * (INR N - 1) + 1))) with (INR N * INR N * T)
      by (field; lra).
    replace ((INR N + T - 1) / INR N * (INR N * (T * (INR N - 1) + 1))) with ((INR N + T - 1) * (T * (INR N - 1) + 1))
      by (field; lra).
    assert (0 <= (INR N - 1) * ((T - 1) * (T - 1))) by (apply Rmult_le_pos; [lra | apply Rle_0_sqr]). nra.
Qed.

Theorem zcdp_chord_removal_subset N K x T :
  table N K x -> subset_le TwoSided N K x (INR N - 1) T -> 2 <= INR N -> 1 <= T ->
  zcdp_removal_le N K x (ln T * (T - 1) / (T + 1)).
Proof.
  intros Htab HA HN2 HT.
  apply (zcdp_rconf N K x (1 / T) T); auto; [apply subset_rconf; auto; lra | right; field; lra | lra].
Qed.

Theorem zcdp_chord_removal_single N K x T :
  table N K x -> subset_le TwoSided N K x 1 T -> 2 <= INR N -> 1 <= T ->
  zcdp_removal_le N K x (ln T * (T - 1) / (T + 1)).
Proof.
  intros Htab HA HN2 HT.
  apply (zcdp_rconf N K x (1 / T) ((INR N - 1 / T) / (INR N - 1))); auto.
  - apply single_rconf_hi; auto. intros i l Hi Hl. apply (single_rconf_inv N K x T); auto.
  - right. field. lra.
  - apply (Rmult_le_reg_r (T * (INR N - 1))); [nra|].
    replace ((INR N - 1 / T) / (INR N - 1) * (T * (INR N - 1))) with (INR N * T - 1) by (field; lra).
    assert (0 <= (T - 1) * (T * (INR N - 1) - 1)) by (apply Rmult_le_pos; nra). nra.
Qed.

(** * What it bounds on the same pairs: KL at [rho], Renyi of a natural order [n >= 2] at [rho n] *)
Lemma removal_dists N K x i :
  table N K x -> 2 <= INR N -> (i < N)%nat ->
  (forall l, (l < K)%nat -> 0 <= tmean N x l) /\ (forall l, (l < K)%nat -> 0 <= rmean N x i l) /\
  sum K (tmean N x) = 1 /\ sum K (rmean N x i) = 1.
Proof.
  intros Htab HN2 Hi. assert (HN : (0 < N)%nat) by (destruct N; [simpl in HN2; lra | lia]).
  split; [intros l Hl; apply (tmean_nonneg N K); auto|]. split; [intros l Hl; apply (rmean_nonneg N K); auto|].
  split; [apply tmean_sum; auto | apply (rmean_sum N K); auto].
Qed.

Theorem zcdp_kl_removal N K x rho :
  table N K x -> 2 <= INR N -> zcdp_removal_le N K x rho -> div_removal_le KL N K x rho.
Proof.
  intros Htab HN2 HA i Hi. destruct (removal_dists N K x i Htab HN2 Hi) as [Hp [Hq [Sp Sq]]].
  destruct (HA i Hi) as [[D1 Z1] [D2 Z2]]. split; apply zcdp_kl_div; auto.
Qed.

Theorem zcdp_renyi_removal N K x rho n :
  table N K x -> 2 <= INR N -> zcdp_removal_le N K x rho -> (2 <= n)%nat ->
  div_removal_le (Renyi n) N K x (rho * INR n).
Proof.
  intros Htab HN2 HA Hn i Hi. destruct (removal_dists N K x i Htab HN2 Hi) as [Hp [Hq [Sp Sq]]].
  destruct (HA i Hi) as [[D1 Z1] [D2 Z2]]. split; apply zcdp_renyi; auto.
Qed.
