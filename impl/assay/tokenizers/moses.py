"""Moses ``tokenizer.perl`` as used before tokenised BLEU (multi-bleu.perl), via sacremoses.

Used by ``assay audit`` to reproduce scores computed on pre-tokenised text. It is an optional
dependency (extra ``moses``: ``sacremoses==0.2.0``, the Python port of the Moses tokenizer); when
it is missing, :func:`moses_tokenize` raises :class:`MissingDependencyError` naming the extra.

``escape=False``: tokenizer.perl's default XML escaping (``&`` -> ``&amp;``) renames tokens
consistently on both sides and never changes token boundaries, so BLEU is the same either way.
``aggressive`` is tokenizer.perl ``-a``: a hyphen between alphanumerics becomes the token ``@-@``.

Cache. sacremoses costs about half a second to import and 0.2 ms a line (a WMT system and its
reference: 1.5 s, most of an ``assay audit``). :func:`moses_tokenize` therefore keeps each stream's
result on disk, keyed on the SHA-256 of (the installed sacremoses files, language, ``aggressive``, the lines),
in ``$ASSAY_CACHE_DIR/moses`` (default ``$XDG_CACHE_HOME/assay``, i.e. ``~/.cache/assay``); a
reference shared by every system of a shared task, or a system audited again, is read back
(milliseconds) without importing sacremoses. ``ASSAY_CACHE_DIR=off`` disables it; an unwritable
directory only costs the speed. Files are written atomically (a temporary file renamed), so
concurrent audits never read a partial entry.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any, Optional, Sequence

from assay.core import paths
from assay.core.errors import MissingDependencyError

#: tensor2tensor get_ende_bleu.sh / fairseq compound_split_bleu.sh: perl -ple 's{(\S)-(\S)}{$1 ##AT##-##AT## $2}g'
#: (Perl on bytes: \S is "not ASCII whitespace", hence re.ASCII; non-overlapping left to right, so
#: ``a-b-c`` -> ``a ##AT##-##AT## b-c``, exactly as the Perl one-liner does).
_COMPOUND = re.compile(r"(\S)-(\S)", re.ASCII)
COMPOUND_TOKEN = "##AT##-##AT##"


@lru_cache(maxsize=None)
def _tokenizer(lang: str) -> Any:
    try:
        from sacremoses import MosesTokenizer  # local: optional dependency (the moses extra)
    except ImportError:
        raise MissingDependencyError(
            "Moses tokenisation needs sacremoses (pip install 'assay-metrics[moses]', i.e. sacremoses==0.2.0)") from None
    return MosesTokenizer(lang=lang)


def moses_available() -> bool:
    """Whether sacremoses is installed, without importing it (its import takes about half a second:
    ``assay audit`` asks before it knows whether any configuration needs Moses)."""
    from importlib.util import find_spec   # local: start-up

    try:
        return find_spec("sacremoses") is not None
    except (ImportError, ValueError):
        return False


def moses_tokenize(lines: Sequence[str | None], lang: str = "en", aggressive: bool = False) -> list[str | None]:
    """tokenizer.perl -l LANG [-a] -no-escape on every line (None = a missing reference stays None);
    read from the cache when this stream was tokenised before (see the module docstring)."""
    if not moses_available():
        _tokenizer(lang)          # raises MissingDependencyError naming the extra
    path = _cache_path(lines, lang, aggressive)
    cached = _read_cache(path, len(lines)) if path is not None else None
    if cached is not None:
        return cached
    tok = _tokenizer(lang)
    out = [None if line is None else tok.tokenize(line, return_str=True, escape=False,
                                                  aggressive_dash_splits=aggressive)
           for line in lines]
    if path is not None:
        _write_cache(path, out)
    return out


def cache_dir() -> Optional[Path]:
    """Where tokenised streams are kept (None: caching is off): :func:`assay.core.paths.cache_dir`."""
    return paths.cache_dir("moses")


def _cache_path(lines: Sequence[str | None], lang: str, aggressive: bool) -> Optional[Path]:
    folder = cache_dir()
    if folder is None:
        return None
    tool = _tool_version()
    if tool is None:
        return None
    key = json.dumps(["assay-moses/1", tool, lang, bool(aggressive), list(lines)], ensure_ascii=False)
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
    return folder / f"{digest}.json"


@lru_cache(maxsize=1)
def _tool_version() -> Optional[str]:
    """A fingerprint of the installed sacremoses (part of the cache key): the SHA-256 of its files
    (about 1.7 MB, a few milliseconds; reading the version through ``importlib.metadata`` costs more,
    and the content is what decides the output). None when it is not installed."""
    from importlib.util import find_spec   # local: start-up

    try:
        spec = find_spec("sacremoses")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    root = Path(next(iter(spec.submodule_search_locations)))
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(str(path.relative_to(root)).encode("utf-8", "surrogateescape") + b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _read_cache(path: Path, n: int) -> Optional[list[str | None]]:
    try:
        out = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(out, list) or len(out) != n or not all(x is None or isinstance(x, str) for x in out):
        return None               # not ours, or damaged: tokenise again
    return out


def _write_cache(path: Path, out: list[str | None]) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(out, f)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
    except OSError:
        pass                      # an unwritable cache only costs the speed


def compound_split(lines: Sequence[str | None]) -> list[str | None]:
    """The ``##AT##-##AT##`` compound-splitting convention of tokenised en-de BLEU (Vaswani et al. 2017)."""
    return [None if line is None else _COMPOUND.sub(r"\1 " + COMPOUND_TOKEN + r" \2", line) for line in lines]
