"""Profiles: named presets of every knob of a family that reproduce one reference tool, as data.

``assay.profiles.<metric>`` holds that family's entries (``PROFILES`` and ``DEFAULT``); the
registry (:mod:`assay.profiles.registry`) loads them on first use.
"""
from assay.profiles.registry import DEFAULT_PROFILE, Profile, get_profile, profiles_of, register

__all__ = ["DEFAULT_PROFILE", "Profile", "get_profile", "profiles_of", "register"]
