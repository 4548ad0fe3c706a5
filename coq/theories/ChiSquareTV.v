(** The chi-square bound of a class against the table, one way ([implgraph.certify.lemmas.chi_square_tv],
    [case: class]): each class's Renyi divergence of order 2 from the table at most [T], [c = exp T - 1], gives every
    event [a - p <= sqrt c / 2] and [a - p <= max(1/2, c/(1 + c))] ([a] the class's mass, [p] the table's).

    - one way, by merging buckets ([ChiSquare.chi_merge], [chi_two]): [(a - p)^2 <= c p (1 - p)] ([chi_one_way]);
    - [c p (1 - p) = c/4 - c (p - 1/2)^2 <= c/4] ([chi_half_bound]);
    - where [t = a - p > 1/2]: [p <= 1 - t < 1/2 < t] and [t (1 - t) - p (1 - p) = (1 - t - p)(t - p) >= 0], so
      [t^2 <= c t (1 - t)], [t <= c (1 - t)], [t <= c/(1 + c) = 1 - exp (- T)] ([chi_max_bound]).

    Between records and on record removal the library's [ChiSquare.chi_pairs_slack] (both ways: [chi_g T]) and
    [RemovalScaling.removal_scaling] (a slack between records over [N] on removal) serve. *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Entropy Events Distance DistanceLemmas Divergence CeilingChord Compose Pinsker
  ChiSquare.
Open Scope R_scope.

Lemma chi_one_way K p q E T :
  (forall l, (l < K)%nat -> 0 <= p l) -> (forall l, (l < K)%nat -> 0 <= q l) -> sum K p = 1 -> sum K q = 1 ->
  div_le (Renyi 2) K p q T ->
  (sumS K E p - sumS K E q) ^ 2 <= (exp T - 1) * sumS K E q * (1 - sumS K E q) /\
  0 <= sumS K E p <= 1 /\ 0 <= sumS K E q <= 1 /\ 0 <= exp T - 1.
Proof.
  intros Hp Hq Sp Sq [Hd H1]. simpl dbound in H1.
  replace ((1 + 1 - 1) * T) with T in H1 by ring.
  pose proof (sumS_dist_bounds K p E Hp Sp) as Ha. pose proof (sumS_dist_bounds K q E Hq Sq) as Hb.
  assert (Hc : 0 <= exp T - 1) by (pose proof (chi_merge K p q E 1 1 Hq Sp Sq Hd); lra).
  repeat split; try lra.
  apply chi_two; try lra. intros t u. pose proof (chi_merge K p q E t u Hq Sp Sq Hd). lra.
Qed.

Lemma chi_half_bound a b c : 0 <= c -> 0 <= b <= 1 -> (a - b) ^ 2 <= c * b * (1 - b) -> a - b <= sqrt c / 2.
Proof.
  intros Hc Hb H.
  assert (H4 : (2 * (a - b)) ^ 2 <= c).
  { assert (0 <= c * (b - 1 / 2) ^ 2) by (apply Rmult_le_pos; [lra | apply pow2_ge_0]).
    assert (E : c * b * (1 - b) = c / 4 - c * (b - 1 / 2) ^ 2) by field.
    replace ((2 * (a - b)) ^ 2) with (4 * (a - b) ^ 2) by ring. lra. }
  destruct (Rle_dec (a - b) 0) as [Hn|Hn].
  - pose proof (sqrt_pos c). lra.
  - assert (S : sqrt ((2 * (a - b)) ^ 2) <= sqrt c) by (apply sqrt_le_1_alt; exact H4).
    rewrite sqrt_pow2 in S by lra. lra.
Qed.

Lemma chi_max_bound a b c : 0 <= c -> 0 <= a <= 1 -> 0 <= b <= 1 -> (a - b) ^ 2 <= c * b * (1 - b) ->
  a - b <= Rmax (1 / 2) (c / (1 + c)).
Proof.
  intros Hc Ha Hb H.
  destruct (Rle_dec (a - b) (1 / 2)) as [Hh|Hh].
  - apply Rle_trans with (1 / 2); [exact Hh | apply Rmax_l].
  - apply Rle_trans with (c / (1 + c)); [| apply Rmax_r].
    assert (Hg : b * (1 - b) <= (a - b) * (1 - (a - b))).
    { assert (E : (a - b) * (1 - (a - b)) - b * (1 - b) = (1 - a) * (a - b - b)) by ring.
      assert (0 <= (1 - a) * (a - b - b)) by (apply Rmult_le_pos; lra). lra. }
    assert (Ht2 : (a - b) ^ 2 <= c * ((a - b) * (1 - (a - b)))).
    { apply Rle_trans with (c * b * (1 - b)); [exact H|]. rewrite Rmult_assoc. apply Rmult_le_compat_l; lra. }
    assert (Ht : a - b <= c * (1 - (a - b))).
    { apply Rmult_le_reg_l with (a - b); [lra|].
      replace ((a - b) * (a - b)) with ((a - b) ^ 2) by ring.
      replace ((a - b) * (c * (1 - (a - b)))) with (c * ((a - b) * (1 - (a - b)))) by ring. exact Ht2. }
    apply Rmult_le_reg_r with (1 + c); [lra|].
    replace (c / (1 + c) * (1 + c)) with c by (field; lra). lra.
Qed.

Lemma chi_event_half K p q E T :
  (forall l, (l < K)%nat -> 0 <= p l) -> (forall l, (l < K)%nat -> 0 <= q l) -> sum K p = 1 -> sum K q = 1 ->
  div_le (Renyi 2) K p q T -> sumS K E p - sumS K E q <= sqrt (exp T - 1) / 2.
Proof.
  intros Hp Hq Sp Sq HA. destruct (chi_one_way K p q E T Hp Hq Sp Sq HA) as [H [Ha [Hb Hc]]].
  apply chi_half_bound; auto.
Qed.

Lemma chi_event_max K p q E T :
  (forall l, (l < K)%nat -> 0 <= p l) -> (forall l, (l < K)%nat -> 0 <= q l) -> sum K p = 1 -> sum K q = 1 ->
  div_le (Renyi 2) K p q T -> sumS K E p - sumS K E q <= Rmax (1 / 2) (1 - exp (- T)).
Proof.
  intros Hp Hq Sp Sq HA. destruct (chi_one_way K p q E T Hp Hq Sp Sq HA) as [H [Ha [Hb Hc]]].
  assert (E1 : (exp T - 1) / (1 + (exp T - 1)) = 1 - exp (- T)).
  { rewrite exp_Ropp. pose proof (exp_pos T). field. lra. }
  rewrite <- E1. apply chi_max_bound; auto.
Qed.

(** * Each class against the table *)
Theorem chi_class_half N K x cls T :
  table N K x -> 0 < INR N -> div_class_le (Renyi 2) N K x cls T -> tv_le N K x cls (sqrt (exp T - 1) / 2).
Proof.
  intros Htab HN0 HA i E Hi. unfold mass.
  assert (HN : (0 < N)%nat) by (apply INR_lt; simpl; lra).
  apply (chi_event_half K (cmean N x cls i) (tmean N x) E T); auto.
  - intros l Hl. apply (cmean_nonneg N K); auto.
  - intros l Hl. apply (tmean_nonneg N K); auto.
  - apply (cmean_sum N K); auto.
  - apply (tmean_sum N K); auto.
Qed.

Theorem chi_class_max N K x cls T :
  table N K x -> 0 < INR N -> div_class_le (Renyi 2) N K x cls T -> tv_le N K x cls (Rmax (1 / 2) (1 - exp (- T))).
Proof.
  intros Htab HN0 HA i E Hi. unfold mass.
  assert (HN : (0 < N)%nat) by (apply INR_lt; simpl; lra).
  apply (chi_event_max K (cmean N x cls i) (tmean N x) E T); auto.
  - intros l Hl. apply (cmean_nonneg N K); auto.
  - intros l Hl. apply (tmean_nonneg N K); auto.
  - apply (cmean_sum N K); auto.
  - apply (tmean_sum N K); auto.
Qed.

(** Both, and the class's ceiling [(N - s)/N] ([Pinsker.class_tv_min]): a bound [U] at least their minimum. *)
Theorem chi_class_tv N K x cls s T U :
  table N K x -> partition N cls s -> 0 < s -> 0 < INR N -> div_class_le (Renyi 2) N K x cls T ->
  Rmin (Rmin (sqrt (exp T - 1) / 2) (Rmax (1 / 2) (1 - exp (- T)))) ((INR N - s) / INR N) <= U ->
  tv_le N K x cls U.
Proof.
  intros Htab Hp Hs HN0 HA HU.
  apply (class_tv_min N K x cls s (Rmin (sqrt (exp T - 1) / 2) (Rmax (1 / 2) (1 - exp (- T)))) U Htab Hp Hs);
    [| exact HU].
  apply (min_bound (fun V => tv_le N K x cls V)).
  - apply (chi_class_half N K x cls T Htab HN0 HA).
  - apply (chi_class_max N K x cls T Htab HN0 HA).
Qed.
