"""Regenerate ``fixtures/tokenizers/sacrebleu.json`` from the live sacrebleu tokenizers (never from assay).

    PYTHONHASHSEED=0 python -m conformance.regen.tokenizers_sacrebleu [--research PATH] [--no-probe] [--out FILE]
    PYTHONHASHSEED=0 python -m conformance.regen tokenizers              # the defaults

(sacrebleu 2.6.0 must be importable; MeCab + ipadic optional. The research file defaults to
../shared/research/bleu_golden.json beside the checkout.)

Runs sacrebleu 2.6.0's tokenizers (13a, intl, zh, char, none, and ja-mecab when MeCab and ipadic
import) on the input strings below and records every output with the tool, its version and the
call. Two call paths are recorded:

- ``path: "tokenizer"``: the bare tokenizer object, ``<TokenizerClass>()(input)``, exact string;
- ``path: "bleu"``: what ``BLEU`` scores, ``BLEU(tokenize=..., lowercase=...)._preprocess_segment``
  (lowercasing, then ``rstrip()``, then the tokenizer), compared as ``str.split()`` tokens.

It also probes sacrebleu's ``zh`` "Chinese" character table on every code point (``a<c>b`` and
``1<c>1`` both isolated) and stores the ranges found (``probes.zh_isolated``), and it checks that
live sacrebleu still gives the ``tok`` fields of the research cases (shared/research/
bleu_golden.json), whose mteval tokens are frozen too (mteval cannot run in the default tests).

Inputs: the research cases' segments, the hand-written strings in ``HANDWRITTEN`` and random strings
from ``POOL`` (seeded). Lone surrogates are left out (they cannot be stored as UTF-8 JSON); the
hypothesis tests cover them.
"""
from __future__ import annotations

import argparse
import importlib
import json
import os
import platform
import random
import sys
from pathlib import Path
from typing import Any

from conformance.paths import FIXTURES
from conformance.paths import RESEARCH as RESEARCH_DIR
from conformance.references.availability import importable

OUT = FIXTURES / "tokenizers" / "sacrebleu.json"
RESEARCH = RESEARCH_DIR / "bleu_golden.json"
FORMAT = "assay-tokenizer-fixtures/1"

TOKENIZER_CLASSES = {
    "13a": ("sacrebleu.tokenizers.tokenizer_13a", "Tokenizer13a"),
    "intl": ("sacrebleu.tokenizers.tokenizer_intl", "TokenizerV14International"),
    "zh": ("sacrebleu.tokenizers.tokenizer_zh", "TokenizerZh"),
    "char": ("sacrebleu.tokenizers.tokenizer_char", "TokenizerChar"),
    "none": ("sacrebleu.tokenizers.tokenizer_none", "NoneTokenizer"),
    "ja-mecab": ("sacrebleu.tokenizers.tokenizer_ja_mecab", "TokenizerJaMecab"),
}

