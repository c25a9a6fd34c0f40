"""``assay conform IMPL``: run another implementation against the golden fixtures and name the
tool it behaves like (toml-test / bowtie style).

IMPL is ``direct:package.module:callable[,sentence_callable]`` (with ``--shape``) or
``cmd:PROGRAM ARGS`` (the JSON-lines protocol, see assay/conform/schema/protocol-v1.json).
Exit code: failed + errored (capped at 100); 2 for a usage error, and when the selection has no
case or every selected case was skipped (nothing was checked). ``--engine dask`` runs the cases in
batches on a Dask cluster, each batch with its own connection (:mod:`assay.jobs.grid.conform`): the
same verdicts and exit code.
"""
from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from assay.cli.common import COUNT, bounded, output_file, parse_knob_settings, text_file
from assay.cli.engine import add_engine_arguments, dask_session, uses_dask
from assay.core.domains import integer, real
from assay.core.progress import ProgressBar
from assay.core.errors import InputError
from assay.core.terminal import escape

if TYPE_CHECKING:   # the conformance job is imported when the command runs (its shapes: by its parser)
    from assay.jobs.conform import runner, suite

TIMEOUT = real(0, 86_400, low_open=True, reason="a case unanswered after a day is a hang")
MAX_OUTPUT = integer(1, 10 ** 9, reason="a reply of more than a gigabyte is no score")


HELP = {"conform": "validate another implementation against the fixtures; name the profile it matches"}
"""The line ``assay --help`` shows for the command (:mod:`assay.cli.main`)."""


