(** The zero-concentrated level of the [ceiling-family] approach family at every level [rho > 0].

    Two records over two buckets, [x = (K b, 1 - K b)] and [y = (b, 1 - b)], as in [ZcdpFamily.v], where [K >= 1],
    [b > 0], [K b <= 1/2], [2 K b <= rho] and [ln K (ln K + 1) <= - rho ln (K b)]: their level is at most [rho] both
    ways ([ZcdpFamily.zcdp_family_rho], proved there). [fam_rho_zcdp]: the table of N records, record 0 at [x] and the
    others at [y], has level at most [rho] between every two records (two equal records: 0). The lone record's ratio
    to the table in bucket 0 is [N K/(K + N - 1)] whatever [b], which the Python checker
    (implgraph/certify/lemmas/ceiling_family_zcdp.py) re-derives. [tail_exact]: [K b = exp (- ln K (ln K + 1)/rho)]
    meets the tail condition with equality. *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Entropy Divergence Zcdp ZcdpOrder ZcdpFamily.
Open Scope R_scope.

(** The table: record 0 at [x], the others at [y]. *)
Definition fam_rho (K b : R) (i : nat) : nat -> R := if Nat.eqb i 0 then fam_x K b else fam_y b.

Theorem fam_rho_zcdp (rho K b : R) (N : nat) :
  0 < rho -> 1 <= K -> 0 < b -> K * b <= 1 / 2 -> 2 * (K * b) <= rho ->
  ln K * (ln K + 1) <= - (rho * ln (K * b)) ->
  table N 2 (fam_rho K b) /\ zcdp_pairs_le N (fam_rho K b) rho.
Proof.
  intros Hr HK Hb Hkb Hkr Ht.
  assert (Q : b <= K * b) by nra.
  split; [split|].
  - intros i l _ Hl. unfold fam_rho. destruct (Nat.eqb i 0); unfold fam_x, fam_y;
      destruct (Nat.eqb l 0); lra.
  - intros i _. unfold fam_rho. simpl. destruct (Nat.eqb i 0); unfold fam_x, fam_y; simpl; ring.
  - intros i k _ _. unfold fam_rho.
    destruct (Nat.eqb i 0); destruct (Nat.eqb k 0).
    + apply zcdp_self_rho; [exact Hr|unfold fam_x; simpl; nra|reflexivity].
    + apply zcdp_family_rho; assumption.
    + apply zcdp_family_rho; assumption.
    + apply zcdp_self_rho; [exact Hr|unfold fam_y; simpl; nra|reflexivity].
Qed.

(** The scaled tail with equality: [K b = exp (- ln K (ln K + 1)/rho)] meets [Htail]. *)
Lemma tail_exact rho K : 0 < rho -> 0 < K ->
  ln K * (ln K + 1) <= - (rho * ln (exp (- (ln K * (ln K + 1)) / rho))).
Proof. intros Hr HK. rewrite ln_exp. right. field. lra. Qed.
