"""Coq proofs of ``chi-square-tv`` certificates: a Renyi level of order 2 bounds the total variation (the math in
:mod:`implgraph.certify.lemmas.chi_square_tv`).

- **pairs** (A Renyi of order 2 between every two records, both ways; B the total variation between two records,
  stated as its additive slack on every event, exactly its level): the library's ``ChiSquare.chi_pairs_slack`` gives
  the slack ``chi_g T`` = sqrt(exp(T) - 1)/sqrt(exp(T) + 3); U equals it by ``field`` (square roots read as atoms,
  ``Pinsker.nz_atoms``): an edited number in U fails there;
- **removal** (B the total variation between the table and the table without each record, both ways, as its slack):
  that slack between records, then ``RemovalScaling.removal_scaling`` (ratio 1): the slack ``chi_g T / N`` on
  removal; U equals it by ``field``;
- **class** (A each class against the table, one way; B a class's total variation distance ``tv_le``):
  ``ChiSquareTV.chi_class_tv`` gives every U at least min(min(sqrt(exp T - 1)/2, max(1/2, 1 - exp(-T))), (N - s)/N);
  U's ``Min`` and ``Max`` are unfolded and each case closed by ``lra`` (square roots and exponentials as atoms): a U
  below the lemma's minimum at some point fails there.

Not covered (:class:`Untranslatable`): another case than the certificate's data names, A other than Renyi of order 2.
"""

from __future__ import annotations

from implgraph.kernel_coq import adapter
from implgraph.kernel_coq.obligations import _need

__all__ = ["chi_square_tv", "METHODS", "MODULES"]

#: the library modules the proofs use
MODULES = ("Divergence", "Pinsker", "ChiSquare", "Slack", "RemovalScaling", "ChiSquareTV")

_CASE_MINMAX = ("unfold Rmin, Rmax; repeat match goal with |- context [Rle_dec ?a ?b] => destruct (Rle_dec a b) end; "
                "lra.")


def _case(f):
    cert = f.cert
    case = (cert.raw.get("upper_certificate") or {}).get("case")
    div = adapter.divergence_side(cert.A)
    _need(div is not None and div.kind == "renyi" and str(div.order) == "2",
          "a chi-square-tv certificate whose A is not Renyi of order 2")
    _need(cert.upper is not None, "a chi-square-tv certificate without U")
    if case in ("pairs", "removal"):
        div_b = adapter.divergence_side(cert.B)
        _need(div.compares == "pairs" and div_b is not None and div_b.kind == "tv" and div_b.compares == case
              and (f.b or "").startswith("slack_"),
              "a chi-square-tv certificate between records whose B is not the total variation stated as its slack")
        return case
    B = cert.B
    _need(case == "class" and div.compares == "class" and B.distance == "total-variation" and B.family == "class"
          and B.max_class is None, "a chi-square-tv certificate of another case than a class against the table")
    return case


def chi_square_tv(f):
    """Proof lines of a ``chi-square-tv`` certificate (module notes)."""
    case = _case(f)
    u = f.tr.expr(f.cert.upper)
    if case == "pairs":
        return ["pose proof (chi_pairs_slack N K x T ltac:(lra) Htab HA) as HS.",
                f"replace ({u}) with (chi_g T) by (unfold chi_g; field; nz_atoms).", "exact HS."]
    if case == "removal":
        return ["pose proof (chi_pairs_slack N K x T ltac:(lra) Htab HA) as HS.",
                "pose proof (removal_scaling N K x (chi_g T) 1 1 Htab ltac:(lra) (Rle_refl 1) (Rle_refl 1) HS) as HR.",
                f"replace ({u}) with (chi_g T / INR N) by (unfold chi_g; field; nz_atoms).", "exact HR."]
    B = f.cert.B
    s = f.tr.expr(B.min_class or "1")
    part = f.part_index(B.min_class)
    return [f"apply (chi_class_tv N K x cls ({s}) T); [exact Htab | exact P{part} | lra | lra | exact HA |].",
            _CASE_MINMAX]


#: certificate method -> proof lines (leaf methods of the generator)
METHODS = {"chi-square-tv": chi_square_tv}
