"""Who held the wrong number of cards in a hand (cards improperly divided, found after the first
call), by name: the hand keeps their ids, and only the rare hand with the ruling reads them."""

from __future__ import annotations

from club.clubs.models import Player
from club.play.models import Hand


def wrong_card_players(hand: Hand) -> list[Player]:
    """The players who held the wrong number of cards, in the order recorded: from the table's
    prefetched seats when it has them, otherwise one query (never for a hand without the
    ruling)."""
    ids = list(hand.wrong_cards or ())
    if not ids:
        return []
    written = getattr(hand, "_wrong_card_players", None)
    if written is not None:
        return list(written)
    table = hand._state.fields_cache.get("table")
    seats = getattr(table, "_prefetched_objects_cache", {}).get("seats") if table else None
    if seats is not None:
        known = {seat.player_id: seat.player for seat in seats}
    else:
        known = {p.pk: p for p in Player.objects.filter(pk__in=ids)}
    return [known[pk] for pk in ids if pk in known]


def wrong_card_names(hand: Hand) -> list[str]:
    return [p.name for p in wrong_card_players(hand)]
