"""ROUGE profiles: rouge-score 0.1.2 (default), ROUGE-1.5.5.pl and pycocoevalcap's Rouge; and the
third-party packages pltrdy ``rouge`` 1.0.1, rouge-chinese 1.0.3, py-rouge 1.1 and sumeval 0.2.2, each
checked against its recorded answers (``recorded``: fixtures/thirdparty/<name>.json).

``reported_measures``: rouge-score computes any type it is asked for; ROUGE-1.5.5 prints ROUGE-N
(any N with ``-n``), its ROUGE-L (= rougeLsum, summary level), ROUGE-W and ROUGE-S/SU, never the
plain sequence-level rougeL; pycocoevalcap prints ROUGE_L only; each third-party package prints
only its own three measures.
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

# pltrdy `rouge` 1.0.1 and its fork rouge-chinese 1.0.3 (found black-box; tests/rouge/test_rouge_thirdparty.py)
_PLTRDY = dict(types=("rouge1", "rouge2", "rougeLsum"), tokenizer="space", lowercase=False, stemmer="none",
               stopwords="none", sentence_split="period", ngram_counts="set", lcs_union="words", multi_ref="best-f",
               averaging="document", aggregate="mean", alpha=0.5, beta=None, f_epsilon=1e-8, f_from_rounded_pr=None,
               length_limit_words=None, length_limit_bytes=None, empty_document="error")
_PY_ROUGE = dict(_ROUGE_SCORE, types=("rouge2", "rouge1", "rougeLsum"), stemmer="py-rouge")
_SUMEVAL = dict(_ROUGE_SCORE, tokenizer="rouge155", stopwords="smart", multi_ref="pool")
_ROUGE_CHINESE = dict(_PLTRDY, types=("rouge1", "rouge2", "rougeL"), sentence_split="zh-punct", lcs_union="positions")

PROFILES: tuple[Profile, ...] = (
    Profile(
        "rouge", "rouge-score", "rouge-score", ("0.1.2",), _ROUGE_SCORE,
        "Google's rouge-score RougeScorer(rouge_types, use_stemmer=False): Unicode lower(), [^a-z0-9]+ -> space, "
        "rougeLsum on newline-separated sentences, score_multi keeps the best F per type; corpus value = mean of "
        "per-document P, R, F (its BootstrapAggregator intervals: assay.compat.rouge_score.scoring).",
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
    Profile(
        "rouge", "pltrdy-rouge", "rouge (pltrdy)", ("1.0.1",), _PLTRDY,
        "pltrdy's `rouge` package on PyPI: sentences split on '.', whitespace tokens, no lowercasing, "
        "n-grams counted as sets (exclusive=True), its rouge-l (= assay's rougeLsum) a union of LCS words over "
        "the whole document with P, R over distinct words, F = 2PR/(P+R+1e-8); an empty text (or one of "
        "periods only) raises ValueError. Several references: the best F per type (conform's rouge-score shape).",
        command="rouge.Rouge().get_scores(hyp, ref)[0] per document; its 'rouge-l' is reported as rougeLsum "
                "(rouge 1.0.1)",
        recorded=("pltrdy-rouge",)),
    Profile(
        "rouge", "rouge-chinese", "rouge-chinese", ("1.0.3",), _ROUGE_CHINESE,
        "rouge-chinese (PyPI), pltrdy's rouge for pre-segmented Chinese: whitespace tokens "
        "after line breaks inserted behind 。！？? (punctuation kept in its token, '.' is no separator), no "
        "lowercasing, n-grams as sets, rouge-l the plain LCS of the whole texts, F = 2PR/(P+R+1e-8); an empty or "
        "blank text raises ValueError. Several references: the best F per type.",
        command="rouge_chinese.Rouge().get_scores(hyp, ref)[0] per document (rouge-chinese 1.0.3)",
        recorded=("rouge-chinese",)),
    Profile(
        "rouge", "py-rouge", "py-rouge", ("1.1",), _PY_ROUGE,
        "py-rouge (PyPI), a Python re-implementation of ROUGE-1.5.5: Unicode lower(), runs of "
        "[a-z0-9] as tokens, stemming (WordNet-2.0 exceptions read in alphabetical file order, then NLTK's "
        "original Porter; tokens of 4+ characters), multiset n-grams, its rouge-l the summary-level union LCS "
        "over newline-separated sentences (= rougeLsum), F = 2PR/(P+R), 0 for an empty text. The measures are "
        "listed in the order its result dict has them (rouge-2 first), so the headline is rouge2's F. Known "
        "divergence: 138 words of py-rouge's own stem table (agreement -> agreem ...) are not bundled.",
        command="rouge.Rouge(metrics=['rouge-n', 'rouge-l'], max_n=2, limit_length=False, stemming=True)"
                ".get_scores(hyp, ref) per document, nltk.word_tokenize replaced by str.split (py-rouge 1.1)",
        recorded=("py-rouge",)),
    Profile(
        "rouge", "sumeval", "sumeval", ("0.2.2",), _SUMEVAL,
        "sumeval's RougeCalculator(lang='en') with its defaults (stopwords=True, stemming=False): ASCII "
        "lowercasing and runs of [a-z0-9] as ROUGE-1.5.5 reads them (a non-ASCII letter separates), ROUGE-1.5.5's "
        "SMART stop words removed (its own copy of smart_common_words.txt), several references pooled as "
        "ROUGE-1.5.5 -f A (hits and lengths summed), rouge_l the plain LCS of the whole texts; F only, "
        "F = 2PR/(P+R), 0 for an empty text; the corpus value is the mean per document.",
        command="RougeCalculator(lang='en'): rouge_n(hyp, refs, 1), rouge_n(hyp, refs, 2), rouge_l(hyp, refs) per "
                "document (sumeval 0.2.2)",
        recorded=("sumeval",)),
)

DEFAULT = "rouge-score"
