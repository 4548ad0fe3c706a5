(** Zero-concentrated privacy between every two records bounds Kullback-Leibler and Renyi privacy between them
    (implgraph's ``divergence-order`` fact ``zcdp-order``; implgraph.certify.zcdp_facts).

    [ZcdpChord.zcdp_pairs_le N K x rho]: every ordered pair of distinct records has [row x i] dominated by [row x j]
    and Renyi divergence of every real order [a > 1] at most [rho a]. On a table (rows nonnegative, summing to 1):

    - [zcdp_kl_pairs]: KL between every two records at most [rho] ([ZcdpOrder.zcdp_kl_div]: KL <= D(a) <= rho a for
      every [a > 1], so KL <= rho, the limit a -> 1);
    - [zcdp_renyi_pairs]: Renyi of a natural order [n >= 2] between every two records at most [rho n]
      ([ZcdpOrder.zcdp_renyi]: the definition at the order n, [rdiv] there being the library's Renyi kind). *)
From Coq Require Import Reals Lra Lia.
From Implgraph Require Import Sums Tables Divergence ZcdpOrder.
From Implgraph Require Export ZcdpChord.
Open Scope R_scope.

Theorem zcdp_kl_pairs N K x rho : table N K x -> zcdp_pairs_le N K x rho -> div_pairs_le KL N K x rho.
Proof.
  intros [Hn Hr] HA i j Hi Hj Hne. destruct (HA i j Hi Hj Hne) as [Hd Hz].
  apply zcdp_kl_div; [intros l Hl; apply Hn; auto | intros l Hl; apply Hn; auto | apply Hr; auto | exact Hd | exact Hz].
Qed.

Theorem zcdp_renyi_pairs N K x rho n :
  table N K x -> zcdp_pairs_le N K x rho -> (2 <= n)%nat -> div_pairs_le (Renyi n) N K x (rho * INR n).
Proof.
  intros [Hn Hr] HA Hn2 i j Hi Hj Hne. destruct (HA i j Hi Hj Hne) as [Hd Hz].
  apply zcdp_renyi; [intros l Hl; apply Hn; auto | intros l Hl; apply Hn; auto | apply Hr; auto | exact Hd | exact Hz
                    | exact Hn2].
Qed.
