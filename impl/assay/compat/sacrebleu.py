"""sacrebleu-shaped API computed by assay (profiles ``bleu/sacrebleu``, ``chrf/sacrebleu``,
``ter/sacrebleu``): ``BLEU``, ``CHRF``, ``TER`` and the module-level ``corpus_*``/``sentence_*``.

Code written against sacrebleu 2.6.0 switches by changing the import::

    from assay.compat.sacrebleu import BLEU
    bleu = BLEU(tokenize="13a")
    print(bleu.corpus_score(hyps, [refs1, refs2]), bleu.get_signature())

Reproduced call shapes: the constructors take sacrebleu's arguments (plus ``references=`` to cache
reference streams); ``corpus_score(hypotheses, references)`` takes reference *streams* (one list
per reference file, ``None`` for a missing reference: signature ``nrefs:var``);
``sentence_score(hypothesis, references)`` is a one-segment corpus under the object's own settings
(``BLEU().sentence_score`` without ``effective_order`` logs sacrebleu's warning); ``sentence_bleu``
turns effective order on, as sacrebleu's does. Score objects print as sacrebleu's
(``str``/``repr``/``format(width, score_only, signature, is_json)``) and carry its attributes
(BLEU: ``counts totals precisions bp ratio sys_len ref_len``; chrF: ``beta char_order word_order``;
TER: ``num_edits ref_length``); ``.assay`` is the underlying :class:`assay.core.score.Score`.

Differences, on purpose: bad input (a string instead of a list, streams of the wrong length, an
unknown tokenizer) is an :class:`assay.core.errors.InputError`/``KnobError`` with one clear line
(sacrebleu raises ``TypeError``/``KeyError``/``AssertionError``, or silently truncates streams of
the wrong length); ``get_signature()`` before any scoring works (sacrebleu: ``ValueError``), with
``nrefs:1`` until references are seen; ``force`` only exists for compatibility (assay never warns
about tokenised input); ``n_bootstrap`` > 1 is not here (use ``assay significance --confidence``).
"""
from __future__ import annotations

import json
import logging
from typing import Any, Sequence

from assay.core.errors import InputError, KnobError
from assay.core.score import Score as AssayScore
from assay.engine import api
from assay.output import presenter
from assay.output.bleu import _verbose as bleu_verbose
from assay.output.signature import sacrebleu_json

__all__ = ["BLEU", "CHRF", "TER", "BLEUScore", "CHRFScore", "TERScore", "Signature", "corpus_bleu",
           "sentence_bleu", "corpus_chrf", "sentence_chrf", "corpus_ter", "sentence_ter"]

LOG = logging.getLogger("assay.compat.sacrebleu")
EFFECTIVE_ORDER_WARNING = "It is recommended to enable `effective_order` for sentence-level BLEU."

#: sacrebleu's ``trg_lang`` -> tokenizer when ``tokenize`` is not given (BLEU)
TRG_LANG_TOKENIZERS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}

#: sacrebleu's short signature keys (``get_signature().format(short=True)``), per metric
SHORT_KEYS = {
    "bleu": {"nrefs": "#", "case": "c", "eff": "e", "tok": "tok", "smooth": "s", "version": "v"},
    "chrf": {"nrefs": "#", "case": "c", "eff": "e", "nc": "nc", "nw": "nw", "space": "s", "version": "v"},
    "ter": {"nrefs": "#", "case": "c", "tok": "t", "norm": "nr", "punct": "pn", "asian": "as", "version": "v"},
}


# ----------------------------------------------------------------------------- signatures
class Signature:
    """sacrebleu's ``Signature``: ``str()`` is the long form, ``format(short=True)`` the short one."""

    def __init__(self, metric: str, text: str):
        self.metric = metric
        self.text = text

    def format(self, short: bool = False) -> str:
        """``nrefs:1|case:mixed|…`` or, short, ``#:1|c:mixed|…`` (assay's own signatures, for a
        configuration sacrebleu cannot express, are returned unchanged)."""
        if not short or self.text.startswith("assay:"):
            return self.text
        keys = SHORT_KEYS[self.metric]
        parts = (part.partition(":") for part in self.text.split("|"))
        return "|".join(f"{keys.get(k, k)}:{v}" for k, _, v in parts)

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return self.format()

    def __eq__(self, other: object) -> bool:
        return str(self) == str(other)

    def __hash__(self) -> int:
        return hash(self.text)


