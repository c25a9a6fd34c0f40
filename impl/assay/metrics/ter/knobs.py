"""TER's knobs, declared once: stage, domain, help.

Stages. Text: the tercom tokenizer's options and how often references go through it.
Statistics: the shift search (tercom's under its limits, or pyter3's maximal spans) and the side
it shifts (they change the edit counts). Score: the zero-length rule, whether there is a corpus
score, the scale and the resampling arithmetic (they only change how the two summed columns
become a number).

Domains. The search limits are bounded because each costs time, not because a tool refuses
them: a block longer than its segment cannot move and a shift farther than the segment is
long cannot happen (:data:`MAX_SHIFT`, far above any sentence; sacrebleu: 10 and 50), a beam
wider than the reference is the full table (:data:`MAX_BEAM`; sacrebleu: 25), and every shift
candidate costs one edit distance, so :data:`MAX_CANDIDATES` evaluations per
hypothesis/reference pair already take minutes (sacrebleu: 1000).

Long segments. Within these domains the work of one pair still grows with its length: its beam
table has ``(n_ref + 1) + n_hyp * min(n_ref + 1, 2 * beam)`` cells (memory, linear in the
length) and a search fills at most ``3 * max_candidates + 2`` tables. A pair whose table exceeds
:data:`~.limits.MAX_TABLE_CELLS` (30 million cells: about 600,000 tokens a side at
``beam_width=25``) or whose worst-case search exceeds :data:`~.limits.MAX_SEARCH_CELLS`
(10^11 cells) is refused with an ``InputError`` naming the segment and its lengths
(:mod:`.limits`); anything below is scored under exactly the configured limits.
"""
from __future__ import annotations

from typing import Any, Mapping

from assay.core.domains import Boolean, choice, integer
from assay.core.errors import KnobError
from assay.core.knobs import Knob, KnobSet, parse_bool
from assay.metrics.ter.limits import BEAM_WIDTH, MAX_CANDIDATES, MAX_SHIFT_DIST, MAX_SHIFT_SIZE

MAX_SHIFT = 10_000
MAX_BEAM = 10_000
MAX_CANDIDATES_BOUND = 1_000_000
ARITHMETICS = ("float64", "float32")
SHIFT_SEARCHES = ("tercom", "maximal-spans")
ZERO_REF_LENGTHS = ("edits", "one", "error")
CORPUS_SCORES = ("sums", "none")


def parse_whole(value: Any) -> int:
    """An int, refusing a fractional number (``2.5``) rather than truncating it."""
    number = int(value)
    if number != float(value):
        raise ValueError(f"expected an integer, got {value!r}")
    return number


def _validate(values: Mapping[str, Any]) -> None:
    """The search limits' lower bound, repeated for configurations built without coercion
    (attribution, conform's probes): a negative limit would silently disable the search."""
    for name in ("max_shift_size", "max_shift_dist", "beam_width", "max_candidates"):
        if values[name] < 0:
            raise KnobError(f"{name} must be >= 0, got {values[name]}")


