"""The guides: the README stays short and keeps its two commands, every link in the README and
docs/ resolves (files and #sections), every picture they name exists, and none sends a reader
outside the repository (../shared is not in it)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from club.help.queries.guides import slug

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"!?\[(?:[^\]]|\][^(])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")


def _without_code(text: str) -> str:
    """The page without its fenced code blocks and code spans (a shell line is not a link)."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "", text)


def links(page: Path) -> list[str]:
    return LINK.findall(_without_code(page.read_text(encoding="utf-8")))


def anchors(page: Path) -> set[str]:
    text = _without_code(page.read_text(encoding="utf-8"))
    return {slug(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*$", text, flags=re.M)}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_link_resolves_inside_the_repository(page):
    for href in links(page):
        parts = urlsplit(href)
        if parts.scheme in ("http", "https", "mailto"):
            continue
        target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
        assert target.is_relative_to(ROOT), f"{page.name}: {href} is outside the repository"
        assert target.exists(), f"{page.name}: {href} does not exist"
        if parts.fragment and target.suffix == ".md":
            assert parts.fragment in anchors(target), f"{page.name}: no section {href}"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_picture_named_exists_and_is_a_png_of_some_size(page):
    for href in links(page):
        if not href.endswith((".png", ".svg", ".jpg")):
            continue
        picture = (page.parent / href).resolve()
        assert picture.is_file(), f"{page.name}: the picture {href} is missing (bin/screenshots)"
        if picture.suffix == ".png":
            head = picture.read_bytes()[:24]
            assert head[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")
            assert width >= 300 and height >= 300, f"{href}: {width}x{height}"


def test_every_picture_in_docs_images_is_used():
    used = {Path(h).name for page in PAGES for h in links(page)}
    pictures = {p.name for p in (ROOT / "docs" / "images").glob("*.png")}
    assert pictures <= used, f"pictures no guide shows: {sorted(pictures - used)}"


def test_the_readme_is_short_and_keeps_its_two_commands():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    blocks = re.findall(r"```sh\n(.*?)```", text, flags=re.S)
    assert "bin/demo\n" in blocks and "bin/test\n" in blocks
    assert "../shared" not in text and "DESIGN.md" not in text
    # The first screen names what it is and shows it.
    assert "![" in "\n".join(text.splitlines()[:30])


def test_the_link_checker_catches_a_missing_section(tmp_path):
    page = tmp_path / "a.md"
    page.write_text("# A\n\n## Close the night\n\nSee [b](#open-the-night).\n")
    assert anchors(page) == {"a", "close-the-night"}
    assert links(page) == ["#open-the-night"]
