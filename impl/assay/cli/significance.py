"""``assay significance METRIC[,METRIC…] -i BASELINE [SYSTEM …] -r REF [REF …]
(--paired-bs | --paired-ar | --confidence) [--n-samples N] [--seed S] [--profile NAME]
[--set KNOB=VALUE …] [--format text|json] [--width N]``: sacrebleu's significance tests.

On a terminal one progress bar (stderr) follows the run (statistics, then the resampling in blocks)
with the time left; ``assay -q`` or ``--no-progress`` hides it."""
from __future__ import annotations

import argparse
import contextlib
import json
from typing import Any, Callable, Iterator

from assay.cli.common import add_encoding, add_width, input_file, parse_knob_settings, read_file
from assay.cli.engine import add_engine_arguments, dask_session, uses_dask
from assay.core.errors import InputError, KnobError
from assay.core.io import check_aligned


HELP = {"significance": "bootstrap CIs and paired significance tests (sacrebleu --confidence/--paired-*)"}
"""The line ``assay --help`` shows for the command (:mod:`assay.cli.main`)."""


def add_parser(sub: Any) -> None:
    sg = sub.add_parser(
        "significance", help=HELP["significance"],
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
    add_width(sg, "decimals (default: the profile's, sacrebleu 1)")
    add_encoding(sg)
    add_engine_arguments(sg)
    sg.set_defaults(handler=run)


#: the largest resampling run accepted (bytes); see :func:`check_resample_memory`
MAX_RESAMPLE_BYTES = 2 * 1024 ** 3
#: bytes per resampled cell: int64 indices, float64 counts and sums
CELL_BYTES = 8
#: statistics columns assumed for a family that does not declare its columns up front (TER's two,
#: the fewest of any family), so the bound never over-refuses
MIN_COLUMNS = 2


def statistics_columns(metric: str, profile: str | None, knobs: dict[str, Any]) -> int:
    """The widest statistics row among the metrics of a significance run, as their families declare
    it for the configuration (the knobs are validated on the way: a bad one is a KnobError)."""
    from assay.jobs import significance as sig

    widest = MIN_COLUMNS
    for setup in sig.prepare_metrics(metric, profile, **knobs):
        columns = getattr(setup.family, "columns", None)
        if callable(columns):
            widest = max(widest, len(columns(setup.config)))
    return widest


def check_resample_memory(n_samples: int, n_segments: int, columns: int) -> None:
    """Refuse a run whose resampling would hold more than :data:`MAX_RESAMPLE_BYTES`.

    Memory of a resampling run grows as samples x segments x columns x 8 bytes (the per-resample
    draws over the segments, and the statistics gathered per draw); a bound of 2 GB keeps every
    run inside an ordinary machine's memory and still allows sacrebleu's defaults (1,000
    resamples, 10,000 AR trials) on corpora of thousands of segments.
    """
    need = n_samples * max(n_segments, 1) * columns * CELL_BYTES
    if need > MAX_RESAMPLE_BYTES:
        most = MAX_RESAMPLE_BYTES // (max(n_segments, 1) * columns * CELL_BYTES)
        raise KnobError(f"-n {n_samples}: {n_samples} samples x {n_segments} segments x {columns} statistics "
                        f"columns x {CELL_BYTES} bytes = {need / 1024 ** 3:.1f} GB, over the "
                        f"{MAX_RESAMPLE_BYTES // 1024 ** 3} GB bound; use -n {most} or fewer")


def run(args: argparse.Namespace) -> int:
    from assay.jobs import significance as sig
    from assay.jobs.significance_text import confidence_lines

    dask = uses_dask(args)
    for option, paths in (("-i", args.input), ("-r", args.refs)):
        for path in paths:
            input_file(option, path)
    knobs = parse_knob_settings(args.knobs)
    seed: Any = args.seed if args.seed is not None else sig.resolve_seed()
    files = [read_file(path, args.encoding) for path in args.input]
    refs = [read_file(path, args.encoding) for path in args.refs]
    for f in files:
        check_aligned(f, refs)
    streams = [r.lines for r in refs]
    if args.n_samples is not None:
        check_resample_memory(args.n_samples, len(files[0].lines),
                              statistics_columns(args.metric, args.profile, knobs))
    if args.confidence:
        if len(files) != 1:
            raise InputError("--confidence takes one system (-i FILE); compare several with --paired-bs "
                             "or --paired-ar (sacrebleu: 'Use paired tests (--paired) for multiple systems.')")
        n = args.n_samples if args.n_samples is not None else sig.DEFAULT_BOOTSTRAP_SAMPLES
        with _tests(args, dask) as (_, confidence):
            res = confidence(args.metric, files[0].lines, streams, args.profile, n_samples=n, seed=seed,
                             width=args.width, **knobs)
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
    test = "bs" if args.paired_bs else "ar"
    default_n = sig.DEFAULT_BOOTSTRAP_SAMPLES if args.paired_bs else sig.DEFAULT_AR_TRIALS
    with _tests(args, dask) as (paired, _):
        result = paired(test, args.metric, baseline, others, streams, args.profile,
                        n_samples=args.n_samples if args.n_samples is not None else default_n,
                        seed=seed, width=args.width, **knobs)
    if args.format == "json":
        print(json.dumps(result.tool_json(), indent=4, ensure_ascii=False))
    else:
        print(result.text)
    return 0


@contextlib.contextmanager
def _tests(args: argparse.Namespace, dask: bool) -> Iterator[tuple[Callable[..., Any], Callable[..., Any]]]:
    """(paired(test, ...), confidence(...)): in this process, or with ``--engine dask`` on a Dask cluster
    (:mod:`assay.jobs.grid.significance`: the same result)."""
    if not dask:
        from assay.cli.tracked_runs import TrackedRuns
        from assay.core.progress import ProgressBar
        from assay.jobs import significance as sig

        with ProgressBar(0, description="significance", enabled=None if args.progress else False) as bar:
            def runs(*spec: Any) -> sig.LocalRuns:
                return TrackedRuns(bar, *spec)

            yield (lambda test, metrics, baseline, systems, refs, profile, *, n_samples, seed, width, **knobs:
                   sig.paired_test(test, metrics, baseline, systems, refs, profile, n_samples, seed, width, knobs,
                                   runs=runs),
                   lambda metric, hyps, refs, profile, *, n_samples, seed, width, **knobs:
                   sig.confidence_test(metric, hyps, refs, profile, n_samples, seed, width, knobs, runs=runs))
        return
    from assay.jobs.grid import significance as grid
    with dask_session(args) as session:
        yield (lambda test, *a, **k: grid.paired(session, test, *a, **k),
               lambda *a, **k: grid.confidence_interval(session, *a, **k))

