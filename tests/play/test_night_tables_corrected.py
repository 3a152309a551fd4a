"""Fixing a night set up wrongly: changing the tables that have no hands yet (seats, first dealer,
adding and removing tables) and deleting a night with everything in it. Who may do it is in
test_access.py; this checks what each change does to the database and what the pages say."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db.models import Count, Sum
from django.urls import reverse

from club.clubs.models import AuditEvent, Player
from club.clubs.services.setup import SetupError
from club.play.models import Hand, Night, NightTotal, ScoreLine, Seat, Table
from club.play.services.hand_entry import HandEntry, next_hand
from club.play.services.hands import record_hand
from club.play.services.night_setup import create_night, delete_night, edit_tables
from club.play.services.nights import close_night


def u(name: str, *args) -> str:
    return reverse(name, args=["crown", *args])


@pytest.fixture
def sec_client(client, secretary):
    client.force_login(secretary)
    return client


def play(table, user, declarer, contract="solo", tricks=5):
    entry = HandEntry(
        dealer=next_hand(table)["dealer"], contract=contract, declarer=declarer, tricks=tricks
    )
    return record_hand(table, entry, user)


def seats(night: Night) -> dict[int, list[str]]:
    """Table number -> the players' names in seat order, from the database."""
    result: dict[int, list[str]] = {}
    for seat in Seat.objects.filter(table__night=night).order_by("table__number", "position"):
        result.setdefault(seat.table.number, []).append(seat.player.name)
    return result


def tables_post(*tables: tuple[Table | None, list[Player | None], int], **extra: Any) -> dict:
    """POST data for the tables page: (existing table or None, players in seat order, first
    dealer's seat from 1) for each form, in the order the page shows them."""
    data: dict[str, Any] = {
        "tables-TOTAL_FORMS": str(len(tables)),
        "tables-INITIAL_FORMS": str(sum(1 for t, _, _ in tables if t is not None)),
        "action": "save",
    }
    for i, (table, players, dealer) in enumerate(tables):
        data[f"tables-{i}-table"] = "" if table is None else str(table.pk)
        data[f"tables-{i}-first_dealer"] = str(dealer)
        for n, p in enumerate(players, start=1):
            data[f"tables-{i}-seat_{n}"] = "" if p is None else str(p.pk)
    return data | extra


@pytest.fixture
def started(night, table4, secretary, players):
    """Table 1 has a hand; table 2 (Eve, Fay, Gus, Hal, Ivy) has none."""
    play(table4, secretary, players[1])
    return night


# The night page offers both, to the secretary, while the night is open -----------------------


def test_the_night_page_links_changing_tables_and_deleting_while_open(sec_client, night, secretary):
    body = sec_client.get(u("night_detail", night.pk)).content.decode()
    assert f'href="{u("night_tables_edit", night.pk)}">Change tables</a>' in body
    assert f'href="{u("night_delete", night.pk)}">Delete night</a>' in body
    close_night(night, secretary)
    body = sec_client.get(u("night_detail", night.pk)).content.decode()
    assert u("night_tables_edit", night.pk) not in body
    assert u("night_delete", night.pk) not in body


# Changing the tables ----------------------------------------------------------------------------


def test_the_tables_page_shows_tables_with_hands_read_only(sec_client, started, table4, table5):
    response = sec_client.get(u("night_tables_edit", started.pk))
    body = response.content.decode()
    assert "Tables of Club night 20 Nov 2026" in body
    fixed = body[body.index('id="fixed-table-1"') : body.index('id="table-2"')]
    assert "1 hand: seats fixed" in fixed
    assert "<li>Ann <span" in fixed and "<li>Dan</li>" in fixed
    assert "<select" not in fixed
    # Only table 2 is a form, its seats chosen as they are, with its id and a Remove box.
    assert [f.existing for f in response.context["tables"].forms] == [table5]
    assert f'name="tables-0-table" value="{table5.pk}"' in body
    ivy = Player.objects.get(name="Ivy")
    seat5 = body[body.index('name="tables-0-seat_5"') : body.index('name="tables-0-first_dealer"')]
    assert f'<option value="{ivy.pk}" selected>Ivy</option>' in seat5
    assert 'name="tables-0-DELETE"' in body and "Remove this table" in body


