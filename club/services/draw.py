"""A club night's draw: the players who have arrived, seated by `scoring.draw` away from whom
they sat with lately, a proposal the secretary may alter by swapping two players, then, in one
transaction, the night with its tables, seats and table links. Late arrivals join a table of 4
(making it 5) or a new table of 3."""

from __future__ import annotations

import datetime as dt
import random
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.core import signing
from django.db import transaction
from django.db.models import Count, Max

import scoring.draw
from club.models import Club, Night, Player, Seat, Table, Tournament
from club.services import arrivals
from club.services.hands import next_hand
from club.services.locks import NightGone, lock_club, lock_night
from club.services.setup import SetupError, audit_tables, create_night_once, edit_tables
from club.services.table_links import night_links

HISTORY_NIGHTS = 4  # the recent nights whose tables a draw keeps players away from
_SIGN_SALT = "club.draw.proposal"
_DRAW_NAMESPACE = uuid.UUID("7c1f3b52-2d0e-4a53-9a57-52b0d8b3b0a1")


@dataclass(frozen=True)
class Proposal:
    """A draw not yet confirmed: the date and the tables of player ids in seat order (the first
    deals first). It travels in the page as signed data, never in the database."""

    date: dt.date
    tables: tuple[tuple[int, ...], ...]
    seed: int

    def sign(self, club: Club) -> str:
        data = {"d": self.date.isoformat(), "t": [list(t) for t in self.tables], "s": self.seed}
        return signing.dumps(data, salt=f"{_SIGN_SALT}:{club.pk}", compress=True)

    @classmethod
    def read(cls, club: Club, signed: str) -> Proposal:
        try:
            data = signing.loads(signed, salt=f"{_SIGN_SALT}:{club.pk}")
            return cls(
                date=dt.date.fromisoformat(data["d"]),
                tables=tuple(tuple(int(pk) for pk in t) for t in data["t"]),
                seed=int(data["s"]),
            )
        except (signing.BadSignature, KeyError, TypeError, ValueError):
            raise SetupError("This draw is not one the app made: draw the tables again.") from None

    @property
    def player_ids(self) -> list[int]:
        return [pk for table in self.tables for pk in table]


def draw_token(club: Club, date: dt.date) -> uuid.UUID:
    """The night's form token of a club's draw for a date: the same for every confirm, so the
    database's unique form token lets only one of them create the night."""
    return uuid.uuid5(_DRAW_NAMESPACE, f"{club.pk}:{date.isoformat()}")


def recent_history(
    club: Club, date: dt.date, nights: int = HISTORY_NIGHTS
) -> list[list[list[str]]]:
    """The tables of the club's last `nights` nights before `date` (each round of a tournament
    counts as a night), as lists of player ids (strings), for `scoring.draw`."""
    recent = list(
        Night.objects.filter(season__club=club, date__lt=date, tables__isnull=False)
        .distinct()
        .order_by("-date", "-id")
        .values_list("pk", flat=True)[:nights]
    )
    rounds: dict[tuple[int, int], dict[int, list[str]]] = {}
    for night_id, round_number, table_id, player_id in (
        Seat.objects.filter(table__night__in=recent)
        .order_by("table__night__date", "table__night_id", "table__round_number", "position")
        .values_list("table__night_id", "table__round_number", "table_id", "player_id")
    ):
        rounds.setdefault((night_id, round_number), {}).setdefault(table_id, []).append(
            str(player_id)
        )
    return [list(tables.values()) for tables in rounds.values()]


def evening_night(club: Club, date: dt.date) -> Night | None:
    """The night the draw seats the date's players at: the club's latest open night of that
    date (a tournament's aside; the one a table card seats at), with tables already (seated
    from their cards, or by hand) or without; else the date's draw night, closed."""
    night = (
        Night.objects.filter(season__club=club, date=date, status=Night.Status.OPEN)
        .exclude(pk__in=Tournament.objects.values("night_id"))
        .order_by("-pk")
        .first()
    )
    if night is not None:
        return night
    return Night.objects.filter(season__club=club, form_token=draw_token(club, date)).first()


@dataclass(frozen=True)
class Evening:
    """Where the date's draw stands: its night (None before one is open) with how many tables
    sit at it, and the arrived players who have no seat at it yet."""

    night: Night | None
    tables: int
    waiting: list[Player]

    @property
    def drawn(self) -> bool:
        """The night is closed, or tables sit and fewer than a table's worth wait (those are
        late arrivals)."""
        if self.night is not None and self.night.is_closed:
            return True
        return self.tables > 0 and len(self.waiting) < 3


