"""Profiles: named presets of every knob of a family that reproduce one reference tool, as data.

``assay.profiles.<metric>`` holds that family's entries (``PROFILES`` and ``DEFAULT``); the
registry (:mod:`assay.profiles.registry`) loads them on first use.
"""
import sys as _sys
import types as _types
from typing import NoReturn

from assay.profiles.registry import DEFAULT_PROFILE, Profile, get_profile, profiles_of, register

__all__ = ["DEFAULT_PROFILE", "Profile", "get_profile", "profiles_of", "register"]


class _ProfilesPackage(_types.ModuleType):
    """``assay.profiles`` stays a module; a call (as if it listed profiles) says which function does."""

    def __call__(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("assay.profiles is the package of profile presets, not a function: "
                        "assay.profiles_of('bleu') lists a family's profiles, "
                        "assay.get_profile('bleu', 'nltk') returns one")


_sys.modules[__name__].__class__ = _ProfilesPackage
