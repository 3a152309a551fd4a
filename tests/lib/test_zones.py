"""Each club runs on its own clock, whatever the server's (UTC): two clubs on one server, one in
Pacific/Auckland and one in America/Los_Angeles, with the clock frozen around their midnights.
Tonight's date, the door, the new-night form, "closed at" on the night page, in the results email
and on the printed sheet are the club's local date and time; the club changes its zone in Set-up.
"""

from __future__ import annotations

import datetime as dt
import io

import pytest
import time_machine
from django.conf import settings
from django.core import mail
from django.urls import reverse
from django.utils import timezone
from pypdf import PdfReader

from club.clubs.models import Club, Membership, Player, Role, Season
from club.clubs.services.setup import rule_set_from_preset
from club.play.models import Night
from club.play.services.night_setup import create_night
from tests.kits.ledger_kit import give_emails, play

pytestmark = pytest.mark.django_db

# One instant, two evenings: 23:30 on Thursday 26 November in Los Angeles (PST, UTC-8) is 20:30 on
# Friday 27 November in Auckland (NZDT, UTC+13), and 07:30 on the 27th on the server.
LA_HALF_ELEVEN = dt.datetime(2026, 11, 27, 7, 30, tzinfo=dt.UTC)
# 23:30 on Thursday 26 November in Auckland: 02:30 that morning in Los Angeles.
AUCKLAND_HALF_ELEVEN = dt.datetime(2026, 11, 26, 10, 30, tzinfo=dt.UTC)


def frozen(instant: dt.datetime):
    return time_machine.travel(instant, tick=False)


def _club(django_user_model, slug: str, zone: str) -> tuple[Club, object, list[Player]]:
    club = Club.objects.create(name=f"{zone} Solo", slug=slug, time_zone=zone, correction_minutes=0)
    secretary = django_user_model.objects.create_user(username=f"sec-{slug}", password="x")
    Membership.objects.create(user=secretary, club=club, role=Role.SECRETARY)
    rules = rule_set_from_preset(club, "hoyle", "Hoyle")
    Season.objects.create(
        club=club,
        name="Winter",
        start=dt.date(2026, 9, 1),
        end=dt.date(2027, 2, 28),
        rule_set=rules,
    )
    players = [Player.objects.create(club=club, name=n) for n in ("Ann", "Bob", "Cat", "Dan")]
    return club, secretary, players


@pytest.fixture
def auckland(django_user_model):
    return _club(django_user_model, "auckland", "Pacific/Auckland")


@pytest.fixture
def los_angeles(django_user_model):
    return _club(django_user_model, "la", "America/Los_Angeles")


def _as(client, user):
    client.force_login(user)
    return client


def pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def test_the_server_runs_in_utc_and_a_club_keeps_london_unless_it_chooses():
    assert settings.TIME_ZONE == "UTC"
    assert Club.objects.create(name="Old club", slug="old").time_zone == "Europe/London"


def test_at_half_past_eleven_each_club_starts_tonight_on_its_own_date(
    client, auckland, los_angeles
):
    (nz, nz_sec, _), (la, la_sec, _) = auckland, los_angeles
    with frozen(LA_HALF_ELEVEN):
        assert timezone.localdate() == dt.date(2026, 11, 27)  # the server's (UTC) date
        _as(client, la_sec).post(reverse("night_start_tonight", args=[la.slug]))
        _as(client, nz_sec).post(reverse("night_start_tonight", args=[nz.slug]))
        assert Night.objects.get(season__club=la).date == dt.date(2026, 11, 26)
        assert Night.objects.get(season__club=nz).date == dt.date(2026, 11, 27)
        # The door and the new-night form say the same day.
        page = _as(client, la_sec).get(reverse("arrivals", args=[la.slug])).content.decode()
        assert "Thu 26 Nov" in page
        form = client.get(reverse("night_create", args=[la.slug])).content.decode()
        assert 'value="2026-11-26"' in form
        page = _as(client, nz_sec).get(reverse("arrivals", args=[nz.slug])).content.decode()
        assert "Fri 27 Nov" in page
    with frozen(AUCKLAND_HALF_ELEVEN):
        Night.objects.all().delete()
        _as(client, nz_sec).post(reverse("night_start_tonight", args=[nz.slug]))
        assert Night.objects.get(season__club=nz).date == dt.date(2026, 11, 26)


