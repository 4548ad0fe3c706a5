"""The published pair matrix (implgraph/data/matrix.json): a small part regenerated must match it, and its
counts must add up."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from implgraph.definitions import names
from implgraph.map.matrix import counts_of, Cell, matrix_nodes, pair_matrix, stated_params
from implgraph.definitions import get

MATRIX = Path(__file__).resolve().parents[1] / "implgraph" / "data" / "matrix.json"

#: cheap pairs covering an implication proved for every N, a bounded one and non-implications
SAMPLE = [("ldp", "kt-closeness(k=2)"), ("ldp", "eps-delta-ldp(delta=1/10)"),
          ("recursive-cl-diversity(l=2)", "alpha-k-anonymity(k=2)")]


@pytest.fixture(scope="module")
def published():
    return json.loads(MATRIX.read_text())


def test_the_matrix_covers_every_registered_definition(published):
    assert len(published["nodes"]) >= 16
    # the package's own definitions (a test elsewhere may leave a plugin registered in this process)
    bundled = [n for n in names() if type(get(n)).__module__.startswith("implgraph.definitions.")]
    assert published["nodes"] == matrix_nodes(bundled, N=published["settings"]["N"])
    n = len(published["nodes"])
    assert len(published["cells"]) == n * (n - 1)
    pairs = {(c["a"], c["b"]) for c in published["cells"]}
    assert len(pairs) == n * (n - 1)


def test_every_cell_is_decided_or_open_with_a_reason(published):
    for c in published["cells"]:
        assert c["relation"] in ("implication", "non-implication", "open")
        if c["relation"] == "non-implication":
            # one table where B is infinite, or a member of a witness family in N and K (A bounded, B unbounded as K
            # grows: the family and its certificate are the evidence, the member shown has a finite B)
            assert c["witness"] and (c["witness"]["level_b"] == "oo" or c["witness"].get("family"))
        elif c["relation"] == "open":
            assert c["reason"]
        else:
            assert c["proved_every_n"] == (c["verdict"] == "proved")
            assert c["proved_every_n"] or c["bound"]
            # every implication not proved for every N says why, in the published data
            assert c["proved_every_n"] or c["not_proved"].startswith(("trivial", "outside the prover's families",
                                                                      "no argument", "a non-implication for every N"))


def test_the_counts_add_up(published):
    cells = [Cell(**c) for c in published["cells"]]
    c = counts_of(cells)
    assert c == published["counts"]
    # a trivial implication whose tight f is not known is neither decided nor open: undecided beyond B's weakest level
    assert c["decided"] + c["open"] + c["implication_trivial_open"] == c["pairs"]


def _words(path):
    """A document's text with its whitespace (line breaks) collapsed and its emphasis removed."""
    return " ".join(path.read_text().replace("**", "").split())


def test_the_docs_quote_the_published_counts(published):
    """docs/findings.md and docs/sections/zoo.md quote the matrices' counts: each figure must be the data's."""
    import re
    root = MATRIX.parents[2]
    c = published["counts"]
    s = json.loads((MATRIX.parent / "matrix-symbols.json").read_text())["counts"]
    readme, zoo = _words(root / "docs" / "findings.md"), _words(root / "docs" / "sections" / "zoo.md")
    # (trivial and vacuous implications are counted apart, never as implications)
    want = [(readme, rf"{c['pairs']} pairs: {c['decided']} decided and {c['open']} open \({c['open_timeout']} timeouts\), "
                     rf"{c['implication_trivial_open']} undecided beyond a trivial f; {c['non_implication']} "
                     "non-implications"),
            (readme, rf"for every N and every k, {s['open']} open"),
            (zoo, rf"\| open \| {c['open']} \({c['open_timeout']} timeouts\)"),
            (zoo, rf"{s['pairs']} pairs, {s['decided']} decided and {s['open']} open, "
                  rf"{s['implication_trivial_open']} undecided beyond a trivial f"),
            (readme, rf"{c['implication']} implications, of which {c['implication_proved_every_n']} are proved for "
                     r"every N"),
            (readme, rf"and {c['implication_bounded']} hold only at bounded N; "
                     rf"{c['implication_trivial']} trivial \({c['implication_trivial_open']} of them with the tight f "
                     rf"not known\) and {c['implication_vacuous']} vacuous implications"),
            (readme, rf"{s['implication_proved_every_n']} implications proved for every N and every k"),
            (zoo, rf"\| decided \| {c['decided']} \|"),
            (zoo, rf"\| implications \| {c['implication']}: {c['implication_proved_every_n']} proved for every N "
                  rf"\(each with certificates; {c['implication_proved_upper_only']} of them with an f not shown tight"),
            (zoo, rf"\), {c['implication_bounded']} bounded \(N <= 4\) \|"),
            (zoo, rf"\| trivial or vacuous, not counted \| {c['implication_trivial']} trivial "
                  rf"\({c['implication_trivial_open']} of them with the tight f not known"),
            (zoo, rf"{c['implication_vacuous']} vacuous \|"),
            (zoo, rf"\| non-implications \(witness\) \| {c['non_implication']} \({c['conditional_implication']} of "
                  r"them implications under the assumption"),
            (zoo, rf"{s['non_implication']} non-implications"),
            (zoo, rf"{s['implication']} implications, {s['implication_proved_every_n']} proved for every N and every "
                  rf"value of the parameters, {s['implication_bounded']} bounded; {s['implication_trivial']} trivial "
                  rf"\({s['implication_trivial_open']} of them with the tight f not known\) and "
                  rf"{s['implication_vacuous']} vacuous, not counted")]
    for text, pattern in want:
        assert re.search(r"(?<![\d.])" + pattern, text), pattern       # (65 is not the end of 165)


