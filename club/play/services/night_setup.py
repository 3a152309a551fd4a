"""Setting nights up: a night with its tables, changing its tables while it is open, deleting it
(used by forms, seed_demo and tests alike, so that there is one way to set things up)."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Count, Prefetch, Sum

import scoring
from club.clubs.models import AuditEvent, Club, Player, Season
from club.clubs.services.setup import SetupError
from club.lib import live_push
from club.play.models import Hand, Night, ScoreLine, Seat, Table, TableCard
from club.play.services import signals
from club.play.services.locks import NightGone, lock_night


def distinct_title(club: Club, date: dt.date, title: str = "") -> str:
    """The title a new night on `date` takes so that its name tells it apart from the club's other
    nights that day: blank (the name is "Club night 20 Nov 2026") when nothing else is called so,
    else the name with the first free " (2)", " (3)"..."""
    wanted = title.strip() or str(Night(date=date))
    taken = {
        str(n) for n in Night.objects.filter(season__club=club, date=date).only("title", "date")
    }
    if wanted not in taken:
        return title.strip()
    limit = Night._meta.get_field("title").max_length
    assert limit is not None  # a CharField's
    n = 2
    while (candidate := f"{wanted[: limit - len(f' ({n})')]} ({n})") in taken:
        n += 1
    return candidate


def add_table(
    night: Night,
    number: int,
    players: Sequence[Player],
    first_dealer: int,
    card: TableCard | None = None,
) -> Table:
    """One table of a night with its seats, clockwise from position 0 (the one way tables are
    made: a night's set-up, its tables changed, a table seated from its card). The caller holds
    the transaction."""
    scoring.table.check_table_size([str(p.pk) for p in players])
    if not 0 <= first_dealer < len(players):
        raise scoring.InvalidHand(
            f"Table {number} has no seat {first_dealer + 1} for the first dealer"
        )
    table = Table.objects.create(night=night, number=number, first_dealer=first_dealer, card=card)
    Seat.objects.bulk_create(Seat(table=table, position=i, player=p) for i, p in enumerate(players))
    return table


def create_night(
    season: Season,
    date: dt.date,
    tables: Sequence[tuple[Sequence[Player], int]],
    title: str = "",
    user: User | None = None,
    form_token: uuid.UUID | None = None,
) -> Night:
    """A night with its tables: each a list of players in seat order and the first dealer's seat
    (0-based). With a `user`, the audit trail records who set the night up. Its title is made
    distinct from the club's other nights that day (see `distinct_title`)."""
    with transaction.atomic():
        title = distinct_title(season.club, date, title)
        night = Night.objects.create(season=season, date=date, title=title, form_token=form_token)
        for number, (players, first_dealer) in enumerate(tables, start=1):
            add_table(night, number, players, first_dealer)
        if user is not None:
            AuditEvent.objects.create(
                club_id=season.club_id,
                night=night,
                user=user,
                action=AuditEvent.Action.CREATE,
                subject=str(night),
                after={
                    f"table {number}": ", ".join(p.name for p in players)
                    for number, (players, _) in enumerate(tables, start=1)
                },
            )
    return night


def create_night_once(
    season: Season,
    date: dt.date,
    tables: Sequence[tuple[Sequence[Player], int]],
    *,
    form_token: uuid.UUID,
    title: str = "",
    user: User | None = None,
) -> tuple[Night, bool]:
    """Create the night of a form once: (night, True) the first time; (the night that form already
    made, False) when the same form comes again (a double-click, a POST resent), even at the
    same moment (the token is unique in the database)."""
    club_nights = Night.objects.filter(season__club_id=season.club_id)
    existing = Night.objects.filter(form_token=form_token).select_related("season").first()
    if existing is not None:
        if existing.season.club_id == season.club_id:
            return existing, False
        # Another club's token can only be a tampered form: not theirs to find, so a new one.
        form_token = uuid.uuid4()
    try:
        return create_night(season, date, tables, title, user, form_token=form_token), True
    except IntegrityError:
        existing = club_nights.filter(form_token=form_token).first()
        if existing is None:
            raise
        return existing, False


def night_as_entered(
    night: Night,
    season: Season,
    date: dt.date,
    tables: Sequence[tuple[Sequence[Player], int]],
    title: str = "",
) -> bool:
    """Whether `night` is the night these fields describe (its season, date, title, and each
    table's players in seat order with who deals first): a form sent again makes the same; a
    form changed after its first send (Back, then another night typed in) does not."""
    if (night.season_id, night.date, night.title) != (season.pk, date, title):
        return False
    made = [
        ([seat.player_id for seat in table.seats.order_by("position")], table.first_dealer)
        for table in night.tables.order_by("number")
    ]
    asked = [([p.pk for p in players], first % max(len(players), 1)) for players, first in tables]
    return made == asked


def seat_list(players: Sequence[Player], first_dealer: int) -> str:
    """A table's seats as the audit trail keeps them: names in seat order and who deals first."""
    names = ", ".join(p.name for p in players)
    if not players:
        return names
    return f"{names} ({players[first_dealer % len(players)].name} deals first)"


def _locked_open_night(night: Night, doing: str) -> Night:
    """The night locked first, as in every write of a night (club.play.services.locks)."""
    try:
        locked = lock_night(night.pk)
    except NightGone:
        raise Night.DoesNotExist(str(night)) from None
    if locked.is_closed:
        raise SetupError(f"{locked} is closed: a secretary must reopen it before {doing}.")
    return locked


def edit_tables(
    night: Night,
    tables: Sequence[tuple[Table | None, Sequence[Player], int]],
    remove: Iterable[Table] = (),
    user: User | None = None,
) -> bool:
    """Fix the tables of an open night that have no hands yet, in one transaction.

    `tables`: (the existing table to change, or None for a new one; its players in seat order; the
    first dealer's 0-based seat); `remove`: existing tables to take away. A table with hands keeps
    its seats and cannot be changed or removed. The same checks as create_night, and nobody at two
    tables, counting the tables with hands. New tables are numbered after the highest kept.
    Records one audit event (update, "Tables") with every table's seats before and after; returns
    whether anything changed.
    """
    with transaction.atomic():
        locked = _locked_open_night(night, "its tables change")
        if Night.objects.filter(pk=locked.pk, tournament__isnull=False).exists():
            raise SetupError(
                "A tournament's tables are drawn round by round from its entries; change the "
                "entries on the tournament page instead."
            )
        # Lock the tables: a scorer recording the first hand at one of them waits for this.
        current = {
            t.pk: t
            for t in Table.objects.select_for_update().filter(night=locked).order_by("number")
        }
        hands = dict(
            Hand.objects.filter(table__night=locked)
            .values("table")
            .annotate(n=Count("id"))
            .values_list("table", "n")
            .order_by()
        )
        seats: dict[int, list[Player]] = {pk: [] for pk in current}
        for seat in Seat.objects.filter(table__night=locked).select_related("player"):
            seats[seat.table_id].append(seat.player)

        def changeable(table: Table, doing: str) -> Table:
            found = current.get(table.pk)
            if found is None:
                raise SetupError(f"{table} is not a table of {locked}.")
            if hands.get(found.pk):
                raise SetupError(f"{found} has hands, so it cannot {doing}.")
            return found

        removed = {changeable(t, "be removed").pk for t in remove}
        changed: dict[int, tuple[Sequence[Player], int]] = {}
        added: list[tuple[Sequence[Player], int]] = []
        for table, players, first_dealer in tables:
            if table is None:
                added.append((players, first_dealer))
                continue
            pk = changeable(table, "change its seats").pk
            if pk in changed or pk in removed:
                raise SetupError(f"{current[pk]} is given twice.")
            changed[pk] = (players, first_dealer)

        # The night as it will be: numbers kept, new tables after the highest kept.
        after: dict[int, tuple[Sequence[Player], int]] = {}
        for pk, table in current.items():
            if pk not in removed:
                after[table.number] = changed.get(pk, (seats[pk], table.first_dealer))
        next_number = max(after, default=0) + 1
        new_numbers = list(range(next_number, next_number + len(added)))
        after.update(zip(new_numbers, added, strict=True))
        if not after:
            raise SetupError("A night needs at least one table of 3, 4 or 5 players.")
        where: dict[int, int] = {}
        for number, (players, first_dealer) in sorted(after.items()):
            scoring.table.check_table_size([str(p.pk) for p in players])
            if not 0 <= first_dealer < len(players):
                raise scoring.InvalidHand(
                    f"Table {number} has no seat {first_dealer + 1} for the first dealer"
                )
            for player in players:
                if player.club_id != locked.season.club_id:
                    raise SetupError(f"{player} is not a player of this club.")
                if player.pk in where:
                    raise SetupError(
                        f"{player} cannot sit at table {where[player.pk]} and table {number}."
                    )
                where[player.pk] = number

        before_seats = {
            f"table {t.number}": seat_list(seats[pk], t.first_dealer) for pk, t in current.items()
        }
        after_seats = {
            f"table {number}": seat_list(players, first_dealer)
            for number, (players, first_dealer) in sorted(after.items())
        }
        if before_seats == after_seats:
            return False

        Table.objects.filter(pk__in=removed).delete()
        for pk, (players, first_dealer) in changed.items():
            table = current[pk]
            if [p.pk for p in players] != [p.pk for p in seats[pk]]:
                table.seats.all().delete()
                Seat.objects.bulk_create(
                    Seat(table=table, position=i, player=p) for i, p in enumerate(players)
                )
            if table.first_dealer != first_dealer:
                table.first_dealer = first_dealer
                table.save(update_fields=["first_dealer"])
        for number, (players, first_dealer) in zip(new_numbers, added, strict=True):
            add_table(locked, number, players, first_dealer)
        if user is not None:
            audit_tables(locked, user, before_seats, after_seats)
    return True


def audit_tables(night: Night, user: User, before: dict[str, str], after: dict[str, str]) -> None:
    """The audit trail's line for a change of the night's tables: each table's seats before and
    after, by table."""
    AuditEvent.objects.create(
        club_id=night.season.club_id,
        night=night,
        user=user,
        action=AuditEvent.Action.UPDATE,
        subject="Tables",
        before=before,
        after=after,
    )
    # Seats moved: each table's phones show the names again.
    live_push.changed_on_commit(table_ids=night.tables.values_list("pk", flat=True))


@dataclass(frozen=True)
class NightContents:
    """What deleting a night takes with it."""

    tables: int
    hands: int
    score_lines: int


def night_contents(night: Night) -> NightContents:
    return NightContents(
        tables=night.tables.count(),
        hands=Hand.objects.filter(table__night=night).count(),
        score_lines=ScoreLine.objects.filter(night=night).count(),
    )


def delete_night(night: Night, user: User | None = None) -> NightContents:
    """Delete an open night with its tables, seats, hands and score lines, in one transaction (the
    database triggers take its night totals away with the score lines). A closed night must be
    reopened first. The audit event (delete, kept with no night so that it outlives it) records
    the tables and each player's net."""
    with transaction.atomic():
        locked = _locked_open_night(night, "it can be deleted")
        # The apps above may refuse (money: payments recorded against the night) or take back
        # what they derived from its hands (grades), before anything goes.
        signals.night_deleting.send(Night, night=locked)
        contents = night_contents(locked)
        tables = {
            f"table {t.number}": seat_list([s.player for s in t.seats.all()], t.first_dealer)
            for t in locked.tables.order_by("round_number", "number").prefetch_related(
                Prefetch("seats", queryset=Seat.objects.select_related("player"))
            )
        }
        nets = {
            row["player__name"]: row["net"]
            for row in ScoreLine.objects.filter(night=locked)
            .values("player", "player__name")
            .annotate(net=Sum("amount"))
            .order_by("player__name")
        }
        ScoreLine.objects.filter(night=locked).delete()
        Hand.objects.filter(table__night=locked).delete()
        locked.delete()
        if user is not None:
            AuditEvent.objects.create(
                club_id=locked.season.club_id,
                night=None,
                night_label=locked.audit_label(),
                user=user,
                action=AuditEvent.Action.DELETE,
                subject=str(locked),
                before={
                    "date": locked.date.isoformat(),
                    "season": locked.season.name,
                    "title": locked.title,
                    "tables": tables,
                    "hands": contents.hands,
                    "score_lines": contents.score_lines,
                    "nets": nets,
                },
            )
    return contents
