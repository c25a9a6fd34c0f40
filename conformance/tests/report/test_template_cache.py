"""The compiled-template cache (:mod:`assay.jobs.templating`): a second environment reads the compiled
code instead of compiling and renders the same text; an edited template is compiled again; a
corrupt cache file is compiled again; an unusable cache folder and ``ASSAY_CACHE_DIR=off`` write
nothing and still render."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import jinja2
import pytest

from assay.jobs import templating
from assay.jobs.report.templating import TEMPLATES


@pytest.fixture(autouse=True)
def _fresh_environments() -> Iterator[None]:
    templating._environment.cache_clear()
    yield
    templating._environment.cache_clear()


def _compiles(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Names of the templates Jinja2 compiles from now on."""
    seen: list[str] = []
    compile_ = jinja2.Environment.compile

    def counting(self, source, name=None, filename=None, raw=False, defer_init=False):  # type: ignore[no-untyped-def]
        seen.append(str(name))
        return compile_(self, source, name, filename, raw, defer_init)

    monkeypatch.setattr(jinja2.Environment, "compile", counting)
    return seen


def _render(folder: Path, name: str) -> str:
    return str(templating.template(folder, name).render(title="t", rows=[], lo=0.0, hi=1.0))


def _template_rendered(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> tuple[Path, str]:
    """A template ``t.j2`` holding ``text`` in a folder of its own, rendered once with the cache in
    ``tmp_path/cache`` (so its compiled code is there): the folder and the rendered text."""
    monkeypatch.setenv("ASSAY_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "t.j2").write_text(text)
    return folder, _render(folder, "t.j2")


def test_second_environment_reads_the_compiled_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASSAY_CACHE_DIR", str(tmp_path))
    compiled = _compiles(monkeypatch)
    first = templating.template(TEMPLATES, "page.html.j2")
    assert compiled == ["page.html.j2"]
    files = list((tmp_path / "jinja2").iterdir())
    assert len(files) == 1 and files[0].name.startswith(f"__jinja2_{jinja2.__version__}_")
    templating._environment.cache_clear()
    second = templating.template(TEMPLATES, "page.html.j2")
    assert compiled == ["page.html.j2"]                         # read, not compiled
    assert second is not first
    assert second.root_render_func.__code__.co_code == first.root_render_func.__code__.co_code


def test_edited_template_is_compiled_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder, first = _template_rendered(tmp_path, monkeypatch, "one {{ title }}\n")
    assert first == "one t\n"
    templating._environment.cache_clear()
    (folder / "t.j2").write_text("two {{ title }}\n")
    compiled = _compiles(monkeypatch)
    assert _render(folder, "t.j2") == "two t\n"
    assert compiled == ["t.j2"]


def test_corrupt_cache_file_is_compiled_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder, first = _template_rendered(tmp_path, monkeypatch, "{{ title }} ok\n")
    assert first == "t ok\n"
    (cached,) = (tmp_path / "cache" / "jinja2").iterdir()
    good = cached.read_bytes()
    compiled = _compiles(monkeypatch)
    for cut in (len(good) // 2, len(jinja2.bccache.bc_magic) + 5, 1):   # in the code, the source digest, the header
        cached.write_bytes(good[:cut])
        templating._environment.cache_clear()
        assert _render(folder, "t.j2") == "t ok\n"
    assert compiled == ["t.j2"] * 3


@pytest.mark.parametrize("setting", ["off", "blocked"])
def test_no_cache_folder_still_renders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, setting: str) -> None:
    folder = tmp_path / "templates"
    folder.mkdir()
    (folder / "t.j2").write_text("{{ title }}\n")
    cache = tmp_path / "cache"
    cache.mkdir()
    if setting == "off":
        monkeypatch.setenv("ASSAY_CACHE_DIR", "off")
        monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    else:
        (cache / "jinja2").write_text("a file where the folder would be")
        monkeypatch.setenv("ASSAY_CACHE_DIR", str(cache))
    assert _render(folder, "t.j2") == "t\n"
    assert [p.name for p in cache.iterdir()] == ([] if setting == "off" else ["jinja2"])
