(** The corners lemma on the narrowed box (implgraph.prover.arguments.corners, the piece T >= N - 1; the certify lemma
    implgraph.certify.lemmas.corners): each record within [[1/T, T]] of the table (a two-sided subset level of size
    1) has its ratio also at most [N - (N - 1)/T] (the others' [N - 1] ratios each [>= 1/T]:
    [RecordClassChord.record_class_xconf]), so every record's ratio lies in [[lo, hi]] for any [lo <= 1/T] and
    [hi >= N - (N - 1)/T], and [Corners.corners_conf] bounds every two records' divergence by [corner_val] on that
    box. The kinds' closed forms are [Corners]' ([corner_kl], [corner_renyi2], [corner_hockey]). *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Events Entropy Divergence RemovalChord SubsetChord RecordClassChord Corners.
Open Scope R_scope.

Lemma narrow_ends N T lo hi : 2 <= INR N -> 1 <= T -> lo <= 1 / T -> INR N - (INR N - 1) / T <= hi ->
  lo <= 1 /\ 1 <= hi.
Proof.
  intros HN HT Hlo Hhi. assert (1 / T <= 1) by (apply frac_le; lra).
  assert ((INR N - 1) / T <= INR N - 1) by (apply frac_le; nra). split; lra.
Qed.

Theorem corners_narrow k N K x T lo hi U :
  table N K x -> subset_le TwoSided N K x 1 T -> 2 <= INR N -> 1 <= T -> 0 < lo -> lo <= 1 / T ->
  INR N - (INR N - 1) / T <= hi ->
  convex_pos (phi_of k) -> corner_val (phi_of k) lo hi <= dbound k U -> div_pairs_le k N K x U.
Proof.
  intros Htab HA HN HT H0 Hlo Hhi Hc HU. destruct (narrow_ends N T lo hi HN HT Hlo Hhi).
  apply (corners_conf k N K x lo hi U Htab); auto.
  exact (record_class_xconf N K x T lo hi Htab HA HN ltac:(lra) Hlo Hhi).
Qed.

Theorem corners_narrow_kl N K x T lo hi U :
  table N K x -> subset_le TwoSided N K x 1 T -> 2 <= INR N -> 1 <= T -> 0 < lo -> lo <= 1 / T ->
  INR N - (INR N - 1) / T <= hi -> (1 - lo) * ln (hi / lo) <= U -> div_pairs_le KL N K x U.
Proof.
  intros Htab HA HN HT H0 Hlo Hhi HU. destruct (narrow_ends N T lo hi HN HT Hlo Hhi).
  apply (corners_narrow KL N K x T lo hi U Htab HA HN HT H0 Hlo Hhi convex_kl).
  rewrite corner_kl by assumption. exact HU.
Qed.

Theorem corners_narrow_renyi2 N K x T lo hi X U :
  table N K x -> subset_le TwoSided N K x 1 T -> 2 <= INR N -> 1 <= T -> 0 < lo -> lo <= 1 / T ->
  INR N - (INR N - 1) / T <= hi ->
  lo + (hi ^ 2 + hi * lo - lo ^ 2) * (1 - lo) / (lo * hi) <= X -> ln X <= U -> div_pairs_le (Renyi 2) N K x U.
Proof.
  intros Htab HA HN HT H0 Hlo Hhi HX HU. destruct (narrow_ends N T lo hi HN HT Hlo Hhi).
  apply (corners_narrow (Renyi 2) N K x T lo hi U Htab HA HN HT H0 Hlo Hhi convex_renyi2).
  rewrite corner_renyi2 by assumption. simpl dbound. replace ((1 + 1 - 1) * U) with U by ring.
  assert (Hw : 0 <= (hi ^ 2 + hi * lo - lo ^ 2) * (1 - lo) / (lo * hi)).
  { unfold Rdiv. apply Rmult_le_pos; [apply Rmult_le_pos; nra | left; apply Rinv_0_lt_compat; nra]. }
  apply Rle_trans with X; [exact HX|]. rewrite <- (exp_ln X) by lra.
  destruct HU as [HU|HU]; [left; apply exp_increasing; exact HU | rewrite HU; right; reflexivity].
Qed.

(** The hockey stick: [Y] is [(hi - g lo)(1 - lo)/(hi - lo)] where [lo < hi] (the certificate's reduced quotient). *)
Theorem corners_narrow_hockey g N K x T lo hi Y U :
  1 <= g -> table N K x -> subset_le TwoSided N K x 1 T -> 2 <= INR N -> 1 <= T -> 0 < lo -> lo <= 1 / T ->
  INR N - (INR N - 1) / T <= hi ->
  (hi - g * lo) * (1 - lo) = Y * (hi - lo) -> 0 <= U -> Y <= U -> div_pairs_le (Hockey g) N K x U.
Proof.
  intros Hg Htab HA HN HT H0 Hlo Hhi HY HU0 HU. destruct (narrow_ends N T lo hi HN HT Hlo Hhi).
  apply (corners_narrow (Hockey g) N K x T lo hi U Htab HA HN HT H0 Hlo Hhi (convex_hockey g)).
  rewrite corner_hockey by assumption. simpl dbound.
  destruct (Rle_lt_or_eq_dec lo hi ltac:(lra)) as [Hlh|Heq].
  - unfold Rmax. destruct (Rle_dec (hi - g * lo) 0).
    + unfold Rdiv. rewrite !Rmult_0_l. exact HU0.
    + replace ((hi - g * lo) * (1 - lo) / (hi - lo)) with Y by (rewrite HY; field; lra). exact HU.
  - subst hi. replace (lo - lo) with 0 by ring. unfold Rdiv. rewrite Rinv_0, Rmult_0_r. exact HU0.
Qed.
