"""Fuzz the COCO caption JSON reader (:mod:`assay.core.coco_json`): raw text, and documents built
from the fuzzer's bytes in both accepted shapes with hostile ids, captions and nesting.

Documented shapes: ``json_depth`` is the nesting depth of arrays and objects (brackets in strings
do not count); ``parse_json_text`` returns the document or an InputError naming the file (deeper
than ``MAX_JSON_DEPTH``, bad syntax, a number Python cannot hold); ``parse_annotations`` /
``parse_results`` / ``align`` return aligned input (one string hypothesis per image, every
reference stream as long as the hypotheses, at least one reference per image) or an InputError.
"""
from __future__ import annotations

import json
from typing import Any

from assay.core.coco_json import MAX_JSON_DEPTH, align, json_depth, parse_annotations, parse_json_text, parse_results
from conformance.fuzz.common import Draw, assay_errors_only

SEEDS = [b"", b"\x00\x00" + b'{"annotations": [{"image_id": 1, "caption": "a dog"}]}',
         b"\x01\x00\x03\x02\x01\x05\x01\x02\x00\x04\x01a b\x02\x01\x00\x01\x01\x01\x05\x01c d",
         b"\x01\x01\x02\x01\x03\x00\x01\x07\x02\x01\x03\x01\x01\x02x",
         b"\x00\x00" + b"[" * 120 + b"]" * 120, b"\x00\x01" + b'{"1": ["' + b"9" * 5000 + b'"]}']
IDS: tuple[Any, ...] = (1, 2, "1", "01", "2", 0, -1, "-1", "--1", "-", "", " 1", "1.0", 1.0, True, None,
                        "\u00b2", "\u0663", "x", 10 ** 20, "\ufeff1", [], {}, 2 ** 63, "1\n", "9" * 5000)


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def _caption(draw: Draw) -> Any:
    kind = draw.below(12)
    if kind < 7:
        return draw.text(24)
    return ("", "   ", None, 5, ["x"])[kind - 7]


def _entries(draw: Draw) -> list[Any]:
    out: list[Any] = []
    for _ in range(draw.below(6)):
        entry: dict[str, Any] = {}
        if draw.below(8):
            entry["image_id"] = draw.pick(IDS)
        if draw.below(8):
            entry["caption"] = _caption(draw)
        out.append(entry if draw.below(16) else draw.pick((None, 3, "x", [entry])))
    return out


def _annotations(draw: Draw) -> Any:
    shape = draw.below(4)
    if shape == 0:
        doc: dict[str, Any] = {"annotations": _entries(draw)}
        if draw.flag():
            doc["images"] = [{"id": draw.pick(IDS)} if draw.below(8) else draw.pick((None, {}, 1))
                             for _ in range(draw.below(5))]
        return doc
    if shape == 1:
        return {str(draw.pick(IDS)): [_caption(draw) for _ in range(draw.below(4))] if draw.below(8) else _caption(draw)
                for _ in range(draw.below(5))}
    return draw.pick(({"annotations": 5}, [], "x", None, {"annotations": {}}))


def _results(draw: Draw) -> Any:
    shape = draw.below(4)
    if shape == 0:
        return _entries(draw)
    if shape == 1:
        return {str(draw.pick(IDS)): _caption(draw) if draw.below(4) else [_caption(draw) for _ in range(draw.below(3))]
                for _ in range(draw.below(5))}
    if shape == 2:
        return {"annotations": _entries(draw)}
    return draw.pick(({}, 5, "x", None, [[]]))


def _check_aligned(ann: Any, res: Any, subset: bool) -> None:
    annotations = parse_annotations(ann, "ann.json", allow_empty=False)
    results = parse_results(res, "res.json")
    data = align(annotations, results, "ann.json", "res.json", subset)
    n = len(data.hyps)
    assert n and len(data.image_ids) == n and all(isinstance(h, str) for h in data.hyps), data
    assert data.refs and all(len(stream) == n for stream in data.refs), data
    assert all(refs for refs in data.references_per_image), data


def one_input(data: bytes) -> None:
    draw = Draw(data)
    if draw.flag():   # documents in the accepted shapes, through JSON text
        ann, res, subset = _annotations(draw), _results(draw), draw.flag()
        texts = [json.dumps(doc, ensure_ascii=draw.flag()) for doc in (ann, res)]
        with assay_errors_only():
            docs = [parse_json_text(t, name) for t, name in zip(texts, ("ann.json", "res.json"))]
            _check_aligned(docs[0], docs[1], subset)
        return
    text = draw.text(1024) if draw.flag() else draw.rest().decode("utf-8", "replace")
    depth = json_depth(text)
    assert depth >= 0
    with assay_errors_only():
        doc = parse_json_text(text, "in.json")
        assert depth <= MAX_JSON_DEPTH and _depth(doc) == depth, (text, depth)
        with assay_errors_only():
            parse_annotations(doc, "in.json")
        _check_aligned(doc, doc, True)
