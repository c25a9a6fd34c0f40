"""``assay report --corpora DIR``: every corpus under DIR, every system of each corpus.

A corpus is a directory (DIR, DIR/*, DIR/*/*) with reference files and one or more hypothesis
files (*systems*) of the same length (:func:`find_corpora`). Per corpus, the detailed report is
made on its first system (by file name), and every system is scored under every profile
(:func:`system_rankings`): per metric measure, each profile's ranking of the systems, the systems
whose rank changes between profiles and Kendall's tau between every two profiles
(:mod:`.corpora_rank`), written next to the report as ``systems.md`` and ``systems.json``.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from assay.core.errors import AssayError
from assay.jobs.compare import compare, markdown_table, view_of
from assay.jobs.report import discover_corpus
from assay.jobs.report.corpora_rank import Ranking
from assay.jobs.report.model import write_json


@dataclass(frozen=True)
class Corpus:
    """A corpus directory: its name (path under DIR, ``/`` as ``-``), systems and references."""

    name: str
    directory: Path
    systems: tuple[Path, ...]
    refs: tuple[Path, ...]


def _line_count(path: Path) -> int:
    with path.open("rb") as fh:
        return sum(1 for _ in fh)


def find_corpora(root: Path, system: str | None = None) -> list[Corpus]:
    """Every corpus directory in ``root``, ``root/*`` and ``root/*/*`` with each of its systems:
    every hypothesis file (``system``: those whose name contains it) as long as its references."""
    candidates = sorted(d for d in [root, *root.iterdir(), *(e for d in root.iterdir() if d.is_dir()
                                                              for e in d.iterdir())] if d.is_dir())
    found = []
    for d in candidates:
        try:
            first, refs = discover_corpus(d, system)
        except AssayError:
            continue
        n = _line_count(first)
        hyps = sorted(p for p in d.iterdir() if p.is_file() and "hyp" in p.name.lower() and p not in refs
                      and (system is None or system in p.name) and _line_count(p) == n)
        name = str(d.relative_to(root)).replace("/", "-") if d != root else root.name
        found.append(Corpus(name or root.name, d, tuple(hyps), tuple(refs)))
    return found


def system_rankings(systems: dict[str, tuple[list[str], list[list[str]]]], metrics: Sequence[str] | None,
                    step: Callable[[str], None] | None = None) -> list[Ranking]:
    """Score every system (name -> (hyps, reference streams)) under every profile of ``metrics`` and
    rank them per metric measure (scores on the printed scale: the normalised column where there is
    one). A profile that cannot score some system is left out of that measure's ranking."""
    per: dict[tuple[str, str], dict[str, dict[str, float]]] = {}
    failed: dict[tuple[str, str], set[str]] = {}
    for name, (hyps, refs) in systems.items():
        cmp = compare(hyps, refs, metrics, progress=(lambda label, n=name: step(f"{n}: {label}")) if step else None)
        for t in cmp.tables:
            key = (t.metric, t.measure.label)
            table = per.setdefault(key, {})
            for r in t.rows:
                value = r.normalised if r.normalised is not None else r.value
                if value is None:
                    failed.setdefault(key, set()).add(r.profile)
                else:
                    table.setdefault(r.profile, {})[name] = value
    out = []
    for (metric, measure), scores in per.items():
        kept = {p: s for p, s in scores.items() if p not in failed.get((metric, measure), set())}
        if kept:
            out.append(Ranking(metric, measure, view_of(metric).lower_is_better, kept))
    return out


def short_names(paths: Sequence[Path]) -> dict[Path, str]:
    """Each system's file name without the prefix and suffix all of them share (``newstest2017.``,
    ``.en-de.hyp.de``; whole name parts only): the part that names the system."""
    names = [p.name for p in paths]
    if len(names) < 2:
        return {p: p.name for p in paths}
    prefix = len(_common(names))
    suffix = len(_common([n[::-1] for n in names]))
    out = {}
    for p, n in zip(paths, names):
        core = n[prefix:len(n) - suffix] if len(n) - suffix > prefix else n
        out[p] = core.strip(".-_") or n
    return out


def _common(names: Sequence[str]) -> str:
    """The longest common prefix that ends at a separator (``.``, ``-``, ``_``): whole name parts only."""
    first = names[0]
    k = 0
    while k < len(first) and all(len(n) > k and n[k] == first[k] for n in names):
        k += 1
    cut = max(first.rfind(sep, 0, k) for sep in ".-_")
    return first[:cut + 1] if cut >= 0 else ""


def write_rankings(corpus: Corpus, rankings: Sequence[Ranking], out: Path) -> tuple[Path, Path]:
    """``systems.json`` and ``systems.md`` of one corpus in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    doc = {"corpus": corpus.name, "systems": [p.name for p in corpus.systems],
           "references": [p.name for p in corpus.refs], "rankings": [r.as_dict() for r in rankings]}
    json_path = write_json(doc, out / "systems.json")
    lines = [f"# {corpus.name}: does the ranking of systems change between tools?", "",
             f"{len(corpus.systems)} system(s) against {', '.join(p.name for p in corpus.refs)}. Per metric, each "
             "profile ranks the systems by its score (on the metric's printed scale); Kendall's tau-b between "
             "two profiles' scores is 1 when they rank every pair of systems alike.", ""]
    if rankings:
        rows = []
        for r in rankings:
            low = r.min_tau
            rows.append([r.metric, r.measure, str(len(r.scores)), str(len(r.systems)),
                         "—" if low is None else f"{low[0]:.3f}", "—" if low is None else f"{low[1]} vs {low[2]}",
                         str(len(r.rank_changes()))])
        lines += [markdown_table(["metric", "measure", "profiles", "systems", "lowest tau", "between",
                                  "systems whose rank changes"], rows), ""]
    for r in rankings:
        profiles = list(r.scores)
        lines += [f"## {r.metric} — {r.measure}", ""]
        body = []
        for system in r.systems:
            changes = r.rank_changes().get(system)
            body.append([system, *[f"{r.scores[p][system]:.2f} (#{r.ranks[p][system]})" if system in r.scores[p]
                                   else "—" for p in profiles], "" if changes is None else f"#{changes[0]}–#{changes[1]}"])
        lines += [markdown_table(["system", *profiles, "rank changes"], body), ""]
        taus = [[a, b, "—" if t is None else f"{t:.3f}"] for (a, b), t in r.taus.items()]
        if taus:
            lines += [markdown_table(["profile", "profile", "Kendall tau-b"], taus), ""]
    md_path = out / "systems.md"
    md_path.write_text("\n".join(lines), encoding="utf-8")
    return json_path, md_path
