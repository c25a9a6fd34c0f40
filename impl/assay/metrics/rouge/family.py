"""ROUGE (Lin 2004): N, L, Lsum, W, S, SU as one family, with profiles for ROUGE-1.5.5.pl and rouge-score.

A *document* is one hypothesis segment; its sentences come from ``sentence_split`` (rougeLsum,
ROUGE-1.5.5's ROUGE-L and ROUGE-W use them; N, L and S read the whole token sequence).
Per document and measure the row holds the counts after combining the references (``hits``,
``ref``, ``peer``) and the document's P, R, F; the corpus value averages them per document
(``averaging=document``, ROUGE-1.5.5 ``-t 0`` and rouge-score) or pools the counts
(``token``, ``-t 1``; ROUGE-W's weighted counts are then divided without f^-1, as the tool
does), and ROUGE-1.5.5 prints the mean of its seeded bootstrap instead of the plain mean
(``aggregate=perl-bootstrap``; components are then the printed 5-decimal numbers). Measures: :mod:`.measures`, LCS: :mod:`.lcs`,
P/R/F and references: :mod:`.combine`, text: :mod:`.text` (tokenizers, stemmers, stopwords,
sentence splitting and ``-l``/``-b`` truncation).

Empty documents (no tokens on a side) score 0, as in both tools (ROUGE-1.5.5 warns on stderr);
``empty_document=error`` rejects them instead. A document without any reference is an error.

Profiles: ``rouge-score`` (default), ``rouge-1.5.5``, and ``coco`` (pycocoevalcap's Rouge: ROUGE-L
on ``split(" ")`` tokens, max P and max R over references independently, F_beta with beta 1.2;
research R18). Documents that are one token sequence as tokenised (sentence_split none, no
truncation, stop words or stemming) skip the per-document objects: tokens go to the batch store in
bulk (:func:`_flat_batch`), and plain ROUGE-L of short texts (captions) runs the bit-parallel LCS
per pair on the token strings (:func:`_short_lcs`); all paths give the same numbers.
"""
from __future__ import annotations

import re
from collections import Counter
from functools import partial
from itertools import chain
from typing import Any, Mapping, Sequence

import numpy as np

from assay.core.errors import InputError, KnobError
from assay.core.knobs import Alias, Config, Knob, KnobSet, parse_bool, parse_optional_float
from assay.profiles.registry import Profile, register
from assay.core.stats import SegmentStats
from assay.core.family import MetricFamily, Refs, Segments
from assay.metrics.rouge import combine
from assay.metrics.rouge.lcs import match_masks
from assay.metrics.rouge.text import SENTENCE_SPLITS, STEMMERS, STOPWORDS, TOKENIZERS
from assay.metrics.rouge.measures import PairBatch, Store, clipped_hits, flat, lcs_counts, ngram_counts, skip_bigram_counts, union_lcs_hits, wlcs_counts, wlcs_ref_sum

TYPE_RE = re.compile(r"^rouge(?:(?P<n>[1-9][0-9]*)|(?P<l>Lsum|L)|(?P<w>W)|(?P<s>SU|S)(?P<gap>[0-9]+|\*))$")


# ----------------------------------------------------------------------------- knob parsing
def parse_types(value: Any) -> tuple[str, ...]:
    """``rouge1,rouge2,rougeL`` (or a list) -> a tuple of measure names, each checked."""
    items = [v.strip() for v in value.split(",")] if isinstance(value, str) else [str(v).strip() for v in value]
    items = [v for v in items if v]
    if not items:
        raise ValueError("at least one ROUGE type is needed")
    for name in items:
        if not TYPE_RE.match(name):
            raise ValueError(f"unknown ROUGE type {name!r}: use rouge1..rougeN, rougeL, rougeLsum, rougeW, "
                             "rougeS<gap>, rougeS*, rougeSU<gap>, rougeSU*")
    if len(set(items)) != len(items):
        raise ValueError(f"repeated ROUGE type in {items}")
    return tuple(items)


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


def type_spec(name: str) -> tuple[str, Any]:
    """``("n", N)``, ``("L", None)``, ``("Lsum", None)``, ``("W", None)``, ``("S"|"SU", gap or None)``."""
    m = TYPE_RE.match(name)
    assert m is not None
    if m.group("n"):
        return "n", int(m.group("n"))
    if m.group("l"):
        return m.group("l"), None
    if m.group("w"):
        return "W", None
    gap = m.group("gap")
    return m.group("s"), None if gap == "*" else int(gap)


