(** f-divergences as level kinds, and the chord lemma (implgraph.certify.lemmas.chord).

    A divergence of [p] from [q] over [K] buckets is [fdiv K phi p q = sum_l q_l phi(p_l / q_l)]; it is finite
    only where [q_l = 0] forces [p_l = 0] ([dominated]). The kinds: Kullback-Leibler ([phi r = r ln r],
    [xlnx] of [Entropy], 0 at 0: [q phi(p/q) = p ln(p/q)]), Renyi of a natural order [a > 1] ([phi r = r^a], the
    level [ln(sum)/(a - 1)] is at most [U] exactly when the sum is at most [exp((a - 1) U)]), total variation
    ([|r - 1|/2]: [|p_l - q_l|/2]) and the hockey-stick slack of order [g] ([max(r - g, 0)]). The predicate
    [div_le k K p q U] is "the divergence is at most U": dominated (finite), and the sum at most [dbound k U]. (For
    total variation and the hockey stick, finite anyway, dominated is more than the kind asks: B's predicate is
    then a stronger statement than its level, so a theorem concluding it proves the claim; the generator states no
    theorem assuming it, as A.)

    The compared distributions: every ordered pair of distinct records ([div_pairs_le]), every class's mean
    against the table's mean ([div_class_le]). The chord lemma: where every ratio [p_l / q_l] lies in [[lo, hi]]
    and [phi] lies below its chord there, the divergence is at most the chord's value at 1
    ([chord_val]), since [sum q_l (p_l / q_l) = 1]. *)
From Coq Require Import Reals Lra Lia.
From Flocq Require Import Raux.
From Implgraph Require Import Sums Tables Distance Events Entropy.
Open Scope R_scope.

Definition row (x : nat -> nat -> R) (i : nat) : nat -> R := fun b => x i b.

Definition fdiv (K : nat) (phi : R -> R) (p q : nat -> R) : R := sum K (fun l => q l * phi (p l / q l)).
Definition dominated (K : nat) (p q : nat -> R) : Prop := forall l, (l < K)%nat -> q l = 0 -> p l = 0.

Inductive dkind := KL | Renyi (a : nat) | TV | Hockey (g : R).

Definition phi_of (k : dkind) : R -> R :=
  match k with
  | KL => xlnx
  | Renyi a => fun r => r ^ a
  | TV => fun r => Rabs (r - 1) / 2
  | Hockey g => fun r => Rmax (r - g) 0
  end.

Definition dbound (k : dkind) (U : R) : R :=
  match k with Renyi a => exp ((INR a - 1) * U) | _ => U end.

Definition div_le (k : dkind) (K : nat) (p q : nat -> R) (U : R) : Prop :=
  dominated K p q /\ fdiv K (phi_of k) p q <= dbound k U.

(** The table's mean row and a class's. *)
Definition tmean (N : nat) (x : nat -> nat -> R) : nat -> R := fun b => sum N (col x b) / INR N.
Definition cmean (N : nat) (x : nat -> nat -> R) (cls : nat -> nat) (i : nat) : nat -> R :=
  fun b => sumS N (classof cls i) (col x b) / card N (classof cls i).

Definition div_pairs_le (k : dkind) (N K : nat) (x : nat -> nat -> R) (U : R) : Prop :=
  forall i j, (i < N)%nat -> (j < N)%nat -> i <> j -> div_le k K (row x i) (row x j) U.
Definition div_class_le (k : dkind) (N K : nat) (x : nat -> nat -> R) (cls : nat -> nat) (U : R) : Prop :=
  forall i, (i < N)%nat -> div_le k K (cmean N x cls i) (tmean N x) U.

