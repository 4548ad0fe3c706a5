"""Claims about counterexample tables: level claims and unbounded (non-implication) claims.

A *level claim* says that a table satisfies a definition at a printed level ``L`` (for the
eps-definitions ``L`` is an eps and the table satisfies it when its optimal ratio is at most
``exp(L)``). :func:`judge_level_claim` decides it on the table's whole parameter region:

- ``holds``: the optimal level equals ``L`` everywhere on the region;
- ``holds-not-tight``: the table satisfies ``L`` everywhere but its optimal level is stronger
  somewhere (the exact level is reported);
- ``refuted``: an exact parameter point of the region where the table does *not* satisfy ``L``,
  re-checked on the instantiated concrete table;
- ``unknown``: the solver could not decide.

``bound: exact`` claims (the printed level is *the* optimal level) are refuted wherever the optimum
differs; ``bound: lower`` claims (the table satisfies nothing stronger than ``L``) are refuted where
the optimum is stronger than ``L``.

An *unbounded claim* says that A's level stays bounded while B's level grows without bound as the
free parameter tends to its limit. :func:`judge_unbounded` takes both limits with sympy, from
inside the region (the other symbols fixed by ``fix:``), and :func:`witness_family` instantiates
the table along the free parameter and computes both levels exactly on the concrete tables.

The symbolic levels are computed by the definitions' own code on a :class:`LazyCtx`: order
questions between the values of a column split the region as usual, but the final maximum over
candidate ratios is kept as an exact ``Max(...)`` where the region does not decide it (instead of
splitting the region on every pair of candidates). A claim ``Max(c_1, ..., c_n) <= T`` is then
decided candidate by candidate, which keeps each solver query small.

References
----------
.. [1] E. Ekenstedt et al., "When Differential Privacy Implies Syntactic Privacy", IEEE TIFS 17, 2022,
   Appendix (Tables III-VII).
"""

from __future__ import annotations

import functools
import itertools
import time
from dataclasses import dataclass, field
from fractions import Fraction

import sympy

from implgraph import definitions
from implgraph.core.concrete import ConcreteTable
from implgraph.core.errors import InputError
from implgraph.core.formula import parse_condition, parse_expr
from implgraph.core.region import Region
from implgraph.core.symbolic import Ctx, Piece, Undecidable, split_leaves
from implgraph.core.verdict import Verdict, checker

__all__ = ["LazyCtx", "find_level", "SymbolicLevel", "concrete_level", "judge_level_claim",
           "judge_unbounded", "witness_family", "claim_table"]

MAX_SPLITS = 16


# -- lazy maxima -----------------------------------------------------------------------------------

def _max_args(x):
    return list(x.args) if isinstance(x, sympy.Max) else [x]


@functools.lru_cache(maxsize=50_000)
def _factor_list(p):
    try:
        c, fs = sympy.factor_list(p)
    except (sympy.PolynomialError, sympy.GeneratorsNeeded, NotImplementedError):
        return sympy.Integer(1), ((p, 1),)
    return c, tuple(fs)


def _factor_sign(region, known, f) -> int:
    """+1 / -1 when the factor is strictly positive / negative on the region, else 0 (unknown)."""
    if f.is_number:
        return int(sympy.sign(f))
    key = ("lazy-factor", f)
    if key not in known:
        if region.decide(sympy.Gt(f, 0)) is True:
            known[key] = 1
        elif region.decide(sympy.Lt(f, 0)) is True:
            known[key] = -1
        else:
            known[key] = 0
    return known[key]


def _sign_no_split(region, known, e):
    """The sign of ``e`` on the whole region (1, -1, 0) or None, asking only about small factors."""
    num, den = sympy.fraction(sympy.together(e))
    s, rest = 1, []
    for part in (num, den):
        c, fs = _factor_list(sympy.expand(part))
        if c == 0:
            return 0
        s *= int(sympy.sign(c))
        for f, m in fs:
            sf = _factor_sign(region, known, f)
            if sf:
                s *= sf ** m
            elif m % 2 == 0:
                rest.append(f ** m)   # >= 0, maybe 0
            else:
                rest.append(f)
    if not rest:
        return s
    q = sympy.expand(sympy.Mul(*rest))
    if len(q.free_symbols) <= 3:
        # a small residual: ask the solver about it as a whole
        if region.decide(sympy.Ge(q, 0)) is True:
            return s
        if region.decide(sympy.Le(q, 0)) is True:
            return -s
        return None
    if len(rest) == 1:
        q = rest[0]
        if region.decide(sympy.Ge(q, 0)) is True:
            return s if region.decide(sympy.Gt(q, 0)) is True else None
        if region.decide(sympy.Le(q, 0)) is True:
            return -s if region.decide(sympy.Lt(q, 0)) is True else None
    return None


def _pair_le(region, known, x, y):
    """Three-valued ``x <= y`` on the whole region (True or None), without splitting it."""
    if y is sympy.oo:
        return True
    if x is sympy.oo:
        return False
    d = sympy.sympify(y) - sympy.sympify(x)
    key = ("lazy-le", d)
    if key in known:
        return known[key]
    s = _sign_no_split(region, known, d)
    r = True if s is not None and s >= 0 else None
    known[key] = r
    return r


