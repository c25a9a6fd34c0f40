"""Frozen outputs of the real sacrebleu 2.6.0, rouge-score 0.1.2 and pycocoevalcap 1.2 APIs, for the
drop-in APIs in ``assay.compat`` (never from assay).

    PYTHONHASHSEED=0 python -m conformance.regen compat          # writes fixtures/compat/*.json
    PYTHONHASHSEED=0 python -m conformance.regen.compat [--out DIR]

Each ``observe_*`` function runs one fixed script of calls against a *module* (the real library, or
its ``assay.compat`` twin) and returns what the calls printed and returned as JSON-ready data. The
regen runs it on the real library and writes ``fixtures/compat/<tool>.json``; the default-env tests
(``conformance/tests/compat/``) run the same script on ``assay.compat`` and compare with the file,
and the ``refs`` tests compare both live. Inputs: ``fixtures/sample`` (40 lines, 2 references)
and, for pycocoevalcap, raw generated captions (``conformance/generate/captions.py``, stored in the
file) under mixed image ids in unsorted order.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import platform
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Callable, Sequence

from conformance.paths import FIXTURES

FORMAT = "assay-compat/1"
SAMPLE = FIXTURES / "sample"
TOL = {"rel": 1e-12, "abs": 1e-12}
SENTENCES = 8          # segments of the sample scored with sentence_score / score / score_multi

SACREBLEU_CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("BLEU", {}),
    ("BLEU", {"tokenize": "char", "smooth_method": "floor"}),
    ("BLEU", {"tokenize": "intl", "lowercase": True}),
    ("BLEU", {"tokenize": "none", "smooth_method": "add-k", "smooth_value": 2.0}),
    ("BLEU", {"smooth_method": "none", "effective_order": True, "max_ngram_order": 2}),
    ("BLEU", {"trg_lang": "zh"}),
    ("BLEU", {"tokenize": "zh", "smooth_method": "floor", "smooth_value": 0.5, "force": True}),
    ("CHRF", {}),
    ("CHRF", {"word_order": 2}),
    ("CHRF", {"beta": 3, "word_order": 1, "eps_smoothing": True}),
    ("CHRF", {"whitespace": True, "lowercase": True, "char_order": 4}),
    ("TER", {}),
    ("TER", {"normalized": True}),
    ("TER", {"no_punct": True, "case_sensitive": True}),
    ("TER", {"normalized": True, "asian_support": True, "no_punct": True}),
]
BLEU_ATTRS = ("counts", "totals", "precisions", "bp", "ratio", "sys_len", "ref_len", "prec_str")
CHRF_ATTRS = ("beta", "char_order", "word_order")
TER_ATTRS = ("num_edits", "ref_length")
ROUGE_TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
#: edge cases: empty hypotheses and references, a missing reference (nrefs:var); every segment keeps one
EDGE_HYPS = ["", "a cat", "the dog sat .", "", "It's 10-20 km/h!"]
EDGE_REFS = [["", None, "the dog sat.", "x", "it is 10 - 20 km/h"], ["a", "a cat", None, "", None]]


def sample() -> tuple[list[str], list[str], list[str]]:
    """``fixtures/sample``: hypotheses and two reference streams."""
    return tuple(  # type: ignore[return-value]
        (SAMPLE / name).read_text(encoding="utf-8").splitlines() for name in ("hyp.txt", "ref1.txt", "ref2.txt"))


def _num(x: Any) -> Any:
    """numpy scalars and arrays as plain Python numbers and lists."""
    if hasattr(x, "tolist"):
        return x.tolist()
    if isinstance(x, (list, tuple)):
        return [_num(v) for v in x]
    return x


def _score_obs(score: Any, metric: Any, attrs: Sequence[str]) -> dict[str, Any]:
    sig = metric.get_signature()
    return {
        "str": str(score), "repr": repr(score), "score": score.score, "name": score.name,
        "signature": str(sig), "signature_short": sig.format(short=True),
        "format_w3_sig": score.format(width=3, signature=str(sig)),
        "format_w0": score.format(width=0),
        "score_only": score.format(score_only=True),
        "json": json.loads(score.format(is_json=True, signature=str(sig))),
        "attrs": {a: _num(getattr(score, a)) for a in attrs},
    }


def observe_sacrebleu(mod: Any, hyps: list[str], r1: list[str], r2: list[str]) -> list[dict[str, Any]]:
    """sacrebleu's object and function API on the sample: ``mod`` is ``sacrebleu`` (its classes are
    read from ``sacrebleu.metrics``) or ``assay.compat.sacrebleu``."""
    classes = getattr(mod, "metrics", mod)
    out: list[dict[str, Any]] = []
    for cls_name, kwargs in SACREBLEU_CONFIGS:
        attrs = {"BLEU": BLEU_ATTRS, "CHRF": CHRF_ATTRS, "TER": TER_ATTRS}[cls_name]
        metric = getattr(classes, cls_name)(**kwargs)
        call = f"{cls_name}({', '.join(f'{k}={v!r}' for k, v in kwargs.items())})"
        corpus = _score_obs(metric.corpus_score(hyps, [r1, r2]), metric, attrs)
        one_ref = _score_obs(metric.corpus_score(hyps, [r1]), metric, attrs)
        sentences = []
        for i in range(SENTENCES):
            s = metric.sentence_score(hyps[i], [r1[i], r2[i]])
            sentences.append({"str": str(s), "score": s.score, "signature": str(metric.get_signature())})
        out.append({"id": call, "call": f"{call}.corpus_score(hyps, [ref1, ref2]) / ([ref1]) / "
                    f".sentence_score(hyps[i], [ref1[i], ref2[i]])",
                    "observed": {"corpus": corpus, "corpus_one_ref": one_ref, "sentences": sentences}})
    for cls_name, kwargs in (("BLEU", {}), ("BLEU", {"effective_order": True}), ("CHRF", {"word_order": 2}),
                             ("TER", {})):
        attrs = {"BLEU": BLEU_ATTRS, "CHRF": CHRF_ATTRS, "TER": TER_ATTRS}[cls_name]
        metric = getattr(classes, cls_name)(**kwargs)
        call = f"{cls_name}({', '.join(f'{k}={v!r}' for k, v in kwargs.items())}).corpus_score(EDGE_HYPS, EDGE_REFS)"
        out.append({"id": call, "call": call + ": empty strings, a missing (None) reference in each stream",
                    "observed": _score_obs(metric.corpus_score(EDGE_HYPS, EDGE_REFS), metric, attrs)})
    functions: list[tuple[str, Callable[..., Any], tuple[Any, ...], dict[str, Any]]] = [
        ("corpus_bleu(hyps, [ref1, ref2])", mod.corpus_bleu, (hyps, [r1, r2]), {}),
        ("corpus_bleu(hyps, [ref1], lowercase=True, tokenize='intl')", mod.corpus_bleu, (hyps, [r1]),
         {"lowercase": True, "tokenize": "intl"}),
        ("corpus_chrf(hyps, [ref1, ref2], remove_whitespace=False)", mod.corpus_chrf, (hyps, [r1, r2]),
         {"remove_whitespace": False}),
        ("corpus_ter(hyps, [ref1, ref2], normalized=True)", mod.corpus_ter, (hyps, [r1, r2]), {"normalized": True}),
    ]
    for i in range(SENTENCES):
        functions += [
            (f"sentence_bleu(hyps[{i}], [ref1[{i}], ref2[{i}]])", mod.sentence_bleu, (hyps[i], [r1[i], r2[i]]), {}),
            (f"sentence_bleu(hyps[{i}], [ref1[{i}]], smooth_method='floor', use_effective_order=False)",
             mod.sentence_bleu, (hyps[i], [r1[i]]), {"smooth_method": "floor", "use_effective_order": False}),
            (f"sentence_chrf(hyps[{i}], [ref1[{i}], ref2[{i}]], word_order=2)", mod.sentence_chrf,
             (hyps[i], [r1[i], r2[i]]), {"word_order": 2}),
            (f"sentence_ter(hyps[{i}], [ref1[{i}]])", mod.sentence_ter, (hyps[i], [r1[i]]), {}),
        ]
    for call, fn, args, kwargs in functions:
        s = fn(*args, **kwargs)
        out.append({"id": call, "call": call, "observed": {"str": str(s), "score": s.score}})
    return out


class WhitespaceTokenizer:
    """A user tokenizer for ``RougeScorer(tokenizer=...)``: ``str.split()``, case kept."""

    def tokenize(self, text: str) -> list[str]:
        return text.split()


def rouge_documents(hyps: list[str], r1: list[str], r2: list[str]) -> list[tuple[str, list[str], str]]:
    """(target, [targets], prediction) triples: the first sample lines, and multi-sentence documents
    (two lines joined by a newline, for rougeLsum)."""
    docs = [(r1[i], [r1[i], r2[i]], hyps[i]) for i in range(SENTENCES)]
    for i in range(0, 2 * SENTENCES, 2):
        docs.append((f"{r1[i]}\n{r1[i + 1]}", [f"{r1[i]}\n{r1[i + 1]}", f"{r2[i]}\n{r2[i + 1]}"],
                     f"{hyps[i]}\n{hyps[i + 1]}"))
    return docs


def observe_rouge_score(rouge_scorer: Any, scoring: Any, hyps: list[str], r1: list[str], r2: list[str],
                        seed: Callable[[], None]) -> list[dict[str, Any]]:
    """rouge-score's ``RougeScorer`` on the sample (``rouge_scorer``/``scoring``: the real modules or
    ``assay.compat.rouge_score``'s); ``seed()`` seeds the bootstrap before ``aggregate``."""
    out = []
    docs = rouge_documents(hyps, r1, r2)
    variants = [("RougeScorer(types)", {}), ("RougeScorer(types, use_stemmer=True)", {"use_stemmer": True}),
                ("RougeScorer(types, tokenizer=WhitespaceTokenizer())", {"tokenizer": WhitespaceTokenizer()})]
    for call, kwargs in variants:
        scorer = rouge_scorer.RougeScorer(ROUGE_TYPES, **kwargs)
        single, multi = [], []
        for target, targets, prediction in docs:
            got = scorer.score(target, prediction)
            single.append({t: [type(v).__name__, list(v._fields), [float(x) for x in v]] for t, v in got.items()})
            multi.append({t: [float(x) for x in v] for t, v in scorer.score_multi(targets, prediction).items()})
        out.append({"id": call, "call": f"{call}.score(target, prediction) / .score_multi(targets, prediction)",
                    "observed": {"score": single, "score_multi": multi}})
    scorer = rouge_scorer.RougeScorer(ROUGE_TYPES)
    agg = scoring.BootstrapAggregator()
    for i in range(len(hyps)):
        agg.add_scores(scorer.score(r1[i], hyps[i]))
    seed()
    result = agg.aggregate()
    out.append({"id": "BootstrapAggregator", "call": "BootstrapAggregator() over score(ref1[i], hyps[i]) of the "
                "40 sample lines; aggregate() after numpy.random.seed(0) (rouge-score is unseeded: compared "
                "within resampling noise)",
                "observed": {t: {k: [float(x) for x in getattr(v, k)] for k in ("low", "mid", "high")}
                             for t, v in result.items()}})
    return out


