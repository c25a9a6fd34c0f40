"""Stemmers: clean-room Porter variants (:mod:`.porter`) and ROUGE's WordNet exception list (:mod:`.exceptions`)."""
from __future__ import annotations

from assay.stemmers.porter import VARIANTS, PorterStemmer, measure

__all__ = ["PorterStemmer", "VARIANTS", "measure"]
