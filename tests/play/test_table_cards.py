"""Tables' permanent cards: issuing, revoking and re-issuing them (audited); a card's page for a
phone with no account (another club's or a revoked card is the bad-link 404); seating a table
from its card, which lands the phone on the table's page able to save a hand; what seating
refuses; two phones seating the same card at once; no night open, the first card opening it;
Start tonight pressed twice; and the printed cards (A6, one a page)."""

from __future__ import annotations

import datetime as dt
import html as html_lib
import io
import re
import subprocess

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from club.clubs.models import AuditEvent
from club.play.models import Hand, Night, Table, TableCard, TableLink
from club.play.models.table_cards import derive_card_token
from club.play.models.table_links import derive_token
from club.play.services import nights
from club.play.services import table_cards as cards
from club.play.services.night_setup import create_night
from club.play.services.nights import close_night
from tests.kits.cache_kit import clear_own_keys
from tests.kits.racing import needs_real_concurrency, race

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(autouse=True)
def _fresh_cache():
    clear_own_keys()
    yield
    clear_own_keys()


@pytest.fixture
def tonight(season_now):
    return nights.start_tonight(season_now.club)


@pytest.fixture
def card3(club, secretary):
    return cards.issue_cards(club, secretary, 3)[2]


def text(response) -> str:
    page = response.content.decode()
    page = re.sub(r"<(script|style|svg)[^>]*>.*?</\1>", " ", page, flags=re.S)
    return html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)).strip())


def card_url(card: TableCard, name: str = "card_page") -> str:
    return reverse(name, args=[card.token])


def seats(*players) -> dict[str, str]:
    """The form the card page posts: each player's seat number, in the order given."""
    return {f"seat_{p.pk}": str(i) for i, p in enumerate(players, start=1)}


# --- issuing, revoking, re-issuing ----------------------------------------------------------------


def test_cards_are_issued_numbered_one_to_n_then_one_more_and_audited(club, secretary):
    first = cards.issue_cards(club, secretary, 4)
    assert [(c.number, c.label) for c in first] == [(n, f"Table {n}") for n in range(1, 5)]
    more = cards.issue_cards(club, secretary)
    assert [c.number for c in more] == [5]
    events = AuditEvent.objects.filter(club=club, action=AuditEvent.Action.ISSUE)
    assert sorted(events.values_list("subject", flat=True)) == sorted(
        f"Table {n}'s card" for n in range(1, 6)
    )
    assert {e.user for e in events} == {secretary}


def test_a_card_token_is_never_a_link_token_and_only_its_hash_is_stored(club, secretary):
    card = cards.issue_cards(club, secretary)[0]
    assert card.token != derive_token(card.salt)
    assert card.token == derive_card_token(card.salt)
    assert card.token not in card.token_hash


def test_revoking_a_card_makes_it_404_and_reissuing_gives_a_new_working_one(
    client, club, secretary, card3, tonight
):
    assert client.get(card_url(card3)).status_code == 200
    assert cards.revoke_card(card3, secretary)
    assert not cards.revoke_card(card3, secretary)  # already revoked: nothing more happens
    response = client.get(card_url(card3))
    assert response.status_code == 404
    assert "This table link does not work" in text(response)
    new = cards.reissue_card(card3, secretary)
    assert (new.number, new.label) == (3, "Table 3") and new.token != card3.token
    assert client.get(card_url(new)).status_code == 200
    assert client.get(card_url(card3)).status_code == 404
    actions = list(
        AuditEvent.objects.filter(subject="Table 3's card").order_by("id").values_list("action")
    )
    assert actions == [("issue",), ("revoke",), ("issue",)]


def test_reissuing_a_live_card_revokes_the_old_one(club, secretary, card3):
    new = cards.reissue_card(card3, secretary)
    card3.refresh_from_db()
    assert card3.revoked_at is not None and card3.revoked_by == secretary
    assert list(TableCard.objects.filter(club=club, number=3, revoked_at=None)) == [new]