class LazyCtx(Ctx):
    """A :class:`~implgraph.core.symbolic.Ctx` whose ``max`` never splits the region.

    Candidates the region orders are dropped; the others stay in an exact ``Max(...)``.
    """

    def max(self, xs):
        xs = [x for x in xs if x is not None]
        if not xs:
            return None
        flat = []
        for x in xs:
            flat.extend(_max_args(sympy.sympify(x)))
        if any(x is sympy.oo for x in flat):
            return sympy.oo
        keep: list = []
        for x in flat:
            if any(_pair_le(self.region, self.known, x, y) is True for y in keep):
                continue
            keep = [y for y in keep if _pair_le(self.region, self.known, y, x) is not True] + [x]
        if len(keep) == 1:
            return keep[0]
        return sympy.Max(*keep, evaluate=False)


def _lazy(ctx) -> LazyCtx:
    """The same context (shared region and decisions) with the lazy ``max``."""
    obj = LazyCtx.__new__(LazyCtx)
    obj.__dict__ = ctx.__dict__
    return obj


def _same(a, b) -> bool:
    if a is None or b is None:
        return a is b
    if a is sympy.oo or b is sympy.oo:
        return a == b
    if isinstance(a, sympy.Max) or isinstance(b, sympy.Max):
        xa, xb = _max_args(a), _max_args(b)
        return len(xa) == len(xb) and all(any(_same(x, y) for y in xb) for x in xa)
    try:
        return sympy.cancel(sympy.together(a - b)) == 0
    except (TypeError, ValueError):
        return a == b


def _pieces(region: Region, compute, max_splits: int = MAX_SPLITS) -> list:
    """The leaves of :func:`symbolic.split_leaves`, merged by value; each piece keeps its sub-regions."""
    out = [Piece(sympy.And(*extra) if extra else sympy.true, value, reg)
           for extra, value, reg in split_leaves(region, compute, max_splits)]
    merged: list = []
    for p in out:
        for q in merged:
            if _same(p.value, q.value):
                q.condition = sympy.Or(q.condition, p.condition)
                q.region = None
                q._regions.append(p.region)
                break
        else:
            p._regions = [p.region]
            merged.append(p)
    if len(merged) == 1:
        merged[0].condition = sympy.true
    return merged


@dataclass
class SymbolicLevel:
    """The exact optimal level of one definition on a parametric table, piece by piece.

    ``pieces`` hold the *raw* value (the ratio for t- and eps-definitions); each piece keeps the
    list of sub-regions it was computed on (``piece._regions``).
    """

    definition: object
    params: dict
    scope: str
    pieces: list
    region: Region
    note: str = ""
    seconds: float = 0.0

    @property
    def defined(self) -> bool:
        return bool(self.pieces) and all(p.value is not None for p in self.pieces)

    def level_pieces(self):
        return [(p.condition, self.definition.level_from_raw(p.value)) for p in self.pieces]

    def __str__(self):
        if not self.defined:
            return f"undefined ({self.note})" if self.note else "undefined"
        lp = self.level_pieces()
        if len(lp) == 1:
            return str(lp[0][1])
        return "; ".join(f"{v} if {c}" for c, v in lp)

    def to_json(self) -> dict:
        return {
            "level": str(self) if self.defined else None,
            "params": {k: str(v) for k, v in self.params.items()},
            "scope": self.scope,
            "pieces": [{"when": "everywhere" if c is sympy.true else str(c),
                        "level": None if v is None else str(v)} for c, v in self.level_pieces()],
            **({"note": self.note} if self.note else {}),
        }


# -- memo and on-disk cache of symbolic levels ----------------------------------------------------

_MEMO: dict = {}
_CODE_HASH: list = []
_RUNTIME_KEYS: dict = {}


def _code_hash() -> str:
    """A hash of the code the levels depend on (a change invalidates the on-disk cache)."""
    if not _CODE_HASH:
        import hashlib
        from pathlib import Path
        h = hashlib.sha256()
        root = Path(__file__).resolve().parents[1]
        files = [root / "checks" / "tables.py"] + [root / "core" / f for f in ("symbolic.py", "region.py", "table.py")]
        files += sorted((root / "definitions").glob("*.py"))
        for f in files:
            try:
                h.update(f.read_bytes())
            except OSError:
                pass
        _CODE_HASH.append(h.hexdigest())
    return _CODE_HASH[0]


def _definition_hash(d) -> str:
    """A hash of the module defining ``d`` (plugins live outside the package's own code hash)."""
    import hashlib
    import inspect
    try:
        source = inspect.getsourcefile(type(d))
        with open(source, "rb") as fh:
            return hashlib.sha256(fh.read()).hexdigest()
    except (OSError, TypeError):
        # no source file to hash (a class made at run time): a key no other run can produce
        import uuid
        return _RUNTIME_KEYS.setdefault(type(d), f"no-source:{uuid.uuid4()}")


def _level_key(table, d, params, scope, region) -> str:
    import hashlib

    from implgraph.solvers import region_backend_name
    parts = (_code_hash(), region_backend_name(), _definition_hash(d), d.name, sorted((k, str(v)) for k, v in params.items()), scope,
             [(tuple(map(str, b.probs)), str(b.count), b.cls) for b in table.blocks], list(table.buckets),
             sorted((s.name, k) for s, k in region.kinds.items()), [str(c) for c in region.constraints])
    return hashlib.sha256(repr(parts).encode()).hexdigest()


