"""Verdicts on claims, and the tables that report them (text, Markdown, JSON, HTML).

- ``reproduced``: the stated configuration (the signature given with the claim; without one,
  the community-recommended configuration) gives the claimed number at its printed precision;
- ``reproduced-other``: only other configurations do (the best explanation is named, with the
  attribution of the gap from the stated configuration);
- ``not-reproducible``: no configuration of the space does (the nearest ones are listed); when
  the claimed value is outside the range of the metric's scores (BLEU 150, TER -1), the verdict
  says so (:func:`assay.jobs.audit.claims.range_problem`).
"""
from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from typing import Any, Sequence

from assay.core.score import json_safe
from assay.jobs.audit.claims import Claim, range_problem
from assay.jobs.audit.explain import Explanation, explain
from assay.jobs.audit.search import AuditResult, Auditor, Evaluated
from assay.jobs.audit.signatures import ParsedSignature
from assay.jobs.audit.space import Candidate, RefSubset, make_candidate

VERDICT_TEXT = {"reproduced": "reproduced under the stated configuration",
                "reproduced-other": "reproduced only under another configuration",
                "not-reproducible": "not reproducible"}


@dataclass
class ClaimReport:
    claim: Claim
    result: AuditResult
    stated: list[Evaluated]
    stated_from: str                      # "signature" | "standard"
    verdict: str
    best: Evaluated | None
    explanation: Explanation | None
    signature: ParsedSignature | None = None
    system: str | None = None
    row: int | None = None
    signatures: dict[Candidate, str] = field(default_factory=dict)

    @property
    def standard(self) -> Evaluated:
        return self.result.standard

    @property
    def out_of_range(self) -> str | None:
        """Why no configuration can give the claimed value, if it is outside the metric's range."""
        return range_problem(self.claim)

    @property
    def verdict_text(self) -> str:
        problem = self.out_of_range
        return VERDICT_TEXT[self.verdict] + (f": {problem}" if problem else "")


def signature_candidates(auditor: Auditor, parsed: ParsedSignature) -> list[Candidate]:
    """The configurations a signature describes: its profile and knobs on the references its
    ``nrefs`` names (all of them, or each single one when it says 1 of several)."""
    n = len(auditor.streams)
    subsets: list[RefSubset] = [auditor.subsets[0]]
    if parsed.nrefs and parsed.nrefs.isdigit() and int(parsed.nrefs) == 1 and n > 1:
        subsets = [s for s in auditor.subsets if s.kind == "single"]
    knobs = dict(parsed.knobs)
    knobs.pop("nrefs", None)
    out = [make_candidate(auditor.metric, parsed.profile, knobs, s) for s in subsets]
    # the same configuration read on the other scale (a 1.x TER of 0.690 published as 69.0)
    config = parsed.config()
    if "scale" in config and config["scale"] in (1, 100):
        other = {**knobs, "scale": 100 if config["scale"] == 1 else 1}
        out += [make_candidate(auditor.metric, parsed.profile, other, s) for s in subsets]
    return out


def audit_claim(auditor: Auditor, claim: Claim, parsed: ParsedSignature | None = None,
                system: str | None = None, row: int | None = None, n_signatures: int = 20) -> ClaimReport:
    result = auditor.search(claim)
    if parsed is not None:
        stated = [auditor.evaluate(c) for c in signature_candidates(auditor, parsed)]
        stated_from = "signature"
    else:
        stated = [result.standard]
        stated_from = "standard"
    stated_ok = [e for e in stated if e.ok and claim.matches(e.value)]
    if stated_ok:
        verdict, best = "reproduced", stated_ok[0]
    elif result.matches:
        verdict, best = "reproduced-other", result.matches[0]
    else:
        verdict, best = "not-reproducible", None
    explanation = None
    source = next((e for e in stated if e.ok), None)
    if verdict == "reproduced-other" and source is not None and best is not None:
        explanation = explain(auditor, source.candidate, best.candidate)
    report = ClaimReport(claim, result, stated, stated_from, verdict, best, explanation, parsed, system, row)
    for e in ([best] if best else []) + result.matches[:n_signatures] + stated + [result.standard] + result.nearest(3):
        if e is not None and e.candidate not in report.signatures:
            report.signatures[e.candidate] = auditor.signature(e.candidate)
    return report


