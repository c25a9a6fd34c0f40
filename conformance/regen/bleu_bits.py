"""Regenerate fixtures/bleu/bits.json: BLEU values of sacrebleu and NLTK to the last bit.

The BLEU fixtures compare within a tolerance; these record each tool's float with its
``float.hex`` (``score_hex``), which conformance/tests/bleu/test_bleu_bits.py compares exactly, so
that the operation order of
``score_arithmetic`` (``sacrebleu``: logs of percentages, summed, divided by the order count;
``nltk``: ``math.fsum`` of the weighted logs) is pinned in the default environment.
Corpora: ``fixtures/sample`` and ``generate_corpus(seed)`` for a range of seeds, through live
sacrebleu 2.x (``BLEU(...).corpus_score`` / ``sentence_score``) and NLTK
(``corpus_bleu`` / ``sentence_bleu``, methods 0-4, several weight tuples). Only the tools'
outputs are recorded; cases where NLTK fails are left out (nltk_generated.json has them).
Methods 5-7 are left out too: NLTK computes them in exact ``Fraction`` arithmetic (method 6 partly),
which assay's float smoothing (:mod:`assay.metrics.bleu.nltk_smoothing`) matches only to ~1e-16.

    PYTHONHASHSEED=0 python -m conformance.regen bleu-bits
"""
from __future__ import annotations

import platform
from typing import Any

from conformance.generate.corpus import KINDS, generate_corpus
from conformance.paths import FIXTURES

#: the tolerance other consumers of the fixtures (test_golden, ``assay conform`` suites for other
#: implementations) use; assay itself is held to ``score_hex`` by test_bleu_bits
TOLERANCE = {"rel": 1e-9, "abs": 1e-12}
SEEDS = range(40)
SMOOTH = ("exp", "none", "floor", "add-k")
NLTK_WEIGHTS: tuple[Any, ...] = ((0.25, 0.25, 0.25, 0.25), (0.1, 0.2, 0.3, 0.4), (1 / 3, 1 / 3, 1 / 3),
                                 (0.5, 0.5))
NLTK_METHODS = 5          # methods 0-4 (see the module docstring for 5-7)
NLTK_TOKENS = "list_of_references[i] = [r.split() for each reference r of segment i], hypotheses[i] = hyp.split()"


def _hex(score: Any) -> Any:
    return [float(s).hex() for s in score] if isinstance(score, list) else float(score).hex()


def _expected(tool: str, version: str, command: str, score: Any) -> dict[str, Any]:
    return {"tool": tool, "version": version, "command": command, "score": score, "score_hex": _hex(score),
            "tolerance": dict(TOLERANCE)}


def _corpora() -> list[tuple[str, list[str], list[list[str]]]]:
    """(name, hyps, reference streams): the sample files, then generated corpora."""
    sample = FIXTURES / "sample"
    lines = [(sample / f).read_text(encoding="utf-8").splitlines() for f in ("hyp.txt", "ref1.txt", "ref2.txt")]
    out = [("sample", lines[0], [lines[1], lines[2]])]
    for seed in SEEDS:
        corpus = generate_corpus(seed, max_segments=8, max_refs=3, kind=KINDS[seed % len(KINDS)])
        out.append((f"gen-{seed:04d}", corpus["hyps"], corpus["refs"]))
    return out


def _sacrebleu_knobs(i: int) -> dict[str, Any]:
    knobs: dict[str, Any] = {"tokenize": ("13a", "intl", "none")[i % 3], "smooth_method": SMOOTH[(i // 3) % 4]}
    if i % 5 == 1:
        knobs["effective_order"] = True
    if i % 7 == 2:
        knobs["max_ngram_order"] = 1 + i % 6
    if i % 11 == 3 and knobs["smooth_method"] in ("floor", "add-k"):
        knobs["smooth_value"] = 0.01 if knobs["smooth_method"] == "floor" else 2
    return knobs


def _sacrebleu_cases(corpora: list[tuple[str, list[str], list[list[str]]]]) -> list[dict[str, Any]]:
    import sacrebleu
    from sacrebleu.metrics import BLEU

    cases = []
    for i, (name, hyps, refs) in enumerate(corpora):
        knobs = _sacrebleu_knobs(i)
        args = ", ".join(f"{k}={v!r}" for k, v in knobs.items())
        corpus = float(BLEU(**knobs).corpus_score(hyps, refs).score)
        sentence_metric = BLEU(**{"effective_order": True, **knobs})
        sentence = [float(sentence_metric.sentence_score(h, [s[j] for s in refs]).score) for j, h in enumerate(hyps)]
        sentence_args = ", ".join(f"{k}={v!r}" for k, v in {"effective_order": True, **knobs}.items())
        for level, score, command in (
                ("corpus", corpus, f"sacrebleu.metrics.BLEU({args}).corpus_score(hyps, refs)"),
                ("sentence", sentence, f"sacrebleu.metrics.BLEU({sentence_args}).sentence_score(hyp, "
                                       "[refs of that segment]) per segment")):
            cases.append({"id": f"sacrebleu/{name}/{level}", "note": f"{name} corpus, sacrebleu's value to the bit",
                          "profile": "sacrebleu", "knobs": knobs, "level": level, "hyps": hyps, "refs": refs,
                          "expected": [_expected("sacrebleu", sacrebleu.__version__, command, score)]})
    return cases


def _nltk_cases(corpora: list[tuple[str, list[str], list[list[str]]]]) -> list[dict[str, Any]]:
    from conformance.references import nltk_ref

    version = nltk_ref.version()
    cases = []
    for i, (name, hyps, refs) in enumerate(corpora):
        method = i % NLTK_METHODS
        weights = NLTK_WEIGHTS[(i // NLTK_METHODS) % len(NLTK_WEIGHTS)]
        knobs = {"smoothing": f"method{method}", "weights": list(weights)}
        for level, run in (("corpus", nltk_ref.corpus_bleu), ("sentence", nltk_ref.sentence_bleu)):
            got = run(hyps, refs, method, weights)
            if got.get("error") or got["score"] is None:
                continue
            cases.append({"id": f"nltk/{name}/m{method}/{level}",
                          "note": f"{name} corpus, NLTK's value to the bit", "profile": "nltk", "knobs": knobs,
                          "level": level, "hyps": hyps, "refs": refs,
                          "expected": [_expected("nltk", version, f"{got['command']}  # {NLTK_TOKENS}",
                                                 got["score"])]})
    return cases


def build_fixtures() -> list[dict[str, Any]]:
    """The ``bits`` fixture-file spec (sacrebleu and NLTK cases)."""
    import nltk
    import sacrebleu

    corpora = _corpora()
    cases = _sacrebleu_cases(corpora) + _nltk_cases(corpora)
    return [{"metric": "bleu", "family": "bits",
             "description": "sacrebleu and NLTK BLEU values to the last bit (score_hex = float.hex(score), "
                            "compared exactly by test_bleu_bits): the operation order of score_arithmetic",
             "generated_by": {"command": "PYTHONHASHSEED=0 python -m conformance.regen bleu-bits",
                              "python": platform.python_version(), "PYTHONHASHSEED": "0",
                              "tools": {"sacrebleu": sacrebleu.__version__, "nltk": nltk.__version__},
                              "corpora": "fixtures/sample (hyp.txt; ref1.txt, ref2.txt) and "
                                         f"generate_corpus(seed, max_segments=8, max_refs=3) for seeds "
                                         f"{SEEDS.start}..{SEEDS.stop - 1}",
                              "tokenisation (nltk)": NLTK_TOKENS},
             "cases": cases}]
