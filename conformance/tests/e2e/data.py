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

The published numbers are the challenge page's "Automatic Metrics" table (tuetschek/e2e_challenge_web
``index.html``, read by :func:`challenge_page` from ``$ASSAY_E2E_WEB`` or the fetched mirror);
:func:`published_rows` reads it as printed; :data:`PRIMARY_LABELS` names each primary row's output
and :data:`SUBMISSION_FILES` each other row's submitted file (:func:`load_submission` reads those).
"""
from __future__ import annotations

import csv
import html
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

METRICS_COMMIT = "1b9c4d87fd0bbb171ea966741cdc012588581ed4"
WEB_COMMIT = "2798c1c39de09f2d9c74809092ab5894f9e3d947"     #: tuetschek/e2e_challenge_web (the challenge's page)
EVAL_COMMIT = "412dcfd59a6152161228077b351ec8eeed2b439e"
DATASET_COMMIT = "ab0d967dd5729ce455ef14ba9ffafc456a335264"
MIRRORS = Path("/work/.mirror")
WHERE = ("set $ASSAY_E2E to a directory with testset_w_refs.csv and primary/*.tsv, or fetch the mirrors "
         "tuetschek/e2e-dataset and tuetschek/e2e-eval")
WEB_REPO = "tuetschek/e2e_challenge_web"
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

    def submission_bytes(self, path: str) -> bytes:
        """A submission as sent (``system_outputs/all/PATH``; beside ``primary/`` for directories)."""
        if self.git:
            return self._git(self.systems_dir, "show", f"HEAD:system_outputs/all/{path}")
        return (self.systems_dir.parent / "all" / path).read_bytes()


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


def _references(source: Source) -> dict[str, list[str]]:
    by_mr: dict[str, list[str]] = {}
    for mr, ref in rows(source.reference_bytes()):
        by_mr.setdefault(mr, []).append(ref)
    return by_mr


def load(source: Source, name: str) -> tuple[list[str], list[list[str | None]]]:
    """(outputs, reference streams) of one primary system, in the system file's order."""
    return _grouped(_references(source), rows(unquoted(source.system_bytes(name))[0]))


def load_submission(source: Source, path: str) -> tuple[list[str], list[list[str | None]]]:
    """(outputs, reference streams) of a submission as sent (``system_outputs/all/PATH``), read as the
    organisers scored it: most submissions have no header row, and the copies the wrapper scored had
    one (the primary files show the ``MR<TAB>output`` header the organisers added), so a first row
    whose MR is a test MR is data; quotes around every field are removed (``tnt``); a byte-order
    mark is dropped."""
    by_mr = _references(source)
    text = source.submission_bytes(path).decode("utf-8").replace("\ufeff", "")
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if lines and all(_QUOTED.fullmatch(ln.strip()) for ln in lines):
        lines = [_QUOTED.sub(r"\1\t\2", ln.strip()) for ln in lines]
    every = rows("\n".join(["MR\toutput", *lines]).encode("utf-8"))    # every line read as data
    return _grouped(by_mr, every if every and every[0][0] in by_mr else every[1:])


def _grouped(by_mr: dict[str, list[str]], system: list[list[str]]) -> tuple[list[str], list[list[str | None]]]:
    refs = [by_mr[mr] for mr, _ in system]
    width = max(map(len, refs))
    streams = [[r[i] if i < len(r) else None for r in refs] for i in range(width)]
    return [out for _, out in system], streams


