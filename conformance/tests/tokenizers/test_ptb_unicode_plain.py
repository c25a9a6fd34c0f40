"""The PTB chunk path on non-ASCII text (issue 18) equals the lexer, its specification.

A line holding non-ASCII characters is "plain" (cut into chunks, each distinct chunk lexed once) when
every character's class in :func:`assay.tokenizers.ptb.plain_table` allows it: the chunks must be the
lexer's (it cuts at ASCII blanks and at the deleted X characters, which it reads as spaces), and no
token may span a blank (``. . .``, a digit, blanks and a digit). These properties check, on both the
pure path (:func:`~assay.tokenizers.ptb.plain_lines_py`) and the compiled twin
(``_ptb_c.plain_lines`` / ``plain_encode``):

- the table against the lexer itself, for every BMP code point (exhaustive);
- per line, the batch path (:meth:`_Lexer.coco_lines`) = the wrapper's filter of :meth:`_Lexer.line`
  (the lexer, scanning a chunk in context where it needs its neighbours), for random lines mixing
  ASCII words with non-ASCII characters of every class (letters L, symbols S, runs R, quotes,
  normalised dashes/currency/fractions, deleted X ones, control characters, outside the BMP) and
  random BMP ones, plus pairs of words that interact across a blank;
- the pure and compiled plain lines agree exactly, and CIDEr's token ids from the twin equal the
  interned split of the pure :func:`coco_tokenize_lines`;
- German, French and Japanese text (umlauts, „quotes“, ², no-break spaces, 「brackets」) does take
  the plain path.
A missing twin fails under ``CI`` and is skipped locally (``conformance/tests/accel/conftest.py``).
"""
from __future__ import annotations

from unittest import mock

from hypothesis import example, given, settings
from hypothesis import strategies as st

from assay.tokenizers import ptb
from conformance.tests.accel.conftest import import_twin

TWIN = "assay.tokenizers._ptb_c"
ASCII = ["a", "dog", "Dog", "U.S.", "e.g.", "No.", "5", "3", "1/2", "...", ".", ",", "(", ")", '"', "'s", "'", "don't",
         "Inc.", "Calif.", "The", "He", "<b>", "&amp;", "&quot;", "--", "-", "a.m.", "ph.d.", "12:30", ":-)", "#tag",
         "@user", "a@b.de", "http://x.de/a", "(555)", "555-1212", "A.", "Mr.", "ca.", "n't", "gonna", "'n", "'t",
         "y'", "d'", "'05", "US$", "R&D", "*", "_", ";", "?!", "-LRB-", "x", "1.5", "$", "/", "`", "''", "Jan.", "1."]
CLASSES = {
    "L": "éüäößÄÖÜÉçñøœΩσςİı\u0660\u0966\uff11\uff41\u05d0\u0627\u0301\u0915ªµ猫の",   # incl. isdigit() letters
    "S": "©°·×±¬®´¶¿¡§¥。、，！→™‰†•′①½¼⅓",
    "R": "²³¹„‟‚⁴₂⁰",
    "quotes": "“”‘’«»‹›‛\x91\x92\x93\x94",
    "normalised": "€£¢¤\x80–—―\x96\x97…\x85\xad\u2010\u2011\u058a",
    "blanks": "\u00a0\u2003\u3000\u202f\u1680\u205f",
    "other": "\u200b\ufeff\u200e\x81\x9f\ue000\x0b\x1c\x7f\U0001F600\U0001D7CE",
}
PLAIN_CHARS = st.sampled_from([c for k, v in CLASSES.items() if k != "other" for c in v])
# mostly characters a plain line may hold (a line holding one of the others takes the lexer anyway)
CHARS = st.one_of(PLAIN_CHARS, PLAIN_CHARS, PLAIN_CHARS, st.sampled_from(list(CLASSES["other"])),
                  st.characters(max_codepoint=0xFFFF))
# pairs that may interact across a blank: numbers ("3 1/2", also with non-ASCII digits), periods
# (". . .", an abbreviation before a capital, "A. The"), "No. 5", "(555) 555-1212", tags, quotes
ACROSS = st.sampled_from([("3", "1/2"), ("²", "3"), ("5", "\u0663"), ("\uff15", "①"), ("km²", "5"), (".", "."),
                          (". .", ".5"), ("A.", "The"), ("U.S.", "He"), ("Inc.", "Ärger"), ("É.", "Die"), ("No.", "5"),
                          ("ca.", "5"), ("(555)", "555-1212"), ("<b", "x>"), ('"', "über"), ("'", "s"), ("ü.", "."),
                          ("\u201eja", "\u201c."), ("…", "."), ("Nos.", "²")])
SEPS = [" ", " ", " ", "  ", "\t", "", "\u00a0", "\u3000", " \u00a0 ", "\u2003"]


@st.composite
def unicode_lines(draw: st.DrawFn) -> str:
    """ASCII pieces and non-ASCII characters glued together or separated by blanks of every kind."""
    out = draw(st.sampled_from(["", "", " ", "\t", "\u00a0"]))
    for _ in range(draw(st.integers(0, 8))):
        if draw(st.booleans()):
            first, second = draw(ACROSS)
            out += first + draw(st.sampled_from(SEPS)) + second
        else:
            out += "".join(draw(st.lists(st.one_of(st.sampled_from(ASCII), CHARS), min_size=1, max_size=4)))
        out += draw(st.sampled_from(SEPS))
    return out


