"""Scale-out on Dask: a sharded corpus scored in one process and on a LocalCluster of 1 and 2 workers.

    python -m conformance.bench.dask [--size N] [--shard-size N] [--workers 1,2] [--metrics bleu,chrf]
                                     [--keep DIR] [--repeats 1] [--quick]

Corpus: ``--size`` segments (default 10,000,000) in shard files of ``--shard-size`` lines (default
100,000) under a temporary folder (``--keep DIR`` writes them there and keeps them), one hypothesis and
one reference file per shard. Segments are the synthetic sentence pairs of conformance/bench/corpora.py
(a pool of 4,000 drawn with a fixed seed), each line picking a pair at random and appending a
line-specific word to both sides (so no two neighbouring lines are equal).

Per metric (``bleu``: sacrebleu's BLEU; ``chrf``: sacrebleu's chrF2) and worker count, one row comparing
(alternating runs, so that both sides see the same load on a shared machine):
- Dask with N workers (the ``assay s`` column): ``assay score METRIC --engine dask -i 'hyp/part-*' -r
  'ref/part-*'`` (:func:`assay.engine.dask_engine.files.score_shards`) on a LocalCluster of N worker
  processes started and warmed up beforehand (a small job per worker, so that imports are not timed;
  the start-up time is a note); its peak is the client's (this process);
- single process (the ``tool`` columns): the same without ``--engine dask``
  (:func:`assay.engine.stream.score_files`: the shards read in chunks, one process);
- ratio = single-process time / Dask time: the speed-up. The note under the row gives the CPU seconds
  of the workers, the client and the single process (load-independent: on a busy machine wall times
  are not), each worker's peak RSS during the run (Linux VmHWM, reset before the run), the median
  compute time of one shard's task and the reduce (from the last shard's task to the Score).
Every Dask Score must equal the single-process Score exactly (``agreement``: ``identical``).
The last lines estimate, from those measurements, the time on 100 workers.
"""
from __future__ import annotations

import logging
import math
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from conformance.bench.corpora import synthetic_corpus
from conformance.bench.harness import MIB, Bench, Corpus, arguments, parse
from conformance.bench.memory import _reset_high_water_mark, _status_kib

POOL = 4000
SEED = 20240619
METRICS = {"bleu": ("bleu", "sacrebleu"), "chrf": ("chrf", "sacrebleu")}


def build_shards(folder: Path, size: int, shard_size: int) -> tuple[list[str], list[str], int]:
    """Write ``size`` segments as shards ``hyp/part-K.txt``, ``ref/part-K.txt``; their paths and bytes."""
    pool_h, pool_r, _ = synthetic_corpus(POOL, seed=SEED)
    rng = random.Random(SEED)
    (folder / "hyp").mkdir(parents=True, exist_ok=True)
    (folder / "ref").mkdir(parents=True, exist_ok=True)
    hyp_files, ref_files, total = [], [], 0
    for k in range(math.ceil(size / shard_size)):
        n = min(shard_size, size - k * shard_size)
        picks = [rng.randrange(POOL) for _ in range(n)]
        marks = [f" w{(k * shard_size + i) % 100_003}" for i in range(n)]
        hyp = "".join(f"{pool_h[j]}{m}\n" for j, m in zip(picks, marks)).encode()
        ref = "".join(f"{pool_r[j]}{m}\n" for j, m in zip(picks, marks)).encode()
        for name, data, out in (("hyp", hyp, hyp_files), ("ref", ref, ref_files)):
            path = folder / name / f"part-{k:05d}.txt"
            path.write_bytes(data)
            out.append(str(path))
        total += len(hyp) + len(ref)
    return hyp_files, ref_files, total


def _worker_peak() -> int:
    """This worker process's peak RSS in bytes since the last reset (VmHWM)."""
    return (_status_kib("VmHWM") or 0) * 1024


