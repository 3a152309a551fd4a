"""A club night's draw: the players who have arrived, seated by `scoring.draw` away from whom
they sat with lately, a proposal the secretary may alter by swapping two players (which
club.play.services.nights then makes into the night's tables, seats and links), and where late
arrivals could sit: a table with room (a 3 becomes 4, a 4 becomes 5), or a new table of 3 with
players from the tables of 5."""

from __future__ import annotations

import datetime as dt
import random
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from django.core import signing
from django.db.models import Count, Max

import scoring.draw
from club.clubs.models import Club, Player
from club.clubs.services.setup import SetupError
from club.play.models import Night, Seat, Table
from club.play.services import arrivals
from club.play.services.hand_entry import next_hand

HISTORY_NIGHTS = 4  # the recent nights whose tables a draw keeps players away from
_SIGN_SALT = "club.draw.proposal"
_DRAW_NAMESPACE = uuid.UUID("7c1f3b52-2d0e-4a53-9a57-52b0d8b3b0a1")


@dataclass(frozen=True)
class Proposal:
    """A draw not yet confirmed: the date and the tables of player ids in seat order (the first
    deals first). It travels in the page's address and its form as signed data, never in the
    database."""

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
        .filter(tournament__isnull=True)
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
    seated = seated_at(night)
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


def confirmed_night(club: Club, proposal: Proposal) -> Night | None:
    """The evening's night if this proposal was confirmed already (every player of it sits at
    the night), else None."""
    night = evening_night(club, proposal.date)
    if night is None:
        return None
    seated = seated_at(night)
    return night if all(pk in seated for pk in proposal.player_ids) else None


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


# Late arrivals -------------------------------------------------------------------------------


def seated_at(night: Night) -> dict[int, int]:
    """Player id -> the number of the table they sit at tonight."""
    return dict(Seat.objects.filter(table__night=night).values_list("player_id", "table__number"))


def unseated_arrivals(night: Night) -> list[Player]:
    """The players who arrived on the night's date and have no seat at it yet."""
    seated = seated_at(night)
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