# ----------------------------------------------------------------------------- scores
class BaseScore:
    """sacrebleu's score object: ``name``, ``score`` and ``format``; ``str()``/``repr()`` print
    ``NAME = 51.44 …`` at 2 decimals, as sacrebleu's do."""

    def __init__(self, name: str, result: AssayScore, verbose: str = ""):
        self.name = name
        self.score = float(result.value)
        self._mean = -1.0
        self._ci = -1.0
        self._verbose = verbose
        self.assay = result

    def format(self, width: int = 2, score_only: bool = False, signature: str = "",
               is_json: bool = False) -> str:
        """sacrebleu's ``format``: ``score_only`` gives the number at ``width`` decimals; ``is_json``
        sacrebleu's JSON (indent 1; the score rounded to ``width``; one key per signature field);
        otherwise ``NAME[|signature] = score [verbose]``."""
        api.check_width(width)
        if score_only:
            return f"{self.score:.{width}f}"
        if is_json:
            doc = sacrebleu_json(self.name, self.score, str(signature), width, self._verbose or None)
            if not signature:
                doc = {k: v for k, v in doc.items() if k in ("name", "score", "verbose_score")}
            return json.dumps(doc, indent=1, ensure_ascii=False)
        head = f"{self.name}|{signature}" if signature else self.name
        text = f"{head} = {self.score:.{width}f}"
        return f"{text} {self._verbose}" if self._verbose else text

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return self.format()


class BLEUScore(BaseScore):
    """sacrebleu's ``BLEUScore``: ``counts``, ``totals``, ``precisions`` (0-100), ``bp``, ``ratio``,
    ``sys_len``, ``ref_len``, ``prec_str``."""

    def __init__(self, result: AssayScore):
        c = result.components
        super().__init__("BLEU", result, bleu_verbose(c))
        self.bp = float(c["bp"])
        self.counts = [int(x) for x in c["counts"]]
        self.totals = [int(x) for x in c["totals"]]
        self.sys_len = int(c["sys_len"])
        self.ref_len = int(c["ref_len"])
        self.precisions = [float(p) for p in c["precisions"]]
        self.prec_str = "/".join(f"{p:.1f}" for p in self.precisions)
        self.ratio = float(c["ratio"])


class CHRFScore(BaseScore):
    """sacrebleu's ``CHRFScore``: name ``chrF{beta}`` plus one ``+`` per word order."""

    def __init__(self, result: AssayScore, beta: Any, char_order: int, word_order: int):
        super().__init__(f"chrF{beta}" + "+" * word_order, result)
        self.beta = beta
        self.char_order = char_order
        self.word_order = word_order


class TERScore(BaseScore):
    """sacrebleu's ``TERScore``: ``num_edits`` and ``ref_length`` (the average reference length summed)."""

    def __init__(self, result: AssayScore):
        super().__init__("TER", result)
        self.num_edits = int(result.components["num_edits"])
        self.ref_length = float(result.components["ref_length"])


# ----------------------------------------------------------------------------- metrics
def _check_hypotheses(hypotheses: Any, cls: str) -> list[str]:
    if isinstance(hypotheses, str) or not isinstance(hypotheses, Sequence):
        raise InputError(f"{cls}: hypotheses must be a list of strings, one per segment, got "
                         f"{'a single string' if isinstance(hypotheses, str) else type(hypotheses).__name__}")
    for i, h in enumerate(hypotheses):
        if not isinstance(h, str):
            raise InputError(f"{cls}: hypothesis {i + 1} is a {type(h).__name__}, not a string")
    return list(hypotheses)


def _check_sentence_refs(references: Any, cls: str) -> list[str]:
    if isinstance(references, str) or not isinstance(references, Sequence):
        raise InputError(f"{cls}: sentence_score's references must be a list of reference strings "
                         "(e.g. [ref]), not a single string")
    return list(references)