def _task_times(stream: list[dict[str, Any]], stage: str) -> list[tuple[float, float]]:
    """(start, stop) of the compute of every task of ``stage`` (keys ``assay-STAGE-…``)."""
    out = []
    for task in stream:
        if str(task["key"]).startswith(f"assay-{stage}-"):
            for ss in task["startstops"]:
                if ss["action"] == "compute":
                    out.append((ss["start"], ss["stop"]))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = arguments(__doc__, size=10_000_000, unit="segments", quick=20_000, repeats=1, corpus=False)
    parser.add_argument("--shard-size", type=int, default=100_000, metavar="N", help="lines per shard (default 100,000)")
    parser.add_argument("--workers", default="1,2", help="worker counts to time, comma-separated (default 1,2)")
    parser.add_argument("--metrics", default="bleu,chrf", help=f"of {', '.join(METRICS)} (default both)")
    parser.add_argument("--keep", type=Path, metavar="DIR", help="write the shards to DIR and keep them")
    args = parse(parser, argv)
    if args.quick:
        args.shard_size = min(args.shard_size, 5_000)
    worker_counts = [int(w) for w in args.workers.split(",")]

    import distributed

    from assay.engine import api, stream
    from assay.engine.dask_engine import files
    from assay.engine.dask_engine.session import open_session

    with tempfile.TemporaryDirectory(prefix="assay-bench-dask-") as tmp:
        folder = args.keep or Path(tmp)
        started = time.perf_counter()
        hyps, refs, n_bytes = build_shards(folder, args.size, args.shard_size)
        written = time.perf_counter() - started
        corpus = Corpus(f"synthetic shards in {folder}: {len(hyps)} shards of <= {args.shard_size:,} lines "
                        f"(written in {written:.1f} s)", args.size, "segments", n_bytes)
        bench = Bench("Dask scale-out: one process vs a LocalCluster (assay score --engine dask)", corpus,
                      repeats=args.repeats, memory=args.memory,
                      tools=[f"dask/distributed {distributed.__version__}"],
                      notes=["assay s = Dask, tool s = the default engine (one process), ratio = the speed-up; "
                             "assay peak = the Dask client (this process), worker peaks and CPU times are in the note "
                             "under each row"])
        names = args.metrics.split(",")
        per_shard: dict[str, list[float]] = {name: [] for name in names}
        cpu_shard: dict[str, list[float]] = {name: [] for name in names}
        reduce_s: dict[str, list[float]] = {name: [] for name in names}
        for workers in worker_counts:
            up = time.perf_counter()
            with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                          dashboard_address=":0", silence_logs=logging.ERROR) as cluster, \
                    distributed.Client(cluster) as client, open_session(client=client) as session:
                bench.note(f"LocalCluster of {workers} worker(s) up in {time.perf_counter() - up:.1f} s")
                for name in names:
                    metric, profile = METRICS[name]
                    configured = api.configure(metric, profile)
                    for _ in range(workers):     # warm-up: every worker imports assay and builds its tables once
                        files.score_shards(session, configured, hyps[:workers], [refs[:workers]])
                    cpu: list[float] = []

                    def on_dask(c: api.Configured = configured) -> tuple[Any, float, float]:
                        before = sum(client.run(time.process_time).values())
                        score = files.score_shards(session, c, hyps, [refs])[0]
                        return score, time.time(), sum(client.run(time.process_time).values()) - before

                    with distributed.get_task_stream(client) as tasks:
                        row = bench.compare(f"{name}: Dask, {workers} worker(s)", on_dask, "single process",
                                            lambda c=configured: stream.score_files(c, hyps, [refs])[0],
                                            setup=lambda: client.run(_reset_high_water_mark),
                                            agree=lambda d, one: "identical" if d[0].to_json() == one.to_json()
                                            else "DIFFERS")
                    peaks = client.run(_worker_peak)
                    score, done, worker_cpu = row.assay.result
                    rows = _task_times(tasks.data, "rows-sum") + _task_times(tasks.data, "rows-rows")
                    shard_s = statistics.median(stop - start for start, stop in rows)
                    tail = done - max(stop for _, stop in rows)
                    per_shard[name].append(shard_s)
                    cpu_shard[name].append(worker_cpu / len(hyps))
                    reduce_s[name].append(tail)
                    bench.note(f"CPU: workers {worker_cpu:.1f} s, client {statistics.median(row.assay.cpu):.1f} s, "
                               f"single process {statistics.median(row.tool.cpu):.1f} s; worker peaks "
                               f"{', '.join(f'{p / MIB:,.0f} MiB' for p in peaks.values())}; one shard {shard_s:.3f} s "
                               f"(median of {len(rows)} tasks); reduce {tail * 1000:.0f} ms; score {score.value!r}")
                    if score.to_json() != row.tool.result.to_json():
                        print(f"error: {name} on Dask differs from one process", file=sys.stderr)
                        return 1
        for name in names:
            shard_s, cpu_s = statistics.median(per_shard[name]), statistics.median(cpu_shard[name])
            red = statistics.median(reduce_s[name])
            scale = 100_000 / args.shard_size
            print(f"estimate {name}: one shard of {args.shard_size:,} lines takes {shard_s:.3f} s wall, {cpu_s:.3f} s "
                  f"of worker CPU (the workers' CPU over the shards); the reduce {red * 1000:.0f} ms. 10,000,000 "
                  f"segments on 100 workers (100 shards of 100,000 lines, one per worker): about "
                  f"{cpu_s * scale + red:.1f} s on idle cores ({shard_s * scale + red:.1f} s at this machine's load), "
                  "plus the cluster's start-up and ~1 ms of scheduling per task")
    return 0


if __name__ == "__main__":
    sys.exit(main())
