(** The corners lemma on the hexagon (implgraph.prover.arguments.corners, "Few records"; the certify lemma
    implgraph.certify.lemmas.corners): three records each within [[1/T, T]] of the table's mean (a two-sided subset
    level of size 1, [1 <= T < 2]). Bucket by bucket two records' ratios [(a, b)] lie in [[lo, hi]^2] and, the third
    ratio completing the three to 3, [lo + k <= a + b <= hi + k] with [lo = 1/T], [hi = T], [k = 3 - T - 1/T]: a hexagon
    whose vertices are the orderings of [(hi, lo, k)]. The perspective [g(a, b) = b phi(a/b)] is jointly convex
    ([persp_mix]), so an affine [h] at least [g] at the six vertices is at least [g] on the hexagon ([hex_point]: a
    vertical chord of the hexagon, its ends on edges), and summed with the masses of the mean every two records'
    divergence is at most [h(1, 1)] ([hex_conf], [hexagon_pairs]). For Renyi of order 2 the affine function through [g]
    at [(T, 1/T)], [(1/T, T)], [(1/T, k)] is at least [g] at the other three vertices (each gap a polynomial over
    [T^3 (T^2 - 3 T + 1) < 0], the polynomial's Bernstein coefficients on [[1, 2]] all [<= 0]), and its value at
    [(1, 1)] is [W2 T] ([corners_hexagon_renyi2], the theorem the generated proofs apply). *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Tactics Divergence RemovalChord Corners.
Open Scope R_scope.

(** * Joint convexity of the perspective *)
Lemma phi_mix phi r1 r2 mu : convex_pos phi -> 0 < r1 -> 0 < r2 -> 0 <= mu <= 1 ->
  phi (mu * r1 + (1 - mu) * r2) <= mu * phi r1 + (1 - mu) * phi r2.
Proof.
  intros Hc H1 H2 [M0 M1].
  destruct (Rtotal_order r1 r2) as [L|[E|G]].
  - assert (Hr : r1 <= mu * r1 + (1 - mu) * r2 <= r2) by (split; nra).
    pose proof (Hc r1 r2 H1 L _ Hr) as C.
    replace (mu * r1 + (1 - mu) * r2 - r1) with ((1 - mu) * (r2 - r1)) in C by ring.
    replace (r2 - (mu * r1 + (1 - mu) * r2)) with (mu * (r2 - r1)) in C by ring.
    set (u := phi (mu * r1 + (1 - mu) * r2)) in *. set (v := phi r2) in *. set (w := phi r1) in *.
    clearbody u v w. apply Rmult_le_reg_l with (r2 - r1); [lra|]. nra.
  - subst r2. replace (mu * r1 + (1 - mu) * r1) with r1 by ring. right; ring.
  - assert (Hr : r2 <= mu * r1 + (1 - mu) * r2 <= r1) by (split; nra).
    pose proof (Hc r2 r1 H2 G _ Hr) as C.
    replace (mu * r1 + (1 - mu) * r2 - r2) with (mu * (r1 - r2)) in C by ring.
    replace (r1 - (mu * r1 + (1 - mu) * r2)) with ((1 - mu) * (r1 - r2)) in C by ring.
    set (u := phi (mu * r1 + (1 - mu) * r2)) in *. set (v := phi r2) in *. set (w := phi r1) in *.
    clearbody u v w. apply Rmult_le_reg_l with (r1 - r2); [lra|]. nra.
Qed.

Lemma persp_mix phi a1 b1 a2 b2 t : convex_pos phi -> 0 < a1 -> 0 < b1 -> 0 < a2 -> 0 < b2 -> 0 <= t <= 1 ->
  persp phi (t * a1 + (1 - t) * a2) (t * b1 + (1 - t) * b2) <= t * persp phi a1 b1 + (1 - t) * persp phi a2 b2.
Proof.
  intros Hc Ha1 Hb1 Ha2 Hb2 [T0 T1]. unfold persp.
  set (b := t * b1 + (1 - t) * b2). assert (Hb : 0 < b) by (unfold b; nra).
  set (mu := t * b1 / b).
  assert (Hmu : 0 <= mu <= 1).
  { unfold mu. split; [apply Rmult_le_pos; [nra | left; apply Rinv_0_lt_compat; exact Hb] |].
    apply frac_le; [exact Hb | unfold b; nra]. }
  assert (E : (t * a1 + (1 - t) * a2) / b = mu * (a1 / b1) + (1 - mu) * (a2 / b2)).
  { unfold mu, b in *. field. repeat split; lra. }
  rewrite E.
  pose proof (phi_mix phi (a1 / b1) (a2 / b2) mu Hc ltac:(apply Rdiv_lt_0_compat; lra)
                ltac:(apply Rdiv_lt_0_compat; lra) Hmu) as P.
  apply Rmult_le_compat_l with (r := b) in P; [|lra].
  assert (Eb : b * mu = t * b1) by (unfold mu; field; lra).
  assert (E1 : b * (mu * phi (a1 / b1)) = t * (b1 * phi (a1 / b1))).
  { replace (b * (mu * phi (a1 / b1))) with (b * mu * phi (a1 / b1)) by ring. rewrite Eb. ring. }
  assert (E2 : b * ((1 - mu) * phi (a2 / b2)) = (1 - t) * (b2 * phi (a2 / b2))).
  { replace (b * ((1 - mu) * phi (a2 / b2))) with ((b - b * mu) * phi (a2 / b2)) by ring. rewrite Eb. unfold b. ring. }
  lra.
Qed.

(** Along an anti-diagonal [a + b = s]: [g] below its chord between [(p, s - p)] and [(q, s - q)]. *)
Lemma anti_chord phi p q s a : convex_pos phi -> 0 < p -> p < q -> q < s -> p <= a <= q ->
  (q - p) * persp phi a (s - a) <= (a - p) * persp phi q (s - q) + (q - a) * persp phi p (s - p).
Proof.
  intros Hc Hp Hpq Hqs [A1 A2].
  set (t := (a - p) / (q - p)).
  assert (Ht : 0 <= t <= 1) by (unfold t; split; [apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra]
                                                   | apply frac_le; lra]).
  pose proof (persp_mix phi q (s - q) p (s - p) t Hc ltac:(lra) ltac:(lra) Hp ltac:(lra) Ht) as M.
  replace (t * q + (1 - t) * p) with a in M by (unfold t; field; lra).
  replace (t * (s - q) + (1 - t) * (s - p)) with (s - a) in M by (unfold t; field; lra).
  apply Rmult_le_compat_l with (r := q - p) in M; [|lra].
  replace ((q - p) * (t * persp phi q (s - q) + (1 - t) * persp phi p (s - p)))
    with ((a - p) * persp phi q (s - q) + (q - a) * persp phi p (s - p)) in M by (unfold t; field; lra).
  exact M.
