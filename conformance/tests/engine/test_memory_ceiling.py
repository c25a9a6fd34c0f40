"""A million-line file is scored in memory bounded by its statistics, not its text (issue 17/18).

``assay score`` streams its input (assay.engine.stream): the text of a chunk is dropped once its rows
are made, so the peak resident memory is the interpreter, one chunk's working set and the rows
(BLEU: 12 float64 columns, 96 MB for a million segments). The ceiling is the performance issue's
bound: 300 MB or three times the input bytes, whichever is larger. Measured by the child process
itself (``VmHWM`` in ``/proc/self/status``: its own address space's peak, so neither the pytest
parent nor another test's subprocess counts). Linux only (skipped elsewhere).

The API (``assay.score`` on Python lists) chunks the lists the same way (assay.engine.chunks): its
peak above the memory the lists themselves hold obeys the same ceiling. So does
``assay.sentence_scores``, whose million results are one float per segment
(:class:`assay.core.score.SentenceScores`), the Scores made when they are read.

No timing is asserted. The default env scores BLEU (file and lists); the ``slow`` marker runs the
other families the same way.
"""
from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

MILLION = 1_000_000
MIB = 1024 * 1024

# VmHWM (the peak RSS of this process's own address space): getrusage's ru_maxrss would also count
# the pytest parent's RSS at the fork that started the child (Linux keeps the high-water mark across exec).
_MEASURE = (
    "import sys\n"
    "from assay.cli.main import main\n"
    "code = main(sys.argv[1:])\n"
    "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM:')][0].split()[1]\n"
    "print(int(hwm) * 1024, file=sys.stderr)\n"
    "sys.exit(code)\n"
)


# The API on Python lists: the peak above the RSS once the lists are read (VmHWM reset after reading).
_MEASURE_API = (
    "import sys, json\n"
    "import assay\n"
    "metric, hyp, ref, knobs, level = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4]), sys.argv[5]\n"
    "hyps = open(hyp, encoding='utf-8').read().splitlines()\n"
    "refs = open(ref, encoding='utf-8').read().splitlines()\n"
    "status = lambda key: int([l for l in open('/proc/self/status') if l.startswith(key)][0].split()[1]) * 1024\n"
    "open('/proc/self/clear_refs', 'w').write('5')\n"
    "base = status('VmRSS:')\n"
    "if level == 'corpus':\n"
    "    value = assay.score(metric, hyps, [refs], **knobs).value\n"
    "else:\n"
    "    scores = assay.sentence_scores(metric, hyps, [refs], **knobs)\n"
    "    assert len(scores) == len(hyps), len(scores)\n"
    "    value = sum(s.value for s in scores) / len(scores)   # every Score made once, as a caller's loop would\n"
    "print(value)\n"
    "print(status('VmHWM:') - base, file=sys.stderr)\n"
)