def test_change_the_seats_and_first_dealer_of_a_table_without_hands(
    sec_client, secretary, started, table4, table5, players
):
    ann, bob, cat, dan, eve, fay, gus, hal, ivy = players
    data = tables_post((table5, [hal, gus, fay, eve], 2))
    response = sec_client.post(u("night_tables_edit", started.pk), data)
    assert response["Location"] == u("night_detail", started.pk)
    assert seats(started) == {1: ["Ann", "Bob", "Cat", "Dan"], 2: ["Hal", "Gus", "Fay", "Eve"]}
    table5.refresh_from_db()
    assert table5.first_dealer == 1
    assert next_hand(table5)["dealer"] == gus
    event = AuditEvent.objects.get(action="update", subject="Tables")
    assert (event.night, event.user) == (started, secretary)
    assert event.before == {
        "table 1": "Ann, Bob, Cat, Dan (Ann deals first)",
        "table 2": "Eve, Fay, Gus, Hal, Ivy (Eve deals first)",
    }
    assert event.after == {
        "table 1": "Ann, Bob, Cat, Dan (Ann deals first)",
        "table 2": "Hal, Gus, Fay, Eve (Gus deals first)",
    }
    # The night page says so, and its audit trail shows only the table that changed.
    page = sec_client.get(u("night_detail", started.pk)).content.decode()
    assert "The tables of Club night 20 Nov 2026 are saved." in page
    assert "<strong>sec</strong> edited Tables" in page
    assert (
        "Table 2: <del>Eve, Fay, Gus, Hal, Ivy (Eve deals first)</del> → "
        "<ins>Hal, Gus, Fay, Eve (Gus deals first)</ins>"
    ) in page
    assert "Table 1: " not in page


def test_add_a_table(sec_client, started, table5, players, club):
    eve, fay, gus, hal, ivy = players[4:]
    jo, kit = (Player.objects.create(club=club, name=n) for n in ("Jo", "Kit"))
    # "Add a table" shows one more, empty, form and changes nothing yet.
    data = tables_post((table5, [eve, fay, gus, hal, ivy], 1), action="add_table")
    response = sec_client.post(u("night_tables_edit", started.pk), data)
    forms = response.context["tables"].forms
    assert [f.existing for f in forms] == [table5, None]
    assert "New table" in response.content.decode()
    assert started.tables.count() == 2
    # Ivy moves to the new table with Jo and Kit, Kit dealing first.
    data = tables_post((table5, [eve, fay, gus, hal], 1), (None, [ivy, jo, kit], 3))
    sec_client.post(u("night_tables_edit", started.pk), data)
    assert seats(started) == {
        1: ["Ann", "Bob", "Cat", "Dan"],
        2: ["Eve", "Fay", "Gus", "Hal"],
        3: ["Ivy", "Jo", "Kit"],
    }
    table3 = started.tables.get(number=3)
    assert table3.first_dealer == 2 and table3.round_number == 1
    event = AuditEvent.objects.get(subject="Tables")
    assert "table 3" not in event.before
    assert event.after["table 3"] == "Ivy, Jo, Kit (Kit deals first)"


def test_remove_a_table_with_no_hands(sec_client, started, table4, table5, players):
    eve, fay, gus, hal, ivy = players[4:]
    data = tables_post((table5, [eve, fay, gus, hal, ivy], 1), **{"tables-0-DELETE": "on"})
    response = sec_client.post(u("night_tables_edit", started.pk), data)
    assert response.status_code == 302
    assert not Table.objects.filter(pk=table5.pk).exists()
    assert not Seat.objects.filter(table_id=table5.pk).exists()
    assert seats(started) == {1: ["Ann", "Bob", "Cat", "Dan"]}
    event = AuditEvent.objects.get(subject="Tables")
    assert event.before["table 2"] == "Eve, Fay, Gus, Hal, Ivy (Eve deals first)"
    assert "table 2" not in event.after
    page = sec_client.get(u("night_detail", started.pk)).content.decode()
    assert "1 table · 1 hand" in page


def test_clearing_a_tables_seats_removes_it_too(sec_client, night, table4, table5):
    ann, bob, cat, dan = (s.player for s in table4.seats.all())
    data = tables_post((table4, [ann, bob, cat, dan], 1), (table5, [], 1))
    sec_client.post(u("night_tables_edit", night.pk), data)
    assert list(night.tables.values_list("number", flat=True)) == [1]