Qed.

(** * The hexagon *)
Definition haff (c0 c1 c2 a b : R) : R := c0 + c1 * a + c2 * b.

(** [g] at most [h] at the six vertices: the orderings of [(hi, lo, k)] as [(a, b)]. *)
Definition hex_ok (phi : R -> R) (lo k hi c0 c1 c2 : R) : Prop :=
  persp phi hi lo <= haff c0 c1 c2 hi lo /\ persp phi hi k <= haff c0 c1 c2 hi k /\
  persp phi k hi <= haff c0 c1 c2 k hi /\ persp phi lo hi <= haff c0 c1 c2 lo hi /\
  persp phi lo k <= haff c0 c1 c2 lo k /\ persp phi k lo <= haff c0 c1 c2 k lo.

Lemma hex_point phi lo k hi c0 c1 c2 a b : convex_pos phi -> 0 < lo -> lo < k -> k < hi ->
  hex_ok phi lo k hi c0 c1 c2 -> lo <= a <= hi -> lo <= b <= hi -> lo + k <= a + b -> a + b <= hi + k ->
  persp phi a b <= haff c0 c1 c2 a b.
Proof.
  intros Hc H0 Hlk Hkh [V1 [V2 [V3 [V4 [V5 V6]]]]] [A1 A2] [B1 B2] S1 S2.
  destruct (Rle_lt_dec a k) as [Ak|Ak].
  - (* the vertical chord from the edge a + b = lo + k up to the edge b = hi *)
    set (bl := lo + k - a).
    pose proof (chord_a phi lo k a hi Hc ltac:(lra) H0 Hlk (conj A1 Ak)) as C1.
    assert (G1 : (k - lo) * persp phi a hi <= (k - lo) * haff c0 c1 c2 a hi).
    { assert (M1 : (a - lo) * persp phi k hi <= (a - lo) * haff c0 c1 c2 k hi) by (apply Rmult_le_compat_l; lra).
      assert (M2 : (k - a) * persp phi lo hi <= (k - a) * haff c0 c1 c2 lo hi) by (apply Rmult_le_compat_l; lra).
      unfold haff in *. lra. }
    pose proof (anti_chord phi lo k (lo + k) a Hc H0 Hlk ltac:(lra) (conj A1 Ak)) as C2.
    replace (lo + k - k) with lo in C2 by ring. replace (lo + k - lo) with k in C2 by ring.
    assert (G2 : (k - lo) * persp phi a bl <= (k - lo) * haff c0 c1 c2 a bl).
    { assert (M1 : (a - lo) * persp phi k lo <= (a - lo) * haff c0 c1 c2 k lo) by (apply Rmult_le_compat_l; lra).
      assert (M2 : (k - a) * persp phi lo k <= (k - a) * haff c0 c1 c2 lo k) by (apply Rmult_le_compat_l; lra).
      unfold bl, haff in *. lra. }
    apply Rmult_le_reg_l in G1; [|lra]. apply Rmult_le_reg_l in G2; [|lra].
    pose proof (chord_b phi bl hi a b Hc ltac:(lra) ltac:(unfold bl; lra) ltac:(unfold bl; lra)
                  ltac:(unfold bl; lra)) as C3.
    assert (M1 : (b - bl) * persp phi a hi <= (b - bl) * haff c0 c1 c2 a hi)
      by (apply Rmult_le_compat_l; [unfold bl; lra | exact G1]).
    assert (M2 : (hi - b) * persp phi a bl <= (hi - b) * haff c0 c1 c2 a bl)
      by (apply Rmult_le_compat_l; [lra | exact G2]).
    apply Rmult_le_reg_l with (hi - bl); [unfold bl; lra|].
    unfold bl, haff in *. lra.
  - (* the vertical chord from the edge b = lo up to the edge a + b = hi + k *)
    set (bu := hi + k - a).
    pose proof (chord_a phi k hi a lo Hc H0 ltac:(lra) Hkh ltac:(lra)) as C1.
    assert (G1 : (hi - k) * persp phi a lo <= (hi - k) * haff c0 c1 c2 a lo).
    { assert (M1 : (a - k) * persp phi hi lo <= (a - k) * haff c0 c1 c2 hi lo) by (apply Rmult_le_compat_l; lra).
      assert (M2 : (hi - a) * persp phi k lo <= (hi - a) * haff c0 c1 c2 k lo) by (apply Rmult_le_compat_l; lra).
      unfold haff in *. lra. }
    pose proof (anti_chord phi k hi (hi + k) a Hc ltac:(lra) Hkh ltac:(lra) ltac:(lra)) as C2.
    replace (hi + k - hi) with k in C2 by ring. replace (hi + k - k) with hi in C2 by ring.
    assert (G2 : (hi - k) * persp phi a bu <= (hi - k) * haff c0 c1 c2 a bu).
    { assert (M1 : (a - k) * persp phi hi k <= (a - k) * haff c0 c1 c2 hi k) by (apply Rmult_le_compat_l; lra).
      assert (M2 : (hi - a) * persp phi k hi <= (hi - a) * haff c0 c1 c2 k hi) by (apply Rmult_le_compat_l; lra).
      unfold bu, haff in *. lra. }
    apply Rmult_le_reg_l in G1; [|lra]. apply Rmult_le_reg_l in G2; [|lra].
    pose proof (chord_b phi lo bu a b Hc ltac:(lra) H0 ltac:(unfold bu; lra) ltac:(unfold bu; lra)) as C3.
    assert (M1 : (b - lo) * persp phi a bu <= (b - lo) * haff c0 c1 c2 a bu)
      by (apply Rmult_le_compat_l; [lra | exact G2]).
    assert (M2 : (bu - b) * persp phi a lo <= (bu - b) * haff c0 c1 c2 a lo)
      by (apply Rmult_le_compat_l; [unfold bu; lra | exact G1]).
    apply Rmult_le_reg_l with (bu - lo); [unfold bu; lra|].
    unfold bu, haff in *. lra.
