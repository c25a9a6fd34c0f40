"""The E2E NLG challenge's scores of its primary systems, reproduced with named profiles.

The challenge scored every system with tuetschek/e2e-metrics ``measure_scores.py``; its outputs are
frozen in ``fixtures/e2e/oracle.json`` (``python -m conformance.regen e2e``) and the paper's
printed numbers in ``fixtures/e2e/published.json``. The profiles:

========  ===============================================================================
BLEU      ``bleu/mteval-v13a`` (the script's ``mteval-v13a-sig.pl`` BLEU is mteval-v13a's)
NIST      ``nist/e2e-mteval-v13a-sig`` (mean number of non-empty references in the penalty)
METEOR    ``meteor/meteor-1.5`` on pycocoevalcap's PTB-tokenised captions
ROUGE_L   ``rouge/coco`` on the same captions
CIDEr     ``cider/coco`` with ``tokenize=ptb``
========  ===============================================================================

Default environment: the scoring script's own summed statistics (its ``-f`` log, in the fixture)
go through assay's score stage for NIST and BLEU, and must give the printed numbers; the oracle
must print the published numbers where the paper's row is transcribed. With the data present
(``$ASSAY_E2E`` or the fetched mirrors, ``data.py``; marked ``slow``): every metric of every system
from the texts, to the printed digits, and assay's NIST/BLEU statistics equal the script's.
"""
from __future__ import annotations

import json
import os

import numpy as np
import pytest

from assay.core.stats import SegmentStats
from assay.engine.api import compute_stats, make_config
from assay.engine.registry import get_family

from conformance.paths import FIXTURES
from conformance.tests.e2e import data

ORACLE = json.loads((FIXTURES / "e2e" / "oracle.json").read_text(encoding="utf-8"))
PUBLISHED = json.loads((FIXTURES / "e2e" / "published.json").read_text(encoding="utf-8"))
SCORED = sorted(k for k, v in ORACLE["systems"].items() if "error" not in v)
METRICS = ("BLEU", "NIST", "METEOR", "ROUGE_L", "CIDEr")


def _printed(value: float) -> str:
    return "%.4f" % value


# ----------------------------------------------------------------------------- fixtures only
def test_fixture_covers_the_primary_systems():
    assert len(ORACLE["systems"]) == 21
    assert SCORED == sorted(ORACLE["systems"]), {k: v["error"] for k, v in ORACLE["systems"].items()
                                                  if "error" in v}


@pytest.mark.parametrize("system", sorted(PUBLISHED["systems"]))
def test_oracle_prints_the_published_numbers(system):
    assert ORACLE["systems"][system]["printed"] == PUBLISHED["systems"][system]


def _nist_from_tool(entry: dict) -> float:
    """NIST from the script's summed statistics, through the family's score stage."""
    family = get_family("nist")
    config = make_config("nist", "e2e-mteval-v13a-sig", "corpus")[0]
    st = entry["mteval_stats"]
    row = {"hyp_len": st["tst"][0], "ref_len": 0.0, "pen_sys": st["tst"][0], "pen_ref": st["ref"][0],
           "seg_pen_ref": 0.0, "refs_counted": entry["references"], "segments": entry["segments"]}
    row.update({f"info{n}": st["tst_info"][n - 1] for n in range(1, 6)})
    row.update({f"total{n}": st["tst"][n - 1] for n in range(1, 6)})
    cols = family.columns(config)
    stats = SegmentStats(cols, np.array([[float(row.get(c, 0.0)) for c in cols]]), {})
    return family.score_stats(stats, config)[0]


def _bleu_from_tool(entry: dict) -> float:
    family = get_family("bleu")
    config = make_config("bleu", "mteval-v13a", "corpus")[0]
    st = entry["mteval_stats"]
    row = {"hyp_len": st["tst"][0], "ref_len": st["bleu_ref_length"], "correct_next": st["match"][4],
           "total_next": st["tst"][4]}
    row.update({f"correct{n}": st["match"][n - 1] for n in range(1, 5)})
    row.update({f"total{n}": st["tst"][n - 1] for n in range(1, 5)})
    cols = family.columns(config)
    stats = SegmentStats(cols, np.array([[float(row.get(c, 0.0)) for c in cols]]), {})
    return family.score_stats(stats, config)[0]


@pytest.mark.parametrize("system", SCORED)
def test_nist_and_bleu_from_the_scripts_statistics(system):
    entry = ORACLE["systems"][system]
    assert _printed(_nist_from_tool(entry)) == entry["printed"]["NIST"]
    assert _printed(_bleu_from_tool(entry)) == entry["printed"]["BLEU"]


