"""Deterministic generator of multi-sentence, multi-reference summary documents (for ROUGE).

Every document set is built from ``random.Random(seed)`` and the word lists below, which the
project wrote itself (no external text). A document is one string whose sentences are separated
by ``"\\n"``; :func:`generate_documents` returns ``(hyps, refs)`` with ``refs`` as reference
STREAMS (``refs[k][i]`` is the k-th reference of document i).

What the documents exercise:
- sentence structure: 1-5 sentences, reordered between hypothesis and reference (the union LCS of
  ROUGE-L/rougeLsum differs from plain LCS), sometimes an empty or punctuation-only line;
- tokenisation: hyphens (``state-of-the-art``), apostrophes, numbers with separators
  (``3.5``, ``1,000``, ``42%``), punctuation attached or separate, upper case;
- stemming: words the two stemmers treat differently (``children``/``went``/``departmental``/
  ``says``/``dying``/``always``/``skies``/``news``), and inflection pairs (``running``/``runs``);
- stop words (``the``, ``of``, ``reuters``, ``ap``, ``jan``) for ``-s``;
- non-ASCII (``kind="mixed"``): accented Latin, Unicode-casing traps (``İ``, Kelvin ``K``),
  Greek, Cyrillic, CJK, full-width letters, typographic quotes and dashes;
- lengths: 1-word documents, and long ones (for ``-l``/``-b`` truncation).

Kinds: ``ascii`` (ASCII only), ``mixed`` (adds non-ASCII), ``stem`` (stemming-heavy ASCII).
"""
from __future__ import annotations

import random

KINDS: tuple[str, ...] = ("ascii", "mixed", "stem")

CORE = ("the council said on monday that a new plan for the river port will cost more than "
        "last year and workers in the city were told to wait while officials review its budget "
        "report police found two men near station after storm hit coast early today").split()
STEM = ("children child went goes going go departmental department departments budgets budget "
        "says say said dying die lying lie always annoys annoyed attorney attorneys skies sky news "
        "running runs ran quickly quick better best good data datum mice mouse agreement agree "
        "settlement settled accidental accident generously generous happily happiness relational "
        "conditional rational hopeful hopefulness electricity electrical formalize caresses ponies "
        "cats feed agreed plastered motoring sing conflated troubled sized hopping tanned falling "
        "hissing fizzed failing filing happy sky").split()
STOP = "the a an of and to in is was were be it its by on at for from reuters ap jan feb".split()
HYPHEN = ["state-of-the-art", "well-known", "co-operate", "long-term", "e-mail", "-", "--", "x-ray",
          "follow-up", "mid-2019"]
NUMBERS = ["3.5", "1,000", "42%", "2019", "7", "0.25", "$5", "10-20", "1990s", "#1", "12:30"]
ATTACHED = ["plan,", "port.", "today!", "why?", "budget;", "note:", "(city)", '"yes"', "don't",
            "it's", "council's", "u.s.", "mr.", "a/b", "c++"]
PUNCT = [",", ".", "!", "?", ";", ":", "(", ")", '"', "'", "...", "&"]
CAPS = ["The", "Council", "Monday", "POLICE", "Reuters", "AP", "Jan", "City", "NATO", "Dying"]
NON_ASCII = ["café", "naïve", "Zürich", "résumé", "İstanbul", "\u212a2", "Ελλάδα", "Москва",
             "東京", "北京天安门", "ＧＰＴ４", "“quoted”", "it’s", "word—word", "…", "Straße", "ÉCOLE",
             "façade", "niño", "über"]
EMPTYISH = ["", " ", "--", "...", ",", "  .  "]


def kinds() -> tuple[str, ...]:
    return KINDS


def _pools(kind: str) -> list[tuple[float, list[str]]]:
    pools: list[tuple[float, list[str]]] = [(6.0, CORE), (2.0, STOP), (1.0, HYPHEN), (1.0, NUMBERS),
                                            (1.0, ATTACHED), (1.2, PUNCT), (0.8, CAPS)]
    if kind == "stem":
        pools.append((6.0, STEM))
    else:
        pools.append((1.5, STEM))
    if kind == "mixed":
        pools.append((1.5, NON_ASCII))
    return pools


def _word(rng: random.Random, pools: list[tuple[float, list[str]]], vocab: dict[int, list[str]]) -> str:
    weights = [w for w, _ in pools]
    which = rng.choices(range(len(pools)), weights=weights)[0]
    return rng.choice(vocab[which])


def _sentence(rng: random.Random, pools: list[tuple[float, list[str]]], vocab: dict[int, list[str]],
              length: int) -> str:
    return " ".join(_word(rng, pools, vocab) for _ in range(length))


def _edit(rng: random.Random, sentence: str, pools: list[tuple[float, list[str]]],
          vocab: dict[int, list[str]], rate: float) -> str:
    """A hypothesis-like copy: substitute / drop / insert / swap words at ``rate``."""
    words = sentence.split(" ")
    out: list[str] = []
    for w in words:
        x = rng.random()
        if x < rate * 0.4:
            out.append(_word(rng, pools, vocab))
        elif x < rate * 0.7:
            continue
        elif x < rate * 0.85:
            out.extend([w, _word(rng, pools, vocab)])
        else:
            out.append(w)
    if len(out) > 2 and rng.random() < rate:
        i, j = rng.randrange(len(out)), rng.randrange(len(out))
        out[i], out[j] = out[j], out[i]
    return " ".join(out)


def _document(rng: random.Random, sentences: list[str], pools: list[tuple[float, list[str]]],
              vocab: dict[int, list[str]], rate: float) -> str:
    sents = [_edit(rng, s, pools, vocab, rate) for s in sentences]
    if len(sents) > 1 and rng.random() < 0.35:
        rng.shuffle(sents)
    if rng.random() < 0.3:
        sents.append(_sentence(rng, pools, vocab, rng.randint(1, 8)))
    if rng.random() < 0.08:
        sents.insert(rng.randrange(len(sents) + 1), rng.choice(EMPTYISH))
    text = "\n".join(sents)
    if rng.random() < 0.05:
        text = text.replace("\n", " ")  # a one-line summary (no sentence split)
    return text


def generate_documents(seed: int, n_docs: int, max_refs: int = 3, kind: str = "ascii",
                       long_docs: bool = False) -> tuple[list[str], list[list[str]]]:
    """``n_docs`` hypothesis documents and ``1..max_refs`` reference streams (same count for all docs)."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    rng = random.Random(f"rouge-docs/{seed}/{kind}")
    pools = _pools(kind)
    # a per-set sub-vocabulary keeps the overlap between documents' texts high
    vocab = {i: rng.sample(words, min(len(words), rng.randint(4, 14))) for i, (_, words) in enumerate(pools)}
    n_refs = rng.randint(1, max_refs)
    rate = rng.choice([0.05, 0.2, 0.4, 0.7])
    hyps: list[str] = []
    refs: list[list[str]] = [[] for _ in range(n_refs)]
    for _ in range(n_docs):
        n_sent = rng.randint(1, 5)
        top = 40 if long_docs else 14
        base = [_sentence(rng, pools, vocab, rng.choice([1, 2, 3] + list(range(4, top)))) for _ in range(n_sent)]
        for k in range(n_refs):
            refs[k].append(_document(rng, base, pools, vocab, rate * 0.5))
        if rng.random() < 0.03:
            hyps.append(_sentence(rng, pools, vocab, 1))  # a one-word summary
        else:
            hyps.append(_document(rng, base, pools, vocab, rate))
    return hyps, refs
