"""The request loop an adapter runs when another interpreter (an old tool version) answers for it."""
from __future__ import annotations

import json
import sys
from typing import Any, Callable


def serve(compute: Callable[[list[str], list[list[str]], dict[str, Any], str], Any],
          version: Callable[[], str]) -> None:
    """Read one JSON request per stdin line (``hyps``, ``refs``, ``knobs``, ``level``) and print one
    JSON answer per line: ``{"result", "version"}``, or ``{"error", "version"}`` when the tool fails
    (the tool's own failure is recorded as data)."""
    for line in sys.stdin:
        req = json.loads(line)
        try:
            out = {"result": compute(req["hyps"], req["refs"], req["knobs"], req.get("level", "corpus")),
                   "version": version()}
        except Exception as exc:
            out = {"error": f"{type(exc).__name__}: {exc}", "version": version()}
        print(json.dumps(out), flush=True)
