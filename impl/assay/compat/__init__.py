"""Drop-in, tool-shaped front ends over assay (same call shapes as the tools people already use).

``assay.compat.nltk``: ``corpus_bleu``, ``sentence_bleu``, ``corpus_nist``, ``sentence_nist`` with
NLTK's signatures, computed by assay's ``nltk`` profiles.
"""
