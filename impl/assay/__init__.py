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
import sys as _sys
import types as _types
from typing import NoReturn

from assay._version import __version__
from assay.engine.api import compute_stats, make_config, score, score_from_stats, sentence_scores
from assay.core.errors import AssayError, InputError, KnobError, MissingDependencyError, ToolBehaviourError
from assay.profiles.registry import Profile, get_profile, profiles_of
from assay.core.score import Score, SentenceScores
from assay.core.stats import SegmentStats

__all__ = ["__version__", "score", "sentence_scores", "compute_stats", "score_from_stats", "make_config",
           "Score", "SentenceScores", "SegmentStats", "Profile", "get_profile", "profiles_of", "AssayError",
           "InputError", "KnobError", "MissingDependencyError", "ToolBehaviourError"]


class _ProfilesPackage(_types.ModuleType):
    """``assay.profiles`` stays a module; a call (as if it listed profiles) says which function does."""

    def __call__(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("assay.profiles is the package of profile presets, not a function: "
                        "assay.profiles_of('bleu') lists a family's profiles, "
                        "assay.get_profile('bleu', 'nltk') returns one")


_sys.modules["assay.profiles"].__class__ = _ProfilesPackage


def __getattr__(name: str) -> object:
    """``assay.dask`` (the Dask API) is imported on first use, so ``import assay`` never imports Dask."""
    if name == "dask":
        import importlib
        return importlib.import_module("assay.dask")
    raise AttributeError(f"module 'assay' has no attribute {name!r}")
