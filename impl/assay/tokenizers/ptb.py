"""Clean-room PTB tokenizer as pycocoevalcap 1.2 runs it (Stanford CoreNLP 3.4.1 ``PTBTokenizer``).

pycocoevalcap's ``PTBTokenizer.tokenize`` writes every caption on its own line (newlines inside a
caption become spaces), runs ``java -cp stanford-corenlp-3.4.1.jar edu.stanford.nlp.process.PTBTokenizer
-preserveLines -lowerCase FILE`` once over the whole file, splits each output line on ``' '`` and drops
the tokens ``'' ' `` ` -LRB- -RRB- -LCB- -RCB- . ? ! , : - -- ... ;``.

This module reproduces that from the Penn Treebank conventions, the CoreNLP option documentation
(ptb3Escaping defaults of 3.4.1: brackets -> -LRB-/-LSB-/-LCB-, ASCII quotes -> `` '', ellipsis ->
``...``, dashes -> ``--``, lossy currency and fraction mapping, ``&amp;`` -> ``&``, spaces inside a token
-> U+00A0, untokenizable characters deleted) and black-box experiments with the jar. It contains no
CoreNLP code. The character table and the abbreviation lists at the bottom were *measured*: every BMP
character and every capitalised/lower/upper 1-4 letter string (plus a vocabulary) was run through the
jar (``conformance/regen_ptb.py --probe``).

Quirks reproduced (all observed on the jar):

* ``-lowerCase`` lowercases every token, so the wrapper's ``-LRB-``/``-RRB-``/``-LCB-``/``-RCB-`` entries
  never match and ``-lrb- -rrb- -lcb- -rcb- -lsb- -rsb-`` survive in the COCO output;
* an abbreviation that can end a sentence (``Inc.``, ``Calif.``, ``Jan.``) gets an extra ``.`` token when
  the next non-space character is an upper-case letter -- *also across the line break*, i.e. the
  result for one caption depends on the first word of the next caption in the wrapper's batch -- or
  when it is the end of the input; acronyms and single letters (``U.S.``, ``A.``) get it only when a
  sentence-start word (``The``, ``He``, ``It`` ...) follows;
* ``"`` becomes `````` before ``[A-Za-z0-9$]`` and ``''`` otherwise; ``'`` becomes ````` before an ASCII
  letter that is not the last character of its token;
* clitics are split (``do n't``, ``it 's``, ``gon na``, ``can not``, ``'t is``);
* ``No.``/``Nos.``/``ca.`` before a number is one token (``no.``), also glued to it (``no.555`` ->
  ``no. 555``), after ``"``/``(``/``&quot;`` and across the line break; the end-of-input rules see
  the last line's trailing blanks (``we'll `` at the very end is ``we 'll``, ``we'll`` is ``we ` ll``);
* found by differential runs on real text (E2E references and outputs, COCO, DART, CNN/DM, WMT22
  English; ``conformance/tests/tokenizers/test_ptb_corpora_refs.py``): a word or number right before
  ``.,`` ``.;`` ``.:`` keeps its period (``center.,`` -> ``center. ,``: E2E CIDEr moves in the 4th
  decimal without it); a period right before a hyphen and a word joins them (``day.-xinhua``,
  ``u.s.-iranian``); the jar's own escapes in the input (``-LRB-``, ``-rsb-``) stay one token;
  ``'n`` is a token only before a blank or a quote (``'n*****'`` -> `````` ``n`` ...); a hashtag takes
  non-ASCII letters (``#café``).

Speed: a batch is cut into whitespace-free chunks; each distinct chunk is lexed once and its
wrapper string cached, and a plain line is the join of its chunks' strings (:func:`plain_lines_py`;
compiled twin ``assay.tokenizers._ptb_c.plain_lines``, :mod:`assay.core.accel`). A chunk whose
tokens depend on its neighbours (a kept abbreviation period, ``No.``, tags, ``3 1/2``, ``. . .``)
is scanned in context from its start until the scanner reaches the next chunk start (the lexer
keeps no state but its position), then chunks resume. A plain line may hold non-ASCII text
(:func:`plain_table`): letters, symbols, quotes, dashes ..., and the characters the jar deletes
(U+00A0, U+200B, U+3000, CJK brackets ...) cut it into chunks like a space; only control
characters, the other spaces (U+0085, line breaks) and characters outside the BMP send a line to
the lexer.

Public API: :func:`ptb_tokenize` (raw jar tokens, lowercased), :func:`coco_tokenize` (the wrapper's
output string for one caption) and :func:`coco_tokenize_lines` (a batch, with the cross-line context
exactly as the wrapper's single jar run sees it; use it to reproduce ``PTBTokenizer.tokenize`` on a
dict of captions: pass the captions in the dict's iteration order).

Not idempotent, like the jar (``R&D`` -> ``r&d`` -> ``r & d``; ``US$`` -> ``us$`` -> ``us $``).

Known divergences (named, with input patterns, in ``conformance/references/ptb_ref.py``; all are
pieces glued together without spaces or rare jar rules that were not measured in full):
KD-PTB-01 ``n't``/``'s`` followed by letters, digits/non-ASCII glued before ``n't``; KD-PTB-02 line
breaks other than ``\n`` (``\r``, U+2028/2029) shift the wrapper's pairing (reproduced by
``coco_tokenize_lines`` only); KD-PTB-03 ``'05`` before punctuation; KD-PTB-04 non-ASCII quotes glued to
words; KD-PTB-05 URLs/e-mails/handles touching other text; KD-PTB-06 one-letter word glued before an
apostrophe word; KD-PTB-07 dotted acronyms glued after letters/digits; KD-PTB-08 ``Co. Ltd.``;
KD-PTB-09 ``555-1212 100`` (the jar joins it with U+00A0); KD-PTB-10..18 (listed in
``conformance/tests/tokenizers/test_ptb_corpora_refs.py``): slashes after numbers, ``16:10-16:30``,
a backslash before a symbol, a URL before ``;``, ``china-u.s.``, ``word@@``, ``didn`t``, bare domains
with a path, and ``100 555-1212`` (phone-like digit groups, joined with U+00A0 by the jar).
Measured agreement: 100 % of the 4,510 captions in ../shared/corpora (thumb-mscoco, clipscore-example),
100 % of the 17,923 E2E references and primary outputs, DART (12,604 lines) and CNN/DM summaries
(2,477), 99.85 % of 41,201 WMT22 English lines; 100 % of plain generated captions, 99.8-99.9 % of
adversarial generated captions.
"""
from __future__ import annotations

import re
from functools import lru_cache
from itertools import chain, repeat
from typing import Any, Callable, NamedTuple, Sequence

from assay.core import accel
from assay.core.items import only_strings

try:
    from assay.tokenizers import _ptb_c as _compiled
except ImportError:        # not built: the pure path
    _compiled = None
_compiled = accel.use(_compiled, __name__)

__all__ = ["ptb_tokenize", "ptb_tokenize_lines", "coco_tokenize", "coco_tokenize_lines", "coco_encode_lines",
           "has_line_breaks", "COCO_PUNCTUATION", "LINE_BREAKS"]

#: tokens pycocoevalcap 1.2's wrapper deletes (compared after -lowerCase, so the bracket entries never match)
COCO_PUNCTUATION: frozenset[str] = frozenset(
    ["''", "'", "``", "`", "-LRB-", "-RRB-", "-LCB-", "-RCB-", ".", "?", "!", ",", ":", "-", "--", "...", ";"])
#: characters the jar treats as a line break (besides ``\n``); see KD-PTB-02
LINE_BREAKS = "\r\u2028\u2029"


