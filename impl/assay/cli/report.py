"""``assay report [--corpus DIR | -i HYP -r REF ... | --corpora DIR] [-o DIR]``: a discrepancy report.

Writes ``index.html`` (one self-contained page: the summary, a segment explorer, the plots inline:
score and waterfall charts as SVG, distributions and scatter as PNG data URIs), ``report.md`` with
the same plots as files (``plots/*.svg``, ``plots/*.png``) and ``summary.json``. Both pages and the
JSON open with the summary: per metric the spread across tools, the two profiles furthest apart and
the knob that explains most of their gap (its Shapley part, the same as ``assay compare --attribute
LOW HIGH``), in one plain sentence each. Then per
metric: every profile's score, attribution waterfalls (the default profile against each other
profile; exact Shapley values up to ``--max-players`` players, a permutation-sampling estimate with
95% intervals beyond; knobs without effect folded into one "no effect" line), sentence-level score
distributions and the top divergent segments. Without input it reports on the bundled sample corpus
(fixtures/report_sample) and writes to ./assay-report.

``--corpora DIR``: every corpus in DIR (DIR/*, DIR/*/*), and every system of each: the report on
its first system, and ``systems.md``/``systems.json`` ranking all its systems under every profile
(rank changes, Kendall's tau-b between profiles); ``--index`` adds the cross-system table. One
progress bar follows the whole job with the time left.

``--engine dask`` makes each metric of each corpus on a Dask cluster (:mod:`assay.jobs.grid.compare`;
the workers write the plots, so they must see the output directory): the same reports.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

from assay.cli.compare import add_max_players
from assay.cli.common import COUNT, add_encoding, bounded, input_dir, input_file, output_dir, output_file, read_aligned, read_file
from assay.cli.engine import add_engine_arguments, dask_session, uses_dask
from assay.core.errors import AssayError, KnobError
from assay.core.io import check_aligned
from assay.core.terminal import escape

if TYPE_CHECKING:   # the report job (and numpy, Jinja2, ...) is imported when the command runs
    from assay.jobs.report import Report
    from assay.jobs.report.model import ReportJob


HELP = {"report": "HTML + Markdown discrepancy report with plots"}
"""The line ``assay --help`` shows for the command (:mod:`assay.cli.main`)."""


def add_parser(sub: Any) -> None:
    p = sub.add_parser("report", help=HELP["report"],
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    src = p.add_argument_group("input (default: the bundled sample corpus)")
    src.add_argument("--corpus", metavar="DIR", help="a directory with a *hyp* file and aligned *ref* files")
    src.add_argument("--system", help="with --corpus: the hypothesis file whose name contains this")
    src.add_argument("--corpora", metavar="DIR",
                     help="one report per corpus directory in DIR (and DIR/*/*), written to OUTPUT/<name>; "
                          "nothing happens when DIR does not exist")
    p.add_argument("--index", metavar="FILE",
                   help="write an index page (Markdown) of every report under FILE's directory, after any report")
    src.add_argument("-i", "--input", help="hypothesis file, one segment per line")
    src.add_argument("-r", "--refs", nargs="+", help="reference files, each aligned with the input")
    p.add_argument("-o", "--output", default="assay-report", help="output directory (default ./assay-report)")
    p.add_argument("-m", "--metric", action="append", default=[], metavar="M",
                   help="metric(s) to report (repeat or comma-separate; default: every family)")
    p.add_argument("--title", help="page title")
    p.add_argument("--no-text", action="store_true",
                   help="keep segment text out of the report (numbers and segment numbers only)")
    p.add_argument("--top", type=bounded(COUNT), default=10, help="top divergent segments per metric (default 10)")
    add_max_players(p)
    p.add_argument("--progress", dest="progress", action="store_true", default=None,
                   help="progress bar on stderr (default: when stderr is a terminal; --no-progress: none)")
    add_encoding(p)
    add_engine_arguments(p)       # its --no-progress (dest progress) turns the bar off on either engine
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from assay.jobs.report import Report, discover_corpus, sample_dir

    uses_dask(args)
    if sum(bool(x) for x in (args.corpus, args.input or args.refs, args.corpora)) > 1:
        raise KnobError("use one of --corpus DIR, --corpora DIR or -i/-r")
    index_only = bool(args.index and not (args.corpus or args.input or args.corpora)
                      and args.output == "assay-report" and not args.title)
    check_paths(args, index_only)
    if args.corpora:
        code = _corpora(args)
        if args.index:
            print(escape(write_index(Path(args.index))))
        return code
    if index_only:
        print(escape(write_index(Path(args.index))))   # --index alone: only the index page
        return 0
    if bool(args.input) != bool(args.refs):
        raise KnobError("-i HYP and -r REF ... go together")
    if args.corpus:
        hyp_path, ref_paths = discover_corpus(args.corpus, args.system)
        source = f"Corpus {args.corpus}: {hyp_path.name} against {', '.join(p.name for p in ref_paths)}."
    elif args.input:
        hyp_path, ref_paths = args.input, args.refs
        source = f"{args.input} against {', '.join(args.refs)}."
    else:
        d = sample_dir()
        hyp_path, ref_paths = d / "hyp.txt", [d / "ref1.txt", d / "ref2.txt"]
        source = ("The bundled sample corpus (fixtures/report_sample, generated by "
                  "conformance/generate_report_sample.py; text written by the assay project).")
    hyp, refs = read_aligned(hyp_path, ref_paths, args.encoding)
    job = _job(args, hyp.lines, [r.lines for r in refs], args.output, args.title or "assay discrepancy report",
               source, include_text=not args.no_text)
    with _writer(args) as write:
        report = next(write([job]))
    if not isinstance(report, Report):
        raise report
    for kind in ("html", "markdown", "summary"):
        print(escape(report.files[kind]))
    if args.index:
        print(escape(write_index(Path(args.index))))
    return 0


def check_paths(args: argparse.Namespace, index_only: bool = False) -> None:
    """Every path option checked before the report is computed (one line naming option and path)."""
    if args.corpus:
        input_dir("--corpus", args.corpus)
    if args.corpora and Path(args.corpora).exists():
        input_dir("--corpora", args.corpora)
    if args.input:
        input_file("-i", args.input)
    for path in args.refs or ():
        input_file("-r", path)
    if not index_only:
        output_dir("-o", args.output)
    if args.index:
        output_file("--index", args.index, parents=True)


def _corpora(args: argparse.Namespace) -> int:
    """Every corpus under --corpora, every system of each (:mod:`assay.jobs.report.corpora`): the detailed
    report on its first system and the ranking of all its systems per profile (``systems.md``/``.json``),
    under one progress bar with the time left. Failures are listed, not fatal."""
    from assay.core.progress import ProgressBar
    from assay.jobs.compare import progress_steps
    from assay.jobs.report import Report
    from assay.jobs.report.corpora import find_corpora, short_names, system_rankings, write_rankings

    root = Path(args.corpora)
    if not root.is_dir():
        print(f"no corpora at {escape(root)}: nothing to report", file=sys.stderr)
        return 0
    found = find_corpora(root, args.system)

    def read(paths: list[Path]) -> tuple[Any, list[Any]] | AssayError:
        try:
            hyp = read_file(paths[0], args.encoding)
            refs = [read_file(p, args.encoding) for p in paths[1:]]
            check_aligned(hyp, refs)
        except AssayError as exc:
            return exc
        return hyp, refs

    def job(corpus: Any) -> ReportJob | AssayError:
        got = read([corpus.systems[0], *corpus.refs])
        if isinstance(got, AssayError):
            return got
        hyp, refs = got
        return _job(args, hyp.lines, [r.lines for r in refs], Path(args.output) / corpus.name,
                    f"assay discrepancy report: {corpus.name}",
                    f"Corpus {corpus.name}: {corpus.systems[0].name} (the first of {len(corpus.systems)} system(s); "
                    f"every system is ranked in systems.md) against {', '.join(p.name for p in corpus.refs)}"
                    + (" (segment text not included)." if args.no_text else "."), include_text=not args.no_text)

    steps = progress_steps(args.metric or None)
    bar = ProgressBar(steps * sum(len(c.systems) for c in found), description="report --corpora",
                      enabled=False if args.progress is False else (True if args.progress else None))
    done = ranked = 0
    with bar, (_writer(args, bar) if found else contextlib.nullcontext(lambda jobs: iter(()))) as write:
        for corpus, report in zip(found, write(job(c) for c in found)):
            if isinstance(report, Report):
                print(escape(report.files["html"]))
                done += 1
            else:
                print(escape(f"{corpus.name}: not reported ({report})"), file=sys.stderr)
            names = short_names(list(corpus.systems))
            systems = {}
            for path in corpus.systems:
                got = read([path, *corpus.refs])
                if isinstance(got, AssayError):
                    print(escape(f"{corpus.name}: system {path.name} not ranked ({got})"), file=sys.stderr)
                    bar.add(-steps)
                    continue
                systems[names[path]] = (got[0].lines, [r.lines for r in got[1]])
            if not systems:
                continue
            try:
                rankings = system_rankings(systems, args.metric or None, step=bar.step)
            except AssayError as exc:
                print(escape(f"{corpus.name}: systems not ranked ({exc})"), file=sys.stderr)
                continue
            print(escape(write_rankings(corpus, rankings, Path(args.output) / corpus.name)[1]))
            ranked += len(systems)
    print(f"{done} corpus report(s), {ranked} system(s) ranked in {escape(args.output)}", file=sys.stderr)
    return 0


def _job(args: argparse.Namespace, hyps: list[str], refs: list[list[str]], out: str | Path, title: str, source: str,
         include_text: bool) -> ReportJob:
    from assay.jobs.report.model import ReportJob

    return ReportJob(hyps, refs, str(out), title, source, include_text, args.metric or None, args.top,
                     args.max_players)


Written = Callable[[Iterable["ReportJob | AssayError"]], Iterator["Report | AssayError"]]


@contextlib.contextmanager
def _writer(args: argparse.Namespace, bar: Any = None) -> Iterator[Written]:
    """``write(jobs)``: each job's Report, in order and lazily, or the error that kept it from being
    written (a job that is already an error stays one); in this process, or with ``--engine dask`` on a
    Dask cluster (:func:`assay.jobs.grid.compare.reports`). ``bar``: a progress bar over a larger job
    (``--corpora``) that the reports made in this process follow."""
    if not uses_dask(args):
        yield lambda jobs: (job if isinstance(job, AssayError) else _build(job, args.progress, bar) for job in jobs)
        return
    from assay.jobs.grid.compare import reports
    from assay.jobs.report import Report

    shown = argparse.Namespace(**{**vars(args), "progress": args.progress is not False})   # default: on a terminal
    with dask_session(shown) as session:
        def write(jobs: Iterable[ReportJob | AssayError]) -> Iterator[Report | AssayError]:
            items = list(jobs)
            made = reports(session, [j for j in items if not isinstance(j, AssayError)])
            for item in items:
                if isinstance(item, AssayError):
                    yield item
                else:
                    report = next(made)
                    yield report if isinstance(report, Report) else report.exception()
        yield write


def _build(job: ReportJob, progress: bool | None, bar: Any = None) -> Report | AssayError:
    from assay.jobs.report import build_report

    try:
        return build_report(job.hyps, job.refs, job.out, title=job.title, source=job.source,
                            include_text=job.include_text, metrics=job.metrics, progress=progress, top=job.top,
                            max_players=job.max_players, bar=bar)
    except AssayError as exc:
        return exc


def _systems_index(base: Path) -> list[str]:
    """The index's cross-system table: per corpus with ``systems.json`` and per metric measure, the
    lowest Kendall tau-b between two profiles' rankings of the systems and how many systems change rank."""
    from assay.jobs.compare import markdown_table

    rows = []
    for path in sorted(base.glob("**/systems.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        rel = path.parent.relative_to(base).as_posix()
        for r in doc.get("rankings", []):
            taus = [(t["tau_b"], t["a"], t["b"]) for t in r["kendall_tau"] if t["tau_b"] is not None]
            low = min(taus) if taus else None
            rows.append([f"[{rel}]({rel}/systems.md)", len(doc["systems"]), f"{r['metric']} {r['measure']}",
                         *(("—", "—") if low is None else (f"{low[0]:.3f}", f"{low[1]} vs {low[2]}")),
                         len(r["rank_changes"])])
    if not rows:
        return []
    return ["## Does the ranking of systems change between tools?", "",
            "Every system of every corpus scored under every profile: the lowest Kendall tau-b between two "
            "profiles' scores of the systems (1: the same ranking) and the number of systems whose rank "
            "differs between profiles.", "",
            markdown_table(["corpus", "systems", "metric", "lowest tau", "between", "systems whose rank changes"],
                           rows), ""]


def write_index(path: Path) -> Path:
    """A Markdown index of every report (a directory with summary.json) under ``path``'s directory."""
    from assay.jobs.compare import markdown_table

    base = path.parent
    rows = []
    for summary in sorted(base.glob("**/summary.json")):
        doc = json.loads(summary.read_text(encoding="utf-8"))
        rel = summary.parent.relative_to(base).as_posix()
        spreads = ", ".join(f"{m['metric']} {m['measure']} {m['spread']:.2f}" for m in doc.get("metrics", [])
                            if m.get("spread") is not None and m["measure"] in ("BLEU", "chrF", "TER", "rougeLsum"))
        rows.append([f"[{rel}]({rel}/report.md) ([HTML]({rel}/index.html))", doc.get("segments"),
                     doc.get("references"), "yes" if doc.get("segment_text_included") else "no", spreads])
    text = ["# assay discrepancy reports", "",
            "Generated by `tox -e report` (`assay report`). Each report compares every profile of every metric "
            "on one corpus, attributes the differences to knobs (exact Shapley values) and plots them. Reports "
            "on corpora that are not ours to publish hold numbers only (no segment text).", "",
            markdown_table(["report", "segments", "references", "segment text",
                            "spread (0-100): BLEU, chrF, TER, ROUGE-Lsum"], rows), "", *_systems_index(base)]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(text), encoding="utf-8")
    return path
