"""Black-box adapter for the METEOR 1.5 jar exactly as pycocoevalcap drives it.

The jar (``meteor-1.5.jar`` with ``data/paraphrase-en.gz`` beside it) is found in an installed
pycocoevalcap (``pycocoevalcap/meteor/``) or at ``$ASSAY_METEOR_JAR``. One JVM serves a whole
corpus over the ``-stdio`` line protocol (``java -jar -Xmx2G meteor-1.5.jar - - -stdio -l en
-norm``, run in the jar's directory):

- ``SCORE ||| ref1 ||| … ||| refN ||| hyp`` → one line of sufficient statistics (space separated);
- ``EVAL ||| s1 ||| … ||| sK`` → K segment-score lines, then one line with the score of the summed
  statistics (the shipped jar's behaviour, tylin/coco-caption#34).

Every read has a timeout (a reader thread feeds a queue), so a wedged JVM raises instead of hanging.
The hypothesis is cleaned as pycocoevalcap does (``|||`` removed, doubled spaces collapsed).

:func:`run_files` drives the jar's command line (``java -jar meteor-1.5.jar test ref -l en -norm
-r N -writeAlignments``) and returns the printed segment scores, system statistics and the
normalised tokens with their alignment (used to check assay's normaliser and aligner).
"""
from __future__ import annotations

import importlib.util
import os
import queue
import re
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import Any, Sequence

TOOL = "meteor-1.5.jar"
VERSION = "1.5"
COMMAND = "java -jar -Xmx2G meteor-1.5.jar - - -stdio -l en -norm (pycocoevalcap 1.2)"
TIMEOUT = float(os.environ.get("ASSAY_METEOR_TIMEOUT", "120"))


def jar_path() -> Path | None:
    """$ASSAY_METEOR_JAR, else pycocoevalcap's bundled jar (found without importing the package)."""
    env = os.environ.get("ASSAY_METEOR_JAR")
    if env:
        return Path(env) if Path(env).is_file() else None
    try:
        spec = importlib.util.find_spec("pycocoevalcap")
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        return None
    jar = Path(list(spec.submodule_search_locations)[0]) / "meteor" / "meteor-1.5.jar"
    return jar if jar.is_file() else None


def available() -> str | None:
    """None when java and the jar (with its paraphrase table) are present, else the reason."""
    if shutil.which("java") is None:
        return "java is not on PATH (METEOR 1.5 jar needs Java; apt-get install openjdk-17-jre-headless)"
    jar = jar_path()
    if jar is None:
        return "meteor-1.5.jar not found (pip install pycocoevalcap==1.2, or set $ASSAY_METEOR_JAR)"
    if not (jar.parent / "data" / "paraphrase-en.gz").is_file():
        return f"{jar.parent / 'data' / 'paraphrase-en.gz'} is missing"
    return None


def clean_hyp(hyp: str) -> str:
    """pycocoevalcap's hypothesis cleaning: drop ``|||``, collapse doubled spaces once."""
    return hyp.replace("|||", "").replace("  ", " ")


