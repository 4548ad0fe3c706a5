"""Coq proofs of ``divergence-ceiling`` certificates: B KL or Renyi of order 2 of each class against the table, every
class of at least s records (s A's level, A's declared minimum class size, or the partition's): the chord on
[0, N/s] (the helpers of :mod:`implgraph.kernel_coq.chord_steps`)."""

from __future__ import annotations

from implgraph.kernel_coq import adapter
from implgraph.kernel_coq.chord_steps import _ineq, _value0
from implgraph.kernel_coq.gen_chord import MODULES as _CHORD_MODULES
from implgraph.kernel_coq.obligations import _need
from implgraph.kernel_coq.statement import divergence_kind

__all__ = ["divergence_ceiling", "METHODS", "MODULES"]

#: the library modules the theorems load (FloorAbove: a class floor above A's weakest level)
MODULES = _CHORD_MODULES + ("FloorAbove",)


def divergence_ceiling(f):
    """Proof lines of a ``divergence-ceiling`` certificate: B KL or Renyi of order 2 of each class against the
    table, every class of >= s records: a class of >= s records holds at most the table's mass, so its ratio to the
    table is at most N/s (``size_upper``), and the chord on [0, N/s] is log(N/s) (``chord_class_upper``). The
    classes' least size s is A's level T (A the smallest class's size, ``class_size``), A's parameter that its
    registered definition declares a minimum class size (``class_floor``: ``min_class_level``, then
    ``class_size_floor``), A's parameter declared a minimum class size above A's weakest level where the domain
    puts T above it (``floor_above_level``, :mod:`implgraph.kernel_coq.gen_floor_above`), or else the partition's
    declared minimum, whatever A is."""
    cert = f.cert
    data = cert.raw.get("upper_certificate") or {}
    div = adapter.divergence_side(cert.B)
    _need(div is not None and div.compares == "class", "a divergence-ceiling certificate other than against a class "
          "divergence")
    k = divergence_kind(f.tr, div)
    _need(k is not None and (div.kind == "kl" or (div.kind == "renyi" and str(div.order) == "2")),
          f"a divergence ceiling of {div.kind} (the library has KL and Renyi of order 2)")
    if data.get("class_floor_above_weakest") is not None:
        # A's parameter, a minimum class size above A's weakest level (MinClassSizeAboveWeakest): classes of >= k
        # records where the domain puts T above the weakest (gen_floor_above)
        from implgraph.kernel_coq.gen_floor_above import floor_above
        _, sizes = floor_above(f)
        size = str(cert.A.params.get(data["class_floor_above_weakest"]))
    elif data.get("class_size"):
        # A the smallest class's size: classes of >= T records
        _need(cert.A.class_size_level and f.a is not None, "a class-size ceiling whose A is not a class size")
        size, sizes = "T", "HA"
    elif data.get("class_floor") is not None:
        # A's parameter, declared a minimum class size (min_class_level): classes of >= k records
        _need(f.a is not None and f.a.startswith("min_class_level") and cert.A.min_class_param is not None,
              "a class floor that A's registered definition does not declare a minimum class size")
        size = str(cert.A.params.get(cert.A.min_class_param))
        sizes = f"(class_size_floor N cls ({f.tr.expr(size)}) Arest HA)"
    else:
        # whatever A is: every class has >= s records, s the partition's declared minimum (its hypothesis)
        size = str(cert.B.min_class or "1")
        sizes = f"(proj1 P{f.part_index(cert.B.min_class)})"
    s, hi = f.tr.expr(size), f"N/({size})"
    lines = [f"assert (HT : 0 < {s}) by lra."] + _ineq(f, "0", hi, "HT0", strict=True) + _ineq(f, hi, hi, "Hhi")
    value, below = _value0(f, div, k, hi, cert.upper)
    return lines + value + [f"exact (chord_class_upper {k} N K x cls ({f.tr.expr(hi)}) ({f.tr.expr(hi)}) ({f.upper}) "
                            f"Htab (size_upper N K x cls ({s}) Htab {sizes} HT) HT0 Hhi {below} Hval)."]


METHODS = {"divergence-ceiling": divergence_ceiling}
