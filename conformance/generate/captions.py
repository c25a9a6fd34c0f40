"""Deterministic generator of COCO-like caption sets (the project's own word lists, no external text).

An *image* is a scene (how many, colour, subject, action, place); its references are paraphrases
of the scene, and the hypothesis is one of: a copy of a reference, another paraphrase, a shortened
or lengthened paraphrase, a different scene, a repetition (``dog dog dog``), a 1-3 word caption,
or (rarely) an empty string. ``raw=True`` writes captions the way people type them (capitals,
commas, full stops, possessives, hyphens, brackets, quotes, numbers) for the PTB-tokeniser
pipeline; ``raw=False`` writes what PTBTokenizer would hand the scorers (lower case, no punctuation).

A corpus is ``{"hyps": [...], "refs": [[...], ...]}`` with reference STREAMS padded with None
(images have 1-5 references), plus ``"image_ids"``.
"""
from __future__ import annotations

import random
from typing import Any

SUBJECTS = [("dog", "dogs"), ("cat", "cats"), ("man", "men"), ("woman", "women"), ("child", "children"),
            ("horse", "horses"), ("bird", "birds"), ("boy", "boys"), ("girl", "girls"), ("bus", "buses"),
            ("train", "trains"), ("elephant", "elephants"), ("player", "players"), ("cow", "cows")]
COLOURS = ["red", "brown", "white", "black", "small", "large", "young", "old", "yellow", "green"]
ACTIONS = [("runs", "running"), ("sits", "sitting"), ("stands", "standing"), ("plays", "playing"),
           ("walks", "walking"), ("sleeps", "sleeping"), ("jumps", "jumping"), ("waits", "waiting"),
           ("looks", "looking"), ("rests", "resting")]
PREPS = [["on"], ["in"], ["near"], ["under"], ["next", "to"], ["behind"], ["across"], ["beside"]]
PLACES = [["grass"], ["field"], ["beach"], ["table"], ["street"], ["couch"], ["water"], ["park"],
          ["kitchen"], ["snow"], ["road"], ["tree"], ["building"], ["fence"]]
EXTRAS = [["with", "a", "ball"], ["with", "a", "frisbee"], ["in", "the", "sun"], ["at", "night"],
          ["on", "a", "sunny", "day"], ["while", "people", "watch"], ["together"]]
NUMBERS = ["two", "three", "four", "several", "many"]
RAW_WORDS = ["man's", "dog's", "black-and-white", "close-up", "t-shirt", "(blurry)", '"smiling"', "2",
             "3", "10", "e.g.", "u.s.", "don't", "it's", "o'clock", "5:30", "$5", "50%", "A.M.", "..."]


def _scene(rng: random.Random) -> dict[str, Any]:
    return {"plural": rng.random() < 0.3, "number": rng.choice(NUMBERS), "colour": rng.choice(COLOURS),
            "subject": rng.choice(SUBJECTS), "action": rng.choice(ACTIONS), "prep": rng.choice(PREPS),
            "place": rng.choice(PLACES), "extra": rng.choice(EXTRAS)}


def _describe(scene: dict[str, Any], rng: random.Random) -> list[str]:
    """One paraphrase of a scene as lower-case tokens."""
    words: list[str] = []
    if scene["plural"]:
        head = [scene["number"]] + ([scene["colour"]] if rng.random() < 0.6 else []) + [scene["subject"][1]]
        verb = ["are", scene["action"][1]] if rng.random() < 0.7 else [scene["action"][0][:-1]]
    else:
        head = [rng.choice(["a", "a", "the", "one"])] + ([scene["colour"]] if rng.random() < 0.6 else []) \
            + [scene["subject"][0]]
        verb = ["is", scene["action"][1]] if rng.random() < 0.6 else [scene["action"][0]]
    template = rng.random()
    place = [rng.choice(["the", "a", "a"])] + scene["place"]
    if template < 0.15:
        words = ["there", "is" if not scene["plural"] else "are"] + head + [scene["action"][1]] + scene["prep"] + place
    elif template < 0.25:
        words = scene["prep"] + place + head + verb
    else:
        words = head + verb + scene["prep"] + place
    if rng.random() < 0.35:
        words += scene["extra"]
    return words