def test_another_clubs_card_token_and_a_made_up_one_are_404(client, other_club, card3):
    theirs = cards.issue_cards(other_club, None)[0]
    # Their card works at their club, and tells nothing of ours; a made-up token is a 404.
    assert "Red Lion" in text(client.get(card_url(theirs)))
    assert client.get(reverse("card_page", args=["made-up-token"])).status_code == 404
    link_like = derive_token(card3.salt)  # a link's token made from the card's salt
    assert client.get(reverse("card_page", args=[link_like])).status_code == 404


def test_the_secretary_issues_revokes_and_reissues_cards_from_set_up(client, club, secretary):
    client.force_login(secretary)
    response = client.post(reverse("table_cards", args=[club.slug]), {"count": "4"}, follow=True)
    assert "4 card(s) issued: Table 1 to Table 4" in text(response)
    assert response.content.decode().count('class="qr"') == 4
    card = TableCard.objects.get(club=club, number=2)
    revoke = reverse("table_card_revoke", args=[club.slug, card.pk])
    assert "Revoke Table 2's card?" in text(client.get(revoke))
    client.post(revoke)
    card.refresh_from_db()
    assert card.revoked_at is not None
    client.post(reverse("table_card_reissue", args=[club.slug, card.pk]))
    assert TableCard.objects.filter(club=club, number=2, revoked_at=None).count() == 1
    response = client.post(reverse("table_cards", args=[club.slug]), {"count": "0"}, follow=True)
    assert "Issue between 1 and 60 cards" in text(response)


def test_a_scorer_cannot_reach_the_card_pages_and_another_clubs_card_is_404(
    client, club, scorer, outsider, card3
):
    client.force_login(scorer)
    assert client.get(reverse("table_cards", args=[club.slug])).status_code == 403
    client.force_login(outsider)
    assert client.get(reverse("table_card_revoke", args=["redlion", card3.pk])).status_code == 404


# --- seating a table from its card ----------------------------------------------------------------


def test_the_card_page_asks_who_sits_recent_players_first(client, club, players, card3, tonight):
    # Fay and Cat played at the club's last night: they come first, then everyone else.
    create_night(
        tonight.season,
        club.today() - dt.timedelta(days=7),
        [([players[5], players[2], players[7]], 0)],
    )
    page = text(client.get(card_url(card3)))
    assert "Who sits at Table 3?" in page
    recent, everyone = page.split("Played lately")[1].split("Everyone else")
    assert recent.index("Cat") < recent.index("Fay") < recent.index("Hal")
    assert "Ann" not in recent and "Ann" in everyone
    assert "New player" not in page  # the club does not let scorers add players


def test_seating_makes_the_table_seats_and_link_and_the_phone_saves_hand_1(
    client, club, players, card3, tonight
):
    ann, bob, cat, dan = players[:4]
    response = client.post(card_url(card3), {**seats(cat, ann, dan, bob), "device": "Cat's phone"})
    table = Table.objects.get(night=tonight)
    link = TableLink.objects.get(table=table, revoked_at=None)
    assert response.status_code == 302 and response["Location"] == reverse(
        "link_table", args=[link.token]
    )
    assert (table.number, table.card, table.first_dealer) == (3, card3, 0)
    assert [s.player for s in table.seats.order_by("position")] == [cat, ann, dan, bob]
    page = client.get(response["Location"])
    assert "Table 3 is seated: Cat, Ann, Dan, Bob" in text(page)
    saved = client.post(
        reverse("link_create", args=[link.token]),
        {
            "dealer": cat.pk,
            "contract": "solo",
            "declarer": ann.pk,
            "tricks": 6,
            "expected_number": 1,
        },
        **HTMX,
    )
    assert saved.status_code == 200 and "Hand 1 saved" in text(saved)
    event = AuditEvent.objects.get(action=AuditEvent.Action.CREATE, subject="Table 3, hand 1")
    assert (event.link, event.device) == (link, "Cat's phone")
    seated = AuditEvent.objects.get(subject="Table 3, seated from Table 3's card")
    assert seated.after == {"table 3": "Cat, Ann, Dan, Bob (Cat deals first)"}
    assert Hand.objects.get(table=table).dealer == cat


