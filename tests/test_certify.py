"""Certificates of "proved" (issue 12): produced by the prover, re-checked by implgraph.certify.

The certificates come from every ordered pair of built-in ratio-of-averages definitions the prover
proves for every N (parameters as symbols or small constants); each is re-checked by the
independent checker, the tightness family at N = 2..12. Corrupting one multiplier, one table entry
or the bound makes the checker reject it. The checker's levels agree with tests/brute.py.
"""

import copy
import itertools
import json
import random
from fractions import Fraction

import pytest
import sympy

import brute
from implgraph import definitions
from implgraph.certify import certificates_in, check_certificate
from implgraph.certify.levels import INF, blocks_table, level, raw_level
from implgraph.cli import main
from implgraph.definitions.capabilities import ClassDistance, RatioLevel, family_of
from implgraph.engines.prove import Word, check_implication

K = sympy.Symbol("k", integer=True, positive=True)


def _variants(d):
    """(params, classes) choices for one definition: group size k symbolic, 1 or 2; a class distance with
    the ground distance that makes it one."""
    if _distance(d):
        return [({"ground": Word("equal")}, {"min_size": K}), ({"ground": Word("equal")}, {"min_size": sympy.Integer(1)})]
    if family_of(d) == "class":
        return [({}, {"min_size": K}), ({}, {"min_size": sympy.Integer(1)}), ({}, {"min_size": sympy.Integer(1),
                                                                               "max_size": sympy.Integer(1)})]
    if "k" in d.params:
        return [({"k": K}, None), ({"k": sympy.Integer(1)}, None), ({"k": sympy.Integer(2)}, None)]
    return [({}, None)]


def _distance(d):
    """Is ``d`` a class's total variation distance under the equal ground distance (EMD t-closeness)?"""
    distance = d.declared(ClassDistance)
    return (set(d.params) == {"ground"} and distance is not None
            and distance.at({"ground": "equal"}, d.words) == "total-variation")


def _ratio_definitions():
    return [d for d in definitions.all_definitions()
            if d.has(RatioLevel) and not (set(d.params) - {"k"})
            or _distance(d)]


@pytest.fixture(scope="module")
def certificates():
    from implgraph.engines.bounds import ceiling_bound, tight_bound, T  # only to skip pairs without an argument quickly
    from implgraph.core.region import Region
    N = sympy.Symbol("N", integer=True)
    out = []
    for a, b in itertools.product(_ratio_definitions(), repeat=2):
        for (ap, ac), (bp, bc) in itertools.product(_variants(a), _variants(b)):
            if family_of(a) == "class" and family_of(b) == "class" and ac != bc:
                continue
            region = Region({N: "integer", T: "real", K: "integer"}, (T >= 1, N >= 2))
            if tight_bound(a, b, ap, bp, region, N, ac, bc) is None and ceiling_bound(b, bp, bc, region, N) is None:
                continue
            r = check_implication(a, b, None, a_params=ap, b_params=bp, a_classes=ac, b_classes=bc,
                                  symbols={"k": K, "N": N})
            if r.verdict == "proved":
                out += [(f"{a.name}{ap}{ac} => {b.name}{bp}{bc}", c) for c in certificates_in(r.details)]
    return out


def test_at_least_twenty_certificates(certificates):
    assert len(certificates) >= 20
    methods = {c["method"] for _, c in certificates}
    assert methods >= {"same-level", "subset-monotone", "subset-to-classes", "vertex", "product", "class-distance"}


def test_every_certificate_rechecked(certificates):
    bad = []
    for name, cert in certificates:
        json.loads(json.dumps(cert))            # plain JSON
        rep = check_certificate(cert)
        if not rep.ok:
            bad.append((name, rep.failures()))
    assert not bad


def _first(certificates, method, tight=True):
    return copy.deepcopy(next(c for _, c in certificates if c["method"] == method and c["tight"] == tight))


def test_corrupted_multiplier_rejected(certificates):
    cert = _first(certificates, "product")
    comp = cert["upper_certificate"]["multipliers"][0]
    key = next(iter(comp))
    comp[key] = f"({comp[key]}) + 1"
    rep = check_certificate(cert)
    assert not rep.ok and any("multiplier" in h or "not 0" in h for _, _, h in rep.failures())