def _char_class(ranges: str) -> str:
    """Regex character-class body from a whitespace-separated list of hex code points / ranges."""
    out = []
    for item in ranges.split():
        lo, _, hi = item.partition("-")
        out.append(re.escape(chr(int(lo, 16))))
        if hi:
            out.append("-" + re.escape(chr(int(hi, 16))))
    return "".join(out)


# ----------------------------------------------------------------------------- character classes
# (tables at the end of the module; measured on the jar, one BMP character at a time)
def _classes() -> dict[str, str]:
    return {k: _char_class(v) for k, v in (("S", _RANGES_S), ("R", _RANGES_R))}


_SHADOW_LETTER = "\ue000"  # a private-use character: in the input it is deleted like every X character


def _shadow_table() -> dict[int, int]:
    """Non-ASCII letter-like characters -> one placeholder letter, deleted characters -> space.

    The lexer matches its rules on this same-length "shadow" of the text (small character classes,
    fast to compile and match) and cuts the tokens out of the original text."""
    table: dict[int, int] = {}
    for ranges, target in ((_RANGES_X, 0x20), (_RANGES_L + " 3A3", ord(_SHADOW_LETTER))):
        for item in ranges.split():
            lo, _, hi = item.partition("-")
            for cp in range(int(lo, 16), int(hi or lo, 16) + 1):
                table[cp] = target
    return table


_NORMALISE = {  # single characters the jar rewrites (ptb3Escaping, normalizeCurrency, normalizeFractions)
    "(": "-LRB-", ")": "-RRB-", "[": "-LSB-", "]": "-RSB-", "{": "-LCB-", "}": "-RCB-",
    "\u00a2": "cents", "\u00a3": "#", "\u00a4": "$", "\u20a0": "$", "\u20ac": "$", "\x80": "$",
    "\u00bc": "1/4", "\u00bd": "1/2", "\u00be": "3/4", "\u2153": "1/3", "\u2154": "2/3",
    "\u2013": "--", "\u2014": "--", "\u2015": "--", "\x96": "--", "\x97": "--",
    "\u2026": "...", "\x85": "...", "\u00ad": "-",
}
_QUOTE_RUNS = {  # a run of one of these characters is one token: n copies of the mapped quote
    "\u201c": "``", "\u00ab": "``", "\x93": "``",
    "\u201d": "''", "\u00bb": "''", "\x94": "''",
    "\u2018": "`", "\u201b": "`", "\u2039": "`", "\x91": "`",
    "\u2019": "'", "\u203a": "'", "\x92": "'",
}


_ENTITIES = {"&amp;": "&", "&AMP;": "&", "&lt;": "<", "&LT;": "<", "&gt;": ">", "&GT;": ">",
             "&quot;": "''", "&apos;": "'"}


def _abbrev_set(words: str) -> frozenset[str]:
    return frozenset(words.split())


