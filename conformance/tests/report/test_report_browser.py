"""The report page in a real headless Chromium (Debian's ``chromium``; installed by .ci/run).

Driven over the DevTools protocol on a pipe (``browser.py``: no selenium, no chromedriver). On the
bundled sample's report, at 1366x768: the summary is visible without scrolling, the part of the
page before the per-metric details is at most three screens high, the segment explorer sorts,
filters and highlights, no request leaves the page and nothing is logged as an error. Under
CI=true a missing browser FAILS; locally the tests are skipped.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest

from conformance.references.availability import missing
from conformance.tests.report.browser import Chromium, Page, find_chromium

WIDTH, HEIGHT = 1366, 768


@pytest.fixture(scope="module")
def browser() -> Iterator[Chromium]:
    path = find_chromium()
    if path is None:
        missing("chromium is not installed (CI must install it: apt-get install chromium)")
    with Chromium.start(path) as chromium:
        yield chromium


@pytest.fixture(scope="module")
def page(browser: Chromium, sample_report: Path) -> Page:
    return browser.open(sample_report / "index.html", WIDTH, HEIGHT)


def _rows(page: Page) -> list[dict[str, Any]]:
    return page.evaluate("Array.from(document.querySelectorAll('#ex-table tbody tr'))"
                         ".map(tr => ({seg: +tr.dataset.seg, diff: +tr.dataset.diff, sel: tr.classList.contains('sel')}))")


def _set(page: Page, element: str, value: object) -> None:
    """Set a control's value and fire the event the page listens to."""
    event = "input" if element == "ex-min" else "change"
    page.evaluate(f"(() => {{ const e = document.getElementById({element!r}); e.value = {str(value)!r}; "
                  f"e.dispatchEvent(new Event({event!r})); }})()")


def test_viewport_is_the_laptop_screen(page: Page) -> None:
    assert page.evaluate("[innerWidth, innerHeight]") == [WIDTH, HEIGHT]


def test_summary_is_visible_without_scrolling(page: Page) -> None:
    box = page.evaluate("(() => { const r = document.querySelector('#summary table').getBoundingClientRect();"
                        " return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, y: scrollY,"
                        " rows: document.querySelectorAll('#summary tbody tr').length}; })()")
    assert box["y"] == 0
    assert box["rows"] >= 6, box                        # every metric of the sample has a row
    assert 0 <= box["top"] and box["bottom"] <= HEIGHT, box
    assert 0 <= box["left"] and box["right"] <= WIDTH, box
    # nothing covers it: the element drawn at the centre of its last row is that row
    covered = page.evaluate("(() => { const rows = document.querySelectorAll('#summary tbody tr');"
                            " const r = rows[rows.length - 1].getBoundingClientRect();"
                            " const e = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);"
                            " return e !== null && rows[rows.length - 1].contains(e); })()")
    assert covered


def test_page_before_the_details_is_at_most_three_screens(page: Page) -> None:
    before, full = page.evaluate("[document.getElementById('details').getBoundingClientRect().top + scrollY,"
                                 " document.documentElement.scrollHeight]")
    print(f"page height before the per-metric details: {before:.0f} px; full page: {full} px")
    assert before <= 3 * HEIGHT, before


def test_every_plot_is_drawn(page: Page) -> None:
    assert page.evaluate("document.images.length") == 0          # every chart is inline SVG
    # the SVG charts (scores, waterfalls, distributions, scatters): laid out, and no text sticks out of its picture
    charts = page.evaluate("Array.from(document.querySelectorAll('figure svg')).map(s => {"
                           " const box = s.getBoundingClientRect(); const view = s.viewBox.baseVal;"
                           " const out = Array.from(s.querySelectorAll('text')).filter(t => { const b = t.getBBox();"
                           " return b.x < -0.5 || b.y < -0.5 || b.x + b.width > view.width + 0.5"
                           " || b.y + b.height > view.height + 0.5; }).map(t => t.textContent);"
                           " return [box.width, box.height, out]; })")
    assert len(charts) >= 30
    shown = [c for c in charts if c[0] > 0]          # waterfalls in closed <details> are not laid out
    assert len(shown) >= 10 and all(w > 100 and h > 50 for w, h, _ in shown), shown[:3]
    assert not [c for c in charts if c[2]], [c for c in charts if c[2]][:3]


