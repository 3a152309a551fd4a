"""Helpers for the standings, player page and club home tests: nights and hands written through the
real services (club.services.setup.create_night, club.services.hands.record_hand), and the expected
figures computed independently from scoring.score_hand."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

import scoring
from club.models import Night, Player, Season
from club.services.hands import HandEntry, record_hand
from club.services.setup import create_night


def night_with(season: Season, date: dt.date, *tables: Sequence[Player]) -> Night:
    """A night whose tables seat these players (the first of each deals hand 1)."""
    return create_night(season, date, [(list(t), 0) for t in tables])


def play(
    night: Night,
    user,
    declarer: Player,
    contract: str = "solo",
    tricks: int = 5,
    partner: Player | None = None,
    table: int = 1,
):
    """Record one hand at the night's table, dealt by whoever the rotation says."""
    from club.services.hands import next_hand

    t = night.tables.get(number=table)
    dealer = next_hand(t)["dealer"]
    return record_hand(
        t,
        HandEntry(
            dealer=dealer, contract=contract, declarer=declarer, partner=partner, tricks=tricks
        ),
        user,
    )


def expected(
    rules: scoring.RuleSet,
    players: Sequence[Player],
    declarer: Player,
    contract: str = "solo",
    tricks: int = 5,
    partner: Player | None = None,
) -> dict[str, int]:
    """What scoring.score_hand says each player (by name) gets, for a table of four."""
    result = scoring.score_hand(
        scoring.Hand(
            players=tuple(p.name for p in players),
            contract=contract,
            declarer=declarer.name,
            partner=partner.name if partner else None,
            tricks=tricks,
        ),
        rules,
    )
    return result.amounts
