"""Club nights through their pages: the list, setting a night up, the night page with nets and the
settle-up, closing and reopening, the audit trail, and the night page's query count."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.db import connection
from django.db.models import Sum
from django.test.utils import CaptureQueriesContext
from django.urls import NoReverseMatch, reverse

import scoring
from club.clubs.models import AuditEvent, Club, Player, Season
from club.play.models import Night, ScoreLine
from club.play.services.hand_entry import HandEntry, next_hand
from club.play.services.hands import HandConflict, delete_hand, record_hand, update_hand
from club.play.services.night_setup import create_night


def u(name: str, *args) -> str:
    return reverse(name, args=["crown", *args])


@pytest.fixture
def sec_client(client, secretary):
    client.force_login(secretary)
    return client


@pytest.fixture
def scorer_client(client, scorer):
    client.force_login(scorer)
    return client


def play(table, user, declarer, contract="solo", tricks=5, partner=None):
    """Record a hand at the table, dealt by whoever the rotation says."""
    entry = HandEntry(
        dealer=next_hand(table)["dealer"],
        contract=contract,
        declarer=declarer,
        partner=partner,
        tricks=tricks,
    )
    return record_hand(table, entry, user)


def db_nets(night: Night) -> dict[str, int]:
    """Each player's net for the night, by name, straight from the score lines."""
    rows = ScoreLine.objects.filter(night=night).values("player__name").annotate(net=Sum("amount"))
    return {r["player__name"]: r["net"] for r in rows}


def payments_shown(body: str) -> list[str]:
    block = body[body.index('<ol class="payments">') :]
    block = block[: block.index("</ol>")]
    return [re.sub(r"\s+", " ", li).strip() for li in re.findall(r"<li>(.*?)</li>", block, re.S)]


# The list --------------------------------------------------------------------------------------


def test_night_list_newest_first_with_status_badges(
    client, viewer, night, season, players, secretary
):
    later = create_night(season, dt.date(2026, 12, 4), [(players[:4], 1)], title="Christmas drive")
    from club.play.services.nights import close_night

    close_night(later, secretary)
    client.force_login(viewer)
    body = client.get(u("night_list")).content.decode()
    assert (
        body.index("Fri 4 Dec 2026") < body.index("Christmas drive") < body.index("Fri 20 Nov 2026")
    )
    assert '<span class="badge closed">Closed</span>' in body
    assert '<span class="badge open">Open</span>' in body
    assert f'href="{u("night_detail", later.pk)}"' in body


# Setting a night up ----------------------------------------------------------------------------


def table_data(*tables, date="2026-11-27", season=None, **extra):
    """POST data for the night form: each table a list of players (or pks), first dealer seat 1,
    or (players, first dealer seat) pairs."""
    data = {
        "date": date,
        "season": season.pk if season else "",
        "title": "",
        "new_players": "",
        "tables-TOTAL_FORMS": str(len(tables)),
        "tables-INITIAL_FORMS": "0",
        "action": "create",
    }
    for i, table in enumerate(tables):
        seats, dealer = table if isinstance(table, tuple) else (table, 1)
        data[f"tables-{i}-first_dealer"] = str(dealer)
        for n, p in enumerate(seats, start=1):
            data[f"tables-{i}-seat_{n}"] = "" if p is None else str(getattr(p, "pk", p))
    return data | extra


def test_create_a_night_with_two_tables(scorer_client, scorer, season, players):
    ann, bob, cat, dan, eve, fay, gus, hal, ivy = players
    data = table_data(([bob, ann, dan, cat], 2), [eve, fay, gus], season=season, title="Friday")
    response = scorer_client.post(u("night_create"), data)
    night = Night.objects.get()
    assert response["Location"] == u("night_detail", night.pk)
    assert (night.season, night.date, night.title, night.status) == (
        season,
        dt.date(2026, 11, 27),
        "Friday",
        "open",
    )
    t1, t2 = night.tables.order_by("number")
    assert [s.player.name for s in t1.seats.all()] == ["Bob", "Ann", "Dan", "Cat"]
    assert t1.first_dealer == 1  # seat 2 on the form is position 1
    assert next_hand(t1)["dealer"] == ann
    assert [s.player.name for s in t2.seats.all()] == ["Eve", "Fay", "Gus"]
    event = AuditEvent.objects.get(night=night)
    assert (event.user, event.action) == (scorer, "create")
    assert event.after == {"table 1": "Bob, Ann, Dan, Cat", "table 2": "Eve, Fay, Gus"}


