"""An organiser signs up with no club by an emailed link, makes a league through its form (each
refused input said beside its field), and alone changes its settings; a private league is a 404
to outsiders and a public one is read by anyone."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from django.urls import reverse

from club.clubs.models import AuditEvent, Membership
from club.leagues.models import Fixture, League, LeagueClub
from club.leagues.services import league_settings
from club.leagues.services.leagues import LeagueError
from club.play.models import Night
from tests.leagues.conftest import make_club

LEAGUE_FORM = {
    "name": "Granite  City League",
    "season_start": "2027-01-08",
    "season_end": "2027-06-25",
    "meetings": "4",
    "points_win": "3",
    "points_tie": "1",
    "points_loss": "0",
    "points_forfeit": "0",
    "players_a_side": "6",
    "deals_a_match": "24",
    "preset": "hoyle",
    "unit_kind": "money",
    "currency_symbol": "£",
    "minor_units": "100",
    "time_zone": "Europe/London",
    "tie_break_1": "aggregate",
    "tie_break_2": "head_to_head",
    "tie_break_3": "",
}


def test_an_organiser_signs_up_by_the_emailed_link_and_makes_a_league_with_no_club(client, db):
    response = client.post(
        reverse("league_signup"), {"email": " Moira@Example.org ", "password": "pw-granite-7"}
    )
    assert response.url == reverse("league_signup_sent")
    user = User.objects.get(email="moira@example.org")
    assert not user.is_active  # nothing until the link comes back
    (message,) = mail.outbox
    link = re.search(r"https?://\S+/leagues/signup/confirm/\S+/", message.body).group(0)
    response = client.get(link)
    assert response.url == reverse("league_new")
    user.refresh_from_db()
    assert user.is_active
    # Signed in by the link: the league is made at once, and its clubs page follows.
    response = client.post(reverse("league_new"), LEAGUE_FORM)
    league = League.objects.get()
    assert response.url == reverse("league_clubs", args=[league.slug])
    assert (league.name, league.organiser, league.meetings) == ("Granite City League", user, 4)
    assert league.tie_break_keys == ["aggregate", "head_to_head"]
    assert not Membership.objects.filter(user=user).exists()
    # The link a second time only says so.
    client.logout()
    again = client.get(link)
    assert again.url == reverse("login")
    # A league called "New" is not hidden behind the page that makes one.
    client.force_login(user)
    client.post(reverse("league_new"), LEAGUE_FORM | {"name": "New"})
    assert League.objects.filter(name="New").get().slug == "new-2"
    listed = client.get(reverse("league_list")).content.decode()
    assert "Granite City League" in listed and reverse("league_home", args=["new-2"]) in listed


def test_signing_up_with_a_known_address_makes_nothing_and_says_so_by_email(client, organiser):
    response = client.post(
        reverse("league_signup"), {"email": "org@example.com", "password": "pw-granite-7"}
    )
    assert response.url == reverse("league_signup_sent")
    assert User.objects.count() == 1
    assert "account on Solo Whist already" in mail.outbox[0].subject


def test_a_spoilt_link_is_a_404_that_says_what_to_do(client, db):
    response = client.get(reverse("league_signup_confirm", args=["not-a-link"]))
    assert response.status_code == 404
    assert "copy the whole of it" in response.content.decode()


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"players_a_side": "7"}, "players_a_side", "7 is odd"),
        ({"season_end": "2026-12-01"}, "season_end", "season must end on or after"),
        ({"points_tie": "4"}, "points_tie", "tie cannot be worth more than a win"),
        ({"points_loss": "2"}, "points_loss", "loss cannot be worth more than a tie"),
        ({"tie_break_2": "aggregate"}, "tie_break_2", "chosen above already"),
        ({"tie_break_2": "", "tie_break_3": "won"}, "tie_break_3", "above this one first"),
        ({"name": "   "}, "name", "required"),
        ({"currency_symbol": ""}, "currency_symbol", "currency&#x27;s symbol"),
        ({"preset": "cents"}, "preset", "choose what the league plays for"),
        ({"meetings": "0"}, "meetings", "greater than or equal to 1"),
    ],
)
def test_the_league_form_refuses_each_wrong_input_beside_its_field(
    client, organiser, change, field, message
):
    client.force_login(organiser)
    response = client.post(reverse("league_new"), LEAGUE_FORM | change)
    assert response.status_code == 422
    assert message in str(response.context["form"].errors[field]) or message in (
        response.content.decode()
    )
    assert field in response.context["form"].errors
    assert not League.objects.exists()


def test_only_the_organiser_changes_the_settings_and_each_change_is_logged(
    client, league, five_clubs, organiser
):
    secretary = User.objects.get(username="sec-ellon")
    url = reverse("league_settings", args=[league.slug])
    client.force_login(secretary)  # a playing club's secretary reads the league, no more
    assert client.get(url).status_code == 404
    assert client.post(url, {"name": "Hijacked"}).status_code == 404
    client.force_login(organiser)
    form = {
        "name": "Granite City League 2027",
        "is_public": "on",
        "points_win": "2",
        "points_tie": "1",
        "points_loss": "0",
        "points_forfeit": "-1",
        "players_a_side": "8",
        "tie_break_1": "won",
    }
    assert client.post(url, form).url == reverse("league_home", args=[league.slug])
    league.refresh_from_db()
    assert (league.points_win, league.points_forfeit, league.players_a_side) == (2, -1, 8)
    assert (league.is_public, league.tie_break_keys) == (True, ["won"])
    event = AuditEvent.objects.get(club=league.host_club, subject="League settings")
    assert event.before["points_win"] == 3 and event.after["points_win"] == 2
    assert event.after["tie_breaks"] == "won" and event.user == organiser
    league.host_club.refresh_from_db()
    assert league.host_club.name == "Granite City League 2027 (league)"


def test_players_a_side_is_fixed_once_a_match_night_has_opened(
    client, league, five_clubs, organiser
):
    home, away = five_clubs[:2]
    night = Night.objects.create(season=league.host_club.seasons.get(), date=league.season_start)
    Fixture.objects.create(
        league=league, cycle=1, round=1, date=night.date, home=home, away=away, night=night
    )
    client.force_login(organiser)
    url = reverse("league_settings", args=[league.slug])
    page = client.get(url).content.decode()
    assert "Fixed: a match night has opened" in page
    form = {"name": league.name, "points_win": "3", "points_tie": "1", "points_loss": "0"}
    client.post(url, form | {"points_forfeit": "0", "players_a_side": "4", "tie_break_1": "won"})
    league.refresh_from_db()
    assert (league.players_a_side, league.tie_break_keys) == (6, ["won"])  # the rest saved
    with pytest.raises(LeagueError, match="cannot change now"):
        league_settings.change_league(league, {"players_a_side": 4}, organiser)


@pytest.mark.parametrize("name", ["league_home", "league_settings", "league_clubs"])
def test_a_private_league_is_a_404_to_outsiders_and_asks_anonymous_to_log_in(
    client, league, five_clubs, name
):
    url = reverse(name, args=[league.slug])
    # A club invited, not (yet) playing, is an outsider still; so is another league's organiser.
    LeagueClub.objects.create(league=league, club=make_club("Fyvie"))
    other = User.objects.create_user("other-organiser", "o@example.org", "pw-other-1")
    for outsider in [User.objects.get(username="sec-fyvie"), other]:
        client.force_login(outsider)
        assert client.get(url).status_code == 404
        assert client.post(url, {"name": "x", "club": "fyvie"}).status_code == 404
    client.logout()
    response = client.get(url)
    assert response.status_code == 302 and response.url.startswith(reverse("login"))
    assert not LeagueClub.objects.filter(status="accepted", club__slug="fyvie").exists()


def test_the_league_home_shows_its_rules_and_playing_clubs_and_the_table_block(
    client, league, five_clubs, django_assert_max_num_queries
):
    league.is_public = True
    league.save()
    with django_assert_max_num_queries(8):
        response = client.get(reverse("league_home", args=[league.slug]))  # anonymous
    html = response.content.decode()
    assert response.status_code == 200
    assert "Granite City Whist League" in html
    assert "A win is 3 points, a tie 1, a loss 0" in html
    assert "6 players a side over 24 deals" in html
    assert "aggregate (the sum of the side&#x27;s scores), then matches won" in html
    assert "Only confirmed, settled and forfeited matches count" in html
    assert all(entry.club.name in html for entry in five_clubs)
    assert reverse("league_settings", args=[league.slug]) not in html  # the organiser's only


def test_the_admin_shows_leagues_and_leaves_their_changes_to_the_app(client, league, five_clubs):
    root = User.objects.create_superuser("root", "root@example.org", "pw-root-1")
    client.force_login(root)
    listed = client.get(reverse("admin:leagues_league_changelist")).content.decode()
    assert "Granite City Whist League" in listed
    assert client.get(reverse("admin:leagues_league_add")).status_code == 403
    entry = five_clubs[0]
    url = reverse("admin:leagues_leagueclub_delete", args=[entry.pk])
    assert client.post(url, {"post": "yes"}).status_code == 403
    assert LeagueClub.objects.filter(pk=entry.pk).exists()


def test_signing_up_again_before_confirming_sends_the_link_again(client, db):
    form = {"email": "moira@example.org", "password": "pw-granite-7"}
    client.post(reverse("league_signup"), form)
    client.post(reverse("league_signup"), form)
    assert User.objects.filter(email="moira@example.org").count() == 1
    first, second = mail.outbox
    assert "/leagues/signup/confirm/" in second.body and second.subject == first.subject
