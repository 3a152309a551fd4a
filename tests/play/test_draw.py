"""A club night's draw: proposing from who is here (keeping apart who sat together lately),
swapping two players, a signed proposal that cannot be tampered with, confirming (the night,
its tables, seats and links in one go; a second confirm, even at the same moment, makes
nothing more), filling an open night with no tables, and late arrivals (a table of 4 becomes 5,
three make a new table), with the refusals a secretary can act on."""

from __future__ import annotations

import datetime as dt
import threading
import time

import pytest
from django.db import transaction
from django.urls import reverse

from club.clubs.models import AuditEvent, Player
from club.clubs.services.setup import SetupError
from club.play.models import Hand, Night, Seat, Table, TableLink
from club.play.services import arrivals, draw, nights, table_cards
from club.play.services.hand_entry import HandEntry
from club.play.services.hands import record_hand
from club.play.services.locks import lock_night
from club.play.services.night_setup import create_night
from club.play.services.nights import close_night, reopen_night
from tests.kits.racing import needs_real_concurrency, race

pytestmark = pytest.mark.django_db
TONIGHT = dt.date(2026, 11, 25)


@pytest.fixture(autouse=True)
def _tonight(monkeypatch):
    monkeypatch.setattr(arrivals, "today", lambda club: TONIGHT)
    monkeypatch.setattr(table_cards, "today", lambda club: TONIGHT)


def _field(club, n: int) -> list[Player]:
    start = club.players.count()
    players = [
        Player.objects.create(club=club, name=f"Player {i:02d}") for i in range(start, start + n)
    ]
    for p in players:
        arrivals.tick_in(club, p, TONIGHT)
    return players


def _any_proposal(club) -> draw.Proposal:
    """A proposal of the players who arrived, made without asking whether tonight is drawn."""
    players = [p.pk for p in arrivals.arrived(club, TONIGHT)][:4]
    return draw.Proposal(TONIGHT, (tuple(players),), 0)


def _sizes(night: Night) -> list[int]:
    return [t.seats.count() for t in night.tables.order_by("number")]


def test_a_proposal_seats_everyone_who_arrived_once(club, season):
    players = _field(club, 14)
    proposal = draw.propose_draw(club, TONIGHT, seed=3)
    assert sorted(proposal.player_ids) == sorted(p.pk for p in players)
    assert [len(t) for t in proposal.tables] == [4, 5, 5]
    club.odd_tables = "3"
    assert [len(t) for t in draw.propose_draw(club, TONIGHT, seed=3).tables] == [4, 4, 3, 3]


def test_too_few_or_an_unsplittable_number_is_refused_with_what_would_work(club, season):
    _field(club, 2)
    with pytest.raises(SetupError, match="at least 3 players, not 2"):
        draw.propose_draw(club, TONIGHT)
    _field(club, 4)  # 6 in all: no tables of five
    with pytest.raises(SetupError, match="with tables of 3 they make 2 tables of 3"):
        draw.propose_draw(club, TONIGHT)


def test_the_draw_keeps_apart_who_sat_together_last_night(club, season):
    players = _field(club, 8)
    last = create_night(
        season, TONIGHT - dt.timedelta(days=7), [(players[:4], 0), (players[4:], 0)]
    )
    assert draw.recent_history(club, TONIGHT) == [
        [[str(p.pk) for p in players[:4]], [str(p.pk) for p in players[4:]]]
    ]
    for seed in range(5):
        proposal = draw.propose_draw(club, TONIGHT, seed=seed)
        for table in proposal.tables:
            old = {p.pk for p in players[:4]}
            assert len(old & set(table)) == 2, f"{last}: a pair of last week's table meets again"


def test_a_swap_exchanges_two_players_and_refuses_strangers(club, season):
    _field(club, 8)
    proposal = draw.propose_draw(club, TONIGHT, seed=1)
    a, b = proposal.tables[0][0], proposal.tables[1][2]
    swapped = draw.swap(proposal, a, b)
    assert swapped.tables[0][0] == b and swapped.tables[1][2] == a
    with pytest.raises(SetupError, match="two different players"):
        draw.swap(proposal, a, a)
    with pytest.raises(SetupError, match="two players of this draw"):
        draw.swap(proposal, a, 999_999)


