"""Adapter for the Stanford CoreNLP 3.4.1 PTBTokenizer as pycocoevalcap 1.2 runs it.

``jar_lines(lines)`` runs ``java -cp stanford-corenlp-3.4.1.jar edu.stanford.nlp.process.PTBTokenizer
-preserveLines -lowerCase FILE`` once over ``lines`` joined by ``\\n`` (exactly the file the wrapper
writes: inner newlines already replaced by spaces, no trailing newline) and returns its output lines.
``wrapper_lines`` applies the wrapper's post-processing (``line.rstrip().split(' ')`` minus its
punctuation list), so ``wrapper_lines(captions)`` equals ``PTBTokenizer().tokenize`` on the same
captions in the same order; ``pycocoevalcap_tokenize`` runs the real wrapper (in a subprocess, with a
timeout) to prove that. Every Java call has a timeout.

``kd_classes(text)`` names the documented known divergences (``KD-PTB-xx``) an input belongs to; the
differential tests accept a disagreement only for an input in one of these classes.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Sequence

JAR_NAME = "stanford-corenlp-3.4.1.jar"
JAR_VERSION = "3.4.1"
PYCOCOEVALCAP_VERSION = "1.2"
JAR_ARGS = ["edu.stanford.nlp.process.PTBTokenizer", "-preserveLines", "-lowerCase"]
COMMAND = f"java -cp {JAR_NAME} {' '.join(JAR_ARGS)} FILE  (FILE = captions joined by '\\n')"
#: the wrapper's list (pycocoevalcap/tokenizer/ptbtokenizer.py), compared after -lowerCase
WRAPPER_PUNCTUATION = frozenset(["''", "'", "``", "`", "-LRB-", "-RRB-", "-LCB-", "-RCB-", ".", "?", "!",
                                 ",", ":", "-", "--", "...", ";"])
DEFAULT_TIMEOUT = 300.0


def jar_path() -> Path | None:
    """The jar shipped inside the installed pycocoevalcap (or ``$ASSAY_PTB_JAR``), if any."""
    env = os.environ.get("ASSAY_PTB_JAR")
    if env:
        return Path(env) if Path(env).is_file() else None
    import importlib.util
    try:
        spec = importlib.util.find_spec("pycocoevalcap")
    except (ImportError, ValueError):
        return None
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = Path(folder) / "tokenizer" / JAR_NAME
        if path.is_file():
            return path
    return None


def unavailable_reason() -> str | None:
    """Why the reference cannot run here (None when java and the jar are both present)."""
    if shutil.which("java") is None:
        return "java is not on PATH (Debian: apt-get install default-jre-headless)"
    if jar_path() is None:
        return f"{JAR_NAME} not found: install pycocoevalcap=={PYCOCOEVALCAP_VERSION} (tox -e refs)"
    return None


def require() -> Path:
    """The jar path, or :func:`conformance.references.availability.missing` (fails under CI, skips locally)."""
    reason = unavailable_reason()
    if reason is not None:
        from conformance.references.availability import missing
        missing(f"PTB reference unavailable: {reason}")
    path = jar_path()
    assert path is not None
    return path


def jar_lines(lines: Sequence[str], timeout: float = DEFAULT_TIMEOUT) -> list[str]:
    """The jar's output lines for the file ``'\\n'.join(lines)`` (one JVM for the whole batch)."""
    jar = jar_path()
    if jar is None:
        raise RuntimeError(unavailable_reason() or "PTB jar unavailable")
    with tempfile.TemporaryDirectory(prefix="assay-ptb-") as tmp:
        src = Path(tmp) / "captions.txt"
        src.write_bytes("\n".join(lines).encode("utf-8"))
        proc = subprocess.run(["java", "-cp", str(jar), *JAR_ARGS, str(src)], capture_output=True,
                              timeout=timeout, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"PTBTokenizer failed ({proc.returncode}): {proc.stderr.decode(errors='replace')[-2000:]}")
    return proc.stdout.decode("utf-8").split("\n")


def wrapper_line(line: str) -> str:
    """The wrapper's post-processing of one output line."""
    return " ".join(w for w in line.rstrip().split(" ") if w not in WRAPPER_PUNCTUATION)


def wrapper_lines(captions: Sequence[str], timeout: float = DEFAULT_TIMEOUT) -> list[str]:
    """What ``PTBTokenizer.tokenize`` returns for ``captions`` (in this order), via one jar run."""
    flat = [c.replace("\n", " ") for c in captions]
    out = jar_lines(flat, timeout)
    return [wrapper_line(line) for line in out[:len(flat)]] + [""] * max(0, len(flat) - len(out))


def raw_tokens(captions: Sequence[str], timeout: float = DEFAULT_TIMEOUT) -> list[list[str]]:
    """The jar's tokens per caption (``line.split(' ')``; an empty line gives ``[]``)."""
    flat = [c.replace("\n", " ") for c in captions]
    out = jar_lines(flat, timeout)
    return [(out[i].split(" ") if i < len(out) and out[i] else []) for i in range(len(flat))]