class _Lexer:
    """Longest-match scanner over ordered rules (ties go to the earlier rule), like a JFlex lexer."""

    def __init__(self) -> None:
        c = _classes()
        let = "A-Za-z" + _SHADOW_LETTER        # letters (non-ASCII letter-like ones via the shadow)
        self.shadow = _shadow_table()
        an = "0-9\u00ad" + let  # a soft hyphen touching a word is part of it (and dropped)
        self.sep = re.compile("[ \t\x00-\x09\x0b\x0c\x0e-\x1f\x7f\u00a0]+")
        # measured: "_" joins runs of letters and digits that hold no soft hyphen ("a_b", but "\u00ad_a",
        # "a\u00ad_b", "ab\u00adcd_ef" are "-" "_" "a", "a" "_" "b", "abcd" "_" "ef"); otherwise soft hyphens
        # lead, trail or sit inside the letters and are dropped
        alnum = "0-9" + let
        unit = r"(?:[%s]+(?:_[%s]+)+|\u00ad*[%s](?:[%s]*[%s])?\u00ad*)" % (alnum, alnum, alnum, an, alnum)
        word = r"(?=[%s_]*[%s_])%s(?:[.!?][%s]%s)*" % (an, let, unit, let, "(?:" + unit + ")?")
        num = r"(?:[0-9]+(?:[.,:/][0-9]+)*|[.,:][0-9]+(?:[.,:/][0-9]+)*)"
        hpart = r"(?:%s|%s[A-Za-z0-9]*)" % (word, num)  # "3.5mmx-ray" is one token
        hyph = r"[\u2010\u2011\u058a/-]"
        self.let = let
        V = "aeiouyAEIOUY"
        clitic_ahead = r"(?!(?i:[sdmt]|ll|re|ve)(?![%s]))" % let
        apos = "['\u2019]"
        rules: list[tuple[str, str]] = [
            ("sgml", r"</?[A-Za-z!?][^<>\n]*>"),
            ("url", r"(?:(?i:https?|ftp|file)://|(?i:www)\.)(?:[^\s<>\"{}|\\^`\[\]]*[^\s<>\"{}|\\^`\[\].,;:!?'()])?"),
            ("email", r"[A-Za-z0-9._%%+-]*[A-Za-z0-9]@+[A-Za-z0-9][A-Za-z0-9.-]*[A-Za-z0-9]|[A-Za-z0-9]@[A-Za-z0-9]"),
            ("mention", r"@[A-Za-z0-9_]+"),
            ("hashtag", r"#[%s]+" % let),   # measured: non-ASCII letters too ("#café", "#买了")
            ("phone", r"\([0-9]{3}\)[ \u00a0]?[0-9]{3}-[0-9]{4}"),
            ("fraction", r"[0-9]+[ \u00a0][0-9]+/[0-9]+"),
            ("hyphword", r"%s(?:%s%s)+" % (hpart, hyph, hpart)),
            ("word", word),
            ("number", r"[-+]?" + num),
            ("acro", r"[A-Za-z](?:\.[A-Za-z])+\.?|[A-Za-z]\."),
            # measured: "No."/"Nos." before a number, also glued to it ("no.555" -> "no." "555"), and
            # "ca." before a number keep their period
            ("numabbrev", r"[Nn][Oo][Ss]?\.(?=\s*[0-9])|[Cc]a\.(?=\s*[0-9])"),
            # measured: a word or number right before ".," ".;" ".:" keeps the period ("center.," ->
            # "center." ","; the jar reads a period inside the sentence as an abbreviation's)
            ("inperiod", r"(?:%s|[0-9]+)(?:-(?:%s|[0-9]+))*\.(?=[,;:])" % (word, word)),
            # measured: a period right before a hyphen and a word or number joins them ("day.-xinhua",
            # "u.s.-iranian", "1.-go"; once: "ab.-cd.-ef" -> "ab.-cd" "." "-" "ef")
            ("dothyph", r"(?:[A-Za-z](?:\.[A-Za-z])+|%s|[0-9]+)\.-(?:%s|[0-9]+)(?:-(?:%s|[0-9]+))*"
             % (word, word, word)),
            # measured: the jar's own bracket escapes in the input stay one token ("-LRB-", "-rsb-")
            ("bracket", r"-(?i:lrb|rrb|lsb|rsb|lcb|rcb)-"),
            ("abbrev", r"(?i:ph\.d\.|ed\.d\.)|[A-Za-z]+\."),
            ("apoword", r"(?:[%s]+[%s]|J)%s%s(?:[aeiouAEIOU]|[A-Z])[%s]*" % (let, V, apos, clitic_ahead, let)),
            ("apoword1", r"(?:[dlno]|[A-HJ-XZ])%s%s[%s]{2,}" % (apos, clitic_ahead, let)),
            ("apoletter", r"[dlDL]%s(?=[%s](?![%s]))%s" % (apos, let, let, clitic_ahead)),
            ("apospecial", r"(?i:c%smon|e%ser|%s(?:em|cause|til|till)|%sn%s|%sn(?=[\s\u00a0]|\Z))" % (apos, apos, apos, apos, apos, apos)),
            ("apoprefix", r"(?:ol|OL|Ol|oL)%s|(?:[yY]|j)%s(?=[%s])(?![sSlL])" % (apos, apos, let)),
            ("clitic", r"%s(?:[sSdDmM](?![A-Za-z])|(?:[lL][lL]|[rR][eE]|[vV][eE])(?=[^A-Za-z]))" % apos),
            # (measured: 'll 're 've need a following character -- "we'll" at the very end -> "we ` ll")
            ("nt", r"[nN]%s[tT][%s]*" % (apos, let)),
            ("tis", r"%s[tT](?=(?:[iI][sS]|[wW][aA][sS])(?![A-Za-z]))" % apos),
            ("year", r"['\u2019][0-9]{2}(?=[^0-9A-Za-z])|'[5-9]0[sS](?=[^0-9A-Za-z])"),
            ("amp", r"[A-Z]+&[A-Z]+|(?i:&(?:amp|lt|gt|quot|apos|nbsp);)|&#[0-9]+;"),
            ("currency", r"[A-Z]+\$"),
            ("smiley", r"[:;=]-?[()DPp\[\]](?=[^A-Za-z0-9])"),  # needs a following character
            ("ellipsis", r"\.\.\.+|\.(?: \.){2,}"),
            ("bang", r"[!?]+"),
            ("dashes", r"--+"),
            ("dquote", r'"'),
            ("squote2", r"''|``"),
            ("squote", r"'"),
            ("runs", r"\*+|<<|>>|#+|_+"),
        ]
        self.rules = [(name, re.compile(pat)) for name, pat in rules]
        starts = {"sgml": "<", "url": "hHfFwW", "mention": "@", "hashtag": "#", "phone": "(", "smiley": ":;=",
                  "ellipsis": ".", "bang": "!?", "dashes": "-", "dquote": '"', "squote2": "'`", "squote": "'",
                  "runs": "*<>#_", "bracket": "-", "clitic": "'\u2019", "tis": "'\u2019", "year": "'\u2019"}
        self._starts = {k: frozenset(v) for k, v in starts.items()}
        self._dispatch: dict[str, list[tuple[str, "re.Pattern[str]"]]] = {}
        self.nt = dict(self.rules)["nt"]
        self.run_chars = re.compile("[%s]+" % c["R"])
        self.sym_chars = re.compile("[%s]" % c["S"])
        self.quote_run = re.compile("(%s)" % "|".join("%s+" % re.escape(q) for q in _QUOTE_RUNS))
        self.never = _abbrev_set(_ABBREV_NEVER)
        self.final = _abbrev_set(_ABBREV_FINAL) | {"Ph.D", "Ed.D", "PH.D", "ED.D"}
        self.final_ctx = re.compile(r"\s+|\Z")
        self.start_ctx = re.compile(r"\s+(?:(?:%s)\s|(?:Mr|Ms|MR|MS)\.(?:\s|\Z)|</?[A-Za-z!?][^<>\n]*>)" % "|".join(
            w for s in _START_WORDS.split() for w in (s, s.upper())))  # measured: "Mr."/"Ms." count too
        self.split_words = {"cannot": 3, "gonna": 3, "gotta": 3, "wanna": 3, "lemme": 3, "gimme": 3}
        self.dq_open = re.compile(r"[A-Za-z0-9$]")
        self.sq_open = re.compile(r"[A-Za-z][^\s\u00a0]")

        self.chunks = re.compile("[^ \t\x00-\x09\x0b\x0c\x0e-\x1f\x7f\u00a0]+")
        self.cache: dict[str, list[str] | None] = {}
        self.pieces: dict[str, str] = {}  # chunk -> its COCO string (_CONTEXT: needs its neighbours)
        # "No." before a number is one token ("No. 5", also across a line break) wherever a token can
        # start at its "N" (after "(", '"', "&quot;" ...): such chunks are scanned in context
        self.multi_chunk = re.compile("<|\\([0-9]|(?:\\A|[^A-Za-z0-9_\u00ad])(?:[Nn][Oo][Ss]?|[Cc]a)\\.\\Z")

    # ------------------------------------------------------------------ fast path
    def _chunk(self, chunk: str) -> list[str] | None:
        """Lowercased tokens of a whitespace-free chunk, or None when they depend on its neighbours
        (a token may span the following space -- fraction, phone number, tag, spaced ellipsis -- or a
        kept abbreviation/acronym period looks at the next word)."""
        if self.multi_chunk.search(chunk):
            return None
        toks = self.tokens(chunk + " ")[0]  # a separator follows (the end of input is handled apart)
        if chunk.endswith(".") and any(len(t) > 1 and t.endswith(".") and t != "..." for t in toks):
            return None
        return [t.lower() for t in toks]

    def piece(self, chunk: str) -> str:
        """The wrapper's string for a chunk of a plain line (its tokens minus the punctuation
        list, joined by spaces; ``""`` when nothing is left), or ``_CONTEXT`` when it depends on
        its neighbours."""
        toks = self.cache.get(chunk, _MISSING)
        if toks is _MISSING:
            if len(self.cache) > 200_000:    # bounded as in :meth:`_line` (long CJK chunks are many)
                self.cache.clear()
            toks = self.cache[chunk] = self._chunk(chunk)
        if toks is None:
            toks = self._coco_chunk(chunk)
        got = _CONTEXT if toks is None else " ".join([t for t in toks if t not in COCO_PUNCTUATION])
        self.pieces[chunk] = got
        return got

    def _coco_chunk(self, chunk: str) -> list[str] | None:
        """The tokens of a chunk that :meth:`_chunk` leaves to its context, when the wrapper's string does
        not depend on that context after all; else None.

        What follows a chunk only decides whether a token kept with its period at the chunk's end gets
        an extra ``.`` token (a sentence-final abbreviation before a capital or at the end, an acronym
        before a sentence-start word: :meth:`_emit`); the wrapper deletes ``.`` tokens, so its string is
        the same either way -- except for a single letter, which gives its period back before a
        sentence-start word (``A. The`` -> ``a . the``, but ``A. the`` -> ``a. the``). Chunks that may
        span the blank after them (``No. 5``, tags, ``(555)``) stay context-dependent."""
        if self.multi_chunk.search(chunk):
            return None
        toks = self.tokens(chunk + " ")[0]
        if toks and toks[-1] == ".":          # the extra period the end of this scan adds
            toks = toks[:-1]
        if not toks or (len(toks[-1]) == 2 and toks[-1][1] == "."):
            return None
        return [t.lower() for t in toks]

    def coco_lines(self, lines: Sequence[str]) -> list[str]:
        """The wrapper's strings for physical lines (no line breaks inside) of one jar input.

        A plain line (:func:`plain_table` characters, no ". . ." or "3 1" across a blank) is the
        join of its chunks' cached strings (each distinct chunk lexed once); a line holding a
        chunk that needs its neighbours, every other line, and the last one (end-of-input rules)
        go through :meth:`line` and the wrapper's filter. The plain lines are made 65,536 at a time,
        the cached strings dropped between blocks past 400,000 (memory stays bounded when most
        chunks are distinct, as whole CJK sentences are)."""
        if not lines:
            return []
        pieces = self.pieces
        plain = _compiled.plain_lines if _compiled is not None else plain_lines_py
        out: list[Any] = []        # str, None for a line the lexer makes below
        for start in range(0, len(lines) - 1, _BLOCK):
            if len(pieces) > 400_000:
                pieces.clear()
            out += plain(list(lines[start:min(start + _BLOCK, len(lines) - 1)]), pieces, self.piece)
        for i in [i for i, got in enumerate(out) if got is None]:
            out[i] = _coco_line(self.line(lines[i], lines[i + 1]))
        out.append(_coco_line(self.line(lines[-1], None)))
        return out

    def coco_ids(self, lines: Sequence[str], vocab: dict[str, int]) -> tuple[Any, Any] | None:
        """The compiled twin's ``(ids, offsets)``: the ``str.split()`` tokens of the wrapper's string of
        each of ``lines`` (physical lines of one jar input, as :meth:`coco_lines`) interned into
        ``vocab`` in order of first occurrence, without making the strings of plain lines; None when
        the twin is not built (the caller interns the split of :meth:`coco_lines` instead)."""
        if _compiled is None:
            return None
        if len(self.pieces) > 400_000:
            self.pieces.clear()
        last = len(lines) - 1

        def line_string(i: int) -> str:
            return _coco_line(self.line(lines[i], lines[i + 1] if i < last else None))
        return _compiled.plain_encode(list(lines), self.pieces, self.piece, line_string, vocab)

    def line(self, line: str, following: str | None) -> list[str]:
        """Lowercased tokens of one line (no line breaks inside), ``following`` = the next line or None."""
        if following is None or _PLAIN.fullmatch(line) is None:
            # the last line of the input: end-of-input rules see its trailing blanks ("we'll " at the
            # very end is "we 'll", "we'll" is "we ` ll"), which the chunk path below drops
            return self._line(line, following)
        # printable ASCII separated by spaces: cached chunks (the common case)
        cache = self.cache
        out: list[str] = []
        chunks = line.split()
        last = len(chunks) - 1
        for k, chunk in enumerate(chunks):
            toks = cache.get(chunk, _MISSING)
            if toks is _MISSING:
                toks = cache[chunk] = self._chunk(chunk)
                if len(cache) > 200_000:
                    cache.clear()
            if toks is None:
                return self._line(line, following)
            tail = chunk[-1]
            if k < last and (tail == "." or "0" <= tail <= "9"):
                nxt = chunks[k + 1][0]
                if (tail == "." and nxt == ".") or ("0" <= tail <= "9" and "0" <= nxt <= "9"):
                    return self._line(line, following)  # "3 1/2", "555-1212 555", ". . ." span the space
            out += toks
        return out

    def _line(self, line: str, following: str | None) -> list[str]:
        """Chunk by chunk from the cache; a chunk whose tokens depend on its neighbours is scanned
        in context, from its start, until the scanner reaches the start of a later chunk (it has no
        look-behind and no state but its position, so from there on the chunks are independent again)."""
        out: list[str] = []
        cache = self.cache
        sh = line if line.isascii() else line.translate(self.shadow)
        found = list(self.chunks.finditer(sh))
        n = len(found)
        k = 0
        while k < n:
            m = found[k]
            chunk = line[m.start():m.end()]
            try:
                toks = cache[chunk]
            except KeyError:
                toks = cache[chunk] = self._chunk(chunk)
                if len(cache) > 200_000:
                    cache.clear()
            if toks is not None and following is None and k + 1 == n:
                toks = None  # end of input: some rules need a following character
            if toks is not None and k + 1 < n:
                nxt = line[found[k + 1].start()]
                last = chunk[-1]
                if (last.isdigit() and nxt.isdigit()) or (last == "." and nxt == "."):
                    toks = None  # "3 1/2", "555-1212 555", ". . ." span the space
            if toks is None:  # scan in context from here, back to chunks at the next chunk start reached
                base = m.start()
                rest = line[base:]
                src = rest if following is None else rest + "\n" + following
                starts = {found[j].start() - base: j for j in range(k + 1, n)}
                lines, stop = self._scan(src, starts)
                out += [t.lower() for t in lines[0]]
                if stop is None:
                    return out
                k = starts[stop]
                continue
            out += toks
            k += 1
        return out

    # ------------------------------------------------------------------ scanning
    def tokens(self, text: str) -> list[list[str]]:
        """Tokenise ``text`` (lines separated by ``\\n``); one token list per line, not yet lowercased."""
        return self._scan(text, None)[0]

    def _scan(self, text: str, sync: dict[int, int] | None) -> tuple[list[list[str]], int | None]:
        """:meth:`tokens`, stopping at the first position in ``sync`` where a token would start
        (returned as the second item; None when the scan ran to the end of ``text``)."""
        lines: list[list[str]] = [[]]
        out = lines[-1]
        i, n = 0, len(text)
        sh = text if text.isascii() else text.translate(self.shadow)
        sep = self.sep
        while i < n:
            if sync is not None and i in sync:
                return lines, i
            ch = text[i]
            if ch == "\n" or ch in LINE_BREAKS:
                out = []
                lines.append(out)
                i += 1
                continue
            m = sep.match(sh, i)
            if m:
                j = m.end()
                k = text.find("\n", i, j)
                if k < 0:
                    for br in LINE_BREAKS:
                        kk = text.find(br, i, j)
                        if kk >= 0 and (k < 0 or kk < k):
                            k = kk
                i = k if k >= 0 else j
                continue
            best_len, best = 0, None
            sch = sh[i]
            rules = self._dispatch.get(sch)
            if rules is None:
                rules = self._dispatch[sch] = [(nm, rx) for nm, rx in self.rules
                                               if nm not in self._starts or sch in self._starts[nm]]
            for name, rx in rules:
                mm = rx.match(sh, i)
                if mm and mm.end() - i > best_len:
                    best_len, best = mm.end() - i, (name, mm)
            if best is None:
                i = self._single(text, i, out)
                continue
            name, mm = best
            i = self._emit(name, mm, text, sh, out)
        return lines, None

    def _single(self, text: str, i: int, out: list[str]) -> int:
        ch = text[i]
        if ch > "\uffff":  # outside the BMP (emoji, math letters): deleted, like a space (measured)
            return i + 1
        m = self.quote_run.match(text, i)
        if m:
            out.append(_QUOTE_RUNS[ch] * (m.end() - i))
            return m.end()
        if ch == "\u00ad":  # a run of soft hyphens on its own is one "-"
            j = i
            while j < len(text) and text[j] == ch:
                j += 1
            out.append("-")
            return j
        if ch in _NORMALISE:
            out.append(_NORMALISE[ch])
            return i + 1
        m = self.run_chars.match(text, i)
        if m:
            out.append(m.group())
            return m.end()
        if ch not in "\u2010\u2011\u058a":  # these hyphens only survive inside a word
            out.append(ch)  # single symbol / other punctuation
        return i + 1

    def _word(self, tok: str, end: int, text: str, sh: str, out: list[str]) -> int:
        """A plain word: stop before n't ("do n't"); split the assimilations ("gon na", "can not")."""
        if (end < len(text) and text[end] in "'\u2019" and len(tok) > 1 and tok[-1] in "nN"
                and not tok[0].isdigit() and not _DOTTED.search(tok) and self.nt.match(sh, end - 1)):
            tok, end = tok[:-1], end - 1
        cut = self.split_words.get(tok.lower())
        if "\u00ad" in tok:
            tok = tok.replace("\u00ad", "")
        if cut:
            out.append(tok[:cut])
            out.append(tok[cut:])
        else:
            out.append(tok)
        return end

    def _emit(self, name: str, m: "re.Match[str]", text: str, sh: str, out: list[str]) -> int:
        """Append the token(s) of rule ``name`` matched on the shadow ``sh``; return the next position."""
        end = m.end()
        tok = text[m.start():end]
        if name in ("sgml", "phone", "fraction"):
            tok = tok.replace(" ", "\u00a0")
            if name == "phone":
                tok = tok.replace("(", "-LRB-").replace(")", "-RRB-")
            out.append(tok)
        elif name == "hyphword":
            out.append(tok.replace("\u00ad", ""))
        elif name == "word":
            return self._word(tok, end, text, sh, out)
        elif name == "acro":
            if tok.endswith(".") and self.start_ctx.match(sh, end):
                # a sentence-start word follows: "U.S." keeps its period and gets another, a single
                # letter gives the period back ("A. The" -> "a . the")
                out.extend((tok[:-1], ".") if len(tok) == 2 else (tok, "."))
            else:
                out.append(tok)
        elif name == "abbrev":
            base = tok[:-1]
            if base in self.final:
                out.append(tok)
                m2 = self.final_ctx.match(sh, end)
                if m2 and (m2.end() == len(text) or text[m2.end()].isupper()
                           or (len(m2.group()) > 1 and "\n" in m2.group())
                           or (m2.end() > end and self.rules[0][1].match(sh, m2.end()))):  # an SGML tag
                    out.append(".")
            elif base in self.never:
                out.append(tok)
            else:  # not an abbreviation: the word, then "." on the next round
                return self._word(base, end - 1, text, sh, out)
        elif name == "amp":
            if tok == "&quot;":  # like '"': opening before [A-Za-z0-9$]
                out.append("``" if self.dq_open.match(sh, end) else "''")
            elif tok.lower() != "&nbsp;":
                out.append(_ENTITIES.get(tok, tok))
        elif name == "smiley":
            out.append(tok.replace(")", "-RRB-").replace("(", "-LRB-"))
        elif name in ("clitic", "nt", "tis", "year", "apoprefix", "apospecial"):
            if name in ("clitic", "tis") or (name == "nt" and len(tok) == 3):
                tok = tok.replace("\u2019", "'")
            out.append(tok)
        elif name == "ellipsis":
            out.append("...")
        elif name == "dashes":
            out.append("--")
        elif name == "dquote":
            out.append("``" if self.dq_open.match(sh, end) else "''")
        elif name == "squote":
            out.append("`" if self.sq_open.match(sh, end) else "'")
        else:
            out.append(tok)
        return end


