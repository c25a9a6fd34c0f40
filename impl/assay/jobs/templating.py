"""Jinja2 templates shipped in the package (``jobs/report/templates``, ``jobs/audit/templates``): one
cached environment per templates folder, autoescape on (every value is text, never markup),
undefined names an error, Jinja2 imported on first use.

Compiled templates are kept between runs in ``$ASSAY_CACHE_DIR/jinja2`` (default
``~/.cache/assay/jinja2``; ``ASSAY_CACHE_DIR=off`` turns it off), as Jinja2's own
``FileSystemBytecodeCache``: compiling the report's templates took 0.1 s of every ``assay report``,
loading them takes milliseconds. The cache is keyed on its inputs: Jinja2 names each file by a
digest of the template's name and path and uses it only if it holds a digest of the template's
source equal to the current one and was written by the same bytecode format and Python version
(an edited template is compiled again); the file name also carries the Jinja2 version and a digest
of the environment's options (:data:`OPTIONS`), which change the compiled code. An unreadable or
corrupt cache file is compiled again, and an unwritable cache folder is not used: a cache never
fails a run.
"""
from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path
from typing import Any

from assay.core.paths import cache_dir

#: the environments' options (also a part of the bytecode cache's file names); ``undefined`` is
#: ``jinja2.StrictUndefined``
OPTIONS: dict[str, Any] = {"autoescape": True, "trim_blocks": True, "lstrip_blocks": True,
                           "keep_trailing_newline": True}


def template(folder: Path, name: str) -> Any:
    """The Jinja2 template ``folder/name``."""
    folder_cache = cache_dir("jinja2")
    return _environment(str(folder), None if folder_cache is None else str(folder_cache)).get_template(name)


@lru_cache(maxsize=None)
def _environment(folder: str, bytecode_dir: str | None) -> Any:
    import jinja2
    return jinja2.Environment(loader=jinja2.FileSystemLoader(folder), undefined=jinja2.StrictUndefined,
                              bytecode_cache=_bytecode_cache(jinja2, bytecode_dir), **OPTIONS)


def _bytecode_cache(jinja2: Any, directory: str | None) -> Any:
    """Jinja2's ``FileSystemBytecodeCache`` in ``directory`` (created), or None when caching is off
    or the folder cannot be made; reading or writing a cache file never raises (module doc)."""
    if directory is None:
        return None
    try:
        Path(directory).mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    options = hashlib.sha1(repr(sorted(OPTIONS.items()) + ["StrictUndefined"]).encode()).hexdigest()[:12]

    class QuietCache(jinja2.FileSystemBytecodeCache):   # type: ignore[misc]
        def load_bytecode(self, bucket: Any) -> None:
            try:
                super().load_bytecode(bucket)
            except Exception:   # unreadable or corrupt (a truncated pickle raises many kinds): compile again
                bucket.reset()

        def dump_bytecode(self, bucket: Any) -> None:
            try:
                super().dump_bytecode(bucket)
            except OSError:
                pass

    return QuietCache(directory, f"__jinja2_{jinja2.__version__}_{options}_%s.cache")
