"""What sacrebleu 2.x prints for significance runs, rebuilt from its observed output.

- ``--confidence`` (one system): ``NAME|SIG = 28.3 (μ = 28.2 ± 3.1) <verbose part>``, several
  metrics right-aligned on the ``NAME|SIG`` part; JSON adds ``confidence_mean``,
  ``confidence_var`` (the half-width), ``confidence`` to the score's JSON (rounded to the width).
- ``--paired-bs`` / ``--paired-ar``: a box table drawn by tabulate (``fancy_grid``, as sacrebleu
  draws it: first column right-aligned, metric columns centred), ``Baseline: NAME`` first, each other system with a second line
  ``(p = 0.1234)`` (4 decimals, ``*`` when p < 0.05), then the explanation and the signatures.

The functions read the result objects by their fields only (the protocols below), so this module
imports nothing of the significance computation.
"""
from __future__ import annotations

from typing import Any, Mapping, Protocol, Sequence

SIGNIFICANCE_LEVEL = 0.05


class ScoreView(Protocol):
    """What is read of a Score: the line the tool prints."""

    @property
    def text(self) -> str: ...


class SystemView(Protocol):
    """One system's numbers (:class:`assay.jobs.significance_types.SystemResult`)."""

    score: float
    p_value: float | None
    mean: float | None
    ci: float | None


class ConfidenceView(Protocol):
    """What ``--confidence`` output reads (:class:`assay.jobs.significance_types.ConfidenceResult`)."""

    name: str
    score: ScoreView
    result: SystemView
    signature: str
    width: int

    @property
    def mean(self) -> float: ...

    @property
    def ci(self) -> float: ...


class PairedView(Protocol):
    """What the paired table reads (:class:`assay.jobs.significance_types.PairedResult`)."""

    test: str
    n_samples: int
    systems: Sequence[str]
    names: Sequence[str]
    results: Mapping[str, Sequence[SystemView]]
    signatures: Mapping[str, str]
    width: int

    @property
    def baseline(self) -> str: ...


# ----------------------------------------------------------------------------- --confidence
def _verbose_part(text: str) -> str:
    """The part of a score line after the value (BLEU's precisions and BP), or ''."""
    rest = text.split(" = ", 1)[1] if " = " in text else ""
    return rest.split(" ", 1)[1] if " " in rest else ""


def confidence_head(res: ConfidenceView) -> str:
    """``NAME|SIG`` (sacrebleu); assay's own signatures already name the metric."""
    return res.signature if res.signature.startswith("assay:") else f"{res.name}|{res.signature}"


def confidence_line(res: ConfidenceView, head_width: int = 0) -> str:
    """``BLEU|nrefs:1|bs:1000|seed:12345|… = 28.3 (μ = 28.2 ± 3.1) 60.4/…``."""
    w = res.width
    verbose = _verbose_part(res.score.text)
    line = (f"{confidence_head(res).rjust(head_width)} = {res.result.score:.{w}f} "
            f"(μ = {res.mean:.{w}f} ± {res.ci:.{w}f})")
    return f"{line} {verbose}" if verbose else line


def confidence_lines(results: Sequence[ConfidenceView]) -> list[str]:
    """Several metrics: sacrebleu right-aligns the ``NAME|SIG`` parts."""
    width = max(len(confidence_head(r)) for r in results)
    return [confidence_line(r, width) for r in results]


def confidence_json(res: ConfidenceView) -> dict[str, Any]:
    """sacrebleu's JSON for one metric with ``--confidence``."""
    w = res.width
    out: dict[str, Any] = {"name": res.name, "score": float(f"{res.result.score:.{w}f}"),
                           "signature": res.signature,
                           "confidence_mean": float(f"{res.mean:.{w}f}"),
                           "confidence_var": float(f"{res.ci:.{w}f}"),
                           "confidence": f"μ = {res.mean:.{w}f} ± {res.ci:.{w}f}"}
    verbose = _verbose_part(res.score.text)
    if verbose:
        out["verbose_score"] = verbose
    for part in res.signature.split("|"):
        key, sep, val = part.partition(":")
        if sep and key not in out:
            out[key] = val
    return out


# ----------------------------------------------------------------------------- paired table
def _cells(res: PairedView) -> tuple[list[str], list[list[str]]]:
    w = res.width
    headers = ["System"] + [f"{n} (μ ± 95% CI)" if res.test == "bs" else n for n in res.names]
    rows = []
    for i, system in enumerate(res.systems):
        row = [f"Baseline: {system}" if i == 0 else system]
        for name in res.names:
            r = res.results[name][i]
            cell = f"{r.score:.{w}f}"
            if res.test == "bs":
                cell += f" ({r.mean:.{w}f} ± {r.ci:.{w}f})"
            if r.p_value is not None:
                star = "*" if r.p_value < SIGNIFICANCE_LEVEL else ""
                cell += f"\n(p = {r.p_value:.4f}){star}"
            row.append(cell)
        rows.append(row)
    return headers, rows


def fancy_grid(headers: list[str], rows: list[list[str]]) -> str:
    """The box table sacrebleu prints: tabulate's ``fancy_grid``, the first column right-aligned, the
    others centred, cells taken as text (``1.0`` stays ``1.0``). sacrebleu draws it with tabulate,
    so tabulate draws it here too: byte for byte the same (the golden and differential significance
    tests compare the printed text character for character)."""
    from tabulate import tabulate

    return str(tabulate(rows, headers=headers, tablefmt="fancy_grid", disable_numparse=True,
                        colalign=["right"] + ["center"] * (len(headers) - 1)))


def _boxed_title(title: str) -> list[str]:
    return ["-" * len(title), title, "-" * len(title)]


def paired_text(res: PairedView) -> str:
    """The table, the test description and the metric signatures, as sacrebleu prints them."""
    headers, rows = _cells(res)
    out = [fancy_grid(headers, rows), ""]
    if res.test == "bs":
        out += _boxed_title(f"Paired bootstrap resampling test with {res.n_samples} resampling trials")
        provided = "Actual system score / bootstrap estimated true mean / 95% CI are provided for each metric."
    else:
        out += _boxed_title(f"Paired approximate randomization test with {res.n_samples} trials")
        provided = "Actual system score is provided for each metric."
    out += [
        f" - Each system is pairwise compared to Baseline: {res.baseline}.",
        f"   {provided}",
        "",
        " - Null hypothesis: the system and the baseline translations are essentially",
        "   generated by the same underlying process. For a given system and the baseline,",
        "   the p-value is roughly the probability of the absolute score difference (delta)",
        "   or higher occurring due to chance, under the assumption that the null hypothesis is correct.",
        "",
        " - Assuming a significance threshold of 0.05, the null hypothesis can be rejected",
        '   for p-values < 0.05 (marked with "*"). This means that the delta is unlikely to be attributed',
        '   to chance, hence the system is significantly "different" than the baseline.',
        "   Otherwise, the p-values are highlighted in red.",
        "",
        ' - NOTE: Significance does not tell whether a system is "better" than the baseline but rather',
        '   emphasizes the "difference" of the systems in terms of the replicability of the delta.',
        "",
    ]
    out += _boxed_title("Metric signatures")
    out += [f" - {name:<10} {res.signatures[name]}" for name in res.names]
    return "\n".join(out)
