(** The closeness of sei2019's randomized set channel ([set-channel-closeness], sei2019 Theorem 4 with Algorithm 1
    read as its text: the smallest p over the subsets), for any ground distance ([Bayes.ground]).

    A released set [Z] of prior mass [s = sumS K Z a] has the Bayes posterior (eq. 12) on the segment from the
    prior [a] to the prior conditioned on [Z] ([cond]), at the weight [w(p) = s (kc - kd) / Pr(Z)] ([posterior_mix]);
    [w] increases with [p] ([weight_mono]), and the distance from [a] does not decrease along the segment (the
    convexity of the transportation optimum, [emd_segment]), so a posterior within [t] at some [q] is within [t] at
    every [p <= q] ([posterior_mono]); a class's mean posterior (sei2019 Definition 15) is then within [t] by the
    convexity again ([emd_class], [set_channel_closeness]). With the channel's odds [kc / kd = 1 + x],
    [x = p K / ((1 - p) eta)] ([C_absorb]: [eta C(K, eta) = K C(K - 1, eta - 1)]), [w = s g(x)], [g(x) = x / (1 + s x)]
    ([weight_odds]), and the segment's end within [E] puts the posterior within [w E] ([emd_scale]): Algorithm 1's
    largest [p] for a set, the [p] of the root [r] of [g(r) = t / (s E)], keeps it within [t]
    ([closeness_root], the certificate's forms as the section's variables, each an identity the generated proof
    checks). No homogeneity beyond the segment is used, so no triangle inequality is needed. *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Events Transport Bayes TransportMetric.
Open Scope R_scope.

