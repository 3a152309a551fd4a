"""Setting a club up: its rule sets, its players and its members (used by forms, seed_demo and
tests alike, so that there is one way to set things up)."""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils.crypto import get_random_string

import scoring
from club.clubs.models import Club, Membership, Player, Role, RuleSet
from club.lib.money import unit_mismatch
from club.lib.names import name_key, normalise_name


class SetupError(Exception):
    """A set-up change that would leave the club unusable; the message says why."""


class UnitMismatch(SetupError):
    """A rule set whose stakes count in another currency than the club's: its amounts would be
    shown in the club's money (618 cents as £6.18)."""


def check_unit(club: Club, rules: scoring.RuleSet) -> None:
    """Refuse rules counting in another currency than the club's (UnitMismatch, naming both)."""
    problem = unit_mismatch(club, rules.unit)
    if problem is not None:
        raise UnitMismatch(problem)


def rule_set_from_preset(club: Club, preset: str, name: str | None = None) -> RuleSet:
    rules = scoring.preset(preset)
    check_unit(club, rules)
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
    """A rule set from rules the scoring core has validated (stored as its plain dict), counting
    in the club's unit (UnitMismatch otherwise)."""
    check_unit(club, rules)
    return RuleSet.objects.create(
        club=club, name=name, preset=preset, data=rules.copy(name=name).to_dict()
    )


def copy_rule_set(rule_set: RuleSet, name: str | None = None) -> RuleSet:
    """A new, unused rule set with the same stakes and options, to change instead of a used one."""
    club = rule_set.club
    name = name or unique_rule_set_name(club, f"{rule_set.name} (copy)")
    return create_rule_set(club, name, rule_set.rules, preset=rule_set.preset)


MAX_NEW_PLAYERS = 40  # a night's eight tables of five: more in one go is a mistake or an attack


def player_named(club: Club, name: str) -> Player | None:
    """The club's player whose name is this one, ignoring case, invisible characters and the
    way accents were typed (club.lib.names)."""
    key = name_key(name)
    return (
        club.players.filter(Q(name_key=key) | Q(name_key__isnull=True, name__iexact=name))
        .order_by("pk")
        .first()
    )


def add_players(club: Club, names: Iterable[str]) -> list[Player]:
    """Players by name, all or none: new ones are created, and a name that matches (ignoring case)
    a player marked inactive brings that player back. At most MAX_NEW_PLAYERS at a time."""
    names = [normalise_name(n) for n in names]
    if len(names) > MAX_NEW_PLAYERS:
        raise SetupError(f"Add at most {MAX_NEW_PLAYERS} players at a time.")
    # Refused, not cut: a name cut short is another person's name, and PostgreSQL refuses the
    # whole one (SQLite would keep it whole, past the column's size).
    limit = Player._meta.get_field("name").max_length
    assert limit is not None  # a CharField's
    too_long = next((n for n in names if len(n) > limit), None)
    if too_long is not None:
        raise SetupError(
            f"{too_long[:30]}... is too long for a name: at most {limit} characters "
            f"(this one has {len(too_long)})."
        )
    with transaction.atomic():
        players = []
        for name in names:
            if not name:
                continue
            player = player_named(club, name)
            if player is None:
                player = Player.objects.create(club=club, name=name)
            elif not player.active:
                player.active = True
                player.save(update_fields=["active"])
            players.append(player)
        return players


def _secretaries(club: Club) -> int:
    """How many secretaries the club has, locking their rows so that two secretaries demoting
    each other at once cannot leave the club with none."""
    return len(Membership.objects.select_for_update().filter(club=club, role=Role.SECRETARY))


def add_member(club: Club, user: User, role: str) -> Membership:
    return Membership.objects.create(club=club, user=user, role=role)


def create_user_member(club: Club, username: str, role: str, email: str = "") -> tuple[User, str]:
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
