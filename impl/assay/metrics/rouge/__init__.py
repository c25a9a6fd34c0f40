"""ROUGE: rouge-score and ROUGE-1.5.5.pl as one family (family.py), its text pipeline, LCS kernels and combination rules."""
