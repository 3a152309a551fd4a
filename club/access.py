"""Who may do what in which club. Every view fetches its objects through these helpers, so another
club's data is a 404 whatever URL is typed (the healthchecks pattern: one helper per object)."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from club.models import Club, Membership, Night, Role, Table

# What each role may do; a higher role may do everything a lower one may.
READ, SCORE, MANAGE = "read", "score", "manage"
_ROLE_POWERS = {
    Role.VIEWER: {READ},
    Role.SCORER: {READ, SCORE},
    Role.SECRETARY: {READ, SCORE, MANAGE},
}


def membership(user: User | AnonymousUser, club: Club) -> Membership | None:
    if not user.is_authenticated:
        return None
    cache = getattr(user, "_club_memberships", None)
    if cache is None:
        cache = {m.club_id: m for m in Membership.objects.filter(user=user)}
        user._club_memberships = cache  # type: ignore[union-attr]
    return cache.get(club.pk)


def can(user: User | AnonymousUser, club: Club, power: str) -> bool:
    member = membership(user, club)
    if member is None:
        return power == READ and club.is_public
    return power in _ROLE_POWERS[Role(member.role)]


def require(request: HttpRequest, club: Club, power: str) -> None:
    """404 when the user may not see the club at all, 403 when they may see but not do."""
    if can(request.user, club, power):
        return
    if not can(request.user, club, READ):
        raise Http404("No such club")
    from django.core.exceptions import PermissionDenied

    raise PermissionDenied("Your role in this club does not allow this")


def get_club(request: HttpRequest, slug: str, power: str = READ) -> Club:
    club = get_object_or_404(Club, slug=slug)
    require(request, club, power)
    return club


def get_night(request: HttpRequest, club: Club, night_id: int, power: str = READ) -> Night:
    night = get_object_or_404(
        Night.objects.select_related("season", "season__rule_set", "season__club"),
        pk=night_id,
        season__club=club,
    )
    require(request, club, power)
    return night


def get_table(request: HttpRequest, club: Club, table_id: int, power: str = READ) -> Table:
    table = get_object_or_404(
        Table.objects.select_related("night", "night__season", "night__season__rule_set"),
        pk=table_id,
        night__season__club=club,
    )
    require(request, club, power)
    return table


def user_clubs(user: User | AnonymousUser) -> list[Club]:
    if not user.is_authenticated:
        return list(Club.objects.filter(is_public=True))
    return list(Club.objects.filter(memberships__user=user).distinct())
