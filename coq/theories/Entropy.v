(** The class levels of the l-diversities and the inequalities between them (implgraph.certify.lemma_chain), proved
    on every table with classes. A class's distribution [q] is its records' mean row; its levels are

    - [min-entropy]: [1 / max q] (frequency l-diversity),
    - [support]: the number of buckets with [q_b > 0] (distinct l-diversity),
    - [shannon]: [exp H(q)], [H(q) = - sum q_b ln q_b] (entropy l-diversity),

    and the table's level is its worst class's; larger is stronger, so "at least T" is every class's level at least
    T. The facts: [support >= ceiling(1/max q)] (pigeonhole), [support >= ceiling(exp H)] (Gibbs: [ln y <= y - 1]),
    [exp H >= capped(1/max q)], the entropy of the capped distribution ([floor x] values [1/x] and one
    [1 - floor(x)/x]), the least on the polytope [0 <= q_b <= 1/x] ([-t ln t] is concave: above its chords). *)
From Coq Require Import Reals Lra Lia ZArith.
From Flocq Require Import Raux.
From Implgraph Require Import Sums Tables Distance Events Columns.
Open Scope R_scope.

(** A class's distribution. *)
Definition cq (N : nat) (x : nat -> nat -> R) (cls : nat -> nat) (i b : nat) : R :=
  sumS N (classof cls i) (col x b) / card N (classof cls i).

Lemma cq_nonneg N K x cls i b : table N K x -> (i < N)%nat -> (b < K)%nat -> 0 <= cq N x cls i b.
Proof.
  intros Htab Hi Hb. pose proof (class_self_pos N cls i Hi). unfold cq.
  apply (nonneg_frac (sumS N (classof cls i) (col x b)) (card N (classof cls i))); [|lra|reflexivity].
  apply sumS_nonneg. intros k Hk. apply (col_nonneg N K x b Htab Hb); auto.
Qed.

Lemma sumS_ext_in n X f g : (forall k, (k < n)%nat -> X k = true -> f k = g k) -> sumS n X f = sumS n X g.
Proof. intro H. unfold sumS. apply sum_ext. intros k Hk. destruct (X k) eqn:E; [apply H; auto|reflexivity]. Qed.

Lemma IZR_le_nat_ceil T m : T <= INR m -> IZR (Zceil T) <= INR m.
Proof. intro H. rewrite INR_IZR_INZ. apply IZR_le, Zceil_glb. rewrite <- INR_IZR_INZ. exact H. Qed.

Lemma cq_sum N K x cls i : table N K x -> (i < N)%nat -> sum K (cq N x cls i) = 1.
Proof.
  intros Htab Hi. pose proof (class_self_pos N cls i Hi). unfold cq.
  rewrite sum_div.
  assert (Hs : sum K (fun b => sumS N (classof cls i) (col x b)) =
               sumS N (classof cls i) (fun k => sum K (fun b => x k b)))
    by exact (sumS_swap K N (fun _ => true) (classof cls i) x).
  rewrite Hs. destruct Htab as [_ Hrow].
  rewrite (sumS_ext_in N (classof cls i) _ (fun _ => 1)) by (intros k Hk _; apply Hrow; auto).
  fold (card N (classof cls i)). field. lra.
Qed.

(** The buckets a class holds. *)
Definition held (N : nat) (x : nat -> nat -> R) (cls : nat -> nat) (i : nat) : rset :=
  fun b => if Rlt_dec 0 (cq N x cls i b) then true else false.
Definition support (N K : nat) (x : nat -> nat -> R) (cls : nat -> nat) (i : nat) : R := card K (held N x cls i).

(** [-t ln t], 0 at 0. *)
Definition ent (t : R) : R := if Rlt_dec 0 t then - (t * ln t) else 0.
Definition shannon (N K : nat) (x : nat -> nat -> R) (cls : nat -> nat) (i : nat) : R :=
  exp (sum K (fun b => ent (cq N x cls i b))).

Definition minent_ge (N K : nat) x cls (T : R) : Prop :=
  forall i b, (i < N)%nat -> (b < K)%nat -> T * cq N x cls i b <= 1.
Definition support_ge (N K : nat) x cls (T : R) : Prop := forall i, (i < N)%nat -> T <= support N K x cls i.
Definition shannon_ge (N K : nat) x cls (T : R) : Prop := forall i, (i < N)%nat -> T <= shannon N K x cls i.

(** The entropy of the capped distribution at [x >= 1]. *)
Definition capped (x : R) : R := exp (IZR (Zfloor x) * ent (1 / x) + ent (1 - IZR (Zfloor x) / x)).

(** * Sums over the held buckets *)
Lemma sum_held N K x cls i f :
  table N K x -> (i < N)%nat -> (forall b, (b < K)%nat -> cq N x cls i b = 0 -> f b = 0) ->
  sum K f = sumS K (held N x cls i) f.
Proof.
  intros Htab Hi Hf. unfold sumS. apply sum_ext. intros b Hb. unfold held.
  destruct (Rlt_dec 0 (cq N x cls i b)); [reflexivity|].
  apply Hf; auto. pose proof (cq_nonneg N K x cls i b Htab Hi Hb). lra.
Qed.

Lemma support_pos N K x cls i : table N K x -> (i < N)%nat -> 1 <= support N K x cls i.
Proof.
  intros Htab Hi. unfold support. rewrite card_cnt.
  destruct (cnt K (held N x cls i)) eqn:E; [|rewrite S_INR; pose proof (pos_INR n); lra].
  exfalso. pose proof (cq_sum N K x cls i Htab Hi) as H1.
  rewrite (sum_held N K x cls i (cq N x cls i) Htab Hi (fun b _ H => H)) in H1.
  assert (Hc : card K (held N x cls i) = 0) by (rewrite card_cnt, E; reflexivity).
  rewrite sumS_card0 in H1 by exact Hc. lra.
Qed.

(** [support >= min-entropy]: a class's values sum to 1 and each is at most [1/T]. *)
Theorem support_of_minent N K x cls T :
  table N K x -> minent_ge N K x cls T -> support_ge N K x cls (IZR (Zceil T)).
Proof.
  intros Htab HA i Hi. unfold support. rewrite card_cnt. apply IZR_le_nat_ceil.
  destruct (Rle_dec T 0) as [HT|HT]; [pose proof (pos_INR (cnt K (held N x cls i))); lra|].
  pose proof (cq_sum N K x cls i Htab Hi) as H1.
  rewrite (sum_held N K x cls i (cq N x cls i) Htab Hi (fun b _ H => H)) in H1.
  assert (Hle : sumS K (held N x cls i) (cq N x cls i) <= sumS K (held N x cls i) (fun _ => 1 / T)).
  { apply sumS_le. intros b Hb _. specialize (HA i b Hi Hb).
    apply Rmult_le_reg_l with T; [lra|]. replace (T * (1 / T)) with 1 by (field; lra). lra. }
  rewrite sumS_const, card_cnt in Hle.
  apply Rmult_le_reg_r with (1 / T); [apply Rdiv_lt_0_compat; lra|]. replace (T * (1 / T)) with 1 by (field; lra).
  lra.
Qed.

(** * Logarithms *)
Lemma exp_ge_1_plus z : 1 + z <= exp z.
Proof. destruct (Req_dec z 0) as [->|H]; [rewrite exp_0; lra|left; apply exp_ineq1; auto]. Qed.

Lemma ln_le_minus_1 y : 0 < y -> ln y <= y - 1.
Proof. intro Hy. pose proof (exp_ge_1_plus (ln y)). rewrite exp_ln in H by auto. lra. Qed.

Lemma exp_le z w : z <= w -> exp z <= exp w.
Proof. intros [H|H]; [left; apply exp_increasing; auto|rewrite H; lra]. Qed.

(** [support >= shannon]: [H(q) <= ln k] on [k] held buckets. *)
Theorem support_of_shannon N K x cls T :
  table N K x -> shannon_ge N K x cls T -> support_ge N K x cls (IZR (Zceil T)).
Proof.
  intros Htab HA i Hi. unfold support. rewrite card_cnt. apply IZR_le_nat_ceil.
  specialize (HA i Hi). unfold shannon in HA. rewrite <- card_cnt. fold (support N K x cls i).
  pose proof (support_pos N K x cls i Htab Hi) as Hk. set (k := support N K x cls i) in *.
  apply Rle_trans with (exp (sum K (fun b => ent (cq N x cls i b)))); [exact HA|].
  rewrite <- (exp_ln k) by lra. apply exp_le.
  set (H := held N x cls i).
  rewrite (sum_held N K x cls i (fun b => ent (cq N x cls i b)) Htab Hi)
    by (intros b _ E; unfold ent; rewrite E; destruct (Rlt_dec 0 0); [lra|reflexivity]).
  fold H.
  pose proof (cq_sum N K x cls i Htab Hi) as H1.
  rewrite (sum_held N K x cls i (cq N x cls i) Htab Hi (fun b _ E => E)) in H1. fold H in H1.
  (* sum over H of q (ln (1/(k q))) <= sum over H of (1/k - q) = 0 *)
  assert (Hb : sumS K H (fun b => ent (cq N x cls i b)) - ln k <=
               sumS K H (fun b => cq N x cls i b * (1 / (k * cq N x cls i b) - 1))).
  { replace (ln k) with (sumS K H (fun b => cq N x cls i b * ln k))
      by (rewrite sumS_mult_r, H1; ring).
    unfold sumS. rewrite <- sum_minus. apply sum_le. intros b Hbk. unfold H, held.
    destruct (Rlt_dec 0 (cq N x cls i b)) as [Hq|Hq]; [|lra].
    unfold ent. destruct (Rlt_dec 0 (cq N x cls i b)) as [_|]; [|lra].
    set (q := cq N x cls i b) in *.
    assert (Hl : ln (1 / (k * q)) <= 1 / (k * q) - 1) by (apply ln_le_minus_1; apply Rdiv_lt_0_compat; nra).
    assert (Hln : ln (1 / (k * q)) = - ln k - ln q).
    { unfold Rdiv. rewrite Rmult_1_l, ln_Rinv, ln_mult by nra. ring. }
    rewrite Hln in Hl. assert (q * (- ln k - ln q) <= q * (1 / (k * q) - 1)) by (apply Rmult_le_compat_l; lra).
    lra. }
  assert (Hz : sumS K H (fun b => cq N x cls i b * (1 / (k * cq N x cls i b) - 1)) = 0).
  { transitivity (sumS K H (fun b => 1 / k - cq N x cls i b)).
    - unfold sumS. apply sum_ext. intros b _. unfold H, held.
      destruct (Rlt_dec 0 (cq N x cls i b)); [field; lra|reflexivity].
    - transitivity (sumS K H (fun _ => 1 / k) - sumS K H (cq N x cls i)).
      { unfold sumS. rewrite <- sum_minus. apply sum_ext. intros b _. destruct (H b); ring. }
      rewrite sumS_const, H1. replace (card K H) with k by reflexivity. field. lra. }
  lra.
Qed.

(** * The capped distribution *)
Definition xlnx (u : R) : R := - ent u.

Lemma xlnx_tangent u t : 0 <= u -> 0 < t -> u * ln t + (u - t) <= xlnx u.
Proof.
  intros Hu Ht. unfold xlnx, ent. destruct (Rlt_dec 0 u) as [Hp|Hp].
  - assert (Hl : ln (t / u) <= t / u - 1) by (apply ln_le_minus_1; apply Rdiv_lt_0_compat; lra).
    unfold Rdiv in Hl. rewrite ln_mult, ln_Rinv in Hl by (try apply Rinv_0_lt_compat; lra).
    assert (u * (ln t + - ln u) <= u * (t * / u - 1)) by (apply Rmult_le_compat_l; lra).
    replace (u * (t * / u - 1)) with (t - u) in H by (field; lra). lra.
  - assert (u = 0) by lra. subst u. lra.
Qed.

(** [-t ln t] lies above its chords. *)
Lemma ent_chord a t b :
  0 <= a -> a <= t -> t <= b -> a < b -> ((b - t) * ent a + (t - a) * ent b) / (b - a) <= ent t.
Proof.
  intros Ha Hat Htb Hab.
  destruct (Rlt_dec 0 t) as [Ht|Ht].
  - set (l := (b - t) / (b - a)). set (m := (t - a) / (b - a)).
    assert (Hl : 0 <= l) by (apply (nonneg_frac (b - t) (b - a)); [lra|lra|reflexivity]).
    assert (Hm : 0 <= m) by (apply (nonneg_frac (t - a) (b - a)); [lra|lra|reflexivity]).
    assert (Hlm : l + m = 1) by (unfold l, m; field; lra).
    assert (Ht' : l * a + m * b = t) by (unfold l, m; field; lra).
    replace (((b - t) * ent a + (t - a) * ent b) / (b - a)) with (l * ent a + m * ent b) by (unfold l, m; field; lra).
    pose proof (xlnx_tangent a t Ha Ht) as Ta. pose proof (xlnx_tangent b t ltac:(lra) Ht) as Tb.
    unfold xlnx in Ta, Tb.
    assert (Hent : ent t = - (t * ln t)) by (unfold ent; destruct (Rlt_dec 0 t); [reflexivity|lra]).
    rewrite Hent.
    assert (l * (a * ln t + (a - t)) <= l * - ent a) by (apply Rmult_le_compat_l; lra).
    assert (m * (b * ln t + (b - t)) <= m * - ent b) by (apply Rmult_le_compat_l; lra).
    assert (Hsum : l * (a * ln t + (a - t)) + m * (b * ln t + (b - t)) =
                   (l * a + m * b) * ln t + (l * a + m * b) - (l + m) * t) by ring.
    rewrite Ht', Hlm in Hsum.
    lra.
  - assert (t = 0) by lra. subst t. assert (a = 0) by lra. subst a.
    unfold ent at 1 3. destruct (Rlt_dec 0 0); [lra|].
    replace ((b - 0) * 0 + (0 - 0) * ent b) with 0 by ring. unfold Rdiv. rewrite Rmult_0_l. lra.
Qed.

Lemma ent_zero : ent 0 = 0.
Proof. unfold ent. destruct (Rlt_dec 0 0); [lra|reflexivity]. Qed.

(** Every value in [0, c], summing to 1, [n] = floor(1/c), [r = 1 - n c]: the sum of [ent] is at least the capped
    distribution's, [n ent(c) + ent(r)]. *)
Lemma capped_bound K (q : nat -> R) (c : R) (n : Z) :
  0 < c -> (1 <= n)%Z -> 0 <= 1 - IZR n * c < c ->
  (forall b, (b < K)%nat -> 0 <= q b <= c) -> sum K q = 1 ->
  IZR n * ent c + ent (1 - IZR n * c) <= sum K (fun b => ent (q b)).
Proof.
  intros Hc Hn Hr Hq Hsum. set (r := 1 - IZR n * c) in *.
  assert (Hn1 : 1 <= IZR n) by (apply IZR_le; lia).
  destruct (Req_dec r 0) as [Hr0|Hr0].
  - (* the chord from 0 to c *)
    rewrite Hr0, ent_zero, Rplus_0_r.
    assert (Hch : forall b, (b < K)%nat -> q b / c * ent c <= ent (q b)).
    { intros b Hb. destruct (Hq b Hb) as [Hq0 Hqc].
      destruct (Req_dec (q b) c) as [E|E]; [rewrite E; replace (c / c) with 1 by (field; lra); lra|].
      pose proof (ent_chord 0 (q b) c ltac:(lra) Hq0 Hqc Hc) as H.
      rewrite ent_zero in H. replace (((c - q b) * 0 + (q b - 0) * ent c) / (c - 0)) with (q b / c * ent c) in H
        by (field; lra). exact H. }
    apply Rle_trans with (sum K (fun b => q b / c * ent c)); [|apply sum_le; auto].
    rewrite (sum_ext K _ (fun b => ent c / c * q b)) by (intros; field; lra).
    rewrite sum_scal, Hsum. unfold r in Hr0.
    assert (Hn' : IZR n = 1 / c).
    { apply Rmult_eq_reg_r with c; [|lra]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra. }
    rewrite Hn'. right. field. lra.
  - assert (Hrp : 0 < r) by lra.
    set (s1 := ent r / r). set (s2 := (ent c - ent r) / (c - r)).
    (* the piecewise linear bound below ent on [0, c] *)
    assert (Hlin : forall t, 0 <= t <= c -> s2 * t + (s1 - s2) * Rmin t r <= ent t).
    { intros t [Ht0 Htc]. unfold Rmin. destruct (Rle_dec t r) as [Htr|Htr].
      - destruct (Req_dec t r) as [E|E]; [rewrite E; right; unfold s1; field; lra|].
        pose proof (ent_chord 0 t r ltac:(lra) Ht0 Htr Hrp) as H. rewrite ent_zero in H.
        replace (((r - t) * 0 + (t - 0) * ent r) / (r - 0)) with (s1 * t) in H by (unfold s1; field; lra).
        replace (s2 * t + (s1 - s2) * t) with (s1 * t) by ring. exact H.
      - destruct (Req_dec t c) as [E|E].
        + rewrite E. right. unfold s1, s2. field. split; lra.
        + pose proof (ent_chord r t c ltac:(lra) ltac:(lra) Htc ltac:(lra)) as H.
          replace (((c - t) * ent r + (t - r) * ent c) / (c - r)) with (s2 * t + (s1 - s2) * r) in H
            by (unfold s1, s2; field; lra). exact H. }
    (* s1 >= s2: the chord from 0 to c at r *)
    assert (Hs12 : s2 <= s1).
    { pose proof (ent_chord 0 r c ltac:(lra) ltac:(lra) ltac:(lra) Hc) as H. rewrite ent_zero in H.
      replace (((c - r) * 0 + (r - 0) * ent c) / (c - 0)) with (r * ent c / c) in H by (field; lra).
      unfold s1, s2. apply Rmult_le_reg_r with (r * (c - r)); [nra|].
      replace ((ent c - ent r) / (c - r) * (r * (c - r))) with (r * (ent c - ent r)) by (field; lra).
      replace (ent r / r * (r * (c - r))) with (ent r * (c - r)) by (field; lra).
      apply Rmult_le_compat_r with (r := c) in H; [|lra].
      replace (r * ent c / c * c) with (r * ent c) in H by (field; lra). nra. }
    (* sum of min(q_b, r) >= (n + 1) r *)
    set (A := fun b => if Rle_dec r (q b) then true else false).
    assert (HmA : r * card K A <= sum K (fun b => Rmin (q b) r)).
    { rewrite <- sumS_const. apply Rle_trans with (sumS K A (fun b => Rmin (q b) r)).
      - apply sumS_le. intros b Hb Ab. unfold A in Ab. destruct (Rle_dec r (q b)); [|discriminate].
        unfold Rmin. destruct (Rle_dec (q b) r); lra.
      - apply sumS_le_sum. intros b Hb. destruct (Hq b Hb). unfold Rmin. destruct (Rle_dec (q b) r); lra. }
    assert (HmB : 1 - (c - r) * card K A <= sum K (fun b => Rmin (q b) r)).
    { rewrite <- Hsum. unfold card. rewrite <- sumS_scal. unfold sumS. rewrite <- sum_minus. apply sum_le.
      intros b Hb. unfold A. destruct (Hq b Hb). unfold Rmin.
      destruct (Rle_dec r (q b)); destruct (Rle_dec (q b) r); lra. }
    assert (Hmin : (IZR n + 1) * r <= sum K (fun b => Rmin (q b) r)).
    { rewrite card_cnt in HmA, HmB. set (a := cnt K A) in *.
      destruct (Z_le_gt_dec (Z.of_nat a) n) as [Ha|Ha].
      - assert (INR a <= IZR n) by (rewrite INR_IZR_INZ; apply IZR_le; auto).
        assert ((c - r) * INR a <= (c - r) * IZR n) by (apply Rmult_le_compat_l; lra).
        assert (Hrdef : r = 1 - IZR n * c) by reflexivity. lra.
      - assert (IZR n + 1 <= INR a) by (rewrite INR_IZR_INZ, <- plus_IZR; apply IZR_le; lia).
        assert (r * (IZR n + 1) <= r * INR a) by (apply Rmult_le_compat_l; lra). lra. }
    (* the sum of the piecewise bound *)
    assert (Hsb : sum K (fun b => s2 * q b + (s1 - s2) * Rmin (q b) r) <= sum K (fun b => ent (q b)))
      by (apply sum_le; intros b Hb; apply Hlin; auto).
    rewrite sum_plus, !sum_scal, Hsum in Hsb.
    assert ((s1 - s2) * ((IZR n + 1) * r) <= (s1 - s2) * sum K (fun b => Rmin (q b) r))
      by (apply Rmult_le_compat_l; lra).
    replace (s2 * 1) with (s2 * (IZR n * c + r)) in Hsb by (unfold r; ring).
    assert (Hval : s2 * (IZR n * c + r) + (s1 - s2) * ((IZR n + 1) * r) = IZR n * ent c + ent r).
    { unfold s1, s2. field. split; lra. }
    lra.
Qed.

(** [shannon >= capped]: a class whose values are at most [1/T] has [exp H >= capped T]. *)
Theorem shannon_of_minent N K x cls T :
  table N K x -> 1 <= T -> minent_ge N K x cls T -> shannon_ge N K x cls (capped T).
Proof.
  intros Htab HT HA i Hi. unfold capped, shannon. apply exp_le.
  set (n := Zfloor T).
  assert (Hn1 : (1 <= n)%Z) by (apply Zfloor_lub; simpl; lra).
  assert (Hnl := Zfloor_lb T). assert (Hnu := Zfloor_ub T). fold n in Hnl, Hnu.
  replace (IZR n / T) with (IZR n * (1 / T)) by (field; lra).
  apply (capped_bound K (cq N x cls i) (1 / T) n).
  - apply Rdiv_lt_0_compat; lra.
  - exact Hn1.
  - split.
    + apply Rmult_le_reg_r with T; [lra|]. replace ((1 - IZR n * (1 / T)) * T) with (T - IZR n) by (field; lra). lra.
    + apply Rmult_lt_reg_r with T; [lra|]. replace ((1 - IZR n * (1 / T)) * T) with (T - IZR n) by (field; lra).
      replace (1 / T * T) with 1 by (field; lra). lra.
  - intros b Hb. split; [apply cq_nonneg with K; auto|]. specialize (HA i b Hi Hb).
    apply Rmult_le_reg_l with T; [lra|]. replace (T * (1 / T)) with 1 by (field; lra). lra.
  - apply cq_sum; auto.
Qed.
