"""CIDEr's text stage: captions to tokens, and reference streams to (image, reference) pairs.

pycocoevalcap's ``Cider`` splits captions with ``str.split()``; COCOEvalCap runs its
``PTBTokenizer`` (one jar run per batch: all references, then all results) first. ``tokenize=ptb``
reproduces that batch (:func:`ptb_batch`); the other tokenizer names are assay's registry.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from assay.core.errors import InputError
from assay.core.gcpause import collector_paused
from assay.metrics.cider.vectors import split_encode
from assay.core.family import Refs, Segments
from assay.text.ngrams import Encoded, encode
from assay.text.segments import tokenize_segments
from assay.tokenizers import lowercase_text
from assay.tokenizers.ptb import coco_encode_lines, coco_tokenize_lines

PTB = "ptb"


def ptb_batch(captions: Sequence[str]) -> list[str]:
    """pycocoevalcap's ``PTBTokenizer().tokenize`` output strings for one batch, in order.

    The wrapper writes a batch (all references, or all results) to one file and runs the jar once,
    so a caption's tokens can depend on the next caption (a sentence-final abbreviation before a
    capital letter); callers pass captions in the wrapper's order (image order, references in order).
    """
    if not set(map(type, captions)) <= {str}:        # the common case checked at C speed
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
    if not config["lowercase"] and segments and _all_strings(segments):
        if config["tokenize"] == PTB:
            return ptb_encode(segments, vocab)
        if config["tokenize"] == "none":
            return split_encode(segments, vocab)
    return encode(caption_tokens(segments, config), vocab)


def _all_strings(segments: Sequence[Any]) -> bool:
    """Every segment is a ``str`` (exact types checked at C speed first)."""
    return set(map(type, segments)) <= {str} or all(isinstance(s, str) for s in segments)


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
    if n_img and all(len(stream) >= n_img and None not in stream[:n_img] for stream in refs):
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
