"""The metric families' names, in a module that imports nothing (no numpy): what the command line
needs to build its parsers (``assay score --help`` lists them) without the scoring machinery
(:mod:`assay.core.family` and the registries import it from here).
"""

#: every metric family, in the order listings show them (``assay.metrics.<name>``)
METRIC_NAMES: tuple[str, ...] = ("rouge", "bleu", "nist", "chrf", "cider", "coco", "ter", "meteor", "gleu")