def test_the_zoo_page_quotes_the_published_counts(published):
    """The same figures in docs/sections/zoo.md alone (README follows it)."""
    import re
    root = MATRIX.parents[2]
    c = published["counts"]
    s = json.loads((MATRIX.parent / "matrix-symbols.json").read_text())["counts"]
    zoo = _words(root / "docs" / "sections" / "zoo.md")
    want = [rf"\| decided \| {c['decided']} \|",
            rf"\| implications \| {c['implication']}: {c['implication_proved_every_n']} proved for every N",
            rf"\), {c['implication_bounded']} bounded \(N <= 4\) \|",
            rf"\| trivial or vacuous, not counted \| {c['implication_trivial']} trivial \("
            rf"{c['implication_trivial_open']} of them with the tight f not known",
            rf"\| non-implications \(witness\) \| {c['non_implication']} \({c['conditional_implication']} of them",
            rf"{s['non_implication']} non-implications",
            rf"{s['implication']} implications, {s['implication_proved_every_n']} proved for every N and every value"]
    for pattern in want:
        assert re.search(r"(?<![\d.])" + pattern, zoo), pattern


def test_stated_parameters():
    # a size is 2, a ground distance equal; the others come from the definition's own param_values
    assert stated_params(get("kt-closeness")) == {"k": 2}
    assert stated_params(get("emd-t-closeness")) == {"ground": "equal"}
    assert stated_params(get("recursive-cl-diversity")) == {"l": 2}
    assert set(matrix_nodes()) >= {"ldp", "eps-delta-dp(delta=1/10)"}
    assert len(matrix_nodes()) == len(names())


@pytest.mark.parametrize("a,b", SAMPLE)
def test_a_part_regenerated_matches_the_published_matrix(published, a, b):
    s = published["settings"]
    m = pair_matrix(N=s["N"], p=s["p"], timeout=300, jobs=1, pairs=[(a, b)])
    want = [c for c in published["cells"] if {c["a"], c["b"]} == {a, b}]
    assert len(want) == 2
    assert sorted(m["cells"], key=lambda c: c["a"]) == sorted(want, key=lambda c: c["a"])


def test_symbolic_parameters():
    """--parameters symbols: kdp's k is a symbol over its declared range 1 <= k <= N - 1, and ldp => kdp(k)
    is proved for every N and k with the tight f derived by hand: k records at e^eps c and N - k at c give
    the larger of N e^eps / ((N - k) e^eps + k) and ((N - k) + k e^eps) / N, which is the second
    (their cross difference is k (N - k) (e^eps - 1)^2 >= 0), so f = log((N + k (e^eps - 1)) / N)."""
    import sympy
    m = pair_matrix(["ldp", "kdp"], N=3, parameters="symbols")
    assert m["nodes"] == ["ldp", "kdp(k=k1)"]
    assert m["settings"]["conditions"] == {"k1": ["1 <= k1", "k1 <= N - 1"]}
    cell = next(c for c in m["cells"] if c["a"] == "ldp")
    assert cell["relation"] == "implication" and cell["proved_every_n"]
    N, k, eps = sympy.symbols("N k1 eps")
    got = sympy.sympify(cell["tight"], locals={"N": N, "k1": k, "eps": eps})
    assert sympy.simplify(sympy.exp(got) - (N + k * (sympy.exp(eps) - 1)) / N) == 0
    back = next(c for c in m["cells"] if c["a"] == "kdp(k=k1)")
    assert back["relation"] == "non-implication" and "k1" in back["witness"]["point"]