def coco_inputs() -> dict[str, Any]:
    """Raw generated captions under mixed, unsorted image ids (strings and integers)."""
    from conformance.generate.captions import generate_caption_corpus, references_per_image

    corpus = generate_caption_corpus(2026, max_images=24, raw=True, min_images=24)
    groups = references_per_image(corpus)
    ids: list[Any] = [f"img{n}" if n % 3 == 0 else 9000 - n for n in range(len(groups))]
    return {"ids": ids, "hyps": corpus["hyps"], "refs": groups}


def observe_pycocoevalcap(scorers: SimpleNamespace, inputs: dict[str, Any]) -> list[dict[str, Any]]:
    """``PTBTokenizer().tokenize`` of both sides, then each scorer's ``compute_score(gts, res)`` on the
    tokenised captions (COCOEvalCap's order), stdout included. ``scorers``: Bleu, Cider, Rouge,
    Meteor, PTBTokenizer of the real package or of ``assay.compat.pycocoevalcap``."""
    ids = inputs["ids"]
    gts_raw = {k: [{"caption": c} for c in refs] for k, refs in zip(ids, inputs["refs"])}
    res_raw = {k: [{"caption": h}] for k, h in zip(ids, inputs["hyps"])}
    with contextlib.redirect_stdout(io.StringIO()):
        gts = scorers.PTBTokenizer().tokenize(gts_raw)
        res = scorers.PTBTokenizer().tokenize(res_raw)
    out = [{"id": "PTBTokenizer", "call": "PTBTokenizer().tokenize(gts) / .tokenize(res) (raw captions)",
            "observed": {"gts": [[k, gts[k]] for k in gts], "res": [[k, res[k]] for k in res]}}]
    for call, make in (("Bleu(4)", lambda: scorers.Bleu(4)), ("Bleu(2)", lambda: scorers.Bleu(2)),
                       ("Cider()", scorers.Cider), ("Rouge()", scorers.Rouge), ("Meteor()", scorers.Meteor)):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            score, per_image = make().compute_score(gts, res)
        out.append({"id": call, "call": f"{call}.compute_score(gts, res) on the tokenised captions",
                    "observed": {"score": _num(score), "per_image": _num(per_image),
                                 "types": [type(score).__name__, type(per_image).__name__],
                                 "stdout": buf.getvalue()}})
    return out