def cache_dir():
    """Where symbolic levels are cached (``$IMPLGRAPH_CACHE_DIR``; ``IMPLGRAPH_NO_CACHE=1`` disables).

    An entry is named by the sha256 content key of :func:`_level_key` and stores that key and a
    checksum; on loading, each piece is re-checked at an exact sample point against the concrete
    level (:func:`_cache_confirms`), so a damaged or wrong entry is recomputed, never trusted.
    """
    from implgraph.io.output import cache_dir as _cache_dir
    return _cache_dir("levels")


def _cache_checksum(key, pieces_json) -> str:
    """sha256 over the entry's key and its canonical JSON pieces (detects a damaged entry)."""
    import hashlib
    import json
    return hashlib.sha256((key + json.dumps(pieces_json, sort_keys=True)).encode()).hexdigest()


def _cache_load(key, region, symbols):
    """The cached pieces of ``key``, or None when absent, unreadable, or failing its checksum.

    A loaded entry is still only a candidate: :func:`_cache_confirms` re-checks it on the table.
    """
    import json
    folder = cache_dir()
    if folder is None:
        return None
    path = folder / f"{key}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("key") != key or data.get("checksum") != _cache_checksum(key, data["pieces"]):
            return None
        pieces = []
        for p in data["pieces"]:
            value = None if p["value"] is None else parse_expr(p["value"], symbols)
            regs = [region.add(*[parse_condition(c, symbols) for c in extra]) for extra in p["regions"]]
            conds = [sympy.And(*[parse_condition(c, symbols) for c in extra]) for extra in p["regions"]]
            piece = Piece(sympy.Or(*conds) if len(conds) > 1 else (conds[0] if conds else sympy.true), value,
                          regs[0] if len(regs) == 1 else None)
            piece._regions = regs
            pieces.append(piece)
        if not pieces:
            return None
        if len(pieces) == 1:
            pieces[0].condition = sympy.true
        return pieces
    except (OSError, ValueError, KeyError, TypeError, AttributeError, InputError):
        return None


def _same_number(a, b) -> bool:
    """Exact equality of two levels at a point (rationals, oo, None); irrational values (entropy
    l-diversity) are compared to 50 digits, since their exact equality is not decidable cheaply."""
    if a is None or b is None:
        return a is b
    a, b = sympy.sympify(a), sympy.sympify(b)
    if a is sympy.oo or b is sympy.oo:
        return a == b
    if not (a.is_number and b.is_number):
        return False
    if a.is_Rational and b.is_Rational:
        return a == b
    diff = sympy.N(a - b, 50)
    scale = max(abs(sympy.N(a, 50)), sympy.Integer(1))
    return diff.is_number and abs(diff) <= scale * sympy.Rational(1, 10 ** 45)


def _cache_confirms(pieces, table, d, params, scope) -> bool:
    """Re-check a cached level: every piece's value at an exact sample point of its sub-region must
    equal the concrete exact level of the table instantiated there. A piece without a sample point
    cannot be confirmed (the entry is then recomputed, never trusted)."""
    for piece in pieces:
        regions = getattr(piece, "_regions", None) or ([piece.region] if piece.region else [])
        point = next((pt for reg in regions for pt in _sample_points(reg, limit=1)), None)
        if point is None:
            return False
        cached = None if piece.value is None else sympy.sympify(piece.value).xreplace(point)
        try:
            actual = concrete_level(table, d, params, point, scope)
        except (InputError, ZeroDivisionError, TypeError, ValueError):
            return False
        if not _same_number(cached, actual):
            return False
    return True


def _cache_store(key, pieces, region):
    import json
    from implgraph.io.output import atomic_write
    folder = cache_dir()
    if folder is None:
        return
    n = len(region.constraints)
    body = [{"value": None if p.value is None else str(p.value),
             "regions": [[str(c) for c in reg.constraints[n:]] for reg in p._regions]}
            for p in pieces]
    data = {"key": key, "pieces": body, "checksum": _cache_checksum(key, body)}
    try:
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write(folder / f"{key}.json", json.dumps(data))
    except OSError:
        pass


