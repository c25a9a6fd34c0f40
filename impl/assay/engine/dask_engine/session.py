"""A Dask session: the client (on a new ``LocalCluster`` or a running scheduler), the futures of one
job with a progress bar following them, ordered results and tree reductions.

This is the one place that talks to ``distributed``; what the tasks do is in :mod:`.tasks`, and the
command line decides what the user sees (a :class:`Progress`, an ``announce`` function).

- ``workers=N``: a ``distributed.LocalCluster`` of N worker processes (one thread each: the tasks
  are CPU-bound Python), closed with the session.
- ``scheduler=ADDRESS``: join a running cluster (``dask scheduler``, ``dask worker ADDRESS``, a
  dask-jobqueue or Kubernetes cluster); an address that answers nothing within ``connect_timeout``
  seconds is an :class:`InputError` naming it. Workers must be able to import assay and read the
  input paths.
- ``client=``: a client the caller already holds (the Python API); it is left open.

A worker that dies while it holds tasks has them re-run elsewhere by the scheduler (tasks are pure);
a task that killed ``distributed.scheduler.allowed-failures`` workers in a row, or a cluster that
went away, is an :class:`EngineError` with Dask's reason.
"""
from __future__ import annotations

import contextlib
import logging
import threading
import uuid
from typing import Any, Callable, Iterator, Protocol, Sequence

from assay.core.errors import AssayError, InputError
from assay.engine.dask_engine import require_distributed
from assay.engine.dask_engine.parts import Blob, EngineError

#: seconds to wait for a scheduler given by address before giving up
DEFAULT_CONNECT_TIMEOUT = 5.0
#: how many parts one combine task of a tree reduction takes
SPLIT_EVERY = 8


class Progress(Protocol):
    """What follows a job: ``add(n)`` tasks more, ``step()`` one done, ``close()`` at the end."""

    def add(self, n: int) -> None: ...

    def step(self, label: str = "") -> None: ...

    def close(self, message: str = "") -> None: ...


class Session:
    """The client of one job, its progress, and the helpers every job shape uses."""

    def __init__(self, client: Any, progress: Progress | None = None) -> None:
        self.client = client
        self.progress = progress
        self.run = uuid.uuid4().hex[:12]
        self._lock = threading.Lock()
        self._distributed: Any = require_distributed()
        self._slots: int | None = None

    # -- submitting
    def _key(self, stage: str, index: int | str) -> str:
        return f"assay-{stage}-{self.run}-{index}"

    def submit(self, fn: Callable[..., Any], *args: Any, stage: str, index: int | str, track: bool = True) -> Any:
        """``fn(*args)`` as a future (futures among ``args``, also inside lists, are resolved first)."""
        future = self.client.submit(fn, *args, key=self._key(stage, index), pure=False)
        if track:
            self.track([future])
        return future

    def map(self, fn: Callable[..., Any], argument_lists: Sequence[Sequence[Any]], *, stage: str,
            track: bool = True) -> list[Any]:
        """One future per argument list, in order."""
        return [self.submit(fn, *args, stage=stage, index=i, track=track) for i, args in enumerate(argument_lists)]

    def scatter(self, *values: Any) -> list[Any]:
        """A future per value (e.g. a corpus every task of a grid reads), all sent to the cluster in one
        exchange; each worker that runs a task on one fetches it once. Tasks get the value as a
        :class:`~.parts.Blob` (its ``value``)."""
        try:
            return list(self.client.scatter([Blob(v) for v in values], hash=False)) if values else []
        except self._failures() as exc:
            raise EngineError(f"the Dask cluster failed the job: {type(exc).__name__}: {exc}") from None

    def slots(self) -> int:
        """How many tasks the cluster runs at once (its worker threads, asked once; at least 1)."""
        if self._slots is None:
            try:
                self._slots = max(1, sum(self.client.nthreads().values()))
            except self._failures() as exc:
                raise EngineError(f"the Dask cluster failed the job: {type(exc).__name__}: {exc}") from None
        return self._slots

    def compute(self, delayed: Sequence[Any], *, stage: str) -> list[Any]:
        """Futures of Dask delayed objects (a collection's partitions), in order."""
        futures = self.client.compute(list(delayed), optimize_graph=True)
        self.track(futures)
        return futures

    def tree_reduce(self, futures: Sequence[Any], combine: Callable[..., Any], *args: Any, stage: str,
                    split_every: int = SPLIT_EVERY) -> Any:
        """One future: ``combine(*args, parts)`` over groups of ``split_every`` consecutive parts, level by
        level (``combine`` must be associative and keep order; a single part is returned as is)."""
        level, depth = list(futures), 0
        while len(level) > 1:
            level = [self.submit(combine, *args, level[i:i + split_every], stage=f"{stage}{depth}", index=i,
                                 track=False)
                     for i in range(0, len(level), split_every)]
            depth += 1
        return level[0]

    # -- progress
    def track(self, futures: Sequence[Any]) -> None:
        if self.progress is None:
            return
        self.progress.add(len(futures))
        for f in futures:
            f.add_done_callback(self._done)

    def _done(self, _future: Any) -> None:
        with self._lock:
            if self.progress is not None:
                self.progress.step()

    # -- results
    def result(self, future: Any) -> Any:
        """The future's result; Dask's own failures (lost workers, a lost scheduler) as :class:`EngineError`."""
        try:
            return future.result()
        except AssayError:
            raise
        except self._failures() as exc:
            raise EngineError(f"the Dask cluster failed the job: {type(exc).__name__}: {exc}") from None

    def results(self, futures: Sequence[Any]) -> Iterator[Any]:
        """Each future's result in order, each future released once its result is taken."""
        pending = list(futures)
        pending.reverse()
        while pending:
            future = pending.pop()
            try:
                yield self.result(future)
            finally:
                future.release()

    def cancel(self, futures: Sequence[Any]) -> None:
        self.client.cancel(list(futures))

    def _failures(self) -> tuple[type[BaseException], ...]:
        import concurrent.futures
        from distributed.comm.core import CommClosedError
        from distributed.scheduler import KilledWorker
        return (KilledWorker, CommClosedError, concurrent.futures.CancelledError, TimeoutError, OSError)

    def close(self) -> None:
        if self.progress is not None:
            self.progress.close()
            self.progress = None