(** * Logarithms split into the logarithms of factors (the generated proofs of a chord's value) *)
Lemma ln_frac X P Q : 0 < P -> 0 < Q -> X = P / Q -> ln X = ln P + - ln Q.
Proof. intros HP HQ E. rewrite E. unfold Rdiv. rewrite ln_mult, ln_Rinv; [ring|exact HQ|exact HP|]. apply Rinv_0_lt_compat. exact HQ. Qed.

Ltac lnpos :=
  match goal with
  | |- 0 < _ * _ => apply Rmult_lt_0_compat; lnpos
  | |- 0 < _ => first [assumption | lra]
  end.

(** * The chord lemma *)
Definition chord_val (phi : R -> R) (lo hi : R) : R := ((1 - lo) * phi hi + (hi - 1) * phi lo) / (hi - lo).
Definition below_chord (phi : R -> R) (lo hi : R) : Prop :=
  forall r, lo <= r <= hi -> (hi - lo) * phi r <= (r - lo) * phi hi + (hi - r) * phi lo.

Theorem chord K phi p q lo hi :
  lo < hi -> (forall l, (l < K)%nat -> 0 <= q l) -> sum K q = 1 -> sum K p = 1 -> dominated K p q ->
  (forall l, (l < K)%nat -> 0 < q l -> lo <= p l / q l <= hi) -> below_chord phi lo hi ->
  fdiv K phi p q <= chord_val phi lo hi.
Proof.
  intros Hlh Hq Sq Sp Hd Hr Hc. unfold fdiv, chord_val.
  set (a := (phi hi - phi lo) / (hi - lo)). set (c := (hi * phi lo - lo * phi hi) / (hi - lo)).
  assert (E : ((1 - lo) * phi hi + (hi - 1) * phi lo) / (hi - lo) = sum K (fun l => a * p l + c * q l)).
  { rewrite sum_plus, !sum_scal, Sq, Sp. unfold a, c. field. lra. }
  rewrite E. apply sum_le. intros l Hl.
  destruct (Req_dec (q l) 0) as [Z|Z].
  - rewrite Z, (Hd l Hl Z). lra.
  - assert (Qp : 0 < q l) by (pose proof (Hq l Hl); lra).
    pose proof (Hc (p l / q l) (Hr l Hl Qp)) as C.
    apply Rmult_le_reg_l with (hi - lo); [lra|].
    replace ((hi - lo) * (a * p l + c * q l))
      with (q l * ((p l / q l - lo) * phi hi + (hi - p l / q l) * phi lo)) by (unfold a, c; field; lra).
    replace ((hi - lo) * (q l * phi (p l / q l))) with (q l * ((hi - lo) * phi (p l / q l))) by ring.
    apply Rmult_le_compat_l; lra.
Qed.

(** * The kinds' generators lie below their chords *)
Lemma below_kl lo hi : 0 <= lo -> lo < hi -> below_chord (phi_of KL) lo hi.
Proof.
  intros H0 Hlh r [H1 H2]. simpl. unfold xlnx.
  pose proof (ent_chord lo r hi H0 H1 H2 Hlh) as C.
  apply Rmult_le_compat_l with (r := hi - lo) in C; [|lra].
  replace ((hi - lo) * (((hi - r) * ent lo + (r - lo) * ent hi) / (hi - lo)))
    with ((hi - r) * ent lo + (r - lo) * ent hi) in C by (field; lra).
  lra.
Qed.

Lemma below_renyi2 lo hi : lo < hi -> below_chord (phi_of (Renyi 2)) lo hi.
Proof.
  intros Hlh r [H1 H2]. simpl.
  assert (0 <= (hi - lo) * ((r - lo) * (hi - r))) by (apply Rmult_le_pos; [lra|apply Rmult_le_pos; lra]).
  nra.
Qed.

Lemma below_tv lo hi : lo < hi -> below_chord (phi_of TV) lo hi.
Proof.
  intros Hlh r [H1 H2]. simpl.
  assert (E : (hi - lo) * (r - 1) = (r - lo) * (hi - 1) + (hi - r) * (lo - 1)) by ring.
  assert (A : (hi - lo) * Rabs (r - 1) <= (r - lo) * Rabs (hi - 1) + (hi - r) * Rabs (lo - 1)).
  { rewrite <- (Rabs_pos_eq (hi - lo)) by lra. rewrite <- Rabs_mult, E.
    rewrite <- (Rabs_pos_eq (r - lo)) at 2 by lra. rewrite <- (Rabs_pos_eq (hi - r)) at 2 by lra.
    rewrite <- !Rabs_mult. apply Rabs_triang. }
  lra.
Qed.

Lemma below_hockey g lo hi : lo < hi -> below_chord (phi_of (Hockey g)) lo hi.
Proof.
  intros Hlh r [H1 H2]. simpl. unfold Rmax.
  destruct (Rle_dec (r - g) 0), (Rle_dec (hi - g) 0), (Rle_dec (lo - g) 0); nra.
Qed.

(** * The chord's value, kind by kind *)
Lemma chord_kl lo hi U :
  0 < lo -> lo < hi -> ((1 - lo) * (hi * ln hi) + (hi - 1) * (lo * ln lo)) / (hi - lo) <= U ->
  chord_val (phi_of KL) lo hi <= dbound KL U.
Proof.
  intros H0 Hlh H. unfold chord_val, dbound, phi_of, xlnx, ent.
  destruct (Rlt_dec 0 hi); [|lra]. destruct (Rlt_dec 0 lo); [|lra].
  replace (- - (hi * ln hi)) with (hi * ln hi) by ring. replace (- - (lo * ln lo)) with (lo * ln lo) by ring.
  exact H.
Qed.

Lemma chord_renyi2 lo hi X U :
  lo < hi -> 0 < X -> ((1 - lo) * hi ^ 2 + (hi - 1) * lo ^ 2) / (hi - lo) <= X -> ln X <= U ->
  chord_val (phi_of (Renyi 2)) lo hi <= dbound (Renyi 2) U.
Proof.
  intros Hlh HX H HU. unfold chord_val, dbound, phi_of.
  replace ((INR 2 - 1) * U) with U by (simpl; ring).
  apply Rle_trans with X; [exact H|]. rewrite <- (exp_ln X) by exact HX.
  destruct HU as [HU|HU]; [left; apply exp_increasing; exact HU|rewrite HU; right; reflexivity].
Qed.

Lemma chord_tv lo hi U :
  lo <= 1 -> 1 <= hi -> lo < hi -> (1 - lo) * (hi - 1) / (hi - lo) <= U -> chord_val (phi_of TV) lo hi <= dbound TV U.
Proof.
  intros H1 H2 Hlh H. unfold chord_val, dbound, phi_of.
  rewrite (Rabs_pos_eq (hi - 1)) by lra. rewrite (Rabs_left1 (lo - 1)) by lra.
  replace (((1 - lo) * ((hi - 1) / 2) + (hi - 1) * (- (lo - 1) / 2)) / (hi - lo))
    with ((1 - lo) * (hi - 1) / (hi - lo)) by (field; lra).
  exact H.
Qed.

Lemma chord_hockey g lo hi U :
  lo <= g -> g <= hi -> lo < hi -> (1 - lo) * (hi - g) / (hi - lo) <= U ->
  chord_val (phi_of (Hockey g)) lo hi <= dbound (Hockey g) U.
Proof.
  intros H1 H2 Hlh H. unfold chord_val, dbound, phi_of.
  rewrite (Rmax_left (hi - g) 0) by lra. rewrite (Rmax_right (lo - g) 0) by lra.
  replace (((1 - lo) * (hi - g) + (hi - 1) * 0) / (hi - lo)) with ((1 - lo) * (hi - g) / (hi - lo)) by (field; lra).
  exact H.
Qed.

(** * What A confines the ratios to *)
Lemma ratio_between a b T : 0 < T -> 0 < b -> a <= T * b -> b <= T * a -> 1 / T <= a / b <= T.
Proof.
  intros HT Hb H1 H2. split.
  - apply Rmult_le_reg_r with (T * b); [apply Rmult_lt_0_compat; lra|].
    replace (1 / T * (T * b)) with b by (field; lra). replace (a / b * (T * b)) with (T * a) by (field; lra). lra.
  - apply Rmult_le_reg_r with b; [lra|]. replace (a / b * b) with a by (field; lra). lra.
Qed.

Lemma row_sum N K x i : table N K x -> (i < N)%nat -> sum K (row x i) = 1.
Proof. intros [_ H] Hi. apply H. exact Hi. Qed.

Lemma tmean_sum N K x : table N K x -> (0 < N)%nat -> sum K (tmean N x) = 1.
Proof.
  intros [_ Hrow] HN. unfold tmean, col.
  assert (HN' : 0 < INR N) by (apply lt_0_INR; exact HN).
  unfold Rdiv. rewrite (sum_ext K _ (fun b => / INR N * sum N (fun i => x i b))) by (intros; ring).
  rewrite sum_scal, sum_swap. rewrite (sum_ext N _ (fun _ => 1)) by (intros i Hi; apply Hrow; exact Hi).
  rewrite sum_const. field. lra.
Qed.

Lemma cmean_sum N K x cls i : table N K x -> (i < N)%nat -> sum K (cmean N x cls i) = 1.
Proof.
  intros [_ Hrow] Hi. unfold cmean, col.
  assert (Hc : 1 <= card N (classof cls i)) by (apply class_self_pos; exact Hi).
  unfold Rdiv. rewrite (sum_ext K _ (fun b => / card N (classof cls i) * sumS N (classof cls i) (fun k => x k b)))
    by (intros; ring).
  rewrite sum_scal.
  assert (E : sum K (fun b => sumS N (classof cls i) (fun k => x k b)) = card N (classof cls i)).
  { unfold sumS, card. rewrite sum_swap. apply sum_ext. intros k Hk.
    destruct (classof cls i k); [apply Hrow; exact Hk | rewrite sum_zero; reflexivity]. }
  rewrite E. field. lra.
Qed.

Theorem chord_pairs k N K x T lo hi U :
  table N K x -> pairwise_le N K x T -> 0 < T -> lo <= 1 / T -> T <= hi -> lo < hi ->
  below_chord (phi_of k) lo hi -> chord_val (phi_of k) lo hi <= dbound k U -> div_pairs_le k N K x U.
Proof.
  intros Htab HA HT Hlo Hhi Hlh Hc HU i j Hi Hj _.
  assert (Hnn : forall l, (l < K)%nat -> 0 <= row x j l) by (intros l Hl; destruct Htab as [Hn _]; apply Hn; auto).
  assert (Hd : dominated K (row x i) (row x j)).
  { intros l Hl Z. unfold row in *. pose proof (HA l i j Hl Hi Hj). destruct Htab as [Hn _].
    pose proof (Hn i l Hi Hl). rewrite Z in H. lra. }
  split; [exact Hd|]. apply Rle_trans with (chord_val (phi_of k) lo hi); [|exact HU].
  apply chord; [exact Hlh | exact Hnn | apply (row_sum N K); assumption | apply (row_sum N K); assumption
               | exact Hd | | exact Hc].
  intros l Hl Hp. unfold row in *.
  pose proof (ratio_between (x i l) (x j l) T HT Hp (HA l i j Hl Hi Hj) (HA l j i Hl Hj Hi)). lra.
Qed.

Theorem chord_class k N K x cls T lo hi U :
  table N K x -> class_le TwoSided N K x cls T -> 0 < T -> lo <= 1 / T -> T <= hi -> lo < hi ->
  below_chord (phi_of k) lo hi -> chord_val (phi_of k) lo hi <= dbound k U -> div_class_le k N K x cls U.
Proof.
  intros Htab HA HT Hlo Hhi Hlh Hc HU i Hi.
  assert (HN : 0 < INR N) by (apply lt_0_INR; lia).
  assert (Hc1 : 1 <= card N (classof cls i)) by (apply class_self_pos; exact Hi).
  assert (Hnn : forall l, (l < K)%nat -> 0 <= sum N (col x l))
    by (intros l Hl; apply sum_nonneg; intros k' Hk; apply (col_nonneg N K x l Htab Hl k' Hk)).
  assert (Hsn : forall l, (l < K)%nat -> 0 <= sumS N (classof cls i) (col x l))
    by (intros l Hl; apply sumS_nonneg; intros k' Hk; apply (col_nonneg N K x l Htab Hl k' Hk)).
  assert (Hd : dominated K (cmean N x cls i) (tmean N x)).
  { intros l Hl Z. unfold cmean, tmean in *.
    destruct (HA l i Hl Hi) as [Hup _]. unfold upper_ok in Hup.
    assert (sum N (col x l) = 0).
    { apply Rmult_eq_reg_r with (/ INR N); [|apply Rinv_neq_0_compat; lra]. unfold Rdiv in Z. lra. }
    rewrite H, Rmult_0_r in Hup. pose proof (Hsn l Hl).
    assert (sumS N (classof cls i) (col x l) = 0) by nra. rewrite H1. unfold Rdiv. ring. }
  split; [exact Hd|]. apply Rle_trans with (chord_val (phi_of k) lo hi); [|exact HU].
  apply chord; auto.
  - intros l Hl. unfold tmean. apply Rmult_le_pos; [apply Hnn; exact Hl|left; apply Rinv_0_lt_compat; lra].
  - apply tmean_sum; [exact Htab|lia].
  - apply cmean_sum; [exact Htab|exact Hi].
  - intros l Hl Hp. destruct (HA l i Hl Hi) as [Hup Hlow]. specialize (Hlow eq_refl).
    unfold upper_ok, lower_ok, cmean, tmean in *.
    set (e := card N (classof cls i)) in *. set (a := sumS N (classof cls i) (col x l)) in *.
    set (b := sum N (col x l)) in *.
    assert (Hb : 0 < b).
    { unfold Rdiv in Hp. destruct (Rle_lt_dec b 0); [|lra].
      assert (b = 0) by (pose proof (Hnn l Hl); fold b in H; lra). rewrite H in Hp. lra. }
    replace (a / e / (b / INR N)) with ((INR N * a) / (e * b)) by (field; lra).
    pose proof (ratio_between (INR N * a) (e * b) T HT ltac:(nra)
                  ltac:(lra) ltac:(lra)). lra.
Qed.

(** * At A's level 1 the compared distributions are equal: the divergence is [phi 1] *)
Lemma fdiv_same K phi p q : (forall l, (l < K)%nat -> p l = q l) -> sum K q = 1 -> fdiv K phi p q = phi 1.
Proof.
  intros E S. unfold fdiv.
  transitivity (sum K (fun l => phi 1 * q l)).
  - apply sum_ext. intros l Hl. rewrite E by exact Hl.
    destruct (Req_dec (q l) 0) as [Z|Z]; [rewrite Z; ring|].
    unfold Rdiv. rewrite Rinv_r by exact Z. ring.
  - rewrite sum_scal, S. ring.
Qed.

Theorem one_pairs k N K x U :
  table N K x -> pairwise_le N K x 1 -> phi_of k 1 <= dbound k U -> div_pairs_le k N K x U.
Proof.
  intros Htab HA HU i j Hi Hj _.
  assert (E : forall l, (l < K)%nat -> row x i l = row x j l).
  { intros l Hl. unfold row. pose proof (HA l i j Hl Hi Hj). pose proof (HA l j i Hl Hj Hi). lra. }
  split.
  - intros l Hl Z. rewrite E by exact Hl. exact Z.
  - rewrite (fdiv_same K _ _ _ E (row_sum N K x j Htab Hj)). exact HU.
Qed.

Theorem one_class k N K x cls U :
  table N K x -> class_le TwoSided N K x cls 1 -> phi_of k 1 <= dbound k U -> div_class_le k N K x cls U.
Proof.
  intros Htab HA HU i Hi.
  assert (HN : 0 < INR N) by (apply lt_0_INR; lia).
  assert (Hc1 : 1 <= card N (classof cls i)) by (apply class_self_pos; exact Hi).
  assert (E : forall l, (l < K)%nat -> cmean N x cls i l = tmean N x l).
  { intros l Hl. destruct (HA l i Hl Hi) as [Hup Hlow]. specialize (Hlow eq_refl).
    unfold upper_ok, lower_ok, cmean, tmean in *.
    set (e := card N (classof cls i)) in *. set (a := sumS N (classof cls i) (col x l)) in *.
    set (b := sum N (col x l)) in *.
    apply Rmult_eq_reg_r with (e * INR N); [|apply Rmult_integral_contrapositive_currified; lra].
    replace (a / e * (e * INR N)) with (INR N * a) by (field; lra).
    replace (b / INR N * (e * INR N)) with (e * b) by (field; lra). lra. }
  split.
  - intros l Hl Z. rewrite E by exact Hl. exact Z.
  - rewrite (fdiv_same K _ _ _ E (tmean_sum N K x Htab ltac:(lia))). exact HU.
Qed.

Lemma one_kl U : 0 <= U -> phi_of KL 1 <= dbound KL U.
Proof. intro H. simpl. unfold xlnx, ent. destruct (Rlt_dec 0 1); [rewrite ln_1; lra | lra]. Qed.

Lemma one_tv U : 0 <= U -> phi_of TV 1 <= dbound TV U.
Proof. intro H. simpl. replace (1 - 1) with 0 by ring. rewrite Rabs_R0. lra. Qed.

Lemma one_hockey g U : 1 <= g -> 0 <= U -> phi_of (Hockey g) 1 <= dbound (Hockey g) U.
Proof. intros Hg H. simpl. rewrite Rmax_right by lra. exact H. Qed.

Lemma one_renyi a U : (1 <= a)%nat -> 0 <= U -> phi_of (Renyi a) 1 <= dbound (Renyi a) U.
Proof.
  intros Ha H. simpl. rewrite pow1.
  assert (0 <= (INR a - 1) * U) by (apply Rmult_le_pos; [apply le_INR in Ha; simpl in Ha; lra | exact H]).
  pose proof (exp_ge_1_plus ((INR a - 1) * U)). lra.
Qed.

(** * A subset level of size N - 1 (record removal) against each class and the table *)
Lemma sumS_full n f : sumS n (fun _ => true) f = sum n f.
Proof. reflexivity. Qed.

Lemma card_full_set n : card n (fun _ => true) = INR n.
Proof. unfold card. rewrite sumS_full, sum_const. ring. Qed.

(** Each record against the table's sum: [N - (N - 1) T <= N x_i / sum <= N - (N - 1)/T]. *)
Lemma removal_record N K x T b i :
  subset_le TwoSided N K x (INR N - 1) T -> 0 < T -> (b < K)%nat -> (i < N)%nat ->
  INR N * x i b <= (INR N - (INR N - 1) / T) * sum N (col x b) /\
  (INR N - (INR N - 1) * T) * sum N (col x b) <= INR N * x i b.
Proof.
  intros HA HT Hb Hi.
  set (S := remove (fun _ => true) i).
  assert (Hc : card N S = INR N - 1) by (unfold S; rewrite card_remove, card_full_set by auto; reflexivity).
  assert (Hs : sumS N S (col x b) = sum N (col x b) - x i b).
  { unfold S. rewrite <- sumS_full. rewrite (sumS_remove N (fun _ => true) i (col x b) Hi eq_refl). unfold col. ring. }
  destruct (HA b S Hb Hc) as [Hup Hlow]. specialize (Hlow eq_refl).
  unfold upper_ok, lower_ok in *. rewrite Hc, Hs in *.
  set (s := sum N (col x b)) in *. split.
  - apply Rmult_le_reg_l with T; [exact HT|].
    replace (T * ((INR N - (INR N - 1) / T) * s)) with (T * INR N * s - (INR N - 1) * s) by (field; lra). nra.
  - nra.
Qed.

Theorem chord_subset_class k N K x cls T lo hi U :
  table N K x -> subset_le TwoSided N K x (INR N - 1) T -> 2 <= INR N -> 0 < T ->
  (lo <= 0 \/ lo <= INR N - (INR N - 1) * T) -> INR N - (INR N - 1) / T <= hi -> lo < hi ->
  below_chord (phi_of k) lo hi -> chord_val (phi_of k) lo hi <= dbound k U -> div_class_le k N K x cls U.
Proof.
  intros Htab HA HN2 HT Hlo Hhi Hlh Hc HU i Hi.
  assert (HN : 0 < INR N) by lra.
  assert (Hc1 : 1 <= card N (classof cls i)) by (apply class_self_pos; exact Hi).
  assert (Hnn : forall l, (l < K)%nat -> 0 <= sum N (col x l))
    by (intros l Hl; apply sum_nonneg; intros k' Hk; apply (col_nonneg N K x l Htab Hl k' Hk)).
  assert (Hsn : forall l, (l < K)%nat -> 0 <= sumS N (classof cls i) (col x l))
    by (intros l Hl; apply sumS_nonneg; intros k' Hk; apply (col_nonneg N K x l Htab Hl k' Hk)).
  (* the class's sum against the table's, from each record's *)
  assert (Hcl : forall l, (l < K)%nat ->
            INR N * sumS N (classof cls i) (col x l) <=
              card N (classof cls i) * ((INR N - (INR N - 1) / T) * sum N (col x l)) /\
            card N (classof cls i) * ((INR N - (INR N - 1) * T) * sum N (col x l)) <=
              INR N * sumS N (classof cls i) (col x l)).
  { intros l Hl.
    replace (INR N * sumS N (classof cls i) (col x l)) with (sumS N (classof cls i) (fun k' => INR N * col x l k'))
      by (rewrite sumS_scal; reflexivity).
    replace (card N (classof cls i) * ((INR N - (INR N - 1) / T) * sum N (col x l)))
      with (sumS N (classof cls i) (fun _ => (INR N - (INR N - 1) / T) * sum N (col x l))) by (rewrite sumS_const; ring).
    replace (card N (classof cls i) * ((INR N - (INR N - 1) * T) * sum N (col x l)))
      with (sumS N (classof cls i) (fun _ => (INR N - (INR N - 1) * T) * sum N (col x l))) by (rewrite sumS_const; ring).
    split; apply sumS_le; intros k' Hk _; destruct (removal_record N K x T l k' HA HT Hl Hk); unfold col in *; lra. }
  assert (Hd : dominated K (cmean N x cls i) (tmean N x)).
  { intros l Hl Z. unfold cmean, tmean in *.
    assert (sum N (col x l) = 0).
    { apply Rmult_eq_reg_r with (/ INR N); [|apply Rinv_neq_0_compat; lra]. unfold Rdiv in Z. lra. }
    destruct (Hcl l Hl) as [H1 _]. rewrite H, Rmult_0_r, Rmult_0_r in H1. pose proof (Hsn l Hl).
    assert (sumS N (classof cls i) (col x l) = 0) by nra. rewrite H2. unfold Rdiv. ring. }
  split; [exact Hd|]. apply Rle_trans with (chord_val (phi_of k) lo hi); [|exact HU].
  apply chord; auto.
  - intros l Hl. unfold tmean. apply Rmult_le_pos; [apply Hnn; exact Hl|left; apply Rinv_0_lt_compat; lra].
  - apply tmean_sum; [exact Htab|lia].
  - apply cmean_sum; [exact Htab|exact Hi].
  - intros l Hl Hp. destruct (Hcl l Hl) as [H1 H2]. unfold cmean, tmean in *.
    set (e := card N (classof cls i)) in *. set (a := sumS N (classof cls i) (col x l)) in *.
    set (b := sum N (col x l)) in *.
    assert (Hb : 0 < b).
    { unfold Rdiv in Hp. destruct (Rle_lt_dec b 0); [|lra].
      assert (b = 0) by (pose proof (Hnn l Hl); fold b in H; lra). rewrite H in Hp. lra. }
    pose proof (Hsn l Hl). fold a in H.
    replace (a / e / (b / INR N)) with ((INR N * a) / (e * b)) by (field; lra).
    assert (Heb : 0 < e * b) by nra.
    split.
    + apply Rmult_le_reg_r with (e * b); [exact Heb|]. replace (INR N * a / (e * b) * (e * b)) with (INR N * a)
        by (field; lra).
      destruct Hlo as [Hlo|Hlo]; nra.
    + apply Rmult_le_reg_r with (e * b); [exact Heb|]. replace (INR N * a / (e * b) * (e * b)) with (INR N * a)
        by (field; lra). nra.
Qed.

Lemma chord_kl0 hi U : 0 < hi -> ln hi <= U -> chord_val (phi_of KL) 0 hi <= dbound KL U.
Proof.
  intros H0 H. unfold chord_val, dbound, phi_of, xlnx, ent.
  destruct (Rlt_dec 0 hi); [|lra]. destruct (Rlt_dec 0 0); [lra|].
  replace (((1 - 0) * - - (hi * ln hi) + (hi - 1) * - 0) / (hi - 0)) with (ln hi) by (field; lra). exact H.
Qed.

(** * Orders between the kinds, on the same two distributions (implgraph.certify.lemmas.divergence_order) *)

(** [KL <= D_2]: with [r = p/q] and [m = sum q r^2 >= 1], [r ln r <= r (ln m + r/m - 1)] ([ln u <= u - 1] at
    [u = r/m]); summed with the weights [q], [sum q r = 1]: [KL <= ln m]. *)
Lemma xlnx_tangent_m r m : 0 <= r -> 0 < m -> xlnx r <= r * (ln m + r / m - 1).
Proof.
  intros Hr Hm. unfold xlnx, ent. destruct (Rlt_dec 0 r) as [Hp|Hp].
  - assert (Hl : ln (r / m) <= r / m - 1) by (apply ln_le_minus_1; apply Rdiv_lt_0_compat; lra).
    unfold Rdiv in Hl. rewrite ln_mult, ln_Rinv in Hl by (try apply Rinv_0_lt_compat; lra).
    assert (r * ln r <= r * (ln m + r / m - 1)).
    { apply Rmult_le_compat_l; [lra|]. unfold Rdiv. lra. }
    lra.
  - assert (r = 0) by lra. subst r. lra.
Qed.

Lemma kl_le_renyi2 K p q :
  (forall l, (l < K)%nat -> 0 <= q l) -> (forall l, (l < K)%nat -> 0 <= p l) -> sum K q = 1 -> sum K p = 1 ->
  dominated K p q -> 1 <= fdiv K (phi_of (Renyi 2)) p q /\
  fdiv K (phi_of KL) p q <= ln (fdiv K (phi_of (Renyi 2)) p q).
Proof.
  intros Hq Hp Sq Sp Hd. unfold fdiv. simpl phi_of.
  set (m := sum K (fun l => q l * (p l / q l) ^ 2)).
  (* sum q r = 1 *)
  assert (Hqr : sum K (fun l => q l * (p l / q l)) = 1).
  { rewrite <- Sp. apply sum_ext. intros l Hl. destruct (Req_dec (q l) 0) as [Z|Z].
    - rewrite Z, (Hd l Hl Z). ring.
    - field. exact Z. }
  assert (Hm : 1 <= m).
  { assert (2 * sum K (fun l => q l * (p l / q l)) - sum K q <= m).
    { rewrite <- sum_scal, <- sum_minus. apply sum_le. intros l Hl. pose proof (Hq l Hl).
      assert (0 <= q l * (p l / q l - 1) ^ 2) by (apply Rmult_le_pos; [lra|apply pow2_ge_0]). nra. }
    rewrite Hqr, Sq in H. lra. }
  split; [exact Hm|].
  apply Rle_trans with (sum K (fun l => q l * ((p l / q l) * (ln m + (p l / q l) / m - 1)))).
  - apply sum_le. intros l Hl. apply Rmult_le_compat_l; [apply Hq; exact Hl|].
    apply xlnx_tangent_m; [|lra]. destruct (Req_dec (q l) 0) as [Z|Z].
    + rewrite Z. unfold Rdiv. rewrite Rinv_0, Rmult_0_r. lra.
    + unfold Rdiv. apply Rmult_le_pos; [apply Hp; exact Hl|]. pose proof (Hq l Hl). left. apply Rinv_0_lt_compat. lra.
  - right. rewrite (sum_ext K _ (fun l => (ln m - 1) * (q l * (p l / q l)) + / m * (q l * (p l / q l) ^ 2)))
      by (intros l _; unfold Rdiv; ring).
    rewrite sum_plus, !sum_scal, Hqr.
    replace (sum K (fun l : nat => q l * (p l / q l * (p l / q l * 1)))) with m by (apply sum_ext; intros; ring).
    fold m. clearbody m. assert (m <> 0) by lra. rewrite Rinv_l by exact H. ring.
Qed.

Lemma kl_of_renyi2 K p q U :
  (forall l, (l < K)%nat -> 0 <= q l) -> (forall l, (l < K)%nat -> 0 <= p l) -> sum K q = 1 -> sum K p = 1 ->
  div_le (Renyi 2) K p q U -> div_le KL K p q U.
Proof.
  intros Hq Hp Sq Sp [Hd HU]. split; [exact Hd|].
  destruct (kl_le_renyi2 K p q Hq Hp Sq Sp Hd) as [H1 H2]. simpl dbound in *.
  replace ((1 + 1 - 1) * U) with U in HU by ring.
  apply Rle_trans with (1 := H2). rewrite <- (ln_exp U).
  destruct HU as [HU|HU]; [left; apply ln_increasing; lra | rewrite HU; right; reflexivity].
Qed.

(** [E_g <= TV] for [g >= 1]: [max(p - g q, 0) <= max(p - q, 0)] and [sum max(p - q, 0) = TV] ([sum p = sum q]). *)
Lemma hockey_of_tv K p q g U :
  1 <= g -> (forall l, (l < K)%nat -> 0 <= q l) -> sum K q = 1 -> sum K p = 1 ->
  div_le TV K p q U -> div_le (Hockey g) K p q U.
Proof.
  intros Hg Hq Sq Sp [Hd HU]. split; [exact Hd|]. simpl dbound in *. unfold fdiv in *. simpl phi_of in *.
  apply Rle_trans with (2 := HU).
  assert (E : sum K (fun l => q l * (Rabs (p l / q l - 1) / 2)) =
              sum K (fun l => q l * Rmax (p l / q l - 1) 0) - (sum K p - sum K q) / 2).
  { transitivity (sum K (fun l => q l * Rmax (p l / q l - 1) 0 - (p l - q l) / 2)).
    - apply sum_ext. intros l Hl. destruct (Req_dec (q l) 0) as [Z|Z].
      + rewrite Z, (Hd l Hl Z). rewrite !Rmult_0_l. unfold Rdiv. rewrite Rminus_0_r, Rmult_0_l. ring.
      + unfold Rmax. destruct (Rle_dec (p l / q l - 1) 0) as [C|C].
        * rewrite Rabs_left1 by lra. field. exact Z.
        * rewrite Rabs_pos_eq by lra. field. exact Z.
    - rewrite sum_minus, sum_div, sum_minus. reflexivity. }
  rewrite E, Sp, Sq. replace ((1 - 1) / 2) with 0 by field. rewrite Rminus_0_r.
  apply sum_le. intros l Hl. pose proof (Hq l Hl). apply Rmult_le_compat_l; [lra|].
  unfold Rmax. destruct (Rle_dec (p l / q l - g) 0), (Rle_dec (p l / q l - 1) 0); lra.
Qed.

Theorem renyi2_kl_pairs N K x U : table N K x -> div_pairs_le (Renyi 2) N K x U -> div_pairs_le KL N K x U.
Proof.
  intros Htab HA i j Hi Hj Hne. destruct Htab as [Hn Hr] eqn:Ht.
  apply kl_of_renyi2; [intros l Hl; apply Hn; auto | intros l Hl; apply Hn; auto | apply Hr; auto | apply Hr; auto |].
  apply HA; auto.
Qed.

Theorem tv_hockey_pairs N K x g U : 1 <= g -> table N K x -> div_pairs_le TV N K x U -> div_pairs_le (Hockey g) N K x U.
Proof.
  intros Hg Htab HA i j Hi Hj Hne. destruct Htab as [Hn Hr] eqn:Ht.
  apply hockey_of_tv; [exact Hg | intros l Hl; apply Hn; auto | apply Hr; auto | apply Hr; auto |].
  apply HA; auto.
Qed.

Lemma tmean_nonneg N K x l : table N K x -> (l < K)%nat -> 0 <= tmean N x l.
Proof.
  intros Htab Hl. unfold tmean. unfold Rdiv. apply Rmult_le_pos.
  - apply sum_nonneg. intros k' Hk. apply (col_nonneg N K x l Htab Hl k' Hk).
  - destruct N; [simpl; rewrite Rinv_0; lra|]. left. apply Rinv_0_lt_compat. apply lt_0_INR. lia.
Qed.

Lemma cmean_nonneg N K x cls i l : table N K x -> (i < N)%nat -> (l < K)%nat -> 0 <= cmean N x cls i l.
Proof.
  intros Htab Hi Hl. unfold cmean. unfold Rdiv. apply Rmult_le_pos.
  - apply sumS_nonneg. intros k' Hk. apply (col_nonneg N K x l Htab Hl k' Hk).
  - pose proof (class_self_pos N cls i Hi). left. apply Rinv_0_lt_compat. lra.
Qed.

Theorem renyi2_kl_class N K x cls U : table N K x -> div_class_le (Renyi 2) N K x cls U -> div_class_le KL N K x cls U.
Proof.
  intros Htab HA i Hi.
  apply kl_of_renyi2; [intros l Hl; apply (tmean_nonneg N K); auto | intros l Hl; apply (cmean_nonneg N K); auto
                      | apply (tmean_sum N K); [exact Htab|lia] | apply (cmean_sum N K); auto |].
  apply HA; exact Hi.
Qed.

(** * Record removal: the table's mean against the mean of the table without one record, both ways *)
Definition rmean (N : nat) (x : nat -> nat -> R) (i : nat) : nat -> R :=
  fun b => sumS N (remove (fun _ => true) i) (col x b) / (INR N - 1).

Definition div_removal_le (k : dkind) (N K : nat) (x : nat -> nat -> R) (U : R) : Prop :=
  forall i, (i < N)%nat -> div_le k K (tmean N x) (rmean N x i) U /\ div_le k K (rmean N x i) (tmean N x) U.

(** * Joint convexity: the divergence of two mixtures is at most the mixture of the divergences

    Each kind's [q phi(p/q)] lies above a family of functions linear in [(p, q)] ([a t p + b t q] for the [t] of
    [tdom]) whose supremum at the mixtures' [(P, Q)] is [Q phi(P/Q)]: KL [p (ln t + 1) - t q], [t > 0]; Renyi of
    order 2 [2 t p - t^2 q]. *)
Definition tdom (k : dkind) (t : R) : Prop := match k with KL => 0 < t | _ => True end.
Definition ta (k : dkind) (t : R) : R := match k with KL => ln t + 1 | _ => 2 * t end.
Definition tb (k : dkind) (t : R) : R := match k with KL => - t | _ => - (t * t) end.
Definition mixable (k : dkind) : Prop := k = KL \/ k = Renyi 2.

Lemma term_above k p q t :
  mixable k -> tdom k t -> 0 <= p -> 0 <= q -> (q = 0 -> p = 0) -> ta k t * p + tb k t * q <= q * phi_of k (p / q).
Proof.
  intros [->| ->] Ht Hp Hq Hd; simpl in *.
  - destruct (Req_dec q 0) as [Z|Z].
    + rewrite Z, (Hd Z). lra.
    + assert (0 <= p / q) by (unfold Rdiv; apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; lra]).
      pose proof (xlnx_tangent (p / q) t H Ht) as Tg.
      apply Rmult_le_compat_l with (r := q) in Tg; [|lra].
      replace (q * (p / q * ln t + (p / q - t))) with ((ln t + 1) * p + - t * q) in Tg by (field; exact Z). exact Tg.
  - destruct (Req_dec q 0) as [Z|Z].
    + rewrite Z, (Hd Z). lra.
    + assert (0 <= q * (p / q - t) ^ 2) by (apply Rmult_le_pos; [lra|apply pow2_ge_0]).
      replace (q * (p / q - t) ^ 2) with (q * (p / q * (p / q * 1)) - (2 * t * p + - (t * t) * q)) in H
        by (field; exact Z). lra.