def test_a_table_with_hands_cannot_be_changed_or_removed(
    sec_client, started, table4, table5, players
):
    ann, bob, cat, dan, eve, fay, gus, hal, ivy = players
    before = seats(started)
    # Posting table 1 (which has a hand) as if it were still editable is refused beside it.
    data = tables_post((table4, [bob, ann, cat, dan], 2), (table5, [eve, fay, gus, hal, ivy], 1))
    response = sec_client.post(u("night_tables_edit", started.pk), data)
    assert response.status_code == 200
    message = "Table 1 has 1 hand now, so its seats can no longer change."
    assert response.context["tables"].forms[0].errors["table"] == [message]
    assert message in response.content.decode()
    # ... and so is removing it.
    data = tables_post((table4, [ann, bob, cat, dan], 1), **{"tables-0-DELETE": "on"})
    response = sec_client.post(u("night_tables_edit", started.pk), data)
    assert response.context["tables"].non_form_errors() == [message]
    assert seats(started) == before
    table4.refresh_from_db()
    assert table4.first_dealer == 0
    assert not AuditEvent.objects.filter(subject="Tables").exists()
    # The service refuses too, whatever calls it.
    with pytest.raises(SetupError, match="Table 1 has hands, so it cannot change its seats"):
        edit_tables(started, [(table4, [bob, ann, cat, dan], 0)])
    with pytest.raises(SetupError, match="Table 1 has hands, so it cannot be removed"):
        edit_tables(started, [], remove=[table4])
    assert seats(started) == before


def test_a_player_at_a_table_with_hands_cannot_sit_at_another(sec_client, started, table5, players):
    ann, bob, cat, dan, eve, fay, gus, hal, ivy = players
    data = tables_post((table5, [eve, fay, gus, ann], 1))
    response = sec_client.post(u("night_tables_edit", started.pk), data)
    assert response.status_code == 200
    assert response.context["tables"].forms[0].errors == {"seat_4": ["Ann is already at table 1."]}
    body = response.content.decode()
    assert "The tables were not saved" in body
    # The message sits in the seat's own field box, after its select and before the next seat.
    message = body.index("Ann is already at table 1.")
    assert body.index('name="tables-0-seat_4"') < message < body.index('name="tables-0-seat_5"')
    assert seats(started)[2] == ["Eve", "Fay", "Gus", "Hal", "Ivy"]
    with pytest.raises(SetupError, match="Ann cannot sit at table 1 and table 2"):
        edit_tables(started, [(table5, [eve, fay, gus, ann], 0)])
    assert seats(started)[2] == ["Eve", "Fay", "Gus", "Hal", "Ivy"]


def test_the_same_checks_as_setting_a_night_up(sec_client, night, table4, table5, players):
    ann, bob, cat, dan, eve, fay, gus, hal, ivy = players
    data = tables_post(
        (table4, [ann, bob], 1),  # too few
        (table5, [eve, fay, gus, hal], 5),  # no seat 5 to deal
        (None, [ivy, bob, None, dan], 1),  # Bob at table 1 already, and a gap in the seats
    )
    response = sec_client.post(u("night_tables_edit", night.pk), data)
    forms = response.context["tables"].forms
    assert forms[0].non_field_errors() == ["A table seats 3, 4 or 5 players, not 2."]
    assert forms[1].errors == {
        "first_dealer": ["Seat 5 is empty: the first dealer must be one of the players seated."]
    }
    assert forms[2].errors["seat_2"] == ["Bob is already at table 1."]
    assert forms[2].errors["seat_3"] == [
        "Fill the seats in order: this seat is empty but a later one is not."
    ]
    assert seats(night) == {1: ["Ann", "Bob", "Cat", "Dan"], 2: ["Eve", "Fay", "Gus", "Hal", "Ivy"]}
    # Removing every table is not a fix: delete the night instead.
    data = tables_post(
        (table4, [ann, bob, cat, dan], 1),
        (table5, [eve, fay, gus, hal, ivy], 1),
        **{"tables-0-DELETE": "on", "tables-1-DELETE": "on"},
    )
    response = sec_client.post(u("night_tables_edit", night.pk), data)
    assert response.context["tables"].non_form_errors() == [
        "Seat at least one table of 3, 4 or 5 players."
    ]
    assert night.tables.count() == 2