# ----------------------------------------------------------------------------- comparison
def mismatches(expected: Any, got: Any, path: str = "") -> list[str]:
    """Where ``got`` differs from ``expected``: strings, ints, bools and shapes exactly, floats within
    :data:`TOL` (sacrebleu's and assay's sums of logs can differ in the last bits)."""
    if isinstance(expected, float) or (isinstance(got, float) and isinstance(expected, int)
                                       and not isinstance(expected, bool)):
        if not isinstance(got, (int, float)) or isinstance(got, bool):
            return [f"{path}: expected {expected!r}, got {got!r}"]
        ok = math.isclose(expected, got, rel_tol=TOL["rel"], abs_tol=TOL["abs"])
        return [] if ok else [f"{path}: expected {expected!r}, got {got!r}"]
    if isinstance(expected, dict):
        if not isinstance(got, dict) or list(expected) != list(got):
            return [f"{path}: keys {list(expected)} != {list(got) if isinstance(got, dict) else got!r}"]
        return [m for k in expected for m in mismatches(expected[k], got[k], f"{path}.{k}")]
    if isinstance(expected, (list, tuple)):
        if not isinstance(got, (list, tuple)) or len(expected) != len(got):
            return [f"{path}: expected {expected!r:.200}, got {got!r:.200}"]
        return [m for i, (e, g) in enumerate(zip(expected, got)) for m in mismatches(e, g, f"{path}[{i}]")]
    return [] if expected == got and type(expected) is type(got) else [f"{path}: expected {expected!r}, got {got!r}"]


