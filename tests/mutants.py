"""Mutants of the bundled claims, and their truth decided independently of the engine (issue 10).

A mutant is a copy of an established claim node (``expect`` / ``reading_expect`` in proved, holds,
confirmed, holds-not-tight) with one field changed: f scaled down, N shifted in f, a ``when``
inequality reversed / made strict / shifted, a printed table level perturbed, a math formula's
comparison reversed, a figure's grid changed, an implication turned into a non-implication and back,
an unbounded family's limit moved or its two sides swapped, a map arrow flipped.

Each mutant's truth is decided here, without importing the engine's checkers:

- ``false``: an independent reason is exhibited -- a concrete binary table and parameter point where
  the brute-force levels of :mod:`brute` violate the mutated claim; an exact (sympy, rational)
  evaluation where a mutated formula fails; or a hand argument named in :data:`HAND_IMPLICATIONS`
  (an implication the paper proves, with its one-line proof) that contradicts a mutated
  non-implication.
- ``true``: a weakening of the base claim (a larger f, a stricter condition, a weaker printed level)
  whose base holds by the same brute/hand check; or a non-implication whose brute-force witness is
  found at every parameter point with N <= 5 (``true`` on that range).
- ``undecided``: neither; used only for the soundness checks.

Only :func:`engine_verdict` calls the engine (:func:`implgraph.checks.check_claim`); the data files
are read with :mod:`yaml` directly.
"""

from __future__ import annotations

import copy
import itertools
import random
import re
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import sympy
import yaml

import brute

__all__ = ["Mutant", "generate", "decide", "engine_verdict", "run", "summary", "ESTABLISHED",
           "HAND_IMPLICATIONS"]

ROOT = Path(__file__).resolve().parent.parent
ESTABLISHED = ("proved", "verified-bounded", "holds", "confirmed", "holds-not-tight")
EDGE = ("implies", "equivalent", "reciprocal", "generalisation")
LOG = {"ldp", "dp", "kdp"}
RATIO = {"kt-closeness", "mult-t-closeness"}
LARGER = {"k-anonymity", "frequency-l-diversity", "entropy-l-diversity"}
DEFAULT_LEVEL = {"ldp": "eps", "dp": "eps", "kdp": "eps", "kt-closeness": "t", "mult-t-closeness": "t"}
MAX_N = 5
R = sympy.Rational
LOCALS = {"ln": sympy.log, "log": sympy.log, "exp": sympy.exp, "sqrt": sympy.sqrt, "Min": sympy.Min,
          "Max": sympy.Max, "Abs": sympy.Abs, "floor": sympy.floor, "ceiling": sympy.ceiling, "oo": sympy.oo}


@dataclass
class Mutant:
    """One mutated claim.

    Attributes
    ----------
    id : str
        ``<base id>~<operator>``.
    base : str
        The id of the established claim it mutates (``#reading`` for a proof's reading).
    cls : str
        The mutation class (``f-scaled``, ``N-shift``, ``when-flip``, ``kind-flip``, ``level``,
        ``param``, ``formula``, ``grid``, ``values``, ``unbounded``, ``map-arrow``, ``f-weakened``).
    mutation : str
        What was changed, in words.
    node : dict
        The mutated claim node, as :func:`implgraph.checks.check_claim` takes it.
    truth : str
        ``false``, ``true`` or ``undecided`` (set by :func:`decide`).
    reason : str
        The independent evidence for ``truth``.
    """

    id: str
    base: str
    cls: str
    mutation: str
    node: dict
    truth: str = "undecided"
    reason: str = ""
    hint: dict = field(default_factory=dict)


# -- parsing and exact comparison (sympy only) -----------------------------------------------------------

def parse(text, names=None):
    """A data formula as a sympy expression (exact: ``0.7`` is 7/10); every identifier that is not a
    function of the whitelist is a plain symbol of that name (``names`` is accepted for clarity)."""
    return _parse(str(text))


@lru_cache(maxsize=None)
def _parse(text):
    loc = dict(LOCALS)
    for ident in re.findall(r"[A-Za-z_]\w*", str(text)):
        if ident not in loc:
            loc[ident] = sympy.Symbol(ident)
    return sympy.sympify(str(text).replace("^", "**"), locals=loc, rational=True)


_OP = re.compile(r"(<=|>=|==|!=|<|>)")
FLIP = {"<=": ">", ">=": "<", "<": ">=", ">": "<=", "==": "!=", "!=": "=="}
REVERSE = {"<=": ">=", ">=": "<=", "<": ">", ">": "<", "==": "!=", "!=": "=="}
STRICT = {"<=": "<", ">=": ">"}


def split_cond(text):
    """``"a <= b and c > d"`` -> ``[("a", "<=", "b"), ("c", ">", "d")]`` (strings)."""
    out = []
    for part in re.split(r"\s+and\s+", str(text)):
        m = _OP.search(part)
        if m is None:
            raise ValueError(f"no comparison in {part!r}")
        out.append((part[:m.start()].strip(), m.group(1), part[m.end():].strip()))
    return out


def join_cond(parts):
    return " and ".join(f"{a} {op} {b}" for a, op, b in parts)


def sign(x):
    """Exact sign of a real sympy number (None if it cannot be told)."""
    x = sympy.sympify(x)
    if x is sympy.nan:
        return None
    if x.is_Rational:
        return int(x.p > 0) - int(x.p < 0)
    if x in (sympy.oo, -sympy.oo):
        return 1 if x is sympy.oo else -1
    if x.is_zero:
        return 0
    if x.is_extended_positive:
        return 1
    if x.is_extended_negative:
        return -1
    v = sympy.N(x, 80)
    if v.is_real is False or not v.is_number:
        return None
    if abs(v) > sympy.Float("1e-60"):
        return 1 if v > 0 else -1
    x2 = sympy.nsimplify(sympy.simplify(x))
    return 0 if x2 == 0 else None


def compare(a, op, b):
    """True/False/None: the exact truth of ``a op b`` for real sympy numbers (oo allowed)."""
    a, b = sympy.sympify(a), sympy.sympify(b)
    if a is sympy.oo and b is sympy.oo:
        s = 0
    else:
        try:
            s = sign(a - b)
        except (TypeError, ValueError):
            s = None
    if s is None:
        return None
    return {"<=": s <= 0, ">=": s >= 0, "<": s < 0, ">": s > 0, "==": s == 0, "!=": s != 0}[op]


def cond_holds(parts, subs, names):
    """All conditions (strings) hold at ``subs`` (True / False / None)."""
    result = True
    for a, op, b in parts:
        try:
            r = compare(parse(a, names).subs(subs), op, parse(b, names).subs(subs))
        except (TypeError, ValueError, ZeroDivisionError):
            r = None
        if r is False:
            return False
        if r is None:
            result = None
    return result


def fr(x):
    """A brute-force value as sympy (INF -> oo)."""
    if x == brute.INF:
        return sympy.oo
    if isinstance(x, Fraction):
        return R(x.numerator, x.denominator)
    return sympy.sympify(x)


# -- the data (read directly with yaml) ----------------------------------------------------------------

@lru_cache(maxsize=None)
def data_tables():
    """Every table of ``counterexamples/*.yaml`` by id (plain dicts)."""
    out = {}
    for path in sorted((ROOT / "counterexamples").glob("*.yaml")):
        for t in yaml.safe_load(path.read_text()).get("tables") or []:
            out[str(t["id"])] = t
    return out


def table_names(table):
    return {k: sympy.Symbol(k) for k in (table.get("symbols") or {})}


def instantiate(table, point):
    """Rows (lists of Fractions) and class labels (or None) of a table at a parameter point."""
    names = table_names(table)
    rows, classes = [], []
    for row in table["rows"]:
        count = int(parse(row.get("count", 1), names).subs(point))
        if count < 1:
            return None, None
        ps = row["p"]
        vals = [parse(ps, names).subs(point)] if table.get("binary", True) and not isinstance(ps, list) else \
            [parse(p, names).subs(point) for p in ps]
        if len(vals) == 1:
            vals = [vals[0], 1 - vals[0]]
        if not all(v.is_Rational and 0 <= v <= 1 for v in vals):
            return None, None
        fr_vals = [Fraction(int(v.p), int(v.q)) for v in vals]
        rows += [fr_vals] * count
        classes += [row.get("class")] * count
    return rows, (classes if all(c is not None for c in classes) else None)


# -- brute-force levels (raw: the ratio, count or distance) --------------------------------------------

def _l_frequency(rows, classes):
    worst = None
    for g in brute.groups(classes):
        top = max(brute.mean(rows, g, l) for l in range(len(rows[0])))
        worst = 1 / top if worst is None else min(worst, 1 / top)
    return R(worst.numerator, worst.denominator)


def _l_entropy(rows, classes):
    """Entropy l-diversity: min over classes of exp(H) = prod_v p(v)^(-p(v)) (exact)."""
    vals = []
    for g in brute.groups(classes):
        ps = [brute.mean(rows, g, l) for l in range(len(rows[0]))]
        vals.append(sympy.Mul(*[R(p.numerator, p.denominator) ** (-R(p.numerator, p.denominator))
                                for p in ps if p != 0]))
    return sympy.Min(*vals)


def brute_raw(name, rows, classes, params):
    """The optimal raw level of definition ``name`` (None where it is undefined here)."""
    n = len(rows)
    k = params.get("k")
    if k is not None and not 1 <= k <= n - 1:
        return None
    if name == "ldp":
        return brute.ldp(rows)
    if name == "dp":
        return brute.dp(rows) if n >= 2 else None
    if name == "kdp":
        return brute.kdp(rows, k)
    if name == "kt-closeness":
        return brute.kt(rows, k)
    if classes is None:
        return None
    if name == "mult-t-closeness":
        return brute.mult_t(rows, classes)
    if name == "k-anonymity":
        return Fraction(brute.k_anonymity(classes))
    if name == "emd-t-closeness":
        return brute.emd_t(rows, classes, str(params.get("ground", "equal")))
    if name == "frequency-l-diversity":
        return _l_frequency(rows, classes)
    if name == "entropy-l-diversity":
        return _l_entropy(rows, classes)
    return None


