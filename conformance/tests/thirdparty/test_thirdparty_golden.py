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
from assay.profiles.registry import profiles_of
from conformance.tests.thirdparty.golden import compare
from conformance.tests.thirdparty.replay import ROOT, load

TOLERANCE = 1e-9

#: recording -> (profile, tolerance): the profile must reproduce every recorded answer. Only recordings
#: no profile declares are listed (the declared ones, DECLARED below, are added from Profile.recorded)
PROFILES: dict[str, tuple[str, float]] = {
    "tm-rouge": ("rouge-score", 1e-6),           # float32; rougeLsum left out (punkt)
}

#: the recordings profiles declare as their golden values (Profile.recorded, recorded_tolerance; assay
#: conform runs them as the profile's cases): checked here even where PROFILES does not list them,
#: and PROFILES must agree with them where it does (test_profiles_table_agrees_with_declarations)
DECLARED: dict[str, tuple[str, float]] = {name: (p.name, p.recorded_tolerance) for p in profiles_of()
                                          for name in p.recorded}
LISTED = dict(PROFILES)
PROFILES.update({name: entry for name, entry in DECLARED.items() if name not in PROFILES})

#: injected recording -> (profile of its base recording, knob, value conform must name)
INJECTED: dict[str, tuple[str, str, object]] = {
    "hf-bleu.max_order3": ("hf-evaluate", "max_ngram_order", 3),
    "hf-google_bleu.max_len3": ("hf-evaluate", "max_ngram_order", 3),
    "tm-bleu.n_gram3": ("torchmetrics", "max_ngram_order", 3),
    "tm-sacrebleu.lowercase": ("torchmetrics-sacrebleu", "lowercase", True),
    "tm-chrf.lowercase": ("torchmetrics", "lowercase", True),
    "compare-mt.case_insensitive": ("compare-mt", "lowercase", True),
    "fast-bleu.lowercased": ("fast-bleu", "lowercase", True),
    "tm-rouge.stemmer": ("rouge-score", "stemmer", "porter-nltk"),
    "pltrdy-rouge.multiset": ("pltrdy-rouge", "ngram_counts", "multiset"),
    "rouge-chinese.multiset": ("rouge-chinese", "ngram_counts", "multiset"),
    "py-rouge.nostem": ("py-rouge", "stemmer", "none"),
    "sumeval.no_stopwords": ("sumeval", "stopwords", "none"),
    "tm-ter.cased": ("torchmetrics", "case_sensitive", True),
    "pyter3.lowercased": ("pyter3", "case_sensitive", False),
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


def test_profiles_table_agrees_with_declarations() -> None:
    """A recording listed above with a profile that declares it has that profile's tolerance; a profile
    named for a recording it does not declare reproduces the package without it being its tool's."""
    for name, (profile, tolerance) in LISTED.items():
        if name in DECLARED:
            assert DECLARED[name] == (profile, tolerance), (name, DECLARED[name], LISTED[name])
    for name in DECLARED:
        assert (ROOT / f"{name}.json").is_file(), f"a profile declares recording {name!r}, which is not in {ROOT}"


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


@pytest.mark.parametrize("name,expect", [("hf-bleu", "closest profile: bleu/hf-evaluate"),
                                         ("tm-ter", "closest profile: ter/torchmetrics")])
def test_assay_conform_identify_cli(name: str, expect: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The command line says it too: ``assay conform direct:<replay> --identify``. A profile that
    declares the recording (``Profile.recorded``) then runs its recorded answers as its cases: the
    replayed package passes every one, and the report names the package, version and call."""
    from assay.cli.main import main
    code = main(["conform", f"direct:{_spec(name)}", "--identify", "-q"])
    out = capsys.readouterr().out
    assert expect in out, out
    if name == "hf-bleu":
        assert "departs on" not in out and "tie:" not in out, out
        assert code == 0, out
        n = sum(1 for a in load(name)["answers"].values() if "skipped" not in a)   # 1675 (1512 before e2e_sig, 1646 before its empty first slots)
        assert f"expected values of {n} case(s): evaluate 0.4.6, recorded as evaluate.load(" in out, out
        assert out.rstrip().endswith(f"{n} passed, 0 failed, 0 errored, 0 skipped"), out
    else:   # torchmetrics TER: sacrebleu's search on swapped arguments, blocks of at most 9 words (profile knobs)
        assert "departs on" not in out and "tie:" not in out, out
        assert code == 0, out
