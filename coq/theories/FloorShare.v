(** A class floor above the weakest level (p-sensitive k-anonymity's k, [FloorLevel.floor_level_ge]) bounds a class
    level against the table, the [share] kind of a [floor-level] certificate (implgraph.certify.lemmas.floor_level):
    above the weakest level [w] every class has at least k records, so a class holds at least k/N of the table and
    its one-sided ratio is at most [N / k] ([Mass.set_mass_class]) and its total variation distance from the table at
    most [(N - k) / N] ([Distance.tv_mass]); on fewer than [2 k] records the classes are one, the table itself
    ([FloorLevel.one_class_below]): the ratio at most 1 and the distance 0; a class's KL or Renyi-2 divergence from
    the table, every ratio at most N/k ([Divergence.size_upper]), is at most the chord's value on [0, N/k], log(N/k)
    ([Divergence.chord_class_upper]), and on [0, 1] below 2 k records: 0. The certificate's U is two pieces,
    [u1] where [N < c] and [u2] elsewhere: [c <= 2 k] (below c one class), [u1] at least the one class's level and
    [u2] at least the floor's. *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Mass Distance FloorLevel Divergence.
Open Scope R_scope.

(** A one-sided class ratio at most [T] is at most every [u >= T] (a class's and the table's masses are >= 0). *)
Lemma class_le_mono N K x cls T u : table N K x -> T <= u -> class_le OneSided N K x cls T ->
  class_le OneSided N K x cls u.
Proof.
  intros Htab Hu H b i Hb Hi. destruct (H b i Hb Hi) as [Hup _]. split; [|discriminate].
  unfold upper_ok in *.
  assert (Hs : 0 <= sum N (col x b)) by (apply sum_nonneg; exact (col_nonneg N K x b Htab Hb)).
  pose proof (card_nonneg N (classof cls i)).
  assert (0 <= card N (classof cls i) * sum N (col x b)) by (apply Rmult_le_pos; lra).
  nra.
Qed.

(** A class's total variation distance at most [T] is at most every [u >= T]. *)
Lemma tv_le_mono N K x cls T u : T <= u -> tv_le N K x cls T -> tv_le N K x cls u.
Proof. intros Hu H i E Hi. specialize (H i E Hi). lra. Qed.

(** Classes of at least [k] records on fewer than [2 k] records, [N > 0]: the class is the table. *)
Lemma one_class_table N cls k : class_size_ge N cls k -> INR N < 2 * k ->
  forall i, (i < N)%nat -> INR N <= card N (classof cls i).
Proof. intros Hk Hlt. exact (one_class_below N cls k Hk Hlt). Qed.

(** [share], a one-sided class ratio: at most 1 below [c <= 2 k] records, else at most [N / k]. *)
Theorem floor_share_ratio N K x cls k w T X c u1 u2 : table N K x -> 0 < k -> w < T ->
  floor_level_ge N cls k w T X -> c <= 2 * k -> 1 <= u1 -> INR N / k <= u2 ->
  class_le OneSided N K x cls (if Rlt_dec (INR N) c then u1 else u2).
Proof.
  intros Htab Hk Hw HA Hc Hu1 Hu2. pose proof (floor_level_floor N cls k w T X Hw HA) as Hf.
  destruct (Rlt_dec (INR N) c) as [Hlt|Hge].
  - destruct N as [|n]; [intros b i _ Hi; lia|].
    assert (HN : 0 < INR (S n)) by (apply lt_0_INR; lia).
    apply (class_le_mono (S n) K x cls (INR (S n) / INR (S n)) u1 Htab).
    + replace (INR (S n) / INR (S n)) with 1 by (field; lra). exact Hu1.
    + apply set_mass_class; [exact Htab | exact HN | apply (one_class_table (S n) cls k Hf); lra].
  - apply (class_le_mono N K x cls (INR N / k) u2 Htab Hu2). apply set_mass_class; [exact Htab | exact Hk | exact Hf].
Qed.

(** [share], a class's total variation distance from the table: 0 below [c <= 2 k] records, else at most
    [(N - k) / N]. *)
Theorem floor_share_tv N K x cls k w T X c u1 u2 : table N K x -> 0 < k -> w < T ->
  floor_level_ge N cls k w T X -> c <= 2 * k -> 0 <= u1 -> (INR N - k) / INR N <= u2 ->
  tv_le N K x cls (if Rlt_dec (INR N) c then u1 else u2).
Proof.
  intros Htab Hk Hw HA Hc Hu1 Hu2. pose proof (floor_level_floor N cls k w T X Hw HA) as Hf.
  destruct (Rlt_dec (INR N) c) as [Hlt|Hge].
  - destruct N as [|n]; [intros i E Hi; lia|].
    assert (HN : 0 < INR (S n)) by (apply lt_0_INR; lia).
    apply (tv_le_mono (S n) K x cls ((INR (S n) - INR (S n)) / INR (S n)) u1).
    + replace ((INR (S n) - INR (S n)) / INR (S n)) with 0 by (field; lra). exact Hu1.
    + apply tv_mass; [exact Htab | exact HN | apply (one_class_table (S n) cls k Hf); lra].
  - apply (tv_le_mono N K x cls ((INR N - k) / INR N) u2 Hu2). apply tv_mass; [exact Htab | exact Hk | exact Hf].
Qed.

(** [share], a class's divergence from the table (its chord's values [Hv1] on [0, 1] and [Hv2] on [0, N/k] at most
    [u1] and [u2], in the divergence's bound): the one class below [c <= 2 k] records has every ratio at most 1, else
    every ratio is at most [N / k]. *)
Theorem floor_share_div d N K x cls k w T X c u1 u2 : table N K x -> 0 < k -> w < T ->
  floor_level_ge N cls k w T X -> c <= 2 * k ->
  below_chord (phi_of d) 0 1 -> chord_val (phi_of d) 0 1 <= dbound d u1 ->
  below_chord (phi_of d) 0 (INR N / k) -> chord_val (phi_of d) 0 (INR N / k) <= dbound d u2 ->
  div_class_le d N K x cls (if Rlt_dec (INR N) c then u1 else u2).
Proof.
  intros Htab Hk Hw HA Hc Hb1 Hv1 Hb2 Hv2. pose proof (floor_level_floor N cls k w T X Hw HA) as Hf.
  destruct (Rlt_dec (INR N) c) as [Hlt|Hge].
  - destruct N as [|n]; [intros i Hi; lia|].
    assert (HN : 0 < INR (S n)) by (apply lt_0_INR; lia).
    apply (chord_class_upper d (S n) K x cls 1 1 u1 Htab); [|lra|lra|exact Hb1|exact Hv1].
    intros i l Hi Hl.
    pose proof (size_upper (S n) K x cls (INR (S n)) Htab
                  (one_class_below (S n) cls k Hf ltac:(lra)) HN i l Hi Hl) as H.
    replace (INR (S n) / INR (S n)) with 1 in H by (field; lra). exact H.
  - destruct N as [|n]; [intros i Hi; lia|].
    assert (HN : 0 < INR (S n) / k) by (apply Rdiv_lt_0_compat; [apply lt_0_INR; lia | exact Hk]).
    apply (chord_class_upper d (S n) K x cls (INR (S n) / k) (INR (S n) / k) u2 Htab); [|lra|lra|exact Hb2|exact Hv2].
    exact (size_upper (S n) K x cls k Htab Hf Hk).
Qed.