KNOBS = KnobSet(
    knobs=(
        Knob("normalized", False, "tercom normalisation: split punctuation, unescape &quot; &amp; &lt; &gt;, "
             "split 's, join hyphenated lines", parse_bool, tool_names="sacrebleu normalized/--ter-normalized",
             stage="text", domain=Boolean()),
        Knob("no_punct", False, "delete . , ? : ; ! \" ( ) (and CJK punctuation with asian_support)", parse_bool,
             tool_names="sacrebleu no_punct/--ter-no-punct", stage="text", domain=Boolean()),
        Knob("asian_support", False, "with normalized: CJK characters become single tokens; with no_punct: "
             "CJK punctuation is deleted", parse_bool, tool_names="sacrebleu asian_support/--ter-asian-support",
             stage="text", domain=Boolean()),
        Knob("case_sensitive", False, "keep case (default: str.lower() first)", parse_bool,
             tool_names="sacrebleu case_sensitive/--ter-case-sensitive", stage="text", domain=Boolean()),
        Knob("max_shift_size", MAX_SHIFT_SIZE, "longest block a shift moves (words)", parse_whole,
             stage="statistics",
             domain=integer(0, MAX_SHIFT, reason="a block longer than its segment cannot move; sacrebleu: 10")),
        Knob("max_shift_dist", MAX_SHIFT_DIST, "largest |hypothesis start - reference start| of a shift",
             parse_whole, stage="statistics",
             domain=integer(0, MAX_SHIFT, reason="no shift is farther than its segment is long; sacrebleu: 50")),
        Knob("beam_width", BEAM_WIDTH, "edit-distance beam half-width around the length-ratio diagonal",
             parse_whole, stage="statistics",
             domain=integer(0, MAX_BEAM, reason="a beam wider than the reference is the full table; "
                                                "sacrebleu: 25")),
        Knob("max_candidates", MAX_CANDIDATES, "shift candidates evaluated per hypothesis/reference pair "
             "(summed over rounds); the round that exhausts it makes no shift", parse_whole, stage="statistics",
             domain=integer(0, MAX_CANDIDATES_BOUND, reason="each candidate costs one edit distance; "
                                                            "sacrebleu: 1000")),
        Knob("retokenize_refs", True, "references go through the tokenizer twice (sacrebleu 2.x: observable "
             "with normalized, e.g. it's<TAB>x -> it 's x, x's. -> x 's .); sacrebleu 1.5.1 tokenises once",
             parse_bool, stage="text", domain=Boolean()),
        Knob("shift_side", "hypothesis", "which text the shift search moves: hypothesis (tercom, sacrebleu); "
             "reference = the edit routine called with hypothesis and reference swapped, an empty hypothesis "
             "counting 0 edits (torchmetrics TranslationEditRate)", str, ("hypothesis", "reference"),
             stage="statistics", domain=choice("hypothesis", "reference")),
        Knob("shift_search", "tercom", "how shifts are searched: tercom = tercom's rules under the limits above "
             "(beam edit distance; sacrebleu, torchmetrics); maximal-spans = every longest common run "
             "hyp[i:i+l] == ref[j:j+l] moved to index j of the rest, exact Levenshtein distance, the largest gain "
             ">= 1 with ties to the greatest shifted token list, no limits (pyter3; the four limit knobs are not "
             "used)", str, SHIFT_SEARCHES, stage="statistics", domain=choice(*SHIFT_SEARCHES)),
        Knob("zero_ref_length", "edits", "score when the (total) reference length is 0: edits = full scale if "
             "there are edits, else 0 (sacrebleu 2); one = full scale (sacrebleu 1.5.1); error = "
             "ZeroDivisionError (pyter3: edits / len(ref))", str, ZERO_REF_LENGTHS,
             stage="score", domain=choice(*ZERO_REF_LENGTHS)),
        Knob("corpus_score", "sums", "the corpus score: sums = sum of edits / sum of reference lengths (tercom, "
             "sacrebleu, torchmetrics); none = the tool scores sentences only (pyter3 has no corpus TER): a corpus "
             "score is refused (KnobError), sentence scores are unchanged", str, CORPUS_SCORES,
             stage="score", domain=choice(*CORPUS_SCORES)),
        Knob("scale", 100, "0-100 (sacrebleu 2) or 0-1 (sacrebleu 1.x)", int, (1, 100),
             stage="score", domain=choice(1, 100)),
        Knob("resample_arithmetic", "float64", "how bootstrap resamples are summed and scored: float64 = exact "
             "sums, float64 arithmetic; float32 = sacrebleu 2.x's bootstrap, which sums each resample in "
             "float32 and scores those sums in float32 under NumPy's NEP 50 rules (the zero-length scores "
             "stay Python floats)", str, ARITHMETICS, tool_names="sacrebleu --confidence/--paired-bs (2.x)", stage="resample", domain=choice(*ARITHMETICS)),
    ),
    validate=_validate,
)