def test_a_tampered_proposal_is_refused(club, other_club, season):
    _field(club, 4)
    signed = draw.propose_draw(club, TONIGHT, seed=1).sign(club)
    assert draw.Proposal.read(club, signed).player_ids
    with pytest.raises(SetupError, match="not one the app made"):
        draw.Proposal.read(club, signed[:-2] + "xx")
    with pytest.raises(SetupError, match="not one the app made"):
        draw.Proposal.read(other_club, signed)


def test_confirm_creates_the_night_tables_seats_and_links_and_a_second_confirm_nothing(
    club, season, secretary
):
    _field(club, 13)
    proposal = draw.propose_draw(club, TONIGHT, seed=5)
    night, created = nights.confirm_draw(club, TONIGHT, proposal, secretary)
    assert created and night.date == TONIGHT and night.season == season
    assert sorted(_sizes(night)) == [4, 4, 5]
    for table, seated in zip(night.tables.order_by("number"), proposal.tables, strict=True):
        assert list(table.seats.values_list("player_id", flat=True)) == list(seated)
        assert table.first_dealer == 0  # the first in the list deals first
    assert TableLink.objects.filter(table__night=night, revoked_at=None).count() == 3
    assert AuditEvent.objects.filter(night=night, action="create").count() == 1
    counts = (Night.objects.count(), Table.objects.count(), Seat.objects.count())
    again, created_again = nights.confirm_draw(
        club, TONIGHT, draw.swap(proposal, *proposal.tables[0][:2])
    )
    assert again == night and not created_again
    assert (Night.objects.count(), Table.objects.count(), Seat.objects.count()) == counts
    with pytest.raises(SetupError, match="are drawn: seat late arrivals"):
        draw.propose_draw(club, TONIGHT)


def test_confirm_fills_an_open_night_of_the_date_that_has_no_tables(club, season, secretary):
    empty = Night.objects.create(season=season, date=TONIGHT)
    _field(club, 8)
    night, created = nights.confirm_draw(
        club, TONIGHT, draw.propose_draw(club, TONIGHT, seed=2), secretary
    )
    assert created and night == empty and _sizes(night) == [4, 4]
    assert TableLink.objects.filter(table__night=night).count() == 2
    again, created_again = nights.confirm_draw(club, TONIGHT, _any_proposal(club), secretary)
    assert again == empty and not created_again and Night.objects.count() == 1


def test_confirm_refuses_a_date_no_season_covers(club, season):
    _field(club, 4)
    proposal = draw.Proposal(dt.date(2030, 1, 1), ((p.pk for p in club.players.all()),), 0)
    proposal = draw.Proposal(proposal.date, (tuple(proposal.tables[0]),), 0)
    with pytest.raises(SetupError, match="No season covers 01 Jan 2030"):
        nights.confirm_draw(club, proposal.date, proposal)


@pytest.mark.django_db(transaction=True)
def test_two_secretaries_confirming_at_once_make_one_night(club, season, secretary):
    needs_real_concurrency()
    _field(club, 16)
    first = draw.propose_draw(club, TONIGHT, seed=1)
    second = draw.propose_draw(club, TONIGHT, seed=2)
    outcomes = race(
        lambda: nights.confirm_draw(club, TONIGHT, first, secretary),
        lambda: nights.confirm_draw(club, TONIGHT, second, secretary),
    )
    assert [o.error for o in outcomes] == [None, None]
    made = {o.value[0].pk for o in outcomes}
    assert len(made) == 1 and sorted(o.value[1] for o in outcomes) == [False, True]
    assert Night.objects.count() == 1
    assert Table.objects.count() == 4 and Seat.objects.count() == 16
    assert TableLink.objects.count() == 4


