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
