"""ROUGE: rouge-score, ROUGE-1.5.5.pl and pycocoevalcap as one family (:mod:`.family`): knobs, text, counts
(LCS kernels, measures), combination of references, rows and the one scorer."""
