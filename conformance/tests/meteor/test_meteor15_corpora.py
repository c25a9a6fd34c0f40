"""Acceptance of meteor/meteor-1.5 on every English-target corpus in ../shared/corpora (skipped when
absent; `tox -e refs-slow`): one jar process per corpus over -stdio (as pycocoevalcap drives it) vs
assay on the same raw text. At least 99.5% of segment scores equal the jar's printed double exactly
(the rest differ by KD-METEOR-01's last bit of Java's Math.pow, so every segment is within 1e-12), and
the corpus score equals the jar's to 4 decimals (here: within 1e-12)."""
from __future__ import annotations

from pathlib import Path

import pytest

pytestmark = [pytest.mark.refs, pytest.mark.slow, pytest.mark.corpora]


def _corpora(root: Path):
    from conformance.bench.meteor15 import corpora
    return list(corpora(root))


def test_every_corpus_against_jar(corpora_dir: Path) -> None:
    from conformance.bench.meteor15 import assay_scores, jar_scores
    from conformance.references import meteor15_ref
    from conformance.references.availability import missing
    reason = meteor15_ref.available()
    if reason:
        missing(reason)
    found = _corpora(corpora_dir)
    assert found, "no English-target corpus found"
    for name, hyps, refs in found:
        jar_seg, jar_corpus, _ = jar_scores(hyps, refs)
        seg, corpus, _ = assay_scores(hyps, refs)
        equal = sum(a == b for a, b in zip(seg, jar_seg))
        close = sum(abs(a - b) <= 1e-12 * max(abs(b), 1e-300) for a, b in zip(seg, jar_seg))
        assert equal >= 0.995 * len(jar_seg), f"{name}: {equal}/{len(jar_seg)} segments equal the jar"
        assert close == len(jar_seg), f"{name}: {len(jar_seg) - close} segments differ beyond the last bit"
        assert abs(corpus - jar_corpus) <= 1e-12, (name, corpus, jar_corpus)
