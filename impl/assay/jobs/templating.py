"""Jinja2 templates shipped in the package (``jobs/report/templates``, ``jobs/audit/templates``): one
cached environment per templates folder, autoescape on (every value is text, never markup),
undefined names an error, Jinja2 imported on first use."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any


def template(folder: Path, name: str) -> Any:
    """The Jinja2 template ``folder/name``."""
    return _environment(str(folder)).get_template(name)


@lru_cache(maxsize=None)
def _environment(folder: str) -> Any:
    import jinja2
    return jinja2.Environment(loader=jinja2.FileSystemLoader(folder), autoescape=True,
                              undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                              keep_trailing_newline=True)
