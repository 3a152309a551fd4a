"""A club's nights, tables and hands when the club is deleted (club/clubs/services/signals.py)."""

from __future__ import annotations

from club.clubs.models import Club
from club.clubs.services import signals
from club.play.models import Hand, Night, NightTotal, ScoreLine


def delete_club_rows(sender: object, club: Club, **kwargs: object) -> int:
    """Score lines, hands and nights: what PROTECTs the club's players, rule sets and seasons.
    What hangs on a night (its tables, debts, tournament and entries) goes with it."""
    # The night totals go by the score lines' triggers, which Django does not count.
    rows = NightTotal.objects.filter(season__club=club).count()
    # Score lines before their hands, so the night-total triggers take each one off (the totals
    # then go with the nights).
    rows += ScoreLine.objects.filter(season__club=club).delete()[0]
    rows += Hand.objects.filter(table__night__season__club=club).delete()[0]
    rows += Night.objects.filter(season__club=club).delete()[0]
    return rows


def connect() -> None:
    signals.club_deleting.connect(delete_club_rows, dispatch_uid="play.club_deleting")
