(** Zero-concentrated privacy against Kullback-Leibler and against Renyi of a fixed order.

    For distributions [p], [q] over [K] buckets ([q_l = 0] forcing [p_l = 0]: [dominated]) and a real order
    [a > 1], the Renyi sum is [S(a) = sum_l q_l (p_l / q_l)^a] (the power is [Rpower]; buckets with [p_l = 0]
    contribute 0), the Renyi divergence [D(a) = ln S(a) / (a - 1)], and the zero-concentrated level is at most
    [rho] when [D(a) <= rho a] for every real [a > 1]. The facts:

    - [kl_le_rdiv]: [KL <= D(a)] for every [a > 1] (Jensen for [ln]: with [r_l = p_l / q_l], [S(a) =
      sum_l p_l r_l^(a-1)] and [ln u <= u - 1] at [u = r_l^(a-1) / S(a)], summed with the weights [p_l]);
    - [zcdp_kl]: a zero-concentrated level [rho] bounds KL by [rho] (else [a] close to 1 has [rho a < KL]);
    - [zcdp_renyi]: it bounds the library's Renyi kind of a natural order [n >= 2] at [U = rho n]
      ([Rpower r (INR n) = r^n]: [S(n)] is [fdiv K (phi_of (Renyi n)) p q]);
    - [zcdp_lower]: the level is at least [D(b) / b] for every real [b > 1] (what a witness family shows). *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Entropy Divergence.
Open Scope R_scope.

(** One bucket's term of the Renyi sum: 0 where [p_l = 0]. *)
Definition rterm (a pl ql : R) : R := if Rlt_dec 0 pl then ql * Rpower (pl / ql) a else 0.
Definition rsum (K : nat) (p q : nat -> R) (a : R) : R := sum K (fun l => rterm a (p l) (q l)).
Definition rdiv (K : nat) (p q : nat -> R) (a : R) : R := ln (rsum K p q a) / (a - 1).
Definition kl (K : nat) (p q : nat -> R) : R := fdiv K (phi_of KL) p q.
Definition zcdp_le (K : nat) (p q : nat -> R) (rho : R) : Prop := forall a, 1 < a -> rdiv K p q a <= rho * a.

(** * One bucket *)
Lemma dom_pos K p q l :
  (forall l, (l < K)%nat -> 0 <= q l) -> dominated K p q -> (l < K)%nat -> 0 < p l -> 0 < q l.
Proof.
  intros Hq Hd Hl Hp. destruct (Req_dec (q l) 0) as [Z|Z].
  - rewrite (Hd l Hl Z) in Hp. lra.
  - pose proof (Hq l Hl). lra.
Qed.

Lemma ln_Rpower x y : ln (Rpower x y) = y * ln x.
Proof. unfold Rpower. apply ln_exp. Qed.

Lemma Rpower_pos x y : 0 < Rpower x y.
Proof. unfold Rpower. apply exp_pos. Qed.

(** [q r^a = p r^(a-1)] with [r = p / q]. *)
Lemma rterm_pos a pl ql : 0 < pl -> 0 < ql -> rterm a pl ql = pl * Rpower (pl / ql) (a - 1).
Proof.
  intros Hp Hq. unfold rterm. destruct (Rlt_dec 0 pl) as [_|]; [|lra].
  replace a with (1 + (a - 1)) at 1 by ring. rewrite Rpower_plus, Rpower_1 by (apply Rdiv_lt_0_compat; lra).
  field. lra.
Qed.

Lemma rterm_nonneg a pl ql : 0 <= ql -> 0 <= rterm a pl ql.
Proof.
  intro Hq. unfold rterm. destruct (Rlt_dec 0 pl); [|lra].
  apply Rmult_le_pos; [exact Hq|left; apply Rpower_pos].
Qed.

(** KL's bucket: [q xlnx(p/q) = p ln(p/q)] where [p > 0], 0 elsewhere. *)
Lemma kl_term pl ql :
  0 <= pl -> 0 <= ql -> (ql = 0 -> pl = 0) ->
  ql * xlnx (pl / ql) = if Rlt_dec 0 pl then pl * ln (pl / ql) else 0.
Proof.
  intros Hp Hq Hd. destruct (Rlt_dec 0 pl) as [P|P].
  - assert (Q : 0 < ql) by (destruct (Req_dec ql 0) as [Z|Z]; [specialize (Hd Z); lra|lra]).
    unfold xlnx, ent. destruct (Rlt_dec 0 (pl / ql)) as [_|N]; [|exfalso; apply N; apply Rdiv_lt_0_compat; lra].
    field. lra.
  - assert (pl = 0) by lra. subst pl. unfold Rdiv. rewrite Rmult_0_l.
    unfold xlnx, ent. destruct (Rlt_dec 0 0); [lra|ring].
Qed.

Lemma kl_sum K p q :
  (forall l, (l < K)%nat -> 0 <= p l) -> (forall l, (l < K)%nat -> 0 <= q l) -> dominated K p q ->
  kl K p q = sum K (fun l => if Rlt_dec 0 (p l) then p l * ln (p l / q l) else 0).
Proof.
  intros Hp Hq Hd. unfold kl, fdiv. simpl phi_of. apply sum_ext. intros l Hl.
  apply kl_term; [apply Hp; exact Hl|apply Hq; exact Hl|apply Hd; exact Hl].
Qed.

(** [p] summed over its support is [sum p]. *)
Lemma sum_support K p :
  (forall l, (l < K)%nat -> 0 <= p l) -> sum K (fun l => if Rlt_dec 0 (p l) then p l else 0) = sum K p.
Proof.
  intro Hp. apply sum_ext. intros l Hl. destruct (Rlt_dec 0 (p l)); [reflexivity|].
  pose proof (Hp l Hl). lra.
Qed.

(** A sum of nonnegative terms, positive wherever [p] is, is positive when [sum p] is. *)
Lemma sum_pos_where K p f :
  (forall l, (l < K)%nat -> 0 <= p l) -> (forall l, (l < K)%nat -> 0 <= f l) ->
  (forall l, (l < K)%nat -> 0 < p l -> 0 < f l) -> 0 < sum K p -> 0 < sum K f.
Proof.
  induction K as [|K IH]; intros Hp Hf Hpf Hs; simpl in *; [lra|].
  assert (HfK : 0 <= f K) by (apply Hf; lia).
  destruct (Rlt_le_dec 0 (sum K p)) as [H|H].
  - assert (0 < sum K f) by (apply IH; auto). lra.
  - assert (HpK : 0 < p K) by lra. assert (0 < f K) by (apply Hpf; [lia|exact HpK]).
    assert (0 <= sum K f) by (apply sum_nonneg; intros; apply Hf; lia). lra.
Qed.

Lemma rsum_pos K p q a :
  (forall l, (l < K)%nat -> 0 <= p l) -> (forall l, (l < K)%nat -> 0 <= q l) -> sum K p = 1 -> dominated K p q ->
  0 < rsum K p q a.
Proof.
  intros Hp Hq Sp Hd. unfold rsum. apply (sum_pos_where K p); [exact Hp| | |lra].
  - intros l Hl. apply rterm_nonneg, Hq, Hl.
  - intros l Hl P. pose proof (dom_pos K p q l Hq Hd Hl P) as Q. rewrite rterm_pos by assumption.
    apply Rmult_lt_0_compat; [exact P|apply Rpower_pos].
Qed.

(** * Jensen: [(a - 1) KL <= ln S(a)], so [KL <= D(a)] *)
Lemma kl_le_ln_rsum K p q a :
  (forall l, (l < K)%nat -> 0 <= p l) -> (forall l, (l < K)%nat -> 0 <= q l) -> sum K p = 1 -> dominated K p q ->
  (a - 1) * kl K p q <= ln (rsum K p q a).
Proof.
  intros Hp Hq Sp Hd.
  pose proof (rsum_pos K p q a Hp Hq Sp Hd) as HS. set (S := rsum K p q a) in *.
  set (w := fun l => Rpower (p l / q l) (a - 1)).
  (* sum_l p_l ln(w_l / S) <= sum_l p_l (w_l / S - 1) over the support *)
  assert (Hle : sum K (fun l => if Rlt_dec 0 (p l) then p l * ln (w l / S) else 0) <=
                sum K (fun l => if Rlt_dec 0 (p l) then p l * (w l / S - 1) else 0)).
  { apply sum_le. intros l Hl. destruct (Rlt_dec 0 (p l)) as [P|]; [|lra].
    apply Rmult_le_compat_l; [lra|]. apply ln_le_minus_1. apply Rdiv_lt_0_compat; [apply Rpower_pos|exact HS]. }
  assert (Hr : sum K (fun l => if Rlt_dec 0 (p l) then p l * (w l / S - 1) else 0) = 0).
  { rewrite (sum_ext K _ (fun l => / S * rterm a (p l) (q l) - (if Rlt_dec 0 (p l) then p l else 0))).
    - rewrite sum_minus, sum_scal, sum_support by exact Hp. fold (rsum K p q a). fold S. rewrite Sp.
      field. lra.
    - intros l Hl. destruct (Rlt_dec 0 (p l)) as [P|P].
      + pose proof (dom_pos K p q l Hq Hd Hl P) as Q. rewrite rterm_pos by assumption. unfold w. field. lra.
      + unfold rterm. destruct (Rlt_dec 0 (p l)); [contradiction|ring]. }
  assert (Hl : sum K (fun l => if Rlt_dec 0 (p l) then p l * ln (w l / S) else 0) =
               (a - 1) * kl K p q - ln S).
  { rewrite (kl_sum K p q Hp Hq Hd). replace (ln S) with (ln S * sum K (fun l => if Rlt_dec 0 (p l) then p l else 0))
      by (rewrite (sum_support K p Hp), Sp; ring).
    rewrite <- (sum_scal K (a - 1)), <- (sum_scal K (ln S)), <- sum_minus. apply sum_ext. intros l Hl.
    destruct (Rlt_dec 0 (p l)) as [P|P]; [|ring].
    pose proof (dom_pos K p q l Hq Hd Hl P) as Q.
    unfold Rdiv at 1. rewrite ln_mult, ln_Rinv by (try apply Rinv_0_lt_compat; try apply Rpower_pos; exact HS).
    unfold w. rewrite ln_Rpower. ring. }
  lra.
Qed.

Theorem kl_le_rdiv K p q a :
  (forall l, (l < K)%nat -> 0 <= p l) -> (forall l, (l < K)%nat -> 0 <= q l) -> sum K p = 1 -> dominated K p q ->
  1 < a -> kl K p q <= rdiv K p q a.
Proof.
  intros Hp Hq Sp Hd Ha. pose proof (kl_le_ln_rsum K p q a Hp Hq Sp Hd) as H. unfold rdiv.
  apply Rmult_le_reg_r with (a - 1); [lra|].
  replace (ln (rsum K p q a) / (a - 1) * (a - 1)) with (ln (rsum K p q a)) by (field; lra). lra.
Qed.

(** * A zero-concentrated level bounds KL *)
Theorem zcdp_kl K p q rho :
  (forall l, (l < K)%nat -> 0 <= p l) -> (forall l, (l < K)%nat -> 0 <= q l) -> sum K p = 1 -> dominated K p q ->
  zcdp_le K p q rho -> kl K p q <= rho.
Proof.
  intros Hp Hq Sp Hd Hz. destruct (Rle_lt_dec (kl K p q) rho) as [H|H]; [exact H|exfalso].
  (* an order [a > 1] with [rho a < KL] *)
  assert (Ha : exists a, 1 < a /\ rho * a < kl K p q).
  { destruct (Rle_lt_dec rho 0) as [R|R].
    - exists 2. split; lra.
    - exists (1 + (kl K p q - rho) / (2 * rho)). split.
      + assert (0 < (kl K p q - rho) / (2 * rho)) by (apply Rdiv_lt_0_compat; lra). lra.
      + replace (rho * (1 + (kl K p q - rho) / (2 * rho))) with ((rho + kl K p q) / 2) by (field; lra). lra. }
  destruct Ha as [a [Ha1 Ha2]].
  pose proof (kl_le_rdiv K p q a Hp Hq Sp Hd Ha1). pose proof (Hz a Ha1). lra.
Qed.

(** The same as the library's KL kind at [U = rho]. *)
Corollary zcdp_kl_div K p q rho :
  (forall l, (l < K)%nat -> 0 <= p l) -> (forall l, (l < K)%nat -> 0 <= q l) -> sum K p = 1 -> dominated K p q ->
  zcdp_le K p q rho -> div_le KL K p q rho.
Proof. intros Hp Hq Sp Hd Hz. split; [exact Hd|]. simpl dbound. exact (zcdp_kl K p q rho Hp Hq Sp Hd Hz). Qed.

(** * Natural orders: [S(n)] is the library's Renyi sum *)
Lemma rsum_nat K p q n :
  (forall l, (l < K)%nat -> 0 <= p l) -> (forall l, (l < K)%nat -> 0 <= q l) -> dominated K p q -> (1 <= n)%nat ->
  rsum K p q (INR n) = fdiv K (phi_of (Renyi n)) p q.
Proof.
  intros Hp Hq Hd Hn. unfold rsum, fdiv. simpl phi_of. apply sum_ext. intros l Hl. unfold rterm.
  destruct (Rlt_dec 0 (p l)) as [P|P].
  - pose proof (dom_pos K p q l Hq Hd Hl P) as Q. rewrite Rpower_pow by (apply Rdiv_lt_0_compat; lra).
    reflexivity.
  - assert (p l = 0) by (pose proof (Hp l Hl); lra). rewrite H. unfold Rdiv. rewrite Rmult_0_l, pow_i by lia.
    ring.
Qed.

(** The library's Renyi kind of order [n >= 2] at [U] is [D(n) <= U]. *)
Theorem renyi_nat_iff K p q n U :
  (forall l, (l < K)%nat -> 0 <= p l) -> (forall l, (l < K)%nat -> 0 <= q l) -> sum K p = 1 -> dominated K p q ->
  (2 <= n)%nat -> (div_le (Renyi n) K p q U <-> rdiv K p q (INR n) <= U).
Proof.
  intros Hp Hq Sp Hd Hn.
  assert (Hn1 : 1 < INR n) by (replace 1 with (INR 1) by reflexivity; apply lt_INR; lia).
  pose proof (rsum_pos K p q (INR n) Hp Hq Sp Hd) as HS.
  unfold div_le, dbound, rdiv. rewrite <- (rsum_nat K p q n Hp Hq Hd) by lia.
  set (S := rsum K p q (INR n)) in *.
  assert (E : ln S / (INR n - 1) <= U <-> ln S <= (INR n - 1) * U).
  { split; intro H.
    - apply Rmult_le_compat_r with (r := INR n - 1) in H; [|lra].
      replace (ln S / (INR n - 1) * (INR n - 1)) with (ln S) in H by (field; lra). lra.
    - apply Rmult_le_reg_r with (INR n - 1); [lra|].
      replace (ln S / (INR n - 1) * (INR n - 1)) with (ln S) by (field; lra). lra. }
  rewrite E. split.
  - intros [_ H]. rewrite <- (ln_exp ((INR n - 1) * U)).
    destruct H as [H|H]; [left; apply ln_increasing; [exact HS|exact H]|rewrite H; lra].
  - intro H. split; [exact Hd|]. rewrite <- (exp_ln S) by exact HS. apply exp_le. exact H.
Qed.

(** * A zero-concentrated level [rho] bounds Renyi of order [n] at [rho n] *)
Theorem zcdp_renyi K p q rho n :
  (forall l, (l < K)%nat -> 0 <= p l) -> (forall l, (l < K)%nat -> 0 <= q l) -> sum K p = 1 -> dominated K p q ->
  zcdp_le K p q rho -> (2 <= n)%nat -> div_le (Renyi n) K p q (rho * INR n).
Proof.
  intros Hp Hq Sp Hd Hz Hn. apply (renyi_nat_iff K p q n _ Hp Hq Sp Hd Hn). apply Hz.
  replace 1 with (INR 1) by reflexivity. apply lt_INR. lia.
Qed.

(** * The level is at least [D(b) / b] at every order [b > 1] *)
Theorem zcdp_lower K p q rho b : zcdp_le K p q rho -> 1 < b -> rdiv K p q b / b <= rho.
Proof.
  intros Hz Hb. pose proof (Hz b Hb) as H.
  apply Rmult_le_reg_r with b; [lra|]. replace (rdiv K p q b / b * b) with (rdiv K p q b) by (field; lra). exact H.
Qed.
