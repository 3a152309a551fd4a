"""The guides in docs/, served by the app itself (a club's hall often has no internet): each
Markdown page rendered to HTML with an id on every heading (the same ids GitHub gives them, so one
link works in both places), links between the guides and to their pictures turned into the app's
own addresses; and which section each page's Help link opens.
"""

from __future__ import annotations

import re
import unicodedata
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from urllib.parse import urlsplit

import markdown
from django.conf import settings
from django.urls import reverse
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

# Which guide, and which of its sections, the Help link of each page opens (by URL name); the
# pages not named here open the secretary's guide at its top.
SECTIONS: dict[str, tuple[str, str]] = {
    "league_list": ("leagues", "make-a-league"),
    "league_signup": ("leagues", "sign-up-as-an-organiser"),
    "league_new": ("leagues", "make-a-league"),
    "league_home": ("leagues", ""),
    "league_settings": ("leagues", "make-a-league"),
    "league_clubs": ("leagues", "invite-the-clubs"),
    "league_invitation_withdraw": ("leagues", "invite-the-clubs"),
    "club_leagues": ("leagues", "accept-or-decline-club-secretaries"),
    "league_invitation_decline": ("leagues", "accept-or-decline-club-secretaries"),
    "league_players": ("leagues", "naming-your-players"),
    "league_club_players": ("leagues", "naming-your-players"),
    "league_club_withdraw": ("leagues", "naming-your-players"),
    "league_same_person": ("leagues", "naming-your-players"),
    "league_fixtures": ("leagues", "fixtures-and-the-calendar"),
    "league_fixture": ("leagues", "a-match-night"),
    "league_fixture_close": ("leagues", "a-match-night"),
    "league_fixture_card": ("leagues", "the-card"),
    "league_card": ("leagues", "the-card"),
    "league_table": ("leagues", "the-league-table"),
    "league_import": ("leagues", "the-leagues-file"),
    "club_setup": ("secretary", "set-up-the-club"),
    "club_first_run": ("secretary", "set-up-the-club"),
    "club_close": ("secretary", "leaving"),
    "player_forget": ("secretary", "leaving"),
    "player_list": ("secretary", "set-up-the-club"),
    "player_create": ("secretary", "set-up-the-club"),
    "player_edit": ("secretary", "set-up-the-club"),
    "member_list": ("secretary", "set-up-the-club"),
    "rule_set_list": ("rules", ""),
    "rule_set_create": ("rules", ""),
    "rule_set_custom": ("rules", ""),
    "rule_set_edit": ("rules", ""),
    "season_list": ("secretary", "set-up-the-club"),
    "season_create": ("secretary", "set-up-the-club"),
    "season_edit": ("secretary", "set-up-the-club"),
    "night_list": ("secretary", "set-up-the-night"),
    "night_create": ("secretary", "set-up-the-night"),
    "arrivals": ("draw", "who-is-here"),
    "door_qr": ("draw", "the-door-qr-code"),
    "draw": ("draw", "drawing-the-tables"),
    "night_late": ("draw", "late-arrivals"),
    "night_tables_edit": ("secretary", "during-the-night"),
    "night_links": ("secretary", "set-up-the-night"),
    "night_detail": ("secretary", "during-the-night"),
    "live_night": ("secretary", "during-the-night"),
    "night_close": ("secretary", "close-the-night"),
    "night_reopen": ("secretary", "close-the-night"),
    "night_publish": ("secretary", "close-the-night"),
    "table_detail": ("players", "enter-a-hand"),
    "hand_edit": ("players", "put-a-mistake-right"),
    "hand_delete": ("players", "put-a-mistake-right"),
    "hand_confirm": ("players", "put-a-mistake-right"),
    "link_table": ("players", "enter-a-hand"),
    "link_edit": ("players", "put-a-mistake-right"),
    "link_delete": ("players", "put-a-mistake-right"),
    "link_confirm": ("players", "put-a-mistake-right"),
    "player_own": ("players", "your-own-link"),
    "player_own_night": ("players", "your-own-link"),
    "player_own_link": ("secretary", "money-owed"),
    "player_own_link_reissue": ("secretary", "money-owed"),
    "player_own_link_revoke": ("secretary", "money-owed"),
    "club_ledger": ("secretary", "money-owed"),
    "me": ("secretary", "money-owed"),
    "standings": ("secretary", "standings-and-printed-sheets"),
    "player_detail": ("secretary", "standings-and-printed-sheets"),
    "tournament_list": ("secretary", "tournaments"),
    "tournament_create": ("secretary", "tournaments"),
    "tournament_detail": ("secretary", "tournaments"),
    "tournament_entries": ("secretary", "tournaments"),
    "tournament_settings": ("secretary", "tournaments"),
    "leaderboard": ("secretary", "tournaments"),
    "grade_settings": ("grades", ""),
    "club_import": ("data-file", ""),
    "club_import_confirm": ("data-file", ""),
    "table_cards": ("seating", "table-cards"),
    "table_card_revoke": ("seating", "table-cards"),
    "table_card_reissue": ("seating", "table-cards"),
    "card_page": ("seating", "players-seat-themselves"),
    "player_home": ("players", "your-home-across-clubs"),
    "player_home_unlink": ("players", "your-home-across-clubs"),
}
DEFAULT_SECTION = ("secretary", "")
# The help index lists the guides by their readers. A club's Help is for its secretaries and its
# players: running nights, the draw, seating, scoring at the table, the rules, the grade, the
# club's data file. The people who install and run the server (an operator, the next engineer)
# have theirs in a section of their own below it; the club's guides link to some of them (the
# operators' guide, the figures), so they stay served. Every page of docs/ is in one list
# (tests/house/test_help.py), in the order shown.
FOR_CLUBS = [
    "secretary",
    "draw",
    "seating",
    "players",
    "rules",
    "grades",
    "data-file",
    "leagues",
]
FOR_HOSTS = ["operators", "reliability", "security", "performance", "architecture"]
ORDER = FOR_CLUBS + FOR_HOSTS
IMAGE_TYPES = {".png": "image/png", ".svg": "image/svg+xml", ".jpg": "image/jpeg"}


