"""End to end: a night of a private club is published, its results emails are sent, and every link
in every email (the unsubscribe link apart) opens, with no log-in and no cookie, what the player
it was sent to may see: his own page, the night's sheet and settle-up, his statement (a PDF read
back as text), each with his name and his net for the night. A token that is not his to use there
(another player's on a night he did not play, another club's, a revoked one, a re-issued link's
old one) is a 404."""

from __future__ import annotations

import re
import subprocess

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from club.clubs.models import Player
from club.money.services import publish as publish_service
from club.money.services.publish import publish
from club.play.services import player_links
from club.play.services.nights import close_night
from tests.kits.ledger_kit import give_emails, nets, play

LINK = re.compile(r"https?://[^\s<>\"]+")


@pytest.fixture(autouse=True)
def after_commit_at_once(monkeypatch):
    """The test's transaction never commits: what publishing queues after commit (the sending
    task, run at once by the test settings' immediate backend) runs at once."""
    monkeypatch.setattr(publish_service, "on_commit", lambda callback: callback())


def pdf_text(pdf: bytes) -> str:
    done = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True
    )
    return done.stdout.decode()


def page_text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


@pytest.fixture
def emailed(club, night, table4, table5, players, secretary):
    """A private money club: two tables play (Bob makes a solo at table 1, Eve loses a misère
    at table 2), every player has an address, the night is closed and published, and the emails
    go out. {player: message}."""
    club.is_public = False
    club.save()
    play(table4, secretary, players[1], "solo", 6)
    play(table4, secretary, players[2], "abundance", 8)
    play(table5, secretary, players[4], "misere", 1)
    give_emails(players)
    close_night(night, secretary)
    publish(night, secretary)
    by_address = {p.email: p for p in players}
    return {by_address[m.to[0]]: m for m in mail.outbox}


def _own_links(message) -> list[str]:
    return [u for u in LINK.findall(message.body) if "/unsubscribe/" not in u]


def _path(url: str) -> str:
    return re.sub(r"^https?://[^/]+", "", url)


def test_every_link_in_every_email_opens_the_players_own_pages_with_no_log_in(
    emailed, club, night, players
):
    played = nets(night)
    # Both tables played: everyone who scored was emailed, the one who sat out table 2 was not.
    assert {p.name for p in emailed} == set(played) and len(emailed) == 8
    assert Client().get(reverse("night_detail", args=[club.slug, night.pk])).status_code == 302
    opened = 0
    for player, message in emailed.items():
        net = club.format_amount(played[player.name], signed=True)
        links = _own_links(message)
        assert len(links) >= 3, message.body  # his own page, the night, his statement
        for url in links:
            response = Client().get(_path(url))
            assert response.status_code == 200, (player, url)
            if response["Content-Type"] == "application/pdf":
                text = pdf_text(response.content)
                # His statement: his name, and the night's line with his net for it.
                assert f"Statement · {player.name}" in " ".join(text.split())
                line = next(ln for ln in text.splitlines() if str(night) in ln)
                assert net in line, (line, net)
            else:
                html = response.content.decode()
                text = page_text(html)
                assert player.name in text, (player, url)
                assert net in text, (player, url, net)
                if f"/nights/{night.pk}/" not in url:
                    # His own page: the night's row carries his net.
                    row = re.search(rf'<tr data-night="{night.pk}">.*?</tr>', html, re.S)
                    assert row and net in page_text(row[0]), (player, url)
            opened += 1
    assert opened >= 3 * len(emailed)


def test_a_token_not_for_that_page_is_a_404(emailed, club, other_club, night, players, secretary):
    ann, bob = players[:2]
    night_url = reverse("player_own_night", args=[club.slug, player_links.token_for(ann), night.pk])
    assert Client().get(night_url).status_code == 200
    # Another player's token on the night's URL: Jo is of the club but did not play that night;
    # Red Lion's player's token opens nothing in this club.
    jo = Player.objects.create(club=club, name="Jo")
    stranger = Player.objects.create(club=other_club, name="Stranger")
    for token in (player_links.token_for(jo), player_links.token_for(stranger)):
        url = reverse("player_own_night", args=[club.slug, token, night.pk])
        assert Client().get(url).status_code == 404, url
    # A revoked token: every one of Ann's links stops working.
    anns = _own_links(emailed[ann])
    player_links.revoke(ann, secretary)
    for url in anns:
        assert Client().get(_path(url)).status_code == 404, url
    # A re-issued link: the old token is a 404, the new one opens the same pages.
    bobs = _own_links(emailed[bob])
    old = player_links.token_for(bob)
    new = player_links.reissue(bob, secretary)
    assert new != old
    for url in bobs:
        assert Client().get(_path(url)).status_code == 404, url
        assert Client().get(_path(url.replace(old, new))).status_code == 200, url