def find_level(table, definition, params=None, scope="table", region=None) -> SymbolicLevel:
    """The exact optimal level of ``definition`` on ``table`` over ``region`` (default its region).

    Parameters
    ----------
    table : Table
    definition : str or Definition
    params : dict
        The definition's parameters (sympy expressions; symbols must be declared in the region).
    scope : {"table", "class"}
        ``class``: the definition is evaluated within each equivalence class, the worst taken.

    Raises
    ------
    InputError
        Unknown definition, bad parameters, or a region that cannot be split into decided pieces.
    """
    start = time.perf_counter()
    d = definitions.get(definition) if isinstance(definition, str) else definition
    params = d.check_params(table, dict(params or {}))
    region = region or table.region
    extra = {s: "integer" for v in params.values() if isinstance(v, sympy.Basic)
             for s in v.free_symbols if s not in region.kinds}
    if extra:
        region = region.with_symbols(extra)
    if d.needs_classes and not table.has_classes:
        return SymbolicLevel(d, params, scope, [Piece(sympy.true, None)], region,
                             note="the table has no equivalence classes")
    if scope == "class" and not table.has_classes:
        return SymbolicLevel(d, params, scope, [Piece(sympy.true, None)], region,
                             note="scope: class on a table without classes")
    parts = [table.restrict(c) for c in table.classes] if scope == "class" else [table]

    def compute(ctx):
        lctx = _lazy(ctx)
        values = [d.symbolic(lctx, part, **params) for part in parts]
        if any(v is None for v in values):
            return None
        if len(values) == 1:
            return values[0]
        if d.stronger == "smaller":
            return lctx.max(values)
        return ctx.min(values)

    key = _level_key(table, d, params, scope, region)
    symbols = dict(table.symbols)
    symbols.update({s.name: s for s in region.kinds})
    if key in _MEMO:
        pieces = _MEMO[key]
    else:
        pieces = _cache_load(key, region, symbols)
        if pieces is not None and not _cache_confirms(pieces, table, d, params, scope):
            pieces = None           # a wrong entry: recomputed below and overwritten
    if pieces is not None:
        _MEMO[key] = pieces
        return SymbolicLevel(d, params, scope, pieces, region, seconds=round(time.perf_counter() - start, 3))
    try:
        pieces = _pieces(region, compute)
        _MEMO[key] = pieces
        _cache_store(key, pieces, region)
    except Undecidable as exc:
        raise InputError(f"{d.name}: the region could not be split into decided pieces ({exc})",
                         file=table.file, fix="add region constraints that fix the order of the values")
    return SymbolicLevel(d, params, scope, pieces, region, seconds=round(time.perf_counter() - start, 3))


# -- exact concrete re-check ----------------------------------------------------------------------

def concrete_level(table, definition, params, point, scope="table"):
    """The exact optimal *raw* level of the table instantiated at ``point`` (a sympy number, oo or None)."""
    from implgraph.core.levels import optimal_level
    d = definitions.get(definition) if isinstance(definition, str) else definition
    t = table.subs(point)
    ps = {k: sympy.sympify(v).subs(point) if isinstance(v, sympy.Basic) else v for k, v in params.items()}
    parts = [t.restrict(c) for c in t.classes] if scope == "class" else [t]
    raws = []
    for part in parts:
        lv = optimal_level(_concrete(part), d, **ps)
        if len(lv.pieces) != 1 or lv.pieces[0].value is None:
            return None
        raws.append(sympy.sympify(lv.pieces[0].value))
    if any(r is sympy.oo for r in raws):
        return sympy.oo if d.stronger == "smaller" else sympy.Min(*raws)
    return sympy.Max(*raws) if d.stronger == "smaller" else sympy.Min(*raws)


def _concrete(t):
    rows, classes = [], []
    for probs, cls in t.rows():
        rows.append([Fraction(int(sympy.Rational(v).p), int(sympy.Rational(v).q)) for v in probs])
        classes.append(cls)
    return ConcreteTable.from_fractions(rows, buckets=t.buckets,
                                        classes=classes if any(c is not None for c in classes) else None,
                                        id=t.id)


def _num_le(a, b):
    """Exact ``a <= b`` for numbers (oo allowed); sympy decides transcendental comparisons."""
    if b is sympy.oo:
        return True
    if a is sympy.oo:
        return False
    r = sympy.sympify(a <= b)
    if r in (sympy.true, sympy.false):
        return bool(r)
    return bool(sympy.N(b - a, 50) >= 0)


# -- level claims ---------------------------------------------------------------------------------

def _fmt_point(point):
    return {str(k): str(v) for k, v in sorted(point.items(), key=lambda kv: str(kv[0]))}


def _parse_claim_parts(table, claim):
    names = dict(table.symbols)
    line = getattr(claim, "line", None)
    file = getattr(claim, "file", None) or table.file

    def p(text, key):
        try:
            return parse_expr(str(text), names)
        except InputError as e:
            raise e.at(file, claim.line_of(key) if hasattr(claim, "line_of") else line) from None

    def c(text):
        try:
            return parse_condition(str(text), names)
        except InputError as e:
            raise e.at(file, claim.line_of("when") if hasattr(claim, "line_of") else line) from None

    when = [c(w) for w in (claim.get("when") or [])]
    return p, when


def _sample_points(region: Region, limit=600):
    """Rational sample points of ``region`` (exact membership), for witness search.

    Candidates are screened in floating point (fast) and every point returned is checked exactly.
    """
    syms = sorted(region.kinds, key=lambda s: s.name)
    reals = [sympy.Rational(x) for x in ("1/100", "1/10", "1/5", "1/4", "1/3", "2/5", "1/2", "3/5", "2/3", "3/4",
                                         "4/5", "9/10", "99/100", "1", "3/2", "2")]
    ints = list(range(1, 13)) if len(syms) <= 2 else list(range(1, 9))
    if len(syms) > 2:
        reals = [sympy.Rational(x) for x in ("1/10", "1/4", "1/3", "3/8", "1/2", "2/3", "3/4", "7/8", "99/100", "1")]
    grids = [ints if region.kinds[s] == "integer" else reals for s in syms]
    screens = []
    for c in region.constraints:
        try:
            screens.append(sympy.lambdify(syms, c, modules="math"))
        except Exception:  # pragma: no cover - an expression lambdify cannot handle: exact check only
            pass
    fgrids = [[float(v) for v in g] for g in grids]
    count = 0
    for idx in itertools.islice(itertools.product(*[range(len(g)) for g in grids]), 20000):
        fvals = [fgrids[i][j] for i, j in enumerate(idx)]
        try:
            if not all(bool(f(*fvals)) for f in screens):
                continue
        except (ZeroDivisionError, ValueError, TypeError, OverflowError):
            pass
        point = {s: grids[i][j] for i, (s, j) in enumerate(zip(syms, idx))}
        if region.contains(point) is True:
            yield point
            count += 1
            if count >= limit:
                return