def test_saving_the_tables_unchanged_records_nothing(sec_client, night, table4, table5, players):
    data = tables_post((table4, players[:4], 1), (table5, players[4:], 1))
    response = sec_client.post(u("night_tables_edit", night.pk), data, follow=True)
    assert "Nothing changed." in response.content.decode()
    assert not AuditEvent.objects.filter(subject="Tables").exists()


def test_a_closed_nights_tables_cannot_change(sec_client, secretary, night, table5, players):
    close_night(night, secretary)
    response = sec_client.get(u("night_tables_edit", night.pk), follow=True)
    assert response.redirect_chain == [(u("night_detail", night.pk), 302)]
    assert "is closed: reopen it before changing its tables." in response.content.decode()
    eve, fay, gus = players[4:7]
    response = sec_client.post(
        u("night_tables_edit", night.pk), tables_post((table5, [eve, fay, gus], 1))
    )
    assert response["Location"] == u("night_detail", night.pk)
    assert seats(night)[2] == ["Eve", "Fay", "Gus", "Hal", "Ivy"]
    with pytest.raises(SetupError, match="is closed"):
        edit_tables(night, [(table5, [eve, fay, gus], 0)])


def test_another_nights_table_is_refused(sec_client, night, season, players):
    other = create_night(season, dt.date(2026, 11, 27), [(players[:4], 0)])
    theirs = other.tables.get()
    data = tables_post((theirs, players[5:9], 1))
    response = sec_client.post(u("night_tables_edit", night.pk), data)
    assert response.context["tables"].forms[0].errors["table"] == [
        "This table is no longer part of the night: open the page again."
    ]
    assert seats(other) == {1: ["Ann", "Bob", "Cat", "Dan"]}


# Deleting a night -------------------------------------------------------------------------------


@pytest.fixture
def played(night, table4, table5, secretary, players):
    """Three hands at table 1 (4 lines each) and one at table 2 (one sits out: 4 lines)."""
    ann, bob, cat, dan, eve, fay = players[:6]
    play(table4, secretary, bob)
    play(table4, secretary, cat, tricks=4)
    play(table4, secretary, ann, contract="misere", tricks=0)
    play(table5, secretary, fay)
    return night


@pytest.fixture
def other_night(season, players, secretary):
    """A later night with a hand, which deleting the first must leave alone."""
    other = create_night(season, dt.date(2026, 11, 27), [(players[:4], 0)])
    play(other.tables.get(), secretary, players[2])
    return other


def rows_of(night_id: int) -> dict[str, int]:
    return {
        "nights": Night.objects.filter(pk=night_id).count(),
        "tables": Table.objects.filter(night_id=night_id).count(),
        "seats": Seat.objects.filter(table__night_id=night_id).count(),
        "hands": Hand.objects.filter(table__night_id=night_id).count(),
        "score_lines": ScoreLine.objects.filter(night_id=night_id).count(),
        "night_totals": NightTotal.objects.filter(night_id=night_id).count(),
    }


def test_the_confirmation_says_what_will_go_and_changes_nothing(sec_client, played, other_night):
    before = rows_of(played.pk)
    assert before == {
        "nights": 1,
        "tables": 2,
        "seats": 9,
        "hands": 4,
        "score_lines": 16,
        "night_totals": 8,  # one player sat out the only hand at table 2
    }
    body = sec_client.get(u("night_delete", played.pk)).content.decode()
    assert "Delete Club night 20 Nov 2026?" in body
    assert (
        "removes its <strong>2 tables</strong>, <strong>4 hands</strong> and "
        "<strong>16 score lines</strong> for good"
    ) in body
    assert '<button type="submit" class="danger">Delete the night</button>' in body
    assert rows_of(played.pk) == before


