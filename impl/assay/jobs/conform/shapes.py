"""Adapters from a protocol case to the common call shapes of in-process metric implementations.

``--shape`` names how a ``direct:module:callable[,sentence_callable]`` is called and how its return
value is read. In every shape a *case* has ``hyps`` (one string per segment) and ``refs``, a list
of reference **streams** (stream k holds the k-th reference of every segment; ``None`` where a
segment has fewer references); ``level`` is ``corpus`` (one score) or ``sentence`` (one score per
segment). What the callable returns may be a number, an object with a ``.score`` attribute, a
tensor or numpy scalar (``.item()``), or a dict; only the headline value is required: components
(precision, recall, counts ...) are compared only where the implementation returns them, so an
implementation that returns F alone (ROUGE) or the score alone passes on its score.

==============  =============================================  =====================================
shape           the callable receives                          and returns
==============  =============================================  =====================================
``protocol``    ``f(case)``: the protocol's case message (a    ``{"score": x, "components": {...}}``
                dict: id, metric, level, hyps, refs, profile,  (``score`` a list at sentence level)
                knobs)                                         or the number itself
``sacrebleu``   ``f(hyps, ref_streams)`` per corpus,           a number or an object with ``.score``
                ``g(hyp, refs_of_segment)`` per sentence; a    (sacrebleu's ``BLEUScore``)
                class is instantiated with no argument and its
                ``corpus_score`` / ``sentence_score`` called
``nltk``        ``f(list_of_references, hypotheses)`` with     a number
                token lists (``str.split()``; per segment the
                list of its references' token lists);
                ``g(references, hypothesis)`` per sentence
``rouge-score`` ``scorer.score(target, prediction)`` per       ``{type: Score(precision, recall,
                document (an object with ``.score``, or the    fmeasure)}``, ``{type: (p, r, f)}``,
                function); several references:                ``{type: {"f": ...}}`` or
                ``scorer.score_multi(targets, prediction)``    ``{type: f}``; the corpus value is
                when it exists, else the best F per type over  the mean per document (rouge-score's
                ``score`` per reference                        convention); the headline is the F
                                                               of the first type the case asks for
``torchmetrics`` ``f(preds, target)``: ``preds`` the           a tensor/number, or a dict of
                hypotheses, ``target`` one list of references  ``<type>_fmeasure`` (``_precision``,
                per segment; a class is instantiated for every ``_recall``) for ROUGE
                call (no state leaks between cases)
``coco``        ``scorer.compute_score(gts, res)`` with        ``(corpus_score, per_image_scores)``;
                ``gts = {i: [refs]}``, ``res = {i: [hyp]}``    a list score (Bleu_1..4) is read by
                                                               its last entry
==============  =============================================  =====================================

Without a sentence callable, a sentence-level case is answered by calling the corpus callable on
each one-segment corpus (torchmetrics' only sentence semantics); in the ``coco`` shape by the
per-image scores of one ``compute_score`` over the whole corpus (pycocoevalcap's own). A case the shape cannot express
raises :class:`ShapeSkip` (reported as skipped, not failed). Examples of each shape, ten lines
each, are in the README ("Wiring an implementation").

Example (``protocol``)::

    def score(case):                       # assay conform direct:mybleu:score --metric bleu
        hyps, streams = case["hyps"], case["refs"]
        refs = [[s[i] for s in streams if s[i] is not None] for i in range(len(hyps))]
        if case["level"] == "sentence":
            return {"score": [my_sentence_bleu(h, r) for h, r in zip(hyps, refs)]}
        return my_corpus_bleu(hyps, refs)  # a number is enough

    score.assay_conform_info = {"name": "mybleu", "metrics": ["bleu"]}   # optional metadata
"""
from __future__ import annotations

import inspect
import re
from statistics import fmean
from typing import Any, Callable

from assay.jobs.conform.protocol import is_number

SHAPES = ("protocol", "sacrebleu", "nltk", "rouge-score", "torchmetrics", "coco")

Result = tuple[Any, dict[str, Any]]      # (score, components)


class ShapeSkip(Exception):
    """The shape cannot express this case (e.g. several references for rouge-score)."""


def to_number(value: Any) -> float:
    """``.score`` attributes, tensors/numpy scalars (``.item()``) and plain numbers."""
    if hasattr(value, "score") and not callable(value.score):
        value = value.score
    if hasattr(value, "item") and callable(value.item):
        value = value.item()
    if isinstance(value, bool):
        raise TypeError(f"expected a number, got {value!r}")
    return float(value)


_ROUGE_KEY = re.compile(r"^rouge[-_]?(\w+?)(?:[-_](fmeasure|precision|recall|f|p|r))?$", re.IGNORECASE)
_CANON = {"l": "rougeL", "lsum": "rougeLsum", "w": "rougeW"}


