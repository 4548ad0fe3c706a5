"""``intruder-views``: a two-sided class level bounds the privacy of the intruder's view of one individual.

domingo-ferrer2015's Proposition 3 is about ``k_I(D)``, the view on individual I's confidential value given the
data set D, under the views model t-closeness's assumptions give (the certificate's ``B["model"]`` must be
:data:`MODEL`): the view is the whole table's distribution P when I is not in D and the distribution of I's class
when I is in D; the data sets compared share P (it is public).

**Lemma** (trusted, as the kernel's lemmas). For data sets D1, D2 whose A level is at most T (A a two-sided class
level: on every bucket every class value c has ``c <= T P`` and ``P <= T c``), ``k_I`` is R-private (``Pr(k_I(D1) in
S) <= R Pr(k_I(D2) in S)`` for every set S of values) when on every bucket the view's probability x under D1 and y
under D2 have ``x <= R y``: a ratio bound on single values bounds every set (a sum of numerators over the sum of their
denominators, each ratio <= R, is <= R). Each of x, y is P or a class value: with v, w the class values of I in D1
and D2 and P the table's (the variables ``v_``, ``w_``, ``P_``), A gives the facts ``T*P_ - v_``, ``T*v_ - P_``,
``T*P_ - w_``, ``T*w_ - P_``, ``P_``, ``v_``, ``w_``, ``T - 1`` (a two-sided ratio is at least 1), each >= 0.

**Obligations.** For U = the certificate's ``upper`` (a polynomial) and each case (x, y) of ``P/P``, ``P/w``, ``v/P``,
``v/w``: ``U y - x = sum(multiplier * fact)`` identically, with the certificate's multipliers
(``upper_certificate["multipliers"][case]``), each >= 0 on the domain. Then B's raw level (e^eps) is at most U.

**Tightness** (``tight``): a table of blocks of binary rows (``value`` on the first bucket, 1 - value on the second;
``class``), on the certificate's domain and the family's own ``domain``, each of whose conditions is a lower bound on
N (``c N + h >= 0``, c > 0 a number, h free of N: every T has such N). Its counts are integers (integer coefficients,
integer symbols), >= 0, summing to N, its values in [0, 1]; with P the table's mean and each class's value its blocks'
mean, every class is within [P/T, T P] on both buckets (so A <= T; each an obligation for every point of the domain),
and for the two classes E, F of ``attained`` (``{"classes": [E, F], "bucket": 1 | 2}``) E / F on that bucket is U
identically: the table read twice (I in E for D1, in F for D2) has B = U. A's level of the table is also computed
exactly (:mod:`implgraph.certify.levels`) at the sampled points, at most T.
"""

from __future__ import annotations

from fractions import Fraction

from implgraph.certify.expr import Unreadable
from implgraph.certify.lemmas import lemma
from implgraph.certify.lemmas.proof import Proof
from implgraph.certify.report import CertificateReport
from implgraph.certify.size import MAX_OBLIGATIONS
from implgraph.core import methods

__all__ = ["check", "MODEL", "FACTS", "CASES", "B_DEFINITION"]

#: the definition of the view's privacy the lemma bounds: k_I is eps-DP with e^eps = R (its raw level)
B_DEFINITION = "dp"
#: the views model of the lemma
MODEL = {"prior": "whole-table", "posterior": "class", "same_prior": True}
#: the lemma's variables: the table's value P, I's class value in D1 (v) and in D2 (w), on one bucket
VARIABLES = {"P_": "real", "v_": "real", "w_": "real"}
#: A's facts on one bucket (each >= 0), by the names multipliers refer to
FACTS = ("T*P_ - v_", "T*v_ - P_", "T*P_ - w_", "T*w_ - P_", "P_", "v_", "w_", "T - 1")
#: the compared views ``(x under D1, y under D2)`` by case name
CASES = {"P/P": ("P_", "P_"), "P/w": ("P_", "w_"), "v/P": ("v_", "P_"), "v/w": ("v_", "w_")}