def _validate(values: Mapping[str, Any]) -> None:
    if not 0.0 <= values["alpha"] <= 1.0:
        raise KnobError(f"alpha must lie in [0, 1], got {values['alpha']}")
    if values["length_limit_words"] is not None and values["length_limit_bytes"] is not None:
        raise KnobError("length_limit_words and length_limit_bytes exclude each other (ROUGE-1.5.5: -l or -b)")
    if values["w_weight"] <= 0:
        raise KnobError(f"w_weight must be positive, got {values['w_weight']}")
    if values["sentence_split"] == "marker" and not values["sentence_marker"]:
        raise KnobError("sentence_split=marker needs sentence_marker")
    if values["averaging"] == "token":
        if values["multi_ref"] in ("average", "max-pr"):
            raise KnobError(f"averaging=token pools counts; multi_ref={values['multi_ref']} has no counts to pool")
    beta = values["beta"]
    if beta is not None:
        if not beta > 0:
            raise KnobError(f"beta must be positive, got {beta}")
        if values["alpha"] != 0.5:
            raise KnobError("beta (F_beta, pycocoevalcap's form) replaces alpha: set one of them "
                            f"(got beta={beta}, alpha={values['alpha']}); beta=none uses alpha")
        if values["aggregate"] == "perl-bootstrap" or values["f_from_rounded_pr"] is not None:
            raise KnobError("beta is pycocoevalcap's F form; ROUGE-1.5.5's bootstrap/rounding use alpha (-p)")
    if values["aggregate"] == "perl-bootstrap" and values["averaging"] == "pr-mean":
        raise KnobError("aggregate=perl-bootstrap reproduces ROUGE-1.5.5, which has no averaging=pr-mean")
    if values["bootstrap_samples"] < 1:
        raise KnobError("bootstrap_samples must be at least 1")
    if not 0 <= values["confidence"] <= 100:
        raise KnobError("confidence must lie in [0, 100]")


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


