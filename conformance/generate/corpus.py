"""Deterministic generators of small test corpora for differential and golden tests.

Every corpus is built from ``random.Random(seed)`` and the word lists below, which the
project wrote itself (no external text).  A corpus is ``{"hyps": [...], "refs": [[...], ...]}``
where ``refs`` holds reference STREAMS, each aligned with ``hyps``.

Design goals: a small per-corpus vocabulary (so n-grams match often); segment lengths
that cover empty, 1-3-token and long (10-30 token) segments; hypotheses derived from the
references by drop/swap/substitute/duplicate/case edits at a per-corpus rate, so scores
spread over 0..100; 1-4 references of different lengths, sometimes with reference-length
ties (one ref ``d`` tokens shorter and one ``d`` longer than the hypothesis) and sometimes
an empty reference line.

Kinds:
  ``ascii``     ASCII words, numbers and punctuation only (for tools that mishandle Unicode).
  ``tokenised`` single-space-separated tokens with punctuation already split off.
  ``mixed``     everything: accented/Cyrillic/CJK words, numbers with separators, ASCII and
                Unicode punctuation attached or separate, entities, emoji, odd spacing.
"""
from __future__ import annotations

import random
from typing import Sequence

KINDS: tuple[str, ...] = ("mixed", "ascii", "tokenised")

CORE = ("the cat sat on mat a dog house river green runs quickly and of in to is was big "
        "small red old new we they it").split()
CAPS = "The Cat Paris John Berlin NATO Monday We It".split()
ATTACHED = ["cat,", "mat.", "dog!", "why?", "end;", "note:", "(house)", '"hello"', "don't",
            "it's", "John's", "state-of-the-art", "e.g.", "U.S.", "Mr.", "a/b", "me@x.org",
            "x=1", "50%", "well-known", "[ok]", "{x}", "#tag", "$5", "C++"]
NUMBERS = ["42", "7", "2019", "2019.", "1,000.50", "3.5%", "1990-2000", "12:30", "0.5",
           "100,000", "-7", "+5", "3.14", "1.000,50", "10-20"]
PUNCT = [",", ".", "!", "?", "-", "(", ")", '"', "'", ":", ";", "&", "/", "...", "--", "$",
         "#", "*", "%", "@", "+", "="]
ENTITIES = ["&amp;", "&quot;", "&lt;", "&gt;", "&apos;", "&QUOT;", "AT&amp;T", "&quot;hi&quot;"]
ACCENTED = ["Straße", "über", "Mädchen", "école", "été", "français", "Île", "ÉCOLE", "naïve",
            "Größe", "Über", "garçon", "İstanbul", "ÆSIR", "Ñandú"]
CYRILLIC = ["кошка", "Москва", "сидит", "на", "КОШКА", "дом"]
CJK_WORDS = ["我", "爱", "北京", "天安门", "学生", "です", "私は学生です。", "猫", "저는", "학생"]
CJK_PUNCT = ["。", "、", "，", "！"]
UNI_PUNCT = ["“", "”", "—", "…", "«", "»", "‘", "’", "¿", "·"]
UNI_ATTACHED = ["“hello”", "word—word", "end…", "¿qué?", "«oui»", "‘tis", "l’été"]
EMOJI = ["😀", "❤", "👍", "€5", "©", "→", "±3"]
SPECIAL = ["<skipped>", "<SKIPPED>", "<3", "a<b", "x>y"]


def corpus_kinds() -> tuple[str, ...]:
    """The ``kind`` values :func:`generate_corpus` accepts."""
    return KINDS


def _pools(kind: str) -> list[tuple[float, list[str]]]:
    """(weight, tokens) pools of one kind; the core list always dominates."""
    if kind == "ascii":
        return [(6, CORE), (2, CAPS), (2, ATTACHED), (1.5, NUMBERS), (2, PUNCT), (0.3, ENTITIES)]
    if kind == "tokenised":
        words = [n for n in NUMBERS if n[-1].isdigit()]
        return [(6, CORE), (2, CAPS), (1.5, ACCENTED), (0.7, CYRILLIC), (0.8, CJK_WORDS[:6]),
                (1, words), (2, PUNCT), (0.7, UNI_PUNCT + CJK_PUNCT), (0.3, EMOJI)]
    if kind == "mixed":
        return [(6, CORE), (2, CAPS), (2, ATTACHED), (1.5, NUMBERS), (2, PUNCT), (0.4, ENTITIES),
                (1.5, ACCENTED), (0.7, CYRILLIC), (0.8, CJK_WORDS), (0.3, CJK_PUNCT),
                (0.8, UNI_PUNCT), (0.6, UNI_ATTACHED), (0.3, EMOJI), (0.15, SPECIAL)]
    raise ValueError(f"unknown corpus kind {kind!r}; expected one of {', '.join(KINDS)}")