_DOTTED = re.compile(r"[.!?]")
_PLAIN = re.compile("[\x21-\x7e][\x20-\x7e]*")
# Plain lines (the chunk path): one class per BMP code point (:func:`plain_table`); outside the BMP
# nothing is plain. ``_P_SPACE``: a blank the spaced ellipsis reads as its space (" " and every
# deleted X character: U+00A0, U+2000-200B, U+3000, U+300C ..., which the lexer reads as spaces),
# ``_P_TAB``: the tab, ``_P_DIGIT``: what ``str.isdigit()`` accepts ("3 1/2", "² 3": _Lexer._line
# scans a digit before a blank and a digit in context), ``_P_PERIOD``: ".".
_P_NOT, _P_CHAR, _P_DIGIT, _P_SPACE, _P_TAB, _P_PERIOD = range(6)


@lru_cache(maxsize=None)
def plain_table() -> bytes:
    """The class (``_P_*``) of every BMP code point for the plain-line check, one byte each.

    A plain line is cut into chunks exactly where :meth:`_Lexer._line` cuts it: at the ASCII space
    and tab and at every deleted X character (the lexer matches its rules on a shadow of the text
    where those are spaces). Plain: printable ASCII, the tab, the X characters, and every other
    non-ASCII BMP character (letters L, symbols S, runs R, quotes, dashes, currency, fractions, the
    soft hyphen ...) that Python does not count as a space (U+0085 is one; line breaks are) and is
    no surrogate. Not plain: control characters, those spaces, code points outside the BMP. The
    compiled twin and :func:`plain_lines_py` read this one table."""
    deleted = {cp for cp, to in _shadow_table().items() if to == 0x20}
    table = bytearray(0x10000)
    table[0x20:0x7f] = bytes([_P_CHAR]) * 0x5f
    for cp in range(0x30, 0x3a):
        table[cp] = _P_DIGIT
    table[0x20], table[0x09], table[0x2e] = _P_SPACE, _P_TAB, _P_PERIOD
    for cp in range(0x80, 0x10000):
        ch = chr(cp)
        if cp in deleted:
            table[cp] = _P_SPACE
        elif not (ch.isspace() or 0xD800 <= cp <= 0xDFFF):
            table[cp] = _P_DIGIT if ch.isdigit() else _P_CHAR
    return bytes(table)