# Hand-written inputs: one or more per rule and quirk of the tokenizers.
HANDWRITTEN: list[str] = [
    # 13a punctuation rules, digits with separators
    "Hello, world! How are you?", "The price rose to 1,000.50 euros, i.e. 3.5% more.", "It happened in 2019.",
    "It happened in 2019. ", "in 2019.\t", "1990-2000", "state-of-the-art", "5-6 people", "-5 degrees", "a-5", "5--6",
    "1.5.3", "1,2,3", "1.,5", "1..5", "1...5", "a..5", "a...5", "a....5", "1,,5", ".5", "5.", ",5", "5,", "..5", "5..",
    "a.b", "a,b", "a.,b", "a. , b", "3.14159", "10,000,000.00", "U.S.A.", "e.g. this", "i.e., that", "...", "....",
    "Wait...what?", "x...", "..x", ". . .", "(1)", "[a]", "{b}", "a/b", "a\\b", "a|b", "a_b", "a~b", "a^b", "a`b",
    "@user #tag $5 %20 &x *y +z =w <v> ?u !t", "'quoted' \"double\"", "don't it's John's", "rock'n'roll",
    "Visit https://example.com/a?b=1&c=2 or mail me@x.org today", "C++ and C#", "50% of 1/2", "+1 -1 ±1",
    "1-", "-1", "1 -", "a-", "-", "--", "---", "1-2-3", "A-1", "x -5.5", "2019-", "a,", ",a", ".a", "a.",
    # entities and <skipped>
    "&quot;Hello&quot; &amp; goodbye &lt;3", "&amp;lt; &amp;quot; &amp;gt; &amp;amp;", "&lt;skipped&gt;",
    "&apos; &#39; &nbsp; &QUOT; &Amp;", "a&quot;b", "&quot", "&&quot;", "& quot ;", "Tom &amp; Jerry",
    "the cat <skipped> sat on the mat", "<skipped>", "<skip<skipped>ped>", "<SKIPPED> x", "a<skipped>b",
    "<skipped><skipped>", "x <skipped", "skipped>",
    # line breaks inside a segment, line-break hyphen join, trailing whitespace
    "state-\nof-the-art", "a\nb", "a-\n", "a\n", "a-\n\nb", "a -\nb", "5-\n6", "x\r\ny", "trailing   ", "  leading",
    "\ttabbed\t", "", " ", "\n", "  \t \n ", "  a b\x1c ",
    # odd whitespace (Python str.split splits U+001C-U+001F and the Unicode spaces)
    "a\x1cb", "a\x1db", "a\x1eb", "a\x1fb", "a\x1c.\x1d,\x1e-\x1f1", "hello\xa0world\u2009foo\tbar  baz", "a\u3000b",
    "a\u2028b", "a\u2029b", "a\x85b", "a\u1680b", "a\u200bb", "a\u202fb", "a\u205fb", "a\x0bb\x0cc", "x\u2000y\u200ay",
    "2019.\xa0", "2019.\x1c", "1\x1c.5", ".\x1f5",
    # Unicode punctuation and symbols (intl), quotes and dashes
    "He said “hello”—then left…", "The result—surprisingly—was “good”", "„Anführungszeichen“ und »Guillemets«",
    "«Bonjour», dit-il.", "¿Qué? ¡Sí!", "I ❤ NY 😀 +5% =x", "€5 £3 ¥7 $9", "5€ 3£", "x² y³ ½ ¼", "a·b", "a•b",
    "“2019”", "(2019)", "2019…", "v1.0—final", "§3.2", "№ 5", "10°C", "→ ← ↑", "∑∫√", "✓ ✗", "©®™",
    "١٢٣.٤٥", "٣,٥", "x٣.y", "Ⅻ.Ⅳ", "②.③",
    # CJK, Japanese, Korean, zh range bug
    "我爱北京天安门", "我爱北京天安门。", "你好，世界！", "他说：“你好。”", "2019年1月1日", "１２３．５", "ＡＢＣ",
    "私は学生です。", "私は大学生です。", "東京タワーに行きました。", "カタカナとひらがな", "ｶﾀｶﾅ ABC１２３",
    "저는 학생입니다.", "안녕하세요, 세계!", "𠀀𠀁", "𠀀𠀁𠀂 test", "丽𪚥", "⺀⻳", "㐀㒓", "鿻鿼", "﹐﹑", "︐︑",
    "x€y", "a←b", "a⌘b", "a✂b", "a\u2030b", "a\u2039b", "a\u2a6db", "a\u2a6eb", "a\u2e7fb", "a\u3040b", "a\u30a2b",
    # mixed scripts, case (lowercasing paths), final sigma, combining marks
    "ÉCOLE NORMALE Supérieure de Paris", "The Cat Sat On The Mat", "İstanbul", "ΟΔΟΣ ΑΣ Σ", "ΣΊΣΥΦΟΣ.",
    "Straße STRASSE ẞ", "ǅemal ǈ ǋ", "ﬁnance ﬀ", "Ἀθῆναι", "Москва, Россия.", "Київ — столиця.", "עברית, עוד.",
    "العربية، نعم.", "हिन्दी। ठीक", "ไทย ภาษา.", "e\u0301cole", "a\u0301.", "\u0301", "x\ufe0fy", "👍🏽 ok",
    "👨‍👩‍👧 family", "🇩🇪 flag", "a\u200db", "a\u00adb", "a\ufeffb", "\x00a\x01b", "a\x7fb", "tab\there",
]