def audit_claims(hyps: Sequence[str], streams: Sequence[Sequence[Any]], items: Sequence[tuple[Claim, Any]],
                 options: Any, system: str | None = None, rows: Sequence[int | None] | None = None,
                 auditors: dict[str, Auditor] | None = None) -> list[ClaimReport]:
    """Claims (``(claim, parsed signature or None)``) on one corpus, in order; claims of one metric share
    an :class:`Auditor` (``auditors``, by metric: pass the same dict to share it across calls).
    ``options``: ``lang``, ``preprocessing``, ``single_refs``, ``max_matches`` and optionally
    ``thorough`` and ``captions`` (the ``assay audit`` options)."""
    auditors = {} if auditors is None else auditors
    out = []
    for k, (claim, sig) in enumerate(items):
        if claim.metric not in auditors:
            auditors[claim.metric] = Auditor(claim.metric, hyps, streams, lang=options.lang,
                                             preprocessing=options.preprocessing, single_refs=options.single_refs,
                                             thorough=getattr(options, "thorough", False),
                                             captions=getattr(options, "captions", False))
        out.append(audit_claim(auditors[claim.metric], claim, sig, system=system,
                               row=None if rows is None else rows[k], n_signatures=options.max_matches))
    return out


# ----------------------------------------------------------------------------- plain data
def _num(x: float | None, d: int, sign: str = "") -> str:
    """``x`` with ``d`` decimals; a magnitude of 1e16 or more (a claim of ``BLEU 1e308``) in
    scientific notation, not as 300 digits."""
    if x is None:
        return "-"
    return f"{x:{sign}.{d}f}" if abs(x) < 1e16 else f"{x:{sign}.6g}"


def _digits(claim: Claim) -> int:
    return min(max(claim.decimals + 2, 4), 10)


def report_json(r: ClaimReport, max_matches: int = 20) -> dict[str, Any]:
    d = _digits(r.claim)

    def ev(e: Evaluated) -> dict[str, Any]:
        c = e.candidate
        return {"configuration": c.label(), "value": e.value, "shown": None if e.value is None else r.claim.shown(e.value),
                "profile": f"{c.metric}/{c.profile}", "knobs": {k: json_safe(v) for k, v in c.knobs},
                "references": c.refs.name, "input": c.prep, "measure": c.measure, "display_factor": c.display,
                "departures": c.departures, "cost": c.cost, "signature": r.signatures.get(c), "error": e.error}

    std = r.standard
    return {
        "row": r.row, "system": r.system, "claim": r.claim.text, "metric": r.claim.metric,
        "claimed_value": r.claim.value, "decimals": r.claim.decimals,
        "interval": [r.claim.value - r.claim.half_unit, r.claim.value + r.claim.half_unit],
        "verdict": r.verdict, "verdict_text": r.verdict_text, "out_of_range": r.out_of_range,
        "stated_from": r.stated_from, "stated_signature": r.signature.text if r.signature else None,
        "stated": [ev(e) for e in r.stated],
        "standard": ev(std), "standard_difference": None if std.value is None else round(std.value - r.claim.value, d + 2),
        "best": ev(r.best) if r.best else None,
        "matches": [ev(e) for e in r.result.matches[:max_matches]], "match_count": len(r.result.matches),
        "configurations": len(r.result.evaluated),
        "nearest": [ev(e) for e in r.result.nearest(3)] if r.verdict == "not-reproducible" else [],
        "explanation": r.explanation.to_json() if r.explanation else None,
        "notes": r.result.notes,
    }


# ----------------------------------------------------------------------------- single claim, text
def render_claim_text(r: ClaimReport, max_matches: int = 20) -> str:
    c, d = r.claim, _digits(r.claim)
    lo, hi = c.value - c.half_unit, c.value + c.half_unit
    out = [f"claim: {c.text}  (printed with {c.decimals} decimal{'s' if c.decimals != 1 else ''}: any score in "
           f"[{_num(lo, c.decimals + 1)}, {_num(hi, c.decimals + 1)}])" + (f"  system: {r.system}" if r.system else "")]
    std = r.standard
    if std.ok:
        out.append(f"standard configuration ({std.candidate.label()}): {_num(std.value, d)} -> {c.shown(std.value)}, "
                   f"difference {_num(std.value - c.value, d, '+')}")
        out.append(f"  signature: {r.signatures.get(std.candidate, '')}")
    else:
        out.append(f"standard configuration ({std.candidate.label()}): cannot be scored ({std.error})")
    if r.signature is not None:
        for e in r.stated:
            state = "matches the claim" if e.ok and c.matches(e.value) else "does not match the claim"
            out.append(f"stated signature {r.signature.text!r} = {e.candidate.label()}: {_num(e.value, d)} -> {state}"
                       if e.ok else f"stated signature {r.signature.text!r}: cannot be scored ({e.error})")
    out.append(f"verdict: {r.verdict_text}" + (f": {r.best.candidate.label()}" if r.verdict == "reproduced-other" else ""))
    n = len(r.result.matches)
    out.append(f"{n} of {len(r.result.evaluated)} configurations give {c.shown(c.value)}" +
               (", best explanation first:" if n else "."))
    for i, e in enumerate(r.result.matches[:max_matches], 1):
        out.append(f"  {i:>3}. {_num(e.value, d)}  {e.candidate.label()}  (departures {e.candidate.departures}, "
                   f"cost {e.candidate.cost:g})")
        out.append(f"       {r.signatures.get(e.candidate) or ''}")
    if n > max_matches:
        out.append(f"       ... and {n - max_matches} more (--max-matches)")
    if r.verdict == "not-reproducible":
        out.append("nearest configurations:")
        for e in r.result.nearest(3):
            out.append(f"  {_num(e.value, d)} ({_num(e.value - c.value, d, '+')})  {e.candidate.label()}")
            out.append(f"       {r.signatures.get(e.candidate) or ''}")
    if r.explanation is not None:
        src = "stated" if r.stated_from == "signature" else "standard"
        out.append(f"explanation ({src} -> {r.best.candidate.label()}):")
        out += ["  " + ln for ln in r.explanation.lines(d)]
    out += [f"note: {n_}" for n_ in r.result.notes]
    return "\n".join(out)


