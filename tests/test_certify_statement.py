"""``verify --recheck`` ties each certificate to its row (implgraph.certify.statement): a certificate proving
something else than the row's claim -- another row's, a weaker f, a domain with an assumption the claim does not
state -- is rejected, naming the row; and each certificate is re-checked within a time budget.

The rows and their certificates come from `verify` itself; the alterations are what a wrong engine (or a tampered
cache) could hand the checker: each certificate stays one the checker accepts on its own, only its link to the row
is wrong.
"""

import copy
import json

import pytest
import yaml

import implgraph.commands.verify as verify_command
from implgraph.certify import certificates_in, check_certificate, recheck_row, within_budget
from implgraph.certify.statement import check_statement
from implgraph.checks.verify import run_verify
from implgraph.cli import main
from implgraph.io.theorems import load_claims

TWO_A, TWO_B = "ekenstedt2022/theorem-2a", "ekenstedt2022/theorem-2b"
#: (k, t0)-closeness => (k, t1)-closeness, f = t1 where t0 <= t1 (same-level: U = T)
MONOTONE = "ekenstedt2022/lemma-2.4"
#: (k, t)-closeness => multiplicative t-closeness with classes of >= k records (2 k <= N stated by the claim)
CLASSES = "ekenstedt2022/lemma-2.3#reading"
#: the printed non-implication the engine refutes at the instance k = 1
INSTANCE = "ekenstedt2022/theorem-5#reading"


@pytest.fixture(scope="module")
def rows():
    ids = [TWO_A, TWO_B, MONOTONE, CLASSES.split("#")[0], INSTANCE.split("#")[0]]
    return {v.id: v for v in run_verify(ids, jobs=1)}


@pytest.fixture(scope="module")
def claims():
    return {str(c.get("id")): c for c in load_claims()}


def _statement(claims, row, certs=None):
    return check_statement(claims[row.id.split("#")[0]], row, certificates_in(row.details) if certs is None else certs)


def _with(row, **changes):
    out = copy.deepcopy(row)
    for k, v in changes.items():
        setattr(out, k, v)
    return out


def test_the_rows_certificates_state_their_claims(rows, claims):
    for cid in (TWO_A, TWO_B, MONOTONE, CLASSES):
        rep = _statement(claims, rows[cid])
        assert rep.ok, (cid, rep.failures())
        assert rep.of == "statement"


@pytest.fixture()
def swapped(monkeypatch):
    """``run_verify`` as it is, with the certificates of theorem-2a and theorem-2b exchanged."""
    real = verify_command.run_verify

    def swap(*args, **kwargs):
        out = real(*args, **kwargs)
        by_id = {v.id: v for v in out}
        a, b = by_id[TWO_A], by_id[TWO_B]
        a.details["certificate"], b.details["certificate"] = b.details["certificate"], a.details["certificate"]
        return out
    monkeypatch.setattr(verify_command, "run_verify", swap)


