"""compare/report show a ROUGE measure only for the profiles whose tool prints it, as the profile's
data says (its own ``types`` plus ``Profile.reported_measures``):

- rouge-score computes any type it is asked for: rouge1, rouge2, rougeL and rougeLsum;
- ROUGE-1.5.5.pl (-n 2) prints ROUGE-1, ROUGE-2 and its ROUGE-L, which is rougeLsum (summary level);
- pycocoevalcap's Rouge prints ROUGE_L only.
"""
from __future__ import annotations

from pathlib import Path

from assay.jobs.compare import compare

SAMPLE = Path(__file__).resolve().parents[3] / "fixtures" / "sample"
PRINTED = {
    "rouge-score": {"rouge1", "rouge2", "rougeL", "rougeLsum"},
    "rouge-1.5.5": {"rouge1", "rouge2", "rougeLsum"},
    "coco": {"rougeL"},
}


def test_rouge_rows_are_the_measures_each_tool_prints() -> None:
    hyps = (SAMPLE / "hyp.txt").read_text(encoding="utf-8").splitlines()[:8]
    refs = [(SAMPLE / "ref1.txt").read_text(encoding="utf-8").splitlines()[:8]]
    cmp = compare(hyps, refs, ["rouge"])
    shown: dict[str, set[str]] = {}
    for table in cmp.tables:
        for row in table.rows:
            if not (row.reason or "").endswith(f"does not report {table.measure.label}"):
                shown.setdefault(row.profile, set()).add(table.measure.label)
    assert {p: shown.get(p, set()) for p in PRINTED} == PRINTED