def _describe(cert):
    fam = cert.get("tightness") or {}
    out = [f"  domain: {', '.join(cert.get('domain') or [])}",
           f"  U = {cert.get('upper')}: the view's ratio on two data sets whose A raw level is <= T, under the model "
           f"{cert.get('B', {}).get('model')}"]
    for case, mult in ((cert.get("upper_certificate") or {}).get("multipliers") or {}).items():
        x, y = CASES.get(case, ("?", "?"))
        out.append(f"  {case}: U*{y} - {x} = " + " + ".join(f"({m})*({k})" for k, m in mult.items()))
    for b in fam.get("blocks") or []:
        out.append(f"  family: {b.get('count')} rows [x, 1 - x] in class {b.get('class')}, x = {b.get('value')}")
    if fam.get("domain"):
        out.append(f"  family where: {' and '.join(fam['domain'])}; attained by {fam.get('attained')}")
    return out


@lemma(methods.INTRUDER_VIEWS, describe=_describe, b_side=lambda cert, side, st: b_side(cert, side, st),
       every_partition="the views bound each class against the whole table only")
def check(cert, ns=range(2, 13), timeout_ms=4000):
    """Re-check an ``intruder-views`` certificate (module notes): a :class:`~implgraph.certify.report.CertificateReport`."""
    from implgraph.certify import UNREADABLE
    from implgraph.certify.registered import registered_steps
    too_large = _too_large(cert)
    if too_large:
        return CertificateReport(False, [("certificate size", False, too_large)])
    pf = Proof(cert, VARIABLES, timeout_ms)
    try:
        A, B = cert["A"], cert["B"]
        for step in registered_steps({**cert, "B": {}}):
            pf.add(*step)
        pf.add("A is a two-sided class level", A.get("family") == "class" and A.get("sides") == "two-sided"
               and A.get("max_class") is None, f"family {A.get('family')}, sides {A.get('sides')}")
        pf.add("B is the privacy of the intruder's view k_I under the lemma's model",
               B.get("view") == "k_I" and B.get("model") == MODEL, f"view {B.get('view')}, model {B.get('model')}")
        _upper(pf, cert)
        if cert.get("tight"):
            _tightness(cert, ns, timeout_ms, pf)
    except UNREADABLE as exc:
        pf.add("certificate readable", False, f"{exc.__class__.__name__}: {exc}")
    return pf.report()


def _too_large(cert) -> str:
    """Why the certificate needs more than :data:`MAX_OBLIGATIONS` signs proved, counted before any is (each multiplier,
    three per block, five per class), or ''."""
    try:
        blocks = list((cert.get("tightness") or {}).get("blocks") or []) if cert.get("tight") else []
        needed = sum(len(m) for m in dict((cert.get("upper_certificate") or {}).get("multipliers") or {}).values()) \
            + 3 * len(blocks) + 5 * len({str(b.get("class")) for b in blocks})
    except (TypeError, AttributeError, ValueError):
        return ""       # (unreadable: the steps say so)
    return "" if needed <= MAX_OBLIGATIONS else \
        f"too large: {len(blocks)} blocks and the multipliers need {needed} obligations (at most {MAX_OBLIGATIONS})"


def _upper(pf, cert):
    rd = pf.rd
    U = rd.poly(cert["upper"])
    facts = {name: (">=", rd.poly(name)) for name in FACTS}
    hyps = list(facts.values())
    mults = (cert.get("upper_certificate") or {}).get("multipliers") or {}
    for case, (x, y) in CASES.items():
        pf.combination(f"{case}: U*{y} - {x} >= 0 (the view under D1 at most U times the view under D2)",
                       U * rd.poly(y) - rd.poly(x), facts, mults.get(case), hyps)


def _lower_bound_on_n(rd, text) -> bool:
    """Is ``text`` a relation ``c N + h >= 0`` (or ``>``) with c > 0 a number and h free of N?"""
    op, g = rd.relation_poly(text)
    N = rd.gens["N"]
    return op in (">=", ">") and g.degree(N) == 1 and g.diff(N).is_ground and g.diff(N).LC > 0