def docs_dir() -> Path:
    return Path(settings.BASE_DIR, "docs")


def slug(text: str, separator: str = "-") -> str:
    """A heading's id as GitHub makes it: lower case, punctuation dropped, spaces to hyphens."""
    text = unicodedata.normalize("NFKC", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", separator)


@dataclass(frozen=True)
class Guide:
    name: str  # the file's name without .md: "secretary"
    title: str  # its first heading
    html: str
    ids: frozenset[str]  # every heading's id


def names() -> list[str]:
    found = sorted(p.stem for p in docs_dir().glob("*.md"))
    return [n for n in ORDER if n in found] + [n for n in found if n not in ORDER]


def club_guides() -> list[Guide]:
    """The guides for a club's secretaries and players, in the help index's order."""
    return _found(FOR_CLUBS)


def host_guides() -> list[Guide]:
    """The guides for the people who run the server, in the help index's order."""
    return _found(FOR_HOSTS)


def _found(wanted: list[str]) -> list[Guide]:
    return [g for g in (guide(n) for n in wanted) if g is not None]


def guide(name: str, *, images: bool = True) -> Guide | None:
    """The guide `docs/<name>.md` rendered, or None when there is no such guide. Without
    `images` the pictures are left out (the one-page printed players' guide)."""
    path = docs_dir() / f"{name}.md"
    if name not in names() or not path.is_file():
        return None
    return _render(path, path.stat().st_mtime_ns, images)


@cache
def _render(path: Path, mtime: int, images: bool) -> Guide:
    text = path.read_text(encoding="utf-8")
    converter = markdown.Markdown(
        extensions=[
            "fenced_code",
            "tables",
            "toc",
            "sane_lists",
            _AppLinks(images=images),
        ],
        extension_configs={
            # align="right" rather than style="text-align: right", which the Content Security
            # Policy (style-src 'self') would refuse.
            "tables": {"use_align_attribute": True},
            "toc": {"slugify": slug, "toc_depth": "1-3"},
        },
        output_format="html",
    )
    html = converter.convert(text)
    title = next(
        (line[2:].strip() for line in text.splitlines() if line.startswith("# ")), path.stem
    )
    ids = frozenset(re.findall(r'<h[1-6] id="([^"]+)"', html))
    return Guide(path.stem, title, html, ids)


def image_path(name: str) -> Path | None:
    """A picture of docs/images/ by its file name, or None (nothing outside that folder)."""
    folder = (docs_dir() / "images").resolve()
    path = (folder / name).resolve()
    if path.parent != folder or path.suffix not in IMAGE_TYPES or not path.is_file():
        return None
    return path


def section_for(url_name: str | None) -> str:
    """The address the Help link of the page with this URL name opens."""
    name, anchor = SECTIONS.get(url_name or "", DEFAULT_SECTION)
    url = reverse("help_page", args=[name])
    return f"{url}#{anchor}" if anchor else url


class _LinkRewriter(Treeprocessor):
    """`players.md#x` -> /help/players/#x; `images/x.png` -> /help/images/x.png; a link to a
    file of the repository that is not a guide (`../README.md`) -> the help index."""

    def __init__(self, md: markdown.Markdown, images: bool) -> None:
        super().__init__(md)
        self.images = images

    def run(self, root: ET.Element) -> None:
        for parent in list(root.iter()):
            for element in list(parent):
                if element.tag == "a":
                    element.set("href", _app_href(element.get("href", "")))
                elif element.tag == "img":
                    if not self.images:
                        parent.remove(element)
                        continue
                    source = element.get("src", "")
                    if source.startswith("images/"):
                        element.set("src", reverse("help_image", args=[source[7:]]))
                    element.set("loading", "lazy")


def _app_href(href: str) -> str:
    parts = urlsplit(href)
    if parts.scheme or parts.netloc or not parts.path:
        return href  # another site, or an anchor on this page
    if parts.path.endswith(".md"):
        stem = Path(parts.path).stem
        if "/" not in parts.path and stem in names():
            url = reverse("help_page", args=[stem])
            return f"{url}#{parts.fragment}" if parts.fragment else url
        return reverse("help")
    return href


class _AppLinks(Extension):
    def __init__(self, images: bool = True) -> None:
        super().__init__()
        self.images = images

    def extendMarkdown(self, md: markdown.Markdown) -> None:  # Markdown names it so
        md.treeprocessors.register(_LinkRewriter(md, self.images), "app_links", 1)
