"""Scale-out on Dask (``assay score --engine dask``, ``assay.dask``): a corpus as a map and a reduce.

Every corpus score is a map (text to statistics rows, :meth:`MetricFamily.segment_stats`) and a
reduce (the family's :meth:`~MetricFamily.score_stats` on the rows), so a corpus too big for one
process is scored by a Dask cluster without any scheduler of assay's own:

- :mod:`.session`: a ``distributed.Client`` on a new ``LocalCluster`` (``--workers N``) or on a
  running scheduler (``--scheduler ADDRESS``), with a connect timeout, the dashboard address and a
  progress bar that follows the futures; the generic pieces job grids reuse (ordered results,
  tree reductions).
- :mod:`.tasks`: what runs on a worker: survey a shard, read it in chunks and make its rows, or a
  corpus-pass family's first pass; plain functions of picklable arguments (the configuration travels
  as a :class:`~.tasks.ConfigSpec` and is rebuilt, once per worker process).
- :mod:`.parts`: one shard's statistics (:class:`~.parts.Part`) and how parts reduce: their column
  sums when the family's score reads only sums (``MetricFamily.sums_suffice``) and the sums are
  exact in any order (integers, or floats on a fine binary grid), else the rows gathered in shard
  order. Either way the score is computed once, on the client, by the family's own scorer: the same
  number as the single-process path, bit for bit.
- :mod:`.reduce`: the reduction over the futures of a job's parts (sums, rows, sentence scores).
- :mod:`.files`: sharded files (``-i 'out/part-*.txt' -r 'ref/part-*.txt'``), and
  :mod:`.bags`: a ``dask.bag`` or a dask dataframe column (``assay.dask``).

The job grids (``--engine dask`` of audit, compare, report, significance, conform) use the same
session (:meth:`~.session.Session.scatter` for the text, :meth:`~.session.Session.slots` and
:func:`~.session.spans` to cut the work, :func:`~.parts.capture` for failures); they live in
:mod:`assay.jobs.grid`, above this layer, because their tasks run the jobs' own code.

Dask itself is the optional extra ``assay-metrics[dask]``; nothing here imports it until a session is
opened, and the single-process path never imports this package.
"""
from __future__ import annotations

from assay.core.errors import MissingDependencyError

#: how to get Dask, named by every error about its absence
EXTRA = "pip install 'assay-metrics[dask]'"


def require_distributed() -> object:
    """The ``distributed`` module, or :class:`MissingDependencyError` naming the extra."""
    try:
        import distributed
    except ImportError as exc:
        raise MissingDependencyError(f"--engine dask needs Dask's distributed scheduler, which is not installed "
                                     f"({exc}); {EXTRA}") from None
    return distributed
