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
