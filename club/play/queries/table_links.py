"""Hands entered at the tables that still wait for a second player's confirmation (the night
page lists them for a secretary to confirm or correct): one query."""

from __future__ import annotations

from club.play.models import Hand, Night


def unconfirmed_hands(night: Night) -> list[Hand]:
    return list(
        Hand.objects.filter(table__night=night, awaiting_confirmation=True)
        .select_related("table", "dealer", "declarer", "partner")
        .order_by("table__round_number", "table__number", "number")
    )
