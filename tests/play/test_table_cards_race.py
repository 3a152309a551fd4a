"""Fifteen phones seating fifteen tables from their cards at the same moment, on a SQLite file
and on PostgreSQL: every table is seated once, and no player sits at two tables, even when the
phones name some of the same players."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from club.clubs.models import Player
from club.play.models import Seat, Table
from club.play.services import nights
from club.play.services import table_cards as cards
from tests.kits.racing import needs_real_concurrency, race

pytestmark = (
    pytest.mark.slow
)  # a race, an outage or a transaction: seconds, real threads or processes

TABLES = 15


@pytest.fixture
def tonight(club, season_now):
    return nights.start_tonight(club)


@pytest.fixture
def club_of_60(club) -> list[Player]:
    return [Player.objects.create(club=club, name=f"Member {n:02d}") for n in range(TABLES * 4)]


@pytest.mark.django_db(transaction=True)
def test_fifteen_tables_seat_themselves_at_once(club, secretary, tonight, club_of_60):
    needs_real_concurrency()
    deck = cards.issue_cards(club, secretary, TABLES)
    groups = [club_of_60[i * 4 : i * 4 + 4] for i in range(TABLES)]
    outcomes = race(
        *[
            (
                lambda card=card, group=group, n=n: cards.seat_table(
                    card, tonight, group, f"phone {n}"
                )
            )
            for n, (card, group) in enumerate(zip(deck, groups, strict=True))
        ],
        timeout=60,
    )
    assert [o.error for o in outcomes] == [None] * TABLES
    assert all(o.value.created for o in outcomes)
    tables = Table.objects.filter(night=tonight)
    assert tables.count() == TABLES
    assert sorted(tables.values_list("number", flat=True)) == list(range(1, TABLES + 1))
    assert sorted(tables.values_list("card__number", flat=True)) == list(range(1, TABLES + 1))
    seated = list(Seat.objects.filter(table__night=tonight).values_list("player_id", flat=True))
    assert sorted(seated) == sorted(p.pk for p in club_of_60)


@pytest.mark.django_db(transaction=True)
def test_phones_naming_the_same_players_at_once_seat_each_player_once(
    club, secretary, tonight, club_of_60
):
    """Each phone names four players, one of them also named by the next phone: whoever is
    first seats the shared player, the other is refused with the table named; nobody sits at
    two tables and nothing of a refused table is written."""
    needs_real_concurrency()
    deck = cards.issue_cards(club, secretary, TABLES)
    groups = [[club_of_60[(3 * i + k) % (3 * TABLES)] for k in range(4)] for i in range(TABLES)]
    outcomes = race(
        *[
            (lambda card=card, group=group: cards.seat_table(card, tonight, group))
            for card, group in zip(deck, groups, strict=True)
        ],
        timeout=60,
    )
    seated_ok = [o for o in outcomes if o.error is None]
    refused = [o for o in outcomes if o.error is not None]
    assert seated_ok, "some table sat down"
    for outcome in refused:
        assert isinstance(outcome.error, ValidationError), outcome.error
        assert "already sits at table" in " ".join(outcome.error.messages)
    seats = list(Seat.objects.filter(table__night=tonight).values_list("player_id", flat=True))
    assert len(seats) == len(set(seats)), "a player sits at two tables"
    assert Table.objects.filter(night=tonight).count() == len(seated_ok)
    assert all(t.seats.count() == 4 for t in Table.objects.filter(night=tonight))