def test_a_second_phone_scanning_a_seated_card_goes_to_the_same_table(
    client, players, card3, tonight
):
    client.post(card_url(card3), seats(*players[:4]))
    link = TableLink.objects.get(table__card=card3)
    other_phone = Client()
    assert other_phone.get(card_url(card3))["Location"] == reverse("link_table", args=[link.token])
    # Even one that posted its own choice of names: it is shown the table, nothing new is made.
    response = other_phone.post(card_url(card3), seats(*players[4:8]))
    assert response["Location"] == reverse("link_table", args=[link.token])
    assert Table.objects.count() == 1


def test_a_card_seats_its_own_number_or_the_next_free_one(club, players, secretary, season_now):
    # The secretary set up table 1 by hand; card 3 then seats table 3, and card 1 table 4.
    night = create_night(season_now, club.today(), [(players[:3], 0)])
    one, _two, three = cards.issue_cards(club, secretary, 3)
    assert cards.seat_table(three, night, players[3:6]).table.number == 3
    assert cards.seat_table(one, night, players[6:9]).table.number == 4


def test_seating_refuses_a_player_already_at_another_table_naming_it(
    client, club, players, secretary, tonight
):
    one, two = cards.issue_cards(club, secretary, 2)
    cards.seat_table(two, tonight, players[:4])
    response = client.post(card_url(one), seats(players[4], players[5], players[1]))
    assert response.status_code == 422
    assert "Bob already sits at table 2 tonight." in text(response)
    assert Table.objects.filter(card=one).count() == 0


@pytest.mark.parametrize(
    ("chosen", "message"),
    [
        (2, "A table seats 3, 4 or 5 players: choose 1 more (only 2 chosen)."),
        (6, "A table seats at most 5 players, not 6."),
    ],
)
def test_seating_refuses_fewer_than_3_or_more_than_5(players, card3, tonight, chosen, message):
    with pytest.raises(ValidationError, match=re.escape(message)):
        cards.seat_table(card3, tonight, players[:chosen])
    assert not Table.objects.exists() and not TableLink.objects.exists()


def test_seating_refuses_a_player_twice(players, card3, tonight):
    ann, bob, cat = players[:3]
    with pytest.raises(ValidationError, match="Ann is chosen twice"):
        cards.seat_table(card3, tonight, [ann, bob, cat, ann])


def test_the_page_refuses_two_players_given_one_seat(client, players, card3, tonight):
    data = seats(*players[:4]) | {f"seat_{players[3].pk}": "1"}
    response = client.post(card_url(card3), data)
    assert response.status_code == 422
    assert "Two players have seat 1" in text(response)
    # The choices made stay chosen.
    assert f'name="seat_{players[1].pk}"' in response.content.decode()


@pytest.mark.parametrize("bad", ["²", "99999999999999999999999"])
def test_a_seat_field_whose_player_id_is_not_a_plain_number_is_refused_on_the_page(
    client, players, card3, tonight, bad
):
    # "²" passes str.isdigit() but int() refuses it; 10**23 overflows a database key.
    response = client.post(card_url(card3), seats(*players[:3]) | {f"seat_{bad}": "4"})
    assert response.status_code == 422
    assert "A player chosen is not a player of this club" in text(response)
    assert not Table.objects.filter(card=card3).exists()


def test_seating_refuses_a_closed_night(players, card3, tonight, secretary):
    close_night(tonight, secretary)
    with pytest.raises(ValidationError, match="is closed"):
        cards.seat_table(card3, tonight, players[:4])


