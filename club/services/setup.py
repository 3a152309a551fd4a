"""Creating clubs, rule sets, seasons and nights with their tables (used by forms, seed_demo and
tests alike, so that there is one way to set things up), and the club's members."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.crypto import get_random_string

import scoring
from club.models import (
    AuditEvent,
    Club,
    Membership,
    Night,
    Player,
    Role,
    RuleSet,
    Season,
    Seat,
    Table,
)


class SetupError(Exception):
    """A set-up change that would leave the club unusable; the message says why."""


def rule_set_from_preset(club: Club, preset: str, name: str | None = None) -> RuleSet:
    rules = scoring.preset(preset)
    return RuleSet.objects.create(
        club=club, name=name or rules.name, preset=preset, data=rules.to_dict()
    )


def unique_rule_set_name(club: Club, wanted: str) -> str:
    """`wanted`, or "wanted (2)", "wanted (3)"... whichever is free in the club."""
    taken = {n.lower() for n in club.rule_sets.values_list("name", flat=True)}
    name, n = wanted[:80], 2
    while name.lower() in taken:
        suffix = f" ({n})"
        name = wanted[: 80 - len(suffix)] + suffix
        n += 1
    return name


def create_rule_set(club: Club, name: str, rules: scoring.RuleSet, preset: str = "") -> RuleSet:
    """A rule set from rules the scoring core has validated (stored as its plain dict)."""
    return RuleSet.objects.create(
        club=club, name=name, preset=preset, data=rules.copy(name=name).to_dict()
    )


def copy_rule_set(rule_set: RuleSet, name: str | None = None) -> RuleSet:
    """A new, unused rule set with the same stakes and options, to change instead of a used one."""
    club = rule_set.club
    name = name or unique_rule_set_name(club, f"{rule_set.name} (copy)")
    return create_rule_set(club, name, rule_set.rules, preset=rule_set.preset)


def add_players(club: Club, names: Iterable[str]) -> list[Player]:
    """Players by name, all or none: new ones are created, and a name that matches (ignoring case)
    a player marked inactive brings that player back."""
    with transaction.atomic():
        players = []
        for name in names:
            player = club.players.filter(name__iexact=name).first()
            if player is None:
                player = Player.objects.create(club=club, name=name)
            elif not player.active:
                player.active = True
                player.save(update_fields=["active"])
            players.append(player)
        return players


def create_night(
    season: Season,
    date: dt.date,
    tables: Sequence[tuple[Sequence[Player], int]],
    title: str = "",
    user: AbstractBaseUser | None = None,
) -> Night:
    """A night with its tables: each a list of players in seat order and the first dealer's seat
    (0-based). With a `user`, the audit trail records who set the night up."""
    with transaction.atomic():
        night = Night.objects.create(season=season, date=date, title=title)
        for number, (players, first_dealer) in enumerate(tables, start=1):
            scoring.table.check_table_size([str(p.pk) for p in players])
            if not 0 <= first_dealer < len(players):
                raise scoring.InvalidHand(
                    f"Table {number} has no seat {first_dealer + 1} for the first dealer"
                )
            table = Table.objects.create(night=night, number=number, first_dealer=first_dealer)
            Seat.objects.bulk_create(
                Seat(table=table, position=i, player=p) for i, p in enumerate(players)
            )
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


def _secretaries(club: Club) -> int:
    """How many secretaries the club has, locking their rows so that two secretaries demoting
    each other at once cannot leave the club with none."""
    return len(Membership.objects.select_for_update().filter(club=club, role=Role.SECRETARY))


def add_member(club: Club, user: AbstractBaseUser, role: str) -> Membership:
    return Membership.objects.create(club=club, user=user, role=role)


def create_user_member(
    club: Club, username: str, role: str, email: str = ""
) -> tuple[AbstractBaseUser, str]:
    """A new user account with a temporary password (returned once, to hand over) and its
    membership of the club."""
    password = get_random_string(12, "abcdefghjkmnpqrstuvwxyz23456789")
    with transaction.atomic():
        user = get_user_model().objects.create_user(
            username=username, email=email, password=password
        )
        add_member(club, user, role)
    return user, password


def change_role(member: Membership, role: str) -> None:
    with transaction.atomic():
        if member.is_secretary and role != Role.SECRETARY and _secretaries(member.club) <= 1:
            raise SetupError(
                f"{member.user} is the club's only secretary: make someone else secretary first."
            )
        member.role = role
        member.save(update_fields=["role"])


def remove_member(member: Membership) -> None:
    with transaction.atomic():
        if member.is_secretary and _secretaries(member.club) <= 1:
            raise SetupError(
                f"{member.user} is the club's only secretary: make someone else secretary first."
            )
        member.delete()


def delete_club(club: Club) -> None:
    """Delete a club and everything in it (demo and benchmark data; protected rows go first)."""
    from club.models import Hand, ScoreLine

    with transaction.atomic():
        ScoreLine.objects.filter(season__club=club).delete()
        Hand.objects.filter(table__night__season__club=club).delete()
        Night.objects.filter(season__club=club).delete()
        Season.objects.filter(club=club).delete()
        club.delete()