def test_corrupted_vertex_multiplier_rejected(certificates):
    cert = _first(certificates, "vertex")
    ratio = next(iter(cert["upper_certificate"]["multipliers"].values()))
    key = next(iter(ratio))
    ratio[key] = f"2*({ratio[key]})"
    rep = check_certificate(cert, ns=range(2, 4))
    assert not rep.ok and any("not 0" in h for _, _, h in rep.failures())


def test_negative_multiplier_rejected(certificates):
    """The identity can hold with a multiplier that is not >= 0: then the step fails."""
    cert = _first(certificates, "product")
    cert["upper_certificate"]["multipliers"][0] = {"max<=T*mean": "1", "mean<=T*min": "T", "min>=0": "1 - 1"}
    assert check_certificate(cert, ns=range(2, 4)).ok          # a zero multiplier is harmless
    # T^2 a - b = (T^2 - 1) a - (b - a): an identity, with the multiplier -1 on the fact b - a >= 0
    cert["upper_certificate"]["multipliers"][0] = {"min>=0": "T**2 - 1", "max>=min": "-1"}
    rep = check_certificate(cert, ns=range(2, 4))
    assert not rep.ok and any("not shown >= 0" in h for _, _, h in rep.failures())


@pytest.mark.parametrize("method", ["vertex", "product", "same-level", "subset-to-classes"])
def test_corrupted_table_entry_rejected(certificates, method):
    cert = _first(certificates, method)
    block = cert["tightness"]["blocks"][-1]
    block["value"] = f"({block['value']})*9/10"
    assert not check_certificate(cert, ns=range(2, 7)).ok


def test_lowered_bound_rejected(certificates):
    cert = _first(certificates, "vertex")
    cert["upper"] = f"({cert['upper']} + 1)/2"        # strictly below U for T > 1
    assert not check_certificate(cert, ns=range(2, 5)).ok


def test_vertex_family_by_hand():
    # N = 4, T = 3, subset size 1: one record at 1/4, three at 3/4. Bucket 1: mean 5/8, mean/min 5/2,
    # max/mean 6/5; bucket 2: mean 3/8, max/mean 2, mean/min 3/2: level 5/2 = ((N - 1) T + 1)/N
    table = blocks_table([(1, Fraction(1, 4), None), (3, Fraction(3, 4), None)])
    assert level({"family": "subset", "sides": "two-sided"}, table, 1) == Fraction(5, 2)
    assert level({"family": "pairwise", "sides": "two-sided"}, table) == 3


def _random_table(rng, n, p, low=0):
    rows = []
    for _ in range(n):
        w = [rng.randint(low, 4) for _ in range(p)]
        if sum(w) == 0:
            w[0] = 1
        rows.append([Fraction(x, sum(w)) for x in w])
    return rows


@pytest.mark.parametrize("seed", range(40))
def test_levels_agree_with_brute(seed):
    rng = random.Random(seed)
    n, p = rng.randint(2, 6), rng.randint(2, 3)
    rows = _random_table(rng, n, p)
    classes = [f"E{rng.randint(1, 3)}" for _ in range(n)]
    k = rng.randint(1, n - 1)
    two = {"sides": "two-sided"}
    assert raw_level({"family": "pairwise", **two}, rows) == brute.ldp(rows)
    assert raw_level({"family": "subset", **two}, rows, size=k) == brute.kt(rows, k)
    assert raw_level({"family": "subset", **two}, rows, size=n - k) == brute.kdp(rows, k)
    assert raw_level({"family": "subset", **two}, rows, size=n - 1) == brute.dp(rows)
    assert raw_level({"family": "class", **two}, rows, classes) == brute.mult_t(rows, classes)


def test_family_rows_are_probabilities():
    with pytest.raises(ValueError):
        blocks_table([(2, Fraction(3, 2), None)])
    assert raw_level({"family": "pairwise"}, [[Fraction(0), Fraction(1)], [Fraction(1, 2), Fraction(1, 2)]]) == INF


