"""``assay completion bash|zsh|fish``: the shell code that completes ``assay``'s commands and options.

Completion is argcomplete's (a well-kept library that covers bash, zsh and fish): the script printed
here is ``argcomplete.shellcode(["assay"], shell=SHELL)``; on each Tab the shell runs ``assay`` with
``$_ARGCOMPLETE`` set, and :func:`complete` answers from the same argparse tree the command line
parses (every command, option and choice, always in step with the code), then exits.

Install (one line per shell):

    bash:  eval "$(assay completion bash)"                      (in ~/.bashrc)
    zsh:   eval "$(assay completion zsh)"                       (in ~/.zshrc)
    fish:  assay completion fish > ~/.config/fish/completions/assay.fish

Only the command being completed has its module imported (as for a normal run), so a Tab costs one
start of ``assay``, not of every job.
"""
from __future__ import annotations

import argparse
import os
import shlex
import sys
from typing import Any, Callable, Sequence

from assay.core.errors import MissingDependencyError

SHELLS = ("bash", "zsh", "fish")
INSTALL_HINT = "argcomplete, a dependency of assay-metrics, is missing: pip install 'assay-metrics'"
HOW = {"bash": 'eval "$(assay completion bash)"   # in ~/.bashrc',
       "zsh": 'eval "$(assay completion zsh)"    # in ~/.zshrc',
       "fish": "assay completion fish > ~/.config/fish/completions/assay.fish"}


HELP = {"completion": "print the shell completion script (bash, zsh, fish)"}
"""The line ``assay --help`` shows for the command (:mod:`assay.cli.main`)."""


def add_parser(sub: Any) -> None:
    p = sub.add_parser("completion", help=HELP["completion"],
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("shell", choices=SHELLS, help="the shell to complete in")
    p.set_defaults(handler=run)


def _argcomplete() -> Any:
    try:
        import argcomplete
    except ImportError:
        raise MissingDependencyError(f"shell completion needs argcomplete: {INSTALL_HINT}") from None
    return argcomplete


def script(shell: str, prog: str = "assay") -> str:
    """The completion script for ``shell`` (one of :data:`SHELLS`)."""
    return str(_argcomplete().shellcode([prog], shell=shell))


def run(args: argparse.Namespace) -> int:
    sys.stdout.write(script(args.shell))
    if sys.stdout.isatty():
        print(f"# install: {HOW[args.shell]}", file=sys.stderr)
    return 0


def _typed_words() -> list[str]:
    """The words before the one being completed (``$COMP_LINE`` up to ``$COMP_POINT``), program name dropped."""
    line = os.environ.get("COMP_LINE", "")
    point = int(os.environ.get("COMP_POINT", len(line)))
    head = line[:point]
    try:
        words = shlex.split(head)
    except ValueError:   # an open quote: complete as if every command were possible
        return []
    if words and not head.endswith(" "):
        words = words[:-1]   # the word being typed
    return words[1:]


def complete(build_parser: Callable[[Sequence[str] | None], argparse.ArgumentParser]) -> None:
    """Answer a shell's completion request (``$_ARGCOMPLETE`` set) and exit; a no-op without argcomplete."""
    try:
        import argcomplete
    except ImportError:
        return
    argcomplete.autocomplete(build_parser(_typed_words()))