def _tightness(cert, ns, timeout_ms, pf):
    from implgraph.certify.obligation import integer_valued as _integer_valued
    fam = cert.get("tightness") or {}
    blocks, own = fam.get("blocks") or [], list(fam.get("domain") or [])
    attained = fam.get("attained") or {}
    on = Proof(cert, VARIABLES, timeout_ms, extra_domain=own, budget=pf.budget)
    rd = on.rd
    on.add("the family's own domain is a lower bound on N (every T has such N)",
           all(_lower_bound_on_n(rd, c) for c in own), " and ".join(own) or "none")
    counts, values = [b["count"] for b in blocks], [b["value"] for b in blocks]
    on.add("the blocks' counts are integers", _integer_valued([rd.poly(c) for c in counts], cert.get("symbols") or {}))
    on.identical("the blocks' counts sum to N", " + ".join(f"({c})" for c in counts) or "0", "N")
    for i, (c, v) in enumerate(zip(counts, values), 1):
        on.nonnegative(f"block {i}: count >= 0", c)
        on.nonnegative(f"block {i}: value >= 0", v)
        on.nonnegative(f"block {i}: value <= 1", f"1 - ({v})")
    P = "(" + " + ".join(f"({c})*({v})" for c, v in zip(counts, values)) + ")/N"
    classes = {}
    for b in blocks:
        classes.setdefault(b.get("class"), []).append(b)
    value = {}
    for label, members in classes.items():
        size = " + ".join(f"({b['count']})" for b in members)
        value[label] = "(" + " + ".join(f"({b['count']})*({b['value']})" for b in members) + f")/({size})"
        on.nonnegative(f"class {label} has a record", size, strict=True)
        for bucket, (x, p) in {1: (value[label], P), 2: (f"1 - {value[label]}", f"1 - {P}")}.items():
            on.nonnegative(f"class {label}, bucket {bucket}: class <= T * table", f"T*({p}) - ({x})")
            on.nonnegative(f"class {label}, bucket {bucket}: table <= T * class", f"T*({x}) - ({p})")
    pair, bucket = attained.get("classes") or [], attained.get("bucket")
    if len(pair) != 2 or any(c not in value for c in pair) or bucket not in (1, 2):
        on.add("the attaining pair of classes is the family's", False, f"attained: {attained}")
    else:
        x, y = (value[c] if bucket == 1 else f"1 - {value[c]}" for c in pair)
        on.identical(f"class {pair[0]} / class {pair[1]} on bucket {bucket} is U (the table read twice)",
                     f"({x})/({y})", cert["upper"])
    _sampled_levels(cert, on, ns)
    ok = all(s[1] for s in on.steps)
    failures = [f"{w}: {h}" for w, good, h in on.steps if not good]
    failed = "; ".join(failures[:3]) + (f"; and {len(failures) - 3} more" if len(failures) > 3 else "") \
        or f"{len(on.steps)} steps, each exact or proved"
    pf.add("tightness family attains U" + (f" where {' and '.join(own)}" if own else ""), ok, failed)


def _sampled_levels(cert, on, ns):
    """A's level of the family, computed exactly from the definitions' declarations at sampled points, is <= T."""
    from implgraph.certify.levels import INF, blocks_table, level
    fam = cert["tightness"]
    rd = on.rd
    parsed = [(rd.function(b["count"]), rd.function(b["value"]), b.get("class")) for b in fam["blocks"]]
    checked = 0
    for env in on.points():
        if env.get("N") not in ns:
            continue
        try:
            evald = [(int(c(env)), v(env), label) for c, v, label in parsed]
            a = level(cert["A"], blocks_table([(c, None if c == 0 else Fraction(v), lb) for c, v, lb in evald]))
        except (ValueError, ZeroDivisionError, TypeError, Unreadable) as exc:
            on.add("the family is a table at every sampled point", False, f"at {env}: {exc}")
            return
        if a == INF or a > env["T"]:
            on.add("A's exact level of the family is <= T", False, f"A's level {a} > T at {env}")
            return
        checked += 1
    on.add("A's exact level of the family is <= T at every sampled point", checked > 0, f"{checked} points")


def b_side(cert, side, st):
    """The statement's step for B (:mod:`implgraph.certify.statement`): the claim's B is the view k_I under the
    claim's own ``views`` model."""
    cside = cert.get("B") or {}
    model = st.node.get("views")
    ok = (side.name == B_DEFINITION and isinstance(model, dict) and dict(cside.get("model") or {}) == dict(model)
          and cside.get("view") == "k_I" and not side.params)
    return ("B is the claim's: the view k_I under the claim's views model", ok,
            f"the claim: {side.name} under {model}; the certificate: {cside.get('view')} under {cside.get('model')}")