def test_the_draw_pages_draw_swap_and_confirm(client, club, season, secretary):
    client.force_login(secretary)
    _field(club, 9)
    url = reverse("draw", args=[club.slug])
    start = client.get(url).content.decode()
    assert "9 players: 1 table of 4 and 1 of 5" in start
    page = client.post(url, {"action": "draw"}, follow=True)
    body = page.content.decode()
    assert body.count("deals first") == 2
    signed = page.context["signed"]
    proposal = draw.Proposal.read(club, signed)
    a, b = proposal.tables[0][0], proposal.tables[1][0]
    swapped = client.post(url, {"action": "swap", "proposal": signed, "swap": [a, b]}, follow=True)
    assert draw.Proposal.read(club, swapped.context["signed"]).tables[0][0] == b
    one = client.post(url, {"action": "swap", "proposal": signed, "swap": [a]}, follow=True)
    assert "Tick exactly two players" in one.content.decode()
    done = client.post(url, {"action": "confirm", "proposal": swapped.context["signed"]})
    night = Night.objects.get()
    assert done["Location"] == reverse("night_links", args=[club.slug, night.pk])
    assert night.tables.get(number=1).seats.first().player_id == b
    again = client.post(url, {"action": "confirm", "proposal": signed}, follow=True)
    assert "was already drawn" in again.content.decode()
    assert Night.objects.count() == 1
    assert "are drawn" in client.get(url).content.decode()


def test_a_proposed_draw_has_its_own_address_that_shows_the_same_tables_until_confirmed(
    client, club, season, secretary
):
    """Reloaded, or reached again by Back and Forward, the draw's address shows the same tables
    (Draw again and Swap each make a new address); Confirm makes exactly those tables, and the
    address then leads to the night's links."""
    client.force_login(secretary)
    _field(club, 13)
    url = reverse("draw", args=[club.slug])
    drawn = client.post(url, {"action": "draw"})
    assert drawn.status_code == 302 and drawn["Location"].startswith(f"{url}?proposal=")
    shown = client.get(drawn["Location"])
    tables = [[p.pk for p in t["players"]] for t in shown.context["tables"]]
    assert sorted(pk for t in tables for pk in t) == sorted(p.pk for p in club.players.all())
    again = client.get(drawn["Location"])
    assert [[p.pk for p in t["players"]] for t in again.context["tables"]] == tables
    assert again.content.decode().count("deals first") == 3
    other = client.post(url, {"action": "again", "proposal": shown.context["signed"]})
    assert other["Location"] != drawn["Location"]

    client.post(drawn["Location"], {"action": "confirm", "proposal": shown.context["signed"]})
    night = Night.objects.get()
    seated = [
        [s.player_id for s in t.seats.order_by("position")] for t in night.tables.order_by("number")
    ]
    assert seated == tables
    back = client.get(drawn["Location"], follow=True)
    assert back.redirect_chain[-1][0] == reverse("night_links", args=[club.slug, night.pk])
    assert "was already drawn" in back.content.decode()


def test_a_draw_address_not_made_by_the_app_or_of_another_day_shows_the_start_page(
    client, club, season, secretary
):
    client.force_login(secretary)
    _field(club, 8)
    url = reverse("draw", args=[club.slug])
    forged = client.get(url, {"proposal": "x" + draw.propose_draw(club, TONIGHT).sign(club)})
    assert forged.status_code == 302 and forged["Location"] == url
    page = client.get(forged["Location"]).content.decode()
    assert "not one the app made: draw the tables again" in page and "Draw tables" in page
    old = draw.Proposal(TONIGHT - dt.timedelta(days=7), ((1, 2, 3, 4),), 0).sign(club)
    answer = client.get(url, {"proposal": old}, follow=True)
    assert "This draw was for 18 Nov 2026: draw tonight&#x27;s tables again." in (
        answer.content.decode()
    )
    assert not Night.objects.exists()


def _drawn_night(club, season, n: int) -> Night:
    _field(club, n)
    night, _ = nights.confirm_draw(club, TONIGHT, draw.propose_draw(club, TONIGHT, seed=4))
    return night


