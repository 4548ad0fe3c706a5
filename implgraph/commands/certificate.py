"""``implgraph certificate CLAIM... [--check] [--edge A B]``: the certificates behind a "proved".

Each proved implication carries a certificate (:mod:`implgraph.engines.certificates`): the upper
bound U of B's raw level in terms of A's raw level T with the data its argument needs, and a table
family attaining U. This command checks the named claims (or one edge A => B with ``--edge``: the prover's
certificate, or where the prover leaves the direction undecided the one check-edge's search finds, a witness family),
prints their certificates as JSON (``--text``: as the identities and the table family a reader
re-checks by hand) and, with ``--check``, re-checks each with the independent checker
:mod:`implgraph.certify` (exit status 1 when one is rejected). ``--coq OUT`` writes each claim's certificates as a
Coq file with the library they need (:mod:`implgraph.kernel_coq.export`); with ``--check`` and Debian's ``coq``
installed, ``coqc`` checks them and the axiom audit reads their ``Print Assumptions`` (exit status 1 on a failure).
"""

from __future__ import annotations

from implgraph.certify import certificates_in, check_certificate
from implgraph.certify.size import MAX_SECONDS
from implgraph.certify.lemmas import LEMMAS, describe
from implgraph.core.errors import InputError
from implgraph.io.output import print_json

MAX_BUDGET = 3600.0
"""Largest ``--budget`` (seconds per certificate)."""

NAME = "certificate"
HELP = "print the certificates of proved claims (JSON) and re-check them with implgraph.certify"
PRINTS_VERDICTS = True
"""Its output carries verdict words: its ``--help`` explains them."""
ORDER = 6


def add_arguments(p):
    p.add_argument("ids", nargs="*", metavar="CLAIM", help="claim ids or id prefixes (see `implgraph verify`)")
    p.add_argument("--edge", nargs=2, metavar=("A", "B"), help="an edge A => B instead of claims, e.g. NAME "
                   "'NAME(k=k)' (parameters as symbols)")
    p.add_argument("--check", action="store_true", help="re-check every certificate with implgraph.certify (and, "
                   "for claims, that the certificates state the claim as the claim data give it)")
    p.add_argument("--budget", type=float, default=MAX_SECONDS, metavar="SECONDS",
                   help=f"with --check: seconds each certificate's re-check may take; past it the certificate is not "
                   f"accepted (default {MAX_SECONDS:g})")
    p.add_argument("--text", action="store_true", help="print each certificate as the polynomial identities and "
                   "the table family to re-check by hand, instead of JSON")
    p.add_argument("--coq", metavar="OUT", default=None, help="write the certificates as Coq files into the new "
                   "folder OUT, with a copy of the Coq library and a Makefile; with --check, check them with coqc "
                   "and audit their axioms (needs Debian's coq)")
    p.add_argument("--coq-lib", metavar="DIR", default=None, help="with --coq: the Coq library's folder (default: "
                   "coq/ of the repository)")


def _edge_rows(a, b):
    from implgraph.definitions.nodes import parse_node
    from implgraph.engines.prove import check_implication, node_params
    na, nb = parse_node(a), parse_node(b)
    spec = {"min_size": m for c in (na.class_dict, nb.class_dict) for k, m in c.items() if k == "min_size"}
    r = check_implication(na.name, nb.name, None, a_params=node_params(na), b_params=node_params(nb),
                          a_classes=spec or None if na.definition.needs_classes else None,
                          b_classes=spec or None if nb.definition.needs_classes else None)
    row = {"id": f"{na.label()} => {nb.label()}", "verdict": r.verdict, "tight": r.tight_str,
           "certificates": certificates_in(r.details)}
    row["_claim"] = _edge_claim(row["id"], na, nb, spec)
    row["_verdict"] = {"id": row["id"], "verdict": r.verdict, "evidence": r.evidence, "tight": r.tight_str,
                       "details": r.details}
    if r.upper_f is not None:           # an f proved for every N, and what is known of its tightness
        row["proved_f"], row["proved_f_tightness"] = r.upper_f
    if r.verdict not in ("proved", "refuted"):      # the prover has none: check-edge's search of the direction
        _searched(row, na, nb, spec, r.evidence)
    return [row]


