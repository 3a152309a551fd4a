"""Who is here: ticking in and out (idempotent, one arrival per player and date), a new name as
someone walks in, the page's count and what the draw will make, and the door page, refused when
the club's door check-in is off, for a made-up or revoked code, and for another club's address."""

from __future__ import annotations

import datetime as dt
import html
import re

import pytest
from django.core import signing
from django.db import IntegrityError, transaction
from django.urls import reverse

from club.clubs.models import Player
from club.clubs.services.setup import SetupError
from club.play.models import Arrival
from club.play.services import arrivals
from club.play.services import tokens as token_service

pytestmark = pytest.mark.django_db
TONIGHT = dt.date(2026, 11, 25)
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def _tonight(monkeypatch):
    monkeypatch.setattr(arrivals, "today", lambda club: TONIGHT)


def test_ticking_in_twice_keeps_one_arrival_and_ticking_out_removes_it(club, players):
    ann = players[0]
    first, created = arrivals.tick_in(club, ann)
    again, created_again = arrivals.tick_in(club, ann)
    assert created and not created_again and first.pk == again.pk
    assert first.date == TONIGHT and first.via == "secretary"
    assert arrivals.arrived(club) == [ann]
    assert arrivals.tick_out(club, ann) is True
    assert arrivals.tick_out(club, ann) is False
    assert arrivals.arrived(club) == []


def test_the_database_refuses_a_second_arrival_of_a_player_on_a_date(club, players):
    Arrival.objects.create(club=club, date=TONIGHT, player=players[0])
    with pytest.raises(IntegrityError), transaction.atomic():
        Arrival.objects.create(club=club, date=TONIGHT, player=players[0])


def test_another_clubs_player_cannot_be_ticked_in(club, other_club):
    stranger = Player.objects.create(club=other_club, name="Zed")
    with pytest.raises(SetupError, match="not a player of this club"):
        arrivals.tick_in(club, stranger)


def test_a_new_name_creates_the_player_and_ticks_them_in(club, players):
    zoe = arrivals.arrive_by_name(club, "  Zoe  Quist ")
    assert zoe.name == "Zoe Quist" and zoe.club == club
    assert arrivals.arrived_ids(club) == {zoe.pk}
    # the name of an existing player ticks that player, whatever the case
    assert arrivals.arrive_by_name(club, "ann") == players[0]
    with pytest.raises(SetupError, match="name"):
        arrivals.arrive_by_name(club, "   ")


def test_the_page_lists_every_player_and_says_what_the_draw_makes(client, secretary, players, club):
    client.force_login(secretary)
    for p in players[:7]:
        arrivals.tick_in(club, p)
    page = client.get(reverse("arrivals", args=[club.slug]))
    assert page.status_code == 200
    body = page.content.decode()
    assert body.count('class="arrival-tile"') == len(players)
    assert "7 players: 7 players cannot be drawn into tables of 4 and 5" in body
    assert "with tables of 3 they make 1 table of 4 and 1 of 3" in body
    club.odd_tables = "3"
    club.save()
    body = client.get(reverse("arrivals", args=[club.slug])).content.decode()
    assert "7 players: 1 table of 4 and 1 of 3" in body


def test_a_tick_by_htmx_answers_the_new_count(client, secretary, players, club):
    client.force_login(secretary)
    url = reverse("arrival_tick", args=[club.slug])
    for p in players[:5]:
        answer = client.post(url, {"player": p.pk, "here": p.pk}, **HTMX)
    assert answer.status_code == 200
    assert "5 players: 1 table of 5" in answer.content.decode()
    answer = client.post(url, {"player": players[0].pk}, **HTMX)  # unticked: no "here"
    assert "4 players: 1 table of 4" in answer.content.decode()
    assert len(arrivals.arrived_ids(club)) == 4
    # without htmx, back to the page
    assert client.post(url, {"player": players[0].pk, "here": "1"}).status_code == 302
    assert len(arrivals.arrived_ids(club)) == 5


def test_the_plain_form_sets_who_is_here(client, secretary, players, club):
    client.force_login(secretary)
    arrivals.tick_in(club, players[8])
    client.post(reverse("arrivals", args=[club.slug]), {"here": [p.pk for p in players[:3]]})
    assert arrivals.arrived_ids(club) == {p.pk for p in players[:3]}


# Ids no tick box sends: "²" passes str.isdigit() but int() refuses it, 10**23 overflows a
# database key, and a 5,000-digit number is more than int() reads.
HOSTILE_IDS = ["²", "99999999999999999999999", "9" * 5000]


def test_the_plain_form_ignores_ids_that_are_not_plain_numbers_or_too_big_for_a_key(
    client, secretary, players, club
):
    client.force_login(secretary)
    answer = client.post(
        reverse("arrivals", args=[club.slug]), {"here": [*HOSTILE_IDS, players[0].pk]}
    )
    assert answer.status_code == 302
    assert arrivals.arrived_ids(club) == {players[0].pk}


def test_a_scorer_adds_a_new_name_only_when_the_club_allows(client, scorer, club):
    client.force_login(scorer)
    url = reverse("arrival_new", args=[club.slug])
    answer = client.post(url, {"name": "Newt"}, follow=True)
    assert "Only a secretary may add new players" in answer.content.decode()
    assert not club.players.filter(name="Newt").exists()
    club.scorers_add_players = True
    club.save()
    answer = client.post(url, {"name": "Newt"}, follow=True)
    assert "Newt is here." in answer.content.decode()
    assert arrivals.arrived(club)[0].name == "Newt"