def test_a_late_arrival_turns_the_table_with_fewest_hands_into_a_five(club, season, secretary):
    night = _drawn_night(club, season, 8)
    one, two = night.tables.order_by("number")
    seats = list(one.seats.select_related("player"))
    record_hand(
        one,
        HandEntry(dealer=seats[0].player, contract="solo", declarer=seats[1].player, tricks=5),
        secretary,
    )
    late = arrivals.arrive_by_name(club, "Late Larry")
    assert draw.unseated_arrivals(night) == [late]
    table = nights.seat_late_arrival(night, late, user=secretary)
    assert table == two and _sizes(night) == [4, 5]
    assert list(two.seats.values_list("player_id", flat=True))[-1] == late.pk
    with pytest.raises(SetupError, match="Late Larry already sits at table 2"):
        nights.seat_late_arrival(night, late)
    # a chosen table, even one with hands
    later = arrivals.arrive_by_name(club, "Later Lou")
    assert nights.seat_late_arrival(night, later, one, user=secretary) == one
    assert _sizes(night) == [5, 5]
    assert Hand.objects.filter(table=one).count() == 1
    latest = arrivals.arrive_by_name(club, "Latest Liz")
    with pytest.raises(SetupError, match="Every table is full"):
        nights.seat_late_arrival(night, latest)
    with pytest.raises(SetupError, match="has no room"):
        nights.seat_late_arrival(night, latest, one)


def test_three_late_arrivals_make_a_new_table_with_its_link(club, season, secretary):
    night = _drawn_night(club, season, 8)
    late = [arrivals.arrive_by_name(club, n) for n in ("Xan", "Yul", "Zia")]
    table = nights.seat_late_table(night, late, secretary)
    assert table.number == 3 and table.seats.count() == 3
    assert TableLink.objects.filter(table=table, revoked_at=None).exists()
    with pytest.raises(SetupError, match="already sits at table 3"):
        nights.seat_late_table(
            night,
            [
                late[0],
                *[arrivals.arrive_by_name(club, "Q"), Player.objects.create(club=club, name="R")],
            ],
        )
    with pytest.raises(SetupError, match="three, four or five different players"):
        nights.seat_late_table(night, late[:2])


def test_late_arrivals_are_refused_on_a_closed_night(club, season, secretary):
    night = _drawn_night(club, season, 4)
    Night.objects.filter(pk=night.pk).update(status="closed")
    late = arrivals.arrive_by_name(club, "Tardy")
    with pytest.raises(SetupError, match="is closed"):
        nights.seat_late_arrival(night, late)
    with pytest.raises(SetupError, match="is closed"):
        nights.seat_late_table(night, [late, *_field(club, 2)])


def test_the_late_arrivals_page_seats_a_new_name_and_a_table_of_three(
    client, club, season, secretary
):
    client.force_login(secretary)
    night = _drawn_night(club, season, 8)
    url = reverse("night_late", args=[club.slug, night.pk])
    assert client.get(url).status_code == 200
    answer = client.post(url, {"action": "seat", "name": "Walk In"}, follow=True)
    assert "Walk In sits at table" in answer.content.decode()
    three = [arrivals.arrive_by_name(club, n) for n in ("Xan", "Yul", "Zia")]
    page = client.get(url).content.decode()
    assert all(p.name in page for p in three)
    client.post(url, {"action": "three", "players": [p.pk for p in three]})
    assert sorted(_sizes(night)) == [3, 4, 5]
    refused = client.post(url, {"action": "seat", "player": three[0].pk}, follow=True)
    assert "Xan already sits at table 3" in refused.content.decode()
    none = client.post(url, {"action": "seat"}, follow=True)
    assert "Choose who has arrived" in none.content.decode()


# Ids no page sends: "²" passes str.isdigit() but int() refuses it; 10**23 overflows a key.
HOSTILE_IDS = ["²", "99999999999999999999999"]


@pytest.mark.parametrize("bad", HOSTILE_IDS)
def test_a_swap_of_an_id_that_is_not_a_plain_number_is_refused_with_a_message(
    client, club, season, secretary, bad
):
    client.force_login(secretary)
    _field(club, 8)
    url = reverse("draw", args=[club.slug])
    signed = client.post(url, {"action": "draw"}, follow=True).context["signed"]
    a = draw.Proposal.read(club, signed).tables[0][0]
    answer = client.post(url, {"action": "swap", "proposal": signed, "swap": [bad, a]}, follow=True)
    assert answer.status_code == 200 and "Tick exactly two players" in answer.content.decode()
    # The draw stays on the screen, unchanged.
    assert draw.Proposal.read(club, answer.context["signed"]) == draw.Proposal.read(club, signed)


