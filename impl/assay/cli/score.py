"""``assay score METRIC -i HYP -r REF [REF …] [--profile NAME] [--set KNOB=VALUE …] [--sentence]
[--format text|json] [--width N]``; ``assay score coco --annotations A.json --results R.json``.

The configuration is built once (:func:`assay.engine.api.configure`): it decides how the files are
read (``chop_unterminated_last_line``) and then scores them, in chunks of lines whose text is dropped
once their statistics rows are made (:mod:`assay.engine.stream`; NIST and CIDEr make a first pass over
the chunks; under PTB tokenisation each chunk comes with the next line as context; standard input is
read whole).

``-i`` and each ``-r`` may be a quoted glob (``-i 'out/part-*.txt' -r 'ref/part-*.txt'``): the corpus
is then the matching files (shards) in sorted order, shard i of each reference glob holding the
references of hypothesis shard i; ``.gz`` files are read through gzip. ``--engine dask`` scores the
shards on a Dask cluster (:mod:`assay.cli.engine`, :mod:`assay.engine.dask_engine`) with the same
result; without it nothing imports Dask.
"""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from assay.cli.common import add_encoding, add_width, input_file, parse_knob_settings, read_aligned, report_notes
from assay.cli.engine import add_engine_arguments, dask_session, uses_dask
from assay.core.errors import KnobError
from assay.core.metric_names import METRIC_NAMES

if TYPE_CHECKING:   # the engine (and numpy) is imported by run(): ``assay score --help`` needs neither
    from assay.core.score import Score
    from assay.engine.stream import FileNotes


HELP = {"score": "score a system output against references"}
"""The line ``assay --help`` shows for the command (:mod:`assay.cli.main`)."""


def add_parser(sub: Any) -> None:
    sc = sub.add_parser("score", help=HELP["score"])
    sc.add_argument("metric", help=f"metric family: {', '.join(METRIC_NAMES)}")
    sc.add_argument("-i", "--input", help="hypothesis file, one segment per line ('-' = stdin); or a quoted "
                    "glob of shards ('out/part-*.txt', sorted; .gz read through gzip)")
    sc.add_argument("-r", "--refs", nargs="+", help="reference files, each aligned with the input; or one quoted "
                    "glob per reference stream, its shards paired with the input's in sorted order")
    sc.add_argument("-p", "--profile", help="profile name (see `assay profiles METRIC`)")
    sc.add_argument("--set", dest="knobs", action="append", default=[], metavar="KNOB=VALUE",
                    help="override a knob (repeatable; see `assay knobs METRIC`)")
    sc.add_argument("--sentence", action="store_true", help="one score per segment (the tool's sentence-level defaults)")
    sc.add_argument("-f", "--format", choices=("text", "json"), default="text",
                    help="json: one document per score (schema assay-score/1, shipped as assay/output/schemas/score.schema.json)")
    add_width(sc, "decimals in text output (default: the tool's own)")
    add_encoding(sc)
    coco = sc.add_argument_group("COCO caption-toolkit JSON input (metric coco, instead of -i/-r)")
    coco.add_argument("--annotations", help="annotations JSON (COCO format, or {image_id: [captions]})")
    coco.add_argument("--results", help="results JSON ([{image_id, caption}] or {image_id: caption})")
    coco.add_argument("--subset", action="store_true", help="score only the images that have a result "
                      "(pycocoevalcap's behaviour) instead of failing on annotated images without one")
    coco.add_argument("--per-image", dest="per_image", action="store_true",
                      help="also print each image's scores (COCOEvalCap.evalImgs)")
    add_engine_arguments(sc)
    sc.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from assay.core.segment_stream import expand_shards, is_gzip
    from assay.engine import api, stream

    if args.annotations or args.results:
        if args.metric.lower() != "coco" or not (args.annotations and args.results) or args.input or args.refs:
            raise KnobError("--annotations/--results go together, with metric coco and without -i/-r")
        if uses_dask(args):
            raise KnobError("--engine dask scores -i/-r files, not --annotations/--results")
        from assay.cli.coco import run_coco_cli

        return run_coco_cli(args)
    if not args.input or not args.refs:
        raise KnobError("score needs -i HYP and -r REF [REF ...] (or, for coco, --annotations and --results)")
    dask = uses_dask(args)
    if dask and args.input == "-":
        raise KnobError("--engine dask reads files, which its workers open: not standard input (-i -)")
    hyp_files = expand_shards("-i", args.input)
    ref_files = [expand_shards("-r", pattern) for pattern in args.refs]
    for path in hyp_files:
        input_file("-i", path, stdin=True)
    for files in ref_files:
        for path in files:
            input_file("-r", path)
    knobs = parse_knob_settings(args.knobs)
    configured = api.configure(args.metric, args.profile, "sentence" if args.sentence else "corpus", **knobs)

    shown = [0]

    def show(s: Score) -> None:
        """Print one score: its text, or the versioned JSON document (``assay.output.score_json``)."""
        if args.format != "json":
            print(s.text)
            return
        from assay.output.score_json import dumps

        shown[0] += 1
        print(dumps(s, shown[0] if args.sentence else None))

    if dask:
        from assay.engine.dask_engine.files import score_shards

        with dask_session(args) as session:
            score, notes = score_shards(session, configured, hyp_files, ref_files, encoding=args.encoding,
                                        sentence=args.sentence, width=args.width, emit=show)
        return _finish(score, notes, show)
    paths = [*hyp_files, *(p for files in ref_files for p in files)]
    if stream.streamable(configured, paths):
        score, notes = stream.score_files(configured, hyp_files, ref_files, encoding=args.encoding,
                                          sentence=args.sentence, width=args.width, emit=show)
        return _finish(score, notes, show)
    chop = bool(configured.config.get("chop_unterminated_last_line", False))
    if len(hyp_files) == 1 and not any(is_gzip(p) for p in paths):
        hyp, refs = read_aligned(hyp_files[0], [files[0] for files in ref_files], args.encoding)
        hyps = hyp.chopped() if chop else hyp.lines
        streams = [r.chopped() if chop else r.lines for r in refs]
    else:
        hyps, streams, notes = stream.read_shards(hyp_files, ref_files, encoding=args.encoding, chop=chop)
        for note in notes:
            report_notes(note)
    if args.sentence:
        scores = api.sentence_scores_configured(configured, hyps, streams, width=args.width)
    else:
        scores = [api.score_configured(configured, hyps, streams, width=args.width)]
    for s in scores:
        show(s)
    return 0


def _finish(score: Score | None, notes: list[FileNotes], show: Any) -> int:
    for note in notes:
        report_notes(note)
    if score is not None:
        show(score)
    return 0