Qed.

(** One bucket of two records [p], [q] and the mean [m] (homogeneous: [a = p/m], [b = q/m]). *)
Lemma hex_bucket phi lo k hi c0 c1 c2 p q m : convex_pos phi -> 0 < lo -> lo < k -> k < hi ->
  hex_ok phi lo k hi c0 c1 c2 -> 0 < m -> lo * m <= p <= hi * m -> lo * m <= q <= hi * m ->
  (lo + k) * m <= p + q <= (hi + k) * m -> q * phi (p / q) <= c0 * m + c1 * p + c2 * q.
Proof.
  intros Hc H0 Hlk Hkh Hv Hm [P1 P2] [Q1 Q2] [S1 S2].
  assert (Hq : 0 < q) by nra.
  assert (Ha : lo <= p / m <= hi) by (split; [apply frac_ge | apply frac_le]; lra).
  assert (Hb : lo <= q / m <= hi) by (split; [apply frac_ge | apply frac_le]; lra).
  assert (Hs : p / m + q / m = (p + q) / m) by (field; lra).
  assert (Hs1 : lo + k <= p / m + q / m) by (rewrite Hs; apply frac_ge; lra).
  assert (Hs2 : p / m + q / m <= hi + k) by (rewrite Hs; apply frac_le; lra).
  pose proof (hex_point phi lo k hi c0 c1 c2 (p / m) (q / m) Hc H0 Hlk Hkh Hv Ha Hb Hs1 Hs2) as B.
  assert (E : q * phi (p / q) = m * persp phi (p / m) (q / m)).
  { unfold persp. replace (p / m / (q / m)) with (p / q) by (field; lra). field. lra. }
  rewrite E. apply Rmult_le_compat_l with (r := m) in B; [|lra].
  unfold haff in B. replace (m * (c0 + c1 * (p / m) + c2 * (q / m))) with (c0 * m + c1 * p + c2 * q) in B
    by (field; lra).
  exact B.
