"""Black-box adapter for NLTK's ``bleu_score`` and ``nist_score`` (live NLTK, never a copy of it).

assay takes reference *streams* (one list per reference file, aligned with the hypotheses);
NLTK takes, per segment, a list of token lists. :func:`to_nltk` transposes and tokenises with
``str.split()`` (the ``tokenize=none`` knob of the ``nltk`` profiles); a missing reference
(``None``) is left out of its segment. Each call returns a plain dict:
``{"score": float | int | list, "error": None | "<ExceptionName>", "command": "<the call>",
"returns": "<type name>"}`` -- a tool exception is a *result* (``error`` names it), never raised.

Run as ``python -m conformance.references.nltk_ref --serve`` it reads one JSON request per line
on stdin and answers one JSON result per line: that is how NLTK 3.5, installed in another
interpreter, is queried (:func:`run_in`, :func:`legacy_results`). At import time this module
needs only the standard library, so an old interpreter without numpy/assay can serve requests.

``build_fixtures()`` returns the fixture specs of the NLTK golden files; ``python -m
conformance.references.nltk_ref`` writes them (``PYTHONHASHSEED=0`` is enforced for children).
"""
from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any, Iterable, Sequence

ROOT = Path(__file__).resolve().parent.parent.parent
RESEARCH_JSON = Path(os.environ.get("ASSAY_RESEARCH_JSON", ROOT.parent / "shared" / "research" / "bleu_golden.json"))
DEFAULT_LEGACY_PYTHON = "/tmp/legacyvenv/bin/python"
TOLERANCE = {"rel": 1e-9}
DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)
TOKENISE_NOTE = ("list_of_references[i] = [r.split() for each reference r of segment i], "
                 "hypotheses[i] = hyp.split()")


# ---------------------------------------------------------------------------- live NLTK calls
def version() -> str:
    import nltk
    return nltk.__version__


def to_nltk(hyps: Sequence[Any], refs: Sequence[Sequence[Any]]) -> tuple[list[list[list[str]]], list[list[str]]]:
    """Reference streams -> NLTK's per-segment orientation, tokenised with ``str.split()``."""
    def toks(x: Any) -> list[str]:
        return list(x) if isinstance(x, (list, tuple)) else x.split()
    list_of_references = [[toks(stream[i]) for stream in refs if stream[i] is not None] for i in range(len(hyps))]
    return list_of_references, [toks(h) for h in hyps]


def _weights_arg(weights: Any) -> Any:
    """JSON weights -> NLTK's argument: a tuple, or a list of tuples for several scores."""
    if weights is None:
        return DEFAULT_WEIGHTS
    if weights and isinstance(weights[0], (list, tuple)):
        return [tuple(w) for w in weights]
    return tuple(weights)


def _smoothing(method: int | None) -> Any:
    from nltk.translate.bleu_score import SmoothingFunction
    return None if method is None else getattr(SmoothingFunction(), f"method{method}")


def _call(fn: Any) -> dict[str, Any]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            value = fn()
        except Exception as exc:  # the tool's own failure is data
            return {"score": None, "error": type(exc).__name__, "message": str(exc)[:200]}
    if isinstance(value, list):
        return {"score": [float(v) for v in value], "error": None, "returns": "list"}
    return {"score": float(value), "error": None, "returns": type(value).__name__}


def bleu_command(fn: str, method: int | None, weights: Any, auto_reweigh: bool) -> str:
    smooth = "None" if method is None else f"SmoothingFunction().method{method}"
    return (f"nltk.translate.bleu_score.{fn}({'list_of_references, hypotheses' if fn == 'corpus_bleu' else 'references, hypothesis'}, "
            f"weights={_weights_arg(weights)!r}, smoothing_function={smooth}, auto_reweigh={auto_reweigh})")


def corpus_bleu(hyps: Sequence[Any], refs: Sequence[Sequence[Any]], method: int | None = None,
                weights: Any = None, auto_reweigh: bool = False) -> dict[str, Any]:
    from nltk.translate.bleu_score import corpus_bleu as nltk_corpus_bleu
    lor, hyp = to_nltk(hyps, refs)
    out = _call(lambda: nltk_corpus_bleu(lor, hyp, weights=_weights_arg(weights),
                                         smoothing_function=_smoothing(method), auto_reweigh=auto_reweigh))
    out["command"] = bleu_command("corpus_bleu", method, weights, auto_reweigh)
    return out


