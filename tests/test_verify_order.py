"""`implgraph verify` prints its rows in the claims' order, whatever order the processes of --jobs finish in."""

from implgraph.cli import main
from implgraph.commands import verify as verify_command
from implgraph.core.verdict import Verdict

#: in the data's order (theorems first, in file order, then the tables' claims), which is the order printed
IDS = ["ekenstedt2022/theorem-2b", "ekenstedt2022/theorem-3a", "ekenstedt2022/table-VI/proof-ldp"]


def test_rows_are_printed_in_the_claims_order(monkeypatch, capsys):
    def finish_backwards(ids, on_rows=None, claims=None, **kwargs):
        rows = [Verdict(id=str(c.get("id")), verdict="unknown", evidence="written by the test") for c in claims]
        for v in reversed(rows):        # the last claim finishes first
            on_rows([v])
        return rows
    monkeypatch.setattr(verify_command, "run_verify", finish_backwards)
    assert main(["verify", *reversed(IDS)]) == 0
    out = capsys.readouterr().out
    where = [out.index(i + " ") for i in IDS]
    assert where == sorted(where), out


def test_the_same_row_order_cold_and_warm(monkeypatch, capsys, tmp_path):
    """A cold cache (every claim checked, in --jobs processes that finish in any order) and a warm one (every row
    replayed) print the rows in the same order: the data's, as ``implgraph claims`` lists them."""
    import json
    import re
    monkeypatch.setenv("IMPLGRAPH_CACHE_DIR", str(tmp_path / "cache"))
    ids = ["ekenstedt2022/table-VI", "ekenstedt2022/theorem-2b", "ekenstedt2022/lemma-2.4"]
    assert main(["claims", *ids, "--json"]) == 0
    expected = [r["id"] for r in json.loads(capsys.readouterr().out)["claims"]]
    orders = []
    for _ in ("cold", "warm"):
        assert main(["verify", *ids, "--jobs", "2"]) == 0
        out = capsys.readouterr().out
        orders.append([m.group(1) for m in re.finditer(r"^(ekenstedt2022/\S+)\s", out, re.M)])
    assert len(expected) >= 4 and orders[0] == orders[1] == expected, orders