def test_the_season_defaults_to_the_one_containing_the_date(
    scorer_client, season, players, club, hoyle
):
    response = scorer_client.post(u("night_create"), table_data(players[:4], date="2026-12-01"))
    assert Night.objects.get().season == season
    # With no season covering the date, the error says so beside the season field.
    response = scorer_client.post(u("night_create"), table_data(players[:4], date="2030-01-01"))
    assert response.context["form"].errors == {
        "season": ["No season covers 01 Jan 2030: choose one, or add a season in set-up."]
    }
    assert Night.objects.count() == 1


def test_the_form_opens_on_today_and_todays_season(scorer_client, club, hoyle, season, players):
    today = club.today()
    current = Season.objects.create(
        club=club,
        name="This year",
        start=today - dt.timedelta(days=30),
        end=today + dt.timedelta(days=30),
        rule_set=hoyle,
    )
    response = scorer_client.get(u("night_create"))
    body = response.content.decode()
    assert f'value="{today:%Y-%m-%d}"' in body
    assert f'<option value="{current.pk}" selected>This year</option>' in body
    # Nine active players: three tables of four offered, each seat listing every player.
    assert len(response.context["tables"].forms) == 3
    assert body.count(f'<option value="{players[8].pk}">Ivy</option>') == 15


def test_a_date_outside_the_chosen_season_is_an_error(scorer_client, season, players):
    response = scorer_client.post(
        u("night_create"), table_data(players[:4], date="2027-05-01", season=season)
    )
    assert response.context["form"].errors == {
        "date": [
            "Winter 2026 runs from 01 Sep 2026 to 31 Mar 2027: "
            "choose a date in it or another season."
        ]
    }
    assert not Night.objects.exists()


def test_table_validation_errors_show_beside_their_fields(scorer_client, season, players):
    ann, bob, cat, dan, eve, fay, gus, hal, ivy = players
    data = table_data(
        [ann, bob],  # too few
        [cat, dan, cat, eve],  # Cat twice
        ([fay, gus, hal, ann], 5),  # Ann at two tables, and no seat 5 to deal
        [ivy, None, bob, eve],  # a gap in the seats
        season=season,
    )
    response = scorer_client.post(u("night_create"), data)
    assert response.status_code == 200
    assert not Night.objects.exists()
    forms = response.context["tables"].forms
    assert forms[0].non_field_errors() == ["A table seats 3, 4 or 5 players, not 2."]
    assert forms[1].errors == {"seat_3": ["Cat is already in seat 1 at this table."]}
    assert forms[2].errors == {
        "seat_4": ["Ann is already at table 1."],
        "first_dealer": ["Seat 5 is empty: the first dealer must be one of the players seated."],
    }
    assert forms[3].errors["seat_2"] == [
        "Fill the seats in order: this seat is empty but a later one is not."
    ]
    body = response.content.decode()
    for message in (
        "A table seats 3, 4 or 5 players, not 2.",
        "Cat is already in seat 1 at this table.",
        "Ann is already at table 1.",
        "Seat 5 is empty: the first dealer must be one of the players seated.",
    ):
        assert message in body
    # The error sits in the seat's own field box, after its select.
    seat = body.index('name="tables-2-seat_4"')
    assert body.index("Ann is already at table 1.") > seat
    assert body.index("Ann is already at table 1.") < body.index('name="tables-2-seat_5"')


def test_a_night_needs_a_table(scorer_client, season, players):
    response = scorer_client.post(u("night_create"), table_data([], [], season=season))
    assert response.context["tables"].non_form_errors() == [
        "Seat at least one table of 3, 4 or 5 players."
    ]
    assert not Night.objects.exists()


def test_only_the_clubs_active_players_can_be_seated(scorer_client, season, players, other_club):
    stranger = Player.objects.create(club=other_club, name="Stranger")
    Player.objects.filter(pk=players[0].pk).update(active=False)
    data = table_data(
        [stranger, players[1], players[2]], [players[0], players[3], players[4]], season=season
    )
    response = scorer_client.post(u("night_create"), data)
    forms = response.context["tables"].forms
    assert "seat_1" in forms[0].errors and "seat_1" in forms[1].errors
    assert not Night.objects.exists()
    assert "Stranger" not in response.content.decode()


