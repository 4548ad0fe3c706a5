"""``implgraph certificate CLAIM... [--check] [--edge A B]``: the certificates behind a "proved".

Each proved implication carries a certificate (:mod:`implgraph.engines.certificates`): the upper
bound U of B's raw level in terms of A's raw level T with the data its argument needs, and a table
family attaining U. This command checks the named claims (or one edge A => B with ``--edge``),
prints their certificates as JSON and, with ``--check``, re-checks each with the independent
checker :mod:`implgraph.certify` (exit status 1 when one is rejected).
"""

from __future__ import annotations

from implgraph.certify import certificates_in, check_certificate
from implgraph.core.errors import InputError
from implgraph.io.output import print_json

NAME = "certificate"
HELP = "print the certificates of proved claims (JSON) and re-check them with implgraph.certify"
ORDER = 6


def add_arguments(p):
    p.add_argument("ids", nargs="*", metavar="CLAIM", help="claim ids or id prefixes (see `implgraph verify`)")
    p.add_argument("--edge", nargs=2, metavar=("A", "B"), help="an edge A => B instead of claims, e.g. NAME "
                   "'NAME(k=k)' (parameters as symbols)")
    p.add_argument("--check", action="store_true", help="re-check every certificate with implgraph.certify")


def _edge_rows(a, b):
    from implgraph.core.nodes import parse_node
    from implgraph.engines.prove import check_implication
    na, nb = parse_node(a), parse_node(b)
    if any(isinstance(v, str) for _, v in na.params + nb.params):
        raise InputError(f"{a} => {b}: a parameter is not an expression", fix="give parameters as NAME(k=k)")
    spec = {"min_size": m for c in (na.class_dict, nb.class_dict) for k, m in c.items() if k == "min_size"}
    r = check_implication(na.name, nb.name, None, a_params=na.param_dict, b_params=nb.param_dict,
                          a_classes=spec or None if na.definition.needs_classes else None,
                          b_classes=spec or None if nb.definition.needs_classes else None)
    return [{"id": f"{na.label()} => {nb.label()}", "verdict": r.verdict, "tight": r.tight_str,
             "certificates": certificates_in(r.details)}]


def _claim_rows(ids):
    from implgraph.checks.verify import run_verify
    rows = []
    for v in run_verify(ids, jobs=1):
        rows.append({"id": v.id, "verdict": v.verdict, "tight": v.tight, "certificates": certificates_in(v.details)})
    return rows


def run(args) -> int:
    if not args.ids and not args.edge:
        raise InputError("no claim named", fix="give claim ids (implgraph certificate ekenstedt2022/theorem-2b) "
                                               "or --edge A B")
    rows = _edge_rows(*args.edge) if args.edge else _claim_rows(args.ids)
    failed = 0
    if args.check:
        for row in rows:
            row["recheck"] = []
            for cert in row["certificates"]:
                rep = check_certificate(cert)
                failed += not rep.ok
                row["recheck"].append(rep.to_json())
    print_json({"claims": rows})
    return 1 if failed else 0
