"""CIDEr's statistics stage: the score of every image, from tokens and document frequencies.

For image i with references ``r_1..r_m`` and order n, with tf-idf weights ``tf(g) * idf(g)``,
``idf(g) = log(N_images) - log(max(1, df(g)))``::

    sim_n(h, r) = sum_g min(h_g, r_g) * r_g / (|h| |r|)          (clipping; else h_g * r_g)
                  * exp(-(len_h - len_r)^2 / (2 sigma^2))           (when sigma is set)
    per_order_n(i) = scale * sum_j sim_n(h, r_j) / m,     cider(i) = scale * mean_n(...)

"length" is the number of bigrams (words - 1, 0 for an empty caption) or of words; a zero norm on
either side leaves sim_n = 0; an n-gram seen only in hypotheses gets idf log N (it adds to |h| and
never matches).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from assay.metrics.cider.idf import DocumentFrequencies, code_strings, code_strings_any, image_df, inverse_vocab
from assay.text.ngrams import NgramIndex, encode


def cider_rows(hyp_toks: Sequence[Sequence[str]], ref_toks: Sequence[Sequence[str]], owner: np.ndarray,
               config: Mapping[str, Any], df_source: DocumentFrequencies | None = None) -> tuple[np.ndarray, np.ndarray, DocumentFrequencies]:
    """Per image: the score and the per-order parts; plus the document frequencies used.

    ``ref_toks[k]`` is a reference of image ``owner[k]``. Returns ``(scores, per_order, df)``
    with ``per_order[i, n-1] = scale * sum_j sim_n(h_i, r_ij) / m_i`` and ``scores`` their mean
    over n.
    """
    n_img = len(hyp_toks)
    n_max = int(config["max_ngram_order"])
    n_refs = np.bincount(owner, minlength=n_img).astype(np.float64)
    vocab: dict[str, int] = {}
    hyp_side = encode(hyp_toks, vocab)
    ref_side = encode(ref_toks, vocab)
    index = NgramIndex([hyp_side, ref_side], n_max)
    sigma = config["length_penalty_sigma"]
    if sigma is not None:
        if config["length_unit"] == "bigrams":
            hl = np.maximum(hyp_side.lengths - 1, 0)
            rl = np.maximum(ref_side.lengths - 1, 0)
        else:
            hl, rl = hyp_side.lengths, ref_side.lengths
        delta = (hl[owner] - rl).astype(np.float64)
        penalty = np.exp(-(delta ** 2) / (2.0 * sigma ** 2))
    else:
        penalty = None

    external = df_source is not None
    id_to_tok = inverse_vocab(vocab) if external else None
    log_n = np.log(float(df_source.n_images if external else n_img))
    clipping = config["clipping"]
    per_order = np.zeros((n_img, n_max))
    df_parts: list[tuple[int, np.ndarray, np.ndarray]] = []
    for n in range(1, n_max + 1):
        nc = index.n_codes[n - 1]
        hc = index.side_counts(0, n)
        rc = index.side_counts(1, n)
        r_seg = rc.keys // nc
        r_code = rc.keys % nc
        h_img = hc.keys // nc
        h_code = hc.keys % nc
        if external:
            df = _external_df(index, n, nc, hc, rc, df_source, id_to_tok)
        else:
            _, df = image_df(rc, owner, nc)
            df_parts.append((n, np.flatnonzero(df), df))
        idf = log_n - np.log(np.maximum(1.0, df.astype(np.float64)))
        wh = hc.counts * idf[h_code]
        wr = rc.counts * idf[r_code]
        norm_h = np.sqrt(np.bincount(h_img, weights=wh * wh, minlength=n_img).astype(np.float64))
        norm_r = np.sqrt(np.bincount(r_seg, weights=wr * wr, minlength=len(ref_toks)).astype(np.float64))
        # the hypothesis weight of each reference n-gram (0 where the hypothesis lacks it)
        query = owner[r_seg] * nc + r_code
        if len(hc.keys):
            pos = np.minimum(np.searchsorted(hc.keys, query), len(hc.keys) - 1)
            wh_at = np.where(hc.keys[pos] == query, wh[pos], 0.0)
        else:
            wh_at = np.zeros(len(query))
        terms = (np.minimum(wh_at, wr) if clipping else wh_at) * wr
        num = np.bincount(r_seg, weights=terms, minlength=len(ref_toks)).astype(np.float64)
        denom = norm_h[owner] * norm_r
        val = np.divide(num, denom, out=num.copy(), where=denom != 0)
        if penalty is not None:
            val = val * penalty
        per_order[:, n - 1] = np.bincount(owner, weights=val, minlength=n_img).astype(np.float64) / n_refs
    scale = float(config["scale"])
    scores = per_order.mean(axis=1) * scale
    per_order = per_order * scale

    if external:
        used = df_source
    else:
        def build() -> dict[str, int]:
            inv = inverse_vocab(vocab)
            table: dict[str, int] = {}
            for n, codes, df in df_parts:
                table.update(zip(code_strings(index, 1, n, codes, inv), df[codes].tolist()))
            return table
        used = DocumentFrequencies(n_img, "evaluated references", None, build)
    return scores, per_order, used


def _external_df(index: NgramIndex, n: int, nc: int, hc: Any, rc: Any, source: DocumentFrequencies,
                 id_to_tok: list[str]) -> np.ndarray:
    """df per code looked up by n-gram string in an external table (0 where it lacks the n-gram)."""
    codes = np.unique(np.concatenate([hc.keys % nc, rc.keys % nc]))
    df = np.zeros(nc, dtype=np.int64)
    if len(codes) == 0:
        return df
    table = source.table
    names = code_strings_any(index, n, codes, id_to_tok)
    df[codes] = np.fromiter((table.get(s, 0) for s in names), dtype=np.int64, count=len(names))
    return df
