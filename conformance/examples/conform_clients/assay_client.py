#!/usr/bin/env python3
"""Reference Python client of the ``assay conform`` protocol (version 1), wrapping assay itself.

    assay conform "cmd:python conformance/examples/conform_clients/assay_client.py" --metric bleu
    assay conform "cmd:python .../assay_client.py --profile bleu/nltk" --identify

Without ``--profile`` it follows each case's profile and knob hints (``knobs: true``); with
``--profile METRIC/NAME`` it is that one profile at its defaults, blind to the hints (what a
knob-free implementation of that tool looks like). Protocol: read one JSON object per line on
stdin; answer ``start`` with metadata, each ``case`` with ``{"id", "score", "components"}`` or
``{"id", "error"}``; exit on ``stop``. stdout is flushed after every reply.
"""
from __future__ import annotations

import argparse
import json
import sys


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--profile", help="METRIC/NAME: act as this profile, ignoring case hints")
    args = ap.parse_args()

    import assay
    from assay.jobs.conform.assay_impl import score_case
    from assay.jobs.conform.suite import report_knobs
    from assay.engine.registry import METRIC_NAMES

    fixed_metric, _, fixed_profile = (args.profile or "").partition("/")
    for line in sys.stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        cmd = msg.get("cmd")
        if cmd == "start":
            meta = {"name": "assay-client.py", "version": assay.__version__, "language": "python",
                    "metrics": [fixed_metric] if fixed_metric else list(METRIC_NAMES),
                    "knobs": not args.profile, "shape": "protocol"}
            if fixed_profile:
                meta["profile"] = fixed_profile
            reply = {"version": 1, "implementation": meta}
        elif cmd == "case":
            try:
                if args.profile:   # blind to hints, except what to report (ROUGE's types)
                    out = score_case(fixed_metric, fixed_profile, msg["level"], msg["hyps"], msg["refs"],
                                     report_knobs(fixed_metric, msg.get("knobs") or {}), msg.get("input"))
                else:
                    out = score_case(msg["metric"], msg.get("profile"), msg["level"], msg["hyps"], msg["refs"],
                                     msg.get("knobs") or {}, msg.get("input"))
                reply = {"id": msg["id"], **out}
            except assay.ToolBehaviourError as exc:
                reply = {"id": msg["id"], "error": exc.tool_error, "context": {"message": str(exc)}}
            except assay.AssayError as exc:
                reply = {"id": msg["id"], "error": f"{type(exc).__name__}: {exc}"}
        elif cmd == "stop":
            return 0
        else:
            print(f"assay-client: unknown command {cmd!r}", file=sys.stderr)
            return 1
        sys.stdout.write(json.dumps(reply, ensure_ascii=False, allow_nan=False) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
