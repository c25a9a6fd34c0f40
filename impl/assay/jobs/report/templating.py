"""The report's Jinja2 templates (``templates/``): the page's parts (:mod:`.render`) and the SVG charts
(:mod:`.plots`)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from assay.jobs import templating

TEMPLATES = Path(__file__).resolve().parent / "templates"


def template(name: str) -> Any:
    """The Jinja2 template ``templates/NAME``."""
    return templating.template(TEMPLATES, name)
