"""One pass for a family's measures (:class:`assay.engine.evaluate.Evaluator` ``joint``): ROUGE's four
report measures computed together give exactly the statistics each computes alone.

The comparison is against a plain :class:`Evaluator` (each measure its own pass) on the bundled
report sample, for every ROUGE profile, at corpus and sentence level, plus the configurations
where one pass differs most from another: ROUGE-1.5.5's byte-limited LCS reader (``-b``, read only
when rougeLsum or rougeW is asked for) and the third-party knobs (n-gram sets, union of LCS words,
sentence splits).
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from assay.engine.evaluate import Evaluator
from assay.jobs.compare import VIEWS, _joint_measures, compare
from assay.jobs.report import sample_dir
from assay.profiles.registry import profiles_of

TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
VARIANTS = ({}, {"length_limit_bytes": 75, "byte_limit_lcs": "perl"}, {"length_limit_words": 12},
            {"ngram_counts": "set", "lcs_union": "words", "sentence_split": "period"})


@pytest.fixture(scope="module")
def corpus() -> tuple[list[str], list[list[str]]]:
    d = Path(sample_dir())
    hyps = (d / "hyp.txt").read_text(encoding="utf-8").splitlines()[:60]
    refs = [(d / f"ref{k}.txt").read_text(encoding="utf-8").splitlines()[:60] for k in (1, 2)]
    return hyps, refs


def test_rouge_view_joins_its_types() -> None:
    assert _joint_measures(VIEWS["rouge"]) == {"types": TYPES}
    assert _joint_measures(VIEWS["bleu"]) == {}


@pytest.mark.parametrize("variant", VARIANTS, ids=["defaults", "bytes-perl", "words", "sets"])
@pytest.mark.parametrize("level", ["corpus", "sentence"])
def test_joint_statistics_equal_each_measure_alone(corpus: tuple[list[str], list[list[str]]],
                                                    variant: dict, level: str) -> None:
    hyps, refs = corpus
    joint = Evaluator("rouge", hyps, refs, joint={"types": TYPES})
    alone = Evaluator("rouge", hyps, refs)
    checked = 0
    for prof in profiles_of("rouge"):
        for t in TYPES:
            try:
                cfg = alone.config(prof.name, level, types=(t,), **variant)[0]
                want = alone.stats(cfg)
            except Exception as exc:    # the same configuration must fail the same way jointly
                with pytest.raises(type(exc)):
                    joint.stats(joint.config(prof.name, level, types=(t,), **variant)[0])
                continue
            got = joint.stats(cfg)
            assert got.columns == want.columns
            assert got.rows.flags["C_CONTIGUOUS"]
            np.testing.assert_array_equal(got.rows, want.rows)
            assert joint.value(cfg) == alone.value(cfg)
            np.testing.assert_array_equal(joint.sentence_values(cfg), alone.sentence_values(cfg))
            checked += 1
    assert checked >= 4 * 4
    assert joint.stats_computed < alone.stats_computed


def test_compare_counts_each_rouge_configuration_once(corpus: tuple[list[str], list[list[str]]]) -> None:
    hyps, refs = corpus
    cmp = compare(hyps, refs, ["rouge"])
    distinct = {tuple(sorted((k, repr(v)) for k, v in cmp.evaluators["rouge"].config(p.name)[0].as_dict().items()
                             if k != "types")) for p in profiles_of("rouge")}
    assert cmp.evaluators["rouge"].stats_computed <= len(distinct)