# Characters for the random strings: every rule's trigger, mixed scripts, odd whitespace.
POOL = (list("abcXYZ0123456789.,-'\" !?()[]{}<>&;:/\\@#$%^*+=_~`|") + [
    "&quot;", "&amp;", "&lt;", "&gt;", "&apos;", "<skipped>", "\n", "\t", "\r", "\x1c", "\x1d", "\x1e", "\x1f",
    "\x85", "\xa0", "\u2009", "\u3000", "\u2028", "\u2029", "é", "É", "ß", "Σ", "İ", "我", "们", "。", "，", "“", "”",
    "—", "…", "€", "²", "½", "٣", "😀", "\U00020000", "は", "テ", "한", "\u0301", "\u200b", "«", "»", "¿", "·",
])


def _load(tok: str) -> Any:
    module, cls = TOKENIZER_CLASSES[tok]
    return getattr(importlib.import_module(module), cls)()



def _research_inputs(path: Path | None) -> tuple[list[str], list[dict[str, Any]]]:
    if path is None:
        return [], []
    cases = json.loads(path.read_text(encoding="utf-8"))
    seen: list[str] = []
    for case in cases:
        for seg in [*case["hyps"], *(r for stream in case["refs"] for r in stream)]:
            if seg is not None and seg not in seen:
                seen.append(seg)
    return seen, cases


def _random_inputs(n: int, seed: int = 20261121) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        out.append("".join(rng.choice(POOL) for _ in range(rng.randint(0, 14))))
    return out