def test_a_new_name_over_the_name_limit_is_refused_with_a_message_not_cut_short(
    client, secretary, club
):
    client.force_login(secretary)
    url = reverse("arrival_new", args=[club.slug])
    answer = client.post(url, {"name": "Bartholomew " * 6}, follow=True)  # 71 characters
    assert "is too long for a name: at most 60 characters (this one has 71)" in (
        answer.content.decode()
    )
    assert not club.players.exists() and not Arrival.objects.exists()
    client.post(url, {"name": "B" * 60})
    assert arrivals.arrived(club)[0].name == "B" * 60


def test_the_door_page_is_refused_while_door_check_in_is_off(client, club, players):
    token = token_service.door_token(club)
    answer = client.get(reverse("club_door", args=[club.slug, token]))
    assert answer.status_code == 404
    assert "This door code does not work" in answer.content.decode()


def test_the_door_page_refuses_a_made_up_a_revoked_and_another_clubs_code(
    client, club, other_club, players
):
    club.door_check_in = other_club.door_check_in = True
    club.save()
    other_club.save()
    assert client.get(reverse("club_door", args=[club.slug, "made-up"])).status_code == 404
    old = token_service.door_token(club)
    token_service.new_door_token(club)
    assert client.get(reverse("club_door", args=[club.slug, old])).status_code == 404
    theirs = token_service.door_token(other_club)
    assert client.get(reverse("club_door", args=[club.slug, theirs])).status_code == 404
    answer = client.post(reverse("club_door", args=[club.slug, old]), {"player": players[0].pk})
    assert answer.status_code == 404
    assert not Arrival.objects.exists()


def test_a_door_code_printed_before_still_opens_the_door(client, club, players):
    # What a printed door code holds, written out here rather than made by the code under test:
    # the club's id and door salt, signed under "club.door". Any change to it breaks the codes
    # already on clubs' walls.
    club.door_check_in = True
    club.save()
    token_service.door_token(club)  # gives the club its door salt
    club.refresh_from_db()
    held = {"club": club.pk, "salt": club.door_salt}
    assert signing.loads(token_service.door_token(club), salt="club.door") == held
    printed = signing.dumps(held, salt="club.door", compress=True)
    assert client.get(reverse("club_door", args=[club.slug, printed])).status_code == 200


def test_a_player_ticks_themselves_in_at_the_door(client, club, players):
    club.door_check_in = True
    club.save()
    url = reverse("club_door", args=[club.slug, token_service.door_token(club)])
    page = client.get(url)
    words = re.sub(r"<[^>]+>", "", page.content.decode())  # the page's text, without its tags
    assert page.status_code == 200 and "Ann: I'm here" in words
    answer = client.post(url, {"player": players[0].pk}, follow=True)
    assert "Welcome, Ann" in answer.content.decode()
    arrival = Arrival.objects.get()
    assert (arrival.player, arrival.via, arrival.date) == (players[0], "door", TONIGHT)
    client.post(url, {"player": players[0].pk})  # a double tap
    assert Arrival.objects.count() == 1


def test_the_door_limits_how_many_ticks_a_minute_whoever_holds_its_code(
    client, club, players, monkeypatch
):
    from club.play.views import arrivals as arrival_views

    monkeypatch.setattr(arrival_views, "DOOR_LIMIT", (3, 60))
    club.door_check_in = True
    club.save()
    url = reverse("club_door", args=[club.slug, token_service.door_token(club)])
    for player in players[:3]:
        assert client.post(url, {"player": player.pk}).status_code == 302
    refused = client.post(url, {"player": players[3].pk})
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    assert "Too many ticks at the door in the last minute" in refused.content.decode()
    assert set(arrivals.arrived_ids(club, TONIGHT)) == {p.pk for p in players[:3]}


def test_the_door_refuses_a_name_not_on_its_list_with_a_message(client, club, other_club, players):
    # Another club's player, one marked inactive since the page was shown, an id of no one.
    club.door_check_in = True
    club.save()
    stranger = Player.objects.create(club=other_club, name="Zed")
    Player.objects.filter(pk=players[1].pk).update(active=False)
    url = reverse("club_door", args=[club.slug, token_service.door_token(club)])
    for value in (stranger.pk, players[1].pk, "²"):
        answer = client.post(url, {"player": value}, follow=True)
        page = html.unescape(answer.content.decode())
        assert "That name is not on this club's list: tell the secretary." in page
    assert not Arrival.objects.exists()


def test_the_secretary_sees_the_door_qr_code_and_can_replace_it(client, secretary, club):
    client.force_login(secretary)
    page = client.get(reverse("door_qr", args=[club.slug]))
    assert page.status_code == 200 and "<svg" in page.content.decode()
    before = token_service.door_token(club)
    client.post(reverse("door_qr", args=[club.slug]))
    club.refresh_from_db()
    assert token_service.door_token(club) != before


def test_the_club_settings_form_sets_door_check_in_and_the_odd_tables(client, secretary, club):
    client.force_login(secretary)
    page = client.get(reverse("club_setup", args=[club.slug])).content.decode()
    assert 'name="door_check_in"' in page and 'name="odd_tables"' in page
