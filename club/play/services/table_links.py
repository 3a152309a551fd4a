"""Issuing, revoking and re-issuing tables' links, finding the link a token names, and a second
player's confirmation of a hand entered at the table. Every change writes an audit event."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F, QuerySet

from club.clubs.models import AuditEvent, Player
from club.core.prepared import PreparedRead
from club.lib import live_push
from club.play.models import Hand, Night, Seat, Table, TableLink
from club.play.models.table_links import hash_token
from club.play.queries.table_sheet import attach_seats, prefetch_seats
from club.play.services import tokens
from club.play.services.hand_entry import LinkSource, snapshot
from club.play.services.hands import HandConflict, HandGone
from club.play.services.locks import NightGone, lock_night


def holder(table: Table) -> tokens.Holder[TableLink]:
    """A table's link as the token module sees it: the table (locked while a new link is made)
    holds at most one live link."""
    return tokens.Holder(
        club_id=table.night.season.club_id,
        subject=f"Table {table.number}'s link",
        live=TableLink.objects.filter(table=table),
        fresh=lambda user: TableLink.fresh(table.pk, user),
        lock=Table.objects.filter(pk=table.pk),
        night=table.night,
    )


def _live_links(night: Night) -> dict[int, TableLink]:
    return {
        link.table_id: link
        for link in TableLink.objects.filter(table__night=night, revoked_at=None)
    }


def night_links(night: Night, user: User | None) -> dict[int, TableLink | None]:
    """Each table's live link, by table id. A table that never had a link gets one now (the
    first time a secretary asks for the night's links, its QR codes or its table cards); a table
    whose link was revoked stays without one (None) until a secretary issues a new link."""
    tables = list(night.tables.all())
    for table in tables:
        table.night = night
    for _attempt in range(3):
        live: dict[int, TableLink | None] = dict(_live_links(night))
        revoked = set(
            TableLink.objects.filter(table__night=night, revoked_at__isnull=False).values_list(
                "table_id", flat=True
            )
        )
        missing = [t for t in tables if t.pk not in live and t.pk not in revoked]
        for table in tables:
            live.setdefault(table.pk, None)
        if not missing:
            return live
        try:
            with transaction.atomic():
                for table in missing:
                    live[table.pk] = tokens.issue(holder(table), user)
        except IntegrityError:
            # Another secretary's page issued some at the same moment: read theirs, then issue
            # the ones still missing.
            continue
        return live
    return {table.pk: _live_links(night).get(table.pk) for table in tables}


def revoke(table: Table, user: User | None) -> bool:
    """Stop the table's link working (its token is then a 404). False if it had none."""
    return tokens.revoke(holder(table), user)


def reissue(table: Table, user: User | None) -> TableLink:
    """Revoke the table's link (if live) and issue a new one, with a new token."""
    return tokens.reissue(holder(table), user)


def _live_link_query() -> QuerySet[TableLink]:
    return TableLink.objects.select_related(
        "table",
        "table__night",
        "table__night__season",
        "table__night__season__rule_set",
        "table__night__season__club",
        "table__night__tournament",
    ).filter(table__night__season__club__closed_at=None)  # a closed club's links are gone


# The link's own columns, read beside each seat of its table (`_SEATS_BY_TOKEN`).
_LINK_COLUMNS = [f.attname for f in TableLink._meta.concrete_fields]


def _seats_by_token(token_hash: str) -> QuerySet[Seat]:
    """The seats of the table a live link names, each with its player, the table, night,
    season, rule set, club and tournament, and the link's columns as `link_<column>`."""
    return (
        Seat.objects.filter(
            table__links__token_hash=token_hash,
            table__links__revoked_at=None,
            table__night__season__club__closed_at=None,
        )
        .annotate(**{f"link_{name}": F(f"table__links__{name}") for name in _LINK_COLUMNS})
        .select_related(
            "player",
            "table__night__season__rule_set",
            "table__night__season__club",
            "table__night__tournament",
        )
        .order_by("position")
    )


# Every request through a table's link starts here: compiled once (club.core.prepared).
_SEATS_BY_TOKEN = PreparedRead(_seats_by_token, [str], shared=["table"])


def find(token: str) -> TableLink | None:
    """The live link a token names, with its table (and the table's seats and their players,
    prefetched), night, season, rules, club and tournament; None for a revoked, replaced or
    made-up token. One query."""
    if not token or len(token) > tokens.LONGEST_TOKEN:
        return None
    seats = _SEATS_BY_TOKEN.rows(hash_token(token))
    if not seats:  # no such link, or a table nobody sits at (two queries, as before)
        link = tokens.find(_live_link_query(), token)
        if link is not None:
            prefetch_seats(link.table)
        return link
    table = seats[0].table
    link = TableLink.from_db(
        "default", _LINK_COLUMNS, [getattr(seats[0], f"link_{name}") for name in _LINK_COLUMNS]
    )
    link.table = table
    attach_seats(table, seats)
    return link


def confirm_hand(
    hand: Hand,
    version: int,
    *,
    user: User | None = None,
    via: LinkSource | None = None,
    confirmer: Player | None = None,
) -> Hand:
    """A second player (through the link, naming themselves) or a secretary confirms a hand
    entered at the table. Refused if the hand changed since it was shown, or the night closed."""
    with transaction.atomic():
        # The night first, as every write of a night (club.play.services.locks): a confirmation
        # racing a delete or a close at the same night takes its turn instead of deadlocking.
        try:
            night = lock_night(hand.table.night_id)
        except NightGone as gone:
            raise HandConflict(str(gone)) from None
        try:
            current = (
                Hand.objects.select_for_update(of=("self",)).select_related("table").get(pk=hand.pk)
            )
        except Hand.DoesNotExist:
            raise HandGone(
                f"Hand {hand.number} was deleted by someone else: there is nothing to confirm."
            ) from None
        current.table.night = night
        if current.table.night.is_closed:
            raise HandConflict(
                "This night is closed. A secretary must reopen it before any change."
            )
        if current.version != version:
            raise HandConflict(
                f"Hand {current.number} was changed after you opened it. Look at it again "
                "before you confirm it."
            )
        if not current.awaiting_confirmation:
            raise HandConflict(f"Hand {current.number} is already confirmed.")
        current.awaiting_confirmation = False
        current.version = F("version") + 1
        current.save(update_fields=["awaiting_confirmation", "version", "updated_at"])
        current.refresh_from_db()
        after = snapshot(current)
        if confirmer is not None:
            after = {"confirmed_by": confirmer.name, **after}
        AuditEvent.objects.create(
            club_id=current.table.night.season.club_id,
            night=current.table.night,
            user=user,
            link=via.link if via else None,
            device=via.device if via else "",
            link_label=via.label if via else "",
            action=AuditEvent.Action.CONFIRM,
            subject=f"Table {current.table.number}, hand {current.number}",
            before=None,
            after=after,
        )
        live_push.changed_on_commit(table_ids=[current.table_id])
    return current
