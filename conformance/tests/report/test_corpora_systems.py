"""``assay report --corpora``: every system of every corpus is ranked under every profile (rank
changes, Kendall's tau-b between profiles), next to the corpus report and in the index."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from assay.cli.main import main
from assay.jobs.report import sample_dir
from assay.jobs.report.corpora_rank import kendall_tau, ranks


def test_kendall_tau_by_hand() -> None:
    """Worked by hand: 3 pairs; [1,2,3] vs [1,3,2]: 2 concordant, 1 discordant -> 1/3. Ties (tau-b):
    [1,1,2] vs [1,2,3]: C=2, D=0, tied in x 1 -> 2 / sqrt(2 * 3)."""
    assert kendall_tau([1, 2, 3], [1, 2, 3]) == 1.0
    assert kendall_tau([1, 2, 3], [3, 2, 1]) == -1.0
    assert kendall_tau([1, 2, 3], [1, 3, 2]) == pytest.approx(1 / 3)
    assert kendall_tau([1, 1, 2], [1, 2, 3]) == pytest.approx(2 / 6 ** 0.5)
    assert kendall_tau([1, 1], [1, 2]) is None and kendall_tau([5], [5]) is None
    assert ranks({"a": 3.0, "b": 5.0, "c": 3.0}) == {"a": 2, "b": 1, "c": 2}
    assert ranks({"a": 3.0, "b": 5.0}, lower_is_better=True) == {"a": 1, "b": 2}


def test_every_system_of_every_corpus_is_ranked(tmp_path: Path, capsys) -> None:
    lines = (sample_dir() / "hyp.txt").read_text(encoding="utf-8").splitlines()
    refs = (sample_dir() / "ref1.txt").read_text(encoding="utf-8").splitlines()
    root = tmp_path / "corpora"
    for corpus, systems in (("one", 1), ("many/en-de", 4)):
        d = root / corpus
        d.mkdir(parents=True)
        (d / "ref.txt").write_text("\n".join(refs[:30]) + "\n", encoding="utf-8")
        for k in range(systems):   # different 30-line slices: systems of different quality
            (d / f"test.hyp.sys{k}.txt").write_text("\n".join(lines[30 * k:30 * k + 30]) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["report", "--corpora", str(root), "-o", str(out), "-m", "bleu,ter", "--no-progress",
                 "--max-players", "4", "--index", str(out / "index.md")]) == 0
    printed = capsys.readouterr()
    assert "2 corpus report(s), 5 system(s) ranked" in printed.err
    doc = json.loads((out / "many-en-de" / "systems.json").read_text(encoding="utf-8"))
    assert doc["systems"] == [f"test.hyp.sys{k}.txt" for k in range(4)]
    bleu = next(r for r in doc["rankings"] if r["metric"] == "bleu")
    for profile, scores in bleu["scores"].items():
        assert sorted(scores) == ["sys0", "sys1", "sys2", "sys3"], profile      # every system, short names
        assert sorted(bleu["ranks"][profile].values())[0] == 1
    assert len(bleu["kendall_tau"]) == len(bleu["scores"]) * (len(bleu["scores"]) - 1) // 2
    ter = next(r for r in doc["rankings"] if r["metric"] == "ter")
    assert ter["lower_is_better"] is True
    md = (out / "many-en-de" / "systems.md").read_text(encoding="utf-8")
    assert "Kendall tau-b" in md and "| sys3 " in md
    assert (out / "many-en-de" / "report.md").is_file() and (out / "one" / "systems.json").is_file()
    summary = json.loads((out / "many-en-de" / "summary.json").read_text(encoding="utf-8"))
    assert "first of 4 system(s)" in summary["source"]
    index = (out / "index.md").read_text(encoding="utf-8")
    assert "Does the ranking of systems change between tools?" in index
    assert re.search(r"\[many-en-de\]\(many-en-de/systems\.md\) *\| *4 *\| *bleu BLEU *\|", index)
