"""Build fixtures/meteor/nltk_*.json from live NLTK 3.10.4 meteor_score (WordNet 3.0 from the system).

Files:

* ``nltk_seed004.json``: seed 004's three worked examples (printed to 4 decimals);
* ``nltk_research.json``: research cases M01-M11 (rouge_meteor_cider_golden.json) re-run on NLTK;
* ``nltk_generated.json``: generated sentence pairs (text written here, see :func:`generate_pairs`)
  rich in inflections, WordNet synonyms, function words, punctuation, repeated words and case,
  single- and multi-reference, plus knob variants (alpha/beta/gamma, no stemmer, no WordNet,
  identity preprocess) run through NLTK's own keyword arguments.

* ``nltk36_generated.json`` (with ``--legacy-python``, an interpreter with NLTK 3.5): profile
  ``nltk@3.6`` against NLTK 3.5 ``meteor_score`` called with plain strings: the NLTK doc example,
  probes of the stem/synonym double count (scores above 1), generated pairs with whitespace
  variants (tabs, runs of spaces, no-break and em spaces, Greek sigma), and knob variants.

``PYTHONHASHSEED=0 python -m conformance.regen meteor [--legacy-python PATH]`` writes the files.
"""
from __future__ import annotations

import json
import os
import platform
import random
import sys
from pathlib import Path
from typing import Any

from conformance.paths import RESEARCH
from conformance.references import meteor_nltk_ref as ref

RESEARCH_JSON = Path(os.environ.get("ASSAY_RESEARCH_METEOR_JSON",
                                    RESEARCH / "rouge_meteor_cider_golden.json"))
TOL = ref.TOLERANCE

# ---------------------------------------------------------------------------- generator
NOUNS = ["cat", "dog", "car", "house", "child", "man", "woman", "city", "country", "box", "church", "knife",
         "leaf", "mouse", "party", "story", "family", "baby", "ship", "boat", "road", "street", "film", "movie",
         "doctor", "physician", "student", "pupil", "home", "job", "work", "shop", "store", "picture", "photo",
         "automobile", "kid", "world", "people", "person", "hill", "mountain", "glass", "bus", "wife", "fox"]
VERBS = ["run", "walk", "buy", "purchase", "begin", "start", "see", "watch", "eat", "go", "make", "take",
         "die", "pass", "try", "cry", "stop", "plan", "love", "like", "sit", "stand", "write", "read", "fly",
         "study", "carry", "hurry", "marry", "get", "have", "do", "say", "tell", "speak", "talk", "help", "aid",
         "close", "shut", "hit", "strike", "finish", "end", "answer", "reply", "build", "construct"]
ADJS = ["big", "large", "small", "little", "quick", "fast", "happy", "glad", "good", "nice", "bad", "old",
        "new", "red", "hot", "easy", "simple", "early", "pretty", "beautiful", "sad", "unhappy", "smart",
        "clever", "angry", "busy", "heavy", "dry", "tiny", "huge"]
ADVS = ["quickly", "rapidly", "fast", "slowly", "happily", "really", "very", "well", "badly", "easily",
        "soon", "often", "never", "again", "also", "too", "here", "there", "now", "then"]
FUNCTION = ["the", "a", "an", "of", "in", "on", "at", "to", "and", "or", "but", "is", "was", "are", "were",
            "it", "he", "she", "they", "we", "that", "this", "with", "for", "by", "from", "not", "be"]
PUNCT = [",", ".", "!", "?", ";", ":", "'s", "n't", "-", "(", ")", "\""]
SYN = {"big": "large", "small": "little", "quick": "fast", "happy": "glad", "car": "automobile",
       "begin": "start", "buy": "purchase", "film": "movie", "doctor": "physician", "student": "pupil",
       "shop": "store", "picture": "photo", "child": "kid", "hill": "mountain", "die": "pass", "close": "shut",
       "hit": "strike", "finish": "end", "answer": "reply", "build": "construct", "help": "aid",
       "talk": "speak", "quickly": "rapidly", "sad": "unhappy", "smart": "clever", "tiny": "little",
       "huge": "large", "pretty": "beautiful", "job": "work", "house": "home", "street": "road"}