def _raw_target(d, level):
    if level is sympy.oo:
        return sympy.oo
    return d.raw_from_level(level)


def judge_level_claim(table, claim, level_cache=None) -> Verdict:
    """Decide a ``kind: level`` claim on ``table`` (see the module docstring)."""
    cid = str(claim.get("id"))
    printed = str(claim.get("printed", ""))
    name = str(claim.get("definition"))
    base = dict(id=cid, printed=printed, expect=claim.get("expect") and str(claim.get("expect")),
                source=claim.get("source") and str(claim.get("source")))
    try:
        d = definitions.get(name)
    except InputError:
        return Verdict(verdict="unknown", evidence=f"definition not registered: {name}", **base)
    p, when = _parse_claim_parts(table, claim)
    params = {k: (str(v) if k == "ground" else p(v, "params")) for k, v in (claim.get("params") or {}).items()}
    target = p(claim.get("level"), "level")
    bound = str(claim.get("bound") or "satisfies")
    scope = str(claim.get("scope") or "table")
    region = table.region.add(*when)
    key = (name, tuple(sorted((k, str(v)) for k, v in params.items())), scope, tuple(map(str, when)))
    if level_cache is not None and key in level_cache:
        lv = level_cache[key]
    else:
        lv = find_level(table, d, params, scope, region)
        if level_cache is not None:
            level_cache[key] = lv
    exact = str(lv)
    base["exact"] = exact
    base["details"] = {"level": lv.to_json(), "bound": bound, "target": str(target)}
    if not lv.defined:
        return Verdict(verdict="unknown", evidence=f"{name} is undefined on this table ({lv.note})", **base)
    T = _raw_target(d, target)
    smaller = d.stronger == "smaller"

    def satisfied(arg):          # arg at least as strong as T
        return sympy.Le(arg, T) if smaller else sympy.Ge(arg, T)

    def stronger_than(arg):      # arg strictly stronger than T
        return sympy.Lt(arg, T) if smaller else sympy.Gt(arg, T)

    # on every sub-region: the value is Max(args) (smaller is stronger) or a single value
    counter, undecided, tight_all = None, [], True
    for piece in lv.pieces:
        raw = piece.value
        args = _max_args(raw) if smaller else [raw]
        for reg in piece._regions:
            if T is sympy.oo:
                sat = True if smaller else raw is sympy.oo
                atleast = (raw is sympy.oo) if smaller else True
                not_sat, strict = sympy.false, (sympy.true if (smaller and raw is not sympy.oo) else sympy.false)
            elif raw is sympy.oo:
                sat, atleast = (False, True) if smaller else (True, False)
                not_sat, strict = (sympy.true, sympy.false) if smaller else (sympy.false, sympy.true)
            else:
                not_sat = sympy.Or(*[sympy.Not(satisfied(a)) for a in args])
                strict = sympy.And(*[stronger_than(a) for a in args])
                if bound != "lower" and T.has(sympy.exp, sympy.log):
                    # a transcendental printed level: look for a violation at sample points first
                    found = _quick_violation(reg, raw, T, smaller, table, d, params, scope, target, bound)
                    if found is not None:
                        counter = found
                        break
                sat = reg.decide(sympy.Not(not_sat))
                atleast = reg.decide(sympy.Not(strict))
            if bound == "satisfies":
                bad = None if sat is True else not_sat
            elif bound == "exact":
                bad = None if (sat is True and atleast is True) else sympy.Or(not_sat, strict)
            else:
                bad = None if atleast is True else strict
            if not (sat is True and atleast is True):
                tight_all = False
            if bad is not None:
                found = _find_bad_point(reg, bad, table, d, params, scope, target, bound)
                if found is not None:
                    counter = counter or found
                    break
                undecided.append(str(piece.condition))
        if counter is not None:
            break
    if counter is not None:
        point, opt = _canonical_point(region, counter, table, d, params, scope, target, bound)
        used = set(table.free_symbols) | set(target.free_symbols)
        for v in list(params.values()) + list(when):
            if isinstance(v, sympy.Basic):
                used |= v.free_symbols
        point = {s: v for s, v in point.items() if s in used}
        lvl = d.level_from_raw(opt)
        what = {"satisfies": f"does not satisfy {name} at {target}",
                "exact": f"does not have {target} as its optimal {name} level",
                "lower": f"satisfies {name} at a level stronger than {target}"}[bound]
        witness = {"params": _fmt_point(point), "optimal_level": str(lvl),
                   "printed_level": str(sympy.simplify(target.subs(point))),
                   "rows": _rows(table, point)}
        return Verdict(verdict="refuted", witness=witness,
                       evidence=f"at {_fmt_point(point)} the table {what}: its exact optimal level is {lvl} "
                                f"(re-checked on the concrete table)", **base)
    if undecided:
        return Verdict(verdict="unknown",
                       evidence=f"the solver could not decide the claim on the piece(s) {undecided}", **base)
    if tight_all:
        return Verdict(verdict="holds", evidence=f"the exact optimal level equals {target} on the whole region",
                       **base)
    pt = _find_strict_point(lv, T, smaller, bound)
    where = (f"; e.g. at {_fmt_point(pt)} the optimum is strictly {'stronger' if bound != 'lower' else 'weaker'}"
             if pt else " (tightness not decided)")
    base["details"]["tight"] = False if pt else None
    side = "is satisfied" if bound != "lower" else "is a lower bound on the optimum"
    return Verdict(verdict="holds-not-tight",
                   evidence=f"{target} {side} on the whole region but is not the optimal level everywhere "
                            f"(exact level: {exact}){where}", **base)