Qed.

Lemma mix_sup k P Q R :
  mixable k -> 0 <= P -> 0 <= Q -> (forall t, tdom k t -> ta k t * P + tb k t * Q <= R) -> Q * phi_of k (P / Q) <= R.
Proof.
  intros [->| ->] HP HQ H; simpl in *.
  - destruct (Req_dec Q 0) as [Z|Z].
    + rewrite Z, Rmult_0_l. pose proof (H 1 ltac:(lra)). rewrite ln_1 in H0. lra.
    + destruct (Req_dec P 0) as [ZP|ZP].
      * rewrite ZP in H |- *. unfold Rdiv. rewrite Rmult_0_l. unfold xlnx, ent. destruct (Rlt_dec 0 0); [lra|].
        destruct (Rle_lt_dec 0 R) as [HR|HR]; [lra|].
        assert (Ht : 0 < - R / (2 * Q)) by (apply Rdiv_lt_0_compat; lra).
        pose proof (H _ Ht). replace (- (- R / (2 * Q)) * Q) with (R / 2) in H0 by (field; lra). lra.
      * set (t := P / Q). assert (Ht : 0 < t) by (unfold t; apply Rdiv_lt_0_compat; lra).
        pose proof (H t Ht). unfold xlnx, ent. destruct (Rlt_dec 0 t); [|lra].
        replace ((ln t + 1) * P + - t * Q) with (Q * - - (t * ln t)) in H0 by (unfold t; field; exact Z). exact H0.
  - destruct (Req_dec Q 0) as [Z|Z].
    + rewrite Z, Rmult_0_l. pose proof (H 0 I). lra.
    + pose proof (H (P / Q) I). replace (2 * (P / Q) * P + - (P / Q * (P / Q)) * Q) with (Q * (P / Q * (P / Q * 1)))
        in H0 by (field; exact Z). exact H0.