def scoped_raw(name, rows, classes, params, scope="table"):
    """As :func:`brute_raw`; ``scope: class`` takes the worst level over the classes."""
    if scope != "class" or classes is None:
        return brute_raw(name, rows, classes, params)
    worst = Fraction(1)
    for g in brute.groups(classes):
        v = brute_raw(name, [rows[i] for i in g], None, params)
        if v is None:
            return None
        if v == brute.INF:
            return brute.INF
        worst = max(worst, v)
    return worst


def raw_of(name, level):
    """The raw value of a level (exp for the DP family)."""
    level = sympy.sympify(level)
    if name in LOG:
        return sympy.oo if level is sympy.oo else sympy.simplify(sympy.exp(level))
    return level


def level_of(name, raw):
    return sympy.log(raw) if name in LOG else raw


# -- candidate tables for the implication search ---------------------------------------------------------

GRID = [Fraction(0), Fraction(1, 4), Fraction(1, 3), Fraction(1, 2), Fraction(2, 3), Fraction(3, 4), Fraction(1)]


@lru_cache(maxsize=None)
def candidate_tables(n):
    """Binary tables of n rows whose Pr(a1) take two or three values of :data:`GRID` (sorted rows)."""
    out = []
    for vals in itertools.chain(itertools.combinations(GRID, 2), itertools.combinations(GRID, 3)):
        m = len(vals)
        for counts in itertools.product(range(1, n + 1), repeat=m):
            if sum(counts) != n:
                continue
            rows = tuple((v, 1 - v) for v, c in zip(vals, counts) for _ in range(c))
            out.append(rows)
    return out


@lru_cache(maxsize=None)
def partitions(n, lo=1, hi=None):
    """Set partitions of range(n) into >= 2 classes of sizes in [lo, hi], as label tuples."""
    hi = n if hi is None else hi
    out = []

    def rec(i, labels, k):
        if i == n:
            sizes = [labels.count(c) for c in range(k)]
            if k >= 2 and all(lo <= s <= hi for s in sizes):
                out.append(tuple(f"E{c}" for c in labels))
            return
        for c in range(k + 1):
            rec(i + 1, labels + [c], max(k, c + 1))
    rec(0, [], 0)
    return out


_RAW_CACHE: dict = {}


def cached_raw(name, k, rows, classes):
    key = (name, k, rows, classes)
    if key not in _RAW_CACHE:
        _RAW_CACHE[key] = brute_raw(name, [list(r) for r in rows], None if classes is None else list(classes),
                                    {} if k is None else {"k": k})
    return _RAW_CACHE[key]


# -- implications: a brute-force counterexample ----------------------------------------------------------

def _side(spec):
    name = str(spec["definition"])
    return name, dict(spec.get("params") or {}), spec.get("classes"), str(spec.get("level") or DEFAULT_LEVEL.get(name, "x"))


def _names(node, *extra):
    names = {k: sympy.Symbol(k) for k in (node.get("symbols") or {})}
    for s in extra:
        names.setdefault(s, sympy.Symbol(s))
    return names


def int_points(node, names, conds, max_n=MAX_N):
    """Integer parameter points (N first, N <= max_n) meeting the conditions free of reals."""
    kinds = node.get("symbols") or {}
    ints = sorted((s for s, k in kinds.items() if k == "integer"), key=lambda s: (s != "N", s))
    if "N" not in ints:
        ints = ["N"] + ints
    names.setdefault("N", sympy.Symbol("N"))
    reals = {s for s, k in kinds.items() if k == "real"}
    plain = [c for c in conds if not (parse(c[0], names).free_symbols | parse(c[2], names).free_symbols)
             & {names[r] for r in reals if r in names} - {names[i] for i in ints}
             and _only(c, names, ints)]
    out = []
    for n in range(2, max_n + 1):
        for rest in itertools.product(range(0, n + 1), repeat=len(ints) - 1):
            pt = dict(zip([names[i] for i in ints], (n,) + rest))
            if cond_holds(plain, pt, names) is True:
                out.append(pt)
    return out


def _only(c, names, ints):
    syms = parse(c[0], names).free_symbols | parse(c[2], names).free_symbols
    return syms <= {names[i] for i in ints}


def _int_params(params, names, pt):
    out = {}
    for k, v in params.items():
        val = parse(v, names).subs(pt)
        if not val.is_Integer:
            return None
        out[k] = int(val)
    return out


def _class_options(spec, names, pt, n, needed):
    if not needed:
        return [None]
    lo, hi = 1, n
    if spec:
        if spec.get("min_size") is not None:
            lo = int(parse(spec["min_size"], names).subs(pt))
        if spec.get("max_size") is not None:
            hi = int(parse(spec["max_size"], names).subs(pt))
    return partitions(n, max(lo, 1), hi)


def implication_counterexample(node, direction="forward", max_n=MAX_N):
    """A table and parameter point where A holds at its optimal level alpha and B fails at f(alpha).

    ``direction="reverse"`` checks B => A with ``g``.  ``f=None`` (a non-implication turned
    into an implication without f, or a map arrow) asks for B infinite while A is finite.
    Returns a dict (params, rows, classes, A and B raw levels, target) or None.
    """
    a_spec, b_spec = (node["from"], node["to"]) if direction == "forward" else (node["to"], node["from"])
    an, ap, acl, alvl = _side(a_spec)
    bn, bp, bcl, blvl = _side(b_spec)
    names = _names(node, alvl, blvl)
    ftext = node.get("f") if direction == "forward" else node.get("g")
    f = None if ftext is None else parse(ftext, names)
    conds = [c for w in (node.get("when") or []) for c in split_cond(w)]
    kinds = node.get("symbols") or {}
    extras = [names[s] for s, k in kinds.items() if k == "real" and s not in (alvl, blvl)]
    alpha = names[alvl]
    rsym = sympy.Symbol("R_", positive=True)
    for pt in int_points(node, names, conds, max_n):
        n = int(pt[names["N"]])
        api, bpi = _int_params(ap, names, pt), _int_params(bp, names, pt)
        if api is None or bpi is None:
            continue
        if any(not 1 <= v <= n - 1 for v in list(api.values()) + list(bpi.values())):
            continue
        a_cls, b_cls = an == "mult-t-closeness", bn == "mult-t-closeness"
        opts = _class_options(acl if a_cls else bcl, names, pt, n, a_cls or b_cls)
        gfun = None
        if f is not None:
            tgt = raw_of(bn, f.subs(pt).subs(alpha, level_of(an, rsym)))
            gfun = sympy.lambdify([rsym] + extras, tgt, "math")
        for rows in candidate_tables(n):
            for cl in opts:
                ra = cached_raw(an, api.get("k"), rows, cl if a_cls else None)
                if ra is None or ra == brute.INF:
                    continue
                rb = cached_raw(bn, bpi.get("k"), rows, cl if b_cls else None)
                if rb is None:
                    continue
                hit = _violates(node, names, conds, pt, an, ra, rb, f, gfun, alpha, extras, rsym, bn)
                if hit is not None:
                    return {"params": {str(k): str(v) for k, v in pt.items()}, "rows": [[str(x) for x in r] for r in rows],
                            "classes": None if cl is None else list(cl), "A": str(fr(ra)), "B": str(fr(rb)), **hit}
    return None


def _extra_candidates(alpha_val, extras):
    if not extras:
        return [()]
    base = [alpha_val, alpha_val + 1, alpha_val / 2, alpha_val - R(1, 10), 2 * alpha_val, sympy.Integer(1)]
    return list(itertools.product(base, repeat=len(extras)))


def _violates(node, names, conds, pt, an, ra, rb, f, gfun, alpha, extras, rsym, bn):
    ra_s = fr(ra)
    alpha_val = level_of(an, ra_s)
    for ex in _extra_candidates(alpha_val, extras):
        subs = dict(pt)
        subs[alpha] = alpha_val
        subs.update(dict(zip(extras, ex)))
        if f is None:
            if rb != brute.INF:
                return None
            target = None
        else:
            if rb != brute.INF:
                try:
                    approx = gfun(float(ra), *[float(sympy.N(e)) for e in ex])
                    if complex(approx).imag != 0 or float(rb) <= float(complex(approx).real) * (1 - 1e-12):
                        continue
                except (ValueError, ZeroDivisionError, TypeError, OverflowError):
                    pass
            target = raw_of(bn, f.subs(subs))
            if not target.is_real and target is not sympy.oo:
                continue
            if compare(fr(rb), ">", target) is not True:
                continue
        if cond_holds(conds, subs, names) is not True:
            continue
        return {"alpha": str(alpha_val), "extras": {str(k): str(v) for k, v in zip(extras, ex)},
                "target_raw": None if target is None else str(target)}
    return None


def infinite_witness_everywhere(node, max_n=MAX_N):
    """For a non-implication: at every integer point (N <= max_n), a table with A finite and B oo.

    Returns (points checked, points without such a table)."""
    an, ap, acl, alvl = _side(node["from"])
    bn, bp, bcl, blvl = _side(node["to"])
    names = _names(node, alvl, blvl)
    conds = [c for w in (node.get("when") or []) for c in split_cond(w)]
    checked, missing = 0, []
    for pt in int_points(node, names, conds, max_n):
        n = int(pt[names["N"]])
        api, bpi = _int_params(ap, names, pt), _int_params(bp, names, pt)
        if api is None or bpi is None or any(not 1 <= v <= n - 1 for v in list(api.values()) + list(bpi.values())):
            continue
        checked += 1
        a_opts = _class_options(acl, names, pt, n, an == "mult-t-closeness")
        found = any(cached_raw(an, api.get("k"), rows, cl) not in (None, brute.INF)
                    and cached_raw(bn, bpi.get("k"), rows, cl) == brute.INF
                    for rows in candidate_tables(n) for cl in a_opts)
        if not found:
            missing.append({str(k): int(v) for k, v in pt.items()})
    return checked, missing


# -- hand-proved implications (contradict a mutated non-implication) ----------------------------------

def _hand(an, ap, bn, bp, n, a_classes):
    """The argument for A => B at a concrete point, or None (the list is :data:`HAND_IMPLICATIONS`)."""
    ka, kb = ap.get("k"), bp.get("k")
    for (a, b, test, text) in HAND_IMPLICATIONS:
        if a == an and b == bn and test(ka, kb, n, a_classes):
            return text
    return None