def test_add_players_on_the_fly_keeps_the_tables_and_offers_them(
    scorer_client, season, players, club
):
    Club.objects.filter(pk=club.pk).update(scorers_add_players=True)  # else a secretary's job
    ann, bob, cat = players[:3]
    data = table_data(
        [ann, bob, cat], season=season, new_players="Zed Z,\nYan  Y, zed z", action="add_players"
    )
    response = scorer_client.post(u("night_create"), data)
    assert not Night.objects.exists()
    zed = Player.objects.get(club=club, name="Zed Z")
    assert Player.objects.filter(club=club, name="Yan Y").exists()
    body = response.content.decode()
    assert "Added Zed Z, Yan Y to the club" in body
    assert f'<option value="{zed.pk}">Zed Z</option>' in body
    assert f'<option value="{ann.pk}" selected>Ann</option>' in body  # the seats stay chosen
    assert response.context["form"]["new_players"].value() == ""
    assert not response.context["tables"].is_bound  # no errors for a table being filled in
    # Now seat Zed and create the night.
    response = scorer_client.post(
        u("night_create"), table_data([ann, bob, cat, zed], season=season)
    )
    night = Night.objects.get()
    assert [s.player.name for s in night.tables.get().seats.all()] == ["Ann", "Bob", "Cat", "Zed Z"]


def test_new_players_already_in_the_club_are_an_error(scorer_client, season, players, club):
    Club.objects.filter(pk=club.pk).update(scorers_add_players=True)
    data = table_data(players[:4], season=season, new_players="ann, Newcomer")
    response = scorer_client.post(u("night_create"), data)
    assert response.context["form"].errors["new_players"] == [
        "Already in the club: ann. Choose them in the seats below."
    ]
    assert not Player.objects.filter(name="Newcomer").exists()
    assert not Night.objects.exists()


def test_an_inactive_player_named_as_new_is_brought_back(scorer_client, season, players, club):
    Club.objects.filter(pk=club.pk).update(scorers_add_players=True)
    Player.objects.filter(name="Ivy").update(active=False)
    response = scorer_client.get(u("night_create"))
    assert ">Ivy</option>" not in response.content.decode()
    data = table_data([], season=season, new_players="ivy", action="add_players")
    response = scorer_client.post(u("night_create"), data)
    assert Player.objects.get(name="Ivy").active
    assert Player.objects.filter(name__iexact="ivy").count() == 1
    assert "Added Ivy to the club" in response.content.decode()
    assert f'<option value="{players[8].pk}">Ivy</option>' in response.content.decode()


def test_add_a_table(scorer_client, season, players):
    data = table_data(players[:4], season=season, action="add_table")
    response = scorer_client.post(u("night_create"), data)
    assert len(response.context["tables"].forms) == 2
    assert not Night.objects.exists()
    # Sent as a plain form (before htmx took the page over), the button keeps the focus.
    assert 'id="add-table" autofocus' in response.content.decode()
    redrawn = scorer_client.post(u("night_create"), data, HTTP_HX_REQUEST="true")
    assert 'id="add-table" autofocus' not in redrawn.content.decode()  # htmx finds it by id


# The night page --------------------------------------------------------------------------------


def test_night_page_shows_tables_players_hand_counts_and_links(
    client, viewer, night, table4, table5, players, secretary
):
    ann, bob, cat, dan, eve, fay = players[:6]
    play(table4, secretary, bob)
    play(table4, secretary, cat, tricks=4)
    play(table5, secretary, fay, contract="misere", tricks=0)
    client.force_login(viewer)
    response = client.get(u("night_detail", night.pk))
    body = response.content.decode()
    assert "2 tables · 3 hands" in body
    tables = response.context["summary"].tables
    assert [(t.table.number, t.hands, [p.name for p in t.players]) for t in tables] == [
        (1, 2, ["Ann", "Bob", "Cat", "Dan"]),
        (2, 1, ["Eve", "Fay", "Gus", "Hal", "Ivy"]),
    ]
    try:
        table_url = reverse("table_detail", args=["crown", table4.pk])
    except NoReverseMatch:
        table_url = None
    if table_url:
        assert f'href="{table_url}"' in body
    assert '<span class="badge open">Open</span>' in body