def test_a_new_player_may_be_seated_when_the_club_lets_scorers_add_players(
    client, club, players, card3, tonight
):
    club.scorers_add_players = True
    club.save()
    assert "New player" in text(client.get(card_url(card3)))
    ann, bob, cat = players[:3]
    data = {f"seat_{ann.pk}": "1", f"seat_{bob.pk}": "3", f"seat_{cat.pk}": "4"}
    data |= {"new_player": "Zoe Quinn", "new_player_seat": "2"}
    # Refused (Ann sits elsewhere tonight): the new player is not added either.
    other = cards.issue_cards(club, None)[0]
    cards.seat_table(other, tonight, [ann, *players[5:7]])
    assert client.post(card_url(card3), data).status_code == 422
    assert not club.players.filter(name="Zoe Quinn").exists()
    Table.objects.filter(card=other).delete()
    client.post(card_url(card3), data)
    table = Table.objects.get(card=card3)
    assert [s.player.name for s in table.seats.order_by("position")] == [
        "Ann",
        "Zoe Quinn",
        "Bob",
        "Cat",
    ]


def test_a_new_player_name_of_only_invisible_characters_is_no_new_player(
    client, club, players, card3, tonight
):
    # A zero-width space survives .strip() but not the name's normalising: no name is left.
    club.scorers_add_players = True
    club.save()
    data = seats(*players[:2]) | {"new_player": "\u200b\u200d ", "new_player_seat": "3"}
    response = client.post(card_url(card3), data)
    assert response.status_code == 422
    assert "choose 1 more" in text(response)
    assert club.players.count() == len(players)


def test_a_new_player_name_over_the_name_limit_is_refused_on_the_page_not_stored(
    client, club, players, card3, tonight
):
    # The column holds 60 characters: PostgreSQL would refuse a longer name with a 500.
    club.scorers_add_players = True
    club.save()
    data = seats(*players[:3]) | {"new_player": "Bartholomew " * 6, "new_player_seat": "4"}
    response = client.post(card_url(card3), data)
    assert response.status_code == 422
    assert "is too long for a name: at most 60 characters (this one has 71)" in text(response)
    assert club.players.count() == len(players)
    assert not Table.objects.filter(card=card3).exists()


@pytest.mark.django_db(transaction=True)
def test_two_phones_seating_the_same_card_at_once_make_one_table(players, card3, tonight):
    needs_real_concurrency()
    outcomes = race(
        lambda: cards.seat_table(card3, tonight, players[:4], "phone A"),
        lambda: cards.seat_table(card3, tonight, players[4:8], "phone B"),
    )
    assert [o.error for o in outcomes] == [None, None]
    made = [o.value for o in outcomes]
    assert sorted(m.created for m in made) == [False, True]
    assert made[0].table.pk == made[1].table.pk
    assert made[0].link.pk == made[1].link.pk
    assert Table.objects.filter(card=card3).count() == 1


# --- no night open, Start tonight -----------------------------------------------------------------


def test_with_no_night_open_the_card_says_ask_the_secretary(client, club, card3, season_now):
    page = text(client.get(card_url(card3)))
    assert "No club night is open at Crown & Anchor Solo School yet." in page
    assert "Ask the secretary to start tonight." in page
    assert "Open tonight's night" not in page
    # The button's address does nothing when the club does not allow it.
    client.post(card_url(card3, "card_open_night"))
    assert not Night.objects.exists()


def test_a_public_club_with_no_night_open_shows_its_latest_results(
    client, club, season_now, players, secretary, card3
):
    club.is_public = True
    club.save()
    last = create_night(season_now, club.today() - dt.timedelta(days=7), [(players[:4], 0)])
    close_night(last, secretary)
    response = client.get(card_url(card3))
    assert reverse("night_detail", args=[club.slug, last.pk]) in response.content.decode()