SUFFIXES = ["s", "es", "ed", "ing", "er", "est", "ly", "ies", "ied", "ness", "ful", "ation", "men", "ment"]


def _inflect(word: str, rng: random.Random) -> str:
    suffix = rng.choice(SUFFIXES)
    if suffix in ("ies", "ied") and word.endswith("y"):
        return word[:-1] + suffix
    if suffix in ("ed", "ing", "er", "est") and word.endswith("e"):
        return word[:-1] + suffix
    return word + suffix


def _sentence(rng: random.Random) -> list[str]:
    out: list[str] = []
    for _ in range(rng.randint(1, 14)):
        pool = rng.choice([NOUNS, VERBS, ADJS, ADVS, FUNCTION, FUNCTION])
        out.append(rng.choice(pool))
    return out


def _variant(words: list[str], rng: random.Random) -> list[str]:
    """A noisy rewrite: synonyms, inflections, case, punctuation, repeats, drops, local swaps."""
    rev = {v: k for k, v in SYN.items()}
    out: list[str] = []
    for w in words:
        r = rng.random()
        if r < 0.15 and (w in SYN or w in rev):
            w = SYN.get(w) or rev[w]
        elif r < 0.30:
            w = _inflect(w, rng)
        elif r < 0.35:
            w = w.capitalize() if rng.random() < 0.7 else w.upper()
        elif r < 0.42:
            continue
        out.append(w)
        r = rng.random()
        if r < 0.08:
            out.append(rng.choice(PUNCT))
        elif r < 0.12:
            out[-1] = out[-1] + rng.choice([",", ".", "!"])
        elif r < 0.17:
            out.append(w)                       # repeated word
        elif r < 0.22:
            out.append(rng.choice(FUNCTION))
    if len(out) > 2 and rng.random() < 0.4:
        i = rng.randrange(len(out) - 1)
        out[i], out[i + 1] = out[i + 1], out[i]
    if rng.random() < 0.1:
        rng.shuffle(out)
    return out


def generate_pairs(seed: int, count: int, max_refs: int = 1) -> tuple[list[str], list[list[str | None]]]:
    """``count`` hypotheses and ``max_refs`` reference streams (strings of space-joined tokens)."""
    rng = random.Random(seed)
    hyps: list[str] = []
    streams: list[list[str | None]] = [[] for _ in range(max_refs)]
    for _ in range(count):
        base = _sentence(rng)
        hyps.append(" ".join(_variant(base, rng)) if rng.random() > 0.03 else "")
        for k in range(max_refs):
            if k > 0 and rng.random() < 0.25:
                streams[k].append(None)
            else:
                text = " ".join(_variant(base, rng) if rng.random() < 0.9 else _sentence(rng))
                streams[k].append(text)
        if streams[0][-1] is None:
            streams[0][-1] = " ".join(base)
    return hyps, streams


# ---------------------------------------------------------------------------- cases
class _NoWordNet:
    """A wordnet argument with no synsets: NLTK's stage 3 then matches nothing new."""

    @staticmethod
    def synsets(word: str) -> list[Any]:
        return []


class _IdentityStemmer:
    @staticmethod
    def stem(word: str) -> str:
        return word