@pytest.mark.parametrize("bad", HOSTILE_IDS)
def test_late_arrival_ids_that_are_not_plain_numbers_are_refused_with_a_message(
    client, club, season, secretary, bad
):
    client.force_login(secretary)
    night = _drawn_night(club, season, 8)
    late = _field(club, 3)
    url = reverse("night_late", args=[club.slug, night.pk])
    who = client.post(url, {"action": "seat", "player": bad}, follow=True)
    assert "Choose who has arrived" in who.content.decode()
    where = client.post(url, {"action": "seat", "player": late[0].pk, "table": bad}, follow=True)
    assert "Choose a table with room, or Automatic" in where.content.decode()
    three = client.post(
        url, {"action": "three", "players": [bad, late[1].pk, late[2].pk]}, follow=True
    )
    assert "needs three, four or five different players" in three.content.decode()
    assert _sizes(night) == [4, 4]


def test_a_late_arrivals_new_name_refused_a_seat_is_neither_added_nor_ticked_in(
    client, club, season, secretary
):
    client.force_login(secretary)
    night = _drawn_night(club, season, 8)
    close_night(night, secretary)
    url = reverse("night_late", args=[club.slug, night.pk])
    answer = client.post(url, {"action": "seat", "name": "Walk In"}, follow=True)
    assert "is closed" in answer.content.decode()
    assert not club.players.filter(name="Walk In").exists()
    assert len(arrivals.arrived(club, TONIGHT)) == 8


def test_a_late_arrivals_new_name_over_the_name_limit_is_refused_not_cut_short(
    client, club, season, secretary
):
    client.force_login(secretary)
    night = _drawn_night(club, season, 8)
    url = reverse("night_late", args=[club.slug, night.pk])
    answer = client.post(url, {"action": "seat", "name": "Bartholomew " * 6}, follow=True)
    assert "is too long for a name: at most 60 characters" in answer.content.decode()
    assert club.players.count() == 8 and _sizes(night) == [4, 4]


def test_a_table_made_five_by_a_late_arrival_scores_its_next_hand(club, season, secretary):
    night = _drawn_night(club, season, 4)
    table = night.tables.get()
    seats = [s.player for s in table.seats.select_related("player")]
    record_hand(
        table, HandEntry(dealer=seats[0], contract="solo", declarer=seats[1], tricks=5), secretary
    )
    late = arrivals.arrive_by_name(club, "Late Larry")
    nights.seat_late_arrival(night, late, user=secretary)
    table.refresh_from_db()
    hand = record_hand(
        table, HandEntry(dealer=seats[1], contract="solo", declarer=late, tricks=5), secretary
    )
    assert hand.number == 2 and len(hand.score_lines.all()) == 4


def test_the_arrivals_page_puts_who_came_lately_first(client, secretary, club, season, players):
    client.force_login(secretary)
    create_night(season, TONIGHT - dt.timedelta(days=7), [(players[5:9], 0)])
    arrivals.tick_in(club, players[8], TONIGHT - dt.timedelta(days=1))
    order = [p.name for p in arrivals.members_recent_first(club)]
    assert order[0] == "Ivy" and set(order[1:4]) == {"Fay", "Gus", "Hal"}
    assert order[4:] == ["Ann", "Bob", "Cat", "Dan", "Eve"]


def test_a_draw_of_another_day_is_refused(club, season):
    _field(club, 4)
    proposal = draw.propose_draw(club, TONIGHT, seed=1)
    with pytest.raises(SetupError, match="This draw is for 25 Nov 2026, not 26 Nov 2026"):
        nights.confirm_draw(club, TONIGHT + dt.timedelta(days=1), proposal)
    assert not Night.objects.exists()


def test_the_arrivals_and_draw_pages_read_a_fixed_number_of_rows(
    client, secretary, club, season, django_assert_max_num_queries
):
    client.force_login(secretary)
    _field(club, 61)
    for name in ("arrivals", "draw"):
        with django_assert_max_num_queries(10):
            assert client.get(reverse(name, args=[club.slug])).status_code == 200
    with django_assert_max_num_queries(12):
        drawn = client.post(reverse("draw", args=[club.slug]), {"action": "draw"})
    assert drawn.status_code == 302
    with django_assert_max_num_queries(10):
        assert client.get(drawn["Location"]).status_code == 200


