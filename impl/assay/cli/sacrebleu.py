"""``assay sacrebleu REF [REF …] -i HYP [HYP …] [sacrebleu's options]``: sacrebleu 2.6.0's command
line, flag for flag, printing what it prints (:mod:`assay.jobs.sacrebleu_cli`).

The options and their defaults are sacrebleu's (``-f json`` by default, overridden by
``SACREBLEU_FORMAT``; ``-w 1``; ``-m bleu``); the score-changing ones come from the table
:data:`assay.jobs.sacrebleu_cli.flags.KNOB_FLAGS`. Without ``-i`` (or with ``-i -``) the system is
read from standard input. Options that need sacrebleu's downloaded test sets (``-t``, ``--echo``,
``--download``, ``--list``, ``--citation``, ``--origlang``, ``--subset``) are refused in one line
(exit 2). ``--quiet``, ``--no-color``, ``--paired-jobs`` and ``--force`` change nothing on stdout
and are accepted.
"""
from __future__ import annotations

import argparse
import os
from typing import Any

from assay.cli.common import input_file, read_file, width_value
from assay.core.io import ENCODINGS

FORMATS = ("json", "text", "latex")
FORMAT_ENV = "SACREBLEU_FORMAT"


HELP = {"sacrebleu": "sacrebleu 2.6.0's command line, flag for flag (sacrebleu REF … -i HYP …)"}
"""The line ``assay --help`` shows for the command (:mod:`assay.cli.main`)."""


def add_parser(sub: Any) -> None:
    from assay.jobs.sacrebleu_cli.flags import KNOB_FLAGS, METRICS

    sb = sub.add_parser(
        "sacrebleu", help=HELP["sacrebleu"],
        description="sacrebleu 2.6.0's command line on local files: the same options, the same output "
                    "(text, JSON, signatures, significance tables). Test sets (-t) need sacrebleu's downloads "
                    "and are refused.")
    sb.add_argument("refs", nargs="*", help="reference files; give them before -i/--input")
    sb.add_argument("--citation", "--cite", action="store_true", help="(needs a test set: refused)")
    sb.add_argument("--list", action="store_true", help="(lists downloadable test sets: refused)")
    sb.add_argument("--test-set", "-t", help="(a downloadable test set: refused; pass reference files)")
    sb.add_argument("--language-pair", "-l", dest="langpair",
                    help="SRC-TGT; the target picks BLEU's tokenizer (zh, ja-mecab, ko-mecab, else 13a)")
    sb.add_argument("--origlang", "-ol", help="(test-set metadata: refused)")
    sb.add_argument("--subset", help="(test-set metadata: refused)")
    sb.add_argument("--download", help="(downloads a test set: refused)")
    sb.add_argument("--echo", nargs="+", help="(prints test-set fields: refused)")
    sb.add_argument("--input", "-i", nargs="*", help="system file(s), the first the baseline of a paired test "
                    "(default: standard input)")
    sb.add_argument("--num-refs", "-nr", type=int, default=1,
                    help="split the reference file on tabs into this many references (Default: 1)")
    sb.add_argument("--encoding", "-e", choices=ENCODINGS, default="utf-8",
                    help="how the files are decoded (Default: utf-8)")
    sb.add_argument("--metrics", "-m", nargs="+", choices=METRICS, default=["bleu"],
                    help="metrics to compute (Default: bleu)")
    sb.add_argument("--sentence-level", "-sl", action="store_true", help="a score per sentence")
    groups: dict[str, Any] = {}
    for flag in KNOB_FLAGS:
        group = groups.get(flag.group) or groups.setdefault(flag.group, sb.add_argument_group(flag.group))
        group.add_argument(*flag.options, dest=flag.dest, help=flag.help, **flag.kwargs)
    groups[KNOB_FLAGS[0].group].add_argument("--force", action="store_true",
                                             help="accepted (sacrebleu: silence the tokenized-input warning)")
    ci = sb.add_argument_group("Confidence interval (CI) estimation for single-system evaluation")
    ci.add_argument("--confidence", "-ci", action="store_true", help="bootstrap 95%% confidence interval")
    ci.add_argument("--confidence-n", "-cin", type=int, default=1000, help="bootstrap resamples (Default: 1000)")
    pt = sb.add_argument_group("Paired significance testing for multi-system evaluation")
    mode = pt.add_mutually_exclusive_group()
    mode.add_argument("--paired-ar", "-par", action="store_true", help="paired approximate randomization")
    mode.add_argument("--paired-bs", "-pbs", action="store_true", help="paired bootstrap resampling")
    pt.add_argument("--paired-ar-n", "-parn", type=int, default=10000, help="AR trials (Default: 10000)")
    pt.add_argument("--paired-bs-n", "-pbsn", type=int, default=1000, help="bootstrap resamples (Default: 1000)")
    pt.add_argument("--paired-jobs", "-j", type=int, default=1, help="accepted; assay runs in one process")
    rp = sb.add_argument_group("Reporting related arguments")
    rp.add_argument("--quiet", "-q", action="store_true", help="accepted (stderr messages)")
    rp.add_argument("--short", "-sh", action="store_true", help="shorter signatures")
    rp.add_argument("--score-only", "-b", action="store_true", help="print only the computed score")
    rp.add_argument("--width", "-w", type=width_value, default=1, help="decimals (Default: 1)")
    rp.add_argument("--detail", "-d", action="store_true", help="as sacrebleu without a test set: a note")
    rp.add_argument("--no-color", "-nc", action="store_true", help="accepted (no colours are printed)")
    rp.add_argument("--format", "-f", choices=FORMATS, default="json",
                    help=f"json or text (one system), text/latex/json (several); ${FORMAT_ENV} overrides "
                         "(Default: json)")
    rp.add_argument("--version", "-V", action="version",
                    version="assay sacrebleu: sacrebleu 2.6.0's command line (assay %s)" % _version())
    sb.set_defaults(handler=run)


def _version() -> str:
    from assay._version import __version__
    return __version__


def run(args: argparse.Namespace) -> int:
    from assay.jobs.sacrebleu_cli.run import check_offline, run as run_sacrebleu

    if os.environ.get(FORMAT_ENV) in FORMATS:      # sacrebleu: the variable wins over -f
        args.format = os.environ[FORMAT_ENV]
    check_offline(args)
    for path in args.refs:
        input_file("refs", path)
    inputs = args.input or ["-"]
    for path in inputs:
        input_file("-i", path, stdin=True)
    refs = [(path, read_file(path, args.encoding).lines) for path in args.refs]
    systems = [(path, read_file(path, args.encoding).lines) for path in inputs]
    print(run_sacrebleu(args, refs, systems))
    return 0
