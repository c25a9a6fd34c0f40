"""assay: clean-room, tool-faithful implementations of text-generation metrics.

>>> import assay
>>> assay.score("bleu", ["the cat sat on the mat"], [["the cat sat on the mat"]]).value
100.00000000000004

(sacrebleu 2.6.0's own value, to the last bit: exp(log 100) is not 100 in IEEE doubles.)

The public API (typed: the package ships ``py.typed``):

- scoring: :func:`score`, :func:`sentence_scores`, :func:`compute_stats` + :func:`score_from_stats`,
  :func:`make_config` (:mod:`assay.engine.api`);
- profiles: :func:`profiles_of` (a family's profiles), :func:`get_profile` (one: ``get_profile("bleu", "nltk")``),
  :class:`Profile`. ``assay.profiles`` is the *package* that holds the presets as data
  (``assay.profiles.bleu``, ...), not a function: calling it raises a TypeError that names
  ``assay.profiles_of``;
- results and errors: :class:`Score`, :class:`SentenceScores` (what :func:`sentence_scores` returns),
  :class:`SegmentStats`, :class:`AssayError` and its subclasses;
- ``assay.dask`` (imported on first use), ``assay.compat.*`` (drop-in APIs of the reproduced tools).
"""
from __future__ import annotations

import importlib as _importlib
from typing import TYPE_CHECKING

from assay._version import __version__

if TYPE_CHECKING:   # the names as static checkers see them; at run time each is imported on first use
    from assay.core.errors import AssayError, InputError, KnobError, MissingDependencyError, ToolBehaviourError
    from assay.core.score import Score, SentenceScores
    from assay.core.stats import SegmentStats
    from assay.engine.api import compute_stats, make_config, score, score_from_stats, sentence_scores
    from assay.profiles.registry import Profile, get_profile, profiles_of

# a literal list (static checkers read it to know what the TYPE_CHECKING imports re-export): the
# version and every key of _PUBLIC, in its order
__all__ = ["__version__", "score", "sentence_scores", "compute_stats", "score_from_stats", "make_config",
           "Score", "SentenceScores", "SegmentStats", "Profile", "get_profile", "profiles_of", "AssayError",
           "InputError", "KnobError", "MissingDependencyError", "ToolBehaviourError"]

#: where each public name lives: ``import assay`` imports none of them (nor numpy), so the command line
#: (:mod:`assay.cli.main`) starts without the scoring machinery its command may not need
_PUBLIC: dict[str, str] = {
    **dict.fromkeys(("score", "sentence_scores", "compute_stats", "score_from_stats", "make_config"),
                    "assay.engine.api"),
    **dict.fromkeys(("Score", "SentenceScores"), "assay.core.score"),
    "SegmentStats": "assay.core.stats",
    **dict.fromkeys(("Profile", "get_profile", "profiles_of"), "assay.profiles.registry"),
    **dict.fromkeys(("AssayError", "InputError", "KnobError", "MissingDependencyError", "ToolBehaviourError"),
                    "assay.core.errors"),
}

#: subpackages reachable as attributes after a bare ``import assay`` (``assay.profiles``, ``assay.dask``,
#: the Dask API, ...), imported on first use: ``import assay`` never imports Dask
_SUBMODULES = frozenset(("cli", "compat", "core", "dask", "engine", "jobs", "metrics", "output", "profiles",
                         "resources", "stemmers", "text", "tokenizers"))


def __getattr__(name: str) -> object:
    """A public name (:data:`_PUBLIC`) or subpackage, imported on first use and then kept as an attribute."""
    if name in _PUBLIC:
        value = getattr(_importlib.import_module(_PUBLIC[name]), name)
        globals()[name] = value
        return value
    if name in _SUBMODULES:
        return _importlib.import_module(f"assay.{name}")
    raise AttributeError(f"module 'assay' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_PUBLIC, *_SUBMODULES})
