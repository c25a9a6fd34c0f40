"""Verdicts on claims, and the tables that report them (text, Markdown, JSON, HTML).

- ``reproduced``: the stated configuration (the signature given with the claim; without one,
  the community-recommended configuration) gives the claimed number at its printed precision;
- ``reproduced-other``: only other configurations do (the best explanation is named, with the
  attribution of the gap from the stated configuration);
- ``not-reproducible``: no configuration of the space does (the nearest ones are listed); when
  the claimed value is outside the range of the metric's scores (BLEU 150, TER -1), the verdict
  says so (:func:`assay.jobs.audit.claims.range_problem`).

The text speaks the user's words: the claim as written, reference files by name, "reproduced under
the stated configuration" only when a signature stated one ("... under the standard configuration"
otherwise), "no configuration reproduces 21.27; the nearest is ..." when none does, and what the
best explanation says about the claim (:attr:`ClaimReport.findings`: a mislabelled metric, a value
rounded twice or truncated); no internal cost, no exception class names.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
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
#: the verdict when the configuration compared first is the standard one (no signature was given)
STANDARD_TEXT = "reproduced under the standard configuration"


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
    language: dict[str, Any] = field(default_factory=dict)      # the target language and how it was found

    @property
    def standard(self) -> Evaluated:
        return self.result.standard

    @property
    def out_of_range(self) -> str | None:
        """Why no configuration can give the claimed value, if it is outside the metric's range."""
        return range_problem(self.claim)

    @property
    def verdict_text(self) -> str:
        """The verdict in words: "reproduced under the stated configuration" only when a signature
        stated one (else "... under the standard configuration"); a claim nothing reproduces reads
        "no configuration reproduces 21.27; the nearest is ..."."""
        problem = self.out_of_range
        if self.verdict == "reproduced" and self.stated_from != "signature":
            text = STANDARD_TEXT
        elif self.verdict == "not-reproducible":
            near = self.result.nearest(1)
            text = (f"{VERDICT_TEXT[self.verdict]}: {problem}" if problem else
                    f"no configuration reproduces {self.claim.shown(self.claim.value)}")
            if near:
                text += f"; the nearest is {near[0].candidate.label()} ({_num(near[0].value, _digits(self.claim))})"
            if not self.standard.ok and self.standard.error:
                text += "; the standard configuration could not be computed (see above)"
            return text
        else:
            text = VERDICT_TEXT[self.verdict]
        return text + (f": {problem}" if problem else "")

    @property
    def findings(self) -> list[str]:
        """What the best explanation says about how the claim was written: a label that names another
        metric or variant ("mislabelled: the number is chrF2, not chrF2++"), a value rounded twice or
        truncated."""
        return findings(self.claim, self.best) if self.best is not None else []


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


def metric_name(metric: str, knobs: dict[str, Any]) -> str:
    """A configuration's metric as sacrebleu names it: ``chrF2``, ``chrF2++``, ``chrF3``, ``BLEU``,
    ``BLEU-2``; other families by their usual name."""
    if metric == "chrf":
        beta = knobs.get("beta", 2)
        beta = int(beta) if float(beta).is_integer() else beta
        words = int(knobs.get("word_order", 0) or 0)
        return f"chrF{beta}" + "+" * words
    if metric == "bleu":
        order = knobs.get("max_ngram_order", 4)
        return "BLEU" if order == 4 else f"BLEU-{order}"
    return {"ter": "TER", "nist": "NIST", "meteor": "METEOR", "cider": "CIDEr", "rouge": "ROUGE",
            "gleu": "GLEU"}.get(metric, metric)


