"""Black-box adapter for the Moses BLEU/NIST scripts (multi-bleu(-detok).perl, mteval-v13a/v14.pl).

The scripts are NOT part of assay.  They are looked up in ``$ASSAY_MOSES_DIR`` (default
``/tmp/moses``), which must hold ``multi-bleu.perl``, ``multi-bleu-detok.perl``,
``mteval-v13a.pl`` and ``mteval-v14.pl`` as found in moses-smt/mosesdecoder
``scripts/generic/``.  Every run happens in a fresh temporary directory, without a shell,
with a timeout and with a scrubbed environment (``LC_ALL=C``, no ``PERL_UNICODE``/
``PERL5OPT``/``PERLIO``), and stdout/stderr are parsed.

Precision: the scripts print rounded numbers (multi-bleu ``%.2f``, mteval ``%.4f``).  To get
comparable full-precision values each call also runs a *widened* copy, made at run time in
the temp dir by :func:`widen_printf_formats` (every ``%W.Pf`` format becomes ``%W.12f``; no
other byte changes).  The copy is deleted with the temp dir; nothing of the scripts is kept.
Results hold both the official and the widened output.

Crashes are results, not exceptions: ``{"error": "<first stderr line>", "rc": ..}``.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any, Sequence

SCRIPTS = {"multi-bleu": "multi-bleu.perl", "multi-bleu-detok": "multi-bleu-detok.perl",
           "mteval-v13a": "mteval-v13a.pl", "mteval-v14": "mteval-v14.pl"}
WIDE_DECIMALS = 12
TIMEOUT = 120.0

_MB_RE = re.compile(r"BLEU = ([-\d.]+), ([-\d.]+)/([-\d.]+)/([-\d.]+)/([-\d.]+) \(BP=([-\d.]+), "
                    r"ratio=([-\d.]+), hyp_len=(\d+), ref_len=(\d+)\)")
_MT_RE = re.compile(r"NIST score = +([-\d.naif]+) +BLEU score = +([-\d.naif]+) for system")
_TOK_RE = re.compile(r"^sys 'sys', seg (\d+): (.*)$")


def moses_dir() -> Path:
    """Directory holding the four scripts (``$ASSAY_MOSES_DIR`` or ``/tmp/moses``)."""
    return Path(os.environ.get("ASSAY_MOSES_DIR", "/tmp/moses"))


def available() -> bool:
    """True when perl, the four scripts and the Perl modules mteval needs are present."""
    if shutil.which("perl") is None:
        return False
    if not all((moses_dir() / name).is_file() for name in SCRIPTS.values()):
        return False
    probe = subprocess.run(["perl", "-MXML::Twig", "-MSort::Naturally", "-e", "1"],
                           capture_output=True, env=_env(), timeout=30)
    return probe.returncode == 0


def perl_version() -> str:
    out = subprocess.run(["perl", "-e", "print $^V"], capture_output=True, env=_env(), timeout=30)
    return out.stdout.decode()


def widen_printf_formats(text: str, decimals: int = WIDE_DECIMALS) -> str:
    """Rewrite every printf float format ``%[flags][width].<prec>f`` in ``text`` to ``.<decimals>f``.

    Generic: works on any script text; integer, string and ``%f``-without-precision formats
    are left alone.  Used only on temporary copies.
    """
    return re.sub(r"%([-+ 0#]*\d*)\.\d+f", lambda m: f"%{m.group(1)}.{decimals}f", text)


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PERL_UNICODE", "PERL5OPT", "PERLIO", "PERL5LIB") and not k.startswith("LC_")}
    env["LC_ALL"] = "C"
    env["LANG"] = "C"
    return env


def short_error(stderr: str, script: str) -> str:
    """First fatal-looking stderr line, with the temp path reduced to the script name."""
    lines = [ln for ln in stderr.splitlines() if ln.strip()]
    fatal = [ln for ln in lines if not ln.startswith(("Use of uninitialized", "It is not advisable",
                                                       "Warning", "Use of 'Hyphen' in \\p{}"))]
    line = fatal[0] if fatal else (lines[-1] if lines else "(no output)")
    line = re.sub(r" at \S*/(%s)" % re.escape(script), r" at \1", line)
    return re.sub(r", <[A-Z]+> line \d+\.$", ".", line)[:200]


def _run(argv: list[str], cwd: Path, stdin: bytes | None = None,
         timeout: float = TIMEOUT) -> tuple[int, str, str]:
    try:
        proc = subprocess.run(argv, input=stdin, capture_output=True, cwd=cwd, env=_env(),
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return -1, "", f"timeout after {timeout}s"
    dec = lambda b: b.decode("utf-8", errors="surrogateescape")  # noqa: E731
    return proc.returncode, dec(proc.stdout), dec(proc.stderr)


def _script_copy(name: str, dest: Path, widened: bool, src: Path | None = None) -> Path:
    """Copy the script ``SCRIPTS[name]`` (or the file ``src``) into ``dest``, widened if asked."""
    src = src if src is not None else moses_dir() / SCRIPTS[name]
    out = dest / src.name
    text = src.read_bytes().decode("utf-8", errors="surrogateescape")
    if widened:
        text = widen_printf_formats(text)
    out.write_bytes(text.encode("utf-8", errors="surrogateescape"))
    return out


def _lines(segs: Sequence[str], final_newline: bool = True) -> bytes:
    data = "\n".join(segs) + ("\n" if final_newline and segs else "")
    return data.encode("utf-8")


def _parse_mb(out: str) -> dict[str, Any] | None:
    m = _MB_RE.search(out)
    if not m:
        return None
    g = m.groups()
    return {"score": float(g[0]), "precisions": [float(x) for x in g[1:5]], "bp": float(g[5]),
            "ratio": float(g[6]), "hyp_len": int(g[7]), "ref_len": int(g[8]), "line": m.group(0)}


def multi_bleu(hyps: Sequence[str], refs: Sequence[Sequence[str]], *, lowercase: bool = False,
               detok: bool = False, hyp_final_newline: bool = True,
               timeout: float = TIMEOUT) -> dict[str, Any]:
    """Run multi-bleu.perl (or multi-bleu-detok.perl) on hyps vs reference streams.

    Hyps go to stdin, references to files ``ref0``, ``ref1``… (stem ``ref``), every line
    ``\\n``-terminated (the hyp file's last newline can be dropped).  Returns
    ``{"tool", "argv", "rc", "score", "precisions", "bp", "ratio", "hyp_len", "ref_len",
    "official": {...}, "widened": {...}, "stdout", "stderr", "error"}``; the top-level numbers
    are the widened ones.  ``error`` is set (and ``score`` is None) when nothing was printed.
    """
    name = "multi-bleu-detok" if detok else "multi-bleu"
    script = SCRIPTS[name]
    argv_tail = (["-lc"] if lowercase else []) + ["ref"]
    result: dict[str, Any] = {"tool": script, "argv": [script] + argv_tail}
    with tempfile.TemporaryDirectory(prefix="assay-moses-") as tmp:
        d = Path(tmp)
        for i, stream in enumerate(refs):
            (d / f"ref{i}").write_bytes(_lines(stream))
        stdin = _lines(hyps, hyp_final_newline)
        for label, widened in (("official", False), ("widened", True)):
            sub = d / label
            sub.mkdir()
            path = _script_copy(name, sub, widened)
            rc, out, err = _run(["perl", str(path)] + argv_tail[:-1] + [str(d / "ref")], d,
                                stdin, timeout)
            parsed = _parse_mb(out)
            result[label] = {"rc": rc, "stdout": out.strip(), "stderr": err.strip()[:2000],
                             **(parsed or {})}
    wide = result["widened"]
    result["rc"] = wide["rc"]
    if "score" not in wide:
        result.update(score=None, error=short_error(wide["stderr"], script))
    else:
        result.update({k: wide[k] for k in ("score", "precisions", "bp", "ratio", "hyp_len", "ref_len")})
        result["error"] = None
    return result


def _sgml(kind: str, segs_by_doc: Sequence[tuple[str, Sequence[str]]]) -> str:
    head = {"src": '<srcset setid="s" srclang="any">',
            "ref": '<refset setid="s" srclang="any" trglang="en">',
            "tst": '<tstset setid="s" srclang="any" trglang="en">'}[kind]
    docs = []
    for sysid, segs in segs_by_doc:
        attr = f' sysid="{sysid}"' if kind != "src" else ""
        body = "".join(f'<seg id="{i}">{s}</seg>\n' for i, s in enumerate(segs, 1))
        docs.append(f'<doc docid="d1"{attr}>\n{body}</doc>\n')
    return head + "\n" + "".join(docs) + f"</{kind}set>\n"


def _mteval_argv(version: str, case_sensitive: bool, international: bool, smoothing: bool,
                 brevity_penalty: str) -> list[str]:
    argv = ["-r", "ref.sgm", "-s", "src.sgm", "-t", "tst.sgm"]
    argv += ["-c"] if case_sensitive else []
    argv += ["--international-tokenization"] if international else []
    argv += [] if smoothing else ["--no-smoothing"]
    argv += [] if brevity_penalty == "closest" else ["--brevity-penalty", brevity_penalty]
    return argv


def _write_sgml(d: Path, hyps: Sequence[str], refs: Sequence[Sequence[str]]) -> None:
    """SGML as in research §4.3: text is written raw (the tool sees exactly these bytes)."""
    (d / "src.sgm").write_text(_sgml("src", [("", ["x"] * len(hyps))]), encoding="utf-8")
    (d / "ref.sgm").write_text(_sgml("ref", [(f"ref{i}", s) for i, s in enumerate(refs)]),
                               encoding="utf-8")
    (d / "tst.sgm").write_text(_sgml("tst", [("sys", hyps)]), encoding="utf-8")


def mteval(hyps: Sequence[str], refs: Sequence[Sequence[str]], *, version: str = "13a",
           case_sensitive: bool = True, international: bool = False, smoothing: bool = True,
           brevity_penalty: str = "closest", timeout: float = TIMEOUT, script_path: Path | None = None,
           extra_args: Sequence[str] = ()) -> dict[str, Any]:
    """Run mteval-v13a.pl / mteval-v14.pl; BLEU on the tool's 0-1 scale, and NIST.

    ``script_path`` runs another script with mteval's command line instead (e.g. e2e-metrics'
    ``mteval-v13a-sig.pl``, which also needs ``extra_args=("-f", "log.txt")``; relative paths
    land in the temp dir).  Returns ``{"tool", "argv", "rc", "bleu", "nist", "official":
    {"bleu", "nist", "line"}, "widened": {...}, "error"}``; top-level numbers are the widened
    (``%.12f``) ones.
    """
    if version not in ("13a", "14") or brevity_penalty not in ("closest", "shortest"):
        raise ValueError("version must be '13a' or '14', brevity_penalty 'closest'/'shortest'")
    script = script_path.name if script_path is not None else SCRIPTS[f"mteval-v{version}"]
    args = _mteval_argv(version, case_sensitive, international, smoothing, brevity_penalty) + list(extra_args)
    result: dict[str, Any] = {"tool": script, "argv": [script] + args}
    with tempfile.TemporaryDirectory(prefix="assay-moses-") as tmp:
        d = Path(tmp)
        _write_sgml(d, hyps, refs)
        for label, widened in (("official", False), ("widened", True)):
            sub = d / label
            sub.mkdir()
            path = _script_copy(f"mteval-v{version}", sub, widened, script_path)
            rc, out, err = _run(["perl", str(path)] + args, d, None, timeout)
            m = _MT_RE.search(out)
            entry: dict[str, Any] = {"rc": rc, "stderr": err.strip()[:2000]}
            if m and rc == 0:
                entry.update(nist=float(m.group(1)), bleu=float(m.group(2)), line=m.group(0))
            result[label] = entry
    wide = result["widened"]
    result["rc"] = wide["rc"]
    if "bleu" not in wide:
        result.update(bleu=None, nist=None, error=short_error(wide["stderr"], script))
    else:
        result.update(bleu=wide["bleu"], nist=wide["nist"], error=None)
    return result


def mteval_tokenize_many(texts: Sequence[str], *, version: str = "13a", case_sensitive: bool = True,
                         international: bool = False, timeout: float = TIMEOUT) -> list[str | None]:
    """Tokens mteval produces for each text (``-d 3`` dump of the system segments).

    Each text becomes one SGML segment (so the SGML reader's whitespace handling is part of
    the result); texts must not contain newlines or ``</seg>``.  ``None`` = no dump line.
    """
    for t in texts:
        if "\n" in t or "\r" in t or "</seg>" in t:
            raise ValueError(f"mteval cannot carry this text in one SGML segment: {t!r}")
    segs = list(texts) + ["x y z"]  # a non-empty last segment keeps total lengths > 0
    script = SCRIPTS[f"mteval-v{version}"]
    args = _mteval_argv(version, case_sensitive, international, True, "closest") + ["-b", "-d", "3"]
    with tempfile.TemporaryDirectory(prefix="assay-moses-") as tmp:
        d = Path(tmp)
        _write_sgml(d, segs, [segs])
        rc, out, err = _run(["perl", str(moses_dir() / script)] + args, d, None, timeout)
    found: dict[int, str] = {}
    for line in out.split("\n"):
        m = _TOK_RE.match(line)
        if m and int(m.group(1)) not in found:
            found[int(m.group(1))] = m.group(2)
    if not found:
        raise RuntimeError(f"{script} printed no tokens (rc {rc}): {short_error(err, script)}")
    return [found.get(i) for i in range(1, len(texts) + 1)]


def mteval_tokenize(text: str, *, version: str = "13a", case_sensitive: bool = True,
                    international: bool = False) -> str | None:
    """Tokenise one string with mteval (see :func:`mteval_tokenize_many`)."""
    return mteval_tokenize_many([text], version=version, case_sensitive=case_sensitive,
                                international=international)[0]
