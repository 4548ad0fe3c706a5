(** The transportation program (sei2019 Definition 5, the earth mover's distance) and the convexity of its optimum in
    one marginal ([transport-mixture], sei2019 Lemma 1), for any number of values and any ground distance.

    A flow [f] from [a] to [b] over [K] values has [f i j >= 0], row sums [a i], column sums [b j]; its cost is
    [sum dist i j * f i j]. The optimum is attained (a linear program over a nonempty polytope), so "the optimum is at
    most t" is [emd_le]: some flow costs at most t. *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums.
Open Scope R_scope.

Definition flow (K : nat) (a b : nat -> R) (f : nat -> nat -> R) : Prop :=
  (forall i j, (i < K)%nat -> (j < K)%nat -> 0 <= f i j) /\
  (forall i, (i < K)%nat -> sum K (fun j => f i j) = a i) /\
  (forall j, (j < K)%nat -> sum K (fun i => f i j) = b j).

Definition cost (K : nat) (dist : nat -> nat -> R) (f : nat -> nat -> R) : R :=
  sum K (fun i => sum K (fun j => dist i j * f i j)).

(** The optimum of the program from [a] to [b] (over the columns' marginal [b]) is at most [t]. *)
Definition emd_le (K : nat) (dist : nat -> nat -> R) (a b : nat -> R) (t : R) : Prop :=
  exists f, flow K a b f /\ cost K dist f <= t.

(** The mixture of two flows with the same row marginal is a flow to the mixed column marginal, costing the mixture
    of their costs. *)
Theorem transport_mixture K dist a b1 b2 w1 w2 t1 t2 :
  0 <= w1 -> 0 <= w2 -> w1 + w2 = 1 ->
  emd_le K dist a b1 t1 -> emd_le K dist a b2 t2 ->
  emd_le K dist a (fun j => w1 * b1 j + w2 * b2 j) (w1 * t1 + w2 * t2).
Proof.
  intros Hw1 Hw2 Hw [f [[Hf0 [Hfr Hfc]] Hfcost]] [g [[Hg0 [Hgr Hgc]] Hgcost]].
  exists (fun i j => w1 * f i j + w2 * g i j). split; [split; [| split] |].
  - intros i j Hi Hj. pose proof (Hf0 i j Hi Hj). pose proof (Hg0 i j Hi Hj). nra.
  - intros i Hi. rewrite sum_plus, !sum_scal, Hfr, Hgr by auto.
    replace (a i) with ((w1 + w2) * a i) at 3 by (rewrite Hw; ring). ring.
  - intros j Hj. rewrite sum_plus, !sum_scal, Hfc, Hgc by auto. reflexivity.
  - unfold cost in *.
    rewrite (sum_ext K _ (fun i => w1 * sum K (fun j => dist i j * f i j) + w2 * sum K (fun j => dist i j * g i j))).
    + rewrite sum_plus, !sum_scal. nra.
    + intros i Hi. rewrite <- !sum_scal, <- sum_plus. apply sum_ext. intros j Hj. ring.
Qed.
