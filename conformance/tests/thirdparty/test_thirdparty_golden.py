"""Third-party packages' recorded answers (fixtures/thirdparty) against assay's profiles for them.

No package is imported: the answers were recorded from the real packages by
``python -m conformance.regen thirdparty`` (``tox -e thirdparty``), with package, version and call.

- ``test_profile_reproduces_package``: the package's profile reproduces every recorded answer
  (recorded exceptions included) within :data:`TOLERANCE` (float32 packages: their own tolerance).
- ``test_conform_identifies_package``: ``assay conform --identify`` on the replayed answers names
  the profile, with no departure.
- ``test_conform_names_injected_departure``: a second recording of the same package with one
  option changed (or, where it has none, one change to its input) is named as that profile plus
  exactly the knob the option corresponds to.
"""
from __future__ import annotations

import json
from functools import lru_cache

import pytest

from assay.jobs.conform import connect, identify
from conformance.tests.thirdparty.golden import compare
from conformance.tests.thirdparty.replay import ROOT, load

TOLERANCE = 1e-9

#: recording -> (profile, tolerance): the profile must reproduce every recorded answer
PROFILES: dict[str, tuple[str, float]] = {
    "hf-bleu": ("hf-evaluate", TOLERANCE),
    "tm-bleu": ("torchmetrics", 1e-6),            # float32 tensors
    "tm-sacrebleu": ("torchmetrics-sacrebleu", 1e-6),
    "compare-mt": ("compare-mt", TOLERANCE),
    "fast-bleu": ("fast-bleu", TOLERANCE),
    "tm-rouge": ("rouge-score", 1e-6),           # float32; rougeLsum left out (punkt)
}

#: injected recording -> (profile of its base recording, knob, value conform must name)
INJECTED: dict[str, tuple[str, str, object]] = {
    "hf-bleu.max_order3": ("hf-evaluate", "max_ngram_order", 3),
    "tm-bleu.n_gram3": ("torchmetrics", "max_ngram_order", 3),
    "tm-sacrebleu.lowercase": ("torchmetrics-sacrebleu", "lowercase", True),
    "compare-mt.case_insensitive": ("compare-mt", "lowercase", True),
    "fast-bleu.lowercased": ("fast-bleu", "lowercase", True),
    "tm-rouge.stemmer": ("rouge-score", "stemmer", "porter-nltk"),
}


def _spec(name: str) -> str:
    return "conformance.tests.thirdparty.replay:" + name.replace("-", "_").replace(".", "_")


@lru_cache(maxsize=None)
def _identify(name: str) -> identify.Identification:
    impl = connect.DirectImplementation(_spec(name))
    impl.open()
    return identify.identify(impl, load(name)["metric"])


def test_every_recording_has_provenance() -> None:
    for path in sorted(ROOT.glob("*.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        assert doc["format"] == "assay-thirdparty/1", path
        assert doc["package"] and doc["version"] and doc["call"], path
        assert any("score" in a for a in doc["answers"].values()), path


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_profile_reproduces_package(name: str) -> None:
    profile, tolerance = PROFILES[name]
    rows = compare(name, profile, tolerance=tolerance)
    bad = [f"{r.case_id} [{r.level}]: recorded "
           f"{r.recorded.score if r.recorded.kind == 'result' else r.recorded.message} != {r.predicted}"
           for r in rows if not r.agrees]
    assert len(rows) >= 30, f"{name}: only {len(rows)} recorded answers"
    assert not bad, f"{name} vs {profile}: {len(bad)}/{len(rows)} differ:\n" + "\n".join(bad[:10])


@pytest.mark.parametrize("name", sorted(PROFILES))
def test_conform_identifies_package(name: str) -> None:
    ident = _identify(name)
    assert ident.profile == PROFILES[name][0], ident.text()
    assert ident.factor == 1.0, ident.text()
    assert not ident.departures, ident.text()
    assert not ident.unexplained, ident.text()


@pytest.mark.parametrize("name", sorted(INJECTED))
def test_conform_names_injected_departure(name: str) -> None:
    profile, knob, value = INJECTED[name]
    ident = _identify(name)
    assert ident.profile == profile, ident.text()
    assert [(d.knob, d.value) for d in ident.departures] == [(knob, value)], ident.text()
    assert not ident.unexplained, ident.text()


def test_conform_on_pltrdy_rouge_names_its_set_counting() -> None:
    """pltrdy's rouge has no profile (sentence split on ".", no lowercasing, a 1e-8 term in F), but
    conform still names the knob its ``exclusive`` option moves: n-gram sets by default, gone with
    ``exclusive=False``, and its ValueError on an empty text (``empty_document=error``)."""
    default, multiset = _identify("pltrdy-rouge"), _identify("pltrdy-rouge.multiset")
    assert default.profile == multiset.profile == "rouge-score", (default.text(), multiset.text())
    named = {(d.knob, d.value) for d in default.departures}
    assert {("ngram_counts", "set"), ("empty_document", "error")} <= named, default.text()
    assert "ngram_counts" not in {d.knob for d in multiset.departures}, multiset.text()
    assert ("empty_document", "error") in {(d.knob, d.value) for d in multiset.departures}, multiset.text()


@pytest.mark.parametrize("name,expect", [("hf-bleu", "closest profile: bleu/hf-evaluate"),
                                         ("tm-ter", "closest profile: ter/sacrebleu, after multiplying its "
                                                    "scores by 100")])
def test_assay_conform_identify_cli(name: str, expect: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The command line says it too: ``assay conform direct:<replay> --identify``. (These profiles have
    no fixture cases of their own in fixtures/<metric>, so the suite after identification selects no
    case and exits 2, "nothing to check"; the answers are checked above against the recordings.)"""
    from assay.cli.main import main
    main(["conform", f"direct:{_spec(name)}", "--identify", "-q"])
    out = capsys.readouterr().out
    assert expect in out, out
    if name == "hf-bleu":
        assert "departs on" not in out and "tie:" not in out, out
    else:   # torchmetrics TER calls its edit routine with hypothesis and reference swapped (hand check)
        assert "departs on shift_side='reference'" in out, out
