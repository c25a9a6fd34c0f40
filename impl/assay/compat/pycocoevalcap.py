"""pycocoevalcap-1.2-shaped scorers computed by assay, Java-free: ``Bleu``, ``Cider``, ``CiderD``,
``Rouge``, ``Meteor`` with ``compute_score(gts, res)``, and ``PTBTokenizer().tokenize``.

Code written against pycocoevalcap switches by changing the import::

    from assay.compat.pycocoevalcap import Bleu, Cider, PTBTokenizer
    tok = PTBTokenizer()
    gts, res = tok.tokenize(gts_captions), tok.tokenize(res_captions)   # {id: [{"caption": ...}]}
    score, per_image = Cider().compute_score(gts, res)

``gts`` is ``{image_id: [reference, ...]}`` and ``res`` ``{image_id: [hypothesis]}`` (exactly one),
with the same keys; per-image scores follow the order of ``gts``'s keys, as pycocoevalcap's do.
Captions are scored as given (COCOEvalCap tokenises them with ``PTBTokenizer`` first): Bleu and
Cider split them with ``str.split()``, Rouge with ``split(" ")``, Meteor normalises them as the
METEOR 1.5 jar's ``-norm``. Each scorer is an assay profile:

- ``Bleu(n)``: ``bleu/coco`` (BleuScorer's epsilons, closest reference length) -> ``([Bleu_1..n],
  [[per-image Bleu_1], ...])``; with ``verbose=1`` (the default, as pycocoevalcap) it prints the
  corpus counts dict and ``ratio:`` line on stdout;
- ``Cider(n=4, sigma=6.0)``: ``cider/coco``, CIDEr-D with idf over the evaluated references ->
  ``(np.float64, np.ndarray)``. ``CiderD`` is the same scorer: pycocoevalcap 1.2 has no ``CiderD``
  class, its ``Cider`` *is* CIDEr-D (clipping, Gaussian length penalty sigma 6, x10; the original
  CIDEr is assay's ``cider/vedantam2015`` profile); ``CiderD`` names it for code written against
  the coco-caption forks (``pyciderevalcap``) that export both;
- ``Rouge()``: ``rouge/coco`` (max P and max R over references, F_beta 1.2) -> ``(np.float64, np.ndarray)``;
- ``Meteor()``: ``meteor/meteor-1.5`` (assay's clean-room METEOR 1.5 as pycocoevalcap runs the jar;
  resources from the installed pycocoevalcap or ``$ASSAY_METEOR_DATA``) -> ``(float, [floats])``;
- ``PTBTokenizer().tokenize({image_id: [{"caption": str}, ...]})`` -> ``{image_id: [tokenised str]}``:
  assay's clean-room Stanford PTB tokenizer (``assay.tokenizers.ptb``) plus the wrapper's
  lowercasing and punctuation removal, all captions as one batch in dict order, as the wrapper.

Where pycocoevalcap fails with a bare ``AssertionError`` (different keys, not exactly one
hypothesis), this raises :class:`assay.core.errors.InputError` naming the image.
"""
from __future__ import annotations

from typing import Any, Hashable, Mapping, Sequence

import numpy as np

from assay.core.errors import InputError
from assay.core.score import Score as AssayScore, SentenceScores
from assay.engine import api
from assay.tokenizers.ptb import coco_tokenize_lines

__all__ = ["Bleu", "Cider", "CiderD", "Rouge", "Meteor", "PTBTokenizer"]


def _aligned(gts: Any, res: Any) -> tuple[list[Hashable], list[str], list[list[str]]]:
    """Image ids in ``gts`` order, one hypothesis per image, its references (checked)."""
    if not isinstance(gts, Mapping) or not isinstance(res, Mapping):
        raise InputError("compute_score(gts, res) takes two dicts: {image_id: [references]} and "
                         "{image_id: [hypothesis]}")
    if gts.keys() != res.keys():
        only_g = [k for k in gts if k not in res][:3]
        only_r = [k for k in res if k not in gts][:3]
        raise InputError(f"gts and res must have the same image ids: only in gts {only_g}, only in res {only_r}")
    if not gts:
        raise InputError("no images to score")
    ids = list(gts.keys())
    hyps, refs = [], []
    for key in ids:
        hypo, ref = res[key], gts[key]
        if not isinstance(hypo, list) or len(hypo) != 1 or not isinstance(hypo[0], str):
            raise InputError(f"res[{key!r}] must be a list holding exactly one caption string, got {hypo!r:.60}")
        if not isinstance(ref, list) or not ref or not all(isinstance(r, str) for r in ref):
            raise InputError(f"gts[{key!r}] must be a non-empty list of caption strings, got {ref!r:.60}")
        hyps.append(hypo[0])
        refs.append(list(ref))
    return ids, hyps, refs


def _corpus_and_images(metric: str, profile: str, hyps: Sequence[Any], refs: Sequence[Sequence[Any]],
                       **knobs: Any) -> tuple[AssayScore, SentenceScores]:
    """The corpus score and each image's score (its sentence configuration, when the profile has
    sentence-level knobs) from one statistics pass per configuration."""
    stats, config, prof, _ = api.compute_stats(metric, hyps, refs, profile, refs_orientation="segments", **knobs)
    corpus = api.score_from_stats(metric, stats, config, prof, "1")
    configured = api.configure(metric, profile, "sentence", **knobs)
    if prof.sentence_knobs:
        stats = api.compute_stats(metric, hyps, refs, profile, level="sentence", refs_orientation="segments",
                                  **knobs)[0]
    return corpus, api.sentence_scores_from_stats(configured, stats, "1")


