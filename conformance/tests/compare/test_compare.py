"""assay compare: every profile per metric, normalised column, spread, attribution, per-segment view.

Scores are assay's own (checked against the tools by test_golden.py and the *_refs tests); these
tests check the comparison's bookkeeping against direct API calls, and the CLI.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from assay.engine import api
from assay.cli.main import main
from assay.jobs.compare import VIEWS, attribute_pair, compare, default_view, leave_one_out, measure_config, view_of
from assay.engine.evaluate import Evaluator
from assay.engine.registry import METRIC_NAMES
from assay.profiles.registry import profiles_of

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "fixtures" / "sample"
HYP, REFS = SAMPLE / "hyp.txt", [SAMPLE / "ref1.txt", SAMPLE / "ref2.txt"]


def _read():
    hyps = HYP.read_text(encoding="utf-8").splitlines()
    return hyps, [p.read_text(encoding="utf-8").splitlines() for p in REFS]


@pytest.fixture(scope="module")
def cmp():
    hyps, refs = _read()
    return compare(hyps, refs, ["bleu", "nist", "chrf", "ter", "cider", "rouge"])


def test_every_profile_of_every_metric_has_a_row(cmp) -> None:
    for metric in ("bleu", "nist", "chrf", "ter", "cider", "rouge"):
        for table in (t for t in cmp.tables if t.metric == metric):
            assert [r.profile for r in table.rows] == [p.name for p in profiles_of(metric)]


def test_scores_equal_direct_api_scores_and_normalisation(cmp) -> None:
    hyps, refs = _read()
    for table in cmp.tables:
        view = view_of(table.metric)
        for row in table.rows:
            if row.value is None:
                assert row.reason
                continue
            direct = api.score(table.metric, hyps, refs, row.profile, **dict(table.measure.knobs))
            assert row.value == direct.value
            if view.factor is None:
                assert row.normalised is None
            else:
                assert row.normalised == pytest.approx(row.value * view.factor(direct.config), rel=1e-12)
        vals = [r.normalised if r.normalised is not None else r.value for r in table.scored]
        assert table.spread == pytest.approx(max(vals) - min(vals))


def test_profiles_that_cannot_run_are_rows_with_a_reason(cmp) -> None:
    bleu = cmp.table("bleu")
    d2l = next(r for r in bleu.rows if r.profile == "d2l")
    assert d2l.value is None and "at most 1 reference" in d2l.reason
    # the normalised BLEU column puts sacrebleu (0-100) and NLTK (0-1) on one scale
    nltk = next(r for r in bleu.rows if r.profile == "nltk")
    assert nltk.normalised == pytest.approx(100 * nltk.value)


def test_attribution_pair_sums_and_normalised_parts(cmp) -> None:
    pa = attribute_pair(cmp, "bleu", None, "sacrebleu", "nltk")
    att = pa.attribution
    assert math.fsum(att.parts.values()) == pytest.approx(att.total, abs=1e-9)
    assert pa.normalised_parts is not None and pa.normalised_parts["scale"] == 0.0
    assert math.fsum(pa.normalised_parts.values()) == pytest.approx(pa.end_normalised - pa.start_normalised,
                                                                     abs=1e-9)
    assert pa.segments and all(s.tokens_a is not None for s in pa.segments)


def test_leave_one_out_contribution_equals_rescoring_without_the_segment(cmp) -> None:
    hyps, refs = _read()
    ev = cmp.evaluators["bleu"]
    table = cmp.table("bleu")
    ca, cb = measure_config(ev, "sacrebleu", table.measure), measure_config(ev, "multi-bleu", table.measure)
    loo = leave_one_out(cmp, "bleu", ca, cb)
    assert loo is not None
    for i in (0, 8, 22):
        keep = [j for j in range(len(hyps)) if j != i]
        sub = Evaluator("bleu", [hyps[j] for j in keep], [[s[j] for j in keep] for s in refs])
        d_all = ev.value(cb) - ev.value(ca)
        d_sub = sub.value(cb) - sub.value(ca)
        assert loo[i] == pytest.approx(d_all - d_sub, abs=1e-9)


def test_every_family_has_a_view() -> None:
    """Adding a family needs no change here: a family without a VIEWS entry gets a default view."""
    for metric in METRIC_NAMES:
        view = view_of(metric)
        assert view.metric == metric
    generic = default_view("bleu")
    assert generic.factor is not None and len(generic.measures) == 1
    assert set(VIEWS) <= set(METRIC_NAMES)


@pytest.mark.parametrize("fmt", ["text", "markdown", "json"])
def test_cli_compare(fmt: str, capsys) -> None:
    code = main(["compare", "-i", str(HYP), "-r", *map(str, REFS), "-m", "bleu,chrf", "-f", fmt,
                 "--attribute", "sacrebleu", "nltk"])
    out = capsys.readouterr().out
    assert code == 0
    if fmt == "json":
        doc = json.loads(out)
        assert {m["metric"] for m in doc["metrics"]} == {"bleu", "chrf"}
        (att,) = doc["attributions"]          # chrF/nltk takes one reference: no attribution there
        assert att["metric"] == "bleu" and abs(sum(att["parts"].values()) - att["total"]) < 1e-9
        assert doc["attributions_unavailable"] and "chrf" in doc["attributions_unavailable"][0]
    else:
        assert "sacrebleu" in out and "tokenize" in out and "multi-bleu" in out


def test_cli_compare_errors(capsys) -> None:
    assert main(["compare", "-i", str(HYP), "-r", str(REFS[0]), "-m", "nosuch"]) == 2
    assert "unknown metric" in capsys.readouterr().err
    assert main(["compare", "-i", str(HYP), "-r", str(REFS[0]), "-m", "bleu", "--attribute", "x", "y"]) == 2


def test_corpora_bleu_attributions_sum_exactly(corpora_dir: Path) -> None:
    """Acceptance: on every real corpus with text files, the attribution of sacrebleu vs NLTK vs
    multi-bleu BLEU differences adds up to the differences."""
    from assay.core.errors import AssayError
    from assay.core.io import read_segments
    from assay.jobs.report import discover_corpus
    seen = 0
    for d in sorted(p for p in [*corpora_dir.iterdir()] if p.is_dir()):
        try:
            hyp_path, ref_paths = discover_corpus(d)
        except AssayError:
            continue
        hyps = read_segments(hyp_path).lines
        refs = [read_segments(p).lines for p in ref_paths]
        result = compare(hyps, refs, ["bleu"], ["sacrebleu", "nltk", "multi-bleu"])
        assert [r.profile for r in result.table("bleu").rows] == ["sacrebleu", "nltk", "multi-bleu"]
        for a, b in (("sacrebleu", "nltk"), ("sacrebleu", "multi-bleu"), ("nltk", "multi-bleu")):
            att = attribute_pair(result, "bleu", None, a, b, with_tokens=False).attribution
            tol = 1e-9 * max(1.0, abs(att.start), abs(att.end))
            assert abs(math.fsum(att.parts.values()) - att.total) <= tol, (d.name, a, b, att.parts)
        seen += 1
    assert seen > 0
