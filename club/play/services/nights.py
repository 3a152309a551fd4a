"""A club night's whole life, every write of the night, its tables and its state: started
tonight (empty, for the table cards to fill), drawn into (the draw's proposal made into tables),
late arrivals seated, closed and reopened (closing hands the night to club.money.services.publish:
its
settle-up, correction window and publication). The draw's proposals, and which tables have room,
are club.play.services.draw's; a hand's writes are club.play.services.hands'."""

from __future__ import annotations

import datetime as dt
import random
import uuid
from collections.abc import Sequence

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from club.clubs.models import AuditEvent, Club, Player
from club.clubs.services.setup import SetupError
from club.lib import live_push
from club.play.models import Hand, Night, Seat, Table
from club.play.services import arrivals, draw, signals, table_cards
from club.play.services.hands import HandConflict
from club.play.services.locks import NightGone, lock_club, lock_night
from club.play.services.night_setup import audit_tables, create_night_once, edit_tables
from club.play.services.table_links import night_links

# --- tonight -----------------------------------------------------------------------------------


def start_tonight(club: Club, user: User | None = None) -> Night:
    """Tonight's night with no tables yet, in the season whose dates contain today (so under its
    rule set), or the night already open today. Pressed twice, or by two phones at once, it
    makes one night: the night's form token is the club's and the date's."""
    with transaction.atomic():
        # The club's lock, as the draw's confirm takes it: the two never make two open nights
        # of one evening, the draw fills the night this opened (or this finds the draw's).
        lock_club(club.pk)
        night = table_cards.tonight(club)
        if night is not None and not night.is_closed:
            return night
        season = table_cards.season_today(club)
        date = table_cards.today(club)
        if season is None:
            raise ValidationError(
                f"No season of {club.name} covers {date:%d %b %Y}: the secretary must add one in "
                "set-up first."
            )
        token = uuid.uuid5(uuid.NAMESPACE_URL, f"solo-whist:tonight:{club.pk}:{date.isoformat()}")
        if night is not None and night.form_token == token:
            # Tonight's night was opened, then closed: a secretary opens another (or reopens it).
            return night
        made, _created = create_night_once(season, date, [], form_token=token, user=user)
        return made


# --- the draw's night -------------------------------------------------------------------------


def confirm_draw(
    club: Club, date: dt.date, proposal: draw.Proposal, user: User | None = None
) -> tuple[Night, bool]:
    """Create the night of the proposal's date (or add to the open night of that date, whose
    tables may have sat down from their cards) with its tables, seats (the first player deals
    first) and each table's link, in one transaction, audited: (the night, True). Confirmed
    again, by a double tap or a second secretary, it creates nothing more: (the night already
    drawn, False)."""
    if proposal.date != date:
        raise SetupError(
            f"This draw is for {proposal.date:%d %b %Y}, not {date:%d %b %Y}: "
            "draw the tables again."
        )
    tables = draw.proposal_players(club, proposal)
    season = club.seasons.filter(start__lte=date, end__gte=date).order_by("-start").first()
    if season is None:
        raise SetupError(f"No season covers {date:%d %b %Y}: add a season in set-up.")
    for table in tables:
        if len(table) not in (3, 4, 5):
            raise SetupError("A table seats 3, 4 or 5 players: draw the tables again.")
    with transaction.atomic():
        # Two confirms of the same evening queue here; the second finds the first's night.
        lock_club(club.pk)
        night = draw.evening_night(club, date)
        if night is not None:
            # A card seating its table takes the night's lock, not the club's: take it too,
            # so no card seats a player between this check and the draw's tables.
            night = lock_night(night.pk)
            seated = draw.seated_at(night)
            drawn = [pk for pk in proposal.player_ids if pk in seated]
            if drawn and len(drawn) == len(proposal.player_ids):
                return night, False  # this draw was confirmed already
            if drawn:
                raise SetupError(
                    f"{club.players.get(pk=drawn[0])} sits at table {seated[drawn[0]]} now: "
                    "draw the tables again."
                )
            had_tables = bool(seated)
            edit_tables(night, [(None, players, 0) for players in tables], user=user)
            token = draw.draw_token(club, date)
            if not had_tables and not Night.objects.filter(form_token=token).exists():
                # From now on this is the evening's draw night: once closed, the draw finds it.
                Night.objects.filter(pk=night.pk).update(form_token=token)
        else:
            night, created = create_night_once(
                season,
                date,
                [(players, 0) for players in tables],
                form_token=draw.draw_token(club, date),
                user=user,
            )
            if not created:  # pragma: no cover - the club lock makes the first confirm's visible
                return night, False
        night_links(night, user)
    return night, True