def test_a_smaller_subset_is_a_non_implication_from_where_it_is_smaller():
    """kdp(k=2) => kt-closeness(k=2) holds at N <= 4 (at N = 4 both compare subsets of 2 records) but from
    N = 5 on j_B = 2 < j_A = N - 2: two records at 0 in a bucket make kt-closeness infinite. By hand at N = 5:
    the table's mean is 3/10, the 3 smallest values average 1/6, so kdp's level is ln(9/5); tests/brute.py
    agrees on both levels. The cell is the non-implication, with that witness (the engine decides it: check-edge,
    discover and the matrix alike)."""
    from fractions import Fraction as Fr
    import brute
    rows = [[Fr(0), Fr(1)]] * 2 + [[Fr(1, 2), Fr(1, 2)]] * 3
    assert brute.kdp(rows, 2) == Fr(9, 5) and brute.kt(rows, 2) == brute.INF
    cell = next(c for c in json.loads(MATRIX.read_text())["cells"]
                if c["a"] == "kdp(k=2)" and c["b"] == "kt-closeness(k=2)")
    assert cell["relation"] == "non-implication" and cell["witness"]["point"] == {"N": 5}
    assert [[Fr(x) for x in r] for r in cell["witness"]["rows"]] == rows
    assert cell["witness"]["level_a"] == "log(9/5)"


def test_workers_decide_pair_after_pair_and_a_pair_past_its_timeout_is_open(monkeypatch):
    """The workers are forked: a stand-in for decide_pair (sleeping on one pair, failing on another)
    shows that a pair past its timeout is open ``timeout``, a failing one open with its reason, and
    that every other pair is still decided, in the order given, whichever worker took it."""
    import time as _time
    from implgraph.map import matrix as mm

    def fake(a, b, N, p, when):
        if a == "k-anonymity":
            _time.sleep(30)
        if a == "dp":
            raise RuntimeError("broken")
        return [Cell(a, b, "implication", "proved", "implication"), Cell(b, a, "non-implication", "refuted",
                                                                           "non-implication")]

    monkeypatch.setattr(mm, "decide_pair", fake)
    y, slow, bad = "ldp", "k-anonymity", "dp"
    fine = ["mult-t-closeness", "kt-closeness(k=2)", "basic-beta-likeness", "entropy-l-diversity"]
    pairs = [(fine[0], y), (slow, y), (fine[1], y), (bad, y), (fine[2], y), (fine[3], y)]
    results, seconds = mm._run_pairs(pairs, 4, 2, timeout=1.0, jobs=2, progress=False)
    assert set(results) == set(pairs) == set(seconds)
    for a in fine:
        assert [c.relation for c in results[(a, y)]] == ["implication", "non-implication"]
    assert [c.relation for c in results[(slow, y)]] == ["open", "open"]
    assert results[(slow, y)][0].verdict == "timeout" and "timeout after 1 s" in results[(slow, y)][0].reason
    assert f"{mm.RETRIES + 1} tries, each in a fresh worker" in results[(slow, y)][0].reason
    assert results[(bad, y)][0].relation == "open" and "RuntimeError: broken" in results[(bad, y)][0].reason
    assert seconds[(slow, y)] < 10


@pytest.mark.parametrize("warm", [False, True])
def test_a_pair_past_its_timeout_is_given_again_to_a_fresh_worker(monkeypatch, tmp_path, warm):
    """A pair whose first try runs past its timeout (as z3 can, in arithmetic it does not interrupt, on a query another
    process answers at once) is decided by its second try, in a fresh worker; its seconds count both tries. ``warm``:
    the pair is the first, decided in the parent before the workers start (its deadline 5 s past the timeout)."""
    import os
    import time as _time
    from implgraph.map import matrix as mm
    mark = tmp_path / "tried"

    def fake(a, b, N, p, when):
        if a == "k-anonymity" and not mark.exists():
            mark.write_text(str(os.getpid()))
            _time.sleep(30)
        return [Cell(a, b, "implication", "proved", "implication", reason=str(os.getpid())),
                Cell(b, a, "non-implication", "refuted", "non-implication")]

    monkeypatch.setattr(mm, "decide_pair", fake)
    pairs = [("dp", "ldp"), ("k-anonymity", "ldp")]      # (the first decided in the parent: a warm pair)
    if warm:
        pairs.reverse()
    results, seconds = mm._run_pairs(pairs, 4, 2, timeout=1.0, jobs=2, progress=False)
    first = results[("k-anonymity", "ldp")]
    assert [c.relation for c in first] == ["implication", "non-implication"]
    assert first[0].reason.split(",")[0] != mark.read_text()        # not the worker that ran past its timeout
    assert 1.0 <= seconds[("k-anonymity", "ldp")] < 15


