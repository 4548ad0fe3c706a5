"""Every constraint of the bundled data is traceable to its paper (GitHub issue 10, item 2).

A table's ``region`` and a claim's ``when`` carry ``region_sources`` / ``when_sources``: each
constraint is quoted from the paper or labelled ``derived: well-formedness`` (see
docs/DATA_FORMAT.md).  Quotes must occur in the paper's text file named in the data file's header
(``../shared/papers/<file>.txt``), compared after dropping case, spaces and every non-alphanumeric
character (the PDF extraction mangles symbols and spacing).
"""

from __future__ import annotations

import re
import textwrap
import unicodedata
from pathlib import Path

import pytest

from implgraph.io.counterexamples import load_tables_file
from implgraph.io.datafile import data_files
from implgraph.io.validate import load_yaml
from implgraph.core.errors import InputError
from implgraph.io.table_sources import constraint_sources, is_reading_node

REPO = Path(__file__).resolve().parent.parent
PAPERS = REPO.parent / "shared" / "papers"
PAPER_REF = re.compile(r"\.\./shared/papers/([0-9A-Za-z_]+\.txt)")
ABSOLUTE = re.compile(r"(?<![\w.~])/(?:work|home|tmp|usr|mnt|Users|root|var)/")


def _files():
    return data_files("theorems") + data_files("counterexamples")


def _entries():
    """(data file, entry id, node, list key) for every table region and every claim's (map arrow's,
    math instantiation's) `when`."""
    out = []
    for path in _files():
        doc = load_yaml(path)
        if path.parent.name == "theorems":
            for c in doc.get("claims") or []:
                out.append((path, str(c.get("id")), c, "when"))
                if c.get("reading_when"):
                    out.append((path, str(c.get("id")) + "#reading", c, "reading_when"))
                for a in c.get("arrows") or []:
                    out.append((path, f"{c.get('id')}[{a.get('label')}]", a, "when"))
                for inst in c.get("instantiations") or []:
                    out.append((path, f"{c.get('id')}[{inst.get('name')}]", inst, "when"))
        else:
            for t in doc.get("tables") or []:
                out.append((path, str(t.get("id")), t, "region"))
                for c in t.get("claims") or []:
                    out.append((path, str(c.get("id")), c, "when"))
    return out


ENTRIES = _entries()


def _param(entry):
    _, eid, _, key = entry
    return pytest.param(entry, id=f"{eid}:{key}")


def _norm(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).casefold()
    return "".join(ch for ch in text if ch.isalnum())


def _paper_texts(path: Path) -> list:
    names = PAPER_REF.findall(path.read_text(encoding="utf-8"))
    assert names, f"{path.name} cites no paper file as ../shared/papers/<file>.txt"
    return [_norm((PAPERS / n).read_text(encoding="utf-8")) for n in dict.fromkeys(names)]


