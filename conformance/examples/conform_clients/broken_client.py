#!/usr/bin/env python3
"""Deliberately broken BLEU implementations (protocol clients) that ``assay conform`` must catch.

    python broken_client.py --mode MODE

A small sacrebleu-like BLEU (13a tokens from assay's tokenizer, exp smoothing, closest reference
length) with one injected fault:

- ``ok``            no fault (passes the bleu/sacrebleu suite)
- ``wrong-clipping`` clips each n-gram by the *sum* of its reference counts, not the maximum
- ``off-by-one``    counts n-grams with ``range(len - n)``: the last n-gram of every order is lost
- ``crash``         exits with a traceback on cases with more than one reference stream
- ``hang``          never answers sentence-level cases
- ``garbage``       prints a non-JSON line for cases with more than one reference stream
- ``huge``          answers with a 20 MB line for cases with more than one reference stream
- ``nan``           answers ``NaN`` (not JSON) for sentence-level cases
- ``wrong-id``      answers with another case's id for sentence-level cases
- ``no-start``      exits at once (never answers ``start``)
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter

MODES = ("ok", "wrong-clipping", "off-by-one", "crash", "hang", "garbage", "huge", "nan", "wrong-id", "no-start")


def ngrams(tokens: list[str], n: int, off_by_one: bool) -> Counter:
    stop = len(tokens) - n + (0 if off_by_one else 1)
    return Counter(tuple(tokens[i:i + n]) for i in range(max(stop, 0)))


def segment(hyp: str, refs: list[str], mode: str) -> tuple[int, int, list[int], list[int]]:
    from assay.tokenizers import get_tokenizer
    tok = get_tokenizer("13a")
    h = tok.tokenize_segment(hyp)
    rs = [tok.tokenize_segment(r) for r in refs]
    ref_len = min((abs(len(r) - len(h)), len(r)) for r in rs)[1] if rs else 0
    correct, total = [], []
    for n in range(1, 5):
        hc = ngrams(h, n, mode == "off-by-one")
        limit: Counter = Counter()
        for r in rs:
            rc = ngrams(r, n, mode == "off-by-one")
            for g, c in rc.items():
                limit[g] = limit[g] + c if mode == "wrong-clipping" else max(limit[g], c)
        correct.append(sum(min(c, limit[g]) for g, c in hc.items()))
        total.append(sum(hc.values()))
    return len(h), ref_len, correct, total


def bleu(hyp_len: int, ref_len: int, correct: list[int], total: list[int], effective: bool) -> float:
    if correct[0] == 0:
        return 0.0
    bp = 1.0 if hyp_len >= ref_len else (math.exp(1 - ref_len / hyp_len) if hyp_len else 0.0)
    precisions, smooth, order = [0.0] * 4, 1.0, 4
    for n in range(4):
        if total[n] == 0:
            break
        if effective:
            order = n + 1
        if correct[n] == 0:
            smooth *= 2
            precisions[n] = 100 / (smooth * total[n])
        else:
            precisions[n] = 100 * correct[n] / total[n]
    logs = [math.log(p) if p > 0 else -9999999999.0 for p in precisions[:order]]
    return bp * math.exp(sum(logs) / order)


def score(msg: dict, mode: str) -> dict:
    stats = [segment(h, [s[i] for s in msg["refs"] if s[i] is not None], mode) for i, h in enumerate(msg["hyps"])]
    if msg["level"] == "sentence":
        return {"score": [bleu(*s, effective=True) for s in stats]}
    hyp_len = sum(s[0] for s in stats)
    ref_len = sum(s[1] for s in stats)
    correct = [sum(s[2][n] for s in stats) for n in range(4)]
    total = [sum(s[3][n] for s in stats) for n in range(4)]
    return {"score": bleu(hyp_len, ref_len, correct, total, effective=False),
            "components": {"counts": correct, "totals": total}}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", choices=MODES, default="ok")
    mode = ap.parse_args().mode
    if mode == "no-start":
        print("cannot start: configuration missing", file=sys.stderr)
        return 3
    out = sys.stdout
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["cmd"] == "start":
            reply = {"version": 1, "implementation": {"name": f"broken-bleu ({mode})", "language": "python",
                                                      "metrics": ["bleu"], "profile": "sacrebleu"}}
        elif msg["cmd"] == "stop":
            return 0
        else:
            multi = len(msg["refs"]) > 1
            sentence = msg["level"] == "sentence"
            if mode == "crash" and multi:
                raise RuntimeError("segmentation fault (simulated) in count_ngrams")
            if mode == "hang" and sentence:
                time.sleep(3600)
            if mode == "garbage" and multi:
                out.write("BLEU = 12.3 (this is not JSON)\n")
                out.flush()
                continue
            if mode == "huge" and multi:
                out.write('{"id": "' + msg["id"] + '", "score": 1.0, "components": {"pad": "' + "x" * 20_000_000 + '"}}\n')
                out.flush()
                continue
            reply = {"id": msg["id"], **score(msg, mode)}
            if mode == "nan" and sentence:
                reply["score"] = [float("nan")] * len(msg["hyps"])
            if mode == "wrong-id" and sentence:
                reply["id"] = "some/other/case"
        out.write(json.dumps(reply) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
