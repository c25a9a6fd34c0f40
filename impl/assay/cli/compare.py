"""``assay compare -i HYP -r REF ... [--metric M ...] [--profiles P ...] [--attribute A B]``.

Every profile's score per metric on one input (tool scale and the normalised 0-100 column),
the spread per metric, and with ``--attribute A B`` the Shapley attribution of B - A over the
knobs the two profiles set differently, plus the segments whose sentence scores differ most.
``--engine dask`` compares each metric on a Dask cluster (:mod:`assay.jobs.grid.compare`): the same output.
On a terminal one progress bar (stderr) follows the whole job with the time left; ``assay -q`` hides it.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from assay.cli.common import COUNT, add_encoding, bounded, input_file, output_dir, read_aligned
from assay.cli.engine import add_engine_arguments, dask_session, uses_dask
from assay.core.domains import integer
from assay.core.errors import KnobError
from assay.core.terminal import escape

MAX_PLAYERS = integer(1, 16, reason="exact Shapley values score 2^n coalitions: 65,536 at 16")


def add_max_players(p: argparse.ArgumentParser) -> None:
    """``--max-players`` (compare and report: one definition; its default is the attribution job's)."""
    from assay.jobs.attribution import EXACT_PLAYERS

    p.add_argument("--max-players", type=bounded(MAX_PLAYERS), default=EXACT_PLAYERS,
                   help=f"exact Shapley values up to this many players (default {EXACT_PLAYERS}; 1 to 16); beyond it "
                        "a permutation-sampling estimate with 95%% confidence intervals, stated as such")


HELP = {"compare": "every profile's score on one input, side by side; attribution"}
"""The line ``assay --help`` shows for the command (:mod:`assay.cli.main`)."""


def add_parser(sub: Any) -> None:
    p = sub.add_parser("compare", help=HELP["compare"],
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-i", "--input", required=True, help="hypothesis file, one segment per line")
    p.add_argument("-r", "--refs", required=True, nargs="+", help="reference files, each aligned with the input")
    p.add_argument("-m", "--metric", action="append", default=[], metavar="M",
                   help="metric(s) to compare (repeat or comma-separate; default: every family)")
    p.add_argument("--profiles", nargs="+", metavar="P",
                   help="only these profiles (NAME, or METRIC/NAME)")
    p.add_argument("--attribute", nargs=2, metavar=("A", "B"),
                   help="attribute B - A to knobs for every compared metric that has both profiles "
                        "(NAME or METRIC/NAME)")
    p.add_argument("--top", type=bounded(COUNT), default=10,
                   help="segments shown in the per-segment view (default 10)")
    add_max_players(p)
    p.add_argument("--plot", metavar="DIR", help="with --attribute: write a waterfall SVG per attribution to DIR")
    p.add_argument("-f", "--format", choices=("text", "markdown", "json"), default="text")
    add_encoding(p)
    add_engine_arguments(p)
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from assay.jobs import compare as cmp_mod
    from assay.jobs.report.build import waterfall

    dask = uses_dask(args)
    input_file("-i", args.input)
    for path in args.refs:
        input_file("-r", path)
    if args.plot:
        output_dir("--plot", args.plot)
    hyp, refs = read_aligned(args.input, args.refs, args.encoding)
    metrics = cmp_mod.select_metrics(args.metric)
    wanted = list(args.profiles or [])
    if args.attribute:
        wanted = wanted + list(args.attribute) if wanted else []
    streams = [r.lines for r in refs]
    attribute = tuple(args.attribute) if args.attribute else None
    if dask:
        from assay.jobs.grid.compare import compare
        with dask_session(args) as session:
            result, pairs, unavailable = compare(session, hyp.lines, streams, metrics, wanted or None, attribute,
                                                 top=args.top, max_players=args.max_players)
    else:
        from assay.core.progress import ProgressBar

        # one bar over the whole job (stderr, terminal only, off with --quiet): every profile scored,
        # then with --attribute every table attributed
        with ProgressBar(cmp_mod.progress_steps(metrics, wanted or None), description="compare",
                         enabled=None if args.progress else False) as bar:
            result = cmp_mod.compare(hyp.lines, streams, metrics, wanted or None, progress=bar.step)
            if attribute:
                bar.add(len(result.tables))
                pairs, unavailable = cmp_mod.attribute_tables(result, *attribute, top=args.top,
                                                              max_players=args.max_players, progress=bar.step)
            else:
                pairs, unavailable = [], []
    if attribute and not pairs:
        a, b = attribute
        raise KnobError(f"no compared metric has scores for both profiles {a!r} and {b!r}"
                        + (f" ({'; '.join(unavailable)})" if unavailable else ""))
    if args.plot and pairs:
        for pa in pairs:
            fig = waterfall(pa, Path(args.plot))
            print(escape(Path(args.plot) / fig.path), file=sys.stderr)
    if args.format == "json":
        doc = result.as_dict()
        if args.attribute:
            doc["attributions"] = [p.as_dict() for p in pairs]
            doc["attributions_unavailable"] = unavailable
        json.dump(doc, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
        return 0
    markdown = args.format == "markdown"
    out = cmp_mod.render_markdown(result) if markdown else cmp_mod.render_text(result)
    for p in pairs:
        out += "\n" + cmp_mod.render_attribution(p, markdown=markdown)
    for line in unavailable:
        out += f"\nno attribution for {line}\n"
    sys.stdout.write(escape(out, keep="\n\t"))   # segment text is the user's: no raw escapes on a terminal
    return 0