Qed.

(** A double mixture of pairs of distributions: [P = sum_ij w_ij p_ij], [Q = sum_ij w_ij q_ij]. *)
Definition mix2 (n m : nat) (w : nat -> nat -> R) (p : nat -> nat -> nat -> R) : nat -> R :=
  fun l => sum n (fun i => sum m (fun j => w i j * p i j l)).

Theorem joint_convex k K n m w p q :
  mixable k -> (forall i j, (i < n)%nat -> (j < m)%nat -> 0 <= w i j) ->
  (forall i j l, (i < n)%nat -> (j < m)%nat -> (l < K)%nat -> 0 <= p i j l /\ 0 <= q i j l) ->
  (forall i j, (i < n)%nat -> (j < m)%nat -> dominated K (p i j) (q i j)) ->
  fdiv K (phi_of k) (mix2 n m w p) (mix2 n m w q) <=
    sum n (fun i => sum m (fun j => w i j * fdiv K (phi_of k) (p i j) (q i j))).
Proof.
  intros Hk Hw Hpq Hd. unfold fdiv.
  apply Rle_trans with (sum K (fun l => sum n (fun i => sum m (fun j => w i j * (q i j l * phi_of k (p i j l / q i j l)))))).
  - apply sum_le. intros l Hl. apply mix_sup; [exact Hk| | |].
    + unfold mix2. apply sum_nonneg. intros i Hi. apply sum_nonneg. intros j Hj.
      apply Rmult_le_pos; [apply Hw; auto | apply (Hpq i j l Hi Hj Hl)].
    + unfold mix2. apply sum_nonneg. intros i Hi. apply sum_nonneg. intros j Hj.
      apply Rmult_le_pos; [apply Hw; auto | apply (Hpq i j l Hi Hj Hl)].
    + intros t Ht. unfold mix2. rewrite <- !sum_scal, <- sum_plus. apply sum_le. intros i Hi.
      rewrite <- !sum_scal, <- sum_plus. apply sum_le. intros j Hj.
      destruct (Hpq i j l Hi Hj Hl) as [H1 H2].
      pose proof (term_above k (p i j l) (q i j l) t Hk Ht H1 H2 (Hd i j Hi Hj l Hl)).
      pose proof (Hw i j Hi Hj). nra.
  - right. rewrite sum_swap. apply sum_ext. intros i Hi. rewrite sum_swap. apply sum_ext. intros j Hj.
    rewrite <- sum_scal. reflexivity.