def _searched(row, na, nb, spec, why):
    """The row of an edge the prover leaves undecided: check-edge's verdict of the direction (its table search, at its
    defaults) where it carries a certificate (a witness family, a proof), else a note saying why there is none."""
    from implgraph.engines.direction import check_direction
    res = check_direction(na, nb, classes=spec or None)
    cmd = f"`implgraph check-edge {na.label()} {nb.label()}`"
    if res.verdict not in ("proved", "refuted") or not res.certificate:
        row["note"] = (f"the prover has no certificate: {why}; {cmd} searched tables and found none either "
                       f"({res.verdict})")
        return
    row.update(verdict=res.verdict, tight=None, certificates=[res.certificate])
    row["_verdict"] = {"id": row["id"], "verdict": res.verdict, "evidence": res.evidence, "tight": None,
                       "details": {"certificate": res.certificate}}
    row["note"] = f"the prover has no certificate ({why}); this one is {cmd}'s: {res.evidence}"


def _edge_claim(cid, na, nb, spec) -> dict:
    """The edge A => B as a claim node (the statement its certificates must prove): the two nodes with their
    parameters, the classes given, its symbols (N and names starting with k integers, as the prover reads an edge's
    parameters; the others reals), no f (the tight f is asked) and no condition."""
    from implgraph.core.formula import free_names
    texts = [str(v) for n in (na, nb) for k, v in n.param_dict.items() if k not in n.definition.words]
    names = free_names(" ".join(texts))
    kinds = {x: "integer" if x == "N" or x.startswith(("k", "K")) else "real" for x in sorted(names)}

    def side(n):
        out = {"definition": n.name, "params": dict(n.param_dict)}
        if spec and n.definition.needs_classes:
            out["classes"] = {k: str(v) for k, v in spec.items()}
        return out
    return {"id": cid, "kind": "implies", "from": side(na), "to": side(nb), "symbols": kinds}


def _claim_rows(ids):
    from implgraph.checks.verify import collect_claims, run_verify
    claims = {str(c.get("id")): c for c in collect_claims(ids) if isinstance(c, dict)}
    rows = []
    for v in run_verify(ids, jobs=1):
        rows.append({"id": v.id, "verdict": v.verdict, "tight": v.tight_str, "certificates": certificates_in(v.details),
                     "needs_certificate": v.strength == "proved", "_verdict": v,
                     "_claim": claims.get(str(v.id).split("#")[0])})
    return rows


def run(args) -> int:
    if not args.ids and not args.edge:
        raise InputError("no claim named", fix="give claim ids (implgraph certificate ekenstedt2022/theorem-2b) "
                                               "or --edge A B")
    if not 0 <= args.budget <= MAX_BUDGET:       # (nan is out of range too)
        raise InputError(f"--budget {args.budget:g} is out of range",
                         fix=f"give 0 <= --budget <= {MAX_BUDGET:g} (seconds; 0 accepts no certificate)")
    coq = _coq_target(args)
    rows = _edge_rows(*args.edge) if args.edge else _claim_rows(args.ids)
    failed = 0
    if args.check:
        for row in rows:
            row["recheck"] = []
            for cert in row["certificates"]:
                rep = check_certificate(cert, budget=args.budget)
                failed += not rep.ok
                row["recheck"].append(rep.to_json())
            if row.pop("needs_certificate", False) and not row["certificates"]:     # a proof without a certificate
                failed += 1
                row["recheck"].append({"ok": False, "of": "certificate", "steps": [
                    {"step": "certificate", "ok": False, "how": f"{row['verdict']} without a certificate"}]})
            if row["certificates"] and "_verdict" in row:      # a claim's row: do they state its claim?
                from implgraph.certify.statement import check_statement
                rep = check_statement(row["_claim"], row["_verdict"], row["certificates"])
                failed += not rep.ok
                row["statement"] = rep.to_json()
    for row in rows:
        for key in ("needs_certificate", "_verdict", "_claim"):
            row.pop(key, None)
    if coq is not None:
        failed += _write_coq(args, coq, rows)
    if args.text:
        from implgraph.io.console import quiet
        for row in rows:
            print("\n".join(_text_lines(row)[:1] if quiet() else _text_lines(row)))    # -q: one line per claim
    else:
        print_json({"claims": rows})
    return 1 if failed else 0


