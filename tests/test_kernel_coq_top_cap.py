"""The Coq generator of the ``top-cap`` certificates (``TopCap.v``, ``implgraph/kernel_coq/gen_top_cap.py``): a cap on
every class's top frequency bounds the l-diversities' class levels.

The six certificates of ``tests/data/coq/top_cap.json`` ((alpha,k)-anonymity and recursive (c,2)-diversity against
frequency, distinct and entropy l-diversity) check with coqc and a clean axiom audit. Forgeries (false by hand: the
capped row (2/5, 2/5, 1/5) at alpha = 2/5 has 1/max q = 5/2, not 5; (3/4, 1/4) at c = 3 has two values, not three):
an edited x fails at ``Hx`` (not the library's form), an edited U of frequency or distinct l-diversity at the last
step; an edited U of entropy l-diversity, or an edited cap, is refused by the generator.

The coqc tests are slow and skip where Debian's ``coq`` is not installed.
"""

from __future__ import annotations

import json
import os

import pytest

from _forge import edited

from implgraph.kernel_coq.coqexpr import Untranslatable
from implgraph.kernel_coq.registry import COVERED, generate

from _coq import assert_kernel_checked, coq, failing_step

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "data", "coq", "top_cap.json")) as fh:
    CERTS = json.load(fh)
FREQ, DIST, ENT = (f"alpha-k-anonymity => {b}-l-diversity" for b in ("frequency", "distinct", "entropy"))
RFREQ, RDIST, RENT = (f"recursive-cl-diversity => {b}-l-diversity" for b in ("frequency", "distinct", "entropy"))

FORGERIES = [
    ("x doubled", edited(CERTS[FREQ], ["x"], "Max(1, 2/(T - 1))"), "Hx"),
    ("tail x", edited(CERTS[RFREQ], ["x"], "1 + 2/T"), "Hx"),
    ("U doubled", edited(CERTS[FREQ], ["upper"], "Piecewise((oo, T <= 1), (Max(1, 2/(T - 1)), True))"), "Hx"),
    ("values 1/alpha + 1", edited(CERTS[DIST], ["upper"], "Piecewise((oo, T <= 1), (ceiling(1/(T - 1)) + 1, True))"),
     "Hx"),
    ("three values", edited(CERTS[RDIST], ["upper"], "3"), "Hx"),
    ("tail frequency", edited(CERTS[RFREQ], ["upper"], "1 + 2/T"), "Hx"),
]


def test_a_is_stated_from_the_registry():
    assert "top-cap" in COVERED
    assert "top_cap_le N K x cls (T - 1) -> minent_ge N K x cls (Rmax 1 (1 / (T - 1)))." in generate(CERTS[FREQ])
    assert "tail2_le N K x cls T -> support_ge N K x cls 2." in generate(CERTS[RDIST])
    assert "shannon_ge N K x cls (capped (1 + (1 / T)))." in generate(CERTS[RENT])


@pytest.mark.parametrize("path, value", [(["cap"], "tail"), (["upper"], "(T + 1)/T**(1/(T + 1))")])
def test_refused(path, value):
    with pytest.raises(Untranslatable):
        generate(edited(CERTS[RENT] if path == ["upper"] else CERTS[FREQ], path, value))


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(CERTS))
def test_top_cap_certificates_check(name, library, tmp_path):
    assert_kernel_checked(CERTS[name], library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("label, cert, step", FORGERIES, ids=[f[0] for f in FORGERIES])
def test_forged_certificates_fail(label, cert, step, library, tmp_path):
    assert failing_step(cert, library, tmp_path, label) == step


with open(os.path.join(HERE, "data", "coq", "skew_family.json")) as fh:
    SKEW = json.load(fh)


def test_skew_family_is_stated_whatever_a():
    assert "skew-family" in COVERED
    text = generate(SKEW["entropy-l-diversity => frequency-l-diversity"])
    assert "table N K x -> minent_ge N K x cls 1." in text and "shannon_ge N K x cls" not in text.split("Proof.")[0]


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(SKEW))
def test_skew_family_certificates_check(name, library, tmp_path):
    assert_kernel_checked(SKEW[name], library, tmp_path, name)


@pytest.mark.slow
@coq
@pytest.mark.parametrize("name", sorted(SKEW))
def test_skew_family_forged_u_fails(name, library, tmp_path):
    # (B's level 1 is attained by a class of one value: B >= 2 is false)
    assert failing_step(edited(SKEW[name], ["upper"], "2"), library, tmp_path, name) == "HU"
