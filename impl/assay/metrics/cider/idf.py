"""CIDEr's corpus context: document frequencies (the first pass), computed or read from ``idf_corpus``.

``df(g)`` is the number of *images* one of whose references contains the n-gram ``g`` (each
image's reference n-gram set counts once; hypotheses never count). pycocoevalcap takes it from
the evaluated references; ``idf_corpus`` (NOT the toolkit's behaviour) reads it from a fixed
reference set: a df JSON (``{"format": "assay-cider-df/1", "n_images": N, "df": {"a dog": 12}}``),
a captions JSON (COCO annotations or ``{image_id: [captions]}``), a text file with one image per
line (every line, blank ones too; references separated by `` ||| ``), or a name looked up as
``$ASSAY_IDF_DIR/<name>.json``.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from assay.core.coco_json import parse_annotations, parse_json_text
from assay.core.errors import InputError, KnobError
from assay.core.io import read_utf8
from assay.metrics.cider.tokens import caption_tokens
from assay.text.ngrams import NgramIndex, encode

DF_FORMAT = "assay-cider-df/1"
REF_SEPARATOR = " ||| "


@dataclass
class DocumentFrequencies:
    """The corpus context: number of images and df of every n-gram (``"w1 w2"`` -> #images).

    Built from the evaluated references (the toolkit) or loaded from ``idf_corpus``. ``table``
    is materialised on first use when the frequencies were computed on integer codes.
    """

    n_images: int
    source: str
    _table: dict[str, int] | None = None
    _builder: Callable[[], dict[str, int]] | None = field(default=None, repr=False)

    @property
    def table(self) -> dict[str, int]:
        if self._table is None:
            self._table = self._builder() if self._builder else {}
            self._builder = None
        return self._table

    def to_json(self) -> dict[str, Any]:
        return {"format": DF_FORMAT, "n_images": self.n_images, "source": self.source, "df": self.table}


def df_from_token_lists(image_refs: Sequence[Sequence[Sequence[str]]], max_order: int, source: str
                        ) -> DocumentFrequencies:
    """Document frequencies of a reference set: each image's n-gram set counts once."""
    vocab: dict[str, int] = {}
    flat = [r for refs in image_refs for r in refs]
    owner = np.repeat(np.arange(len(image_refs)), [len(refs) for refs in image_refs]).astype(np.int64)
    side = encode(flat, vocab)
    index = NgramIndex([side], max_order)
    id_to_tok = inverse_vocab(vocab)
    table: dict[str, int] = {}
    for n in range(1, max_order + 1):
        nc = index.n_codes[n - 1]
        counts = index.side_counts(0, n)
        _, df = image_df(counts, owner, nc)
        present = np.flatnonzero(df)
        names = code_strings(index, 0, n, present, id_to_tok)
        table.update(zip(names, df[present].tolist()))
    return DocumentFrequencies(len(image_refs), source, table)


def image_df(counts: Any, owner: np.ndarray, nc: int) -> tuple[np.ndarray, np.ndarray]:
    """df per code: the number of distinct images whose references contain the n-gram."""
    codes = counts.keys % nc
    images = owner[counts.keys // nc]
    pairs = np.sort(images * nc + codes)     # sort-based unique (numpy's hash unique is slower here)
    if len(pairs):
        pairs = pairs[np.concatenate(([True], pairs[1:] != pairs[:-1]))]
    return codes, np.bincount(pairs % nc, minlength=nc)


def inverse_vocab(vocab: Mapping[str, int]) -> list[str]:
    """Token of each id of ``vocab``."""
    out = [""] * len(vocab)
    for tok, i in vocab.items():
        out[i] = tok
    return out


def code_strings(index: NgramIndex, side: int, n: int, codes: np.ndarray, id_to_tok: list[str]) -> list[str]:
    """``"w1 w2 .. wn"`` for the given codes of order n (from a first occurrence of each code on ``side``)."""
    if len(codes) == 0:
        return []
    lo, hi = index._side_bounds[side], index._side_bounds[side + 1]
    valid = index.valid[n - 1][lo:hi]
    all_codes = index.codes[n - 1][lo:hi]
    positions = np.flatnonzero(valid)
    first = np.full(index.n_codes[n - 1], -1, dtype=np.int64)
    first[all_codes[positions][::-1]] = positions[::-1]
    ids = index.sides[side].ids
    starts = first[codes]
    return [" ".join(id_to_tok[t] for t in ids[s:s + n]) for s in starts.tolist()]


def code_strings_any(index: NgramIndex, n: int, codes: np.ndarray, id_to_tok: list[str]) -> list[str]:
    """Like :func:`code_strings` over all sides of the index."""
    valid = index.valid[n - 1]
    all_codes = index.codes[n - 1]
    positions = np.flatnonzero(valid)
    first = np.full(index.n_codes[n - 1], -1, dtype=np.int64)
    first[all_codes[positions][::-1]] = positions[::-1]
    ids = np.concatenate([s.ids for s in index.sides])
    return [" ".join(id_to_tok[t] for t in ids[s:s + n]) for s in first[codes].tolist()]


def find_idf_file(spec: str) -> Path | None:
    """The file ``idf_corpus`` names: ``spec`` itself, else ``$ASSAY_IDF_DIR/<spec>.json``; None if neither is one."""
    path = Path(spec)
    if path.is_file():
        return path
    folder = os.environ.get("ASSAY_IDF_DIR")
    named = Path(folder) / f"{spec}.json" if folder else None
    return named if named is not None and named.is_file() else None


def idf_corpus_problem(spec: Any) -> str | None:
    """Why ``spec`` is not a usable ``idf_corpus`` value (None when it is: absent, or a readable file)."""
    if spec is None:
        return None
    if not isinstance(spec, (str, os.PathLike)):
        return f"must be none or a readable file (a df JSON, a captions JSON or text file), not {type(spec).__name__}"
    path = find_idf_file(os.fspath(spec))
    if path is None:
        if Path(spec).is_dir():
            return "must be none or a readable file: it is a directory"
        where = "" if os.environ.get("ASSAY_IDF_DIR") else " (and $ASSAY_IDF_DIR is not set)"
        return f"must be none or a readable file: no such file{where}"
    if not os.access(path, os.R_OK):
        return "must be none or a readable file: not readable"
    return None


def load_idf_corpus(spec: str, config: Mapping[str, Any]) -> DocumentFrequencies:
    """Read ``idf_corpus``: a df JSON, a captions JSON / text file, or a name in ``$ASSAY_IDF_DIR``."""
    path = find_idf_file(spec)
    if path is None:
        raise KnobError(f"idf_corpus {spec!r}: {idf_corpus_problem(spec)}")
    stat = path.stat()
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size, config["tokenize"], config["lowercase"],
           config["lowercase_mode"], config["max_ngram_order"])
    return _load_idf_cached(key)


@lru_cache(maxsize=8)
def _load_idf_cached(key: tuple[Any, ...]) -> DocumentFrequencies:
    path = Path(key[0])
    config = {"tokenize": key[3], "lowercase": key[4], "lowercase_mode": key[5]}
    max_order = key[6]
    text = read_utf8(path)
    if path.suffix.lower() == ".json":
        doc = parse_json_text(text, str(path))
        if isinstance(doc, dict) and "df" in doc:
            return _df_table_from_json(doc, path)
        groups = parse_annotations(doc, str(path), allow_empty=True)
        captions = list(groups.values())
    else:
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()                      # the final newline ends the last image's line
        captions = [line.split(REF_SEPARATOR) for line in lines]   # every line is one image
        if not captions:
            raise InputError(f"{path}: no reference captions")
    flat = [c for group in captions for c in group]
    toks = caption_tokens(flat, config)
    it = iter(toks)
    image_refs = [[next(it) for _ in group] for group in captions]
    return df_from_token_lists(image_refs, max_order, str(path))


def _df_table_from_json(doc: Mapping[str, Any], path: Path) -> DocumentFrequencies:
    if doc.get("format") not in (None, DF_FORMAT):
        raise InputError(f"{path}: unknown document-frequency format {doc.get('format')!r} (expected {DF_FORMAT})")
    n_images = doc.get("n_images")
    df = doc["df"]
    if not isinstance(n_images, int) or n_images < 1:
        raise InputError(f"{path}: 'n_images' must be a positive integer")
    if not isinstance(df, dict) or not all(isinstance(v, int) and v >= 0 for v in df.values()):
        raise InputError(f"{path}: 'df' must map n-gram strings to non-negative integers")
    too_big = [k for k, v in df.items() if v > n_images]
    if too_big:
        raise InputError(f"{path}: df of {too_big[0]!r} is {df[too_big[0]]}, more than n_images = {n_images}")
    return DocumentFrequencies(n_images, str(path), {" ".join(k.split()): v for k, v in df.items()})
