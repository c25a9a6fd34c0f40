"""``assay audit``: which configuration produced a published score, and does the claim hold?

    assay audit -i HYP -r REF [REF ...] --claim "BLEU 28.4" [--claim ...] [--metric M] [--signature SIG]
    assay audit --table claims.tsv [-f text|markdown|json|html] [--engine dask ...]

Table rows (tab-separated; ``#`` comments; an optional header row): system file, reference files
(comma- or space-separated), metric, claimed value, optional signature. Paths are relative to the
table's folder. ``--engine dask`` audits the claims on a Dask cluster, one task per system and metric
(:mod:`assay.jobs.grid.audit`): the same reports.
"""
from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

from assay.cli.common import COUNT, add_encoding, bounded, input_file, read_aligned
from assay.cli.engine import add_engine_arguments, dask_session, uses_dask
from assay.core.errors import AssayError, InputError, KnobError
from assay.core.io import read_segments
from assay.core.terminal import escape

# the audit job (and numpy and the engine) is imported when the command runs, not to build its parser

FORMATS = ("text", "markdown", "json", "html")


HELP = {"audit": "find the configuration behind a published score and check the claim"}
"""The line ``assay --help`` shows for the command (:mod:`assay.cli.main`)."""


def add_parser(sub: Any) -> None:
    p = sub.add_parser("audit", help=HELP["audit"],
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-i", "--input", help="system output, one segment per line")
    p.add_argument("-r", "--refs", nargs="+", help="reference files, each aligned with the input")
    p.add_argument("-c", "--claim", action="append", default=[],
                   help='a published score, e.g. "BLEU 28.4", "chrF2 = 55.1", "ROUGE-L 41.2" (repeatable)')
    p.add_argument("-m", "--metric", help="metric family, when a claim is a bare number")
    p.add_argument("-s", "--signature", action="append", default=[],
                   help="the signature published with the claim (sacrebleu 1.x/2.x or assay); repeatable, "
                        "each applies to the claims of its metric")
    p.add_argument("--table", help="batch mode: a TSV of claims (system, refs, metric, value[, signature])")
    p.add_argument("--lang", default=None,
                   help="target language (de, ja) or language pair (en-ja): it decides the standard BLEU tokenizer "
                        "(sacrebleu's: ja-mecab for ja, ko-mecab for ko, zh for zh, 13a otherwise) and the Moses "
                        "rules; default: detected from the scripts of the system output (13a and English rules "
                        "when it is not Chinese, Japanese or Korean)")
    p.add_argument("--captions", action="store_true",
                   help="image captions: also try pycocoevalcap's PTB tokenisation, and take COCOEvalCap as the "
                        "standard (automatic when the input is COCO JSON: -i results.json -r annotations.json)")
    p.add_argument("--no-preprocessing", dest="preprocessing", action="store_false",
                   help="do not try Moses tokenisation / compound splitting of the input")
    p.add_argument("--no-single-refs", dest="single_refs", action="store_false",
                   help="with several references, do not try each one alone")
    p.add_argument("--thorough", action="store_true",
                   help="the full product: every preprocessing with every reference subset, every profile on "
                        "each single reference, Moses -a (@-@) splitting too (slower)")
    p.add_argument("--max-matches", type=bounded(COUNT), default=20, help="matching configurations listed per claim")
    p.add_argument("-f", "--format", choices=FORMATS, default="text")
    add_encoding(p)
    add_engine_arguments(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from assay.jobs.audit.claims import parse_claim
    from assay.jobs.audit.signatures import parse_signature
    from assay.jobs.audit.verdict import ClaimReport, audit_claims

    uses_dask(args)
    if args.table:
        if args.input or args.refs or args.claim:
            raise KnobError("--table takes its files and claims from the table: no -i/-r/--claim with it")
        input_file("--table", args.table)
        reports = run_table(args.table, args)
        print(shown(render(reports, args.format, args.max_matches, single=False), args.format))
        return 0
    if not args.input or not args.refs:
        raise KnobError("audit needs -i HYP and -r REF [REF ...] (or --table claims.tsv)")
    if not args.claim:
        raise KnobError('audit needs at least one --claim, e.g. --claim "BLEU 28.4"')
    input_file("-i", args.input)
    for path in args.refs:
        input_file("-r", path)
    claims = [parse_claim(c, args.metric) for c in args.claim]
    sigs = [parse_signature(s, args.metric if args.metric else None) for s in args.signature]
    for s in sigs:
        if not any(c.metric == s.metric for c in claims):
            raise InputError(f"signature {s.text!r} is a {s.metric} signature, but no claim is {s.metric}")
    hyps, streams, captions = read_corpus(args.input, args.refs, args.encoding)
    args.captions = args.captions or captions
    args.ref_names = list(args.refs)
    items = [(c, next((s for s in sigs if s.metric == c.metric), None)) for c in claims]
    if uses_dask(args):
        from assay.jobs.grid.audit import ClaimJob, Corpus
        results = _on_dask(args, [Corpus(hyps, streams, _options(args))],
                           [ClaimJob(0, claim, sig, args.input) for claim, sig in items])
        for r in results:
            if not isinstance(r, ClaimReport):
                raise r.exception()
        reports = results
    else:
        with _bar() as bar:
            reports = audit_claims(hyps, streams, items, args, system=args.input, progress=bar)
    print(shown(render(reports, args.format, args.max_matches, single=True), args.format))
    return 0


def _bar() -> Any:
    """One progress bar over the whole audit (every configuration of every claim), drawn only when
    stderr is a terminal (and not under --quiet)."""
    from assay.core.progress import ProgressBar
    return ProgressBar(description="audit")


def read_corpus(hyp_path: str, ref_paths: list[str], encoding: str = "utf-8"
                ) -> tuple[list[str], list[list[Any]], bool]:
    """Line files (one segment per line), or COCO JSON: results ``-i`` and one annotations file ``-r``
    (then the input is captions: the third value is True)."""
    from assay.core.coco_json import read_coco

    if hyp_path.lower().endswith(".json"):
        if len(ref_paths) != 1:
            raise InputError(f"{hyp_path}: COCO JSON results take one annotations file as the reference, "
                             f"got {len(ref_paths)}")
        data = read_coco(ref_paths[0], hyp_path)
        return data.hyps, data.refs, True
    hyp, refs = read_aligned(hyp_path, ref_paths, encoding)
    return hyp.lines, [r.lines for r in refs], False


def shown(text: str, fmt: str) -> str:
    """Output for stdout: control characters and bidirectional overrides from the input escaped
    (JSON already escapes control characters, and its strings must stay JSON)."""
    return text if fmt == "json" else escape(text, keep="\n\t")


def render(reports: list[Any], fmt: str, max_matches: int, single: bool) -> str:
    from assay.jobs.audit.verdict import render_claim_text, render_table, report_json

    if fmt == "text" and single:
        return "\n\n".join(render_claim_text(r, max_matches) for r in reports)
    if fmt == "json":
        return json.dumps([report_json(r, max_matches) for r in reports], ensure_ascii=False, indent=2)
    return render_table(reports, fmt)


# ----------------------------------------------------------------------------- batch
def read_table(path: str) -> list[dict[str, Any]]:
    """Rows of a claims table; every problem names ``file:line``."""
    from assay.jobs.audit.claims import is_value_text

    table = read_segments(path, encoding="utf-8-sig")   # a spreadsheet's byte-order mark is no cell text
    base = Path(path).resolve().parent
    rows = []
    for lineno, line in enumerate(table.lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        cells = [c.strip() for c in line.split("\t")]
        where = f"{path}:{lineno}"
        if len(cells) < 4 or len(cells) > 5:
            raise InputError(f"{where}: expected 4 or 5 tab-separated columns (system, references, metric, value"
                             f"[, signature]), got {len(cells)}")
        if not rows and not is_value_text(cells[3]):
            continue   # a header row
        system, refs, metric, value = cells[:4]
        signature = cells[4] if len(cells) == 5 and cells[4] else None
        ref_list = [r for r in re.split(r"[,\s]+", refs) if r]
        if not system or not ref_list:
            raise InputError(f"{where}: the system file and at least one reference file are needed")
        rows.append({"line": lineno, "where": where, "system": system, "system_path": str(base / system),
                     "refs": [str(base / r) for r in ref_list], "metric": metric, "value": value,
                     "signature": signature})
    if not rows:
        raise InputError(f"{path}: no claims in the table")
    return rows


def run_table(path: str, args: argparse.Namespace) -> list[Any]:
    from assay.jobs.audit.claims import parse_claim
    from assay.jobs.audit.signatures import parse_signature
    from assay.jobs.audit.verdict import audit_claims

    rows = read_table(path)
    prepared = []
    for row in rows:
        try:
            claim = parse_claim(f"{row['metric']} {row['value']}")
            sig = parse_signature(row["signature"], claim.metric) if row["signature"] else None
            hyps, streams, captions = read_corpus(row["system_path"], row["refs"], getattr(args, "encoding", "utf-8"))
        except AssayError as exc:
            raise InputError(f"{row['where']}: {exc}") from None
        prepared.append((row, claim, sig, hyps, streams, captions))
    if uses_dask(args):
        return _table_on_dask(prepared, args)
    reports = []
    cache: dict[tuple[str, tuple[str, ...]], dict[str, Any]] = {}
    with _bar() as bar:
        for row, claim, sig, hyps, streams, captions in prepared:
            key = (row["system_path"], tuple(row["refs"]))
            row_args = argparse.Namespace(**{**vars(args), "ref_names": row["refs"],
                                             "captions": bool(getattr(args, "captions", False) or captions)})
            try:
                reports += audit_claims(hyps, streams, [(claim, sig)], row_args, system=row["system"],
                                        rows=[row["line"]], auditors=cache.setdefault(key, {}), progress=bar)
            except AssayError as exc:
                raise InputError(f"{row['where']}: {exc}") from None
    return reports


# ----------------------------------------------------------------------------- --engine dask
def _options(args: argparse.Namespace, captions: bool = False,
             ref_names: list[str] | None = None) -> argparse.Namespace:
    """What an audit reads of the options (plain data, sent to the workers)."""
    return argparse.Namespace(lang=args.lang, preprocessing=args.preprocessing, single_refs=args.single_refs,
                              thorough=args.thorough, captions=bool(args.captions or captions),
                              max_matches=args.max_matches,
                              ref_names=ref_names if ref_names is not None else getattr(args, "ref_names", None))


def _on_dask(args: argparse.Namespace, corpora: list[Any], jobs: list[Any]) -> list[Any]:
    from assay.jobs.grid.audit import audit
    with dask_session(args) as session:
        return audit(session, corpora, jobs)


def _table_on_dask(prepared: list[Any], args: argparse.Namespace) -> list[Any]:
    """:func:`run_table`'s claims on a Dask cluster: the corpora as keyed there, the same reports and errors."""
    from assay.jobs.audit.verdict import ClaimReport
    from assay.jobs.grid.audit import ClaimJob, Corpus

    corpora: list[Any] = []
    index: dict[tuple[str, tuple[str, ...]], int] = {}
    jobs = []
    for row, claim, sig, hyps, streams, captions in prepared:
        key = (row["system_path"], tuple(row["refs"]))
        if key not in index:
            index[key] = len(corpora)
            corpora.append(Corpus(hyps, streams, _options(args, captions, row["refs"])))
        jobs.append(ClaimJob(index[key], claim, sig, row["system"], row["line"]))
    reports = []
    for (row, *_), result in zip(prepared, _on_dask(args, corpora, jobs)):
        if not isinstance(result, ClaimReport):
            raise InputError(f"{row['where']}: {result.exception()}") from None
        reports.append(result)
    return reports
