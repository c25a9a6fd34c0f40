"""Job grids on Dask (issue 19, part 2): ``assay audit --table``, ``compare``, ``report --corpora``,
``significance`` and ``conform`` with ``--engine dask`` print (and write) exactly what the default
engine does, on the shared LocalCluster of 2 worker processes (``--scheduler``; conftest.py).

Expected output is the single-process command's own, run in the same test on the same small inputs
(fixtures/sample, fixtures/report_sample, a claims table and a corpora folder built in tmp, a
conformance suite selection with failures and expected failures); stderr is compared without the
dashboard line. The significance draws are also checked block by block against one draw.
"""
from __future__ import annotations

import filecmp
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from assay.cli.main import main
from assay.jobs import significance as sig
from assay.jobs.significance_blocks import draw_blocks

CLIENTS = Path(__file__).resolve().parents[2] / "examples" / "conform_clients"
DASHBOARD = re.compile(r"^assay: Dask dashboard: .*\n", re.M)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, DASHBOARD.sub("", err)


@pytest.fixture
def on_cluster(dask_client: Any) -> list[str]:
    """The options that join the shared cluster (both of its workers up)."""
    dask_client.wait_for_workers(2, timeout=60)
    return ["--engine", "dask", "--scheduler", dask_client.scheduler_info()["address"], "--no-progress"]


def _same(capsys: pytest.CaptureFixture[str], on_cluster: list[str], *argv: str) -> tuple[int, str, str]:
    """Run ``argv`` on both engines; assert the exit code, stdout and stderr are equal."""
    single = _run(capsys, *argv)
    dask = _run(capsys, *argv, *on_cluster)
    assert dask == single
    return single


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory, repo_root: Path) -> Path:
    """fixtures/sample, with a third system (every hypothesis without its last word)."""
    out = tmp_path_factory.mktemp("sample")
    for name in ("hyp", "ref1", "ref2"):
        shutil.copy(repo_root / "fixtures" / "sample" / f"{name}.txt", out / f"{name}.txt")
    lines = (out / "hyp.txt").read_text(encoding="utf-8").splitlines()
    (out / "short.txt").write_text("".join(" ".join(s.split()[:-1]) + "\n" for s in lines), encoding="utf-8")
    return out


# ----------------------------------------------------------------------------- audit
def test_audit_table(capsys, on_cluster, corpus):
    table = corpus / "claims.tsv"
    table.write_text("system\treferences\tmetric\tvalue\tsignature\n"
                     "hyp.txt\tref1.txt,ref2.txt\tBLEU\t51.4\tnrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:2.6.0\n"
                     "hyp.txt\tref1.txt\tchrF2\t60.0\t\n"
                     "short.txt\tref1.txt ref2.txt\tTER\t50.0\t\n"
                     "hyp.txt\tref1.txt,ref2.txt\tBLEU\t47.31\t\n"
                     "hyp.txt\tref1.txt,ref2.txt\tBLEU\t999.9\t\n", encoding="utf-8")
    code, out, _ = _same(capsys, on_cluster, "audit", "--table", str(table), "--no-preprocessing", "-f", "json")
    assert code == 0 and out.count('"verdict"') == 5 and '"not-reproducible"' in out
    _same(capsys, on_cluster, "audit", "--table", str(table), "--no-preprocessing", "-f", "markdown")
    _same(capsys, on_cluster, "audit", "-i", str(corpus / "hyp.txt"), "-r", str(corpus / "ref1.txt"),
          "--claim", "BLEU 30.1", "--claim", "chrF2 50.2", "--no-preprocessing")


# ----------------------------------------------------------------------------- compare, report
def test_compare_with_attribution(capsys, on_cluster, corpus):
    inputs = ["-i", str(corpus / "hyp.txt"), "-r", str(corpus / "ref1.txt"), str(corpus / "ref2.txt")]
    code, out, _ = _same(capsys, on_cluster, "compare", *inputs, "-m", "bleu,chrf,ter,rouge", "--attribute",
                         "sacrebleu", "nltk", "-f", "json")
    assert code == 0 and '"attributions"' in out
    _same(capsys, on_cluster, "compare", *inputs, "-m", "bleu,nist,cider", "-f", "markdown")
    code, _, err = _same(capsys, on_cluster, "compare", *inputs, "-m", "ter", "--attribute", "nltk", "coco")
    assert code == 2 and "no compared metric has scores for both profiles" in err


