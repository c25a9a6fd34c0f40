"""ROUGE's knobs, declared once: what each changes, its stage and its domain.

Stages (:data:`assay.core.domains.STAGES`), as :func:`assay.metrics.rouge.rows.segment_rows` reads them:

- ``text``: how a document becomes token sentences (tokenizer, lowercasing, stemming, stop
  words, sentence splitting, ``-l``/``-b`` truncation and the paths of ROUGE-1.5.5's data files).
- ``statistics``: how tokens become a document's row. The row holds each measure's counts and the
  document's own P, R, F, so everything that forms them is here: the measures (``types``),
  ROUGE-W's weight, ROUGE-SU's unigrams, the F-measure (``alpha``/``beta``), ROUGE-1.5.5's
  rounding and the multi-reference rule (best-f picks the reference by its F, so even ``alpha``
  decides which reference's counts the row holds). The corpus mean of per-document F must be a
  function of summed rows (resampling), which is why F is formed per document, not later.
- ``score``: how the rows become the corpus value: ``averaging``, ``aggregate`` and the
  bootstrap's ``bootstrap_samples``/``confidence``.
"""
from __future__ import annotations

import re
from typing import Any, Mapping

from assay.core.domains import Boolean, choice, integer, optional, path, predicate, real, text
from assay.core.errors import KnobError
from assay.core.knobs import Alias, Knob, KnobSet, parse_bool, parse_optional_float
from assay.metrics.rouge.text import SENTENCE_SPLITS, STEMMERS, STOPWORDS, TOKENIZERS

TYPE_RE = re.compile(r"^rouge(?:(?P<n>[1-9][0-9]*)|(?P<l>Lsum|L)|(?P<w>W)|(?P<s>SU|S)(?P<gap>[0-9]+|\*))$")
MAX_N = 100
MAX_N_WHY = "n-grams longer than 100 tokens only cost time"
MAX_GAP = 100_000
MAX_GAP_WHY = "a gap as long as the text is rougeS*: use rougeS* / rougeSU* for any gap"
MAX_BOOTSTRAP = 10_000
MAX_LIMIT = 1_000_000_000
MULTI_REF = ("pool", "best-recall", "best-f", "average", "max-pr")
AVERAGING = ("document", "token", "pr-mean")
AGGREGATE = ("mean", "perl-bootstrap")


# ----------------------------------------------------------------------------- measure names
def types_problem(value: Any) -> str | None:
    """Why ``value`` is not a list of ROUGE measures (None when it is one)."""
    if not isinstance(value, (tuple, list)) or not value:
        return "at least one ROUGE type is needed"
    for name in value:
        m = TYPE_RE.match(name) if isinstance(name, str) else None
        if m is None:
            return (f"unknown ROUGE type {name!r}: use rouge1..rougeN, rougeL, rougeLsum, rougeW, "
                    "rougeS<gap>, rougeS*, rougeSU<gap>, rougeSU*")
        if m.group("n") and _bigger(m.group("n"), MAX_N):
            return f"{name}: N must be at most {MAX_N} ({MAX_N_WHY})"
        if m.group("gap") and m.group("gap") != "*" and _bigger(m.group("gap"), MAX_GAP):
            return f"{name}: the gap must be at most {MAX_GAP} ({MAX_GAP_WHY})"
    if len(set(value)) != len(value):
        return f"repeated ROUGE type in {list(value)}"
    return None


def _bigger(digits: str, limit: int) -> bool:
    return len(digits.lstrip("0")) > len(str(limit)) or int(digits) > limit


def parse_types(value: Any) -> tuple[str, ...]:
    """``rouge1,rouge2,rougeL`` (or a list) -> a tuple of measure names, each checked."""
    items = [v.strip() for v in value.split(",")] if isinstance(value, str) else [str(v).strip() for v in value]
    out = tuple(v for v in items if v)
    problem = types_problem(out)
    if problem:
        raise ValueError(problem)
    return out


