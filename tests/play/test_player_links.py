"""A player's own link: one live token a player, the same in every email until the secretary
revokes or re-issues it, a 404 (None) for a revoked, replaced, another club's or forgotten one."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from club.clubs.models import AuditEvent, Player
from club.clubs.services.clubs_lifecycle import forget_player
from club.play.models import PlayerLink
from club.play.services import player_links


def test_the_first_token_is_issued_once_and_kept(players, secretary):
    ann = players[0]
    token = player_links.token_for(ann)
    assert player_links.token_for(ann) == token
    assert PlayerLink.objects.filter(player=ann).count() == 1
    assert player_links.find(ann.club, token) == ann
    # The row keeps only the token's hash: the token is not in the database.
    assert token not in {v for v in PlayerLink.objects.values_list("salt", "token_hash")[0]}
    assert AuditEvent.objects.filter(action="issue", subject="Ann's own link").count() == 1


def test_many_players_tokens_in_one_go(players, django_assert_max_num_queries):
    player_links.token_for(players[0])
    with django_assert_max_num_queries(1):
        player_links.tokens_for(players[:1])
    tokens = player_links.tokens_for(players)
    assert len(set(tokens.values())) == len(players)
    assert all(player_links.find(p.club, tokens[p.pk]) == p for p in players)


def test_revoked_and_reissued_tokens_open_nothing(players, secretary):
    ann = players[0]
    first = player_links.token_for(ann)
    second = player_links.reissue(ann, secretary)
    assert second != first
    assert player_links.find(ann.club, first) is None
    assert player_links.find(ann.club, second) == ann
    assert player_links.revoke(ann, secretary) is True
    assert player_links.find(ann.club, second) is None
    assert player_links.revoke(ann, secretary) is False  # nothing live to revoke
    third = player_links.token_for(ann)  # the next email issues a new one
    assert third not in {first, second} and player_links.find(ann.club, third) == ann


@pytest.mark.parametrize("token", ["", "x", "a" * 24, "a" * 500])
def test_made_up_tokens_open_nothing(players, token):
    player_links.token_for(players[0])
    assert player_links.find(players[0].club, token) is None


def test_another_clubs_token_opens_nothing_here(players, other_club):
    stranger = Player.objects.create(club=other_club, name="Zed")
    token = player_links.token_for(stranger)
    assert player_links.find(players[0].club, token) is None
    assert player_links.find(other_club, token) == stranger


def test_forgetting_a_player_revokes_the_link(players, secretary):
    ann = players[0]
    token = player_links.token_for(ann)
    forget_player(ann, secretary)
    assert player_links.find(ann.club, token) is None


def test_the_database_refuses_two_live_links(players):
    ann = players[0]
    player_links.token_for(ann)
    with pytest.raises(IntegrityError), transaction.atomic():
        PlayerLink.fresh(ann.pk).save()
