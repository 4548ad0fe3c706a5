"""Tables: CSV loading (fast and careful paths agree), validation, bundled data, packaging."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import sympy

from implgraph.core.concrete import ConcreteTable
from implgraph.io.datafile import data_dir, data_files
from implgraph.core.errors import InputError
from implgraph.definitions.levels import optimal_level
from implgraph.io.tablefile import load_csv, load_table_file

ROOT = Path(__file__).resolve().parents[1]


def _cells(ct: ConcreteTable):
    return [[Fraction(int(ct.numer[i, l]), ct.denom) for l in range(ct.p)] for i in range(ct.N)]


def test_csv_fast_path_is_exact(tmp_path):
    rng = np.random.default_rng(5)
    a1 = rng.integers(0, 1001, size=500)
    lines = ["class,a1,a2"] + [f"c{i % 7},{v / 1000:.3f},{(1000 - v) / 1000:.3f}" for i, v in enumerate(a1)]
    lines[3] = "c2,0.5,0.5"                     # fewer decimals on some rows
    path = tmp_path / "t.csv"
    path.write_text("\n".join(lines) + "\n")
    ct = load_csv(path)
    expected = [[Fraction(s), Fraction(t)] for _, s, t in (ln.split(",") for ln in lines[1:])]
    assert _cells(ct) == expected
    assert list(ct.classes) == [ln.split(",")[0] for ln in lines[1:]]


def test_csv_fast_and_careful_paths_agree(tmp_path):
    # the same records, once as decimals (fast path) and once with one fraction (careful path)
    dec = "a1,a2\n0.25,0.75\n0.5,0.5\n0.125,0.875\n"
    frac = "a1,a2\n1/4,3/4\n0.5,0.5\n0.125,0.875\n"
    (tmp_path / "d.csv").write_text(dec)
    (tmp_path / "f.csv").write_text(frac)
    a, b = load_csv(tmp_path / "d.csv"), load_csv(tmp_path / "f.csv")
    assert _cells(a) == _cells(b)
    for name, params in (("ldp", {}), ("dp", {}), ("kt-closeness", {"k": 1}), ("kdp", {"k": 2})):
        assert optimal_level(a, name, **params).value == optimal_level(b, name, **params).value


def test_csv_single_bucket_column(tmp_path):
    (tmp_path / "one.csv").write_text("a1\n0.5\n0.25\n")
    ct = load_csv(tmp_path / "one.csv")
    assert ct.buckets == ["a1", "not a1"]
    assert _cells(ct) == [[Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 4), Fraction(3, 4)]]


def test_float_path_of_the_benchmark_agrees_with_exact():
    spec = importlib.util.spec_from_file_location("bench_levels", ROOT / "benchmarks" / "bench_levels.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    for seed in range(5):
        ct = bench.random_table(2000, seed=seed)
        for k in (1, 10, 1000):
            exact = optimal_level(ct, "kt-closeness", k=k).pieces[0].value
            assert abs(float(exact) - bench.float_kt(ct, k)) <= 1e-12 * float(exact)


def test_yaml_validation_nary_and_binary(tmp_path):
    path = tmp_path / "t.yaml"
    path.write_text(textwrap.dedent("""
        id: t
        buckets: [a, b, c]
        rows:
          - {p: ["1/2", "1/4", "1/4"]}
          - {p: ["0", "1/2", "1/2"], count: "3"}
    """))
    t = load_table_file(path)
    assert t.size == 4 and t.p == 3
    # LDP: bucket a has 1/2 and 0 -> infinite
    assert optimal_level(t, "ldp").value is sympy.oo
    path.write_text(textwrap.dedent("""
        id: t
        buckets: [a, b, c]
        rows:
          - {p: ["1/2", "1/4", "1/2"]}
          - {p: ["0", "1/2", "1/2"]}
    """))
    with pytest.raises(InputError) as exc:
        load_table_file(path)
    assert "sum to 5/4" in str(exc.value) and ":5:" in str(exc.value)


def test_bundled_data_is_found():
    assert data_files("counterexamples"), data_dir("counterexamples")
    assert data_files("theorems"), data_dir("theorems")


def test_every_subpackage_is_packaged():
    """pyproject lists packages explicitly (the data folders are mapped into implgraph/data):
    every package directory of implgraph must be in that list, or a wheel would miss it."""
    import tomllib
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "implgraph").rglob("__init__.py")}
    assert found <= listed, sorted(found - listed)


@pytest.mark.slow
def test_wheel_install_finds_bundled_data(tmp_path):
    """Build a wheel, install it into a fresh venv, and run `implgraph levels` on bundled data."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    _share_site_packages(venv)
    py = venv / "bin" / "python"
    wheels = tmp_path / "wheels"
    subprocess.run([str(py), "-m", "pip", "wheel", "--no-deps", "-w", str(wheels),
                    str(ROOT)], check=True, capture_output=True)
    wheel = next(wheels.glob("implgraph-*.whl"))
    subprocess.run([str(py), "-m", "pip", "install", "--no-deps", "--force-reinstall", str(wheel)], check=True,
                   capture_output=True)
    code = ("from implgraph.io.datafile import data_files; import implgraph, sys; "
            "fs = data_files('counterexamples'); print(implgraph.__file__); print(len(fs)); "
            "sys.exit(0 if fs and 'site-packages' in str(fs[0]) else 1)")
    out = subprocess.run([str(py), "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    first = subprocess.run([str(py), "-c", "from implgraph.io.datafile import data_files; "
                            "print(data_files('counterexamples')[0])"], cwd=tmp_path, capture_output=True,
                           text=True).stdout.strip()
    run = subprocess.run([str(venv / "bin" / "implgraph"), "levels", first, "--id",
                          "domingo-ferrer2015/fig-2"], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "mult-t-closeness" in run.stdout


def _share_site_packages(venv):
    """Make the running interpreter's dependencies (sympy, z3, ...) visible in ``venv``: when the tests run
    inside a virtual environment, ``--system-site-packages`` reaches only the base interpreter's."""
    import site
    lib = next((venv / "lib").glob("python3*")) / "site-packages"
    (lib / "_implgraph_test_deps.pth").write_text("\n".join(site.getsitepackages()) + "\n")
