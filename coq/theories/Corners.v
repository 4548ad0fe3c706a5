(** The corners lemma (implgraph.certify.lemmas.corners): each record against the table's mean within ratio T both
    ways (a two-sided subset level of size 1) bounds an f-divergence between every two records.

    Bucket by bucket, with [m] the table's mean row, [a = x_i/m] and [b = x_j/m] lie in [[1/T, T]], inside the
    certificate's box [[lo, hi]] ([0 < lo <= 1/T], [T <= hi]), and [x_j phi(x_i/x_j) = m g(a, b)] with
    [g(a, b) = b phi(a/b)] ([persp], the perspective of phi). [g] is convex in [a] for a fixed [b] ([chord_a]: phi's
    chord on [[lo/b, hi/b]]) and in [b] for a fixed [a] ([chord_b]: phi's chord on [[a/hi, a/lo]], rescaled), so on
    the box it lies below the bilinear interpolation of its four corners' values; at the corner (hi, hi) that value is
    at most [g(hi, lo) + g(lo, hi) - g(lo, lo)] ([corner_diag]: g is linear on the diagonal, and phi(1) lies below
    phi's chord on [[lo/hi, hi/lo]]), so g lies below the affine function through its values at (hi, lo), (lo, hi) and
    (lo, lo) ([corner_box], [corner_bucket]). Summed with the weights [m] ([sum m a = sum m b = sum m = 1]) the
    divergence is at most that function's value at (1, 1), [corner_val phi lo hi] ([corners_pairs]; at T = 1 every
    record is the mean and the divergence is phi(1)).

    The kinds' values ([0 < lo <= 1 <= hi]): KL [(1 - lo) ln(hi/lo)], Renyi of order 2 (the sum, [exp] of the level)
    [lo + (hi^2 + hi lo - lo^2)(1 - lo)/(lo hi)], total variation [1 - lo], the hockey stick of order [g >= 1]
    [max(hi - g lo, 0)(1 - lo)/(hi - lo)]; at [lo = 1/T], [hi = T]: [2 (T - 1) ln T/T], [T^2 - T + 1 - 1/T^2 +
    1/T^3], [(T - 1)/T] and [max(T^2 - g, 0)/(T (T + 1))] ([corners_kl], [corners_renyi2], [corners_tv],
    [corners_hockey]: the theorems the generated proofs apply). *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Events Entropy Divergence RemovalChord CeilingChord.
Open Scope R_scope.

(** phi below its chord on every interval of positive reals (every kind's [phi_of]). *)
Definition convex_pos (phi : R -> R) : Prop := forall lo hi, 0 < lo -> lo < hi -> below_chord phi lo hi.

Definition persp (phi : R -> R) (a b : R) : R := b * phi (a / b).

(** The affine function through g's values at (hi, lo), (lo, hi) and (lo, lo), at (1, 1). *)
Definition corner_val (phi : R -> R) (lo hi : R) : R :=
  persp phi lo lo + (persp phi hi lo + persp phi lo hi - 2 * persp phi lo lo) * (1 - lo) / (hi - lo).

(** * Quotients against a positive denominator *)
Lemma frac_le a b c : 0 < c -> a <= b * c -> a / c <= b.
Proof. intros Hc H. apply Rmult_le_reg_r with c; [exact Hc|]. replace (a / c * c) with a by (field; lra). exact H. Qed.

Lemma frac_ge a b c : 0 < c -> b * c <= a -> b <= a / c.
Proof. intros Hc H. apply Rmult_le_reg_r with c; [exact Hc|]. replace (a / c * c) with a by (field; lra). exact H. Qed.

Lemma frac_lt a b c : 0 < c -> a < b * c -> a / c < b.
Proof. intros Hc H. apply Rmult_lt_reg_r with c; [exact Hc|]. replace (a / c * c) with a by (field; lra). exact H. Qed.

(** * g below its chords, in each argument *)
Lemma chord_a phi lo hi a b : convex_pos phi -> 0 < b -> 0 < lo -> lo < hi -> lo <= a <= hi ->
  (hi - lo) * persp phi a b <= (a - lo) * persp phi hi b + (hi - a) * persp phi lo b.
Proof.
  intros Hc Hb H0 Hlh [H1 H2]. unfold persp.
  assert (Hl : 0 < lo / b) by (apply Rdiv_lt_0_compat; lra).
  assert (Hlh' : lo / b < hi / b) by (apply frac_lt; [lra | replace (hi / b * b) with hi by (field; lra); lra]).
  assert (Hr : lo / b <= a / b <= hi / b).
  { split; unfold Rdiv; apply Rmult_le_compat_r; try lra; left; apply Rinv_0_lt_compat; lra. }
  pose proof (Hc _ _ Hl Hlh' _ Hr) as C.
  set (u := phi (a / b)) in *. set (v := phi (hi / b)) in *. set (w := phi (lo / b)) in *. clearbody u v w.
  apply Rmult_le_compat_l with (r := b * b) in C; [|nra].
  replace (b * b * ((hi / b - lo / b) * u)) with ((hi - lo) * (b * u)) in C by (field; lra).
  replace (b * b * ((a / b - lo / b) * v + (hi / b - a / b) * w)) with ((a - lo) * (b * v) + (hi - a) * (b * w))
    in C by (field; lra).
  exact C.
Qed.

Lemma chord_b phi lo hi a b : convex_pos phi -> 0 < a -> 0 < lo -> lo < hi -> lo <= b <= hi ->
  (hi - lo) * persp phi a b <= (b - lo) * persp phi a hi + (hi - b) * persp phi a lo.
Proof.
  intros Hc Ha H0 Hlh [H1 H2]. unfold persp.
  assert (Hl : 0 < a / hi) by (apply Rdiv_lt_0_compat; lra).
  assert (Hlh' : a / hi < a / lo)
    by (unfold Rdiv; apply Rmult_lt_compat_l; [lra | apply Rinv_lt_contravar; nra]).
  assert (Hr : a / hi <= a / b <= a / lo)
    by (unfold Rdiv; split; apply Rmult_le_compat_l; try lra; apply Rinv_le_contravar; lra).
  pose proof (Hc _ _ Hl Hlh' _ Hr) as C.
  set (u := phi (a / b)) in *. set (v := phi (a / lo)) in *. set (w := phi (a / hi)) in *. clearbody u v w.
  apply Rmult_le_compat_l with (r := b * lo * hi / a) in C; 
    [|apply Rlt_le, Rdiv_lt_0_compat; [apply Rmult_lt_0_compat; [apply Rmult_lt_0_compat |] | ]; lra].
  replace (b * lo * hi / a * ((a / lo - a / hi) * u)) with ((hi - lo) * (b * u)) in C by (field; lra).
  replace (b * lo * hi / a * ((a / b - a / hi) * v + (a / lo - a / b) * w))
    with ((b - lo) * (hi * w) + (hi - b) * (lo * v)) in C by (field; lra).
  exact C.
Qed.

(** At the corner (hi, hi): g is linear on the diagonal, and (hi, hi), (lo, lo) have the midpoint of (hi, lo), (lo, hi). *)
Lemma corner_diag phi lo hi : convex_pos phi -> 0 < lo -> lo < hi ->
  persp phi hi hi + persp phi lo lo <= persp phi hi lo + persp phi lo hi.
Proof.
  intros Hc H0 Hlh. unfold persp.
  replace (hi / hi) with 1 by (field; lra). replace (lo / lo) with 1 by (field; lra).
  assert (Hl : 0 < lo / hi) by (apply Rdiv_lt_0_compat; lra).
  assert (H1 : lo / hi <= 1) by (apply frac_le; lra).
  assert (H2 : 1 <= hi / lo) by (apply frac_ge; lra).
  assert (H3 : lo / hi < hi / lo) by (apply Rlt_le_trans with 1; [apply frac_lt; lra | exact H2]).
  pose proof (Hc _ _ Hl H3 1 (conj H1 H2)) as C.
  set (u := phi 1) in *. set (v := phi (hi / lo)) in *. set (w := phi (lo / hi)) in *. clearbody u v w.
  apply Rmult_le_compat_l with (r := lo * hi / (hi - lo)) in C; [|apply Rlt_le, Rdiv_lt_0_compat; nra].
  replace (lo * hi / (hi - lo) * ((hi / lo - lo / hi) * u)) with (hi * u + lo * u) in C by (field; lra).
  replace (lo * hi / (hi - lo) * ((1 - lo / hi) * v + (hi / lo - 1) * w)) with (lo * v + hi * w) in C
    by (field; lra).
  exact C.
Qed.

(** g below the affine function through its values at (hi, lo), (lo, hi), (lo, lo), on the box. *)
Lemma corner_box phi lo hi a b : convex_pos phi -> 0 < lo -> lo < hi -> lo <= a <= hi -> lo <= b <= hi ->
  (hi - lo) * persp phi a b <=
    (hi - lo) * persp phi lo lo + (persp phi hi lo - persp phi lo lo) * (a - lo)
    + (persp phi lo hi - persp phi lo lo) * (b - lo).
Proof.
  intros Hc H0 Hlh Ha Hb.
  pose proof (chord_a phi lo hi a b Hc ltac:(lra) H0 Hlh Ha) as H1.
  pose proof (chord_b phi lo hi hi b Hc ltac:(lra) H0 Hlh Hb) as H2.
  pose proof (chord_b phi lo hi lo b Hc H0 H0 Hlh Hb) as H3.
  pose proof (corner_diag phi lo hi Hc H0 Hlh) as H4.
  set (gab := persp phi a b) in *. set (ghb := persp phi hi b) in *. set (glb := persp phi lo b) in *.
  set (G1 := persp phi hi lo) in *. set (G2 := persp phi lo hi) in *. set (G3 := persp phi hi hi) in *.
  set (G4 := persp phi lo lo) in *. clearbody gab ghb glb G1 G2 G3 G4.
  assert (E0 : (hi - lo) * ((hi - lo) * gab) <= (hi - lo) * ((a - lo) * ghb + (hi - a) * glb))
    by (apply Rmult_le_compat_l; lra).
  assert (E1 : (a - lo) * ((hi - lo) * ghb) <= (a - lo) * ((b - lo) * G3 + (hi - b) * G1))
    by (apply Rmult_le_compat_l; lra).
  assert (E2 : (hi - a) * ((hi - lo) * glb) <= (hi - a) * ((b - lo) * G2 + (hi - b) * G4))
    by (apply Rmult_le_compat_l; lra).
  assert (E3 : (a - lo) * (b - lo) * G3 <= (a - lo) * (b - lo) * (G1 + G2 - G4))
    by (apply Rmult_le_compat_l; [apply Rmult_le_pos |]; lra).
  apply Rmult_le_reg_l with (hi - lo); [lra|].
  lra.
Qed.

(** The same, one bucket of two records [p], [q] and the mean [m] (homogeneous: [a = p/m], [b = q/m]). *)
Lemma corner_bucket phi lo hi p q m : convex_pos phi -> 0 < lo -> lo < hi -> 0 < m ->
  lo * m <= p <= hi * m -> lo * m <= q <= hi * m ->
  (hi - lo) * (q * phi (p / q)) <=
    (hi - lo) * persp phi lo lo * m + (persp phi hi lo - persp phi lo lo) * (p - lo * m)
    + (persp phi lo hi - persp phi lo lo) * (q - lo * m).
Proof.
  intros Hc H0 Hlh Hm [P1 P2] [Q1 Q2].
  assert (Hq : 0 < q) by nra.
  assert (Ha : lo <= p / m <= hi) by (split; [apply frac_ge | apply frac_le]; lra).
  assert (Hb : lo <= q / m <= hi) by (split; [apply frac_ge | apply frac_le]; lra).
  pose proof (corner_box phi lo hi (p / m) (q / m) Hc H0 Hlh Ha Hb) as B.
  assert (E : q * phi (p / q) = m * persp phi (p / m) (q / m)).
  { unfold persp. replace (p / m / (q / m)) with (p / q) by (field; lra). field. lra. }
  rewrite E.
  set (G1 := persp phi hi lo) in *. set (G2 := persp phi lo hi) in *. set (G4 := persp phi lo lo) in *.
  set (g := persp phi (p / m) (q / m)) in *. clearbody G1 G2 G4 g.
  apply Rmult_le_compat_l with (r := m) in B; [|lra].
  replace (m * ((hi - lo) * G4 + (G1 - G4) * (p / m - lo) + (G2 - G4) * (q / m - lo)))
    with ((hi - lo) * G4 * m + (G1 - G4) * (p - lo * m) + (G2 - G4) * (q - lo * m)) in B by (field; lra).
  replace ((hi - lo) * (m * g)) with (m * ((hi - lo) * g)) by ring.
  exact B.
Qed.

(** * Every two records *)
Lemma corner_ends T lo hi : 1 <= T -> lo <= 1 / T -> T <= hi -> lo <= 1 /\ 1 <= hi.
Proof. intros HT Hlo Hhi. assert (1 / T <= 1) by (apply frac_le; lra). split; lra. Qed.

Lemma corner_val_one phi : corner_val phi 1 1 = phi 1.
Proof.
  unfold corner_val, persp. replace (1 / 1) with 1 by field. replace (1 - 1) with 0 by ring.
  unfold Rdiv. rewrite Rinv_0, !Rmult_0_r. ring.
Qed.

(** Every record's ratio to the table's mean within [[lo, hi]] ([0 < lo <= 1 <= hi]), bucket by bucket: every two
    records' divergence is at most [corner_val]. *)
Theorem corners_conf k N K x lo hi U :
  table N K x ->
  (forall r l, (r < N)%nat -> (l < K)%nat -> lo * tmean N x l <= x r l /\ x r l <= hi * tmean N x l) ->
  0 < lo -> lo <= 1 -> 1 <= hi ->
  convex_pos (phi_of k) -> corner_val (phi_of k) lo hi <= dbound k U -> div_pairs_le k N K x U.
Proof.
  intros Htab Hb H0 Hl1 Hh1 Hc HU i j Hi Hj _.
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
  split; [exact Hd|]. apply Rle_trans with (corner_val (phi_of k) lo hi); [|exact HU].
  destruct (Rle_lt_or_eq_dec lo hi ltac:(lra)) as [Hlh|Heq].
  - assert (EV : (hi - lo) * corner_val (phi_of k) lo hi =
                 (hi - lo) * persp (phi_of k) lo lo
                 + (persp (phi_of k) hi lo - persp (phi_of k) lo lo) * (1 - lo)
                 + (persp (phi_of k) lo hi - persp (phi_of k) lo lo) * (1 - lo)) by (unfold corner_val; field; lra).
    set (G1 := persp (phi_of k) hi lo) in *. set (G2 := persp (phi_of k) lo hi) in *.
    set (G4 := persp (phi_of k) lo lo) in *.
    assert (Hs : (hi - lo) * fdiv K (phi_of k) (row x i) (row x j) <=
                 sum K (fun l => (hi - lo) * G4 * m l + (G1 - G4) * (row x i l - lo * m l)
                                 + (G2 - G4) * (row x j l - lo * m l))).
    { unfold fdiv. rewrite <- sum_scal. apply sum_le. intros l Hl. unfold row.
      destruct (Req_dec (m l) 0) as [Z|Z].
      - rewrite Z, (Hz i l Hi Hl Z), (Hz j l Hj Hl Z). right. ring.
      - pose proof (Hm0 l Hl). destruct (Hb i l Hi Hl). destruct (Hb j l Hj Hl).
        apply corner_bucket; [exact Hc | exact H0 | exact Hlh | lra | split | split]; lra. }
    rewrite (sum_ext K _ (fun l => ((hi - lo) * G4 - (G1 - G4) * lo - (G2 - G4) * lo) * m l
                                   + (G1 - G4) * row x i l + (G2 - G4) * row x j l)) in Hs by (intros; ring).
    rewrite !sum_plus, !sum_scal, Sm, Si, Sj in Hs.
    apply Rmult_le_reg_l with (hi - lo); [lra|]. rewrite EV. lra.
  - assert (E : lo = 1 /\ hi = 1) by lra. destruct E as [-> ->]. rewrite corner_val_one.
    assert (Eq : forall l, (l < K)%nat -> row x i l = row x j l).
    { intros l Hl. unfold row. destruct (Hb i l Hi Hl), (Hb j l Hj Hl). lra. }
    rewrite (fdiv_same K _ _ _ Eq Sj). apply Rle_refl.
Qed.

Theorem corners_pairs k N K x T lo hi U :
  table N K x -> subset_le TwoSided N K x 1 T -> 1 <= T -> 0 < lo -> lo <= 1 / T -> T <= hi ->
  convex_pos (phi_of k) -> corner_val (phi_of k) lo hi <= dbound k U -> div_pairs_le k N K x U.
Proof.
  intros Htab HA HT H0 Hlo Hhi Hc HU.
  destruct (corner_ends T lo hi HT Hlo Hhi) as [Hl1 Hh1].
  apply (corners_conf k N K x lo hi U Htab); auto.
  intros r l Hr Hl. pose proof (tmean_nonneg N K x l Htab Hl) as Hm.
  assert (HNr : 0 < INR N) by (apply lt_0_INR; lia).
  destruct (single_bounds N K x T r l HA Hr Hl) as [A1 A2].
  assert (B1 : x r l <= T * tmean N x l /\ tmean N x l <= T * x r l).
  { unfold tmean. split.
    - apply Rmult_le_reg_l with (INR N); [exact HNr|].
      replace (INR N * (T * (sum N (col x l) / INR N))) with (T * sum N (col x l)) by (field; lra). exact A1.
    - apply Rmult_le_reg_l with (INR N); [exact HNr|].
      replace (INR N * (sum N (col x l) / INR N)) with (sum N (col x l)) by (field; lra). lra. }
  destruct B1 as [B1 B2].
  assert (1 / T * tmean N x l <= x r l)
    by (apply Rmult_le_reg_l with T; try lra; replace (T * (1 / T * tmean N x l)) with (tmean N x l) by (field; lra);
        lra).
  split; nra.
Qed.

(** * The kinds *)
Lemma convex_kl : convex_pos (phi_of KL).
Proof. intros lo hi H0 Hlh. apply below_kl; lra. Qed.

Lemma convex_renyi2 : convex_pos (phi_of (Renyi 2)).
Proof. intros lo hi _ Hlh. apply below_renyi2. exact Hlh. Qed.

Lemma convex_tv : convex_pos (phi_of TV).
Proof. intros lo hi _ Hlh. apply below_tv. exact Hlh. Qed.

Lemma convex_hockey g : convex_pos (phi_of (Hockey g)).
Proof. intros lo hi _ Hlh. apply below_hockey. exact Hlh. Qed.

Lemma corner_kl lo hi : 0 < lo -> lo <= 1 -> 1 <= hi -> corner_val (phi_of KL) lo hi = (1 - lo) * ln (hi / lo).
Proof.
  intros H0 Hl1 Hh1. destruct (Rle_lt_or_eq_dec lo hi ltac:(lra)) as [Hlh|Heq].
  - unfold corner_val, persp, phi_of. replace (lo / lo) with 1 by (field; lra).
    rewrite !xlnx_pos by (try apply Rdiv_lt_0_compat; lra). rewrite ln_1.
    assert (E : ln (lo / hi) = - ln (hi / lo)).
    { rewrite <- ln_Rinv by (apply Rdiv_lt_0_compat; lra). f_equal. field. lra. }
    rewrite E. field. lra.
  - subst hi. replace lo with 1 by lra. rewrite corner_val_one. simpl. rewrite xlnx_pos by lra.
    replace (1 / 1) with 1 by field. rewrite ln_1. ring.
Qed.

Lemma corner_renyi2 lo hi : 0 < lo -> lo <= 1 -> 1 <= hi ->
  corner_val (phi_of (Renyi 2)) lo hi = lo + (hi ^ 2 + hi * lo - lo ^ 2) * (1 - lo) / (lo * hi).
Proof.
  intros H0 Hl1 Hh1. destruct (Rle_lt_or_eq_dec lo hi ltac:(lra)) as [Hlh|Heq].
  - unfold corner_val, persp, phi_of. field. lra.
  - subst hi. replace lo with 1 by lra. rewrite corner_val_one. simpl. field.
Qed.

Lemma corner_tv lo hi : 0 < lo -> lo <= 1 -> 1 <= hi -> corner_val (phi_of TV) lo hi = 1 - lo.
Proof.
  intros H0 Hl1 Hh1. destruct (Rle_lt_or_eq_dec lo hi ltac:(lra)) as [Hlh|Heq].
  - unfold corner_val, persp, phi_of. replace (lo / lo - 1) with 0 by (field; lra). rewrite Rabs_R0.
    rewrite (Rabs_pos_eq (hi / lo - 1)) by (assert (1 <= hi / lo) by (apply frac_ge; lra); lra).
    rewrite (Rabs_left1 (lo / hi - 1)) by (assert (lo / hi <= 1) by (apply frac_le; lra); lra).
    field. lra.
  - subst hi. replace lo with 1 by lra. rewrite corner_val_one. simpl. replace (1 - 1) with 0 by ring.
    rewrite Rabs_R0. field.
Qed.

Lemma corner_hockey g lo hi : 1 <= g -> 0 < lo -> lo <= 1 -> 1 <= hi ->
  corner_val (phi_of (Hockey g)) lo hi = Rmax (hi - g * lo) 0 * (1 - lo) / (hi - lo).
Proof.
  intros Hg H0 Hl1 Hh1. unfold corner_val, persp, phi_of.
  assert (Hlh : lo / hi <= 1) by (apply frac_le; lra).
  replace (lo / lo) with 1 by (field; lra).
  rewrite (Rmax_right (1 - g) 0) by lra. rewrite (Rmax_right (lo / hi - g) 0) by lra.
  replace (hi / lo - g) with ((hi - g * lo) / lo) by (field; lra).
  assert (E : lo * Rmax ((hi - g * lo) / lo) 0 = Rmax (hi - g * lo) 0).
  { assert (Hi : 0 < / lo) by (apply Rinv_0_lt_compat; lra). unfold Rmax, Rdiv.
    destruct (Rle_dec ((hi - g * lo) * / lo) 0), (Rle_dec (hi - g * lo) 0); try nra.
    field. lra. }
  rewrite E. unfold Rdiv. ring.
Qed.

Theorem corners_kl N K x T lo hi U :
  table N K x -> subset_le TwoSided N K x 1 T -> 1 <= T -> 0 < lo -> lo <= 1 / T -> T <= hi ->
  (1 - lo) * ln (hi / lo) <= U -> div_pairs_le KL N K x U.
Proof.
  intros Htab HA HT H0 Hlo Hhi HU. destruct (corner_ends T lo hi HT Hlo Hhi).
  apply (corners_pairs KL N K x T lo hi U Htab HA HT H0 Hlo Hhi convex_kl).
  rewrite corner_kl by assumption. exact HU.
Qed.

Theorem corners_renyi2 N K x T lo hi X U :
  table N K x -> subset_le TwoSided N K x 1 T -> 1 <= T -> 0 < lo -> lo <= 1 / T -> T <= hi ->
  lo + (hi ^ 2 + hi * lo - lo ^ 2) * (1 - lo) / (lo * hi) <= X -> ln X <= U -> div_pairs_le (Renyi 2) N K x U.
Proof.
  intros Htab HA HT H0 Hlo Hhi HX HU. destruct (corner_ends T lo hi HT Hlo Hhi).
  apply (corners_pairs (Renyi 2) N K x T lo hi U Htab HA HT H0 Hlo Hhi convex_renyi2).
  rewrite corner_renyi2 by assumption. simpl dbound. replace ((1 + 1 - 1) * U) with U by ring.
  assert (Hw : 0 <= (hi ^ 2 + hi * lo - lo ^ 2) * (1 - lo) / (lo * hi)).
  { unfold Rdiv. apply Rmult_le_pos; [apply Rmult_le_pos; nra | left; apply Rinv_0_lt_compat; nra]. }
  apply Rle_trans with X; [exact HX|]. rewrite <- (exp_ln X) by lra.
  destruct HU as [HU|HU]; [left; apply exp_increasing; exact HU | rewrite HU; right; reflexivity].
Qed.

Theorem corners_tv N K x T lo hi U :
  table N K x -> subset_le TwoSided N K x 1 T -> 1 <= T -> 0 < lo -> lo <= 1 / T -> T <= hi ->
  1 - lo <= U -> div_pairs_le TV N K x U.
Proof.
  intros Htab HA HT H0 Hlo Hhi HU. destruct (corner_ends T lo hi HT Hlo Hhi).
  apply (corners_pairs TV N K x T lo hi U Htab HA HT H0 Hlo Hhi convex_tv).
  rewrite corner_tv by assumption. exact HU.
Qed.

(** The hockey stick: [Y] is [(hi - g lo)(1 - lo)/(hi - lo)] where [lo < hi] (the certificate's reduced quotient). *)
Theorem corners_hockey g N K x T lo hi Y U :
  1 <= g -> table N K x -> subset_le TwoSided N K x 1 T -> 1 <= T -> 0 < lo -> lo <= 1 / T -> T <= hi ->
  (hi - g * lo) * (1 - lo) = Y * (hi - lo) -> 0 <= U -> Y <= U -> div_pairs_le (Hockey g) N K x U.
Proof.
  intros Hg Htab HA HT H0 Hlo Hhi HY HU0 HU. destruct (corner_ends T lo hi HT Hlo Hhi).
  apply (corners_pairs (Hockey g) N K x T lo hi U Htab HA HT H0 Hlo Hhi (convex_hockey g)).
  rewrite corner_hockey by assumption. simpl dbound.
  destruct (Rle_lt_or_eq_dec lo hi ltac:(lra)) as [Hlh|Heq].
  - unfold Rmax. destruct (Rle_dec (hi - g * lo) 0).
    + unfold Rdiv. rewrite !Rmult_0_l. exact HU0.
    + replace ((hi - g * lo) * (1 - lo) / (hi - lo)) with Y by (rewrite HY; field; lra). exact HU.
  - subst hi. replace (lo - lo) with 0 by ring. unfold Rdiv. rewrite Rinv_0, Rmult_0_r. exact HU0.
Qed.