Qed.

(** The mean of a set of records; two such means are a double mixture of pairs of records ([mixw_facts]). *)
Definition smean (N : nat) (x : nat -> nat -> R) (X : rset) : nat -> R := fun b => sumS N X (col x b) / card N X.

Lemma div_le_ext k K p q p' q' U :
  (forall l, (l < K)%nat -> p l = p' l) -> (forall l, (l < K)%nat -> q l = q' l) -> div_le k K p' q' U ->
  div_le k K p q U.
Proof.
  intros Ep Eq [Hd HU]. split.
  - intros l Hl Z. rewrite Ep by exact Hl. apply Hd; [exact Hl|]. rewrite <- Eq by exact Hl. exact Z.
  - unfold fdiv in *. rewrite (sum_ext K _ (fun l => q' l * phi_of k (p' l / q' l))); [exact HU|].
    intros l Hl. rewrite Ep, Eq by exact Hl. reflexivity.
Qed.

Definition ind (X : rset) (i : nat) : R := if X i then 1 else 0.

Lemma sum_ind n X : sum n (ind X) = card n X.
Proof. reflexivity. Qed.

Lemma sum_ind_mult n X f : sum n (fun i => ind X i * f i) = sumS n X f.
Proof. unfold sumS. apply sum_ext. intros i _. unfold ind. destruct (X i); ring. Qed.

Lemma sum_mult_r' n f c : sum n (fun i => f i * c) = sum n f * c.
Proof. rewrite (sum_ext n _ (fun i => c * f i)) by (intros; ring). rewrite sum_scal. ring. Qed.

Lemma card_pos_exists n X : 0 < card n X -> exists j, (j < n)%nat /\ X j = true.
Proof.
  induction n as [|n IH]; intro H.
  - unfold card, sumS in H. simpl in H. lra.
  - destruct (X n) eqn:E.
    + exists n. split; [lia|exact E].
    + assert (H0 : 0 < card n X) by (unfold card, sumS in *; simpl in H; rewrite E in H; lra).
      destruct (IH H0) as [j [Hj Xj]]. exists j. split; [lia|exact Xj].
Qed.

(** The two means as a double mixture of pairs of records ([x_i], [x_j]), with the weights [mixw]
    ([1/(|X| |Y|)] on [X x Y]), nonnegative and summing to 1. *)
Definition mixw (N : nat) (X Y : rset) : nat -> nat -> R := fun i j => ind X i * ind Y j / (card N X * card N Y).

Lemma mixw_facts (N K : nat) (x : nat -> nat -> R) (X Y : rset) :
  0 < card N X -> 0 < card N Y ->
  (forall i j, (i < N)%nat -> (j < N)%nat -> 0 <= mixw N X Y i j) /\
  sum N (fun i => sum N (fun j => mixw N X Y i j)) = 1 /\
  (forall l, (l < K)%nat -> smean N x X l = mix2 N N (mixw N X Y) (fun i j => row x i) l) /\
  (forall l, (l < K)%nat -> smean N x Y l = mix2 N N (mixw N X Y) (fun i j => row x j) l).
Proof.
  intros HX HY. unfold mixw.
  set (cx := card N X) in *. set (cy := card N Y) in *.
  set (w := fun i j => ind X i * ind Y j / (cx * cy)).
  assert (Hw : forall i j, (i < N)%nat -> (j < N)%nat -> 0 <= w i j).
  { intros i j _ _. unfold w, ind. destruct (X i), (Y j); unfold Rdiv;
      apply Rmult_le_pos; try lra; left; apply Rinv_0_lt_compat; nra. }
  assert (Hrow : forall i, sum N (fun j => w i j) = ind X i / cx).
  { intro i. unfold w. rewrite (sum_ext N _ (fun j => ind X i / (cx * cy) * ind Y j)) by (intros; unfold Rdiv; ring).
    rewrite sum_scal, sum_ind. fold cy. field. lra. }
  assert (Hws : sum N (fun i => sum N (fun j => w i j)) = 1).
  { rewrite (sum_ext N _ (fun i => / cx * ind X i)) by (intros; rewrite Hrow; unfold Rdiv; ring).
    rewrite sum_scal, sum_ind. fold cx. field. lra. }
  assert (Ep : forall l, (l < K)%nat -> smean N x X l = mix2 N N w (fun i j => row x i) l).
  { intros l _. unfold mix2, smean, row, col.
    rewrite (sum_ext N _ (fun i => sum N (fun j => w i j) * x i l)) by (intros; rewrite <- sum_mult_r'; reflexivity).
    rewrite (sum_ext N _ (fun i => / cx * (ind X i * x i l))) by (intros; rewrite Hrow; unfold Rdiv; ring).
    rewrite sum_scal, sum_ind_mult. fold cx. unfold Rdiv. ring. }
  assert (Eq : forall l, (l < K)%nat -> smean N x Y l = mix2 N N w (fun i j => row x j) l).
  { intros l _. unfold mix2, smean, row, col.
    rewrite (sum_ext N _ (fun i => ind X i / (cx * cy) * sum N (fun j => ind Y j * x j l))).
    - rewrite sum_mult_r', sum_ind_mult. unfold Rdiv. rewrite sum_mult_r', sum_ind. fold cx cy. field. lra.
    - intros i _. rewrite <- sum_scal. apply sum_ext. intros j _. unfold w. unfold Rdiv. ring. }
  exact (conj Hw (conj Hws (conj Ep Eq))).
Qed.

Theorem pairs_to_means k N K x X Y U :
  mixable k -> table N K x -> div_pairs_le k N K x U -> phi_of k 1 <= dbound k U ->
  0 < card N X -> 0 < card N Y -> div_le k K (smean N x X) (smean N x Y) U.
Proof.
  intros Hk Htab HA H1 HX HY.
  destruct (mixw_facts N K x X Y HX HY) as [Hw [Hws [Ep Eq]]].
  set (w := mixw N X Y) in *. set (cx := card N X) in *. set (cy := card N Y) in *.
  assert (Hpq : forall i j l, (i < N)%nat -> (j < N)%nat -> (l < K)%nat -> 0 <= row x i l /\ 0 <= row x j l)
    by (intros i j l Hi Hj Hl; destruct Htab as [Hn _]; unfold row; split; apply Hn; auto).
  assert (Hpair : forall i j, (i < N)%nat -> (j < N)%nat ->
            dominated K (row x i) (row x j) /\ fdiv K (phi_of k) (row x i) (row x j) <= dbound k U).
  { intros i j Hi Hj. destruct (Nat.eq_dec i j) as [->|Hne].
    - split; [intros l _ Z; exact Z|]. rewrite (fdiv_same K _ _ _ (fun l _ => eq_refl) (row_sum N K x j Htab Hj)).
      exact H1.
    - exact (HA i j Hi Hj Hne). }
  pose proof (joint_convex k K N N w (fun i j => row x i) (fun i j => row x j) Hk Hw Hpq
                (fun i j Hi Hj => proj1 (Hpair i j Hi Hj))) as J.
  assert (Hd : dominated K (smean N x X) (smean N x Y)).
  { intros l Hl Z. unfold smean in *. fold cy in Z.
    assert (HsY : sumS N Y (col x l) = 0).
    { apply Rmult_eq_reg_r with (/ cy); [|apply Rinv_neq_0_compat; lra]. unfold Rdiv in Z. lra. }
    assert (Hz : forall j, (j < N)%nat -> Y j = true -> x j l = 0).
    { intros j Hj Yj. destruct Htab as [Hn _]. pose proof (Hn j l Hj Hl).
      destruct (Rle_lt_dec (x j l) 0) as [Hle|Hlt]; [lra|]. exfalso.
      rewrite (sumS_remove N Y j (col x l) Hj Yj) in HsY. unfold col at 2 in HsY.
      assert (0 <= sumS N (remove Y j) (col x l)) by (apply sumS_nonneg; intros k' Hk'; apply Hn; auto). lra. }
    destruct (card_pos_exists N Y HY) as [j [Hj Yj]].
    assert (Hx : forall i, (i < N)%nat -> x i l = 0).
    { intros i Hi. destruct (Hpair i j Hi Hj) as [D _]. apply (D l Hl). unfold row. apply Hz; auto. }
    unfold col. rewrite (sumS_ext_in N X _ (fun _ => 0)) by (intros i Hi _; apply Hx; exact Hi).
    unfold sumS. rewrite (sum_ext N _ (fun _ => 0)) by (intros i _; destruct (X i); reflexivity).
    rewrite sum_zero. unfold Rdiv. ring. }
  split; [exact Hd|].
  unfold fdiv. rewrite (sum_ext K _ (fun l => mix2 N N w (fun i j => row x j) l *
                                     phi_of k (mix2 N N w (fun i j => row x i) l / mix2 N N w (fun i j => row x j) l)))
    by (intros l Hl; rewrite Ep, Eq by exact Hl; reflexivity).
  apply Rle_trans with (1 := J).
  apply Rle_trans with (sum N (fun i => sum N (fun j => w i j * dbound k U))).
  - apply sum_le. intros i Hi. apply sum_le. intros j Hj. apply Rmult_le_compat_l; [apply Hw; auto|].
    apply (proj2 (Hpair i j Hi Hj)).
  - right. rewrite (sum_ext N _ (fun i => sum N (fun j => w i j) * dbound k U))
      by (intros; rewrite <- sum_mult_r'; reflexivity).
    rewrite sum_mult_r', Hws. ring.
Qed.

Theorem pairs_to_class k N K x cls U :
  mixable k -> table N K x -> div_pairs_le k N K x U -> phi_of k 1 <= dbound k U -> div_class_le k N K x cls U.
Proof.
  intros Hk Htab HA H1 i Hi.
  assert (HN : 0 < INR N) by (apply lt_0_INR; lia).
  apply (div_le_ext k K _ _ (smean N x (classof cls i)) (smean N x (fun _ => true)) U).
  - intros l _. reflexivity.
  - intros l _. unfold tmean, smean. rewrite card_full_set. reflexivity.
  - apply pairs_to_means; auto.
    + pose proof (class_self_pos N cls i Hi). lra.
    + rewrite card_full_set. exact HN.
Qed.

Theorem pairs_to_removal k N K x U :
  mixable k -> table N K x -> 2 <= INR N -> div_pairs_le k N K x U -> phi_of k 1 <= dbound k U ->
  div_removal_le k N K x U.
Proof.
  intros Hk Htab HN2 HA H1 i Hi.
  assert (Hc : card N (remove (fun _ => true) i) = INR N - 1) by (rewrite card_remove, card_full_set by auto; reflexivity).
  assert (Et : forall l, (l < K)%nat -> tmean N x l = smean N x (fun _ => true) l)
    by (intros l _; unfold tmean, smean; rewrite card_full_set; reflexivity).
  assert (Er : forall l, (l < K)%nat -> rmean N x i l = smean N x (remove (fun _ => true) i) l)
    by (intros l _; unfold rmean, smean; rewrite Hc; reflexivity).
  assert (HX : 0 < card N (fun _ => true)) by (rewrite card_full_set; lra).
  assert (HY : 0 < card N (remove (fun _ => true) i)) by lra.
  split.
  - apply (div_le_ext k K _ _ _ _ U Et Er). apply pairs_to_means; auto.
  - apply (div_le_ext k K _ _ _ _ U Er Et). apply pairs_to_means; auto.
Qed.

Lemma smean_sum N K x X : table N K x -> 0 < card N X -> sum K (smean N x X) = 1.
Proof.
  intros [_ Hrow] HX. unfold smean, col.
  unfold Rdiv. rewrite sum_mult_r'.
  assert (E : sum K (fun b => sumS N X (fun k => x k b)) = card N X).
  { unfold sumS, card. rewrite sum_swap. apply sum_ext. intros k Hk.
    destruct (X k); [apply Hrow; exact Hk | rewrite sum_zero; reflexivity]. }
  rewrite E. field. lra.
Qed.

Lemma smean_nonneg N K x X l : table N K x -> 0 < card N X -> (l < K)%nat -> 0 <= smean N x X l.
Proof.
  intros Htab HX Hl. unfold smean. unfold Rdiv. apply Rmult_le_pos.
  - apply sumS_nonneg. intros k' Hk. apply (col_nonneg N K x l Htab Hl k' Hk).
  - left. apply Rinv_0_lt_compat. exact HX.
Qed.

Theorem renyi2_kl_removal N K x U :
  table N K x -> 2 <= INR N -> div_removal_le (Renyi 2) N K x U -> div_removal_le KL N K x U.
Proof.
  intros Htab HN2 HA i Hi.
  assert (Hc : card N (remove (fun _ => true) i) = INR N - 1) by (rewrite card_remove, card_full_set by auto; reflexivity).
  assert (Et : forall l, (l < K)%nat -> tmean N x l = smean N x (fun _ => true) l)
    by (intros l _; unfold tmean, smean; rewrite card_full_set; reflexivity).
  assert (Er : forall l, (l < K)%nat -> rmean N x i l = smean N x (remove (fun _ => true) i) l)
    by (intros l _; unfold rmean, smean; rewrite Hc; reflexivity).
  assert (HX : 0 < card N (fun _ => true)) by (rewrite card_full_set; lra).
  assert (HY : 0 < card N (remove (fun _ => true) i)) by lra.
  destruct (HA i Hi) as [H1 H2].
  split.
  - apply (div_le_ext KL K _ _ _ _ U Et Er). apply kl_of_renyi2.
    + intros l Hl. apply (smean_nonneg N K); auto.
    + intros l Hl. apply (smean_nonneg N K); auto.
    + apply (smean_sum N K); auto.
    + apply (smean_sum N K); auto.
    + apply (div_le_ext _ K _ _ _ _ U (fun l Hl => eq_sym (Et l Hl)) (fun l Hl => eq_sym (Er l Hl))). exact H1.
  - apply (div_le_ext KL K _ _ _ _ U Er Et). apply kl_of_renyi2.
    + intros l Hl. apply (smean_nonneg N K); auto.
    + intros l Hl. apply (smean_nonneg N K); auto.
    + apply (smean_sum N K); auto.
    + apply (smean_sum N K); auto.
    + apply (div_le_ext _ K _ _ _ _ U (fun l Hl => eq_sym (Er l Hl)) (fun l Hl => eq_sym (Et l Hl))). exact H2.
Qed.

(** * The chord lemma between two means of records within ratio T of each other, bucket by bucket *)
Definition within (K : nat) (p q : nat -> R) (T : R) : Prop :=
  forall l, (l < K)%nat -> p l <= T * q l /\ q l <= T * p l.

Theorem chord_within k K p q T lo hi U :
  (forall l, (l < K)%nat -> 0 <= q l) -> (forall l, (l < K)%nat -> 0 <= p l) -> sum K q = 1 -> sum K p = 1 ->
  within K p q T -> 0 < T -> lo <= 1 / T -> T <= hi -> lo < hi ->
  below_chord (phi_of k) lo hi -> chord_val (phi_of k) lo hi <= dbound k U -> div_le k K p q U.
Proof.
  intros Hq Hp Sq Sp HW HT Hlo Hhi Hlh Hc HU.
  assert (Hd : dominated K p q).
  { intros l Hl Z. destruct (HW l Hl) as [H1 _]. pose proof (Hp l Hl). rewrite Z in H1. lra. }
  split; [exact Hd|]. apply Rle_trans with (chord_val (phi_of k) lo hi); [|exact HU].
  apply chord; auto. intros l Hl Hq0. destruct (HW l Hl) as [H1 H2].
  pose proof (ratio_between (p l) (q l) T HT Hq0 H1 H2). lra.
Qed.

Lemma within_sym K p q T : within K p q T -> within K q p T.
Proof. intros H l Hl. destruct (H l Hl). split; assumption. Qed.

(** Two means of records of a table at pairwise level T are within ratio T. *)
Lemma pairwise_within N K x T X Y :
  table N K x -> pairwise_le N K x T -> 0 < card N X -> 0 < card N Y -> within K (smean N x X) (smean N x Y) T.
Proof.
  intros Htab HA HX HY.
  assert (G : forall X Y, 0 < card N X -> 0 < card N Y -> forall l, (l < K)%nat ->
            smean N x X l <= T * smean N x Y l).
  { intros X' Y' HX' HY' l Hl. unfold smean, col.
    assert (Hi : forall i, (i < N)%nat -> card N Y' * x i l <= T * sumS N Y' (fun j => x j l)).
    { intros i Hi. replace (card N Y' * x i l) with (sumS N Y' (fun _ => x i l)) by (rewrite sumS_const; ring).
      rewrite <- sumS_scal. apply sumS_le. intros j Hj _. apply HA; auto. }
    assert (card N Y' * sumS N X' (fun i => x i l) <= card N X' * (T * sumS N Y' (fun j => x j l))).
    { rewrite <- sumS_scal.
      replace (card N X' * (T * sumS N Y' (fun j => x j l))) with (sumS N X' (fun _ => T * sumS N Y' (fun j => x j l)))
        by (rewrite sumS_const; ring).
      apply sumS_le. intros i Hi' _. apply Hi; exact Hi'. }
    apply Rmult_le_reg_r with (card N X' * card N Y'); [nra|].
    replace (sumS N X' (fun i => x i l) / card N X' * (card N X' * card N Y'))
      with (card N Y' * sumS N X' (fun i => x i l)) by (field; lra).
    replace (T * (sumS N Y' (fun j => x j l) / card N Y') * (card N X' * card N Y'))
      with (card N X' * (T * sumS N Y' (fun j => x j l))) by (field; lra). exact H. }
  intros l Hl. split; apply G; auto.
