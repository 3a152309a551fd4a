"""Running a tournament: setting it up with its entrants, drawing each round's seats from
`scoring.seating.plan`, late entries and withdrawals between rounds, and closing rounds.

A tournament is a night played in rounds (club/tournaments/models/tournaments.py). When a round
opens, its
tables are created from the plan, computed for the entrants of that round with the rounds already
drawn as `played`, so re-planning never moves anyone who has sat down: the plan keeps those rounds
unchanged and seats the rest around them. Hands are then entered at those tables through the
ordinary table page and hand service.

Every change here locks the tournament row, runs in one transaction and leaves an audit event on
the night (the night page's audit trail shows them).
"""

from __future__ import annotations

import datetime as dt
import secrets
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count

from club.clubs.models import AuditEvent, Club, Player, Season
from club.clubs.services.setup import add_players
from club.play.models import Hand, Night, Seat, Table
from club.play.services.hands import HandConflict
from club.play.services.locks import NightGone, lock_night
from club.play.services.nights import close_night
from club.tournaments.models import Entry, Tournament
from scoring import seating
from scoring.tournament import Method

MIN_PLAYERS = 3  # the smallest table there is


class TournamentError(Exception):
    """A tournament change that cannot be made as asked; the message says what to do."""


@dataclass(frozen=True)
class IncompleteTable:
    number: int
    hands: int


class RoundIncomplete(TournamentError):
    """Closing a round whose tables have not all entered their hands (refused unless the director
    closes it anyway)."""

    def __init__(self, round_number: int, hands_per_round: int, tables: list[IncompleteTable]):
        self.round_number = round_number
        self.hands_per_round = hands_per_round
        self.tables = tables
        listed = "; ".join(f"table {t.number} has {t.hands}" for t in tables)
        super().__init__(
            f"Round {round_number} is not complete: each table plays {hands_per_round} "
            f"hand{'s' if hands_per_round != 1 else ''}, and {listed}. Enter the missing hands "
            "first, or close the round anyway."
        )


# -- reading the state the plan is built from ----------------------------------------------------


def key(player_id: int) -> str:
    """A player as the seating plan names them: the primary key, as text."""
    return str(player_id)


def entrants(tournament: Tournament, round_number: int) -> list[Entry]:
    """The entrants seated in that round, in a fixed order (by player id), so that the same
    entries always give the same plan."""
    entries = Entry.objects.filter(tournament=tournament).select_related("player")
    return sorted((e for e in entries if e.plays(round_number)), key=lambda e: e.player_id)


def drawn_rounds(tournament: Tournament, upto: int) -> list[list[list[str]]]:
    """The seats of rounds 1..`upto` as drawn: tables by number, players in seat order."""
    rounds: list[list[list[str]]] = [[] for _ in range(upto)]
    tables: dict[int, list[str]] = {}
    seats = (
        Seat.objects.filter(table__night_id=tournament.night_id, table__round_number__lte=upto)
        .order_by("table__round_number", "table__number", "position")
        .values_list("table_id", "table__round_number", "player_id")
    )
    for table_id, round_number, player_id in seats:
        if table_id not in tables:
            tables[table_id] = []
            rounds[round_number - 1].append(tables[table_id])
        tables[table_id].append(key(player_id))
    return rounds


def full_plan(tournament: Tournament, round_number: int) -> seating.Plan:
    """The plan of every round, keeping rounds 1..round_number-1 as drawn and seating the
    entrants of `round_number` from there on."""
    players = [key(e.player_id) for e in entrants(tournament, round_number)]
    played = drawn_rounds(tournament, round_number - 1)
    return seating.plan(players, tournament.rounds, seed=tournament.seed, played=played)