def probe_zh() -> list[list[int]]:
    """Code points (whitespace excluded) that sacrebleu's zh isolates in both ``a<c>b`` and
    ``1<c>1``, as inclusive ranges. Calls the uncached tokenizer function when it can, so the
    sacrebleu LRU cache does not hold a million entries."""
    tok = _load("zh")
    call = getattr(type(tok).__call__, "__wrapped__", None)
    fn = (lambda s: call(tok, s)) if call is not None else tok
    ranges: list[list[int]] = []
    for code in range(0x110000):
        ch = chr(code)
        if ch.isspace():
            continue
        if fn(f"a{ch}b") == f"a {ch} b" and fn(f"1{ch}1") == f"1 {ch} 1":
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1][1] = code
            else:
                ranges.append([code, code])
    return ranges


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--research", type=Path, default=RESEARCH, help="bleu_golden.json of the research")
    parser.add_argument("--no-research", action="store_true",
                        help="leave the research cases out (the golden test then fails: it expects them)")
    parser.add_argument("--no-probe", action="store_true", help="skip the zh probe (keeps the stored one)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)

    import sacrebleu
    from sacrebleu.metrics import BLEU

    version = sacrebleu.__version__
    if version != "2.6.0":
        print(f"regen_tokenizers: sacrebleu 2.6.0 is pinned, found {version}", file=sys.stderr)
        return 2
    tokenizers = ["13a", "intl", "zh", "char", "none"]
    tools = {"sacrebleu": version, "regex": importlib.import_module("regex").__version__}
    if importable("MeCab", "ipadic"):
        tokenizers.append("ja-mecab")
        from importlib.metadata import version as dist_version
        tools.update({"mecab-python3": dist_version("mecab-python3"), "ipadic": dist_version("ipadic")})
    else:
        print("regen_tokenizers: MeCab/ipadic not importable; ja-mecab left out", file=sys.stderr)

    if not args.no_research and not args.research.exists():
        print(f"regen_tokenizers: {args.research} not found (pass --research PATH, or --no-research)",
              file=sys.stderr)
        return 2
    research_inputs, research_cases = _research_inputs(None if args.no_research else args.research)
    inputs: list[str] = []
    for s in [*research_inputs, *HANDWRITTEN, *_random_inputs(300)]:
        if s not in inputs and not any(0xD800 <= ord(c) <= 0xDFFF for c in s):
            inputs.append(s)

    cases: list[dict[str, Any]] = []
    objects = {t: _load(t) for t in tokenizers}
    for tok in tokenizers:
        module, cls = TOKENIZER_CLASSES[tok]
        call = f"{module}.{cls}()(input)"
        for s in inputs:
            cases.append({"tokenizer": tok, "path": "tokenizer", "lowercase": None, "input": s,
                          "expected": objects[tok](s), "tool": "sacrebleu", "version": version, "call": call})
    # what BLEU scores: lowercase -> rstrip -> tokenizer (the research and hand-written inputs)
    for tok in tokenizers:
        for lowercase in (False, True):
            metric = BLEU(tokenize=tok, lowercase=lowercase)
            call = f"sacrebleu.metrics.BLEU(tokenize={tok!r}, lowercase={lowercase})._preprocess_segment(input)"
            for s in dict.fromkeys([*research_inputs, *HANDWRITTEN]):
                cases.append({"tokenizer": tok, "path": "bleu", "lowercase": "unicode" if lowercase else None,
                              "input": s, "expected": metric._preprocess_segment(s), "tool": "sacrebleu",
                              "version": version, "call": call})

    # research `tok` fields: live sacrebleu must still agree; mteval's are frozen from the research run
    research_checked = 0
    for case in research_cases:
        seg = case["hyps"][0]
        for key, tok in (("13a", "13a"), ("intl", "intl"), ("zh", "zh"), ("char", "char")):
            if key in case["tok"]:
                live = objects[tok](seg.rstrip())
                if live.split() != case["tok"][key].split():
                    print(f"regen_tokenizers: {case['id']} {tok}: live {live!r} != research {case['tok'][key]!r}",
                          file=sys.stderr)
                    return 1
                research_checked += 1
        for key, tok in (("mteval13a -c", "mteval-13a"), ("mteval13a -c intl", "mteval-intl")):
            if key in case["tok"]:
                flags = "-c" if tok == "mteval-13a" else "-c --international-tokenization"
                cases.append({"tokenizer": tok, "path": "tokenizer", "lowercase": None, "input": seg,
                              "expected": case["tok"][key], "tool": "mteval-v13a.pl",
                              "version": "mosesdecoder@34452895f350 (research run)",
                              "call": f"frozen: shared/research/bleu_golden.json {case['id']} tok[{key!r}] "
                                      f"(perl mteval-v13a.pl {flags} -d 3)"})

    probes: dict[str, Any] = {}
    if args.no_probe and args.out.exists():
        probes = json.loads(args.out.read_text(encoding="utf-8")).get("probes", {})
    elif not args.no_probe:
        probes["zh_isolated"] = {
            "ranges": probe_zh(), "tool": "sacrebleu", "version": version,
            "call": "for every non-whitespace code point c: TokenizerZh()('a'+c+'b') == 'a c b' and "
                    "TokenizerZh()('1'+c+'1') == '1 c 1' (inclusive ranges)"}

    doc = {
        "format": FORMAT,
        "description": "sacrebleu tokenizer outputs on hand-written, research and random strings; "
                       "'tokenizer' cases compare the exact string of the bare tokenizer call, 'bleu' cases "
                       "compare the str.split() tokens of what BLEU scores (lowercase, rstrip, tokenizer).",
        "generated_by": {"command": "PYTHONHASHSEED=0 python conformance/regen_tokenizers.py",
                         "python": platform.python_version(), "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED", "unset"),
                         "tools": tools, "research_tok_fields_checked": research_checked,
                         "provenance": "live sacrebleu in this interpreter; mteval rows frozen from the research run "
                                       "(shared/research/bleu_golden.json)"},
        "probes": probes,
        "cases": cases,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({len(cases)} cases, {len(inputs)} inputs, "
          f"{research_checked} research tok fields checked)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