def _rows(table, point):
    try:
        t = table.subs(point)
        return [[str(v) for v in probs] + ([cls] if cls is not None else []) for probs, cls in t.rows()]
    except Exception:  # pragma: no cover - counts not instantiated
        return None


def _violates(d, opt, target_pt, bound):
    """Exact: does the concrete optimum ``opt`` (raw) contradict the claim at the point?"""
    if opt is None:
        return False
    lvl = d.level_from_raw(opt)
    smaller = d.stronger == "smaller"
    if target_pt is sympy.oo:
        sat = smaller
        strictly = lvl is not sympy.oo if smaller else False
    else:
        sat = _num_le(lvl, target_pt) if smaller else _num_le(target_pt, lvl)
        eq = (lvl is not sympy.oo) and sympy.simplify(lvl - target_pt) == 0
        strictly = sat and not eq
    if bound == "satisfies":
        return not sat
    if bound == "exact":
        return not sat or strictly
    return strictly  # lower: the optimum is strictly stronger than the printed bound


#: exact re-checks spent on making one counterexample point canonical (per symbol and pass)
CANONICAL_POINT_BUDGET = 50


def _candidates(kind):
    """Values tried for a symbol, simplest first: integers 1..12; rationals in [0, 1] by denominator
    (at most 12), then in (1, 4]."""
    if kind == "integer":
        return [sympy.Integer(n) for n in range(1, 13)]
    out, seen = [], set()
    for lo, hi in ((0, 1), (1, 4)):
        for den in range(1, 13):
            for num in range(lo * den, hi * den + 1):
                v = sympy.Rational(num, den)
                if v not in seen:
                    seen.add(v)
                    out.append(v)
    return out


def _canonical_point(region, found, table, d, params, scope, target, bound):
    """A canonical counterexample point: the same answer whatever point the solver gave.

    Starting from ``found = (point, opt)``, each symbol in name order takes the simplest value
    (:func:`_candidates`) at which the point stays in ``region`` and the claim still fails on the
    concrete table (exact re-check), with a finite optimum where the solver's point had one; two
    passes, a bounded number of checks.
    """
    point, opt = dict(found[0]), found[1]
    finite = opt is not None and opt is not sympy.oo     # keep a finite optimum finite (non-degenerate)

    def bad(pt):
        if region.contains(pt) is not True:
            return None
        try:
            o = concrete_level(table, d, params, pt, scope)
            if finite and (o is None or o is sympy.oo):
                return None
            return o if _violates(d, o, sympy.simplify(target.subs(pt)), bound) else None
        except (InputError, TypeError, ValueError, ZeroDivisionError):
            return None

    for _ in range(2):
        for sym in sorted(point, key=lambda s_: s_.name):
            for spent, v in enumerate(_candidates(region.kinds.get(sym, "real"))):
                if spent >= CANONICAL_POINT_BUDGET or v == point[sym]:
                    break
                trial = dict(point)
                trial[sym] = v
                o = bad(trial)
                if o is not None:
                    point, opt = trial, o
                    break
    return point, opt


def _find_bad_point(reg, bad_cond, table, d, params, scope, target, bound):
    """An exact point of ``reg`` where the claim fails, re-checked on the concrete table."""
    tried = []
    pt = reg.find_point(bad_cond)
    if pt is not None:
        tried.append(pt)
    tried_iter = itertools.chain(tried, _sample_points(reg))
    for point in tried_iter:
        point = {s: v for s, v in point.items() if s in reg.kinds}
        try:
            opt = concrete_level(table, d, params, point, scope)
        except (InputError, TypeError, ValueError):
            continue
        tp = sympy.simplify(target.subs(point))
        if _violates(d, opt, tp, bound):
            return point, opt
    return None


def _quick_violation(reg, raw, T, smaller, table, d, params, scope, target, bound, tries=40):
    """A sample point of ``reg`` where the symbolic value already violates the claim, re-checked."""
    for point in itertools.islice(_sample_points(reg), tries):
        try:
            # xreplace rebuilds (and so evaluates) the tree with exact numbers; much cheaper than subs
            v = sympy.sympify(raw).xreplace(point)
            tp = sympy.sympify(T).xreplace(point)
            if not (v.is_number and tp.is_number):
                continue
            if _num_le(v, tp) if smaller else _num_le(tp, v):
                continue
            opt = concrete_level(table, d, params, point, scope)
        except (InputError, TypeError, ValueError, ZeroDivisionError):
            continue
        if _violates(d, opt, sympy.simplify(target.subs(point)), bound):
            return point, opt
    return None


