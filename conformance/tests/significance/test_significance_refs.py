"""assay significance vs live sacrebleu 2.x: generated corpora (differential) and real corpora.

- Differential (``refs``): Hypothesis-generated systems, paired bootstrap / AR / --confidence for
  BLEU, chrF (and TER once assay has it): p-values equal, means and CIs within 1e-9 relative, and
  the printed text equal character for character.
- Real corpora (``refs`` + ``corpora``): wmt17-ende-sacrebleu (the README's paired-test example:
  baseline LIUM-NMT against online-A/B/F/G; p-values also against the values printed in
  sacrebleu's README), wmt22-general (two references, several language pairs) and thumb-mscoco
  (four references). The Moses/MultEval p-values in wmt17's published_significance_pvalues.tsv
  come from other tools (other resampling), so they are not compared.
"""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import assay.jobs.significance as sig
from assay.core.errors import KnobError
from assay.jobs.significance_text import confidence_lines
from conformance.references import significance_ref as ref
from conformance.regen.significance import significance_corpus

pytestmark = pytest.mark.refs
SACREBLEU = "2.6.0"


def _has(metric: str) -> bool:
    from assay.engine.registry import get_family
    try:
        get_family(metric)
    except KnobError:
        return False
    return True


def _metrics(names: list[str]) -> list[str]:
    missing = [m for m in names if not _has(m)]
    if missing:
        pytest.skip(f"assay has no {', '.join(missing)} family yet")
    return names


def _close(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def compare_paired(test: str, metrics: list[str], systems: list[tuple[str, list[str]]], refs: list[list[str]],
                   n: int, seed: Any, text: bool = True) -> Any:
    tool = ref.paired(test, [(m, {}) for m in metrics], systems, refs, n, seed, cli=text)
    ours = (sig.paired_bootstrap if test == "bs" else sig.paired_ar)(
        metrics, systems[0], systems[1:], refs, n_samples=n, seed=sig.DEFAULT_SEED if seed is None else seed)
    assert ours.names == tool["names"] and ours.signatures == tool["signatures"]
    for name in ours.names:
        for i, (got, want) in enumerate(zip(ours.results[name], tool["results"][name])):
            where = (name, ours.systems[i])
            assert got.p_value == want["p_value"], (where, got.p_value, want["p_value"])
            assert _close(want["score"], got.score), (where, got.score, want["score"])
            assert _close(want["mean"], got.mean), (where, got.mean, want["mean"])
            assert _close(want["ci"], got.ci), (where, got.ci, want["ci"])
    if text:
        assert ours.text == tool["text"].rstrip("\n")
    return ours


# ----------------------------------------------------------------------------- differential
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpus_seed=st.integers(0, 10 ** 6), n_seg=st.integers(1, 40), n_refs=st.integers(1, 3),
       kind=st.sampled_from(["mixed", "ascii", "tokenised"]), test=st.sampled_from(["bs", "ar"]),
       n=st.integers(1, 400), seed=st.one_of(st.none(), st.integers(1, 10 ** 6)))
def test_paired_matches_sacrebleu(require_tool: Any, corpus_seed: int, n_seg: int, n_refs: int, kind: str,
                                  test: str, n: int, seed: Any) -> None:
    require_tool("sacrebleu", SACREBLEU)
    c = significance_corpus(corpus_seed, n_seg, 3, n_refs, kind, copies=True)
    metrics = [m for m in ("bleu", "chrf", "ter") if _has(m)]
    compare_paired(test, metrics, c["systems"], c["refs"], n, seed, text=False)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpus_seed=st.integers(0, 10 ** 6), n_seg=st.integers(1, 40), n_refs=st.integers(1, 3),
       n=st.integers(2, 400), seed=st.one_of(st.none(), st.integers(0, 10 ** 6)))
def test_confidence_matches_sacrebleu(require_tool: Any, corpus_seed: int, n_seg: int, n_refs: int, n: int,
                                      seed: Any) -> None:
    require_tool("sacrebleu", SACREBLEU)
    c = significance_corpus(corpus_seed, n_seg, 1, n_refs, "mixed")
    hyps = c["systems"][0][1]
    metrics = [m for m in ("bleu", "chrf", "ter") if _has(m)]
    tool = ref.confidence([(m, {}) for m in metrics], hyps, c["refs"], n, seed, cli=False)
    if any(r["error"] for r in tool["results"]):
        return   # sacrebleu's own TypeError; the golden fixtures hold such cases
    ours = sig.confidence_interval(metrics, hyps, c["refs"], n_samples=n,
                                   seed=sig.DEFAULT_SEED if seed is None else seed)
    ours = ours if isinstance(ours, list) else [ours]
    for got, want in zip(ours, tool["results"]):
        assert got.name == want["name"] and got.signature == want["signature"]
        assert _close(want["mean"], got.mean) and _close(want["ci"], got.ci), (got.name, got.mean, want)


def test_system_against_itself_is_p_min_in_sacrebleu(require_tool: Any) -> None:
    """The property test's p = 1/(n+1) for a copy of the baseline is sacrebleu's own answer."""
    require_tool("sacrebleu", SACREBLEU)
    c = significance_corpus(77, 30, 2, 1, "ascii")
    base = c["systems"][0]
    for test in ("bs", "ar"):
        tool = ref.paired(test, [("bleu", {}), ("chrf", {})], [base, ("copy", list(base[1]))], c["refs"], 99,
                          None, cli=False)
        assert [r[1]["p_value"] for r in tool["results"].values()] == [1 / 100, 1 / 100]


# ----------------------------------------------------------------------------- real corpora
def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