def test_the_first_card_scanned_and_the_door_go_by_the_club_s_date(client, los_angeles):
    from club.play.models import Arrival
    from club.play.services import table_cards
    from club.play.services import tokens as token_service

    club, secretary, players = los_angeles
    club.first_card_opens_night = club.door_check_in = True
    club.save()
    card = table_cards.issue_cards(club, secretary, 1)[0]
    door = reverse("club_door", args=[club.slug, token_service.door_token(club)])
    with frozen(LA_HALF_ELEVEN):
        client.post(reverse("card_open_night", args=[card.token]))
        assert "Thu 26 Nov" in client.get(door).content.decode()
        client.post(door, {"player": players[0].pk})
    assert Night.objects.get().date == dt.date(2026, 11, 26)
    assert Arrival.objects.get().date == dt.date(2026, 11, 26)


def test_the_standings_and_their_csv_open_on_the_season_of_the_club_s_date(
    client, auckland, los_angeles
):
    """Summer starts on 27 November: at the same instant Auckland is in it, Los Angeles is not."""
    for club, _, _ in (auckland, los_angeles):
        winter = club.seasons.get()
        Season.objects.filter(pk=winter.pk).update(end=dt.date(2026, 11, 26))
        Season.objects.create(
            club=club,
            name="Summer",
            start=dt.date(2026, 11, 27),
            end=dt.date(2027, 2, 28),
            rule_set=winter.rule_set,
        )
    found = {}
    with frozen(LA_HALF_ELEVEN):
        for club, secretary, _ in (auckland, los_angeles):
            response = _as(client, secretary).get(reverse("standings_csv", args=[club.slug]))
            found[club.slug] = response["Content-Disposition"]
    assert found == {
        "auckland": 'attachment; filename="auckland-summer-standings.csv"',
        "la": 'attachment; filename="la-winter-standings.csv"',
    }


@pytest.mark.parametrize(
    ("instant", "where", "reads"),
    [
        # At one instant, each club reads its own local time.
        (LA_HALF_ELEVEN, "los_angeles", "26 Nov 2026, 23:30"),
        (LA_HALF_ELEVEN, "auckland", "27 Nov 2026, 20:30"),
        (AUCKLAND_HALF_ELEVEN, "auckland", "26 Nov 2026, 23:30"),
    ],
)
def test_a_night_closed_reads_the_clubs_time_on_its_page_its_email_and_its_sheet(
    request, client, django_capture_on_commit_callbacks, instant, where, reads
):
    club, secretary, players = request.getfixturevalue(where)
    give_emails(players)
    with frozen(instant):
        night = create_night(season=club.seasons.get(), date=club.today(), tables=[(players, 0)])
        play(night.tables.get(), secretary, players[1], "solo", 6)
        with django_capture_on_commit_callbacks(execute=True):
            _as(client, secretary).post(reverse("night_close", args=[club.slug, night.pk]))
        night.refresh_from_db()
        assert night.is_published  # a window of 0: published, and emailed, at once
        page = client.get(reverse("night_detail", args=[club.slug, night.pk])).content.decode()
        sheet = client.get(reverse("night_sheet", args=[club.slug, night.pk]))
    assert f"Closed on {reads}" in page
    assert f"results published {reads}" in page
    assert len(mail.outbox) == 4
    assert all(f"closed {reads}:" in message.body for message in mail.outbox)
    text = pdf_text(sheet.content)
    assert f"closed {reads}: these figures are final" in text
    assert f"printed {reads}" in text


def test_two_clubs_on_one_server_never_show_each_other_s_clock(client, auckland, los_angeles):
    """A page of one club switches on its zone for that request only: the next request (here, in
    the same thread, as a worker serves one page after another) starts on the server's UTC."""
    (nz, nz_sec, nz_players), (la, la_sec, la_players) = auckland, los_angeles
    with frozen(LA_HALF_ELEVEN):
        nz_night = create_night(nz.seasons.get(), nz.today(), [(nz_players, 0)])
        la_night = create_night(la.seasons.get(), la.today(), [(la_players, 0)])
        Night.objects.update(closed_at=timezone.now(), status=Night.Status.CLOSED)
        nz_page = _as(client, nz_sec).get(reverse("night_detail", args=[nz.slug, nz_night.pk]))
        assert timezone.get_current_timezone_name() == "UTC"
        la_page = _as(client, la_sec).get(reverse("night_detail", args=[la.slug, la_night.pk]))
        assert timezone.get_current_timezone_name() == "UTC"
    assert "Closed on 27 Nov 2026, 20:30" in nz_page.content.decode()
    assert "Closed on 26 Nov 2026, 23:30" in la_page.content.decode()