def plan_figure(tournament: Tournament) -> int | None:
    """The most times any two players meet over the whole tournament: the rounds drawn, and the
    plan of the rounds still to come for the current entrants."""
    drawn = tournament.current_round
    if drawn >= tournament.rounds:
        return seating.max_meetings(drawn_rounds(tournament, drawn))
    if len(entrants(tournament, drawn + 1)) < MIN_PLAYERS:
        return None
    return seating.max_meetings(full_plan(tournament, drawn + 1))


def _refresh_figure(tournament: Tournament) -> None:
    tournament.planned_max_meetings = plan_figure(tournament)
    tournament.save(update_fields=["planned_max_meetings"])


def round_hands(tournament: Tournament, round_number: int) -> dict[int, tuple[int, int]]:
    """table id -> (table number, hands entered) for the round's tables: one query."""
    rows = (
        Table.objects.filter(night_id=tournament.night_id, round_number=round_number)
        .annotate(n=Count("hands"))
        .values_list("pk", "number", "n")
    )
    return {pk: (number, n) for pk, number, n in rows}


def incomplete_tables(tournament: Tournament) -> list[IncompleteTable]:
    """The current round's tables with fewer hands than a round has."""
    if tournament.current_round == 0:
        return []
    tables = round_hands(tournament, tournament.current_round).values()
    return [
        IncompleteTable(number, hands)
        for number, hands in sorted(tables)
        if hands < tournament.hands_per_round
    ]


# -- changes -------------------------------------------------------------------------------------


def _locked(tournament: Tournament) -> Tournament:
    """The tournament locked after its night, the lock every write of a night takes first
    (club.play.services.locks): a round closing and a hand being saved at its tables take turns."""
    try:
        night = lock_night(tournament.night_id)
    except NightGone as gone:
        raise TournamentError(str(gone)) from None
    locked = Tournament.objects.select_for_update(of=("self",)).get(pk=tournament.pk)
    locked.night = night
    return locked


def _audit(
    tournament: Tournament,
    user: User | None,
    action: str,
    subject: str,
    before: object = None,
    after: object = None,
) -> None:
    AuditEvent.objects.create(
        club_id=tournament.club_id,
        night_id=tournament.night_id,
        user=user,
        action=action,
        subject=subject[:120],
        before=before,
        after=after,
    )


def create_tournament(
    club: Club,
    *,
    season: Season,
    date: dt.date,
    name: str,
    rounds: int,
    hands_per_round: int,
    scoring_method: Method | str = Method.AMOUNTS,
    is_public: bool = False,
    counts_in_standings: bool = True,
    players: Sequence[Player] = (),
    new_names: Sequence[str] = (),
    seed: int | None = None,
    director: User | None = None,
    form_token: uuid.UUID | None = None,
) -> Tournament:
    """A tournament with its night (titled with its name) and its first entrants: `players`, and
    `new_names` added to the club (or found in it, ignoring case). The hands are scored under the
    season's rule set, as on any night of the season. Without a `seed`, a random one is drawn and
    stored, so the seats can always be drawn again the same way. `form_token` is the creating
    form's one-time token, kept on the night (unique): a second tournament from the same form
    fails with IntegrityError (see `tournament_of_form`)."""
    if season.club_id != club.pk:
        raise TournamentError(f"{season} is not a season of {club}.")
    if any(p.club_id != club.pk for p in players):
        raise TournamentError("Only the club's own players can be entered.")
    with transaction.atomic():
        night = Night.objects.create(
            season=season,
            date=date,
            title=name,
            counts_in_standings=counts_in_standings,
            form_token=form_token,
        )
        tournament = Tournament.objects.create(
            club=club,
            night=night,
            name=name,
            rounds=rounds,
            hands_per_round=hands_per_round,
            scoring_method=Method(scoring_method).value,
            is_public=is_public,
            seed=secrets.randbelow(2**31) if seed is None else seed,
            director=director,
        )
        players = [*players, *add_players(club, new_names)]
        unique = list({p.pk: p for p in players}.values())
        Entry.objects.bulk_create(Entry(tournament=tournament, player=p) for p in unique)
        _refresh_figure(tournament)
        _audit(
            tournament,
            director,
            AuditEvent.Action.CREATE,
            f"Tournament {name}",
            after={
                "rounds": rounds,
                "hands per round": hands_per_round,
                "scoring": tournament.get_scoring_method_display(),
                "counts in the standings": "yes" if counts_in_standings else "no",
                "entries": ", ".join(sorted(p.name for p in unique)),
            },
        )
    return tournament