Qed.

Theorem chord_pairs_removal k N K x T lo hi U :
  table N K x -> pairwise_le N K x T -> 2 <= INR N -> 0 < T -> lo <= 1 / T -> T <= hi -> lo < hi ->
  below_chord (phi_of k) lo hi -> chord_val (phi_of k) lo hi <= dbound k U -> div_removal_le k N K x U.
Proof.
  intros Htab HA HN2 HT Hlo Hhi Hlh Hc HU i Hi.
  assert (Hcr : card N (remove (fun _ => true) i) = INR N - 1) by (rewrite card_remove, card_full_set by auto; reflexivity).
  assert (Et : forall l, (l < K)%nat -> tmean N x l = smean N x (fun _ => true) l)
    by (intros l _; unfold tmean, smean; rewrite card_full_set; reflexivity).
  assert (Er : forall l, (l < K)%nat -> rmean N x i l = smean N x (remove (fun _ => true) i) l)
    by (intros l _; unfold rmean, smean; rewrite Hcr; reflexivity).
  assert (HX : 0 < card N (fun _ => true)) by (rewrite card_full_set; lra).
  assert (HY : 0 < card N (remove (fun _ => true) i)) by lra.
  pose proof (pairwise_within N K x T _ _ Htab HA HX HY) as W.
  assert (Hn : forall X, 0 < card N X -> forall l, (l < K)%nat -> 0 <= smean N x X l)
    by (intros X HX' l Hl; apply (smean_nonneg N K); auto).
  split.
  - apply (div_le_ext k K _ _ _ _ U Et Er).
    apply (chord_within k K _ _ T lo hi U); auto; apply (smean_sum N K); auto.
  - apply (div_le_ext k K _ _ _ _ U Er Et).
    apply (chord_within k K _ _ T lo hi U); auto; [apply (smean_sum N K); auto | apply (smean_sum N K); auto |].
    apply within_sym. exact W.
Qed.

Theorem chord_subset_removal k N K x T lo hi U :
  table N K x -> subset_le TwoSided N K x (INR N - 1) T -> 2 <= INR N -> 0 < T -> lo <= 1 / T -> T <= hi -> lo < hi ->
  below_chord (phi_of k) lo hi -> chord_val (phi_of k) lo hi <= dbound k U -> div_removal_le k N K x U.
Proof.
  intros Htab HA HN2 HT Hlo Hhi Hlh Hc HU i Hi.
  set (S := remove (fun _ => true) i).
  assert (Hcr : card N S = INR N - 1) by (unfold S; rewrite card_remove, card_full_set by auto; reflexivity).
  assert (Et : forall l, (l < K)%nat -> tmean N x l = smean N x (fun _ => true) l)
    by (intros l _; unfold tmean, smean; rewrite card_full_set; reflexivity).
  assert (Er : forall l, (l < K)%nat -> rmean N x i l = smean N x S l)
    by (intros l _; unfold rmean, smean; rewrite Hcr; reflexivity).
  assert (HX : 0 < card N (fun _ => true)) by (rewrite card_full_set; lra).
  assert (HY : 0 < card N S) by lra.
  assert (W : within K (smean N x S) (smean N x (fun _ => true)) T).
  { intros l Hl. destruct (HA l S Hl Hcr) as [Hup Hlow]. specialize (Hlow eq_refl).
    unfold upper_ok, lower_ok, smean in *. rewrite card_full_set, Hcr in *. rewrite sumS_full.
    set (a := sumS N S (col x l)) in *. set (b := sum N (col x l)) in *.
    split.
    - apply Rmult_le_reg_r with (INR N * (INR N - 1)); [nra|].
      replace (a / (INR N - 1) * (INR N * (INR N - 1))) with (INR N * a) by (field; lra).
      replace (T * (b / INR N) * (INR N * (INR N - 1))) with (T * ((INR N - 1) * b)) by (field; lra). lra.
    - apply Rmult_le_reg_r with (INR N * (INR N - 1)); [nra|].
      replace (b / INR N * (INR N * (INR N - 1))) with ((INR N - 1) * b) by (field; lra).
      replace (T * (a / (INR N - 1)) * (INR N * (INR N - 1))) with (T * (INR N * a)) by (field; lra). lra. }
  split.
  - apply (div_le_ext k K _ _ _ _ U Et Er).
    apply (chord_within k K _ _ T lo hi U); auto;
      [intros l Hl; apply (smean_nonneg N K); auto | intros l Hl; apply (smean_nonneg N K); auto
      | apply (smean_sum N K); auto | apply (smean_sum N K); auto | apply within_sym; exact W].
  - apply (div_le_ext k K _ _ _ _ U Er Et).
    apply (chord_within k K _ _ T lo hi U); auto;
      [intros l Hl; apply (smean_nonneg N K); auto | intros l Hl; apply (smean_nonneg N K); auto
      | apply (smean_sum N K); auto | apply (smean_sum N K); auto].
Qed.

(** At ratio 1 the two distributions are equal: the divergence is [phi 1]. *)
Lemma one_within k K p q U : sum K q = 1 -> within K p q 1 -> phi_of k 1 <= dbound k U -> div_le k K p q U.
Proof.
  intros S W H. assert (E : forall l, (l < K)%nat -> p l = q l) by (intros l Hl; destruct (W l Hl); lra).
  split.
  - intros l Hl Z. rewrite E by exact Hl. exact Z.
  - rewrite (fdiv_same K _ _ _ E S). exact H.
Qed.

Lemma removal_from_within k N K x T U :
  table N K x -> 2 <= INR N ->
  (forall i, (i < N)%nat -> within K (smean N x (remove (fun _ => true) i)) (smean N x (fun _ => true)) T) ->
  (forall p q, (forall l, (l < K)%nat -> 0 <= q l) -> (forall l, (l < K)%nat -> 0 <= p l) -> sum K q = 1 ->
     sum K p = 1 -> within K p q T -> div_le k K p q U) ->
  div_removal_le k N K x U.
Proof.
  intros Htab HN2 HW G i Hi.
  set (S := remove (fun _ => true) i).
  assert (Hcr : card N S = INR N - 1) by (unfold S; rewrite card_remove, card_full_set by auto; reflexivity).
  assert (Et : forall l, (l < K)%nat -> tmean N x l = smean N x (fun _ => true) l)
    by (intros l _; unfold tmean, smean; rewrite card_full_set; reflexivity).
  assert (Er : forall l, (l < K)%nat -> rmean N x i l = smean N x S l)
    by (intros l _; unfold rmean, smean; rewrite Hcr; reflexivity).
  assert (HX : 0 < card N (fun _ => true)) by (rewrite card_full_set; lra).
  assert (HY : 0 < card N S) by lra.
  pose proof (HW i Hi) as W. fold S in W.
  split.
  - apply (div_le_ext k K _ _ _ _ U Et Er). apply G;
      [intros l Hl; apply (smean_nonneg N K); auto | intros l Hl; apply (smean_nonneg N K); auto
      | apply (smean_sum N K); auto | apply (smean_sum N K); auto | apply within_sym; exact W].
  - apply (div_le_ext k K _ _ _ _ U Er Et). apply G;
      [intros l Hl; apply (smean_nonneg N K); auto | intros l Hl; apply (smean_nonneg N K); auto
      | apply (smean_sum N K); auto | apply (smean_sum N K); auto | exact W].
Qed.

Lemma subset_within N K x T i :
  table N K x -> subset_le TwoSided N K x (INR N - 1) T -> 2 <= INR N -> (i < N)%nat ->
  within K (smean N x (remove (fun _ => true) i)) (smean N x (fun _ => true)) T.
Proof.
  intros Htab HA HN2 Hi. set (S := remove (fun _ => true) i).
  assert (Hcr : card N S = INR N - 1) by (unfold S; rewrite card_remove, card_full_set by auto; reflexivity).
  intros l Hl. destruct (HA l S Hl Hcr) as [Hup Hlow]. specialize (Hlow eq_refl).
  unfold upper_ok, lower_ok, smean in *. rewrite card_full_set, Hcr in *. rewrite sumS_full.
  set (a := sumS N S (col x l)) in *. set (b := sum N (col x l)) in *.
  split.
  - apply Rmult_le_reg_r with (INR N * (INR N - 1)); [nra|].
    replace (a / (INR N - 1) * (INR N * (INR N - 1))) with (INR N * a) by (field; lra).
    replace (T * (b / INR N) * (INR N * (INR N - 1))) with (T * ((INR N - 1) * b)) by (field; lra). lra.
  - apply Rmult_le_reg_r with (INR N * (INR N - 1)); [nra|].
    replace (b / INR N * (INR N * (INR N - 1))) with ((INR N - 1) * b) by (field; lra).
    replace (T * (a / (INR N - 1)) * (INR N * (INR N - 1))) with (T * (INR N * a)) by (field; lra). lra.
Qed.

Theorem one_pairs_removal k N K x U :
  table N K x -> pairwise_le N K x 1 -> 2 <= INR N -> phi_of k 1 <= dbound k U -> div_removal_le k N K x U.
Proof.
  intros Htab HA HN2 H1. apply (removal_from_within k N K x 1 U Htab HN2).
  - intros i Hi. apply (pairwise_within N K x 1 _ _ Htab HA).
    + assert (card N (remove (fun _ => true) i) = INR N - 1) by (rewrite card_remove, card_full_set by auto; reflexivity). lra.
    + rewrite card_full_set. lra.
  - intros p q _ _ Sq _ W. exact (one_within k K p q U Sq W H1).
Qed.

Theorem one_subset_removal k N K x U :
  table N K x -> subset_le TwoSided N K x (INR N - 1) 1 -> 2 <= INR N -> phi_of k 1 <= dbound k U ->
  div_removal_le k N K x U.
Proof.
  intros Htab HA HN2 H1. apply (removal_from_within k N K x 1 U Htab HN2).
  - intros i Hi. apply (subset_within N K x 1 i Htab HA HN2 Hi).
  - intros p q _ _ Sq _ W. exact (one_within k K p q U Sq W H1).
Qed.

(** * A class's mean at most T0 times the table's, bucket by bucket: every ratio in [0, T0] *)
Theorem chord_class_upper k N K x cls T0 hi U :
  table N K x -> (forall i l, (i < N)%nat -> (l < K)%nat -> cmean N x cls i l <= T0 * tmean N x l) ->
  0 < T0 -> T0 <= hi -> below_chord (phi_of k) 0 hi -> chord_val (phi_of k) 0 hi <= dbound k U ->
  div_class_le k N K x cls U.
Proof.
  intros Htab HA HT Hhi Hc HU i Hi.
  assert (Hd : dominated K (cmean N x cls i) (tmean N x)).
  { intros l Hl Z. pose proof (HA i l Hi Hl). rewrite Z, Rmult_0_r in H.
    pose proof (cmean_nonneg N K x cls i l Htab Hi Hl). lra. }
  split; [exact Hd|]. apply Rle_trans with (chord_val (phi_of k) 0 hi); [|exact HU].
  apply chord; [lra | intros l Hl; apply (tmean_nonneg N K); auto | apply (tmean_sum N K); [exact Htab|lia]
               | apply (cmean_sum N K); auto | exact Hd | | exact Hc].
  intros l Hl Hq. pose proof (HA i l Hi Hl). pose proof (cmean_nonneg N K x cls i l Htab Hi Hl). split.
  - unfold Rdiv. apply Rmult_le_pos; [lra|left; apply Rinv_0_lt_compat; exact Hq].
  - apply Rmult_le_reg_r with (tmean N x l); [exact Hq|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. nra.
Qed.

Lemma oneclass_upper N K x cls T :
  class_le OneSided N K x cls T -> forall i l, (i < N)%nat -> (l < K)%nat -> cmean N x cls i l <= T * tmean N x l.
Proof.
  intros HA i l Hi Hl. destruct (HA l i Hl Hi) as [Hup _]. unfold upper_ok, cmean, tmean in *.
  assert (HN : 0 < INR N) by (apply lt_0_INR; lia).
  pose proof (class_self_pos N cls i Hi).
  apply Rmult_le_reg_r with (INR N * card N (classof cls i)); [nra|].
  replace (sumS N (classof cls i) (col x l) / card N (classof cls i) * (INR N * card N (classof cls i)))
    with (INR N * sumS N (classof cls i) (col x l)) by (field; lra).
  replace (T * (sum N (col x l) / INR N) * (INR N * card N (classof cls i)))
    with (T * (card N (classof cls i) * sum N (col x l))) by (field; lra). exact Hup.
Qed.

Lemma size_upper N K x cls T :
  table N K x -> class_size_ge N cls T -> 0 < T ->
  forall i l, (i < N)%nat -> (l < K)%nat -> cmean N x cls i l <= INR N / T * tmean N x l.
Proof.
  intros Htab HA HT i l Hi Hl. unfold cmean, tmean.
  assert (HN : 0 < INR N) by (apply lt_0_INR; lia).
  pose proof (HA i Hi) as He. set (e := card N (classof cls i)) in *.
  assert (Hs : sumS N (classof cls i) (col x l) <= sum N (col x l))
    by (apply sumS_le_sum; intros k' Hk; apply (col_nonneg N K x l Htab Hl k' Hk)).
  assert (H0 : 0 <= sumS N (classof cls i) (col x l))
    by (apply sumS_nonneg; intros k' Hk; apply (col_nonneg N K x l Htab Hl k' Hk)).
  replace (INR N / T * (sum N (col x l) / INR N)) with (sum N (col x l) / T) by (field; lra).
  apply Rmult_le_reg_r with (e * T); [nra|].
  replace (sumS N (classof cls i) (col x l) / e * (e * T)) with (T * sumS N (classof cls i) (col x l)) by (field; lra).
  replace (sum N (col x l) / T * (e * T)) with (e * sum N (col x l)) by (field; lra). nra.
