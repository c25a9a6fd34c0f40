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
from typing import Any, Mapping, Sequence

import numpy as np

from assay.core.coco_json import parse_annotations, parse_json_text
from assay.core.errors import InputError, KnobError
from assay.core.io import read_utf8
from assay.text.gram_index import GramIndex, LocalGrams
from assay.text.ngram_table import NgramTable
from assay.metrics.cider.tokens import caption_tokens
from assay.metrics.cider.vectors import image_df
from assay.text.ngram_codes import Coded, code_ngrams
from assay.text.ngrams import Encoded, encode

DF_FORMAT = "assay-cider-df/1"
REF_SEPARATOR = " ||| "


@dataclass
class DocumentFrequencies:
    """The corpus context: the number of images and the df of every n-gram.

    Built from the evaluated references (the toolkit) or loaded from ``idf_corpus``. ``ngrams`` is
    the integer form, what the rows read (a :class:`~assay.text.gram_index.GramIndex` made chunk by
    chunk, or the :class:`~assay.text.ngram_table.NgramTable` of a corpus scored in one call);
    ``table`` the string form (``"w1 w2"`` -> #images), each made from the other on first use.
    """

    n_images: int
    source: str
    ngrams: GramIndex | NgramTable | None = None
    _table: dict[str, int] | None = field(default=None, repr=False)

    @property
    def table(self) -> dict[str, int]:
        if self._table is None:
            self._table = {} if self.ngrams is None else {
                s: v for strings, values in zip(self.ngrams.strings(), self.ngrams.values)
                for s, v in zip(strings, values.tolist()) if v}
        return self._table

    def frequencies(self, tokens: Sequence[str], coded: Coded, max_order: int) -> list[np.ndarray]:
        """The df of every local code of ``coded`` (captions interned as ``tokens``), 0 where absent."""
        if self.ngrams is None:
            self.ngrams = table_from_strings(self._table or {})
        return self.ngrams.lookup(tokens, coded.prefix, coded.last, max_order)

    def to_json(self) -> dict[str, Any]:
        return {"format": DF_FORMAT, "n_images": self.n_images, "source": self.source, "df": self.table}


def reference_frequencies(side: Encoded, tokens: Sequence[str], owner: np.ndarray, max_order: int) -> LocalGrams:
    """The df of every n-gram of a reference set interned as ``tokens`` (reference k belongs to image
    ``owner[k]``), in the set's own coding."""
    coded = code_ngrams(side.ids, side.offsets, max_order, len(tokens))
    return LocalGrams(tokens, coded.prefix, coded.last, image_df(coded, side.offsets, 0, owner))


def df_from_token_lists(image_refs: Sequence[Sequence[Sequence[str]]], max_order: int, source: str
                        ) -> DocumentFrequencies:
    """Document frequencies of a reference set: each image's n-gram set counts once."""
    flat = [r for refs in image_refs for r in refs]
    owner = np.repeat(np.arange(len(image_refs)), [len(refs) for refs in image_refs]).astype(np.int64)
    vocab: dict[str, int] = {}
    side = encode(flat, vocab)
    return DocumentFrequencies(len(image_refs), source,
                               GramIndex.of(reference_frequencies(side, list(vocab), owner, max_order)))


def table_from_strings(table: Mapping[str, int]) -> NgramTable:
    """The integer form of a df table keyed by ``"w1 w2 .. wn"`` (absent prefixes get df 0)."""
    levels: list[dict[tuple[str, ...], int]] = []
    vocab: dict[str, int] = {}
    for key, value in table.items():
        gram = tuple(key.split())
        while len(levels) < len(gram):
            levels.append({})
        for n in range(1, len(gram)):
            levels[n - 1].setdefault(gram[:n], 0)
        if gram:
            levels[len(gram) - 1][gram] = value
        for tok in gram:
            vocab.setdefault(tok, len(vocab))
    size = max(len(vocab), 1)
    keys = [np.arange(len(vocab), dtype=np.int64)]
    values = [np.zeros(len(vocab), dtype=np.int64)]
    codes: dict[tuple[str, ...], int] = {}
    for gram, value in (levels[0].items() if levels else ()):
        values[0][vocab[gram[0]]] = value
    for tok, i in vocab.items():
        codes[(tok,)] = i
    for level in levels[1:]:
        grams = list(level)
        packed = np.array([codes[g[:-1]] * size + vocab[g[-1]] for g in grams], dtype=np.int64)
        order = np.argsort(packed)
        keys.append(packed[order])
        values.append(np.array([level[g] for g in grams], dtype=np.int64)[order])
        codes = {grams[k]: rank for rank, k in enumerate(order.tolist())}
    return NgramTable(list(vocab), keys, values)


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
    return DocumentFrequencies(n_images, str(path), None, {" ".join(k.split()): v for k, v in df.items()})