def test_one_worker_and_two_give_the_same_cells():
    pairs = [("ldp", "kt-closeness(k=2)"), ("dp", "ldp"), ("ldp", "eps-delta-ldp(delta=1/10)")]
    one = pair_matrix(N=3, jobs=1, pairs=pairs)["cells"]
    two = pair_matrix(N=3, jobs=2, pairs=pairs)["cells"]
    assert one == two


def test_a_worker_that_dies_after_its_answer_is_replaced(monkeypatch):
    """Found by review: a worker that exits after sending its answer (a leftover thread, the OOM killer) made
    the next send raise BrokenPipeError in the parent; now a fresh worker takes the next pair. The worker
    here exits right after sending its answer on dp (deterministic: a timer thread made this test race)."""
    import os
    from implgraph.map import matrix as mm
    real_worker = mm._worker

    class ExitAfterDp:
        def __init__(self, conn):
            self.conn = conn

        def recv(self):
            return self.conn.recv()

        def send(self, msg):
            self.conn.send(msg)
            if msg[0] == "ok" and msg[1][0]["a"] == "dp":
                os._exit(0)

        def close(self):
            self.conn.close()

    def fake(a, b, N, p, when):
        return [Cell(a, b, "implication", "proved", "implication"), Cell(b, a, "non-implication", "refuted",
                                                                           "non-implication")]

    monkeypatch.setattr(mm, "decide_pair", fake)
    monkeypatch.setattr(mm, "_worker", lambda conn: real_worker(ExitAfterDp(conn)))
    pairs = [("dp", "ldp"), ("kdp(k=2)", "ldp"), ("mult-t-closeness", "ldp")]
    results, _ = mm._run_pairs(pairs, 4, 2, timeout=10, jobs=1, progress=False)
    assert set(results) == set(pairs)
    assert [c.relation for c in results[("dp", "ldp")]] == ["implication", "non-implication"]
    # the next pair went to the dead worker (open) or, its send failing, to a fresh one (decided)
    assert results[("kdp(k=2)", "ldp")][0].relation in ("implication", "open")
    assert [c.relation for c in results[("mult-t-closeness", "ldp")]] == ["implication", "non-implication"]


def test_forget_answers_leaves_no_solver_answer():
    from implgraph.core import region
    from implgraph.solvers import sympy_front
    import sympy
    x = sympy.Symbol("x", real=True)
    r = region.Region({x: "real"}, (x >= 1,))
    assert r.decide(x >= 0) is True
    assert region._CHECKS or region._ANSWERS
    region.forget_answers()
    assert not (region._CHECKS or region._ANSWERS or region._TRANSLATIONS or sympy_front._ABSTRACTIONS)


def test_the_parameters_kept_at_stated_values_say_why():
    """--parameters symbols: delta (declared range 0..1, values 1/10) is not an integer, ground and recursive l
    declare no range; each is listed with that reason, read off the declaration."""
    from implgraph.map.matrix import kept_parameters
    kept = kept_parameters(["eps-delta-dp", "emd-t-closeness", "kdp", "recursive-cl-diversity"])
    assert set(kept) == {"eps-delta-dp(delta=1/10)", "emd-t-closeness(ground=equal)", "recursive-cl-diversity(l=2)"}
    assert "not integers" in kept["eps-delta-dp(delta=1/10)"]["delta"]
    assert "no declared range" in kept["emd-t-closeness(ground=equal)"]["ground"]
    assert "no declared range" in kept["recursive-cl-diversity(l=2)"]["l"]


def test_a_worker_that_dies_as_its_next_job_begins(monkeypatch):
    """A worker that exits as its next job begins: that pair is open, the next one decided by a fresh worker.
    (Had it left the job unread, the parent would see a reset socket, ConnectionResetError on poll or recv,
    rather than EOFError; both end the same way. The full suite once failed on that race.)"""
    import os
    from implgraph.map import matrix as mm
    calls = []

    def fake(a, b, N, p, when):
        calls.append(a)
        return [Cell(a, b, "implication", "proved", "implication"), Cell(b, a, "non-implication", "refuted",
                                                                           "non-implication")]

    def forget():       # called in the worker before each job: the second job of a worker kills it
        if len(calls) >= 1:
            os._exit(0)

    monkeypatch.setattr(mm, "decide_pair", fake)
    monkeypatch.setattr(mm, "forget_answers", forget)
    pairs = [("dp", "ldp"), ("kdp(k=2)", "ldp"), ("mult-t-closeness", "ldp")]
    results, _ = mm._run_pairs(pairs, 4, 2, timeout=10, jobs=1, progress=False)
    assert [c.relation for c in results[("dp", "ldp")]] == ["implication", "non-implication"]
    assert results[("kdp(k=2)", "ldp")][0].relation == "open"
    assert [c.relation for c in results[("mult-t-closeness", "ldp")]] == ["implication", "non-implication"]
