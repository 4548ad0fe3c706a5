(** [slack-pairs-tv] ([implgraph.certify.lemmas.slack_pairs_tv]): an additive slack [d] at a ratio [g], between two
    records ([Tables.slack_pairs_le]) or between the table and the table without one record
    ([DistanceLemmas.slack_removal_le]), bounds the total variation between two records.

    The total variation between records [i] and [k] is the largest [x_i(E) - x_k(E)] over the events [E], so it is at
    most [U] exactly when [x_i(E) <= 1 x_k(E) + U] on every event: [slack_pairs_le N K x U 1], exactly its level (the
    library's divergence predicate would also ask domination, more than the total variation asks). A is read the
    same way: an (eps, delta) level at raw level [T] is the slack [d = delta] at the ratio [g = T]; a hockey-stick
    level of order [gamma] (total variation: [gamma = 1]) at most [T] is the slack [d = T] at the ratio [g = gamma].

    - Between records ([slack_pairs_tv_pairs]): with [u = x_i(E)], [v = x_k(E)], A gives [u <= g v + d] on [E] and
      [1 - v <= g (1 - u) + d] on its complement; their sum is [(g + 1)(u - v) <= g - 1 + 2 d].
    - On record removal ([slack_pairs_tv_removal]): with [P] the table's mean mass and [Q_i] the others', [x_i - x_k =
      (N - 1)(Q_k - Q_i)]; A gives [P(E) <= g Q_i(E) + d] and, on the complement, [1 - P(E) <= g (1 - Q_k(E)) + d];
      their sum is [g (Q_k(E) - Q_i(E)) <= g - 1 + 2 d]. With [x_i(E) <= 1 <= x_k(E) + 1] always
      ([slack_pairs_tv_one]), the bound is [min(1, (N - 1)(1 - (1 - 2 d)/g))] ([slack_pairs_tv_removal_min]). *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Events Columns DistanceLemmas Compose.
Open Scope R_scope.

(** The data of a certificate in place of the statement's (each equality checked in the generated proof). *)
Lemma slack_pairs_same N K x dA gA d g : dA = d -> gA = g -> slack_pairs_le N K x dA gA -> slack_pairs_le N K x d g.
Proof. intros -> ->. exact (fun H => H). Qed.

Lemma slack_removal_same N K x dA gA d g :
  dA = d -> gA = g -> slack_removal_le N K x dA gA -> slack_removal_le N K x d g.
Proof. intros -> ->. exact (fun H => H). Qed.

(** B at a level [V] equal to the certificate's [U]. *)
Lemma slack_pairs_eq N K x U V g : U = V -> slack_pairs_le N K x V g -> slack_pairs_le N K x U g.
Proof. intros ->. exact (fun H => H). Qed.

(** The two slacks of an event, summed: [(g + 1)(u - v) <= g - 1 + 2 d]. *)
Lemma pairs_tv_step u v g d :
  0 < g + 1 -> u <= g * v + d -> 1 - v <= g * (1 - u) + d -> u <= 1 * v + (g - 1 + 2 * d) / (g + 1).
Proof.
  intros Hg H1 H2.
  assert (Hw : (g + 1) * ((g - 1 + 2 * d) / (g + 1)) = g - 1 + 2 * d) by (field; lra).
  apply Rmult_le_reg_l with (r := g + 1); [exact Hg|].
  rewrite Rmult_plus_distr_l, Hw. nra.
Qed.

(** Between records: the slack [d] at the ratio [g >= 0] gives the total variation [(g - 1 + 2 d)/(g + 1)]. *)
Theorem slack_pairs_tv_pairs N K x d g :
  table N K x -> 0 <= g -> slack_pairs_le N K x d g -> slack_pairs_le N K x ((g - 1 + 2 * d) / (g + 1)) 1.
Proof.
  intros Htab Hg HA E i k Hi Hk.
  pose proof (HA E i k Hi Hk) as H1. pose proof (HA (compl E) k i Hk Hi) as H2.
  change (emass K (compl E) x k <= g * emass K (compl E) x i + d) in H2.
  rewrite (emass_compl N K E x k Htab Hk), (emass_compl N K E x i Htab Hi) in H2.
  unfold emass in H2. unfold mass in *.
  apply pairs_tv_step; lra.
Qed.

(** Every record's mass is at most 1 and at least 0: the total variation is at most 1. *)
Theorem slack_pairs_tv_one N K x : table N K x -> slack_pairs_le N K x 1 1.
Proof.
  intros Htab E i k Hi Hk.
  pose proof (emass_le1 N K E x i Htab Hi). pose proof (emass_nonneg N K E x k Htab Hk).
  unfold emass in *. unfold mass. lra.
Qed.

(** The removal step on reals: [D] the event's sum over the table, [a = x_i(E)], [b = x_k(E)], [n = N]. *)
Lemma removal_tv_step n D a b g d :
  2 <= n -> 0 < g ->
  D / n <= g * ((D - a) / (n - 1)) + d ->
  (n - D) / n <= g * ((n - D - (1 - b)) / (n - 1)) + d ->
  a <= 1 * b + (n - 1) * (1 - (1 - 2 * d) / g).
Proof.
  intros Hn Hg H1 H2.
  assert (Hs : D / n + (n - D) / n = 1) by (field; lra).
  assert (Hq : g * ((D - a) / (n - 1)) + g * ((n - D - (1 - b)) / (n - 1)) = g - g * ((a - b) / (n - 1)))
    by (field; lra).
  (* g t <= g - 1 + 2 d with t = (a - b)/(n - 1) *)
  set (t := (a - b) / (n - 1)) in *.
  assert (Ht : g * t <= g - 1 + 2 * d) by lra.
  assert (Hab : a - b = (n - 1) * t) by (unfold t; field; lra).
  assert (Hw : g * ((1 - 2 * d) / g) = 1 - 2 * d) by (field; lra).
  assert (Htw : t <= 1 - (1 - 2 * d) / g).
  { apply Rmult_le_reg_l with (r := g); [exact Hg|]. rewrite Rmult_minus_distr_l, Hw. lra. }
  assert (Hm : (n - 1) * t <= (n - 1) * (1 - (1 - 2 * d) / g)) by (apply Rmult_le_compat_l; lra).
  lra.
Qed.

(** On record removal: the slack [d] at the ratio [g > 0] (one way suffices: the table against the table without
    each record) gives the total variation [(N - 1)(1 - (1 - 2 d)/g)] between two records. *)
Theorem slack_pairs_tv_removal N K x d g :
  table N K x -> 2 <= INR N -> 0 < g -> slack_removal_le N K x d g ->
  slack_pairs_le N K x ((INR N - 1) * (1 - (1 - 2 * d) / g)) 1.
Proof.
  intros Htab HN Hg HA E i k Hi Hk.
  destruct (HA E i Hi) as [H1 _]. destruct (HA (compl E) k Hk) as [H2 _].
  rewrite (sum_emass_compl N K E x Htab), (emass_compl N K E x k Htab Hk) in H2.
  change (mass K E (fun b => x i b)) with (emass K E x i).
  change (mass K E (fun b => x k b)) with (emass K E x k).
  exact (removal_tv_step (INR N) (sum N (emass K E x)) (emass K E x i) (emass K E x k) g d HN Hg H1 H2).
Qed.

(** The same with the total variation's own ceiling 1. *)
Theorem slack_pairs_tv_removal_min N K x d g :
  table N K x -> 2 <= INR N -> 0 < g -> slack_removal_le N K x d g ->
  slack_pairs_le N K x (Rmin 1 ((INR N - 1) * (1 - (1 - 2 * d) / g))) 1.
Proof.
  intros Htab HN Hg HA. apply (min_bound (fun U => slack_pairs_le N K x U 1)).
  - exact (slack_pairs_tv_one N K x Htab).
  - exact (slack_pairs_tv_removal N K x d g Htab HN Hg HA).
Qed.