# ----------------------------------------------------------------------------- the live tools
def live_sacrebleu() -> list[dict[str, Any]]:
    import sacrebleu
    import sacrebleu.metrics  # noqa: F401  (the classes)

    return observe_sacrebleu(sacrebleu, *sample())


def live_rouge_score() -> list[dict[str, Any]]:
    import numpy as np
    from rouge_score import rouge_scorer, scoring

    return observe_rouge_score(rouge_scorer, scoring, *sample(), seed=lambda: np.random.seed(0))


def live_pycocoevalcap(inputs: dict[str, Any]) -> list[dict[str, Any]]:
    from pycocoevalcap.bleu.bleu import Bleu
    from pycocoevalcap.cider.cider import Cider
    from pycocoevalcap.meteor.meteor import Meteor
    from pycocoevalcap.rouge.rouge import Rouge
    from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer

    return observe_pycocoevalcap(SimpleNamespace(Bleu=Bleu, Cider=Cider, Rouge=Rouge, Meteor=Meteor,
                                                 PTBTokenizer=PTBTokenizer), inputs)


def _version(dist: str) -> str:
    from importlib.metadata import version
    return version(dist)


def _document(tool: str, dist: str, command: str, cases: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"format": FORMAT, "tool": tool, "version": _version(dist),
            "generated_by": {"command": "PYTHONHASHSEED=0 python -m conformance.regen compat",
                             "python": platform.python_version(), "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED"),
                             "calls": command, "module": "conformance/regen/compat.py"},
            **extra, "tolerance": TOL, "cases": cases}


def main(argv: list[str] | None = None, out: Path | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m conformance.regen.compat", description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=out or FIXTURES / "compat", help="directory (fixtures/compat)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    inputs = coco_inputs()
    docs = {
        "sacrebleu.json": _document("sacrebleu", "sacrebleu", "observe_sacrebleu(sacrebleu, fixtures/sample)",
                                    live_sacrebleu(), inputs="fixtures/sample/{hyp,ref1,ref2}.txt"),
        "rouge_score.json": _document("rouge-score", "rouge-score",
                                      "observe_rouge_score(rouge_score.rouge_scorer, rouge_score.scoring, fixtures/sample)",
                                      live_rouge_score(), inputs="fixtures/sample/{hyp,ref1,ref2}.txt"),
        "pycocoevalcap.json": _document("pycocoevalcap", "pycocoevalcap",
                                        "observe_pycocoevalcap(pycocoevalcap 1.2 Bleu/Cider/Rouge/Meteor/PTBTokenizer "
                                        "(Java: its CoreNLP and METEOR 1.5 jars), inputs)",
                                        live_pycocoevalcap(inputs), inputs=inputs),
    }
    for name, doc in docs.items():
        path = args.out / name
        path.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"regen compat: wrote {path} ({len(doc['cases'])} cases)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
