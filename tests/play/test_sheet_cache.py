"""The night sheet's queries do not grow with its tables, and a closed night's sheet
is rendered once, kept, served with an ETag (304 when the browser has it) and rendered again only
when the night changes."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from club.clubs.models import Player
from club.money.services.publish import publish
from club.play.models import NightSheetCache
from club.play.services.night_setup import create_night
from club.play.services.nights import close_night, reopen_night
from tests.kits.scorebook import play


def _night_of(season, tables: int):
    club = season.club
    people = [Player.objects.create(club=club, name=f"Player {i:02d}") for i in range(4 * tables)]
    seating = [(people[4 * t : 4 * t + 4], 0) for t in range(tables)]
    night = create_night(season, dt.date(2026, 12, 4), seating)
    return night, people


def _text(response) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(response.content)).pages)


@pytest.mark.parametrize("tables", [2, 8])
def test_night_sheet_queries_do_not_grow_with_tables(
    client, season, secretary, tables, django_assert_max_num_queries
):
    night, people = _night_of(season, tables)
    for t in range(tables):
        for _ in range(2):
            play(night, secretary, people[4 * t], table=t + 1)
    client.force_login(secretary)
    url = reverse("night_sheet", args=[season.club.slug, night.pk])
    # The club, session, user, membership and night; then the night's tables, nets, every
    # table's hands, their revokes, score lines and totals (four, not four per table), and the
    # season's rules.
    with django_assert_max_num_queries(12):
        response = client.get(url)
    assert response.status_code == 200
    text = _text(response)
    assert f"Table {tables}" in text and f"Player {4 * tables - 1:02d}" in text


@pytest.fixture
def closed(night, players, secretary):
    play(night, secretary, players[0])
    close_night(night, secretary)
    publish(night, secretary)  # final once published, after the correction window
    night.refresh_from_db()
    return night


def url_of(night) -> str:
    return reverse("night_sheet", args=[night.season.club.slug, night.pk])


def test_closed_sheet_is_kept_and_served_with_an_etag(
    client, closed, secretary, django_assert_max_num_queries
):
    client.force_login(secretary)
    first = client.get(url_of(closed))
    assert first.status_code == 200 and first["Content-Type"] == "application/pdf"
    etag = first["ETag"]
    assert etag.startswith('"') and len(etag) == 66
    kept = NightSheetCache.objects.get(night=closed)
    assert bytes(kept.pdf) == first.content
    # Closed: "Final" once published, "Provisional" during the club's correction window.
    assert ("Final" if closed.is_published else "Provisional") in _text(first)
    with django_assert_max_num_queries(8):
        again = client.get(url_of(closed))
    assert again.content == first.content and again["ETag"] == etag
    with django_assert_max_num_queries(7):  # access (5) and the fingerprint (2)
        not_modified = client.get(url_of(closed), HTTP_IF_NONE_MATCH=etag)
    assert not_modified.status_code == 304 and not_modified.content == b""
    assert not_modified["ETag"] == etag
    assert "no-cache" in not_modified["Cache-Control"]
    other = client.get(url_of(closed), HTTP_IF_NONE_MATCH='"something-else"')
    assert other.status_code == 200


def test_kept_sheet_is_not_rendered_again(client, closed, secretary, monkeypatch):
    client.force_login(secretary)
    client.get(url_of(closed))
    from club.play.views import sheets as sheet_views

    def refuse(*args, **kwargs):
        raise AssertionError("rendered again")

    monkeypatch.setattr(sheet_views, "render_pdf", refuse)
    assert client.get(url_of(closed)).status_code == 200


def test_a_change_to_the_night_renders_it_anew(client, closed, secretary, players):
    client.force_login(secretary)
    first = client.get(url_of(closed))
    # Reopen, score another hand, close again: a new sheet with the new hand and a new ETag.
    reopen_night(closed, secretary)
    closed.refresh_from_db()
    play(closed, secretary, players[1])
    close_night(closed, secretary)
    second = client.get(url_of(closed), HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200
    assert second["ETag"] != first["ETag"]
    assert second.content != first.content
    assert NightSheetCache.objects.filter(night=closed).count() == 1
    # A player's new name changes the sheet too (renaming writes no night audit event).
    players[0].name = "Annabel"
    players[0].save()
    third = client.get(url_of(closed), HTTP_IF_NONE_MATCH=second["ETag"])
    assert third.status_code == 200 and "Annabel" in _text(third)
    # So does the club's money unit.
    club = closed.season.club
    club.currency_symbol = "$"
    club.save()
    fourth = client.get(url_of(closed), HTTP_IF_NONE_MATCH=third["ETag"])
    assert fourth.status_code == 200 and "$" in _text(fourth)


def test_open_nights_are_rendered_each_time_and_not_kept(client, night, players, secretary):
    client.force_login(secretary)
    play(night, secretary, players[0])
    response = client.get(url_of(night))
    assert response.status_code == 200 and "ETag" not in response
    assert not NightSheetCache.objects.exists()


def test_the_etag_does_not_leak_the_sheet_to_another_club(client, closed, outsider):
    client.force_login(outsider)
    assert client.get(url_of(closed)).status_code == 404
    assert client.get(url_of(closed), HTTP_IF_NONE_MATCH="*").status_code == 404
