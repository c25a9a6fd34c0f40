"""``assay sacrebleu``: sacrebleu 2.6.0's command line on local files, from the parsed options.

:func:`run` takes the options (an object with sacrebleu's option names as attributes, e.g. the
argparse namespace of :mod:`assay.cli.sacrebleu`), the reference files' lines and the systems'
lines, and returns what sacrebleu prints on stdout. The scores come from assay's sacrebleu 2.6.0
profiles (:func:`.flags.profile_for`) with the knobs of :mod:`.flags`; the
significance tests from :mod:`assay.jobs.significance` (sacrebleu's seed: ``SACREBLEU_SEED``,
else 12345).

sacrebleu's refusals reproduced as errors (exit 2; sacrebleu itself exits 1): a test set or
anything that needs one (``-t``, ``--echo``, ``--download``, ``--list``, ``--citation``,
``--origlang``, ``--subset``: sacrebleu downloads them), no references, streams of different
lengths, several metrics or systems or a test in sentence-level mode, ``--confidence`` with several
systems, a paired test with one, two systems of the same name.

Known divergences: ``-f json`` of a paired test with chrF or TER fails in sacrebleu 2.6.0
(``float32 is not JSON serializable``); assay prints it. ``--confidence-n 1`` (no interval) is
refused.
"""
from __future__ import annotations

import copy
import json
from dataclasses import replace
from typing import Any, Sequence

from assay.core.errors import InputError, KnobError
from assay.engine import api
from assay.jobs import significance as sig
from assay.jobs.sacrebleu_cli import render
from assay.jobs.sacrebleu_cli.flags import METRICS, metric_knobs, profile_for
from assay.jobs.significance_text import _cells as paired_cells  # the paired text table's cells

#: options that need sacrebleu's test sets, which it downloads: (attribute, how the user spelled it)
TEST_SET_OPTIONS = (("test_set", "-t/--test-set"), ("echo", "--echo"), ("download", "--download"),
                    ("list", "--list"), ("citation", "--citation"), ("origlang", "--origlang"),
                    ("subset", "--subset"))
NO_TEST_SETS = ("needs sacrebleu's test sets, which it downloads (network); assay sacrebleu scores local "
                "files: pass the reference files first, then -i SYSTEM (sacrebleu REF [REF ...] -i HYP)")
DETAIL_NOTE = "No subset information found. Consider using --origlang argument."


def check_offline(options: Any) -> None:
    """Refuse, in one line, the options that need a downloaded test set."""
    for attr, spelled in TEST_SET_OPTIONS:
        if getattr(options, attr, None):
            raise KnobError(f"{spelled} {NO_TEST_SETS}")


def split_references(files: Sequence[tuple[str, list[str]]], num_refs: int) -> list[list[str]]:
    """Reference streams: one per file; with ``-nr N`` (N > 1) one file whose lines hold N
    tab-separated references."""
    if num_refs == 1:
        return [lines for _, lines in files]
    if len(files) != 1:
        raise InputError(f"-nr {num_refs} splits one reference file on tabs, got {len(files)} files")
    path, lines = files[0]
    streams: list[list[str]] = [[] for _ in range(num_refs)]
    for number, line in enumerate(lines, 1):
        fields = line.split("\t")
        if len(fields) != num_refs:
            raise InputError(f"{path}:{number}: expected {num_refs} tab-separated references, found {len(fields)}")
        for stream, text in zip(streams, fields):
            stream.append(text)
    return streams


def system_names(paths: Sequence[str], paired: bool) -> list[str]:
    """The systems' names (their paths as given); in a paired test a repeat of the baseline is dropped
    (sacrebleu: "Ignoring … as it was also given as the baseline"); any other repeat is an error."""
    names: list[str] = []
    for i, path in enumerate(paths):
        if paired and i > 0 and path == paths[0]:
            continue
        if path in names:
            raise InputError(f"-i: {path!r} is given twice; each system needs its own file name")
        names.append(path)
    return names


def metric_names(options: Any) -> list[str]:
    """The ``-m`` metrics as sacrebleu runs them: BLEU, chrF, TER order whatever the order given,
    each once."""
    return [m for m in METRICS if m in options.metrics]


def _metrics(options: Any) -> list[tuple[str, dict[str, Any]]]:
    values = vars(options)
    return [(m, metric_knobs(m, values)) for m in metric_names(options)]


def run(options: Any, references: Sequence[tuple[str, list[str]]], systems: Sequence[tuple[str, list[str]]]) -> str:
    """sacrebleu's stdout (without the final newline) for ``options`` on these files."""
    check_offline(options)
    if options.detail and options.format == "json":     # sacrebleu: --detail prints text
        options = copy.copy(options)
        options.format = "text"
    if not references:
        raise InputError("no references: give the reference files before -i (sacrebleu REF [REF ...] -i HYP); "
                         "sacrebleu's downloadable test sets (-t) need the network")
    streams = split_references(references, options.num_refs)
    paired = options.paired_bs or options.paired_ar
    names = system_names([name for name, _ in systems], bool(paired))
    outputs = {name: lines for name, lines in systems}
    for name in names:
        for k, stream in enumerate(streams):
            if len(stream) != len(outputs[name]):
                ref_path = references[k if len(references) > 1 else 0][0]
                raise InputError(f"system and reference streams have different lengths: {name} has "
                                 f"{len(outputs[name])} lines, {ref_path} {len(stream)}")
    if options.sentence_level:
        if len(metric_names(options)) > 1:
            raise KnobError("only one metric can be used in sentence-level mode (sacrebleu's rule)")
        if len(names) > 1:
            raise KnobError("only one system can be evaluated in sentence-level mode (sacrebleu's rule)")
        if options.confidence or paired:
            raise KnobError("statistical tests are unavailable in sentence-level mode (sacrebleu's rule)")
        return _sentences(options, outputs[names[0]], streams)
    if len(names) == 1:
        if paired:
            raise KnobError("paired tests need several systems given to -i (a baseline first)")
        if options.confidence:
            return _detailed(options, _confidence(options, outputs[names[0]], streams))
        return _detailed(options, _single(options, outputs[names[0]], streams))
    if options.confidence:
        raise KnobError("--confidence takes one system; use a paired test (--paired-bs, --paired-ar) for several")
    if paired:
        return _paired(options, names, outputs, streams)
    return _systems(options, names, outputs, streams)


