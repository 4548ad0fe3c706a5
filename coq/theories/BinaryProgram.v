(** The binary programs into (eps, delta)-DP and -LDP (implgraph.certify.lemmas.binary_program, _kl, _removal;
    docs/proofs/binary-program.md).

    B's slack d compares two distributions [p], [q] on every event E: [p(E) <= U q(E) + d] ([slack_ok]). With
    [a = p(E)], [b = q(E)] (merging E's buckets and its complement's):

    - Renyi of order 2 at most T both ways, [c = exp T - 1]: [(a - b)^2 <= c b (1 - b)] and
      [(a - b)^2 <= c a (1 - a)] ([chi_pair], from [ChiSquare.chi_merge], [chi_two]); on such pairs
      [a <= U b + d] ([bp_ok c d U]) for
      - the flat piece [U = 1] where [c (1 - d^2) <= 4 d^2] ([bp_flat]: [(4 + c) s^2 <= c <= 4 d^2 + c d^2]);
      - the top piece [U = 1 - d + c/(4 d)], every c ([bp_top]: [M = d (1 - b) + c b/(4 d) >= 0],
        [M^2 - c b (1 - b)] a square);
      - the middle piece [U = (1 + g - 2 d)/(1 - g)], [g = sqrt(c/(4 + c))] ([= 2 m]), where [d <= g] and
        [g (1 - d) <= d] ([bp_middle]: the KKT conditions at the symmetric pair [((1 + g)/2, (1 - g)/2)] as one
        polynomial identity, [(g^4/16) 256 (d - a + U b) = l1 (g1 + (u - v)^2 + c v^2) + l2 (g2 + (u - v)^2 + c u^2)]
        with [g1], [g2] the two constraints, [(u, v)] the offsets from the symmetric pair and [l1], [l2] >= 0);
    - KL at most T (one way suffices), [T > 0]: merging gives [a ln t - t b + b <= T] for every [t > 0] ([kl_event],
      the tangent lines of [r ln r]); at [t = exp(T/d)] that is [a <= (exp(T/d) - 1) d/T b + d] ([kl_logsum]);
      where [T <= 2 d^2], Pinsker gives [a - b <= d] ([Pinsker.pinsker_event]);
    - record removal: [P(E) - Q_i(E) = (x_i(E) - Q_i(E))/N], so every table has the slack [d] at [U = 1] where
      [N d >= 1] ([bp_removal_tv]); A between records bounds the removal pair's constraints at [c/(N (N - 1))]
      ([bp_removal_pairs]: the record against the others' mean both ways by joint convexity, then [P] the mixture
      [(x_i + (N - 1) Q_i)/N] and [b (1 - b)] concave, [chi_mix]).

    This file holds the programs on reals and the pieces as certificates write them; [BinaryTables.v] the events
    and tables ([chi_slack], [kl_event], [bp_pairs], [bp_removal_same], [bp_removal_pairs], [kl_pairs],
    [kl_removal_same], [kl_removal_pairs], [bp_removal_tv]). *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Entropy ChiSquare.
Open Scope R_scope.

(** * The two-bucket programs on reals *)
Definition chi_pair (c a b : R) : Prop :=
  0 <= a <= 1 /\ 0 <= b <= 1 /\ (a - b) ^ 2 <= c * b * (1 - b) /\ (a - b) ^ 2 <= c * a * (1 - a).

Definition bp_ok (c d U : R) : Prop := forall a b, chi_pair c a b -> a <= U * b + d.

Lemma bp_flat c d : 0 <= c -> 0 < d -> c * (1 - d ^ 2) <= 4 * d ^ 2 -> bp_ok c d 1.
Proof.
  intros Hc Hd H a b [Ha [Hb [H1 H2]]].
  pose proof (chi_final a b c Hc H1 H2) as F.
  assert (S : (a - b) ^ 2 <= d ^ 2) by nra.
  destruct (Rle_dec (a - b) 0); [nra|].
  assert (a - b <= d) by nra. lra.
Qed.

Lemma bp_top c d U : 0 <= c -> 0 < d -> U = 1 - d + c / (4 * d) -> bp_ok c d U.
Proof.
  intros Hc Hd HU a b [Ha [Hb [H1 H2]]]. subst U.
  set (M := d * (1 - b) + c * b / (4 * d)).
  assert (HM : 0 <= M).
  { unfold M. assert (0 <= c * b / (4 * d)) by (apply Rmult_le_pos; [nra | left; apply Rinv_0_lt_compat; lra]).
    nra. }
  assert (Sq : M ^ 2 - c * b * (1 - b) = (d * (1 - b) - c * b / (4 * d)) ^ 2) by (unfold M; field; lra).
  assert (S : (a - b) ^ 2 <= M ^ 2) by (pose proof (pow2_ge_0 (d * (1 - b) - c * b / (4 * d))); lra).
  assert (a - b <= M) by (destruct (Rle_dec (a - b) 0); nra).
  replace ((1 - d + c / (4 * d)) * b + d) with (b + M) by (unfold M; field; lra). lra.
Qed.

Lemma bp_middle c d g U :
  0 < d -> d < 1 / 2 -> 0 <= g -> g < 1 -> c * (1 - g ^ 2) = 4 * g ^ 2 -> d <= g -> g * (1 - d) <= d ->
  U * (1 - g) = 1 + g - 2 * d -> bp_ok c d U.
Proof.
  intros Hd Hd2 Hg Hg1 Hcg Hlo Hhi HU a b [Ha [Hb [H1 H2]]].
  assert (Hc : c = 4 * g ^ 2 / (1 - g ^ 2)) by (apply (Rmult_eq_reg_r (1 - g ^ 2)); [rewrite <- Hcg; field |]; nra).
  assert (HV : U = (1 + g - 2 * d) / (1 - g)) by (apply (Rmult_eq_reg_r (1 - g)); [rewrite HU; field |]; lra).
  set (u := a - (1 + g) / 2). set (v := b - (1 - g) / 2).
  set (l1 := g * ((1 - d) * g ^ 2 + g - d) * (1 + g)).
  set (l2 := g * (d - g * (1 - d)) * (1 - g) * (1 + g)).
  assert (Id : 4 * g ^ 4 * (d - a + U * b) =
               l1 * ((c * b * (1 - b) - (a - b) ^ 2) + (u - v) ^ 2 + c * v ^ 2)
               + l2 * ((c * a * (1 - a) - (a - b) ^ 2) + (u - v) ^ 2 + c * u ^ 2)).
  { rewrite HV, Hc. unfold u, v, l1, l2. field. split; nra. }
  assert (Hl1 : 0 <= l1).
  { unfold l1. apply Rmult_le_pos; [apply Rmult_le_pos; [lra|] | lra]. nra. }
  assert (Hl2 : 0 <= l2).
  { unfold l2. apply Rmult_le_pos; [apply Rmult_le_pos; [apply Rmult_le_pos; [lra | lra] | lra] | lra]. }
  assert (Hc0 : 0 <= c) by (rewrite Hc; apply Rmult_le_pos; [nra | left; apply Rinv_0_lt_compat; nra]).
  assert (G1 : 0 <= (c * b * (1 - b) - (a - b) ^ 2) + (u - v) ^ 2 + c * v ^ 2)
    by (pose proof (pow2_ge_0 (u - v)); pose proof (pow2_ge_0 v); nra).
  assert (G2 : 0 <= (c * a * (1 - a) - (a - b) ^ 2) + (u - v) ^ 2 + c * u ^ 2)
    by (pose proof (pow2_ge_0 (u - v)); pose proof (pow2_ge_0 u); nra).
  assert (Hg0 : 0 < g) by lra.
  assert (P : 0 <= 4 * g ^ 4 * (d - a + U * b)) by (rewrite Id; nra).
  assert (0 < g ^ 4) by (apply pow_lt; lra).
  assert (0 <= d - a + U * b) by nra. lra.
Qed.

(** Every piece's U is at least [1 - d] (a record against itself: [a <= U a + d]). *)
Lemma bp_self c d U : 0 <= c -> bp_ok c d U -> 1 - d <= U.
Proof.
  intros Hc H. assert (P : chi_pair c 1 1) by (unfold chi_pair; repeat split; nra). pose proof (H 1 1 P). lra.
Qed.

Lemma chi_pair_sym c a b : chi_pair c a b -> chi_pair c b a.
Proof.
  intros [Ha [Hb [H1 H2]]]. unfold chi_pair. replace ((b - a) ^ 2) with ((a - b) ^ 2) by ring. tauto.
Qed.

(** The mixture [P = (e + (n - 1) Q)/n] of a record [e] and the others' mean [Q]: [P - Q = (e - Q)/n] and
    [b (1 - b)] concave give both constraints at [c/(n (n - 1))]. *)
Lemma chi_mix n c e Q :
  2 <= n -> 0 <= c -> chi_pair c e Q -> chi_pair (c / (n * (n - 1))) ((e + (n - 1) * Q) / n) Q.
Proof.
  intros Hn Hc [He [HQ [H1 H2]]].
  set (P := (e + (n - 1) * Q) / n).
  assert (HPQ : P - Q = (e - Q) / n) by (unfold P; field; lra).
  assert (Hn1 : 0 < n * (n - 1)) by nra.
  assert (Conc : n * (P * (1 - P)) = (n - 1) * (Q * (1 - Q)) + e * (1 - e) + (n - 1) * (e - Q) ^ 2 / n)
    by (unfold P; field; lra).
  assert (HP : 0 <= P <= 1).
  { unfold P. split; [apply Rmult_le_pos; [nra | left; apply Rinv_0_lt_compat; lra] |].
    apply (Rmult_le_reg_r n); [lra|]. field_simplify; [nra | lra]. }
  assert (Sq : (P - Q) ^ 2 * (n * (n - 1)) = (e - Q) ^ 2 * ((n - 1) / n)) by (rewrite HPQ; field; lra).
  assert (HQQ : 0 <= Q * (1 - Q)) by nra. assert (Hee : 0 <= e * (1 - e)) by nra.
  assert (Hq1 : (n - 1) / n <= 1) by (apply (Rmult_le_reg_r n); [lra|]; field_simplify; lra).
  assert (Hq0 : 0 <= (n - 1) / n) by (apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra]).
  assert (Hs0 : 0 <= (e - Q) ^ 2) by apply pow2_ge_0.
  unfold chi_pair. fold P. clearbody P. refine (conj HP (conj HQ (conj _ _))).
  - apply (Rmult_le_reg_r (n * (n - 1))); [exact Hn1|]. rewrite Sq.
    replace (c / (n * (n - 1)) * Q * (1 - Q) * (n * (n - 1))) with (c * Q * (1 - Q)) by (field; split; lra).
    assert ((e - Q) ^ 2 * ((n - 1) / n) <= (e - Q) ^ 2) by nra. lra.
  - apply (Rmult_le_reg_r (n * (n - 1))); [exact Hn1|]. rewrite Sq.
    replace (c / (n * (n - 1)) * P * (1 - P) * (n * (n - 1))) with (c * (n * (P * (1 - P))) / n)
      by (field; split; lra).
    rewrite Conc. apply (Rmult_le_reg_r n); [lra|].
    replace (c * ((n - 1) * (Q * (1 - Q)) + e * (1 - e) + (n - 1) * (e - Q) ^ 2 / n) / n * n)
      with ((n - 1) * (c * Q * (1 - Q)) + c * (e * (1 - e)) + c * ((n - 1) * (e - Q) ^ 2 / n)) by (field; lra).
    replace ((e - Q) ^ 2 * ((n - 1) / n) * n) with ((n - 1) * (e - Q) ^ 2) by (field; lra).
    assert (A2 : 0 <= c * ((n - 1) * (e - Q) ^ 2 / n))
      by (apply Rmult_le_pos; [lra | unfold Rdiv; apply Rmult_le_pos; [nra | left; apply Rinv_0_lt_compat; lra]]).
    assert (A3 : (n - 1) * (e - Q) ^ 2 <= (n - 1) * (c * Q * (1 - Q))) by (apply Rmult_le_compat_l; lra).
    assert (A4 : 0 <= c * (e * (1 - e))) by (apply Rmult_le_pos; lra).
    lra.
Qed.

(** * The pieces as a certificate writes them: [c = (E - 1)/s] with [E = exp T], [s] a scale > 0 (1 between records
    or the same pair, [N (N - 1)] from records to record removal); a piece's condition [T <= ln r]. *)
Lemma exp_le_of_ln T r : 0 < r -> T <= ln r -> exp T <= r.
Proof.
  intros Hr H. rewrite <- (exp_ln r Hr). destruct H as [H|H]; [left; apply exp_increasing; exact H | rewrite H; lra].
Qed.

Lemma exp_gt_of_ln T r : 0 < r -> ~ (T <= ln r) -> r < exp T.
Proof. intros Hr H. rewrite <- (exp_ln r Hr). apply exp_increasing. lra. Qed.

Lemma bp_ok_div1 c d U : bp_ok (c / 1) d U -> bp_ok c d U.
Proof. intros H. replace c with (c / 1) by field. exact H. Qed.

Lemma scaled_nonneg E s : 0 < s -> 1 <= E -> 0 <= (E - 1) / s.
Proof. intros Hs HE. apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra]. Qed.

Lemma flat_piece E s d r :
  0 < s -> 0 < d -> 1 <= E -> E <= r -> (r - 1) * (1 - d * d) <= 4 * (d * d) * s -> d < 1 ->
  bp_ok ((E - 1) / s) d 1.
Proof.
  intros Hs Hd HE Hr Hk Hd1. apply bp_flat; [apply scaled_nonneg; auto | exact Hd |].
  apply (Rmult_le_reg_r s); [exact Hs|].
  replace ((E - 1) / s * (1 - d ^ 2) * s) with ((E - 1) * (1 - d * d)) by (field; lra).
  assert ((E - 1) * (1 - d * d) <= (r - 1) * (1 - d * d)) by (apply Rmult_le_compat_r; nra).
  nra.
Qed.

Lemma top_piece E s d U : 0 < s -> 0 < d -> 1 <= E -> U = 1 - d + (E - 1) / s / (4 * d) -> bp_ok ((E - 1) / s) d U.
Proof. intros Hs Hd HE HU. apply bp_top; [apply scaled_nonneg; auto | exact Hd | exact HU]. Qed.

Lemma middle_piece E s d g U r0 r1 :
  0 < s -> 0 < d -> d < 1 / 2 -> 1 <= E -> r0 < E -> E <= r1 ->
  4 * (d * d) * s <= (r0 - 1) * (1 - d * d) -> (r1 - 1) * (1 - 2 * d) <= 4 * (d * d) * s ->
  0 <= g -> g ^ 2 * (4 + (E - 1) / s) = (E - 1) / s -> U * (1 - g) = 1 + g - 2 * d -> bp_ok ((E - 1) / s) d U.
Proof.
  intros Hs Hd Hd2 HE H0 H1 K0 K1 Hg Hgc HU.
  set (c := (E - 1) / s) in *.
  assert (Hc : 0 <= c) by (apply scaled_nonneg; auto).
  assert (Hcs : c * s = E - 1) by (unfold c; field; lra).
  assert (Lo : 4 * (d * d) <= c * (1 - d * d)).
  { apply (Rmult_le_reg_r s); [exact Hs|].
    assert ((r0 - 1) * (1 - d * d) <= (E - 1) * (1 - d * d)) by (apply Rmult_le_compat_r; nra). nra. }
  assert (Hi : c * (1 - 2 * d) <= 4 * (d * d)).
  { apply (Rmult_le_reg_r s); [exact Hs|].
    assert ((E - 1) * (1 - 2 * d) <= (r1 - 1) * (1 - 2 * d)) by (apply Rmult_le_compat_r; nra). nra. }
  assert (Hg1 : g < 1).
  { destruct (Rlt_le_dec g 1) as [|G]; [assumption|]. exfalso.
    assert (G2 : 1 <= g ^ 2) by nra.
    assert (0 <= (g ^ 2 - 1) * (4 + c)) by (apply Rmult_le_pos; lra). nra. }
  apply (bp_middle c d g U Hd Hd2 Hg Hg1); [nra | | | exact HU].
  - destruct (Rle_lt_dec d g) as [|G]; [assumption|]. exfalso.
    assert (g ^ 2 < d * d) by nra. nra.
  - destruct (Rle_lt_dec (g * (1 - d)) d) as [|G]; [assumption|]. exfalso.
    assert (d * d < g ^ 2 * ((1 - d) * (1 - d))) by nra. nra.
Qed.

Lemma g_sqrt X c : 0 <= c -> X * (4 + c) = c -> 0 <= sqrt X /\ sqrt X ^ 2 * (4 + c) = c.
Proof.
  intros Hc H. assert (HX : 0 <= X) by (destruct (Rle_lt_dec 0 X); [assumption|]; nra).
  split; [apply sqrt_pos|]. rewrite <- Rsqr_pow2, Rsqr_sqrt by exact HX. exact H.
Qed.

Lemma g_sqrt2 A B c :
  0 <= A -> 0 < B -> A * (4 + c) = c * B -> 0 <= sqrt A / sqrt B /\ (sqrt A / sqrt B) ^ 2 * (4 + c) = c.
Proof.
  intros HA HB H. assert (Hs : 0 < sqrt B) by (apply sqrt_lt_R0; exact HB).
  split; [apply Rmult_le_pos; [apply sqrt_pos | left; apply Rinv_0_lt_compat; exact Hs]|].
  replace ((sqrt A / sqrt B) ^ 2) with (Rsqr (sqrt A) / Rsqr (sqrt B)) by (unfold Rsqr; field; lra).
  rewrite !Rsqr_sqrt by lra. apply (Rmult_eq_reg_r B); [|lra]. rewrite <- H. field. lra.
Qed.

Lemma g_lt1 g c : 0 <= c -> g ^ 2 * (4 + c) = c -> g < 1.
Proof.
  intros Hc H. destruct (Rlt_le_dec g 1) as [|G]; [assumption|]. exfalso.
  assert (G2 : 1 <= g ^ 2) by nra. assert (0 <= (g ^ 2 - 1) * (4 + c)) by (apply Rmult_le_pos; lra). nra.
Qed.

Lemma exp_ge1 T : 0 <= T -> 1 <= exp T.
Proof. intro H. pose proof (exp_ge_1_plus T). lra. Qed.
