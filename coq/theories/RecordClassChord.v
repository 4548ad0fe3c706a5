(** Each record within [[1/T, T]] of the table (a two-sided subset level of size 1) against a class divergence, every
    partition: the chord on [[1/T, N - (N - 1)/T]] (implgraph.prover.removal_record_class; the certify lemma
    implgraph.certify.lemmas.chord).

    A record's ratio [a = x_i/P] is [N] minus the others' [N - 1] ratios, each [>= 1/T], so [a <= N - (N - 1)/T];
    with [a >= 1/T] it lies in [[1/T, N - (N - 1)/T]] ([SubsetChord.subset_xconf] at size 1: [sublo N 1 T >= 1/T],
    [subhi N 1 T <= N - (N - 1)/T]); a class's mean is an average of its records, so its ratio too, and B is at most
    the chord of phi on any [[lo, hi]] around it ([xconf_chord]). Where [T >= N - 1] this end is at most [T]: the
    narrower interval, whose chord is the supremum there. *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Tactics Events Entropy Divergence RemovalChord RemovalChordPieces SubsetChord.
Open Scope R_scope.

Lemma record_class_xconf N K x T lo hi :
  table N K x -> subset_le TwoSided N K x 1 T -> 2 <= INR N -> 0 < T ->
  lo <= 1 / T -> INR N - (INR N - 1) / T <= hi -> xconf N K x lo hi.
Proof.
  intros Htab HA HN HT Hlo Hhi.
  apply (xconf_weaken N K x _ _ lo hi Htab
           (subset_xconf N K x 1 T Htab HA ltac:(exists 1%nat; reflexivity) ltac:(lra) ltac:(lra) HT)).
  - unfold sublo.
    replace ((1 * (INR N - 1) / T - (1 - 1) * INR N) / (INR N - 1)) with (1 / T) by (field; split; lra).
    apply Rle_trans with (1 / T); [exact Hlo |].
    apply Rle_trans with (Rmax (INR N - (INR N - 1) * T) (1 / T)); apply Rmax_r.
  - unfold subhi. apply Rle_trans with (INR N - (INR N - 1) / T); [apply Rmin_l | exact Hhi].
Qed.

Theorem chord_record_class k N K x cls T lo hi U :
  table N K x -> subset_le TwoSided N K x 1 T -> 2 <= INR N -> 0 < T ->
  lo <= 1 / T -> INR N - (INR N - 1) / T <= hi -> lo < hi ->
  below_chord (phi_of k) lo hi -> chord_val (phi_of k) lo hi <= dbound k U -> div_class_le k N K x cls U.
Proof.
  intros Htab HA HN HT Hlo Hhi Hlh Hc HU.
  apply (xconf_chord k N K x cls lo hi U Htab ltac:(apply INR_lt; simpl; lra)); auto.
  apply (record_class_xconf N K x T lo hi Htab HA HN HT Hlo Hhi).
Qed.

(** At [T = 1] every record is the table: every class's divergence is [phi 1]. *)
Theorem record_class_one k N K x cls U :
  table N K x -> subset_le TwoSided N K x 1 1 -> 2 <= INR N -> phi_of k 1 <= dbound k U -> div_class_le k N K x cls U.
Proof.
  intros Htab HA HN H1.
  exact (subset_chord_one k N K x cls 1 U Htab HA ltac:(exists 1%nat; reflexivity) ltac:(lra) ltac:(lra) H1).
Qed.