def test_nets_and_settle_up_match_the_scoring_core_in_the_clubs_unit(
    client, viewer, night, table4, table5, players, secretary
):
    ann, bob, cat, dan, eve, fay, gus, hal, ivy = players
    for _ in range(3):
        play(table4, secretary, ann, contract="abundance_declared", tricks=13)  # 36 from each
    play(table4, secretary, ann, contract="misere", tricks=0)  # 12 from each
    play(table5, secretary, fay, contract="solo", tricks=4)  # fails by one: pays 7 to each
    play(table5, secretary, hal, contract="prop_cop", partner=gus, tricks=8)
    nets = db_nets(night)
    assert nets["Bob"] == nets["Cat"] == nets["Dan"] == -120 and nets["Ann"] == 360

    client.force_login(viewer)
    body = client.get(u("night_detail", night.pk)).content.decode()
    club = Club.objects.get(slug="crown")
    expected = [
        f"{payer} pays {payee} {club.format_amount(amount)}"
        for payer, payee, amount in scoring.settle_up(nets)
    ]
    assert payments_shown(body) == expected
    for who in ("Bob", "Cat", "Dan"):
        assert f"{who} pays Ann £1.20" in expected
    assert '<span class="gain">+£3.60</span>' in body
    assert body.count('<span class="loss">-£1.20</span>') == 3


def test_a_night_with_no_hands_is_square(client, viewer, night):
    client.force_login(viewer)
    body = client.get(u("night_detail", night.pk)).content.decode()
    assert "Everyone is square: nothing to pay." in body
    assert body.count('<span class="muted">£0.00</span>') == 9  # every seated player


def test_points_club_and_winner_only_points_say_nothing_changes_hands(
    client, viewer, club, players, secretary
):
    from club.clubs.services.setup import rule_set_from_preset

    Club.objects.filter(pk=club.pk).update(unit_kind="points")
    anna = rule_set_from_preset(club, "anna-cubed")
    season = Season.objects.create(
        club=club,
        name="Ladder",
        start=dt.date(2026, 1, 1),
        end=dt.date(2026, 12, 31),
        rule_set=anna,
    )
    night = create_night(season, dt.date(2026, 5, 1), [(players[:4], 0)])
    play(night.tables.get(), secretary, players[1], contract="misere", tricks=0)
    client.force_login(viewer)
    body = client.get(u("night_detail", night.pk)).content.decode()
    assert "These are winner-only points: nothing changes hands." in body
    assert '<span class="gain">+2 pts</span>' in body


def test_html_in_player_names_is_escaped_on_the_night_page(
    client, viewer, night, players, table4, secretary
):
    Player.objects.filter(pk=players[1].pk).update(name="<b>Bob</b>")
    play(table4, secretary, players[1])
    client.force_login(viewer)
    body = client.get(u("night_detail", night.pk)).content.decode()
    assert "&lt;b&gt;Bob&lt;/b&gt;" in body
    assert "<b>Bob</b>" not in body


# Closing and reopening -------------------------------------------------------------------------


def heading(body: str) -> str:
    """The night page's <h1> as text, its tags and spacing removed."""
    h1 = re.search(r"<h1>(.*?)</h1>", body, re.S)
    assert h1 is not None
    return " ".join(re.sub(r"<[^>]+>", " ", h1.group(1)).split())