KNOBS = KnobSet(
    knobs=(
        Knob("types", ("rouge1", "rouge2", "rougeL"), "measures, comma separated; the score is the F of the first: "
             "rougeN (any N), rougeL (LCS of the whole texts), rougeLsum (union LCS over sentences = ROUGE-1.5.5's "
             "ROUGE-L), rougeW (weighted LCS), rougeS<g>/rougeS* (skip-bigrams, at most g gap words / any), "
             "rougeSU<g>/rougeSU* (plus unigrams)", parse_types,
             tool_names="rouge-score rouge_types; ROUGE-1.5.5 -n N, -x, -w, -2 G -u/-U"),
        Knob("tokenizer", "rouge-score", "rouge155 (ASCII lowercasing, bytes), rouge-score (Unicode lower(), "
             "then the same ASCII filter), unicode (keeps letters of every script; no tool), space (str.split(' ') "
             "exactly, no filtering: pycocoevalcap Rouge)", str, TOKENIZERS,
             tool_names="rouge-score tokenizer"),
        Knob("lowercase", True, "lowercase before tokenising (rouge-metric PyRouge: no)", parse_bool),
        Knob("stemmer", "none", "none, rouge155 (WordNet-2.0 exceptions then ROUGE's Porter variant), porter-nltk "
             "(NLTK's Porter, NLTK_EXTENSIONS), porter-rouge155 (ROUGE's Porter without exceptions: rouge-metric "
             "PerlRouge's empty DB), porter-martin, porter-original (NLTK modes)", str, STEMMERS,
             "ROUGE-1.5.5 -m; rouge-score use_stemmer"),
        Knob("stem_min_length", 4, "stem only tokens of at least this many characters (both tools: 4)", int),
        Knob("exceptions_path", "auto", "WordNet-2.0 exception list for stemmer=rouge155 (auto: the installed data)",
             str, tool_names="ROUGE-1.5.5 -e DIR/WordNet-2.0.exc.db"),
        Knob("stopwords", "none", "none or smart (ROUGE-1.5.5 -s, smart_common_words.txt)", str, STOPWORDS,
             "ROUGE-1.5.5 -s"),
        Knob("stopwords_path", "auto", "stop-word list for stopwords=smart (auto: the installed data)", str),
        Knob("sentence_split", "newline", "how a document splits into sentences: newline, none, marker, t-tags",
             str, SENTENCE_SPLITS,
             "rouge-score rougeLsum splits on newlines; ROUGE-1.5.5 SPL: one sentence per line"),
        Knob("sentence_marker", None, "the separator for sentence_split=marker (e.g. <q>)", parse_optional_str),
        Knob("length_limit_words", None, "keep only the first N words of every text, counted on the raw text "
             "(hypothesis and references)", parse_optional_int, tool_names="ROUGE-1.5.5 -l"),
        Knob("length_limit_bytes", None, "keep only the first N bytes of every text", parse_optional_int,
             tool_names="ROUGE-1.5.5 -b"),
        Knob("byte_limit_lcs", "perl", "LCS measures under length_limit_bytes: perl = ROUGE-1.5.5's reader bug "
             "(LCS sees every sentence shorter than the limit, whole, plus the cut first longer one (text."
             "truncate_lcs); clipping "
             "counts and P come from the truncated text, R's denominator from the LCS reader) | truncate",
             str, ("perl", "truncate")),
        Knob("w_weight", 1.2, "ROUGE-W weight: f(k) = k ** w", float, tool_names="ROUGE-1.5.5 -w"),
        Knob("su_last_unigram", "skip", "ROUGE-SU unigrams: skip = positions 0..n-2 only (ROUGE-1.5.5 -u quirk; "
             "a 1-token text has no units) | count", str, ("skip", "count")),
        Knob("alpha", 0.5, "F = P*R / ((1-alpha)*P + alpha*R); alpha -> 1 favours precision", float,
             tool_names="ROUGE-1.5.5 -p"),
        Knob("beta", None, "None, or F_beta = (1+beta^2) P R / (R + beta^2 P) in that float form, 0 when P or R "
             "is 0 (pycocoevalcap Rouge: 1.2); replaces alpha (= 1/(1+beta^2), leave alpha at 0.5)",
             parse_optional_float, tool_names="pycocoevalcap Rouge.beta"),
        Knob("f_from_rounded_pr", None, "None, or 5: round each evaluation's P and R to 5 decimals, compute F "
             "from them and round it (ROUGE-1.5.5)", parse_optional_int, (None, 5)),
        Knob("multi_ref", "best-f", "several references: pool (ROUGE-1.5.5 -f A), best-recall (-f B), best-f "
             "(rouge-score score_multi), average (torchmetrics avg), max-pr (pycocoevalcap Rouge: max P and max R "
             "over references independently, F of those)", str,
             ("pool", "best-recall", "best-f", "average", "max-pr")),
        Knob("averaging", "document", "corpus value: document = mean of per-document P, R, F (-t 0, rouge-score); "
             "token = P, R, F of pooled counts (-t 1); pr-mean = mean P, mean R, F of those (rouge-metric PyRouge "
             "mode='average')", str, ("document", "token", "pr-mean")),
        Knob("aggregate", "mean", "mean, or perl-bootstrap (ROUGE-1.5.5's printed Average: the mean of its seeded "
             "bootstrap-sample means, with its percentile confidence interval)", str, ("mean", "perl-bootstrap")),
        Knob("bootstrap_samples", 1000, "bootstrap samples for aggregate=perl-bootstrap", int,
             tool_names="ROUGE-1.5.5 -r"),
        Knob("confidence", 95.0, "confidence level (percent) of the bootstrap interval", float,
             tool_names="ROUGE-1.5.5 -c"),
        Knob("empty_document", "zero", "a side without tokens: zero = P, R, F 0 (both tools) | error", str,
             ("zero", "error")),
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
    validate=_validate,
)


# ----------------------------------------------------------------------------- text
class _Corpus:
    """Turns raw documents into interned token sentences under one configuration."""

    def __init__(self, config: Config):
        from assay.metrics.rouge import text
        self.text = text
        self.config = config
        self.pipeline = text.TextPipeline(config.tokenizer, config.stemmer, config.stopwords,
                                          stem_min_length=config.stem_min_length,
                                          exceptions_path=config.exceptions_path,
                                          stopwords_path=config.stopwords_path, lowercase=config.lowercase)
        self.vocab: dict[str, int] = {}
        self.need_lcs_reader = (config.length_limit_bytes is not None and config.byte_limit_lcs == "perl"
                                and any(type_spec(t)[0] in ("Lsum", "W") for t in config.types))

    def intern(self, sentences: list[list[str]]) -> list[list[int]]:
        vocab = self.vocab
        setdefault = vocab.setdefault
        return [[setdefault(t, len(vocab)) for t in toks] for toks in sentences]

    def document(self, raw: str) -> "_Doc":
        cfg = self.config
        sentences = self.text.split_sentences(raw, cfg.sentence_split, cfg.sentence_marker)
        lcs_sents = None
        if cfg.length_limit_words is not None or cfg.length_limit_bytes is not None:
            if self.need_lcs_reader:   # ROUGE-1.5.5's LCS reader under -b (research R17)
                lcs_sents = self.intern(self.pipeline.document(
                    self.text.truncate_lcs(sentences, cfg.length_limit_words, cfg.length_limit_bytes)))
            sentences = self.text.truncate(sentences, cfg.length_limit_words, cfg.length_limit_bytes)
        return _Doc(self.intern(self.pipeline.document(sentences)), lcs_sents)


class _Doc:
    """A tokenised document: sentences of ids, the flat sequence, unigram counts (cached)."""

    __slots__ = ("sents", "lcs_sents", "_flat", "_counts", "_ngrams", "_masks")

    def __init__(self, sents: list[list[int]], lcs_sents: list[list[int]] | None = None):
        self.sents = sents
        self.lcs_sents = lcs_sents
        self._flat: list[int] | None = None
        self._counts: Counter | None = None
        self._ngrams: dict[Any, Counter] = {}
        self._masks: list[dict[int, int]] | None = None

    @property
    def masks(self) -> list[dict[int, int]]:
        """Match masks of the sentences the LCS measures read (reused for every hypothesis)."""
        if self._masks is None:
            self._masks = [match_masks(s) for s in _lcs_side(self)]
        return self._masks

    @property
    def flat(self) -> list[int]:
        if self._flat is None:
            self._flat = flat(self.sents)
        return self._flat

    @property
    def counts(self) -> Counter:
        return self.grams(("n", 1))

    def grams(self, key: Any) -> Counter:
        got = self._ngrams.get(key)
        if got is None:
            kind, arg = key[0], key[1]
            if kind == "n":
                got = ngram_counts(self.flat, arg)
            else:
                got = skip_bigram_counts(self.flat, arg, key[2])
            self._ngrams[key] = got
        return got


# ----------------------------------------------------------------------------- the family
COUNT_FIELDS = ("hits", "ref", "peer")
# From this many (hypothesis, reference) pairs on, the counts come from the vectorised PairBatch
# (numpy over all pairs at once); below it the per-pair functions are faster. Both give the same
# numbers (golden cases of 10+ documents run the batch, smaller ones the per-pair code).
BATCH_MIN_PAIRS = 8
SCORE_FIELDS = ("p", "r", "f")


class Rouge(MetricFamily):
    name = "rouge"
    knobset = KNOBS

    def columns(self, config: Config) -> tuple[str, ...]:
        cols = ["docs"]
        for t in config.types:
            cols += [f"{t}:{k}" for k in COUNT_FIELDS + SCORE_FIELDS]
        return tuple(cols)

    # ------------------------------------------------------------------ statistics
    def segment_stats(self, hyps: Segments, refs: Refs, config: Config) -> SegmentStats:
        for i, h in enumerate(hyps):
            if not isinstance(h, str):
                raise InputError(f"document {i + 1}: ROUGE takes each document as a string (sentences separated "
                                 f"per sentence_split), got {type(h).__name__}")
        for k, stream in enumerate(refs):
            for i, r in enumerate(stream):
                if r is not None and not isinstance(r, str):
                    raise InputError(f"reference stream {k + 1}, document {i + 1}: expected a string, got "
                                     f"{type(r).__name__}")
        corpus = _Corpus(config)
        specs = [(t, type_spec(t)) for t in config.types]
        weight = config.w_weight
        su = config.su_last_unigram
        rounding = config.f_from_rounded_pr
        alpha = config.alpha
        beta = config.beta
        # tokenise every distinct text once (hypotheses and references share the cache)
        doc_ids: dict[str, int] = {}
        docs: list[_Doc] = []

        def doc_id(raw: str) -> int:
            got = doc_ids.get(raw)
            if got is None:
                got = doc_ids[raw] = len(docs)
                docs.append(corpus.document(raw))
            return got

        rows = np.zeros((len(hyps), 1 + 6 * len(specs)), dtype=np.float64)
        rows[:, 0] = 1.0
        if not len(hyps):
            return SegmentStats(self.columns(config), rows)
        pair_h: list[int] = []
        pair_r: list[int] = []
        n_refs: list[int] = []
        flat_config = _flat_config(config, specs)
        short = _short_lcs(hyps, refs, corpus) if flat_config and [k for _, (k, _) in specs] == ["L"] else None
        fast = _flat_batch(hyps, refs, corpus, specs) if flat_config and short is None else None
        for i, raw in enumerate(hyps if fast is None and short is None else ()):
            h = doc_id(raw)
            present = [stream[i] for stream in refs if stream[i] is not None]
            if not present:
                raise InputError(f"document {i + 1} has no reference")
            ids = [doc_id(r) for r in present]
            if config.empty_document == "error":
                _check_empty(i, docs[h], [docs[k] for k in ids])
            pair_h += [h] * len(ids)
            pair_r += ids
            n_refs.append(len(ids))
        if short is not None:
            batch, n_refs_arr = None, short[3]
            n_refs = n_refs_arr.tolist()
        elif fast is not None:
            batch, ph, pr, n_refs_arr = fast
            n_refs = n_refs_arr.tolist()
        else:
            ph = np.array(pair_h, dtype=np.int64)
            pr = np.array(pair_r, dtype=np.int64)
            batch = PairBatch([d.flat for d in docs], [_lcs_side(d) for d in docs], ph, pr, len(corpus.vocab)) \
                if len(pair_h) >= BATCH_MIN_PAIRS else None
            n_refs_arr = np.array(n_refs, dtype=np.int64)
        single = bool((n_refs_arr == 1).all())
        first_pair = np.concatenate([[0], np.cumsum(n_refs_arr)])[:-1]
        for t_index, (_, (kind, arg)) in enumerate(specs):
            if short is not None:
                hits, ref_count, peer_count = short[:3]
            elif batch is not None:
                hits, ref_count, peer_count = _batch_counts(batch, kind, arg, docs, ph, pr, weight, su)
            else:
                per_pair = np.array([_counts(kind, arg, docs[h], docs[r], weight, su) for h, r in zip(pair_h, pair_r)],
                                    dtype=np.float64).reshape(-1, 3)
                hits, ref_count, peer_count = per_pair[:, 0], per_pair[:, 1], per_pair[:, 2]
            w = weight if kind == "W" else None
            base = 1 + 6 * t_index
            if single:
                rows[:, base] = hits
                rows[:, base + 1] = ref_count
                rows[:, base + 2] = peer_count
                p, r, f = combine.evaluate_arrays(hits, ref_count, peer_count, w, alpha, rounding, beta)
                rows[:, base + 3], rows[:, base + 4], rows[:, base + 5] = p, r, f
                continue
            if config.multi_ref == "max-pr":   # vectorised: per-pair P, R, then maxima per document
                sums, prf3 = combine.max_pr_arrays(hits, ref_count, peer_count, first_pair, w, alpha, rounding, beta)
                for k in range(3):
                    rows[:, base + k] = sums[k]
                    rows[:, base + 3 + k] = prf3[k]
                continue
            hl, rl, pl = hits.tolist(), ref_count.tolist(), peer_count.tolist()
            for i in range(len(hyps)):
                lo = int(first_pair[i])
                per_ref = [(hl[k], rl[k], pl[k]) for k in range(lo, lo + n_refs[i])]
                keys = None
                if w is not None and config.multi_ref == "best-recall" and len(per_ref) > 1:
                    keys = [c[0] / wlcs_ref_sum(_lcs_side(docs[pair_r[k]]), w) if c[1] > 0 else 0.0
                            for k, c in zip(range(lo, lo + n_refs[i]), per_ref)]
                counts, prf = combine.combine_refs(per_ref, config.multi_ref, w, alpha, rounding, keys, beta)
                row = rows[i]
                row[base:base + 3] = counts
                row[base + 3:base + 6] = prf
        return SegmentStats(self.columns(config), rows)

    # ------------------------------------------------------------------ scores
    def score_stats(self, stats: SegmentStats, config: Config) -> tuple[float, dict[str, Any]]:
        if len(stats) == 0:
            raise InputError("no documents to score")
        components: dict[str, Any] = {}
        boot = None
        if config.aggregate == "perl-bootstrap" and config.averaging != "token":
            # one bootstrap over every type's R, P, F columns (the columns are independent, so
            # this equals one call per type; the resampling loop runs once)
            from assay.metrics.rouge.bootstrap import perl_bootstrap, perl_eval_order
            order = perl_eval_order(len(stats))
            cols = [c for t_index in range(len(config.types)) for c in (1 + 6 * t_index + 4, 1 + 6 * t_index + 3,
                                                                         1 + 6 * t_index + 5)]
            boot = perl_bootstrap(stats.rows[order][:, cols], config.bootstrap_samples, config.confidence)
        for t_index, t in enumerate(config.types):
            base = 1 + 6 * t_index
            counts = stats.rows[:, base:base + 3]
            prf = stats.rows[:, base + 3:base + 6]
            if boot is not None:
                components[t] = _perl_components(*(x[3 * t_index:3 * t_index + 3] for x in boot))
            else:
                components[t] = _aggregate(t, counts, prf, config)
        first = components[config.types[0]]["f"]
        return float(first), components

    def sentence_stats_scores(self, stats: SegmentStats, config: Config) -> list[tuple[float, Any]]:
        types = config.types
        rows = stats.rows

        def components(i: int) -> dict[str, Any]:
            out = {}
            for t_index, t in enumerate(types):
                base = 1 + 6 * t_index
                p, r, f = rows[i, base + 3:base + 6].tolist()
                out[t] = {"p": p, "r": r, "f": f}
            return out

        return [(float(rows[i, 6]), partial(components, i)) for i in range(len(stats))]

    def scores_from_sums(self, sums: np.ndarray, config: Config) -> np.ndarray:
        """Corpus F of the first type from summed rows: the mean of per-document F (averaging=document)
        or the F of pooled counts (token); the perl bootstrap is not a function of sums."""
        if config.aggregate != "mean" or config.averaging == "pr-mean":
            raise KnobError("rouge: this corpus score is not a function of summed statistics")
        sums = np.asarray(sums, dtype=np.float64)
        if config.averaging == "document":
            return sums[:, 6] / sums[:, 0]
        return combine.pooled_prf(sums[:, 1], sums[:, 2], sums[:, 3], config.alpha, beta=config.beta)[2]

    # ------------------------------------------------------------------ presentation
    def signature(self, config: Config, profile: str | None, nrefs: str, tool_version: str | None) -> str:
        from assay.output.signature import assay_signature
        return assay_signature("rouge", config, profile, nrefs)

    def format_text(self, value: float, components: dict[str, Any], config: Config, profile: str | None,
                    signature: str, width: int | None) -> str:
        from assay.output.rouge_text import rouge_text
        return rouge_text(value, components, config, profile, signature, width)


def _flat_config(config: Config, specs: Sequence[tuple[str, tuple[str, Any]]]) -> bool:
    """True when every document is one token sequence as tokenised (no sentences, truncation,
    stop words or stemming; no ROUGE-W, whose normaliser reads sentences): :func:`_flat_batch` applies."""
    return (config.sentence_split == "none" and config.length_limit_words is None
            and config.length_limit_bytes is None and config.stemmer == "none" and config.stopwords == "none"
            and config.empty_document == "zero" and all(kind != "W" for _, (kind, _) in specs))


SHORT_LCS_TOKENS = 128


def _short_lcs(hyps: Segments, refs: Refs, corpus: "_Corpus"
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """ROUGE-L counts (hits, |ref|, |hyp|) of every pair, and references per document, for a
    :func:`_flat_config` corpus of short texts (captions): the bit-parallel LCS of each pair on the
    token strings themselves (no interning). None as soon as a
    reference has more than ``SHORT_LCS_TOKENS`` tokens (the batched path is faster there)."""
    tokenize, lower = corpus.pipeline._tokenize, corpus.pipeline.lowercase
    space = corpus.pipeline.tokenizer == "space" and not lower   # str.split(" ") inline
    hits: list[int] = []
    ref_len: list[int] = []
    peer_len: list[int] = []
    n_refs: list[int] = []
    limit = SHORT_LCS_TOKENS
    for i, h in enumerate(hyps):
        ht = h.split(" ") if space else tokenize(h, lower)
        if len(ht) > limit:
            return None
        # the LCS is symmetric: bit masks over the hypothesis (once per image), one step per
        # reference token (lcs.lcs_length inlined: Allison-Dix / Hyyro bit-parallel recurrence)
        get = match_masks(ht).get
        m = len(ht)
        full = (1 << m) - 1
        k = 0
        for stream in refs:
            r = stream[i]
            if r is None:
                continue
            rt = r.split(" ") if space else tokenize(r, lower)
            if len(rt) > limit:
                return None
            v = full
            for tok in rt:
                u = get(tok, 0) & v
                if u:
                    v = ((v + u) | (v ^ u)) & full
            hits.append(m - v.bit_count())
            ref_len.append(len(rt))
            peer_len.append(len(ht))
            k += 1
        if not k:
            raise InputError(f"document {i + 1} has no reference")
        n_refs.append(k)
    return (np.array(hits, dtype=np.float64), np.array(ref_len, dtype=np.float64),
            np.array(peer_len, dtype=np.float64), np.array(n_refs, dtype=np.int64))


def _flat_batch(hyps: Segments, refs: Refs, corpus: "_Corpus", specs: Sequence[Any]
                ) -> tuple[PairBatch, np.ndarray, np.ndarray, np.ndarray] | None:
    """(batch, pair_h, pair_r, references per document) built in bulk for a :func:`_flat_config`
    configuration: each distinct text tokenised once, token ids from one vocabulary, the token
    store built directly (no per-document objects). The same pairs, in the same order, as the
    general path. None when there are too few pairs for the batch (the general path then runs).
    """
    n = len(hyps)
    width = len(refs)
    present = np.array([[r is not None for r in stream] for stream in refs], dtype=bool).reshape(width, n)
    n_refs = present.sum(axis=0).astype(np.int64)
    if (n_refs == 0).any():
        raise InputError(f"document {int(np.flatnonzero(n_refs == 0)[0]) + 1} has no reference")
    if int(n_refs.sum()) < BATCH_MIN_PAIRS:
        return None
    index: dict[str, int] = {}
    setdefault = index.setdefault
    h_ids = [setdefault(h, len(index)) for h in hyps]
    r_ids = np.array([[setdefault(r, len(index)) if r is not None else -1 for r in stream] for stream in refs],
                     dtype=np.int64).reshape(width, n)
    tokenize, lower = corpus.pipeline._tokenize, corpus.pipeline.lowercase
    toks = [tokenize(t, lower) for t in index]
    vocab = {t: k for k, t in enumerate(dict.fromkeys(chain.from_iterable(toks)))}
    lengths = np.fromiter(map(len, toks), dtype=np.int64, count=len(toks))
    ids = np.fromiter(map(vocab.__getitem__, chain.from_iterable(toks)), dtype=np.int64, count=int(lengths.sum()))
    store = Store.from_flat(ids, lengths)
    mat = r_ids.T                                      # document-major: pairs of document i, streams in order
    pr = mat[present.T]
    ph = np.repeat(np.array(h_ids, dtype=np.int64), n_refs)
    return PairBatch(store, store, ph, pr, len(vocab)), ph, pr, n_refs


def _check_empty(i: int, hyp: _Doc, refs: Sequence[_Doc]) -> None:
    if not hyp.flat:
        raise InputError(f"document {i + 1}: the hypothesis has no tokens (empty_document=error)")
    for k, r in enumerate(refs):
        if not r.flat:
            raise InputError(f"document {i + 1}: reference {k + 1} has no tokens (empty_document=error)")


def _batch_counts(batch: PairBatch, kind: str, arg: Any, docs: Sequence[_Doc], ph: np.ndarray, pr: np.ndarray,
                  weight: float, su: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(hits, ref_count, peer_count) arrays of one measure for every (hypothesis, reference) pair
    (the same numbers as :func:`_counts`, computed for all pairs at once)."""
    if kind == "n":
        out = batch.ngrams(arg)
    elif kind in ("S", "SU"):
        out = batch.skip_bigrams(arg, su if kind == "SU" else None)
    elif kind == "L":
        out = batch.lcs()
    elif kind == "Lsum":
        out = batch.union_lcs()
    else:
        hits = batch.union_wlcs(weight)
        ref_norm = np.array([wlcs_ref_sum(_lcs_side(d), weight) ** weight for d in docs])
        peer_norm = np.array([float(len(d.flat)) ** weight for d in docs])
        out = (hits, ref_norm[pr], peer_norm[ph])
    return tuple(np.asarray(x, dtype=np.float64) for x in out)  # type: ignore[return-value]


def _counts(kind: str, arg: Any, hyp: _Doc, ref: _Doc, weight: float, su: str) -> tuple[float, float, float]:
    """(hits, ref_count, peer_count) of one measure for one reference."""
    if kind == "n":
        h, r = hyp.grams(("n", arg)), ref.grams(("n", arg))
        return clipped_hits(h, r), max(len(ref.flat) - arg + 1, 0), max(len(hyp.flat) - arg + 1, 0)
    if kind in ("S", "SU"):
        key = ("s", arg, su if kind == "SU" else None)
        h, r = hyp.grams(key), ref.grams(key)
        return clipped_hits(h, r), sum(r.values()), sum(h.values())
    if kind == "L":
        return lcs_counts(hyp.flat, ref.flat)
    hyp_lcs, ref_lcs = _lcs_side(hyp), _lcs_side(ref)
    if kind == "Lsum":
        hits = union_lcs_hits(hyp_lcs, ref_lcs, hyp.counts, ref.counts, ref.masks)
        return hits, sum(len(s) for s in ref_lcs), len(hyp.flat)
    hits, ref_norm, _ = wlcs_counts(hyp_lcs, ref_lcs, hyp.counts, ref.counts, weight)
    return hits, ref_norm, float(len(hyp.flat)) ** weight   # P: the truncated hypothesis (as Lsum)


def _lcs_side(doc: _Doc) -> list[list[int]]:
    """The sentences the LCS measures read (ROUGE-1.5.5's byte-limited LCS reader, or the text)."""
    return doc.lcs_sents if doc.lcs_sents is not None else doc.sents


def _aggregate(t: str, counts: np.ndarray, prf: np.ndarray, config: Config) -> dict[str, Any]:
    """The corpus P, R, F of one measure (and ROUGE-1.5.5's interval bounds)."""
    averaging = config.averaging
    if config.aggregate == "perl-bootstrap":
        from assay.metrics.rouge.bootstrap import perl_bootstrap, perl_bootstrap_pooled, perl_eval_order
        order = perl_eval_order(len(counts))
        if averaging == "token":
            avg, low, high = perl_bootstrap_pooled(counts[order, 0], counts[order, 1], counts[order, 2],
                                                   config.bootstrap_samples, config.confidence, config.alpha)
        else:  # perl order of values: R, P, F
            avg, low, high = perl_bootstrap(prf[order][:, [1, 0, 2]], config.bootstrap_samples, config.confidence)
        return _perl_components(avg, low, high)
    if averaging == "token":
        # pooled ratios; ROUGE-W too: ROUGE-1.5.5 -t 1 divides its weighted counts without f^-1
        tot = counts.sum(axis=0)
        p, r, f = (float(x[0]) for x in combine.pooled_prf(tot[0:1], tot[1:2], tot[2:3], config.alpha,
                                                           beta=config.beta))
        return {"p": p, "r": r, "f": f, "hits": _num(tot[0]), "ref_count": _num(tot[1]), "peer_count": _num(tot[2])}
    n = len(prf)
    p = float(np.sum(prf[:, 0]) / n)
    r = float(np.sum(prf[:, 1]) / n)
    if averaging == "pr-mean":
        return {"p": p, "r": r, "f": combine.f_measure(p, r, config.alpha, beta=config.beta)}
    return {"p": p, "r": r, "f": float(np.sum(prf[:, 2]) / n)}


def _perl_components(avg: np.ndarray, low: np.ndarray, high: np.ndarray) -> dict[str, Any]:
    """ROUGE-1.5.5's printed Average and bounds (each ``[R, P, F]``) as components."""
    r5 = combine.round5   # the numbers the script prints (%7.5f)
    r, p, f = (r5(x) for x in avg.tolist())
    return {"p": p, "r": r, "f": f, "p_low": r5(low[1]), "p_high": r5(high[1]),
            "r_low": r5(low[0]), "r_high": r5(high[0]), "f_low": r5(low[2]), "f_high": r5(high[2])}


def _num(x: float) -> float | int:
    return int(x) if float(x).is_integer() else float(x)


FAMILY = Rouge()

# ----------------------------------------------------------------------------- profiles
_ROUGE_SCORE = dict(types=("rouge1", "rouge2", "rougeL"), tokenizer="rouge-score", lowercase=True, stemmer="none",
                    stopwords="none", sentence_split="newline", multi_ref="best-f", averaging="document",
                    aggregate="mean", alpha=0.5, f_from_rounded_pr=None, su_last_unigram="count")
register(Profile(
    "rouge", "rouge-score", "rouge-score", ("0.1.2",), _ROUGE_SCORE,
    "Google's rouge-score RougeScorer(rouge_types, use_stemmer=False): Unicode lower(), [^a-z0-9]+ -> space, "
    "rougeLsum on newline-separated sentences, score_multi keeps the best F per type; corpus value = mean of "
    "per-document P, R, F (its BootstrapAggregator is unseeded and not reproduced)."), default=True)
_ROUGE155 = dict(types=("rouge1", "rouge2", "rougeLsum"), tokenizer="rouge155", lowercase=True, stemmer="none",
                 stopwords="none", sentence_split="newline", multi_ref="pool", averaging="document",
                 aggregate="perl-bootstrap", bootstrap_samples=1000, confidence=95.0, alpha=0.5,
                 f_from_rounded_pr=5, su_last_unigram="skip", byte_limit_lcs="perl")
_COCO = dict(types=("rougeL",), tokenizer="space", lowercase=False, stemmer="none", stopwords="none",
             sentence_split="none", multi_ref="max-pr", averaging="document", aggregate="mean", alpha=0.5, beta=1.2,
             f_from_rounded_pr=None, length_limit_words=None, length_limit_bytes=None, empty_document="zero")
register(Profile(
    "rouge", "coco", "pycocoevalcap", ("1.2",), _COCO,
    "pycocoevalcap's Rouge (COCO caption toolkit): str.split(' ') tokens as given (no lowercasing or filtering; "
    "COCOEvalCap runs its PTBTokenizer first, see the coco metric), LCS with each reference, max P and max R "
    "taken independently over the references, F_beta with beta = 1.2; corpus ROUGE_L = mean of per-image F."))
register(Profile(
    "rouge", "rouge-1.5.5", "ROUGE-1.5.5.pl", ("1.5.5",), _ROUGE155,
    "ROUGE-1.5.5.pl -n 2 (plus its ROUGE-L = rougeLsum), SPL input (one sentence per line): ASCII lowercasing, "
    "-f A pooling, per-evaluation P/R rounded to 5 decimals with F from the rounded values, Average = mean of "
    "1000 seeded bootstrap means with its 95% interval. Flags map to knobs (m, s, l, b, w, p, f, t, r, c)."))