def tournament_of_form(club: Club, form_token: uuid.UUID | None) -> Tournament | None:
    """The club's tournament that the form with this one-time token created, if any."""
    if form_token is None:
        return None
    return Tournament.objects.filter(club=club, night__form_token=form_token).first()


def _draw_round(tournament: Tournament, round_number: int, user: User | None) -> list[Table]:
    """Create the tables of `round_number` from the plan and store the plan's figure."""
    players = entrants(tournament, round_number)
    if len(players) < MIN_PLAYERS:
        raise TournamentError(
            f"Round {round_number} needs at least {MIN_PLAYERS} players, "
            f"and {len(players)} {'is' if len(players) == 1 else 'are'} entered for it."
        )
    plan = full_plan(tournament, round_number)
    drawn = plan[round_number - 1]
    tables = Table.objects.bulk_create(
        Table(night_id=tournament.night_id, round_number=round_number, number=n, first_dealer=0)
        for n in range(1, len(drawn) + 1)
    )
    Seat.objects.bulk_create(
        Seat(table=table, position=position, player_id=int(player))
        for table, seats in zip(tables, drawn, strict=True)
        for position, player in enumerate(seats)
    )
    tournament.planned_max_meetings = seating.max_meetings(plan)
    names = {e.player_id: e.player.name for e in players}
    _audit(
        tournament,
        user,
        AuditEvent.Action.CREATE,
        f"Round {round_number} seats",
        after={
            f"table {n}": ", ".join(names[int(p)] for p in seats)
            for n, seats in enumerate(drawn, start=1)
        },
    )
    return tables


def _round_started(tournament: Tournament, round_number: int) -> bool:
    """Whether any hand has been entered in the round, locking its tables first (a scorer
    recording the round's first hand waits for this transaction, as on a club night)."""
    tables = list(
        Table.objects.select_for_update()
        .filter(night_id=tournament.night_id, round_number=round_number)
        .values_list("pk", flat=True)
    )
    return Hand.objects.filter(table_id__in=tables).exists()


def _redraw_current(tournament: Tournament, user: User | None) -> None:
    """Draw the current round's seats again (it has no hands yet) for its entrants as they are."""
    Table.objects.filter(
        night_id=tournament.night_id, round_number=tournament.current_round
    ).delete()
    _draw_round(tournament, tournament.current_round, user)


def start(tournament: Tournament, user: User | None = None) -> Tournament:
    """Open round 1: draw its seats from the plan."""
    with transaction.atomic():
        locked = _locked(tournament)
        if not locked.is_setup:
            raise TournamentError(f"{locked} has started already.")
        if locked.night.is_closed:
            raise TournamentError("Its night is closed: a secretary must reopen it first.")
        _draw_round(locked, 1, user)
        locked.current_round = 1
        locked.status = Tournament.Status.RUNNING
        locked.save(update_fields=["current_round", "status", "planned_max_meetings"])
    return locked


