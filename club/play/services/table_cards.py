"""Tables' permanent cards: issuing, revoking and re-issuing them, opening tonight's night, and
seating a table from its card (the players as the phone lists them, first dealer first, then
clockwise), which gives the phone the table's link for the night. Every change is audited."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max

from club.clubs.models import AuditEvent, Club, Player, Season
from club.play.models import Night, Seat, Table, TableCard, TableLink
from club.play.services import tokens
from club.play.services.locks import NightGone, lock_night
from club.play.services.night_setup import add_table, seat_list

MAX_CARDS = 60  # more than any club's room holds: a bigger number is a typing mistake


def holder(card: TableCard) -> tokens.Holder[TableCard]:
    """A card as the token module sees it: its number keeps one live card, and a re-issue keeps
    the number and label (the club is locked while it is made, as issuing numbers in turn)."""

    def refuse() -> str:
        if TableCard.objects.filter(club_id=card.club_id, number=card.number, revoked_at=None):
            return f"{card.label} already has a new card: re-issue that one if it is lost too."
        return ""

    return tokens.Holder(
        club_id=card.club_id,
        subject=f"{card.label}'s card",
        live=TableCard.objects.filter(pk=card.pk),
        fresh=lambda user: TableCard.fresh(card.club_id, card.number, user, label=card.label),
        lock=Club.objects.filter(pk=card.club_id),
        refuse=refuse,
    )


def live_cards(club: Club) -> list[TableCard]:
    return list(TableCard.objects.filter(club=club, revoked_at=None).order_by("number"))


def issue_cards(club: Club, user: User | None, count: int = 1) -> list[TableCard]:
    """`count` new cards, numbered after the club's highest live card (1..N for a new club)."""
    if not 1 <= count <= MAX_CARDS:
        raise ValidationError(f"Issue between 1 and {MAX_CARDS} cards at a time.")
    with transaction.atomic():
        # The club's row locked: two secretaries issuing at once number their cards in turn.
        Club.objects.select_for_update().filter(pk=club.pk).first()
        top = TableCard.objects.filter(club=club, revoked_at=None).aggregate(n=Max("number"))["n"]
        cards = []
        for number in range((top or 0) + 1, (top or 0) + 1 + count):
            # The unsaved card names the number and its label; the holder makes the real one.
            cards.append(tokens.issue(holder(TableCard.fresh(club.pk, number)), user))
    return cards


def revoke_card(card: TableCard, user: User | None) -> bool:
    """Stop the card working (its QR code is then a 404). False if it was revoked already."""
    return tokens.revoke(holder(card), user)


def reissue_card(card: TableCard, user: User | None) -> TableCard:
    """Revoke the card (if live) and issue a new one with the same number and label, a new token
    (the old printed card stops working; print the new one)."""
    return tokens.reissue(holder(card), user)


def find_card(token: str) -> TableCard | None:
    """The live card a token names, with its club; None for a revoked or made-up token."""
    # A closed club's cards are gone.
    return tokens.find(TableCard.objects.select_related("club").filter(club__closed_at=None), token)


# --- tonight -----------------------------------------------------------------------------------


def today(club: Club) -> dt.date:
    """Tonight is the club's date, on its own clock, not the server's (UTC)."""
    return club.today()


def tonight(club: Club) -> Night | None:
    """Today's club night: the open one if there is one (the latest made), else the latest made
    today, closed. Tournaments are not club nights a card seats."""
    nights = Night.objects.filter(
        season__club=club, date=today(club), tournament__isnull=True
    ).select_related("season", "season__club", "season__rule_set")
    return (
        nights.filter(status=Night.Status.OPEN).order_by("-id").first()
        or nights.order_by("-id").first()
    )


def season_today(club: Club) -> Season | None:
    date = today(club)
    return club.seasons.filter(start__lte=date, end__gte=date).order_by("-start").first()


# --- seating a table from its card ----------------------------------------------------------------


@dataclass(frozen=True)
class Seated:
    link: TableLink | None  # None only when the table's link was revoked since
    table: Table
    created: bool  # False: the card had seated its table already (another phone did it)


def _existing(card: TableCard, night: Night) -> Seated | None:
    table = Table.objects.filter(night=night, card=card).first()
    if table is None:
        return None
    link = TableLink.objects.filter(table=table, revoked_at=None).first()
    return Seated(link, table, False)


def seated_table(card: TableCard, night: Night) -> Seated | None:
    """The table this card seated in the night, with its live link; None if it seated none."""
    return _existing(card, night)


def _check_players(night: Night, club_id: int, players: Sequence[Player]) -> None:
    if len(players) < 3:
        raise ValidationError(
            f"A table seats 3, 4 or 5 players: choose {3 - len(players)} more "
            f"(only {len(players)} chosen)."
        )
    if len(players) > 5:
        raise ValidationError(f"A table seats at most 5 players, not {len(players)}.")
    seen: set[int] = set()
    for player in players:
        if player.pk in seen:
            raise ValidationError(f"{player.name} is chosen twice: each player sits once.")
        seen.add(player.pk)
        if player.club_id != club_id:
            raise ValidationError(f"{player.name} is not a player of this club.")
    taken = (
        Seat.objects.filter(table__night=night, player__in=players)
        .select_related("player", "table")
        .order_by("table__number")
        .first()
    )
    if taken is not None:
        raise ValidationError(
            f"{taken.player.name} already sits at table {taken.table.number} tonight."
        )


def _seat(card: TableCard, night: Night, players: Sequence[Player], device: str) -> Seated:
    with transaction.atomic():
        try:
            locked = lock_night(night.pk)
        except NightGone:
            raise ValidationError("Tonight's night was deleted: ask the secretary.") from None
        if locked.is_closed:
            raise ValidationError(f"{locked} is closed: no more tables can sit down.")
        if locked.season.club_id != card.club_id:
            raise ValidationError("This card is not one of this night's club.")
        existing = _existing(card, locked)
        if existing is not None:
            return existing
        _check_players(locked, card.club_id, players)
        numbers = set(
            Table.objects.filter(night=locked, round_number=1).values_list("number", flat=True)
        )
        number = card.number if card.number not in numbers else max(numbers, default=0) + 1
        table = add_table(locked, number, players, 0, card=card)
        link = TableLink.fresh(table.pk)
        link.save()
        label = f"{card.label}'s card"[:40]
        by_card = {
            "club_id": card.club_id,
            "night": locked,
            "link": link,
            "device": device[:40],
            "link_label": label,
        }
        AuditEvent.objects.create(
            **by_card,
            action=AuditEvent.Action.CREATE,
            subject=f"Table {number}, seated from {label}"[:120],
            after={f"table {number}": seat_list(list(players), 0)},
        )
        AuditEvent.objects.create(
            **by_card, action=AuditEvent.Action.ISSUE, subject=f"Table {number}'s link"
        )
    return Seated(link, table, True)


def seat_table(
    card: TableCard, night: Night, players_in_seat_order: Sequence[Player], device_name: str = ""
) -> Seated:
    """Seat a table from its card, in one transaction: the table (numbered as the card when that
    number is free tonight, else after the highest), its seats (the first player deals first,
    the others clockwise) and its link. The card had seated its table already tonight (another
    phone was first, even at the same moment): that table, `created` False. Refused, with a
    message for the phone (ValidationError): not 3 to 5 players, a player twice or seated at
    another table tonight, the night closed."""
    try:
        return _seat(card, night, players_in_seat_order, device_name)
    except IntegrityError:
        # The card's table was made between our check and our insert (the unique night + card).
        existing = _existing(card, night)
        if existing is None:
            raise
        return existing