Qed.

(** Every record's ratio to the mean in [[lo, hi]] and every two records' sum of ratios in [[lo + k, hi + k]],
    bucket by bucket: every two records' divergence is at most [h(1, 1)]. *)
Theorem hex_conf dk N K x lo k hi c0 c1 c2 U :
  table N K x ->
  (forall r l, (r < N)%nat -> (l < K)%nat -> lo * tmean N x l <= x r l /\ x r l <= hi * tmean N x l) ->
  (forall i j l, (i < N)%nat -> (j < N)%nat -> i <> j -> (l < K)%nat ->
     (lo + k) * tmean N x l <= x i l + x j l /\ x i l + x j l <= (hi + k) * tmean N x l) ->
  0 < lo -> lo < k -> k < hi -> convex_pos (phi_of dk) -> hex_ok (phi_of dk) lo k hi c0 c1 c2 ->
  c0 + c1 + c2 <= dbound dk U -> div_pairs_le dk N K x U.
Proof.
  intros Htab Hb Hp H0 Hlk Hkh Hc Hv HU i j Hi Hj Hij.
  set (m := tmean N x) in *.
  assert (Hm0 : forall l, (l < K)%nat -> 0 <= m l) by (intros l Hl; apply (tmean_nonneg N K); auto).
  assert (Hz : forall r l, (r < N)%nat -> (l < K)%nat -> m l = 0 -> x r l = 0).
  { intros r l Hr Hl Z. destruct (Hb r l Hr Hl) as [B1 B2]. rewrite Z, Rmult_0_r in B1, B2. lra. }
  assert (Hd : dominated K (row x i) (row x j)).
  { intros l Hl Z. unfold row in *. apply (Hz i l Hi Hl). destruct (Hb j l Hj Hl) as [B1 _].
    pose proof (Hm0 l Hl). nra. }
  assert (Sm : sum K m = 1) by (apply tmean_sum; [exact Htab | lia]).
  assert (Si : sum K (row x i) = 1) by (apply (row_sum N K); assumption).
  assert (Sj : sum K (row x j) = 1) by (apply (row_sum N K); assumption).
  split; [exact Hd|]. apply Rle_trans with (c0 + c1 + c2); [|exact HU].
  assert (Hs : fdiv K (phi_of dk) (row x i) (row x j) <=
               sum K (fun l => c0 * m l + c1 * row x i l + c2 * row x j l)).
  { unfold fdiv. apply sum_le. intros l Hl. unfold row.
    destruct (Req_dec (m l) 0) as [Z|Z].
    - rewrite Z, (Hz i l Hi Hl Z), (Hz j l Hj Hl Z). right. ring.
    - pose proof (Hm0 l Hl). destruct (Hb i l Hi Hl). destruct (Hb j l Hj Hl). destruct (Hp i j l Hi Hj Hij Hl).
      apply (hex_bucket (phi_of dk) lo k hi); auto; lra. }
  rewrite !sum_plus, !sum_scal, Sm, Si, Sj in Hs. lra.
Qed.

(** Each record within [[1/T, T]] of the mean (a two-sided subset level of size 1). *)
Lemma box_bounds N K x T r l : table N K x -> subset_le TwoSided N K x 1 T -> 1 <= T -> (r < N)%nat ->
  (l < K)%nat -> 1 / T * tmean N x l <= x r l /\ x r l <= T * tmean N x l.
Proof.
  intros Htab HA HT Hr Hl. pose proof (tmean_nonneg N K x l Htab Hl) as Hm.
  assert (HNr : 0 < INR N) by (apply lt_0_INR; lia).
  destruct (single_bounds N K x T r l HA Hr Hl) as [A1 A2].
  assert (B1 : x r l <= T * tmean N x l /\ tmean N x l <= T * x r l).
  { unfold tmean. split.
    - apply Rmult_le_reg_l with (INR N); [exact HNr|].
      replace (INR N * (T * (sum N (col x l) / INR N))) with (T * sum N (col x l)) by (field; lra). exact A1.
    - apply Rmult_le_reg_l with (INR N); [exact HNr|].
      replace (INR N * (sum N (col x l) / INR N)) with (sum N (col x l)) by (field; lra). lra. }
  destruct B1 as [B1 B2]. split; [|exact B1].
  apply Rmult_le_reg_l with T; [lra|]. replace (T * (1 / T * tmean N x l)) with (tmean N x l) by (field; lra). lra.
Qed.

(** Three records: two records' sum is three times the mean less the third. *)
Lemma third_record x l i j : (i < 3)%nat -> (j < 3)%nat -> i <> j ->
  exists t, (t < 3)%nat /\ x i l + x j l = 3 * tmean 3 x l - x t l.
Proof.
  intros Hi Hj Hij. unfold tmean, col. simpl sum.
  destruct i as [|[|[|i]]]; destruct j as [|[|[|j]]]; try lia;
    [exists 2%nat | exists 1%nat | exists 2%nat | exists 0%nat | exists 1%nat | exists 0%nat];
    (split; [lia | simpl INR; field]).
Qed.

Theorem corners_hexagon dk K x T c0 c1 c2 U :
  table 3 K x -> subset_le TwoSided 3 K x 1 T -> 1 <= T -> T < 2 -> convex_pos (phi_of dk) ->
  hex_ok (phi_of dk) (1 / T) (3 - T - 1 / T) T c0 c1 c2 -> c0 + c1 + c2 <= dbound dk U -> div_pairs_le dk 3 K x U.
Proof.
  intros Htab HA HT HT2 Hc Hv HU.
  destruct (Rle_lt_or_eq_dec 1 T HT) as [HT1|HT1].
  - assert (Hlk : 1 / T < 3 - T - 1 / T).
    { apply Rmult_lt_reg_l with T; [lra|]. replace (T * (1 / T)) with 1 by (field; lra).
      replace (T * (3 - T - 1 / T)) with (3 * T - T * T - 1) by (field; lra). nra. }
    assert (Hkh : 3 - T - 1 / T < T).
    { apply Rmult_lt_reg_l with T; [lra|]. replace (T * (3 - T - 1 / T)) with (3 * T - T * T - 1) by (field; lra).
      nra. }
    apply (hex_conf dk 3 K x (1 / T) (3 - T - 1 / T) T c0 c1 c2 U Htab); auto.
    + intros r l Hr Hl. exact (box_bounds 3 K x T r l Htab HA HT Hr Hl).
    + intros i j l Hi Hj Hij Hl. destruct (third_record x l i j Hi Hj Hij) as [t [Ht E]].
      destruct (box_bounds 3 K x T t l Htab HA HT Ht Hl). rewrite E. split; nra.
    + apply Rdiv_lt_0_compat; lra.
  - (* T = 1: every record is the mean, and the hexagon is the point (1, 1) *)
    subst T. destruct Hv as [V1 _].
    assert (E : persp (phi_of dk) 1 (1 / 1) = phi_of dk 1).
    { unfold persp. replace (1 / (1 / 1)) with 1 by field. field. }
    rewrite E in V1. unfold haff in V1.
    apply (corners_pairs dk 3 K x 1 1 1 U Htab HA ltac:(lra) ltac:(lra) ltac:(right; field) ltac:(lra) Hc).
    rewrite corner_val_one. lra.
Qed.

(** * Renyi of order 2 *)
Definition hD (T : R) : R := T ^ 2 - 3 * T + 1.
Definition r2c0 (T : R) : R := (- T ^ 6 + 3 * T ^ 5 - 2 * T ^ 4 + 3 * T ^ 3 - 2 * T ^ 2 - 1) / (T ^ 3 * hD T).
Definition r2c1 (T : R) : R := (T ^ 6 - 3 * T ^ 5 + 2 * T ^ 4 - 3 * T ^ 3 + 2 * T ^ 2 - 3 * T + 2) / (T ^ 2 * hD T).
Definition r2c2 (T : R) : R := 1 / (T ^ 2 * hD T).

(** The supremum at three records, [1 <= T < 2]: [h(1, 1)] for the [h] through [g] at (T, 1/T), (1/T, T), (1/T, k). *)
Definition W2 (T : R) : R :=
  (T ^ 7 - 4 * T ^ 6 + 5 * T ^ 5 - 5 * T ^ 4 + 5 * T ^ 3 - 5 * T ^ 2 + 3 * T - 1) / (T ^ 3 * hD T).

Lemma hD_neg T : 1 <= T -> T < 2 -> hD T < 0.
Proof. intros H1 H2. unfold hD. nra. Qed.

Lemma r2_gap T a b NP : 1 <= T -> T < 2 -> 0 <= NP ->
  haff (r2c0 T) (r2c1 T) (r2c2 T) a b - persp (phi_of (Renyi 2)) a b = NP / (T ^ 3 * - hD T) ->
  persp (phi_of (Renyi 2)) a b <= haff (r2c0 T) (r2c1 T) (r2c2 T) a b.
Proof.
  intros H1 H2 HP E. pose proof (hD_neg T H1 H2).
  assert (HQ : 0 < T ^ 3 * - hD T) by (apply Rmult_lt_0_compat; [apply pow_lt; lra | lra]).
  assert (0 <= NP / (T ^ 3 * - hD T)) by (unfold Rdiv; apply Rmult_le_pos; [exact HP | left; apply Rinv_0_lt_compat; exact HQ]).
  lra.
Qed.

Lemma hex_ok_renyi2 T : 1 <= T -> T < 2 ->
  hex_ok (phi_of (Renyi 2)) (1 / T) (3 - T - 1 / T) T (r2c0 T) (r2c1 T) (r2c2 T).
Proof.
  intros H1 H2. pose proof (hD_neg T H1 H2) as HDn.
  assert (HT0 : T <> 0) by lra. assert (HD0 : hD T <> 0) by lra.
  assert (HK0 : 3 - T - 1 / T <> 0).
  { apply Rgt_not_eq. apply Rmult_lt_reg_l with T; [lra|]. rewrite Rmult_0_r.
    replace (T * (3 - T - 1 / T)) with (3 * T - T * T - 1) by (field; lra). nra. }
  assert (HK1 : 3 * T - T * T - 1 <> 0) by nra. assert (HK2 : 3 * T - T ^ 2 - 1 <> 0) by nra.
  assert (HK3 : - T ^ 2 + 3 * T - 1 <> 0) by nra.
  unfold hD in HD0.
  repeat split.
  - right. unfold persp, phi_of, haff, r2c0, r2c1, r2c2, hD. field; nz_from_hyps.
  - apply (r2_gap T _ _ (- T ^ 8 + 3 * T ^ 7 - 2 * T ^ 6 + T ^ 2 - 3 * T + 2) H1 H2).
    + replace (- T ^ 8 + 3 * T ^ 7 - 2 * T ^ 6 + T ^ 2 - 3 * T + 2) with
        (6 * (T - 1) ^ 2 * (2 - T) ^ 6 + 45 * (T - 1) ^ 3 * (2 - T) ^ 5 + 140 * (T - 1) ^ 4 * (2 - T) ^ 4
         + 225 * (T - 1) ^ 5 * (2 - T) ^ 3 + 186 * (T - 1) ^ 6 * (2 - T) ^ 2 + 63 * (T - 1) ^ 7 * (2 - T) ^ 1)
        by ring. pos.
    + unfold persp, phi_of, haff, r2c0, r2c1, r2c2, hD. field; nz_from_hyps.
  - apply (r2_gap T _ _ (T ^ 8 - 6 * T ^ 7 + 14 * T ^ 6 - 24 * T ^ 5 + 45 * T ^ 4 - 60 * T ^ 3 + 44 * T ^ 2
                         - 18 * T + 4) H1 H2).
    + replace (T ^ 8 - 6 * T ^ 7 + 14 * T ^ 6 - 24 * T ^ 5 + 45 * T ^ 4 - 60 * T ^ 3 + 44 * T ^ 2 - 18 * T + 4) with
        (6 * (T - 1) ^ 2 * (2 - T) ^ 6 + 42 * (T - 1) ^ 3 * (2 - T) ^ 5 + 115 * (T - 1) ^ 4 * (2 - T) ^ 4
         + 150 * (T - 1) ^ 5 * (2 - T) ^ 3 + 90 * (T - 1) ^ 6 * (2 - T) ^ 2 + 18 * (T - 1) ^ 7 * (2 - T) ^ 1)
        by ring. pos.
    + unfold persp, phi_of, haff, r2c0, r2c1, r2c2, hD. field; nz_from_hyps.
  - right. unfold persp, phi_of, haff, r2c0, r2c1, r2c2, hD. field; nz_from_hyps.
  - right. unfold persp, phi_of, haff, r2c0, r2c1, r2c2, hD. field; nz_from_hyps.
  - apply (r2_gap T _ _ (2 * T ^ 8 - 15 * T ^ 7 + 43 * T ^ 6 - 60 * T ^ 5 + 45 * T ^ 4 - 24 * T ^ 3 + 16 * T ^ 2
                         - 9 * T + 2) H1 H2).
    + replace (2 * T ^ 8 - 15 * T ^ 7 + 43 * T ^ 6 - 60 * T ^ 5 + 45 * T ^ 4 - 24 * T ^ 3 + 16 * T ^ 2 - 9 * T + 2)
        with (3 * (T - 1) ^ 3 * (2 - T) ^ 5 + 20 * (T - 1) ^ 4 * (2 - T) ^ 4 + 45 * (T - 1) ^ 5 * (2 - T) ^ 3
              + 39 * (T - 1) ^ 6 * (2 - T) ^ 2 + 9 * (T - 1) ^ 7 * (2 - T) ^ 1) by ring. pos.
    + unfold persp, phi_of, haff, r2c0, r2c1, r2c2, hD. field; nz_from_hyps.
Qed.

Lemma W2_sum T : 1 <= T -> T < 2 -> r2c0 T + r2c1 T + r2c2 T = W2 T.
Proof.
  intros H1 H2. pose proof (hD_neg T H1 H2). assert (T <> 0) by lra. assert (hD T <> 0) by lra.
  unfold r2c0, r2c1, r2c2, W2, hD in *. field; nz_from_hyps.
Qed.

(** [W2 T >= 1]: [h] is at least [g] at (1, 1), a point of the hexagon (at T = 1, [W2 1 = 1]). *)
Lemma W2_ge_one T : 1 <= T -> T < 2 -> 1 <= W2 T.
Proof.
  intros H1 H2. rewrite <- (W2_sum T H1 H2). pose proof (hex_ok_renyi2 T H1 H2) as Hv.
  destruct (Rle_lt_or_eq_dec 1 T H1) as [HT|HT].
  - assert (Hlk : 1 / T < 3 - T - 1 / T).
    { apply Rmult_lt_reg_l with T; [lra|]. replace (T * (1 / T)) with 1 by (field; lra).
      replace (T * (3 - T - 1 / T)) with (3 * T - T * T - 1) by (field; lra). nra. }
    assert (Hkh : 3 - T - 1 / T < T).
    { apply Rmult_lt_reg_l with T; [lra|]. replace (T * (3 - T - 1 / T)) with (3 * T - T * T - 1) by (field; lra).
      nra. }
    assert (Hl1 : 1 / T <= 1) by (apply frac_le; lra).
    assert (A1 : 1 / T <= 1 <= T) by (split; lra).
    assert (S1 : 1 / T + (3 - T - 1 / T) <= 1 + 1) by lra.
    assert (S2 : 1 + 1 <= T + (3 - T - 1 / T)) by lra.
    pose proof (hex_point (phi_of (Renyi 2)) (1 / T) (3 - T - 1 / T) T (r2c0 T) (r2c1 T) (r2c2 T) 1 1 convex_renyi2
                  ltac:(apply Rdiv_lt_0_compat; lra) Hlk Hkh Hv A1 A1 S1 S2) as P.
    unfold persp, phi_of, haff in P. replace (1 * (1 / 1) ^ 2) with 1 in P by field. lra.
  - subst T. destruct Hv as [V1 _]. unfold persp, phi_of, haff in V1.
    replace (1 / 1 * (1 / (1 / 1)) ^ 2) with 1 in V1 by field. lra.
Qed.

(** The theorem the generated proofs apply: three records each within [[1/T, T]] of the mean, [1 <= T < 2], and
    [W2 T <= X], [ln X <= U]: every two records' Renyi divergence of order 2 is at most U. *)
Theorem corners_hexagon_renyi2 K x T X U :
  table 3 K x -> subset_le TwoSided 3 K x 1 T -> 1 <= T -> T < 2 -> W2 T <= X -> ln X <= U ->
  div_pairs_le (Renyi 2) 3 K x U.
Proof.
  intros Htab HA H1 H2 HX HU.
  apply (corners_hexagon (Renyi 2) K x T (r2c0 T) (r2c1 T) (r2c2 T) U Htab HA H1 H2 convex_renyi2
           (hex_ok_renyi2 T H1 H2)).
  rewrite (W2_sum T H1 H2). simpl dbound. replace ((1 + 1 - 1) * U) with U by ring.
  pose proof (W2_ge_one T H1 H2).
  apply Rle_trans with X; [exact HX|]. rewrite <- (exp_ln X) by lra.
  destruct HU as [HU|HU]; [left; apply exp_increasing; exact HU | rewrite HU; right; reflexivity].
Qed.