# ----------------------------------------------------------------------------- the published table
#: the challenge page's "System name" of each primary row -> the label of its output in tuetschek/e2e-eval
#: (``system_outputs/primary/LABEL.tsv``; the e2e-eval README's label table names team and system)
PRIMARY_LABELS = {
    "Baseline": "tgen", "bzhang_submit": "zhang", "Primary_NonAbstract-beam1": "chen", "primary_1": "zhaw1",
    "primary_2": "zhaw2", "E2E_UPF_1": "forge1", "E2E_UPF_3": "forge3", "sheffield_primarySystem1_var1": "sheff1",
    "sheffield_primarySystem2_var1": "sheff2", "Primary_main_1": "harv", "Primary_test_2": "gong",
    "primary_submission-temperature_1.1": "adapt", "submission_primary": "nle", "Slug2Slug": "slug",
    "Slug2Slug-alt (late submission)": "slug-alt", "Primary_1_submission_6_beam": "tr1",
    "Primary_2_test_train_dev": "tr2", "System 1/Primary-Sys1": "tnt1", "System 2/Primary-Sys2": "tnt2",
    "test_e2e_result_2 final_TSV": "dangnt", "test_e2e-Puzikov": "tuda",
}
#: the page's "System name" of each other (not primary) row -> its file under e2e-eval ``system_outputs/all/``
SUBMISSION_FILES = {
    "Abstract-beam1": "chen/Abstract-beam1.tsv", "Abstract-beam2": "chen/Abstract-beam2.tsv",
    "Abstract-beam3": "chen/Abstract-beam3.tsv", "Abstract-greedy": "chen/Abstract-greedy.tsv",
    "NonAbstract-beam2": "chen/NonAbstract-beam2.tsv", "NonAbstract-beam3": "chen/NonAbstract-beam3.tsv",
    "base": "zhaw/ZHAW_base.tsv", "E2E_UPF_2": "forge/E2E_UPF_2.tsv",
    "sheffield_primarySystem1_var2": "sheff/sheffield_primarySystem1_var2.tsv",
    "sheffield_primarySystem1_var3": "sheff/sheffield_primarySystem1_var3.tsv",
    "sheffield_primarySystem1_var4": "sheff/sheffield_primarySystem1_var4.tsv",
    "sheffield_primarySystem2_var2": "sheff/sheffield_primarySystem2_var2.tsv",
    "main_1_support_1": "harv/main_1_support_1.tsv", "main_1_support_2": "harv/main_1_support_2.tsv",
    "main_1_support_3": "harv/main_1_support_3.tsv", "test_1": "gong/test_1.tsv", "test_3": "gong/test_3.tsv",
    "test_4": "gong/test_4.tsv",
    "supporting_submission-temperature_0.9":
        "adapt/supporting_submission_checkpoints-boole-n021-gpu_1-temperature_0.9.tsv",
    "supporting_submission-temperature_1.0":
        "adapt/supporting_submission_checkpoints-boole-n021-gpu_1-temperature_1.0.tsv",
    "submission_second": "nle/submission_second.tsv", "submission_third": "nle/submission_third.tsv",
    **{f"NonPrimary_{n}_{rest}": f"tr/NonPrimary_{n}_Thomson_Reuters_{rest}.tsv" for n, rest in (
        (1, "test_output_model_11_post"), (2, "test_output_model_13_post"), (3, "test_output_beam_5_model_11_post"),
        (4, "test_output_beam_5_model_13_post"), (5, "submission_6"), (6, "submission_4_beam"),
        (7, "submission_4"), (8, "test_train_only"))},
    "System 1/Sys1-Model1": "tnt/System 1/Sys1-Model1.tsv", "System 2/Sys2-Model1": "tnt/System 2/Sys2-Model1.tsv",
    "System 2/Sys2-Model2": "tnt/System 2/Sys2-Model2.tsv", "System 2/Sys2-Model3": "tnt/System 2/Sys2-Model3.tsv",
}
_ROW = re.compile(r"<tr(?: class=\"late\")?><td>(.*?)</td><td>(.*?)</td><td>(.*?)</td><td>(\u2713?)</td>"
                  r"((?:<td>[0-9.]+</td>){5})</tr>")
_METRICS = ("BLEU", "NIST", "METEOR", "ROUGE_L", "CIDEr")


def challenge_page() -> str | None:
    """The challenge page's HTML (``index.html`` of tuetschek/e2e_challenge_web at :data:`WEB_COMMIT`):
    ``$ASSAY_E2E_WEB`` (a checkout or the file itself), else the fetched mirror; None when absent."""
    env = os.environ.get("ASSAY_E2E_WEB")
    if env:
        path = Path(env)
        path = path / "index.html" if path.is_dir() else path
        return path.read_text(encoding="utf-8") if path.is_file() else None
    repo = MIRRORS / WEB_REPO.replace("/", "+") / "repo"
    if not repo.is_dir():
        return None
    proc = subprocess.run(["git", "-C", str(repo), "show", f"{WEB_COMMIT}:index.html"], capture_output=True)
    return proc.stdout.decode("utf-8") if proc.returncode == 0 else None


def published_rows(page: str) -> list[dict[str, str]]:
    """The rows of the page's "Automatic Metrics" table, as printed: submitter, affiliation, system
    name, whether primary ("P?" ticked), and the five values (strings, 4 decimals)."""
    out = []
    for submitter, affiliation, system, primary, cells in _ROW.findall(page):
        values = re.findall(r"<td>([0-9.]+)</td>", cells)
        row = {"submitter": html.unescape(submitter), "affiliation": html.unescape(affiliation),
               "system": html.unescape(system), "primary": bool(primary)}
        row.update(zip(_METRICS, values))
        out.append(row)
    return out
