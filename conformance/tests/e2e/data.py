"""The E2E NLG challenge's test references and primary system outputs, read where they are.

Neither is committed: tuetschek/e2e-eval (the system outputs) states no licence; only numbers
derived from them are (``fixtures/e2e/``). They are read from

- ``$ASSAY_E2E``: a directory holding ``testset_w_refs.csv`` and ``primary/SYSTEM.tsv`` (or the
  two repositories checked out side by side: ``e2e-dataset/`` and ``e2e-eval/``), else
- the fetched bare mirrors ``/work/.mirror/tuetschek+e2e-{dataset,eval}/repo`` (``git show``).

:func:`load` groups them as e2e-metrics' ``measure_scores.py`` does (its documented behaviour,
re-implemented here): the TSV/CSV lines are stripped, blank lines dropped, a few mojibake forms of
``£``/``é`` repaired, rows parsed as CSV (tab-separated when the header has a tab), the header row
dropped; references are grouped by identical MR and ordered as the system's MRs. Reference stream
``i`` holds each MR's ``i``-th reference, ``None`` where it has fewer (the wrapper writes an empty
segment there; the ``nist/e2e-mteval-v13a-sig`` profile counts only non-empty references).

Two primary files (``tnt1``, ``tnt2``) wrap every MR and output in single quotes, so the wrapper
finds no reference for them and stops. The organisers scored them unquoted: their own segment-score
file (``system_outputs/all/tnt/System 1/Primary-Sys1.segscores.tsv``) lists the MRs and outputs
without the quotes. :func:`unquoted` removes them (one leading and one trailing ``'`` of both fields,
only in a file where every data row has them); the regeneration feeds the wrapper that text.
"""
from __future__ import annotations

import csv
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

METRICS_COMMIT = "1b9c4d87fd0bbb171ea966741cdc012588581ed4"
EVAL_COMMIT = "412dcfd59a6152161228077b351ec8eeed2b439e"
DATASET_COMMIT = "ab0d967dd5729ce455ef14ba9ffafc456a335264"
MIRRORS = Path("/work/.mirror")
WHERE = ("set $ASSAY_E2E to a directory with testset_w_refs.csv and primary/*.tsv, or fetch the mirrors "
         "tuetschek/e2e-dataset and tuetschek/e2e-eval")
_FIXES = (("\u0141", "\u00a3"), ("\u00c2\u00a3", "\u00a3"), ("\u00c3\u00a9", "\u00e9"), ("\u00e3\u00a9", "\u00e9"))


@dataclass(frozen=True)
class Source:
    """Where the files are: plain directories, or bare git mirrors read at HEAD."""

    refs: Path            #: testset_w_refs.csv, or the dataset mirror's git dir
    systems_dir: Path     #: the directory of SYSTEM.tsv, or the eval mirror's git dir
    git: bool = False

    def _git(self, repo: Path, *args: str) -> bytes:
        return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=True).stdout

    def reference_bytes(self) -> bytes:
        return self._git(self.refs, "show", "HEAD:testset_w_refs.csv") if self.git else self.refs.read_bytes()

    def systems(self) -> list[str]:
        if self.git:
            names = self._git(self.systems_dir, "ls-tree", "--name-only", "HEAD", "system_outputs/primary/")
            return sorted(Path(n).stem for n in names.decode().split())
        return sorted(p.stem for p in self.systems_dir.glob("*.tsv"))

    def system_bytes(self, name: str) -> bytes:
        if self.git:
            return self._git(self.systems_dir, "show", f"HEAD:system_outputs/primary/{name}.tsv")
        return (self.systems_dir / f"{name}.tsv").read_bytes()


def locate() -> Source | None:
    """The data, or None when it is nowhere to be found."""
    env = os.environ.get("ASSAY_E2E")
    if env:
        root = Path(env)
        for refs, systems in ((root / "testset_w_refs.csv", root / "primary"),
                              (root / "e2e-dataset" / "testset_w_refs.csv",
                               root / "e2e-eval" / "system_outputs" / "primary")):
            if refs.is_file() and systems.is_dir():
                return Source(refs, systems)
        return None
    dataset, evals = MIRRORS / "tuetschek+e2e-dataset" / "repo", MIRRORS / "tuetschek+e2e-eval" / "repo"
    if dataset.is_dir() and evals.is_dir():
        return Source(dataset, evals, git=True)
    return None


def unquoted(raw: bytes) -> tuple[bytes, bool]:
    """``raw`` without the single quotes around both fields of every data row, when every data row
    of the file has them (else unchanged); the flag says whether they were removed."""
    lines = raw.decode("utf-8").splitlines()
    body = [ln for ln in lines[1:] if ln.strip()]
    if not body or not all(_QUOTED.fullmatch(ln.strip()) for ln in body):
        return raw, False
    out = [lines[0]] + [_QUOTED.sub(r"\1\t\2", ln.strip()) if ln.strip() else ln for ln in lines[1:]]
    return ("\n".join(out) + "\n").encode("utf-8"), True


_QUOTED = re.compile(r"'([^\t]*)'\t'([^\t]*)'")


def rows(raw: bytes) -> list[list[str]]:
    """The CSV/TSV rows after the wrapper's line clean-up, header dropped."""
    lines = [ln.strip() for ln in raw.decode("utf-8").splitlines()]
    if lines:
        lines[0] = lines[0].replace("\ufeff", "")
    for bad, good in _FIXES:
        lines = [ln.replace(bad, good) for ln in lines]
    lines = [ln for ln in lines if ln]
    if not lines:
        return []
    return list(csv.reader(lines, delimiter="\t" if "\t" in lines[0] else ","))[1:]


def load(source: Source, name: str) -> tuple[list[str], list[list[str | None]]]:
    """(outputs, reference streams) of one primary system, in the system file's order."""
    by_mr: dict[str, list[str]] = {}
    for mr, ref in rows(source.reference_bytes()):
        by_mr.setdefault(mr, []).append(ref)
    system = rows(unquoted(source.system_bytes(name))[0])
    refs = [by_mr[mr] for mr, _ in system]
    width = max(map(len, refs))
    streams = [[r[i] if i < len(r) else None for r in refs] for i in range(width)]
    return [out for _, out in system], streams
