r"""assay on Dask collections: corpus and sentence scores of a ``dask.bag`` of segments or of a dask
dataframe column, against reference collections partitioned alike.

    >>> import dask.bag as db, distributed, assay.dask
    >>> client = distributed.Client()                       # or any running cluster
    >>> def lines(pattern):                                  # one partition per file, one segment per line
    ...     return db.read_text(pattern, blocksize=None).map(lambda line: line.removesuffix("\n"))
    >>> hyps, refs = lines("out/part-*.txt"), lines("ref/part-*.txt")
    >>> assay.dask.score("bleu", hyps, [refs]).text          # == assay.score("bleu", hyps_list, [refs_list]).text

Each partition maps to statistics rows on a worker, the rows reduce (exact column sums, or the rows
in partition order), and the family scores them once: the Score equals ``assay.score`` on the same
segments in the same order (:mod:`assay.engine.dask_engine`). Needs the extra
``assay-metrics[dask]``; ``import assay`` never imports Dask, this module does only when it scores.
"""
from assay.engine.dask_engine.bags import score, sentence_scores

__all__ = ["score", "sentence_scores"]
