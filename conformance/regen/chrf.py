"""Fixture builders for chrF / chrF++ (sacrebleu 2.x live in-process, sacrebleu 1.x and NLTK 3.5 through
another interpreter, NLTK 3.10 in-process).

    PYTHONHASHSEED=0 python -m conformance.regen chrf [--legacy-python /tmp/legacyvenv/bin/python]

Files written (``fixtures/chrf/``):
- ``edge``: hand-written edge cases (empty and identical segments, whitespace, punctuation, CJK,
  case, sacrebleu #124/#144 examples, missing references) under sacrebleu 2.x, 1.x and NLTK;
- ``research_sacrebleu``: the 36 research cases (shared/research/bleu_golden.json) as chrF2, chrF2++
  and eps-smoothed chrF, corpus and sentence level;
- ``sacrebleu_generated``: generated corpora (conformance/generate/corpus.py, and :func:`odd_corpus` for
  CJK, punctuation and whitespace oddities) x rotating sacrebleu knobs, corpus and sentence level;
- ``sacrebleu1_generated`` / ``nltk35_generated`` (with ``legacy_python``): sacrebleu 1.5.1 / NLTK 3.5;
- ``nltk_generated``: NLTK 3.10 corpus_chrf / sentence_chrf, strings and token lists.
Every expected value records the tool, its version and the call; statistics are sacrebleu's own.
"""
from __future__ import annotations

import json
import os
import random
import sys
from typing import Any

from conformance.generate.corpus import KINDS, generate_corpus
from conformance.paths import RESEARCH as RESEARCH_DIR
from conformance.references import chrf_ref

RESEARCH = RESEARCH_DIR / "bleu_golden.json"
TOL = {"rel": 1e-9, "abs": 0.0}

# ---------------------------------------------------------------------------- inputs
ODD_WORDS = ["cat", "Cat", "CAT", "mat", "sat", "the", "a", "İstanbul", "straße", "STRASSE", "Σοφία", "ΣΟΦΊΑ"]
ODD_PUNCT = ["(hi)", "hi.", ".hi", "hi!!", "..", ".", "'s", "it's", "(.)", "a.b", "«oui»", "word—", "—", "-",
             "[ok]", "\"x\"", "e.g.", "U.S.", "?!", "50%", "#tag", "end;", "x=1", "¿qué?", "…"]
CJK = list("我爱北京天安门学生猫的是了在有人这中大为上个国") + ["。", "、", "，", "！", "です", "私は", "저는", "학생"]
SPACES = [" ", " ", " ", " ", "  ", "\t", "\u00a0", "\u3000", "\u2009", "\x1c", "\x1f", "\x0b", "\x0c", "\r",
          "\x85", "\u2028", "\u200b"]


def odd_corpus(seed: int, max_segments: int = 6, max_refs: int = 3, missing: bool = False) -> dict[str, list]:
    """A corpus of CJK runs, punctuation-edged tokens and whitespace oddities (tabs, double, leading and
    trailing spaces, NBSP, ideographic space, U+001C..U+001F, zero-width space), from ``Random(seed)``.

    With ``missing`` some references (never all of a segment) are ``None`` (sacrebleu ``nrefs:var``).
    """
    rng = random.Random(seed)
    style = rng.choice(["cjk", "punct", "space", "mixed"])
    pool = {"cjk": CJK, "punct": ODD_PUNCT + ODD_WORDS[:6], "space": ODD_WORDS,
            "mixed": CJK + ODD_PUNCT + ODD_WORDS}[style]
    vocab = rng.sample(pool, min(len(pool), rng.choice([4, 8, 14])))
    n_seg = rng.randint(1, max_segments)
    n_refs = rng.randint(1, max_refs)

    def render(toks: list[str]) -> str:
        if style == "cjk" and rng.random() < 0.7:
            text = "".join(toks)
        else:
            seps = SPACES if style in ("space", "mixed") else [" "]
            text = "".join(t + (rng.choice(seps) if rng.random() < 0.3 else " ") for t in toks).rstrip(" ")
        if style in ("space", "mixed") and rng.random() < 0.3:
            text = rng.choice(SPACES) + text + rng.choice(SPACES)
        return text

    def edit(toks: list[str], rate: float) -> list[str]:
        out = []
        for t in toks:
            r = rng.random()
            if r < rate / 3:
                continue
            if r < 2 * rate / 3:
                out.append(rng.choice(vocab))
            elif r < rate:
                out += [t, rng.choice(vocab)]
            else:
                out.append(t)
        return out

    hyps, refs = [], [[] for _ in range(n_refs)]
    rate = rng.choice([0.0, 0.1, 0.3, 0.6, 0.9])
    for _ in range(n_seg):
        base = [rng.choice(vocab) for _ in range(rng.choice([1, 2, 3, 5, 8, 15]))]
        hyp = "" if rng.random() < 0.08 else render(edit(base, rate))
        hyps.append(hyp)
        for k in range(n_refs):
            ref = "" if rng.random() < 0.06 else render(base if k == 0 else edit(base, 0.3))
            refs[k].append(ref)
    if missing and n_refs > 1:
        for i in range(n_seg):
            if rng.random() < 0.3:
                refs[rng.randrange(1, n_refs)][i] = None
    return {"hyps": hyps, "refs": refs}


