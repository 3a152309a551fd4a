"""axe-core on every page type: each page a secretary, a visitor or a director sees,
at a laptop's size and a phone's, must have no violation of WCAG 2.1 A/AA or axe's best practices.

Other browser tests call the same helper on the pages they drive (see tests/browser/a11y.py); this
one walks the whole app so that a page nobody drives in a flow is checked too."""

from __future__ import annotations

import datetime as dt

import pytest
from a11y import assert_no_axe_violations
from playwright.sync_api import Page

from club.clubs.models import Membership, Role
from club.play.services.hand_entry import HandEntry
from club.play.services.hands import record_hand
from club.play.services.night_setup import create_night
from club.play.services.nights import close_night
from club.play.services.table_links import night_links
from club.tournaments.services import tournaments as tournament_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def play(table, user, hands: int) -> list:
    seats = [s.player for s in table.seats.order_by("position")]
    done = []
    for n in range(hands):
        entry = HandEntry(
            dealer=seats[n % len(seats)],
            contract="solo",
            declarer=seats[(n + 1) % len(seats)],
            tricks=4 + n % 5,
            revoke_by=seats[(n + 2) % len(seats)] if n == 1 else None,
        )
        done.append(record_hand(table, entry, user))
    return done


@pytest.fixture
def app_pages(club, season, players, secretary, viewer):
    """Rows behind every page type: an open night with hands, a closed one, and a tournament with
    its first round drawn and played (so that the close-round confirmation has content)."""
    open_night = create_night(
        season, dt.date(2026, 11, 20), [(players[:4], 0), (players[4:9], 0)], user=secretary
    )
    table = open_night.tables.get(number=1)
    hands = play(table, secretary, 3)
    closed = create_night(season, dt.date(2026, 11, 13), [(players[:4], 0)], user=secretary)
    closed_table = closed.tables.get()
    play(closed_table, secretary, 3)
    close_night(closed, secretary)
    tournament = tournament_services.create_tournament(
        club,
        season=season,
        date=dt.date(2026, 12, 5),
        name="Christmas Drive",
        rounds=2,
        hands_per_round=1,
        players=players[:8],
        seed=3,
        director=secretary,
    )
    tournament_services.start(tournament, secretary)
    for t in tournament.night.tables.all():
        play(t, secretary, 1)
    link = night_links(open_night, secretary)[table.pk]
    member = Membership.objects.get(club=club, role=Role.VIEWER)
    s = club.slug
    rule_set = season.rule_set
    return {
        "secretary": [
            "/",
            f"/c/{s}/",
            f"/c/{s}/nights/",
            f"/c/{s}/nights/new/",
            f"/c/{s}/nights/{open_night.pk}/",
            f"/c/{s}/nights/{open_night.pk}/close/",
            f"/c/{s}/nights/{open_night.pk}/tables/",
            f"/c/{s}/nights/{open_night.pk}/delete/",
            f"/c/{s}/nights/{closed.pk}/",
            f"/c/{s}/nights/{closed.pk}/reopen/",
            f"/c/{s}/tables/{table.pk}/",
            f"/c/{s}/tables/{closed_table.pk}/",
            f"/c/{s}/hands/{hands[0].pk}/edit/",
            f"/c/{s}/hands/{hands[0].pk}/delete/",
            f"/c/{s}/standings/",
            f"/c/{s}/players/",
            f"/c/{s}/players/new/",
            f"/c/{s}/players/add-many/",
            f"/c/{s}/players/{players[0].pk}/",
            f"/c/{s}/players/{players[0].pk}/edit/",
            f"/c/{s}/setup/",
            f"/c/{s}/setup/seasons/",
            f"/c/{s}/setup/seasons/new/",
            f"/c/{s}/setup/seasons/{season.pk}/",
            f"/c/{s}/setup/rules/",
            f"/c/{s}/setup/rules/new/",
            f"/c/{s}/setup/rules/new/custom/",
            f"/c/{s}/setup/rules/{rule_set.pk}/",
            f"/c/{s}/setup/members/",
            f"/c/{s}/setup/members/{member.pk}/remove/",
            f"/c/{s}/tournaments/",
            f"/c/{s}/tournaments/new/",
            f"/c/{s}/tournaments/{tournament.pk}/",
            f"/c/{s}/tournaments/{tournament.pk}/settings/",
            f"/c/{s}/tournaments/{tournament.pk}/entries/",
            f"/c/{s}/tournaments/{tournament.pk}/close-round/",
            f"/c/{s}/tournaments/{tournament.pk}/leaderboard/",
            f"/c/{s}/audit/",
            f"/c/{s}/nights/{open_night.pk}/links/",
            f"/c/{s}/setup/grades/",
            f"/c/{s}/ledger/",
            f"/c/{s}/setup/import/",
            "/accounts/password_change/",
        ],
        # A visitor's read-only views.
        "viewer": [
            f"/c/{s}/nights/{closed.pk}/",
            f"/c/{s}/tables/{closed_table.pk}/",
            f"/c/{s}/tables/{table.pk}/",
            f"/c/{s}/tournaments/{tournament.pk}/",
        ],
        # A table's link: the sheet and its form without logging in.
        "anonymous": ["/accounts/login/", f"/t/{link.token}/"],
    }


def login(page: Page, live_server, username: str) -> None:
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", f"pw-{username}")
    page.click("button[type=submit]")
    page.wait_for_load_state()


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_every_page_type_has_no_axe_violations(page: Page, live_server, app_pages, size):
    page.set_default_timeout(10_000)
    page.set_viewport_size(size)
    failures = []
    for who in ("anonymous", "secretary", "viewer"):
        if who != "anonymous":
            page.context.clear_cookies()
            login(page, live_server, "sec" if who == "secretary" else "viewer")
        for path in app_pages[who]:
            response = page.goto(live_server.url + path)
            assert response is not None and response.status == 200, f"{who} {path}"
            try:
                assert_no_axe_violations(page)
            except AssertionError as failure:
                failures.append(f"{who}: {failure}")
    assert not failures, "\n\n".join(failures)