def rouge_name(key: str) -> str:
    """``rouge-1``/``rouge_l``/``rougeLsum`` -> rouge-score's names (rouge1, rougeL, rougeLsum, ...)."""
    body = key.lower().replace("-", "").replace("_", "")
    if body.startswith("rouge"):
        body = body[5:]
    return _CANON.get(body, "rouge" + body.upper() if body[:1] in "ws" else "rouge" + body)


def prf(value: Any) -> dict[str, float]:
    """A rouge-score Score tuple, an object with precision/recall/fmeasure, or a {p, r, f} dict."""
    if isinstance(value, dict):
        keys = {k.lower()[:1]: v for k, v in value.items()}
        return {k: to_number(keys[k]) for k in ("p", "r", "f") if k in keys}
    if all(hasattr(value, a) for a in ("precision", "recall", "fmeasure")):
        return {"p": to_number(value.precision), "r": to_number(value.recall), "f": to_number(value.fmeasure)}
    if isinstance(value, (tuple, list)) and len(value) == 3:
        return {"p": to_number(value[0]), "r": to_number(value[1]), "f": to_number(value[2])}
    return {"f": to_number(value)}


def rouge_components(result: dict[str, Any]) -> dict[str, dict[str, float]]:
    """Group a ROUGE result dict into ``{type: {p, r, f}}`` (flat torchmetrics keys included)."""
    out: dict[str, dict[str, float]] = {}
    for key, value in result.items():
        m = _ROUGE_KEY.match(str(key))
        if m and m.group(2):
            out.setdefault(rouge_name(f"rouge{m.group(1)}"), {})[m.group(2)[0].lower()] = to_number(value)
        else:
            out[rouge_name(str(key))] = prf(value)
    return out


def rouge_value(components: dict[str, dict[str, float]], case: dict[str, Any]) -> float:
    types = [t.strip() for t in str((case.get("knobs") or {}).get("types", "")).split(",") if t.strip()]
    for t in types or list(components):
        if t in components and "f" in components[t]:
            return components[t]["f"]
    raise ShapeSkip(f"the implementation reports {sorted(components)}, the case asks for {types}")


def read_result(value: Any, case: dict[str, Any]) -> Result:
    """Score and components from whatever the callable returned."""
    if isinstance(value, dict):
        if "score" in value and not isinstance(value["score"], dict):
            score = value["score"]
            score = [to_number(v) for v in score] if isinstance(score, list) else to_number(score)
            return score, dict(value.get("components") or {})
        comps = rouge_components(value)
        return rouge_value(comps, case), comps
    return to_number(value), {}


def _instance(obj: Any) -> Any:
    return obj() if inspect.isclass(obj) else obj


def _method(obj: Any, *names: str) -> Callable[..., Any]:
    for name in names:
        if hasattr(obj, name) and not inspect.isclass(obj):
            return getattr(obj, name)
    return obj


def _tokens(segment: Any) -> list[str]:
    """NLTK-style token list: ``str.split()`` of a string; a pre-tokenised segment as it is."""
    return list(segment) if isinstance(segment, (list, tuple)) else segment.split()


def _seg_refs(refs: list[list[Any]], i: int) -> list[str]:
    return [s[i] for s in refs if s[i] is not None]