@pytest.mark.parametrize("path", _files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_data_file_names_no_absolute_path(path):
    text = path.read_text(encoding="utf-8")
    hits = [m.group(0) for m in ABSOLUTE.finditer(text)]
    assert not hits, f"{path.name} names a machine path: {hits[:3]}"


@pytest.mark.parametrize("entry", [_param(e) for e in ENTRIES])
def test_every_constraint_is_quoted_or_derived(entry):
    path, eid, node, key = entry
    listed = node.get(key) or []
    if not listed:
        return
    reading_ok = key == "reading_when" or is_reading_node(node)
    kinds = constraint_sources(node, key, reading_ok=reading_ok)
    assert set(kinds) == {str(c) for c in listed}, f"{eid}: `{key}_sources` missing"


@pytest.mark.parametrize("entry", [_param(e) for e in ENTRIES if e[2].get(f"{e[3]}_sources")])
def test_every_quote_is_in_the_paper(entry):
    path, eid, node, key = entry
    if not PAPERS.is_dir():
        pytest.skip(f"papers folder {PAPERS} absent")
    for cond, src in node[f"{key}_sources"].items():
        if "quote" in src:
            texts = [_norm((PAPERS / src["paper"]).read_text(encoding="utf-8"))] if "paper" in src \
                else _paper_texts(path)
            q = _norm(src["quote"])
            assert q and any(q in t for t in texts), f"{eid}: quote for {cond!r} not found in the paper"


def test_bundled_regions_are_quotes_plus_well_formedness():
    # loading validates every table: the region implies every entry in [0, 1] and every count >= 1,
    # and each constraint labelled derived follows from the quoted ones plus that well-formedness
    from implgraph.io.counterexamples import table_entries
    from implgraph.io.table_data import table_from_node
    from implgraph.io.table_sources import check_derived
    for tid, (node, path) in table_entries().items():
        check_derived(table_from_node(node, file=path, validate=True), node)


def test_reading_when_only_where_a_checker_judges_it():
    # the math checker and the edge checkers judge `reading_when` as an `<id>#reading` row; the
    # mechanism checkers (the other modules of implgraph/checks/) do not read it, so a claim they judge must not
    # carry one (its reading would be dropped without a word)
    from implgraph.io.theorems import load_claims
    from implgraph.checks import find_checker
    carriers = [c for c in load_claims(kinds=("theorems",)) if c.get("reading_when")]
    assert carriers, "no bundled claim carries reading_when"
    for c in carriers:
        func = find_checker(c)
        assert func is not None and func.__module__ in ("implgraph.checks.math_claims", "implgraph.checks.edges"), \
            f"{c.get('id')}: `reading_when` on a claim judged by {func.__module__}.{func.__name__}"


# -- the loader's validation of the sources (hand-written inputs, lines counted by hand) ----------

BASE = """\
id: t
symbols: {mu: real}
region: ["0 < mu", "mu <= 1/2"]
rows:
  - {p: "mu"}
  - {p: "2*mu"}
"""


def _load(tmp_path, text):
    p = tmp_path / "t.yaml"
    p.write_text(textwrap.dedent(text), encoding="utf-8")
    return load_tables_file(p)


def test_sources_accepted(tmp_path):
    [t] = _load(tmp_path, BASE + """\
region_sources:
  "0 < mu": {quote: "assume mu > 0", at: "proof"}
  "mu <= 1/2": {derived: well-formedness}
""")
    assert len(t.region.constraints) == 2


@pytest.mark.parametrize("sources,line,what", [
    # line 8 is the constraint's key, the source mapping starts on the same line
    ('  "0 < mu": {quote: "x", page: "3"}\n  "mu <= 1/2": {derived: well-formedness}\n', 8, "unknown key `page`"),
    ('  "0 < mu": {quote: ""}\n  "mu <= 1/2": {derived: well-formedness}\n', 8, "non-empty string"),
    ('  "0 < mu": {quote: "x", derived: well-formedness}\n  "mu <= 1/2": {derived: well-formedness}\n', 8,
     "exactly one"),
    ('  "0 < mu": {quote: "x"}\n  "mu <= 1/2": {derived: convenience}\n', 9, "unknown derivation"),
    ('  "0 < mu": {quote: "x"}\n  "mu < 1/2": {derived: well-formedness}\n', 9, "not a constraint of `region`"),
    ('  "0 < mu": {quote: "x"}\n', 7, "has no entry"),
    ('  "0 < mu": {quote: "x"}\n  "mu <= 1/2": {reading: "convenience"}\n', 9, "labelled a reading"),
    ('  "0 < mu": {quote: "x"}\n  "mu <= 1/2": "derived"\n', 9, "must be a mapping"),
])
def test_bad_sources_are_input_errors(tmp_path, sources, line, what):
    with pytest.raises(InputError) as exc:
        _load(tmp_path, BASE + "region_sources:\n" + sources)
    msg = str(exc.value)
    assert f"t.yaml:{line}:" in msg and what in msg and "fix:" in msg


def test_derived_label_is_checked(tmp_path):
    # mu <= 1/4 does not follow from mu and 2*mu being probabilities (mu <= 1/2 does)
    text = BASE.replace("mu <= 1/2", "mu <= 1/4") + """\
region_sources:
  "0 < mu": {quote: "x"}
  "mu <= 1/4": {derived: well-formedness}
"""
    with pytest.raises(InputError) as exc:
        _load(tmp_path, text)
    assert "t.yaml:9:" in str(exc.value) and "labelled derived" in str(exc.value)


def test_reading_allowed_in_a_reading_claim(tmp_path):
    [t] = _load(tmp_path, BASE + """\
claims:
  - id: t/c-reading
    reading_of: t/c
    kind: level
    definition: ldp
    level: "1"
    when: ["mu <= 1/4"]
    when_sources:
      "mu <= 1/4": {reading: "the proof's range"}
""")
    assert t.id == "t"


def test_reading_rejected_in_a_printed_claim(tmp_path):
    with pytest.raises(InputError) as exc:
        _load(tmp_path, BASE + """\
claims:
  - id: t/c
    kind: level
    definition: ldp
    level: "1"
    when: ["mu <= 1/4"]
    when_sources:
      "mu <= 1/4": {reading: "the proof's range"}
""")
    assert "t.yaml:14:" in str(exc.value) and "labelled a reading" in str(exc.value)


THEOREM = """\
paper: x
claims:
  - id: x/t
    kind: implies
    from: {definition: ldp, level: eps}
    to: {definition: kt-closeness, params: {k: "1"}, level: t}
    f: "exp(eps)"
    symbols: {N: integer}
    when: ["N >= 2"]
    when_sources:
      "N >= 2": {quote: "k in [1, N - 1]"}
"""


def _theorems(tmp_path, text):
    from implgraph.io.theorems import load_theorems
    folder = tmp_path / "theorems"
    folder.mkdir()
    (folder / "x.yaml").write_text(text, encoding="utf-8")
    return load_theorems([folder / "x.yaml"])


def test_reading_when_restricts_only_the_reading(tmp_path):
    [edge] = _theorems(tmp_path, THEOREM + """\
    reading: "the proof's range"
    reading_kind: implies
    reading_when: ["N >= 3"]
    reading_when_sources:
      "N >= 3": {reading: "convenience"}
""")
    N = edge.symbols["N"]
    assert edge.region.contains({N: 2}) is True
    assert edge.as_reading().region.contains({N: 2}) is False
    assert edge.as_reading().region.contains({N: 3}) is True


@pytest.mark.parametrize("extra,line,what", [
    ('    reading_when: ["N >= 3"]\n', 12, "no `reading_kind`"),
    ('    reading_kind: implies\n    reading_when: ["N >= 3"]\n    reading_when_sources:\n'
     '      "N >= 3": {quote: "x", note: ""}\n', 15, "non-empty string"),
])
def test_bad_reading_when(tmp_path, extra, line, what):
    with pytest.raises(InputError) as exc:
        _theorems(tmp_path, THEOREM + extra)
    assert f"x.yaml:{line}:" in str(exc.value) and what in str(exc.value)


def test_reading_label_rejected_in_printed_theorem(tmp_path):
    with pytest.raises(InputError) as exc:
        _theorems(tmp_path, THEOREM.replace('{quote: "k in [1, N - 1]"}', '{reading: "why"}'))
    assert "x.yaml:11:" in str(exc.value) and "labelled a reading" in str(exc.value)