class Meteor15:
    """One JVM in ``-stdio`` mode; use as a context manager."""

    def __init__(self, extra: Sequence[str] = ("-l", "en", "-norm"), timeout: float = TIMEOUT) -> None:
        jar = jar_path()
        reason = available()
        if reason or jar is None:
            raise RuntimeError(reason or "meteor-1.5.jar not found")
        self.timeout = timeout
        self.proc = subprocess.Popen(["java", "-jar", "-Xmx2G", jar.name, "-", "-", "-stdio", *extra],
                                     cwd=jar.parent, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL)
        self._lines: queue.Queue[bytes] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line)
        self._lines.put(b"")

    def _send(self, line: str) -> None:
        if "\n" in line or "\r" in line:
            raise ValueError("a newline would break the jar's line protocol")
        assert self.proc.stdin is not None
        self.proc.stdin.write((line + "\n").encode("utf-8"))
        self.proc.stdin.flush()

    def _read(self) -> str:
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            self.close()
            raise TimeoutError(f"meteor-1.5.jar gave no answer within {self.timeout} s") from None
        if not line:
            raise RuntimeError("meteor-1.5.jar exited")
        return line.decode("utf-8").strip()

    def stats(self, hyp: str, refs: Sequence[str]) -> str:
        """The sufficient-statistics line of one segment (pycocoevalcap's ``_stat``)."""
        self._send(" ||| ".join(("SCORE", " ||| ".join(refs), clean_hyp(hyp))))
        return self._read()

    def evaluate(self, stats: Sequence[str]) -> tuple[list[float], float]:
        """(segment scores, score of the summed statistics) for stats lines (pycocoevalcap's EVAL)."""
        self._send("EVAL ||| " + " ||| ".join(stats))
        seg = [float(self._read()) for _ in stats]
        return seg, float(self._read())

    def score_corpus(self, hyps: Sequence[str], refs: Sequence[Sequence[str]],
                     chunk: int = 500) -> tuple[list[float], float, list[str]]:
        """Segment scores, corpus score (one EVAL over all stats, as pycocoevalcap) and the stats lines.
        ``refs[i]`` is the list of references of segment i."""
        stats = [self.stats(h, r) for h, r in zip(hyps, refs)]
        seg: list[float] = []
        for k in range(0, len(stats), chunk):          # segment scores in bounded lines
            seg.extend(self.evaluate(stats[k:k + chunk])[0])
        corpus = self.evaluate(stats)[1] if stats else 0.0
        return seg, corpus, stats

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def __enter__(self) -> "Meteor15":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def run_files(hyps: Sequence[str], refs: Sequence[Sequence[str]], extra: Sequence[str] = ("-l", "en", "-norm"),
              timeout: float = 600.0) -> dict[str, Any]:
    """The jar's command line on temporary files (``-r N`` interleaved references, ``-writeAlignments``).

    Returns ``{"segments": [float], "system": {name: value}, "alignments": [{"hyp": [tok], "ref": [tok],
    "pairs": [(ref_start, ref_len, hyp_start, hyp_len, module)], "p", "r", "frag", "score"}]}``.
    Every segment must have the same number of references."""
    jar = jar_path()
    reason = available()
    if reason or jar is None:
        raise RuntimeError(reason or "meteor-1.5.jar not found")
    nref = len(refs[0]) if refs else 1
    with tempfile.TemporaryDirectory() as tmp:
        t, r = Path(tmp) / "test.txt", Path(tmp) / "ref.txt"
        t.write_text("".join(h.replace("\n", " ") + "\n" for h in hyps), encoding="utf-8")
        r.write_text("".join(x.replace("\n", " ") + "\n" for rs in refs for x in rs), encoding="utf-8")
        out = subprocess.run(["java", "-Xmx2G", "-jar", str(jar), str(t), str(r), *extra, "-r", str(nref),
                              "-writeAlignments", "-f", str(Path(tmp) / "m")], cwd=jar.parent,
                             capture_output=True, text=True, timeout=timeout, check=True).stdout
        align_text = (Path(tmp) / "m-align.out").read_text(encoding="utf-8")
    segments = [float(v) for v in re.findall(r"^Segment \d+ score:\s+(\S+)$", out, re.M)]
    system: dict[str, Any] = {}
    for key, val in re.findall(r"^([A-Za-z][A-Za-z0-9 ]+):\s+(-?[0-9.E-]+)$", out, re.M):
        system[key.strip()] = float(val)
    alignments = []
    blocks = align_text.split("Alignment\t")[1:]
    for b in blocks:
        lines = b.split("\n")
        head = lines[0].split("\t")
        pairs = []
        for ln in lines[4:]:
            f = ln.split()
            if len(f) == 4 and ":" in f[0]:
                a, al = f[0].split(":")
                c, cl = f[1].split(":")
                pairs.append((int(a), int(al), int(c), int(cl), int(f[2])))
        alignments.append({"hyp": lines[1].split(" ") if lines[1] else [], "ref": lines[2].split(" ") if lines[2] else [],
                           "pairs": pairs, "p": float(head[1]), "r": float(head[2]), "frag": float(head[3]),
                           "score": float(head[4])})
    return {"segments": segments, "system": system, "alignments": alignments}
