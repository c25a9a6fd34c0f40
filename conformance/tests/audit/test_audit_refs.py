"""assay audit against the live tools: a number a tool prints under a random configuration is
always reproduced, and that configuration is among the matches (sacrebleu 2.6.0 BLEU/chrF/TER,
NLTK 3.10.4 corpus_bleu, rouge-score 0.1.2; sacrebleu 1.5.1 in tox's legacy env)."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import assay
from assay.jobs.audit.claims import parse_claim
from assay.jobs.audit.search import Auditor
from conformance.generate.corpus import generate_corpus

# every test is marked refs, except the sacrebleu 1.5.1 one (tox's legacy-sacrebleu1 env)


def _found(claim_text: str, hyps: list[str], refs: list[list[str]], profile: str, knobs: dict[str, Any],
           measure: str | None = None, display: float = 1.0) -> None:
    claim = parse_claim(claim_text)
    result = Auditor(claim.metric, hyps, refs, preprocessing=False).search(claim)
    want = assay.make_config(claim.metric, profile, **knobs)[0]
    for e in result.matches:
        c = e.candidate
        if c.metric == claim.metric and c.refs.name == "all" and c.prep == "raw" and c.display == display \
                and (c.measure or "f") == (measure or "f") \
                and assay.make_config(claim.metric, c.profile, **c.knob_dict)[0] == want:
            return
    raise AssertionError(f"{claim_text}: {profile} {knobs} not among {len(result.matches)} matches "
                         f"{[e.candidate.label() for e in result.matches[:8]]}")


def _corpus(seed: int, max_refs: int, kind: str = "mixed") -> tuple[list[str], list[list[str]]]:
    c = generate_corpus(seed, max_segments=25, max_refs=max_refs, kind=kind)
    return c["hyps"], c["refs"]


@pytest.mark.refs
@settings(deadline=None, max_examples=40)
@given(st.integers(0, 10**6), st.sampled_from(["13a", "intl", "zh", "char", "none"]), st.booleans(),
       st.sampled_from(["exp", "none", "floor", "add-k"]), st.booleans(), st.sampled_from([1, 2, 3]))
def test_sacrebleu_bleu_claims_recovered(require_tool: Any, seed: int, tok: str, lc: bool, smooth: str, eff: bool,
                                         width: int) -> None:
    require_tool("sacrebleu", "2.6.0")
    from sacrebleu.metrics import BLEU
    hyps, refs = _corpus(seed, 3)
    score = BLEU(tokenize=tok, lowercase=lc, smooth_method=smooth, effective_order=eff).corpus_score(hyps, refs)
    _found(f"BLEU {score.score:.{width}f}", hyps, refs, "sacrebleu",
           dict(tokenize=tok, lowercase=lc, smooth_method=smooth, effective_order=eff))


@pytest.mark.refs
@settings(deadline=None, max_examples=30)
@given(st.integers(0, 10**6), st.sampled_from([0, 2]), st.booleans(), st.booleans(), st.booleans(),
       st.sampled_from([1, 2]))
def test_sacrebleu_chrf_claims_recovered(require_tool: Any, seed: int, words: int, lc: bool, ws: bool, eps: bool,
                                         width: int) -> None:
    require_tool("sacrebleu", "2.6.0")
    from sacrebleu.metrics import CHRF
    hyps, refs = _corpus(seed, 2)
    metric = CHRF(word_order=words, lowercase=lc, whitespace=ws, eps_smoothing=eps)
    score = metric.corpus_score(hyps, refs)
    _found(f"{score.name} {score.score:.{width}f}", hyps, refs, "sacrebleu-chrf++" if words else "sacrebleu",
           dict(word_order=words, lowercase=lc, whitespace=ws, eps_smoothing=eps))


@pytest.mark.refs
@settings(deadline=None, max_examples=15)
@given(st.integers(0, 10**6), st.booleans(), st.booleans(), st.booleans(), st.sampled_from([1, 2]))
def test_sacrebleu_ter_claims_recovered(require_tool: Any, seed: int, case: bool, norm: bool, punct: bool,
                                        width: int) -> None:
    require_tool("sacrebleu", "2.6.0")
    from sacrebleu.metrics import TER
    c = generate_corpus(seed, max_segments=10, max_refs=2, kind="ascii")
    hyps, refs = c["hyps"], c["refs"]
    score = TER(case_sensitive=case, normalized=norm, no_punct=punct).corpus_score(hyps, refs)
    _found(f"TER {score.score:.{width}f}", hyps, refs, "sacrebleu",
           dict(case_sensitive=case, normalized=norm, no_punct=punct))


@pytest.mark.refs
@settings(deadline=None, max_examples=30)
@given(st.integers(0, 10**6), st.sampled_from([0, 1, 2, 3, 4]), st.sampled_from([2, 3, 4]))
def test_nltk_bleu_claims_recovered(require_tool: Any, seed: int, method: int, width: int) -> None:
    require_tool("nltk", "3.10.4")
    from nltk.translate.bleu_score import SmoothingFunction, corpus_bleu
    hyps, refs = _corpus(seed, 2, kind="tokenised")
    value = corpus_bleu([[r.split() for r in seg] for seg in zip(*refs)], [h.split() for h in hyps],
                        smoothing_function=getattr(SmoothingFunction(), f"method{method}"))
    names = {0: "float-min", 1: "floor", 2: "add-k", 3: "exp", 4: "nltk-method4"}
    _found(f"BLEU {value:.{width}f}", hyps, refs, "nltk", {"smooth_method": names[method]})


@pytest.mark.refs
@settings(deadline=None, max_examples=20)
@given(st.integers(0, 10**6), st.sampled_from(["rouge1", "rouge2", "rougeL", "rougeLsum"]), st.booleans(),
       st.sampled_from(["fmeasure", "recall", "precision"]), st.booleans())
def test_rouge_score_claims_recovered(require_tool: Any, seed: int, rtype: str, stem: bool, field: str,
                                      percent: bool) -> None:
    require_tool("rouge_score")
    from rouge_score import rouge_scorer
    hyps, refs = _corpus(seed, 1, kind="ascii")
    scorer = rouge_scorer.RougeScorer([rtype], use_stemmer=stem)
    values = [getattr(scorer.score(r, h)[rtype], field) for h, r in zip(hyps, refs[0])]
    mean = sum(values) / len(values)
    shown = f"{mean * 100:.2f}" if percent else f"{mean:.4f}"
    name = {"rouge1": "ROUGE-1", "rouge2": "ROUGE-2", "rougeL": "ROUGE-L", "rougeLsum": "ROUGE-Lsum"}[rtype]
    measure = {"fmeasure": "f", "recall": "r", "precision": "p"}[field]
    _found(f"{name} {shown}", hyps, refs, "rouge-score", {"types": rtype, "stemmer": "porter-nltk" if stem else "none"},
           measure=measure, display=100.0 if percent else 1.0)


@pytest.mark.legacy("sacrebleu1")
@settings(deadline=None, max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(0, 10**6), st.sampled_from(["13a", "intl", "zh", "char", "none"]), st.booleans(),
       st.sampled_from(["exp", "none", "floor", "add-k"]))
def test_sacrebleu1_bleu_claims_recovered(legacy_tool: Any, seed: int, tok: str, lc: bool, smooth: str) -> None:
    hyps, refs = _corpus(seed, 1)
    if any(r == "" for s in refs for r in s):
        return   # 1.5.1 drops empty reference lines and fails on a segment left without one
    score = legacy_tool.corpus_bleu(hyps, refs, smooth_method=smooth, lowercase=lc, tokenize=tok)
    _found(f"BLEU {score.score:.2f}", hyps, refs, "sacrebleu@1", dict(tokenize=tok, lowercase=lc, smooth_method=smooth))
