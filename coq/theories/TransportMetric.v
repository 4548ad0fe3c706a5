(** The earth mover's distance ([Transport.emd_le]) for a ground distance that satisfies the triangle inequality
    ([metric]): the mass two marginals share can be taken off both without raising the optimum ([unshift]), so
    along the segment from [a] to [b] the optimum is homogeneous: a flow from [a] to [(1 - s) a + s b] of cost [C]
    gives one from [a] to [b] of cost [C / s] ([emd_scale_up]). Both ground distances of emd-t-closeness are metrics
    ([emd_ground_metric]): [equal] (1 off the diagonal) and [ordered] ([|i - j| / (K - 1)]).

    The one-value step ([unbump]): a flow [f] from [x + d e_i] to [y + d e_i] loses [d] from row [i] and from column
    [i] in proportion to their entries, and the mass [d f k i f i j / (R Q)] ([R], [Q] the row's and the column's
    sums) goes from [k] to [j] directly instead of through [i]: the rows and columns are then [x] and [y], and the
    cost changes by [d / (R Q) sum_k sum_j f k i f i j (dist k j - dist k i - dist i j) <= 0]. *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Events Transport Bayes.
Open Scope R_scope.

Definition metric (K : nat) (dist : nat -> nat -> R) : Prop :=
  ground K dist /\ forall i j k, (i < K)%nat -> (j < K)%nat -> (k < K)%nat -> dist k j <= dist k i + dist i j.

Definition bump (i : nat) (d : R) (x : nat -> R) : nat -> R := fun m => x m + (if Nat.eqb m i then d else 0).

Lemma emd_le_ext2 K dist a a' b b' t : (forall i, (i < K)%nat -> a i = a' i) ->
  (forall j, (j < K)%nat -> b j = b' j) -> emd_le K dist a b t -> emd_le K dist a' b' t.
Proof.
  intros Ha Hb [f [[H0 [Hr Hc]] Hcost]]. exists f. split; [split; [exact H0 | split] | exact Hcost].
  - intros i Hi. rewrite <- Ha by exact Hi. apply Hr; exact Hi.
  - intros j Hj. rewrite <- Hb by exact Hj. apply Hc; exact Hj.
Qed.

Lemma sum4 n a b c e : sum n (fun j => a j - b j - c j + e j) = sum n a - sum n b - sum n c + sum n e.
Proof. rewrite sum_plus, !sum_minus. reflexivity. Qed.

Lemma sum_if_const n (b : bool) (g : nat -> R) :
  sum n (fun j => if b then g j else 0) = if b then sum n g else 0.
Proof. destruct b; [reflexivity | apply sum_zero]. Qed.

Lemma eta_sum n (h : nat -> R) : sum n h = sum n (fun j => h j).
Proof. reflexivity. Qed.

Lemma sum_mul_r n f c : sum n f * c = sum n (fun j => f j * c).
Proof. rewrite Rmult_comm, <- sum_scal. apply sum_ext. intros; ring. Qed.

Lemma Rdiv_le_0_compat' x y : 0 <= x -> 0 < y -> 0 <= x / y.
Proof. intros. unfold Rdiv. apply Rmult_le_pos; [lra | apply Rlt_le, Rinv_0_lt_compat; lra]. Qed.

Section Unbump.
Variables (K : nat) (dist : nat -> nat -> R) (f : nat -> nat -> R) (i : nat) (d r q : R).
Hypotheses (Hi : (i < K)%nat) (Hd : 0 < d) (Hr : d <= r) (Hq : d <= q).
Hypothesis F0 : forall k j, (k < K)%nat -> (j < K)%nat -> 0 <= f k j.
Hypotheses (Hrow : sum K (fun j => f i j) = r) (Hcol : sum K (fun k => f k i) = q) (Hii : f i i = 0).

(** The rerouted flow (nothing on [(i, i)]): [d] off row [i] and off column [i], the mass through [i] sent
    directly. *)
Definition reroute (k j : nat) : R := f k j - (if Nat.eqb k i then d * f i j / r else 0)
  - (if Nat.eqb j i then d * f k i / q else 0) + d * f k i * f i j / (r * q).

Lemma reroute_nonneg k j : (k < K)%nat -> (j < K)%nat -> 0 <= reroute k j.
Proof.
  intros Hk Hj. unfold reroute. pose proof (F0 k j Hk Hj). pose proof (F0 k i Hk Hi). pose proof (F0 i j Hi Hj).
  assert (M : 0 <= d * f k i * f i j / (r * q)) by (apply Rdiv_le_0_compat'; [| nra]; apply Rmult_le_pos; nra).
  destruct (Nat.eqb_spec k i) as [->|], (Nat.eqb_spec j i) as [->|]; cbv beta iota.
  - rewrite Hii. unfold Rdiv. lra.
  - replace (f i j - d * f i j / r) with (f i j * ((r - d) / r)) by (field; repeat split; lra).
    assert (0 <= f i j * ((r - d) / r)) by (apply Rmult_le_pos; [| apply Rdiv_le_0_compat']; lra). lra.
  - replace (f k i - 0 - d * f k i / q) with (f k i * ((q - d) / q)) by (field; repeat split; lra).
    assert (0 <= f k i * ((q - d) / q)) by (apply Rmult_le_pos; [| apply Rdiv_le_0_compat']; lra). lra.
  - lra.
Qed.

Lemma reroute_row k : (k < K)%nat ->
  sum K (fun j => reroute k j) = sum K (fun j => f k j) - (if Nat.eqb k i then d else 0).
Proof.
  intro Hk. unfold reroute. rewrite sum4, sum_if_const, (sum_at K i (fun _ => d * f k i / q) Hi).
  rewrite (sum_ext K (fun j => d * f k i * f i j / (r * q)) (fun j => (d * f k i / (r * q)) * f i j))
    by (intros; field; lra).
  rewrite (sum_ext K (fun j => d * f i j / r) (fun j => (d / r) * f i j)) by (intros; field; lra).
  rewrite !sum_scal, (eta_sum K (f i)), Hrow, (eta_sum K (f k)). destruct (Nat.eqb k i); field; repeat split; lra.
Qed.

Lemma reroute_col j : (j < K)%nat ->
  sum K (fun k => reroute k j) = sum K (fun k => f k j) - (if Nat.eqb j i then d else 0).
Proof.
  intro Hj. unfold reroute. rewrite sum4, sum_if_const, (sum_at K i (fun _ => d * f i j / r) Hi).
  rewrite (sum_ext K (fun k => d * f k i * f i j / (r * q)) (fun k => (d * f i j / (r * q)) * f k i))
    by (intros; field; lra).
  rewrite (sum_ext K (fun k => d * f k i / q) (fun k => (d / q) * f k i)) by (intros; field; lra).
  rewrite !sum_scal, Hcol. destruct (Nat.eqb j i); field; repeat split; lra.
Qed.

(** Row [k]'s cost after the rerouting. *)
Lemma reroute_row_cost k : (k < K)%nat ->
  sum K (fun j => dist k j * reroute k j) = sum K (fun j => dist k j * f k j)
    - (if Nat.eqb k i then d / r * sum K (fun j => dist i j * f i j) else 0) - d / q * (dist k i * f k i)
    + d / (r * q) * sum K (fun j => dist k j * (f k i * f i j)).
Proof.
  intro Hk. unfold reroute.
  rewrite (sum_ext K _ (fun j => dist k j * f k j - (if Nat.eqb k i then d / r * (dist i j * f i j) else 0)
    - (if Nat.eqb j i then d / q * (dist k i * f k i) else 0) + d / (r * q) * (dist k j * (f k i * f i j)))).
  - rewrite sum4, sum_if_const, (sum_at K i (fun _ => d / q * (dist k i * f k i)) Hi), !sum_scal. reflexivity.
  - intros j _. destruct (Nat.eqb_spec k i) as [->|], (Nat.eqb_spec j i) as [->|]; cbv beta iota; field; repeat split; lra.
Qed.

(** Through [i] or directly: [sum_k sum_j dist k j f k i f i j <= Ci r + q Ri] (the triangle inequality). *)
Lemma through_i : (forall a b c, (a < K)%nat -> (b < K)%nat -> (c < K)%nat -> dist c b <= dist c a + dist a b) ->
  sum K (fun k => sum K (fun j => dist k j * (f k i * f i j)))
  <= sum K (fun k => dist k i * f k i) * r + q * sum K (fun j => dist i j * f i j).
Proof.
  intro Htri. rewrite <- Hrow at 1. rewrite <- Hcol, !sum_mul_r, <- sum_plus. apply sum_le. intros k Hk.
  rewrite <- !sum_scal, <- sum_plus. apply sum_le. intros j Hj. pose proof (Htri i j k Hi Hj Hk).
  pose proof (F0 k i Hk Hi). pose proof (F0 i j Hi Hj). assert (0 <= f k i * f i j) by (apply Rmult_le_pos; lra).
  nra.
Qed.

Lemma reroute_cost : metric K dist -> cost K dist reroute <= cost K dist f.
Proof.
  intros [_ Htri]. unfold cost. rewrite (sum_ext K _ _ reroute_row_cost).
  rewrite sum4, (sum_at K i (fun _ => d / r * sum K (fun j => dist i j * f i j)) Hi), !sum_scal.
  pose proof (through_i Htri) as T. assert (0 <= d / (r * q)) by (apply Rdiv_le_0_compat'; nra).
  apply Rmult_le_compat_l with (r := d / (r * q)) in T; [| assumption].
  replace (d / (r * q) * (sum K (fun k => dist k i * f k i) * r + q * sum K (fun j => dist i j * f i j)))
    with (d / q * sum K (fun k => dist k i * f k i) + d / r * sum K (fun j => dist i j * f i j)) in T
    by (field; repeat split; lra). lra.
Qed.
End Unbump.

(** The one-value step: [min (f i i) d] off the diagonal entry, then the rest rerouted. *)
Lemma unbump K dist x y i d C : metric K dist -> (i < K)%nat -> 0 <= d -> 0 <= x i -> 0 <= y i ->
  emd_le K dist (bump i d x) (bump i d y) C -> emd_le K dist x y C.
Proof.
  intros Hm Hi Hd Hx Hy [f [[F0 [Fr Fc]] Fcost]]. unfold bump in Fr, Fc.
  set (c := Rmin (f i i) d). assert (Hc : 0 <= c <= f i i /\ c <= d).
  { pose proof (F0 i i Hi Hi). unfold c, Rmin. destruct (Rle_dec (f i i) d); lra. }
  set (g := fun k j => f k j - (if Nat.eqb k i then if Nat.eqb j i then c else 0 else 0)).
  assert (G0 : forall k j, (k < K)%nat -> (j < K)%nat -> 0 <= g k j).
  { intros k j Hk Hj. unfold g. pose proof (F0 k j Hk Hj).
    destruct (Nat.eqb_spec k i) as [->|], (Nat.eqb_spec j i) as [->|]; lra. }
  assert (Gr : forall k, (k < K)%nat -> sum K (fun j => g k j) = x k + (if Nat.eqb k i then d - c else 0)).
  { intros k Hk. unfold g. rewrite sum_minus, sum_if_const, (sum_single K i (fun _ => c) Hi), Fr by exact Hk.
    destruct (Nat.eqb k i); ring. }
  assert (Gc : forall j, (j < K)%nat -> sum K (fun k => g k j) = y j + (if Nat.eqb j i then d - c else 0)).
  { intros j Hj. unfold g. rewrite sum_minus, (sum_single K i (fun _ => if Nat.eqb j i then c else 0) Hi), Fc
      by exact Hj. destruct (Nat.eqb j i); ring. }
  assert (Gcost : cost K dist g <= C).
  { unfold cost, g. rewrite (sum_ext K _ (fun k => sum K (fun j => dist k j * f k j)
      - (if Nat.eqb k i then dist i i * c else 0))).
    - rewrite sum_minus, (sum_single K i (fun _ => dist i i * c) Hi). destruct Hm as [[_ Hdi] _].
      rewrite Hdi by exact Hi. unfold cost in Fcost. lra.
    - intros k _. destruct (Nat.eqb_spec k i) as [->|]; cbv beta iota.
      + rewrite (sum_ext K _ (fun j => dist i j * f i j - (if Nat.eqb j i then dist i j * c else 0)))
          by (intros j _; destruct (Nat.eqb_spec j i); ring).
        rewrite sum_minus, (sum_single K i (fun j => dist i j * c) Hi). reflexivity.
      + rewrite (sum_ext K _ (fun j => dist k j * f k j)) by (intros; ring). ring. }
  destruct (Req_dec c d) as [E|E].
  - exists g. split; [split; [exact G0 | split] | exact Gcost].
    + intros k Hk. rewrite Gr by exact Hk. rewrite E. destruct (Nat.eqb k i); ring.
    + intros j Hj. rewrite Gc by exact Hj. rewrite E. destruct (Nat.eqb j i); ring.
  - assert (Hii : g i i = 0).
    { unfold g. rewrite Nat.eqb_refl. unfold c, Rmin in *. destruct (Rle_dec (f i i) d); [ring | lra]. }
    assert (Hd' : 0 < d - c) by lra. pose proof (Gr i Hi) as Ri. pose proof (Gc i Hi) as Ci.
    rewrite Nat.eqb_refl in Ri, Ci.
    exists (reroute g i (d - c) (x i + (d - c)) (y i + (d - c))). split; [split; [| split] |].
    + intros k j Hk Hj. apply (reroute_nonneg K); try assumption; lra.
    + intros k Hk. rewrite (reroute_row K) by (assumption || lra). rewrite Gr by exact Hk.
      destruct (Nat.eqb k i); ring.
    + intros j Hj. rewrite (reroute_col K) by (assumption || lra). rewrite Gc by exact Hj.
      destruct (Nat.eqb j i); ring.
    + eapply Rle_trans; [apply (reroute_cost K) | exact Gcost]; assumption || lra.
Qed.

Definition upto (n : nat) (z : nat -> R) : nat -> R := fun m => if Nat.ltb m n then z m else 0.

(** Mass [z] shared by both marginals comes off both, one value at a time. *)
Lemma unshift K dist x y z C : metric K dist -> (forall m, (m < K)%nat -> 0 <= x m /\ 0 <= y m /\ 0 <= z m) ->
  emd_le K dist (fun m => x m + z m) (fun m => y m + z m) C -> emd_le K dist x y C.
Proof.
  intros Hm Hxyz H.
  assert (P : forall n, (n <= K)%nat -> emd_le K dist (fun m => x m + upto n z m) (fun m => y m + upto n z m) C ->
              emd_le K dist x y C).
  { induction n as [|n IH]; intros Hn Hn'.
    - refine (emd_le_ext2 K dist _ _ _ _ C _ _ Hn'); intros j _; unfold upto; simpl; ring.
    - apply IH; [lia |]. destruct (Hxyz n ltac:(lia)) as [Hx [Hy Hz]].
      apply (unbump K dist (fun m => x m + upto n z m) (fun m => y m + upto n z m) n (z n) C Hm ltac:(lia) Hz);
        [unfold upto; rewrite Nat.ltb_irrefl; lra .. |].
      refine (emd_le_ext2 K dist _ _ _ _ C _ _ Hn'); intros j _; unfold bump, upto;
        destruct (Nat.ltb_spec j (S n)), (Nat.ltb_spec j n), (Nat.eqb_spec j n); try lia; subst; ring. }
  apply (P K (le_n K)). refine (emd_le_ext2 K dist _ _ _ _ C _ _ H); intros j Hj; unfold upto;
    destruct (Nat.ltb_spec j K); try lia; ring.
Qed.

Lemma emd_div K dist a b s C : 0 < s -> emd_le K dist (fun m => s * a m) (fun m => s * b m) C ->
  emd_le K dist a b (C / s).
Proof.
  intros Hs [g [[G0 [Gr Gc]] Gcost]]. exists (fun i j => g i j / s). split; [split; [| split] |].
  - intros i j Hi Hj. apply Rdiv_le_0_compat'; [apply G0 | ]; assumption.
  - intros i Hi. rewrite sum_div, (eta_sum K (g i)), Gr by exact Hi. field. lra.
  - intros j Hj. rewrite sum_div, Gc by exact Hj. field. lra.
  - unfold cost in *. rewrite (sum_ext K _ (fun i => sum K (fun j => dist i j * g i j) / s)).
    + rewrite sum_div. unfold Rdiv. apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat; lra | exact Gcost].
    + intros i _. rewrite <- sum_div. apply sum_ext. intros; unfold Rdiv; ring.
Qed.

(** Homogeneity along the segment: a flow from [a] to [(1 - s) a + s b] of cost [C] gives one to [b] of cost
    [C / s] (the shared [(1 - s) a] off both marginals, then the flow divided by [s]). *)
Theorem emd_scale_up K dist a b s C : metric K dist -> (forall m, (m < K)%nat -> 0 <= a m /\ 0 <= b m) ->
  0 < s <= 1 -> emd_le K dist a (fun j => (1 - s) * a j + s * b j) C -> emd_le K dist a b (C / s).
Proof.
  intros Hm Hab Hs H. apply emd_div; [lra |].
  apply (unshift K dist _ _ (fun m => (1 - s) * a m) C Hm).
  - intros m Hm'. destruct (Hab m Hm'). repeat split; nra.
  - refine (emd_le_ext2 K dist _ _ _ _ C _ _ H); intros; ring.
Qed.

(** emd-t-closeness's ground distances: [equal] and [ordered] ([|i - j| / (K - 1)] over [K] values). *)
Definition equal_ground (i j : nat) : R := if Nat.eqb i j then 0 else 1.
Definition ordered_ground (K : nat) (i j : nat) : R := Rabs (INR i - INR j) / INR (K - 1).
Definition emd_ground (K : nat) (dist : nat -> nat -> R) : Prop := dist = equal_ground \/ dist = ordered_ground K.

Lemma metric_equal K : metric K equal_ground.
Proof.
  unfold equal_ground. split; [split |].
  - intros i j _ _. destruct (Nat.eqb i j); lra.
  - intros i _. rewrite Nat.eqb_refl. reflexivity.
  - intros i j k _ _ _. destruct (Nat.eqb_spec k j), (Nat.eqb_spec k i), (Nat.eqb_spec i j);
      first [lra | exfalso; lia].
Qed.

Lemma metric_ordered K : metric K (ordered_ground K).
Proof.
  unfold ordered_ground. destruct (le_lt_dec K 1) as [HK|HK].
  - assert (Z : forall i j, (i < K)%nat -> (j < K)%nat -> Rabs (INR i - INR j) / INR (K - 1) = 0).
    { intros i j Hi Hj. replace i with 0%nat by lia. replace j with 0%nat by lia.
      rewrite Rminus_diag_eq, Rabs_R0 by reflexivity. unfold Rdiv. ring. }
    split; [split |]; intros; rewrite ?Z by assumption; lra.
  - assert (HK' : 0 < INR (K - 1)) by (apply lt_0_INR; lia).
    split; [split |].
    + intros i j _ _. apply Rdiv_le_0_compat'; [apply Rabs_pos | exact HK'].
    + intros i _. rewrite Rminus_diag_eq, Rabs_R0 by reflexivity. unfold Rdiv. ring.
    + intros i j k _ _ _. unfold Rdiv. rewrite <- Rmult_plus_distr_r.
      apply Rmult_le_compat_r; [apply Rlt_le, Rinv_0_lt_compat; exact HK' |].
      replace (INR k - INR j) with ((INR k - INR i) + (INR i - INR j)) by ring. apply Rabs_triang.
Qed.

Lemma emd_ground_metric K dist : emd_ground K dist -> metric K dist.
Proof. intros [-> | ->]; [apply metric_equal | apply metric_ordered]. Qed.
