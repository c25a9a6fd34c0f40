"""``assay score --engine dask`` on the command line: the same output as the default engine, on globs of
shards (``--scheduler`` joins the shared LocalCluster; ``--workers`` starts one of its own), and
clear errors for what it cannot do."""
from __future__ import annotations

import sys

import pytest

from assay.cli.main import main


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _score(sharded, *extra: str) -> list[str]:
    return ["score", "bleu", "-i", sharded.hyp_glob, "-r", *sharded.ref_globs, *extra]


def test_scheduler_output_equals_the_default_engine_on_the_whole_files(capsys, dask_client, report_shards):
    dask_client.wait_for_workers(2, timeout=60)
    whole = _run(capsys, "score", "bleu", "-i", str(report_shards.hyp), "-r", *map(str, report_shards.refs),
                 "-f", "json")
    single = _run(capsys, *_score(report_shards, "-f", "json"))
    scored = _run(capsys, *_score(report_shards, "-f", "json", "--engine", "dask", "--scheduler",
                                  dask_client.scheduler_info()["address"], "--no-progress"))
    assert whole[0] == single[0] == scored[0] == 0
    assert scored[1] == single[1] == whole[1]
    assert "Dask dashboard: http" in scored[2]


def test_sentence_output_equals_the_default_engine(capsys, dask_client, report_shards):
    dask_client.wait_for_workers(2, timeout=60)
    single = _run(capsys, *_score(report_shards, "--sentence", "-w", "17"))
    scored = _run(capsys, *_score(report_shards, "--sentence", "-w", "17", "--engine", "dask", "--scheduler",
                                  dask_client.scheduler_info()["address"]))
    assert scored[0] == 0 and scored[1] == single[1] and len(scored[1].splitlines()) == 300


def test_workers_start_a_local_cluster(capsys, distributed_module, report_shards):
    single = _run(capsys, *_score(report_shards))
    scored = _run(capsys, *_score(report_shards, "--engine", "dask", "--workers", "1"))
    assert scored[0] == 0 and scored[1] == single[1]


def test_an_unreachable_scheduler_exits_2_with_one_line(capsys, distributed_module, report_shards):
    code, out, err = _run(capsys, *_score(report_shards, "--engine", "dask", "--scheduler", "tcp://127.0.0.1:9",
                                          "--connect-timeout", "1"))
    assert code == 2 and not out
    assert err.strip().splitlines()[-1].startswith("assay: error: --scheduler tcp://127.0.0.1:9: no Dask scheduler "
                                                   "answered within 1 s")


def test_without_dask_the_engine_is_an_error_naming_the_extra(capsys, monkeypatch, report_shards):
    for name in ("distributed", "dask"):
        monkeypatch.setitem(sys.modules, name, None)      # import fails as if not installed
    code, out, err = _run(capsys, *_score(report_shards, "--engine", "dask", "--workers", "2"))
    assert code == 2 and not out
    assert "assay-metrics[dask]" in err and "Traceback" not in err


@pytest.mark.parametrize("argv,message", [
    (["--workers", "2"], "--workers and --scheduler go with --engine dask"),
    (["--engine", "dask", "--workers", "2", "--scheduler", "tcp://x:1"], "give one of them"),
])
def test_option_mistakes(capsys, report_shards, argv, message):
    code, _, err = _run(capsys, *_score(report_shards, *argv))
    assert code == 2 and message in err


def test_standard_input_is_refused(capsys, report_shards):
    code, _, err = _run(capsys, "score", "bleu", "-i", "-", "-r", str(report_shards.refs[0]), "--engine", "dask")
    assert code == 2 and "not standard input" in err
