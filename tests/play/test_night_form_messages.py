"""The new-night form says what happened where it is seen: the "Already playing tonight?" notice
at the top of the page (not under eight tables, after a submit that seemed to do nothing), a
name too long with the limit, and no "The night was not created" after only "Add players"."""

from __future__ import annotations

import pytest
from django.urls import reverse

from club.clubs.models import Player
from club.play.models import Night
from club.play.services.night_setup import create_night
from tests.play.test_night_created_once import DATE, form_data


def _post(client, club, data):
    return client.post(reverse("night_create", args=[club.slug]), data).content.decode()


def test_players_already_seated_tonight_are_named_at_the_top(
    client, club, season, players, secretary
):
    create_night(season, DATE, [(players[:4], 0)])
    client.force_login(secretary)
    page = _post(client, club, form_data(client, club, players[:4]))
    assert "Already playing tonight?" in page
    notice = page.index('id="clashes"')
    # Above the form's first field and its first table, under the page's heading.
    assert page.index("<h1>New club night</h1>") < notice < page.index('name="date"')
    assert notice < page.index('id="table-1"')
    assert Night.objects.filter(season__club=club).count() == 1


def test_a_name_too_long_says_the_limit(client, club, season, players, secretary):
    client.force_login(secretary)
    data = form_data(client, club, players[:4])
    data.update(new_players="Ann " + "x" * 196, action="add_players")
    page = _post(client, club, data)
    limit = Player._meta.get_field("name").max_length
    assert f"at most {limit} characters" in page and "this one has 200" in page
    assert not Player.objects.filter(name__startswith="Ann x").exists()


@pytest.mark.parametrize("names", ["Ann " + "x" * 196, "Ann"])  # too long; already in the club
def test_add_players_refused_does_not_say_the_night_was_not_created(
    client, club, season, players, secretary, names
):
    """Nobody asked to create the night: the banner speaks of the players only."""
    client.force_login(secretary)
    data = form_data(client, club, players[:4])
    data.update(new_players=names, action="add_players")
    page = _post(client, club, data)
    assert "The night was not created" not in page
    assert "No players were added" in page


def test_create_refused_still_says_the_night_was_not_created(
    client, club, season, players, secretary
):
    client.force_login(secretary)
    data = form_data(client, club, players[:4])
    data["tables-0-seat_2"] = data["tables-0-seat_1"]  # one player in two seats
    page = _post(client, club, data)
    assert "The night was not created" in page
    assert not Night.objects.exists()
