"""METEOR profiles: NLTK's meteor_score (3.10.4 and the string-taking 3.5-3.6.2) and the METEOR 1.5 jar."""
from __future__ import annotations

from assay.profiles.audit import AuditGrid, AuditHint
from assay.profiles.registry import Profile

NLTK_KNOBS = dict(algorithm="nltk", alpha=0.9, beta=3.0, gamma=0.5, lowercase=True, stem=True, synonyms=True,
                  synonym_input="stem-leftovers", morphy="once", stem_case="lower", wordnet="")
NLTK36_KNOBS = dict(NLTK_KNOBS, synonym_input="exact-leftovers", morphy="iterate", stem_case="as-given")
METEOR15_KNOBS = dict(algorithm="meteor-1.5", alpha=0.85, beta=0.2, gamma=0.6, delta=0.75,
                      modules="exact stem synonym paraphrase", weights="1.0 0.6 0.8 0.6", norm=True, beam=40,
                      language="en", resources_path="")

PROFILES: tuple[Profile, ...] = (
    Profile(
        "meteor", "nltk", "nltk", ("3.10.4",), NLTK_KNOBS,
        "NLTK meteor_score/single_meteor_score: lowercased tokens (strings split on whitespace), exact, "
        "Porter-stem and WordNet 3.0 synonym stages (synonyms of stems), greedy alignment, alpha 0.9, beta 3, "
        "gamma 0.5, no perfect-match case, max over references; corpus = mean of segment scores (assay's "
        "choice: NLTK has no corpus METEOR).",
        command="[nltk.translate.meteor_score.meteor_score([r.split() for r in refs_i], hyp_i.split()) "
                "for each segment i] (WordNet 3.0)",
        audit=AuditHint(0.5, grids=(AuditGrid(dict(lowercase=(True, False))),))),
    Profile(
        "meteor", "nltk@3.6", "nltk", ("3.5", "3.6.2"), NLTK36_KNOBS,
        "NLTK meteor_score up to 3.6.2 (checked: 3.5, 3.6.2), which took plain strings: each string lowercased "
        "and split on whitespace, exact and Porter-stem stages as in meteor/nltk, then the WordNet stage on the "
        "words the exact stage left (stem-matched ones included, unstemmed), so a stem match can count again as a "
        "synonym match and scores can exceed 1 (nltk#2751, fixed in 3.6.3); WordNet morphy re-applies its rules "
        "until a form is found. The NLTK doc example scores 0.7398 (0.6944 under meteor/nltk). NLTK 3.6.3-3.6.4 "
        "still took strings but score like meteor/nltk with morphy=iterate. Corpus = mean of segment scores "
        "(assay's choice).",
        command="[nltk.translate.meteor_score.meteor_score(refs_i, hyp_i) for each segment i] "
                "(refs_i, hyp_i strings; NLTK 3.5 / 3.6.2, WordNet 3.0)",
        audit=AuditHint(0.9, grids=(AuditGrid(dict(lowercase=(True, False))),))),
    Profile(
        "meteor", "meteor-1.5", "meteor-1.5.jar", ("1.5",), METEOR15_KNOBS,
        "METEOR 1.5 jar as pycocoevalcap runs it (java -jar meteor-1.5.jar - - -stdio -l en -norm), clean-room "
        "and Java-free: -norm tokenisation, exact/stem/synonym/paraphrase modules (weights 1.0 0.6 0.8 0.6), alpha "
        "0.85, beta 0.2, gamma 0.6, delta 0.75, best reference per segment; corpus = score of the summed "
        "statistics (the jar's EVAL). Resources are read from the installed jar (resources_path knob).",
        command="java -jar -Xmx2G meteor-1.5.jar - - -stdio -l en -norm",
        audit=AuditHint(0.0, grids=(AuditGrid(dict(norm=(True, False))),), standard_for=("plain", "captions"))),
)

DEFAULT = "nltk"
