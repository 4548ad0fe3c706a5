(** Additive slacks ordered by their ratio ([implgraph.certify.lemmas.divergence_order], fact [hockey-below-tv]):
    the total variation between two distributions at most T is [P(E) <= Q(E) + T] on every event E, the hockey stick
    of order [g] at most T is [P(E) <= g Q(E) + T]; masses being >= 0, the first gives the second for [g >= 1]
    (between every two records, [slack_pairs_le], and between the table and the table without each record, both
    ways, [slack_removal_le]). *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Events Columns DistanceLemmas Slack.
Open Scope R_scope.

Theorem slack_pairs_ratio N K x d T T' :
  table N K x -> T <= T' -> slack_pairs_le N K x d T -> slack_pairs_le N K x d T'.
Proof.
  intros Htab HT HA E i k Hi Hk. pose proof (HA E i k Hi Hk) as H.
  assert (H0 : 0 <= mass K E (fun b => x k b)).
  { unfold mass. apply sumS_nonneg. intros b Hb. destruct Htab as [Hnn _]. apply Hnn; auto. }
  nra.
Qed.

Theorem slack_removal_ratio N K x d T T' :
  table N K x -> 2 <= INR N -> T <= T' -> slack_removal_le N K x d T -> slack_removal_le N K x d T'.
Proof.
  intros Htab HN HT HA E k Hk. destruct (HA E k Hk) as [H1 H2].
  assert (Hs : 0 <= sum N (emass K E x) - emass K E x k).
  { rewrite (removal_parts N K E x k Hk). apply sumS_nonneg. intros i Hi. apply (emass_nonneg N); auto. }
  assert (Hq : 0 <= (sum N (emass K E x) - emass K E x k) / (INR N - 1)).
  { unfold Rdiv. apply Rmult_le_pos; [exact Hs | left; apply Rinv_0_lt_compat; lra]. }
  assert (Hp : 0 <= sum N (emass K E x) / INR N).
  { unfold Rdiv. apply Rmult_le_pos; [apply sum_nonneg; intros i Hi; apply (emass_nonneg N); auto
                                     | left; apply Rinv_0_lt_compat; lra]. }
  split; nra.
Qed.