def sentence_bleu(hyps: Sequence[Any], refs: Sequence[Sequence[Any]], method: int | None = None,
                  weights: Any = None, auto_reweigh: bool = False) -> dict[str, Any]:
    """``sentence_bleu`` on every segment: the list of scores, or the first segment error."""
    from nltk.translate.bleu_score import sentence_bleu as nltk_sentence_bleu
    lor, hyp = to_nltk(hyps, refs)
    results = [_call(lambda r=r, h=h: nltk_sentence_bleu(r, h, weights=_weights_arg(weights),
                                                          smoothing_function=_smoothing(method),
                                                          auto_reweigh=auto_reweigh))
               for r, h in zip(lor, hyp)]
    return _per_segment(results, bleu_command("sentence_bleu", method, weights, auto_reweigh))


def corpus_nist(hyps: Sequence[Any], refs: Sequence[Sequence[Any]], n: int = 5) -> dict[str, Any]:
    from nltk.translate.nist_score import corpus_nist as nltk_corpus_nist
    lor, hyp = to_nltk(hyps, refs)
    out = _call(lambda: nltk_corpus_nist(lor, hyp, n=n))
    out["command"] = f"nltk.translate.nist_score.corpus_nist(list_of_references, hypotheses, n={n})"
    return out


def sentence_nist(hyps: Sequence[Any], refs: Sequence[Sequence[Any]], n: int = 5) -> dict[str, Any]:
    from nltk.translate.nist_score import sentence_nist as nltk_sentence_nist
    lor, hyp = to_nltk(hyps, refs)
    results = [_call(lambda r=r, h=h: nltk_sentence_nist(r, h, n=n)) for r, h in zip(lor, hyp)]
    return _per_segment(results, f"nltk.translate.nist_score.sentence_nist(references, hypothesis, n={n})")


def _per_segment(results: list[dict[str, Any]], command: str) -> dict[str, Any]:
    errors = [(i, r) for i, r in enumerate(results) if r["error"]]
    if errors:
        i, r = errors[0]
        return {"score": None, "error": r["error"], "message": f"segment {i + 1}: {r.get('message', '')}",
                "command": command + "  # for each segment"}
    return {"score": [r["score"] for r in results], "error": None,
            "returns": [r["returns"] for r in results], "command": command + "  # for each segment"}


FUNCTIONS = {"corpus_bleu": corpus_bleu, "sentence_bleu": sentence_bleu, "corpus_nist": corpus_nist,
             "sentence_nist": sentence_nist}


def run_request(req: dict[str, Any]) -> dict[str, Any]:
    """One request ``{"fn": ..., "hyps": ..., "refs": ..., **kwargs}`` -> one result."""
    kwargs = {k: v for k, v in req.items() if k not in ("fn", "hyps", "refs")}
    return FUNCTIONS[req["fn"]](req["hyps"], req["refs"], **kwargs)


def serve(stdin: Iterable[str] = sys.stdin, stdout: Any = sys.stdout) -> None:
    """JSON-lines loop: the first answer line is the NLTK version; then one result per request."""
    stdout.write(json.dumps({"nltk": version(), "python": platform.python_version()}) + "\n")
    for line in stdin:
        if line.strip():
            stdout.write(json.dumps(run_request(json.loads(line))) + "\n")
    stdout.flush()


def run_in(python: str, requests: Sequence[dict[str, Any]], timeout: float = 1800.0
           ) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Run ``requests`` through this module in another interpreter (e.g. one with NLTK 3.5)."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(PYTHONPATH=str(ROOT), PYTHONHASHSEED="0", PYTHONIOENCODING="utf-8")
    payload = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in requests)
    proc = subprocess.run([python, "-m", "conformance.references.nltk_ref", "--serve"], input=payload,
                          capture_output=True, text=True, encoding="utf-8", cwd=str(ROOT), env=env,
                          timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"{python} -m conformance.references.nltk_ref --serve failed:\n{proc.stderr[-2000:]}")
    lines = [json.loads(x) for x in proc.stdout.splitlines() if x.strip()]
    if len(lines) != len(requests) + 1:
        raise RuntimeError(f"expected {len(requests) + 1} answer lines from {python}, got {len(lines)}")
    return lines[0], lines[1:]


