"""Adapter for sacrebleu 2.x significance testing, run in-process.

Two views of one run, both recorded in fixtures:

- the Python API (``sacrebleu.significance.PairedTest`` for ``--paired-bs``/``--paired-ar``,
  ``Metric.corpus_score(..., n_bootstrap=N)`` for ``--confidence``) gives the full-precision
  numbers (score, p_value, mean, ci);
- the command line (``sacrebleu.sacrebleu.main`` of the same interpreter in a child process, files
  in a temporary folder named after the systems) gives the printed text (``-f text``) and, where
  sacrebleu can print it, the JSON (its paired JSON fails for chrF/TER with numpy 2: float32 is not
  JSON serialisable; that failure is recorded as data).

The seed is passed the way sacrebleu reads it: the ``SACREBLEU_SEED`` environment variable
(set for the call, restored afterwards). ``metrics`` are ``(metric, args)`` pairs with ``metric``
in bleu/chrf/ter and ``args`` sacrebleu's constructor arguments.
"""
from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterator, Sequence

METRIC_CLASSES = {"bleu": "BLEU", "chrf": "CHRF", "ter": "TER"}
# sacrebleu constructor argument -> CLI flag (booleans are store_true flags)
CLI_FLAGS = {
    "bleu": {"tokenize": "--tokenize", "lowercase": "--lowercase", "smooth_method": "--smooth-method",
             "smooth_value": "--smooth-value", "max_ngram_order": None, "effective_order": None},
    "chrf": {"char_order": "--chrf-char-order", "word_order": "--chrf-word-order", "beta": "--chrf-beta",
             "whitespace": "--chrf-whitespace", "lowercase": "--chrf-lowercase",
             "eps_smoothing": "--chrf-eps-smoothing"},
    "ter": {"case_sensitive": "--ter-case-sensitive", "asian_support": "--ter-asian-support",
            "no_punct": "--ter-no-punct", "normalized": "--ter-normalized"},
}


def version() -> str:
    import sacrebleu
    return sacrebleu.__version__


@contextlib.contextmanager
def seed_env(seed: Any) -> Iterator[None]:
    """Set ``SACREBLEU_SEED`` for the duration of a call (``None`` -> unset, i.e. the default 12345)."""
    old = os.environ.get("SACREBLEU_SEED")
    if seed is None:
        os.environ.pop("SACREBLEU_SEED", None)
    else:
        os.environ["SACREBLEU_SEED"] = str(seed)
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("SACREBLEU_SEED", None)
        else:
            os.environ["SACREBLEU_SEED"] = old


def make_metric(metric: str, args: dict[str, Any]) -> Any:
    import sacrebleu.metrics as sm
    return getattr(sm, METRIC_CLASSES[metric])(**args)


def cli_args(metrics: Sequence[tuple[str, dict[str, Any]]]) -> list[str]:
    """``-m bleu chrf …`` plus the metric flags; arguments sacrebleu's CLI lacks raise ValueError."""
    out = ["-m"] + [m for m, _ in metrics]
    for metric, args in metrics:
        for key, value in args.items():
            flag = CLI_FLAGS[metric].get(key)
            if flag is None:
                raise ValueError(f"sacrebleu's CLI has no flag for {metric} {key}")
            if isinstance(value, bool):
                if value:
                    out.append(flag)
            else:
                out += [flag, str(value)]
    return out


def _write(folder: Path, name: str, lines: Sequence[str]) -> str:
    (folder / name).write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return name


def run_cli(argv: list[str], files: dict[str, Sequence[str]], seed: Any) -> dict[str, Any]:
    """``sacrebleu ARGV`` (this interpreter's sacrebleu, a child process: the CLI rebinds the
    process's stdout) in a temporary folder holding ``files``: stdout, stderr, exit status."""
    env = dict(os.environ)
    env.pop("SACREBLEU_SEED", None)
    if seed is not None:
        env["SACREBLEU_SEED"] = str(seed)
    env["PYTHONIOENCODING"] = "utf-8"
    with tempfile.TemporaryDirectory() as tmp:
        for name, lines in files.items():
            _write(Path(tmp), name, lines)
        proc = subprocess.run([sys.executable, "-c", "import sys; from sacrebleu.sacrebleu import main; "
                               "sys.exit(main())"] + argv, cwd=tmp, env=env, capture_output=True, text=True,
                              encoding="utf-8", timeout=3600)
    errors = [ln for ln in proc.stderr.splitlines() if not ln.startswith("sacreBLEU: ")]
    return {"stdout": proc.stdout, "status": proc.returncode, "stderr": "\n".join(errors)}