def close_round(
    tournament: Tournament, user: User | None = None, anyway: bool = False
) -> Tournament:
    """Close the current round and open the next (its seats drawn from the plan), or finish the
    tournament after its last round (which closes its night). Refused with RoundIncomplete while
    a table has fewer hands than a round has, unless `anyway`."""
    with transaction.atomic():
        locked = _locked(tournament)
        if not locked.is_running:
            raise TournamentError(
                f"{locked} is not running: "
                + ("start it first." if locked.is_setup else "it has finished.")
            )
        if locked.night.is_closed:
            raise TournamentError("Its night is closed: a secretary must reopen it first.")
        round_number = locked.current_round
        tables = round_hands(locked, round_number)
        short = [
            IncompleteTable(number, hands)
            for number, hands in sorted(tables.values())
            if hands < locked.hands_per_round
        ]
        if short and not anyway:
            raise RoundIncomplete(round_number, locked.hands_per_round, short)
        _audit(
            locked,
            user,
            AuditEvent.Action.CLOSE,
            f"Round {round_number}" + (" (closed anyway)" if short else ""),
            before={f"table {t.number}": f"{t.hands} hands" for t in short} or None,
            after={f"table {n}": f"{h} hands" for n, h in sorted(tables.values())},
        )
        if round_number >= locked.rounds:
            locked.status = Tournament.Status.FINISHED
            locked.save(update_fields=["status"])
            try:
                close_night(locked.night, user)
            except HandConflict as error:  # pragma: no cover - checked above, under the lock
                raise TournamentError(str(error)) from None
        else:
            _draw_round(locked, round_number + 1, user)
            locked.current_round = round_number + 1
            locked.save(update_fields=["current_round", "planned_max_meetings"])
    return locked


def add_entries(
    tournament: Tournament,
    players: Sequence[Player],
    user: User | None = None,
    new_names: Sequence[str] = (),
) -> list[Entry]:
    """Enter players (and `new_names`, added to the club or found in it). Before the first round
    they play from round 1; once it runs, from the next round, or from the current round when it
    has no hands yet (its seats are drawn again). A player who withdrew before missing any round
    is entered again."""
    with transaction.atomic():
        locked = _locked(tournament)
        chosen = [*players, *add_players(locked.club, new_names)]
        players = list({p.pk: p for p in chosen}.values())
        if locked.is_finished:
            raise TournamentError(f"{locked} has finished: no more entries.")
        redraw = locked.is_running and not _round_started(locked, locked.current_round)
        joins = locked.current_round if redraw else locked.next_round
        if joins > locked.rounds:
            raise TournamentError(
                f"Round {locked.current_round} is the last and under way: no more entries."
            )
        existing = {e.player_id: e for e in Entry.objects.filter(tournament=locked)}
        added: list[Entry] = []
        for player in players:
            if player.club_id != locked.club_id:
                raise TournamentError(f"{player} is not a player of this club.")
            entry = existing.get(player.pk)
            if entry is None:
                entry = Entry.objects.create(tournament=locked, player=player, joined_round=joins)
            elif entry.withdrawn_after_round is None:
                raise TournamentError(f"{player} is entered already.")
            elif entry.withdrawn_after_round >= joins - 1:
                entry.withdrawn_after_round = None  # back before missing a round
                entry.save(update_fields=["withdrawn_after_round"])
            else:
                raise TournamentError(
                    f"{player} withdrew after round {entry.withdrawn_after_round} and has "
                    "missed a round since, so cannot come back."
                )
            added.append(entry)
        if not added:
            return added
        if redraw:
            _redraw_current(locked, user)
        locked.planned_max_meetings = plan_figure(locked)
        locked.save(update_fields=["planned_max_meetings"])
        _audit(
            locked,
            user,
            AuditEvent.Action.CREATE,
            "Entries",
            after={"entered": ", ".join(e.player.name for e in added), "from round": joins},
        )
    return added


@dataclass(frozen=True)
class Withdrawal:
    entry: Entry | None  # the entry kept, with its last round; None when it went altogether
    redrawn: bool  # the current round had no hands, so its seats were drawn again