def _corpora(root: Path, repo_root: Path) -> Path:
    """Two corpora (one of them nested), and one whose reference has another line count."""
    sample, big = repo_root / "fixtures" / "sample", repo_root / "fixtures" / "report_sample"
    for d, source, n in ((root / "a", sample, None), (root / "year" / "b", big, 120), (root / "c", sample, None)):
        d.mkdir(parents=True)
        for name in ("hyp", "ref1", "ref2"):
            lines = (source / f"{name}.txt").read_text(encoding="utf-8").splitlines(keepends=True)
            (d / f"{name}.txt").write_text("".join(lines[:n]), encoding="utf-8")
    (root / "c" / "ref2.txt").write_text("one line\n", encoding="utf-8")    # not aligned: reference dropped
    (root / "c" / "ref1.txt").write_bytes(b"\xff\xfe bad utf-8\n" * 40)      # unreadable: not reported
    return root


def test_report_corpora_writes_the_same_files(capsys, on_cluster, tmp_path, repo_root):
    root = _corpora(tmp_path / "corpora", repo_root)
    single, dask = _both(capsys, on_cluster, tmp_path, "report", "--corpora", str(root), "-m", "ter,chrf", "--top", "3")
    assert single[0] == 0 and "2 corpus report(s)" in single[2] and "c: not reported" in single[2]
    assert single[1].count("index.html") == 2


def _both(capsys: pytest.CaptureFixture[str], on_cluster: list[str], tmp_path: Path, *argv: str
          ) -> tuple[tuple[int, str, str], tuple[int, str, str]]:
    """A report command on both engines, into two output folders: the same output and the same files."""
    single = _run(capsys, *argv, "-o", str(tmp_path / "single"))
    dask = _run(capsys, *argv, "-o", str(tmp_path / "dask"), *on_cluster)
    assert (single[0], *(s.replace(str(tmp_path / "single"), "OUT") for s in single[1:])) == \
           (dask[0], *(s.replace(str(tmp_path / "dask"), "OUT") for s in dask[1:]))
    _same_tree(tmp_path / "single", tmp_path / "dask")
    return single, dask


def _same_tree(a: Path, b: Path) -> None:
    files_a = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    assert files_a == sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    assert any(p.suffix == ".svg" for p in files_a)
    for rel in files_a:
        assert filecmp.cmp(a / rel, b / rel, shallow=False), rel


def test_report_of_one_corpus(capsys, on_cluster, tmp_path, corpus):
    single, _ = _both(capsys, on_cluster, tmp_path, "report", "-i", str(corpus / "hyp.txt"), "-r",
                      str(corpus / "ref1.txt"), "-m", "ter,cider", "--no-text")
    assert single[0] == 0 and single[1].count("OUT") == 0 and "summary.json" in single[1]


# ----------------------------------------------------------------------------- significance
@pytest.mark.parametrize("argv", [
    ["bleu,chrf,ter", "--paired-bs", "-n", "333", "-f", "json"],
    ["bleu,chrf,ter/sacrebleu@1,rouge", "--paired-ar", "-n", "1001"],
    ["cider,meteor/nltk", "--paired-bs", "-n", "130", "--seed", "7"],
], ids=["bs", "ar", "float-rows"])
def test_paired_tests(capsys, on_cluster, corpus, argv):
    systems = [str(corpus / f) for f in ("hyp.txt", "ref1.txt", "short.txt")]
    code, out, _ = _same(capsys, on_cluster, "significance", argv[0], "-i", *systems, "-r", str(corpus / "ref2.txt"),
                         *argv[1:])
    assert code == 0 and "short.txt" in out


def test_confidence_and_errors(capsys, on_cluster, corpus):
    inputs = ["-i", str(corpus / "hyp.txt"), "-r", str(corpus / "ref1.txt"), str(corpus / "ref2.txt")]
    code, out, _ = _same(capsys, on_cluster, "significance", "bleu,chrf,ter,rouge,ter/sacrebleu@1", *inputs,
                         "--confidence", "-n", "200")
    assert code == 0 and out.count("μ =") == 5
    code, _, err = _same(capsys, on_cluster, "significance", "bleu,chrf/nltk", *inputs, "--confidence", "-n", "50")
    assert code == 2 and "takes at most 1 reference" in err
    code, _, err = _same(capsys, on_cluster, "significance", "bleu/nltk", *inputs[:4], "--confidence",
                         "--set", "smoothing=method5")
    assert code == 2 and "no resampling" in err


