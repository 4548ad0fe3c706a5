(** The subset corners lemma (implgraph.certify.lemmas.corners_subset): every [s] records' mean within [[1/T, T]] of
    the table (a two-sided subset level of any size [1 <= s <= N - 1]) bounds the hockey stick of order [g >= 1]
    between every two records, stated as the additive slack on every event ([slack_pairs_le N K x U g]:
    [x_i(E) <= g x_k(E) + U]), which asks no domination.

    Each record's ratio to the table's mean [m] lies in [[sublo, subhi]] ([SubsetChord.subset_xconf]), so in any
    [[lo, hi]] around it. Bucket by bucket, with [p = x_i(l)], [q = x_k(l)] in [[lo m, hi m]] and
    [G = max(0, hi - g lo)] ([box_bucket]):

      (hi - lo) max(0, p - g q) <= G (p - lo m)   and   (hi - lo) max(0, p - g q) <= G (hi m - q)

    (where [p > g q]: [(hi - lo)(p - g q) <= (hi - lo)(p - g lo m) = (hi - g lo)(p - lo m) - lo (g - 1)(hi m - p)],
    and [(hi - lo)(p - g q) <= (hi - lo)(hi m - g q) = (hi - g lo)(hi m - q) - hi (g - 1)(q - lo m)]; where
    [hi < g lo], [p - g q <= (hi - g lo) m <= 0]). Summed over the event's buckets and then all of them
    ([sum p = sum q = sum m = 1]): [(hi - lo)(x_i(E) - g x_k(E)) <= G min(1 - lo, hi - 1)] ([box_pair]), so B is at
    most [box_val g lo hi = max(0, hi - g lo) min(1 - lo, hi - 1)/(hi - lo)] where [T > 1]
    ([corners_subset_hockey]; [lo < 1 < hi] there, [SubsetChord.sub_lt]); at [T = 1] every record is the mean and B
    is at most any [U >= 0] ([corners_subset_one]). *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Tactics Events Entropy Divergence RemovalChord RemovalChordPieces SubsetChord.
Open Scope R_scope.

Definition box_val (g lo hi : R) : R := Rmax 0 (hi - g * lo) * Rmin (1 - lo) (hi - 1) / (hi - lo).

(** * One bucket *)
Lemma box_bucket g lo hi p q m : 1 <= g -> 0 <= lo -> lo <= hi -> 0 <= m ->
  lo * m <= p -> p <= hi * m -> lo * m <= q -> q <= hi * m ->
  (hi - lo) * Rmax 0 (p - g * q) <= Rmax 0 (hi - g * lo) * (p - lo * m) /\
  (hi - lo) * Rmax 0 (p - g * q) <= Rmax 0 (hi - g * lo) * (hi * m - q).
Proof.
  intros Hg H0 Hlh Hm P1 P2 Q1 Q2.
  assert (Hp : 0 <= p - lo * m) by lra. assert (Hq : 0 <= hi * m - q) by lra.
  unfold Rmax. destruct (Rle_dec 0 (p - g * q)) as [C|C]; destruct (Rle_dec 0 (hi - g * lo)) as [D|D].
  - assert (A1 : (hi - lo) * (g * (q - lo * m)) >= 0) by (apply Rle_ge, Rmult_le_pos; [lra | apply Rmult_le_pos; lra]).
    assert (A2 : lo * ((g - 1) * (hi * m - p)) >= 0) by (apply Rle_ge, Rmult_le_pos; [lra | apply Rmult_le_pos; lra]).
    assert (A3 : (hi - lo) * (hi * m - p) >= 0) by (apply Rle_ge, Rmult_le_pos; lra).
    assert (A4 : hi * ((g - 1) * (q - lo * m)) >= 0).
    { apply Rle_ge, Rmult_le_pos; [nra | apply Rmult_le_pos; lra]. }
    split; nra.
  - assert (A : (hi - g * lo) * m <= 0) by nra.
    assert (E : p - g * q = 0) by nra. rewrite E. split; nra.
  - rewrite Rmult_0_r. split; apply Rmult_le_pos; lra.
  - rewrite Rmult_0_r, !Rmult_0_l. split; lra.
Qed.

(** * Two records, an event *)
Lemma box_pair N K x lo hi g E i k :
  1 <= g -> table N K x -> (0 < N)%nat -> xconf N K x lo hi -> 0 <= lo -> lo < hi -> (i < N)%nat -> (k < N)%nat ->
  (hi - lo) * (mass K E (fun b => x i b) - g * mass K E (fun b => x k b)) <=
    Rmax 0 (hi - g * lo) * Rmin (1 - lo) (hi - 1).
Proof.
  intros Hg Htab HN HC H0 Hlh Hi Hk.
  set (G := Rmax 0 (hi - g * lo)). set (m := tmean N x).
  assert (HG : 0 <= G) by apply Rmax_l.
  assert (Hb : forall l, (l < K)%nat ->
            (hi - lo) * Rmax 0 (x i l - g * x k l) <= G * (x i l - lo * m l) /\
            (hi - lo) * Rmax 0 (x i l - g * x k l) <= G * (hi * m l - x k l)).
  { intros l Hl. destruct (HC i l Hi Hl), (HC k l Hk Hl).
    apply box_bucket; unfold m; try lra. apply (tmean_nonneg N K x l Htab Hl). }
  set (S := sum K (fun l => Rmax 0 (x i l - g * x k l))).
  assert (HE : mass K E (fun b => x i b) - g * mass K E (fun b => x k b) <= S).
  { assert (Eq : mass K E (fun b => x i b) - g * mass K E (fun b => x k b) = sumS K E (fun l => x i l - g * x k l)).
    { unfold mass, sumS. rewrite <- sum_scal, <- sum_minus. apply sum_ext. intros l _. destruct (E l); ring. }
    rewrite Eq. apply Rle_trans with (sumS K E (fun l => Rmax 0 (x i l - g * x k l))).
    - apply sumS_le. intros l _ _. apply Rmax_r.
    - apply sumS_le_sum. intros l _. apply Rmax_l. }
  assert (Sm : sum K m = 1) by (apply tmean_sum; [exact Htab | exact HN]).
  destruct Htab as [Hn Hr].
  assert (Si : sum K (x i) = 1) by exact (Hr i Hi). assert (Sk : sum K (x k) = 1) by exact (Hr k Hk).
  assert (Sm' : sum K (fun l => m l) = 1) by exact Sm.
  assert (S1 : (hi - lo) * S <= G * (1 - lo)).
  { unfold S. rewrite <- sum_scal.
    apply Rle_trans with (sum K (fun l => G * (x i l - lo * m l))); [apply sum_le; intros l Hl; apply Hb; exact Hl|].
    rewrite sum_scal, sum_minus, sum_scal. rewrite ?Sm, ?Sm', ?Si, ?(Hr i Hi). lra. }
  assert (S2 : (hi - lo) * S <= G * (hi - 1)).
  { unfold S. rewrite <- sum_scal.
    apply Rle_trans with (sum K (fun l => G * (hi * m l - x k l))); [apply sum_le; intros l Hl; apply Hb; exact Hl|].
    rewrite sum_scal, sum_minus, sum_scal. rewrite ?Sm, ?Sm', ?Sk, ?(Hr k Hk). lra. }
  apply Rle_trans with ((hi - lo) * S); [apply Rmult_le_compat_l; lra|].
  unfold Rmin. destruct (Rle_dec (1 - lo) (hi - 1)); lra.
Qed.

(** * Every two records *)
Theorem corners_subset_hockey g N K x s T lo hi U :
  1 <= g -> table N K x -> subset_le TwoSided N K x s T -> IsNat s -> 1 <= s -> s <= INR N - 1 -> 1 < T ->
  lo <= sublo N s T -> subhi N s T <= hi -> 0 <= lo -> box_val g lo hi <= U -> slack_pairs_le N K x U g.
Proof.
  intros Hg Htab HA Hs Hs1 HsN HT Hlo Hhi H0 HU E i k Hi Hk.
  assert (HN : (0 < N)%nat) by (destruct N; [simpl in HsN; lra | lia]).
  assert (HC := xconf_weaken N K x _ _ lo hi Htab (subset_xconf N K x s T Htab HA Hs Hs1 HsN ltac:(lra)) Hlo Hhi).
  destruct (sub_lt N s T lo hi Hs1 HsN HT Hlo Hhi) as [Hl1 Hh1].
  pose proof (box_pair N K x lo hi g E i k Hg Htab HN HC H0 ltac:(lra) Hi Hk) as B.
  assert (V : mass K E (fun b => x i b) - g * mass K E (fun b => x k b) <= box_val g lo hi).
  { unfold box_val. apply Rmult_le_reg_l with (hi - lo); [lra|].
    replace ((hi - lo) * (Rmax 0 (hi - g * lo) * Rmin (1 - lo) (hi - 1) / (hi - lo)))
      with (Rmax 0 (hi - g * lo) * Rmin (1 - lo) (hi - 1)) by (field; lra). exact B. }
  lra.
Qed.

(** At [T = 1] every record is the table's mean. *)
Theorem corners_subset_one g N K x s U :
  1 <= g -> table N K x -> subset_le TwoSided N K x s 1 -> IsNat s -> 1 <= s -> s <= INR N - 1 -> 0 <= U ->
  slack_pairs_le N K x U g.
Proof.
  intros Hg Htab HA Hs Hs1 HsN HU E i k Hi Hk.
  assert (Hlo : 1 <= sublo N s 1).
  { unfold sublo. apply Rle_trans with (INR N - (INR N - 1) * 1); [lra|].
    eapply Rle_trans; [apply Rmax_l | apply Rmax_r]. }
  assert (Hhi : subhi N s 1 <= 1).
  { unfold subhi. eapply Rle_trans; [apply Rmin_l | unfold Rdiv; rewrite Rinv_1; lra]. }
  assert (HC := xconf_weaken N K x _ _ 1 1 Htab (subset_xconf N K x s 1 Htab HA Hs Hs1 HsN ltac:(lra)) Hlo Hhi).
  assert (Hik : mass K E (fun b => x i b) <= mass K E (fun b => x k b)).
  { unfold mass. apply sumS_le. intros l Hl _. destruct (HC i l Hi Hl), (HC k l Hk Hl). lra. }
  assert (Hk0 : 0 <= mass K E (fun b => x k b)).
  { unfold mass. apply sumS_nonneg. intros l Hl. destruct Htab as [Hn _]. apply Hn; auto. }
  nra.
Qed.

(** The generated proofs' last step: [box_val] against U's text with the same ends (each maximum and minimum by
    cases, each case by linear arithmetic or [field]). *)
Ltac box_close :=
  unfold box_val, Rmax, Rmin;
  repeat match goal with |- context [Rle_dec ?a ?b] => destruct (Rle_dec a b) end;
  first [lra | apply Req_le; field; repeat split; intro; lra | nra].
