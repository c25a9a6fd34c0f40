"""``assay score coco --annotations A.json --results R.json [--subset] [--per-image] [-f json]``.

Reads the COCO caption toolkit's JSON (:mod:`assay.core.coco_json`), scores the composite
(:mod:`assay.engine.coco`) and prints COCOEvalCap's lines, or one JSON document with the scores
under pycocoevalcap's names (and ``per_image``, COCOEvalCap's ``evalImgs``, with ``--per-image``).
"""
from __future__ import annotations

import argparse
import json

from assay.cli.common import input_file, parse_knob_settings
from assay.core.coco_json import read_coco
from assay.engine.api import score, sentence_scores
from assay.output.coco import OUTPUT_NAMES


def run_coco_cli(args: argparse.Namespace) -> int:
    """``assay score coco --annotations A.json --results R.json [--subset] [--per-image] [-f json]``."""
    input_file("--annotations", args.annotations)
    input_file("--results", args.results)
    knobs = parse_knob_settings(getattr(args, "knobs", []) or [])
    profile = getattr(args, "profile", None)
    data = read_coco(args.annotations, args.results, subset=bool(getattr(args, "subset", False)))
    corpus = score("coco", data.hyps, data.refs, profile, width=args.width, **knobs)
    per_image = sentence_scores("coco", data.hyps, data.refs, profile, **knobs) \
        if getattr(args, "per_image", False) else None
    if args.format == "json":
        from assay.output.score_json import score_document

        doc = score_document(corpus)   # the assay-score/1 document, plus the toolkit's names
        doc["scores"] = {k: corpus.components[k] for k in OUTPUT_NAMES if k in corpus.components}
        if per_image is not None:
            doc["per_image"] = [{"image_id": i, **s.components} for i, s in zip(data.image_ids, per_image)]
        print(json.dumps(doc, ensure_ascii=False))
    else:
        print(corpus.text)
        if per_image is not None:
            w = 3 if args.width is None else args.width
            for i, s in zip(data.image_ids, per_image):
                vals = " ".join(f"{k}={s.components[k]:.{w}f}" for k in OUTPUT_NAMES if k in s.components)
                print(f"{i}\t{vals}")
    return 0
