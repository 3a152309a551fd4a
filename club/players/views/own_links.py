"""The secretary's side of a player's own link: show it with its QR code (for a player with no
email, or one who lost it), re-issue it (the old one leaked: it stops working at once) or revoke
it (the next results email issues a new one). Each change asks to confirm first (the page the
tables' links and cards use, club.play.views.tokens) and is audited
(club.play.services.tokens). Only the club's secretaries: anyone else gets the 404 or log-in of
any page that is not theirs.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from club.clubs.models import Club, Player
from club.clubs.queries import access
from club.clubs.queries.access import login_if_hidden
from club.play.services import player_links
from club.play.views.table_links import qr_svg
from club.play.views.tokens import Issued


def _player(request: HttpRequest, slug: str, player_id: int) -> tuple[Club, Player]:
    """A player of this club, for its secretary only (404 or log-in for anyone else)."""
    club = access.get_club(request, slug, access.MANAGE)
    return club, access.club_player(club, player_id)


def _issued(club: Club, player: Player) -> Issued:
    name = player.name
    return Issued(
        holder=player_links.holder(player),
        owner=name,
        noun="own link",
        back=reverse("player_own_link", args=[club.slug, player.pk]),
        revoke_means=(
            f"{name}'s own link stops working at once: whoever has it (an old results email, a "
            'forwarded one) gets "not found". The next results email gives a new link.'
        ),
        reissue_means=(
            f"{name}'s own link stops working at once and a new one is made: show {name} the "
            "new QR code or send the new link. Their next results email has it too."
        ),
        revoked=f"{name}'s own link is revoked: it opens nothing now.",
        not_live=f"{name} had no live own link.",
        reissued=f"{name} has a new own link: the old one no longer works.",
    )


@never_cache
@login_if_hidden
@require_http_methods(["GET", "HEAD"])
def player_own_link(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """The player's live own link and its QR code; a button to issue one when there is none (a
    GET writes nothing: a revoked link stays revoked until the secretary or an email issues)."""
    club, player = _player(request, slug, player_id)
    link = player_links.live_link(player)
    context: dict[str, object] = {"club": club, "player": player, "link": link}
    if link is not None:
        url = request.build_absolute_uri(reverse("player_own", args=[club.slug, link.token]))
        context.update(url=url, qr=qr_svg(url, f"{player.name}'s own link"))
    response = render(request, "players/own/link.html", context)
    response["Referrer-Policy"] = "no-referrer"
    return response


def _change(request: HttpRequest, slug: str, player_id: int, revoking: bool) -> HttpResponse:
    """GET: what revoking (or re-issuing) means; POST: do it."""
    club, player = _player(request, slug, player_id)
    issued = _issued(club, player)
    if request.method == "POST":
        user = access.acting_user(request)
        if revoking:
            if player_links.revoke(player, user):
                messages.success(request, issued.revoked)
            else:
                messages.info(request, issued.not_live)
        else:
            had_one = player_links.live_link(player) is not None
            player_links.reissue(player, user)
            if had_one:
                messages.success(request, issued.reissued)
            else:
                messages.success(request, f"{player.name} has an own link now: show its QR code.")
        return redirect(issued.back)
    context = {"club": club, "issued": issued, "revoking": revoking}
    return render(request, "play/tokens/change.html", context)


@login_if_hidden
@require_http_methods(["GET", "POST"])
def player_own_link_reissue(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    return _change(request, slug, player_id, revoking=False)


@login_if_hidden
@require_http_methods(["GET", "POST"])
def player_own_link_revoke(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    return _change(request, slug, player_id, revoking=True)


urlpatterns = [
    path("players/<int:player_id>/own-link/", player_own_link, name="player_own_link"),
    path(
        "players/<int:player_id>/own-link/reissue/",
        player_own_link_reissue,
        name="player_own_link_reissue",
    ),
    path(
        "players/<int:player_id>/own-link/revoke/",
        player_own_link_revoke,
        name="player_own_link_revoke",
    ),
]
