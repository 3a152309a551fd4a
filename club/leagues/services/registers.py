"""Who plays for whom: a club names its players for the league season, the organiser matches two
names that are one person and grants transfers (the models: club/leagues/models/registers.py).

A named player is a `LeaguePerson`: a player record claimed by an account is that account's person
in every club that names it, so a claimed player named by a second club is refused at once. An
unclaimed record is a person of its own (the same one again if the club names the record a second
time) until the organiser matches it to another. Each new person gets a seat: a player record in
the league's own club, which sits at the match nights' tables.

A transfer ends the person's live registration and registers him at once with the new club, under
the player record of that club the organiser chooses (so there is no moment in which a third club
could name him first). Every change here locks the league's row, so that two clubs naming one
person at the same moment are served one after the other; the database's constraint
`registration_one_club_a_person` refuses a second live registration whatever happens.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from club.clubs.models import AuditEvent, Club, Player
from club.clubs.services.setup import player_named
from club.leagues.models import League, LeagueClub, LeaguePerson, Registration, Transfer
from club.leagues.services.leagues import LeagueError, log
from club.lib.names import name_key
from club.play.models import Seat

# The Player model's limit on a name: a seat's name with its club in brackets is cut to it.
NAME_LIMIT = 60


class RegisterError(LeagueError):
    """A naming, withdrawal, match or transfer refused; the message says why."""


def _lock(league: League) -> None:
    """Serialise every register change of one league (see the module's docstring)."""
    League.objects.select_for_update().filter(pk=league.pk).first()


def _live(person: LeaguePerson) -> Registration | None:
    return (
        Registration.objects.select_related("entry__club")
        .filter(person=person, ended_at__isnull=True)
        .first()
    )


def _seat_name(league: League, name: str, club: Club) -> str:
    """A name free in the league's own club: the player's, else with the club's in brackets
    ("John Smith (Cults Arms)"), else numbered."""
    host = league.host_club
    if player_named(host, name) is None:
        return name
    suffix = f" ({club.name})"
    candidate = name[: NAME_LIMIT - len(suffix)] + suffix
    n = 2
    while player_named(host, candidate) is not None:
        numbered = f" ({club.name} {n})"
        candidate = name[: NAME_LIMIT - len(numbered)] + numbered
        n += 1
    return candidate[:NAME_LIMIT]


def _new_person(league: League, player: Player, club: Club) -> LeaguePerson:
    # The seat is not linked to the account: the league's club is no club of his (his home
    # across clubs lists the clubs whose records he claimed).
    seat = Player.objects.create(club=league.host_club, name=_seat_name(league, player.name, club))
    return LeaguePerson.objects.create(league=league, name=player.name, user=player.user, seat=seat)


def person_for(league: League, player: Player) -> LeaguePerson:
    """The league's person of a club's player record: the account's person if the record is
    claimed, else the person this record was named as before (who takes the account if the
    record was claimed since), else a new one with its seat."""
    if player.user_id is not None:
        person = LeaguePerson.objects.filter(league=league, user_id=player.user_id).first()
        if person is not None:
            return person
    earlier = (
        Registration.objects.filter(league=league, player=player)
        .select_related("person")
        .order_by("-pk")
        .first()
    )
    if earlier is not None and earlier.person.user_id in (None, player.user_id):
        person = earlier.person
        if person.user_id != player.user_id:
            person.user_id = player.user_id
            person.save(update_fields=["user"])
        return person
    return _new_person(league, player, player.club)


def plays_elsewhere(name: str, club: Club) -> str:
    """The refusal of a person another club named: it names that club."""
    return (
        f"{name} already plays for {club.name} in this league; the organiser can grant a transfer."
    )


def register(entry: LeagueClub, players: Iterable[Player], by: User) -> list[Registration]:
    """Name these players of the entry's club for the league, all or none. A player already
    named by this club is left as he is; a person named by another club is refused, and the
    message names that club."""
    league = entry.league
    if not entry.is_playing:
        raise RegisterError("Only a club playing in the league names players for it.")
    players = list(players)
    foreign = [p.name for p in players if p.club_id != entry.club_id or not p.active]
    if foreign:
        raise RegisterError(f"Not an active player of {entry.club.name}: {', '.join(foreign)}.")
    try:
        with transaction.atomic():
            _lock(league)
            made: list[Registration] = []
            refusals: list[str] = []
            for player in players:
                person = person_for(league, player)
                live = _live(person)
                if live is not None:
                    if live.entry_id != entry.pk:
                        refusals.append(plays_elsewhere(player.name, live.entry.club))
                    continue
                if Registration.objects.filter(
                    league=league, player=player, ended_at__isnull=True
                ).exists():
                    continue  # this record names another person already (after a match)
                made.append(
                    Registration.objects.create(
                        league=league, entry=entry, person=person, player=player, registered_by=by
                    )
                )
            if refusals:
                raise RegisterError(" ".join(refusals))
            if made:
                log(
                    league,
                    by,
                    AuditEvent.Action.CREATE,
                    f"{entry.club.name} named {len(made)} player(s)",
                    after={"club": entry.club.name, "players": [r.person.name for r in made]},
                )
            return made
    except IntegrityError as error:
        # Another request named one of them for another club between our check and our write.
        raise RegisterError(
            "Someone else changed this register at the same moment: look again and retry."
        ) from error


def has_played(person: LeaguePerson, entry: LeagueClub | None = None) -> bool:
    """Whether the person's seat sat at a table of the league's nights (for `entry` only, when
    given: a match night of that club's fixtures)."""
    seats = Seat.objects.filter(
        player_id=person.seat_id, table__night__season__club_id=person.league.host_club_id
    )
    if entry is not None:
        seats = seats.filter(
            Q(table__night__league_fixture__home=entry)
            | Q(table__night__league_fixture__away=entry)
        )
    return seats.exists()


def withdraw(registration: Registration, by: User) -> None:
    """The club takes a name off its register: only before that person plays a match night
    for it (afterwards his results are the club's, and only a transfer moves him)."""
    league = registration.league
    with transaction.atomic():
        _lock(league)
        registration = Registration.objects.select_related("person__league", "entry__club").get(
            pk=registration.pk
        )
        if not registration.is_live:
            raise RegisterError(f"{registration.person.name} is not on the register now.")
        if has_played(registration.person, registration.entry):
            raise RegisterError(
                f"{registration.person.name} has played a match night for "
                f"{registration.entry.club.name}: only the organiser's transfer moves him now."
            )
        registration.ended_at = timezone.now()
        registration.save(update_fields=["ended_at"])
        log(
            league,
            by,
            AuditEvent.Action.DELETE,
            f"{registration.entry.club.name} withdrew {registration.person.name}",
            before={"club": registration.entry.club.name, "player": registration.person.name},
        )


@dataclass(frozen=True)
class Duplicate:
    """Two persons named by different clubs who may be one: the organiser decides."""

    first: Registration
    second: Registration
    reason: str


def _initial_key(name: str) -> tuple[str, str] | None:
    words = name_key(name).replace(".", " ").split()
    if len(words) < 2:
        return None
    return words[0][0], words[-1]


def likely_duplicates(league: League) -> list[Duplicate]:
    """Live names of different clubs, at least one of them unclaimed, whose names are the same
    (ignoring case and invisible characters) or share a surname and first initial."""
    live = list(
        Registration.objects.filter(league=league, ended_at__isnull=True)
        .select_related("person", "entry__club")
        .order_by("person__name", "pk")
    )
    by_name: dict[str, list[Registration]] = defaultdict(list)
    by_initial: dict[tuple[str, str], list[Registration]] = defaultdict(list)
    for reg in live:
        by_name[name_key(reg.person.name)].append(reg)
        key = _initial_key(reg.person.name)
        if key is not None:
            by_initial[key].append(reg)
    found: dict[tuple[int, ...], Duplicate] = {}
    groups = [(g, "the same name") for g in by_name.values()]
    groups += [(g, "the same surname and initial") for g in by_initial.values()]
    for group, reason in groups:
        for i, first in enumerate(group):
            for second in group[i + 1 :]:
                pair = tuple(sorted((first.person_id, second.person_id)))
                if (
                    first.entry_id == second.entry_id
                    or pair in found
                    or (first.person.user_id is not None and second.person.user_id is not None)
                ):
                    continue
                found[pair] = Duplicate(first, second, reason)
    return list(found.values())


def _mergeable(keep: LeaguePerson, duplicate: LeaguePerson) -> tuple[bool, bool]:
    """Refuse two accounts' persons, or two that both sat at match nights (each seat's hands are
    its own); else whether each has played."""
    if keep.user_id and duplicate.user_id and keep.user_id != duplicate.user_id:
        raise RegisterError(
            f"{keep.name} and {duplicate.name} are two accounts' players: they are two people."
        )
    keep_played, duplicate_played = has_played(keep), has_played(duplicate)
    if keep_played and duplicate_played:
        raise RegisterError(
            f"{keep.name} and {duplicate.name} have both played match nights under their own "
            "names: their results cannot be made one."
        )
    return keep_played, duplicate_played


def _merge(keep: LeaguePerson, duplicate: LeaguePerson) -> None:
    """Fold `duplicate` into `keep` (the caller holds the league's lock and checked the live
    registrations): his registrations and transfers become keep's, the seat that has played is
    kept, and the other seat and the duplicate go."""
    _, duplicate_played = _mergeable(keep, duplicate)
    Registration.objects.filter(person=duplicate).update(person=keep)
    Transfer.objects.filter(person=duplicate).update(person=keep)
    keep_seat, spare_seat = keep.seat, duplicate.seat
    if duplicate_played:
        keep_seat, spare_seat = spare_seat, keep_seat
    user_id = keep.user_id or duplicate.user_id
    duplicate.delete()
    if keep.seat_id != keep_seat.pk:
        # The seat that has played stays: keep takes it over, once the duplicate let it go.
        keep.seat = keep_seat
        keep.save(update_fields=["seat"])
    spare_seat.delete()
    if user_id != keep.user_id:
        keep.user_id = user_id
        keep.save(update_fields=["user"])


def match_people(keep: LeaguePerson, duplicate: LeaguePerson, by: User) -> LeaguePerson:
    """The organiser says two persons are one: `duplicate`'s registrations become `keep`'s.
    Refused when both are named by different clubs now: a transfer is needed first."""
    league = keep.league
    if duplicate.league_id != league.pk or duplicate.pk == keep.pk:
        raise RegisterError("Choose two different people of this league.")
    with transaction.atomic():
        _lock(league)
        keep = LeaguePerson.objects.select_related("seat", "league").get(pk=keep.pk)
        duplicate = LeaguePerson.objects.select_related("seat").get(pk=duplicate.pk)
        _mergeable(keep, duplicate)
        keep_live, duplicate_live = _live(keep), _live(duplicate)
        if keep_live and duplicate_live:
            if keep_live.entry_id != duplicate_live.entry_id:
                raise RegisterError(
                    f"{keep.name} plays for {keep_live.entry.club.name} and {duplicate.name} for "
                    f"{duplicate_live.entry.club.name}: one person plays for one club, so grant "
                    "a transfer to make them one."
                )
            raise RegisterError(
                f"{keep_live.entry.club.name} named both {keep.name} and {duplicate.name}: "
                "the club withdraws one of them first."
            )
        before = {"keep": keep.name, "duplicate": duplicate.name}
        _merge(keep, duplicate)
        log(league, by, AuditEvent.Action.UPDATE, f"Same person: {keep.name}", before=before)
    return keep


def grant_transfer(person: LeaguePerson, player: Player, note: str, by: User) -> Transfer:
    """The organiser lets a person play for another club: his live registration ends, and he is
    registered at once with the club of `player` (that club's own record of him, chosen by the
    organiser). If that record is named already as another person, the two are made one."""
    league = person.league
    with transaction.atomic():
        _lock(league)
        person = LeaguePerson.objects.select_related("seat", "league").get(pk=person.pk)
        to_entry = (
            LeagueClub.objects.select_related("club")
            .filter(league=league, club_id=player.club_id, status=LeagueClub.Status.ACCEPTED)
            .first()
        )
        if to_entry is None or not player.active:
            raise RegisterError(f"{player.name} is not a player of a club in this league.")
        live = _live(person)
        if live is None:
            raise RegisterError(
                f"{person.name} is not on any club's register: the club names him itself."
            )
        if live.entry_id == to_entry.pk:
            raise RegisterError(f"{person.name} plays for {to_entry.club.name} already.")
        if player.user_id and person.user_id and player.user_id != person.user_id:
            raise RegisterError(f"{player.name} of {to_entry.club.name} is another account's.")
        live.ended_at = timezone.now()
        live.save(update_fields=["ended_at"])
        named = (
            Registration.objects.select_related("person__seat")
            .filter(league=league, player=player, ended_at__isnull=True)
            .first()
        )
        if named is not None and named.person_id != person.pk:
            _merge(person, named.person)  # his record there named him as another
        elif named is None:
            Registration.objects.create(
                league=league, entry=to_entry, person=person, player=player, registered_by=by
            )
        transfer = Transfer.objects.create(
            league=league,
            person=person,
            from_entry=live.entry,
            to_entry=to_entry,
            note=note[:200],
            granted_by=by,
        )
        log(
            league,
            by,
            AuditEvent.Action.UPDATE,
            f"Transfer: {person.name} to {to_entry.club.name}",
            before={"club": live.entry.club.name},
            after={"club": to_entry.club.name, "note": note[:200]},
        )
    return transfer