def type_spec(name: str) -> tuple[str, Any]:
    """``("n", N)``, ``("L", None)``, ``("Lsum", None)``, ``("W", None)``, ``("S"|"SU", gap or None)``."""
    m = TYPE_RE.match(name)
    if m is None:
        raise KnobError(f"unknown ROUGE type {name!r}")
    if m.group("n"):
        return "n", int(m.group("n"))
    if m.group("l"):
        return m.group("l"), None
    if m.group("w"):
        return "W", None
    gap = m.group("gap")
    return m.group("s"), None if gap == "*" else int(gap)


# ----------------------------------------------------------------------------- parsers
def parse_optional_int(value: Any) -> int | None:
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none", "off")):
        return None
    out = int(value)
    if out < 0:
        raise ValueError(f"expected a non-negative integer, got {value!r}")
    return out


def parse_optional_str(value: Any) -> str | None:
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none")):
        return None
    return str(value)


def parse_data_path(value: Any) -> str:
    """A data path knob: ``""`` (also spelled ``auto`` or None) searches the installed data."""
    if value is None or (isinstance(value, str) and value.strip().lower() in ("", "auto")):
        return ""
    return str(value)


# ----------------------------------------------------------------------------- combinations
def validate(values: Mapping[str, Any]) -> None:
    """Knob combinations no tool has (single values are checked by each knob's domain)."""
    if values["length_limit_words"] is not None and values["length_limit_bytes"] is not None:
        raise KnobError("length_limit_words and length_limit_bytes exclude each other (ROUGE-1.5.5: -l or -b)")
    if values["sentence_split"] == "marker" and not values["sentence_marker"]:
        raise KnobError("sentence_split=marker needs sentence_marker")
    if values["averaging"] == "token":
        if values["multi_ref"] in ("average", "max-pr"):
            raise KnobError(f"averaging=token pools counts; multi_ref={values['multi_ref']} has no counts to pool")
    beta = values["beta"]
    if beta is not None:
        if values["alpha"] != 0.5:
            raise KnobError("beta (F_beta, pycocoevalcap's form) replaces alpha: set one of them "
                            f"(got beta={beta}, alpha={values['alpha']}); beta=none uses alpha")
        if values["aggregate"] == "perl-bootstrap" or values["f_from_rounded_pr"] is not None:
            raise KnobError("beta is pycocoevalcap's F form; ROUGE-1.5.5's bootstrap/rounding use alpha (-p)")
    if values["f_epsilon"] and (values["alpha"] != 0.5 or beta is not None or values["f_from_rounded_pr"] is not None
                                or values["aggregate"] == "perl-bootstrap"):
        raise KnobError("f_epsilon is the term of 2PR/(P+R+epsilon) (pltrdy rouge, rouge-chinese): it needs "
                        "alpha=0.5, beta=none, no f_from_rounded_pr and aggregate=mean")
    if values["aggregate"] == "perl-bootstrap" and values["averaging"] == "pr-mean":
        raise KnobError("aggregate=perl-bootstrap reproduces ROUGE-1.5.5, which has no averaging=pr-mean")


def _perl_flag_multi(value: Any) -> dict[str, Any]:
    key = str(value).strip().upper()
    if key not in ("A", "B"):
        raise KnobError(f"-f takes A or B, got {value!r}")
    return {"multi_ref": "pool" if key == "A" else "best-recall"}


def _perl_flag_t(value: Any) -> dict[str, Any]:
    key = str(value).strip()
    if key not in ("0", "1"):
        raise KnobError(f"-t takes 0 or 1 (2 prints raw counts), got {value!r}")
    return {"averaging": "document" if key == "0" else "token"}