def test_the_first_card_scanned_opens_tonight_when_the_club_allows(client, club, card3, season_now):
    club.first_card_opens_night = True
    club.save()
    page = text(client.get(card_url(card3)))
    assert "Open tonight's night" in page
    response = client.post(card_url(card3, "card_open_night"), follow=True)
    night = Night.objects.get()
    assert (night.date, night.status, night.season) == (club.today(), "open", season_now)
    assert "Who sits at Table 3?" in text(response)
    client.post(card_url(card3, "card_open_night"))
    assert Night.objects.count() == 1


def test_start_tonight_is_idempotent_and_reuses_an_open_night(club, secretary, season_now):
    first = nights.start_tonight(club, secretary)
    assert nights.start_tonight(club, secretary) == first
    assert Night.objects.count() == 1
    event = AuditEvent.objects.get(action=AuditEvent.Action.CREATE)
    assert (event.user, event.night) == (secretary, first)


def test_start_tonight_returns_a_night_the_secretary_set_up_today(
    club, secretary, players, season_now
):
    made = create_night(season_now, club.today(), [(players[:4], 0)])
    assert nights.start_tonight(club, secretary) == made


def test_start_tonight_without_a_season_says_so(club, secretary, season):
    season.start = season.end = club.today() - dt.timedelta(days=400)
    season.save()
    with pytest.raises(ValidationError, match="No season of Crown & Anchor Solo School covers"):
        nights.start_tonight(club, secretary)


def test_the_start_tonight_button_opens_one_night_and_goes_to_it(
    client, club, secretary, season_now
):
    client.force_login(secretary)
    assert "Start tonight" in text(client.get(reverse("night_list", args=[club.slug])))
    url = reverse("night_start_tonight", args=[club.slug])
    first = client.post(url)
    second = client.post(url)
    night = Night.objects.get()
    assert (
        first["Location"]
        == second["Location"]
        == reverse("night_detail", args=[club.slug, night.pk])
    )
    assert client.get(first["Location"]).status_code == 200  # a night with no tables yet


def test_a_card_whose_night_is_closed_shows_the_tables_final_sheet(
    client, players, card3, tonight, secretary
):
    seated = cards.seat_table(card3, tonight, players[:4])
    close_night(tonight, secretary)
    response = client.get(card_url(card3))
    assert response["Location"] == reverse("link_table", args=[seated.link.token])
    unseated = cards.issue_cards(card3.club, secretary)[0]
    assert "is closed" in text(client.get(card_url(unseated)))


# --- the club setting and the printed cards -------------------------------------------------------


def test_the_club_settings_form_sets_first_card_opens_night(client, club, secretary):
    client.force_login(secretary)
    page = client.get(reverse("club_setup", args=[club.slug])).content.decode()
    assert 'name="first_card_opens_night"' in page


def test_printed_cards_are_a6_one_card_a_page_with_the_label(client, club, secretary):
    cards.issue_cards(club, secretary, 3)
    client.force_login(secretary)
    response = client.get(reverse("table_cards_print", args=[club.slug]))
    assert response["Content-Type"] == "application/pdf"
    pdf = b"".join(response.streaming_content) if response.streaming else response.content
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 3
    for page in reader.pages:
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        assert (round(width / 72 * 25.4), round(height / 72 * 25.4)) == (105, 148)  # A6 in mm
    words = subprocess.run(
        ["pdftotext", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()
    for n in (1, 2, 3):
        assert f"Table {n}" in words
    assert words.count("Scan to score this table") == 3
    assert "Crown & Anchor Solo School" in words


def test_the_night_page_of_the_secretary_follows_tables_as_they_sit_down(
    client, club, secretary, players, card3, tonight
):
    client.force_login(secretary)
    url = reverse("night_detail", args=[club.slug, tonight.pk])
    empty = client.get(url)
    assert "Players can seat themselves by scanning their table's card" in text(empty)
    cards.seat_table(card3, tonight, players[:4])
    seated = client.get(url)
    assert seated["ETag"] != empty["ETag"]  # the page's live check sees the new table
    assert "Table 3" in text(seated)
