"""The E2E NLG challenge's scores of its primary systems, reproduced with named profiles.

The challenge scored every system with tuetschek/e2e-metrics ``measure_scores.py``; its outputs are
frozen in ``fixtures/e2e/oracle.json`` (``python -m conformance.regen e2e``), and the numbers the
challenge published, its page's "Automatic Metrics" table (tuetschek/e2e_challenge_web ``index.html``;
the 21 primary systems with a published output, each under its e2e-eval label), in
``fixtures/e2e/published.json`` (``python -m conformance.regen.e2e --published``). The profiles:

========  ===============================================================================
BLEU      ``bleu/mteval-v13a`` (the script's ``mteval-v13a-sig.pl`` BLEU is mteval-v13a's)
NIST      ``nist/e2e-mteval-v13a-sig`` (mean number of non-empty references in the penalty)
METEOR    ``meteor/meteor-1.5`` on pycocoevalcap's PTB-tokenised captions
ROUGE_L   ``rouge/coco`` on the same captions
CIDEr     ``cider/coco`` with ``tokenize=ptb``
========  ===============================================================================

Default environment: the scoring script's own summed statistics (its ``-f`` log, in the fixture)
go through assay's score stage for NIST and BLEU, and must give the published numbers; the oracle
prints every published number (the table was made with it). With the page present (the fetched
mirror or ``$ASSAY_E2E_WEB``), the fixture must be its table. With the data present (``$ASSAY_E2E``
or the fetched mirrors, ``data.py``; marked ``slow``): every metric of every system from the texts,
to the published digits; assay's NIST/BLEU statistics equal the script's; ``assay audit`` on the
reference files as the script writes them explains each published number of a few systems.

A named case: BLEU from reference *files* in the script's layout (a missing reference is an empty
line) is ``bleu/mteval-v13a`` with ``empty_refs=drop`` (mteval-v13a-sig.pl ignores the empty
segments the wrapper pads with); with ``keep`` it misses the published BLEU of the systems whose
length penalty an empty reference changes. NIST's ``nist/e2e-mteval-v13a-sig`` needs nothing more.
"""
from __future__ import annotations

import contextlib
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


def _published(system: str) -> dict[str, str]:
    return {m: PUBLISHED["systems"][system][m] for m in METRICS}


def test_every_primary_system_has_its_published_row():
    """21 of the page's 22 primary rows name an output of e2e-eval, 34 of its 35 other rows a
    submitted file; the anonymous team's two rows have none, and say so."""
    assert sorted(PUBLISHED["systems"]) == SCORED
    assert sorted(data.PRIMARY_LABELS.values()) == SCORED
    assert sorted(PUBLISHED["submissions"]) == sorted(data.SUBMISSION_FILES.values())
    unmatched = PUBLISHED["unmatched"].values()
    assert len(PUBLISHED["systems"]) + sum(r["primary"] for r in unmatched) == 22
    assert len(PUBLISHED["systems"]) + len(PUBLISHED["submissions"]) + len(unmatched) == 57
    assert all(row["cause"] for row in unmatched)


@pytest.mark.parametrize("system", sorted(PUBLISHED["systems"]))
def test_oracle_prints_the_published_numbers(system):
    assert ORACLE["systems"][system]["printed"] == _published(system)


def test_fixture_is_the_challenge_pages_table():
    """published.json holds the page's primary rows as printed (re-read from the page when present)."""
    page = data.challenge_page()
    if page is None:
        if os.environ.get("ASSAY_E2E_WEB"):
            from conformance.references.availability import missing
            missing(f"the challenge page is not at $ASSAY_E2E_WEB ({data.WEB_REPO} index.html)")
        pytest.skip(f"the challenge page is absent: fetch {data.WEB_REPO} or set $ASSAY_E2E_WEB")
    rows = data.published_rows(page)
    assert len(rows) == 57 and sum(r["primary"] for r in rows) == 22
    for row in rows:
        label = data.PRIMARY_LABELS.get(row["system"]) if row["primary"] else None
        path = data.SUBMISSION_FILES.get(row["system"]) if not row["primary"] else None
        kept = (PUBLISHED["systems"][label] if label else PUBLISHED["submissions"][path] if path
                else PUBLISHED["unmatched"][row["system"]])
        assert {k: kept[k] for k in ("submitter", "affiliation", "system", *METRICS)} == \
            {k: row[k] for k in ("submitter", "affiliation", "system", *METRICS)}


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
    assert _printed(_nist_from_tool(entry)) == entry["printed"]["NIST"] == PUBLISHED["systems"][system]["NIST"]
    assert _printed(_bleu_from_tool(entry)) == entry["printed"]["BLEU"] == PUBLISHED["systems"][system]["BLEU"]


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
    assert got == _published(system)


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(PUBLISHED["submissions"]))
def test_every_metric_of_the_other_submissions(path):
    """The page's other (not primary) rows, each from its submitted file read as the organisers
    scored it (``data.load_submission``): every metric to the printed digits."""
    hyps, streams = data.load_submission(_source(), path)
    got = {m: _printed(v) for m, v in _assay_scores(hyps, streams).items()}
    assert got == {m: PUBLISHED["submissions"][path][m] for m in METRICS}


