(** The ceiling chord (implgraph.certify.lemmas.ceiling_chord): a class's total variation distance from the table
    bounds its KL and Renyi-2 divergence, its ratios being at most [H].

    With every ratio [r_l = p_l / q_l] in [[0, H]] ([H > 1]), [phi] below its chord on [[0, 1]] and on [[1, H]]:
    [q phi(p/q) <= q phi(1) + (phi 0 - phi 1) (q - p)^+ + (phi H - phi 1)/(H - 1) (p - q)^+] term by term, and the
    sums of [(q - p)^+] and [(p - q)^+] are both the total variation (the sums of [p] and [q] are equal), the mass of
    the event [{l : q_l < p_l}] under [p] less its mass under [q]. So the divergence is at most
    [phi 1 + (phi 0 - phi 1 + (phi H - phi 1)/(H - 1)) TV] ([ceiling_chord]); for a class of a partition, [H = N]
    ([size_upper] with classes of >= 1 record) and [TV <= T] ([tv_le]): [ceiling_chord_class]. *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Entropy Divergence.
Open Scope R_scope.

Definition ppart (u : R) : R := Rmax u 0.

Lemma ppart_split u : ppart u - ppart (- u) = u.
Proof. unfold ppart, Rmax. destruct (Rle_dec u 0), (Rle_dec (- u) 0); lra. Qed.

Lemma two_chords_term phi H q p :
  1 < H -> 0 <= q -> 0 <= p -> p <= H * q -> (q = 0 -> p = 0) ->
  below_chord phi 0 1 -> below_chord phi 1 H ->
  q * phi (p / q) <= q * phi 1 + (phi 0 - phi 1) * ppart (q - p) + (phi H - phi 1) / (H - 1) * ppart (p - q).
Proof.
  intros HH Hq Hp HpH Hd C0 C1.
  destruct (Req_dec q 0) as [Z|Z].
  - rewrite Z, (Hd Z). unfold ppart, Rmax. destruct (Rle_dec (0 - 0) 0); lra.
  - assert (Qp : 0 < q) by lra.
    assert (Hr0 : 0 <= p / q) by (unfold Rdiv; apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra]).
    assert (HrH : p / q <= H) by (apply Rmult_le_reg_r with q; [lra|]; unfold Rdiv; rewrite Rmult_assoc, Rinv_l; lra).
    destruct (Rle_dec p q) as [Le|Gt].
    + assert (Hr1 : p / q <= 1) by (apply Rmult_le_reg_r with q; [lra|]; unfold Rdiv; rewrite Rmult_assoc, Rinv_l; lra).
      pose proof (C0 (p / q) (conj Hr0 Hr1)) as C.
      replace (ppart (q - p)) with (q - p) by (unfold ppart, Rmax; destruct (Rle_dec (q - p) 0); lra).
      replace (ppart (p - q)) with 0 by (unfold ppart, Rmax; destruct (Rle_dec (p - q) 0); lra).
      replace (p / q - 0) with (p / q) in C by ring. replace (1 - 0) with 1 in C by ring.
      apply Rmult_le_compat_l with (r := q) in C; [|lra].
      replace (q * (p / q * phi 1 + (1 - p / q) * phi 0)) with (p * phi 1 + (q - p) * phi 0) in C by (field; lra).
      lra.
    + assert (Hr1 : 1 <= p / q) by (apply Rmult_le_reg_r with q; [lra|]; unfold Rdiv; rewrite Rmult_assoc, Rinv_l; lra).
      pose proof (C1 (p / q) (conj Hr1 HrH)) as C.
      replace (ppart (q - p)) with 0 by (unfold ppart, Rmax; destruct (Rle_dec (q - p) 0); lra).
      replace (ppart (p - q)) with (p - q) by (unfold ppart, Rmax; destruct (Rle_dec (p - q) 0); lra).
      apply Rmult_le_compat_l with (r := q / (H - 1)) in C;
        [|unfold Rdiv; apply Rmult_le_pos; [lra | left; apply Rinv_0_lt_compat; lra]].
      replace (q / (H - 1) * ((H - 1) * phi (p / q))) with (q * phi (p / q)) in C by (field; lra).
      replace (q / (H - 1) * ((p / q - 1) * phi H + (H - p / q) * phi 1))
        with (((p - q) * phi H + (H * q - p) * phi 1) / (H - 1)) in C by (field; lra).
      apply Rle_trans with (((p - q) * phi H + (H * q - p) * phi 1) / (H - 1)); [exact C|].
      right. field. lra.
