"""Seconds of the independent checker: rejecting hostile certificates, and re-checking every certificate of verify.

    python benchmarks/bench_certify.py [--hostile-only]

First the size bound (implgraph.certify.size): a certificate of 10^5 blocks (it took 95 s to reject before the bound),
one of an expression 10^5 characters long, one nested 1,500 deep, one of 10^5 domain conditions and one whose family
has 64 blocks (each a sign to prove, beyond the obligations' bound): each must be rejected, target well under 1 s.
Then every row of `implgraph verify` whose evidence is a proof (proved, or refuted by a proof), its certificates
re-checked one by one, then whether they state the row's claim (implgraph.certify.statement; the verdicts from the
content-keyed cache when it has them). Prints the seconds; asserts only that the hostile certificates are rejected and
every row's certificates and statements accepted.
"""

from __future__ import annotations

import argparse
import copy
import sys
import time

from implgraph.certify import certificates_in, check_certificate

GOOD = {"format": "implgraph-certificate/1", "method": "same-level",
        "symbols": {"N": "integer", "T": "real"}, "domain": ["N >= 2", "T >= 1"],
        "A": {"family": "pairwise", "sides": "two-sided"}, "B": {"family": "pairwise", "sides": "two-sided"},
        "upper": "T", "tight": True,
        "tightness": {"blocks": [{"count": "1", "value": "1/(T + 1)"}, {"count": "N - 1", "value": "T/(T + 1)"}]}}


def _hostile():
    def with_(**kw):
        out = copy.deepcopy(GOOD)
        out.update(kw)
        return out
    yield "10^5 blocks", with_(tightness={"blocks": [{"count": "1", "value": f"{i}/(T + {i + 1})"}
                                                      for i in range(10 ** 5)]})
    yield "an expression of 10^5 characters", with_(upper="T + " * 25_000 + "T")
    yield "an expression nested 1,500 deep", with_(upper="+".join(["T"] * 1500))
    yield "10^5 domain conditions", with_(domain=["T >= 1"] * 10 ** 5)
    from implgraph.checks.verify import run_verify
    (views,) = certificates_in(run_verify(["domingo-ferrer2015/proposition-3"], jobs=1)[0].details)
    views["tightness"]["blocks"] += [{"count": "0", "value": f"1/(T + {i})", "class": f"F{i}"} for i in range(61)]
    yield "a views family of 64 blocks (192 signs to prove)", views


def hostile() -> None:
    print("== hostile certificates (target: rejected well under 1 s)")
    for name, cert in _hostile():
        t = time.perf_counter()
        rep = check_certificate(cert)
        s = time.perf_counter() - t
        assert not rep.ok, name
        print(f"  {s:7.3f} s  {name}: {rep.failures()[0][2][:90]}")


def rows() -> None:
    from implgraph.certify.statement import check_statement
    from implgraph.checks.verify import collect_claims, run_verify
    t = time.perf_counter()
    verdicts = run_verify(jobs=2)
    claims = {str(c.get("id")): c for c in collect_claims() if isinstance(c, dict)}
    print(f"== verify's rows whose evidence is a proof (verdicts in {time.perf_counter() - t:.1f} s)")
    total, n, stated = 0.0, 0, 0.0
    for v in verdicts:
        if v.strength != "proved":
            continue
        certs = certificates_in(v.details)
        assert certs, f"{v.id}: no certificate"
        for cert in certs:
            t = time.perf_counter()
            ok = check_certificate(cert).ok
            s = time.perf_counter() - t
            assert ok, v.id
            total, n = total + s, n + 1
            print(f"  {s:7.3f} s  {v.id} ({v.verdict}, {cert['method']})")
        t = time.perf_counter()     # do they state the row's claim (implgraph.certify.statement)?
        ok = check_statement(claims.get(v.id.split("#")[0]), v, certs).ok
        s = time.perf_counter() - t
        assert ok, f"{v.id}: statement"
        stated += s
        print(f"  {s:7.3f} s  {v.id}: the statement")
    print(f"  {n} certificates in {total:.2f} s; their statements in {stated:.2f} s")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--hostile-only", action="store_true", help="only the hostile certificates")
    args = p.parse_args(argv)
    hostile()
    if not args.hostile_only:
        rows()
    return 0


if __name__ == "__main__":
    sys.exit(main())
