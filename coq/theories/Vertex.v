(** [linear-fractional-vertex]: under a pairwise level T, every bucket's values lie in a box [[a, T a]]
    (a the bucket's smallest value). A set [S] of [e] records then sums to [a (u T + e - u)] and the
    rest to [a (v T + (N - e) - v)] for some reals [0 <= u <= e], [0 <= v <= N - e] (the "number of high
    values", relaxed to reals), so a ratio of means is a linear-fractional function of [(u, v)]: where
    the obligation holds at every such [(u, v)] (a polynomial inequality, which the certificates prove by
    multipliers), it holds on every table. *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables.
Open Scope R_scope.

Section Box.
Variables (N : nat) (c : nat -> R) (T : R) (S : rset).
Hypothesis Hnonneg : forall i, (i < N)%nat -> 0 <= c i.
Hypothesis Hpair : forall i k, (i < N)%nat -> (k < N)%nat -> c i <= T * c k.
Hypothesis HN : (0 < N)%nat.

Let e := card N S.
Let sS := sumS N S c.
Let sR := sumS N (compl S) c.

Lemma box_param :
  (sS = 0 /\ sR = 0) \/
  exists a u v, 0 < a /\ 0 <= u <= e /\ 0 <= v <= INR N - e /\
    sS = a * (u * T + e - u) /\ sR = a * (v * T + (INR N - e) - v).
Proof.
  assert (Hall : cnt N (fun _ => true) = N).
  { clear. induction N as [|n IH]; simpl; [reflexivity|]. rewrite IH. lia. }
  destruct (exists_min N (fun _ => true) c ltac:(lia)) as [k [Hk [_ Hmin]]].
  set (a := c k).
  assert (Hlo : forall i, (i < N)%nat -> a <= c i) by (intros; apply Hmin; auto).
  assert (Hhi : forall i, (i < N)%nat -> c i <= T * a) by (intros; apply Hpair; auto).
  assert (HsS : a * e <= sS <= T * a * e).
  { assert (H1 : sumS N S (fun _ => a) <= sS) by (apply sumS_le; intros; apply Hlo; auto).
    assert (H2 : sS <= sumS N S (fun _ => T * a)) by (apply sumS_le; intros; apply Hhi; auto).
    rewrite sumS_const in H1, H2. unfold e. lra. }
  assert (HsR : a * (INR N - e) <= sR <= T * a * (INR N - e)).
  { assert (H1 : sumS N (compl S) (fun _ => a) <= sR) by (apply sumS_le; intros; apply Hlo; auto).
    assert (H2 : sR <= sumS N (compl S) (fun _ => T * a)) by (apply sumS_le; intros; apply Hhi; auto).
    rewrite sumS_const, card_compl in H1, H2. unfold e. lra. }
  assert (Ha0 : 0 <= a) by (apply Hnonneg; auto).
  assert (He0 : 0 <= e) by apply card_nonneg.
  assert (HeN : e <= INR N) by apply card_le.
  destruct (Req_dec a 0) as [Ha|Ha].
  - left. rewrite Ha in HsS, HsR. split; nra.
  - right. assert (HT1 : 1 <= T).
    { assert (a <= T * a) by (apply Hhi; auto). nra. }
    destruct (Req_dec T 1) as [HT|HT].
    + exists a, 0, 0. subst T. refine (conj _ (conj (conj _ _) (conj (conj _ _) (conj _ _)))); nra.
    + exists a, ((sS / a - e) / (T - 1)), ((sR / a - (INR N - e)) / (T - 1)).
      assert (Hap : 0 < a) by lra. assert (HTp : 0 < T - 1) by lra.
      assert (Hs1 : e <= sS / a <= T * e).
      { split; [apply Rmult_le_reg_r with a; [lra|]; unfold Rdiv; rewrite Rmult_assoc, Rinv_l; lra|].
        apply Rmult_le_reg_r with a; [lra|]. unfold Rdiv; rewrite Rmult_assoc, Rinv_l by lra. lra. }
      assert (Hr1 : INR N - e <= sR / a <= T * (INR N - e)).
      { split; [apply Rmult_le_reg_r with a; [lra|]; unfold Rdiv; rewrite Rmult_assoc, Rinv_l; lra|].
        apply Rmult_le_reg_r with a; [lra|]. unfold Rdiv; rewrite Rmult_assoc, Rinv_l by lra. lra. }
      refine (conj Hap (conj (conj _ _) (conj (conj _ _) (conj _ _)))).
      * apply Rmult_le_pos; [lra|]. apply Rlt_le, Rinv_0_lt_compat; lra.
      * apply Rmult_le_reg_r with (T - 1); [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. nra.
      * apply Rmult_le_pos; [lra|]. apply Rlt_le, Rinv_0_lt_compat; lra.
      * apply Rmult_le_reg_r with (T - 1); [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. nra.
      * field. lra.
      * field. lra.
Qed.

(** The upper ratio [mean_S / mean_D] from the obligation at every [(u, v)]. *)
Lemma box_upper U :
  (forall u v, 0 <= u -> u <= e -> 0 <= v -> v <= INR N - e ->
     INR N * (u * T + e - u) <= U * (e * ((u + v) * T + INR N - (u + v)))) ->
  upper_ok N S c U.
Proof.
  intro Hob. unfold upper_ok. rewrite (sumS_split N S c). fold sS sR e.
  destruct box_param as [[-> ->]|[a [u [v [Ha [[Hu0 Hu1] [[Hv0 Hv1] [-> ->]]]]]]]].
  - lra.
  - specialize (Hob u v Hu0 Hu1 Hv0 Hv1).
    replace (a * (u * T + e - u) + a * (v * T + (INR N - e) - v)) with (a * ((u + v) * T + INR N - (u + v))) by ring.
    apply Rmult_le_compat_l with (r := a) in Hob; [|lra]. nra.
Qed.

(** The lower ratio [mean_D / mean_S]. *)
Lemma box_lower U :
  (forall u v, 0 <= u -> u <= e -> 0 <= v -> v <= INR N - e ->
     e * ((u + v) * T + INR N - (u + v)) <= U * (INR N * (u * T + e - u))) ->
  lower_ok N S c U.
Proof.
  intro Hob. unfold lower_ok. rewrite (sumS_split N S c). fold sS sR e.
  destruct box_param as [[-> ->]|[a [u [v [Ha [[Hu0 Hu1] [[Hv0 Hv1] [-> ->]]]]]]]].
  - lra.
  - specialize (Hob u v Hu0 Hu1 Hv0 Hv1).
    replace (a * (u * T + e - u) + a * (v * T + (INR N - e) - v)) with (a * ((u + v) * T + INR N - (u + v))) by ring.
    apply Rmult_le_compat_l with (r := a) in Hob; [|lra]. nra.
Qed.
End Box.

(** The obligations of a set of [e] records, in the certificate's variables: [u] high values in the
    set, [m] in all (subset) or [v] outside it (class). *)
Definition vertex_subset_upper (N j T U : R) : Prop :=
  forall u m, 0 <= u -> 0 <= j - u -> 0 <= m - u -> 0 <= N - j - (m - u) ->
    N * (u * T + j - u) <= U * (j * (m * T + N - m)).
Definition vertex_subset_lower (N j T U : R) : Prop :=
  forall u m, 0 <= u -> 0 <= j - u -> 0 <= m - u -> 0 <= N - j - (m - u) ->
    j * (m * T + N - m) <= U * (N * (u * T + j - u)).
Definition vertex_class_upper (N k T U : R) : Prop :=
  forall e u v, 0 <= u -> 0 <= v -> 0 <= e - u -> 0 <= e - k -> 0 <= N - e -> 0 <= N - e - v ->
    N * (u * T + e - u) <= U * (e * ((u + v) * T + N - (u + v))).
Definition vertex_class_lower (N k T U : R) : Prop :=
  forall e u v, 0 <= u -> 0 <= v -> 0 <= e - u -> 0 <= e - k -> 0 <= N - e -> 0 <= N - e - v ->
    e * ((u + v) * T + N - (u + v)) <= U * (N * (u * T + e - u)).

Theorem vertex_subset sd N K x j T U :
  table N K x -> (0 < N)%nat -> pairwise_le N K x T ->
  vertex_subset_upper (INR N) j T U -> (sd = TwoSided -> vertex_subset_lower (INR N) j T U) ->
  subset_le sd N K x j U.
Proof.
  intros Htab HN HA Hup Hlow b S Hb HS.
  assert (Hnn := col_nonneg N K x b Htab Hb).
  assert (Hp : forall i k, (i < N)%nat -> (k < N)%nat -> col x b i <= T * col x b k) by (intros; apply HA; auto).
  split.
  - apply (box_upper N (col x b) T S); auto. rewrite HS. intros u v Hu0 Hu1 Hv0 Hv1.
    apply Hup; lra.
  - intro Hsd. apply (box_lower N (col x b) T S); auto. rewrite HS. intros u v Hu0 Hu1 Hv0 Hv1.
    apply (Hlow Hsd u (u + v)); lra.
Qed.

Theorem vertex_class sd N K x cls s T U :
  table N K x -> (0 < N)%nat -> pairwise_le N K x T -> (forall i, (i < N)%nat -> s <= card N (classof cls i)) ->
  vertex_class_upper (INR N) s T U -> (sd = TwoSided -> vertex_class_lower (INR N) s T U) ->
  class_le sd N K x cls U.
Proof.
  intros Htab HN HA Hs Hup Hlow b i Hb Hi.
  assert (Hnn := col_nonneg N K x b Htab Hb).
  assert (Hp : forall i k, (i < N)%nat -> (k < N)%nat -> col x b i <= T * col x b k) by (intros; apply HA; auto).
  pose proof (Hs i Hi). pose proof (card_le N (classof cls i)).
  split.
  - apply (box_upper N (col x b) T); auto. intros u v Hu0 Hu1 Hv0 Hv1. apply Hup; lra.
  - intro Hsd. apply (box_lower N (col x b) T); auto. intros u v Hu0 Hu1 Hv0 Hv1. apply (Hlow Hsd); lra.
Qed.
