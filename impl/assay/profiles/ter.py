"""TER profiles: sacrebleu 2.x and sacrebleu 1.5.x (tercom-style search with sacrebleu's limits), and the
third-party implementations torchmetrics 1.9.0 and pyter3 0.3 (checked against their recorded answers,
fixtures/thirdparty/tm-ter.json and pyter3.json).

sacrebleu 2.x resamples in float32 (its bootstrap sums and scores float32 statistics), so its
profile sets ``resample_arithmetic=float32``; the sacrebleu 1.x profile resamples with exact
float64 sums.
"""
from __future__ import annotations

from assay.metrics.ter.shifts import BEAM_WIDTH, MAX_CANDIDATES, MAX_SHIFT_DIST, MAX_SHIFT_SIZE
from assay.profiles.audit import AuditGrid, AuditHint
from assay.profiles.registry import Profile

_SACREBLEU = dict(normalized=False, no_punct=False, asian_support=False, case_sensitive=False,
                  max_shift_size=MAX_SHIFT_SIZE, max_shift_dist=MAX_SHIFT_DIST, beam_width=BEAM_WIDTH,
                  max_candidates=MAX_CANDIDATES, retokenize_refs=True, zero_ref_length="edits", scale=100,
                  resample_arithmetic="float32")
_SACREBLEU1 = dict(_SACREBLEU, retokenize_refs=False, zero_ref_length="one", scale=1,
                   resample_arithmetic="float64")
#: torchmetrics 1.9.0 TranslationEditRate: sacrebleu's search on swapped arguments, blocks of at most 9 words
_TORCHMETRICS = dict(_SACREBLEU, shift_side="reference", max_shift_size=MAX_SHIFT_SIZE - 1, scale=1,
                     resample_arithmetic="float64")
#: pyter3 0.3 pyter.ter(hyp.split(), ref.split())
_PYTER3 = dict(_SACREBLEU, case_sensitive=True, shift_search="maximal-spans", zero_ref_length="error", scale=1,
               corpus_score="none", resample_arithmetic="float64")

PROFILES: tuple[Profile, ...] = (
    Profile(
        "ter", "sacrebleu", "sacrebleu", ("2.6.0",), _SACREBLEU,
        "sacrebleu 2.x TER(): tercom-style (lowercased, no normalisation), shift limits 10/50, beam 25, "
        "1000 candidates; fewest edits over references / average reference length, 0-100.",
        default_width=1, command="sacrebleu.metrics.TER().corpus_score(hyps, refs)", signature_grammar="sacrebleu2",
        audit=AuditHint(0.0, grids=(
            AuditGrid(dict(case_sensitive=(False, True), normalized=(False, True), no_punct=(False, True),
                           scale=(100, 1))),),
            standard_for=("plain", "captions"))),
    Profile(
        "ter", "sacrebleu@1", "sacrebleu", ("1.5.1",), _SACREBLEU1,
        "sacrebleu 1.5.x corpus_ter/sentence_ter: the same search on the 0-1 scale; references tokenised once; "
        "a zero total reference length scores 1 even without edits.", default_width=3,
        signature_grammar="sacrebleu1", drops_empty_refs=True,
        command="sacrebleu.corpus_ter(hyps, refs) (sacrebleu 1.5.1)",
        audit=AuditHint(0.6, grids=(
            AuditGrid(dict(case_sensitive=(False, True), normalized=(False, True), no_punct=(False, True),
                           scale=(100, 1))),))),
    Profile(
        "ter", "torchmetrics", "torchmetrics TranslationEditRate", ("torchmetrics 1.9.0",), _TORCHMETRICS,
        "torchmetrics TranslationEditRate() defaults (lowercase, no normalisation, punctuation kept): sacrebleu's "
        "tercom-style search with the hypothesis and reference swapped (the reference's words are shifted, an "
        "empty hypothesis counts 0 edits: shift_side=reference) and blocks of at most 9 words "
        "(max_shift_size=9); fewest edits over references / average reference length, 0-1 scale (float32 "
        "tensors: agrees to ~1e-7).",
        command="torchmetrics.text.TranslationEditRate()(preds, [[refs of segment i] ...]) (torchmetrics 1.9.0, "
                "torch 2.13.0; sentence level: a one-segment corpus)",
        default_width=3, recorded=("tm-ter",), recorded_tolerance=1e-6),
    Profile(
        "ter", "pyter3", "pyter3", ("pyter3 0.3",), _PYTER3,
        "pyter3 0.3 pyter.ter(hyp.split(), ref.split()): case-sensitive whitespace tokens, its own greedy search "
        "(every longest common run moved to the reference position, exact Levenshtein distance, no limits: "
        "shift_search=maximal-spans), edits / reference length, 0-1; an empty reference raises "
        "ZeroDivisionError. One reference; sentences only (corpus_score=none: a corpus score is refused; "
        "--set corpus_score=sums gives sum of edits / sum of reference lengths).",
        max_refs=1, default_width=3,
        command="pyter.ter(hyp.split(), ref.split()) per segment (pyter3 0.3)",
        recorded=("pyter3",)),
)

DEFAULT = "sacrebleu"
