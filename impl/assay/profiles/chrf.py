"""chrF profiles: sacrebleu 2.x (chrF2, chrF2++), sacrebleu 1.5.x, NLTK (3.10, 3.5) and torchmetrics 1.9.

sacrebleu 2.x resamples in float32 (its bootstrap sums and scores float32 statistics), so its
profiles set ``resample_arithmetic=float32``; the others resample with exact float64 sums.
"""
from __future__ import annotations

from assay.profiles.audit import AuditGrid, AuditHint
from assay.profiles.registry import Profile

_SACREBLEU = dict(char_order=6, min_char_order=1, word_order=0, beta=2, lowercase=False, whitespace=False,
                  whitespace_set="isspace", eps_smoothing=False, zero_division="sacrebleu",
                  hyp_count_without_ref="zero", multi_ref="best", missing_ref="skip", averaging="corpus",
                  token_lists="error", scale=100, resample_arithmetic="float32")
_SACREBLEU1 = dict(_SACREBLEU, hyp_count_without_ref="keep", multi_ref="first", missing_ref="EOFError", scale=1,
                   resample_arithmetic="float64")
_NLTK = dict(_SACREBLEU, beta=3, whitespace_set="white_space", eps_smoothing=True, zero_division="nltk",
             hyp_count_without_ref="keep", multi_ref="first", missing_ref="TypeError", averaging="segments",
             token_lists="join", scale=1, resample_arithmetic="float64")
#: torchmetrics CHRFScore() defaults (n_char_order 6, n_word_order 2, beta 2): chrF2++ with F per order
#: (0 where undefined) averaged over all 8 orders, only U+0020 deleted inside a text, every hypothesis
#: n-gram counted, and a segment whose best reference scores 0 adds no reference statistics.
_TORCHMETRICS = dict(_SACREBLEU, word_order=2, whitespace_set="space", eps_smoothing=True, zero_division="zero",
                     hyp_count_without_ref="keep", missing_ref="ignore", zero_score_ref="drop", scale=1,
                     resample_arithmetic="float64")

PROFILES: tuple[Profile, ...] = (
    Profile(
        "chrf", "sacrebleu", "sacrebleu", ("2.6.0",), _SACREBLEU,
        "sacrebleu 2.x CHRF(): chrF2 (char_order 6, beta 2, whitespace deleted, eff:yes); several references: "
        "per segment the best one; 0-100. chrF++ = word_order=2 (profile sacrebleu-chrf++).", default_width=1,
        signature_grammar="sacrebleu2",
        command="sacrebleu.metrics.CHRF().corpus_score(hyps, refs)",
        audit=AuditHint(0.0, grids=(
            AuditGrid(dict(word_order=(0,), beta=(2, 3, 1), lowercase=(False, True), whitespace=(False, True),
                           eps_smoothing=(False, True), scale=(100, 1)), follows_claim=("beta",)),),
            standard_for=("plain", "captions"), standard_follows=("beta",))),
    Profile(
        "chrf", "sacrebleu-chrf++", "sacrebleu", ("2.6.0",), dict(_SACREBLEU, word_order=2),
        "sacrebleu 2.x CHRF(word_order=2) / --chrf-word-order 2: chrF2++.", default_width=1,
        signature_grammar="sacrebleu2",
        command="sacrebleu.metrics.CHRF(word_order=2).corpus_score(hyps, refs)",
        audit=AuditHint(0.0, grids=(
            AuditGrid(dict(word_order=(2,), beta=(2, 3, 1), lowercase=(False, True), whitespace=(False, True),
                           eps_smoothing=(False, True), scale=(100, 1)), follows_claim=("beta",)),),
            standard_for=("plain", "captions"), standard_follows=("beta",))),
    Profile(
        "chrf", "sacrebleu@1", "sacrebleu", ("1.5.1",), _SACREBLEU1,
        "sacrebleu 1.5.x corpus_chrf/sentence_chrf: 0-1 scale, only the first reference stream is read, "
        "hypothesis n-grams count even against an empty reference, no chrF++ and no lowercasing; a missing "
        "reference fails (EOFError).", default_width=1, signature_grammar="sacrebleu1", drops_empty_refs=True,
        command="sacrebleu.corpus_chrf(hyps, refs, order=6, beta=2, remove_whitespace=True) (sacrebleu 1.5.1)",
        audit=AuditHint(0.6, grids=(
            AuditGrid(dict(beta=(2, 3, 1), whitespace=(False, True), scale=(1, 100)), follows_claim=("beta",),
                      lockstep="sacrebleu@1, nltk"),))),
    Profile(
        "chrf", "nltk", "nltk", ("3.10.4",), _NLTK,
        "NLTK corpus_chrf/sentence_chrf(min_len=1, max_len=6, beta=3, ignore_whitespace=True): F per order "
        "(1e-16 when undefined), mean over orders, corpus = mean of sentence scores; one reference; token "
        "lists are joined with spaces; Unicode White_Space is removed.", max_refs=1,
        command="nltk.translate.chrf_score.corpus_chrf(references, hypotheses, min_len=1, max_len=6, beta=3.0, "
                "ignore_whitespace=True)",
        audit=AuditHint(0.9, grids=(
            AuditGrid(dict(beta=(2, 3, 1), whitespace=(False, True), scale=(1, 100)), follows_claim=("beta",),
                      lockstep="sacrebleu@1, nltk"),))),
    Profile(
        "chrf", "nltk@3.5", "nltk", ("3.5",), dict(_NLTK, whitespace_set="isspace"),
        "NLTK 3.5 chrF: as nltk, but every str.isspace character is removed (U+001C..U+001F too).", max_refs=1,
        command="nltk.translate.chrf_score.corpus_chrf(references, hypotheses, min_len=1, max_len=6, beta=3.0, "
                "ignore_whitespace=True) (nltk 3.5)",
        audit=AuditHint(1.3, grids=(
            AuditGrid(dict(beta=(2, 3, 1), whitespace=(False, True), scale=(1, 100)), follows_claim=("beta",),
                      lockstep="sacrebleu@1, nltk"),))),
    Profile(
        "chrf", "torchmetrics", "torchmetrics CHRFScore", ("torchmetrics 1.9.0",), _TORCHMETRICS,
        "torchmetrics CHRFScore() defaults (n_char_order 6, n_word_order 2, beta 2, lowercase False, whitespace "
        "False): chrF2++ words as sacrebleu's; characters after str.strip() and deleting U+0020 only; F per order "
        "with P, R or F 0 where undefined, mean over all 8 orders; every hypothesis n-gram counts; per segment the "
        "reference with the highest sentence score, and none (no reference n-grams, no matches) when every "
        "reference scores 0; statistics summed over the corpus; 0-1 scale (float32 tensors: agrees to ~1e-7).",
        command="torchmetrics.text.CHRFScore()(preds, [[refs of segment i] ...]) (torchmetrics 1.9.0, torch "
                "2.13.0; sentence level: a one-segment corpus)",
        recorded=("tm-chrf",), recorded_tolerance=1e-6),
)

DEFAULT = "sacrebleu"