WMT17_README = {   # sacrebleu README (2.x), paired tests of LIUM-NMT against online-A/B/F/G, 4 decimals
    "bs": {"BLEU": [0.0010, 0.3077, 0.0010, 0.0010], "chrF2": [0.0010, 0.0240, 0.0010, 0.0010]},
    "ar": {"BLEU": [0.0001, 0.8066, 0.0001, 0.0001], "chrF2": [0.0001, 0.0385, 0.0001, 0.0001]},
}


@pytest.mark.parametrize("test", ["bs", pytest.param("ar", marks=pytest.mark.slow)])
def test_wmt17_readme_example(require_tool: Any, corpora_dir: Path, test: str) -> None:
    require_tool("sacrebleu", SACREBLEU)
    folder = corpora_dir / "wmt17-ende-sacrebleu"
    names = ["LIUM-NMT.4900", "online-A.0", "online-B.0", "online-F.0", "online-G.0"]
    systems = [(f"newstest2017.{n}.en-de", _lines(folder / f"newstest2017.{n}.en-de.hyp.de")) for n in names]
    refs = [_lines(folder / "newstest2017.en-de.ref.de")]
    n = 1000 if test == "bs" else 10000
    ours = compare_paired(test, ["bleu", "chrf"], systems, refs, n, None, text=True)
    for name, printed in WMT17_README[test].items():
        assert [round(r.p_value, 4) for r in ours.results[name][1:]] == printed


@pytest.mark.slow
def test_wmt17_all_systems_ter(require_tool: Any, corpora_dir: Path) -> None:
    require_tool("sacrebleu", SACREBLEU)
    _metrics(["ter"])
    folder = corpora_dir / "wmt17-ende-sacrebleu"
    paths = sorted(folder.glob("*.hyp.de"))
    base = [p for p in paths if "LIUM-NMT" in p.name]
    systems = [(p.name, _lines(p)) for p in base + [p for p in paths if p not in base][:4]]
    compare_paired("bs", ["ter"], systems, [_lines(folder / "newstest2017.en-de.ref.de")], 200, None, text=True)


@pytest.mark.parametrize("pair,test,metrics", [
    ("en-de", "bs", ["bleu", "chrf"]),
    pytest.param("de-en", "ar", ["bleu", "chrf"], marks=pytest.mark.slow),
    pytest.param("zh-en", "bs", ["chrf"], marks=pytest.mark.slow),
    pytest.param("en-de", "ar", ["ter"], marks=pytest.mark.slow),
])
def test_wmt22_two_references(require_tool: Any, corpora_dir: Path, pair: str, test: str,
                              metrics: list[str]) -> None:
    require_tool("sacrebleu", SACREBLEU)
    _metrics(metrics)
    folder = corpora_dir / "wmt22-general" / pair
    tgt = pair.split("-")[1]
    hyps = sorted(folder.glob(f"generaltest2022.{pair}.hyp.*.{tgt}"))[:4]
    refs = [_lines(folder / f"generaltest2022.{pair}.ref.{r}.{tgt}") for r in ("A", "B")]
    systems = [(p.name, _lines(p)) for p in hyps]
    compare_paired(test, metrics, systems, refs, 1000 if test == "bs" else 2000, 7, text=True)


@pytest.mark.parametrize("test", ["bs", pytest.param("ar", marks=pytest.mark.slow)])
def test_thumb_mscoco_four_references(require_tool: Any, corpora_dir: Path, test: str) -> None:
    require_tool("sacrebleu", SACREBLEU)
    folder = corpora_dir / "thumb-mscoco"
    refs = [_lines(folder / f"ref{k}.txt") for k in range(1, 5)]
    systems = [(p.name, _lines(p)) for p in sorted(folder.glob("hyp.*.txt"))]
    metrics = [m for m in ("bleu", "chrf", "ter") if _has(m)]
    compare_paired(test, metrics, systems, refs, 1000, None, text=True)


def test_confidence_on_corpora(require_tool: Any, corpora_dir: Path) -> None:
    """--confidence on the README's C-3MA example (its μ ± CI) and on a wmt22 en-zh system (zh tokens)."""
    require_tool("sacrebleu", SACREBLEU)
    folder = corpora_dir / "wmt17-ende-sacrebleu"
    hyps = _lines(folder / "newstest2017.C-3MA.4959.en-de.hyp.de")
    refs = [_lines(folder / "newstest2017.en-de.ref.de")]
    metrics = [m for m in ("bleu", "chrf", "ter") if _has(m)]
    tool = ref.confidence([(m, {}) for m in metrics], hyps, refs, 1000, None, cli=True)
    ours = sig.confidence_interval(metrics, hyps, refs, width=3)
    ours = ours if isinstance(ours, list) else [ours]
    for got, want in zip(ours, tool["results"]):
        assert _close(want["mean"], got.mean) and _close(want["ci"], got.ci), (got.name, got.mean, want)
    widths = sig.confidence_interval(metrics, hyps, refs)
    widths = widths if isinstance(widths, list) else [widths]
    assert "\n".join(confidence_lines(widths)) == tool["text"].rstrip("\n")
    zh = corpora_dir / "wmt22-general" / "en-zh"
    hyp = _lines(sorted(zh.glob("generaltest2022.en-zh.hyp.*.zh"))[0])
    zrefs = [_lines(zh / f"generaltest2022.en-zh.ref.{r}.zh") for r in ("A", "B")]
    tool = ref.confidence([("bleu", {"tokenize": "zh"})], hyp, zrefs, 500, "3", cli=False)
    got = sig.confidence_interval("bleu", hyp, zrefs, n_samples=500, seed="3", tokenize="zh")
    assert _close(tool["results"][0]["mean"], got.mean) and _close(tool["results"][0]["ci"], got.ci)