@pytest.mark.slow
def test_bleu_from_the_scripts_reference_files():
    """The wrapper writes a missing reference as an empty segment; mteval-v13a-sig.pl's BLEU ignores
    it: ``bleu/mteval-v13a`` with ``empty_refs=drop`` gives every published BLEU from such streams,
    and with ``keep`` (an empty line is a reference of length 0) it misses some."""
    import assay
    source, misses = _source(), []
    for system in SCORED:
        hyps, streams = data.load(source, system)
        padded = [[r if r is not None else "" for r in stream] for stream in streams]
        published = PUBLISHED["systems"][system]["BLEU"]
        assert _printed(assay.score("bleu", hyps, padded, "mteval-v13a", empty_refs="drop").value) == published
        if _printed(assay.score("bleu", hyps, padded, "mteval-v13a").value) != published:
            misses.append(system)
    assert misses, "empty_refs=keep would need no naming"


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
#: the configuration ``assay audit`` must name first for each published metric (BLEU: mteval-v13a, or a
#: profile of mteval-v13a-sig's BLEU, ``empty_refs=drop``, should one be added)
AUDIT_NAMES = {"BLEU": ("bleu/mteval-v13a", "bleu/e2e-mteval-v13a-sig"), "NIST": ("nist/e2e-mteval-v13a-sig",),
               "METEOR": ("meteor/meteor-1.5 input=PTB-tokenised",), "ROUGE_L": ("rouge/coco input=PTB-tokenised",),
               "CIDEr": ("cider/coco tokenize=ptb",)}
#: systems whose printed NIST the length-penalty knob changes (on e.g. tuda, whose outputs are longer
#: than the references, nist/mteval-v13a prints the same 7.4544 and audit rightly names that standard);
#: ``ASSAY_E2E_AUDIT=all``: every primary system (about a minute each)
AUDITED = tuple(PUBLISHED["systems"]) if os.environ.get("ASSAY_E2E_AUDIT") == "all" else ("tgen", "chen", "slug")
#: (system, metric) whose audit does not yet name the tool's configuration, with the reason
AUDIT_GAPS: dict[tuple[str, str], str] = {}
_AUDITS: dict[str, list[dict]] = {}


def _audit(tmp_path_factory, system: str) -> list[dict]:
    """``assay audit --captions -f json`` on one system's published row, the references written as
    measure_scores.py writes them (45 files; a missing reference is an empty line)."""
    if system not in _AUDITS:
        from assay.cli.main import main
        hyps, streams = data.load(_source(), system)
        folder = tmp_path_factory.mktemp(f"e2e-{system}")
        (folder / f"{system}.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
        refs = []
        for k, stream in enumerate(streams):
            path = folder / f"ref{k:02d}.txt"
            path.write_text("\n".join(r or "" for r in stream) + "\n", encoding="utf-8")
            refs.append(str(path))
        claims = [a for m in METRICS for a in ("--claim", f"{m} {PUBLISHED['systems'][system][m]}")]
        out = folder / "audit.json"
        with out.open("w", encoding="utf-8") as fh, contextlib.redirect_stdout(fh):
            main(["audit", "-i", str(folder / f"{system}.txt"), "-r", *refs, "--captions", *claims,
                  "-f", "json", "-q", "--no-progress"])
        _AUDITS[system] = json.loads(out.read_text(encoding="utf-8"))
    return _AUDITS[system]


@pytest.mark.slow
@pytest.mark.parametrize("system, metric", [
    pytest.param(s, m, marks=[pytest.mark.xfail(strict=True, raises=AssertionError,
                                                      reason=AUDIT_GAPS[(s, m)])] if (s, m) in AUDIT_GAPS
                 else []) for s in AUDITED for m in METRICS])
def test_audit_explains_the_published_number(tmp_path_factory, system, metric):
    """``assay audit`` reproduces each published number of the system and names the profile first."""
    report = _audit(tmp_path_factory, system)[METRICS.index(metric)]
    assert report["claim"] == f"{metric} {PUBLISHED['systems'][system][metric]}"
    assert report["verdict"] in ("reproduced", "reproduced-other"), report["verdict_text"]
    assert report["best"]["shown"] == PUBLISHED["systems"][system][metric]
    names = AUDIT_NAMES[metric]
    if metric == "NIST" and report["verdict"] == "reproduced":
        # the standard itself prints the number (10 of the 21 primary systems: outputs no shorter than
        # the references, so the length-penalty knob changes nothing), and audit names the standard
        names += ("nist/mteval-v13a",)
    assert report["best"]["configuration"].startswith(names), report["best"]["configuration"]