def spans(n: int, parts: int, align: int = 1) -> list[tuple[int, int]]:
    """``range(n)`` cut into at most ``parts`` consecutive non-empty spans ``(start, stop)`` of nearly equal
    size, every start a multiple of ``align`` (the work units of a job grid)."""
    if n <= 0:
        return []
    units = -(-n // align)                       # aligned units, the last one possibly short
    parts = max(1, min(parts, units))
    cuts = [min(n, (units * k // parts) * align) for k in range(parts + 1)]
    return [(a, b) for a, b in zip(cuts, cuts[1:]) if b > a]


def dashboard_link(client: Any) -> str | None:
    """The scheduler's dashboard address, when it serves one."""
    try:
        services = client.scheduler_info().get("services", {})
    except Exception:      # an old or restricted scheduler: no address to show
        return None
    return client.dashboard_link if "dashboard" in services else None


@contextlib.contextmanager
def open_session(*, workers: int | None = None, scheduler: str | None = None, client: Any = None,
                 connect_timeout: float = DEFAULT_CONNECT_TIMEOUT, progress: Progress | None = None,
                 announce: Callable[[str], None] | None = None) -> Iterator[Session]:
    """A :class:`Session` on ``client``, on the scheduler at ``scheduler``, or on a new LocalCluster of
    ``workers`` processes (exactly one of the three); ``announce`` hears the dashboard address."""
    distributed: Any = require_distributed()
    if sum(x is not None for x in (workers, scheduler, client)) != 1:
        raise InputError("a Dask session needs exactly one of: a number of local workers, a scheduler address, "
                         "a client")
    with contextlib.ExitStack() as stack:
        if client is None:
            if scheduler is not None:
                client = stack.enter_context(_connect(distributed, scheduler, connect_timeout))
            else:
                if workers is None or workers < 1:
                    raise InputError(f"--workers must be at least 1, got {workers}")
                cluster = stack.enter_context(distributed.LocalCluster(
                    n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0",
                    silence_logs=logging.ERROR))
                client = stack.enter_context(distributed.Client(cluster))
            if announce is not None:
                link = dashboard_link(client)
                if link:
                    announce(f"Dask dashboard: {link}")
        session = Session(client, progress)
        try:
            yield session
        finally:
            session.close()


@contextlib.contextmanager
def _connect(distributed: Any, address: str, timeout: float) -> Iterator[Any]:
    try:
        client = distributed.Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        reason = str(exc) or type(exc).__name__
        raise InputError(f"--scheduler {address}: no Dask scheduler answered within {timeout:g} s ({reason})") from None
    try:
        yield client
    finally:
        client.close()
