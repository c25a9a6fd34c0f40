"""``--engine single|dask`` and its options, for every command that can run on a Dask cluster.

    --engine dask [--workers N | --scheduler ADDRESS] [--connect-timeout S] [--no-progress]

``single`` (the default) is this process; ``dask`` starts a ``distributed.LocalCluster`` of N worker
processes (``--workers``, default: one per CPU) or joins a running scheduler (``--scheduler
tcp://host:8786``). The dashboard address goes to stderr, and on a terminal a progress bar follows the
tasks as they finish, with the time left (``--no-progress`` or ``assay -q`` turns it off). Nothing here
imports Dask unless ``--engine dask`` is given; without the extra it is a MissingDependencyError
naming ``assay-metrics[dask]``.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Any, ContextManager

from assay.cli.common import bounded
from assay.core.domains import integer, real
from assay.core.errors import KnobError

ENGINES = ("single", "dask")
WORKERS = integer(1, 4096)
CONNECT_TIMEOUT = real(0.1, 3600)


def add_engine_arguments(parser: Any) -> None:
    group = parser.add_argument_group("scale-out (Dask; needs the extra assay-metrics[dask])")
    group.add_argument("--engine", choices=ENGINES, default="single",
                       help="single: this process (default); dask: a Dask cluster")
    group.add_argument("--workers", type=bounded(WORKERS), metavar="N",
                       help="--engine dask: start a local cluster of N worker processes (default: one per CPU)")
    group.add_argument("--scheduler", metavar="ADDRESS",
                       help="--engine dask: join the running Dask scheduler at ADDRESS (e.g. tcp://host:8786)")
    group.add_argument("--connect-timeout", type=bounded(CONNECT_TIMEOUT), default=5.0, metavar="S",
                       help="--scheduler: seconds to wait for the scheduler to answer (default 5)")
    group.add_argument("--no-progress", dest="progress", action="store_false",
                       help="--engine dask: no progress bar (there is none unless stderr is a terminal)")


def uses_dask(args: argparse.Namespace) -> bool:
    """Whether the command runs on Dask; ``--workers``/``--scheduler`` without it are an error."""
    if args.engine != "dask":
        if args.workers is not None or args.scheduler is not None:
            raise KnobError("--workers and --scheduler go with --engine dask")
        return False
    if args.workers is not None and args.scheduler is not None:
        raise KnobError("--workers starts a local cluster, --scheduler joins a running one: give one of them")
    return True


def dask_session(args: argparse.Namespace) -> ContextManager[Any]:
    """The Dask session the options ask for (:func:`assay.engine.dask_engine.session.open_session`)."""
    from assay.engine.dask_engine.session import open_session

    workers = None
    if args.scheduler is None:
        workers = args.workers if args.workers is not None else (os.cpu_count() or 1)
    return open_session(workers=workers, scheduler=args.scheduler, connect_timeout=args.connect_timeout,
                        progress=_progress() if args.progress else None, announce=_announce)


def _announce(message: str) -> None:
    print(f"assay: {message}", file=sys.stderr, flush=True)


def _progress() -> Any:
    """The job's progress bar over the Dask tasks (:class:`assay.core.progress.ProgressBar`: stderr, only on a
    terminal, none under ``assay -q``); None when no bar would be drawn."""
    from assay.core.progress import ProgressBar

    bar = ProgressBar(0, sys.stderr, description="dask")
    return bar if bar.enabled else None