# --- late arrivals ----------------------------------------------------------------------------


def _open(night: Night) -> Night:
    try:
        locked = lock_night(night.pk)
    except NightGone:
        raise Night.DoesNotExist(str(night)) from None
    if locked.is_closed:
        raise SetupError(f"{locked} is closed: a secretary must reopen it before seating anyone.")
    if Night.objects.filter(pk=locked.pk, tournament__isnull=False).exists():
        raise SetupError("A tournament's tables are drawn round by round from its entries.")
    return locked


def _refuse_seated(night: Night, players: Sequence[Player]) -> None:
    seated = draw.seated_at(night)
    for player in players:
        if player.club_id != night.season.club_id:
            raise SetupError(f"{player} is not a player of this club.")
        if player.pk in seated:
            raise SetupError(f"{player} already sits at table {seated[player.pk]}.")


def seat_late_arrival(
    night: Night, player: Player, table: Table | None = None, user: User | None = None
) -> Table:
    """Seat a late arrival at a table with room (a table of 3 becomes 4, a 4 becomes 5): the
    chosen table, or a table of 3 if there is one, else the table of 4 that has played fewest
    hands (the lowest number among equals). They take the last
    seat, to the right of the first dealer. A table with no hands changes through
    `edit_tables`; at one with hands the new seat counts from the next hand."""
    with transaction.atomic():
        locked = _open(night)
        _refuse_seated(locked, [player])
        room = draw.tables_with_room(locked)
        if table is None:
            if not room:
                raise SetupError(
                    "Every table is full (a table of 5): start a new table with players "
                    "moved from the tables of 5 instead."
                )
            chosen, hands = room[0]
        else:
            found = [(t, h) for t, h in room if t.pk == table.pk]
            if not found:
                raise SetupError(f"{table} has no room: it is not a table of 3 or 4 of {locked}.")
            chosen, hands = found[0]
        seats = [s.player for s in chosen.seats.select_related("player")]
        if not hands:
            edit_tables(locked, [(chosen, [*seats, player], chosen.first_dealer)], user=user)
        else:
            Seat.objects.create(table=chosen, position=len(seats), player=player)
            if user is not None:
                key = f"table {chosen.number}"
                audit_tables(
                    locked,
                    user,
                    {key: ", ".join(p.name for p in seats)},
                    {key: ", ".join(p.name for p in [*seats, player])},
                )
    return chosen


def seat_late_newcomer(
    night: Night, name: str, table: Table | None = None, user: User | None = None
) -> tuple[Player, Table]:
    """A late arrival typed by name (club.play.services.arrivals.arrive_by_name: the club's player
    of
    that name, or a new one), ticked in and seated as `seat_late_arrival` seats them, all or
    nothing: a seat refused (a closed night, no table of 4) adds and ticks in no one."""
    with transaction.atomic():
        player = arrivals.arrive_by_name(night.season.club, name, night.date)
        return player, seat_late_arrival(night, player, table, user)


def seat_late_table(night: Night, players: Sequence[Player], user: User | None = None) -> Table:
    """A new table of 3, 4 or 5 late arrivals (seats shuffled, the first deals first), with its
    link."""
    players = list(players)
    if len(players) not in (3, 4, 5) or len({p.pk for p in players}) != len(players):
        raise SetupError("A new table needs three, four or five different players.")
    random.SystemRandom().shuffle(players)
    with transaction.atomic():
        locked = _open(night)
        _refuse_seated(locked, players)
        edit_tables(locked, [(None, players, 0)], user=user)
        table = Table.objects.filter(night=locked).order_by("-number")[0]  # the one just made
        night_links(locked, user)
    return table