def test_the_correction_window_ends_on_the_wall_clock_across_the_change_of_hour(
    client, los_angeles
):
    """Los Angeles puts its clocks back at 02:00 on 1 November 2026: a night closed at 01:30
    (daylight time) with an hour's window is provisional until 01:30 again (standard time)."""
    club, secretary, players = los_angeles
    club.correction_minutes = 60
    club.save()
    with frozen(dt.datetime(2026, 11, 1, 8, 30, tzinfo=dt.UTC)):
        night = create_night(club.seasons.get(), club.today(), [(players, 0)])
        # A night with no hands asks "Close it anyway?" first: the tick is given.
        _as(client, secretary).post(
            reverse("night_close", args=[club.slug, night.pk]), {"anyway": "1"}
        )
        page = client.get(reverse("night_detail", args=[club.slug, night.pk])).content.decode()
    assert night.date == dt.date(2026, 11, 1)
    assert "Closed on 1 Nov 2026, 01:30" in page
    assert "provisional</strong> until 1 Nov 2026, 01:30" in page


# Set-up ------------------------------------------------------------------------------------------


def _settings_post(club: Club, **changes: str) -> dict[str, str]:
    data = {
        "name": club.name,
        "time_zone": club.time_zone,
        "unit_kind": club.unit_kind,
        "currency_symbol": club.currency_symbol,
        "minor_units": str(club.minor_units),
        "points_label": club.points_label,
        "correction_minutes": str(club.correction_minutes),
        "odd_tables": club.odd_tables,
    }
    return data | changes


def test_the_secretary_changes_the_club_s_zone_in_set_up(client, los_angeles):
    club, secretary, _ = los_angeles
    url = reverse("club_setup", args=[club.slug])
    page = _as(client, secretary).get(url).content.decode()
    assert '<option value="America/Los_Angeles" selected>Los Angeles</option>' in page
    assert '<optgroup label="Pacific">' in page
    response = client.post(url, _settings_post(club, time_zone="Pacific/Auckland"))
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.time_zone == "Pacific/Auckland"
    with frozen(AUCKLAND_HALF_ELEVEN):
        page = client.get(url).content.decode()
    assert "Its time now: 23:30 on Thu 26 Nov." in page


def test_an_unknown_zone_is_refused_in_words_and_nothing_changes(client, los_angeles):
    club, secretary, _ = los_angeles
    url = reverse("club_setup", args=[club.slug])
    response = _as(client, secretary).post(
        url, _settings_post(club, time_zone="Mars/Olympus_Mons", name="Renamed")
    )
    assert response.status_code == 200
    assert "Mars/Olympus_Mons is not a time zone this server knows" in response.content.decode()
    club.refresh_from_db()
    assert (club.time_zone, club.name) == ("America/Los_Angeles", "America/Los_Angeles Solo")


def test_an_older_form_without_the_zone_keeps_it(client, los_angeles):
    club, secretary, _ = los_angeles
    data = _settings_post(club, name="Renamed")
    del data["time_zone"]
    _as(client, secretary).post(reverse("club_setup", args=[club.slug]), data)
    club.refresh_from_db()
    assert (club.name, club.time_zone) == ("Renamed", "America/Los_Angeles")


def test_the_results_email_the_queue_sends_later_reads_the_club_s_time(auckland):
    """Published at the end of the window by `publish_due` (a worker, outside any page): the
    email still gives the club's local time, not the worker's UTC."""
    from club.money.services.publish import publish_due
    from club.play.services.nights import close_night

    club, secretary, players = auckland
    club.correction_minutes = 30
    club.save()
    give_emails(players)
    with frozen(AUCKLAND_HALF_ELEVEN):
        night = create_night(club.seasons.get(), club.today(), [(players, 0)])
        play(night.tables.get(), secretary, players[1], "solo", 6)
        close_night(night, secretary)
    with frozen(AUCKLAND_HALF_ELEVEN + dt.timedelta(minutes=31)):
        assert publish_due() == (1, 4)
    assert timezone.get_current_timezone_name() == "UTC"
    assert all("closed 26 Nov 2026, 23:30:" in message.body for message in mail.outbox)
