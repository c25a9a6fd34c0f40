"""Generated METEOR 1.5 inputs (text written here): conformance.regen.meteor's inflection/synonym/function-word
pairs, made raw (case, punctuation glued to words, hyphens, acronyms, apostrophes) and mixed with
paraphrasable phrases, repeated words and several references."""
from __future__ import annotations

import random

from conformance.regen.meteor import generate_pairs

PHRASES = [("passed away", "died"), ("in order to", "to"), ("a lot of", "many"), ("at the moment", "now"),
           ("as well as", "and"), ("make sure", "ensure"), ("in spite of", "despite"), ("find out", "discover"),
           ("a number of", "several"), ("look at", "watch"), ("get rid of", "remove"), ("on top of", "above")]
RAW = ["state-of-the-art", "U.S.", "Mr. Smith", "doesn't", "it's", "e.g.", "1,000", "$3.50", "(really)",
       "\"quoted\"", "well-known", "don't", "James'", "x-ray", "...", "--", "Dr. Who", "No. 5"]


def _rawify(text: str, rng: random.Random) -> str:
    words = text.split()
    if not words:
        return text
    out: list[str] = []
    for w in words:
        r = rng.random()
        if r < 0.08 and out:
            out[-1] += rng.choice([",", ".", "!", "?", ";", ":"])
        if r > 0.93:
            w = w.capitalize()
        out.append(w)
    if rng.random() < 0.3:
        out.insert(rng.randrange(len(out) + 1), rng.choice(RAW))
    if rng.random() < 0.5:
        out[0] = out[0].capitalize()
        out[-1] += "."
    return " ".join(out)


def _phrase(text: str, rng: random.Random, side: int) -> str:
    a, b = rng.choice(PHRASES)
    words = text.split()
    words.insert(rng.randrange(len(words) + 1), (a, b)[side])
    return " ".join(words)


def generate(seed: int, count: int, max_refs: int = 1) -> tuple[list[str], list[list[str]]]:
    """(hyps, refs per segment): ``count`` raw sentence pairs with up to ``max_refs`` references."""
    rng = random.Random(seed)
    hyps, streams = generate_pairs(seed, count, max_refs)
    out_h: list[str] = []
    out_r: list[list[str]] = []
    for i, h in enumerate(hyps):
        refs = [s[i] for s in streams if s[i] is not None]
        if rng.random() < 0.35:
            k = rng.randrange(len(PHRASES))
            a, b = PHRASES[k]
            pos = rng.random()
            h = " ".join(_insert(h.split(), a, pos))
            refs = [" ".join(_insert(r.split(), b, pos)) for r in refs]
        if rng.random() < 0.15 and h.split():
            w = h.split()
            j = rng.randrange(len(w))
            h = " ".join(w[:j + 1] + [w[j]] + w[j + 1:])
        out_h.append(_rawify(h, rng))
        out_r.append([_rawify(r, rng) for r in refs])
    return out_h, out_r


def _insert(words: list[str], phrase: str, pos: float) -> list[str]:
    j = int(pos * (len(words) + 1))
    return words[:j] + phrase.split() + words[j:]