def _table_class(table: bytes, kinds: Sequence[int]) -> str:
    """Regex character-class body of the code points whose class (in :func:`plain_table`) is in ``kinds``."""
    runs = re.finditer(b"[%s]+" % re.escape(bytes(kinds)), table)
    return "".join("%s-%s" % (re.escape(chr(m.start())), re.escape(chr(m.end() - 1))) for m in runs)


class _PlainPatterns(NamedTuple):
    """The pure path's regexes, made from :func:`plain_table`."""
    not_simple: "re.Pattern[str]"   # what keeps a line off the chunk path (:func:`_patterns`)
    hidden: "re.Pattern[str]"       # a blank str.split() does not split at (U+200B, U+300C ...)
    chunk: "re.Pattern[str]"        # a chunk of a plain line: a run of non-blanks


@lru_cache(maxsize=None)
def _patterns() -> _PlainPatterns:
    """``not_simple`` matches a character that is not plain, or a token that may span a blank: ``. . .``
    (the spaced ellipsis; of the rules, only it matches across a blank from a period, so ". ." alone,
    "A.M. .", "... .", leaves a line plain) and a digit, blanks and a digit ("3 1/2", "555-1212 555")."""
    table = plain_table()
    plain = _table_class(table, (_P_CHAR, _P_DIGIT, _P_SPACE, _P_TAB, _P_PERIOD))
    space, digit = _table_class(table, (_P_SPACE,)), _table_class(table, (_P_DIGIT,))
    blank = _table_class(table, (_P_SPACE, _P_TAB))
    hidden = bytes(table[cp] in (_P_SPACE, _P_TAB) and not chr(cp).isspace() for cp in range(0x10000))
    return _PlainPatterns(
        re.compile(r"[^%s]|\.[%s]\.[%s]\.|[%s][%s]+[%s]" % (plain, space, space, digit, blank, digit)),
        re.compile("[%s]" % _table_class(hidden, (1,))), re.compile("[^%s]+" % blank))


def _chunks_of(line: str) -> list[str]:
    """The chunks of a plain line: ``str.split()``, or, when it holds a blank Python does not count as
    a space (a deleted X character), the runs of non-blanks."""
    found = _patterns()
    return line.split() if found.hidden.search(line) is None else found.chunk.findall(line)


_BLOCK = 65_536      # plain lines made at a time by _Lexer.coco_lines
_CONTEXT = "\x00"   # a chunk whose tokens depend on its neighbours (never in a plain line)
_MISSING: list[str] = []
_LEXER: _Lexer | None = None


def plain_lines_py(lines: list[str], pieces: dict[str, str], piece: Callable[[str], str]) -> list[str | None]:
    """The wrapper's string of each plain line, None for the others.

    A line is plain when its characters are plain (:func:`plain_table`: printable ASCII, tabs, the
    non-ASCII BMP characters that are neither control characters nor Python spaces, and the deleted
    ones, blanks like the space) with no ``. . .`` or ``3 1`` across a blank (:func:`_patterns`)
    and none of its chunks (the runs of non-blanks, where :meth:`_Lexer._line` cuts it) depends on
    its neighbours; its string is the join of its chunks' pieces (``pieces[chunk]``, made by
    ``piece(chunk)`` when missing, which stores it; ``_CONTEXT`` for a chunk that depends on its
    neighbours), empty pieces left out. The compiled twin is ``_ptb_c.plain_lines``."""
    search = _patterns().not_simple.search
    split: list[list[str] | None] = [None if search(ln) else _chunks_of(ln) for ln in lines]
    for chunk in set(chain.from_iterable(filter(None, split))).difference(pieces):
        piece(chunk)
    get = pieces.__getitem__
    out = [None if chunks is None else " ".join(filter(None, map(get, chunks))) for chunks in split]
    return [None if got is None or _CONTEXT in got else got for got in out]