Qed.

(** * A pairwise level against each class and the table: a class's ratio to the table in
    [[N/(1 + (N - 1) T), N T/(N + T - 1)]] (classes of at least one record) *)
Theorem chord_between k K p q lo hi U :
  (forall l, (l < K)%nat -> 0 <= q l) -> sum K q = 1 -> sum K p = 1 ->
  (forall l, (l < K)%nat -> lo * q l <= p l /\ p l <= hi * q l) -> lo < hi ->
  below_chord (phi_of k) lo hi -> chord_val (phi_of k) lo hi <= dbound k U -> div_le k K p q U.
Proof.
  intros Hq Sq Sp HB Hlh Hc HU.
  assert (Hd : dominated K p q).
  { intros l Hl Z. destruct (HB l Hl) as [H1 H2]. rewrite Z in H1, H2. lra. }
  split; [exact Hd|]. apply Rle_trans with (chord_val (phi_of k) lo hi); [|exact HU].
  apply chord; auto. intros l Hl Hq0. destruct (HB l Hl) as [H1 H2]. split.
  - apply Rmult_le_reg_r with (q l); [exact Hq0|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra.
  - apply Rmult_le_reg_r with (q l); [exact Hq0|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra.
Qed.

Lemma pairwise_class_between N K x cls T i l :
  table N K x -> pairwise_le N K x T -> 1 <= T -> (i < N)%nat -> (l < K)%nat ->
  INR N / (1 + (INR N - 1) * T) * tmean N x l <= cmean N x cls i l /\
  cmean N x cls i l <= INR N * T / (INR N + T - 1) * tmean N x l.
Proof.
  intros Htab HA HT Hi Hl.
  set (C := classof cls i).
  assert (HN : 1 <= INR N) by (replace 1 with (INR 1) by reflexivity; apply le_INR; lia).
  assert (He : 1 <= card N C) by (apply class_self_pos; exact Hi).
  assert (HeN : card N C <= INR N) by apply card_le.
  set (e := card N C) in *.
  set (a := sumS N C (col x l)). set (b := sumS N (compl C) (col x l)).
  assert (Hab : sum N (col x l) = a + b) by (unfold a, b; apply sumS_split).
  assert (Ha : 0 <= a) by (apply sumS_nonneg; intros k' Hk; apply (col_nonneg N K x l Htab Hl k' Hk)).
  assert (Hb : 0 <= b) by (apply sumS_nonneg; intros k' Hk; apply (col_nonneg N K x l Htab Hl k' Hk)).
  assert (Hc : card N (compl C) = INR N - e) by (unfold e; apply card_compl).
  (* (N - e) a <= T e b and e b <= T (N - e) a: every record of the class against every other one *)
  assert (H1 : (INR N - e) * a <= T * (e * b)).
  { rewrite <- Hc. unfold a, b.
    replace (card N (compl C) * sumS N C (col x l)) with (sumS N C (fun i' => sumS N (compl C) (fun _ => col x l i')))
      by (rewrite (sumS_ext_in N C _ (fun i' => col x l i' * card N (compl C))) by (intros; rewrite sumS_const; ring);
          rewrite sumS_mult_r; ring).
    replace (T * (e * sumS N (compl C) (col x l))) with (sumS N C (fun _ => sumS N (compl C) (fun j => T * col x l j)))
      by (rewrite sumS_const, sumS_scal; unfold e; ring).
    apply sumS_le. intros i' Hi' _. apply sumS_le. intros j Hj _. unfold col. apply HA; auto. }
  assert (H2 : e * b <= T * ((INR N - e) * a)).
  { rewrite <- Hc. unfold a, b.
    replace (e * sumS N (compl C) (col x l)) with (sumS N (compl C) (fun j => sumS N C (fun _ => col x l j)))
      by (rewrite (sumS_ext_in N (compl C) _ (fun j => col x l j * e)) by (intros; rewrite sumS_const; unfold e; ring);
          rewrite sumS_mult_r; ring).
    replace (T * (card N (compl C) * sumS N C (col x l))) with (sumS N (compl C) (fun _ => sumS N C (fun i' => T * col x l i')))
      by (rewrite sumS_const, sumS_scal; ring).
    apply sumS_le. intros j Hj _. apply sumS_le. intros i' Hi' _. unfold col. apply HA; auto. }
  unfold cmean, tmean. fold C. fold e. fold a. rewrite Hab.
  assert (D1 : 0 < 1 + (INR N - 1) * T) by nra.
  assert (D2 : 0 < INR N + T - 1) by lra.
  split.
  - apply Rmult_le_reg_r with (e * (1 + (INR N - 1) * T)); [nra|].
    replace (INR N / (1 + (INR N - 1) * T) * ((a + b) / INR N) * (e * (1 + (INR N - 1) * T))) with (e * (a + b))
      by (field; lra).
    replace (a / e * (e * (1 + (INR N - 1) * T))) with (a * (1 + (INR N - 1) * T)) by (field; lra).
    assert (0 <= (e - 1) * (T - 1) * a) by (apply Rmult_le_pos; [apply Rmult_le_pos|]; lra). nra.
  - apply Rmult_le_reg_r with (e * (INR N + T - 1)); [nra|].
    replace (a / e * (e * (INR N + T - 1))) with (a * (INR N + T - 1)) by (field; lra).
    replace (INR N * T / (INR N + T - 1) * ((a + b) / INR N) * (e * (INR N + T - 1))) with (e * T * (a + b))
      by (field; lra).
    assert (0 <= (e - 1) * (T - 1) * a) by (apply Rmult_le_pos; [apply Rmult_le_pos|]; lra). nra.
