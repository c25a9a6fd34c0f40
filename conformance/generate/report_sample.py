"""Generate the report sample corpus (fixtures/report_sample/): hypotheses and two references.

Every sentence is built here from templates and word lists the assay project wrote; no external
text is used. The hypotheses are "system outputs" with the variants on which the metric tools
diverge: punctuation glued to words (tokenisation), case changes (casing), contractions and
apostrophes, decimal commas and thousands separators, Unicode quotes and dashes, hyphenated
compounds, dropped or substituted words, reorderings, very short and empty-ish outputs (smoothing,
effective order, brevity penalty) and exact copies. Reference 2 paraphrases reference 1.

    python -m conformance.generate.report_sample            # writes fixtures/report_sample/
    python -m conformance.generate.report_sample --segments 2000 --out DIR

Deterministic for a given ``--seed`` (default 7) and ``--segments`` (default 300).
"""
from __future__ import annotations

import argparse
import random
from pathlib import Path

from conformance.paths import FIXTURES

SUBJECTS = ["the old farmer", "our new neighbour", "the young teacher", "a tired doctor", "the city council",
            "my younger sister", "the night guard", "a local baker", "the museum director", "the football coach",
            "two students", "the bus driver", "the village priest", "a retired pilot", "the hotel manager",
            "the small company", "her grandfather", "the fishing crew", "a quiet engineer", "the radio host"]
VERBS = [("opened", "unlocked"), ("painted", "coloured"), ("repaired", "fixed"), ("sold", "gave away"),
         ("visited", "went to see"), ("cleaned", "tidied"), ("described", "explained"), ("found", "discovered"),
         ("carried", "brought"), ("built", "put up"), ("checked", "inspected"), ("moved", "shifted")]
OBJECTS = ["the wooden gate", "a broken window", "the red bicycle", "the school library", "an empty warehouse",
           "the harbour wall", "a large map", "the garden shed", "the concert hall", "the kitchen table",
           "a heavy suitcase", "the station clock", "the mountain hut", "the public fountain", "a second-hand car"]
TIMES = ["on Monday morning", "after the storm", "before lunch", "late in the evening", "during the holidays",
         "at half past nine", "in early spring", "last Tuesday", "after the meeting", "around midnight"]
REASONS = ["because it was raining", "although nobody asked", "so that the children could play",
           "since the budget was approved", "while the others were asleep", "as the mayor had promised"]
NUMBERS = ["3.5", "12,000", "0.75", "1,250", "42", "7.2", "100", "2.5"]
UNITS = ["percent", "kilometres", "euros", "litres", "metres"]
SYNONYM = {"old": "elderly", "new": "recent", "young": "junior", "tired": "exhausted", "large": "big",
           "small": "little", "heavy": "weighty", "empty": "vacant", "broken": "damaged", "quiet": "calm"}


def _cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def _sentence(rng: random.Random) -> tuple[str, str]:
    """One reference sentence and its paraphrase."""
    subj, (verb, verb2), obj = rng.choice(SUBJECTS), rng.choice(VERBS), rng.choice(OBJECTS)
    when = rng.choice(TIMES)
    kind = rng.random()
    if kind < 0.5:
        ref1 = f"{_cap(subj)} {verb} {obj} {when}."
        ref2 = f"{_cap(when)}, {subj} {verb2} {obj}."
    elif kind < 0.75:
        why = rng.choice(REASONS)
        ref1 = f"{_cap(subj)} {verb} {obj} {when} {why}."
        ref2 = f"{_cap(subj)} {verb2} {obj} {why}, {when}."
    elif kind < 0.9:
        num, unit = rng.choice(NUMBERS), rng.choice(UNITS)
        ref1 = f"The price of {obj.split(' ', 1)[1]} rose by {num} {unit} {when}."
        ref2 = f"{_cap(when)}, the cost of {obj.split(' ', 1)[1]} went up {num} {unit}."
    else:
        ref1 = f'"We {verb} {obj}," said {subj} {when}.'
        ref2 = f'{_cap(subj)} said that they had {verb2} {obj} {when}.'
    return ref1, ref2


def _hypothesis(rng: random.Random, ref: str) -> str:
    """A system-output-like variant of ``ref``."""
    words = ref.split()
    kind = rng.random()
    if kind < 0.08:
        return ref                                            # exact copy
    if kind < 0.16:
        return " ".join(words[: max(1, min(3, len(words) // 4))])   # very short
    out = list(words)
    for i, w in enumerate(out):
        core = w.strip('.,"').lower()
        if core in SYNONYM and rng.random() < 0.6:
            out[i] = w.replace(core, SYNONYM[core])
        elif core in ("the", "a", "an") and rng.random() < 0.2:
            out[i] = ""
    out = [w for w in out if w]
    if rng.random() < 0.25 and len(out) > 4:                  # local reordering
        j = rng.randrange(1, len(out) - 2)
        out[j], out[j + 1] = out[j + 1], out[j]
    text = " ".join(out)
    r = rng.random()
    if r < 0.15:
        text = text.replace('"', "“", 1).replace('"', "”", 1)  # Unicode quotes
    elif r < 0.25:
        text = text.replace(",", " ,").replace(".", " .")      # pre-tokenised punctuation
    elif r < 0.32:
        text = text.upper() if rng.random() < 0.3 else text.lower()
    elif r < 0.40:
        text = text.replace(".", ",", 1) if any(c.isdigit() for c in text) else text + " indeed"
    elif r < 0.46:
        text = text.replace("second-hand", "second - hand").replace(" they had ", " they'd ")
    elif r < 0.52:
        text = text.rstrip(".") + " —"
    return text


def generate(segments: int = 300, seed: int = 7) -> tuple[list[str], list[str], list[str]]:
    rng = random.Random(seed)
    hyps, ref1, ref2 = [], [], []
    for _ in range(segments):
        a, b = _sentence(rng)
        ref1.append(a)
        ref2.append(b)
        hyps.append(_hypothesis(rng, a if rng.random() < 0.7 else b))
    return hyps, ref1, ref2


README = """# Report sample corpus (generated by the assay project)

Written by `conformance/generate_report_sample.py` (seed {seed}, {n} segments) from templates and word
lists in that script; no external text. `assay report` with no arguments reports on it, and
`reports/sample/` is the committed report.

| file | content |
|---|---|
| `hyp.txt` | system-output-like variants of the references (tokenisation, casing, Unicode punctuation, numbers, short outputs, reorderings, exact copies) |
| `ref1.txt` | the first reference |
| `ref2.txt` | a paraphrase of each line of `ref1.txt` |

UTF-8, LF line endings, one segment per line.
"""


def write(out: Path, segments: int = 300, seed: int = 7) -> None:
    hyps, ref1, ref2 = generate(segments, seed)
    out.mkdir(parents=True, exist_ok=True)
    for name, lines in (("hyp.txt", hyps), ("ref1.txt", ref1), ("ref2.txt", ref2)):
        (out / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    (out / "README.md").write_text(README.format(seed=seed, n=segments), encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--segments", type=int, default=300)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--out", type=Path, default=FIXTURES / "report_sample")
    args = ap.parse_args()
    write(args.out, args.segments, args.seed)
    print(f"wrote {args.segments} segments to {args.out}")


if __name__ == "__main__":
    main()