HAND_IMPLICATIONS = [
    ("kt-closeness", "kt-closeness", lambda ka, kb, n, c: ka <= kb,
     "a k1-subset's mean is the average of the means of its k0-subsets (k0 <= k1), each within [m/t, m t]"),
    ("kdp", "kdp", lambda ka, kb, n, c: kb <= ka,
     "a set of N - k1 remaining records (k1 <= k0) has a mean that averages those of its (N - k0)-subsets"),
    ("kt-closeness", "kdp", lambda ka, kb, n, c: n - kb >= ka,
     "removing kDP records leaves N - kDP >= kClo records, whose mean averages kClo-subset means"),
    ("kdp", "kt-closeness", lambda ka, kb, n, c: kb >= n - ka,
     "a kClo-subset with kClo >= N - kDP is an average of (N - kDP)-subsets, i.e. of removals of kDP records"),
    ("kt-closeness", "ldp", lambda ka, kb, n, c: ka == 1,
     "(1, t): every row lies in [m/t, m t] around the bucket mean m, so two rows differ by at most t^2"),
    ("ldp", "kt-closeness", lambda ka, kb, n, c: True,
     "eps-LDP: all rows of a bucket lie within a factor e^eps, so do all averages of rows"),
    ("ldp", "kdp", lambda ka, kb, n, c: True, "eps-LDP: all averages of rows lie within a factor e^eps"),
    ("ldp", "dp", lambda ka, kb, n, c: True, "eps-LDP: all averages of rows lie within a factor e^eps"),
    ("kdp", "dp", lambda ka, kb, n, c: ka >= 1, "eps-DP is (1, eps)-DP, implied by (k, eps)-DP for k >= 1"),
    ("dp", "kdp", lambda ka, kb, n, c: kb == 1, "(1, eps)-DP is Definition 5 verbatim"),
    ("mult-t-closeness", "ldp", lambda ka, kb, n, c: bool(c) and str(c.get("max_size")) == "1",
     "singleton classes: multiplicative t-closeness is (1, t)-closeness, then every two rows differ by t^2"),
    ("kt-closeness", "dp", lambda ka, kb, n, c: ka <= n - 1,
     "removing one record leaves N - 1 >= k records, whose mean averages k-subset means (each within [m/t, m t])"),
    ("dp", "kt-closeness", lambda ka, kb, n, c: kb == n - 1,
     "an (N - 1)-subset is the table with one record removed: (N - 1, t)-closeness is eps-DP with t = e^eps"),
]


def hand_implication_point(node, max_n=MAX_N):
    """A parameter point of the node's condition where a hand-proved implication A => B applies."""
    an, ap, acl, alvl = _side(node["from"])
    bn, bp, bcl, blvl = _side(node["to"])
    names = _names(node, alvl, blvl)
    conds = [c for w in (node.get("when") or []) for c in split_cond(w)]
    for pt in int_points(node, names, conds, max_n):
        n = int(pt[names["N"]])
        api, bpi = _int_params(ap, names, pt), _int_params(bp, names, pt)
        if api is None or bpi is None or any(not 1 <= v <= n - 1 for v in list(api.values()) + list(bpi.values())):
            continue
        if bcl is not None or node["to"].get("scope") == "class":
            continue
        text = _hand(an, api, bn, bpi, n, acl)
        if text:
            return {str(k): int(v) for k, v in pt.items()}, text
    return None


# -- table level claims -----------------------------------------------------------------------------

REALS = [R(1, 1000), R(1, 100), R(1, 20), R(1, 10), R(1, 8), R(1, 5), R(1, 4), R(3, 10), R(1, 3), R(2, 5),
         R(9, 20), R(1, 2), R(3, 5), R(2, 3), R(3, 4), R(9, 10), R(99, 100), sympy.Integer(1), R(3, 2), sympy.Integer(2)]


def table_points(table, conds, limit=120, seed=10):
    """Up to ``limit`` points of the table's region (and ``conds``), integers <= 7, reals from :data:`REALS`."""
    names = table_names(table)
    kinds = table.get("symbols") or {}
    syms = sorted(kinds)
    if not syms:
        return [{}]
    pools = [range(0, 8) if kinds[s] == "integer" else REALS for s in syms]
    region = [c for w in (table.get("region") or []) for c in split_cond(w)] + conds
    combos = list(itertools.product(*pools))
    random.Random(seed).shuffle(combos)
    out = []
    for combo in combos:
        pt = {names[s]: sympy.sympify(v) for s, v in zip(syms, combo)}
        if cond_holds(region, pt, names) is True:
            out.append(pt)
            if len(out) >= limit:
                break
    return out


def level_claim_violation(node, limit=120):
    """A point of the table's region where the level claim fails by brute force (or None), and the
    number of points checked."""
    table = data_tables()[node["_table"]]
    names = table_names(table)
    conds = [c for w in (node.get("when") or []) for c in split_cond(w)]
    name = str(node["definition"])
    bound = str(node.get("bound") or "satisfies")
    larger = name in LARGER
    checked = 0
    for pt in table_points(table, conds, limit):
        rows, classes = instantiate(table, pt)
        if rows is None:
            continue
        params = _int_params(node.get("params") or {}, names, pt) if name not in ("emd-t-closeness",) else \
            dict(node.get("params") or {})
        if params is None:
            continue
        opt = scoped_raw(name, rows, classes, params, str(node.get("scope") or "table"))
        if opt is None:
            continue
        checked += 1
        target = raw_of(name, parse(node["level"], names).subs(pt))
        o = fr(opt) if not isinstance(opt, sympy.Basic) else opt
        if bound == "exact":
            ok = compare(o, "==", target)
        elif (bound == "satisfies") != larger:
            ok = compare(o, "<=", target)
        else:
            ok = compare(o, ">=", target)
        if ok is False:
            return {"point": {str(k): str(v) for k, v in pt.items()}, "optimal_raw": str(o),
                    "claimed_raw": str(target)}, checked
    return None, checked


# -- unbounded claims ---------------------------------------------------------------------------------

def family_levels(node, side, limit_text, x0, steps=5):
    """Raw brute levels of ``side`` along free -> limit (x_j = limit + (x0 - limit)/10^j)."""
    table = data_tables()[node["_table"]]
    names = table_names(table)
    fix = {names[k]: parse(v, names) for k, v in (node.get("fix") or {}).items()}
    free = names[str(node["free"])]
    lim = parse(limit_text, names).subs(fix)
    spec = node[side]
    out = []
    for j in range(steps):
        x = lim + (x0 - lim) / sympy.Integer(10) ** j
        pt = dict(fix)
        pt[free] = x
        rows, classes = instantiate(table, pt)
        if rows is None:
            out.append(None)
            continue
        params = _int_params(spec.get("params") or {}, names, pt)
        out.append(scoped_raw(str(spec["definition"]), rows, classes, params or {}, str(spec.get("scope") or "table")))
    return out


def _grows(vals):
    """Brute evidence of unboundedness: oo somewhere, or a factor >= 5 per step at the end."""
    if any(v == brute.INF for v in vals if v is not None):
        return True
    v = [x for x in vals if x is not None]
    return len(v) >= 3 and v[-1] >= 5 * v[-2] and v[-2] >= 5 * v[-3]


def _settles(vals):
    """Brute evidence of boundedness: finite everywhere and the last two within 1 %."""
    v = [x for x in vals if x is not None]
    return len(v) == len(vals) and all(x != brute.INF for x in v) and abs(v[-1] - v[-2]) <= v[-2] / 100


# -- math claims --------------------------------------------------------------------------------------

def _solve_implicit(eq_text, var, names, subs, defs):
    lhs, op, rhs = split_cond(eq_text)[0]
    e_l, e_r = _expand(parse(lhs, names), defs).subs(subs), _expand(parse(rhs, names), defs).subs(subs)
    maxes = [m for m in (e_l - e_r).atoms(sympy.Max)]
    branches = [(e_l, e_r)]
    if maxes:
        m = maxes[0]
        branches = [(e_l.subs(m, a), e_r.subs(m, a)) for a in m.args]
    cands = []
    for bl, br in branches:
        try:
            sols = sympy.solve(sympy.Eq(bl, br), var)
        except NotImplementedError:
            continue
        for s in sols:
            s = sympy.nsimplify(s) if s.is_Float else s
            if not s.is_real:
                continue
            if compare(e_l.subs(var, s), "==", e_r.subs(var, s)) is True:
                cands.append(s)
    if str(var).startswith("p"):
        cands = [c for c in cands if compare(c, ">=", 0) and compare(c, "<", 1)]
    cands = list(dict.fromkeys(cands))
    return cands[0] if len(cands) == 1 else None


def _expand(expr, defs):
    for _ in range(6):
        expr = expr.subs(defs)
    return expr


def math_points(node, limit=40, seed=3):
    """Points of a math claim's condition: ``values``/``fix``/``grid`` fixed, other symbols sampled."""
    names = _names(node, *list((node.get("definitions") or {}).keys()))
    fixed = {}
    for key in ("values", "fix"):
        for k, v in (node.get(key) or {}).items():
            names.setdefault(k, sympy.Symbol(k))
            fixed[names[k]] = parse(v, names)
    grids = []
    for k, g in (node.get("grid") or {}).items():
        names.setdefault(k, sympy.Symbol(k))
        if "values" in g:
            grids.append([(names[k], parse(v, names)) for v in g["values"]])
        else:
            lo, hi = (parse(x, names) for x in g["interval"])
            grids.append([(names[k], lo + (hi - lo) * q) for q in (0, R(1, 9), R(1, 4), R(1, 2), R(3, 4), 1)])
    return names, fixed, [dict(c) for c in itertools.product(*grids)] if grids else [{}]


def math_violation(node, limit=60, seed=3):
    """A point where the math claim fails (exact evaluation), or None; and the number checked."""
    insts = node.get("instantiations") or [None]
    checked = 0
    for inst in insts:
        sub_node = dict(node)
        if inst:
            sub_node["symbols"] = {**(node.get("symbols") or {}), **(inst.get("symbols") or {})}
        names, fixed, grid_pts = math_points(sub_node)
        raw_defs = dict(node.get("definitions") or {})
        if inst:
            raw_defs.update(inst.get("definitions") or {})
        for k in raw_defs:
            names.setdefault(k, sympy.Symbol(k))
        for k in (node.get("implicit") or {}):
            names.setdefault(k, sympy.Symbol(k))
        defs = {names[k]: parse(v, names) for k, v in raw_defs.items()}
        when = [c for w in (node.get("when") or []) for c in split_cond(w)]
        if inst:
            when += [c for w in (inst.get("when") or []) for c in split_cond(w)]
        kinds = sub_node.get("symbols") or {}
        for pt in _sample_math(names, kinds, fixed, grid_pts, when, defs, node, limit, seed):
            checked += 1
            try:
                bad = _math_fails(node, names, pt, defs)
            except (TypeError, ValueError, ZeroDivisionError):
                bad = None      # undefined at this point (a division by 0): no evidence
            if bad is not None:
                return {"point": {str(k): str(v) for k, v in pt.items()}, "why": bad}, checked
    return None, checked