def test_explorer_sorts_filters_and_highlights(page: Page) -> None:
    rows = _rows(page)
    assert len(rows) >= 100
    diffs = [abs(r["diff"]) for r in rows]
    assert diffs == sorted(diffs, reverse=True) and diffs[0] > 0          # default: |B - A|, largest first
    assert rows[0]["sel"]                                                 # and the first segment is shown
    _set(page, "ex-sort", "asc")
    diffs = [r["diff"] for r in _rows(page)]
    assert diffs == sorted(diffs) and diffs[0] < diffs[-1]
    _set(page, "ex-sort", "seg")
    segs = [r["seg"] for r in _rows(page)]
    assert segs == sorted(segs)
    # another measure and another pair of profiles
    keys = page.evaluate("Array.from(document.querySelectorAll('#ex-measure option')).map(o => o.textContent)")
    rouge2 = next(i for i, k in enumerate(keys) if k.startswith("rouge rouge2"))
    _set(page, "ex-measure", rouge2)
    profiles = page.evaluate("Array.from(document.querySelectorAll('#ex-a option')).map(o => o.textContent)")
    assert "rouge-score" in profiles and "rouge-1.5.5" in profiles
    _set(page, "ex-a", profiles.index("rouge-score"))
    _set(page, "ex-b", profiles.index("rouge-1.5.5"))
    _set(page, "ex-sort", "desc")
    diffs = [r["diff"] for r in _rows(page)]
    assert diffs == sorted(diffs, reverse=True)
    _set(page, "ex-min", 10)
    kept = _rows(page)
    assert kept and len(kept) < len(diffs) and all(abs(r["diff"]) >= 10 for r in kept)
    _set(page, "ex-min", 0)
    _set(page, "ex-dir", "neg")
    assert all(r["diff"] < 0 for r in _rows(page))
    _set(page, "ex-dir", "all")
    # click a segment: both tokenisations side by side, shared n-grams highlighted, every reference
    target = _rows(page)[2]
    page.evaluate(f"document.querySelector('#ex-table tbody tr[data-seg=\"{target['seg']}\"]').click()")
    detail = page.evaluate("(() => { const d = document.getElementById('ex-detail');"
                           " const cols = d.querySelectorAll('.side > div');"
                           " return {title: d.querySelector('h3').textContent, columns: cols.length,"
                           " heads: Array.from(cols).map(c => c.querySelector('h4').textContent),"
                           " refs: Array.from(cols).map(c => Array.from(c.querySelectorAll('.note'))"
                           "   .filter(n => n.textContent.startsWith('reference')).length),"
                           " marked: Array.from(cols).map(c => c.querySelectorAll('span.m1, span.m2, span.m3, span.m4').length),"
                           " texts: d.querySelectorAll('ul li').length}; })()")
    assert detail["title"].startswith(f"Segment {target['seg']}:"), detail
    assert detail["columns"] == 2 and detail["heads"][0].startswith("rouge-score") \
        and detail["heads"][1].startswith("rouge-1.5.5"), detail
    assert detail["refs"] == [2, 2] and detail["texts"] == 3, detail      # the sample has two references
    assert all(n > 0 for n in detail["marked"]), detail
    assert _rows(page)[2]["sel"]


def test_no_request_leaves_the_page_and_nothing_is_logged(page: Page) -> None:
    page.evaluate("document.querySelector('#ex-table tbody tr').click()")
    outside = [u[:80] for u in page.requests if u != page.url and not u.startswith("data:")]
    assert not outside, outside
    assert page.console == [], page.console


def test_page_without_script_keeps_its_tables(browser: Chromium, sample_report: Path, tmp_path: Path) -> None:
    """With scripts removed, the summary and the per-metric tables are still there (plain HTML)."""
    html = (sample_report / "index.html").read_text(encoding="utf-8")
    start = html.index("<script>")
    stripped = tmp_path / "noscript.html"
    stripped.write_text(html[:start] + html[html.index("</script>", start) + 9:], encoding="utf-8")
    bare = browser.open(stripped, WIDTH, HEIGHT)
    counts = bare.evaluate("[document.querySelectorAll('#summary tbody tr').length,"
                           " document.querySelectorAll('section.measure table').length]")
    assert counts[0] >= 6 and counts[1] >= 20, counts
    assert bare.console == [], bare.console


def test_numbers_only_page_works_without_text(browser: Chromium, tmp_path: Path) -> None:
    """``--no-text``: the explorer sorts numbers and says the text is not included; nothing is logged."""
    from assay.cli.main import main
    from assay.jobs.report import sample_dir
    d = sample_dir()
    out = tmp_path / "notext"
    assert main(["report", "-i", str(d / "hyp.txt"), "-r", str(d / "ref1.txt"), str(d / "ref2.txt"), "-o", str(out),
                 "--no-text", "--no-progress", "-m", "bleu,ter"]) == 0
    bare = browser.open(out / "index.html", WIDTH, HEIGHT)
    rows = _rows(bare)
    assert len(rows) == 300 and [abs(r["diff"]) for r in rows] == sorted((abs(r["diff"]) for r in rows), reverse=True)
    assert "not included" in bare.evaluate("document.getElementById('ex-detail').textContent")
    assert bare.console == [], bare.console