Qed.

(** The event where [p] exceeds [q]: its mass under [p] less under [q] is the sum of [(p - q)^+]. *)
Definition above (p q : nat -> R) : rset := fun l => if Rlt_dec (q l) (p l) then true else false.

Lemma ppart_event K p q : sum K (fun l => ppart (p l - q l)) = sumS K (above p q) p - sumS K (above p q) q.
Proof.
  unfold sumS. rewrite <- sum_minus. apply sum_ext. intros l _. unfold above, ppart, Rmax.
  destruct (Rlt_dec (q l) (p l)); destruct (Rle_dec (p l - q l) 0); lra.
Qed.

Theorem ceiling_chord phi K p q H V :
  1 < H -> (forall l, (l < K)%nat -> 0 <= q l) -> (forall l, (l < K)%nat -> 0 <= p l) ->
  sum K q = 1 -> sum K p = 1 -> dominated K p q -> (forall l, (l < K)%nat -> p l <= H * q l) ->
  below_chord phi 0 1 -> below_chord phi 1 H ->
  0 <= phi 0 - phi 1 + (phi H - phi 1) / (H - 1) ->
  sumS K (above p q) p - sumS K (above p q) q <= V ->
  fdiv K phi p q <= phi 1 + (phi 0 - phi 1 + (phi H - phi 1) / (H - 1)) * V.
Proof.
  intros HH Hq Hp Sq Sp Hd HpH C0 C1 Hc HV. unfold fdiv.
  set (a := phi 0 - phi 1). set (b := (phi H - phi 1) / (H - 1)).
  apply Rle_trans with (sum K (fun l => q l * phi 1 + a * ppart (q l - p l) + b * ppart (p l - q l))).
  { apply sum_le. intros l Hl. apply two_chords_term; auto. }
  rewrite !sum_plus, !sum_scal, sum_mult_r'.
  assert (E : sum K (fun l => ppart (q l - p l)) = sum K (fun l => ppart (p l - q l))).
  { assert (E2 : sum K (fun l => ppart (q l - p l)) - sum K (fun l => ppart (p l - q l)) = sum K q - sum K p).
    { rewrite <- !sum_minus. apply sum_ext. intros l _.
      replace (p l - q l) with (- (q l - p l)) by ring. apply ppart_split. }
    rewrite Sq, Sp in E2. lra. }
  rewrite E, ppart_event, Sq. fold a b in Hc. nra.
Qed.

Theorem ceiling_chord_class k N K x cls H T U :
  table N K x -> (2 <= INR N) -> 1 < H ->
  (forall i l, (i < N)%nat -> (l < K)%nat -> cmean N x cls i l <= H * tmean N x l) ->
  below_chord (phi_of k) 0 1 -> below_chord (phi_of k) 1 H ->
  0 <= phi_of k 0 - phi_of k 1 + (phi_of k H - phi_of k 1) / (H - 1) ->
  tv_le N K x cls T ->
  phi_of k 1 + (phi_of k 0 - phi_of k 1 + (phi_of k H - phi_of k 1) / (H - 1)) * T <= dbound k U ->
  div_class_le k N K x cls U.
Proof.
  intros Htab HN HH HA C0 C1 Hc HT HU i Hi.
  assert (HN0 : (0 < N)%nat) by (destruct N; [simpl in HN; lra | lia]).
  assert (Hd : dominated K (cmean N x cls i) (tmean N x)).
  { intros l Hl Z. pose proof (HA i l Hi Hl). rewrite Z, Rmult_0_r in H0.
    pose proof (cmean_nonneg N K x cls i l Htab Hi Hl). lra. }
  split; [exact Hd|]. eapply Rle_trans; [|exact HU].
  apply ceiling_chord; [exact HH | | | | | exact Hd | | exact C0 | exact C1 | exact Hc |].
  - intros l Hl. apply (tmean_nonneg N K); auto.
  - intros l Hl. apply (cmean_nonneg N K); auto.
  - apply (tmean_sum N K); auto.
  - apply (cmean_sum N K); auto.
  - intros l Hl. apply HA; auto.
  - pose proof (HT i (above (cmean N x cls i) (tmean N x)) Hi) as E. unfold mass in E. exact E.
Qed.

