"""Collect the JSON of every certificate the project produces today.

Three sources, as a reader of the issue would count them: the proved claims of ``implgraph verify`` (the
bundled theorems), the proved cells of the pair matrices (``implgraph/data/matrix.json`` and ``implgraph/data/matrix-symbols.json``,
each cell re-proved with :func:`implgraph.engines.prove.check_implication`) and the pairs of
``benchmarks/bench_prover.py``. Certificates are deduplicated by their JSON; each keeps the names of the
places it came from.

    python -m implgraph.kernel_coq.harvest OUT.json [--no-verify] [--no-matrix] [--no-bench] [--verify-json FILE]
        [--recheck]

``--verify-json FILE`` reads the proved claims' certificates from the output of ``implgraph verify --json`` (as CI
writes it) instead of running ``implgraph verify`` again. ``--recheck``: every certificate collected is re-checked by
the independent checker (:func:`implgraph.certify.check_certificate`, at most ``--budget`` seconds each); the exit
status is 1 where one is not accepted (check-edge and the matrix use a proof for every N without re-checking its
certificate, so this is where a published matrix cell's certificate is re-checked).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

__all__ = ["harvest", "main"]


def _key(cert):
    return json.dumps(cert, sort_keys=True, default=str)


def _add(store, cert, source):
    k = _key(cert)
    if k not in store:
        store[k] = {"sources": [], "certificate": json.loads(json.dumps(cert, default=str))}
    store[k]["sources"].append(source)


def _from_verify(store):
    from implgraph.certify import certificates_in
    from implgraph.checks.verify import run_verify
    for v in run_verify(None, jobs=2):
        for c in certificates_in(v.details):
            _add(store, c, f"verify:{v.id}")


def _from_verify_json(store, path):
    from implgraph.certify import certificates_in
    with open(path) as fh:
        rows = json.load(fh)["claims"]
    for row in rows:
        for c in certificates_in(row.get("details")):
            _add(store, c, f"verify:{row['id']}")


def _edge(a, b):
    from implgraph.certify import certificates_in
    from implgraph.definitions.nodes import parse_node
    from implgraph.engines.prove import check_implication, node_params
    na, nb = parse_node(a), parse_node(b)
    spec = {"min_size": m for c in (na.class_dict, nb.class_dict) for k, m in c.items() if k == "min_size"}
    r = check_implication(na.name, nb.name, None, a_params=node_params(na), b_params=node_params(nb),
                          a_classes=spec or None if na.definition.needs_classes else None,
                          b_classes=spec or None if nb.definition.needs_classes else None)
    return r.verdict, certificates_in(r.details)


def _from_matrix(store, root):
    from implgraph.data import MATRIX, MATRIX_SYMBOLS
    for path in (MATRIX, MATRIX_SYMBOLS):
        name = path.name
        if not os.path.exists(path):
            continue
        with open(path) as fh:
            cells = json.load(fh)["cells"]
        for cell in cells:
            if not cell.get("proved_every_n"):
                continue
            try:
                _, certs = _edge(cell["a"], cell["b"])
            except Exception as exc:        # a node label the edge parser does not read: say so, go on
                print(f"harvest: {name} {cell['a']} => {cell['b']}: {exc.__class__.__name__}: {exc}", file=sys.stderr)
                continue
            for c in certs:
                _add(store, c, f"{name}:{cell['a']} => {cell['b']}")


def _from_bench(store, root):
    sys.path.insert(0, os.path.join(root, "benchmarks"))
    import sympy
    from bench_prover import K, N, label, pairs
    from implgraph.certify import certificates_in
    from implgraph.core.region import Region
    from implgraph.engines.bounds import T, ceiling_bound, tight_bound
    from implgraph.engines.lemmas import find_chain
    from implgraph.engines.prove import check_implication
    for a, ap, ac, b, bp, bc in pairs():
        region = Region({N: "integer", T: "real", K: "integer"}, (T >= 1, N >= 2))
        if tight_bound(a, b, ap, bp, region, N, ac, bc) is None and find_chain(a.name, b.name) is None \
                and ceiling_bound(b, bp, bc, region, N) is None:
            continue
        r = check_implication(a, b, None, a_params=ap, b_params=bp, a_classes=ac, b_classes=bc,
                              symbols={"k": K, "N": N})
        for c in certificates_in(r.details):
            _add(store, c, f"bench:{label(a, ap, ac)} => {label(b, bp, bc)}")
    del sympy


def harvest(root, verify=True, matrix=True, bench=True, verify_json=None) -> list:
    """``[{"sources": [...], "certificate": {...}}]``, one entry per distinct certificate (``verify_json``: the
    verified claims read from that output of ``implgraph verify --json``, not computed)."""
    store: dict = {}
    if verify_json:
        _from_verify_json(store, verify_json)
    elif verify:
        _from_verify(store)
    if matrix:
        _from_matrix(store, root)
    if bench:
        _from_bench(store, root)
    return list(store.values())


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--root", default=os.getcwd(), help="the repository (docs/ and benchmarks/ are read there)")
    p.add_argument("--no-verify", action="store_true")
    p.add_argument("--no-matrix", action="store_true")
    p.add_argument("--no-bench", action="store_true")
    p.add_argument("--verify-json", default=None, help="read the verified claims from this output of `implgraph "
                   "verify --json` instead of running it")
    p.add_argument("--recheck", action="store_true", help="re-check every certificate with implgraph.certify; exit 1 "
                   "where one is not accepted")
    p.add_argument("--budget", type=float, default=300, help="with --recheck: seconds each re-check may take")
    args = p.parse_args(argv)
    items = harvest(args.root, not args.no_verify, not args.no_matrix, not args.no_bench, args.verify_json)
    from implgraph.io.output import write_output
    write_output(args.out, json.dumps(items, indent=1))
    print(f"{len(items)} distinct certificates -> {args.out}")
    return recheck(items, args.budget) if args.recheck else 0


def recheck(items, budget) -> int:
    """Re-check each harvested certificate with :func:`implgraph.certify.check_certificate`; print the count and each
    one not accepted (with its sources and first failures); 1 where any is not accepted, else 0."""
    from implgraph.certify import check_certificate
    bad = 0
    for item in items:
        rep = check_certificate(item["certificate"], budget=budget)
        if not rep.ok:
            bad += 1
            print(f"NOT ACCEPTED: {item['certificate'].get('method')} from {', '.join(item['sources'][:3])}: "
                  f"{rep.failures()[:2]}")
    print(f"implgraph.certify: {len(items) - bad} of {len(items)} certificates accepted")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