@pytest.mark.parametrize("kind", ["bs", "ar"])
@pytest.mark.parametrize("n_segments", [1, 7, 33])
def test_draw_blocks_are_the_rows_of_one_draw(kind, n_segments):
    from assay.engine.dask_engine.session import spans
    for n_samples, parts in ((1, 3), (64, 2), (65, 2), (1000, 7), (1001, 4)):
        whole = sig.draw(kind, n_segments, n_samples, 12345)
        blocks = list(draw_blocks(kind, n_segments, 12345, spans(n_samples, parts, align=sig.FLOAT32_CHUNK)))
        assert np.array_equal(np.vstack([b.draws() for b in blocks]), whole)
        assert all(b.start % sig.FLOAT32_CHUNK == 0 for b in blocks)


def test_float64_sums_of_float_rows_do_not_depend_on_the_blocks():
    rng = np.random.default_rng(3)
    rows = rng.random((300, 4))
    idx = sig.bootstrap_indices(300, 100, 5)
    whole = sig.float64_sums(rows, sig.resample_counts(idx))
    parts = [sig.float64_sums(rows, sig.resample_counts(idx[a:a + k])) for a, k in ((0, 1), (1, 63), (64, 36))]
    assert np.array_equal(np.vstack(parts), whole)
    masks = sig.ar_swap_masks(300, 100, 5)
    first, second = sig.ar_sums(rows, rows[::-1], masks)
    f1, s1 = sig.ar_sums(rows, rows[::-1], masks[:1])
    assert np.array_equal(f1, first[:1]) and np.array_equal(s1, second[:1])


# ----------------------------------------------------------------------------- conform
def test_conform_verdicts_and_exit_code(capsys, on_cluster, tmp_path):
    expect_fail = tmp_path / "expected.txt"
    expect_fail.write_text("bleu/research_sacrebleu/*1*\nbleu/nomatch/*\n", encoding="utf-8")
    broken = f"cmd:python {CLIENTS / 'broken_client.py'} --mode wrong-clipping"
    code, out, _ = _same(capsys, on_cluster, "conform", broken, "--metric", "bleu", "--run", "bleu/research_sacrebleu/*",
                         "--expect-fail", str(expect_fail), "--max-listed", "100")
    assert code == out.count("\nFAIL ") > 0 and "expected failures" in out and "matched no case" in out
    code, out, _ = _same(capsys, on_cluster, "conform", "direct:assay.jobs.conform.assay_impl:profiles[chrf/nltk]",
                         "--metric", "chrf", "-v")
    assert code == 0 and out.count("\nPASS ") > 10


# ----------------------------------------------------------------------------- without Dask
def _commands(corpus: Path, out: Path) -> list[list[str]]:
    hyp, ref = str(corpus / "hyp.txt"), str(corpus / "ref1.txt")
    return [["significance", "ter", "-i", hyp, str(corpus / "short.txt"), "-r", ref, "--paired-bs", "-n", "64"],
            ["compare", "-i", hyp, "-r", ref, "-m", "ter"],
            ["audit", "-i", hyp, "-r", ref, "--claim", "TER 50.0"],
            ["report", "-i", hyp, "-r", ref, "-m", "ter", "-o", str(out)],
            ["conform", "direct:assay.jobs.conform.assay_impl:profiles[ter/sacrebleu]", "--metric", "ter",
             "--run", "ter/*/*/0*"]]


def test_without_dask_the_engine_is_an_error_naming_the_extra(capsys, monkeypatch, corpus, tmp_path):
    for name in ("distributed", "dask"):
        monkeypatch.setitem(sys.modules, name, None)      # import fails as if not installed
    for argv in _commands(corpus, tmp_path / "report"):
        code, out, err = _run(capsys, *argv, "--engine", "dask", "--workers", "2")
        assert code == 2 and not out and "assay-metrics[dask]" in err and "Traceback" not in err, argv


def test_the_single_process_commands_import_no_dask(corpus, tmp_path):
    code = ("import sys; from assay.cli.main import main; "
            f"codes = [main(argv) for argv in {_commands(corpus, tmp_path / 'report')!r}]; "
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')); "
            "print(codes, bad, file=sys.stderr); sys.exit(any(codes) or bool(bad))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