def test_a_number_the_clubs_odd_size_cannot_split_is_drawn_with_the_other_tonight(
    client, secretary, club, season
):
    client.force_login(secretary)
    _field(club, 7)  # no tables of five make 7
    url = reverse("draw", args=[club.slug])
    page = client.get(url).content.decode()
    assert "Draw with tables of 3 tonight" in page
    answer = client.post(url, {"action": "draw", "odd": "3"}, follow=True)
    assert [t["size"] for t in answer.context["tables"]] == [4, 3]
    signed = answer.context["signed"]
    again = client.post(
        url, {"action": "again", "odd": answer.context["odd"], "proposal": signed}, follow=True
    )
    assert [t["size"] for t in again.context["tables"]] == [4, 3]
    club.refresh_from_db()
    assert club.odd_tables == "5"  # the club's setting is unchanged


# Tables seated from their cards first, then a draw of the others -------------------------------


def _card_table(club, night: Night, players: list[Player]) -> Table:
    card = table_cards.issue_cards(club, None)[0]
    return table_cards.seat_table(card, night, players, "Ann's phone").table


def test_the_draw_seats_only_who_has_no_seat_at_tonights_night(client, club, season, secretary):
    night = nights.start_tonight(club)
    early = _field(club, 4)
    _card_table(club, night, early)
    later = _field(club, 8)
    proposal = draw.propose_draw(club, TONIGHT, seed=5)
    assert sorted(proposal.player_ids) == sorted(p.pk for p in later)
    client.force_login(secretary)
    url = reverse("draw", args=[club.slug])
    start = client.get(url).content.decode()
    assert "1 table of" in start and "sits already" in start and "Draw the others" in start
    assert "8 players: 2 tables of 4" in start
    page = client.post(url, {"action": "draw"}, follow=True)
    # The proposal numbers its tables as the night will: after the card's table 1.
    assert [t["number"] for t in page.context["tables"]] == [2, 3]
    client.post(url, {"action": "confirm", "proposal": page.context["signed"]})
    assert Night.objects.get() == night  # the draw filled tonight's night, not a second one
    assert _sizes(night) == [4, 4, 4]
    seats = list(Seat.objects.filter(table__night=night).values_list("player_id", flat=True))
    assert sorted(seats) == sorted(p.pk for p in early + later)
    assert TableLink.objects.filter(table__night=night, revoked_at__isnull=True).count() == 3
    again = client.post(url, {"action": "confirm", "proposal": page.context["signed"]}, follow=True)
    assert "was already drawn" in again.content.decode() and Seat.objects.count() == 12
    assert "are drawn" in client.get(url).content.decode()


def test_fewer_than_three_without_a_seat_are_late_arrivals_not_a_draw(client, club, season):
    night = nights.start_tonight(club)
    _card_table(club, night, _field(club, 4))
    waiting = _field(club, 2)
    with pytest.raises(SetupError, match=f"only {waiting[0].name} and {waiting[1].name} wait"):
        draw.propose_draw(club, TONIGHT)
    now = draw.evening(club, TONIGHT)
    assert now.drawn and now.night == night and now.waiting == waiting


def test_a_player_a_card_seated_since_the_draw_stops_its_confirm(club, season, secretary):
    night = nights.start_tonight(club)
    players = _field(club, 8)
    proposal = draw.propose_draw(club, TONIGHT, seed=6)
    table = _card_table(club, night, players[:3])
    seat_count = Seat.objects.count()
    with pytest.raises(SetupError, match=f"sits at table {table.number} now: draw the tables"):
        nights.confirm_draw(club, TONIGHT, proposal, secretary)
    assert Seat.objects.count() == seat_count and Night.objects.count() == 1
    # Drawn again, the others are seated around the card's table.
    fresh = draw.propose_draw(club, TONIGHT, seed=6)
    assert sorted(fresh.player_ids) == sorted(p.pk for p in players[3:])
    nights.confirm_draw(club, TONIGHT, fresh, secretary)
    assert _sizes(night) == [3, 5]