def corpus_for(seed: int, missing: bool = False) -> tuple[str, dict[str, list]]:
    """Alternate generate.py kinds and :func:`odd_corpus`."""
    if seed % 2:
        return "odd_corpus", odd_corpus(seed, missing=missing)
    kind = KINDS[(seed // 2) % len(KINDS)]
    return f"generate_corpus(kind={kind})", generate_corpus(seed, kind=kind)


# ---------------------------------------------------------------------------- knobs
def sacrebleu_knobs(seed: int) -> dict[str, Any]:
    """Rotation through sacrebleu 2.x's chrF parameters."""
    knobs: dict[str, Any] = {}
    char_order = [6, 6, 4, 1, 3, 8, 0][seed % 7]
    word_order = [0, 2, 0, 1, 2, 3][seed % 6] if char_order else 2
    if char_order != 6:
        knobs["char_order"] = char_order
    if word_order:
        knobs["word_order"] = word_order
    beta = [2, 2, 1, 3, 0.5, 0][(seed // 3) % 6]
    if beta != 2:
        knobs["beta"] = beta
    if seed % 5 == 1:
        knobs["lowercase"] = True
    if seed % 4 == 2:
        knobs["whitespace"] = True
    if seed % 3 == 1:
        knobs["eps_smoothing"] = True
    return knobs


def sacrebleu1_knobs(seed: int) -> dict[str, Any]:
    knobs: dict[str, Any] = {}
    if seed % 4:
        knobs["char_order"] = [6, 4, 1, 3][seed % 4]
    if seed % 3:
        knobs["beta"] = [2, 1, 3][seed % 3]
    if seed % 5 == 2:
        knobs["whitespace"] = True
    return knobs


def nltk_knobs(seed: int) -> dict[str, Any]:
    knobs: dict[str, Any] = {}
    if seed % 4:
        knobs["char_order"] = [6, 4, 2, 8][seed % 4]
    if seed % 5 == 3:
        knobs["min_char_order"] = 2
    if seed % 3:
        knobs["beta"] = [3.0, 2.0, 1.0][seed % 3]
    if seed % 4 == 1:
        knobs["whitespace"] = True
    return knobs


# ---------------------------------------------------------------------------- expected values
def _expected(tool: str, version: str, answer: dict[str, Any], level: str) -> dict[str, Any]:
    exp: dict[str, Any] = {"tool": tool, "version": version, "command": answer["command"], "score": answer["score"],
                           "tolerance": TOL}
    comps: dict[str, Any] = {}
    if answer.get("stats") is not None:
        comps["stats"] = answer["stats"]
    if level == "corpus" and answer.get("str"):
        comps["name"] = answer["str"].split(" = ")[0]
        exp["text"] = answer["str"]
    if comps:
        exp["components"] = comps
    return exp


def _error(tool: str, version: str, message: str, command: str) -> dict[str, Any]:
    return {"tool": tool, "version": version, "error": message.split(":")[0], "message": message, "command": command}


def _case(cid: str, note: str, profile: str, knobs: dict[str, Any], level: str, hyps: list, refs: list,
          expected: dict[str, Any]) -> dict[str, Any]:
    return {"id": cid, "note": note, "profile": profile, "knobs": knobs, "level": level, "hyps": hyps, "refs": refs,
            "expected": [expected]}


def _live(tool: str, hyps: list, refs: list, knobs: dict[str, Any], level: str) -> dict[str, Any]:
    """In-process answer in the run_in format."""
    return chrf_ref.answer({"tool": tool, "hyps": hyps, "refs": refs, "knobs": knobs, "level": level})


def _from_answer(tool: str, ans: dict[str, Any], level: str, command: str) -> dict[str, Any]:
    if "error" in ans:
        return _error(tool, ans["version"], ans["error"], command)
    return _expected(tool, ans["version"], ans["result"], level)


# ---------------------------------------------------------------------------- families
EDGE_INPUTS: list[tuple[str, str, list, list]] = [
    ("identical", "identical hypothesis and reference", ["The cat sat on the mat."], [["The cat sat on the mat."]]),
    ("issue144", "sacrebleu #144: 'ab' vs 'abcdefg' (26.76 eff:yes, 8.89 eps)", ["ab"], [["abcdefg"]]),
    ("no-match", "nothing matches; eps-smoothed scores are ~1e-14", ["ab"], [["xy"]]),
    ("no-match-longer-ref", "no match, reference longer (an order with h = 0 < r)", ["ab"], [["xyz"]]),
    ("hyp-longer", "hypothesis has n-grams of orders the reference lacks", ["abcdefg"], [["ab"]]),
    ("empty-hyp", "empty hypothesis", [""], [["abc"]]),
    ("empty-ref", "empty reference: sacrebleu 2.x counts no hypothesis n-grams, 1.x and NLTK do",
     ["x", "abc"], [["", "abc"]]),
    ("both-empty", "empty hypothesis and reference", ["", "abc"], [["", "abd"]]),
    ("issue124", "sacrebleu #124: '(hi)' splits into '(hi' and ')'", ["Hello (hi) world."], [["Hello hi world"]]),
    ("punct-edges", "one trailing, else one leading ASCII punctuation character splits off",
     ["hi!! .. (.) 's «oui» word— a.b ?! ."], [["hi! ! . . (. ) ' s «oui» word— a.b ? !"]]),
    ("whitespace", "tabs, NBSP, ideographic space, U+001C/U+001F, zero-width space, leading/trailing spaces",
     [" a\tb\u00a0c\u3000d\x1ce\x1ff\u200bg "], [["a b c d e f g"]]),
    ("whitespace-words", "U+001C splits words for str.split (chrF++); NLTK 3.10 keeps it in characters",
     ["ab.\x1ccd ef"], [["ab . cd ef"]]),
    ("cjk", "CJK without spaces", ["我爱北京天安门。", "私は学生です。"], [["我爱北京。", "私は学生です"]]),
    ("case", "case differences (İ, ß, Σ)", ["İstanbul STRASSE ΣΟΦΊΑ"], [["istanbul straße σοφία"]]),
    ("best-ref", "two references: the better one is kept per segment", ["abcd", "the cat"],
     [["abxx", "a cat"], ["abcx", "the hat"]]),
    ("best-ref-tie", "two references with equal sentence chrF: the first is kept", ["abcd"], [["abcx"], ["xbcd"]]),
    ("empty-vs-ref-tie", "empty hypothesis, an empty and a non-empty reference", ["", "ab"],
     [["xyz", "ab"], ["", "ab"]]),
    ("single-chars", "one-character segments", ["a", "b", "c"], [["a", "c", "b"]]),
]


def edge_cases(legacy_python: str | None) -> list[dict[str, Any]]:
    out = []
    configs2 = {"chrf": {}, "chrf++": {"word_order": 2}, "eps": {"eps_smoothing": True},
                "lc-space": {"lowercase": True, "whitespace": True}}
    legacy_requests, legacy_meta = [], []
    for name, note, hyps, refs in EDGE_INPUTS:
        for cfg, knobs in configs2.items():
            for level in ("corpus", "sentence"):
                ans = _live("sacrebleu", hyps, refs, knobs, level)
                out.append(_case(f"edge/{name}/sacrebleu/{cfg}/{level}", note, "sacrebleu", knobs, level, hyps, refs,
                                 _from_answer("sacrebleu", ans, level, "sacrebleu.metrics.CHRF")))
        for level in ("corpus", "sentence"):
            ans = _live("nltk", hyps, refs[:1], {}, level)
            out.append(_case(f"edge/{name}/nltk/{level}", note, "nltk", {}, level, hyps, refs[:1],
                             _from_answer("nltk", ans, level, "nltk chrf_score")))
            for tool, profile in (("sacrebleu", "sacrebleu@1"), ("nltk", "nltk@3.5")):
                r = refs if tool == "sacrebleu" else refs[:1]
                legacy_requests.append({"tool": tool, "hyps": hyps, "refs": r, "knobs": {}, "level": level})
                legacy_meta.append((f"edge/{name}/{profile}/{level}", note, profile, level, hyps, r, tool))
    # failures: a segment without any reference (sacrebleu 2.x), a missing reference (1.x)
    for cid, hyps, refs in (("no-reference", ["a b", "c d"], [["a b", None], ["a c", None]]),
                            ("no-reference-1seg", ["a b"], [[None], [None]])):
        ans = _live("sacrebleu", hyps, refs, {}, "corpus")
        out.append(_case(f"edge/{cid}/sacrebleu", "a segment whose references are all missing", "sacrebleu", {},
                         "corpus", hyps, refs, _from_answer("sacrebleu", ans, "corpus", "sacrebleu.metrics.CHRF()"
                                                            ".corpus_score(hyps, refs)")))
    hyps, refs = ["a b", "c d"], [["a b", "c d"], ["a c", None]]
    for cfg, knobs in (("chrf", {}), ("chrf++", {"word_order": 2})):
        ans = _live("sacrebleu", hyps, refs, knobs, "corpus")
        out.append(_case(f"edge/var-refs/sacrebleu/{cfg}", "a missing second reference (nrefs:var)", "sacrebleu", knobs,
                         "corpus", hyps, refs, _from_answer("sacrebleu", ans, "corpus", "sacrebleu.metrics.CHRF")))
        legacy_requests.append({"tool": "sacrebleu", "hyps": hyps, "refs": refs, "knobs": {}, "level": "corpus"})
        legacy_meta.append(("edge/var-refs/sacrebleu@1" + ("" if cfg == "chrf" else "-2"),
                            "a missing reference: sacrebleu 1.x fails", "sacrebleu@1", "corpus", hyps, refs,
                            "sacrebleu"))
    if legacy_python:
        for (cid, note, profile, level, hyps, refs, tool), ans in zip(
                legacy_meta, chrf_ref.run_in(legacy_python, legacy_requests)):
            out.append(_case(cid, note, profile, {}, level, hyps, refs,
                             _from_answer(tool, ans, level, f"{tool} {ans['version']} chrF")))
    return out


def research_cases() -> list[dict[str, Any]]:
    cases = json.loads(RESEARCH.read_text(encoding="utf-8"))
    out = []
    for c in cases:
        for cfg, knobs in (("chrf", {}), ("chrf++", {"word_order": 2}), ("eps", {"eps_smoothing": True})):
            for level in ("corpus", "sentence"):
                if level == "sentence" and cfg == "eps":
                    continue
                ans = _live("sacrebleu", c["hyps"], c["refs"], knobs, level)
                out.append(_case(f"research/{c['id']}/{cfg}/{level}", c["title"], "sacrebleu", knobs, level,
                                 c["hyps"], c["refs"], _from_answer("sacrebleu", ans, level, "sacrebleu.metrics.CHRF")))
    return out


def sacrebleu_generated(n: int = 280) -> list[dict[str, Any]]:
    out = []
    for seed in range(n):
        source, corpus = corpus_for(seed, missing=seed % 6 == 1)
        knobs = sacrebleu_knobs(seed)
        level = "sentence" if seed % 4 == 3 else "corpus"
        ans = _live("sacrebleu", corpus["hyps"], corpus["refs"], knobs, level)
        out.append(_case(f"gen/{seed:04d}", f"generated corpus ({source}, seed {seed})", "sacrebleu", knobs, level,
                         corpus["hyps"], corpus["refs"],
                         _from_answer("sacrebleu", ans, level, "sacrebleu.metrics.CHRF")))
    return out


def sacrebleu1_generated(python: str, n: int = 200) -> list[dict[str, Any]]:
    requests, meta = [], []
    for seed in range(n):
        source, corpus = corpus_for(seed)
        knobs = sacrebleu1_knobs(seed)
        level = "sentence" if seed % 4 == 3 else "corpus"
        requests.append({"tool": "sacrebleu", "hyps": corpus["hyps"], "refs": corpus["refs"], "knobs": knobs,
                         "level": level})
        meta.append((seed, source, corpus, knobs, level))
    out = []
    for (seed, source, corpus, knobs, level), ans in zip(meta, chrf_ref.run_in(python, requests)):
        out.append(_case(f"gen1/{seed:04d}", f"generated corpus ({source}, seed {seed}) scored by sacrebleu 1.x",
                         "sacrebleu@1", knobs, level, corpus["hyps"], corpus["refs"],
                         _from_answer("sacrebleu", ans, level, "sacrebleu 1.x corpus_chrf/sentence_chrf")))
    return out


def _nltk_inputs(seed: int) -> tuple[str, list, list]:
    source, corpus = corpus_for(seed)
    hyps, refs = corpus["hyps"], corpus["refs"][:1]
    if seed % 7 == 5:   # NLTK's pre-tokenised call shape: token lists, joined with spaces by NLTK
        return source + ", token lists (str.split)", [h.split() for h in hyps], [[r.split() for r in refs[0]]]
    return source, hyps, refs


def nltk_generated(n: int = 200, python: str | None = None, tool_label: str = "nltk") -> list[dict[str, Any]]:
    requests, meta = [], []
    for seed in range(n):
        source, hyps, refs = _nltk_inputs(seed)
        knobs = nltk_knobs(seed)
        level = "sentence" if seed % 4 == 3 else "corpus"
        requests.append({"tool": "nltk", "hyps": hyps, "refs": refs, "knobs": knobs, "level": level})
        meta.append((seed, source, hyps, refs, knobs, level))
    answers = chrf_ref.run_in(python, requests) if python else [chrf_ref.answer(r) for r in requests]
    profile = "nltk" if python is None else "nltk@3.5"
    out = []
    for (seed, source, hyps, refs, knobs, level), ans in zip(meta, answers):
        out.append(_case(f"{tool_label}/{seed:04d}", f"generated corpus ({source}, seed {seed}), first reference",
                         profile, knobs, level, hyps, refs, _from_answer("nltk", ans, level, "nltk chrf_score")))
    return out


def build_fixtures(legacy_python: str | None = None) -> list[dict[str, Any]]:
    import nltk
    import sacrebleu
    command = "python conformance/regen_chrf.py" + (f" --legacy-python {legacy_python}" if legacy_python else "")
    gen = {"command": command,
           "python": sys.version.split()[0], "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED", ""),
           "tools": {"sacrebleu": sacrebleu.__version__, "nltk": nltk.__version__}}
    specs = [
        {"metric": "chrf", "family": "edge", "cases": edge_cases(legacy_python), "generated_by": gen,
         "description": "Hand-written chrF edge cases (empty, identical, whitespace, punctuation, CJK, case, "
                        "multi-reference, missing references) under sacrebleu 2.x/1.x and NLTK."},
        {"metric": "chrf", "family": "research_sacrebleu", "cases": research_cases(), "generated_by": gen,
         "description": "The 36 research cases (shared/research/bleu_golden.json) as sacrebleu chrF2, chrF2++ and "
                        "eps-smoothed chrF."},
        {"metric": "chrf", "family": "sacrebleu_generated", "cases": sacrebleu_generated(), "generated_by": gen,
         "description": "Generated corpora (generate.py kinds and regen_chrf.odd_corpus: CJK, punctuation, "
                        "whitespace oddities, missing references) x rotating sacrebleu 2.x chrF knobs."},
        {"metric": "chrf", "family": "nltk_generated", "cases": nltk_generated(), "generated_by": gen,
         "description": "Generated corpora (first reference) under NLTK corpus_chrf/sentence_chrf, strings and "
                        "token lists, rotating min_len/max_len/beta/ignore_whitespace."},
    ]
    if legacy_python:
        vers = chrf_ref.run_in(legacy_python, [{"tool": "sacrebleu", "hyps": ["a"], "refs": [["a"]]},
                                               {"tool": "nltk", "hyps": ["a"], "refs": [["a"]]}])
        legacy_gen = {**gen, "tools": {"sacrebleu": vers[0]["version"], "nltk": vers[1]["version"]},
                      "interpreter": legacy_python}
        specs.append({"metric": "chrf", "family": "sacrebleu1_generated",
                      "cases": sacrebleu1_generated(legacy_python), "generated_by": legacy_gen,
                      "description": "Generated corpora scored by sacrebleu 1.x corpus_chrf/sentence_chrf "
                                     "(profile sacrebleu@1)."})
        specs.append({"metric": "chrf", "family": "nltk35_generated",
                      "cases": nltk_generated(120, legacy_python, "nltk35"), "generated_by": legacy_gen,
                      "description": "Generated corpora scored by NLTK 3.5 chrf_score (profile nltk@3.5)."})
    return specs


def main(argv: list[str] | None = None) -> int:
    import argparse
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--legacy-python", help="interpreter with sacrebleu 1.5.1 and nltk 3.5")
    args = parser.parse_args(argv)
    if os.environ.get("PYTHONHASHSEED") != "0":
        print("regen_chrf: set PYTHONHASHSEED=0", file=sys.stderr)
        return 2
    from conformance.fixture_io import write_specs
    write_specs(build_fixtures(args.legacy_python))
    return 0


if __name__ == "__main__":
    sys.exit(main())