def withdraw(tournament: Tournament, player: Player, user: User | None = None) -> Withdrawal:
    """Withdraw a player. Before the first round, or before the round they joined is drawn, the
    entry goes; once they have played, they finish the current round and leave after it, unless
    it has no hands yet, when its seats are drawn again without them. At least 3 players must
    remain for the next round."""
    with transaction.atomic():
        locked = _locked(tournament)
        if locked.is_finished:
            raise TournamentError(f"{locked} has finished.")
        entry = Entry.objects.filter(tournament=locked, player=player).first()
        if entry is None or entry.is_withdrawn:
            raise TournamentError(f"{player} is not entered.")
        redraw = locked.is_running and not _round_started(locked, locked.current_round)
        # The last round this player is seated in from now on.
        last = locked.current_round - 1 if redraw else locked.current_round
        if last < entry.joined_round:
            before = {"entered": player.name, "from round": entry.joined_round}
            entry.delete()
            kept = None
        else:
            before = None
            entry.withdrawn_after_round = last
            entry.save(update_fields=["withdrawn_after_round"])
            kept = entry
        next_round = last + 1
        if locked.is_running and next_round <= locked.rounds:
            remaining = len(entrants(locked, next_round))
            if remaining < MIN_PLAYERS:
                raise TournamentError(
                    f"Only {remaining} player{'s' if remaining != 1 else ''} would be left for "
                    f"round {next_round}: a round needs at least {MIN_PLAYERS}."
                )
        if redraw:
            _redraw_current(locked, user)
        locked.planned_max_meetings = plan_figure(locked)
        locked.save(update_fields=["planned_max_meetings"])
        _audit(
            locked,
            user,
            AuditEvent.Action.UPDATE if kept else AuditEvent.Action.DELETE,
            f"Withdrawal of {player.name}",
            before=before,
            after={"withdrawn after round": last} if kept else None,
        )
    return Withdrawal(kept, redraw)


def update_settings(
    tournament: Tournament,
    *,
    name: str,
    rounds: int,
    hands_per_round: int,
    scoring_method: Method | str,
    is_public: bool,
    counts_in_standings: bool,
    extra_hands_allowed: bool | None = None,
    user: User | None = None,
) -> Tournament:
    """Change the name, rounds, hands per round, scoring method, whether the event is public,
    whether it counts in the season standings and (when given) whether tables may save hands past
    the round's number. The rounds cannot go below the round in play, nor change once the
    tournament has finished."""
    with transaction.atomic():
        locked = _locked(tournament)
        if locked.night.is_closed:
            raise TournamentError(
                f"{locked}'s night is closed: a secretary must reopen it before its settings "
                "change."
            )
        if rounds != locked.rounds:
            if locked.is_finished:
                raise TournamentError(f"{locked} has finished: its rounds cannot change.")
            if rounds < max(1, locked.current_round):
                raise TournamentError(
                    f"Round {locked.current_round} is in play: the tournament cannot have fewer "
                    "rounds than that."
                )
        fields = {
            "name": name,
            "rounds": rounds,
            "hands_per_round": hands_per_round,
            "scoring_method": Method(scoring_method).value,
            "is_public": is_public,
        }
        if extra_hands_allowed is not None:
            fields["extra_hands_allowed"] = extra_hands_allowed
        before = {k: getattr(locked, k) for k in fields}
        before["counts_in_standings"] = locked.night.counts_in_standings
        for field, value in fields.items():
            setattr(locked, field, value)
        locked.save(update_fields=list(fields))
        night = locked.night
        night.title = name
        night.counts_in_standings = counts_in_standings
        night.save(update_fields=["title", "counts_in_standings"])
        if before["rounds"] != rounds:
            _refresh_figure(locked)
        after = fields | {"counts_in_standings": counts_in_standings}
        changed = {k for k in after if after[k] != before[k]}
        if changed:
            _audit(
                locked,
                user,
                AuditEvent.Action.UPDATE,
                "Tournament settings",
                before={k: before[k] for k in sorted(changed)},
                after={k: after[k] for k in sorted(changed)},
            )
    return locked