def test_the_standard_nist_profile_misses_some_systems():
    """The knob matters: mteval-v13a's average (all 45 reference streams, empty ones included)
    does not print the script's NIST for every system."""
    family = get_family("nist")
    config = make_config("nist", "mteval-v13a", "corpus")[0]
    misses = 0
    for system in SCORED:
        entry = ORACLE["systems"][system]
        st = entry["mteval_stats"]
        streams = 45   # the widest MR of the test set has 45 references: the script pads to 45 streams
        row = {"hyp_len": st["tst"][0], "pen_sys": st["tst"][0], "pen_ref": st["ref"][0] / streams}
        row.update({f"info{n}": st["tst_info"][n - 1] for n in range(1, 6)})
        row.update({f"total{n}": st["tst"][n - 1] for n in range(1, 6)})
        cols = family.columns(config)
        stats = SegmentStats(cols, np.array([[float(row.get(c, 0.0)) for c in cols]]), {})
        misses += _printed(family.score_stats(stats, config)[0]) != entry["printed"]["NIST"]
    assert misses > 0


# ----------------------------------------------------------------------------- from the texts
def _source() -> data.Source:
    source = data.locate()
    if source is None:
        if os.environ.get("ASSAY_E2E"):
            from conformance.references.availability import missing
            missing(f"E2E data not found under $ASSAY_E2E ({data.WHERE})")
        pytest.skip(f"E2E data absent: {data.WHERE}")
    return source


def _coco_strings(hyps: list[str], streams: list[list[str | None]]) -> tuple[list[str], list[list[str | None]]]:
    """pycocoevalcap's PTBTokenizer output: one batch for all references (image order), one for the outputs."""
    from assay.tokenizers.ptb import coco_tokenize_lines
    per_image = [[s[i] for s in streams if s[i] is not None] for i in range(len(hyps))]
    flat = coco_tokenize_lines([r for refs in per_image for r in refs])
    it = iter(flat)
    tok_refs = [[next(it) for _ in refs] for refs in per_image]
    tok_streams = [[refs[k] if k < len(refs) else None for refs in tok_refs] for k in range(len(streams))]
    return coco_tokenize_lines(hyps), tok_streams


def _assay_scores(hyps: list[str], streams: list[list[str | None]]) -> dict[str, float]:
    import assay
    tok_hyps, tok_streams = _coco_strings(hyps, streams)
    return {"BLEU": assay.score("bleu", hyps, streams, "mteval-v13a").value,
            "NIST": assay.score("nist", hyps, streams, "e2e-mteval-v13a-sig").value,
            "METEOR": assay.score("meteor", tok_hyps, tok_streams, "meteor-1.5").value,
            "ROUGE_L": assay.score("rouge", tok_hyps, tok_streams, "coco").value,
            "CIDEr": assay.score("cider", hyps, streams, "coco", tokenize="ptb").value}


@pytest.mark.slow
@pytest.mark.parametrize("system", SCORED)
def test_every_metric_from_the_texts(system):
    hyps, streams = data.load(_source(), system)
    got = {m: _printed(v) for m, v in _assay_scores(hyps, streams).items()}
    assert got == ORACLE["systems"][system]["printed"]
    if system in PUBLISHED["systems"]:
        assert got == PUBLISHED["systems"][system]


@pytest.mark.slow
@pytest.mark.parametrize("system", SCORED)
def test_nist_statistics_equal_the_scripts(system):
    hyps, streams = data.load(_source(), system)
    stats, _, _, _ = compute_stats("nist", hyps, streams, "e2e-mteval-v13a-sig")
    tot = stats.total()
    c = stats.columns
    st = ORACLE["systems"][system]["mteval_stats"]
    assert [int(tot[c.index(f"total{n}")]) for n in range(1, 6)] == st["tst"][:5]
    assert int(tot[c.index("pen_ref")]) == st["ref"][0]
    assert int(tot[c.index("refs_counted")]) == ORACLE["systems"][system]["references"]
    np.testing.assert_allclose([tot[c.index(f"info{n}")] for n in range(1, 6)], st["tst_info"][:5], rtol=1e-9)


# ----------------------------------------------------------------------------- audit
@pytest.mark.slow
@pytest.mark.parametrize("claim, names", [
    (["-m", "nist", "--claim", "8.6094"], "nist/e2e-mteval-v13a-sig"),
    (["-m", "bleu", "--claim", "0.6593"], "bleu/mteval-v13a"),
    (["--captions", "--claim", "ROUGE_L 0.6850"], "rouge/coco input=PTB-tokenised"),
])
def test_audit_names_the_profile(tmp_path, capsys, claim, names):
    """``assay audit`` on the TGen baseline's output finds the published number under the profile."""
    from assay.cli.main import main
    hyps, streams = data.load(_source(), "tgen")
    (tmp_path / "tgen.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    refs = []
    for k, stream in enumerate(streams):   # the script's layout: missing references as empty lines
        path = tmp_path / f"ref{k:02d}.txt"
        path.write_text("\n".join(r or "" for r in stream) + "\n", encoding="utf-8")
        refs.append(str(path))
    main(["audit", "-i", str(tmp_path / "tgen.txt"), "-r", *refs, *claim, "-q", "--no-progress"])
    out = capsys.readouterr().out
    first = next(line for line in out.splitlines() if line.strip().startswith("1. "))
    assert names in first, out
