"""Fuzz the segment-file readers (:mod:`assay.core.io`) on raw bytes written to a file.

Documented shapes: ``read_segments`` gives the lines split on ``\\n`` only, a ``\\r`` before each
``\\n`` (and at the end of the data) removed, ``bom`` true exactly when the bytes start with a UTF-8
byte-order mark (stripped only under ``utf-8-sig``), ``control`` the first C0 control character
inside a segment; invalid UTF-8 and an empty file are InputErrors whose message starts with the
file name; ``check_aligned`` accepts equal line counts only; ``chopped`` drops one character of an
unterminated last line.
"""
from __future__ import annotations

import codecs
import os
import tempfile

from assay.core.errors import InputError
from assay.core.io import ENCODINGS, check_aligned, decode_utf8, first_control, read_segments
from conformance.fuzz.common import Draw, assay_errors_only

SEEDS = [b"", b"\x00\x00hello\nworld\n", b"\x01\x01\xef\xbb\xbfa\r\nb\r\n\r", b"\x00\x01a\x00b\x1b[31mc\rd\n\xff\xfe",
         b"\x01\x00\xef\xbb\xbf", b"\x00\x00\n\n\n\x85\xe2\x80\xa8x"]
_DIR = tempfile.mkdtemp(prefix="assay-fuzz-io-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
_PATH = os.path.join(_DIR, "segments.txt")


def one_input(data: bytes) -> None:
    draw = Draw(data)
    encoding, allow_empty = draw.pick(ENCODINGS), draw.flag()
    raw = draw.rest()
    with open(_PATH, "wb") as f:
        f.write(raw)
    try:
        seg = read_segments(_PATH, allow_empty=allow_empty, encoding=encoding)
    except InputError as exc:
        assert str(exc).startswith(_PATH), str(exc)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return
        assert not text or text == "\ufeff", f"valid UTF-8 {raw!r} rejected: {exc}"
        return
    text = raw.decode("utf-8")
    assert seg.bom == raw.startswith(codecs.BOM_UTF8)
    assert seg.bom_stripped == (seg.bom and encoding == "utf-8-sig")
    body = text[1:] if seg.bom_stripped else text
    expect = body.split("\n")
    if body.endswith("\n") or not body:
        expect.pop()
    assert seg.lines == [ln[:-1] if ln.endswith("\r") else ln for ln in expect], (raw, seg.lines)
    assert seg.terminated == (body.endswith("\n") or not body)
    if seg.control is not None:
        assert 1 <= seg.control.line <= max(len(seg.lines), 1) + 1 and seg.control.count >= 1, seg.control
        assert seg.control.label.startswith("U+"), seg.control.label
    chopped = seg.chopped()
    assert len(chopped) == len(seg.lines)
    with assay_errors_only():
        check_aligned(seg, [seg])
        first_control(body)
        decode_utf8(raw, "x")
    try:
        check_aligned(seg, [seg.__class__(seg.path, seg.lines + ["extra"], True)])
    except InputError as exc:
        assert _PATH in str(exc)
    else:
        raise AssertionError("check_aligned accepted different line counts")