def _coq_target(args):
    """``(out, library)`` of ``--coq`` read before any work (bad input: exit 2, nothing written), or None."""
    if args.coq is None:
        if args.coq_lib is not None:
            raise InputError("--coq-lib without --coq", fix="give --coq OUT too")
        return None
    from implgraph.kernel_coq.export import check_out, find_library
    return check_out(args.coq), find_library(args.coq_lib)


def _write_coq(args, coq, rows) -> int:
    """Write (and with --check, check) the Coq files; each row gets its ``coq`` entry. The number of failures."""
    import sys
    from implgraph.kernel_coq.export import coq_available, write
    out, lib = coq
    if args.check and not coq_available():
        print(f"implgraph certificate: coqc is not on PATH: the Coq files are written to {out}, not checked "
              "(Debian: apt-get install coq libcoq-interval)", file=sys.stderr)
    summary = write(out, rows, lib, check=args.check)
    by_id = {f["id"]: f for f in summary["files"]}
    for row in rows:
        if row["id"] in by_id:
            row["coq"] = by_id[row["id"]]
    if summary["library_error"]:
        print(f"implgraph certificate: the Coq library did not build: {summary['library_error'][-300:]}",
              file=sys.stderr)
    return summary["failed"]


def _coq_lines(row) -> list:
    """The row's Coq file and what coqc said (``--coq``)."""
    f = row.get("coq")
    if not f:
        return []
    out = []
    check = f.get("check")
    state = ("no theorem generated" if not any(t["generated"] for t in f["theorems"]) else
             "not checked" if check is None else
             "kernel-checked (coqc accepted it, axioms: the standard ones of Coq's reals)" if check["audit_ok"] else
             "REJECTED by coqc" if not check["ok"] else f"axiom audit FAILED: {check['axioms']}")
    out.append(f"  coq: {f['file']}: {state}")
    out += [f"    certificate {t['name'][1:]} ({t['method']}): not covered by the Coq generator: {t['reason']}"
            for t in f["theorems"] if not t["generated"]]
    return out


def _text_lines(row) -> list:
    """A claim's certificates as text: U, the lemma's identities (target = sum of multiplier * fact,
    each fact >= 0), the table family, and the checker's steps."""
    of_lemmas = bool(row["certificates"]) and all(c.get("method") in LEMMAS for c in row["certificates"])
    head = row["verdict"] if row["verdict"] != "proved" else "proved" if of_lemmas else "implication (proved, every N)"
    out = [f"{row['id']}: {head}"]
    if row.get("note"):
        out.append(f"  {row['note']}")
    if row.get("proved_f") is not None:
        out.append(f"  f = {row['proved_f']} (proved; {row.get('proved_f_tightness') or 'tightness not derived'})")
    elif row.get("tight") is not None or (not of_lemmas and row["verdict"] == "proved"):
        out.append(f"  tight f = {row['tight']}")
    for i, cert in enumerate(row["certificates"], 1):
        if cert.get("method") == "inequality-lemmas":      # a chain of class-level facts, no polynomial obligations
            out += [f"  certificate {i}: inequality-lemmas",
                    f"    chain: {' then '.join(cert.get('steps') or [])}; f = {cert.get('f')} of A's level"]
            out += [f"    lemma: {lem.get('name')} ({lem.get('reference')})" for lem in cert.get("lemmas") or []]
            out += _recheck_lines(row, i)
            continue
        if cert.get("method") == "class-size-floor":     # a lower bound read off two declarations of the registry
            A = cert.get("A") or {}
            out += [f"  certificate {i}: class-size-floor",
                    f"    domain: {', '.join(cert['domain'])}",
                    f"    L = {cert['lower']}: B's raw level (the smallest class's size) >= L on every table whose A raw "
                    f"level is <= T, finite ({A.get('definition')} declares {A.get('min_class_param')} a minimum class "
                    "size)"]
            out += _family_lines(cert, "  ") + _recheck_lines(row, i)
            continue
        if cert.get("method") in LEMMAS:      # a lemma module's claim (implgraph.certify.lemmas): its own text
            out += [f"  certificate {i}: {cert['method']}"] + ["  " + line for line in describe(cert)]
            out += _recheck_lines(row, i)
            continue
        out += _certificate_lines(cert, f"certificate {i}", "  ")
        out += _recheck_lines(row, i)
    if not row["certificates"] and row.get("recheck"):      # a proof without a certificate
        out += _recheck_lines(row, 1)
    if row.get("statement"):        # whether the certificates state the claim
        rep = row["statement"]
        out.append(f"  statement: {'accepted' if rep['ok'] else 'REJECTED'} (the certificates state the claim)")
        out += [f"      {'ok' if s['ok'] else 'FAILED'}: {s['step']}: {s['how']}" for s in rep["steps"]]
    return out + _coq_lines(row)