@pytest.mark.django_db(transaction=True)
def test_a_draw_confirmed_while_a_cards_table_saves_a_hand_never_deadlocks(club, season, secretary):
    """A save at a card's table holds the night, then writes its audit row (which refers to the
    club); the draw's confirm holds the club, then waits for the night. The club's lock must
    leave the audit row's key share free, or the two wait for each other."""
    needs_real_concurrency()
    night = nights.start_tonight(club)
    _card_table(club, night, _field(club, 4))
    _field(club, 8)
    proposal = draw.propose_draw(club, TONIGHT, seed=7)
    holding, drawing = threading.Event(), threading.Event()

    def a_save_holding_the_night() -> None:
        with transaction.atomic():
            lock_night(night.pk)  # a save's first step
            holding.set()
            drawing.wait(10)
            time.sleep(0.5)  # the confirm now holds the club and waits for the night
            AuditEvent.objects.create(
                club=club, night=night, action=AuditEvent.Action.CREATE, subject="Table 1, hand 1"
            )

    def the_draw_confirmed():
        holding.wait(10)
        drawing.set()
        return nights.confirm_draw(club, TONIGHT, proposal, secretary)

    saved, confirmed = race(a_save_holding_the_night, the_draw_confirmed)
    assert saved.error is None and confirmed.error is None
    assert _sizes(night) == [4, 4, 4]


@pytest.mark.django_db(transaction=True)
def test_start_tonight_and_a_draw_confirmed_at_once_make_one_night(club, season, secretary):
    needs_real_concurrency()
    _field(club, 8)
    proposal = draw.propose_draw(club, TONIGHT, seed=8)
    started, confirmed = race(
        lambda: nights.start_tonight(club, secretary),
        lambda: nights.confirm_draw(club, TONIGHT, proposal, secretary),
    )
    assert started.error is None and confirmed.error is None
    assert Night.objects.count() == 1 and _sizes(Night.objects.get()) == [4, 4]


def test_a_closed_draw_night_is_not_drawn_again_until_reopened(client, club, season, secretary):
    night = _drawn_night(club, season, 8)
    close_night(night, secretary)
    _field(club, 4)  # came after the close
    with pytest.raises(SetupError, match="is closed: to draw tables for the players without"):
        draw.propose_draw(club, TONIGHT)
    reopen_night(Night.objects.get(pk=night.pk), secretary)
    proposal = draw.propose_draw(club, TONIGHT, seed=9)
    assert len(proposal.player_ids) == 4
    nights.confirm_draw(club, TONIGHT, proposal, secretary)
    assert _sizes(night) == [4, 4, 4] and Night.objects.count() == 1


def _play_a_hand(table, user) -> None:
    from club.play.services.hand_entry import next_hand

    coming = next_hand(table)
    out = coming["sitting_out"]
    declarer = next(s.player for s in table.seats.all() if s.player != out)
    entry = HandEntry(dealer=coming["dealer"], contract="solo", declarer=declarer, tricks=5)
    record_hand(table, entry, user)


def test_a_lone_late_arrival_at_three_tables_of_five_sits_with_a_player_from_two_of_them(
    club, season, secretary
):
    night = _drawn_night(club, season, 15)
    assert _sizes(night) == [5, 5, 5]
    one = night.tables.get(number=1)
    _play_a_hand(one, secretary)
    before = {s.player_id for s in one.seats.all()}
    late = arrivals.arrive_by_name(club, "Late Larry")
    plan = draw.plan_from_fives(night, [late])
    movers = [p for _, moving in plan.moves for p in moving]
    # the tables that have played fewest hands give first: tables 2 and 3, none from table 1
    assert [t.number for t, _ in plan.moves] == [2, 3] and len(movers) == 2
    table, _ = nights.seat_late_from_fives(night, [late], secretary, [p.pk for p in movers])
    assert table.number == 4 and _sizes(night) == [5, 4, 4, 3]
    assert {s.player_id for s in table.seats.all()} == {late.pk, *(p.pk for p in movers)}
    assert Seat.objects.filter(table__night=night).count() == 16  # everyone seated once
    assert TableLink.objects.filter(table=table, revoked_at=None).exists()
    for t in night.tables.all():
        assert list(t.seats.values_list("position", flat=True)) == list(range(t.seats.count()))
    assert {s.player_id for s in one.seats.all()} == before
    for t in night.tables.all():
        _play_a_hand(t, secretary)  # every table, the new one too, plays its next hand