def _split(captions: Sequence[str]) -> list[list[str]]:
    return [c.split() for c in captions]


class Bleu:
    """pycocoevalcap's ``Bleu(n)``: cumulative Bleu_1..Bleu_n (profile ``bleu/coco``)."""

    def __init__(self, n: int = 4):
        self._n = n

    def compute_score(self, gts: Mapping[Any, list[str]], res: Mapping[Any, list[str]],
                      verbose: int = 1) -> tuple[list[float], list[list[float]]]:
        """``([Bleu_1..Bleu_n], [[Bleu_k of each image] for k in 1..n])``."""
        _, hyps, refs = _aligned(gts, res)
        corpus, images = _corpus_and_images("bleu", "coco", _split(hyps), [_split(r) for r in refs],
                                            max_ngram_order=self._n)
        c = corpus.components
        if verbose == 1:
            print({"testlen": int(c["sys_len"]), "reflen": int(c["ref_len"]),
                   "guess": [int(x) for x in c["totals"]], "correct": [int(x) for x in c["counts"]]})
            print("ratio:", float(c["ratio"]))
        score = [float(c[f"Bleu_{k}"]) for k in range(1, self._n + 1)]
        per_image = [[float(s.components[f"Bleu_{k}"]) for s in images] for k in range(1, self._n + 1)]
        return score, per_image

    def method(self) -> str:
        return "Bleu"


class Cider:
    """pycocoevalcap's ``Cider`` (CIDEr-D; profile ``cider/coco``)."""

    def __init__(self, test: Any = None, refs: Any = None, n: int = 4, sigma: float = 6.0):
        self._n = n
        self._sigma = sigma

    def compute_score(self, gts: Mapping[Any, list[str]], res: Mapping[Any, list[str]]) -> tuple[Any, Any]:
        """``(corpus CIDEr-D, np.array of per-image CIDEr-D)``."""
        _, hyps, refs = _aligned(gts, res)
        corpus, images = _corpus_and_images("cider", "coco", _split(hyps), [_split(r) for r in refs],
                                            max_ngram_order=self._n, length_penalty_sigma=self._sigma)
        return np.float64(corpus.value), np.array([s.value for s in images], dtype=np.float64)

    def method(self) -> str:
        return "CIDEr"


class CiderD(Cider):
    """CIDEr-D: the same scorer as :class:`Cider` (pycocoevalcap 1.2's ``Cider`` is CIDEr-D)."""

    def method(self) -> str:
        return "CIDEr-D"


class Rouge:
    """pycocoevalcap's ``Rouge`` (ROUGE-L, F_beta 1.2; profile ``rouge/coco``)."""

    def compute_score(self, gts: Mapping[Any, list[str]], res: Mapping[Any, list[str]]) -> tuple[Any, Any]:
        """``(mean per-image F, np.array of per-image F)``."""
        _, hyps, refs = _aligned(gts, res)
        _, images = _corpus_and_images("rouge", "coco", hyps, refs)
        per_image = np.array([s.components["rougeL"]["f"] for s in images], dtype=np.float64)
        return np.mean(per_image), per_image

    def method(self) -> str:
        return "Rouge"


class Meteor:
    """pycocoevalcap's ``Meteor`` (METEOR 1.5, ``-l en -norm``; profile ``meteor/meteor-1.5``), Java-free."""

    def compute_score(self, gts: Mapping[Any, list[str]], res: Mapping[Any, list[str]]
                      ) -> tuple[float, list[float]]:
        """``(corpus METEOR from the summed statistics, [per-image METEOR])``."""
        _, hyps, refs = _aligned(gts, res)
        corpus, images = _corpus_and_images("meteor", "meteor-1.5", hyps, refs)
        return float(corpus.value), [float(s.value) for s in images]

    def method(self) -> str:
        return "METEOR"


class PTBTokenizer:
    """pycocoevalcap's ``PTBTokenizer`` without Java (see the module docstring)."""

    def tokenize(self, captions_for_image: Mapping[Any, Sequence[Mapping[str, Any]]]) -> dict[Any, list[str]]:
        """``{image_id: [{"caption": str}, ...]}`` -> ``{image_id: [tokenised caption, ...]}``."""
        if not isinstance(captions_for_image, Mapping):
            raise InputError("PTBTokenizer.tokenize takes {image_id: [{'caption': str}, ...]}")
        owners, captions = [], []
        for key, entries in captions_for_image.items():
            if isinstance(entries, (str, Mapping)) or not isinstance(entries, Sequence):
                raise InputError(f"image {key!r}: expected a list of {{'caption': str}} dicts")
            for entry in entries:
                caption = entry.get("caption") if isinstance(entry, Mapping) else None
                if not isinstance(caption, str):
                    raise InputError(f"image {key!r}: every entry needs a 'caption' string, got {entry!r:.60}")
                owners.append(key)
                captions.append(caption)
        out: dict[Any, list[str]] = {}
        for key, line in zip(owners, coco_tokenize_lines(captions)):
            out.setdefault(key, []).append(line)
        return out
