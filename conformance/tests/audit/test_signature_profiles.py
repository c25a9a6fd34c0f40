"""A signature read back names its profile through profile data (``Profile.signature_grammar``),
never through profile names written in the audit's code.

The signatures are the ones each sacrebleu profile prints (the strings sacrebleu 2.x / 1.x print,
checked against the live tools by test_audit.py and fixtures/audit/signatures.json).
"""
from __future__ import annotations

import pytest

from assay.engine.api import make_config
from assay.jobs.audit.signatures import parse_signature
from assay.output import presenter
from assay.profiles.registry import profiles_of

SIGNATURE_METRICS = ("bleu", "chrf", "ter")


def _printed_signature(metric: str, profile) -> str:
    """The signature the profile's tool prints for its own defaults (sacrebleu 1.x prints TER's
    after ``TER+``)."""
    config, _ = make_config(metric, profile.name)
    text = presenter(metric).signature(config, profile.name, "1", profile.tool_version)
    return "TER+" + text if metric == "ter" and profile.signature_grammar == "sacrebleu1" else text


def test_every_metric_with_signatures_has_profiles_for_both_grammars() -> None:
    for metric in SIGNATURE_METRICS:
        grammars = {p.signature_grammar for p in profiles_of(metric)}
        assert {"sacrebleu2", "sacrebleu1"} <= grammars, (metric, grammars)


@pytest.mark.parametrize("metric", SIGNATURE_METRICS)
def test_printed_signature_reads_back_as_its_profile(metric: str) -> None:
    for profile in profiles_of(metric):
        if not profile.signature_grammar:
            continue
        text = _printed_signature(metric, profile)
        parsed = parse_signature(text, metric)
        assert parsed.profile == profile.name, (text, parsed.profile)
        assert parsed.grammar == profile.signature_grammar


@pytest.mark.parametrize("text, profile", [
    ("chrF2++|nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.0.0", "sacrebleu-chrf++"),
    ("chrF2|nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:2.0.0", "sacrebleu"),
    ("nrefs:1|case:mixed|eff:yes|nc:6|nw:1|space:no|version:2.0.0", "sacrebleu"),
    ("chrF2+numchars.6+space.false+version.1.5.1", "sacrebleu@1"),
    ("nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:1.5.1", "sacrebleu@1"),
    ("BLEU+case.mixed+numrefs.1+smooth.exp+tok.13a+version.1.5.1", "sacrebleu@1"),
    ("TER+tok.tercom-nonorm-punct-noasian-uncased+version.1.5.1", "sacrebleu@1"),
    ("nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:2.0.0", "sacrebleu"),
])
def test_signature_selects_the_profile_whose_knobs_agree(text: str, profile: str) -> None:
    assert parse_signature(text).profile == profile