# ---------------------------------------------------------------------------- fixture building
def _expected(result: dict[str, Any], tool_version: str, extra_command: str = "") -> dict[str, Any]:
    exp: dict[str, Any] = {"tool": "nltk", "version": tool_version,
                           "command": result["command"] + (f"  # {extra_command}" if extra_command else ""),
                           "score": None, "error": result["error"], "tolerance": dict(TOLERANCE)}
    if result["error"]:
        exp["message"] = result.get("message", "")
        return exp
    score = result["score"]
    returns = result.get("returns")
    if returns == "list":                                                  # several weight tuples, corpus
        exp["score"], exp["components"] = score[0], {"scores": score}
    elif isinstance(returns, list) and "list" in returns:                  # several tuples, per segment
        exp["score"], exp["components"] = [s[0] for s in score], {"scores": score}
    else:
        exp["score"] = score
    kinds = set(returns) if isinstance(returns, list) else {returns}
    if kinds - {"float", "list"}:
        exp["returns"] = returns   # NLTK's int 0 (no unigram match) instead of a float
    return exp


def _bleu_knobs(method: int, weights: Any, auto_reweigh: bool) -> dict[str, Any]:
    knobs: dict[str, Any] = {"smoothing": f"method{method}"}
    if weights is not None:
        knobs["weights"] = [list(w) for w in weights] if isinstance(weights[0], (list, tuple)) else list(weights)
    if auto_reweigh:
        knobs["auto_reweigh"] = True
    return knobs


def _bleu_request(level: str, hyps: list[Any], refs: list[list[Any]], method: int, weights: Any,
                  auto_reweigh: bool) -> dict[str, Any]:
    return {"fn": "corpus_bleu" if level == "corpus" else "sentence_bleu", "hyps": hyps, "refs": refs,
            "method": method, "weights": weights, "auto_reweigh": auto_reweigh}


def _case(case_id: str, note: str, profile: str, knobs: dict[str, Any], level: str, hyps: list[Any],
          refs: list[list[Any]], expected: list[dict[str, Any]]) -> dict[str, Any]:
    return {"id": case_id, "note": note, "profile": profile, "knobs": knobs, "level": level,
            "hyps": hyps, "refs": refs, "expected": expected}