def test_the_heading_says_closed_until_published_then_published_and_when_on_the_clubs_clock(
    sec_client, secretary, club, night, table4, players
):
    from zoneinfo import ZoneInfo

    from club.money.services.publish import publish
    from club.play.services.nights import close_night

    club.time_zone = "Pacific/Kiritimati"  # UTC+14: its clock is rarely the server's
    club.correction_minutes = 30
    club.save()
    play(table4, secretary, players[1])
    close_night(night, secretary)
    assert Night.objects.get(pk=night.pk).is_provisional
    body = sec_client.get(u("night_detail", night.pk)).content.decode()
    assert heading(body) == "Club night 20 Nov 2026 Closed"
    assert (
        '<span class="badge closed">Closed</span>'
        in sec_client.get(u("night_list")).content.decode()
    )

    publish(Night.objects.get(pk=night.pk), secretary)
    published = Night.objects.get(pk=night.pk).published_at
    local = published.astimezone(ZoneInfo("Pacific/Kiritimati"))
    body = sec_client.get(u("night_detail", night.pk)).content.decode()
    assert heading(body) == f"Club night 20 Nov 2026 Published {local:%-d %b %Y, %H:%M}"
    assert f'<time datetime="{local:%Y-%m-%dT%H:%M:%S}' in body  # the club's offset: +14:00
    assert re.search(r'<time datetime="[^"]+\+14:00">', body)
    assert "Closed" not in heading(body)
    listed = sec_client.get(u("night_list")).content.decode()
    assert '<span class="badge published">Published</span>' in listed
    assert '<span class="badge closed">' not in listed
    # The club's home page, its latest night's card and its list of nights alike.
    home = sec_client.get(reverse("club", args=[club.slug])).content.decode()
    latest = home[home.index('id="latest-heading"') :].split("</section>")[0]
    assert '<span class="badge published">Published</span>' in latest
    assert "Closed" not in home


def test_a_night_closed_with_no_correction_window_is_published_when_it_closed(
    sec_client, secretary, club, night, table4, players
):
    from zoneinfo import ZoneInfo

    from club.play.services.nights import close_night

    club.time_zone = "America/Los_Angeles"
    club.correction_minutes = 0
    club.save()
    play(table4, secretary, players[1])
    close_night(night, secretary)
    closed = Night.objects.get(pk=night.pk)
    assert closed.is_published
    local = (closed.published_at or closed.closed_at).astimezone(ZoneInfo("America/Los_Angeles"))
    body = sec_client.get(u("night_detail", night.pk)).content.decode()
    assert heading(body) == f"Club night 20 Nov 2026 Published {local:%-d %b %Y, %H:%M}"


def test_close_after_confirming_then_reopen(sec_client, secretary, night, table4, players):
    ann, bob = players[:2]
    play(table4, secretary, bob)
    page = sec_client.get(u("night_close", night.pk)).content.decode()
    assert "Close Club night 20 Nov 2026?" in page
    assert "Ann pays Bob £0.06" in page  # the settle-up that closing makes final
    assert Night.objects.get(pk=night.pk).status == "open"  # a GET changes nothing

    response = sec_client.post(u("night_close", night.pk), follow=True)
    night.refresh_from_db()
    assert night.status == "closed" and night.closed_by == secretary
    body = response.content.decode()
    assert '<span class="badge closed">Closed</span>' in body
    # Provisional for the club's correction window, then published: final.
    assert "is closed: the results are provisional until" in body
    assert "Ann pays Bob £0.06" in body and "Reopen night" in body
    sec_client.post(reverse("night_publish", args=["crown", night.pk]))
    assert Night.objects.get(pk=night.pk).is_published
    with pytest.raises(HandConflict):
        play(table4, secretary, ann)

    response = sec_client.post(u("night_close", night.pk), follow=True)
    assert "This night is already closed." in response.content.decode()

    assert (
        "Reopen Club night 20 Nov 2026?"
        in sec_client.get(u("night_reopen", night.pk)).content.decode()
    )
    response = sec_client.post(u("night_reopen", night.pk), follow=True)
    night.refresh_from_db()
    assert night.status == "open" and night.closed_at is None
    assert "is open again" in response.content.decode()
    play(table4, secretary, ann)  # hands can be entered again
    assert list(
        AuditEvent.objects.filter(night=night, action__in=["close", "reopen"]).values_list(
            "action", flat=True
        )
    ) == ["reopen", "close"]