def _no_breaks(line: str) -> str:
    return "".join(" " if c in "\n" + ptb.LINE_BREAKS else c for c in line)


BATCHES = st.lists(unicode_lines().map(_no_breaks), min_size=1, max_size=6)


def _coco_lines(lines: list[str], compiled: object) -> list[str]:
    with mock.patch.object(ptb, "_compiled", compiled):
        return ptb._Lexer().coco_lines(lines)


def test_plain_table_matches_the_lexer() -> None:
    """Every BMP code point: a plain character joins its neighbours into one chunk for the lexer (its
    chunks of the shadow text) and for ``str.split()``; a blank splits for the lexer (and
    ``str.split()`` splits at nothing else); the spaced ellipsis reads a space-like blank as its space
    and a tab not; a digit is what ``str.isdigit()`` accepts (the lexer's test for a number spanning
    a blank); a character outside the BMP is not plain."""
    table, lexer = ptb.plain_table(), ptb._Lexer()
    ellipsis = dict(lexer.rules)["ellipsis"]
    assert len(table) == 0x10000
    for cp in range(0x10000):
        ch, cls = chr(cp), table[cp]
        if cls == ptb._P_NOT:
            continue
        text = "a" + ch + "a"
        shadow = text.translate(lexer.shadow)
        lexer_chunks = lexer.chunks.findall(shadow)
        if cls in (ptb._P_SPACE, ptb._P_TAB):
            assert len(lexer_chunks) == 2, hex(cp)
            dots = ".%s.%s." % (ch, ch)
            assert bool(ellipsis.fullmatch(dots.translate(lexer.shadow))) == (cls == ptb._P_SPACE), hex(cp)
            assert ptb._chunks_of(" %s%s%sb%s" % (ch, text, ch, ch)) == ["a", "a", "b"], hex(cp)
        else:
            assert lexer_chunks == [shadow] and text.split() == [text], hex(cp)
            assert ch.isdigit() == (cls == ptb._P_DIGIT) and (ch == ".") == (cls == ptb._P_PERIOD), hex(cp)
    not_simple = ptb._patterns().not_simple
    assert not_simple.search("a\U0001F600a") and not_simple.search("a\x85b")
    classes = import_twin(TWIN).PLAIN_CLASSES       # the twin's copy of the class numbers
    assert classes == {name: getattr(ptb, "_" + name) for name in classes}


@given(BATCHES)
@example([". .\u00a0.5 a", "b"]).via("the spaced ellipsis over a no-break space")
@example(["Größe 3 1/2 m²", "3\u00a01/2 ü", "3\u3000 1/2 x", "y"]).via("fractions across blanks")
@example(["Inc.\u00a0Ärger", "É. Die"]).via("abbreviations before non-ASCII capitals")
@settings(max_examples=100, deadline=None)
def test_batch_path_equals_the_lexer(lines: list[str]) -> None:
    """The plain path (pure and compiled, in one block or several) gives every line the lexer's string."""
    lexer = ptb._Lexer()
    want = [ptb._coco_line(lexer.line(ln, lines[i + 1] if i + 1 < len(lines) else None))
            for i, ln in enumerate(lines)]
    assert _coco_lines(lines, None) == want
    assert _coco_lines(lines, import_twin(TWIN)) == want
    with mock.patch.object(ptb, "_BLOCK", 2):        # plain lines made in blocks
        assert _coco_lines(lines, None) == want


@given(BATCHES)
@example([". .\u00a0.5 a", "Größe 3 1/2 m²", "3\u00a01/2 ü", "b"])
@settings(max_examples=100, deadline=None)
def test_plain_lines_twins_agree(lines: list[str]) -> None:
    mod = import_twin(TWIN)
    lexer = ptb._Lexer()
    pure = ptb.plain_lines_py(lines, lexer.pieces, lexer.piece)
    lexer = ptb._Lexer()
    assert mod.plain_lines(lines, lexer.pieces, lexer.piece) == pure


GERMAN = ["Die Präsidentin sagte: „Wir müssen über 5 m² Fläche reden.“",
          "Größe\u00a0und Maß – 3\u00a0km, 20 % mehr … ©2017",
          "«Ça va», dit-il ; l'été à Zürich ½ Stunde.",
          "「東京」で\u3000会議【速報】 a\u200bb x\ufeffy"]


def test_german_lines_take_the_plain_path() -> None:
    lexer = ptb._Lexer()
    assert all(got is not None for got in ptb.plain_lines_py(GERMAN, lexer.pieces, lexer.piece))
    lexer = ptb._Lexer()
    assert all(got is not None for got in import_twin(TWIN).plain_lines(GERMAN, lexer.pieces, lexer.piece))
    lexer = ptb._Lexer()
    want = [ptb._coco_line(lexer.line(ln, "next")) for ln in GERMAN]
    assert _coco_lines(GERMAN + ["next"], None)[:-1] == want


def test_not_plain() -> None:
    """Tokens across a blank, control characters, spaces the lexer keeps (U+0085), other planes."""
    lines = ["3\u00a01/2", "3\u300c1/2", "5 m² 3", "٣ ٤", ". . .", ".\u00a0.\u3000.", "emoji 😀 here",
             "a\x85b", "a\x0bb"]
    lexer = ptb._Lexer()
    assert ptb.plain_lines_py(lines, lexer.pieces, lexer.piece) == [None] * len(lines)
    assert import_twin(TWIN).plain_lines(lines, lexer.pieces, lexer.piece) == [None] * len(lines)
