"""ROUGE profiles: rouge-score 0.1.2 (default), ROUGE-1.5.5.pl and pycocoevalcap's Rouge.

``reported_measures``: rouge-score computes any type it is asked for; ROUGE-1.5.5 prints ROUGE-N
(any N with ``-n``), its ROUGE-L (= rougeLsum, summary level), ROUGE-W and ROUGE-S/SU, never the
plain sequence-level rougeL; pycocoevalcap prints ROUGE_L only.
"""
from __future__ import annotations

from assay.profiles.audit import AuditGrid, AuditHint
from assay.profiles.registry import Profile

_ROUGE_SCORE = dict(types=("rouge1", "rouge2", "rougeL"), tokenizer="rouge-score", lowercase=True, stemmer="none",
                    stopwords="none", sentence_split="newline", multi_ref="best-f", averaging="document",
                    aggregate="mean", alpha=0.5, f_from_rounded_pr=None, su_last_unigram="count")
_ROUGE155 = dict(types=("rouge1", "rouge2", "rougeLsum"), tokenizer="rouge155", lowercase=True, stemmer="none",
                 stopwords="none", sentence_split="newline", multi_ref="pool", averaging="document",
                 aggregate="perl-bootstrap", bootstrap_samples=1000, confidence=95.0, alpha=0.5,
                 f_from_rounded_pr=5, su_last_unigram="skip", byte_limit_lcs="perl")
_COCO = dict(types=("rougeL",), tokenizer="space", lowercase=False, stemmer="none", stopwords="none",
             sentence_split="none", multi_ref="max-pr", averaging="document", aggregate="mean", alpha=0.5, beta=1.2,
             f_from_rounded_pr=None, length_limit_words=None, length_limit_bytes=None, empty_document="zero")

PROFILES: tuple[Profile, ...] = (
    Profile(
        "rouge", "rouge-score", "rouge-score", ("0.1.2",), _ROUGE_SCORE,
        "Google's rouge-score RougeScorer(rouge_types, use_stemmer=False): Unicode lower(), [^a-z0-9]+ -> space, "
        "rougeLsum on newline-separated sentences, score_multi keeps the best F per type; corpus value = mean of "
        "per-document P, R, F (its BootstrapAggregator is unseeded and not reproduced).",
        command='rouge_scorer.RougeScorer(["rouge1", "rouge2", "rougeL"]).score(target, prediction) per document '
                '(score_multi(targets, prediction) with several references); the corpus value is the mean',
        reported_measures=("*",),
        audit=AuditHint(0.0, grids=(
            AuditGrid(dict(types=(("rouge1",), ("rouge2",), ("rougeL",), ("rougeLsum",)),
                           stemmer=("none", "porter-nltk")),
                      follows_claim=("types",), rank=0),),
            standard_for=("plain",), standard_knobs={"types": ("rougeL",)}, standard_follows=("types",))),
    Profile(
        "rouge", "coco", "pycocoevalcap", ("1.2",), _COCO,
        "pycocoevalcap's Rouge (COCO caption toolkit): str.split(' ') tokens as given (no lowercasing or filtering; "
        "COCOEvalCap runs its PTBTokenizer first, see the coco metric), LCS with each reference, max P and max R "
        "taken independently over the references, F_beta with beta = 1.2; corpus ROUGE_L = mean of per-image F.",
        command="pycocoevalcap.rouge.rouge.Rouge().compute_score(gts, res)",
        audit=AuditHint(0.8, grids=(AuditGrid(dict(types=(("rougeL",),)), rank=2),),   # its Rouge is ROUGE-L only
                        standard_for=("captions",), standard_knobs={"types": ("rougeL",)}, standard_measure=False)),
    Profile(
        "rouge", "rouge-1.5.5", "ROUGE-1.5.5.pl", ("1.5.5",), _ROUGE155,
        "ROUGE-1.5.5.pl -n 2 (plus its ROUGE-L = rougeLsum), SPL input (one sentence per line): ASCII lowercasing, "
        "-f A pooling, per-evaluation P/R rounded to 5 decimals with F from the rounded values, Average = mean of "
        "1000 seeded bootstrap means with its 95% interval. Flags map to knobs (m, s, l, b, w, p, f, t, r, c).",
        command="ROUGE-1.5.5.pl -e data -n 2 -a -z SPL config.lst",
        reported_measures=("rouge[0-9]*", "rougeLsum", "rougeW", "rougeS*"),
        audit=AuditHint(0.3, grids=(
            AuditGrid(dict(types=(("rouge1",), ("rouge2",), ("rougeL",), ("rougeLsum",)),
                           stemmer=("none", "rouge155")),
                      follows_claim=("types",), rank=1),))),
)

DEFAULT = "rouge-score"