def evening(club: Club, date: dt.date) -> Evening:
    night = evening_night(club, date)
    players = arrivals.arrived(club, date)
    if night is None:
        return Evening(None, 0, players)
    seated = _seated(night)
    tables = len(set(seated.values()))
    return Evening(night, tables, [p for p in players if p.pk not in seated])


def first_new_number(club: Club, date: dt.date) -> int:
    """The number the draw's first table will take: after the evening's highest table."""
    night = evening_night(club, date)
    if night is None:
        return 1
    return (night.tables.aggregate(top=Max("number"))["top"] or 0) + 1


def propose_draw(
    club: Club, date: dt.date, seed: int | None = None, odd_size: int | None = None
) -> Proposal:
    """Tables for the players who have arrived on the date and have no seat yet (tables may sit
    already, seated from their cards), with the club's odd table size (or `odd_size`, 5 or 3,
    for tonight only). SetupError (with what to do) when the night's tables are already drawn
    or the players cannot be split."""
    now = evening(club, date)
    if now.drawn:
        if now.night is not None and now.night.is_closed:
            raise SetupError(
                f"{now.night} is closed: to draw tables for the players without a seat, reopen "
                "it on its page (or open another night), then draw."
            )
        if not now.waiting:
            raise SetupError(
                f"The tables of {date:%d %b %Y} are drawn: seat late arrivals on the night's page."
            )
        names = " and ".join(p.name for p in now.waiting)
        raise SetupError(
            f"Tables sit already; only {names} wait{'s' if len(now.waiting) == 1 else ''} for "
            "a seat: seat them as late arrivals on the night's page."
        )
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000_000)
    try:
        tables = scoring.draw.draw_tables(
            [str(p.pk) for p in now.waiting],
            odd_size or int(club.odd_tables),
            recent_history(club, date),
            seed,
        )
    except ValueError as refused:
        raise SetupError(str(refused)) from None
    return Proposal(date, tuple(tuple(int(pk) for pk in t) for t in tables), seed)


def swap(proposal: Proposal, a: int, b: int) -> Proposal:
    """The proposal with two players' seats exchanged (at one table, or between two)."""
    if a == b:
        raise SetupError("Choose two different players to swap.")
    if a not in proposal.player_ids or b not in proposal.player_ids:
        raise SetupError("Choose two players of this draw to swap.")
    switch = {a: b, b: a}
    tables = tuple(tuple(switch.get(pk, pk) for pk in t) for t in proposal.tables)
    return Proposal(proposal.date, tables, proposal.seed)


def proposal_players(club: Club, proposal: Proposal) -> list[list[Player]]:
    """The proposal's tables as the club's players (SetupError if one is no longer the club's
    or sits twice)."""
    ids = proposal.player_ids
    if len(set(ids)) != len(ids):
        raise SetupError("A player sits twice in this draw: draw the tables again.")
    players = club.players.in_bulk(ids)
    if len(players) != len(ids):
        raise SetupError("A player of this draw is no longer in the club: draw the tables again.")
    return [[players[pk] for pk in table] for table in proposal.tables]