def _research_inputs() -> list[tuple[dict[str, Any], list[str], list[list[Any]]]]:
    """(research case, hyps, refs) with sacrebleu-13a tokens joined by spaces (``tokenize=none`` splits them back)."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
    tok = Tokenizer13a()
    out = []
    for g in json.loads(RESEARCH_JSON.read_text(encoding="utf-8")):
        hyps = [tok(h) for h in g["hyps"]]
        refs = [[tok(r) if r is not None else None for r in stream] for stream in g["refs"]]
        out.append((g, hyps, refs))
    return out


def research_bleu_cases() -> list[dict[str, Any]]:
    """The 36 research cases under corpus_bleu methods 0-7 and method0 + auto_reweigh."""
    import sacrebleu
    cases = []
    nltk_version = version()
    for g, hyps, refs in _research_inputs():
        variants = [(m, False) for m in range(8)] + [(0, True)]
        for method, auto in variants:
            result = corpus_bleu(hyps, refs, method, None, auto)
            research = g["res"].get(f"N.m{method}" + (".auto_reweigh" if auto else ""), {})
            note = (f"research {g['id']}: {g['title']}; inputs are sacrebleu {sacrebleu.__version__} 13a tokens "
                    f"joined by spaces")
            if research.get("score") is not None:
                note += f"; research run gave {research['score'] / 100!r}"
            elif research.get("error"):
                note += f"; research run: {research['error']}"
            cases.append(_case(f"research/{g['id']}/m{method}{'-autoreweigh' if auto else ''}", note, "nltk",
                               _bleu_knobs(method, None, auto), "corpus", hyps, refs,
                               [_expected(result, nltk_version, TOKENISE_NOTE)]))
    return cases


def research_nist_cases() -> list[dict[str, Any]]:
    """The 36 research cases under corpus_nist and sentence_nist (Table B's last column)."""
    cases = []
    nltk_version = version()
    for g, hyps, refs in _research_inputs():
        research = g["res"].get("N.nist(13a tok)", {})
        for level in ("corpus", "sentence"):
            fn = corpus_nist if level == "corpus" else sentence_nist
            result = fn(hyps, refs, 5)
            note = f"research {g['id']}: {g['title']}; sacrebleu 13a tokens joined by spaces"
            if level == "corpus":
                note += f"; research run gave {research.get('score', research.get('error'))!r}"
            cases.append(_case(f"research/{g['id']}/{level}", note, "nltk", {}, level, hyps, refs,
                               [_expected(result, nltk_version, TOKENISE_NOTE)]))
    return cases


WEIGHT_CHOICES: list[Any] = [None, None, None, [1.0], [0.5, 0.5], [1 / 3, 1 / 3, 1 / 3],
                             [0.25, 0.25, 0.25, 0.25], [0.2] * 5, [0.1, 0.2, 0.3, 0.4],
                             [[1.0], [0.5, 0.5], [1 / 3, 1 / 3, 1 / 3], [0.25, 0.25, 0.25, 0.25]]]


def _corpus_plan(seed: int) -> tuple[dict[str, list], str, Any, bool]:
    """Deterministic corpus + weights + auto_reweigh for generated case ``seed``."""
    import random
    from conformance.generate.corpus import corpus_kinds, generate_corpus
    rng = random.Random(10_000 + seed)
    kind = corpus_kinds()[seed % len(corpus_kinds())]
    corpus = generate_corpus(seed, kind=kind, max_segments=rng.choice([1, 2, 3, 4, 6]))
    weights = rng.choice(WEIGHT_CHOICES)
    auto_reweigh = rng.random() < 0.3
    return corpus, kind, weights, auto_reweigh


def _generated_bleu_requests(n_corpora: int, allow_multi_weights: bool = True
                             ) -> list[tuple[str, str, dict[str, Any], dict[str, Any]]]:
    """(case id, note, knobs, request) for every generated BLEU case."""
    out = []
    for seed in range(n_corpora):
        corpus, kind, weights, auto = _corpus_plan(seed)
        if not allow_multi_weights and weights and isinstance(weights[0], list):
            weights = [0.25, 0.25, 0.25, 0.25]
        hyps, refs = corpus["hyps"], corpus["refs"]
        note = (f"generate_corpus({seed}, kind={kind!r}): {len(hyps)} segments, {len(refs)} refs; "
                f"weights={weights}, auto_reweigh={auto}")
        sentence_methods = {seed % 8, (seed + 3) % 8}
        for method in range(8):
            for level in ("corpus", "sentence"):
                if level == "sentence" and method not in sentence_methods:
                    continue
                out.append((f"gen/{seed:04d}/m{method}/{level}", note, _bleu_knobs(method, weights, auto),
                            _bleu_request(level, hyps, refs, method, weights, auto)))
    return out


def generated_bleu_cases(n_corpora: int = 220) -> list[dict[str, Any]]:
    nltk_version = version()
    cases = []
    for case_id, note, knobs, req in _generated_bleu_requests(n_corpora):
        result = run_request(req)
        cases.append(_case(case_id, note, "nltk", knobs, "corpus" if req["fn"] == "corpus_bleu" else "sentence",
                           req["hyps"], req["refs"], [_expected(result, nltk_version, TOKENISE_NOTE)]))
    return cases


def legacy_bleu_cases(python: str, n_corpora: int = 120) -> tuple[str, list[dict[str, Any]]]:
    """The same generated plan scored by NLTK 3.5 in ``python`` (profile ``nltk@3.5``).

    NLTK 3.5 cannot take several weight tuples (TypeError), so those corpora use (0.25,)*4 here;
    a handful of cases pin that TypeError explicitly.
    """
    plan = _generated_bleu_requests(n_corpora, allow_multi_weights=False)
    extra = []
    for seed in range(3):
        corpus, kind, _, _ = _corpus_plan(seed)
        weights = [[1.0], [0.5, 0.5]]
        extra.append((f"gen/{seed:04d}/multi-weights", f"generate_corpus({seed}, kind={kind!r}); NLTK 3.5 has no "
                      "multi-weight support", _bleu_knobs(0, weights, False),
                      _bleu_request("corpus", corpus["hyps"], corpus["refs"], 0, weights, False)))
    plan += extra
    header, results = run_in(python, [req for _, _, _, req in plan])
    cases = []
    for (case_id, note, knobs, req), result in zip(plan, results):
        cases.append(_case(case_id, note, "nltk@3.5", knobs, "corpus" if req["fn"] == "corpus_bleu" else "sentence",
                           req["hyps"], req["refs"], [_expected(result, header["nltk"], TOKENISE_NOTE)]))
    return header["nltk"], cases


def generated_nist_cases(n_corpora: int = 250) -> list[dict[str, Any]]:
    import random
    from conformance.generate.corpus import corpus_kinds, generate_corpus
    nltk_version = version()
    cases = []
    for seed in range(n_corpora):
        rng = random.Random(20_000 + seed)
        kind = corpus_kinds()[seed % len(corpus_kinds())]
        corpus = generate_corpus(5000 + seed, kind=kind, max_segments=rng.choice([1, 2, 3, 6, 10]))
        n = rng.choice([5, 5, 5, 5, 4, 3, 2, 1, 6])
        hyps, refs = corpus["hyps"], corpus["refs"]
        # sentence_nist fails on any hypothesis shorter than n: half the time, take n <= the shortest
        shortest = min(len(h.split()) for h in hyps)
        n_sentence = n if rng.random() < 0.5 else max(1, min(n, shortest))
        for level, fn, order in (("corpus", corpus_nist, n), ("sentence", sentence_nist, n_sentence)):
            knobs = {} if order == 5 else {"max_ngram_order": order}
            note = (f"generate_corpus({5000 + seed}, kind={kind!r}): {len(hyps)} segments, {len(refs)} refs; "
                    f"n={order}")
            result = fn(hyps, refs, order)
            cases.append(_case(f"gen/{seed:04d}/{level}", note, "nltk", knobs, level, hyps, refs,
                               [_expected(result, nltk_version, TOKENISE_NOTE)]))
    return cases


# the Papineni et al. example of seed 000 (the NLTK nist_score docstring's tokens)
PAPINENI_HYPS = [
    "It is a guide to action which ensures that the military always obeys the commands of the party",
    "It is to insure the troops forever hearing the activity guidebook that party direct",
]
PAPINENI_REFS = [
    "It is a guide to action that ensures that the military will forever heed Party commands",
    "It is the guiding principle which guarantees the military forces always being under the command of the Party",
    "It is the practical guide for the army always to heed the directions of the party",
]
MTEVAL_PROVENANCE = "shared/research/bleu_nist.md §3, mteval-v13a.pl -c"
MTEVAL_FROZEN = {  # (hyp indices, case-sensitive?) -> NIST printed by the widened mteval-v13a.pl copy
    ((0,), True): 5.0379201688, ((1,), True): 2.1138745600, ((0, 1), True): 3.8617605332,
    ((0,), False): 4.8285431671, ((1,), False): 2.0142816677,
}


def seed_nist_cases() -> list[dict[str, Any]]:
    nltk_version = version()
    cases = []
    both_refs = [[r, r] for r in PAPINENI_REFS]   # streams: the same three references for both hypotheses
    refs_one = [[r] for r in PAPINENI_REFS]
    sent = sentence_nist(PAPINENI_HYPS, both_refs)
    corp = corpus_nist(PAPINENI_HYPS, both_refs)
    seed_note = "seed 000 (Papineni et al. example; NLTK docstring: 3.3709..., 1.4619...)"
    cases.append(_case("seed000/nltk/sentence", seed_note, "nltk", {}, "sentence", PAPINENI_HYPS, both_refs,
                       [_expected(sent, nltk_version, TOKENISE_NOTE)]))
    cases.append(_case("seed000/nltk/corpus", seed_note + "; corpus of both hypotheses (2.6375187380)", "nltk", {},
                       "corpus", PAPINENI_HYPS, both_refs, [_expected(corp, nltk_version, TOKENISE_NOTE)]))
    for (idx, case_sensitive), value in MTEVAL_FROZEN.items():
        hyps = [PAPINENI_HYPS[i] for i in idx]
        refs = both_refs if len(idx) == 2 else refs_one
        flag = " -c" if case_sensitive else ""
        label = "hyp" + "+".join(str(i + 1) for i in idx)
        cases.append(_case(
            f"seed000/mteval-v13a{'-c' if case_sensitive else ''}/{label}",
            f"seed 000 Papineni example under mteval-v13a{flag}: union clipping and average reference length "
            "(NLTK gives 3.3710 / 1.4619 here)", "mteval-v13a", {"lowercase": False} if case_sensitive else {},
            "corpus", hyps, refs,
            [{"tool": "mteval-v13a.pl", "version": "mosesdecoder@34452895f350",
              "command": f"perl mteval-v13a.pl -r ref.sgm -s src.sgm -t tst.sgm{flag}  (printf widened to "
                         "%.10f; official output prints NIST score = %2.4f)",
              "score": value, "error": None, "tolerance": {"rel": 1e-9, "abs": 5e-11},
              "provenance": MTEVAL_PROVENANCE + ("" if case_sensitive else " (default, lowercasing) column"),
              "frozen": True}]))
    return cases


def build_fixtures(legacy_python: str | None = None) -> list[dict[str, Any]]:
    """Fixture specs for the NLTK golden files (needs NLTK 3.10.4 here, sacrebleu for 13a tokens).

    ``legacy_python`` (default: ``$ASSAY_NLTK35_PYTHON`` or /tmp/legacyvenv/bin/python when it exists)
    is an interpreter with NLTK 3.5; without one the nltk35 file is not rebuilt.
    """
    gen = {"command": "python -m conformance.references.nltk_ref  (or conformance/regen.py --only nltk)",
           "python": platform.python_version(), "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED", "unset"),
           "tools": {"nltk": version()}, "tokenisation": TOKENISE_NOTE}
    specs = [
        {"metric": "bleu", "family": "nltk_research", "cases": research_bleu_cases(),
         "generated_by": {**gen, "tools": {**gen["tools"], "sacrebleu (13a tokens)": _sacrebleu_version()},
                          "inputs": "shared/research/bleu_golden.json"},
         "description": "The 36 research cases (shared/research/bleu_nist.md §7, Table B) under NLTK corpus_bleu "
                        "methods 0-7 and auto_reweigh, and corpus_nist/sentence_nist, on sacrebleu-13a tokens."},
        {"metric": "bleu", "family": "nltk_generated", "cases": generated_bleu_cases(),
         "generated_by": gen,
         "description": "Generated corpora (conformance/generate.py) x NLTK corpus_bleu methods 0-7 (and "
                        "sentence_bleu for two methods per corpus), with weight tuples, several weight tuples "
                        "and auto_reweigh. Errors (method6's AssertionError/IndexError) are recorded."},
        {"metric": "nist", "family": "nltk_research", "cases": research_nist_cases(),
         "generated_by": {**gen, "tools": {**gen["tools"], "sacrebleu (13a tokens)": _sacrebleu_version()},
                          "inputs": "shared/research/bleu_golden.json"},
         "description": "The 36 research cases under NLTK corpus_nist and sentence_nist on sacrebleu-13a tokens "
                        "(ZeroDivisionError recorded where an order has no hypothesis n-grams)."},
        {"metric": "nist", "family": "nltk_generated", "cases": generated_nist_cases(),
         "generated_by": gen,
         "description": "Generated corpora x NLTK corpus_nist and sentence_nist (n = 1..6); ZeroDivisionError "
                        "(an order without hypothesis n-grams, or only empty references) is recorded."},
        {"metric": "nist", "family": "seed", "cases": seed_nist_cases(), "generated_by": gen,
         "description": "Seed 000's Papineni et al. NIST example: live NLTK, and mteval-v13a values frozen from "
                        "the research (" + MTEVAL_PROVENANCE + ")."},
    ]
    python = legacy_python or os.environ.get("ASSAY_NLTK35_PYTHON") or (
        DEFAULT_LEGACY_PYTHON if Path(DEFAULT_LEGACY_PYTHON).exists() else None)
    if python:
        legacy_version, cases = legacy_bleu_cases(python)
        specs.append({"metric": "bleu", "family": "nltk35_generated", "cases": cases,
                      "generated_by": {**gen, "tools": {"nltk": legacy_version}, "interpreter": python,
                                       "subprocess": "python -m conformance.references.nltk_ref --serve "
                                                     "(PYTHONHASHSEED=0)"},
                      "description": "Generated corpora scored by NLTK 3.5 (profile nltk@3.5): methods 0-7, "
                                     "weights, auto_reweigh (which in 3.5 also drops the orders), and 3.5's "
                                     "TypeError on several weight tuples."})
    return specs


def _sacrebleu_version() -> str:
    import sacrebleu
    return sacrebleu.__version__


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["--serve"]:
        serve()
        return 0
    if os.environ.get("PYTHONHASHSEED") != "0":
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        return subprocess.call([sys.executable, "-m", "conformance.references.nltk_ref", *args], env=env,
                               cwd=str(ROOT))
    sys.path.insert(0, str(ROOT))
    from conformance.fixture_io import write_specs
    legacy = args[0] if args else None
    write_specs(build_fixtures(legacy))
    return 0


if __name__ == "__main__":
    sys.exit(main())