def test_certificate_command(capsys):
    names = [d.name for d in _ratio_definitions() if d.declared(RatioLevel) == RatioLevel("pairwise")]
    assert main(["certificate", "--edge", names[0], names[0], "--check"]) == 0
    out = json.loads(capsys.readouterr().out)
    row = out["claims"][0]
    assert row["verdict"] == "proved" and row["recheck"] and all(r["ok"] for r in row["recheck"])


def test_certificate_of_an_edge_the_prover_leaves_open_is_check_edges(capsys):
    """tv-ldp => ldp: the prover has no refuter for tv-ldp (no z3 encoding); the row takes check-edge's certificate of
    the direction, the support family one record at (1, 0) and N - 1 at (0, 1) (total variation 1 between them, a
    zero beside a positive value: ldp infinite), which the checker accepts and which states the edge (a family in N
    alone, no index of its own); the note says whose it is; --text prints no "tight f = None"."""
    assert main(["certificate", "--edge", "tv-ldp", "ldp", "--check"]) == 0
    row = json.loads(capsys.readouterr().out)["claims"][0]
    assert row["verdict"] == "refuted" and [c["method"] for c in row["certificates"]] == ["divergence-family"]
    assert all(r["ok"] for r in row["recheck"]) and row["statement"]["ok"]
    assert "no z3 encoding" in row["note"] and "implgraph check-edge tv-ldp ldp" in row["note"]
    assert any("a family in N alone" in s["how"] for s in row["statement"]["steps"])
    assert main(["certificate", "--edge", "tv-ldp", "ldp", "--text"]) == 0
    out = capsys.readouterr().out
    assert "check-edge" in out and "tight f" not in out


def test_certificate_of_a_refuting_family_states_the_claim(capsys):
    """zcdp-ldp =/=> ldp by the zero-concentrated family: re-checked, and it states the edge (its index j has its own
    range); this was "statement: REJECTED", exit 1."""
    assert main(["certificate", "--edge", "zcdp-ldp", "ldp", "--check"]) == 0
    row = json.loads(capsys.readouterr().out)["claims"][0]
    assert row["verdict"] == "refuted" and [c["method"] for c in row["certificates"]] == ["zcdp-family"]
    assert all(r["ok"] for r in row["recheck"]) and row["statement"]["ok"]


def test_certificate_text_of_a_lemma_chain(capsys):
    """--text on an inequality-lemmas certificate (no domain, no polynomial obligations) shows its chain; it
    crashed with a traceback (KeyError 'domain'). Frequency => entropy l-diversity: the tight f of the capped
    distribution; entropy => distinct: ceiling(l) (a class uniform over m values has both levels m)."""
    assert main(["certificate", "--edge", "frequency-l-diversity", "entropy-l-diversity", "--check", "--text"]) == 0
    out = capsys.readouterr().out
    assert "tight f = l*(l - floor(l))**((-l + floor(l))/l)" in out
    assert "certificate 1: inequality-lemmas" in out and "chain: shannon>=capped" in out
    assert "recheck: accepted" in out
    assert main(["certificate", "--edge", "entropy-l-diversity", "distinct-l-diversity", "--check", "--text"]) == 0
    out = capsys.readouterr().out
    assert "chain: support>=shannon; f = ceiling(x)" in out and "recheck: accepted" in out


def test_certificate_text_of_a_min(capsys):
    """--text on a ``min`` certificate (enhanced => basic beta-likeness: f = beta from the declaration, N - 1 from
    B's ceiling) shows each part with its own obligations."""
    assert main(["certificate", "--edge", "enhanced-beta-likeness", "basic-beta-likeness", "--check", "--text"]) == 0
    out = capsys.readouterr().out
    assert "certificate 1: min\n" in out and "U = Min(N, T)" in out
    assert "family: each bucket split into 3**ceiling(T) equal buckets" in out      # tight since stop 28
    assert "part 1: finite-level-of (lemma declared-finite-level)" in out
    assert "part 2: one-sided-ceiling (lemma set-mass)" in out and "mass: N*e - s*L >= 0" in out
    # (every partition into classes: the min for >= 2 classes, a table of one class beside it)
    assert "partitions: every partition" in out and "recheck: accepted" in out


