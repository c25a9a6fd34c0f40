"""TER profiles: sacrebleu 2.x and sacrebleu 1.5.x (tercom-style search with sacrebleu's limits).

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
)

DEFAULT = "sacrebleu"
