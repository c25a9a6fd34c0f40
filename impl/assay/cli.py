"""The ``assay`` command line: one entry point, sub-commands.

    assay score METRIC -i HYP -r REF [REF …] [--profile NAME] [--set KNOB=VALUE …]
                [--sentence] [--format text|json] [--width N]
    assay profiles [METRIC]
    assay knobs METRIC

Errors print one line ``assay: error: …`` and exit with status 2 (no traceback).
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Sequence

from . import api
from ._version import __version__
from .errors import AssayError, KnobError
from .io import check_aligned, read_segments
from .knobs import describe
from .metrics import METRIC_NAMES, get_family
from .profiles import DEFAULT_PROFILE, profiles_of


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="assay", description="Reference-conformant text-generation metrics.")
    parser.add_argument("--version", action="version", version=f"assay {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    sc = sub.add_parser("score", help="score a system output against references")
    sc.add_argument("metric", help=f"metric family: {', '.join(METRIC_NAMES)}")
    sc.add_argument("-i", "--input", required=True, help="hypothesis file, one segment per line ('-' = stdin)")
    sc.add_argument("-r", "--refs", required=True, nargs="+", help="reference files, each aligned with the input")
    sc.add_argument("-p", "--profile", help="profile name (see `assay profiles METRIC`)")
    sc.add_argument("--set", dest="knobs", action="append", default=[], metavar="KNOB=VALUE",
                    help="override a knob (repeatable; see `assay knobs METRIC`)")
    sc.add_argument("--sentence", action="store_true", help="one score per segment (the tool's sentence-level defaults)")
    sc.add_argument("-f", "--format", choices=("text", "json"), default="text")
    sc.add_argument("-w", "--width", type=int, help="decimals in text output (default: the tool's own)")

    pr = sub.add_parser("profiles", help="list profiles and their knob values")
    pr.add_argument("metric", nargs="?", help="only this metric")

    kn = sub.add_parser("knobs", help="list the knobs of a metric family")
    kn.add_argument("metric")
    return parser


def parse_knob_settings(items: Sequence[str]) -> dict[str, Any]:
    settings: dict[str, Any] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise KnobError(f"--set expects KNOB=VALUE, got {item!r}")
        settings[name.strip()] = value.strip()
    return settings


def cmd_score(args: argparse.Namespace) -> int:
    knobs = parse_knob_settings(args.knobs)
    level = "sentence" if args.sentence else "corpus"
    config, _ = api.make_config(args.metric, args.profile, level, **knobs)
    hyp = read_segments(args.input)
    refs = [read_segments(path) for path in args.refs]
    check_aligned(hyp, refs)
    chop = bool(config.get("chop_unterminated_last_line", False))
    hyps = hyp.chopped() if chop else hyp.lines
    streams = [r.chopped() if chop else r.lines for r in refs]
    if level == "corpus":
        scores = [api.score(args.metric, hyps, streams, args.profile, width=args.width, **knobs)]
    else:
        scores = api.sentence_scores(args.metric, hyps, streams, args.profile, width=args.width, **knobs)
    for s in scores:
        if args.format == "json":
            doc = s.to_json()
            print(json.dumps(doc, ensure_ascii=False))
        else:
            print(s.text)
    return 0


def cmd_profiles(args: argparse.Namespace) -> int:
    metrics = [args.metric.lower()] if args.metric else list(METRIC_NAMES)
    for metric in metrics:
        get_family(metric)  # validates the name
        for p in profiles_of(metric):
            default = " (default)" if DEFAULT_PROFILE.get(metric) == p.name else ""
            print(f"{p.full_name}{default}: {p.tool} {', '.join(p.tool_versions)}")
            print(f"    {p.description}")
            full = get_family(metric).knobset.defaults()
            full.update(p.knobs)
            print("    " + " ".join(f"{k}={_show(v)}" for k, v in full.items()))
            if p.sentence_knobs:
                print("    sentence level: " + " ".join(f"{k}={_show(v)}" for k, v in p.sentence_knobs.items()))
    return 0


def cmd_knobs(args: argparse.Namespace) -> int:
    for line in describe(get_family(args.metric).knobset):
        print(line)
    return 0


def _show(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, str) else value


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handlers = {"score": cmd_score, "profiles": cmd_profiles, "knobs": cmd_knobs}
    try:
        return handlers[args.command](args)
    except AssayError as exc:
        print(f"assay: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