def test_bad_format_rejected():
    assert not check_certificate({"format": "something else"}).ok


# --- the bound and its tightness family against tests/brute.py -----------------------------------

def _brute_level(side, rows, classes, size):
    """A's or B's raw level by brute force (tests/brute.py), from the certificate's description."""
    if side.get("distance") == "total-variation":
        return brute.emd_t(rows, classes, "equal")
    if side["family"] == "pairwise":
        return brute.ldp(rows)
    if side["family"] == "subset" and side.get("sides") == "one-sided":     # pointwise maximal leakage (size 1)
        return brute.subset_upper(rows, int(size))
    if side["family"] == "subset":
        return brute.kt(rows, int(size))
    if side.get("sides") == "one-sided":        # basic beta-likeness, the built-in one-sided class level
        return 1 + brute.basic_beta_likeness(rows, classes)
    return brute.mult_t(rows, classes)


class _Read:
    """A certificate's expressions read once by sympy (values by exact substitution)."""

    def __init__(self, cert):
        self.cert = cert
        self.S = {n: sympy.Symbol(n, integer=(k == "integer")) for n, k in cert["symbols"].items()}
        self.N, self.T = self.S["N"], self.S["T"]
        self.params = [s for n, s in self.S.items() if n not in ("N", "T")]
        assert len(self.params) <= 1          # k at most, in these certificates
        read = lambda text: sympy.sympify(text, locals=self.S)     # noqa: E731
        self.domain = [read(c) for c in cert["domain"]]
        self.U = read(cert["upper"])
        self.sizes = [read(d.get("size", "0")) for d in (cert["A"], cert["B"])]
        self.min_class = [read(d.get("min_class", "1")) for d in (cert["A"], cert["B"])]
        self.blocks = [(read(b["count"]), read(b["value"]), b.get("class", f"B{i}"))
                       for i, b in enumerate((cert.get("tightness") or {}).get("blocks") or [])]

    def holds(self, pt):
        return all(bool(c.xreplace(pt)) for c in self.domain)

    def points(self, n, t):
        """Points of the domain at N = n, T = t: the parameter at its smallest and middle allowed
        value (the middle up to N = 8: C(12, 6) subsets are slow to enumerate, the largest instead)."""
        base = {self.N: sympy.Integer(n), self.T: t}
        if not self.params:
            return [base] if self.holds(base) else []
        ok = [v for v in range(0, n + 1) if self.holds({**base, self.params[0]: sympy.Integer(v)})]
        if not ok:
            return []
        other = ok[len(ok) // 2] if n <= 8 else ok[-1]
        return [{**base, self.params[0]: sympy.Integer(v)} for v in sorted({ok[0], other})]

    def family(self, pt):
        """The tightness family's rows and class labels at ``pt``."""
        rows, classes = [], []
        for count, value, label in self.blocks:
            c = int(count.xreplace(pt))
            if c:
                v = sympy.Rational(value.xreplace(pt))
                rows += [[Fraction(v.p, v.q), 1 - Fraction(v.p, v.q)]] * c
                classes += [label] * c
        if self.cert["tightness"].get("singleton_classes"):
            classes = [f"E{i}" for i in range(len(rows))]
        return rows, classes

    def levels(self, rows, classes, pt):
        return [_brute_level(d, rows, classes, size.xreplace(pt)) for d, size in zip((self.cert["A"],
                                                                                     self.cert["B"]), self.sizes)]


@pytest.mark.parametrize("n", [n if n < 5 else pytest.param(n, marks=pytest.mark.slow) for n in range(2, 13)])
def test_tightness_family_attains_u_by_brute_force(certificates, n):
    """At N = n (level T = 3/2 at even N, 3 at odd N) and two values of the parameter, the family's
    levels computed by tests/brute.py are A <= T and B = U, for every tight certificate."""
    t = (sympy.Rational(3, 2), sympy.Integer(3))[n % 2]
    checked = 0
    for name, cert in certificates:
        if not cert["tight"]:
            continue
        rd = _Read(cert)
        for pt in rd.points(n, t):
            rows, classes = rd.family(pt)
            a, b = rd.levels(rows, classes, pt)
            assert len(rows) == n and a <= t and b == rd.U.xreplace(pt), (name, pt, a, b)
            checked += 1
    assert checked >= 20


def _random_classes(rng, n, size, singletons):
    """Random classes of at least ``size`` records (every record its own class if ``singletons``)."""
    if singletons:
        return [f"E{i}" for i in range(n)]
    groups = max(n // size, 1)
    return [f"E{min(i // size, groups - 1)}" for i in rng.sample(range(n), n)]


@pytest.mark.parametrize("seed", [0, 1] + [pytest.param(s, marks=pytest.mark.slow) for s in (2, 3)])
def test_upper_bound_holds_on_random_tables(certificates, seed):
    """On random tables (N = 2..7, 2 or 3 buckets, classes of the stated sizes), B's level
    (tests/brute.py) is at most U at A's level, for every certificate."""
    rng = random.Random(seed)
    tested = 0
    for name, cert in certificates:
        rd = _Read(cert)
        for _ in range(3):
            n = rng.randint(2, 7)
            pts = rd.points(n, sympy.Integer(1))
            if not pts:
                continue
            pt = pts[rng.randrange(len(pts))]
            size = max(int(m.xreplace(pt)) for m in rd.min_class)
            singletons = "1" in (cert["A"].get("max_class"), cert["B"].get("max_class"))
            rows = _random_table(rng, n, rng.randint(2, 3), low=rng.choice((0, 1, 1)))
            classes = _random_classes(rng, n, size, singletons)
            a, b = rd.levels(rows, classes, pt)
            at = {**pt, rd.T: sympy.Rational(a.numerator, a.denominator)} if a != brute.INF else None
            if at is None or not rd.holds(at):
                continue
            assert b != brute.INF and sympy.Rational(b.numerator, b.denominator) <= rd.U.xreplace(at), (name, rows)
            tested += 1
    assert tested >= 60


# --- the checker's own parts --------------------------------------------------------------------

def test_shift_argument_by_hand():
    from implgraph.certify.expr import Reader
    from implgraph.certify.positive import nonnegative
    rd = Reader(["N", "T", "k"])
    hyps = [rd.relation_poly(c) for c in ("T >= 1", "k >= 1", "k <= N - 1")]
    # k (T - 1)^2 (N - k) = (1 + k') T'^2 (1 + N') with T = 1 + T', k = 1 + k', N = k + 1 + N'
    assert nonnegative(rd.poly("k*(T - 1)**2*(N - k)"), hyps) == "N = N' + k + 1, T = T' + 1, k = k' + 1"
    assert nonnegative(rd.poly("N - 3"), hyps) is None                      # false at N = 2
    assert nonnegative(rd.poly("T - 1"), hyps, strict=True) is None         # 0 at T = 1
    assert nonnegative(rd.poly("T - 1"), hyps) == "T = T' + 1"
    assert nonnegative(rd.poly("(T - 2)**2"), hyps) is None                 # true, but not by this argument


def test_solver_fallback_names_its_backends():
    """Where the shift argument does not apply, the solvers decide and are named."""
    from implgraph.certify.domain import Domain
    from implgraph.certify.solve import prove_nonnegative
    dom = Domain({"symbols": {"N": "integer", "T": "real"}, "domain": ["T >= 1", "N >= 2"]})
    ok, how = prove_nonnegative(dom.reader.poly("(T - 2)**2"), [], dom)
    assert ok and "z3: unsat" in how
    ok, how = prove_nonnegative(dom.reader.poly("T - 2"), [], dom)
    assert not ok


@pytest.mark.parametrize("text", ["__import__('os').getcwd()", "T.real", "1.5*T", "x + 1", "T**1.5", "lambda: 1"])
def test_reader_accepts_only_arithmetic(text):
    from implgraph.certify.expr import Reader, Unreadable
    with pytest.raises(Unreadable):
        Reader(["N", "T"]).function(text)


def test_a_power_is_exact_and_bounded():
    # an exponent that is an integer at each point (a family's 3**ceiling(T)) is evaluated there; a fractional one,
    # or a result too large for memory, is refused with ValueError (the family "is not a table" there)
    from implgraph.certify.expr import Reader
    rd = Reader(["N", "T"])
    assert rd.function("3**ceiling(T)")({"N": 2, "T": Fraction(5, 2)}) == 27
    assert rd.function("T**(-N)")({"N": 2, "T": Fraction(2, 3)}) == Fraction(9, 4)
    for text, env in (("T**(N/2)", {"N": 3, "T": 2}), ("(2**4096)**4096", {"N": 2, "T": 1}),
                      ("2**(4096*4096)", {"N": 2, "T": 1})):
        with pytest.raises(ValueError):
            rd.function(text)(env)
    # the polynomial path: a power is expanded only within a degree and a coefficient size
    from implgraph.certify.expr import Unreadable
    assert str(rd.poly("(T + 1)**2")) == "T**2 + 2*T + 1"
    for text in ("((T + 1)**4096)**4096", "(N*T)**600", "(10**4096)**4096"):
        with pytest.raises(Unreadable):
            rd.poly(text)


def test_unreadable_upper_rejected(certificates):
    cert = _first(certificates, "same-level")
    cert["upper"] = "__import__('os').getcwd()"
    rep = check_certificate(cert, ns=range(2, 4))
    assert not rep.ok


def test_reader_is_exact():
    from implgraph.certify.expr import Reader
    rd = Reader(["N", "T"])
    assert rd.function("1/3 + N/(T + 1)")({"N": 2, "T": Fraction(1, 2)}) == Fraction(5, 3)
    assert rd.ratio("(2*T + 2)/(4*N)") == (rd.poly("T + 1"), rd.poly("2*N"))


def test_family_checked_at_large_n(certificates):
    """The levels are computed on the blocks, so the tightness family is checked at N = 1000 too."""
    cert = next(c for _, c in certificates if c["method"] == "vertex" and c["tight"] and "k" not in c["symbols"])
    rep = check_certificate(cert, ns=range(1000, 1001))
    assert rep.ok and "N = 1000..1000" in rep.steps[-1][2]


def test_every_method_the_prover_certifies_has_a_kernel_lemma():
    # the prover's methods (engines.certificates.METHODS) and the checker's lemmas (certify.lemmas.REGISTRY)
    # are registered apart (the checker imports no engine); a method without a lemma would be rejected
    from implgraph.certify.kernel import obligations, structural_checks
    from implgraph.certify.lemmas import REGISTRY
    from implgraph.engines.certificates import METHODS
    from implgraph.prover.arguments import chord, divergence_order  # noqa: F401  (register their certificate parts)
    assert set(METHODS) <= set(REGISTRY)
    # an unknown method fails its structure and has no obligation
    from implgraph.certify.expr import Reader
    cert = {"method": "no-such-lemma", "A": {"family": "pairwise"}, "B": {"family": "pairwise"},
            "symbols": {"N": "integer", "T": "real"}}
    rd = Reader(cert["symbols"])
    assert ("known lemma for method 'no-such-lemma'", False) in structural_checks(cert, rd)
    assert obligations(cert, rd) == []


def test_the_lemma_a_certificate_names_must_be_its_methods():
    # (left alone since stop 23, closed at stop 28) a certificate naming another lemma than its method's is refused
    from implgraph.certify import certificates_in
    from implgraph.certify.lemmas import get
    from implgraph.engines.prove import check_implication
    r = check_implication("ldp", "mult-t-closeness")
    (cert,) = certificates_in(r.details)
    assert cert["upper_certificate"]["lemma"] == get(cert["method"]).name == "linear-fractional-vertex"
    assert check_certificate(cert, ns=range(2, 5)).ok
    bad = copy.deepcopy(cert)
    bad["upper_certificate"]["lemma"] = "set-mass"
    rep = check_certificate(bad, ns=range(2, 5))
    assert not rep.ok and [w for w, _, _ in rep.failures()] == [
        "the certificate names the method's lemma (linear-fractional-vertex)"]