(** The kinds' coefficients: KL ([phi 0 = phi 1 = 0], [phi H = H ln H]) and Renyi of order 2 ([1 + H T]). *)
Lemma below_kl01 : below_chord (phi_of KL) 0 1.
Proof. apply below_kl; lra. Qed.
Lemma below_kl1H H : 1 < H -> below_chord (phi_of KL) 1 H.
Proof. intros. apply below_kl; lra. Qed.
Lemma below_renyi01 : below_chord (phi_of (Renyi 2)) 0 1.
Proof. apply below_renyi2; lra. Qed.
Lemma below_renyi1H H : 1 < H -> below_chord (phi_of (Renyi 2)) 1 H.
Proof. intros. apply below_renyi2; lra. Qed.

Lemma xlnx_0 : xlnx 0 = 0.
Proof. unfold xlnx, ent. destruct (Rlt_dec 0 0); lra. Qed.
Lemma xlnx_pos t : 0 < t -> xlnx t = t * ln t.
Proof. intros Ht. unfold xlnx, ent. destruct (Rlt_dec 0 t); [ring | lra]. Qed.

(** [ceiling-chord], KL: at most [N ln N/(N - 1)] times the classes' total variation bound [V]. *)
Theorem ceiling_chord_kl N K x cls V U :
  table N K x -> 2 <= INR N -> (forall i l, (i < N)%nat -> (l < K)%nat -> cmean N x cls i l <= INR N * tmean N x l) ->
  tv_le N K x cls V -> INR N * ln (INR N) / (INR N - 1) * V <= U -> div_class_le KL N K x cls U.
Proof.
  intros Htab HN HA HT HU.
  assert (Hln : 0 < ln (INR N)) by (rewrite <- ln_1; apply ln_increasing; lra).
  assert (E : phi_of KL 0 - phi_of KL 1 + (phi_of KL (INR N) - phi_of KL 1) / (INR N - 1)
              = INR N * ln (INR N) / (INR N - 1)).
  { simpl. rewrite xlnx_0, (xlnx_pos 1), (xlnx_pos (INR N)), ln_1 by lra. field. lra. }
  apply (ceiling_chord_class KL N K x cls (INR N) V U Htab HN ltac:(lra) HA below_kl01 (below_kl1H (INR N) ltac:(lra)));
    [| exact HT |].
  - rewrite E. apply Rlt_le. unfold Rdiv. apply Rmult_lt_0_compat; [nra | apply Rinv_0_lt_compat; lra].
  - rewrite E. simpl. rewrite (xlnx_pos 1), ln_1 by lra. lra.
Qed.

(** [ceiling-chord], Renyi of order 2: [exp(D_2) = sum q r^2 <= 1 + N V]. *)
Theorem ceiling_chord_renyi2 N K x cls V U :
  table N K x -> 2 <= INR N -> (forall i l, (i < N)%nat -> (l < K)%nat -> cmean N x cls i l <= INR N * tmean N x l) ->
  tv_le N K x cls V -> 1 + INR N * V <= exp U -> div_class_le (Renyi 2) N K x cls U.
Proof.
  intros Htab HN HA HT HU.
  assert (E : phi_of (Renyi 2) 0 - phi_of (Renyi 2) 1 + (phi_of (Renyi 2) (INR N) - phi_of (Renyi 2) 1) / (INR N - 1)
              = INR N).
  { simpl. field. lra. }
  apply (ceiling_chord_class (Renyi 2) N K x cls (INR N) V U Htab HN ltac:(lra) HA below_renyi01
           (below_renyi1H (INR N) ltac:(lra))); [| exact HT |].
  - rewrite E. lra.
  - rewrite E. simpl. replace ((1 + 1 - 1) * U) with U by ring. lra.
Qed.

(** A class of >= 1 record holds at most the table's mass: its mean at most [N] times the table's. *)
Lemma class_ratio_n N K x cls s :
  table N K x -> partition N cls s -> 1 <= s ->
  forall i l, (i < N)%nat -> (l < K)%nat -> cmean N x cls i l <= INR N * tmean N x l.
Proof.
  intros Htab Hp Hs i l Hi Hl.
  assert (Hc : class_size_ge N cls 1) by (intros j Hj; pose proof (proj1 Hp j Hj); lra).
  pose proof (size_upper N K x cls 1 Htab Hc ltac:(lra) i l Hi Hl) as H.
  replace (INR N / 1) with (INR N) in H by field. exact H.
Qed.