def test_audit_trail_shows_who_did_what_with_the_changed_values(
    sec_client, secretary, scorer, night, table4, players
):
    ann, bob, cat, dan = players[:4]
    hand = record_hand(
        table4, HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=5), scorer
    )
    hand = update_hand(
        hand,
        HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=4),
        secretary,
        hand.version,
    )
    second = record_hand(
        table4, HandEntry(dealer=bob, contract="misere", declarer=cat, tricks=0), scorer
    )
    delete_hand(second, secretary)
    sec_client.post(u("night_close", night.pk))

    response = sec_client.get(u("night_detail", night.pk))
    body = response.content.decode()
    trail = response.context["trail"]
    assert [(r.who, r.action, r.subject) for r in trail] == [
        ("sec", "closed", "Club night 20 Nov 2026"),
        ("sec", "deleted", "Table 1, hand 2"),
        ("scorer", "entered", "Table 1, hand 2"),
        ("sec", "edited", "Table 1, hand 1"),
        ("scorer", "entered", "Table 1, hand 1"),
    ]
    edit = trail[3]
    # Only what changed: the tricks and every player's amount (solo made 18 -> failed by one).
    assert [(c.label, c.before, c.after) for c in edit.changes] == [
        ("Tricks", "5", "4"),
        ("Ann", "-£0.06", "+£0.07"),
        ("Bob", "+£0.18", "-£0.21"),
        ("Cat", "-£0.06", "+£0.07"),
        ("Dan", "-£0.06", "+£0.07"),
    ]
    assert "Tricks: <del>5</del> → <ins>4</ins>" in body
    entered = trail[4]
    assert ("Contract", None, "Solo") in [(c.label, c.before, c.after) for c in entered.changes]
    assert ("Declarer", None, "Bob") in [(c.label, c.before, c.after) for c in entered.changes]
    deleted = trail[1]
    assert ("Contract", "Misère", None) in [(c.label, c.before, c.after) for c in deleted.changes]
    assert "Contract: <del>Misère</del>" in body
    assert "<strong>sec</strong> closed Club night 20 Nov 2026" in body


# Speed -----------------------------------------------------------------------------------------


def night_page_queries(client, night) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(u("night_detail", night.pk))
    assert response.status_code == 200
    return len(queries)


@pytest.mark.parametrize("who", ["secretary", "viewer"])
def test_the_night_page_issues_a_fixed_number_of_queries(
    client, request, who, night, table4, table5, players, secretary, django_assert_max_num_queries
):
    client.force_login(request.getfixturevalue(who))
    ann, bob, cat, dan, eve, fay, gus, hal, ivy = players
    play(table4, secretary, bob)
    few = night_page_queries(client, night)
    for i in range(30):
        play(table4, secretary, [ann, bob, cat, dan][i % 4], tricks=4 + i % 4)
        dealer = next_hand(table5)["dealer"]  # never the one sitting out
        play(table5, secretary, dealer, contract="misere", tricks=i % 2)
    with django_assert_max_num_queries(few):
        response = client.get(u("night_detail", night.pk))
    assert "2 tables · 61 hands" in response.content.decode()
    assert night_page_queries(client, night) == few
    assert few <= 12


def test_closing_a_night_with_no_hands_asks_to_be_confirmed(sec_client, night):
    page = sec_client.get(u("night_close", night.pk)).content.decode()
    assert "has no hands: closing it publishes an empty night" in page
    assert 'name="anyway"' in page
    refused = sec_client.post(u("night_close", night.pk), follow=True).content.decode()
    assert "Close it anyway" in refused
    assert Night.objects.get(pk=night.pk).status == "open"
    sec_client.post(u("night_close", night.pk), {"anyway": "1"})
    assert Night.objects.get(pk=night.pk).status == "closed"


def test_closing_a_night_dated_after_today_asks_to_be_confirmed(
    sec_client, season, players, secretary, club
):
    tomorrow = club.today() + dt.timedelta(days=1)
    season.end = max(season.end, tomorrow)
    season.save()
    future = create_night(season, tomorrow, [(players[:4], 0)])
    play(future.tables.get(), secretary, players[1])
    page = sec_client.get(u("night_close", future.pk)).content.decode()
    assert "after today: was it opened for the wrong day?" in page
    assert "has no hands" not in page
    sec_client.post(u("night_close", future.pk))
    assert Night.objects.get(pk=future.pk).status == "open"


def test_closing_a_played_night_of_today_needs_no_extra_tick(
    sec_client, night, table4, players, secretary
):
    play(table4, secretary, players[1])
    page = sec_client.get(u("night_close", night.pk)).content.decode()
    assert 'name="anyway"' not in page
    sec_client.post(u("night_close", night.pk))
    assert Night.objects.get(pk=night.pk).status == "closed"
