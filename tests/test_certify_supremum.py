"""The certificate of the subset ratio's supremum (``subset-supremum``, lemma ``extreme-means-supremum``).

The claims of ekenstedt2022 whose prover verdict carries the supremum (Lemma 2.1, Lemma 3.1, the
readings of Lemma 3.4 and Theorem 4.3) get a second certificate beside the subset-monotone one; the
independent checker re-checks it. Values asserted here come from the hand formula of Lemma 2.1
(/tmp/s2/lemma21.md): with q = min(j_B, N - j_A), F = T where (N - q) T >= q and q / (N - (N - q) T)
below; the tightness family's levels come from tests/brute.py (every subset enumerated), never from
the engine.
"""

import copy
import subprocess
import sys
from fractions import Fraction as Fr

import pytest
import sympy

import brute
from implgraph.certify import certificates_in, check_certificate
from implgraph.certify.lemmas.subset_supremum import supremum_upper
from implgraph.checks.verify import run_verify

CLAIMS = ("ekenstedt2022/lemma-2.1", "ekenstedt2022/lemma-3.1", "ekenstedt2022/lemma-3.4#reading",
          "ekenstedt2022/theorem-4.3#reading")


@pytest.fixture(scope="module")
def certs():
    out = {}
    for v in run_verify(["ekenstedt2022/lemma-2.1", "ekenstedt2022/lemma-3.1", "ekenstedt2022/lemma-3.4",
                         "ekenstedt2022/theorem-4.3"], jobs=1):
        for c in certificates_in(v.details):
            if c["method"] == "subset-supremum":
                assert v.verdict == "proved"
                out[v.id] = c
    return out


def test_the_four_claims_carry_it(certs):
    assert set(certs) == set(CLAIMS)
    for c in certs.values():
        assert c["tight"] and c["upper_certificate"]["lemma"] == "extreme-means-supremum"


@pytest.mark.parametrize("cid", CLAIMS)
def test_rechecked(certs, cid):
    rep = check_certificate(certs[cid])
    assert rep.ok, rep.failures()
    assert any(s[0] == "tightness family attains U" and s[1] for s in rep.steps)


# --- the bound by hand --------------------------------------------------------------------------

def F(n, ja, jb, t):
    """Lemma 2.1's supremum, by hand."""
    q = min(jb, n - ja)
    return t if (n - q) * t >= q else Fr(q) / (n - (n - q) * t)


@pytest.mark.parametrize("n,k0,k1,t,want", [
    (4, 1, 3, 2, Fr(3, 2)),      # q = 3: 3/(4 - 2)
    (5, 1, 4, 3, 2),             # q = 4: 4/(5 - 3)
    (7, 1, 5, 2, Fr(5, 3)),      # q = 5: 5/(7 - 4)
    (3, 1, 2, Fr(3, 2), Fr(4, 3)),  # q = 2: 2/(3 - 3/2)
    (8, 1, 2, 5, 5),             # q = 2 <= N/2: T
    (4, 1, 3, 3, 3)])            # (N - q) T = 3 >= q: T
def test_upper_by_hand(certs, n, k0, k1, t, want):
    """Lemma 2.1 (kt-closeness, subset sizes k0 <= k1): the certificate's U at hand-computed points."""
    c = certs["ekenstedt2022/lemma-2.1"]
    S = {x: sympy.Symbol(x) for x in c["symbols"]}
    U = sympy.sympify(c["upper"], locals=S).subs({S["N"]: n, S["k0"]: k0, S["k1"]: k1, S["T"]: sympy.Rational(t)})
    assert F(n, k0, k1, Fr(t)) == want and sympy.Rational(U) == sympy.Rational(want)


# --- the tightness family against tests/brute.py ------------------------------------------------

def _brute(side, params, rows, n):
    """(level, subset size) of a side by brute force, from its definition's name."""
    name = side["definition"]
    if name == "kt-closeness":
        return brute.kt(rows, params["k"]), params["k"]
    if name == "kdp":
        return brute.kdp(rows, params["k"]), n - params["k"]
    if name == "dp":
        return brute.dp(rows), n - 1
    raise AssertionError(name)


