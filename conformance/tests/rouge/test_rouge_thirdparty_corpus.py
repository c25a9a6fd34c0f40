"""The third-party ROUGE profiles against the live packages on real summaries: the 2,500 REALSumm
CNN/DM system summaries (``../shared/corpora/realsumm-cnndm``, 25 systems x 100 articles, one
reference each; ``<t> ... </t>`` sentences joined by a space for pltrdy rouge and rouge-chinese, by
newlines for py-rouge's summary-level rouge-l and for sumeval).

Every document's P, R and F of each measure must be the package's to 1e-9 (relative). py-rouge is
compared with ``exceptions_path`` at its installed package directory (its own stem table, special
cases included); with the default table one summary differs (``incredibly``, a special case: see
:mod:`assay.metrics.rouge.text`). Run in the ``thirdparty`` env (/tmp/tp here).
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Callable

import pytest

import assay
from conformance.tests.rouge.test_rouge_thirdparty import _package

pytestmark = [pytest.mark.thirdparty, pytest.mark.corpora]

_T = re.compile(r"<t>(.*?)</t>")
LCS = {"pltrdy": "rougeLsum", "rouge-chinese": "rougeL", "py-rouge": "rougeLsum"}


def _documents(folder: Path) -> list[tuple[list[str], list[str]]]:
    def sentences(line: str) -> list[str]:
        return [s.strip() for s in _T.findall(line)] or [line.strip()]
    out = []
    for part in ("abs", "ext"):
        refs = [sentences(x) for x in (folder / part / "ref.txt").read_text(encoding="utf-8").splitlines()]
        for hyp_file in sorted((folder / part).glob("hyp.*.txt")):
            hyps = [sentences(x) for x in hyp_file.read_text(encoding="utf-8").splitlines()]
            out += list(zip(hyps, refs))
    return out


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1e-300) or a == b


@pytest.mark.parametrize("setup", ["pltrdy", "rouge-chinese", "py-rouge", "sumeval"])
def test_profiles_equal_packages_on_realsumm(corpora_dir: Path, setup: str) -> None:
    folder = corpora_dir / "realsumm-cnndm"
    if not folder.is_dir():
        pytest.skip(f"{folder} is absent")
    docs = _documents(folder)
    assert len(docs) == 2500
    joiner = " " if setup in ("pltrdy", "rouge-chinese") else "\n"
    hyps = [joiner.join(h) for h, _ in docs]
    refs = [joiner.join(r) for _, r in docs]
    if setup == "sumeval":
        try:
            from sumeval.metrics.rouge import RougeCalculator
        except ImportError as exc:
            from conformance.references.availability import missing
            missing(f"sumeval is not installed ({exc})")
        calc = RougeCalculator(lang="en")

        def call(h: str, r: str) -> dict[str, Any]:
            return {"rouge1": calc.rouge_n(h, [r], 1), "rouge2": calc.rouge_n(h, [r], 2),
                    "rougeL": calc.rouge_l(h, [r])}
        profile, knobs = "sumeval", {}
    else:
        package: Callable[[str, str], dict[str, Any]] = _package(setup)

        def call(h: str, r: str) -> dict[str, Any]:
            names = {"rouge-1": "rouge1", "rouge-2": "rouge2", "rouge-l": LCS[setup]}
            return {names[k]: [v["p"], v["r"], v["f"]] for k, v in package(h, r).items()}
        profile = "pltrdy-rouge" if setup == "pltrdy" else setup
        knobs = {"exceptions_path": str(Path(os.environ.get("PY_ROUGE_PATH", "/tmp/conform_pyrouge")) / "rouge")} \
            if setup == "py-rouge" else {}
    scores = assay.sentence_scores("rouge", hyps, [refs], profile, **knobs)
    bad = []
    for i, (h, r, s) in enumerate(zip(hyps, refs, scores)):
        for t, want in call(h, r).items():
            got = [s.components[t][k] for k in "prf"] if isinstance(want, list) else s.components[t]["f"]
            pairs = zip(got, want) if isinstance(want, list) else [(got, want)]
            if not all(_close(a, b) for a, b in pairs):
                bad.append((i, t, want, got))
    assert not bad, f"{len(bad)} differ: {bad[:5]}"
