"""Help inside the app: the guides of docs/ served by the app itself (no internet at a club),
each main page's Help link opening the matching section, and the players' guide as a one-page
PDF to print for the tables."""

from __future__ import annotations

import io
import re

import pytest
from django.urls import reverse
from pypdf import PdfReader

from club.help.queries import guides


def test_every_help_section_named_exists_in_its_guide():
    """A renamed heading breaks the Help link of its page: this fails first."""
    for url_name, (name, anchor) in guides.SECTIONS.items():
        guide = guides.guide(name)
        assert guide is not None, f"{url_name}: no guide {name}"
        assert not anchor or anchor in guide.ids, f"{url_name}: no section #{anchor} in {name}"


def test_the_guides_are_served_with_their_pictures_and_links_made_the_apps(client, db):
    index = client.get(reverse("help")).content.decode()
    assert "Running a club night" in index and "Scoring at the table" in index
    page = client.get(reverse("help_page", args=["secretary"]))
    html = page.content.decode()
    assert page.status_code == 200
    assert '<h2 id="close-the-night">Close the night</h2>' in html
    assert 'href="/help/players/#open-your-tables-sheet"' in html  # players.md#... made the app's
    pictures = re.findall(r'<img[^>]+src="([^"]+)"', html)
    assert pictures and all(src.startswith("/help/images/") for src in pictures)
    picture = client.get(pictures[0])
    assert picture.status_code == 200 and picture["Content-Type"] == "image/png"
    assert b"".join(picture.streaming_content)[:4] == b"\x89PNG"
    assert 'style="' not in html  # the Content Security Policy refuses inline styles


@pytest.mark.parametrize("name", ["nothing.png", "..%2Fplayers.md", "..%2F..%2Fmanage.py"])
def test_only_the_pictures_of_the_guides_are_served(client, db, name):
    assert client.get(f"/help/images/{name}").status_code == 404


def test_an_unknown_guide_is_a_404(client, db):
    assert client.get(reverse("help_page", args=["nothing"])).status_code == 404


def test_the_help_link_of_each_page_opens_its_section(client, secretary, night, table4):
    client.force_login(secretary)
    slug = night.season.club.slug
    for url, expected in [
        (reverse("night_detail", args=[slug, night.pk]), "/help/secretary/#during-the-night"),
        (reverse("night_create", args=[slug]), "/help/secretary/#set-up-the-night"),
        (reverse("table_detail", args=[slug, table4.pk]), "/help/players/#enter-a-hand"),
        (reverse("standings", args=[slug]), "/help/secretary/#standings-and-printed-sheets"),
        (reverse("club_ledger", args=[slug]), "/help/secretary/#money-owed"),
        (reverse("club_setup", args=[slug]), "/help/secretary/#set-up-the-club"),
    ]:
        html = client.get(url).content.decode()
        assert f'<a href="{expected}" class="help-link">Help</a>' in html, url
    # (The home page sends a secretary of one club straight to it; a visitor sees it.)
    client.logout()
    html = client.get(reverse("home")).content.decode()
    assert '<a href="/help/secretary/" class="help-link">Help</a>' in html


def test_a_tables_link_has_help_for_the_players(client, night, table4, secretary):
    from club.play.services.table_links import night_links

    token = night_links(night, secretary)[table4.pk].token
    html = client.get(reverse("link_table", args=[token])).content.decode()
    assert 'href="/help/players/#enter-a-hand"' in html


def test_the_players_guide_prints_on_one_page(client, db):
    response = client.get(reverse("help_players_pdf"))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) == 1
    text = reader.pages[0].extract_text()
    for heading in ("Scoring at the table", "Open your table's sheet", "Enter a hand",
                    "Put a mistake right", "No signal?", "After the night",
                    "Your own link"):  # fmt: skip
        assert heading in text, heading


def listed(index: str, list_id: str) -> list[str]:
    """The guides (their names, /help/<name>/) of the help index's list with this id."""
    block = re.search(rf'<ul class="guide-list" id="{list_id}"[^>]*>(.*?)</ul>', index, re.S)
    assert block is not None, list_id
    return re.findall(r'href="/help/([\w-]+)/"', block.group(1))


def test_a_clubs_help_lists_the_guides_for_secretaries_and_players_and_the_hosts_apart(client, db):
    index = client.get(reverse("help")).content.decode()
    assert listed(index, "club-guides") == [
        "secretary",
        "draw",
        "seating",
        "players",
        "rules",
        "grades",
        "data-file",
        "leagues",
    ]
    hosts = listed(index, "host-guides")
    assert hosts == ["operators", "reliability", "security", "performance", "architecture"]
    # The hosts' list comes after the club's, under its own heading.
    heading = index.index("For the people who run the server")
    assert index.index('id="club-guides"') < heading < index.index('id="host-guides"')
    assert "Running the service" in index[heading:] and "Running the service" not in index[:heading]


def test_every_guide_of_docs_is_listed_once_for_clubs_or_for_hosts():
    """A new page of docs/ must be placed: in the club's Help, or in the hosts' section."""
    in_docs = {path.stem for path in guides.docs_dir().glob("*.md")}
    assert not set(guides.FOR_CLUBS) & set(guides.FOR_HOSTS)
    assert sorted(guides.FOR_CLUBS + guides.FOR_HOSTS) == sorted(in_docs)
