"""Who may do what in which club. Every view fetches its objects through these helpers, so another
club's data is a 404 whatever URL is typed (the healthchecks pattern: one helper per object)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, Concatenate, ParamSpec

from django.contrib.auth.models import AnonymousUser, User
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from club.clubs.models import Club, Membership, Player, Role, RuleSet, Season
from club.core.prepared import PreparedRead
from club.lib import zones

P = ParamSpec("P")

View = Callable[..., HttpResponse]

# What each role may do; a higher role may do everything a lower one may.
READ, SCORE, MANAGE = "read", "score", "manage"
_ROLE_POWERS = {
    Role.VIEWER: {READ},
    Role.SCORER: {READ, SCORE},
    Role.SECRETARY: {READ, SCORE, MANAGE},
}


def acting_user(request: HttpRequest) -> User | None:
    """Whom a write is audited under: the signed-in user, or None (a player at a table's link)."""
    user = request.user
    return user if isinstance(user, User) else None


def signed_in(request: HttpRequest) -> User:
    """The user of a page that only a signed-in member reaches (its role check let them in)."""
    user = request.user
    if not isinstance(user, User):
        raise PermissionDenied("Log in first.")
    return user


# Read by every page a member opens: compiled once (club.core.prepared).
_MEMBERSHIPS = PreparedRead(lambda user_id: Membership.objects.filter(user_id=user_id), [int])
_CLUB = PreparedRead(lambda slug: Club.objects.filter(slug=slug), [str])


def membership(user: User | AnonymousUser, club: Club) -> Membership | None:
    if not user.is_authenticated:
        return None
    cache = getattr(user, "_club_memberships", None)
    if cache is None:
        cache = {m.club_id: m for m in _MEMBERSHIPS.rows(user.pk)}
        # Kept on the request's user object, so a page asks the database once.
        user._club_memberships = cache  # type: ignore[attr-defined]
    return cache.get(club.pk)


def can(user: User | AnonymousUser, club: Club, power: str) -> bool:
    member = membership(user, club)
    if member is None:
        return power == READ and club.is_public
    return power in _ROLE_POWERS[Role(member.role)]


def may_add_players(user: User | AnonymousUser, club: Club) -> bool:
    """New players (or inactive ones brought back) come from a secretary, or from a table scorer
    when the club's settings allow it."""
    return can(user, club, MANAGE) or (club.scorers_add_players and can(user, club, SCORE))


def sees_money_owed(user: User | AnonymousUser, club: Club, player: Player) -> bool:
    """Money owed by or to a player is for the club's secretaries and for the member whose
    claimed record it is (and, by the player's own link, the player: club.players), never for
    the other members or the public."""
    if can(user, club, MANAGE):
        return True
    return user.is_authenticated and player.user_id is not None and player.user_id == user.pk


def require(request: HttpRequest, club: Club, power: str) -> None:
    """404 when the user may not see the club at all, 403 when they may see but not do."""
    zones.activate(club)  # the page's dates and times are the club's
    if can(request.user, club, power):
        return
    if not can(request.user, club, READ):
        raise Http404("No such club")
    raise PermissionDenied(refusal(request.user, club, power))


# Who may do what, in the words the refusal page uses.
_POWER_HOLDERS = {SCORE: "its table scorers and secretaries", MANAGE: "its secretaries"}


def refusal(user: User | AnonymousUser, club: Club, power: str) -> str:
    """Why this user may not: "You are a viewer of Crown & Anchor: that is for its secretaries."."""
    member = membership(user, club)
    who = f"a {Role(member.role).label.lower()}" if member else "not a member"
    return f"You are {who} of {club.name}: that is for {_POWER_HOLDERS.get(power, 'others')}."


def login_if_hidden(view: View) -> View:
    """Send anonymous visitors to log in when the page is not theirs to see (a private club, or a
    change on a public one), instead of a bare 404 or 403. Signed-in users get the 404/403."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except (Http404, PermissionDenied) as error:
            if request.user.is_authenticated:
                raise
            public = Club.objects.filter(slug=kwargs.get("slug"), is_public=True).exists()
            if isinstance(error, Http404) and public:
                raise  # a missing page of a public club
            return redirect_to_login(request.get_full_path())

    return wrapper


def _club(slug: str) -> Club:
    found = _CLUB.rows(slug)
    if not found:
        raise Http404("No such club")
    return found[0]


def club_or_404(slug: str) -> Club:
    """The club a URL names, for pages that check who may see it themselves (a signed link, a
    player's own page); its dates and times are on the club's clock from here on."""
    club = _club(slug)
    zones.activate(club)
    return club


def get_club(request: HttpRequest, slug: str, power: str = READ) -> Club:
    club = _club(slug)  # login_if_hidden answers as for a private club
    require(request, club, power)
    return club


# Objects of the club: fetched through the club, so another club's id is a 404. The caller has
# checked the user's role with get_club first.


def club_player(club: Club, player_id: int) -> Player:
    return get_object_or_404(Player, pk=player_id, club=club)


def club_season(club: Club, season_id: int) -> Season:
    return get_object_or_404(Season, pk=season_id, club=club)


def club_rule_set(club: Club, rule_set_id: int) -> RuleSet:
    return get_object_or_404(RuleSet, pk=rule_set_id, club=club)


def club_member(club: Club, member_id: int) -> Membership:
    return get_object_or_404(Membership.objects.select_related("user"), pk=member_id, club=club)


def user_clubs(user: User | AnonymousUser) -> list[Club]:
    if not user.is_authenticated:
        return list(Club.objects.filter(is_public=True))
    return list(Club.objects.filter(memberships__user=user).distinct())


def club_reader(
    view: Callable[Concatenate[HttpRequest, Club, P], HttpResponse],
) -> Callable[Concatenate[HttpRequest, str, P], HttpResponse]:
    """Pass the club to a read-only page: members, or anyone when the club is public. For a
    private club an anonymous visitor is asked to log in, and anyone else gets a 404."""

    @wraps(view)
    def wrapped(request: HttpRequest, slug: str, *args: P.args, **kwargs: P.kwargs) -> HttpResponse:
        club = Club.objects.filter(slug=slug).first()
        if club is None or not can(request.user, club, READ):
            # The same answer for a private club and for one that does not exist, so that an
            # outsider cannot tell which slugs are taken.
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            raise Http404("No such club")
        zones.activate(club)
        return view(request, club, *args, **kwargs)

    return wrapped  # type: ignore[return-value]  # functools.wraps' type keeps the view's own
