"""assay: clean-room, tool-faithful implementations of text-generation metrics.

>>> import assay
>>> assay.score("bleu", ["the cat sat on the mat"], [["the cat sat on the mat"]]).value
"""
from assay._version import __version__
from assay.engine.api import compute_stats, make_config, score, score_from_stats, sentence_scores
from assay.core.errors import AssayError, InputError, KnobError, MissingDependencyError, ToolBehaviourError
from assay.profiles.registry import Profile, get_profile, profiles_of
from assay.core.score import Score
from assay.core.stats import SegmentStats

__all__ = ["__version__", "score", "sentence_scores", "compute_stats", "score_from_stats", "make_config",
           "Score", "SegmentStats", "Profile", "get_profile", "profiles_of", "AssayError", "InputError",
           "KnobError", "MissingDependencyError", "ToolBehaviourError"]


def __getattr__(name: str):
    """``assay.dask`` (the Dask API) is imported on first use, so ``import assay`` never imports Dask."""
    if name == "dask":
        import importlib
        return importlib.import_module("assay.dask")
    raise AttributeError(f"module 'assay' has no attribute {name!r}")