Lemma emd_le_ext K dist a b b' t t' : (forall j, (j < K)%nat -> b j = b' j) -> t <= t' ->
  emd_le K dist a b t -> emd_le K dist a b' t'.
Proof.
  intros Hb Ht [f [[H0 [Hr Hc]] Hcost]]. exists f. split; [split; [exact H0 | split; [exact Hr |]] | lra].
  intros j Hj. rewrite <- Hb by exact Hj. apply Hc; exact Hj.
Qed.

(** Along the segment from [a] to [b], the distance from [a] does not decrease. *)
Lemma emd_segment K dist a b c1 c2 t : prior K a -> ground K dist -> 0 <= t -> 0 <= c1 <= c2 ->
  emd_le K dist a (fun j => (1 - c2) * a j + c2 * b j) t -> emd_le K dist a (fun j => (1 - c1) * a j + c1 * b j) t.
Proof.
  intros Ha Hd Ht Hc H. destruct (Req_dec c2 0) as [E|E].
  - apply (emd_le_ext K dist a a _ t t); [intros j _; replace c1 with 0 by lra; ring | lra |].
    apply emd_self; assumption.
  - set (l := c1 / c2). assert (Hl : 0 <= l <= 1).
    { unfold l. split; [unfold Rdiv; apply Rmult_le_pos; [lra | apply Rlt_le, Rinv_0_lt_compat; lra] |].
      apply Rmult_le_reg_r with c2; [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by exact E. lra. }
    pose proof (transport_mixture K dist a a _ (1 - l) l 0 t ltac:(lra) ltac:(lra) ltac:(ring)
                  (emd_self K dist a 0 Ha Hd (Rle_refl 0)) H) as M.
    refine (emd_le_ext K dist a _ _ _ t _ _ M); [| nra].
    intros j _. unfold l. field. exact E.
Qed.
Lemma C_absorb K eta : (1 <= eta <= K)%nat -> INR eta * C K eta = INR K * C (K - 1) (eta - 1).
Proof.
  intros [H1 H2]. destruct K as [|K']; [lia|]. destruct eta as [|e']; [lia|].
  replace (S K' - 1)%nat with K' by lia. replace (S e' - 1)%nat with e' by lia.
  unfold C. replace (S K' - S e')%nat with (K' - e')%nat by lia.
  rewrite !fact_simpl, !mult_INR.
  pose proof (INR_fact_neq_0 e'). pose proof (INR_fact_neq_0 (K' - e')).
  pose proof (pos_INR e'). field. repeat split; try assumption. rewrite S_INR. lra.
Qed.

Definition cond (K : nat) (a : nat -> R) (Z : rset) (m : nat) : R := if Z m then a m / sumS K Z a else 0.
Definition evid (K eta : nat) (p : R) (a : nat -> R) (Z : rset) : R := sum K (fun m => lik K eta p Z m * a m).
Definition weight (K eta : nat) (p : R) (a : nat -> R) (Z : rset) : R :=
  sumS K Z a * (kc K eta p - kd K eta p) / evid K eta p a Z.

Lemma C_pos n k : 0 < C n k.
Proof.
  unfold C. apply Rdiv_lt_0_compat; [apply lt_0_INR, lt_O_fact |].
  apply Rmult_lt_0_compat; apply lt_0_INR, lt_O_fact.
Qed.

Lemma evid_split K eta p a Z : prior K a ->
  evid K eta p a Z = sumS K Z a * (kc K eta p - kd K eta p) + kd K eta p.
Proof.
  intros [_ Ha]. unfold evid. rewrite (sumS_split K Z). unfold sumS, compl, lik.
  rewrite (sumS_split K Z a) in Ha. unfold sumS, compl in Ha.
  assert (E1 : sum K (fun i => if Z i then (if Z i then kc K eta p else kd K eta p) * a i else 0)
               = kc K eta p * sum K (fun i => if Z i then a i else 0)).
  { rewrite <- sum_scal. apply sum_ext. intros i _. destruct (Z i); simpl; ring. }
  assert (E2 : sum K (fun i => if negb (Z i) then (if Z i then kc K eta p else kd K eta p) * a i else 0)
               = kd K eta p * sum K (fun i => if negb (Z i) then a i else 0)).
  { rewrite <- sum_scal. apply sum_ext. intros i _. destruct (Z i); simpl; ring. }
  rewrite E1, E2. nra.
Qed.

Lemma sumS_zero_at K Z a m : prior K a -> sumS K Z a = 0 -> (m < K)%nat -> Z m = true -> a m = 0.
Proof.
  intros [Ha0 _] Hs Hm Hz. rewrite (sumS_remove K Z m a Hm Hz) in Hs.
  assert (0 <= sumS K (remove Z m) a) by (apply sumS_nonneg; exact Ha0). pose proof (Ha0 m Hm). lra.
Qed.

(** A released set's posterior lies on the segment from the prior to the prior conditioned on the set. *)
Lemma posterior_mix K eta p a Z m : prior K a -> 0 < evid K eta p a Z -> (m < K)%nat ->
  posterior K (lik K eta p Z) a m = (1 - weight K eta p a Z) * a m + weight K eta p a Z * cond K a Z m.
Proof.
  intros Ha HS Hm. pose proof (evid_split K eta p a Z Ha) as E. unfold posterior, weight, cond.
  fold (evid K eta p a Z). unfold lik. destruct (Z m) eqn:Hz.
  - destruct (Req_dec (sumS K Z a) 0) as [S0|S0].
    + rewrite (sumS_zero_at K Z a m Ha S0 Hm Hz), S0. rewrite S0 in E.
      replace (0 / 0) with 0 by (unfold Rdiv; ring). field. lra.
    + rewrite E in *. field. lra.
  - rewrite E in *. field. lra.
Qed.

Lemma prior_mass K a Z : prior K a -> 0 <= sumS K Z a <= 1.
Proof.
  intros [Ha0 Ha]. split; [apply sumS_nonneg; exact Ha0 |]. rewrite <- Ha. apply sumS_le_sum. exact Ha0.
Qed.

(** The weight increases with p. *)
Lemma weight_mono K eta p q a Z : prior K a -> 0 <= p <= q -> q <= 1 -> 0 < evid K eta p a Z ->
  0 < evid K eta q a Z -> 0 <= weight K eta p a Z <= weight K eta q a Z.
Proof.
  intros Ha Hp Hq HSp HSq. pose proof (prior_mass K a Z Ha) as Hs.
  pose proof (evid_split K eta p a Z Ha) as Ep. pose proof (evid_split K eta q a Z Ha) as Eq.
  pose proof (C_pos (K - 1) (eta - 1)) as C1. pose proof (C_pos K eta) as C2. unfold weight.
  set (s := sumS K Z a) in *. set (S1 := evid K eta p a Z) in *. set (S2 := evid K eta q a Z) in *.
  assert (Dp : kc K eta p - kd K eta p = p / C (K - 1) (eta - 1)) by (unfold kc, kd; ring).
  assert (Dq : kc K eta q - kd K eta q = q / C (K - 1) (eta - 1)) by (unfold kc, kd; ring).
  rewrite Dp, Dq in *. unfold kd in *.
  set (c1 := C (K - 1) (eta - 1)) in *. set (c2 := C K eta) in *.
  assert (0 <= p / c1) by (unfold Rdiv; apply Rmult_le_pos; [lra | apply Rlt_le, Rinv_0_lt_compat; lra]).
  split; [unfold Rdiv; apply Rmult_le_pos; [nra | apply Rlt_le, Rinv_0_lt_compat; lra] |].
  unfold Rdiv. apply Rmult_le_reg_r with (S1 * S2); [nra |].
  replace (s * (p * / c1) * / S1 * (S1 * S2)) with (s * (p / c1) * S2) by (field; lra).
  replace (s * (q * / c1) * / S2 * (S1 * S2)) with (s * (q / c1) * S1) by (field; lra).
  rewrite Ep, Eq. unfold Rdiv.
  assert (K0 : p * / c1 * ((1 - q) * / c2) <= q * / c1 * ((1 - p) * / c2)).
  { replace (p * / c1 * ((1 - q) * / c2)) with ((p - p * q) * (/ c1 * / c2)) by ring.
    replace (q * / c1 * ((1 - p) * / c2)) with ((q - p * q) * (/ c1 * / c2)) by ring.
    apply Rmult_le_compat_r; [| lra]. apply Rmult_le_pos; apply Rlt_le, Rinv_0_lt_compat; lra. }
  nra.
Qed.

Lemma evid_pos K eta p q a Z : prior K a -> 0 <= p <= q -> q <= 1 -> 0 < evid K eta q a Z -> 0 < evid K eta p a Z.
Proof.
  intros Ha Hp Hq HS. destruct (Req_dec p 1) as [E|E]; [replace p with q by lra; exact HS |].
  rewrite evid_split by exact Ha. pose proof (prior_mass K a Z Ha) as Hs.
  pose proof (C_pos (K - 1) (eta - 1)) as C1. pose proof (C_pos K eta) as C2.
  replace (kc K eta p - kd K eta p) with (p / C (K - 1) (eta - 1)) by (unfold kc, kd; ring). unfold kd.
  assert (0 <= p / C (K - 1) (eta - 1)) by (unfold Rdiv; apply Rmult_le_pos; [lra | apply Rlt_le, Rinv_0_lt_compat; lra]).
  assert (0 < (1 - p) / C K eta) by (apply Rdiv_lt_0_compat; lra). nra.
Qed.

(** A released set's posterior at [p] is within [t] of the prior whenever it is at some [q >= p]. *)
Lemma posterior_mono K eta p q a Z dist t : prior K a -> ground K dist -> 0 <= t -> 0 <= p <= q -> q <= 1 ->
  0 < evid K eta q a Z -> emd_le K dist a (posterior K (lik K eta q Z) a) t ->
  emd_le K dist a (posterior K (lik K eta p Z) a) t.
Proof.
  intros Ha Hd Ht Hp Hq HS H. pose proof (evid_pos K eta p q a Z Ha Hp Hq HS) as HSp.
  pose proof (weight_mono K eta p q a Z Ha Hp Hq HSp HS) as W.
  refine (emd_le_ext K dist a _ _ t t _ (Rle_refl t) _).
  - intros j Hj. symmetry. apply posterior_mix; assumption.
  - apply (emd_segment K dist a (cond K a Z) _ _ t Ha Hd Ht W).
    refine (emd_le_ext K dist a _ _ t t _ (Rle_refl t) H). intros j Hj. apply posterior_mix; assumption.
Qed.

(** Mass [card n X] of the prior, sent to the sum of the records' marginals, costs at most [card n X * t]. *)
Lemma emd_sum K dist a P X t : 0 <= t -> forall n,
  (forall k, (k < n)%nat -> X k = true -> emd_le K dist a (P k) t) ->
  exists f, flow K (fun i => card n X * a i) (fun j => sumS n X (fun k => P k j)) f /\ cost K dist f <= card n X * t.
Proof.
  intros Ht n. induction n as [|n IH]; intro H.
  - exists (fun _ _ => 0). unfold card, sumS. simpl. split; [split; [| split] |].
    + intros; lra.
    + intros i _. rewrite sum_zero. ring.
    + intros j _. apply sum_zero.
    + unfold cost. rewrite (sum_ext K _ (fun _ => 0)); [rewrite sum_zero; lra |].
      intros i _. rewrite (sum_ext K _ (fun _ => 0)); [apply sum_zero | intros; ring].
  - destruct IH as [F [[F0 [Fr Fc]] Fcost]]; [intros k Hk; apply H; lia |].
    unfold card, sumS in *. simpl. destruct (X n) eqn:Xn.
    + destruct (H n (Nat.lt_succ_diag_r n) Xn) as [g [[G0 [Gr Gc]] Gcost]].
      exists (fun i j => F i j + g i j). split; [split; [| split] |].
      * intros i j Hi Hj. pose proof (F0 i j Hi Hj). pose proof (G0 i j Hi Hj). lra.
      * intros i Hi. rewrite sum_plus, Fr, Gr by exact Hi. ring.
      * intros j Hj. rewrite sum_plus, Fc, Gc by exact Hj. reflexivity.
      * unfold cost in *. rewrite (sum_ext K _ (fun i => sum K (fun j => dist i j * F i j)
                                                         + sum K (fun j => dist i j * g i j))).
        -- rewrite sum_plus. lra.
        -- intros i _. rewrite <- sum_plus. apply sum_ext. intros; ring.
    + exists F. split; [split; [exact F0 | split] |].
      * intros i Hi. rewrite Fr by exact Hi. ring.
      * intros j Hj. rewrite Fc by exact Hj. ring.
      * lra.
Qed.

(** A class's mean posterior is within [t] when each of its records' is (the convexity of [emd_le]). *)
Lemma emd_class N K dist a P X t : 0 <= t -> 1 <= card N X ->
  (forall k, (k < N)%nat -> X k = true -> emd_le K dist a (P k) t) ->
  emd_le K dist a (fun m => sumS N X (fun k => P k m) / card N X) t.
Proof.
  intros Ht Hc H. destruct (emd_sum K dist a P X t Ht N H) as [F [[F0 [Fr Fc]] Fcost]].
  exists (fun i j => F i j / card N X). split; [split; [| split] |].
  - intros i j Hi Hj. pose proof (F0 i j Hi Hj). unfold Rdiv. apply Rmult_le_pos; [lra |].
    apply Rlt_le, Rinv_0_lt_compat; lra.
  - intros i Hi. unfold Rdiv. rewrite (sum_ext K _ (fun j => / card N X * F i j)) by (intros; ring).
    rewrite sum_scal, Fr by exact Hi. field. lra.
  - intros j Hj. unfold Rdiv. rewrite (sum_ext K _ (fun i => / card N X * F i j)) by (intros; ring).
    rewrite sum_scal, Fc by exact Hj. ring.
  - unfold cost in *. unfold Rdiv.
    rewrite (sum_ext K _ (fun i => / card N X * sum K (fun j => dist i j * F i j))).
    + rewrite sum_scal. apply Rmult_le_reg_l with (card N X); [lra |].
      replace (card N X * (/ card N X * sum K (fun i => sum K (fun j => dist i j * F i j))))
        with (sum K (fun i => sum K (fun j => dist i j * F i j))) by (field; lra). lra.
    + intros i _. rewrite <- sum_scal. apply sum_ext. intros; ring.
Qed.

(** [set-channel-closeness] (sei2019 Theorem 4, Algorithm 1 read as its text): if the channel's [p] is at most a
    [q <= 1] at which each record's released set [Z k] has its posterior within [t] of the prior (Algorithm 1 solves
    [t = D[A, B]] for each subset and keeps the smallest [p]), every class's mean posterior is within [t] of the
    prior, for any ground distance. *)
Theorem set_channel_closeness N K eta p a dist Z cls t : prior K a -> ground K dist -> 0 <= t -> 0 <= p ->
  (forall k, (k < N)%nat -> exists q, p <= q <= 1 /\ 0 < evid K eta q a (Z k) /\
                                      emd_le K dist a (posterior K (lik K eta q (Z k)) a) t) ->
  forall i, (i < N)%nat -> emd_le K dist a (class_posterior N K eta p a Z cls i) t.
Proof.
  intros Ha Hd Ht Hp HZ i Hi. unfold class_posterior.
  apply (emd_class N K dist a (fun k => posterior K (lik K eta p (Z k)) a)); [exact Ht | |].
  - apply class_self_pos. exact Hi.
  - intros k Hk _. destruct (HZ k Hk) as [q [Hq [HS Hpost]]].
    apply (posterior_mono K eta p q a (Z k) dist t); try assumption; lra.
Qed.

(** The weight is [s g(x)] with the channel's odds [kc / kd = 1 + x], [x = q K / ((1 - q) eta)], [g(x) = x / (1 + s x)]. *)
Lemma weight_odds K eta q a Z : prior K a -> (1 <= eta <= K)%nat -> 0 <= q < 1 ->
  weight K eta q a Z = sumS K Z a * ((q * INR K / ((1 - q) * INR eta)) /
                                     (1 + sumS K Z a * (q * INR K / ((1 - q) * INR eta)))).
Proof.
  intros Ha Heta Hq. pose proof (prior_mass K a Z Ha) as Hs. pose proof (C_absorb K eta Heta) as Ab.
  pose proof (C_pos (K - 1) (eta - 1)) as C1. pose proof (C_pos K eta) as C2.
  assert (He : 1 <= INR eta) by (apply (le_INR 1); lia). assert (HK : INR eta <= INR K) by (apply le_INR; lia).
  unfold weight. rewrite evid_split by exact Ha. unfold kc, kd.
  replace (C K eta) with (INR K * C (K - 1) (eta - 1) / INR eta) by (rewrite <- Ab; field; lra).
  set (s := sumS K Z a). set (c1 := C (K - 1) (eta - 1)).
  assert (Hs' : 0 <= s <= 1) by apply (prior_mass K a Z Ha). fold c1 in C1.
  assert (0 <= q * INR K / ((1 - q) * INR eta)).
  { unfold Rdiv. apply Rmult_le_pos; [nra | apply Rlt_le, Rinv_0_lt_compat; nra]. }
  assert (0 < (1 - q) * INR eta) by (apply Rmult_lt_0_compat; lra).
  assert (0 <= s * (q * INR K)) by (apply Rmult_le_pos; [apply (proj1 (prior_mass K a Z Ha)) | apply Rmult_le_pos; lra]).
  field. repeat split; lra.
Qed.

(** The segment from [a] to [b] at [c]: within [c E] when [b] is within [E]. *)
Lemma emd_scale K dist a b c E : prior K a -> ground K dist -> 0 <= c <= 1 -> emd_le K dist a b E ->
  emd_le K dist a (fun j => (1 - c) * a j + c * b j) (c * E).
Proof.
  intros Ha Hd Hc H. pose proof (transport_mixture K dist a a b (1 - c) c 0 E ltac:(lra) ltac:(lra) ltac:(ring)
                                   (emd_self K dist a 0 Ha Hd (Rle_refl 0)) H) as M.
  refine (emd_le_ext K dist a _ _ _ _ _ _ M); [intros; reflexivity | lra].
Qed.

Section Root.
(** The certificate's forms: the odds [X p h d], the gap [g x s], the root [root G s] and [pr y h d], the p of an
    odds [y]; each hypothesis is an identity, on the forms' domain, that the generated proof checks by [field]. *)
Variables (X : R -> R -> R -> R) (g : R -> R -> R) (root : R -> R -> R) (pr : R -> R -> R -> R).
Hypothesis Hx : forall p h d, 0 <= p < 1 -> 1 <= h -> h <= d -> X p h d = p * d / ((1 - p) * h).
Hypothesis Hg : forall x s, 0 <= x -> 0 <= s <= 1 -> g x s = x / (1 + s * x).
Hypothesis Hr : forall G s, 0 <= G -> 0 < s <= 1 -> s * G < 1 -> root G s = G / (1 - s * G).
Hypothesis Hp : forall y h d, 0 <= y -> 1 <= h -> h <= d -> pr y h d = y * h / (d + y * h).

Lemma root_ok G s : 0 <= G -> 0 < s <= 1 -> s * G < 1 -> 0 <= root G s /\ g (root G s) s = G.
Proof.
  intros HG Hs HsG. rewrite Hr by assumption.
  assert (H0 : 0 <= G / (1 - s * G)) by (apply Rdiv_le_0_compat'; lra).
  split; [exact H0 |]. rewrite Hg by (assumption || lra). field. lra.
Qed.

Lemma pr_ok y h d : 0 <= y -> 1 <= h -> h <= d -> 0 <= pr y h d < 1 /\ X (pr y h d) h d = y.
Proof.
  intros Hy Hh Hd. rewrite Hp by assumption. assert (0 <= y * h) by nra.
  assert (Hl : 0 <= y * h / (d + y * h) < 1).
  { split; [apply Rdiv_le_0_compat'; lra |]. apply Rmult_lt_reg_r with (d + y * h); [lra |].
    unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra. }
  split; [exact Hl |]. rewrite Hx by (lra || assumption). field. lra.
Qed.

(** [set-channel-closeness] with Algorithm 1's root: each released set [Z] of prior mass [s > 0] has the prior
    conditioned on it within some [E] of the prior; if [E <= t], any [p] serves, else the largest [p] at which the
    posterior's gap [s g(x(p)) E] reaches [t] is [pr (root (t / (s E)) s)]; the channel's [p] is at most each
    (the smallest over the sets); and each release has positive probability. *)
Theorem closeness_root N K eta p a dist Z cls t : (1 <= eta <= K)%nat -> prior K a -> ground K dist -> 0 <= t ->
  0 <= p <= 1 -> (forall k, (k < N)%nat -> 0 < evid K eta p a (Z k)) ->
  (forall k, (k < N)%nat -> 0 < sumS K (Z k) a -> exists E, emd_le K dist a (cond K a (Z k)) E /\
     (E <= t \/ (t < E /\ p <= pr (root (t / (sumS K (Z k) a * E)) (sumS K (Z k) a)) (INR eta) (INR K)))) ->
  forall i, (i < N)%nat -> emd_le K dist a (class_posterior N K eta p a Z cls i) t.
Proof.
  intros Heta Ha Hd Ht Hp01 Hev HZ. apply (set_channel_closeness N K eta p a dist Z cls t Ha Hd Ht (proj1 Hp01)).
  intros k Hk. pose proof (prior_mass K a (Z k) Ha) as Hs. set (s := sumS K (Z k) a) in *.
  assert (He : 1 <= INR eta) by (apply (le_INR 1); lia). assert (HK : INR eta <= INR K) by (apply le_INR; lia).
  pose proof (C_pos (K - 1) (eta - 1)) as C1. pose proof (C_pos K eta) as C2.
  assert (Post : forall q, 0 < evid K eta q a (Z k) -> 0 <= weight K eta q a (Z k) <= 1 ->
            forall E, emd_le K dist a (cond K a (Z k)) E -> weight K eta q a (Z k) * E <= t ->
            emd_le K dist a (posterior K (lik K eta q (Z k)) a) t).
  { intros q Hq W E HE Hle. refine (emd_le_ext K dist a _ _ _ t _ Hle (emd_scale K dist a _ _ E Ha Hd W HE)).
    intros j Hj. symmetry. apply posterior_mix; assumption. }
  assert (Wb : forall q, 0 <= q <= 1 -> 0 < evid K eta q a (Z k) -> 0 <= weight K eta q a (Z k) <= 1).
  { intros q Hq HS. unfold weight. rewrite evid_split in HS |- * by exact Ha. fold s in HS |- *.
    replace (kc K eta q - kd K eta q) with (q / C (K - 1) (eta - 1)) in * by (unfold kc, kd; ring). unfold kd in *.
    assert (0 <= q / C (K - 1) (eta - 1)) by (apply Rdiv_le_0_compat'; lra).
    assert (0 <= (1 - q) / C K eta) by (apply Rdiv_le_0_compat'; lra).
    split; [apply Rdiv_le_0_compat'; nra |]. apply Rmult_le_reg_r with (s * (q / C (K - 1) (eta - 1)) + (1 - q) / C K eta);
    [lra |]. unfold Rdiv at 1. rewrite Rmult_assoc, Rinv_l by lra. nra. }
  destruct (Req_dec s 0) as [S0|S0].
  - exists p. split; [lra | split; [apply Hev; exact Hk |]].
    refine (emd_le_ext K dist a a _ t t _ (Rle_refl t) (emd_self K dist a t Ha Hd Ht)).
    intros j Hj. rewrite posterior_mix by (try apply Hev; assumption). unfold weight. fold s. rewrite S0. 
    unfold Rdiv. ring.
  - assert (Spos : 0 < s).
    { destruct (proj1 (prior_mass K a (Z k) Ha)) as [|E0]; [assumption | exfalso; apply S0; symmetry; exact E0]. }
    destruct (HZ k Hk Spos) as [E [HE [Et | [Et Hpq]]]].
    + assert (H1 : 0 < evid K eta 1 a (Z k)).
      { rewrite evid_split by exact Ha. fold s.
        replace (kc K eta 1 - kd K eta 1) with (1 / C (K - 1) (eta - 1)) by (unfold kc, kd; field; lra).
        unfold kd. replace ((1 - 1) / C K eta) with 0 by (unfold Rdiv; ring).
        assert (0 < 1 / C (K - 1) (eta - 1)) by (apply Rdiv_lt_0_compat; lra). nra. }
      exists 1. split; [lra | split; [exact H1 |]]. pose proof (Wb 1 ltac:(lra) H1) as W.
      apply (Post 1 H1 W E HE). destruct (Rle_dec 0 E); nra.
    + assert (HE0 : 0 < E) by lra. fold s in Hpq. set (G := t / (s * E)) in *.
      assert (HG : 0 <= G) by (apply Rdiv_le_0_compat'; nra).
      assert (HsG : s * G = t / E) by (unfold G; field; lra).
      assert (HsG1 : s * G < 1) by (rewrite HsG; apply Rmult_lt_reg_r with E; [lra |]; unfold Rdiv;
                                    rewrite Rmult_assoc, Rinv_l by lra; lra).
      destruct (root_ok G s HG ltac:(lra) HsG1) as [Hr0 HrG].
      destruct (pr_ok (root G s) (INR eta) (INR K) Hr0 He HK) as [Hq HX].
      set (q := pr (root G s) (INR eta) (INR K)) in *.
      assert (Hq1 : 0 < evid K eta q a (Z k)).
      { rewrite evid_split by exact Ha. fold s. replace (kc K eta q - kd K eta q) with (q / C (K - 1) (eta - 1))
          by (unfold kc, kd; ring). unfold kd.
        assert (0 <= q / C (K - 1) (eta - 1)) by (apply Rdiv_le_0_compat'; lra).
        assert (0 < (1 - q) / C K eta) by (apply Rdiv_lt_0_compat; lra). nra. }
      exists q. split; [lra | split; [exact Hq1 |]].
      apply (Post q Hq1 (Wb q ltac:(lra) Hq1) E HE). rewrite weight_odds by (assumption || lra). fold s.
      rewrite Hx in HX by (assumption || lra).
      assert (0 <= q * INR K / ((1 - q) * INR eta)) by (rewrite HX; exact Hr0).
      rewrite <- (Hg _ s) by (assumption || lra). rewrite HX, HrG, HsG. right. field. lra.
Qed.

(** The certificate's terms: eq. 12 reads [B - A = g(x) v_Z] with [v_Z m = A m (1[m in Z] - s)], and [A + v_Z] is
    the segment's point at [s] ([shifted_segment]); for a metric ground (both of emd-t-closeness's:
    [emd_ground_metric]) its distance [D] is [s] times the conditioned prior's ([emd_scale_up]), so Algorithm 1's
    [G = t / D[A, A + v_Z]] is [closeness_root]'s [t / (s E)]. *)
Definition shifted (K : nat) (a : nat -> R) (Z : rset) (m : nat) : R :=
  a m + a m * ((if Z m then 1 else 0) - sumS K Z a).

Lemma shifted_segment K a Z m : 0 < sumS K Z a ->
  shifted K a Z m = (1 - sumS K Z a) * a m + sumS K Z a * cond K a Z m.
Proof. intro Hs. unfold shifted, cond. destruct (Z m); field; lra. Qed.

Theorem closeness_shifted N K eta p a dist Z cls t : (1 <= eta <= K)%nat -> prior K a -> emd_ground K dist ->
  0 <= t -> 0 <= p <= 1 -> (forall k, (k < N)%nat -> 0 < evid K eta p a (Z k)) ->
  (forall k, (k < N)%nat -> 0 < sumS K (Z k) a -> exists D, emd_le K dist a (shifted K a (Z k)) D /\
     (D <= sumS K (Z k) a * t \/
      (sumS K (Z k) a * t < D /\ p <= pr (root (t / D) (sumS K (Z k) a)) (INR eta) (INR K)))) ->
  forall i, (i < N)%nat -> emd_le K dist a (class_posterior N K eta p a Z cls i) t.
Proof.
  intros Heta Ha Hgr Ht Hp01 Hev HZ. pose proof (emd_ground_metric K dist Hgr) as Hm.
  apply (closeness_root N K eta p a dist Z cls t Heta Ha (proj1 Hm) Ht Hp01 Hev).
  intros k Hk Hs. destruct (HZ k Hk Hs) as [D [HD Hc]]. pose proof (prior_mass K a (Z k) Ha) as Hs1.
  set (s := sumS K (Z k) a) in *. exists (D / s). split.
  - apply (emd_scale_up K dist a _ s D Hm); [| lra |].
    + intros m Hm'. destruct Ha as [Ha0 _]. split; [apply Ha0; exact Hm' |]. unfold cond.
      destruct (Z k m); [apply Rdiv_le_0_compat'; [apply Ha0; exact Hm' | exact Hs] | lra].
    + refine (emd_le_ext K dist a _ _ D D _ (Rle_refl D) HD). intros j _. apply shifted_segment. exact Hs.
  - assert (0 <= s * t) by (apply Rmult_le_pos; lra).
    destruct Hc as [Hc | [Hc Hpr]]; [left | right; split].
    + apply Rmult_le_reg_l with s; [exact Hs |]. replace (s * (D / s)) with D by (field; lra). lra.
    + apply Rmult_lt_reg_l with s; [exact Hs |]. replace (s * (D / s)) with D by (field; lra). lra.
    + replace (t / (s * (D / s))) with (t / D) by (field; split; lra). exact Hpr.
Qed.
End Root.
