"""Regenerate ``fixtures/`` from the live reference tools (never from assay).

``registry`` declares every fixture target (tool, version, the call it runs, the files it writes);
``python -m conformance.regen TARGET ...`` runs targets (``--list`` shows them; ``all`` or no target
runs the default set). The other modules are the builders the targets call, one per family or
tool; each can also be run on its own (``python -m conformance.regen.<module> --help``).
"""