def confirm_draw(
    club: Club, date: dt.date, proposal: Proposal, user: User | None = None
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
    tables = proposal_players(club, proposal)
    season = club.seasons.filter(start__lte=date, end__gte=date).order_by("-start").first()
    if season is None:
        raise SetupError(f"No season covers {date:%d %b %Y}: add a season in set-up.")
    for table in tables:
        if len(table) not in (3, 4, 5):
            raise SetupError("A table seats 3, 4 or 5 players: draw the tables again.")
    with transaction.atomic():
        # Two confirms of the same evening queue here; the second finds the first's night.
        lock_club(club.pk)
        night = evening_night(club, date)
        if night is not None:
            # A card seating its table takes the night's lock, not the club's: take it too,
            # so no card seats a player between this check and the draw's tables.
            night = lock_night(night.pk)
            seated = _seated(night)
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
            token = draw_token(club, date)
            if not had_tables and not Night.objects.filter(form_token=token).exists():
                # From now on this is the evening's draw night: once closed, the draw finds it.
                Night.objects.filter(pk=night.pk).update(form_token=token)
        else:
            night, created = create_night_once(
                season,
                date,
                [(players, 0) for players in tables],
                form_token=draw_token(club, date),
                user=user,
            )
            if not created:  # pragma: no cover - the club lock makes the first confirm's visible
                return night, False
        night_links(night, user)
    return night, True


# Late arrivals -------------------------------------------------------------------------------


def _seated(night: Night) -> dict[int, int]:
    """Player id -> the number of the table they sit at tonight."""
    return dict(Seat.objects.filter(table__night=night).values_list("player_id", "table__number"))


def _open(night: Night) -> Night:
    try:
        locked = lock_night(night.pk)
    except NightGone:
        raise Night.DoesNotExist(str(night)) from None
    if locked.is_closed:
        raise SetupError(f"{locked} is closed: a secretary must reopen it before seating anyone.")
    if Tournament.objects.filter(night=locked).exists():
        raise SetupError("A tournament's tables are drawn round by round from its entries.")
    return locked


def _refuse_seated(night: Night, players: Sequence[Player]) -> None:
    seated = _seated(night)
    for player in players:
        if player.club_id != night.season.club_id:
            raise SetupError(f"{player} is not a player of this club.")
        if player.pk in seated:
            raise SetupError(f"{player} already sits at table {seated[player.pk]}.")


def unseated_arrivals(night: Night) -> list[Player]:
    """The players who arrived on the night's date and have no seat at it yet."""
    seated = _seated(night)
    return [p for p in arrivals.arrived(night.season.club, night.date) if p.pk not in seated]


def _sized(night: Night, sizes: Sequence[int]) -> list[tuple[Table, int]]:
    tables = (
        Table.objects.filter(night=night)
        .annotate(seats_n=Count("seats", distinct=True), hands_n=Count("hands", distinct=True))
        .filter(seats_n__in=sizes)
        .order_by("hands_n", "number")
    )
    return [(t, t.hands_n) for t in tables]


def tables_of_four(night: Night) -> list[tuple[Table, int]]:
    """The night's tables of 4 with how many hands each has played, fewest first."""
    return _sized(night, [4])


def tables_with_room(night: Night) -> list[tuple[Table, int]]:
    """The night's tables a late arrival can join (a 3 becomes 4, a 4 becomes 5), with how many
    hands each has played: the tables of 3 first (a 4 plays better than a 3), then fewest hands."""
    tables = _sized(night, [3, 4])
    # seats_n: the count of seats _sized annotated on each table (not a field of the model).
    return sorted(tables, key=lambda th: th[0].seats_n != 3)  # type: ignore[attr-defined]


def tables_of_five(night: Night) -> list[tuple[Table, int]]:
    """The night's tables of 5 with how many hands each has played, fewest first."""
    return _sized(night, [5])


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
        room = tables_with_room(locked)
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
    """A late arrival typed by name (club.services.arrivals.arrive_by_name: the club's player of
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


def movers_from(table: Table, hands: int, count: int) -> list[Player]:
    """Who leaves a table of 5 for a new table: the player who would sit out its next hand (they
    would not play it anyway), then from the last seat back; never the last hand's dealer,
    from whom the deal passes on."""
    seats = [s.player for s in table.seats.select_related("player")]
    coming = next_hand(table)
    last_dealer = None
    if hands:
        last_dealer = table.hands.order_by("-number").values_list("dealer_id", flat=True).first()
    candidates = [coming["sitting_out"], *reversed(seats)]
    chosen: list[Player] = []
    for player in candidates:
        if player is None or player.pk == last_dealer or player in chosen:
            continue
        chosen.append(player)
        if len(chosen) == count:
            break
    return chosen


@dataclass(frozen=True)
class LatePlan:
    """A new table of three for one or two late arrivals when every table is a five: who moves
    from which table (each leaves at the end of its current hand)."""

    arrivals: list[Player]
    moves: list[tuple[Table, list[Player]]]

    @property
    def players(self) -> list[Player]:
        return [*self.arrivals, *(p for _, movers in self.moves for p in movers)]


def plan_from_fives(night: Night, arrivals: Sequence[Player]) -> LatePlan:
    """The new table of three for `arrivals` (1 or 2) with players from the tables of 5, by
    `scoring.draw.late_table_donors` (the fives with fewest hands give first). SetupError when
    a table has room (seat them there) or no table of 5 can give a player."""
    if tables_with_room(night):
        raise SetupError("A table has room: seat them there.")
    fives = tables_of_five(night)
    hands = {t.pk: h for t, h in fives}
    try:
        donors = scoring.draw.late_table_donors(len(arrivals), [t for t, _ in fives])
    except ValueError as refused:
        raise SetupError(str(refused)) from None
    moves = []
    for table in dict.fromkeys(donors):
        moves.append((table, movers_from(table, hands[table.pk], donors.count(table))))
    return LatePlan(list(arrivals), moves)


def seat_late_from_fives(
    night: Night,
    arrivals: Sequence[Player],
    user: User | None = None,
    expected_movers: Sequence[int] | None = None,
) -> tuple[Table, LatePlan]:
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
        plan = plan_from_fives(locked, arrivals)
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