def _rawify(words: list[str], rng: random.Random) -> str:
    """Capitals, punctuation and typed-in oddities, as human captions have them."""
    words = list(words)
    if rng.random() < 0.25:
        words.insert(rng.randrange(len(words) + 1), rng.choice(RAW_WORDS))
    if rng.random() < 0.2 and len(words) > 3:
        k = rng.randrange(1, len(words) - 1)
        words[k] = words[k] + ","
    text = " ".join(words)
    if rng.random() < 0.8:
        text = text[:1].upper() + text[1:]
    if rng.random() < 0.1:
        text = text.upper()
    end = rng.random()
    if end < 0.6:
        text += "."
    elif end < 0.65:
        text += " ."
    elif end < 0.7:
        text += "!"
    if rng.random() < 0.05:
        text = "  " + text + " "
    return text


def _hypothesis(scene: dict[str, Any], refs: list[list[str]], rng: random.Random) -> list[str]:
    kind = rng.random()
    if kind < 0.15:
        return list(rng.choice(refs))
    if kind < 0.5:
        return _describe(scene, rng)
    if kind < 0.6:
        words = _describe(scene, rng)
        return words[:max(1, len(words) - rng.randint(1, 4))]
    if kind < 0.7:
        return _describe(scene, rng) + ["and"] + _describe(_scene(rng), rng)
    if kind < 0.82:
        return _describe(_scene(rng), rng)
    if kind < 0.88:
        return [scene["subject"][0]] * rng.randint(2, 8)
    if kind < 0.98:
        return _describe(scene, rng)[-rng.randint(1, 3):]
    return []


def generate_caption_corpus(seed: int, max_images: int = 10, raw: bool = False,
                            min_images: int = 1) -> dict[str, Any]:
    """A small captioning corpus: 1-5 references per image, hypotheses of every kind."""
    rng = random.Random(seed)
    n_img = rng.randint(min_images, max_images)
    hyps: list[str] = []
    groups: list[list[str]] = []
    for _ in range(n_img):
        scene = _scene(rng)
        refs = [_describe(scene, rng) for _ in range(rng.randint(1, 5))]
        hyp = _hypothesis(scene, refs, rng)
        if raw:
            hyps.append(_rawify(hyp, rng) if hyp else "")
            groups.append([_rawify(r, rng) for r in refs])
        else:
            hyps.append(" ".join(hyp))
            groups.append([" ".join(r) for r in refs])
    if raw:   # the results file has no empty captions (assay.core.coco_json rejects them)
        hyps = [h if h.strip() else "A photo." for h in hyps]
    width = max(len(g) for g in groups)
    refs_streams = [[g[j] if j < len(g) else None for g in groups] for j in range(width)]
    return {"hyps": hyps, "refs": refs_streams, "image_ids": [seed * 1000 + i for i in range(n_img)]}


def references_per_image(corpus: dict[str, Any]) -> list[list[str]]:
    n = len(corpus["hyps"])
    return [[s[i] for s in corpus["refs"] if s[i] is not None] for i in range(n)]


def large_caption_corpus(n_images: int, seed: int = 20240611, raw: bool = True) -> dict[str, Any]:
    """One corpus of ``n_images`` images (benchmarks): 5 references each, hypotheses of every kind."""
    rng = random.Random(seed)
    hyps: list[str] = []
    groups: list[list[str]] = []
    for _ in range(n_images):
        scene = _scene(rng)
        refs = [_describe(scene, rng) for _ in range(5)]
        hyp = _hypothesis(scene, refs, rng) or [scene["subject"][0]]
        if raw:
            hyps.append(_rawify(hyp, rng))
            groups.append([_rawify(r, rng) for r in refs])
        else:
            hyps.append(" ".join(hyp))
            groups.append([" ".join(r) for r in refs])
    return {"hyps": hyps, "refs": [[g[j] for g in groups] for j in range(5)],
            "image_ids": list(range(1, n_images + 1))}