_WRAPPER_SCRIPT = """
import json, sys
from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer
caps = json.load(sys.stdin)
res = PTBTokenizer().tokenize({"img%d" % i: [{"caption": c}] for i, c in enumerate(caps)})
json.dump([res["img%d" % i][0] for i in range(len(caps))], sys.stdout)
"""


def pycocoevalcap_tokenize(captions: Sequence[str], timeout: float = DEFAULT_TIMEOUT,
                           python: str | None = None) -> list[str]:
    """pycocoevalcap's own ``PTBTokenizer().tokenize`` (one image per caption, in order), in a
    subprocess with a timeout (the wrapper calls Java without one; it writes a temp file into the
    package directory, which must be writable)."""
    proc = subprocess.run([python or sys.executable, "-c", _WRAPPER_SCRIPT], input=json.dumps(list(captions)),
                          capture_output=True, text=True, timeout=timeout, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"pycocoevalcap PTBTokenizer failed: {proc.stderr[-2000:]}")
    return json.loads(proc.stdout)


# ----------------------------------------------------------------------------- known divergences
#: KD id -> (cause, input pattern); see ``impl/assay/tokenizers/ptb.py`` "Known divergences".
KNOWN_DIVERGENCES: dict[str, tuple[str, str]] = {
    "KD-PTB-01": ("n't / 's directly followed by letters, or digits / non-ASCII letters glued before n't "
                  "('don'tit', '5don't', 'Ελλάδαain't', 'zebra'sIstanbul'): not measured in detail",
                  r"[nN]['\u2019][tT][A-Za-z]|['\u2019][sSdD][^\x00-\x7f]|[0-9\u0080-\uffff][A-Za-z]*n['\u2019][tT]"),
    "KD-PTB-02": ("line-break characters other than \\n (\\r, U+2028, U+2029) end the jar's output line: the "
                  "wrapper then pairs every later caption with the wrong line; coco_tokenize_lines "
                  "reproduces the shift, single-caption calls cannot", "[\r\u2028\u2029]"),
    "KD-PTB-03": ("apostrophe + two digits before a non-space ('05. '05! '90sp): the jar splits ' 05",
                  r"['\u2019][0-9]{2}[sS]?[^\s]"),
    "KD-PTB-04": ("non-ASCII quote or apostrophe glued to a word (a\u2018single\u2019, it\u2019swell)",
                  r"\w[\u2018\u201b]|\w[\u2019][A-Za-z]{2}"),
    "KD-PTB-05": ("URL, e-mail address or @handle touching other text without a space (the jar's URL/e-mail "
                  "patterns are approximated; 'U.S.@user', 'x=1pre-', 'example.comQ&A')",
                  r"[^\s(/](?i:https?://|www\.)|(?i:https?://|www\.)\S*[^\w\s/=?.]|[.A-Za-z]@[a-z]+(?:\s|$)|"
                  r"@\S*[^\w\s.@]|(?i:https?://|www\.|@)\S*\.\w*[A-Z&]|&\w[\w.]*@"),
    "KD-PTB-06": ("a one-letter word glued before an apostrophe word ('A'tis', 'A'em', 'A'hi'')",
                  r"(?<![A-Za-z])[A-Za-z]['\u2019][A-Za-z]"),
    "KD-PTB-07": ("dotted acronym or e.g./p.m. glued after letters or digits ('nearp.m.', '24/7N.Y.C.', "
                  "'3rde.g.', 'PRE-U.K.')", r"[A-Za-z0-9]{2,}\.[A-Za-z]\.|[A-Za-z0-9]-[A-Za-z]\.[A-Za-z]\."),
    "KD-PTB-08": ("'Co.' directly followed by another listed abbreviation ('Co. Ltd.'): the jar adds no "
                  "sentence-final period there", r"\bCo\.\s+[A-Z][a-z]*\."),
    "KD-PTB-09": ("phone-number-like digit groups ('555-1212' then a space and digits, or digits then a "
                  "space and '555-1212'): the jar joins them with U+00A0 ('555-1212\u00a0100', "
                  "'100\u00a0555-1212')", r"[0-9]{3}-[0-9]{4,} [0-9]|[0-9] [0-9]{3}(?:[- ]?[0-9]{3,})"),
}
_KD_RX = {k: re.compile(p) for k, (_, p) in KNOWN_DIVERGENCES.items()}


def kd_classes(text: str, following: str | None = None) -> list[str]:
    """The KD classes whose input pattern occurs in ``text`` (or at the start of ``following``)."""
    hits = [k for k, rx in _KD_RX.items() if rx.search(text)]
    if following is not None and "KD-PTB-08" not in hits and _KD_RX["KD-PTB-08"].search(text + " " + following[:40]):
        hits.append("KD-PTB-08")
    return hits