class DirectShape:
    """Calls an in-process implementation in one shape; ``__call__(case) -> (score, components)``."""

    def __init__(self, shape: str, corpus: Any, sentence: Any | None = None):
        if shape not in SHAPES:
            raise ValueError(f"unknown shape {shape!r}; known: {', '.join(SHAPES)}")
        self.shape, self.corpus_obj, self.sentence_obj = shape, corpus, sentence

    def __call__(self, case: dict[str, Any]) -> Result:
        if self.shape == "protocol":
            return read_result(self.corpus_obj(case), case)
        hyps, refs = case["hyps"], case["refs"]
        if case["level"] == "corpus":
            return self._corpus(hyps, refs, case)
        if self.sentence_obj is None and self.shape == "coco":
            return self._coco_per_image(hyps, refs), {}
        if self.sentence_obj is None:
            pairs = [self._corpus([h], [[s[i]] for s in refs], case) for i, h in enumerate(hyps)]
        else:
            pairs = [self._sentence(h, refs, i, case) for i, h in enumerate(hyps)]
        return [p[0] for p in pairs], _transpose([p[1] for p in pairs])

    # ------------------------------------------------------------------ corpus calls
    def _corpus(self, hyps: list[str], refs: list[list[Any]], case: dict[str, Any]) -> Result:
        shape = self.shape
        if shape == "sacrebleu":
            obj = _instance(self.corpus_obj)
            return read_result(_method(obj, "corpus_score")(hyps, refs), case)
        if shape == "nltk":
            lists = [[_tokens(r) for r in _seg_refs(refs, i)] for i in range(len(hyps))]
            return read_result(self.corpus_obj(lists, [_tokens(h) for h in hyps]), case)
        if shape == "torchmetrics":
            fn = _instance(self.corpus_obj)
            return read_result(fn(list(hyps), [_seg_refs(refs, i) for i in range(len(hyps))]), case)
        if shape == "coco":
            obj = _instance(self.corpus_obj)
            gts = {i: _seg_refs(refs, i) for i in range(len(hyps))}
            res = {i: [h] for i, h in enumerate(hyps)}
            score, _ = _method(obj, "compute_score")(gts, res)
            return _coco_value(score)
        if shape == "rouge-score":
            docs = [self._rouge_doc(self.corpus_obj, _seg_refs(refs, i), h) for i, h in enumerate(hyps)]
            comps = {t: {k: fmean(d[t][k] for d in docs) for k in docs[0][t]} for t in docs[0]}
            return rouge_value(comps, case), comps
        raise AssertionError(shape)

    @staticmethod
    def _rouge_doc(fn: Any, targets: list[str], prediction: str) -> dict[str, dict[str, float]]:
        """One document's ``{type: {p, r, f}}``: ``score(target, prediction)`` for one reference;
        for several, ``score_multi(targets, prediction)`` when the object has it, else ``score``
        per reference keeping, per type, the reference with the highest F (what rouge-score's
        ``score_multi`` does)."""
        obj = _instance(fn)
        if not targets:
            raise ShapeSkip("a document without any reference")
        if len(targets) > 1 and hasattr(obj, "score_multi") and not inspect.isclass(obj):
            return rouge_components(obj.score_multi(targets, prediction))
        score = _method(obj, "score")
        best: dict[str, dict[str, float]] = {}
        for target in targets:
            for t, prf_ in rouge_components(score(target, prediction)).items():
                if t not in best or prf_.get("f", 0.0) > best[t].get("f", 0.0):
                    best[t] = prf_
        return best

    def _coco_per_image(self, hyps: list[str], refs: list[list[Any]]) -> list[float]:
        """pycocoevalcap's per-image scores: the second value of one ``compute_score`` over the
        whole corpus (CIDEr's idf is the corpus's, so scoring images one by one would differ);
        a list per order (Bleu) is read by its last order."""
        obj = _instance(self.corpus_obj)
        _, per_image = _method(obj, "compute_score")({i: _seg_refs(refs, i) for i in range(len(hyps))},
                                                      {i: [h] for i, h in enumerate(hyps)})
        rows = list(per_image)
        if rows and isinstance(rows[0], (list, tuple)) or (rows and hasattr(rows[0], "__len__")
                                                           and len(rows) != len(hyps)):
            rows = list(rows[-1])
        return [to_number(v) for v in rows]

    # ------------------------------------------------------------------ sentence calls
    def _sentence(self, hyp: str, refs: list[list[Any]], i: int, case: dict[str, Any]) -> Result:
        shape, fn = self.shape, self.sentence_obj
        seg = _seg_refs(refs, i)
        if shape == "sacrebleu":
            return read_result(_method(_instance(fn), "sentence_score")(hyp, seg), case)
        if shape == "nltk":
            return read_result(fn([_tokens(r) for r in seg], _tokens(hyp)), case)
        if shape == "torchmetrics":
            return read_result(_instance(fn)([hyp], [seg]), case)
        if shape == "coco":
            _, scores = _method(_instance(fn), "compute_score")({0: seg}, {0: [hyp]})
            return _coco_value(list(scores)[0] if not isinstance(scores, (int, float)) else scores)
        if shape == "rouge-score":
            comps = self._rouge_doc(fn, seg, hyp)
            return rouge_value(comps, case), comps
        raise AssertionError(shape)


def _coco_value(score: Any) -> Result:
    if isinstance(score, (list, tuple)):
        values = [to_number(v) for v in score]
        return values[-1], {f"Bleu_{n}": v for n, v in enumerate(values, 1)}
    return to_number(score), {}


def _transpose(components: list[dict[str, Any]]) -> dict[str, Any]:
    """Per-segment component dicts -> one list per component (the fixtures' sentence layout)."""
    if not components or not components[0]:
        return {}
    keys = set(components[0])
    if any(set(c) != keys for c in components):
        return {}
    return {k: [c[k] for c in components] for k in keys}


def finite(score: Any) -> bool:
    """A number, or a flat list of numbers, that are finite doubles (the protocol's scores)."""
    if isinstance(score, list):
        return all(is_number(s) for s in score)
    return is_number(score)
