"""Job grids on Dask (``--engine dask`` of audit, compare, report, significance and conform): each job
cut into independent work units, run on a cluster through :mod:`assay.engine.dask_engine`'s session
(its client, progress and ordered results; no scheduler of assay's own), and put back together on the
client in the single-process order, so that the output is the single-process output.

- :mod:`.audit`: one task per (system, references, metric) of a claims table, its claims in order
  (they share one :class:`~assay.jobs.audit.search.Auditor`, as in one process);
- :mod:`.compare`: one task per metric (compare) or per (corpus, metric) (report): every profile of
  the metric, its attributions and, for a report, its plots;
- :mod:`.significance`: one task per (metric, system) for the statistics and per (metric, block of
  resamples) for the resampling, each block drawing from the run's seeded stream
  (:mod:`assay.jobs.significance_blocks`);
- :mod:`.conform`: one task per batch of consecutive cases, each with its own connection to the
  implementation.

Tasks get the text as data (sent once, :meth:`~assay.engine.dask_engine.session.Session.scatter`) and
send back plain data; an :class:`~assay.core.errors.AssayError` travels as a
:class:`~assay.engine.dask_engine.parts.Failure` and is raised on the client where one process would
have raised it. Workers need the client's assay version; a report's workers write its plots, so they
must see the output directory (a shared file system). Nothing here imports Dask: the session does,
when ``--engine dask`` opens one, and the single-process commands never import this package.
"""