def _find_strict_point(lv, T, smaller, bound):
    for piece in lv.pieces:
        raw = piece.value
        for reg in piece._regions:
            if raw is sympy.oo or T is sympy.oo:
                if (raw is sympy.oo) != (T is sympy.oo):
                    pt = reg.find_point()
                    if pt is not None:
                        return pt
                continue
            args = _max_args(raw)
            if bound == "lower":
                cond = sympy.Or(*[sympy.Gt(a, T) for a in args]) if smaller else sympy.Lt(raw, T)
            else:
                cond = sympy.And(*[sympy.Lt(a, T) for a in args]) if smaller else sympy.Gt(raw, T)
            pt = reg.find_point(cond)
            if pt is not None:
                return pt
    return None


# -- unbounded claims ------------------------------------------------------------------------------

def _side(table, spec, p, fixmap):
    name = str(spec.get("definition"))
    params = {k: (str(v) if k == "ground" else p(v, "params").subs(fixmap))
              for k, v in (spec.get("params") or {}).items()}
    return name, params, str(spec.get("scope") or "table")


def _near_limit_piece(lv, free, limit, direction, region):
    """The piece of ``lv`` that holds on an interval (limit, limit + delta) of the free symbol."""
    polys = set()
    conds = [c for c in region.constraints]
    for piece in lv.pieces:
        for reg in getattr(piece, "_regions", [piece.region]):
            if reg is not None:
                conds.extend(reg.constraints)
    for c in conds:
        c = sympy.sympify(c)
        for rel in c.atoms(sympy.Rel) if not isinstance(c, sympy.Rel) else [c]:
            num, _ = sympy.fraction(sympy.together(rel.lhs - rel.rhs))
            if num.free_symbols == {free}:
                polys.add(sympy.expand(num))
    roots = []
    for q in polys:
        try:
            roots.extend(r for r in sympy.Poly(q, free).real_roots())
        except (sympy.PolynomialError, NotImplementedError):
            return None
    sign = 1 if direction == "+" else -1
    beyond = [r for r in roots if sign * (r - limit) > 0]
    gap = float(sympy.N(min(sign * (r - limit) for r in beyond), 30)) if beyond else 1.0
    q = limit + sign * sympy.Rational(int(gap * 2 ** 40), 2 ** 41)
    for piece in lv.pieces:
        for reg in getattr(piece, "_regions", [piece.region]):
            if reg is not None and reg.contains({free: q}) is True:
                return piece, q
    return None


def _limit(d, raw, free, limit, direction):
    if raw is None:
        return None
    if raw is sympy.oo:
        return sympy.oo
    lims = []
    for a in _max_args(raw):
        lims.append(sympy.limit(a, free, limit, dir=direction))
    if any(x is sympy.oo for x in lims):
        return sympy.oo
    if any(not x.is_finite for x in lims):
        return None
    return d.level_from_raw(sympy.Max(*lims))


