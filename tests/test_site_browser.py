"""The explorer in a real browser: headless Chromium (Debian's chromium and chromium-driver) driven by
selenium. Every page loads with no console error, every link of a page resolves, a click on a cell
of the matrix shows its f and witness, the search box finds a pair.

Skipped with a message when selenium, chromium or chromedriver is missing (`.ci/run` installs them).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from implgraph.site.build import build_site

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage")

# two registered definitions, written by hand: a => b with f, b =/=> a with a witness of two records
A, B = "ldp", "dp"
WITNESS = {"rows": [["1", "0"], ["1/3", "2/3"]], "classes": ["E1", "E2"], "level_a": "oo", "level_b": "log(3)"}
CELLS = [
    {"a": A, "b": B, "relation": "implication", "verdict": "proved", "tight": "eps", "tight_at": "every N",
     "proved_every_n": True, "bound": "every N", "trivial": False, "witness": None, "reason": ""},
    {"a": B, "b": A, "relation": "non-implication", "verdict": "refuted", "tight": None, "proved_every_n": False,
     "bound": "N = 2", "trivial": False, "witness": WITNESS, "reason": ""},
]


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (pip install "
                                                                  "'implgraph[browser]')")
    if not (Path(CHROMIUM).exists() and Path(DRIVER).exists()):
        pytest.skip(f"no headless browser: {CHROMIUM} or {DRIVER} is missing (apt-get install chromium "
                    "chromium-driver; .ci/run does it)")
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in FLAGS:
        opts.add_argument(flag)
    opts.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=opts)
    driver.set_page_load_timeout(60)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("site")
    (root / "m.json").write_text(json.dumps({"nodes": [A, B], "cells": CELLS, "counts": {"pairs": 2}}))
    (root / "v.json").write_text(json.dumps({"claims": []}))
    out = root / "site"
    build_site(out, matrix=root / "m.json", verdicts=root / "v.json", tables=[], with_certificates=False,
               groups_n=3)
    return out


def _errors(driver) -> list:
    return [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "ERROR")]


def test_pages_load_without_console_errors_and_links_resolve(browser, site):
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 5
    for page in pages:
        browser.get(page.as_uri())
        assert browser.find_element("css selector", "h1").text, page
        assert _errors(browser) == [], page
        hrefs = browser.execute_script("return Array.from(document.querySelectorAll('a[href]'), "
                                         "a => new URL(a.getAttribute('href'), document.baseURI).href)")
        for href in hrefs:
            assert href.startswith("file://"), f"{page}: {href}"
            target = Path(href[len("file://"):].split("#")[0])
            assert target.is_file(), f"{page}: {href}"


def test_click_on_a_cell_shows_f_and_witness(browser, site):
    from selenium.webdriver.common.by import By
    browser.get((site / "matrix.html").as_uri())
    assert not browser.find_element(By.ID, "detail").is_displayed()
    browser.find_element(By.CSS_SELECTOR, f'a.pair[data-a="{A}"][data-b="{B}"]').click()
    assert browser.find_element(By.ID, "detail").is_displayed()
    assert "f = eps" in browser.find_element(By.ID, "detail-f").text
    browser.find_element(By.CSS_SELECTOR, f'a.pair[data-a="{B}"][data-b="{A}"]').click()
    text = browser.find_element(By.ID, "detail-witness").text
    # the witness's two records: (1, 0) in E1 and (1/3, 2/3) in E2, levels oo and log(3)
    assert "E1 1 0" in text and "E2 1/3 2/3" in text and "log(3)" in text
    assert _errors(browser) == []


def test_search_finds_a_pair(browser, site):
    from selenium.webdriver.common.by import By
    browser.get((site / "index.html").as_uri())
    browser.find_element(By.ID, "search").send_keys(f"{B} ? {A}: non")   # every word must occur
    links = browser.find_elements(By.CSS_SELECTOR, "#results a")
    assert [a.text for a in links] == [f"{B} ? {A}: non-implication"]
    links[0].click()
    assert browser.find_element(By.CSS_SELECTOR, "h1").text == f"{B} ? {A}"
    assert _errors(browser) == []
