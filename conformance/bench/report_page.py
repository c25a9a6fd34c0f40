"""Benchmark: how tall and heavy the report page is, measured in a real headless Chromium.

    PYTHONHASHSEED=0 python -m conformance.bench.report_page [--report DIR] [--width 1366] [--height 768]

Without ``--report`` it writes the bundled sample's report (``assay report``, the README's first
command) to a temporary directory. Printed: the page's size in bytes (plots and the explorer's
data included), how many plots are inline SVG charts and how many PNG data URIs, with their bytes, the height of the part before the per-metric details and of the whole page, in
pixels and in screens of ``--height`` (issue 21: the part before the details at most three
screens), and where the summary ends (it must end on the first screen). ``conformance.bench.report``
prints the same figures for its 2,000-segment report. Chromium is driven as in the browser test
(``conformance/tests/report/browser.py``); without it the page is only weighed.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

SCREENS = 3


@dataclass
class PageSize:
    bytes: int
    explorer_bytes: int
    svg: tuple[int, int] = (0, 0)           # inline SVG charts: count, bytes
    png: tuple[int, int] = (0, 0)           # PNG data URIs: count, bytes
    before_details: float | None = None     # px
    full: float | None = None               # px
    summary_bottom: float | None = None     # px
    height: int = 768
    note: str = ""

    def lines(self) -> list[str]:
        out = [f"page: {self.bytes / 1e6:.2f} MB ({self.explorer_bytes / 1e6:.2f} MB of segment-explorer data)",
               f"plots: {self.svg[0]} SVG charts inline ({self.svg[1] / 1e6:.2f} MB), {self.png[0]} PNG data URIs "
               f"({self.png[1] / 1e6:.2f} MB)"]
        if self.full is None:
            return out + [f"height not measured: {self.note}"]
        h = self.height
        assert self.before_details is not None and self.summary_bottom is not None
        verdict = "OK" if self.before_details <= SCREENS * h else "OVER"
        out += [f"summary ends at {self.summary_bottom:.0f} px ({'on' if self.summary_bottom <= h else 'BELOW'} "
                f"the first {h} px screen)",
                f"before the per-metric details: {self.before_details:.0f} px = {self.before_details / h:.2f} screens "
                f"-> {verdict} (at most {SCREENS})",
                f"full page: {self.full:.0f} px = {self.full / h:.1f} screens of {h} px"]
        return out


def measure_page(html: Path, width: int = 1366, height: int = 768) -> PageSize:
    """Weigh ``html`` and, when Chromium is there, lay it out at ``width`` x ``height``."""
    import re
    text = html.read_text(encoding="utf-8")
    data = re.search(r'<script type="application/json" id="explorer-data">(.*?)</script>', text, re.S)
    svgs = re.findall(r"<svg\b.*?</svg>", text, re.S)
    pngs = re.findall(r'"data:image/png;base64,[^"]*"', text)
    size = PageSize(len(text.encode("utf-8")), len(data.group(1)) if data else 0, height=height,
                    svg=(len(svgs), sum(len(x) for x in svgs)), png=(len(pngs), sum(len(x) for x in pngs)))
    from conformance.tests.report.browser import BrowserError, Chromium, find_chromium
    if find_chromium() is None:
        size.note = "no chromium on PATH"
        return size
    try:
        with Chromium.start() as browser:
            page = browser.open(html, width, height)
            size.before_details, size.full, size.summary_bottom = page.evaluate(
                "[document.getElementById('details').getBoundingClientRect().top + scrollY,"
                " document.documentElement.scrollHeight,"
                " document.getElementById('summary').getBoundingClientRect().bottom + scrollY]")
    except BrowserError as exc:
        size.note = str(exc)
    return size


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--report", type=Path, help="a report directory (default: write the bundled sample's)")
    parser.add_argument("--width", type=int, default=1366)
    parser.add_argument("--height", type=int, default=768)
    parser.add_argument("--quick", action="store_true", help="(accepted for `python -m conformance.bench all`)")
    parser.add_argument("--repeats", type=int, help="(accepted, unused)")
    parser.add_argument("--memory", help="(accepted, unused)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        out = args.report
        if out is None:
            from assay.cli.main import main as assay
            out = Path(tmp) / "sample"
            if assay(["report", "-o", str(out), "--no-progress"]) != 0:
                return 1
        size = measure_page(out / "index.html", args.width, args.height)
        print(f"== report page of {'the bundled sample' if args.report is None else out}")
        for line in size.lines():
            print(f"  {line}")
    return 0 if size.before_details is None or size.before_details <= SCREENS * args.height else 1


if __name__ == "__main__":
    sys.exit(main())
