"""Regenerate fixtures/tokenizers/ptb.json: frozen outputs of the CoreNLP 3.4.1 PTBTokenizer jar as
pycocoevalcap 1.2 runs it (``-preserveLines -lowerCase``), plus the wrapper's COCO string.

    PYTHONHASHSEED=0 python -m conformance.regen ptb            # writes fixtures/tokenizers/ptb.json
    python -m conformance.regen.ptb --probe OUT.txt              # re-measures the lexer tables

Inputs are written or generated here (``generate_captions``; ``HARD_CASES``; research case P01),
never taken from ../shared/corpora. Each set is run through the jar as ONE file (one caption per
line, as the wrapper does), so a case records the ``following`` line its result may depend on
(a sentence-final abbreviation looks at the next line).

``--probe`` re-runs the black-box measurements behind the tables at the end of
``impl/assay/tokenizers/ptb.py``: every BMP character in four contexts, every 1-4 letter
string (and capitalised/upper variants of a vocabulary) followed by ``.``, and sentence-start words
after ``U.S.``. It prints the tables; nothing of the jar itself is stored.
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import random
import string
import sys
from pathlib import Path
from typing import Any

from conformance.paths import FIXTURES
from conformance.references import ptb_ref

OUT = FIXTURES / "tokenizers" / "ptb.json"
FORMAT = "assay-tokenizer-fixtures/1"

SUBJECTS = ["A man", "A woman", "Two dogs", "The cat", "A young boy", "An elderly couple", "A group of people",
            "Three giraffes", "A red bus", "The chef", "A little girl", "Some zebras", "A skier", "It", "He",
            "She", "They", "A baseball player", "The kitchen", "An orange cat"]
VERBS = ["is standing", "sits", "is riding", "walks", "is holding", "jumps over", "looks at", "eats",
         "is parked near", "plays with", "is lying on", "carries", "rides down", "stands beside"]
OBJECTS = ["a table", "the fence", "a frisbee", "the street", "a surfboard", "a plate of food", "the grass",
           "a kite", "an umbrella", "the beach", "a large clock", "two chairs", "a pizza", "the snow",
           "a bowl of fruit", "a wooden bench", "the water", "a laptop", "a stop sign", "the sky"]
TAILS = ["", " in a field", " next to a building", " on a sunny day", " at night", " in the kitchen",
         " near the ocean", " with a smile", " in front of a house", " by the road"]

# pieces inserted into captions; each one exercises a documented tokenizer behaviour
PIECES = [
    # contractions, possessives, clitics
    "it's", "It's", "don't", "can't", "won't", "isn't", "ain't", "DON'T", "I'm", "we'll", "they'd",
    "you've", "they're", "man's", "dogs'", "James'", "giraffe's", "zebra's", "o'clock", "O'Neil",
    "rock'n'roll", "ma'am", "y'all", "'em", "'cause", "'tis", "gonna", "wanna", "gotta", "cannot",
    "lemme", "gimme", "let's", "ol'", "shouldn't've", "it’s", "don’t", "'90s", "'05", "80's",
    # hyphens and dashes
    "e-mail", "state-of-the-art", "T-shirt", "x-ray", "20-year-old", "mid-1990s", "well-known", "co-op",
    "-", "--", "---", "—", "–", "well--known", "pre-",
    # numbers, currency, units, fractions
    "1,000", "3.14", ".5", "1/2", "3 1/2", "12/25/2000", "5:30", "5:30pm", "10am", "1st", "2nd",
    "3rd", "4th", "$5", "$5.00", "US$5", "£3", "€4", "¥100", "5¢", "100%", "50 %", "-5", "+5",
    "3.5mm", "35mm", "½", "¾", "72°F", "24/7", "2x4", "(800) 555-1212", "555-1212", "1990s",
    # quotes
    '"hello"', '"Stop"', "'hi'", "``quoted''", "“smart”", "‘single’", "«guillemets»", '" spaced "',
    "\"'nested'\"", '"5 stars"', '"$10"', "'a'",
    # ellipses, repeated punctuation
    "...", "wait...", ". . .", "…", "....", "!!!", "?!", "??", "!", "?", ";", ":", ",",
    # abbreviations and acronyms
    "Mr.", "Mrs.", "Dr.", "St.", "Ave.", "Inc.", "Corp.", "Ltd.", "Co.", "Jr.", "etc.", "e.g.", "i.e.",
    "vs.", "No.", "U.S.", "U.K.", "a.m.", "p.m.", "Calif.", "Jan.", "Sept.", "Ph.D.", "A.", "N.Y.C.",
    # URLs, e-mail, handles
    "http://www.example.com/path?x=1", "www.example.org", "john.doe@example.com", "@user", "#hashtag",
    # brackets
    "(brown)", "[really]", "{ok}", "( spaced )", ":)", ":-(", ";)", ":D",
    # ampersands, entities, symbols
    "AT&T", "R&D", "Q&A", "b&w", "Tom & Jerry", "&amp;", "&lt;b&gt;", "&quot;", "a/b", "his/her",
    "2*3", "***", "<b>", "=", "+", "^", "~", "|", "\\", "_", "__init__",
    # non-ASCII letters and symbols
    "café", "CAFÉ", "naïve", "Zürich", "São Paulo", "Ελλάδα", "ΟΔΟΣ", "Москва", "東京", "İstanbul", "straße",
    "→", "©", "°", "×", "•", "™",
]


def _caption(rng: random.Random, hard: bool) -> str:
    words = f"{rng.choice(SUBJECTS)} {rng.choice(VERBS)} {rng.choice(OBJECTS)}{rng.choice(TAILS)}".split()
    if hard:
        for _ in range(rng.choice((1, 1, 2, 3))):
            piece = rng.choice(PIECES)
            pos = rng.randrange(len(words) + 1)
            if rng.random() < 0.15 and words:  # glue onto a neighbouring word
                pos = max(1, pos)
                words[pos - 1] = words[pos - 1] + piece
            else:
                words.insert(pos, piece)
    text = " ".join(words)
    end = rng.random()
    if end < 0.6:
        text += "."
    elif end < 0.65:
        text += " ."
    elif end < 0.7:
        text += "!"
    elif end < 0.72:
        text += "?"
    if hard and rng.random() < 0.1:
        text = text.upper()
    if hard and rng.random() < 0.05:
        text = "  " + text + "\t "
    return text


def generate_captions(seed: int, n: int, hard: bool = True) -> list[str]:
    """``n`` seeded captions; ``hard=False`` gives plain COCO-style captions."""
    rng = random.Random(seed)
    return [_caption(rng, hard) for _ in range(n)]


# hand-written inputs for the hard classes (one caption per line; order matters for the lookahead)
HARD_CASES = [
    "A man's dog (brown) jumped -- over the fence... \"Wow!\" [really] {ok}",  # research P01
    "He lives in the U.S.", "He lives in the U.S. He is happy.", "He works at Apple Inc.", "Inc.",
    "He works at Apple Inc. Really.", "x Inc. y", "Mr. Smith met Dr. Jones at St. Paul's at 5 p.m. yesterday.",
    "A. Smith and B. Jones", "It is a. The end", "Calif. Mass. Wash. Tex. Fla.", "Sept. Mon. Tues. Thurs.",
    "Jr. Sr. Bros. Ph.D. Ed.D.", "al. seq. et al. cf. ca.", "etc. e.g. i.e. vs. No. 5 Inc. Corp.",
    "The U.S.A. is big. the u.s. is big", "N.Y. N.Y.C. U.K. E.U. A.M.",
    "It costs $5, or \u00a33, or \u20ac4, or \u00a5100, or 5\u00a2.",
    "Visit http://www.example.com/path?x=1 or www.example.com or mail john.doe@example.com now.",
    "She said \"hello\" and 'goodbye' to `him'.", "\u201cSmart quotes\u201d and \u2018single\u2019 ones\u2019 too.",
    "\"'Quote' inside\"", "''double single'' ``latex''", "he said, \"no.\"", "x'y a'b 'a 'b' ' a '",
    "\" hello", "\"(hello", "\"5 dogs", "\"$5", "\"#", "'x", "'ab", "'x.", "'90s and '05", "'9",
    "The colour of the organisation's centre.", "gonna gotta wanna lemme gimme cannot 'tis 'twas",
    "A state-of-the-art e-mail system, well-known.", "pi is 3.14159, .5 is half, 1/2 is also half, 10-20 people.",
    "He said -- wait \u2014 no \u2013 yes - ok", "Wait... what? Wait . . . what\u2026", ".... ..... .. . . . .",
    "Tom & Jerry; AT&T &amp; &lt;b&gt; R&D &AMP; &quot; &QUOT; &nbsp; &#39; &copy;",
    "Call (800) 555-1212 or 555-1212 now.", "smiley :) :-) ;) :( :D :P :] =)", "a/b me/you 2*3 a*b ***",
    "o'clock rock'n'roll y'all d'ya O'Neil Ma'am ne'er c'mon ol' 'em 'cause 'til",
    "The dogs' bones. The dog's bone. James' car.", "TWO DOGS' TOYS AREN'T HERE. I'M OK. THEY'RE HERE.",
    "#hashtag @user", "100% 50 % 3rd 1st 2nd 10am 5:30pm 3.5mm 35mm", "Hello!!! Really?! Wow?!?",
    "<b>bold</b> <a href=\"x\">link</a> a < b > c << >>", "12/25/2000 3-4-2000 2000-01-01 24/7 9/11",
    "the 1,000,000th $1.5 million US$5 A$3 C$ HK$", "he's she'd it'll we've i'd he'd've shouldn't've",
    "It's nice. ITS. IT'S.", "can't CAN'T Can't don't DON'T won't ain't", "don\u2019t it\u2019s dog\u2019s o\u2019clock",
    "a--b a---b a----b a - b -a- -- well-", "abc.def a.b.c abc.def.", "1. 2. 3 .4 5.. 6...", "...hello ..hi .hi",
    "3 1/2 cups, 10 3/4 inches, 3  1/2", "\u00bd \u00bc \u00be \u2153 cup", "-5 +5 5- 1,000 10,00 1.5.6",
    "caf\u00e9 CAF\u00c9 na\u00efve Z\u00fcrich S\u00e3o Paulo \u0395\u03bb\u03bb\u03ac\u03b4\u03b1 \u039f\u0394\u039f\u03a3",
    "\u041c\u043e\u0441\u043a\u0432\u0430 \u6771\u4eac \u0130stanbul stra\u00dfe",
    "\u2192 \u00a9 \u00b0 \u00d7 \u2022 \u2122 \u00b2\u00b2 x\u00b3", "a\u00adb \u00ad a\u2010b \u2010",
    "\u00ab guillemets \u00bb \u2039 single \u203a \u201e low \u201c", "tab\there  two  spaces",
    "a\u00a0nbsp a\u3000ideographic", "__init__ a_b _", "b&w B&W H&M Q&A a&b", "5\u00a2 \u00a3 \u20ac \u00a4",
    "it's a dog's life", "A man riding a horse on a beach.", "", "   ", "EMPTY BEFORE", "Inc.", "The end.",
    "Ave.", "The Ave. The", "He is from Fla.", "He said so Calif.", "The", "gonna.", "x U.S.", "The x",
    "x U.S. Mr. Smith", "e.g. <b> x", "Ltd. <b> x", "&quot;a and &quot; a", "3.5mmx-ray 3.5mm", "Mrs.DON'T",
    "'tis\u6771\u4eac zebra's\u0130stanbul", "Inc. ", "Jr.\t ", "He lives in the U.S.",
    "a dog \U0001F600 runs a\U0001F600b \U0001D400bc dog\U0001F600.",
    "they're we'll ;) '05",  # last line of the set: the end of input
]


# context found while speeding the tokenizer up: "No." is one token before a number (also after
# '"', "(", "&quot;" and across the line break); the last line ends with blanks, which the end-of-input
# rules see ("we'll " -> "we 'll", ":) " -> ":-rrb-")
CONTEXT_CASES = [
    "&quot;No. 5", "\"No. 5", "(No. 5", "No. 5", "piano. 5", "x &quot;No.", "12 dogs", "a U.S. b &quot;No.",
    "3 cats", "@user &amp;No. 12/25/2000 \t ma'am  ", "a &quot;No. b", "it 's :) we'll ",
]


def _sets(seed: int, n_plain: int, n_hard: int) -> dict[str, list[str]]:
    return {"hard": list(HARD_CASES), "plain": generate_captions(seed, n_plain, hard=False),
            "generated": generate_captions(seed + 1, n_hard, hard=True),
            "upper": [c.upper() for c in generate_captions(seed + 2, max(1, n_hard // 5), hard=True)],
            "context": list(CONTEXT_CASES)}


def build_cases(seed: int = 5, n_plain: int = 300, n_hard: int = 1500) -> list[dict[str, Any]]:
    """Run each set through the jar as one file; one case per line."""
    cases: list[dict[str, Any]] = []
    for name, lines in _sets(seed, n_plain, n_hard).items():
        flat = [c.replace("\n", " ") for c in lines]
        out = ptb_ref.jar_lines(flat)
        if len(out) < len(flat):
            raise RuntimeError(f"set {name}: {len(out)} output lines for {len(flat)} inputs")
        for i, text in enumerate(flat):
            cases.append({"id": f"{name}/{i:04d}", "input": text,
                          "following": flat[i + 1] if i + 1 < len(flat) else None,
                          "tokens": out[i].split(" ") if out[i] else [], "coco": ptb_ref.wrapper_line(out[i])})
    return cases


def build(seed: int = 5, n_plain: int = 300, n_hard: int = 1500) -> dict[str, Any]:
    reason = ptb_ref.unavailable_reason()
    if reason:
        raise SystemExit(f"cannot regenerate: {reason}")
    return {"format": FORMAT,
            "description": ("CoreNLP 3.4.1 PTBTokenizer (-preserveLines -lowerCase) as pycocoevalcap 1.2 runs it. "
                            "Each set ran as ONE file (lines in case-id order, no trailing newline); 'following' is "
                            "the next line of that file (null: last line), which a sentence-final abbreviation "
                            "depends on. tokens = output line split on ' '; coco = the wrapper's string "
                            "(line.rstrip().split(' ') minus its punctuation list)."),
            "generated_by": {"command": "PYTHONHASHSEED=0 python conformance/regen_ptb.py",
                             "tool": {"jar": ptb_ref.JAR_NAME, "version": ptb_ref.JAR_VERSION,
                                      "via": f"pycocoevalcap=={ptb_ref.PYCOCOEVALCAP_VERSION}",
                                      "command": ptb_ref.COMMAND},
                             "python": platform.python_version(), "seed": seed},
            "cases": build_cases(seed, n_plain, n_hard)}


# ----------------------------------------------------------------------------- --probe
def _ranges(cps: list[int]) -> str:
    cps = sorted(cps)
    out, start, prev = [], cps[0], cps[0]
    for c in cps[1:] + [-2]:
        if c == prev + 1:
            prev = c
            continue
        out.append("%X" % start if start == prev else "%X-%X" % (start, prev))
        start = prev = c
    return " ".join(out)


def _probe_lines(probes: list[str], sep: str = "zzsep") -> list[list[str]]:
    """Output lines per probe; probes are separated by a neutral lower-case line."""
    out = ptb_ref.jar_lines([x for p in probes for x in (p, sep)], timeout=1800)
    res, cur = [], []
    for line in out:
        if line == sep:
            res.append(cur)
            cur = []
        else:
            cur.append(line)
    if len(res) != len(probes):
        raise RuntimeError("probe output misaligned")
    return res


def probe_tables() -> str:
    """Re-measure the character classes, abbreviation lists and sentence-start words."""
    chars = [chr(i) for i in range(0x80, 0x10000) if not 0xD800 <= i < 0xE000]
    ctx = {f: _probe_lines([f.replace("C", c) for c in chars]) for f in ("a C b", "aCb", "a CC b")}
    classes: dict[str, list[int]] = {"L": [], "X": [], "S": [], "R": []}
    for k, c in enumerate(chars):
        lc = c.lower()
        sig = tuple("|".join(ctx[f][k]).replace(lc, "@") for f in ("a C b", "aCb", "a CC b"))
        kind = {("a @ b", "a@b", "a @@ b"): "L", ("a b", "a b", "a b"): "X", ("a @ b", "a @ b", "a @ @ b"): "S",
                ("a @ b", "a @ b", "a @@ b"): "R"}.get(sig)
        if kind:
            classes[kind].append(ord(c))
    lines = [f"_RANGES_{k} = {_ranges(v)!r}" for k, v in classes.items()]
    low = string.ascii_lowercase
    cands = {c + "".join(t) for n in range(4) for t in itertools.product(low, repeat=n) for c in string.ascii_uppercase}
    cands |= {"".join(t) for n in range(1, 5) for t in itertools.product(low, repeat=n)}
    cands |= {"".join(t) for n in range(1, 5) for t in itertools.product(string.ascii_uppercase, repeat=n)}
    cands = sorted(cands)
    kept = [w for w, o in zip(cands, _probe_lines([f"x {w}. y" for w in cands])) if o == [f"x {w.lower()}. y"]]
    kept = [w for w in kept if len(w) > 1]
    the = _probe_lines([f"x {w}. The y" for w in kept])
    cap = _probe_lines([f"x {w}. Bob y" for w in kept])
    final = [w for w, o in zip(kept, cap) if o[0].split()[2:3] == ["."]]
    never = [w for w, o, p in zip(kept, the, cap) if w not in final and o[0].split()[2:3] != ["."]]
    lines += [f"_ABBREV_NEVER = {' '.join(never)!r}", f"_ABBREV_FINAL = {' '.join(final)!r}"]
    words = sorted({c + "".join(t) for n in range(3) for t in itertools.product(low, repeat=n)
                    for c in string.ascii_uppercase} | {w.capitalize() for w in _VOCAB.split()})
    hits = [w for w, o in zip(words, _probe_lines([f"U.S. {w} x" for w in words])) if o[0].startswith("u.s. . ")]
    lines.append(f"_START_WORDS = {' '.join(hits)!r}")
    return "\n".join(lines)


_VOCAB = ("about according additionally after although another any as at because before but despite during "
          "each earlier either even every few for from given her here his however if in its last many meanwhile "
          "more moreover most much my neither nevertheless no nor now once one only other our several she since "
          "so some still such that the their then there these they this those though thus under unless until we "
          "what when where whether which while who why yet you your")


def main(argv: list[str] | None = None, out: Path = OUT) -> int:
    """Write ``out`` (default ``fixtures/tokenizers/ptb.json``), or with ``--probe`` the lexer tables."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--plain", type=int, default=300)
    ap.add_argument("--generated", type=int, default=1500)
    ap.add_argument("--probe", metavar="OUT", help="re-measure the lexer tables into OUT (slow: ~3 min)")
    args = ap.parse_args(argv)
    if args.probe:
        Path(args.probe).write_text(probe_tables() + "\n", encoding="utf-8")
        print(f"wrote {args.probe}")
        return 0
    doc = build(args.seed, args.plain, args.generated)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out} ({len(doc['cases'])} cases)")
    return 0


if __name__ == "__main__":
    if os.environ.get("PYTHONHASHSEED") != "0":
        print("note: run with PYTHONHASHSEED=0 for byte-identical output", file=sys.stderr)
    sys.exit(main())
