"""Reading the COCO caption toolkit's JSON: references per image id and one result per image id.

Accepted shapes (both files may use either):

- annotations: COCO ``{"annotations": [{"image_id": 42, "caption": "..."}, ...], ...}`` (several
  captions per image id), or plain ``{"42": ["...", "..."], ...}`` (a list of captions per id);
- results: COCO ``[{"image_id": 42, "caption": "..."}, ...]`` with exactly one caption per image
  id, or plain ``{"42": "..."}`` (``{"42": ["..."]}`` with one element is accepted too).

Image ids are compared as strings (``42`` and ``"42"`` are the same image). Every problem is an
:class:`~assay.core.errors.InputError` naming the file and the offending image id: a result id without
references, an image with references but no result (pycocoevalcap scores only the results' images;
pass ``subset=True`` for that), several results for one id, an empty caption, a wrong shape.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from assay.core.errors import InputError
from assay.core.io import read_utf8


@dataclass(frozen=True)
class CocoInput:
    """Aligned input: image ids, one hypothesis per image, reference streams padded with None."""

    image_ids: list[Any]
    hyps: list[str]
    refs: list[list[str | None]]

    @property
    def references_per_image(self) -> list[list[str]]:
        return [[s[i] for s in self.refs if s[i] is not None] for i in range(len(self.hyps))]


MAX_JSON_DEPTH = 100
"""Deepest nesting of arrays and objects :func:`load_json` reads. A COCO caption file nests 3 or 4 deep; Python's
``json`` recurses once per level, so a file nested 100,000 deep would end in a RecursionError."""

# Escape pairs (backslash + one character); once they are gone a string is a quote, no quote, a quote.
_ESCAPE = re.compile(r"\\.", re.DOTALL)
_STRING = re.compile(r'"[^"]*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_CHUNK = 1 << 20

if TYPE_CHECKING:
    import numpy as np


@lru_cache(maxsize=1)
def _steps() -> np.ndarray:
    """Each byte's step in depth: +1 for ``[`` and ``{``, -1 for ``]`` and ``}``, else 0 (made on first
    use: importing this module needs no numpy)."""
    import numpy as np

    step = np.zeros(256, dtype=np.int8)
    step[[ord("["), ord("{")]] = 1
    step[[ord("]"), ord("}")]] = -1
    return step


def json_depth(text: str, limit: int | None = None) -> int:
    """How deep arrays/objects nest in ``text`` (brackets inside strings do not count); with
    ``limit``, counting stops as soon as the depth passes it.

    Linear and recursion-free: escape pairs, then strings, then everything but brackets are
    removed (regular expressions that never backtrack), and the running depth is a cumulative sum
    of +1/-1 steps, a megabyte of brackets at a time."""
    import numpy as np

    brackets = _NOT_BRACKET.sub("", _STRING.sub("", _ESCAPE.sub("", text))).encode("ascii")
    steps = np.frombuffer(brackets, dtype=np.uint8)
    depth = peak = 0
    for start in range(0, len(steps), _CHUNK):
        running = np.cumsum(_steps()[steps[start:start + _CHUNK]], dtype=np.int64) + depth
        peak = max(peak, int(running.max()))
        depth = int(running[-1])
        if limit is not None and peak > limit:
            break
    return peak


def parse_json_text(text: str, name: str, max_depth: int = MAX_JSON_DEPTH) -> Any:
    """Parse JSON read from ``name``: a syntax error names ``file:line``; nesting deeper than
    ``max_depth`` levels, or a number Python cannot hold, is an :class:`InputError` naming the file."""
    if json_depth(text, max_depth) > max_depth:
        raise InputError(f"{name}: JSON nested deeper than {max_depth} levels "
                         "(COCO caption files nest 3 or 4 deep)")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{name}:{exc.lineno}: not valid JSON ({exc.msg})") from None
    except RecursionError:
        raise InputError(f"{name}: JSON nested too deeply to read") from None
    except ValueError as exc:      # e.g. an integer literal longer than int_max_str_digits
        raise InputError(f"{name}: not readable JSON ({exc})") from None


def load_json(path: str | Path) -> Any:
    """Parse a JSON file (strict UTF-8, at most :data:`MAX_JSON_DEPTH` levels deep); every problem is
    an :class:`InputError` naming the file (and the line or byte offset where it has one)."""
    return parse_json_text(read_utf8(path), str(path))


def _key(image_id: Any, where: str) -> str:
    if isinstance(image_id, bool) or not isinstance(image_id, (int, str)):
        raise InputError(f"{where}: image_id must be an integer or a string, got {image_id!r}")
    return str(image_id)


def _caption(value: Any, name: str, image_id: Any, what: str, allow_empty: bool = False) -> str:
    if not isinstance(value, str):
        raise InputError(f"{name}: image_id {image_id!r}: {what} must be a string, got {type(value).__name__}")
    if not allow_empty and not value.strip():
        raise InputError(f"{name}: image_id {image_id!r}: empty {what}")
    return value


def parse_annotations(doc: Any, name: str, allow_empty: bool = False) -> dict[str, list[str]]:
    """References per image id (insertion order), from either accepted shape.

    ``allow_empty`` accepts empty captions (an idf corpus may hold them; they add no n-gram)."""
    out: dict[str, list[str]] = {}
    shown: dict[str, Any] = {}
    if isinstance(doc, dict) and "annotations" in doc:
        entries = doc["annotations"]
        if not isinstance(entries, list):
            raise InputError(f"{name}: 'annotations' must be a list of {{image_id, caption}} objects")
        for k, entry in enumerate(entries):
            where = f"{name}: annotations[{k}]"
            if not isinstance(entry, dict) or "image_id" not in entry or "caption" not in entry:
                raise InputError(f"{where}: expected an object with 'image_id' and 'caption'")
            key = _key(entry["image_id"], where)
            shown.setdefault(key, entry["image_id"])
            out.setdefault(key, []).append(_caption(entry["caption"], name, entry["image_id"], "reference caption",
                                                    allow_empty))
        images = doc.get("images")
        if isinstance(images, list):   # COCOEvalCap's image order is the file's "images" list order
            order = [str(img["id"]) for img in images if isinstance(img, dict) and "id" in img]
            out = {**{k: out[k] for k in order if k in out}, **out}
    elif isinstance(doc, dict):
        for image_id, caps in doc.items():
            key = _key(image_id, name)
            if isinstance(caps, str):
                caps = [caps]
            if not isinstance(caps, list) or not caps:
                raise InputError(f"{name}: image_id {image_id!r}: expected a non-empty list of reference captions")
            out[key] = [_caption(c, name, image_id, "reference caption", allow_empty) for c in caps]
    else:
        raise InputError(f"{name}: expected COCO annotations ({{\"annotations\": [...]}}) or "
                         f"{{image_id: [captions]}}, got a JSON {type(doc).__name__}")
    if not out:
        raise InputError(f"{name}: no reference captions")
    return out


def parse_results(doc: Any, name: str) -> dict[str, str]:
    """One hypothesis per image id (insertion order), from either accepted shape."""
    out: dict[str, str] = {}
    if isinstance(doc, dict) and "annotations" in doc and isinstance(doc["annotations"], list):
        doc = doc["annotations"]
    if isinstance(doc, list):
        for k, entry in enumerate(doc):
            where = f"{name}: [{k}]"
            if not isinstance(entry, dict) or "image_id" not in entry or "caption" not in entry:
                raise InputError(f"{where}: expected an object with 'image_id' and 'caption'")
            key = _key(entry["image_id"], where)
            if key in out:
                raise InputError(f"{name}: image_id {entry['image_id']!r} has several results "
                                 "(the toolkit takes exactly one caption per image)")
            out[key] = _caption(entry["caption"], name, entry["image_id"], "result caption")
    elif isinstance(doc, dict):
        for image_id, cap in doc.items():
            key = _key(image_id, name)
            if isinstance(cap, list):
                if len(cap) != 1:
                    raise InputError(f"{name}: image_id {image_id!r} has {len(cap)} results "
                                     "(the toolkit takes exactly one caption per image)")
                cap = cap[0]
            out[key] = _caption(cap, name, image_id, "result caption")
    else:
        raise InputError(f"{name}: expected results ([{{\"image_id\", \"caption\"}}, ...]) or "
                         f"{{image_id: caption}}, got a JSON {type(doc).__name__}")
    if not out:
        raise InputError(f"{name}: no results")
    return out


def align(annotations: dict[str, list[str]], results: dict[str, str], ann_name: str, res_name: str,
          subset: bool = False) -> CocoInput:
    """Pair results with their references, in the annotations' image order (COCOEvalCap's order:
    its PTBTokenizer batches follow it, and a caption's tokens can depend on the next caption).

    Every result id needs references. Images with references but no result are an error unless
    ``subset`` (pycocoevalcap's COCOEvalCap scores only the images in the results file, so its
    document frequencies come from those images' references only).
    """
    unknown = [k for k in results if k not in annotations]
    if unknown:
        more = f" (and {len(unknown) - 1} more)" if len(unknown) > 1 else ""
        raise InputError(f"{res_name}: image_id {unknown[0]} has no reference captions in {ann_name}{more}")
    if not subset:
        missing = [k for k in annotations if k not in results]
        if missing:
            more = f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""
            raise InputError(f"{res_name}: no result for image_id {missing[0]} of {ann_name}{more}; "
                             "pycocoevalcap would score only the images in the results (use --subset / "
                             "subset=True for that)")
    ids = [k for k in annotations if k in results]
    width = max(len(annotations[k]) for k in ids)
    refs = [[annotations[k][j] if j < len(annotations[k]) else None for k in ids] for j in range(width)]
    return CocoInput([_as_id(k) for k in ids], [results[k] for k in ids], refs)


_INT_ID = re.compile(r"-?[0-9]+")


def _as_id(key: str) -> Any:
    """The image id as the file wrote it: an integer when the key is ASCII decimal digits (with an
    optional minus), else the string (``"--1"``, ``"²"`` or ``"٣"`` are ids, not numbers, and so
    is a number too long for Python's ``int``)."""
    if _INT_ID.fullmatch(key):
        try:
            return int(key)
        except ValueError:        # more digits than sys.get_int_max_str_digits() allows
            pass
    return key


def read_coco(annotations: str | Path, results: str | Path, subset: bool = False) -> CocoInput:
    """Read and align an annotations file and a results file."""
    ann = parse_annotations(load_json(annotations), str(annotations))
    res = parse_results(load_json(results), str(results))
    return align(ann, res, str(annotations), str(results), subset)