def findings(claim: Claim, best: Evaluated) -> list[str]:
    """See :attr:`ClaimReport.findings`."""
    out = []
    cand = best.candidate
    if cand.reading:
        said = metric_name(claim.metric, {**({"word_order": 0} if claim.metric == "chrf" else {}), **claim.constraints})
        knobs = _full_knobs(cand)
        out.append(f"mislabelled: the number is {metric_name(cand.metric, knobs)}, not {said} "
                   f"(the claim says {claim.name!r})")
    if best.printing == "round-twice":
        out.append(f"rounded twice: {claim.printing_steps(best.value, 'round-twice')} "
                   f"(rounding once gives {claim.shown(best.value)})")
    elif best.printing == "truncate":
        out.append(f"truncated, not rounded: {claim.printing_steps(best.value, 'truncate')} "
                   f"(rounding gives {claim.shown(best.value)})")
    return out


def _same_config(a: Candidate, b: Candidate) -> bool:
    """The same configuration, however it was reached (the standard flag and the cost aside)."""
    return (a.metric, a.profile, a.knobs, a.refs.name, a.prep, a.measure, a.display) == \
        (b.metric, b.profile, b.knobs, b.refs.name, b.prep, b.measure, b.display)


def _full_knobs(cand: Candidate) -> dict[str, Any]:
    from assay.profiles.registry import get_profile
    return {**get_profile(cand.metric, cand.profile).knobs, **cand.knob_dict}


def audit_claim(auditor: Auditor, claim: Claim, parsed: ParsedSignature | None = None,
                system: str | None = None, row: int | None = None, n_signatures: int = 20,
                progress: Any = None) -> ClaimReport:
    result = auditor.search(claim, progress)
    if parsed is not None:
        stated = [auditor.evaluate(c) for c in signature_candidates(auditor, parsed)]
        stated_from = "signature"
    else:
        stated = [result.standard]
        stated_from = "standard"
    stated_ok = [e for e in stated if e.ok and claim.matches(e.value)]
    if stated_ok:
        verdict, best = "reproduced", stated_ok[0]
        if not any(_same_config(e.candidate, best.candidate) for e in result.matches):
            result.matches.insert(0, best)      # the stated configuration is a match, even outside the space
    elif result.matches:
        verdict, best = "reproduced-other", result.matches[0]
    else:
        verdict, best = "not-reproducible", None
    explanation = None
    source = next((e for e in stated if e.ok), None)
    if verdict == "reproduced-other" and source is not None and best is not None \
            and best.candidate.metric == source.candidate.metric:
        explanation = explain(auditor, source.candidate, best.candidate)
    report = ClaimReport(claim, result, stated, stated_from, verdict, best, explanation, parsed, system, row,
                         language={"code": auditor.language.code, "how": auditor.language.how,
                                   "evidence": auditor.language.evidence})
    for e in ([best] if best else []) + result.matches[:n_signatures] + stated + [result.standard] + result.nearest(3):
        if e is not None and e.candidate not in report.signatures:
            report.signatures[e.candidate] = auditor.signature(e.candidate)
    return report


