"""What sacrebleu 2.6.0's command line prints, rebuilt from its observed output (never its code).

- One system, ``-f text``: one line per metric, ``NAME|SIGNATURE = SCORE …``, the ``NAME|SIGNATURE``
  parts right-aligned to the longest (:func:`aligned_lines`); ``--short`` shortens the signature
  (:func:`shorten`), JSON never does.
- One system, ``-f json`` (the default): the metric's JSON object (indent 1), a list of them for
  several metrics (:func:`json_lines`).
- ``-b``: the score alone, ``-w`` decimals (``47`` at ``-w 0``); in JSON one score is printed bare
  and several as ``[`` / one per line, comma-separated / ``]`` (:func:`score_only`).
- Several systems without a test: a ``System | METRIC …`` table (``-f text``; tabulate's
  fancy_grid look, :func:`assay.jobs.significance_text.fancy_grid`) or LaTeX (``-f latex``:
  tabulate's latex_booktabs, :func:`latex_table`), then the metric signatures; ``-f json``: a list of
  ``{"system": NAME, METRIC: "SCORE"}`` (indent 4, the score as printed text).
"""
from __future__ import annotations

import json
from typing import Any, Sequence

from assay.jobs.significance_text import fancy_grid
from assay.output.chrf import SHORT_KEYS as CHRF_SHORT_KEYS
from assay.output.signature import SHORT_KEYS as BLEU_SHORT_KEYS
from assay.output.ter import TER_SHORT_KEYS

#: the fields a significance run adds to a signature (``bs:1000|seed:12345``), as ``--short`` writes them
TEST_SHORT_KEYS = {"bs": "bs", "ar": "ar", "seed": "rs"}
SHORT_KEYS = {"bleu": BLEU_SHORT_KEYS, "chrf": CHRF_SHORT_KEYS, "ter": TER_SHORT_KEYS}


def shorten(signature: str, metric: str) -> str:
    """``--short``: each ``key:value`` field of a sacrebleu signature under its short key."""
    keys = {**SHORT_KEYS[metric], **TEST_SHORT_KEYS}
    out = []
    for part in signature.split("|"):
        key, sep, value = part.partition(":")
        out.append(f"{keys.get(key, key)}{sep}{value}")
    return "|".join(out)


def aligned_lines(heads: Sequence[str], tails: Sequence[str]) -> list[str]:
    """``HEAD = TAIL`` per metric, the heads right-aligned to the longest."""
    width = max(len(h) for h in heads)
    return [f"{h.rjust(width)} = {t}" for h, t in zip(heads, tails)]


def json_lines(docs: Sequence[dict[str, Any]]) -> str:
    """One metric's JSON object (indent 1, non-ASCII as is); several: ``[``, the objects, each as for
    one metric, separated by ``,`` lines, ``]``."""
    objects = [json.dumps(doc, indent=1, ensure_ascii=False) for doc in docs]
    return objects[0] if len(objects) == 1 else "[\n" + ",\n".join(objects) + "\n]"


def score_only(values: Sequence[str], json_format: bool) -> str:
    """``-b``: the printed scores, one per line (JSON: a bare score, or a bracketed list)."""
    if json_format and len(values) > 1:
        return "[\n" + ",\n".join(values) + "\n]"
    return "\n".join(values)


def signatures_block(names: Sequence[str], signatures: Sequence[str]) -> str:
    """The ``Metric signatures`` trailer of a multi-system table."""
    title = "Metric signatures"
    rule = "-" * len(title)
    return "\n".join([rule, title, rule] + [f" - {n:<10} {s}" for n, s in zip(names, signatures)])


def latex_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """sacrebleu's ``-f latex`` table: tabulate's ``latex_booktabs`` (column 0 right-aligned, the
    others centred, cells as text), a cell's lines joined by a space."""
    from tabulate import tabulate

    flat = [[" ".join(cell.split("\n")) for cell in row] for row in rows]
    return str(tabulate(flat, headers=list(headers), tablefmt="latex_booktabs", disable_numparse=True,
                        colalign=["right"] + ["center"] * (len(headers) - 1)))


def systems_table(fmt: str, systems: Sequence[str], names: Sequence[str], cells: Sequence[Sequence[str]],
                  signatures: Sequence[str]) -> str:
    """Several systems without a test: ``cells[i][k]`` is system i's printed score under metric k."""
    if fmt == "json":
        docs = [{"system": system, **dict(zip(names, row))} for system, row in zip(systems, cells)]
        return json.dumps(docs, indent=4, ensure_ascii=False)
    headers = ["System", *names]
    rows = [[system, *row] for system, row in zip(systems, cells)]
    table = latex_table(headers, rows) if fmt == "latex" else fancy_grid(headers, rows)
    return f"{table}\n\n{signatures_block(names, signatures)}"
