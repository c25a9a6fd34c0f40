"""``assay conform``: validate another implementation against the golden fixtures and name the
reference tool it behaves like (modelled on toml-test and bowtie).

- :mod:`.protocol` — the JSON-lines protocol and its schema (``schema/protocol-v1.json``)
- :mod:`.connect` — connectables ``direct:`` (in-process, :mod:`.shapes` adapters) and ``cmd:``
- :mod:`.suite` — fixture cases, selection, known-failure lists
- :mod:`.recorded` — third-party packages' recorded answers (``Profile.recorded``) as cases
- :mod:`.judge` / :mod:`.runner` / :mod:`.reports` — verdicts, runs, text / JSON lines / JUnit
- :mod:`.identify` — closest profile and single-knob departures
- :mod:`.assay_impl` — assay itself as an implementation (``direct:assay.jobs.conform.assay_impl:follow``)
"""
from __future__ import annotations