# ----------------------------------------------------------------------------- the knobs
KNOBS = KnobSet(
    knobs=(
        Knob("types", ("rouge1", "rouge2", "rougeL"), "measures, comma separated; the score is the F of the first: "
             "rougeN (N up to 100), rougeL (LCS of the whole texts), rougeLsum (union LCS over sentences = "
             "ROUGE-1.5.5's ROUGE-L), rougeW (weighted LCS), rougeS<g>/rougeS* (skip-bigrams, at most g gap words, "
             "g up to 100000 / any), rougeSU<g>/rougeSU* (plus unigrams)", parse_types,
             tool_names="rouge-score rouge_types; ROUGE-1.5.5 -n N, -x, -w, -2 G -u/-U", stage="statistics",
             domain=predicate("a non-empty list of distinct ROUGE types (rouge1..rouge100, rougeL, rougeLsum, "
                              "rougeW, rougeS<gap>, rougeS*, rougeSU<gap>, rougeSU*; gap <= 100000)", types_problem)),
        Knob("ngram_counts", "multiset", "ROUGE-N on n-gram multisets (hits = sum_g min(count_hyp(g), "
             "count_ref(g)), both tools) or sets (hits = |set(hyp) & set(ref)|, P and R over the numbers of "
             "distinct n-grams: implementations built on Python sets, pltrdy rouge's exclusive=True); under "
             "lcs_union=words it also counts rougeLsum's LCS words and lengths as sets or lists",
             str, ("multiset", "set"), tool_names="pltrdy rouge Rouge(exclusive=)",
             stage="statistics", domain=choice("multiset", "set")),
        Knob("lcs_union", "positions", "rougeLsum's union LCS: positions = per reference sentence the reference "
             "positions any hypothesis sentence's LCS matches (ROUGE-1.5.5, rouge-score); words = one LCS "
             "word list per (reference sentence, hypothesis sentence), backtracked from the ends (a tie drops "
             "the hypothesis word), gathered over the whole document: under ngram_counts=set hits = the "
             "distinct words gathered and P, R over the distinct words of each side, under multiset hits = "
             "the sum of the LCS lengths and P, R over token counts (so R may exceed 1): pltrdy rouge's "
             "rouge-l", str, ("positions", "words"), stage="statistics", domain=choice("positions", "words")),
        Knob("tokenizer", "rouge-score", "rouge155 (ASCII lowercasing, bytes), rouge-score (Unicode lower(), "
             "then the same ASCII filter), unicode (keeps letters of every script; no tool), space (str.split(' ') "
             "exactly, no filtering: pycocoevalcap Rouge)", str, TOKENIZERS,
             tool_names="rouge-score tokenizer", stage="text", domain=choice(*TOKENIZERS)),
        Knob("lowercase", True, "lowercase before tokenising (rouge-metric PyRouge: no)", parse_bool,
             stage="text", domain=Boolean()),
        Knob("stemmer", "none", "none, rouge155 (WordNet-2.0 exceptions then ROUGE's Porter variant), porter-nltk "
             "(NLTK's Porter, NLTK_EXTENSIONS), porter-rouge155 (ROUGE's Porter without exceptions: rouge-metric "
             "PerlRouge's empty DB), porter-martin, porter-original (NLTK modes), py-rouge (the same exceptions read "
             "in alphabetical file order, then porter-original: py-rouge 1.1)", str, STEMMERS,
             "ROUGE-1.5.5 -m; rouge-score use_stemmer", stage="text", domain=choice(*STEMMERS)),
        Knob("stem_min_length", 4, "stem only tokens of at least this many characters (both tools: 4)", int,
             stage="text", domain=integer(0, 100, reason="a larger minimum only turns stemming off")),
        Knob("exceptions_path", "", "directory of ROUGE-1.5.5's WordNet-2.0 exception lists (adj/adv/noun/verb.exc, "
             "or a ROUGE data directory holding WordNet-2.0-Exceptions) for stemmer=rouge155 and py-rouge (or, "
             "for py-rouge, an installed py-rouge's package directory: its own table, 138 special cases "
             "included); empty (or auto): $ASSAY_ROUGE_DATA, else the installed rouge-metric data", parse_data_path,
             tool_names="ROUGE-1.5.5 -e DIR/WordNet-2.0.exc.db", stage="text", domain=path("dir")),
        Knob("stopwords", "none", "none or smart (ROUGE-1.5.5 -s, smart_common_words.txt)", str, STOPWORDS,
             "ROUGE-1.5.5 -s", stage="text", domain=choice(*STOPWORDS)),
        Knob("stopwords_path", "", "the stop-word list file for stopwords=smart; empty (or auto): "
             "$ASSAY_ROUGE_DATA, else the installed rouge-metric data", parse_data_path,
             tool_names="ROUGE-1.5.5 -e DIR/smart_common_words.txt", stage="text", domain=path("file")),
        Knob("sentence_split", "newline", "how a document splits into sentences: newline, none, marker, t-tags, "
             "period (pltrdy rouge: split on '.', each piece whitespace-collapsed), zh-punct (rouge-chinese: "
             "breaks after 。！？? and ellipses, punctuation kept)",
             str, SENTENCE_SPLITS,
             "rouge-score rougeLsum splits on newlines; ROUGE-1.5.5 SPL: one sentence per line", stage="text",
             domain=choice(*SENTENCE_SPLITS)),
        Knob("sentence_marker", None, "the separator for sentence_split=marker (e.g. <q>)", parse_optional_str,
             stage="text", domain=optional(text(1000))),
        Knob("length_limit_words", None, "keep only the first N words of every text, counted on the raw text "
             "(hypothesis and references); 0 = no limit", parse_optional_int, tool_names="ROUGE-1.5.5 -l",
             stage="text", domain=optional(integer(0, MAX_LIMIT, reason="a limit beyond every text is no limit"))),
        Knob("length_limit_bytes", None, "keep only the first N bytes of every text; 0 = no limit",
             parse_optional_int, tool_names="ROUGE-1.5.5 -b", stage="text",
             domain=optional(integer(0, MAX_LIMIT, reason="a limit beyond every text is no limit"))),
        Knob("byte_limit_lcs", "perl", "LCS measures under length_limit_bytes: perl = ROUGE-1.5.5's reader bug "
             "(LCS sees every sentence shorter than the limit, whole, plus the cut first longer one (text."
             "truncate_lcs); clipping "
             "counts and P come from the truncated text, R's denominator from the LCS reader) | truncate",
             str, ("perl", "truncate"), stage="text", domain=choice("perl", "truncate")),
        Knob("w_weight", 1.2, "ROUGE-W weight: f(k) = k ** w", float, tool_names="ROUGE-1.5.5 -w",
             stage="statistics",
             domain=real(0, 10, low_open=True,
                         reason="ROUGE-1.5.5 takes any w > 0; its reference normaliser grows as length ** (w*w), "
                                "so larger weights overflow floats and their R and F print 0 already at 10")),
        Knob("su_last_unigram", "skip", "ROUGE-SU unigrams: skip = positions 0..n-2 only (ROUGE-1.5.5 -u quirk; "
             "a 1-token text has no units) | count", str, ("skip", "count"), stage="statistics",
             domain=choice("skip", "count")),
        Knob("alpha", 0.5, "F = P*R / ((1-alpha)*P + alpha*R); alpha -> 1 favours precision", float,
             tool_names="ROUGE-1.5.5 -p", stage="statistics", domain=real(0, 1)),
        Knob("beta", None, "None, or F_beta = (1+beta^2) P R / (R + beta^2 P) in that float form, 0 when P or R "
             "is 0 (pycocoevalcap Rouge: 1.2); replaces alpha (= 1/(1+beta^2), leave alpha at 0.5)",
             parse_optional_float, tool_names="pycocoevalcap Rouge.beta", stage="statistics",
             domain=optional(real(0, 100, low_open=True,
                                  reason="beta 100 already weighs recall 10,000 times precision"))),
        Knob("f_epsilon", 0.0, "F = 2 P R / (P + R + epsilon): a constant added to the denominator (pltrdy rouge "
             "and rouge-chinese: 1e-8, so F(1, 1) = 0.999999995); 0 = none. Needs alpha 0.5 and no beta",
             float, stage="statistics",
             domain=real(0, 1, reason="the constant only keeps a zero denominator away; 1 already halves F(1, 1)")),
        Knob("f_from_rounded_pr", None, "None, or 5: round each evaluation's P and R to 5 decimals, compute F "
             "from them and round it (ROUGE-1.5.5)", parse_optional_int, (None, 5), stage="statistics",
             domain=optional(choice(5))),
        Knob("multi_ref", "best-f", "several references: pool (ROUGE-1.5.5 -f A), best-recall (-f B), best-f "
             "(rouge-score score_multi), average (torchmetrics avg), max-pr (pycocoevalcap Rouge: max P and max R "
             "over references independently, F of those)", str, MULTI_REF, stage="statistics",
             domain=choice(*MULTI_REF)),
        Knob("averaging", "document", "corpus value: document = mean of per-document P, R, F (-t 0, rouge-score); "
             "token = P, R, F of pooled counts (-t 1); pr-mean = mean P, mean R, F of those (rouge-metric PyRouge "
             "mode='average')", str, AVERAGING, stage="score", domain=choice(*AVERAGING)),
        Knob("aggregate", "mean", "mean, or perl-bootstrap (ROUGE-1.5.5's printed Average: the mean of its seeded "
             "bootstrap-sample means, with its percentile confidence interval)", str, AGGREGATE, stage="score",
             domain=choice(*AGGREGATE)),
        Knob("bootstrap_samples", 1000, "bootstrap samples for aggregate=perl-bootstrap", int,
             tool_names="ROUGE-1.5.5 -r", stage="score",
             domain=integer(1, MAX_BOOTSTRAP,
                            reason="ROUGE-1.5.5's default is 1000; every sample's draws are held in memory "
                                   "(samples x documents), so more only cost memory and time")),
        Knob("confidence", 95.0, "confidence level (percent) of the bootstrap interval", float,
             tool_names="ROUGE-1.5.5 -c", stage="score", domain=real(0, 100)),
        Knob("empty_document", "zero", "a side without tokens: zero = P, R, F 0 (both tools) | error", str,
             ("zero", "error"), stage="statistics", domain=choice("zero", "error")),
    ),
    aliases=(
        Alias("rouge_types", "rouge-score RougeScorer(rouge_types)", lambda v: {"types": v}),
        Alias("use_stemmer", "rouge-score use_stemmer: NLTK Porter on tokens longer than 3 characters",
              lambda v: {"stemmer": "porter-nltk" if parse_bool(v) else "none"}),
        Alias("m", "ROUGE-1.5.5 -m: stem (exception DB, then ROUGE's Porter)",
              lambda v: {"stemmer": "rouge155" if parse_bool(v) else "none"}),
        Alias("s", "ROUGE-1.5.5 -s: remove stop words", lambda v: {"stopwords": "smart" if parse_bool(v) else "none"}),
        Alias("l", "ROUGE-1.5.5 -l N", lambda v: {"length_limit_words": v}),
        Alias("b", "ROUGE-1.5.5 -b N", lambda v: {"length_limit_bytes": v}),
        Alias("w", "ROUGE-1.5.5 -w W (the weight; add rougeW to types)", lambda v: {"w_weight": v}),
        Alias("p", "ROUGE-1.5.5 -p alpha", lambda v: {"alpha": v}),
        Alias("f", "ROUGE-1.5.5 -f A|B", _perl_flag_multi),
        Alias("t", "ROUGE-1.5.5 -t 0|1", _perl_flag_t),
        Alias("r", "ROUGE-1.5.5 -r N (bootstrap samples)", lambda v: {"bootstrap_samples": v}),
        Alias("c", "ROUGE-1.5.5 -c CF (confidence)", lambda v: {"confidence": v}),
    ),
    validate=validate,
)
