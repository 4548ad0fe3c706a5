"""The lemma ``set-mass`` (method ``one-sided-ceiling``): a set holds at most the whole table's mass.

B a one-sided ratio of averages (``sides: one-sided``) over classes of >= s records
(``B["min_class"]``) or over sets of s records (``B["size"]``), whatever A is: per bucket with
mean m = 1 (ratios are scale free; a bucket that is 0 everywhere has ratio 1 <= U), a set S of
e >= s records sums to L <= N (the other values are >= 0), so mean_S / m = L / e <= N / s = U
(checked as a quotient). *mass* ``N e - s L >= 0`` (multipliers on ``e - s >= 0`` and
``N - L >= 0``), *empty bucket* ``N - s >= 0`` (U >= 1; the domain has 1 <= s <= N, where a set
of s records exists). Where the certificate says ``class_floor_above_weakest`` (a parameter's name), s is A's
parameter: A's registered definition declares it a minimum class size above its weakest level
(``MinClassSizeAboveWeakest``), both sides are on any partition and the domain states T strictly stronger than A's
weakest level, so every table meeting T has classes of >= s records (B a class level).

Every partition: the obligations are about one set against the whole table, never another class, so they hold on a
table of one class too (the class is the table, ratio 1 <= N/s where s <= N; a floor from A holds of that class as of
every class): the lemma declares ``every_partition``, and a certificate may claim every partition (``min_classes`` 1)
or partitions into >= 2 classes (2, a weaker claim).
"""

from __future__ import annotations

from implgraph.certify.lemmas import lemma
from implgraph.certify.obligation import Obligation, existence, multipliers, size, upper_is
from implgraph.core import methods


def _floor_name(cert):
    """A's parameter the certificate says is a minimum class size above A's weakest level, or None."""
    return (cert.get("upper_certificate") or {}).get("class_floor_above_weakest")


def _set_size(B, rd, cert=None):
    """s of ``set-mass``: B's minimum class size or its subset size; A's parameter where the certificate says
    ``class_floor_above_weakest`` (checked by the structure)."""
    name = None if cert is None else _floor_name(cert)
    if name is not None and B["family"] == "class":
        value = ((cert.get("A") or {}).get("params") or {}).get(name)
        return None if value is None else rd.poly(str(value))
    return rd.poly(B.get("min_class") or "1") if B["family"] == "class" else size(B, rd)


def _set_mass_structure(cert, A, B, rd):
    """The shape of ``set-mass``: B one-sided over classes or subsets, U = N / s."""
    N = rd.gens["N"]
    s = _set_size(B, rd, cert) if B.get("family") in ("class", "subset") else None
    upper_ok = s is not None and upper_is(cert, rd, N, s)
    floor = []
    if _floor_name(cert) is not None:
        from implgraph.certify.lemmas.divergence_ceiling import floor_above_weakest_steps
        floor = [(what, ok and B.get("family") == "class") for what, ok, _ in
                 floor_above_weakest_steps(cert, B, _floor_name(cert))[0]]
    return [("B is a one-sided class or subset level", B.get("family") in ("class", "subset")
             and B.get("sides") == "one-sided" and s is not None),
            ("U = N / s", upper_ok)] + floor


def _set_mass(cert, A, B, rd, data):
    """The obligations of ``set-mass`` (see the module notes)."""
    return _set_mass_of(_set_size(B, rd, cert), rd, data, 1)


def _set_mass_of(s, rd, data, sets):
    """``set-mass``'s obligations for sets of >= s records, with room for ``sets`` of them on the domain."""
    g = rd.gens
    N, L, e = g["N"], g["a_"], g["e_"]
    mults = multipliers(data, rd)
    exists = [(">=", s - 1), (">=", N - sets * s)]
    facts = {"e - s >= 0": e - s, "N - L >= 0": N - L}
    hyps = exists + [(">=", L)] + [(">=", f) for f in facts.values()]
    return existence(s, N, sets) + [
        Obligation("mass: e > 0 (a set of >= s >= 1 records)", e, exists + [(">=", e - s)], strict=True),
        Obligation("mass: N*e - s*L >= 0 (mean_S / m = L / e <= N / s)", N * e - s * L, hyps, facts=facts,
                   multipliers=mults.get("mass")),
        Obligation("empty bucket: N - s >= 0 (ratio 1 <= U)", N - s, exists)]


lemma(methods.ONE_SIDED_CEILING, structure=_set_mass_structure, obligations=_set_mass,
      every_partition="a set of records holds at most the table's mass on every table, whatever its classes (a table "
                      "of one class has its class at ratio 1 <= N/s)")
