"""Headless Chromium for the browser tests (Debian's chromium and chromium-driver; `.ci/run` installs them)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage")


def chromium(tmp_path_factory):
    """A headless Chromium driven by selenium, logging the console and every request (its ``performance`` log);
    the calling test is skipped, with how to install them, where selenium or Chromium is missing. Quit it after."""
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
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})   # performance: requests
    driver = webdriver.Chrome(service=Service(DRIVER), options=opts)
    driver.set_page_load_timeout(60)
    return driver
