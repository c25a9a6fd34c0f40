"""Clean-room METEOR 1.5 (the CMU jar as pycocoevalcap runs it): normalisation, resources, Snowball
stemmer, candidate matching and alignment, scoring, and the family glue used by ``meteor.py``."""