@pytest.fixture(scope="module")
def million_lines(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, int]:
    """A hypothesis and a reference file of a million lines each (6-14 words over a 5,000-word vocabulary)."""
    rng = random.Random(17)
    vocab = [f"w{i}" for i in range(5000)] + [",", ".", "(", ")", "3.5", "1,000"]
    folder = tmp_path_factory.mktemp("million")
    hyp, ref = folder / "hyp.txt", folder / "ref.txt"
    with hyp.open("w", encoding="utf-8") as h, ref.open("w", encoding="utf-8") as r:
        for _ in range(MILLION // 1000):
            block_h, block_r = [], []
            for _ in range(1000):
                words = rng.choices(vocab, k=rng.randint(6, 14))
                block_r.append(" ".join(words))
                block_h.append(" ".join(words[:-2] + rng.choices(vocab, k=2)))
            h.write("\n".join(block_h) + "\n")
            r.write("\n".join(block_r) + "\n")
    return hyp, ref, hyp.stat().st_size + ref.stat().st_size


def _measured(script: str, *args: str) -> tuple[int, str]:
    """Run ``script`` in a child interpreter: (the peak in bytes it prints last on stderr, its stdout)."""
    proc = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return int(proc.stderr.strip().splitlines()[-1]), proc.stdout


def _assert_within(what: str, peak: int, out: str, input_bytes: int) -> None:
    """A score was printed, not NaN, and ``peak`` is within the ceiling."""
    ceiling = max(300 * MIB, 3 * input_bytes)
    assert out.strip(), "no score printed"
    assert "nan" not in out.lower()
    assert peak <= ceiling, (f"{what}: peak {peak / MIB:.0f} MiB for a million lines "
                             f"({input_bytes / MIB:.0f} MiB of input) is above {ceiling / MIB:.0f} MiB")


def _check(metric: str, million_lines: tuple[Path, Path, int], *extra: str) -> None:
    hyp, ref, input_bytes = million_lines
    peak, out = _measured(_MEASURE, "score", metric, "-i", str(hyp), "-r", str(ref), *extra)
    _assert_within(f"assay score {metric}", peak, out, input_bytes)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads VmHWM from /proc/self/status")
def test_million_line_bleu_within_memory_ceiling(million_lines):
    _check("bleu", million_lines)


@pytest.mark.slow
@pytest.mark.parametrize("metric,extra", [("chrf", ()), ("chrf", ("-p", "sacrebleu-chrf++")), ("ter", ()),
                                          ("rouge", ()), ("meteor", ())])
def test_million_line_families_within_memory_ceiling(million_lines, metric, extra):
    _check(metric, million_lines, *extra)


def _check_api(metric: str, million_lines: tuple[Path, Path, int], level: str = "corpus", **knobs: str) -> None:
    import json

    hyp, ref, input_bytes = million_lines
    peak, out = _measured(_MEASURE_API, metric, str(hyp), str(ref), json.dumps(knobs), level)
    call = "assay.score" if level == "corpus" else "assay.sentence_scores"
    _assert_within(f"{call}({metric!r}) on million-line lists, above the lists", peak, out, input_bytes)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads VmHWM from /proc/self/status")
def test_million_line_lists_bleu_within_memory_ceiling(million_lines):
    _check_api("bleu", million_lines)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads VmHWM from /proc/self/status")
def test_million_line_lists_sentence_bleu_within_memory_ceiling(million_lines):
    _check_api("bleu", million_lines, "sentence")


@pytest.mark.slow
@pytest.mark.parametrize("metric,level,knobs", [("ter", "corpus", {}), ("chrf", "corpus", {}), ("rouge", "corpus", {}),
                                                ("chrf", "sentence", {}), ("meteor", "sentence", {})])
def test_million_line_lists_within_memory_ceiling(million_lines, metric, level, knobs):
    """(Not NIST or CIDEr here: their first pass keeps a count per distinct reference n-gram, and
    this file's random words make almost every 3- to 5-gram distinct, ~50 per line; on real text,
    README "Speed" gives their peaks.)"""
    _check_api(metric, million_lines, level, **knobs)


@pytest.fixture(scope="module")
def million_images(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path], int]:
    """A million generated COCO images with raw captions (conformance.generate.captions): the hypothesis
    file and five reference files (an image with fewer references has empty lines there)."""
    from conformance.generate.captions import large_caption_corpus

    corpus = large_caption_corpus(MILLION, raw=True)
    folder = tmp_path_factory.mktemp("million-images")
    hyp = folder / "hyp.txt"
    hyp.write_text("".join(h + "\n" for h in corpus["hyps"]), encoding="utf-8")
    refs = []
    for k, stream in enumerate(corpus["refs"]):
        refs.append(folder / f"ref{k}.txt")
        refs[-1].write_text("".join((r or "") + "\n" for r in stream), encoding="utf-8")
    return hyp, refs, sum(p.stat().st_size for p in [hyp, *refs])


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads VmHWM from /proc/self/status")
@pytest.mark.parametrize("metric,extra", [("cider", ("--set", "tokenize=ptb")), ("coco", ("--set", "meteor=off"))])
def test_million_image_ptb_files_within_memory_ceiling(million_images, metric, extra):
    """PTB tokenises a batch as one text (the jar reads one line ahead): files are still read in chunks,
    each with the next segment as context (engine/stream.py), so the text never sits in memory whole."""
    hyp, refs, input_bytes = million_images
    peak, out = _measured(_MEASURE, "score", metric, "-i", str(hyp), "-r", *map(str, refs), *extra)
    _assert_within(f"assay score {metric} {' '.join(extra)}", peak, out, input_bytes)