def _vocabulary(rng: random.Random, kind: str) -> list[str]:
    """A small per-corpus vocabulary (6-30 distinct tokens) so that n-grams repeat."""
    pools = _pools(kind)
    size = rng.choice([6, 10, 15, 20, 30])
    weights = [w for w, _ in pools]
    vocab: list[str] = []
    for _ in range(size * 3):
        pool = rng.choices(pools, weights=weights)[0][1]
        tok = rng.choice(pool)
        if tok not in vocab:
            vocab.append(tok)
        if len(vocab) >= size:
            break
    return vocab


def _length(rng: random.Random) -> int:
    """Segment length: 1-3 (short), 4-9 (medium) or 10-30 (long) tokens."""
    r = rng.random()
    if r < 0.35:
        return rng.randint(1, 3)
    if r < 0.65:
        return rng.randint(4, 9)
    return rng.randint(10, 30)


def _recase(rng: random.Random, tok: str) -> str:
    return rng.choice([tok.lower(), tok.upper(), tok.capitalize()])


def _edit(rng: random.Random, toks: Sequence[str], rate: float, vocab: Sequence[str]) -> list[str]:
    """Apply drop / substitute / duplicate / swap / recase / insert edits at ``rate``."""
    out: list[str] = []
    for tok in toks:
        if rng.random() >= rate:
            out.append(tok)
            continue
        op = rng.choice(("drop", "sub", "dup", "swap", "case", "insert"))
        if op == "sub":
            out.append(rng.choice(vocab))
        elif op == "dup":
            out += [tok, tok]
        elif op == "swap" and out:
            out.insert(len(out) - 1, tok)
        elif op == "case":
            out.append(_recase(rng, tok))
        elif op == "insert":
            out += [rng.choice(vocab), tok]
        # "drop" (and "swap" at the start) keeps nothing
    return out


def _resize(rng: random.Random, toks: list[str], n: int, vocab: Sequence[str]) -> list[str]:
    """Truncate or extend ``toks`` to exactly ``n`` tokens."""
    return toks[:n] + [rng.choice(vocab) for _ in range(n - len(toks))]


def _render(rng: random.Random, toks: Sequence[str], kind: str) -> str:
    """Join tokens; ``mixed`` sometimes glues punctuation and varies the spacing."""
    if kind != "mixed":
        return " ".join(toks)
    glue = set(PUNCT) | set(UNI_PUNCT) | set(CJK_PUNCT)
    parts: list[str] = []
    for i, tok in enumerate(toks):
        if i:
            if tok in glue and rng.random() < 0.5:
                pass
            else:
                parts.append(rng.choices([" ", "  ", "\t"], weights=[20, 1, 1])[0])
        parts.append(tok)
    text = "".join(parts)
    if text and rng.random() < 0.05:
        text += " "
    return text


def generate_corpus(seed: int, *, max_segments: int = 6, max_refs: int = 4,
                    kind: str = "mixed") -> dict[str, list]:
    """Return ``{"hyps": [...], "refs": [[...] per stream]}`` for ``seed`` (deterministic)."""
    rng = random.Random(seed)
    vocab = _vocabulary(rng, kind)
    n_seg = rng.randint(1, max(1, max_segments))
    n_refs = rng.randint(1, max(1, max_refs))
    hyp_rate = rng.choice([0.0, 0.05, 0.1, 0.2, 0.35, 0.5, 0.7, 0.9])
    ties = n_refs >= 2 and rng.random() < 0.3
    hyps: list[list[str]] = []
    refs: list[list[list[str]]] = [[] for _ in range(n_refs)]
    for _ in range(n_seg):
        base = [rng.choice(vocab) for _ in range(_length(rng))]
        seg_refs = [base] + [_edit(rng, base, rng.choice([0.1, 0.2, 0.3]), vocab)
                             for _ in range(n_refs - 1)]
        hyp = [] if rng.random() < 0.07 else _edit(rng, base, hyp_rate, vocab)
        if ties and len(hyp) >= 2 and rng.random() < 0.6:
            d = rng.randint(1, min(3, len(hyp) - 1))
            i, j = rng.sample(range(n_refs), 2)
            seg_refs[i] = _resize(rng, seg_refs[i], len(hyp) - d, vocab)
            seg_refs[j] = _resize(rng, seg_refs[j], len(hyp) + d, vocab)
        hyps.append(hyp)
        for stream, toks in zip(refs, seg_refs):
            stream.append(toks)
    if rng.random() < 0.15:
        rng.choice(refs)[rng.randrange(n_seg)] = []
    return {"hyps": [_render(rng, h, kind) for h in hyps],
            "refs": [[_render(rng, r, kind) for r in stream] for stream in refs]}
