"""The report of ``implgraph levels DATA --report FILE.html|FILE.pdf`` (implgraph/io/report.py).

Values derived by hand on ``patients.csv`` (tests/test_microdata.py derives its levels): classes of 4, 3 and 3
records, distinct l = 2 (the class [40-59], 14* holds flu, flu, hiv), so ``--require k=3,distinct-l-diversity=3``
passes k and fails l with 1 class of 3 records. The page must load nothing from anywhere (no script, link, image
source or CSS url), escape the data's text, and be written only on good input. A headless Chromium (selenium)
walks the page where it is installed (skipped otherwise; `.ci/run` installs Debian's chromium and chromium-driver).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("pandas")

from implgraph.cli import main  # noqa: E402

from _browser import CHROMIUM, chromium  # noqa: E402

PATIENTS = Path(__file__).parent / "data" / "microdata" / "patients.csv"
ARGS = ["--qi", "age,zip", "--sensitive", "disease", "--require", "k=3,distinct-l-diversity=3"]


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "report.html"
    assert main(["levels", str(PATIENTS), *ARGS, "--report", str(out)]) == 1      # a requirement fails: exit 1
    return out


def test_report_holds_the_hand_derived_facts(page):
    text = page.read_text()
    assert re.search(r'id="records">10<', text) and re.search(r'id="classes">3<', text)
    assert "the smallest holds\n3, the largest 4" in text or "the smallest holds 3, the largest 4" in \
        " ".join(text.split())
    flat = " ".join(text.split())
    assert 'id="verdict">Requirements: <span class="fail">FAIL</span>' in flat
    assert "1 of 3 classes, 3 records; worst: age=[40-59], zip=14* (3 records, level 2)" in flat
    assert '<td class="pass">pass</td>' in flat and '<td class="fail">FAIL</td>' in flat
    # plots: the class sizes and one per definition with a level of one class, all inline SVG
    assert text.count("<svg") >= 2 and 'id="class-sizes"' in text
    assert 'data-definition="distinct-l-diversity"' in text and 'data-definition="k-anonymity"' in text


def test_report_loads_nothing(page):
    text = page.read_text()
    for needle in ("<script", "<link", "<img", "src=", "@import", "<iframe"):
        assert needle not in text, needle
    assert text.count("url(") == text.count("url(#")            # only the SVG's own clip paths
    # the only web addresses are XML namespaces (names, never fetched)
    urls = re.findall(r"https?://", text)
    spaces = re.findall(r'xmlns(?::\w+)?="https?://[^"]*"', text)
    assert len(urls) == len(spaces), sorted(set(re.findall(r"https?://[^\"' <>]+", text)))


def test_report_escapes_the_data(tmp_path):
    data = tmp_path / "d.csv"
    data.write_text("zip,<script>alert(1)</script>\n13*,flu\n13*,hiv\n14*,flu\n14*,<b>x</b>\n")
    out = tmp_path / "r.html"
    assert main(["levels", str(data), "--qi", "zip", "--sensitive", "<script>alert(1)</script>",
                 "--report", str(out)]) == 0
    text = out.read_text()
    assert "<script" not in text and "&lt;script&gt;" in text and "<b>x</b>" not in text


@pytest.mark.parametrize("name, needle", [("r.txt", "unknown kind"), ("none/r.html", "no folder"),
                                          ("{data}", "unknown kind .csv")])
def test_report_bad_path_exit_2_nothing_written(tmp_path, capsys, name, needle):
    data = tmp_path / "p.csv"
    data.write_text(PATIENTS.read_text())
    before = sorted(p.name for p in tmp_path.iterdir())
    target = name.format(data=data) if "{" in name else str(tmp_path / name)
    assert main(["levels", str(data), *ARGS, "--report", target]) == 2
    err = capsys.readouterr().err.strip()
    assert needle in err and "; fix: " in err and len(err.splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == before and data.read_text() == PATIENTS.read_text()


def test_report_reads_microdata_only(tmp_path, capsys):
    table = tmp_path / "t.csv"
    table.write_text("a,b\n1/2,1/2\n1,0\n")
    assert main(["levels", str(table), "--report", str(tmp_path / "r.html")]) == 2
    assert "--report reads microdata" in capsys.readouterr().err
    assert not (tmp_path / "r.html").exists()


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="no chromium (apt-get install chromium)")
def test_report_as_pdf(tmp_path):
    out = tmp_path / "report.pdf"
    assert main(["levels", str(PATIENTS), *ARGS, "--report", str(out)]) == 1
    data = out.read_bytes()
    assert data.startswith(b"%PDF-") and b"%%EOF" in data[-1024:]
    assert [p.name for p in tmp_path.iterdir()] == ["report.pdf"]           # no temporary file left


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = chromium(tmp_path_factory)
    yield driver
    driver.quit()


def test_report_in_chromium(browser, page):
    """The page renders offline: no console error, no request but the page itself, the plots drawn with a size,
    the verdicts as derived by hand."""
    import json
    browser.get_log("performance")                                          # drain the start-up's own pages
    browser.get(page.as_uri())
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, errors
    urls = set()
    for entry in browser.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg["method"] == "Network.requestWillBeSent":
            urls.add(msg["params"]["request"]["url"])
    fetched = {u for u in urls if u.split(":", 1)[0] in ("http", "https", "file", "ftp", "ws", "wss")}
    assert fetched <= {page.as_uri()}, fetched
    from selenium.webdriver.common.by import By
    figures = browser.find_elements(By.CSS_SELECTOR, "figure svg")
    assert len(figures) >= 2 and all(f.size["width"] > 100 and f.size["height"] > 50 for f in figures)
    assert browser.find_element(By.ID, "verdict").text == "Requirements: FAIL"
    cells = [c.text for c in browser.find_elements(By.CSS_SELECTOR, "table.requirements td")]
    assert cells[:3] == ["k=3", "pass", "3"] and cells[4:7] == ["distinct-l-diversity=3", "FAIL", "2"]
    assert "1 of 3 classes, 3 records" in cells[7]


def test_report_plots_per_class_levels_up_to_a_limit(tmp_path, monkeypatch):
    """Over PLOT_CLASSES classes the per-class levels are not plotted (each is exact, one by one) and the page says
    so; the class sizes still are (3 classes here, the limit set to 2)."""
    import implgraph.io.report as report
    monkeypatch.setattr(report, "PLOT_CLASSES", 2)
    out = tmp_path / "r.html"
    assert main(["levels", str(PATIENTS), *ARGS, "--report", str(out)]) == 1
    text = out.read_text()
    assert "per-class levels are plotted for at most 2 classes (3 here)" in text
    assert 'id="class-sizes"' in text and "data-definition=" not in text
