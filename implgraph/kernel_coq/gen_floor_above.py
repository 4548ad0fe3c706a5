"""A's class floor above its weakest level only (``MinClassSizeAboveWeakest``, p-sensitive k-anonymity's k): B's
ceiling with s = k, where the certificate's domain puts A's level T above the weakest.

A is stated as the library's ``FloorAbove.floor_above_level N cls k w T Arest``: "the level is at least T" says,
where T is stronger than the weakest level w, that every class has at least k records (and ``Arest``, the rest of
the definition, whatever it is): on a table with a smaller class the level is w, below T. ``class_size_floor_above``
then gives the classes' floor, ``w < T`` shown by ``lra`` on the domain (an edited domain or floor makes ``coqc``
reject the file), and B's ceiling follows as for a declared minimum class size: ``Mass.set_mass_class`` (a one-sided
class ratio at most N/k, ``one-sided-ceiling``) or ``Divergence.size_upper`` and the chord (a class divergence at
most log(N/k), :mod:`implgraph.kernel_coq.gen_divergence_ceiling`).
"""

from __future__ import annotations

import sympy

from implgraph.kernel_coq import adapter
from implgraph.kernel_coq.methods import _set_mass
from implgraph.kernel_coq.obligations import _need, _u_is

__all__ = ["floor_above", "one_sided_ceiling", "METHODS", "MODULES"]

MODULES = ("FloorAbove",)


def floor_data(cert):
    """A's parameter declared a minimum class size above the weakest level, as the certificate names it, or None."""
    return (cert.raw.get("upper_certificate") or {}).get("class_floor_above_weakest")


def floor_above(f):
    """``(k, sizes)``: A's floor k (Coq text) and a term proving ``class_size_ge N cls k``; states A as
    ``floor_above_level`` in ``f``'s theorem (its hypothesis ``HA``, with the binder ``Arest``)."""
    from implgraph.definitions.capabilities import MinClassSizeAboveWeakest
    cert, tr = f.cert, f.tr
    param = floor_data(cert)
    d = adapter.registered(cert.A.definition) if cert.A.definition else None
    declared = None if d is None else d.declared(MinClassSizeAboveWeakest)
    _need(declared is not None and declared.param == str(param) and cert.A.params.get(declared.param) is not None,
          "a class floor above the weakest level that A's registered definition does not declare")
    _need(d.stronger == "larger" and not d.level_scale.weakest_depends_on_N,
          "a class floor above a weakest level that is not one number where larger is stronger")
    w = sympy.nsimplify(d.raw_from_level(d.weakest()))
    _need(w.is_Rational, "a weakest level that is not a rational number")
    k = tr.expr(str(cert.A.params[declared.param]))
    t = tr.name("T")
    f.a = f"floor_above_level N cls ({k}) ({tr.expr(str(w))}) ({t}) Arest"
    f.extra_binders = " (Arest : Prop)"
    return k, f"(class_size_floor_above N cls ({k}) ({tr.expr(str(w))}) {t} Arest ltac:(lra) HA)"


def one_sided_ceiling(f):
    """``one-sided-ceiling`` (``set-mass``): where A's floor holds above its weakest level only, a one-sided class
    ratio at most N/k on every table where A's level is above the weakest; otherwise the generator's own."""
    if floor_data(f.cert) is None:
        return _set_mass(f)
    B = f.cert.B
    _need(B.family == "class" and B.sides == "OneSided", "set-mass above the weakest level needs B one-sided classes")
    k, sizes = floor_above(f)
    return _u_is(f, f"INR N / ({k})") + [f"apply (set_mass_class N K x cls ({k})); [exact Htab | lra | exact {sizes}]."]


METHODS = {"one-sided-ceiling": one_sided_ceiling}