def test_swapped_certificates_fail_naming_both_rows(swapped, capsys):
    """Each certificate is valid on its own (the checker accepts it), but it proves the other row's claim."""
    assert main(["verify", TWO_A, TWO_B, "--recheck", "--jobs", "1"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2
    for cid, mine, other in ((TWO_A, "kt-closeness", "ldp"), (TWO_B, "ldp", "kt-closeness")):
        (line,) = [x for x in err if x.startswith(f"implgraph: recheck: {cid}: ")]
        # the line names the row and what its certificate states instead
        assert "statement" in line and f"it states {other}" in line


def test_swapped_certificates_are_each_accepted_alone(rows):
    """(The swap is caught by the statement only: the checker accepts both certificates.)"""
    for cid in (TWO_A, TWO_B):
        assert all(check_certificate(c).ok for c in certificates_in(rows[cid].details))


def _stronger_f_claim(claims, tmp_path, f):
    """theorem-2a's claim with another f, written as a theorems file of its own (claim id mine/theorem-2a)."""
    node = {k: v for k, v in json.loads(json.dumps(claims[TWO_A])).items() if not k.startswith("_") and k != "expect"}
    node.update(id="mine/theorem-2a", f=f)
    (tmp_path / "theorems").mkdir(exist_ok=True)
    path = tmp_path / "theorems" / "mine.yaml"
    path.write_text(yaml.safe_dump({"paper": "mine", "reference": "mine", "claims": [dict(node)]}))
    return path, node


def test_a_weaker_f_does_not_prove_a_stronger_claim(rows, claims, tmp_path, monkeypatch, capsys):
    """theorem-2a's certificate proves eps = ln(Min(t^2, N (t - 1) + 1)); a row claiming eps = ln(t) (stronger:
    e^eps = t <= t^2) and carrying it is rejected: U = Min(T^2, N (T - 1) + 1) is not <= T (at N = 3, T = 2: 4)."""
    path, node = _stronger_f_claim(claims, tmp_path, "ln(t)")
    forged = _with(rows[TWO_A], id="mine/theorem-2a", verdict="proved")
    rep = check_statement(node, forged, certificates_in(forged.details))
    assert not rep.ok
    assert any("at least as strong as the claimed f" in w for w, _, _ in rep.failures())
    # through the command: the row is the claim's, its certificate accepted, its statement not
    monkeypatch.setattr(verify_command, "run_verify", lambda *a, **k: [copy.deepcopy(forged)])
    assert main(["verify", "--only", "--theorems", str(path), "--recheck", "--jobs", "1"]) == 1
    err = capsys.readouterr().err
    assert "implgraph: recheck: mine/theorem-2a: statement" in err and "claimed f" in err


def test_the_claimed_f_itself_is_proved(rows, claims, tmp_path):
    """The same certificate on the claim as printed (ln(t^2) >= ln Min(...)) and on a weaker one (ln(t^3))."""
    for f in ("ln(t**2)", "3*ln(t)"):
        _, node = _stronger_f_claim(claims, tmp_path, f)
        row = _with(rows[TWO_A], id="mine/theorem-2a", tight=None)
        rep = check_statement(node, row, certificates_in(row.details))
        assert rep.ok, (f, rep.failures())


def test_a_certificate_of_another_tight_f_is_rejected(rows, claims):
    """A row stating the tight f ln(t^2) with theorem-2a's tight certificate, U = Min(T^2, N (T - 1) + 1): U is
    not the tight f the row states (at N = 2, T = 2: 3, not 4), so the certificate is not the evidence of it."""
    row = rows[TWO_A]
    (cert,) = certificates_in(row.details)
    other = _with(row, tight="log(t**2)")
    rep = check_statement(claims[TWO_A], other, [cert])
    assert not rep.ok and any("tight" in w for w, _, _ in rep.failures())


def _narrowed(cert, condition):
    out = copy.deepcopy(cert)
    out["domain"] = list(out["domain"]) + [condition]
    return out


def test_an_unstated_assumption_is_rejected(rows, claims):
    """lemma-2.4's certificate with k >= 3 added to its domain: still a certificate the checker accepts (the same
    argument on a smaller domain), but it assumes more than the claim (1 <= k <= N - 1)."""
    row = rows[MONOTONE]
    (cert,) = certificates_in(row.details)
    narrow = _narrowed(cert, "k >= 3")
    assert check_certificate(narrow, ns=range(2, 7)).ok
    rep = _statement(claims, row, [narrow])
    assert not rep.ok
    assert any("k >= 3" in w and "assumption the claim does not state" in h for w, _, h in rep.failures())
    assert any("proves the claimed f" in w for w, _, _ in rep.failures())


def test_an_assumption_the_verdict_states_is_accepted(rows, claims):
    row = rows[MONOTONE]
    (cert,) = certificates_in(row.details)
    stated = _with(row, evidence=row.evidence + "; for k >= 3 only")
    assert _statement(claims, stated, [_narrowed(cert, "k >= 3")]).ok


def test_a_partition_premise_needs_the_claim_or_the_verdict(rows, claims):
    """lemma-2.3's reading: its certificate's domain has 2*k <= N (a partition into >= 2 classes of >= k records),
    which the claim states; without it in the claim, the verdict must say "partition into at least 2 classes"."""
    row = rows[CLASSES]
    node = copy.deepcopy(dict(claims[CLASSES.split("#")[0]]))
    node["when"] = [w for w in node["when"] if w != "2*k <= N"]
    certs = certificates_in(row.details)
    rep = check_statement(node, row, certs)
    assert not rep.ok and any("2*k <= N" in w for w, _, _ in rep.failures())
    stated = _with(row, evidence=row.evidence + "; tables that partition into at least 2 classes")
    assert check_statement(node, stated, certs).ok


def test_another_class_hypothesis_is_rejected(rows, claims):
    """A certificate whose classes have >= k + 1 records (the claim: >= k) assumes more than the claim."""
    row = rows[CLASSES]
    (cert,) = certificates_in(row.details)
    other = copy.deepcopy(cert)
    other["B"]["min_class"] = "k + 1"
    rep = check_statement(claims[CLASSES.split("#")[0]], row, [other])
    assert not rep.ok and any("class size k + 1" in h for _, _, h in rep.failures())


def _conditional_row(row):
    """The verdict ``row`` gives under its assumption, as a row of its own (``details.conditional``)."""
    cond = row.details["conditional"]
    return {"id": row.id, "verdict": cond["verdict"], "refuted_by": cond["refuted_by"], "evidence": cond["evidence"],
            "tight": None, "details": {"certificate": cond["certificate"]}}


def test_a_refutation_certificate_proves_the_denied_implication(rows, claims):
    """theorem-5's reading (mult-t-closeness =/=> (k, eps)-DP, k >= 1) is refuted at k = 1 under "partitions into at
    least 2 classes": the certificate's instance lies inside the condition. The same certificate at k = 0 (outside
    1 <= k) refutes nothing."""
    row = _conditional_row(rows[INSTANCE])
    cert = row["details"]["certificate"]
    claim = claims[INSTANCE.split("#")[0]]
    rep = check_statement(claim, row, [cert])
    assert rep.ok, rep.failures()
    assert any("instance k = 1 is inside" in w for w, _, _ in rep.steps)
    outside = copy.deepcopy(cert)
    outside["domain"] = [c.replace("Eq(k, 1)", "Eq(k, 0)") for c in cert["domain"]]
    rep = check_statement(claim, row, [outside])
    assert not rep.ok


def test_recheck_row_rechecks_the_conditional_verdict(rows, claims):
    """verify --recheck re-checks the verdict under an assumption too: a certificate for every partition
    (min_classes 1) is not the one "partitions into at least 2 classes" rests on, and is rejected there."""
    from implgraph.certify import recheck_row
    row = rows[INSTANCE]
    claim = claims[INSTANCE.split("#")[0]]
    reports = recheck_row(claim, row)
    assert reports and all(r.ok for r in reports), [r.failures() for r in reports]
    forged = copy.deepcopy(row.details)
    forged["conditional"]["certificate"]["min_classes"] = 1
    as_json = {"id": row.id, "verdict": row.verdict, "strength": row.strength, "evidence": row.evidence,
               "tight": row.tight_str, "details": forged, "refuted_by": row.refuted_by}
    assert not all(r.ok for r in recheck_row(claim, as_json))


def test_a_certificate_of_the_converse_does_not_refute(rows, claims):
    """A refutation by proof needs A => B itself: lemma-2.3's certificate with its sides exchanged is not it."""
    row = rows["ekenstedt2022/lemma-2.3"]
    (cert,) = certificates_in(row.details)
    converse = copy.deepcopy(cert)
    converse["A"], converse["B"] = cert["B"], cert["A"]
    rep = _statement(claims, row, [converse])
    assert not rep.ok


def test_a_row_without_its_claim_is_rejected(rows):
    reports = recheck_row(None, rows[MONOTONE])
    assert reports[-1].of == "statement" and not reports[-1].ok
    assert "no claim" in reports[-1].failures()[0][2]


# -- the time budget -----------------------------------------------------------------------------------------------

def _slow(rows):
    """A certificate built to be slow: the min of 16 copies of lemma-2.1's supremum certificate (each re-checks a
    family at about 2,000 points), each copy's argument text its own (a part accepted before in the process is not
    re-checked: :func:`implgraph.certify.accepted.part_report`; the texts differ, so each is)."""
    sup = next(c for c in certificates_in(rows["ekenstedt2022/lemma-2.1"].details) if c["method"] == "subset-supremum")
    parts = [dict(copy.deepcopy(sup), argument=f"{sup.get('argument', '')} (copy {i})") for i in range(16)]
    return {**sup, "method": "min", "parts": parts, "tight": False, "tightness": None}


@pytest.fixture(scope="module")
def supremum_rows():
    return {v.id: v for v in run_verify(["ekenstedt2022/lemma-2.1"], jobs=1)}


def _budget_failure(rep):
    return [h for w, _, h in rep.failures() if w == "time budget"]


def test_a_budget_of_zero_accepts_nothing(rows):
    (cert,) = certificates_in(rows[MONOTONE].details)
    assert check_certificate(cert).ok
    rep = check_certificate(cert, budget=0)
    assert not rep.ok and _budget_failure(rep) == ["not accepted: time budget exceeded (0 s)"]


def test_a_slow_certificate_is_cut_at_its_budget(supremum_rows):
    rep = check_certificate(_slow(supremum_rows), budget=0.5)
    assert not rep.ok and _budget_failure(rep) == ["not accepted: time budget exceeded (0.5 s)"]


def test_an_enclosing_deadline_is_raised_on(supremum_rows):
    """A deadline around the re-check that passes first is the caller's: its Timeout is not turned into a report."""
    from implgraph.core.deadline import Timeout, deadline
    with pytest.raises(Timeout):
        with deadline(0.3):
            check_certificate(_slow(supremum_rows), budget=600)


def test_the_budget_holds_where_no_timer_can_be_armed():
    """Off the main thread no deadline fires: the time taken is compared with the budget afterwards."""
    import threading
    import time
    from implgraph.certify import CertificateReport
    out = []

    def slow():
        time.sleep(0.2)
        return CertificateReport(True, [("slept", True, "")])
    t = threading.Thread(target=lambda: out.append(within_budget(slow, 0.05)))
    t.start()
    t.join()
    assert not out[0].ok and _budget_failure(out[0])


def test_verify_recheck_budget(capsys):
    assert main(["verify", MONOTONE, "--recheck", "--recheck-budget", "0", "--jobs", "1"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"implgraph: recheck: {MONOTONE}: time budget: not accepted: time budget exceeded (0 s)"]


@pytest.mark.parametrize("value", ["-1", "nan", "1e9"])
def test_verify_recheck_budget_out_of_range(value, capsys):
    assert main(["verify", MONOTONE, "--recheck", "--recheck-budget", value]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "--recheck-budget" in err[0] and "fix:" in err[0]


def test_the_statement_check_loads_no_engine(rows, claims):
    """Reading the claim and comparing it loads no engine, claim checker or mechanism (the claim data, the whitelist
    parser and the registry only)."""
    import subprocess
    import sys
    row = rows[MONOTONE]
    data = {"claim": json.loads(json.dumps(claims[MONOTONE])),
            "row": {"id": row.id, "verdict": row.verdict, "evidence": row.evidence, "tight": row.tight_str,
                    "details": {"certificate": row.details["certificate"], "tightness": row.details.get("tightness")},
                    "strength": row.strength}}
    code = ("import json, sys; from implgraph.certify import recheck_row; "
            f"d = json.loads({json.dumps(json.dumps(data))}); reps = recheck_row(d['claim'], d['row']); "
            "assert [r.of for r in reps] == ['certificate', 'statement'] and all(r.ok for r in reps), reps; "
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith(('implgraph.engines', "
            "'implgraph.checks', 'implgraph.mechanisms', 'implgraph.map')))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == []


def test_certificate_text_is_never_executed(rows, tmp_path):
    """A certificate may come from a file (a verdict cache): a text outside the checker's own reader is read by the
    whitelist parser, never by sympify (which would run it). The certificate is refused and nothing runs."""
    (cert,) = certificates_in(rows[MONOTONE].details)
    marker = tmp_path / "ran"
    payload = f"__import__('pathlib').Path({str(marker)!r}).touch() or T >= 1"
    for where in ("domain", "family"):
        forged = copy.deepcopy(cert)
        if where == "domain":
            forged["domain"] = list(forged["domain"]) + [payload]
        else:
            forged["tightness"] = {**forged["tightness"], "domain": [payload]}
        assert not check_certificate(forged, ns=range(2, 5)).ok
        assert not marker.exists()


# -- a divergence A: its certificates' T > 0 extended to A's best level T = 0 -------------------------------------

def _edge_statement(a, b, upper=None):
    from implgraph.commands.certificate import _edge_rows
    row = _edge_rows(a, b)[0]
    certs = copy.deepcopy(row["certificates"])
    if upper is not None:
        for c in certs:
            c["upper"] = upper
    return certs, check_statement(row["_claim"], row["_verdict"], certs)


def test_a_divergence_edge_is_stated_at_level_zero_by_the_limit_of_its_bound():
    """kl-ldp's level 0 is a valid level (T >= 0) where the certificate assumes T > 0: the tables at KL level 0 are at
    level <= t for every t > 0, and U = 1 on (0, 1/50] (Pinsker's piece: eps = 0), so B's raw level is at most 1."""
    certs, rep = _edge_statement("kl-ldp", "eps-delta-dp(delta=1/10)")
    assert [c["domain"] for c in certs] == [["T > 0", "N >= 2"]]
    assert rep.ok, rep.failures()
    steps = [s for s in rep.to_json()["steps"] if "A's best level T = 0" in s["step"]]
    assert steps and steps[0]["ok"] and "lim U = 1" in steps[0]["how"]


def test_a_bound_without_a_finite_limit_at_zero_is_not_extended():
    """U = 1 + 1/T tends to oo as T -> 0+: nothing is known at level 0, so T > 0 stays an unstated assumption."""
    _, rep = _edge_statement("kl-ldp", "eps-delta-dp(delta=1/10)", upper="1 + 1/T")
    assert not rep.ok
    failed = " ".join(s["step"] + " " + s["how"] for s in rep.to_json()["steps"] if not s["ok"])
    assert "lim U = oo" not in failed and "limit of U at 0+ is oo" in failed


def test_a_minimum_in_the_bound_is_resolved_near_zero():
    """kl-closeness => renyi-closeness(2) through the class's total variation: U = log(1 + N Min(sqrt(T/2), (N - 1)/N))
    (Pinsker, then the chord); near T = 0 the square root is the smaller (0 < (N - 1)/N), so the limit is log 1 = 0."""
    _, rep = _edge_statement("kl-closeness", "renyi-closeness(alpha=2)")
    assert rep.ok, rep.failures()
    steps = [s for s in rep.to_json()["steps"] if "A's best level T = 0" in s["step"]]
    assert steps and steps[0]["ok"] and "lim U = 0" in steps[0]["how"]


def test_a_minimum_whose_arguments_meet_at_zero_is_bounded_by_each():
    """U = Min(1 + T, 1 + 2 T): both arguments tend to 1, neither is strictly the least near 0+; U is at most each, so
    B at A's level 0 is at most 1 (hand), and the step says so."""
    _, rep = _edge_statement("kl-ldp", "eps-delta-dp(delta=1/10)", upper="Min(1 + T, 1 + 2*T)")
    steps = [s for s in rep.to_json()["steps"] if "A's best level T = 0" in s["step"]]
    assert steps and steps[0]["ok"] and "lim U = 1" in steps[0]["how"]


def test_a_piecewise_tight_f_is_stated_at_its_cut():
    """dp => kl-closeness is tight piece by piece in T, cut at T = N/(N - 1) where the lower piece's ratio interval
    starts at 0: its value there reads 0 log 0, so the lower piece's certificate holds strictly below the cut and the
    upper one's at and above it (at N = 2, T = 2 the statement compared U = nan with log(3/2) before)."""
    certs, rep = _edge_statement("dp", "kl-closeness")
    assert rep.ok, rep.failures()
    assert any(any("T < N/(N - 1)" in d for d in c["domain"]) for c in certs)


def test_a_piecewise_bound_takes_its_piece_near_zero():
    """renyi-ldp(2) => eps-delta-dp(delta=1/10): U's first piece, 1, holds where N >= 10 or T <= log(4 N (N - 1)/99 + 1),
    and the right side is > 0 for every N >= 2 (4 N (N - 1)/99 > 0), so near T = 0 U is 1 (hand)."""
    _, rep = _edge_statement("renyi-ldp(alpha=2)", "eps-delta-dp(delta=1/10)")
    assert rep.ok, rep.failures()
    steps = [s for s in rep.to_json()["steps"] if "A's best level T = 0" in s["step"]]
    assert steps and steps[0]["ok"] and "lim U = 1" in steps[0]["how"]


def test_a_piece_condition_that_neither_holds_nor_fails_near_zero_is_not_guessed():
    """T <= N - 2 holds near 0+ for N >= 3 and fails at N = 2 (0 < T): neither for every N, so no piece is chosen."""
    import sympy

    from implgraph.certify.direction import _holds_near_zero
    from implgraph.certify.hypotheses import Hypotheses
    T, N = sympy.Symbol("T", real=True), sympy.Symbol("N", integer=True)
    hyps = Hypotheses([sympy.Ge(T, 0), sympy.Ge(N, 2)], {"T": "real", "N": "integer"}, {"T": T, "N": N})
    assert _holds_near_zero(sympy.Le(T, N - 2), T, hyps) is None
    assert _holds_near_zero(sympy.Le(T, N - 1), T, hyps) is True
    assert _holds_near_zero(sympy.Ge(T, N - 1), T, hyps) is False
    assert _holds_near_zero(sympy.Or(sympy.Ge(N, 10), sympy.Le(T, sympy.log(N))), T, hyps) is True


def test_a_minimum_with_no_strictly_least_argument_is_bounded_by_each():
    """delta-dp(log 2) => emd-t-closeness(ground=equal): U = Min((N - 1)/N, (N - 1)(2 T + 1)/3), whose arguments tend
    to (N - 1)/N and (N - 1)/3 (equal at N = 3, so neither is least for every N); U is at most each argument, so B at
    A's level 0 is at most both limits (hand)."""
    _, rep = _edge_statement("delta-dp(eps=log(2))", "emd-t-closeness(ground=equal)")
    assert rep.ok, rep.failures()


def test_a_minimum_under_a_decreasing_function_is_not_split():
    """1/Min(1 + T, 2) is not at most 1/(1 + T) (1/x decreases): no Min-free bound above it is taken."""
    import sympy

    from implgraph.certify.direction import _above
    from implgraph.certify.hypotheses import Hypotheses
    T, N = sympy.Symbol("T", real=True), sympy.Symbol("N", integer=True)
    hyps = Hypotheses([sympy.Ge(T, 0), sympy.Ge(N, 2)], {"T": "real", "N": "integer"}, {"T": T, "N": N})
    assert _above(1 / sympy.Min(1 + T, 2), T, hyps) == []
    assert set(_above(sympy.log(1 + N * sympy.Min(T, 1)), T, hyps)) == {sympy.log(1 + N * T), sympy.log(1 + N)}
    assert _above(sympy.Min(T, 1) - sympy.Min(T, 2), T, hyps) == []


#: a non-implication's certificate as the zcdp-family argument writes it (its family is the checker's business:
#: here only what it states is read)
NO_F = {"format": "implgraph-certificate/1", "method": "zcdp-family", "claim": "no-f",
        "symbols": {"N": "integer", "j": "integer"}, "domain": ["N >= 2", "j >= 1"],
        "A": {"definition": "zcdp-ldp", "params": {}, "family": None, "sides": None},
        "B": {"definition": "ldp", "params": {}, "family": "pairwise", "sides": "two-sided"}, "tight": False}
EDGE = {"id": "zcdp-ldp => ldp", "kind": "implies", "from": {"definition": "zcdp-ldp", "params": {}},
        "to": {"definition": "ldp", "params": {}}, "symbols": {}}


def _no_f_row(verdict):
    return {"id": EDGE["id"], "verdict": verdict, "evidence": "", "tight": None, "details": {}}


def test_a_non_implication_family_states_a_refuted_edge():
    """Its index j is its own (j >= 1 is the family's range, no assumption of the claim)."""
    rep = check_statement(EDGE, _no_f_row("refuted"), [NO_F])
    assert rep.ok, rep.failures()


@pytest.mark.parametrize("change, verdict", [
    ({}, "proved"),                                               # it proves no implication
    ({"B": dict(NO_F["B"], definition="tv-ldp")}, "refuted"),     # another B
    ({"domain": ["N >= 5", "j >= 1"]}, "refuted"),                # an assumption on N the claim does not state
    ({"domain": ["N >= 2"]}, "refuted"),                          # an index without a range of its own
])
def test_a_non_implication_family_states_nothing_else(change, verdict):
    rep = check_statement(EDGE, _no_f_row(verdict), [dict(NO_F, **change)])
    assert not rep.ok


def test_a_non_implication_family_is_not_read_against_a_condition():
    """A claim with a ``when`` (here on A's level) is not matched: the family's A level is bounded, not shown inside
    the condition."""
    rep = check_statement(dict(EDGE, when=["rho <= 1/100"], symbols={"rho": "real"}), _no_f_row("refuted"), [NO_F])
    assert not rep.ok
