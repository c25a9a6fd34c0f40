"""Sub-commands that live in their own module (``assay compare``, ``report``, ``audit``, ``conform``).

Each module ``assay.cli.commands.<name>`` exposes ``add_parser(sub)``: it adds its sub-parser to the
argparse sub-parsers object and sets ``handler=<function(args) -> exit code>`` with
``set_defaults``. Modules import their heavy dependencies inside the handler, so ``assay --help``
stays fast. Adding a command is one entry in :data:`COMMAND_MODULES`.
"""
from __future__ import annotations

from importlib import import_module
from typing import Any

COMMAND_MODULES: tuple[str, ...] = ("compare", "report", "audit", "conform")


def add_command_parsers(sub: Any) -> None:
    """Let every command module that exists add its sub-parser."""
    for name in COMMAND_MODULES:
        try:
            module = import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"{__name__}.{name}":
                continue   # not written yet
            raise
        module.add_parser(sub)