def add_parser(sub: Any) -> None:
    from assay.jobs.conform.shapes import SHAPES

    p = sub.add_parser(
        "conform", help=HELP["conform"],
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("impl", metavar="IMPL", help="direct:package.module:callable[,sentence] or cmd:PROGRAM ARGS")
    p.add_argument("--metric", "-m", help="metric family (default: the only metric the implementation declares)")
    p.add_argument("--shape", choices=SHAPES, help="call shape of a direct: callable (default: protocol)")
    p.add_argument("--profile", "-p", action="append", default=[],
                   help="run the cases of this profile (repeatable; default: the implementation's declared "
                        "profile, else the profile identification names: one profile's cases)")
    p.add_argument("--all-profiles", action="store_true",
                   help="run the cases of every profile (each judged against its own tool's values)")
    p.add_argument("--set", action="append", default=[], metavar="KNOB=VALUE",
                   help="with --profile: run the cases of the profile with these knobs (the implementation's "
                        "own settings)")
    p.add_argument("--level", choices=("corpus", "sentence"), action="append", help="only this level (repeatable)")
    p.add_argument("--run", action="append", default=[], metavar="GLOB",
                   help="only case ids matching GLOB (metric/family/id; repeatable)")
    p.add_argument("--skip", action="append", default=[], metavar="GLOB", help="report cases matching GLOB as skipped")
    p.add_argument("--expect-fail", metavar="FILE",
                   help="known failures, one id or glob per line; a listed case that passes is a failure")
    p.add_argument("--identify", action="store_true",
                   help="first name the closest profile and the knobs the implementation departs on (printed; "
                        "without it a profile is still identified when none is named, and only named)")
    p.add_argument("--scale", type=bounded(real(0, low_open=True)), default=None,
                   help="multiply the implementation's scores by this before comparing (e.g. 100 for a 0-1 "
                        "implementation of a 0-100 tool; --identify detects it)")
    p.add_argument("--junit", metavar="FILE", help="also write a JUnit XML report")
    p.add_argument("--jsonl", metavar="FILE", help="also write the JSON-lines report")
    p.add_argument("--format", "-f", choices=("text", "json"), default="text",
                   help="stdout: text summary with diffs, or the JSON-lines report")
    p.add_argument("--timeout", type=bounded(TIMEOUT), default=30.0, help="cmd: seconds per case (default 30)")
    p.add_argument("--max-output", type=bounded(MAX_OUTPUT), default=16 * 1024 * 1024,
                   help="cmd: bytes per reply (default 16 MiB; at most 10^9)")
    p.add_argument("--no-validate", action="store_true", help="cmd: do not validate replies against the schema")
    p.add_argument("--max-listed", type=bounded(COUNT), default=50, help="failing cases shown in the text report")
    p.add_argument("--verbose", "-v", action="store_true", help="list every case, not only failures")
    p.add_argument("--list-cases", action="store_true",
                   help="list the selected cases and where their expected values come from (tool, version; "
                        "third-party recordings: package, version, call) without running them")
    add_engine_arguments(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from assay.jobs.conform import connect, identify, reports, runner, suite

    dask = uses_dask(args)
    knobs = parse_knob_settings(args.set)
    if knobs and not args.profile:
        raise InputError("--set needs --profile (the knobs are set on top of a profile)")
    if args.expect_fail:
        text_file("--expect-fail", args.expect_fail)   # exists, readable, UTF-8: checked before any case runs
    for option, path in (("--junit", args.junit), ("--jsonl", args.jsonl)):
        if path:
            output_file(option, path)
    impl = connect.connect(args.impl, args.shape, timeout=args.timeout, max_output=args.max_output,
                           validate=not args.no_validate)
    info = impl.open()
    bar: ProgressBar | None = None
    try:
        metric = args.metric
        if metric is None:
            declared = list(info.get("metrics") or [])
            if len(declared) != 1:
                raise InputError(f"--metric is needed: the implementation declares {declared or 'no metrics'}")
            metric = declared[0]
        metric = metric.lower()
        out = sys.stdout
        factor = args.scale
        profiles = list(args.profile)
        follows_hints = bool(info.get("knobs")) and not knobs
        if not profiles and info.get("profile") and not args.identify:
            profiles = [str(info["profile"])]
        ident = None
        bar = ProgressBar(description="conform")      # one bar: identification, then the suite
        # one profile's cases by default: the profile named, declared, or identified first (an
        # implementation that follows each case's profile and knob hints runs them all)
        if args.identify or not (profiles or args.all_profiles or follows_hints):
            ident = identify.identify(impl, metric, progress=bar, probes=args.identify)
            if args.format == "text":
                text = ident.text() if args.identify else (
                    f"profile: {metric}/{ident.profile} (identified; --identify shows the evidence)"
                    if ident.profile else "profile: none identified")
                print(escape(text, keep="\n"), file=out)
            if not profiles and ident.profile and not args.all_profiles:
                profiles = [ident.profile]
            if factor is None:
                factor = ident.factor
        selection = suite.Selection(metric, profiles or None, knobs or None, args.run, args.skip,
                                    tuple(args.level or ("corpus", "sentence")), with_knobs=follows_hints)
        cases = suite.select(selection)
        if not cases:
            raise InputError(f"no {metric} case matches the selection ({_describe(selection, args)}); "
                             "nothing to check")
        if args.list_cases:
            print(escape(reports.case_list(cases), keep="\n"), file=out)
            return 0
        expect_fail = suite.read_expect_fail(args.expect_fail) if args.expect_fail else []
        bar.add(len(cases))
        if dask:
            report = _on_dask(args, dict(getattr(impl, "info", {}) or {}), cases, expect_fail, factor or 1.0)
            for case in cases:
                bar.step(case.id)
        else:
            report = runner.run_suite(impl, cases, skip=args.skip, expect_fail=expect_fail, factor=factor or 1.0,
                                      on_outcome=lambda o: bar.step(o.case.id))
    finally:
        if bar is not None:
            bar.close()
        impl.close()
    scope = (f"profile {', '.join(profiles)}" if profiles else "every profile") + (
        f" with {knobs}" if knobs else "") + ("" if selection.with_knobs else " (cases at the profile's defaults)")
    report.notes.append(f"suite: {metric}, {scope}: {len(cases)} case(s)")
    header = {"metric": metric, "profiles": profiles, "knobs": knobs, "run": args.run, "skip": args.skip}
    if ident is not None:
        header["identification"] = ident.to_json()
    if args.format == "json":
        for line in reports.jsonl_lines(report, header):
            print(line)
    else:
        print(escape(reports.text_report(report, verbose=args.verbose, max_listed=args.max_listed), keep="\n"))
    if args.jsonl:
        with open(args.jsonl, "w", encoding="utf-8") as fh:
            for line in reports.jsonl_lines(report, header):
                fh.write(line + "\n")
    if args.junit:
        with open(args.junit, "w", encoding="utf-8") as fh:
            fh.write(reports.junit_xml(report))
    if report.nothing_checked:
        raise InputError(f"every one of the {len(cases)} selected {metric} case(s) was skipped "
                         f"({_describe(selection, args)}); nothing was checked")
    return report.exit_code


def _on_dask(args: argparse.Namespace, info: dict[str, Any], cases: list[Any], expect_fail: list[str],
             factor: float) -> runner.Report:
    from assay.jobs.grid.conform import ImplSpec, run_suite
    spec = ImplSpec(args.impl, args.shape, args.timeout, args.max_output, not args.no_validate)
    with dask_session(args) as session:
        return run_suite(session, spec, info, cases, skip=args.skip, expect_fail=expect_fail, factor=factor)


def _describe(selection: suite.Selection, args: argparse.Namespace) -> str:
    """The filters in force, for a message about an empty selection."""
    parts = [f"profile {', '.join(selection.profiles)}" if selection.profiles else "every profile"]
    if selection.knobs:
        parts.append(f"knobs {selection.knobs}")
    if args.level:
        parts.append(f"--level {' '.join(args.level)}")
    parts += [f"--run {g}" for g in args.run] + [f"--skip {g}" for g in args.skip]
    return ", ".join(parts)