def _lexer() -> _Lexer:
    global _LEXER
    if _LEXER is None:
        _LEXER = _Lexer()
    return _LEXER


def _lower(tokens: list[str]) -> list[str]:
    return [t.lower() for t in tokens]


def ptb_tokenize_lines(lines: Sequence[str]) -> list[list[str]]:
    """Raw jar tokens (``-preserveLines -lowerCase``) for a file made of ``lines`` joined by ``\\n``.

    Line breaks inside a line (``\\n``, ``\\r``, U+2028, U+2029) start new output lines, as in the jar.
    """
    lexer = _lexer()
    physical = _physical(lines)
    return [lexer.line(ln, physical[i + 1] if i + 1 < len(physical) else None)
            for i, ln in enumerate(physical)]


def ptb_tokenize(text: str, following: str | None = None) -> list[str]:
    """Raw PTBTokenizer tokens (lowercased) of one caption; ``\\n`` counts as a space.

    ``following`` is the next line of the jar's input (the next caption in pycocoevalcap's batch);
    ``None`` means ``text`` is the last line. It only matters for a sentence-final abbreviation.
    """
    line = _LINE_SPLIT.split(_flatten(text))
    nxt = None if following is None else _LINE_SPLIT.split(_flatten(following))[0]
    return _lexer().line(line[0], line[1] if len(line) > 1 else nxt)


_LINE_SPLIT = re.compile("[\n%s]" % LINE_BREAKS)


def _physical(lines: Sequence[str]) -> list[str]:
    """The jar's own lines: every line break inside a line (``\\n``, ``\\r``, U+2028/9) starts a new one."""
    joined = "\n".join(lines)
    if joined.count("\n") == max(len(lines) - 1, 0) and not any(br in joined for br in LINE_BREAKS):
        return list(lines)
    split = _LINE_SPLIT.split
    return [part for line in lines for part in split(line)]


def _flatten(text: str) -> str:
    if not isinstance(text, str):
        raise TypeError(f"caption must be a str, got {type(text).__name__}")
    return text.replace("\n", " ")


def _coco_line(tokens: list[str]) -> str:
    """The wrapper's post-processing: ``line.rstrip().split(' ')`` minus its punctuation list."""
    if tokens and tokens[-1][-1].isspace():  # only then can rstrip() change anything
        tokens = " ".join(tokens).rstrip().split(" ")
    return " ".join([t for t in tokens if t not in COCO_PUNCTUATION])


def coco_tokenize(text: str, following: str | None = None) -> str:
    """pycocoevalcap ``PTBTokenizer`` output for one caption (jar tokens minus the wrapper's punctuation).

    ``following``: the next caption in the wrapper's batch (``None``: this caption is the last one).
    """
    return _coco_line(ptb_tokenize(text, following))


def coco_tokenize_lines(captions: Sequence[str]) -> list[str]:
    """The wrapper's output for a batch, in order: captions joined by ``\\n`` (inner newlines -> spaces),
    one jar run, output line ``k`` paired with caption ``k`` (so a U+2028/``\\r`` inside a caption
    shifts every later caption, exactly as in pycocoevalcap; KD-PTB-02)."""
    if only_strings(captions):                      # _flatten's map without a frame per call
        flat = list(map(str.replace, captions, repeat("\n"), repeat(" ")))
    else:
        flat = [_flatten(c) for c in captions]
    out = _lexer().coco_lines(_physical(flat))[:len(captions)]
    return out + [""] * (len(captions) - len(out))


def has_line_breaks(captions: Sequence[Any]) -> bool:
    """Whether a caption (a string) holds a line break other than ``\\n`` (``\\r``, U+2028, U+2029): the
    jar starts a new output line there, so the wrapper pairs every later caption with the output of
    the line before it (KD-PTB-02), and a batch cannot be tokenised in parts. Checked on the join of
    65,536 captions at a time (C speed, bounded memory)."""
    step = 65_536
    for start in range(0, len(captions), step):
        part = captions[start:start + step]
        if not only_strings(part):
            part = [c for c in part if isinstance(c, str)]
        text = "".join(part)
        if any(br in text for br in LINE_BREAKS):
            return True
    return False


def coco_encode_lines(captions: Sequence[str], vocab: dict[str, int]) -> tuple[Any, Any] | None:
    """``(ids, offsets)`` of the ``str.split()`` of :func:`coco_tokenize_lines` interned into ``vocab`` (new
    tokens numbered ``len(vocab)``, in order of first occurrence), from the compiled twin, which
    makes no output string for a plain caption; None when the twin is not built or a caption holds a
    line break (then intern the split of :func:`coco_tokenize_lines`: the specification)."""
    if _compiled is None or not only_strings(captions):
        return None
    flat = list(map(str.replace, captions, repeat("\n"), repeat(" ")))
    physical = _physical(flat)
    if len(physical) != len(captions) or not physical:
        return None
    return _lexer().coco_ids(physical, vocab)