def judge_unbounded(table, claim) -> Verdict:
    """Decide a ``kind: unbounded`` claim: A bounded while B -> oo as ``free`` -> ``limit``."""
    cid = str(claim.get("id"))
    base = dict(id=cid, printed=str(claim.get("printed", "")),
                expect=claim.get("expect") and str(claim.get("expect")),
                source=claim.get("source") and str(claim.get("source")))
    p, when = _parse_claim_parts(table, claim)
    names = dict(table.symbols)
    free_name = str(claim.get("free"))
    if free_name not in names:
        raise InputError(f"free symbol {free_name!r} is not declared", file=table.file,
                         line=claim.line_of("free") if hasattr(claim, "line_of") else None,
                         fix="declare it under the table's `symbols:`")
    free = names[free_name]
    limit = p(claim.get("limit", "0"), "limit")
    fixmap = {names[k]: p(v, "fix") for k, v in (claim.get("fix") or {}).items() if k in names}
    family = [p(x, "family") for x in (claim.get("family") or [])]
    direction = "+" if not family or family[-1] > limit else "-"
    sides = {}
    for key in ("from", "to"):
        name = str((claim.get(key) or {}).get("definition"))
        if name not in definitions.names():
            return Verdict(verdict="unknown", evidence=f"definition not registered: {name}", **base)
    fam = witness_family(table, claim)
    for key in ("from", "to"):
        spec = claim.get(key) or {}
        name, params, scope = _side(table, spec, p, fixmap)
        try:
            d = definitions.get(name)
        except InputError:
            return Verdict(verdict="unknown", evidence=f"definition not registered: {name}", **base)
        t2 = table.subs(fixmap)
        region = Region(t2.region.kinds, t2.region.constraints + tuple(
            c for c in (sympy.sympify(w).subs(fixmap) for w in when) if c is not sympy.true))
        lv = find_level(t2, d, params, scope, region)
        indep = all(p_.value is None or free not in sympy.sympify(p_.value).free_symbols for p_ in lv.pieces)
        pick = _near_limit_piece(lv, free, limit, direction, region)
        lim = None
        if pick is not None:
            piece, q = pick
            lim = _limit(d, piece.value, free, limit, direction)
        sides[key] = {"definition": name, "params": {k: str(v) for k, v in params.items()}, "scope": scope,
                      "level": str(lv), "limit": None if lim is None else str(lim), "independent": indep,
                      "_lim": lim}
    a, b = sides["from"], sides["to"]
    fix_s = ", ".join(f"{k} = {v}" for k, v in (claim.get("fix") or {}).items())
    exact = f"A = {a['definition']}: {a['level']} -> {a['limit']}; B = {b['definition']}: {b['level']} -> {b['limit']}"
    details = {"from": {k: v for k, v in a.items() if k != "_lim"}, "to": {k: v for k, v in b.items() if k != "_lim"},
               "fix": {str(k): str(v) for k, v in fixmap.items()}, "free": free_name, "limit": str(limit),
               "direction": direction, "family": fam}
    a_ok = a["_lim"] is not None and a["_lim"] is not sympy.oo and a["_lim"].is_finite
    b_ok = b["_lim"] is sympy.oo
    fam_ok = _family_shows_break(fam)
    if a_ok and b_ok:
        verdict = "confirmed"
        ev = (f"with {fix_s}: as {free_name} -> {limit}{direction} A's level "
              f"{'does not depend on ' + free_name if a['independent'] else 'tends to ' + a['limit']} "
              f"while B's level tends to oo")
    elif a["_lim"] is None or b["_lim"] is None:
        verdict = "unknown"
        ev = f"with {fix_s}: could not take the limits of the levels as {free_name} -> {limit}"
    else:
        verdict = "refuted"
        ev = (f"with {fix_s}: as {free_name} -> {limit}{direction} A's level tends to {a['limit']} and B's "
              f"level to {b['limit']}: no unbounded family here")
    if fam:
        ev += "; family: " + ", ".join(f"{free_name} = {r['value']}: A {r['A']}, B {r['B']}" for r in fam)
        if verdict == "confirmed" and not fam_ok:
            ev += " (the family does not show B growing)"
    return Verdict(verdict=verdict, exact=exact, evidence=ev, details=details, **base)


def _family_shows_break(fam):
    vals = [r.get("_B") for r in fam]
    if not vals or any(v is None for v in vals):
        return False
    return all(v is sympy.oo for v in vals) or all(
        (y is sympy.oo) or (x is not sympy.oo and _num_le(x, y) and x != y) for x, y in zip(vals, vals[1:]))


def witness_family(table, claim) -> list:
    """Concrete rational instances along the free parameter, with both levels computed exactly.

    Returns
    -------
    list of dict
        ``{"value", "point", "A", "B", "A_float", "B_float", "in_region"}`` per family member.
    """
    p, when = _parse_claim_parts(table, claim)
    names = dict(table.symbols)
    free = names.get(str(claim.get("free")))
    if free is None:
        return []
    fixmap = {names[k]: p(v, "fix") for k, v in (claim.get("fix") or {}).items() if k in names}
    out = []
    for x in claim.get("family") or []:
        val = p(x, "family")
        point = dict(fixmap)
        point[free] = val
        inside = table.region.add(*when).contains(point)
        row = {"value": str(val), "point": _fmt_point(point), "in_region": inside is True}
        if inside is not True:
            row["A"] = row["B"] = "outside the region"
            out.append(row)
            continue
        for key, label in (("from", "A"), ("to", "B")):
            name, params, scope = _side(table, claim.get(key) or {}, p, point)
            d = definitions.get(name)
            raw = concrete_level(table, d, params, point, scope)
            lvl = d.level_from_raw(raw)
            row[label] = str(lvl)
            row["_" + label] = lvl
            row[label + "_float"] = None if lvl is None else (float("inf") if lvl is sympy.oo else float(lvl))
        out.append(row)
    return out


def public_family(fam):
    return [{k: v for k, v in r.items() if not k.startswith("_")} for r in fam]


# -- registry hooks -------------------------------------------------------------------------------

def claim_table(claim, context=None):
    """The table a claim is about: ``context["table"]``, the claim's ``_table``, or by claim id."""
    if context and context.get("table") is not None:
        return context["table"]
    from implgraph.io import counterexamples
    tid = claim.get("_table")
    if tid:
        try:
            return counterexamples.get_table(str(tid))
        except InputError:
            pass
    return counterexamples.table_of_claim(str(claim.get("id")))


@checker("level")
def _level_checker(claim, context=None):
    table = claim_table(claim, context)
    if table is None:
        return Verdict(id=str(claim.get("id")), verdict="unknown", printed=str(claim.get("printed", "")),
                       evidence="not a table claim (no counterexample table holds it)")
    return judge_level_claim(table, claim, (context or {}).get("level_cache"))


@checker("unbounded")
def _unbounded_checker(claim, context=None):
    table = claim_table(claim, context)
    if table is None:
        return Verdict(id=str(claim.get("id")), verdict="unknown", printed=str(claim.get("printed", "")),
                       evidence="not a table claim (no counterexample table holds it)")
    v = judge_unbounded(table, claim)
    v.details["family"] = public_family(v.details.get("family", []))
    return v