class _Metric:
    """One sacrebleu metric object: a fixed assay configuration (built once, so a bad argument fails
    in the constructor, as sacrebleu's mostly do) and the reference count of the last call."""

    family = ""

    def __init__(self, references: Sequence[Sequence[str]] | None = None, **knobs: Any):
        self._configured = api.configure(self.family, "sacrebleu", "corpus", **knobs)
        self._nrefs: str | None = None
        self._ref_cache: list[list[Any]] | None = None
        if references is not None:
            self._ref_cache = [list(s) for s in references]
            self._nrefs = api.nrefs_field(self._ref_cache)

    def _wrap(self, result: AssayScore) -> BaseScore:
        raise NotImplementedError

    def _score(self, hyps: list[str], refs: list[list[Any]]) -> BaseScore:
        result = api.score_configured(self._configured, hyps, refs)
        self._nrefs = api.nrefs_field(refs)
        return self._wrap(result)

    def corpus_score(self, hypotheses: Sequence[str], references: Sequence[Sequence[str]] | None = None,
                     n_bootstrap: int = 1) -> BaseScore:
        """The corpus score of ``hypotheses`` against reference streams (``[refs1, refs2, …]``), or
        against the streams given to the constructor when ``references`` is None."""
        name = type(self).__name__
        if n_bootstrap != 1:
            raise KnobError(f"{name}.corpus_score: n_bootstrap={n_bootstrap} is not supported here; "
                            "use `assay significance METRIC -i HYP -r REF --confidence -n N`")
        hyps = _check_hypotheses(hypotheses, name)
        if references is None:
            if self._ref_cache is None:
                raise InputError(f"{name}.corpus_score: no references given, and none cached by the constructor")
            refs = self._ref_cache
        else:
            refs = api.normalize_refs(hyps, references)
        return self._score(hyps, refs)

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> BaseScore:
        """One segment scored under this object's settings (``references``: a list of strings)."""
        name = type(self).__name__
        if not isinstance(hypothesis, str):
            raise InputError(f"{name}.sentence_score: the hypothesis must be a string, got "
                             f"{type(hypothesis).__name__}")
        refs = _check_sentence_refs(references, name)
        if not refs:
            raise InputError(f"{name}.sentence_score: no reference")
        return self._score([hypothesis], [[r] for r in refs])

    def get_signature(self) -> Signature:
        """sacrebleu's signature of this configuration with the reference count last seen."""
        c = self._configured
        text = presenter(self.family).signature(c.config, c.profile.name, self._nrefs or "1",
                                                c.profile.tool_version)
        return Signature(self.family, text)


class BLEU(_Metric):
    """sacrebleu 2.6.0's ``BLEU`` (profile ``bleu/sacrebleu``)."""

    family = "bleu"

    def __init__(self, lowercase: bool = False, force: bool = False, tokenize: str | None = None,
                 smooth_method: str = "exp", smooth_value: float | None = None, max_ngram_order: int = 4,
                 effective_order: bool = False, trg_lang: str = "",
                 references: Sequence[Sequence[str]] | None = None):
        if tokenize is None:
            tokenize = TRG_LANG_TOKENIZERS.get(trg_lang, "13a")
        self.lowercase, self.force, self.trg_lang = lowercase, force, trg_lang
        self.smooth_method, self.smooth_value = smooth_method, smooth_value
        self.max_ngram_order, self.effective_order = max_ngram_order, effective_order
        self.tokenize = tokenize
        super().__init__(references, tokenize=tokenize, lowercase=lowercase, smooth_method=smooth_method,
                         smooth_value=smooth_value, max_ngram_order=max_ngram_order,
                         effective_order=effective_order)

    def _wrap(self, result: AssayScore) -> BLEUScore:
        return BLEUScore(result)

    def sentence_score(self, hypothesis: str, references: Sequence[str]) -> BaseScore:
        if not self.effective_order:
            LOG.warning(EFFECTIVE_ORDER_WARNING)
        return super().sentence_score(hypothesis, references)