def _width(options: Any) -> int:
    return int(options.width)


def _head(name: str, signature: str, metric: str, short: bool) -> str:
    return f"{name}|{render.shorten(signature, metric) if short else signature}"


def _scores(options: Any, hyps: list[str], streams: list[list[str]]) -> list[Any]:
    """The corpus Score of ``hyps`` under each ``-m`` metric."""
    return [api.score(metric, hyps, streams, profile_for(metric), width=_width(options), **knobs)
            for metric, knobs in _metrics(options)]


def _single(options: Any, hyps: list[str], streams: list[list[str]]) -> str:
    scores = _scores(options, hyps, streams)
    w = _width(options)
    if options.score_only:
        return render.score_only([f"{s.value:.{w}f}" for s in scores], options.format == "json")
    if options.format == "json":
        return render.json_lines([s.tool_json for s in scores])
    heads = [_head(s.tool_json["name"], s.signature, s.metric, options.short) for s in scores]
    return "\n".join(render.aligned_lines(heads, [s.text.split(" = ", 1)[1] for s in scores]))


def _detailed(options: Any, out: str) -> str:
    """``--detail`` without a test set: sacrebleu prints text (never JSON) and adds a note after one
    system's corpus output (not after sentence scores or several systems)."""
    return f"{out}\n{DETAIL_NOTE}" if options.detail else out


def _sentences(options: Any, hyps: list[str], streams: list[list[str]]) -> str:
    ((metric, knobs),) = _metrics(options)
    configured = api.configure(metric, profile_for(metric), "sentence", **knobs)
    w = _width(options)
    out = []
    for s in api.sentence_scores_configured(configured, hyps, streams, width=w):
        if options.score_only:
            out.append(f"{s.value:.{w}f}")
        else:
            name = s.text.split("|", 1)[0]
            out.append(f"{_head(name, s.signature, s.metric, options.short)} = {s.text.split(' = ', 1)[1]}")
    return "\n".join(out)


def _confidence(options: Any, hyps: list[str], streams: list[list[str]]) -> str:
    metrics = [(m, profile_for(m), knobs) for m, knobs in _metrics(options)]
    res = sig.confidence_interval(metrics, hyps, streams, n_samples=options.confidence_n, width=_width(options))
    results = res if isinstance(res, list) else [res]
    w = _width(options)
    if options.score_only:
        return render.score_only([f"{r.result.score:.{w}f} (μ = {r.mean:.{w}f} ± {r.ci:.{w}f})" for r in results],
                                 options.format == "json")
    if options.format == "json":
        return render.json_lines([r.tool_json() for r in results])
    heads = [_head(r.name, r.signature, r.metric, options.short) for r in results]
    tails = [r.text.split(" = ", 1)[1] for r in results]
    return "\n".join(render.aligned_lines(heads, tails))


def _paired(options: Any, names: list[str], outputs: dict[str, list[str]], streams: list[list[str]]) -> str:
    metrics = [(m, profile_for(m), knobs) for m, knobs in _metrics(options)]
    test = "bs" if options.paired_bs else "ar"
    n = options.paired_bs_n if test == "bs" else options.paired_ar_n
    run_test = sig.paired_bootstrap if test == "bs" else sig.paired_ar
    result = run_test(metrics, (names[0], outputs[names[0]]), [(n_, outputs[n_]) for n_ in names[1:]], streams,
                      n_samples=n, width=_width(options))
    if options.format == "json":
        return json.dumps(result.tool_json(), indent=4, ensure_ascii=False)
    if options.short:
        families = dict(zip(result.names, metric_names(options)))
        result = replace(result, signatures={k: render.shorten(v, families[k]) for k, v in result.signatures.items()})
    if options.format == "latex":
        return _paired_latex(result)
    return result.text


def _paired_latex(result: Any) -> str:
    """The paired table as LaTeX (the text table's cells), then the same explanation and signatures."""
    headers, rows = paired_cells(result)
    text = result.text
    return render.latex_table(headers, rows) + text[text.index("\n\n"):]


def _systems(options: Any, names: list[str], outputs: dict[str, list[str]], streams: list[list[str]]) -> str:
    per_system = [_scores(options, outputs[name], streams) for name in names]
    w = _width(options)
    first = per_system[0]
    metric_names = [s.tool_json["name"] for s in first]
    signatures = [render.shorten(s.signature, s.metric) if options.short else s.signature for s in first]
    cells = [[f"{s.value:.{w}f}" for s in scores] for scores in per_system]
    return render.systems_table(options.format, names, metric_names, cells, signatures)
