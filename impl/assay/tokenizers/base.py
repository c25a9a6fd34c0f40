"""The tokenizer interface shared by every metric family.

A tokenizer turns raw segments into token lists. It owns three things that differ between
reference tools and must not be separated: its rewriting rules, where lowercasing happens
relative to them, and how the result is split into tokens (Python ``str.split()`` splits
U+001C-U+001F and all Unicode spaces; Perl's ``split`` on bytes splits ASCII whitespace only).
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Callable, Hashable, Iterator, Literal, Optional, Sequence

if TYPE_CHECKING:
    import numpy as np

Lowercase = Literal["unicode", "perl", "ascii"] | None

IdEncoder = Callable[[Sequence[str]], "tuple[np.ndarray, np.ndarray]"]
"""``lines -> (ids, lengths)``: the int64 ids of every token of every line (one table shared by
the encoder's calls, ids in first-seen order) and each line's token count
(:meth:`Tokenizer.id_encoder`)."""

def lowercase_text(text: str, mode: Lowercase) -> str:
    """Unicode ``str.lower()`` (sacrebleu) or ASCII-only (Perl ``tr/A-Z/a-z/``, byte ``lc``).

    Perl's ``lc`` on decoded text is *not* quite ``str.lower()``: see :func:`perl_lc`.
    """
    if mode is None:
        return text
    if mode == "unicode":
        return text.lower()
    if mode == "perl":
        return perl_lc(text)
    if mode == "ascii":
        return ascii_lower(text)
    raise ValueError(f"unknown lowercase mode {mode!r}")


def ascii_lower(text: str) -> str:
    """``A-Z`` -> ``a-z``, nothing else (Perl ``tr/A-Z/a-z/``, byte ``lc``).

    ``bytes.lower()`` lowercases exactly the ASCII letters, and UTF-8 never uses an ASCII byte
    inside a multi-byte character, so it is done on the UTF-8 bytes (``surrogatepass`` keeps lone
    surrogates); ``str.translate`` with a table is several times slower on non-ASCII text."""
    if text.isascii():
        return text.lower()
    return text.encode("utf-8", "surrogatepass").lower().decode("utf-8", "surrogatepass")


def perl_lc(text: str) -> str:
    """Perl ``lc`` on a decoded (UTF-8) string.

    Checked by running perl 5.36 on every code point: ``lc`` equals Python's ``str.lower()``
    character by character, but Perl has no Final_Sigma context rule, so ``Σ`` always becomes
    ``σ`` (Python gives ``ς`` at the end of a word: ``'ΟΔΟΣ'.lower() == 'οδος'``, Perl ``lc``
    gives ``'οδοσ'``; mteval ``--international-tokenization`` confirmed). Turning every ``Σ``
    into ``σ`` first leaves the context of every other character unchanged (both are cased).
    """
    if "\u03a3" in text:
        text = text.replace("\u03a3", "\u03c3")
    return text.lower()


# Characters Perl's ``\s`` matches on decoded text (perl 5.36, all code points probed):
# Python's ``str.isspace()`` set minus U+001C-U+001F.
PERL_SPACE_CHARS = ("\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006"
                    "\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")
# Perl ``\s`` / ``split ' '`` on undecoded bytes (multi-bleu.perl): ASCII whitespace, \v included.
ASCII_SPACE_CHARS = "\t\n\x0b\x0c\r "

# Python ``str.split()`` also splits on these; Perl's ``\s`` does not. They are the only difference.
PY_ONLY_SPACE_CHARS = "\x1c\x1d\x1e\x1f"
_PERL_SPACE_RUN = re.compile("[" + re.escape(PERL_SPACE_CHARS) + "]+")


def perl_split(text: str) -> list[str]:
    """Perl ``split ' ', $text`` on a decoded string: split on Perl ``\\s`` runs, no empty fields.

    Same as ``str.split()`` except that U+001C-U+001F stay inside tokens.
    """
    if "\x1c" in text or "\x1d" in text or "\x1e" in text or "\x1f" in text:
        return [t for t in _PERL_SPACE_RUN.split(text) if t]
    return text.split()


def perl_collapse(text: str) -> str:
    """Every run of Perl ``\\s`` (decoded text) replaced by one space; nothing trimmed."""
    return _PERL_SPACE_RUN.sub(" ", text)


_ASCII_SPACE_TABLE = str.maketrans({c: " " for c in "\t\n\x0b\x0c\r"})


def ascii_split(text: str) -> list[str]:
    """Perl ``split ' '`` on undecoded bytes: only ``[ \\t\\n\\v\\f\\r]`` separate tokens."""
    return [t for t in text.translate(_ASCII_SPACE_TABLE).split(" ") if t]


def choose_separator(lines: Sequence[str], candidates: str, glue: str = "{}") -> tuple[str, str] | None:
    """Join ``lines`` with a separator character that occurs in none of them.

    Returns ``(sep, joined)`` where ``joined = glue.format(sep).join(lines)``, or ``None`` when
    every candidate occurs in the text (callers then fall back to per-line processing).
    """
    n = len(lines)
    for sep in candidates:
        joined = glue.format(sep).join(lines)
        if joined.count(sep) == n - 1:
            return sep, joined
    return None


def distinct_batch(lines: Sequence[str], batch: Callable[[list[str]], list[list[str]]]) -> list[list[str]]:
    """``batch(lines)``, computed on the distinct lines only when at most half of them are
    distinct (a reference repeated against several systems; below that the bookkeeping costs
    more than it saves). Every returned list is a fresh object, so callers may mutate them.
    Nothing is kept after the call."""
    lines = list(lines)
    distinct = few_distinct(lines)
    if distinct is None:
        return batch(lines)
    table = dict(zip(distinct, batch(distinct)))
    return [table[line].copy() for line in lines]


#: a batch longer than this is first judged on a sample of its lines (:func:`few_distinct`)
SAMPLED_ABOVE = 2048


def few_distinct(lines: list[str]) -> Optional[list[str]]:
    """The distinct lines of ``lines`` in first-seen order when at most half of them are distinct,
    else None. Only speed depends on it: a caller computes on these and gathers, or on every line.

    A batch of more than ``SAMPLED_ABOVE`` lines is first judged on ``m = max(1024, sqrt(8 n))`` of
    its lines at places drawn at random (seed 0, so a run is repeatable): when no two are equal it
    is taken as mostly distinct and no other line is read or hashed. Were at most half of the n
    lines distinct, the sample would hold about ``m^2 / 2n >= 4`` equal pairs or more, and none with
    probability about ``e^-4`` (a missed saving, never another result); a line repeated with any
    period (a reference stream against several systems) is found so, where evenly spaced places
    could miss it. Hashing every line of a long, mostly distinct batch cost about 12 % of BLEU's
    statistics on 100,000 captions."""
    n = len(lines)
    if n > SAMPLED_ABOVE:
        import numpy as np   # local: numpy is not needed to tokenise

        m = max(1024, int((8 * n) ** 0.5) + 1)
        places = np.unique(np.random.default_rng(0).integers(0, n, m)).tolist()
        sample = [lines[i] for i in places]
        if len(set(sample)) == len(sample):
            return None
    distinct = list(dict.fromkeys(lines))
    return None if len(distinct) * 2 > n else distinct


class SharedEncodings:
    """Token ids recorded while one corpus is scored under many configurations, replayed exactly.

    :class:`assay.engine.evaluate.Evaluator` activates one (:meth:`active`) around every statistics
    pass. Inside it, an id encoder of :func:`id_encoder_from` whose sequence of calls so far is the
    same sequence of the same line lists (by identity: the Evaluator passes its own lists) as a
    recorded one, under the same tokenizer and lowercasing (``key``), returns the recorded
    ``(ids, lengths)`` (copies) instead of scanning again: a fresh table fed the same calls in the
    same order gives exactly those arrays. At the first call that differs the encoder builds a fresh
    table, feeds it the calls replayed so far, and goes on scanning. Recording stops at
    ``max_ids`` token ids in all (memory stays bounded: 8 bytes a token).
    """

    def __init__(self, max_ids: int = 4_000_000):
        self.records: dict[Hashable, list[tuple[Sequence[str], tuple[Any, Any]]]] = {}
        self.max_ids = max_ids
        self.n_ids = 0

    @contextmanager
    def active(self) -> Iterator[None]:
        token = _SHARED.set(self)
        try:
            yield
        finally:
            _SHARED.reset(token)


_SHARED: ContextVar[Optional[SharedEncodings]] = ContextVar("assay_shared_encodings", default=None)


def id_encoder_from(new_table: Callable[[], Any], encode_lines: Callable[[Any, list[str]], "tuple[np.ndarray, np.ndarray]"],
                    key: Hashable) -> IdEncoder:
    """An :data:`IdEncoder` from a compiled ``encode_lines(table, lines) -> (ids, lengths)`` that
    interns into one table (``new_table()``: a ``CodeTable`` of :mod:`assay.tokenizers._tok_13a_c`)
    kept across calls. When at most half of a call's lines are distinct (a reference stream
    repeated for several systems), only the distinct lines are scanned and their rows gathered back
    in order (same arrays). ``key`` names the tokenizer and lowercasing: under an active
    :class:`SharedEncodings`, calls already made by an earlier encoder of the same ``key`` are
    replayed from it."""
    import numpy as np   # local: numpy is not needed to tokenise

    shared = _SHARED.get()
    record = shared.records.setdefault(key, []) if shared is not None else None
    table: Any = None
    replayed: list[Sequence[str]] = []   # calls answered from the record (fed to the table on divergence)
    calls = 0
    diverged = False

    def scan(lines: list[str]) -> "tuple[np.ndarray, np.ndarray]":
        distinct = few_distinct(lines)
        if distinct is None:
            return encode_lines(table, lines)
        ids, lengths = encode_lines(table, distinct)
        index = dict(zip(distinct, range(len(distinct))))
        which = np.fromiter(map(index.__getitem__, lines), dtype=np.int64, count=len(lines))
        return gather_rows(ids, lengths, which)

    def encode(lines: Sequence[str]) -> "tuple[np.ndarray, np.ndarray]":
        nonlocal table, calls, diverged
        position = calls
        calls += 1
        if table is None and record is not None and position < len(record) and record[position][0] is lines:
            replayed.append(lines)
            ids, lengths = record[position][1]
            return ids.copy(), lengths.copy()
        if table is None:                   # the first call that is not a replay
            table = new_table()
            for earlier in replayed:
                scan(list(earlier))
            replayed.clear()
            diverged = record is not None and position < len(record)
        out = scan(list(lines))
        if record is not None and shared is not None and not diverged and position == len(record) \
                and shared.n_ids + len(out[0]) <= shared.max_ids:
            record.append((lines, (out[0].copy(), out[1].copy())))
            shared.n_ids += len(out[0])
        else:
            diverged = True
        return out

    return encode


def gather_rows(ids: "np.ndarray", lengths: "np.ndarray", which: "np.ndarray") -> "tuple[np.ndarray, np.ndarray]":
    """The ``(ids, lengths)`` of lines ``which`` (indices into the encoded lines), concatenated."""
    import numpy as np   # local: numpy is not needed to tokenise

    starts = np.zeros(len(lengths), dtype=np.int64)
    np.cumsum(lengths[:-1], out=starts[1:])
    out_lengths = lengths[which]
    out_starts = np.zeros(len(which), dtype=np.int64)
    np.cumsum(out_lengths[:-1], out=out_starts[1:])
    total = int(out_lengths.sum())
    shift = np.repeat(starts[which] - out_starts, out_lengths)
    return ids[shift + np.arange(total, dtype=np.int64)], out_lengths


def lowercaser(mode: Lowercase) -> Optional[Callable[[str], str]]:
    """``lowercase_text(., mode)`` as a one-argument function (None: no lowercasing)."""
    if mode is None:
        return None
    if mode == "unicode":
        return str.lower
    if mode == "perl":
        return perl_lc
    if mode == "ascii":
        return ascii_lower
    raise ValueError(f"unknown lowercase mode {mode!r}")


#: the splits of the compiled ``assay.tokenizers._base_c`` (its module docstring)
SPLIT_PYTHON, SPLIT_PERL, SPLIT_ASCII, SPLIT_SPACE, SPLIT_CHAR = range(5)


def split_twin() -> Any:
    """The compiled plain splits (``assay.tokenizers._base_c``), or None on the pure path."""
    from assay.core import accel   # local: keeps this module free of start-up work

    return accel.load("assay.tokenizers._base_c")


def split_tokenize_lines(lines: Sequence[str], lower: Optional[Callable[[str], str]], kind: int
                         ) -> Optional[list[list[str]]]:
    """The compiled split ``kind`` of every line after ``lower`` (a repeated line scanned once;
    :func:`distinct_batch`); None on the pure path."""
    twin = split_twin()
    if twin is None:
        return None
    return distinct_batch(lines, lambda distinct: twin.tokenize_lines(distinct, lower, kind))


def split_id_encoder(lower: Optional[Callable[[str], str]], kind: int, key: Hashable) -> Optional[IdEncoder]:
    """The compiled id encoder of split ``kind`` after ``lower`` (None on the pure path; ``key``:
    see :func:`id_encoder_from`)."""
    twin = split_twin()
    if twin is None:
        return None
    from assay.tokenizers._tok_13a_c import CodeTable   # local: compiled path only

    return id_encoder_from(CodeTable, lambda table, lines: twin.encode_lines(table, lines, lower, kind), key)


class Tokenizer:
    """Base class: subclasses set ``name`` and ``signature_name`` and implement ``tokenize``.

    - ``tokenize(line)``: the bare tokenizer call, the string the reference tool's tokenizer
      returns (sacrebleu: ``Tokenizer13a()(line)``; mteval: the tokens of ``-c``);
    - ``tokenize_segment(line, lowercase)``: the tokens the tool's *metric* scores, with the
      tool's own lowercasing point and pre-processing (sacrebleu's BLEU lowercases, then
      ``rstrip()``s, then tokenises; mteval lowercases between its rewrite steps), split the
      tool's way;
    - ``tokenize_lines(lines, lowercase)``: ``tokenize_segment`` for a whole corpus, usually in one
      pass; it must equal the per-segment results exactly (property-tested);
    - ``id_encoder(lowercase)``: optionally, text straight to token ids (see the method).
    """

    name: str = ""
    signature_name: str = ""

    def tokenize(self, line: str) -> str:
        raise NotImplementedError

    def split(self, text: str) -> list[str]:
        """Python ``str.split()``: every Unicode whitespace, U+001C-U+001F included."""
        return text.split()

    def tokenize_segment(self, line: str, lowercase: Lowercase = None) -> list[str]:
        """The reference per-segment pipeline: lowercase, tokenise, split.

        ``tokenize_lines`` must return exactly ``[tokenize_segment(l, lowercase) for l in lines]``;
        subclasses that batch a corpus keep this method as the readable definition.
        """
        return self.split(self.tokenize(lowercase_text(line, lowercase)))

    def tokenize_lines(self, lines: Sequence[str], lowercase: Lowercase = None) -> list[list[str]]:
        return [self.tokenize_segment(line, lowercase) for line in lines]

    def id_encoder(self, lowercase: Lowercase = None) -> Optional[IdEncoder]:
        """A function ``lines -> (ids, lengths)`` equal to ``tokenize_lines(lines, lowercase)``
        followed by :func:`assay.text.ngrams.encode` into one vocabulary shared by its calls, or
        None when the tokenizer has none (the default: callers tokenise and intern). A tokenizer
        with a compiled twin overrides it to skip making a ``str`` per token (13a, intl, zh, char,
        none, space, multi-bleu, mteval; :func:`id_encoder_from`)."""
        return None

    def __call__(self, line: str) -> str:
        return self.tokenize(line)

    def __repr__(self) -> str:
        return f"<tokenizer {self.name}>"
