"""COCO composite profiles: COCOEvalCap's whole pipeline, and its scorers on pre-tokenised captions."""
from __future__ import annotations

from assay.profiles.registry import Profile

_PIPELINE = dict(tokenize="ptb", lowercase=False, lowercase_mode="unicode", bleu_ref_length="closest",
                 rouge_beta=1.2, idf_corpus=None, meteor="auto")

PROFILES: tuple[Profile, ...] = (
    Profile(
        "coco", "pycocoevalcap", "pycocoevalcap", ("1.2",), _PIPELINE,
        "COCOEvalCap.evaluate(): PTBTokenizer, then Bleu(4) (closest), Rouge (beta 1.2, max P and max R), "
        "Cider (CIDEr-D), Meteor (the meteor/meteor-1.5 profile; meteor=off omits it). Value = CIDEr.",
        command="pycocoevalcap.eval.COCOEvalCap(coco, coco_res).evaluate() without Spice: PTBTokenizer().tokenize"
                "(gts) and .tokenize(res), then Bleu(4), Meteor(), Rouge(), Cider() .compute_score(gts, res)"),
    Profile(
        "coco", "pretokenized", "pycocoevalcap", ("1.2",), dict(_PIPELINE, tokenize="none"),
        "pycocoevalcap's scorers on captions the caller already tokenised (no PTBTokenizer): Bleu(4), Rouge, Cider.",
        command="pycocoevalcap 1.2: Bleu(4), Meteor(), Rouge(), Cider() .compute_score(gts, res) on gts = "
                "{i: [refs of image i]}, res = {i: [hyp i]} (captions as given)"),
)

DEFAULT = "pycocoevalcap"