def test_a_player_moved_after_playing_keeps_their_column_on_their_old_tables_sheet(
    club, season, secretary
):
    from club.play.queries.table_sheet import table_sheet

    night = _drawn_night(club, season, 10)
    one, two = night.tables.order_by("number")
    _play_a_hand(one, secretary)
    _play_a_hand(one, secretary)
    _play_a_hand(two, secretary)
    late = arrivals.arrive_by_name(club, "Late Larry")
    plan = draw.plan_from_fives(night, [late])
    moved = [p for _, moving in plan.moves for p in moving]
    nights.seat_late_from_fives(night, [late], secretary, [p.pk for p in moved])
    assert _sizes(night) == [4, 4, 3]
    # the mover from table 1 never is the last dealer, so the deal passes on from them
    last_dealer = one.hands.order_by("-number").first().dealer
    assert last_dealer not in moved
    _play_a_hand(one, secretary)
    sheet = table_sheet(one)
    names = [p.name for p, _ in sheet.columns]
    assert len(names) == 5 and any(p.name in names for p in moved)
    assert len(sheet.rows) == 3 and all(len(r.cells) == 5 for r in sheet.rows)
    for row in sheet.rows:  # every hand still balances across the five columns
        assert sum(c.amount or 0 for c in row.cells) == 0


def test_one_late_arrival_beside_the_only_table_of_five_makes_two_tables_of_three(
    club, season, secretary
):
    night = _drawn_night(club, season, 5)
    late = arrivals.arrive_by_name(club, "Late Larry")
    nights.seat_late_from_fives(night, [late], secretary)
    assert _sizes(night) == [3, 3]


def test_two_late_arrivals_at_tables_of_five_take_one_player_from_one(club, season, secretary):
    night = _drawn_night(club, season, 10)
    late = [arrivals.arrive_by_name(club, n) for n in ("Xan", "Yul")]
    nights.seat_late_from_fives(night, late, secretary)
    assert sorted(_sizes(night)) == [3, 4, 5]


def test_moving_players_is_refused_while_a_table_has_room_or_when_the_plan_changed(
    club, season, secretary
):
    night = _drawn_night(club, season, 8)
    late = arrivals.arrive_by_name(club, "Late Larry")
    with pytest.raises(SetupError, match="A table has room"):
        nights.seat_late_from_fives(night, [late], secretary)
    nights.seat_late_arrival(night, late, user=secretary)  # both tables become fives
    nights.seat_late_arrival(night, arrivals.arrive_by_name(club, "Lou"), user=secretary)
    latest = arrivals.arrive_by_name(club, "Liz")
    with pytest.raises(SetupError, match="Who would move changed"):
        nights.seat_late_from_fives(night, [latest], secretary, [late.pk, 999999])
    assert _sizes(night) == [5, 5]


def test_the_late_page_offers_only_the_way_that_seats_a_lone_arrival_at_tables_of_five(
    client, club, season, secretary
):
    client.force_login(secretary)
    night = _drawn_night(club, season, 15)
    late = arrivals.arrive_by_name(club, "Late Larry")
    url = reverse("night_late", args=[club.slug, night.pk])
    page = client.get(url)
    html = page.content.decode()
    assert 'value="fives"' in html
    assert 'value="seat"' not in html and 'value="three"' not in html
    plan = page.context["plan"]
    movers = [p.pk for _, moving in plan.moves for p in moving]
    answer = client.post(
        url, {"action": "fives", "waiting": [late.pk], "movers": movers}, follow=True
    )
    said = answer.content.decode()
    assert "Table 4: " in said and "At the end of their" in said
    assert sorted(_sizes(night)) == [3, 4, 4, 5]
    after = client.get(url).content.decode()  # tables of 4 have room now: a new name sits there
    assert 'value="fives"' not in after and 'value="seat"' in after


def test_the_late_page_offers_no_seat_on_a_closed_night(client, club, season, secretary):
    client.force_login(secretary)
    night = _drawn_night(club, season, 8)
    arrivals.arrive_by_name(club, "Late Larry")
    close_night(night, secretary)
    html = client.get(reverse("night_late", args=[club.slug, night.pk])).content.decode()
    assert "is closed" in html and 'name="action"' not in html
