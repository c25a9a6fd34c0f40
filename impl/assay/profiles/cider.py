"""CIDEr profiles: pycocoevalcap's CIDEr-D, the original CIDEr of the paper, and the authors' code."""
from __future__ import annotations

from assay.profiles.audit import AuditGrid, AuditHint
from assay.profiles.registry import Profile

_COCO = dict(tokenize="none", lowercase=False, lowercase_mode="unicode", max_ngram_order=4, clipping=True,
             length_penalty_sigma=6.0, length_unit="bigrams", scale=10.0, no_reference_ngrams="error",
             idf_corpus=None)

PROFILES: tuple[Profile, ...] = (
    Profile(
        "cider", "coco", "pycocoevalcap", ("1.2",), _COCO,
        "pycocoevalcap Cider (CIDEr-D): str.split() of pre-tokenised captions (COCOEvalCap runs PTBTokenizer "
        "first: tokenize=ptb), idf over the evaluated references (one image scores 0), clipping, Gaussian length "
        "penalty sigma 6 on bigram counts, x10, mean over images.",
        command="pycocoevalcap.cider.cider.Cider().compute_score(gts, res)",
        audit=AuditHint(0.0, grids=(AuditGrid(dict(tokenize=("ptb", "none"), lowercase=(False, True))),),
                        standard_for=("plain", "captions"), standard_knobs={"tokenize": "ptb"})),
    Profile(
        "cider", "vedantam2015", "CIDEr (Vedantam et al. 2015, seed 004)", ("seed-004",),
        dict(_COCO, clipping=False, length_penalty_sigma=None, scale=1.0, no_reference_ngrams="zero"),
        "Original CIDEr: mean over n = 1..4 of the mean tf-idf cosine over references; no clipping, no length "
        "penalty, no factor 10; idf over the evaluated references (an n-gram no reference has: df taken as 1).",
        command="CIDEr_n(c_i, S_i) of Vedantam et al. 2015, eq. 4.1-4.3, averaged over n = 1..4 "
                "(the worked formula of seed 004; no tool)",
        audit=AuditHint(1.0, grids=(AuditGrid(dict(tokenize=("ptb", "none"), lowercase=(False, True))),))),
    Profile(
        "cider", "vrama91", "vrama91/cider (the CIDEr authors' code, class Cider)", ("vrama91/cider@f281464",),
        dict(_COCO, clipping=False, length_penalty_sigma=None, scale=10.0),
        "The CIDEr authors' reference code (github vrama91/cider, Python 2; run through 2to3), Cider with "
        "df='corpus': the original CIDEr of vedantam2015 times 10.",
        command="pyciderevalcap.cider.cider.Cider().compute_score(gts, res) with gts = {id: [refs]}, "
                "res = [{'image_id': id, 'caption': [hyp]}] (vrama91/cider@f281464 through 2to3)",
        audit=AuditHint(1.0, grids=(AuditGrid(dict(tokenize=("ptb", "none"), lowercase=(False, True))),))),
)

DEFAULT = "coco"