class CHRF(_Metric):
    """sacrebleu 2.6.0's ``CHRF`` (profile ``chrf/sacrebleu``; ``word_order=2`` is chrF++)."""

    family = "chrf"

    def __init__(self, char_order: int = 6, word_order: int = 0, beta: int = 2, lowercase: bool = False,
                 whitespace: bool = False, eps_smoothing: bool = False,
                 references: Sequence[Sequence[str]] | None = None):
        self.char_order, self.word_order, self.beta = char_order, word_order, beta
        self.lowercase, self.whitespace, self.eps_smoothing = lowercase, whitespace, eps_smoothing
        super().__init__(references, char_order=char_order, word_order=word_order, beta=beta,
                         lowercase=lowercase, whitespace=whitespace, eps_smoothing=eps_smoothing)

    def _wrap(self, result: AssayScore) -> CHRFScore:
        return CHRFScore(result, self.beta, self.char_order, self.word_order)


class TER(_Metric):
    """sacrebleu 2.6.0's ``TER`` (profile ``ter/sacrebleu``)."""

    family = "ter"

    def __init__(self, normalized: bool = False, no_punct: bool = False, asian_support: bool = False,
                 case_sensitive: bool = False, references: Sequence[Sequence[str]] | None = None):
        self.normalized, self.no_punct = normalized, no_punct
        self.asian_support, self.case_sensitive = asian_support, case_sensitive
        super().__init__(references, normalized=normalized, no_punct=no_punct, asian_support=asian_support,
                         case_sensitive=case_sensitive)

    def _wrap(self, result: AssayScore) -> TERScore:
        return TERScore(result)


# ----------------------------------------------------------------------------- sacrebleu.compat
def corpus_bleu(hypotheses: Sequence[str], references: Sequence[Sequence[str]], smooth_method: str = "exp",
                smooth_value: float | None = None, force: bool = False, lowercase: bool = False,
                tokenize: str = "13a", use_effective_order: bool = False) -> BaseScore:
    """sacrebleu's ``corpus_bleu``."""
    return BLEU(lowercase=lowercase, force=force, tokenize=tokenize, smooth_method=smooth_method,
                smooth_value=smooth_value, effective_order=use_effective_order).corpus_score(hypotheses, references)


def sentence_bleu(hypothesis: str, references: Sequence[str], smooth_method: str = "exp",
                  smooth_value: float | None = None, lowercase: bool = False, tokenize: str = "13a",
                  use_effective_order: bool = True) -> BaseScore:
    """sacrebleu's ``sentence_bleu`` (effective order on by default)."""
    return BLEU(lowercase=lowercase, tokenize=tokenize, smooth_method=smooth_method, smooth_value=smooth_value,
                effective_order=use_effective_order).sentence_score(hypothesis, references)


def corpus_chrf(hypotheses: Sequence[str], references: Sequence[Sequence[str]], char_order: int = 6,
                word_order: int = 0, beta: int = 2, remove_whitespace: bool = True,
                eps_smoothing: bool = False) -> BaseScore:
    """sacrebleu's ``corpus_chrf`` (``remove_whitespace`` is ``not whitespace``)."""
    return CHRF(char_order=char_order, word_order=word_order, beta=beta, whitespace=not remove_whitespace,
                eps_smoothing=eps_smoothing).corpus_score(hypotheses, references)


def sentence_chrf(hypothesis: str, references: Sequence[str], char_order: int = 6, word_order: int = 0,
                  beta: int = 2, remove_whitespace: bool = True, eps_smoothing: bool = False) -> BaseScore:
    """sacrebleu's ``sentence_chrf``."""
    return CHRF(char_order=char_order, word_order=word_order, beta=beta, whitespace=not remove_whitespace,
                eps_smoothing=eps_smoothing).sentence_score(hypothesis, references)


def corpus_ter(hypotheses: Sequence[str], references: Sequence[Sequence[str]], normalized: bool = False,
               no_punct: bool = False, asian_support: bool = False, case_sensitive: bool = False) -> BaseScore:
    """sacrebleu's ``corpus_ter``."""
    return TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
               case_sensitive=case_sensitive).corpus_score(hypotheses, references)


def sentence_ter(hypothesis: str, references: Sequence[str], normalized: bool = False, no_punct: bool = False,
                 asian_support: bool = False, case_sensitive: bool = False) -> BaseScore:
    """sacrebleu's ``sentence_ter``."""
    return TER(normalized=normalized, no_punct=no_punct, asian_support=asian_support,
               case_sensitive=case_sensitive).sentence_score(hypothesis, references)