def seat_late_from_fives(
    night: Night,
    arrivals: Sequence[Player],
    user: User | None = None,
    expected_movers: Sequence[int] | None = None,
) -> tuple[Table, draw.LatePlan]:
    """Seat one or two late arrivals when every table is a five: a new table of three with a
    player from each of two tables of 5 (or one, for two arrivals; two from the night's only
    table), which become tables of 4 (or 3) from their next hand. The movers' hands so far stay
    at their old table. One transaction, audited, with the new table's link. `expected_movers`:
    the player ids the secretary was shown; if a hand saved since changes who would move, the
    seating is refused, to be confirmed again."""
    arrivals = list(arrivals)
    if not arrivals or len({p.pk for p in arrivals}) != len(arrivals):
        raise SetupError("Choose who has arrived.")
    with transaction.atomic():
        locked = _open(night)
        _refuse_seated(locked, arrivals)
        plan = draw.plan_from_fives(locked, arrivals)
        movers = sorted(p.pk for _, moving in plan.moves for p in moving)
        if expected_movers is not None and movers != sorted(expected_movers):
            raise SetupError("Who would move changed since (a hand was saved): check and confirm.")
        before: dict[str, str] = {}
        after: dict[str, str] = {}
        unplayed: list[tuple[Table | None, Sequence[Player], int]] = []
        for table, moving in plan.moves:
            locked_table = Table.objects.select_for_update().get(pk=table.pk)
            seats = [s.player for s in locked_table.seats.select_related("player")]
            staying = [p for p in seats if p not in moving]
            if not locked_table.hands.exists():
                first = seats[locked_table.first_dealer % len(seats)]
                # The first dealer stays, or the deal starts with the next player who stays.
                order = seats[seats.index(first) :] + seats[: seats.index(first)]
                dealer = next(p for p in order if p in staying)
                unplayed.append((locked_table, staying, staying.index(dealer)))
                continue
            # A table with hands keeps them (the movers' included); its seats close up from
            # its next hand.
            key = f"table {locked_table.number}"
            before[key] = ", ".join(p.name for p in seats)
            after[key] = ", ".join(p.name for p in staying)
            locked_table.seats.filter(player__in=moving).delete()
            for position, seat in enumerate(locked_table.seats.order_by("position")):
                if seat.position != position:
                    Seat.objects.filter(pk=seat.pk).update(position=position)
        players = plan.players
        random.SystemRandom().shuffle(players)
        edit_tables(locked, [*unplayed, (None, players, 0)], user=user)
        if user is not None and before:
            audit_tables(locked, user, before, after)
        table = Table.objects.filter(night=locked).order_by("-number")[0]
        night_links(locked, user)
    return table, plan


# --- close and reopen ---------------------------------------------------------------------------


def _lock(night_id: int) -> Night:
    """The night's row lock, taken first as every write of a night takes it
    (club.play.services.locks),
    so a close or a reopen and the hands being saved at its tables take turns."""
    try:
        return lock_night(night_id)
    except NightGone as gone:
        raise HandConflict(str(gone)) from None


def close_night(night: Night, user: User | None) -> None:
    with transaction.atomic():
        locked = _lock(night.pk)
        if locked.is_closed:
            raise HandConflict("This night is already closed.")
        waiting = list(
            Hand.objects.filter(table__night=locked, awaiting_confirmation=True)
            .order_by("table__round_number", "table__number", "number")
            .values_list("table__number", "number")
        )
        if waiting:
            which = ", ".join(f"table {t} hand {n}" for t, n in waiting[:10])
            more = f" and {len(waiting) - 10} more" if len(waiting) > 10 else ""
            raise HandConflict(
                f"{len(waiting)} hand(s) still wait for a second player's confirmation "
                f"({which}{more}). Confirm or correct them on the night page, then close it."
            )
        locked.status = Night.Status.CLOSED
        locked.closed_at = timezone.now()
        locked.closed_by = user
        locked.save(update_fields=["status", "closed_at", "closed_by"])
        AuditEvent.objects.create(
            club_id=night.season.club_id,
            night=night,
            user=user,
            action=AuditEvent.Action.CLOSE,
            subject=str(night),
        )
        live_push.changed_on_commit(table_ids=locked.tables.values_list("pk", flat=True))
        signals.night_closed.send(Night, night=locked, user=user)


def reopen_night(night: Night, user: User) -> None:
    with transaction.atomic():
        locked = _lock(night.pk)
        if not locked.is_closed:
            raise HandConflict("This night is already open.")
        signals.night_reopened.send(
            Night, night=locked, user=user
        )  # no longer provisional nor published
        locked.status = Night.Status.OPEN
        locked.closed_at = None
        locked.closed_by = None
        locked.save(update_fields=["status", "closed_at", "closed_by"])
        AuditEvent.objects.create(
            club_id=night.season.club_id,
            night=night,
            user=user,
            action=AuditEvent.Action.REOPEN,
            subject=str(night),
        )
        live_push.changed_on_commit(table_ids=locked.tables.values_list("pk", flat=True))
