"""Who may see and do what in a league. Every league view fetches the league through these, so a
league its reader may not see is a 404, whatever URL is typed (never a 403: a private league's
existence is not told to outsiders).

- The organiser sees and runs everything.
- A member of a club playing in the league (any role) reads the league; its secretaries act for
  their club (answer the invitation, name players, submit cards).
- Anyone reads a public league's table and fixtures; a private league is a 404 to them.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet
from django.http import Http404

from club.clubs.models import Membership, Role
from club.leagues.models import League, LeagueClub


def _is_organiser(user: User | AnonymousUser, league: League) -> bool:
    return bool(user.is_authenticated and league.organiser_id == user.pk)


def entries_of(
    user: User | AnonymousUser, league: League, role: str | None = None
) -> QuerySet[LeagueClub]:
    """The league's entries (playing or invited) of clubs where `user` is a member, with `role`
    when given."""
    if not user.is_authenticated:
        return LeagueClub.objects.none()
    memberships = Membership.objects.filter(user=user)
    if role is not None:
        memberships = memberships.filter(role=role)
    return LeagueClub.objects.filter(
        league=league, club__in=memberships.values("club")
    ).select_related("club")


def may_read(user: User | AnonymousUser, league: League) -> bool:
    return (
        league.is_public
        or _is_organiser(user, league)
        or entries_of(user, league).filter(status=LeagueClub.Status.ACCEPTED).exists()
    )


def league_or_404(slug: str) -> League:
    league = League.objects.select_related("host_club").filter(slug=slug).first()
    if league is None:
        raise Http404("No such league")
    return league


def readable_league(user: User | AnonymousUser, slug: str) -> League:
    """The league, for a reader allowed to see it; a 404 otherwise."""
    league = league_or_404(slug)
    if not may_read(user, league):
        raise Http404("No such league")
    return league


def organised_league(user: User | AnonymousUser, slug: str) -> League:
    """The league, for its organiser only; a 404 for anyone else, club secretaries included."""
    league = league_or_404(slug)
    if not _is_organiser(user, league):
        raise Http404("No such league")
    return league


def secretary_entry(user: User | AnonymousUser, slug: str, club_slug: str) -> LeagueClub:
    """The entry of `club_slug` in the league, for a secretary of that club; a 404 for anyone
    else (another club's secretary, a scorer, the organiser)."""
    league = league_or_404(slug)
    entry: LeagueClub | None = (
        entries_of(user, league, Role.SECRETARY).filter(club__slug=club_slug).first()
    )
    if entry is None:
        raise Http404("No such league")
    return entry