Qed.

Theorem chord_pairwise_class k N K x cls T lo hi U :
  table N K x -> pairwise_le N K x T -> 1 <= T -> lo <= INR N / (1 + (INR N - 1) * T) ->
  INR N * T / (INR N + T - 1) <= hi -> lo < hi -> 0 <= lo ->
  below_chord (phi_of k) lo hi -> chord_val (phi_of k) lo hi <= dbound k U -> div_class_le k N K x cls U.
Proof.
  intros Htab HA HT Hlo Hhi Hlh H0 Hc HU i Hi.
  apply (chord_between k K _ _ lo hi U); auto.
  - intros l Hl. apply (tmean_nonneg N K); auto.
  - apply (tmean_sum N K); [exact Htab|lia].
  - apply (cmean_sum N K); auto.
  - intros l Hl. destruct (pairwise_class_between N K x cls T i l Htab HA HT Hi Hl).
    pose proof (tmean_nonneg N K x l Htab Hl). split; nra.
Qed.

Theorem one_pairwise_class k N K x cls U :
  table N K x -> pairwise_le N K x 1 -> phi_of k 1 <= dbound k U -> div_class_le k N K x cls U.
Proof.
  intros Htab HA H1 i Hi.
  assert (E : forall l, (l < K)%nat -> cmean N x cls i l = tmean N x l).
  { intros l Hl. destruct (pairwise_class_between N K x cls 1 i l Htab HA ltac:(lra) Hi Hl) as [A B].
    replace (INR N / (1 + (INR N - 1) * 1)) with 1 in A by (field; assert (0 < INR N) by (apply lt_0_INR; lia); lra).
    replace (INR N * 1 / (INR N + 1 - 1)) with 1 in B by (field; assert (0 < INR N) by (apply lt_0_INR; lia); lra).
    lra. }
  split.
  - intros l Hl Z. rewrite E by exact Hl. exact Z.
  - rewrite (fdiv_same K _ _ _ E (tmean_sum N K x Htab ltac:(lia))). exact H1.
Qed.

(** The chord's values with the division by [hi - lo] cleared (what the generated proofs show). *)
Lemma chord_kl' lo hi U :
  0 < lo -> lo < hi -> (1 - lo) * (hi * ln hi) + (hi - 1) * (lo * ln lo) <= U * (hi - lo) ->
  chord_val (phi_of KL) lo hi <= dbound KL U.
Proof.
  intros H0 Hlh H. apply chord_kl; [exact H0|exact Hlh|].
  apply Rmult_le_reg_r with (hi - lo); [lra|]. replace (((1 - lo) * (hi * ln hi) + (hi - 1) * (lo * ln lo)) / (hi - lo)
    * (hi - lo)) with ((1 - lo) * (hi * ln hi) + (hi - 1) * (lo * ln lo)) by (field; lra). exact H.
Qed.

Lemma chord_renyi2' lo hi X U :
  lo < hi -> 0 < X -> (1 - lo) * hi ^ 2 + (hi - 1) * lo ^ 2 <= X * (hi - lo) -> ln X <= U ->
  chord_val (phi_of (Renyi 2)) lo hi <= dbound (Renyi 2) U.
Proof.
  intros Hlh HX H HU. apply (chord_renyi2 lo hi X U Hlh HX); [|exact HU].
  apply Rmult_le_reg_r with (hi - lo); [lra|]. replace (((1 - lo) * hi ^ 2 + (hi - 1) * lo ^ 2) / (hi - lo) * (hi - lo))
    with ((1 - lo) * hi ^ 2 + (hi - 1) * lo ^ 2) by (field; lra). exact H.
Qed.

Lemma chord_tv' lo hi U :
  lo <= 1 -> 1 <= hi -> lo < hi -> (1 - lo) * (hi - 1) <= U * (hi - lo) -> chord_val (phi_of TV) lo hi <= dbound TV U.
Proof.
  intros H1 H2 Hlh H. apply chord_tv; [exact H1|exact H2|exact Hlh|].
  apply Rmult_le_reg_r with (hi - lo); [lra|]. replace ((1 - lo) * (hi - 1) / (hi - lo) * (hi - lo))
    with ((1 - lo) * (hi - 1)) by (field; lra). exact H.
Qed.
