"""``assay profiles [METRIC]`` (every profile with its complete knob values) and ``assay knobs METRIC``
(every knob of a family: default, stage, domain, help)."""
from __future__ import annotations

import argparse
import json
from typing import Any

from assay.core.metric_names import METRIC_NAMES


HELP = {"profiles": "list profiles and their knob values", "knobs": "list the knobs of a metric family"}
"""The line ``assay --help`` shows for the command (:mod:`assay.cli.main`)."""


def add_parsers(sub: Any) -> None:
    pr = sub.add_parser("profiles", help=HELP["profiles"])
    pr.add_argument("metric", nargs="?", help="only this metric")
    pr.set_defaults(handler=run_profiles)

    kn = sub.add_parser("knobs", help=HELP["knobs"])
    kn.add_argument("metric")
    kn.set_defaults(handler=run_knobs)


def run_profiles(args: argparse.Namespace) -> int:
    from assay.engine.registry import get_family
    from assay.profiles.registry import DEFAULT_PROFILE, profiles_of

    metrics = [args.metric.lower()] if args.metric else list(METRIC_NAMES)
    for metric in metrics:
        family = get_family(metric)  # validates the name
        defaults = family.knobset.defaults()
        for p in profiles_of(metric):
            default = " (default)" if DEFAULT_PROFILE.get(metric) == p.name else ""
            print(f"{p.full_name}{default}: {p.tool} {', '.join(p.tool_versions)}")
            print(f"    {p.description}")
            full = dict(defaults)
            full.update(p.knobs)
            print("    " + " ".join(f"{k}={_show(v)}" for k, v in full.items()))
            if p.sentence_knobs:
                print("    sentence level: " + " ".join(f"{k}={_show(v)}" for k, v in p.sentence_knobs.items()))
    return 0


def run_knobs(args: argparse.Namespace) -> int:
    from assay.core.knobs import describe
    from assay.engine.registry import get_family

    for line in describe(get_family(args.metric).knobset):
        print(line)
    return 0


def _show(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, str) else value