def _nltk_kwargs(knobs: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """assay knobs -> NLTK keyword arguments and their text for the command."""
    kw: dict[str, Any] = {}
    text: dict[str, str] = {}
    for k in ("alpha", "beta", "gamma"):
        if k in knobs:
            kw[k] = text[k] = knobs[k]
    if knobs.get("lowercase") is False:
        kw["preprocess"], text["preprocess"] = (lambda x: x), "lambda x: x"
    if knobs.get("stem") is False:
        kw["stemmer"], text["stemmer"] = _IdentityStemmer(), "<stem(w) -> w>"
    if knobs.get("synonyms") is False:
        kw["wordnet"], text["wordnet"] = _NoWordNet(), "<synsets(w) -> []>"
    return kw, "".join(f", {k}={v}" if isinstance(v, str) and v.startswith("<") or k == "preprocess" else
                       f", {k}={v!r}" for k, v in text.items())


def _meteor(hyp: str, refs: list[str], kw: dict[str, Any]) -> float:
    from nltk.translate.meteor_score import meteor_score
    kw = dict(kw)
    wn = kw.pop("wordnet", None) or ref.wordnet()
    return float(meteor_score([r.split() for r in refs], hyp.split(), wordnet=wn, **kw))


def nltk_case(case_id: str, hyps: list[str], refs: list[list[str | None]], note: str,
              knobs: dict[str, Any] | None = None) -> dict[str, Any]:
    knobs = dict(knobs or {})
    kw, kwtext = _nltk_kwargs(knobs)
    scores = [_meteor(h, [s[i] for s in refs if s[i] is not None], kw) for i, h in enumerate(hyps)]
    command = ("[meteor_score([r.split() for r in refs_i], hyp_i.split(), wordnet=<nltk.corpus.wordnet on "
               f"NLTK_DATA from /usr/share/wordnet>{kwtext}) for each segment i]")
    return {"id": case_id, "note": note, "profile": "nltk", "knobs": knobs, "level": "sentence",
            "hyps": hyps, "refs": refs,
            "expected": [{"tool": "nltk", "version": ref.version(), "command": command, "score": scores,
                          "tolerance": TOL}]}


def seed_cases() -> list[dict[str, Any]]:
    """Seed 004 (a blog post on NLP metrics): three METEOR breakdowns printed to 4 decimals."""
    ref6 = "the cat sat on the mat"
    rows = [("on the mat sat the cat", ref6, 0.5000, 1.0, 1.0, 1.0, 0.5000, 6, 6),
            ("the cat was sat on the mat", ref6, 0.9654, 0.8571, 1.0, 0.9836, 0.0185, 2, 6),
            ("the cat sat on the mat", ref6, 0.9977, 1.0, 1.0, 1.0, 0.0023, 1, 6)]
    cases = []
    for k, (h, r, score, p, rc, f, pen, ch, m) in enumerate(rows, 1):
        cases.append({
            "id": f"seed004/example{k}", "note": "seed 004 worked example (score and breakdown to 4 decimals)",
            "profile": "nltk", "knobs": {}, "level": "sentence", "hyps": [h], "refs": [[r]],
            "expected": [{"tool": "seed 004", "version": "seed-004",
                          "command": "worked example in /work/shared/seeds/004 (METEOR section)",
                          "score": [score],
                          "components": {"precision": [p], "recall": [rc], "fmean": [f], "penalty": [pen],
                                         "chunks": [ch], "matches": [m]},
                          "tolerance": {"abs": 5e-5}}]})
    return cases


def research_cases() -> list[dict[str, Any]]:
    items = {c["id"]: c for c in json.loads(RESEARCH_JSON.read_text(encoding="utf-8")) if c["id"].startswith("M")}
    cases = []
    for cid in sorted(items):
        inp = items[cid]["input"]
        if "pairs" in inp:
            hyps, refs = [p[0] for p in inp["pairs"]], [[p[1] for p in inp["pairs"]]]
        else:
            hyps, refs = [inp["hyp"]], [[r] for r in inp["refs"]]
        cases.append(nltk_case(f"research/{cid}", hyps, refs,
                               f"research {cid} (rouge_meteor_cider.md §7): {items[cid].get('why', '')}"))
    return cases


def generated_cases(n_single: int = 320, n_multi: int = 120) -> list[dict[str, Any]]:
    cases = []
    hyps, refs = generate_pairs(6001, n_single, 1)
    for start in range(0, n_single, 40):
        cases.append(nltk_case(f"generated/single/{start // 40:02d}", hyps[start:start + 40],
                               [s[start:start + 40] for s in refs], "generated single-reference pairs"))
    hyps, refs = generate_pairs(6002, n_multi, 3)
    for start in range(0, n_multi, 40):
        cases.append(nltk_case(f"generated/multi/{start // 40:02d}", hyps[start:start + 40],
                               [s[start:start + 40] for s in refs], "generated 1-3 reference pairs (max over refs)"))
    hyps, refs = generate_pairs(6003, 40, 2)
    variants = {"alpha": {"alpha": 0.5}, "beta-gamma": {"beta": 2.0, "gamma": 0.3},
                "params": {"alpha": 0.85, "beta": 0.2, "gamma": 0.6},
                "nostem": {"stem": False}, "nowordnet": {"synonyms": False},
                "nostem-nowordnet": {"stem": False, "synonyms": False}, "nolower": {"lowercase": False}}
    for name, knobs in variants.items():
        cases.append(nltk_case(f"generated/knobs/{name}", hyps, refs, f"NLTK keyword arguments {knobs}", knobs))
    return cases


# ---------------------------------------------------------------------------- nltk@3.6 (legacy NLTK, strings)
#: probes of NLTK <= 3.6.2: stem matches that match again as synonyms (scores above 1), synonyms of
#: unstemmed words, the order of a word matched twice, morphy re-applying its rules
LEGACY_PROBES = [
    ("a cats b", "a cat b"), ("cats a b", "a b cat"), ("cats dogs", "cat dog"), ("cats dogs", "dog cat"),
    ("cats", "cat cat"), ("cats cats", "cat"), ("quickly", "rapidly"), ("he ran quickly", "he ran rapidly"),
    ("quickly a", "a rapidly"), ("end", "ended"), ("ended", "end"), ("blorks", "blork"), ("cats running", "cat run"),
    ("ended here", "finish ending here"), ("cars park", "car automobile park"), ("handless", "wield"),
    ("offerer", "sour"), ("abasheded", "abashed"), ("dog", "domestic_dog"), ("Cat", "cat"), ("", "cat"),
    ("cat", ""), ("   ", "cat"), ("a  b\tc\nd ", "a b c d"), ("cat.", "cat ."),
]
DOC_EXAMPLE = ("It is a guide to action which ensures that the military always obeys the commands of the party",
               ["It is a guide to action that ensures that the military will forever heed Party commands",
                "It is the guiding principle which guarantees the military forces always being under the command "
                "of the Party",
                "It is the practical guide for the army always to heed the directions of the party"])
SPACES = [" ", " ", " ", "  ", "\t", " \n ", "\u00a0", "\u2003"]


def _respace(text: str, rng: random.Random) -> str:
    """Whitespace variants between words (split() treats them all alike), sometimes padded."""
    words = text.split(" ")
    out = words[0] if words else ""
    for w in words[1:]:
        out += rng.choice(SPACES) + w
    return (" " if rng.random() < 0.1 else "") + out + ("\t" if rng.random() < 0.1 else "")


def legacy_cases(python: str) -> tuple[list[dict[str, Any]], str]:
    """nltk@3.6 cases with scores from NLTK <= 3.6.2 run by ``python`` (strings as NLTK took them)."""
    rng = random.Random(6100)
    specs: list[tuple[str, str, list[str], list[list[str | None]], dict[str, Any]]] = [
        ("doc-example", "NLTK's meteor_score doc example (0.7398 here; 0.6944 on NLTK >= 3.6.3)",
         [DOC_EXAMPLE[0]], [[r] for r in DOC_EXAMPLE[1]], {}),
        ("probes", "black-box probes: double-counted stem/synonym matches (scores above 1), synonyms of "
         "words, order of a word matched twice, morphy re-applying its rules, whitespace",
         [h for h, _ in LEGACY_PROBES], [[r for _, r in LEGACY_PROBES]], {}),
        ("greek", "Greek capitals: the whole string lowercased (final sigma) then split",
         ["ΟΔΟΣ ΚΑΙ Σ", "Η ΟΔΟΣ"], [["οδος και σ", "η οδοσ"]], {}),
    ]
    hyps, refs = generate_pairs(6101, 160, 1)
    hyps = [_respace(h, rng) for h in hyps]
    refs = [[None if r is None else _respace(r, rng) for r in s] for s in refs]
    for start in range(0, 160, 40):
        specs.append((f"generated/single/{start // 40:02d}", "generated single-reference pairs, whitespace variants",
                      hyps[start:start + 40], [s[start:start + 40] for s in refs], {}))
    hyps, refs = generate_pairs(6102, 80, 3)
    for start in range(0, 80, 40):
        specs.append((f"generated/multi/{start // 40:02d}", "generated 1-3 reference pairs (max over refs)",
                      hyps[start:start + 40], [s[start:start + 40] for s in refs], {}))
    hyps, refs = generate_pairs(6103, 40, 2)
    for name, knobs in {"alpha": {"alpha": 0.5}, "beta-gamma": {"beta": 2.0, "gamma": 0.3},
                        "params": {"alpha": 0.85, "beta": 0.2, "gamma": 0.6}, "nostem": {"stem": False}}.items():
        specs.append((f"generated/knobs/{name}", f"NLTK keyword arguments for knobs {knobs}", hyps, refs, knobs))
    hyps, refs = generate_pairs(6104, 40, 1)    # legacy meteor_score ignores preprocess: single_meteor_score
    specs.append(("generated/knobs/nolower", "lowercase=False: single_meteor_score(..., preprocess=lambda x: x)",
                  hyps, refs, {"lowercase": False}))
    requests = [{"hyps": h, "refs": [[s[i] for s in r if s[i] is not None] for i in range(len(h))], "knobs": k}
                for _, _, h, r, k in specs]
    answers = ref.run_legacy(python, requests)
    cases = []
    for (cid, note, h, r, knobs), answer in zip(specs, answers):
        cases.append({"id": f"nltk36/{cid}", "note": note, "profile": "nltk@3.6", "knobs": knobs, "level": "sentence",
                      "hyps": h, "refs": r,
                      "expected": [{"tool": "nltk", "version": answer["version"], "command": ref.legacy_command(knobs),
                                    "score": answer["scores"], "tolerance": TOL}]})
    return cases, answers[0]["version"]


def build_fixtures(legacy_python: str | None = None) -> list[dict[str, Any]]:
    gen = {"command": "PYTHONHASHSEED=0 python conformance/regen_meteor.py", "python": platform.python_version(),
           "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED", ""), "tools": {"nltk": ref.version()},
           "provenance": "live NLTK meteor_score with WordNet 3.0 built from Debian wordnet-base "
                         "(conformance/references/meteor_nltk_ref.py)"}
    seed_gen = dict(gen, tools={}, provenance="seed 004 worked examples (printed to 4 decimals)")
    return [
        {"metric": "meteor", "family": "nltk_seed004", "cases": seed_cases(), "generated_by": seed_gen,
         "description": "Seed 004's METEOR worked examples (0.5000 / 0.9654 / 0.9977) with their breakdowns."},
        {"metric": "meteor", "family": "nltk_research", "cases": research_cases(), "generated_by": gen,
         "description": "Research cases M01-M11 re-run on NLTK 3.10.4 meteor_score (str.split tokens)."},
        {"metric": "meteor", "family": "nltk_generated", "cases": generated_cases(), "generated_by": gen,
         "description": "Generated pairs (inflections, synonyms, function words, punctuation, repeats, case), "
                        "single and multi-reference, and NLTK keyword-argument variants."},
    ] + (_legacy_spec(legacy_python, gen) if legacy_python else [])


def _legacy_spec(python: str, gen: dict[str, Any]) -> list[dict[str, Any]]:
    cases, version = legacy_cases(python)
    legacy_gen = dict(gen, command=gen["command"] + f" --legacy-python {python}", tools={"nltk": version},
                      interpreter=python,
                      provenance="live legacy NLTK meteor_score called with plain strings, WordNet 3.0 built from "
                                 "Debian wordnet-base (conformance/references/meteor_nltk_ref.py run_legacy)")
    return [{"metric": "meteor", "family": "nltk36_generated", "cases": cases, "generated_by": legacy_gen,
             "description": f"Profile nltk@3.6 against NLTK {version} meteor_score on plain strings: doc example, "
                            "probes (scores above 1), generated pairs with whitespace variants, knob variants."}]


if __name__ == "__main__":
    if os.environ.get("PYTHONHASHSEED") != "0":
        sys.exit("run with PYTHONHASHSEED=0")
    import argparse
    from conformance.fixture_io import write_specs
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--legacy-python", help="interpreter with NLTK 3.5 (nltk36_generated.json)")
    write_specs(build_fixtures(parser.parse_args().legacy_python))
