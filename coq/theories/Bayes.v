(** The Bayes posterior of sei2019's randomized set channel (Section V-B, eq. 12) and its release of the whole domain
    ([set-channel-whole-domain], sei2019 Table V).

    The channel: a record with value [m] of a domain of [K] values releases a set [Z] of [eta] distinct values with
    probability [kc = p / C(K - 1, eta - 1) + (1 - p) / C(K, eta)] when [m] is in [Z], [kd = (1 - p) / C(K, eta)]
    otherwise ([lik]). An intruder with prior [a] (a distribution over the values) infers from a released set the
    posterior [lik m a_m / sum_m' lik m' a_m'] ([posterior]); a class's [B_j] is the mean of its records' posteriors
    ([class_posterior], sei2019 Definition 15), compared with [a] by the earth mover's distance ([Transport.emd_le],
    a ground distance [dist] >= 0 and 0 on the diagonal, sei2019 Definition 5).

    With [eta = K] every released set is the whole domain, its likelihood [kc = p + (1 - p) = 1] for every value
    ([C(n, n) = 1]), so every posterior is the prior and every class's [B_j] is [a], at distance 0: zero closeness
    ([whole_domain]). *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Events Transport.
Open Scope R_scope.

Definition kc (K eta : nat) (p : R) : R := p / C (K - 1) (eta - 1) + (1 - p) / C K eta.
Definition kd (K eta : nat) (p : R) : R := (1 - p) / C K eta.
Definition lik (K eta : nat) (p : R) (Z : rset) (m : nat) : R := if Z m then kc K eta p else kd K eta p.

Definition posterior (K : nat) (l a : nat -> R) (m : nat) : R := l m * a m / sum K (fun m' => l m' * a m').

(** Record [k] released the set [Z k]; the mean posterior of the class of record [i]. *)
Definition class_posterior (N K eta : nat) (p : R) (a : nat -> R) (Z : nat -> rset) (cls : nat -> nat) (i : nat)
  : nat -> R :=
  fun m => sumS N (classof cls i) (fun k => posterior K (lik K eta p (Z k)) a m) / card N (classof cls i).

(** A prior over [K] values; a ground distance; every record's released set holds [eta] values. *)
Definition prior (K : nat) (a : nat -> R) : Prop := (forall m, (m < K)%nat -> 0 <= a m) /\ sum K a = 1.
Definition ground (K : nat) (dist : nat -> nat -> R) : Prop :=
  (forall i j, (i < K)%nat -> (j < K)%nat -> 0 <= dist i j) /\ (forall i, (i < K)%nat -> dist i i = 0).
Definition releases (N K eta : nat) (Z : nat -> rset) : Prop := forall k, (k < N)%nat -> card K (Z k) = INR eta.

Lemma C_same n : C n n = 1.
Proof.
  unfold C. rewrite Nat.sub_diag. simpl (fact 0). rewrite Rmult_1_r. field.
  apply not_0_INR, fact_neq_0.
Qed.

(** A set of [K] of the [K] values holds every value. *)
Lemma card_full K Z : card K Z = INR K -> forall m, (m < K)%nat -> Z m = true.
Proof.
  intros H m Hm. destruct (Z m) eqn:E; [reflexivity|].
  assert (Hc : compl Z m = true) by (unfold compl; rewrite E; reflexivity).
  pose proof (card_pos K (compl Z) m Hm Hc). rewrite card_compl, H in H0. lra.
Qed.

(** The posterior of a likelihood equal to 1 on every value is the prior. *)
Lemma posterior_one K l a m : prior K a -> (forall m', (m' < K)%nat -> l m' = 1) -> (m < K)%nat ->
  posterior K l a m = a m.
Proof.
  intros [_ Ha] Hl Hm. unfold posterior. rewrite Hl by exact Hm.
  rewrite (sum_ext K _ a) by (intros j Hj; rewrite Hl by exact Hj; ring). rewrite Ha. field.
Qed.

Lemma sumS_ext_on n X f g : (forall k, (k < n)%nat -> X k = true -> f k = g k) -> sumS n X f = sumS n X g.
Proof. intro H. unfold sumS. apply sum_ext. intros k Hk. destruct (X k) eqn:E; [apply H; auto|reflexivity]. Qed.

(** A sum of a value at one index and 0 elsewhere. *)
Lemma sum_at K k (g : nat -> R) : (k < K)%nat -> sum K (fun j => if Nat.eqb j k then g j else 0) = g k.
Proof.
  intro Hk. pose proof (sumS_single K k g Hk) as H. unfold sumS, single in H. rewrite <- H.
  apply sum_ext. intros j _. destruct (Nat.eqb j k); reflexivity.
Qed.

(** The earth mover's distance from [a] to itself is 0 (the diagonal flow). *)
Lemma emd_self K dist a t : prior K a -> ground K dist -> 0 <= t -> emd_le K dist a a t.
Proof.
  intros [Ha0 _] [_ Hd] Ht. exists (fun i j => if Nat.eqb j i then a i else 0). split; [split; [| split] |].
  - intros i j Hi Hj. destruct (Nat.eqb j i); [apply Ha0; exact Hi | lra].
  - intros i Hi. exact (sum_at K i (fun _ => a i) Hi).
  - intros j Hj. rewrite (sum_ext K _ (fun i => if Nat.eqb i j then a i else 0)).
    + exact (sum_at K j a Hj).
    + intros i _. rewrite Nat.eqb_sym. destruct (Nat.eqb j i) eqn:E; [apply Nat.eqb_eq in E; subst |]; reflexivity.
  - unfold cost. rewrite (sum_ext K _ (fun _ => 0)); [rewrite sum_zero; lra |].
    intros i Hi. rewrite (sum_ext K _ (fun j => if Nat.eqb j i then dist i j * a i else 0)).
    + rewrite (sum_at K i (fun j => dist i j * a i) Hi). rewrite Hd by exact Hi. ring.
    + intros j _. destruct (Nat.eqb j i); ring.
Qed.

(** [set-channel-whole-domain] (sei2019 Table V): with [eta = K] (and a channel, [0 <= p <= 1]), every class's
    mean posterior is the prior, at every distance [t >= 0]. *)
Theorem whole_domain N K eta p a dist Z cls t :
  eta = K -> (1 <= K)%nat -> 0 <= p <= 1 -> prior K a -> ground K dist -> releases N K eta Z -> 0 <= t ->
  forall i, (i < N)%nat -> emd_le K dist a (class_posterior N K eta p a Z cls i) t.
Proof.
  intros -> HK Hp Ha Hd HZ Ht i Hi.
  assert (Hl : forall k m, (k < N)%nat -> (m < K)%nat -> lik K K p (Z k) m = 1).
  { intros k m Hk Hm. unfold lik. rewrite (card_full K (Z k) (HZ k Hk) m Hm). unfold kc.
    rewrite !C_same. field. }
  assert (Hc : 1 <= card N (classof cls i)) by (apply class_self_pos; exact Hi).
  destruct (emd_self K dist a t Ha Hd Ht) as [f [Hf Hcost]]. exists f. split; [| exact Hcost].
  destruct Hf as [H0 [Hr Hcol]]. split; [exact H0 | split; [exact Hr |]].
  intros j Hj. rewrite Hcol by exact Hj. unfold class_posterior.
  rewrite (sumS_ext_on N (classof cls i) _ (fun _ => a j)).
  - rewrite sumS_const. field. lra.
  - intros k Hk _. apply posterior_one; [exact Ha | | exact Hj]. intros m Hm. apply Hl; auto.
Qed.
