"""Sharded input on the default engine (no Dask needed): globs of shards in sorted order, ``.gz`` shards,
shard pairing and line counts checked up front, and nothing of Dask imported."""
from __future__ import annotations

import gzip
import json
import subprocess
import sys

import pytest

from assay.cli.main import main
from assay.core import segment_stream
from assay.core.errors import InputError
from assay.engine import api, stream


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("metric", ["bleu", "chrf", "ter", "nist", "cider"])
def test_a_glob_of_shards_scores_as_the_whole_file(capsys, report_shards, metric):
    whole = _run(capsys, "score", metric, "-i", str(report_shards.hyp), "-r", *map(str, report_shards.refs),
                 "-f", "json")
    sharded = _run(capsys, "score", metric, "-i", report_shards.hyp_glob, "-r", *report_shards.ref_globs, "-f", "json")
    assert whole[0] == sharded[0] == 0
    assert json.loads(sharded[1]) == json.loads(whole[1])


def test_expand_shards_sorts_matches_and_keeps_plain_paths(tmp_path):
    for name in ("b.txt", "a.txt", "c.txt.gz"):
        (tmp_path / name).write_text("x\n")
    assert segment_stream.expand_shards("-i", str(tmp_path / "*")) == [str(tmp_path / n) for n in
                                                                     ("a.txt", "b.txt", "c.txt.gz")]
    assert segment_stream.expand_shards("-i", str(tmp_path / "missing.txt")) == [str(tmp_path / "missing.txt")]
    weird = tmp_path / "[x].txt"                 # an existing file whose name looks like a glob
    weird.write_text("x\n")
    assert segment_stream.expand_shards("-i", str(weird)) == [str(weird)]
    with pytest.raises(InputError, match=r"^-r .*nothing-\*: no file matches$"):
        segment_stream.expand_shards("-r", str(tmp_path / "nothing-*"))


def test_gzip_files_read_as_their_text(tmp_path):
    text = "\ufeffone\r\ntwo\x00\nthree"
    plain, packed = tmp_path / "f.txt", tmp_path / "f.txt.gz"
    plain.write_bytes(text.encode())
    packed.write_bytes(gzip.compress(text.encode()))
    for encoding in ("utf-8", "utf-8-sig"):
        a, b = segment_stream.survey(plain, encoding=encoding), segment_stream.survey(packed, encoding=encoding)
        assert (a.n_lines, a.terminated, a.bom, a.n_bytes) == (b.n_lines, b.terminated, b.bom, b.n_bytes)
        ta, tb = segment_stream.ControlTally(), segment_stream.ControlTally()
        assert (list(segment_stream.iter_chunks(plain, encoding=encoding, chunk_lines=2, controls=ta))
                == list(segment_stream.iter_chunks(packed, encoding=encoding, chunk_lines=2, controls=tb)))
        assert ta.result() == tb.result()


def test_a_broken_gzip_file_is_an_input_error(tmp_path):
    bad = tmp_path / "bad.txt.gz"
    bad.write_bytes(b"not gzip at all\n")
    with pytest.raises(InputError, match=r"bad.txt.gz: not a valid gzip file"):
        segment_stream.survey(bad)
    cut = tmp_path / "cut.txt.gz"
    cut.write_bytes(gzip.compress(b"a\n" * 1000)[:-12])
    with pytest.raises(InputError, match=r"cut.txt.gz: not a valid gzip file"):
        segment_stream.survey(cut)


def test_shard_lists_must_pair_up(capsys, report_shards, tmp_path):
    code, _, err = _run(capsys, "score", "bleu", "-i", report_shards.hyp_glob, "-r", *report_shards.ref_shards[0])
    assert code == 2 and "reference stream 1 has 1 file(s) but the hypotheses have 6 shard(s)" in err
    assert "quote a glob" in err
    hyp = tmp_path / "h"
    ref = tmp_path / "r"
    hyp.mkdir()
    ref.mkdir()
    for k, (h, r) in enumerate([(3, 3), (2, 4)]):
        (hyp / f"{k}.txt").write_text("a b c\n" * h)
        (ref / f"{k}.txt").write_text("a b c\n" * r)
    code, _, err = _run(capsys, "score", "bleu", "-i", str(hyp / "*"), "-r", str(ref / "*"))
    assert code == 2 and f"line counts differ: {hyp / '1.txt'} has 2 lines but {ref / '1.txt'} has 4" in err


def test_empty_shards_are_allowed_but_not_an_empty_corpus(tmp_path):
    for name in ("h0", "h1", "r0", "r1"):
        (tmp_path / f"{name}.txt").write_text("")
    configured = api.configure("bleu")
    with pytest.raises(InputError, match="every input shard is empty"):
        stream.score_files(configured, [str(tmp_path / "h0.txt"), str(tmp_path / "h1.txt")],
                           [[str(tmp_path / "r0.txt"), str(tmp_path / "r1.txt")]])
    with pytest.raises(InputError, match="the file is empty"):      # one file: as before
        stream.score_files(configured, str(tmp_path / "h0.txt"), [str(tmp_path / "r0.txt")])


def test_the_single_process_path_imports_no_dask(report_shards):
    code = ("import sys; from assay.cli.main import main; "
            f"rc = main(['score', 'bleu', '-i', {report_shards.hyp_glob!r}, '-r', *{report_shards.ref_globs!r}]); "
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')); "
            "print(bad, file=sys.stderr); sys.exit(rc or bool(bad))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("BLEU|nrefs:2|")
