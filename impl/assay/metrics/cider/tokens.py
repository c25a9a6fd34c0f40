"""CIDEr's text stage: captions to tokens, and reference streams to (image, reference) pairs.

pycocoevalcap's ``Cider`` splits captions with ``str.split()``; COCOEvalCap runs its
``PTBTokenizer`` (one jar run per batch: all references, then all results) first. ``tokenize=ptb``
reproduces that batch (:func:`ptb_batch`); the other tokenizer names are assay's registry.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from assay.core.errors import InputError, UnchunkableInput
from assay.core.gcpause import collector_paused
from assay.core.items import has_none, only_strings
from assay.metrics.cider.vectors import split_encode, split_encode_exact, split_encode_py
from assay.core.family import Refs, Segments
from assay.text.ngrams import Encoded, encode
from assay.text.segments import tokenize_segments
from assay.tokenizers import lowercase_text
from assay.tokenizers.ptb import coco_encode_lines, coco_tokenize_lines, has_line_breaks

PTB = "ptb"


def ptb_batch(captions: Sequence[str]) -> list[str]:
    """pycocoevalcap's ``PTBTokenizer().tokenize`` output strings for one batch, in order.

    The wrapper writes a batch (all references, or all results) to one file and runs the jar once,
    so a caption's tokens can depend on the next caption (a sentence-final abbreviation before a
    capital letter); callers pass captions in the wrapper's order (image order, references in order).
    """
    if not only_strings(captions):                    # the common case checked at C speed
        for i, c in enumerate(captions):
            if not isinstance(c, str):
                raise InputError(f"caption {i + 1}: expected a string or a list of tokens, got {type(c).__name__}")
    return coco_tokenize_lines(list(captions))


def ptb_encode(captions: Sequence[str], vocab: dict[str, int]) -> Encoded:
    """``split_encode(ptb_batch(captions), vocab)`` (the specification); the PTB tokenizer's compiled
    twin goes from the captions to token ids directly, without the output strings
    (:func:`assay.tokenizers.ptb.coco_encode_lines`; equal ids, offsets and vocabulary)."""
    got = coco_encode_lines(captions, vocab)
    if got is None:
        return split_encode(ptb_batch(captions), vocab)
    return Encoded(*got)


def caption_side(segments: Sequence[Any], config: Mapping[str, Any], vocab: dict[str, int]) -> Encoded:
    """The captions' tokens (:func:`caption_tokens`) interned into ``vocab``. When the tokens are the
    ``str.split()`` of strings (pre-tokenised captions, or the PTB wrapper's output) no token list
    is made (:func:`assay.metrics.cider.vectors.split_encode`)."""
    if not config["lowercase"] and segments:
        if config["tokenize"] == "none":
            got = split_encode_exact(segments, vocab)    # no pass of its own over the captions first
            if got is not None:
                return got
            if _all_strings(segments):                   # a str subclass: the twin handed it back
                return split_encode_py(segments, vocab)
        elif config["tokenize"] == PTB and _all_strings(segments):
            return ptb_encode(segments, vocab)
    return encode(caption_tokens(segments, config), vocab)


def caption_side_before(segments: Sequence[Any], config: Mapping[str, Any], vocab: dict[str, int],
                        after: Any = None) -> Encoded:
    """:func:`caption_side` of ``segments`` as part of a longer wrapper batch: under PTB tokenised with
    ``after`` (the caption that follows them in the batch; None: the batch ends with them) as the jar's
    next line, the only context it reads across a line end, whose tokens are then dropped."""
    if after is None or config["tokenize"] != PTB:
        return caption_side(segments, config, vocab)
    side = caption_side([*segments, after], config, vocab)
    return Encoded(side.ids[:int(side.offsets[-2])], side.offsets[:-1])


def caption_parts(segments: Sequence[Any], config: Mapping[str, Any], vocab: dict[str, int],
                  bounds: Sequence[tuple[int, int]], after: Any = None) -> list[Encoded]:
    """:func:`caption_side` of ``segments`` part by part (``bounds``: consecutive ``(start, end)`` pairs
    covering it), each part's ids in the narrowest integer dtype (1, 2 or 4 bytes a token: what a large
    corpus keeps between CIDEr's two passes) and its offsets in int32, the transient data of one part
    at a time.

    Each part holds the tokens of its slice of ``caption_side(segments, ...)`` (its ids may be numbered
    otherwise; nothing reads the numbering). Under ``tokenize=ptb`` the captions are one wrapper batch
    (followed by ``after``, when they are a chunk of a longer one), where a caption's tokens can depend
    on the next line (a sentence-final abbreviation before a capital, ``No.`` before a number; the jar
    reads no further and keeps no other state): a part is tokenised with the caption after it as its
    last line (:func:`caption_side_before`). A caption holding a line break other than ``\\n`` shifts
    the wrapper's pairing of every later caption (KD-PTB-02): then the batch is tokenised whole and cut
    (:func:`check_chunkable`: not when a longer batch follows)."""
    ptb = config["tokenize"] == PTB
    if ptb and has_line_breaks(segments):
        check_chunkable(segments, ahead=after is not None)
        whole = caption_side(segments, config, vocab)
        return [narrow(Encoded(whole.ids[int(whole.offsets[a]):int(whole.offsets[b])],
                                whole.offsets[a:b + 1] - whole.offsets[a]), len(vocab)) for a, b in bounds]
    return [narrow(caption_side_before(segments[a:b], config, vocab, segments[b] if b < len(segments) else after),
                   len(vocab)) for a, b in bounds]


#: why a PTB corpus with a line break inside a caption is not scored in chunks (:func:`check_chunkable`)
LINE_BREAK_IN_CHUNK = ("a caption holds a line break other than \\n (\\r, U+2028 or U+2029): the PTB wrapper then "
                       "pairs every later caption with the jar's output for the line before it (KD-PTB-02), so its "
                       "batch must be tokenised whole, not in chunks or shards (the default engine then reads the corpus "
                       "whole; --engine dask cannot)")


def check_chunkable(*batches: Sequence[Any], ahead: bool) -> None:
    """:class:`UnchunkableInput` when a chunk followed by more of its wrapper batches (``ahead``) has a
    caption holding a line break other than ``\\n``: every later caption's output line shifts
    (KD-PTB-02), across the chunk's end. (A corpus's last chunk may hold one: nothing after it shifts.)"""
    if ahead and any(has_line_breaks(b) for b in batches):
        raise UnchunkableInput(LINE_BREAK_IN_CHUNK)


def split_next(hyps: Segments, refs: Refs) -> tuple[Segments, list[Sequence[Any]], tuple[Any, Any]]:
    """A chunk handed with the segment after it (``ahead=True``: ``MetricFamily.chunks_with_lookahead``)
    as the chunk proper, its reference streams, and the next caption of each wrapper batch: the next
    image's hypothesis and its first reference (the references' batch is image-major; None when it
    has none: an image without a reference is an error of the next chunk anyway)."""
    n = len(hyps) - 1
    first_ref = next((s[n] for s in refs if s[n] is not None), None)
    return hyps[:n], [s[:n] for s in refs], (hyps[n], first_ref)


def narrow(side: Encoded, vocab_size: int) -> Encoded:
    """``side`` as a right-sized copy in the narrowest dtypes that hold it: ids below ``vocab_size`` in
    uint8, uint16 or int32, offsets in int32 (as it is when they do not fit)."""
    if vocab_size >= 2 ** 31 or (len(side.offsets) and int(side.offsets[-1]) >= 2 ** 31):
        return side
    ids = np.uint8 if vocab_size <= 2 ** 8 else np.uint16 if vocab_size <= 2 ** 16 else np.int32
    return Encoded(side.ids.astype(ids), side.offsets.astype(np.int32))


def _all_strings(segments: Sequence[Any]) -> bool:
    """Every segment is a ``str`` (exact types checked at C speed first)."""
    return only_strings(segments) or all(isinstance(s, str) for s in segments)


def caption_tokens(segments: Sequence[Any], config: Mapping[str, Any]) -> list[list[str]]:
    """Tokens of each caption under the ``tokenize``/``lowercase`` knobs (``ptb``: PTB on the whole
    list as one wrapper batch, then split()). The token lists are acyclic: the cyclic collector is
    paused while they are made (:func:`assay.core.gcpause.collector_paused`)."""
    with collector_paused():
        return _caption_tokens(segments, config)


def _caption_tokens(segments: Sequence[Any], config: Mapping[str, Any]) -> list[list[str]]:
    if config["tokenize"] == PTB and not is_token_lists(segments):
        out = [s.split() for s in ptb_batch(segments)]
        if config["lowercase"]:
            out = [[lowercase_text(t, config["lowercase_mode"]) for t in toks] for toks in out]
        return out
    if config["tokenize"] in (PTB, "none") and not config["lowercase"] and is_token_lists(segments):
        return list(segments)                     # token lists as given (read only; no per-caption copy)
    if config["tokenize"] == PTB:
        config = {**config, "tokenize": "none"}   # token lists are already tokenised
    if config["tokenize"] == "none" and not config["lowercase"] and all(isinstance(s, str) for s in segments):
        return [s.split() for s in segments]      # the toolkit's str.split(), without per-line dispatch
    return tokenize_segments(segments, config)


def is_token_lists(segments: Sequence[Any]) -> bool:
    """True when every (non-missing) segment is already a list or tuple of tokens."""
    return bool(segments) and all(isinstance(s, (list, tuple)) for s in segments if s is not None)


def group_refs(hyps: Segments, refs: Refs) -> tuple[list[Any], np.ndarray]:
    """Flatten reference streams into one list of (image, reference) pairs, image-major.

    Returns the references and, per reference, its image index. Missing references (None) are
    skipped; an image left without any reference is an :class:`InputError` (pycocoevalcap
    asserts ``len(refs) > 0``).
    """
    n_img = len(hyps)
    if not refs:
        raise InputError("no reference streams")
    if n_img and all(len(stream) == n_img and not has_none(stream) for stream in refs):
        # no missing reference: image-major order is the streams interleaved (slice assignment, C speed)
        width = len(refs)
        flat: list[Any] = [None] * (n_img * width)
        for k, stream in enumerate(refs):
            flat[k::width] = stream[:n_img]
        return flat, np.repeat(np.arange(n_img, dtype=np.int64), width)
    # image-major order: zip the streams (one tuple of references per image), drop the Nones
    per_image = list(zip(*(stream[:n_img] for stream in refs)))
    flat = [r for group in per_image for r in group if r is not None]
    counts = np.array([len(g) - g.count(None) for g in per_image], dtype=np.int64) if per_image else \
        np.zeros(0, dtype=np.int64)
    if len(counts) < n_img or (counts == 0).any():
        i = int(np.flatnonzero(counts == 0)[0]) if (counts == 0).any() else len(counts)
        raise InputError(f"image {i + 1} has no reference caption (CIDEr needs at least one per image)")
    return flat, np.repeat(np.arange(n_img, dtype=np.int64), counts)