# ----------------------------------------------------------------------------- measured tables
# Generated by conformance/regen_ptb.py --probe (stanford-corenlp-3.4.1.jar, one probe per line).
# Non-ASCII BMP characters by behaviour: L letter-like (joins words), X deleted (acts as a space),
# S one symbol per token, R runs of the character join into one token.
_RANGES_L = """
AA B5 BA C0-D6 D8-F6 F8-37D 384-386 388-38A 38C 38E-3A1 3A4-481 483-487 48A-527 531-556 559-55F
561-587 591-5BD 5BF 5C1-5C2 5C4-5C5 5C7 5D0-5EA 5F0-5F2 615-61A 620-65E 660-669 66E-6D3 6D5-6FF
70F-7B1 7C0-7F5 7FA 800-815 81A 824 828 840-858 8A0 8A2-8AC 900-939 93C-94E 950-955 958-963
966-96F 971-977 979-97F 981-983 985-98C 98F-990 993-9A8 9AA-9B0 9B2 9B6-9B9 9BC-9C4 9C7-9C8
9CB-9CE 9D7 9DC-9DD 9DF-9E3 9E6-9F1 A01-A03 A05-A0A A0F-A10 A13-A28 A2A-A30 A32-A33 A35-A36
A38-A39 A3C A3E-A4F A59-A5C A5E A66-A6F A72-A74 A81-A83 A85-A8D A8F-A91 A93-AA8 AAA-AB0 AB2-AB3
AB5-AB9 ABC-AD0 AE0-AE1 AE6-AEF B05-B0C B0F-B10 B13-B28 B2A-B30 B32-B33 B35-B39 B3D B5C-B5D
B5F-B61 B66-B6F B71 B82-B83 B85-B8A B8E-B90 B92-B95 B99-B9A B9C B9E-B9F BA3-BA4 BA8-BAA BAE-BB9
BBE-BC2 BC6-BC8 BCA-BCD BD0 BE6-BEF C01-C03 C05-C0C C0E-C10 C12-C28 C2A-C33 C35-C39 C3D-C56
C58-C59 C60-C61 C66-C6F C85-C8C C8E-C90 C92-CA8 CAA-CB3 CB5-CB9 CBD CDE CE0-CE1 CE6-CEF CF1-CF2
D05-D0C D0E-D10 D12-D3A D3D-D44 D46-D48 D4E D60-D61 D66-D6F D7A-D7F D85-D96 D9A-DB1 DB3-DBB DBD
DC0-DC6 E01-E3A E40-E4E E50-E59 E81-E82 E84 E87-E88 E8A E8D E94-E97 E99-E9F EA1-EA3 EA5 EA7
EAA-EAB EAD-EBD EC0-EC4 EC6 EC8-ECD ED0-ED9 EDC-EDF F00 F20-F29 F40-F47 F49-F6C F88-F8C
1000-102A 103F-1049 1050-1055 105A-105D 1061 1065-1066 106E-1070 1075-1081 108E 1090-1099
10A0-10C5 10C7 10CD 10D0-10FA 10FC-1248 124A-124D 1250-1256 1258 125A-125D 1260-1288 128A-128D
1290-12B0 12B2-12B5 12B8-12BE 12C0 12C2-12C5 12C8-12D6 12D8-1310 1312-1315 1318-135A 1380-138F
13A0-13F4 1401-166C 166F-167F 1681-169A 16A0-16EA 1700-170C 170E-1711 1720-1731 1740-1751
1760-176C 176E-1770 1780-17B3 17D7 17DC 17E0-17E9 1810-1819 1820-1877 1880-18A8 18AA 18B0-18F5
1900-191C 1946-196D 1970-1974 1980-19AB 19C1-19C7 19D0-19D9 1A00-1A16 1A20-1A54 1A80-1A89
1A90-1A99 1AA7 1B05-1B33 1B45-1B4B 1B50-1B59 1B83-1BA0 1BAE-1BE5 1C00-1C23 1C40-1C49 1C4D-1C7D
1CE9-1CEC 1CEE-1CF1 1CF5-1CF6 1D00-1DBF 1E00-1F15 1F18-1F1D 1F20-1F45 1F48-1F4D 1F50-1F57 1F59
1F5B 1F5D 1F5F-1F7D 1F80-1FB4 1FB6-1FBC 1FBE 1FC2-1FC4 1FC6-1FCC 1FD0-1FD3 1FD6-1FDB 1FE0-1FEC
1FF2-1FF4 1FF6-1FFC 2071 207F 2090-209C 2102 2107 210A-2113 2115 2119-211D 2124 2126 2128
212A-212D 212F-2139 213C-213F 2145-2149 214E 2183-2184 2C00-2C2E 2C30-2C5E 2C60-2CE4 2CEB-2CEE
2CF2-2CF3 2D00-2D25 2D27 2D2D 2D30-2D67 2D6F 2D80-2D96 2DA0-2DA6 2DA8-2DAE 2DB0-2DB6 2DB8-2DBE
2DC0-2DC6 2DC8-2DCE 2DD0-2DD6 2DD8-2DDE 2E2F 3005-3006 3031-3035 303B-303C 3041-3096 309D-309F
30A1-30FA 30FC-30FF 3105-312D 3131-318E 31A0-31BA 31F0-31FF 3400-4DB5 4E00-9FCC A000-A48C
A4D0-A4FD A500-A60C A610-A62B A640-A66E A67F-A697 A6A0-A6E5 A717-A71F A722-A788 A78B-A78E
A790-A793 A7A0-A7AA A7F8-A801 A803-A805 A807-A80A A80C-A822 A840-A873 A882-A8B3 A8D0-A8D9
A8F2-A8F7 A8FB A900-A925 A930-A946 A960-A97C A984-A9B2 A9CF-A9D9 AA00-AA28 AA40-AA42 AA44-AA4B
AA50-AA59 AA60-AA76 AA7A AA80-AAAF AAB1 AAB5-AAB6 AAB9-AABD AAC0 AAC2 AADB-AADD AAE0-AAEA
AAF2-AAF4 AB01-AB06 AB09-AB0E AB11-AB16 AB20-AB26 AB28-AB2E ABC0-ABE2 ABF0-ABF9 AC00-D7A3
D7B0-D7C6 D7CB-D7FB F900-FA6D FA70-FAD9 FB00-FB06 FB13-FB17 FB1D FB1F-FB28 FB2A-FB36 FB38-FB3C
FB3E FB40-FB41 FB43-FB44 FB46-FBB1 FBD3-FD3D FD50-FD8F FD92-FDC7 FDF0-FDFB FE70-FE74 FE76-FEFC
FF10-FF19 FF21-FF3A FF41-FF5A FF66-FFBE FFC2-FFC7 FFCA-FFCF FFD2-FFD7 FFDA-FFDC
"""
_RANGES_X = """
81-84 86-90 95 98-A0 37F-383 38B 38D 3A2 482 488-489 528-530 557-558 560 588 58B-590 5C8-5CF
5EB-5EF 5F5-5FF 604-605 60D-613 61C-61D 65F 66B-66C 70E 7B2-7BF 7F9 7FB-7FF 816-819 81B-823
825-827 829-83F 859-89F 8A1 8AD-8FF 93A-93B 94F 956-957 970 978 980 984 98D-98E 991-992 9A9 9B1
9B3-9B5 9BA-9BB 9C5-9C6 9C9-9CA 9CF-9D6 9D8-9DB 9DE 9E4-9E5 9F2-A00 A04 A0B-A0E A11-A12 A29 A31
A34 A37 A3A-A3B A3D A50-A58 A5D A5F-A65 A70-A71 A75-A80 A84 A8E A92 AA9 AB1 AB4 ABA-ABB AD1-ADF
AE2-AE5 AF0-B04 B0D-B0E B11-B12 B29 B31 B34 B3A-B3C B3E-B5B B5E B62-B65 B70 B72-B81 B84 B8B-B8D
B91 B96-B98 B9B B9D BA0-BA2 BA5-BA7 BAB-BAD BBA-BBD BC3-BC5 BC9 BCE-BCF BD1-BE5 BF0-C00 C04 C0D
C11 C29 C34 C3A-C3C C57 C5A-C5F C62-C65 C70-C84 C8D C91 CA9 CB4 CBA-CBC CBE-CDD CDF CE2-CE5 CF0
CF3-D04 D0D D11 D3B-D3C D45 D49-D4D D4F-D5F D62-D65 D70-D79 D80-D84 D97-D99 DB2 DBC DBE-DBF
DC7-E00 E3B-E3E E5A-E80 E83 E85-E86 E89 E8B-E8C E8E-E93 E98 EA0 EA4 EA6 EA8-EA9 EAC EBE-EBF EC5
EC7 ECE-ECF EDA-EDB EE0-EFF F01-F1F F2A-F3F F48 F6D-F87 F8D-FFF 102B-103E 104A-104F 1056-1059
105E-1060 1062-1064 1067-106D 1071-1074 1082-108D 108F 109A-109F 10C6 10C8-10CC 10CE-10CF 10FB
1249 124E-124F 1257 1259 125E-125F 1289 128E-128F 12B1 12B6-12B7 12BF 12C1 12C6-12C7 12D7 1311
1316-1317 135B-137F 1390-139F 13F5-1400 166D-166E 1680 169B-169F 16EB-16FF 170D 1712-171F
1732-173F 1752-175F 176D 1771-177F 17B4-17D6 17D8-17DB 17DD-17DF 17EA-180F 181A-181F 1878-187F
18A9 18AB-18AF 18F6-18FF 191D-1945 196E-196F 1975-197F 19AC-19C0 19C8-19CF 19DA-19FF 1A17-1A1F
1A55-1A7F 1A8A-1A8F 1A9A-1AA6 1AA8-1B04 1B34-1B44 1B4C-1B4F 1B5A-1B82 1BA1-1BAD 1BE6-1BFF
1C24-1C3F 1C4A-1C4C 1C7E-1CE8 1CED 1CF2-1CF4 1CF7-1CFF 1DC0-1DFF 1F16-1F17 1F1E-1F1F 1F46-1F47
1F4E-1F4F 1F58 1F5A 1F5C 1F5E 1F7E-1F7F 1FB5 1FBF-1FC1 1FC5 1FCD-1FCF 1FD4-1FD5 1FDC-1FDF
1FED-1FF1 1FF5 1FFD-200F 2012 2024-2025 2027 202A-202F 203C-203D 2043 2045-206F 2072-2073 208F
209D-209F 20A1-20A3 20A5-20AB 20AD-20FF 2150-2152 215F-2182 2185-218F 2C2F 2C5F 2CE5-2CEA
2CEF-2CF1 2CF4-2CFF 2D26 2D28-2D2C 2D2E-2D2F 2D68-2D6E 2D70-2D7F 2D97-2D9F 2DA7 2DAF 2DB7 2DBF
2DC7 2DCF 2DD7 2DDF-2E2E 2E30-3000 3003-3004 3007-3011 3013-3030 3036-303A 303D-3040 3097-309C
30A0 3100-3104 312E-3130 318F-319F 31BB-31EF 3200-33FF 4DB6-4DFF 9FCD-9FFF A48D-A4CF A4FE-A4FF
A60D-A60F A62C-A63F A66F-A67E A698-A69F A6E6-A716 A720-A721 A789-A78A A78F A794-A79F A7AB-A7F7
A802 A806 A80B A823-A83F A874-A881 A8B4-A8CF A8DA-A8F1 A8F8-A8FA A8FC-A8FF A926-A92F A947-A95F
A97D-A983 A9B3-A9CE A9DA-A9FF AA29-AA3F AA43 AA4C-AA4F AA5A-AA5F AA77-AA79 AA7B-AA7F AAB0
AAB2-AAB4 AAB7-AAB8 AABE-AABF AAC1 AAC3-AADA AADE-AADF AAEB-AAF1 AAF5-AB00 AB07-AB08 AB0F-AB10
AB17-AB1F AB27 AB2F-ABBF ABE3-ABEF ABFA-ABFF D7A4-D7AF D7C7-D7CA D7FC-D7FF E000-F8FF FA6E-FA6F
FADA-FAFF FB07-FB12 FB18-FB1C FB1E FB29 FB37 FB3D FB3F FB42 FB45 FBB2-FBD2 FD3E-FD4F FD90-FD91
FDC8-FDEF FDFC-FE6F FE75 FEFD-FF00 FFBF-FFC1 FFC8-FFC9 FFD0-FFD1 FFD8-FFD9 FFDD-FFDF FFE2-FFE4
FFE7-FFFF
"""
_RANGES_S = """
A1 A5-A9 AC AE-B1 B4 B6-B8 BF D7 F7 37E 387 589 5BE 5C0 5C3 5C6 5F3-5F4 600-603 606-60C 614 61B
61E-61F 66A 66D 6D4 700-70D 7F6-7F8 964-965 E3F E4F 1FBD 2016-2017 2020-2023 2030-2038 203B
203E-2042 2044 207A-207E 208A-208E 20A4 2100-2101 2103-2106 2108-2109 2114 2116-2118 211E-2123
2125 2127 2129 212E 213A-213B 2140-2144 214A-214D 214F 2155-215E 2190-2BFF 3001-3002 3012 30FB
FF01-FF0F FF1A-FF20 FF3B-FF40 FF5B-FF65 FFE0-FFE1 FFE5-FFE6
"""
_RANGES_R = """
B2-B3 B9 201A 201E-201F 2070 2074-2079 2080-2089
"""
# 'Abbr.' forms kept with their period: NEVER never add a sentence-final '.', FINAL add one before
# an upper-case letter or at the end of the input.
_ABBREV_NEVER = """
ADJ ADM ADV ALEX ASSOC ASST ATTY ATTYS AVE Adj Adm Adv Alex Assoc Asst Atty Attys Ave BRIG Brig
CAPT CF CIE CMDR COL COMDR CPL Capt Cf Cie Cmdr Col Comdr Cpl DEPT DET DR DRS Dept Det Dr Drs
ELEC ENS Elec Ens FT Ft GEN GOV GOVS Gen Gov Govs HON Hon INSP INVT Insp Invt JOS Jos LIEUT LT
Lieut Lt MAJ MESSRS MLLE MME MR MRS MS MSGR MT Maj Messrs Mfg Mlle Mme Mr Mrs Ms Msgr Mt Mtg
NATL Natl PFC PH PRES PROF PROFS PVT Pfc Ph Pres Prof Profs Pvt REP REPS REV Rep Reps Rev SEN
SENS SFC SGT SPC ST STE SUPT SUPTS Sen Sens Sfc Sgt Spc St Ste Supt Supts VS Vs WM Wm aDJ aDM
aDV aLEX aSSOC aSST aTTY aTTYS aVE adj adm adv alex assoc asst atty attys ave bRIG brig cAPT cF
cIE cMDR cOL cOMDR cPL capt cf cie cmdr col comdr cpl dEPT dET dR dRS dept det dr drs eLEC eNS
elec ens fT ft gEN gOV gOVS gen gov govs hON hon iNSP iNVT insp invt jOS jos lIEUT lT lieut lt
mAJ mESSRS mLLE mME mR mRS mS mSGR mT maj messrs mfg mlle mme mr mrs ms msgr mt mtg nATL natl
pFC pH pRES pROF pROFS pVT pfc ph pres prof profs pvt rEP rEPS rEV rep reps rev sEN sENS sFC sGT
sPC sT sTE sUPT sUPTS sen sens sfc sgt spc st ste supt supts vS vs wM wm
"""
_ABBREV_FINAL = """
AL ALA APR ARIZ ARK ASSN AUG AZ Al Ala Apr Ariz Ark Assn Aug Az BANCORP BHD BLDG BLVD BROS
Bancorp Bhd Bldg Blvd Bros CALIF CO COLO CONN CORP COS CT Calif Co Colo Conn Corp Cos Ct DAK DEC
DEL Dak Dec Del ESQ EST ETC EXT Esq Est Etc Ext FEB FLA FRI Feb Fla Fri GA Ga ILL INC IND INTL
Ill Inc Ind Intl JAN JR JUL JUN Jan Jr Jul Jun KAN KANS KY Kan Kans Ky LA LTD La Ltd MAR MASS MD
MICH MINN MISS MO MON MONT Mar Mass Md Mich Minn Miss Mo Mon Mont NEB NEV NOV Neb Nev Nov OCT
OKLA ORE Oct Okla Ore PA PENN PLC Pa Penn Plc Ppte Ppty Pte Ptes Pty Ptys RD RT Rd Rt SEP SEPT
SEQ SQ SR SYS Sep Sept Seq Sq Sr Sys TEL TENN TEX THU THURS TUE TUES Tel Tenn Tex Thu Thurs Tue
Tues UNIV Univ VA VT Va Vt WASH WED WIS WISC WYO Wash Wed Wis Wisc Wyo aL aLA aPR aRIZ aSSN aUG
al ala apr ariz assn aug bANCORP bHD bLDG bLVD bROS bancorp bhd bldg blvd bros cALIF cO cOLO
cONN cORP cOS cT calif co colo conn corp cos ct dAK dEC dak dec eSQ eST eTC eXT esq est etc ext
fEB fLA fRI feb fla fri gA ga iNC iND iNTL inc ind intl jAN jR jUL jUN jan jr jul jun kAN kANS
kY kan kans ky lTD ltd mAR mD mICH mINN mO mON mONT mar md mich minn mo mon mont nEB nEV nOV neb
nev nov oCT oKLA oct okla pENN pLC penn plc ppte ppty pte ptes pty ptys rD rT rd rt sEP sEPT sEQ
sQ sR sYS sep sept seq sq sr sys tEL tENN tHU tHURS tUE tUES tel tenn thu thurs tue tues uNIV
univ vA vT va vt wED wIS wISC wYO wed wis wisc wyo
"""
# Words after which an acronym or single letter ('U.S.', 'A.') gets an extra '.' token.
_START_WORDS = """
A About According Additionally After An As At But Earlier He Her Here However If In It Last Many
More Now Once One Other Our She Since So Some Such That The Their Then There These They This We
What When While Yet You
"""