#: how the parts of a composite certificate combine
COMPOSITE = {"min": "U is the Min of its parts' bounds, each re-checked on its own:",
             "chain": "A's level is X's wherever finite (part 1, U = T), so X's bound towards B (part 2) is U:"}
#: the certificates read off B's registered declarations (implgraph.certify.partitions), in words
DECLARED = {"one-class": "on a table of one class (the whole table) B's level is its strongest (its registered class "
                         "level), and U is at least that on the domain",
            "weakest-level": "B's target is at least as weak as B's weakest level, which its registered scale declares "
                             "every table to meet"}


def _certificate_lines(cert, title, pad) -> list:
    """One certificate as text (a ``min`` or ``chain`` certificate: each of its parts, indented; then its family)."""
    from implgraph.certify.domain import Domain
    from implgraph.certify.kernel import obligations
    method = cert["method"]
    lemma = (cert.get("upper_certificate") or {}).get("lemma", method)
    out = [f"{pad}{title}: {method}" + ("" if method in COMPOSITE or method in DECLARED else f" (lemma {lemma})"),
           f"{pad}  domain: {', '.join(cert['domain'])}",
           f"{pad}  U = {cert['upper']}: B's raw level <= U on every table whose A raw level is <= T"
           if "upper" in cert else f"{pad}  target = {cert.get('target')}: B's raw level on every table"]
    if method in COMPOSITE:
        out.append(f"{pad}  {COMPOSITE[method]}")
        for j, part in enumerate(cert.get("parts") or [], 1):
            out += _certificate_lines(part, f"part {j}", pad + "    ")
    elif method in DECLARED:
        out.append(f"{pad}  {DECLARED[method]}")
    else:
        for ob in obligations(cert, Domain(cert).reader):
            if ob.multipliers:
                terms = " + ".join(f"({lam})*({ob.facts[k]})" for k, lam in ob.multipliers.items())
                out.append(f"{pad}  {ob.name}: {ob.target} = {terms}")
                out.append(f"{pad}    facts >= 0: " + ", ".join(f"{k}: {ob.facts[k]}" for k in ob.multipliers))
            else:
                out.append(f"{pad}  {ob.name}: {ob.target} {'>' if ob.strict else '>='} 0")
    if cert.get("one_class"):
        out.append(f"{pad}  partitions: every partition (min_classes 1): into >= 2 classes by the argument, and on a "
                   f"table of one class {DECLARED['one-class'].removeprefix('on a table of one class (the whole table) ')}")
    elif cert.get("min_classes") == 2:
        out.append(f"{pad}  partitions: into at least 2 classes (min_classes 2)")
    return out + _family_lines(cert, pad)


def _family_lines(cert, pad) -> list:
    """A certificate's tightness family as text: its blocks, split and own domain."""
    out = []
    fam = cert.get("tightness") or {}
    for b in fam.get("blocks") or []:
        label = f" in class {b['class']}" if b.get("class") else ""
        out.append(f"{pad}  family: {b['count']} rows [x, 1 - x]{label}, x = {b['value']}")
    for b in fam.get("uniform_blocks") or []:
        label = f" in class {b['class']}" if b.get("class") else ""
        out.append(f"{pad}  family: {b['count']} rows uniform over {b['values']} values of their own{label}")
    if fam.get("split") is not None:
        out.append(f"{pad}  family: each bucket split into {fam['split']} equal buckets")
    if fam.get("domain"):
        out.append(f"{pad}  family only where: {' and '.join(fam['domain'])}")
    return out


def _recheck_lines(row, i) -> list:
    """The checker's answer on the row's i-th certificate (1-based), when ``--check`` ran it."""
    out = []
    for rep in row.get("recheck", [])[i - 1:i]:
        out.append(f"    recheck: {'accepted' if rep['ok'] else 'REJECTED'}")
        out += [f"      {'ok' if s['ok'] else 'FAILED'}: {s['step']}: {s['how']}" for s in rep["steps"]]
    return out
