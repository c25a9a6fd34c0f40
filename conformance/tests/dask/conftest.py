"""Fixtures of the Dask tests: one real ``distributed.LocalCluster`` (2 worker processes) for the whole
directory, and the bundled sample corpus split into shards.

Dask is the extra ``assay-metrics[dask]``, which tox's default env installs: when it is missing these
tests FAIL under ``CI`` and are skipped locally (``require_tool``)."""
from __future__ import annotations

import gzip
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import pytest

from assay.core.io import read_segments

HINT = "install the extra: pip install 'assay-metrics[dask]' (tox's default env has it)"
#: where report_sample (300 segments) is cut: an empty shard, a one-line shard, a gzip shard, uneven sizes
CUTS = (0, 1, 41, 41, 150, 299, 300)
GZIP_SHARD = 2


@dataclass(frozen=True)
class Sharded:
    """A corpus as whole files and as shards (same lines, same order)."""

    hyp: Path
    refs: tuple[Path, ...]
    hyp_shards: list[str]
    ref_shards: list[list[str]]
    hyp_glob: str
    ref_globs: list[str]

    def lines(self) -> tuple[list[str], list[list[str]]]:
        return read_segments(self.hyp).lines, [read_segments(r).lines for r in self.refs]


def split(source: Path, names: tuple[str, ...], out: Path, cuts: tuple[int, ...] = CUTS,
          gzip_shard: int | None = GZIP_SHARD) -> Sharded:
    """``source/NAME.txt`` cut at ``cuts`` into ``out/NAME/part-KK.txt`` (shard ``gzip_shard`` gzipped)."""
    for name in names:
        lines = (source / f"{name}.txt").read_bytes().splitlines(keepends=True)
        (out / name).mkdir(parents=True)
        for k in range(len(cuts) - 1):
            data = b"".join(lines[cuts[k]:cuts[k + 1]])
            path = out / name / f"part-{k:02d}.txt"
            if k == gzip_shard:
                path.with_suffix(".txt.gz").write_bytes(gzip.compress(data))
            else:
                path.write_bytes(data)
    globs = [str(out / name / "part-*") for name in names]
    files = [sorted(str(p) for p in (out / name).iterdir()) for name in names]
    return Sharded(source / f"{names[0]}.txt", tuple(source / f"{n}.txt" for n in names[1:]), files[0], files[1:],
                   globs[0], globs[1:])


@pytest.fixture(scope="session")
def report_shards(tmp_path_factory: pytest.TempPathFactory, repo_root: Path) -> Sharded:
    """fixtures/report_sample (300 segments, 2 references) in 6 shards."""
    return split(repo_root / "fixtures" / "report_sample", ("hyp", "ref1", "ref2"), tmp_path_factory.mktemp("shards"))


@pytest.fixture(scope="session")
def distributed_module(require_tool: Any) -> Any:
    return require_tool("distributed", hint=HINT)


@pytest.fixture(scope="session")
def dask_client(distributed_module: Any) -> Iterator[Any]:
    """A client of a LocalCluster of 2 worker processes, shared by every Dask test."""
    cluster = distributed_module.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                              dashboard_address=":0", silence_logs=logging.ERROR)
    client = distributed_module.Client(cluster)
    yield client
    client.close()
    cluster.close()


@pytest.fixture
def session(dask_client: Any) -> Iterator[Any]:
    """A session on the shared cluster (both workers up: an earlier test may have killed one)."""
    from assay.engine.dask_engine.session import open_session

    dask_client.wait_for_workers(2, timeout=60)
    with open_session(client=dask_client) as s:
        yield s