# ----------------------------------------------------------------------------- tables
COLUMNS = ("row", "system", "claim", "stated", "stated score", "verdict", "configuration", "signature", "detail")


def table_rows(reports: Sequence[ClaimReport]) -> list[dict[str, str]]:
    rows = []
    for r in reports:
        c, d = r.claim, _digits(r.claim)
        stated_e = next((e for e in r.stated if e.ok), r.stated[0] if r.stated else None)
        stated = (r.signature.text if r.signature else "standard: " + r.standard.candidate.label())
        if r.verdict == "not-reproducible":
            config = "-"
            sig = "-"
            detail = (f"{r.out_of_range}; " if r.out_of_range else "") + "nearest: " + "; ".join(f"{e.candidate.label()} = {_num(e.value, d)} ({_num(e.value - c.value, d, '+')})"
                                              for e in r.result.nearest(3))
        else:
            config = r.best.candidate.label()
            sig = r.signatures.get(r.best.candidate, "")
            detail = f"{len(r.result.matches)} matching configuration(s)"
            also = [e.candidate.label() for e in r.result.matches[:4] if e.candidate.label() != config][:3]
            if also:
                detail += "; also: " + "; ".join(also)
            if r.explanation is not None:
                detail += "; gap " + ", ".join(f"{n}: {v:+.{d}f}" for n, v in r.explanation.steps)
        rows.append({"row": "" if r.row is None else str(r.row), "system": r.system or "", "claim": c.text,
                     "stated": stated, "stated score": _num(stated_e.value if stated_e else None, d),
                     "verdict": VERDICT_TEXT[r.verdict], "configuration": config, "signature": sig, "detail": detail})
    return rows


def render_table(reports: Sequence[ClaimReport], fmt: str) -> str:
    if fmt == "json":
        return json.dumps([report_json(r) for r in reports], ensure_ascii=False, indent=2)
    rows = table_rows(reports)
    if fmt == "markdown":
        esc = lambda s: s.replace("|", "\\|").replace("\n", " ")  # noqa: E731
        out = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
        out += ["| " + " | ".join(esc(r[k]) for k in COLUMNS) + " |" for r in rows]
        return "\n".join(out)
    if fmt == "html":
        head = "".join(f"<th>{html.escape(k)}</th>" for k in COLUMNS)
        body = "".join("<tr class=\"" + html.escape(rep.verdict) + "\">" +
                       "".join(f"<td>{html.escape(r[k])}</td>" for k in COLUMNS) + "</tr>\n"
                       for r, rep in zip(rows, reports))
        return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>assay audit</title><style>"
                "table{border-collapse:collapse;font:13px sans-serif}td,th{border:1px solid #ccc;padding:3px 6px;"
                "vertical-align:top}tr.reproduced td{background:#eaf7ea}tr.reproduced-other td{background:#fff6e0}"
                "tr.not-reproducible td{background:#fbeaea}</style></head><body>\n<table>\n<tr>" + head + "</tr>\n" +
                body + "</table>\n</body></html>")
    # text: one block per claim
    blocks = []
    for r, rep in zip(rows, reports):
        lines = [f"[{r['row'] or '-'}] {r['system']}  {r['claim']}: {r['verdict']}"]
        lines.append(f"    stated: {r['stated']} = {r['stated score']}")
        if r["configuration"] != "-":
            lines.append(f"    configuration: {r['configuration']}")
            lines.append(f"    signature: {r['signature']}")
        lines.append(f"    {r['detail']}")
        blocks.append("\n".join(lines))
    return "\n".join(blocks)