def _plain(x: Any) -> Any:
    return None if x is None else float(x)


def paired(test: str, metrics: Sequence[tuple[str, dict[str, Any]]], systems: Sequence[tuple[str, Sequence[str]]],
           refs: Sequence[Sequence[str]], n_samples: int, seed: Any = None, cli: bool = True) -> dict[str, Any]:
    """A paired test (``test`` = "bs" or "ar") of ``systems[0]`` (baseline) against the others."""
    from sacrebleu.significance import PairedTest
    objs = {f"m{i}": make_metric(m, a) for i, (m, a) in enumerate(metrics)}
    with seed_env(seed), contextlib.redirect_stderr(io.StringIO()):
        sigs, scores = PairedTest([(n, list(h)) for n, h in systems], objs, [list(r) for r in refs],
                                  test_type=test, n_samples=n_samples)()
    names = [k for k in scores if k != "System"]
    out: dict[str, Any] = {
        "tool": "sacrebleu", "version": version(), "test": test, "n_samples": n_samples,
        "seed": None if seed is None else str(seed),
        "names": names,
        "signatures": {k: str(v) for k, v in sigs.items()},
        "results": {k: [{"score": _plain(r.score), "p_value": _plain(r.p_value), "mean": _plain(r.mean),
                         "ci": _plain(r.ci)} for r in scores[k]] for k in names},
        "api": f"PairedTest(systems, metrics, refs, test_type={test!r}, n_samples={n_samples})() "
               f"with SACREBLEU_SEED={'unset' if seed is None else seed}",
    }
    if cli:
        files = {n: h for n, h in systems}
        ref_names = [f"ref{k}.txt" for k in range(len(refs))]
        files.update(dict(zip(ref_names, refs)))
        flag = ["--paired-bs", "--paired-bs-n", str(n_samples)] if test == "bs" else \
            ["--paired-ar", "--paired-ar-n", str(n_samples)]
        argv = ref_names + ["-i"] + [n for n, _ in systems] + cli_args(metrics) + flag
        text = run_cli(argv + ["-f", "text"], files, seed)
        js = run_cli(argv + ["-f", "json"], files, seed)
        out["command"] = "sacrebleu " + " ".join(argv) + " -f text|json"
        out["text"] = text["stdout"]
        out["json"] = json.loads(js["stdout"]) if js["status"] == 0 and js["stdout"].strip() else None
        out["json_error"] = None if out["json"] is not None else (js["stderr"].splitlines() or [""])[-1]
    return out


def confidence(metrics: Sequence[tuple[str, dict[str, Any]]], hyps: Sequence[str], refs: Sequence[Sequence[str]],
               n_samples: int, seed: Any = None, cli: bool = True) -> dict[str, Any]:
    """``--confidence``: per metric ``corpus_score(hyps, refs, n_bootstrap=n)`` (score, _mean, _ci)."""
    results = []
    for metric, args in metrics:
        obj = make_metric(metric, args)
        try:
            with seed_env(seed), contextlib.redirect_stderr(io.StringIO()):
                score = obj.corpus_score(list(hyps), [list(r) for r in refs], n_bootstrap=n_samples)
            results.append({"name": score.name, "score": float(score.score), "mean": float(score._mean),
                            "ci": float(score._ci), "signature": str(obj.get_signature()), "error": None})
        except Exception as exc:  # the tool's own failure, recorded as data
            results.append({"name": None, "error": f"{type(exc).__name__}: {exc}"})
    out: dict[str, Any] = {"tool": "sacrebleu", "version": version(), "test": "confidence", "n_samples": n_samples,
                           "seed": None if seed is None else str(seed), "results": results,
                           "api": f"Metric(**args).corpus_score(hyps, refs, n_bootstrap={n_samples})"}
    if cli:
        ref_names = [f"ref{k}.txt" for k in range(len(refs))]
        files = {"system.txt": hyps, **dict(zip(ref_names, refs))}
        argv = ref_names + ["-i", "system.txt"] + cli_args(metrics) + ["--confidence", "--confidence-n", str(n_samples)]
        text = run_cli(argv + ["-f", "text"], files, seed)
        js = run_cli(argv + ["-f", "json"], files, seed)
        out["command"] = "sacrebleu " + " ".join(argv) + " -f text|json"
        out["text"] = text["stdout"]
        out["json"] = json.loads(js["stdout"]) if js["status"] == 0 and js["stdout"].strip() else None
        out["json_error"] = None if out["json"] is not None else (js["stderr"].splitlines() or [""])[-1]
    return out