def _points(c, n):
    """Up to four parameter points of the domain at N = n (the first, the last and two between)."""
    S = {x: sympy.Symbol(x) for x in c["symbols"]}
    names = sorted(x for x in c["symbols"] if x not in ("N", "T"))
    dom = [sympy.sympify(d, locals=S) for d in c["domain"]]
    ok = []
    for vals in sympy.utilities.iterables.cartes(*[range(0, n + 1)] * len(names)):
        pt = {S["N"]: sympy.Integer(n), S["T"]: sympy.Integer(2),
              **{S[x]: sympy.Integer(v) for x, v in zip(names, vals)}}
        if all(bool(d.xreplace(pt)) for d in dom):
            ok.append(dict(zip(names, vals)))
    pick = sorted({0, len(ok) // 3, 2 * len(ok) // 3, len(ok) - 1}) if ok else []
    return S, [ok[i] for i in pick]


@pytest.mark.parametrize("cid", CLAIMS)
def test_family_attains_hand_supremum_by_brute_force(certs, cid):
    """At N = 2..12, T in {5/4, 2, 3}: the family's rows are probabilities, A's level (brute) <= T and
    B's level (brute) = F, Lemma 2.1's value by hand, below T at some points."""
    c = certs[cid]
    S = {x: sympy.Symbol(x) for x in c["symbols"]}
    read = lambda text: sympy.sympify(text, locals=S)      # noqa: E731
    blocks = [(read(b["count"]), read(b["value"])) for b in c["tightness"]["blocks"]]
    params_of = [{k: read(v) for k, v in d["params"].items()} for d in (c["A"], c["B"])]
    checked = below = 0
    for n in range(2, 13):
        _, pts = _points(c, n)
        for params in pts:
            for t in (Fr(5, 4), Fr(2), Fr(3)):
                env = {S["N"]: sympy.Integer(n), S["T"]: sympy.Rational(t.numerator, t.denominator),
                       **{S[x]: sympy.Integer(v) for x, v in params.items()}}
                rows = []
                for count, value in blocks:
                    v = sympy.Rational(value.xreplace(env))
                    x = Fr(int(v.p), int(v.q))
                    assert 0 <= x <= 1
                    rows += [[x, 1 - x]] * int(count.xreplace(env))
                assert len(rows) == n
                pa, pb = ({k: int(v.xreplace(env)) for k, v in ps.items()} for ps in params_of)
                a, ja = _brute(c["A"], pa, rows, n)
                b, jb = _brute(c["B"], pb, rows, n)
                want = F(n, ja, jb, t)
                assert a <= t and b == want, (cid, n, params, t, a, b, want)
                checked += 1
                below += want < t
    assert checked >= 60 and below >= 5


# --- corrupted certificates are rejected --------------------------------------------------------

def _lemma21(certs):
    return copy.deepcopy(certs["ekenstedt2022/lemma-2.1"])


def _requote(c, q):
    """The certificate with q (and U, consistently) replaced: a wrong q is caught by the obligations."""
    c["upper_certificate"]["q"] = q
    c["upper"] = supremum_upper(q)
    return c


@pytest.mark.parametrize("q,step", [("k1", "N - q - j_A >= 0"),                 # forgets q <= N - k0
                                    ("Min(k1, N - k0 + 1)", "N - q - j_A >= 0"),
                                    ("Min(N - k0, k1 + 1)", "j_B - q >= 0")])
def test_wrong_q_rejected(certs, q, step):
    rep = check_certificate(_requote(_lemma21(certs), q), ns=range(2, 6))
    assert not rep.ok and any(w.startswith(step) for w, _, _ in rep.failures())


def test_upper_T_rejected(certs):
    c = _lemma21(certs)
    c["upper"] = "T"
    rep = check_certificate(c, ns=range(2, 6))
    assert not rep.ok and any(w.startswith("U = Min(T") for w, _, _ in rep.failures())


def test_upper_with_another_q_rejected(certs):
    c = _lemma21(certs)
    c["upper"] = supremum_upper("k1")            # q in U differs from the q the obligations use
    assert not check_certificate(c, ns=range(2, 6)).ok


def test_wrong_multiplier_rejected(certs):
    c = _lemma21(certs)
    c["upper_certificate"]["multipliers"]["lower"]["high_(N-q) <= T*m"] = "N - q_ + 1"
    rep = check_certificate(c, ns=range(2, 4))
    assert not rep.ok and any("not 0" in h for _, _, h in rep.failures())


def test_missing_q_rejected(certs):
    c = _lemma21(certs)
    del c["upper_certificate"]["q"]
    assert not check_certificate(c, ns=range(2, 4)).ok


def test_corrupted_block_rejected(certs):
    c = _lemma21(certs)
    c["tightness"]["blocks"][0]["value"] = f"({c['tightness']['blocks'][0]['value']})*9/10"
    rep = check_certificate(c, ns=range(2, 6))
    assert not rep.ok and any(w == "tightness family attains U" for w, _, _ in rep.failures())


def test_as_subset_monotone_rejected(certs):
    """The supremum is below T: read as the subset-monotone lemma (U = T) it fails that lemma's shape."""
    c = _lemma21(certs)
    c["method"] = "subset-monotone"
    assert not check_certificate(c, ns=range(2, 4)).ok


def test_certify_imports_no_engine():
    code = ("import sys, implgraph.certify; "
            "print([m for m in sys.modules if m.startswith(('implgraph.engines', 'implgraph.checks'))])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_shared_min_max_evaluated_per_point():
    """The evaluators of one reader share Min/Max subexpressions, recomputed for each new point."""
    from implgraph.certify.expr import Reader
    rd = Reader(["N", "T"])
    f, g = rd.function("Min(T, N) + 1"), rd.function("2*Min(T, N)")
    p1, p2 = {"N": 3, "T": Fr(5, 2)}, {"N": 3, "T": 7}
    assert (f(p1), g(p1), g(p2), f(p2), f(p1)) == (Fr(7, 2), 5, 6, 4, Fr(7, 2))
