"""Tokenizer conformance that needs no reference tool.

- golden: assay reproduces every frozen sacrebleu 2.6.0 output in fixtures/tokenizers/sacrebleu.json
  (written by conformance/regen_tokenizers.py from the live tool), including the research cases'
  ``tok`` fields and the research run's mteval tokens;
- quirks: each tool quirk assay reproduces, spelled out (values from the fixture or the tools);
- properties: ``tokenize_lines`` (one pass over the corpus) equals per-segment
  ``tokenize_segment`` on hypothesis-generated corpora full of characters that could interact with
  the batching (separators, placeholders, U+001C-U+001F, U+0085, U+2028/9, surrogates, …), and the
  fast rewrite engines equal the literal regex rules;
- splitting: Perl ``split`` on bytes (multi-bleu) and on decoded text (mteval) vs Python ``split``.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import defaultdict
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assay.core.errors import MissingDependencyError
from assay.tokenizers import TOKENIZER_NAMES, get_tokenizer
from assay.tokenizers import intl as intl_mod
from assay.tokenizers import tok_13a, zh
from assay.tokenizers.base import ASCII_SPACE_CHARS, PERL_SPACE_CHARS, ascii_split, choose_separator, lowercase_text, perl_lc, perl_split
from assay.tokenizers.ja_mecab import TokenizerJaMecab
from conformance.fixture_io import FIXTURES
from conformance.references.availability import importable

FIXTURE = FIXTURES / "tokenizers" / "sacrebleu.json"
DOC: dict[str, Any] = json.loads(FIXTURE.read_text(encoding="utf-8"))
CASES: list[dict[str, Any]] = DOC["cases"]
BY_GROUP: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
for _case in CASES:
    BY_GROUP[(_case["tokenizer"], _case["path"])].append(_case)



def lookup(tokenizer: str, text: str, path: str = "tokenizer", lowercase: str | None = None) -> str:
    """The frozen tool output for one input (the input must be in the fixture)."""
    for case in BY_GROUP[(tokenizer, path)]:
        if case["input"] == text and case["lowercase"] == lowercase:
            return case["expected"]
    raise AssertionError(f"fixture has no {tokenizer}/{path} case for {text!r}; rerun regen_tokenizers.py")


# ============================================================================== golden (fixture)
def test_fixture_provenance() -> None:
    assert DOC["format"] == "assay-tokenizer-fixtures/1"
    assert DOC["generated_by"]["tools"]["sacrebleu"] == "2.6.0"
    assert DOC["generated_by"]["research_tok_fields_checked"] == 144  # 36 research cases x 4 tokenizers
    assert len({c["input"] for c in CASES if c["path"] == "tokenizer" and c["tokenizer"] == "13a"}) >= 300
    assert all(c["tool"] and c["version"] and c["call"] for c in CASES)
    assert len(BY_GROUP[("mteval-13a", "tokenizer")]) == len(BY_GROUP[("mteval-intl", "tokenizer")]) == 36


@pytest.mark.parametrize("group", sorted(BY_GROUP), ids=lambda g: f"{g[0]}-{g[1]}")
def test_golden(group: tuple[str, str]) -> None:
    name, path = group
    if name == "ja-mecab" and not importable("MeCab", "ipadic"):
        pytest.skip("ja-mecab is an optional extra (pip install 'assay-metrics[ja]'); "
                    "the refs env checks it against live sacrebleu")
    tok = get_tokenizer(name)
    bad = []
    for case in BY_GROUP[group]:
        if path == "tokenizer":  # the bare tokenizer call: exact string
            got: Any = tok.tokenize(case["input"])
            ok = got == case["expected"]
        else:  # what BLEU scores: lowercase, rstrip, tokenizer; compared as tokens
            got = tok.tokenize_segment(case["input"], case["lowercase"])
            ok = got == case["expected"].split()
        if not ok:
            bad.append(f"{case['input']!r} lowercase={case['lowercase']}: expected {case['expected']!r}, got {got!r}")
    assert not bad, f"{len(bad)} of {len(BY_GROUP[group])} differ from {name} ({path}):\n" + "\n".join(bad[:15])


def test_golden_batch_equals_fixture() -> None:
    """The corpus-at-once path on the whole fixture (one big batch per tokenizer)."""
    for (name, path), cases in BY_GROUP.items():
        if path != "bleu" or (name == "ja-mecab" and not importable("MeCab", "ipadic")):
            continue
        for lowercase in (None, "unicode"):
            sub = [c for c in cases if c["lowercase"] == lowercase]
            got = get_tokenizer(name).tokenize_lines([c["input"] for c in sub], lowercase)
            assert got == [c["expected"].split() for c in sub], name


# ============================================================================== quirks
def test_13a_skipped_entities_and_order() -> None:
    t = get_tokenizer("13a")
    assert t.tokenize("the cat <skipped> sat on the mat") == lookup("13a", "the cat <skipped> sat on the mat") \
        == "the cat sat on the mat"
    assert t.tokenize("<skip<skipped>ped>") == lookup("13a", "<skip<skipped>ped>") == "< skipped >"  # one pass
    assert t.tokenize("<SKIPPED> x") == "< SKIPPED > x"  # case-sensitive
    assert t.tokenize("&quot;Hello&quot; &amp; goodbye &lt;3") == '" Hello " & goodbye < 3'
    # quot, amp, lt, gt in that order: &amp;lt; -> <, but &amp;quot; -> &quot; (split as punctuation)
    assert t.tokenize("&amp;lt; &amp;quot; &amp;gt; &amp;amp;") == \
        lookup("13a", "&amp;lt; &amp;quot; &amp;gt; &amp;amp;") == "< & quot ; > & amp ;"
    assert t.tokenize("&apos; &#39; &nbsp; &QUOT; &Amp;") == lookup("13a", "&apos; &#39; &nbsp; &QUOT; &Amp;")
    for name in ("intl", "zh"):  # neither removes <skipped> nor unescapes
        assert get_tokenizer(name).tokenize("the cat <skipped> sat") == "the cat < skipped > sat"
        assert get_tokenizer(name).tokenize("&quot;x") == "& quot ; x"


def test_13a_numbers_and_line_breaks() -> None:
    t = get_tokenizer("13a")
    assert t.tokenize("The price rose to 1,000.50 euros, i.e. 3.5% more.") == \
        "The price rose to 1,000.50 euros , i . e . 3.5 % more ."
    assert t.tokenize("state-of-the-art results from 1990-2000") == "state-of-the-art results from 1990 - 2000"
    for text in ("1..5", "1...5", "a..5", "a...5", "a....5", ".5", "5.", "1.5.3", "5--6"):
        assert t.tokenize(text) == lookup("13a", text)
    assert t.tokenize("a..5") == "a . .5"  # the last period stays glued to the digit (pass-b consumption)
    assert t.tokenize("state-\nof-the-art") == "stateof-the-art"  # line-break hyphen join
    # sacrebleu's BLEU rstrips first, so a trailing "-\n" is not joined there
    assert t.tokenize("a-\n") == "a"
    assert t.tokenize_segment("a-\n") == lookup("13a", "a-\n", "bleu").split() == ["a-"]


def test_python_whitespace_quirk_u001c() -> None:
    """Python's str.split() splits U+001C-U+001F; Perl's \\s (mteval) does not."""
    for ch in "\x1c\x1d\x1e\x1f":
        assert get_tokenizer("13a").tokenize_segment(f"a{ch}b") == ["a", "b"]
        assert get_tokenizer("mteval-13a").tokenize_segment(f"a{ch}b") == [f"a{ch}b"]
        assert get_tokenizer("mteval-intl").tokenize_segment(f"a{ch}b") == [f"a{ch}b"]
        assert get_tokenizer("multi-bleu").tokenize_segment(f"a{ch}b") == [f"a{ch}b"]
    assert lookup("13a", "a\x1cb") == "a b"
    # every other Unicode space splits in all three decoded-text tokenizers
    for ch in "\x85\xa0\u1680\u2000\u2009\u200a\u2028\u2029\u202f\u205f\u3000":
        for name in ("13a", "mteval-13a", "mteval-intl", "intl"):
            assert get_tokenizer(name).tokenize_segment(f"a{ch}b") == ["a", "b"], (name, hex(ord(ch)))


def test_intl_rules() -> None:
    t = get_tokenizer("intl")
    assert t.tokenize("It happened in 2019.") == "It happened in 2019."  # string end counts as a number
    assert t.tokenize("It happened in 2019. ") == lookup("intl", "It happened in 2019. ") == "It happened in 2019 ."
    assert t.tokenize_segment("It happened in 2019. ") == ["It", "happened", "in", "2019."]  # BLEU rstrips
    assert t.tokenize("He said “hello”—then left…") == "He said “ hello ” — then left …"
    assert t.tokenize(".5") == ".5" and t.tokenize(" .5") == ". 5"
    assert t.tokenize("I don't know") == "I don ' t know"
    assert t.tokenize("x² y³ ½ ¼") == lookup("intl", "x² y³ ½ ¼")


def test_zh_range_bug() -> None:
    t = get_tokenizer("zh")
    assert t.tokenize("我爱北京天安门") == "我 爱 北 京 天 安 门"
    assert t.tokenize("x€y") == lookup("zh", "x€y") == "x € y"  # U+20AC is inside U+2001-U+2A6D
    assert t.tokenize("a←b") == "a ← b"
    assert t.tokenize("𠀀𠀁") == lookup("zh", "𠀀𠀁") == "𠀀𠀁"  # real Extension B is not "Chinese"
    assert t.tokenize("a\u2a6db") == "a \u2a6d b" and t.tokenize("a\u2a6eb") == "a\u2a6eb"
    assert t.tokenize("私は学生です。") == "私 は 学 生 です 。"  # kana is not "Chinese"
    assert t.tokenize(".5") == ".5" and t.tokenize("a.5") == "a . 5"  # 13a regexes on unpadded text


def test_zh_table_matches_probe() -> None:
    """CHINESE_RANGES equals what probing every code point of sacrebleu's zh found (ASCII
    punctuation is split by the 13a rules anyway, whitespace is unobservable)."""
    probed = set()
    for lo, hi in DOC["probes"]["zh_isolated"]["ranges"]:
        probed.update(c for c in range(lo, hi + 1) if c >= 0x80)
    ours = {c for lo, hi in zh.CHINESE_RANGES for c in range(lo, hi + 1) if not chr(c).isspace()}
    assert probed == ours
    assert all(zh.is_chinese_char(chr(c)) for c in (0x2001, 0x20AC, 0x2A6D, 0x4E00, 0xFF10))
    assert not any(zh.is_chinese_char(chr(c)) for c in (0x2A6E, 0x3042, 0x20000, 0x2F800, 0xAC00, 0x9FBC))


def test_char() -> None:
    t = get_tokenizer("char")
    assert t.tokenize("  a b\x1c ") == lookup("char", "  a b\x1c ")
    assert t.tokenize_segment("ab cd") == ["a", "b", "c", "d"]
    assert t.tokenize_lines(["İx"], "unicode") == [["i", "\u0307", "x"]]  # lowercasing can add characters


def test_lowercasing_is_python_for_sacrebleu_and_perl_for_mteval() -> None:
    assert get_tokenizer("13a").tokenize_segment("ΟΔΟΣ Σ", "unicode") == ["οδος", "σ"]  # final sigma
    assert get_tokenizer("13a").tokenize_segment("ΟΔΟΣ ΑΣ Σ", "unicode") == \
        lookup("13a", "ΟΔΟΣ ΑΣ Σ", "bleu", "unicode").split() == ["οδος", "ας", "σ"]
    assert perl_lc("ΟΔΟΣ ΑΣ Σ ς") == "οδοσ ασ σ ς"
    assert get_tokenizer("mteval-intl").tokenize_segment("ΟΔΟΣ.", "unicode") == ["οδοσ", "."]
    assert get_tokenizer("mteval-intl").tokenize_segment("ΟΔΟΣ.", "perl") == ["οδοσ", "."]
    assert get_tokenizer("mteval-13a").tokenize_segment("ÉCOLE Normale", "ascii") == ["École", "normale"]
    with pytest.raises(ValueError):
        lowercase_text("x", "klingon")  # type: ignore[arg-type]


def test_mteval_lowercases_after_skipped_and_entities() -> None:
    """Observed with mteval-v13a.pl and -v14.pl (see fixtures/tokenizers/mteval.json)."""
    m13, mi = get_tokenizer("mteval-13a"), get_tokenizer("mteval-intl")
    text = "A <SKIPPED> b &QUOT;x&Quot; ÉCOLE"
    assert " ".join(m13.tokenize_segment(text, "ascii")) == "a < skipped > b & quot ; x & quot ; École"
    assert " ".join(mi.tokenize_segment(text, "perl")) == "a < skipped > b & quot ; x & quot ; école"
    assert " ".join(m13.tokenize_segment("A <skipped> b &quot;x", "ascii")) == 'a b " x'
    # &apos; only in the international tokenizer, after &amp;
    assert m13.tokenize("a &amp;apos; &apos; b") == "a & apos ; & apos ; b"
    assert mi.tokenize("a &amp;apos; &apos; b") == "a ' ' b"
    # the SGML reader collapses whitespace but does not trim: trailing space splits "2019."
    assert mi.tokenize("x 2019.") == "x 2019." and mi.tokenize("x 2019. ") == "x 2019 ."
    assert mi.tokenize("state-\u2028of") == "state - of" and m13.tokenize("state-\nof") == "state- of"


def test_missing_mecab_is_reported_at_first_use(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "MeCab", None)  # makes `import MeCab` raise ImportError
    tok = TokenizerJaMecab()  # constructing it is fine
    with pytest.raises(MissingDependencyError, match=r"pip install 'assay-metrics\[ja\]'"):
        tok.tokenize("私は学生です。")
    with pytest.raises(MissingDependencyError):
        tok.tokenize_lines(["私は学生です。"])


def test_importing_assay_does_not_import_mecab() -> None:
    code = ("import sys, assay, assay.tokenizers, assay.tokenizers.ja_mecab; "
            "from assay.tokenizers import get_tokenizer; get_tokenizer('ja-mecab'); "
            "print('MeCab' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=os.environ.copy())
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_registry() -> None:
    assert set(TOKENIZER_NAMES) >= {"13a", "intl", "zh", "char", "none", "ja-mecab", "multi-bleu",
                                    "mteval-13a", "mteval-intl"}
    for name in TOKENIZER_NAMES:
        tok = get_tokenizer(name)
        assert tok.name == name and tok.signature_name
        assert tok.tokenize_lines([]) == []
    assert get_tokenizer("ja-mecab").signature_name == "ja-mecab-0.996-IPA"


# ============================================================================== splitting rules
def test_perl_whitespace_sets() -> None:
    """Probed with perl 5.36 on every code point: on decoded text Perl ``\\s`` is Python's
    ``str.isspace`` set minus U+001C-U+001F; on bytes it is ASCII ``[\\t\\n\\v\\f\\r ]``."""
    python_spaces = {chr(c) for c in range(0x110000) if chr(c).isspace()}
    assert set(PERL_SPACE_CHARS) == python_spaces - set("\x1c\x1d\x1e\x1f")
    assert set(ASCII_SPACE_CHARS) == set("\t\n\x0b\x0c\r ")


def test_multi_bleu_split() -> None:
    t = get_tokenizer("multi-bleu")
    assert ascii_split(" a\x0bb\x0cc\rd\x1ce\xa0f g ") == ["a", "b", "c", "d\x1ce\xa0f", "g"]  # \v splits
    assert t.tokenize_segment("hello\xa0world\u2009foo\tbar  baz") == ["hello\xa0world\u2009foo", "bar", "baz"]
    assert t.tokenize_segment("a\u3000b\x85c\u2028d") == ["a\u3000b\x85c\u2028d"]
    assert t.tokenize_segment("  leading and trailing  ") == ["leading", "and", "trailing"]  # no empty field
    assert t.tokenize_segment("ÉCOLE NORMALE", "ascii") == ["École", "normale"]  # byte lc: ASCII only
    assert t.tokenize_segment("ΟΔΟΣ", "unicode") == ["οδοσ"]  # Perl lc
    assert t.tokenize("a &quot; <skipped>") == "a &quot; <skipped>"  # no rewriting at all


def test_perl_split_vs_python_split() -> None:
    assert perl_split("a\x1cb c\x1f") == ["a\x1cb", "c\x1f"]
    assert perl_split(" a\u3000b\xa0c ") == ["a", "b", "c"]
    assert "a\x1cb".split() == ["a", "b"]


# ============================================================================== properties
# Characters that could break a corpus-at-once pass: the separators and placeholders the engines
# use, everything str.splitlines or \s treats specially, surrogates, astral characters, case
# context (final sigma), combining marks, and every rule's trigger.
TRICKY = (
    list("aZ09.,-'\"!?()&;<>/$%+=_~ \t\n\r") +
    [chr(c) for c in range(0x00, 0x09)] + [chr(c) for c in range(0x0E, 0x20)] + ["\x7f", "\x0b", "\x0c"] +
    ["\x85", "\xa0", "\u1680", "\u2009", "\u2028", "\u2029", "\u202f", "\u3000", "\u200b", "\ufeff"] +
    list(intl_mod.SEPARATOR_CANDIDATES) + ["\ue000", "\ue001", "\ue002", "\ue003", "\ud800", "\udfff"] +
    ["😀", "\U00020000", "\U0001f1e9", "Σ", "ς", "İ", "ẞ", "\u0301", "\u0345", "é", "我", "。", "，", "“", "—",
     "€", "←", "は", "한", "٣", "Ⅻ", "&quot;", "&amp;", "&lt;", "&gt;", "&apos;", "<skipped>", "<SKIPPED>",
     "1,000.5", "2019.", "...", "-\n"]
)
segment = st.lists(st.sampled_from(TRICKY), max_size=12).map("".join)
corpus = st.lists(segment, min_size=1, max_size=8)
BATCH_TOKENIZERS = [n for n in TOKENIZER_NAMES if n != "ja-mecab"]
LOWERCASE = [None, "unicode", "ascii", "perl"]
relaxed = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("name", BATCH_TOKENIZERS)
@relaxed
@given(lines=corpus, lowercase=st.sampled_from(LOWERCASE))
def test_batch_equals_per_segment(name: str, lines: list[str], lowercase: str | None) -> None:
    tok = get_tokenizer(name)
    assert tok.tokenize_lines(lines, lowercase) == [tok.tokenize_segment(line, lowercase) for line in lines]


@pytest.mark.parametrize("name", BATCH_TOKENIZERS)
def test_batch_falls_back_when_every_separator_occurs(name: str) -> None:
    everything = "".join(tok_13a.SEPARATOR_CANDIDATES) + intl_mod.SEPARATOR_CANDIDATES + "".join(
        chr(c) for c in range(0xE000, 0xE100))
    lines = [everything + " a.b 1.5 x", "“2019.” 2019.", everything]
    assert choose_separator(lines, tok_13a.SEPARATOR_CANDIDATES) is None
    tok = get_tokenizer(name)
    for lowercase in LOWERCASE:
        assert tok.tokenize_lines(lines, lowercase) == [tok.tokenize_segment(line, lowercase) for line in lines]


@pytest.mark.parametrize("name", BATCH_TOKENIZERS)
def test_repeated_lines_get_fresh_lists(name: str) -> None:
    """A corpus with many repeats is tokenised once per distinct line; the lists are not shared."""
    tok = get_tokenizer(name)
    lines = ["The cat, 1.5 “x” a\x1cb.", "&quot;<skipped>", "ΟΔΟΣ."] * 7 + ["unique line."]
    for lowercase in LOWERCASE:
        out = tok.tokenize_lines(lines, lowercase)
        assert out == [tok.tokenize_segment(line, lowercase) for line in lines]
        assert len({id(toks) for toks in out}) == len(out)


@relaxed
@given(lines=st.lists(st.sampled_from(["a.", "b ,c", "1.5", "x\x1cy", "", "“q”", "ΑΣ"]), min_size=1, max_size=30),
       lowercase=st.sampled_from(LOWERCASE))
def test_batch_with_repeats(lines: list[str], lowercase: str | None) -> None:
    for name in BATCH_TOKENIZERS:
        tok = get_tokenizer(name)
        assert tok.tokenize_lines(lines, lowercase) == [tok.tokenize_segment(line, lowercase) for line in lines]


@relaxed
@given(text=segment)
def test_fast_engines_equal_literal_rules(text: str) -> None:
    assert get_tokenizer("13a").tokenize(text) == tok_13a.reference_tokenize(text)
    assert get_tokenizer("intl").tokenize(text) == intl_mod.reference_tokenize(text)
    assert get_tokenizer("zh").tokenize(text) == zh.reference_tokenize(text)


@relaxed
@given(text=st.text(st.characters(codec=None), max_size=40))
def test_fast_engines_equal_literal_rules_any_unicode(text: str) -> None:
    assert get_tokenizer("13a").tokenize(text) == tok_13a.reference_tokenize(text)
    assert get_tokenizer("intl").tokenize(text) == intl_mod.reference_tokenize(text)
    assert get_tokenizer("zh").tokenize(text) == zh.reference_tokenize(text)


@relaxed
@given(lines=corpus)
def test_split_output_has_no_whitespace(lines: list[str]) -> None:
    # the whitespace-splitting tokenizers of this module (``space`` keeps empty tokens by design)
    for name in ("none", "13a", "intl", "zh", "char", "multi-bleu", "mteval-13a", "mteval-intl"):
        spaces = ASCII_SPACE_CHARS if name == "multi-bleu" else PERL_SPACE_CHARS
        for toks in get_tokenizer(name).tokenize_lines(lines):
            assert all(t and not any(c in spaces for c in t) for t in toks), name
