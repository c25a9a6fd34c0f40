"""``assay report``: discrepancy reports (one HTML file with inline plots (SVG charts: scores,
waterfalls, distributions, scatter) and a segment explorer, Markdown with the plots as files, JSON summary).

- :func:`build_report` (``build.py``): compare, attribute, plot and write one corpus (the
  :class:`Report` of ``model.py``, written by ``render.py``); its summary (spread, most divergent
  pair, main knob per measure) is made by ``summary.py``.
- ``corpora.py`` / ``corpora_rank.py``: ``report --corpora``: every corpus and every system in it,
  the systems' rankings per profile (rank changes, Kendall's tau-b).
- :func:`sample_dir`: the bundled sample corpus (``fixtures/report_sample``, written by
  ``conformance/generate_report_sample.py``), used when ``assay report`` gets no input.
- :func:`discover_corpus`: a hypothesis file and its aligned reference files in a directory.
"""
from __future__ import annotations

from pathlib import Path

from assay.core.errors import InputError
from assay.core.paths import bundled_fixture_dirs
from assay.jobs.report.build import build_report
from assay.jobs.report.model import Report

__all__ = ["Report", "build_report", "sample_dir", "discover_corpus"]


def sample_dir() -> Path:
    """``fixtures/report_sample``: inside an installed wheel (``assay/_fixtures``) or the checkout."""
    for candidate in (root / "report_sample" for root in bundled_fixture_dirs()):
        if (candidate / "hyp.txt").is_file():
            return candidate
    raise InputError("the bundled sample corpus (fixtures/report_sample) is not installed; pass -i/-r or --corpus")


def _line_count(path: Path) -> int:
    with path.open("rb") as fh:
        return sum(1 for _ in fh)


def discover_corpus(directory: str | Path, system: str | None = None) -> tuple[Path, list[Path]]:
    """The hypothesis file (``system`` if given, else the first ``*hyp*`` file by name) and every
    ``*ref*`` file with the same number of lines, in ``directory``."""
    root = Path(directory)
    if not root.is_dir():
        raise InputError(f"{root}: not a directory")
    files = sorted(p for p in root.iterdir() if p.is_file())
    hyps = [p for p in files if "hyp" in p.name.lower()]
    if system:
        hyps = [p for p in hyps if system in p.name]
    if not hyps:
        raise InputError(f"{root}: no hypothesis file (a file with 'hyp' in its name"
                         + (f" and {system!r}" if system else "") + ")")
    hyp = hyps[0]
    n = _line_count(hyp)
    refs = [p for p in files if "ref" in p.name.lower() and p not in hyps and p.suffix not in (".json", ".tsv")
            and _line_count(p) == n]
    if not refs:
        raise InputError(f"{root}: no reference file ('ref' in its name) with {n} lines like {hyp.name}")
    return hyp, refs