def _sample_math(names, kinds, fixed, grid_pts, when, defs, node, limit, seed):
    rng = random.Random(seed)
    implicit = node.get("implicit") or {}
    skip = set(fixed) | {s for g in grid_pts for s in g} | {names[k] for k in implicit} | set(defs)
    free = [names[s] for s in kinds if names[s] not in skip and s not in (node.get("claimed") or {})]
    if node.get("solution"):
        free = [s for s in free if s != split_cond(node["solution"])[0][0] and str(s) != split_cond(node["solution"])[0][0]]
    eqs = [(a, b) for a, op, b in when if op == "=="]
    pool_int = list(range(1, 8))
    for gp in grid_pts:
        tries = 0
        got = 0
        while got < max(1, limit // max(1, len(grid_pts))) and tries < 400:
            tries += 1
            pt = dict(fixed)
            pt.update(gp)
            for s in free:
                pt[s] = sympy.Integer(rng.choice(pool_int)) if kinds.get(str(s)) == "integer" else rng.choice(REALS + [R(7, 3), sympy.Integer(3), R(-1, 2), sympy.Integer(-1)])
            for a, b in eqs:   # x == expr: solve for one symbol of the left side
                target = parse(a, names)
                if target.is_Symbol:
                    pt[target] = parse(b, names).subs(pt)
                elif target.is_Add and all(x.is_Symbol for x in target.args):
                    last = sorted(target.args, key=str)[-1]
                    pt[last] = parse(b, names).subs(pt) - sum(pt[x] for x in target.args if x != last)
            ok = True
            for k, text in implicit.items():
                v = _solve_implicit(text, names[k], names, pt, defs)
                if v is None:
                    ok = False
                    break
                pt[names[k]] = v
            if not ok or cond_holds(when, pt, names) is not True:
                continue
            got += 1
            yield pt
            if not grid_pts[0] and not free:
                return


def _values(defs, pt):
    """The point with every helper definition evaluated (in dependency order)."""
    vals = dict(pt)
    pending = dict(defs)
    for _ in range(8):
        for k, e in list(pending.items()):
            v = e.subs(vals)
            if not v.free_symbols:
                vals[k] = v
                del pending[k]
    return vals


def _math_fails(node, names, pt, defs):
    """Why the claim fails at ``pt`` (text), or None."""
    vals = _values(defs, pt)

    def holds(text):
        parts = [(parse(a, names), op, parse(b, names)) for a, op, b in split_cond(text)]
        for a, op, b in parts:
            try:
                va, vb = a.subs(vals), b.subs(vals)
            except (TypeError, ZeroDivisionError):
                return None
            r = compare(sympy.simplify(va), op, sympy.simplify(vb)) if va.is_number and vb.is_number else None
            if r is not True:
                return r
        return True

    if node.get("solution"):
        var_s, _, sol_s = split_cond(node["solution"])[0]
        var = names[var_s]
        lhs, op, rhs = split_cond(node["formula"])[0]
        eq = sympy.Eq(parse(lhs, names), parse(rhs, names)).subs(pt)
        if eq is sympy.true:
            return f"every {var_s} solves the formula here (not unique)"
        sols = sympy.solve(eq, var)
        want = parse(sol_s, names).subs(pt)
        if [sympy.simplify(s - want) for s in sols] != [0]:
            return f"the solutions are {sols}, not only {want}"
        return None
    if node.get("claimed"):
        tol = parse(node.get("tolerance", "0"), names)
        for k, v in node["claimed"].items():
            var = sympy.Symbol(k, real=True)
            lhs, op, rhs = split_cond(node["formula"])[0]
            eq = sympy.Eq(parse(lhs, names), parse(rhs, names)).subs(pt).subs(names[k], var)
            sols = [s for s in sympy.solve(eq, var) if s.is_real]
            if len(sols) != 1 or compare(sympy.Abs(sols[0] - parse(v, names)), "<=", tol) is not True:
                return f"exact {k} = {sols} is not within {tol} of {v}"
        return None
    r = holds(node["formula"])
    if r is False:
        return f"`{node['formula']}` fails"
    conv = node.get("converse")
    if conv:
        cw = [c for w in conv.get("when") or [] for c in split_cond(w)]
        if cond_holds(cw, pt, names) is True and holds(conv["formula"]) is False:
            return f"converse `{conv['formula']}` fails"
    return None


# -- generation ---------------------------------------------------------------------------------------

def _reading_node(c):
    """The proof's reading of a claim as a plain claim node (kind, f, from, witness of the reading)."""
    n = copy.deepcopy(c)
    n["id"] = f"{c['id']}#reading"
    n["kind"] = c["reading_kind"]
    for key, target in (("reading_f", "f"), ("reading_from", "from"), ("reading_to", "to"),
                        ("reading_witness", "witness"), ("reading_witness_claim", "witness_claim")):
        if c.get(key) is not None:
            n[target] = copy.deepcopy(c[key])
        elif target in ("witness", "witness_claim"):
            n.pop(target, None)
    n["expect"] = c.get("reading_expect")
    if c.get("reading_when"):
        n["when"] = list(c.get("when") or []) + list(c["reading_when"])
        n.pop("when_sources", None)
    for key in [k for k in n if str(k).startswith("reading")]:
        del n[key]
    return n


def bases(claims):
    """The established claims (``expect`` established) and established readings, as nodes."""
    out = []
    for c in claims:
        if c.get("expect") in ESTABLISHED:
            out.append(c)
        if c.get("reading_kind") and c.get("reading_expect") in ESTABLISHED:
            out.append(_reading_node(c))
    return out


def _mut(base, cls, op, mutation, **changes):
    node = copy.deepcopy(base)
    for k, v in changes.items():
        if v is None:
            node.pop(k, None)
        else:
            node[k] = v
    node.pop("expect", None)
    if "when" in changes:
        node.pop("when_sources", None)
    return Mutant(id=f"{base['id']}~{op}", base=str(base["id"]), cls=cls, mutation=mutation, node=node)


def _scaled(text, how):
    return {"x9/10": f"(9/10)*({text})", "x1/2": f"({text})/2", "-1/10": f"({text}) - 1/10",
            "x11/10": f"(11/10)*({text})", "+1/10": f"({text}) + 1/10", "x2": f"2*({text})",
            "+1": f"({text}) + 1"}[how]


def _when_ops(when):
    """(op name, new when list, description, kind) for each condition: reversed, strict, weakened."""
    out = []
    for i, w in enumerate(when):
        parts = split_cond(w)
        if len(parts) != 1:
            continue
        a, op, b = parts[0]
        new = lambda t: when[:i] + [t] + when[i + 1:]
        out.append((f"when{i}-reversed", new(f"{a} {FLIP[op]} {b}"), f"`{w}` -> `{a} {FLIP[op]} {b}`", "reversed"))
        if op in STRICT:
            out.append((f"when{i}-strict", new(f"{a} {STRICT[op]} {b}"), f"`{w}` -> `{a} {STRICT[op]} {b}`", "strict"))
        if op in ("<=", "<"):
            t = f"{a} {op} {b} + 1"
        elif op in (">=", ">"):
            t = f"{a} {op} {b} - 1"
        else:
            t = f"{a} {op} {b} + 1"
        out.append((f"when{i}-shifted", new(t), f"`{w}` -> `{t}`", "shifted"))
    return out


def _generic_f(node):
    a = node["from"]
    b = node["to"]
    lvl = str(a.get("level") or DEFAULT_LEVEL.get(a["definition"], "t"))
    an, bn = a["definition"], b["definition"]
    if an in RATIO and bn in LOG:
        return f"ln({lvl}**2)"
    if an in LOG and bn in RATIO:
        return f"exp({lvl})"
    return lvl


def edge_mutants(base):
    out = []
    kind = base["kind"]
    b_name = base["to"]["definition"]
    for key in ("f", "g") if kind in ("equivalent", "reciprocal") else ("f",):
        text = base.get(key)
        if text is None:
            continue
        tgt = b_name if key == "f" else base["from"]["definition"]
        for how in ("x9/10", "x1/2", "-1/10"):
            out.append(_mut(base, "f-scaled", f"{key}{how}", f"{key} = {text} -> {_scaled(text, how)}",
                            **{key: _scaled(text, how)}))
        weak = "x11/10" if tgt in RATIO else "+1/10"
        out.append(_mut(base, "f-weakened", f"{key}{weak}", f"{key} = {text} -> {_scaled(text, weak)} (weaker)",
                        **{key: _scaled(text, weak)}))
        if re.search(r"\bN\b", str(text)):
            for d in (-1, 1):
                new = str(parse(text, _names(base)).subs(sympy.Symbol("N"), sympy.Symbol("N") + d))
                out.append(_mut(base, "N-shift", f"{key}N{d:+d}", f"N -> N {d:+d} in {key}: {new}", **{key: new}))
    for op, when, desc, how in _when_ops(list(base.get("when") or [])):
        out.append(_mut(base, "when-flip", op, desc, when=when))
    for side in ("from", "to"):
        k = (base[side].get("params") or {}).get("k")
        if k is not None:
            for d in (-1, 1):
                spec = copy.deepcopy(base[side])
                spec["params"]["k"] = f"{k} {'+' if d > 0 else '-'} 1"
                out.append(_mut(base, "param", f"{side}-k{d:+d}", f"{side} k = {k} -> {spec['params']['k']}",
                                **{side: spec}))
    out.append(_mut(base, "kind-flip", "not-implies", f"kind {kind} -> not-implies (f dropped)",
                    kind="not-implies", f=None, g=None, witness=None, witness_claim=None, witness_map=None))
    return out


def nonimplication_mutants(base):
    out = []
    f = _generic_f(base)
    out.append(_mut(base, "kind-flip", "implies", f"kind not-implies -> implies with f = {f}", kind="implies", f=f,
                    witness=None, witness_claim=None, witness_map=None))
    for op, when, desc, how in _when_ops(list(base.get("when") or [])):
        out.append(_mut(base, "witness-when", op, desc + " (the witness's parameters no longer fit)", when=when))
    a = base["from"]
    if a["definition"] == "mult-t-closeness" and base["to"]["definition"] == "ldp":
        spec = copy.deepcopy(a)
        spec["classes"] = {"min_size": "1", "max_size": "1"}
        out.append(_mut(base, "witness-when", "singleton-classes", "from: classes of size 1 (Theorem 1's exception)",
                        **{"from": spec}))
    return out


def level_mutants(base):
    out = []
    name = str(base["definition"])
    level = str(base["level"])
    bound = str(base.get("bound") or "satisfies")
    if level.strip() != "oo":
        larger = name in LARGER
        if bound == "exact":
            ops = [("x9/10", "level"), ("x11/10", "level")]
        elif (bound == "satisfies") != larger:     # smaller is the stronger claim
            ops = [("x9/10", "level"), ("x1/2", "level"), ("x11/10" if name not in LOG else "+1/10", "weak")]
        else:                                       # a larger level is the stronger claim
            ops = [("+1", "level"), ("x2", "level"), ("x1/2", "weak")]
        for how, cls in ops:
            new = _scaled(level, how)
            out.append(_mut(base, "level" if cls == "level" else "level-weakened", f"level{how}",
                            f"level {level} -> {new}", level=new))
    for op, when, desc, how in _when_ops(list(base.get("when") or [])):
        out.append(_mut(base, "when-flip", op, desc, when=when))
    k = (base.get("params") or {}).get("k")
    if k is not None:
        for d in (-1, 1):
            params = dict(base["params"])
            params["k"] = f"{k} {'+' if d > 0 else '-'} 1"
            out.append(_mut(base, "param", f"k{d:+d}", f"k = {k} -> {params['k']}", params=params))
    return out


def _other_end(base):
    table = data_tables()[base["_table"]]
    free = str(base["free"])
    for w in table.get("region") or []:
        for a, op, b in split_cond(w):
            if a == free and op in ("<", "<="):
                return b
    return None


def unbounded_mutants(base):
    out = [_mut(base, "unbounded", "swap", "from and to swapped",
                **{"from": copy.deepcopy(base["to"]), "to": copy.deepcopy(base["from"])})]
    end = _other_end(base)
    if end is not None:
        out.append(_mut(base, "unbounded", "limit", f"limit {base.get('limit')} -> {end}", limit=end))
    return out


def math_mutants(base):
    out = []
    formula = base.get("formula")
    if not formula:
        return out
    if formula and not base.get("solution") and not base.get("claimed"):
        parts = split_cond(formula)
        for i, (a, op, b) in enumerate(parts):
            new = parts[:i] + [(a, REVERSE[op], b)] + parts[i + 1:]
            out.append(_mut(base, "formula", f"formula{i}-reversed", f"`{a} {op} {b}` -> `{a} {REVERSE[op]} {b}`",
                            formula=join_cond(new)))
            if op in STRICT:
                new = parts[:i] + [(a, STRICT[op], b)] + parts[i + 1:]
                out.append(_mut(base, "formula", f"formula{i}-strict", f"`{a} {op} {b}` -> `{a} {STRICT[op]} {b}`",
                                formula=join_cond(new)))
        if len(parts) > 1:
            out.append(_mut(base, "formula", "formula-all-reversed", "every comparison reversed",
                            formula=join_cond([(a, REVERSE[op], b) for a, op, b in parts])))
    if base.get("converse"):
        conv = copy.deepcopy(base["converse"])
        a, op, b = split_cond(conv["formula"])[0]
        conv["formula"] = f"{a} {REVERSE[op]} {b}"
        out.append(_mut(base, "formula", "converse-reversed", f"converse `{a} {op} {b}` -> `{conv['formula']}`",
                        converse=conv))
    if base.get("solution"):
        var, _, sol = split_cond(base["solution"])[0]
        for op, new in (("solution-shifted", str(parse(sol).subs(sympy.Symbol("t"), sympy.Symbol("t") + 1))),
                        ("solution-doubled", f"2*({sol})")):
            out.append(_mut(base, "formula", op, f"solution {sol} -> {new}", solution=f"{var} == {new}"))
    for k, v in (base.get("claimed") or {}).items():
        for op, new in (("claimed+", "0.8"), ("claimed-", "0.6"), ("claimed-near", "0.72")):
            out.append(_mut(base, "values", f"{op}", f"claimed {k} = {v} -> {new}", claimed={k: new}))
        out.append(_mut(base, "values", "tolerance", "tolerance 0.05 -> 0.02", tolerance="0.02"))
    for k, v in (base.get("values") or {}).items():
        if k in ("t0", "k"):
            new = str(parse(v) * 2 if k == "k" else parse(v) + 1)
            out.append(_mut(base, "values", f"value-{k}", f"value {k} = {v} -> {new}",
                            values={**base["values"], k: new}))
    for k, g in (base.get("grid") or {}).items():
        if "interval" in g:
            new = {"interval": [g["interval"][0], str(parse(g["interval"][1]) * 10)]}
            out.append(_mut(base, "grid", f"grid-{k}", f"grid {k}: {g['interval']} -> {new['interval']}",
                            grid={**base["grid"], k: new}))
        else:
            new = {"values": list(g["values"]) + ["20"]}
            out.append(_mut(base, "grid", f"grid-{k}", f"grid {k}: {g['values']} -> {new['values']}",
                            grid={**base["grid"], k: new}))
    for k, v in (base.get("fix") or {}).items():
        if k == "k":
            out.append(_mut(base, "grid", "fix-k", f"fix k = {v} -> 50", fix={**base["fix"], k: "50"}))
    implicit = set(base.get("implicit") or {})
    for op, when, desc, how in _when_ops(list(base.get("when") or []) if len(base.get("when") or []) <= 3 else []):
        if how != "strict" and not any(re.search(rf"\b{v}\b", desc) for v in implicit):
            out.append(_mut(base, "when-flip", op, desc, when=when))
    return out


def map_mutants(base):
    """Arrows with a `when`: reversed; the solid implication arrows: turned into crossed ones."""
    out = []
    for i, arrow in enumerate(base.get("arrows") or []):
        if arrow.get("expect") not in ESTABLISHED:
            continue      # only an established arrow's mutant can be killed meaningfully
        if arrow.get("kind") == "implies" and arrow.get("style") == "solid" and not arrow.get("reading_kind"):
            arrows = copy.deepcopy(base["arrows"])
            arrows[i]["kind"], arrows[i]["style"] = "not-implies", "crossed"
            out.append(_mut(base, "map-arrow", f"arrow{i}-crossed", f"arrow {arrow.get('label')}: implies -> not-implies",
                            arrows=arrows))
        if arrow.get("when") and arrow.get("kind") in ("implies", "not-implies") and not arrow.get("reading_kind"):
            a, op, b = split_cond(arrow["when"][0])[0]
            arrows = copy.deepcopy(base["arrows"])
            arrows[i]["when"] = [f"{a} {FLIP[op]} {b}"] + list(arrow["when"][1:])
            out.append(_mut(base, "map-arrow", f"arrow{i}-when", f"arrow {arrow.get('label')}: when `{arrow['when'][0]}` -> "
                            f"`{a} {FLIP[op]} {b}`", arrows=arrows))
    return out


# -- second-generation operators (issue 31): constants, swapped definitions, dual parameters, nudged levels,
#    flipped scopes, nudged conditions; true ones: restricted conditions, pointwise larger f -----------------

#: a definition and the one of the same scale that it is swapped for (the parameters are kept)
SWAP_DEFINITION = {"ldp": "dp", "dp": "ldp", "kt-closeness": "kdp", "kdp": "kt-closeness"}
_UNPRINTABLE = re.compile(r"\b(E|I|zoo|nan|pi)\b")


def _printable(expr) -> str | None:
    """``expr`` as a data formula (None where sympy prints a name the data's whitelist lacks, e.g. ``E``)."""
    text = str(expr)
    return None if _UNPRINTABLE.search(text) else text


def _constant_variants(text, limit=3):
    """(op, new text): each of the first ``limit`` distinct numbers of ``text`` (as sympy parses it) plus one."""
    e = parse(text)
    # positive numbers only: a -1 is sympy's minus sign or a division (N - 1, 1/N), not a printed constant
    nums = sorted({a for a in e.atoms(sympy.Number) if a > 0 and a.is_finite}, key=lambda a: (a, str(a)))
    out = []
    for c in nums[:limit]:
        new = _printable(e.xreplace({c: c + 1}))
        if new is not None and new != _printable(e):
            out.append((f"const{c}", f"{c} -> {c + 1}", new))
    return out


def edge_mutants2(base):
    out = []
    if base.get("views"):        # judged under a model of the intruder's views: only its f is mutated
        return [_mut(base, "constant", f"f-{op}", f"f: {what}: {base['f']} -> {new}", f=new)
                for op, what, new in _constant_variants(base["f"])] if base.get("f") else []
    for key in ("f", "g"):
        text = base.get(key)
        if text is None:
            continue
        for op, what, new in _constant_variants(text):
            out.append(_mut(base, "constant", f"{key}-{op}", f"{key}: {what}: {text} -> {new}", **{key: new}))
    if base.get("f") is not None and base.get("kind") == "implies" and not base.get("views"):
        b = str(base["to"]["definition"])
        weak = f"({base['f']}) + 1" if b in LOG else (f"2*({base['f']})" if b in RATIO else None)
        if weak:
            out.append(_mut(base, "f-bigger", "f-bigger", f"f = {base['f']} -> {weak} (pointwise larger: weaker)",
                            f=weak))
    for side in ("from", "to"):
        name = str(base[side]["definition"])
        if name in SWAP_DEFINITION:
            spec = copy.deepcopy(base[side])
            spec["definition"] = SWAP_DEFINITION[name]
            out.append(_mut(base, "definition-swap", f"{side}-swap", f"{side}: {name} -> {spec['definition']}",
                            **{side: spec}))
        k = (base[side].get("params") or {}).get("k")
        if k is not None and "N" in (base.get("symbols") or {}):
            spec = copy.deepcopy(base[side])
            spec["params"]["k"] = f"N - ({k})"
            out.append(_mut(base, "param-dual", f"{side}-k-dual", f"{side} k = {k} -> N - ({k})", **{side: spec}))
    if "N" in (base.get("symbols") or {}):
        out.append(_mut(base, "when-restricted", "when-N3", "condition `N >= 3` added (a restriction)",
                        when=list(base.get("when") or []) + ["N >= 3"]))
    for i, w in enumerate(base.get("when") or []):
        parts = split_cond(w)
        kinds = base.get("symbols") or {}
        reals = {s for s, k in kinds.items() if k == "real"}
        if len(parts) == 1 and parts[0][1] in ("<", "<=", ">", ">=") and \
                re.findall(r"[A-Za-z_]\w*", w) and set(re.findall(r"[A-Za-z_]\w*", w)) & (reals | {"t0", "eps0"}):
            a, op, b = parts[0]
            nudge = f"{b} + 1/10" if op in ("<", "<=") else f"{b} - 1/10"
            when = list(base["when"])
            when[i] = f"{a} {op} {nudge}"
            out.append(_mut(base, "when-nudged", f"when{i}-nudged", f"`{w}` -> `{when[i]}` (widened by 1/10)",
                            when=when))
    return out


def nonimplication_mutants2(base):
    out = []
    for side in ("from", "to"):
        name = str(base[side]["definition"])
        if name in SWAP_DEFINITION:
            spec = copy.deepcopy(base[side])
            spec["definition"] = SWAP_DEFINITION[name]
            out.append(_mut(base, "definition-swap", f"{side}-swap", f"{side}: {name} -> {spec['definition']}",
                            **{side: spec}))
    return out


def level_mutants2(base):
    out = []
    name, level = str(base["definition"]), str(base["level"])
    bound = str(base.get("bound") or "satisfies")
    if level.strip() != "oo":
        for op, what, new in _constant_variants(level, limit=2):
            out.append(_mut(base, "constant", f"level-{op}", f"level: {what}: {level} -> {new}", level=new))
        if name not in LARGER:
            for op, new in (("level-nudge-down", f"({level}) - 1/100"), ("level-nudge-up", f"({level}) + 1/100")):
                if bound == "lower" and op.endswith("up"):
                    continue
                out.append(_mut(base, "level-nudged", op, f"level {level} -> {new}", level=new))
    scope = str(base.get("scope") or "table")
    if base.get("_table") and data_tables()[base["_table"]].get("rows") and \
            any(r.get("class") for r in data_tables()[base["_table"]]["rows"]) and name not in ("mult-t-closeness",):
        out.append(_mut(base, "scope-flip", "scope-flip", f"scope {scope} -> {'table' if scope == 'class' else 'class'}",
                        scope="table" if scope == "class" else "class"))
    return out


def math_mutants2(base):
    out = []
    formula = base.get("formula")
    if formula and not base.get("claimed") and not base.get("grid"):
        for op, what, new in _constant_variants_cond(formula):
            out.append(_mut(base, "constant", f"formula-{op}", f"formula: {what}", formula=new))
    return out


def _constant_variants_cond(text, limit=2):
    """Constants of a condition's sides (``a op b and ...``), each plus one, side by side."""
    out = []
    parts = split_cond(text)
    for i, (a, op, b) in enumerate(parts):
        for j, side in enumerate((a, b)):
            for cop, what, new in _constant_variants(side, limit):
                p2 = list(parts)
                p2[i] = (new, op, b) if j == 0 else (a, op, new)
                out.append((f"{i}{'lr'[j]}-{cop}", f"{side}: {what}", join_cond(p2)))
    return out[:4]


# -- third-generation operators: an implication's converse, a level claim's bound kind, a strict condition
#    relaxed to its boundary, a side's class sizes moved; their truth by brute force or by the hand arguments
#    of HAND_IMPLICATIONS applied at every point (with the bound each argument gives on B's raw level) -----------

#: the raw bound on B that each hand argument of :data:`HAND_IMPLICATIONS` gives, as a function of A's raw
#: level T (the "rows differ by t^2" arguments give T^2; the averaging arguments keep B's ratio within T)
HAND_BOUND = {("kt-closeness", "ldp"): lambda T: T ** 2, ("mult-t-closeness", "ldp"): lambda T: T ** 2}
#: hand arguments valid for every partition into classes (so B's class sizes do not matter): eps-LDP keeps every
#: average of rows, each class's mean among them, within a factor e^eps of the table's mean
HAND_ANY_PARTITION = {("ldp", "mult-t-closeness"):
                      "eps-LDP: every class's mean and the table's are averages of rows, within a factor e^eps"}
NEW_BOUND = {"satisfies": ("exact", "lower"), "exact": ("satisfies", "lower"), "lower": ("satisfies", "exact")}
CONVERSE_KINDS = ("implies", "generalisation")


def converse_mutants(base):
    """An implication's converse (``from`` and ``to`` swapped, f the scale's generic map: the level itself,
    ``ln(t**2)`` from a ratio to a log level, ``exp(eps)`` back); an equivalence's converse is its own g."""
    if base.get("kind") not in CONVERSE_KINDS or base.get("views") is not None or base.get("f") is None:
        return []
    node = {"from": copy.deepcopy(base["to"]), "to": copy.deepcopy(base["from"])}
    f = _generic_f(node)
    return [_mut(base, "converse", "g3-converse", f"converse: from and to swapped, kind {base['kind']} -> implies "
                 f"with f = {f}", kind="implies", f=f, g=None, **node)]


def bound_mutants(base):
    """A level claim's bound kind changed (satisfies / exact / lower, the level kept)."""
    bound = str(base.get("bound") or "satisfies")
    return [_mut(base, "bound-flip", f"g3-bound-{new}", f"bound {bound} -> {new}", bound=new)
            for new in NEW_BOUND[bound]]


def level_swap_mutants(base):
    """A level claim's definition swapped for its sibling of :data:`SWAP_DEFINITION` (parameters, scope and bound
    kept; the level carried across scales: t -> ln(t) from a ratio to a log level, eps -> exp(eps) back)."""
    name, level = str(base["definition"]), str(base["level"]).strip()
    new = SWAP_DEFINITION.get(name)
    if new is None:
        return []
    if level != "oo" and (name in LOG) != (new in LOG):
        level = f"ln({level})" if new in LOG else f"exp({level})"
    return [_mut(base, "level-swap", "g3-definition-swap", f"definition {name} -> {new}, level {base['level']} -> "
                 f"{level}", definition=new, level=level)]


def relaxed_when_mutants(base):
    """Each strict one-comparison condition made non-strict (``<`` -> ``<=``: the boundary added).

    Over integers ``a < b`` -> ``a <= b`` is the shift ``a < b + 1`` written another way; the engine reads
    the two spellings through different paths (a strict bound vs a shifted one), so both are kept."""
    out = []
    for i, w in enumerate(base.get("when") or []):
        parts = split_cond(w)
        if len(parts) == 1 and parts[0][1] in ("<", ">"):
            a, op, b = parts[0]
            when = list(base["when"])
            when[i] = f"{a} {op}= {b}"
            out.append(_mut(base, "when-relaxed", f"g3-when{i}-relaxed", f"`{w}` -> `{when[i]}` (boundary added)",
                            when=when))
    return out


def class_size_mutants(base):
    """A side's class sizes moved by one (``min_size`` -1 / +1, ``max_size`` +1)."""
    out = []
    for side in ("from", "to"):
        spec = base[side].get("classes")
        if not spec:
            continue
        for key, deltas in (("min_size", (-1, 1)), ("max_size", (1,))):
            if spec.get(key) is None:
                continue
            for d in deltas:
                if key == "min_size" and spec.get("max_size") is not None and d > 0:
                    continue    # min above max: no partition at all (vacuous)
                new = copy.deepcopy(base[side])
                new["classes"][key] = f"{spec[key]} {'+' if d > 0 else '-'} 1"
                out.append(_mut(base, "class-size", f"g3-{side}-{key}{d:+d}",
                                f"{side} classes {key} {spec[key]} -> {new['classes'][key]}", **{side: new}))
    return out


def hand_implication_everywhere(node, max_n=8):
    """The hand arguments cover the node: at every integer point of its condition (N <= ``max_n``, parameters
    in range) one of :data:`HAND_IMPLICATIONS` applies and the node's f is at least the bound it gives (B's raw
    f(alpha) - bound(T) >= 0 for every A raw level T >= 1, decided by sympy's assumptions).

    Returns (points checked, the arguments used) or None."""
    an, ap, acl, alvl = _side(node["from"])
    bn, bp, bcl, blvl = _side(node["to"])
    if (bcl is not None and (an, bn) not in HAND_ANY_PARTITION) or node["to"].get("scope") == "class" \
            or node["from"].get("scope") == "class" or node.get("f") is None:
        return None
    names = _names(node, alvl, blvl)
    f = parse(node["f"], names)
    conds = [c for w in (node.get("when") or []) for c in split_cond(w)]
    u = sympy.Symbol("u_", nonnegative=True)
    T = 1 + u
    texts, checked = [], 0
    for pt in int_points(node, names, conds, max_n):
        n = int(pt[names["N"]])
        api, bpi = _int_params(ap, names, pt), _int_params(bp, names, pt)
        if api is None or bpi is None or any(not 1 <= v <= n - 1 for v in list(api.values()) + list(bpi.values())):
            continue
        text = HAND_ANY_PARTITION.get((an, bn)) or _hand(an, api, bn, bpi, n, acl)
        if not text:
            return None
        bound = HAND_BOUND.get((an, bn), lambda x: x)(T)
        target = raw_of(bn, f.subs(pt).subs(names[alvl], level_of(an, T)))
        if target.free_symbols - {u}:
            return None
        gap = sympy.simplify(sympy.expand_log(target - bound, force=True))
        if gap.is_nonnegative is not True:
            return None
        checked += 1
        if text not in texts:
            texts.append(text)
    return (checked, texts) if checked else None


def _level_swap_hand(m, node):
    """A swapped level claim ``B satisfies L`` that follows from the established ``A satisfies L`` by a hand argument
    A => B keeping the raw level (the table's size and parameters fixed: no integer symbol), or None."""
    base_def = str(m.mutation.split()[1])
    table = data_tables()[node["_table"]]
    kinds = table.get("symbols") or {}
    if str(node.get("bound") or "satisfies") != "satisfies" or str(node.get("scope") or "table") != "table" \
            or any(k == "integer" for k in kinds.values()) or (base_def, str(node["definition"])) in HAND_BOUND:
        return None
    names = table_names(table)
    params = _int_params(node.get("params") or {}, names, {})
    pts = table_points(table, [])
    rows, _ = instantiate(table, pts[0]) if pts else (None, None)
    if params is None or rows is None:
        return None
    text = _hand(base_def, params, str(node["definition"]), params, len(rows), None)
    if not text:
        return None
    return (f"the table's size ({len(rows)} rows) and parameters {params} are fixed, and the hand argument "
            f"{base_def} => {node['definition']} keeps the raw level: {text}; the established base gives the level")


THIRD = ("converse", "bound-flip", "when-relaxed", "class-size", "level-swap")


def _decide_third(m, node, op, kind):
    """(truth, reason) for the third-generation operators, or None for the others."""
    if m.cls not in THIRD:
        return None
    if kind == "level":
        bad, checked = level_claim_violation(node)
        if bad:
            return "false", (f"brute force at {bad['point']}: optimal raw level {bad['optimal_raw']} vs claimed "
                             f"{bad['claimed_raw']} ({node.get('bound')})")
        if str(node.get("bound")) in ("satisfies", "lower") and op.startswith("g3-bound-") and checked \
                and re.search(r"bound exact ->", m.mutation):
            return "true", (f"a consequence of the established exact level (optimum == L gives both optimum <= L and "
                            f">= L); brute force holds at {checked} points")
        hand = _level_swap_hand(m, node) if m.cls == "level-swap" and checked else None
        if hand:
            return "true", hand
        if checked == 1 and not data_tables()[node["_table"]].get("symbols"):
            return "true", ("the table has no parameters: the brute-force optimum at its only point is exact and meets "
                            f"the {node.get('bound')} bound")
        return "undecided", "no independent evidence either way"
    if kind == "not-implies":
        hp = hand_implication_point(node)
        if hp:
            return "false", f"A => B at {hp[0]} of the new condition (hand: {hp[1]})"
        checked, missing = infinite_witness_everywhere(node)
        if checked and not missing:
            return "true", (f"brute force finds a table with A finite and B = oo at each of the {checked} parameter "
                            f"points with N <= {MAX_N} (true on that range)")
        return "undecided", "no independent evidence either way"
    if kind in EDGE:
        hit = _edge_violation(node)
        if hit is not None:
            return "false", _fmt_hit(hit)
        if m.cls == "class-size" and re.search(r"to classes min_size .* \+ 1$", m.mutation):
            return "true", ("B's classes restricted to larger sizes: the claim ranges over a sub-family of the "
                            "established base's partitions (a restriction of a true claim)")
        hand = hand_implication_everywhere(node)
        if hand:
            return "true", (f"hand argument at each of the {hand[0]} parameter points with N <= 8, f at least the bound "
                            f"it gives for every level: {'; '.join(hand[1])}")
        return "undecided", "no independent evidence either way"
    return "undecided", "no independent evidence either way"


def generate(claims=None, maps=None, second=True, third=True):
    """Every mutant of every established claim (truth not yet decided); ``second``: with the second-generation
    operators (issue 31), which also mutate Fig. 1's arrows besides Fig. 2's; ``third``: with the third-generation
    operators (converse, bound kind, relaxed strict condition, class sizes; ids ``~g3-...``)."""
    if maps is None:
        maps = ("ekenstedt2022/fig-2", "ekenstedt2022/fig-1") if second else ("ekenstedt2022/fig-2",)
    if claims is None:
        from implgraph.io.theorems import load_claims
        claims = load_claims()
    out = []
    for base in bases(claims):
        kind = base.get("kind")
        if kind in EDGE:
            out += edge_mutants(base) + (edge_mutants2(base) if second else [])
            if third and base.get("views") is None:
                out += converse_mutants(base) + relaxed_when_mutants(base) + class_size_mutants(base)
        elif kind == "not-implies":
            out += nonimplication_mutants(base) + (nonimplication_mutants2(base) if second else [])
            if third:
                out += relaxed_when_mutants(base)
        elif kind == "level" and base.get("_table"):
            out += level_mutants(base) + (level_mutants2(base) if second else [])
            if third:
                out += bound_mutants(base) + level_swap_mutants(base)
        elif kind == "unbounded":
            out += unbounded_mutants(base)
        elif kind == "math":
            out += math_mutants(base) + (math_mutants2(base) if second else [])
    # a map is mutated arrow by arrow, from the arrows that are established on their own (each arrow has
    # its `expect`), whatever the whole map's verdict (fig-2 is unknown as a whole: a few of its arrows are)
    for c in claims:
        if c.get("kind") == "map" and str(c.get("id")) in maps:
            out += map_mutants(c)
    return out


# -- deciding the truth of a mutant -------------------------------------------------------------------

def _op(m):
    return m.id.rsplit("~", 1)[1]


def _edge_violation(node):
    hit = implication_counterexample(node, "forward")
    if hit is None and node.get("kind") in ("equivalent", "reciprocal") and node.get("g") is not None:
        hit = implication_counterexample(node, "reverse")
        if hit is not None:
            hit["direction"] = "B => A with g"
    return hit


def _fmt_hit(hit):
    cls = f", classes {hit['classes']}" if hit.get("classes") else ""
    tgt = "no f (B's level is oo)" if hit.get("target_raw") is None else f"raw f(alpha) = {hit['target_raw']}"
    return (f"brute force at {hit['params']}{cls}: rows Pr(a1) = {[r[0] for r in hit['rows']]}, A's raw level "
            f"{hit['A']} (alpha = {hit['alpha']}{', ' + str(hit['extras']) if hit.get('extras') else ''}), B's raw "
            f"level {hit['B']} > {tgt}" + (f" [{hit['direction']}]" if hit.get("direction") else ""))


def _pseudo_edge(claim, arrow):
    """A map arrow as an edge node (levels named alpha_ / beta_)."""
    def side(spec, lvl):
        s = copy.deepcopy(dict(spec))
        s.setdefault("level", lvl)
        return s
    return {"from": side(arrow["from"], "alpha_"), "to": side(arrow["to"], "beta_"),
            "symbols": dict(claim.get("symbols") or {}), "when": list(arrow.get("when") or []), "kind": arrow["kind"]}


def decide(m, bases_by_id=None):
    """Set ``m.truth`` and ``m.reason`` from the independent checks (see the module docstring)."""
    node, op = m.node, _op(m)
    kind = node.get("kind")
    truth, reason = "undecided", "no independent evidence either way"
    second = _decide_second(m, node, op, kind)
    third = _decide_third(m, node, op, kind)
    if node.get("views") is not None:
        truth, reason = _views_truth(node)
    elif third is not None:
        truth, reason = third
    elif second is not None:
        truth, reason = second
    elif m.cls == "map-arrow":
        i = int(re.match(r"arrow(\d+)", op).group(1))
        arrow = node["arrows"][i]
        pseudo = _pseudo_edge(node, arrow)
        if arrow["kind"] == "not-implies":
            hp = hand_implication_point(pseudo)
            if hp:
                truth, reason = "false", f"the arrow's implication holds at {hp[0]} (hand: {hp[1]})"
        else:
            hit = implication_counterexample(pseudo)
            if hit:
                truth, reason = "false", "the arrow's implication fails (no f): " + _fmt_hit(hit)
    elif kind in EDGE and m.cls in ("f-scaled", "N-shift", "param", "when-flip", "f-weakened"):
        hit = _edge_violation(node)
        if hit is not None:
            truth, reason = "false", _fmt_hit(hit)
        elif m.cls == "f-weakened":
            truth, reason = "true", ("weaker f than the established base (levels are monotone); brute force finds "
                                     f"no counterexample with N <= {MAX_N}")
        elif m.cls == "when-flip" and op.endswith("-strict"):
            truth, reason = "true", "a restriction of the base's condition (a sub-region of a true claim)"
    elif m.cls == "kind-flip" and kind == "not-implies":
        hp = hand_implication_point(node)
        if hp:
            truth, reason = "false", f"A => B at {hp[0]} (hand: {hp[1]})"
    elif m.cls == "kind-flip" and kind == "implies":
        hit = implication_counterexample(node)
        if hit is not None:
            truth, reason = "false", _fmt_hit(hit)
    elif m.cls == "witness-when":
        hp = hand_implication_point(node)
        if hp:
            truth, reason = "false", f"the implication holds at {hp[0]} of the new condition (hand: {hp[1]})"
        elif op.endswith("-strict"):
            truth, reason = "true", "a restriction of the base's condition (a sub-region of a true claim)"
        else:
            checked, missing = infinite_witness_everywhere(node)
            if checked and not missing:
                truth, reason = "true", (f"brute force finds a table with A finite and B = oo at each of the {checked} "
                                         f"parameter points with N <= {MAX_N} (true on that range)")
    elif kind == "level":
        bad, checked = level_claim_violation(node)
        if bad:
            truth, reason = "false", f"brute force at {bad['point']}: optimal raw level {bad['optimal_raw']} vs claimed {bad['claimed_raw']}"
        elif m.cls == "level-weakened" and checked:
            truth, reason = "true", f"weaker printed level than the base; brute force holds at {checked} points"
        elif m.cls == "when-flip" and op.endswith("-strict"):
            truth, reason = "true", "a restriction of the base's condition"
    elif kind == "unbounded":
        fam = [parse(x) for x in node.get("family") or []]
        lim = node.get("limit", "0")
        a_vals = family_levels(node, "from", lim, fam[0])
        b_vals = family_levels(node, "to", lim, fam[0])
        if _grows(a_vals):
            truth, reason = "false", f"A's raw level is not bounded along the family: {[str(fr(v)) for v in a_vals if v is not None]}"
        elif _settles(b_vals):
            truth, reason = "false", f"B's raw level settles along the family: {[str(fr(v)) for v in b_vals]}"
    elif kind == "math":
        bad, checked = math_violation(node)
        if bad:
            truth, reason = "false", f"exact evaluation at {bad['point']}: {bad['why']}"
        elif m.cls == "values" and op == "claimed-near" and checked:
            truth, reason = "true", "the exact value is within the tolerance of the mutated claimed value"
    m.truth, m.reason = truth, reason
    return m


SECOND_EDGE = ("constant", "definition-swap", "param-dual", "when-nudged", "f-bigger", "when-restricted")


def _decide_second(m, node, op, kind):
    """(truth, reason) for the second-generation operators, or None for the others."""
    if kind in EDGE and m.cls in SECOND_EDGE:
        hit = _edge_violation(node)
        if hit is not None:
            return "false", _fmt_hit(hit)
        if m.cls == "f-bigger":
            return "true", ("a pointwise larger f than the established base's (a weaker level of B); brute force "
                            f"finds no counterexample with N <= {MAX_N}")
        if m.cls == "when-restricted":
            return "true", "a restriction of the established base's condition (N >= 3 added)"
        return "undecided", "no independent evidence either way"
    if kind == "not-implies" and m.cls == "definition-swap":
        hp = hand_implication_point(node)
        if hp:
            return "false", f"A => B at {hp[0]} (hand: {hp[1]})"
        checked, missing = infinite_witness_everywhere(node)
        if checked and not missing:
            return "true", (f"brute force finds a table with A finite and B = oo at each of the {checked} parameter "
                            f"points with N <= {MAX_N} (true on that range)")
        return "undecided", "no independent evidence either way"
    if kind == "level" and m.cls in ("constant", "level-nudged", "scope-flip"):
        bad, checked = level_claim_violation(node)
        if bad:
            return "false", (f"brute force at {bad['point']}: optimal raw level {bad['optimal_raw']} vs claimed "
                             f"{bad['claimed_raw']}")
        bound = str(node.get("bound") or "satisfies")
        weaker = (bound == "satisfies" and op.endswith("up")) or (bound == "lower" and op.endswith("down"))
        if m.cls == "level-nudged" and weaker and checked:
            return "true", f"a weaker printed level than the established base's; brute force holds at {checked} points"
        return "undecided", "no independent evidence either way"
    if kind == "math" and m.cls == "constant":
        bad, checked = math_violation(node)
        if bad:
            return "false", f"exact evaluation at {bad['point']}: {bad['why']}"
        return "undecided", "no independent evidence either way"
    return None


#: the levels t at which a claim about the intruder's views is compared with its tight f (hand, below)
VIEWS_T = (R(1), R(9, 8), R(3, 2), R(2), R(3), R(10))


def _views_truth(node):
    """The truth of a mutated claim about the intruder's views (domingo-ferrer2015 Prop. 3's model), by hand.

    Under the model the views are the whole-table distribution P and a class's (each class value v has
    P/T <= v <= T P per bucket, T = A's ratio level), so two views differ by at most T^2 (v <= T P <= T^2 w),
    and one table read twice (I in a class at T P, then in one at P/T) attains T^2: the implication holds
    with exactly the f >= ln(T^2) = 2 ln t."""
    if node.get("kind") == "not-implies":
        return "false", "the views argument: v <= T P <= T^2 w per bucket, so A => B with f = 2 ln t (hand)"
    if node.get("kind") not in EDGE or node.get("f") is None:
        return "undecided", "no independent evidence either way"
    lvl = str(node["from"].get("level") or "t")
    names = _names(node, lvl)
    f = parse(node["f"], names)
    tight = 2 * sympy.log(names[lvl])
    for t in VIEWS_T:
        if compare(f.subs(names[lvl], t), "<", tight.subs(names[lvl], t)) is True:
            return "false", (f"at t = {t}: f = {f.subs(names[lvl], t)} < 2 ln t, and a table read twice attains "
                             "T^2 under the views (hand)")
    d = sympy.simplify(f - tight)
    if d.is_number and compare(d, ">=", 0) is True:
        return "true", f"f - 2 ln t = {d} >= 0: weaker than the tight f of the views argument (hand)"
    return "undecided", "no independent evidence either way"


# -- the engine, and the figures ----------------------------------------------------------------------

_MAP_CONTEXT: dict = {}


def map_context():
    """The engine's verdicts on the (unmutated) theorem claims, for judging mutated maps as `verify` does."""
    if not _MAP_CONTEXT:
        from implgraph.io.theorems import load_claims
        from implgraph.checks import check_claim
        ctx = {"max_n": 8, "verdicts": {}}
        for c in load_claims(kinds=("theorems",)):
            if c.get("kind") in EDGE + ("not-implies",):
                v = check_claim(c, ctx)
                ctx["verdicts"][str(c["id"])] = v
                ctx.pop("extra_rows", None)
        _MAP_CONTEXT.update(ctx["verdicts"])
    return dict(_MAP_CONTEXT)


def engine_verdict(m):
    """The engine's verdict on a mutant: (verdict, evidence, witness); an input error is ``input-error``."""
    from implgraph.core.errors import InputError
    from implgraph.checks import check_claim
    try:
        ctx = {"max_n": 8, "verdicts": map_context() if m.node.get("kind") == "map" else {}}
        v = check_claim(copy.deepcopy(m.node), ctx)
    except InputError as exc:
        return "input-error", str(exc), None
    except Exception as exc:     # a checker crash is reported, not hidden
        return "error", f"{type(exc).__name__}: {exc}", None
    if m.cls == "map-arrow":     # the mutated arrow's own state in the map's verdict
        i = int(re.match(r"arrow(\d+)", _op(m)).group(1))
        state = (v.details.get("arrows") or [{}] * (i + 1))[i].get("state", "unknown")
        return ("holds" if state == "holds" else f"arrow {state}"), v.evidence, None
    return v.verdict, v.evidence, v.witness


def recheck_refutation(m, witness):
    """Brute-force re-check of an engine refutation's table witness: True (sound), False, or None."""
    node = m.node
    if not witness or "rows" not in witness:
        return None
    if node.get("kind") == "level":
        table = data_tables()[node["_table"]]
        names = table_names(table)
        pt = {names[k]: parse(v) for k, v in (witness.get("params") or {}).items() if k in names}
        rows2, classes = instantiate(table, pt)
        if rows2 is None:
            return None
        params = _int_params(node.get("params") or {}, names, pt) or {}
        opt = scoped_raw(str(node["definition"]), rows2, classes, params, str(node.get("scope") or "table"))
        if opt is None:
            return None
        m2 = copy.deepcopy(m)
        m2.node["when"] = []
        target = raw_of(str(node["definition"]), parse(node["level"], names).subs(pt))
        o = fr(opt) if not isinstance(opt, sympy.Basic) else opt
        bound = str(node.get("bound") or "satisfies")
        larger = str(node["definition"]) in LARGER
        if bound == "exact":
            return compare(o, "!=", target)
        if (bound == "satisfies") != larger:
            return compare(o, ">", target)
        return compare(o, "<", target)
    if node.get("kind") in ("implies", "equivalent", "generalisation", "reciprocal"):
        try:
            rows = [[Fraction(str(x)) for x in r] for r in witness["rows"]]
        except ValueError:
            return None
        results = [_recheck_direction(node, witness, rows, "forward")]
        if node.get("kind") in ("equivalent", "reciprocal"):
            results.append(_recheck_direction(node, witness, rows, "reverse"))
        if True in results:
            return True
        return False if False in results else None
    return None


def _recheck_direction(node, witness, rows, direction):
    """Does the witness refute A => B with f (``forward``) or B => A with g (``reverse``)?"""
    a_spec, b_spec, key = (node["from"], node["to"], "f") if direction == "forward" else (node["to"], node["from"], "g")
    an, ap, acl, alvl = _side(a_spec)
    bn, bp, bcl, blvl = _side(b_spec)
    names = _names(node, alvl, blvl)
    pt = {names.setdefault(k, sympy.Symbol(k)): parse(v) for k, v in (witness.get("params") or {}).items()}
    classes = witness.get("classes")
    api, bpi = _int_params(ap, names, pt) or {}, _int_params(bp, names, pt) or {}
    ra = brute_raw(an, rows, classes, api)
    rb = brute_raw(bn, rows, classes, bpi)
    lvl = witness.get(alvl)
    if ra is None or rb is None or lvl is None or node.get(key) is None:
        return None
    alpha = parse(lvl)
    if compare(fr(ra), "<=", raw_of(an, alpha)) is not True:
        return False
    if rb == brute.INF:
        return True
    target = raw_of(bn, parse(node[key], names).subs(pt).subs(names[alvl], alpha))
    return compare(fr(rb), ">", target)


@dataclass
class Outcome:
    """A decided mutant with the engine's verdict."""

    mutant: Mutant
    verdict: str
    evidence: str
    recheck: bool | None = None

    @property
    def killed(self) -> bool:
        return self.verdict not in ESTABLISHED

    @property
    def false_refutation(self) -> bool:
        return self.verdict == "refuted" and (self.mutant.truth == "true" or self.recheck is False)


def run(mutants, progress=None):
    """Decide every mutant and ask the engine; returns the list of :class:`Outcome`."""
    out = []
    for m in mutants:
        try:
            decide(m)
        except (TypeError, ValueError, KeyError, ZeroDivisionError, NotImplementedError) as exc:
            m.truth, m.reason = "undecided", f"the independent check failed: {type(exc).__name__}: {exc}"
        verdict, evidence, witness = engine_verdict(m)
        try:
            recheck = recheck_refutation(m, witness) if verdict == "refuted" else None
        except (TypeError, ValueError, KeyError):
            recheck = None
        out.append(Outcome(m, verdict, evidence, recheck))
        if progress:
            progress(out[-1])
    return out


def summary(outcomes):
    """The figures: totals, false mutants, killed, kill rate, true mutants refuted, survivors."""
    false = [o for o in outcomes if o.mutant.truth == "false"]
    killed = [o for o in false if o.killed]
    return {"total": len(outcomes), "false": len(false), "true": sum(o.mutant.truth == "true" for o in outcomes),
            "undecided": sum(o.mutant.truth == "undecided" for o in outcomes), "killed": len(killed),
            "kill_rate": len(killed) / len(false) if false else 1.0,
            "false_refutations": [o for o in outcomes if o.false_refutation],
            "survivors": [o for o in false if not o.killed],
            "undecided_refuted_unchecked": [o for o in outcomes if o.mutant.truth == "undecided"
                                            and o.verdict == "refuted" and o.recheck is None]}
