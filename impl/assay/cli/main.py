"""The ``assay`` command line: one entry point, sub-commands.

    assay score METRIC -i HYP -r REF [REF …] [--profile NAME] [--set KNOB=VALUE …]
                [--sentence] [--format text|json] [--width N]
    assay score coco --annotations A.json --results R.json [--subset] [--per-image] […]
    assay significance METRIC[,METRIC…] -i BASELINE [SYSTEM …] -r REF [REF …]
                (--paired-bs | --paired-ar | --confidence) [--n-samples N] [--seed S]
                [--profile NAME] [--set KNOB=VALUE …] [--format text|json] [--width N]
    assay profiles [METRIC]
    assay knobs METRIC
    assay compare | report | audit | conform …   (modules in assay/commands/)

Errors print one line ``assay: error: …`` and exit with status 2 (no traceback).
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Sequence

from assay.engine import api
from assay._version import __version__
from assay.cli.commands import add_command_parsers
from assay.core.errors import AssayError, InputError, KnobError
from assay.core.io import check_aligned, read_segments
from assay.core.knobs import describe
from assay.engine.registry import METRIC_NAMES, get_family
from assay.profiles.registry import DEFAULT_PROFILE, profiles_of


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="assay", description="Reference-conformant text-generation metrics.")
    parser.add_argument("--version", action="version", version=f"assay {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    sc = sub.add_parser("score", help="score a system output against references")
    sc.add_argument("metric", help=f"metric family: {', '.join(METRIC_NAMES)}")
    sc.add_argument("-i", "--input", help="hypothesis file, one segment per line ('-' = stdin)")
    sc.add_argument("-r", "--refs", nargs="+", help="reference files, each aligned with the input")
    sc.add_argument("-p", "--profile", help="profile name (see `assay profiles METRIC`)")
    sc.add_argument("--set", dest="knobs", action="append", default=[], metavar="KNOB=VALUE",
                    help="override a knob (repeatable; see `assay knobs METRIC`)")
    sc.add_argument("--sentence", action="store_true", help="one score per segment (the tool's sentence-level defaults)")
    sc.add_argument("-f", "--format", choices=("text", "json"), default="text")
    sc.add_argument("-w", "--width", type=int, help="decimals in text output (default: the tool's own)")
    coco = sc.add_argument_group("COCO caption-toolkit JSON input (metric coco, instead of -i/-r)")
    coco.add_argument("--annotations", help="annotations JSON (COCO format, or {image_id: [captions]})")
    coco.add_argument("--results", help="results JSON ([{image_id, caption}] or {image_id: caption})")
    coco.add_argument("--subset", action="store_true", help="score only the images that have a result "
                      "(pycocoevalcap's behaviour) instead of failing on annotated images without one")
    coco.add_argument("--per-image", dest="per_image", action="store_true",
                      help="also print each image's scores (COCOEvalCap.evalImgs)")

    add_significance_parser(sub)
    add_command_parsers(sub)

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
    if args.annotations or args.results:
        if args.metric.lower() != "coco" or not (args.annotations and args.results) or args.input or args.refs:
            raise KnobError("--annotations/--results go together, with metric coco and without -i/-r")
        from assay.metrics.coco.family import run_coco_cli
        return run_coco_cli(args)
    if not args.input or not args.refs:
        raise KnobError("score needs -i HYP and -r REF [REF ...] (or, for coco, --annotations and --results)")
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


def add_significance_parser(sub: Any) -> None:
    sg = sub.add_parser(
        "significance", help="bootstrap CIs and paired significance tests (sacrebleu --confidence/--paired-*)",
        description="sacrebleu-compatible significance testing. The first -i file is the baseline. Seed: "
                    "--seed, else the SACREBLEU_SEED environment variable as sacrebleu reads it (unset -> "
                    "12345, 'none' -> unseeded, else int(value)); the signature records it (seed:...).")
    sg.add_argument("metric", help="metric(s), comma-separated, optionally METRIC/PROFILE (e.g. bleu,chrf,ter)")
    sg.add_argument("-i", "--input", required=True, nargs="+", help="system files; the first is the baseline")
    sg.add_argument("-r", "--refs", required=True, nargs="+", help="reference files, each aligned with the input")
    mode = sg.add_mutually_exclusive_group(required=True)
    mode.add_argument("--paired-bs", action="store_true", help="paired bootstrap resampling (default 1000 resamples)")
    mode.add_argument("--paired-ar", action="store_true", help="paired approximate randomization (default 10000 trials)")
    mode.add_argument("--confidence", action="store_true", help="bootstrap 95%% CI of one system (default 1000)")
    sg.add_argument("-n", "--n-samples", type=int, help="resamples (bs, confidence) or trials (ar)")
    sg.add_argument("--seed", help="RNG seed (integer or 'none'); default: $SACREBLEU_SEED, else 12345")
    sg.add_argument("-p", "--profile", help="profile for every metric (default: each metric's default profile)")
    sg.add_argument("--set", dest="knobs", action="append", default=[], metavar="KNOB=VALUE",
                    help="override a knob of every listed metric that has it (repeatable)")
    sg.add_argument("-f", "--format", choices=("text", "json"), default="text",
                    help="text: sacrebleu's line/table; json: sacrebleu's JSON")
    sg.add_argument("-w", "--width", type=int, help="decimals (default: the profile's, sacrebleu 1)")


def cmd_significance(args: argparse.Namespace) -> int:
    from assay.jobs import significance as sig
    from assay.jobs.significance_text import confidence_lines
    knobs = parse_knob_settings(args.knobs)
    seed: Any = args.seed if args.seed is not None else sig.resolve_seed()
    files = [read_segments(path) for path in args.input]
    refs = [read_segments(path) for path in args.refs]
    for f in files:
        check_aligned(f, refs)
    streams = [r.lines for r in refs]
    if args.confidence:
        if len(files) != 1:
            raise InputError("--confidence takes one system (-i FILE); compare several with --paired-bs "
                             "or --paired-ar (sacrebleu: 'Use paired tests (--paired) for multiple systems.')")
        n = args.n_samples if args.n_samples is not None else sig.DEFAULT_BOOTSTRAP_SAMPLES
        res = sig.confidence_interval(args.metric, files[0].lines, streams, args.profile, n_samples=n,
                                      seed=seed, width=args.width, **knobs)
        results = res if isinstance(res, list) else [res]
        if args.format == "json":
            docs = [r.tool_json() for r in results]
            print(json.dumps(docs[0] if len(docs) == 1 else docs, indent=1, ensure_ascii=False))
        else:
            print("\n".join(confidence_lines(results)))
        return 0
    baseline = (files[0].path, files[0].lines)
    others = [(f.path, f.lines) for f in files[1:]]
    if not [name for name, _ in others if name != baseline[0]]:
        raise InputError("a paired test needs a baseline and at least one other system (-i BASELINE SYSTEM …)")
    run = sig.paired_bootstrap if args.paired_bs else sig.paired_ar
    default_n = sig.DEFAULT_BOOTSTRAP_SAMPLES if args.paired_bs else sig.DEFAULT_AR_TRIALS
    result = run(args.metric, baseline, others, streams, args.profile,
                 n_samples=args.n_samples if args.n_samples is not None else default_n,
                 seed=seed, width=args.width, **knobs)
    if args.format == "json":
        print(json.dumps(result.tool_json(), indent=4, ensure_ascii=False))
    else:
        print(result.text)
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
    handlers = {"score": cmd_score, "profiles": cmd_profiles, "knobs": cmd_knobs,
                "significance": cmd_significance}
    handler = handlers.get(args.command) or args.handler
    try:
        return handler(args)
    except AssayError as exc:
        print(f"assay: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
