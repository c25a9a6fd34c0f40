"""pycocoevalcap's ROUGE-L counts: the LCS of each caption pair on ``str.split(" ")`` tokens.

The ``rouge/coco`` profile (``tokenizer=space``, no lowercasing, ROUGE-L only) reads each caption as
``text.split(" ")`` -- every single space separates, so ``"a  b"`` is ``["a", "", "b"]`` and ``""`` is
``[""]``, one empty token, as in pycocoevalcap's ``Rouge.calc_score``. Per document i and each of its
references r (the streams in order, missing ones skipped)::

    hits = LCS(hyp_i, r)      ref_len = |r|      peer_len = |hyp_i|

The LCS length is the bit-parallel recurrence over the hypothesis (Allison-Dix / Hyyro): bit j of
``M[t]`` is set when hypothesis token j equals t; ``V`` starts all ones, and for each reference token
``u = M[t] & V; V = ((V + u) | (V ^ u)) & full``; the LCS is the number of zero bits of ``V``.

:func:`space_lcs` returns None as soon as a text has more than ``limit`` tokens (the caller's
batched path is faster for long documents); a document without any reference is an
:class:`~assay.core.errors.InputError`, raised in document order (a long text in an earlier document
returns None first). The compiled twin ``_space_lcs_c`` splits and compares the captions' characters
in place (no token strings) and gives the same integers (conformance/tests/accel/test_rouge_twins.py).
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from assay.core import accel
from assay.core.errors import InputError
from assay.metrics.rouge.lcs import match_masks

try:
    from assay.metrics.rouge import _space_lcs_c as _compiled
except ImportError:        # not built: the pure path
    _compiled = None
_compiled = accel.use(_compiled, __name__)

Counts = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def space_lcs(hyps: Sequence[Any], refs: Sequence[Sequence[Any]], limit: int) -> Counts | None:
    """(hits, ref_len, peer_len) of every (document, reference) pair as float64 arrays, and the number
    of references per document (int64); None when a text has more than ``limit`` tokens."""
    if _compiled is None or any(len(s) < len(hyps) for s in refs):
        return space_lcs_py(hyps, refs, limit)
    got = _compiled.space_lcs(hyps if type(hyps) is list else list(hyps),
                              [s if type(s) is list else list(s) for s in refs], limit)
    if got is False:          # a text that is not a str
        return space_lcs_py(hyps, refs, limit)
    if got is None:
        return None
    if isinstance(got, int):
        raise InputError(f"document {got + 1} has no reference")
    return got


def space_lcs_py(hyps: Sequence[Any], refs: Sequence[Sequence[Any]], limit: int,
                 split: Callable[[str], Sequence[str]] | None = None) -> Counts | None:
    """:func:`space_lcs`, pure Python (the specification of the twin); ``split`` replaces ``str.split(" ")``
    (another tokenizer: ROUGE-L of short texts under it, the same recurrence)."""
    hits: list[int] = []
    ref_len: list[int] = []
    peer_len: list[int] = []
    n_refs: list[int] = []
    for i, h in enumerate(hyps):
        ht = h.split(" ") if split is None else split(h)
        if len(ht) > limit:
            return None
        get = match_masks(ht).get
        m = len(ht)
        full = (1 << m) - 1
        k = 0
        for stream in refs:
            r = stream[i]
            if r is None:
                continue
            rt = r.split(" ") if split is None else split(r)
            if len(rt) > limit:
                return None
            v = full
            for tok in rt:
                u = get(tok, 0) & v
                if u:
                    v = ((v + u) | (v ^ u)) & full
            hits.append(m - v.bit_count())
            ref_len.append(len(rt))
            peer_len.append(m)
            k += 1
        if not k:
            raise InputError(f"document {i + 1} has no reference")
        n_refs.append(k)
    return (np.array(hits, dtype=np.float64), np.array(ref_len, dtype=np.float64),
            np.array(peer_len, dtype=np.float64), np.array(n_refs, dtype=np.int64))
