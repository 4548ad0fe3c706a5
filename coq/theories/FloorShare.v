(** A class floor above the weakest level (p-sensitive k-anonymity's k, [FloorLevel.floor_level_ge]) bounds a class
    level against the table, the [share] kind of a [floor-level] certificate (implgraph.certify.lemmas.floor_level):
    above the weakest level [w] every class has at least k records, so a class holds at least k/N of the table and
    its one-sided ratio is at most [N / k] ([Mass.set_mass_class]) and its total variation distance from the table at
    most [(N - k) / N] ([Distance.tv_mass]); on fewer than [2 k] records the classes are one, the table itself
    ([FloorLevel.one_class_below]): the ratio at most 1 and the distance 0. The certificate's U is two pieces,
    [u1] where [N < c] and [u2] elsewhere: [c <= 2 k] (below c one class), [u1] at least the one class's level and
    [u2] at least the floor's. *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Mass Distance FloorLevel.
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