def test_delete_removes_every_row_of_the_night_and_nothing_else(
    sec_client, secretary, played, other_night, club
):
    nets = dict(
        ScoreLine.objects.filter(night=played)
        .values_list("player__name")
        .annotate(net=Sum("amount"))
        .order_by()
    )
    others = rows_of(other_night.pk)
    other_totals = list(NightTotal.objects.filter(night=other_night).values().order_by("player"))
    response = sec_client.post(u("night_delete", played.pk), follow=True)
    assert response.redirect_chain == [(u("night_list"), 302)]
    body = response.content.decode()
    assert (
        "Club night 20 Nov 2026 is deleted, with its 2 tables, 4 hands and 16 score lines." in body
    )
    assert rows_of(played.pk) == dict.fromkeys(rows_of(played.pk), 0)
    # The other night is untouched, and its totals still equal its score lines.
    assert rows_of(other_night.pk) == others
    assert list(NightTotal.objects.filter(night=other_night).values().order_by("player")) == (
        other_totals
    )
    assert "Fri 27 Nov 2026" in body and "Fri 20 Nov 2026" not in body
    # The audit event outlives the night: who, what, its tables and each player's net.
    event = AuditEvent.objects.get(action="delete")
    assert (event.club, event.night, event.user) == (club, None, secretary)
    assert event.subject == "Club night 20 Nov 2026"
    assert event.before["tables"] == {
        "table 1": "Ann, Bob, Cat, Dan (Ann deals first)",
        "table 2": "Eve, Fay, Gus, Hal, Ivy (Eve deals first)",
    }
    assert event.before["nets"] == nets
    assert len(nets) == 8 and sum(nets.values()) == 0 and any(nets.values())
    assert (event.before["hands"], event.before["score_lines"]) == (4, 16)
    # The night's own trail (its hands' entries) went with it.
    assert not AuditEvent.objects.filter(night_id=played.pk).exists()


def test_night_totals_match_the_score_lines_after_a_delete(sec_client, played, other_night):
    sec_client.post(u("night_delete", played.pk))
    sums = {
        (r["night"], r["player"]): (r["n"], r["net"])
        for r in ScoreLine.objects.values("night", "player")
        .annotate(n=Count("id"), net=Sum("amount"))
        .order_by()
    }
    totals = {(t.night_id, t.player_id): (t.hands, t.net) for t in NightTotal.objects.all()}
    assert totals == sums and len(totals) == 4


def test_a_closed_night_must_be_reopened_before_it_is_deleted(sec_client, secretary, played):
    close_night(played, secretary)
    before = rows_of(played.pk)
    body = sec_client.get(u("night_delete", played.pk)).content.decode()
    assert "This night is closed: a closed night cannot be deleted." in body
    assert "Delete the night</button>" not in body
    assert f'href="{u("night_reopen", played.pk)}"' in body
    response = sec_client.post(u("night_delete", played.pk), follow=True)
    assert response.redirect_chain == [(u("night_detail", played.pk), 302)]
    assert (
        "Club night 20 Nov 2026 is closed: a secretary must reopen it before it can be deleted."
        in response.content.decode()
    )
    assert rows_of(played.pk) == before
    assert not AuditEvent.objects.filter(action="delete").exists()
    with pytest.raises(SetupError):
        delete_night(played, secretary)
    assert rows_of(played.pk) == before


def test_a_deleted_nights_players_season_and_rules_stay(sec_client, played, club, season, hoyle):
    assert hoyle.is_used
    sec_client.post(u("night_delete", played.pk))
    assert Player.objects.filter(club=club).count() == 9
    season.refresh_from_db()
    assert season.rule_set == hoyle
    assert not hoyle.is_used  # its only hands went with the night


def test_a_tournament_nights_tables_are_not_changed_from_the_night_page(
    client, secretary, season, club
):
    """A tournament draws its tables round by round; the night page's table editor would mix up
    the rounds, so the page hides it, the view sends the director to the tournament and the
    service refuses."""
    from club.play.models import Seat
    from club.tournaments.services import tournaments as tournament_services
    from tests.kits.tournament_kit import field, make_tournament

    tournament = make_tournament(season, field(club, 9), rounds=2)
    tournament_services.start(tournament, secretary)
    night = tournament.night
    seats_before = list(Seat.objects.filter(table__night=night).values_list("table", "player"))
    client.force_login(secretary)

    page = client.get(reverse("night_detail", args=[club.slug, night.pk])).content.decode()
    assert "Change tables" not in page
    assert "Round 1," in page and tournament.name in page

    response = client.get(reverse("night_tables_edit", args=[club.slug, night.pk]), follow=True)
    assert response.redirect_chain[-1][0] == reverse(
        "tournament_detail", args=[club.slug, tournament.pk]
    )
    assert "drawn round by round" in response.content.decode()

    first = night.tables.order_by("number").first()
    with pytest.raises(SetupError, match="drawn round by round"):
        edit_tables(night, [(first, list(first.seats.all()[:3]), 0)])
    assert list(Seat.objects.filter(table__night=night).values_list("table", "player")) == (
        seats_before
    )
