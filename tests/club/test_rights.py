"""What a table scorer may not do. A finished tournament's settings and a
closed night's are the secretary's, after reopening; players are added by a secretary (or by
scorers when the club allows it), a few at a time, and never when the night itself is refused."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from club.clubs.models import AuditEvent, Club, Player
from club.clubs.services.setup import SetupError, add_players
from club.play.models import Night
from club.play.services.nights import reopen_night
from club.tournaments.models import Tournament
from club.tournaments.services import tournaments as services
from tests.kits.tournament_kit import field, make_tournament, play_round


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _finished(season, club, scorer) -> Tournament:
    t = make_tournament(season, field(club, 8), rounds=1, hands=1)
    services.start(t)
    play_round(t, scorer)
    services.close_round(t, scorer)
    t.refresh_from_db()
    assert t.is_finished and t.night.is_closed
    return t


SETTINGS = {
    "name": "Rewritten",
    "rounds": 1,
    "hands_per_round": 9,
    "scoring_method": "table_rank",
    "is_public": "on",
    "counts_in_standings": "",
}


def _unchanged(t: Tournament) -> None:
    t.refresh_from_db()
    night = Night.objects.get(pk=t.night_id)
    assert (t.name, t.hands_per_round, t.scoring_method, t.is_public) == (
        "Christmas Drive",
        1,
        "amounts",
        False,
    )
    assert night.counts_in_standings is True


# -- 14.4 ----------------------------------------------------------------------------------------


def test_a_scorer_cannot_rewrite_a_finished_tournament(season, club, scorer, secretary):
    t = _finished(season, club, scorer)
    url = reverse("tournament_settings", args=[club.slug, t.pk])
    assert client_for(scorer).get(url).status_code == 403
    assert client_for(scorer).post(url, SETTINGS).status_code == 403
    _unchanged(t)


def test_a_secretary_must_reopen_the_night_before_changing_a_finished_tournament(
    season, club, scorer, secretary
):
    t = _finished(season, club, scorer)
    url = reverse("tournament_settings", args=[club.slug, t.pk])
    response = client_for(secretary).post(url, SETTINGS)
    assert response.status_code == 200
    assert "must reopen it before its settings change" in response.content.decode()
    _unchanged(t)
    with pytest.raises(services.TournamentError, match="reopen"):
        services.update_settings(
            t,
            name="X",
            rounds=1,
            hands_per_round=2,
            scoring_method="amounts",
            is_public=True,
            counts_in_standings=False,
        )
    _unchanged(t)
    reopen_night(t.night, secretary)
    # Reopened, the event is still finished: still not the scorer's.
    assert client_for(scorer).post(url, SETTINGS).status_code == 403
    response = client_for(secretary).post(url, SETTINGS)
    assert response.status_code == 302
    t.refresh_from_db()
    assert (t.name, t.hands_per_round, t.is_public) == ("Rewritten", 9, True)
    assert AuditEvent.objects.filter(subject="Tournament settings", user=secretary).exists()


def test_a_scorer_still_directs_a_running_tournament(season, club, scorer):
    t = make_tournament(season, field(club, 8), rounds=2, hands=1)
    url = reverse("tournament_settings", args=[club.slug, t.pk])
    response = client_for(scorer).post(url, SETTINGS | {"rounds": 2})
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.hands_per_round == 9


def test_the_settings_button_is_offered_only_to_who_may_use_it(season, club, scorer, secretary):
    t = _finished(season, club, scorer)
    page = reverse("tournament_detail", args=[club.slug, t.pk])
    settings = reverse("tournament_settings", args=[club.slug, t.pk])
    assert settings not in client_for(scorer).get(page).content.decode()
    assert settings in client_for(secretary).get(page).content.decode()


# -- 14.5 ----------------------------------------------------------------------------------------


def _night_post(season, players, new_players: str, action: str = "add_players") -> dict:
    from tests.play.test_nights import table_data

    return table_data(players, season=season, new_players=new_players, action=action)


def test_a_scorer_cannot_add_players_unless_the_club_allows_it(club, season, players, scorer):
    url = reverse("night_create", args=[club.slug])
    before = Player.objects.count()
    response = client_for(scorer).post(url, _night_post(season, players[:4], "Mallory, Trent"))
    assert "Only a secretary can add players" in response.content.decode()
    assert Player.objects.count() == before
    # The page does not offer the box to a scorer.
    assert 'name="new_players"' not in client_for(scorer).get(url).content.decode()
    Club.objects.filter(pk=club.pk).update(scorers_add_players=True)
    client_for(scorer).post(url, _night_post(season, players[:4], "Mallory, Trent"))
    assert Player.objects.count() == before + 2


def test_nobody_adds_three_thousand_players_in_one_post(club, season, players, secretary):
    url = reverse("night_create", args=[club.slug])
    names = ", ".join(f"Bot {n}" for n in range(3000))
    before = Player.objects.count()
    response = client_for(secretary).post(url, _night_post(season, players[:4], names))
    assert "add at most 40 players at a time" in response.content.decode()
    assert Player.objects.count() == before
    with pytest.raises(SetupError, match="at most 40"):
        add_players(club, [f"Bot {n}" for n in range(41)])
    assert Player.objects.count() == before


def test_a_refused_night_creates_no_players(club, season, players, secretary):
    """The attack: new names with a table that is refused (one player seated twice)."""
    ann, bob, cat = players[:3]
    url = reverse("night_create", args=[club.slug])
    data = _night_post(season, [ann, bob, cat, ann], "Half Write", action="create")
    response = client_for(secretary).post(url, data)
    assert response.status_code == 200
    assert not Player.objects.filter(name="Half Write").exists()
    assert not Night.objects.exists()


def test_a_scorer_enters_no_new_names_in_a_tournament(club, season, players, scorer):
    url = reverse("tournament_create", args=[club.slug])
    response = client_for(scorer).post(
        url,
        {
            "name": "Open",
            "date": "2026-12-05",
            "rounds": "2",
            "hands_per_round": "4",
            "scoring_method": "amounts",
            "players": [str(p.pk) for p in players[:8]],
            "new_players": "Mallory",
        },
    )
    assert response.status_code == 200
    assert "Only a secretary can add players" in response.content.decode()
    assert not Tournament.objects.exists() and not Player.objects.filter(name="Mallory").exists()
