"""GLEU (Wu et al. 2016, "Google BLEU"): n-gram matches over the larger of the two n-gram totals."""
