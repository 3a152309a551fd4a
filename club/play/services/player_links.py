"""A player's own link through its life: issued the first time a results email or the secretary
needs it, the same token in every email after, revoked or re-issued by the secretary (each an
audit event, through club.play.services.tokens) and revoked when the player is forgotten."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from club.clubs.models import Club, Player
from club.clubs.services import signals as club_signals
from club.play.models import PlayerLink
from club.play.services import tokens


def holder(player: Player) -> tokens.Holder[PlayerLink]:
    """A player's link as the token module sees it: the player's row is locked while a new link
    is made, so two requests issuing at once make one live link."""
    return tokens.Holder(
        club_id=player.club_id,
        subject=f"{player.name}'s own link",
        live=PlayerLink.objects.filter(player=player),
        fresh=lambda user: PlayerLink.fresh(player.pk, user),
        lock=Player.objects.filter(pk=player.pk),
    )


def live_link(player: Player) -> PlayerLink | None:
    return PlayerLink.objects.filter(player=player, revoked_at=None).first()


def token_for(player: Player, by: User | None = None) -> str:
    """The player's live token, issued now if the player has none (first email, or after the
    secretary revoked the last one)."""
    link = live_link(player)
    if link is not None:
        return link.token
    with transaction.atomic():
        Player.objects.select_for_update().filter(pk=player.pk).first()
        link = live_link(player)  # another request may have issued it while this one waited
        if link is None:
            link = tokens.issue(holder(player), by)
    return link.token


def tokens_for(players: list[Player]) -> dict[int, str]:
    """player id -> live token for many players at once: one query, plus one issue for each
    player who has no live link yet."""
    live = {
        link.player_id: link.token
        for link in PlayerLink.objects.filter(player__in=players, revoked_at=None)
    }
    return {p.pk: live[p.pk] if p.pk in live else token_for(p) for p in players}


def reissue(player: Player, by: User | None) -> str:
    """A new token for the player; the old one is a 404 from now on."""
    return tokens.reissue(holder(player), by).token


def revoke(player: Player, by: User | None) -> bool:
    """The player's link stops working; the next results email issues a new one. False if the
    player had no live link."""
    return tokens.revoke(holder(player), by)


def find(club: Club, token: str) -> Player | None:
    """The player the token opens in this club; None for a revoked, re-issued, made-up or
    another club's token (one query)."""
    link = tokens.find(PlayerLink.objects.filter(player__club=club).select_related("player"), token)
    return link.player if link is not None else None


def _player_forgotten(sender: object, player: Player, **kwargs: object) -> None:
    # A forgotten player's page would show the nights of someone who asked to be forgotten.
    PlayerLink.objects.filter(player=player, revoked_at=None).update(revoked_at=timezone.now())


def connect() -> None:
    club_signals.player_forgotten.connect(
        _player_forgotten, dispatch_uid="play.player_links.player_forgotten"
    )