def audit_claims(hyps: Sequence[str], streams: Sequence[Sequence[Any]], items: Sequence[tuple[Claim, Any]],
                 options: Any, system: str | None = None, rows: Sequence[int | None] | None = None,
                 auditors: dict[str, Auditor] | None = None, progress: Any = None) -> list[ClaimReport]:
    """Claims (``(claim, parsed signature or None)``) on one corpus, in order; claims of one metric share
    an :class:`Auditor` (``auditors``, by metric: pass the same dict to share it across calls).
    ``options``: ``lang``, ``preprocessing``, ``single_refs``, ``max_matches`` and optionally
    ``thorough``, ``captions`` and ``ref_names`` (the reference files' names, for the text) (the
    ``assay audit`` options). ``progress`` follows every configuration evaluated."""
    auditors = {} if auditors is None else auditors
    out = []
    for k, (claim, sig) in enumerate(items):
        if claim.metric not in auditors:
            auditors[claim.metric] = Auditor(claim.metric, hyps, streams, lang=options.lang,
                                             preprocessing=options.preprocessing, single_refs=options.single_refs,
                                             thorough=getattr(options, "thorough", False),
                                             captions=getattr(options, "captions", False),
                                             ref_names=getattr(options, "ref_names", None))
        out.append(audit_claim(auditors[claim.metric], claim, sig, system=system,
                               row=None if rows is None else rows[k], n_signatures=options.max_matches,
                               progress=progress))
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
                "references_shown": c.refs.shown or c.refs.name,
                "changes": e.departures, "printing": e.printing, "label_read_as": c.reading or None,
                "signature": r.signatures.get(c), "error": e.reason}

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
        "findings": r.findings, "language": r.language,
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
        out.append(f"standard configuration ({std.candidate.label()}): cannot be scored ({std.reason})")
    if r.signature is not None:
        for e in r.stated:
            state = "matches the claim" if e.ok and c.matches(e.value) else "does not match the claim"
            out.append(f"stated signature {r.signature.text!r} = {e.candidate.label()}: {_num(e.value, d)} -> {state}"
                       if e.ok else f"stated signature {r.signature.text!r}: cannot be scored ({e.reason})")
    out.append(f"verdict: {r.verdict_text}" + (f": {r.best.candidate.label()}" if r.verdict == "reproduced-other" else ""))
    out += [f"  {f}" for f in r.findings]
    n = len(r.result.matches)
    if n:
        out.append(f"{n} of {len(r.result.evaluated)} configurations give {c.shown(c.value)}, best explanation first:")
    else:
        out.append(f"none of the {len(r.result.evaluated)} configurations searched gives {c.shown(c.value)}.")
    for i, e in enumerate(r.result.matches[:max_matches], 1):
        out.append(f"  {i:>3}. {_num(e.value, d)}  {e.candidate.label()}  ({describe(e, r.standard.candidate)})")
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


def describe(e: Evaluated, standard: Candidate | None = None) -> str:
    """How far a matching configuration is from the standard, in words (no internal cost)."""
    if standard is not None and _same_config(e.candidate, standard) and e.printing == "round":
        return "the standard configuration"
    parts = []
    changes = e.candidate.departures
    if e.candidate.reading:
        parts.append("the label read as " + metric_name(e.candidate.metric, _full_knobs(e.candidate)))
        changes -= 1
    if e.printing == "round-twice":
        parts.append("rounded twice")
    elif e.printing == "truncate":
        parts.append("truncated")
    if changes:
        parts.insert(0, f"{changes} change{'s' if changes != 1 else ''} from the tool's defaults")
    elif not parts:
        parts.append("the tool's defaults")
    return ", ".join(parts)


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
            if r.findings:
                detail += "; " + "; ".join(r.findings)
        rows.append({"row": "" if r.row is None else str(r.row), "system": r.system or "", "claim": c.text,
                     "stated": stated, "stated score": _num(stated_e.value if stated_e else None, d),
                     "verdict": r.verdict_text if r.verdict != "not-reproducible" else VERDICT_TEXT[r.verdict],
                     "configuration": config, "signature": sig, "detail": detail})
    return rows


def _html_table(rows: Sequence[dict[str, str]], verdicts: Sequence[str]) -> str:
    """The table as one HTML page (``templates/table.html.j2``; Jinja2 escapes every cell)."""
    from assay.jobs.templating import template

    return template(Path(__file__).with_name("templates"), "table.html.j2").render(
        columns=COLUMNS, rows=list(zip(rows, verdicts)))


def render_table(reports: Sequence[ClaimReport], fmt: str) -> str:
    if fmt == "json":
        return json.dumps([report_json(r) for r in reports], ensure_ascii=False, indent=2)
    rows = table_rows(reports)
    if fmt == "markdown":
        from assay.jobs.compare import markdown_table

        return markdown_table(COLUMNS, [[r[k] for k in COLUMNS] for r in rows])
    if fmt == "html":
        return _html_table(rows, [rep.verdict for rep in reports])
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
