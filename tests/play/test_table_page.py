"""The table page and hand entry: the sheet for each role, entering, previewing, correcting and
deleting hands with and without htmx, rejected input, conflicts, closed nights, CSRF, escaping and
a fixed number of queries."""

from __future__ import annotations

import datetime as dt
import html as html_lib
import re

import pytest
from django.test import Client
from django.urls import reverse

import scoring
from club.clubs.models import AuditEvent, Player
from club.clubs.services.setup import rule_set_from_preset
from club.play.models import Hand, ScoreLine
from club.play.services.hand_entry import HandEntry
from club.play.services.hands import record_hand
from club.play.services.night_setup import create_night
from club.play.services.nights import close_night

HOYLE = scoring.preset("hoyle")
HTMX = {"HTTP_HX_REQUEST": "true"}
# Session, user, club, memberships, table, seats, the last hand (next dealer), hands, their
# revokes, score lines and the totals: the same whatever the number of hands.
TABLE_PAGE_QUERIES = 11


# --- helpers -----------------------------------------------------------------------------------


def table_url(table) -> str:
    return reverse("table_detail", args=["crown", table.pk])


def create_url(table) -> str:
    return reverse("hand_create", args=["crown", table.pk])


def preview_url(table) -> str:
    return reverse("hand_preview", args=["crown", table.pk])


def edit_url(hand) -> str:
    return reverse("hand_edit", args=["crown", hand.pk])


def delete_url(hand) -> str:
    return reverse("hand_delete", args=["crown", hand.pk])


def fields(dealer: Player, contract: str, **players_and_values) -> dict[str, object]:
    """Form data: players by id, everything else as given."""
    data: dict[str, object] = {"dealer": dealer.pk, "contract": contract}
    for name, value in players_and_values.items():
        data[name] = value.pk if isinstance(value, Player) else value
    return data


def db_amounts(hand: Hand) -> dict[str, int]:
    return {line.player.name: line.amount for line in hand.score_lines.select_related("player")}


def core_amounts(players, rules=HOYLE, **hand) -> dict[str, int]:
    """What the scoring core says, by name."""
    result = scoring.score_hand(scoring.Hand(players=tuple(p.name for p in players), **hand), rules)
    return result.amounts


def text(response) -> str:
    """The response as a reader sees it: tags dropped, whitespace squeezed."""
    html = response.content.decode()
    html = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", html, flags=re.S)
    return html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).strip())


def chosen(html: str, name: str) -> str | None:
    """The value a field shows as chosen: its checked button, or its selected option."""
    for tag in re.findall(rf'<input type="radio" name="{name}"[^>]*>', html):
        if " checked" in tag:
            return re.search(r'value="([^"]*)"', tag).group(1)
    select = re.search(rf'<select name="{name}".*?</select>', html, re.S)
    if select:
        option = re.search(r'<option value="([^"]*)" selected', select.group(0))
        return option.group(1) if option else None
    return None


def offered(html: str, name: str) -> list[str]:
    """The values a field offers (its buttons, or its options); not a hidden button (the player
    sitting out, whose button is kept for the next hand)."""
    values = [
        re.search(r'value="([^"]*)"', tag).group(1)
        for tag in re.findall(rf'<input type="radio" name="{name}"[^>]*>', html)
        if " disabled" not in tag
    ]
    select = re.search(rf'<select name="{name}".*?</select>', html, re.S)
    if select:
        values += re.findall(r'<option value="([^"]*)"', select.group(0))
    return [v for v in values if v]


def field_errors(response, name: str) -> str:
    """The text of the field wrapper `name` (label, input and its error messages)."""
    html = response.content.decode()
    # A choice drawn as buttons is a fieldset; a select or a box in "More" a div.
    match = re.search(
        rf'<fieldset class="field chips field-{name}[^"]*"[^>]*>(.*?)</fieldset>', html, re.S
    ) or re.search(
        rf'<div class="field field-{name}[^"]*"[^>]*>(.*?)</div>\s*(?=<div class="field|</div>)',
        html,
        re.S,
    )
    assert match, f"no field {name}"
    return html_lib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", match.group(0))))


def solo(table, dealer, declarer, tricks, user, **extra) -> Hand:
    return record_hand(
        table,
        HandEntry(dealer=dealer, contract="solo", declarer=declarer, tricks=tricks, **extra),
        user,
    )


@pytest.fixture
def scorer_client(client, scorer):
    client.force_login(scorer)
    return client


@pytest.fixture
def table3(season, players):
    """A night with one table of three: Ann, Bob, Cat."""
    night = create_night(season, dt.date(2026, 11, 27), [(players[:3], 0)])
    return night.tables.get()


# --- the page for each role --------------------------------------------------------------------


@pytest.mark.parametrize("role", ["secretary", "scorer"])
def test_scorers_see_the_sheet_with_amounts_totals_and_the_form(
    role, request, client, table4, players
):
    ann, bob, cat, dan = players[:4]
    user = request.getfixturevalue(role)
    solo(table4, ann, bob, 6, user)  # made, one over: 7 from each
    record_hand(
        table4,
        HandEntry(dealer=bob, contract="prop_cop", declarer=cat, partner=dan, tricks=7),
        user,
    )  # failed, one under: each partner pays 7
    client.force_login(user)
    response = client.get(table_url(table4))
    page = text(response)
    assert response.status_code == 200
    assert (
        "1 Ann Solo Bob 6 Made, 1 over -£0.07 -£0.07 +£0.21 +£0.21 -£0.07 -£0.07 -£0.07 -£0.07"
        in page
    )
    assert (
        "2 Bob Prop & Cop Cat & Dan 7 Failed, 1 under "
        "+£0.07 £0.00 +£0.07 +£0.28 -£0.07 -£0.14 -£0.07 -£0.14" in page
    )
    assert "Totals after 2 hands £0.00 +£0.28 -£0.14 -£0.14" in page
    html = response.content.decode()
    assert 'id="hand-form"' in html and 'name="expected_number" value="3"' in html
    assert "Hand 3" in page and "Dealer Cat" in page
    assert re.search(r'<input type="radio" name="contract"[^>]*autofocus', html)
    hand = Hand.objects.get(number=1)
    assert f'href="{edit_url(hand)}"' in html and f'hx-get="{delete_url(hand)}"' in html


def test_viewer_reads_the_sheet_without_form_or_links(client, viewer, secretary, table4, players):
    ann, bob = players[:2]
    hand = solo(table4, ann, bob, 5, secretary)
    client.force_login(viewer)
    response = client.get(table_url(table4))
    assert "Made -£0.06 -£0.06 +£0.18 +£0.18" in text(response)
    html = response.content.decode()
    assert (
        'id="hand-form"' not in html and edit_url(hand) not in html and delete_url(hand) not in html
    )


def test_another_clubs_secretary_gets_404_whatever_the_url(
    client, outsider, secretary, table4, players
):
    hand = solo(table4, players[0], players[1], 5, secretary)
    client.force_login(outsider)
    for url in (table_url(table4), preview_url(table4), edit_url(hand), delete_url(hand)):
        assert client.get(url).status_code == 404
    data = fields(players[1], "solo", declarer=players[2], tricks=5, expected_number=2)
    assert client.post(create_url(table4), data).status_code == 404
    assert client.post(delete_url(hand), {"version": 1}).status_code == 404
    # Their own club's slug does not open our hand either.
    assert client.get(reverse("hand_edit", args=["redlion", hand.pk])).status_code == 404
    assert client.get(reverse("table_detail", args=["redlion", table4.pk])).status_code == 404
    assert Hand.objects.count() == 1 and Hand.objects.get().version == 1


def test_anonymous_gets_404_for_a_private_club(client, table4):
    assert client.get(table_url(table4)).status_code == 404


def test_a_public_club_is_readable_anonymously_but_not_writable(
    client, club, secretary, table4, players
):
    club.is_public = True
    club.save()
    solo(table4, players[0], players[1], 5, secretary)
    response = client.get(table_url(table4))
    assert response.status_code == 200 and "+£0.18" in text(response)
    assert 'id="hand-form"' not in response.content.decode()
    data = fields(players[1], "solo", declarer=players[2], tricks=5, expected_number=2)
    response = client.post(create_url(table4), data)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert Hand.objects.count() == 1


# --- entering hands ----------------------------------------------------------------------------


def test_entering_a_hand_with_htmx_appends_the_row_and_resets_the_form(
    scorer_client, table4, players
):
    ann, bob, cat, dan = players[:4]
    data = fields(ann, "abundance", declarer=cat, tricks=10, trump="spades", expected_number=1)
    response = scorer_client.post(create_url(table4), data, **HTMX)
    assert response.status_code == 200
    hand = Hand.objects.get()
    assert (hand.number, hand.contract, hand.trump, hand.tricks) == (1, "abundance", "spades", 10)
    assert hand.made is True and hand.over_tricks == 1 and hand.dealer == ann
    expected = core_amounts(players[:4], contract="abundance", declarer="Cat", tricks=10)
    assert db_amounts(hand) == expected == {"Ann": -20, "Bob": -20, "Cat": 60, "Dan": -20}
    html = response.content.decode()
    # The form stays on the page: the next deal (hand 2, dealer Bob) in headers, and the message
    # and the sheet out of band.
    assert response["HX-Reswap"] == "none" and 'id="hand-form"' not in html
    assert response["X-Next-Number"] == "2" and response["X-Next-Dealer"] == str(bob.pk)
    assert '<section id="sheet" class="sheet" hx-swap-oob="true"' in html
    page = text(response)
    assert "Hand 1 saved: Abundance ♠ by Cat, Made, 1 over." in page
    assert "1 Ann Abundance ♠ Cat 10 Made, 1 over" in page
    assert "Totals after 1 hand -£0.20 -£0.20 +£0.60 -£0.20" in page
    assert "<html" not in html  # a partial, not the page


def test_entering_a_hand_without_htmx_redirects_back_to_the_sheet(scorer_client, table4, players):
    ann, bob, cat, dan = players[:4]
    data = fields(ann, "prop_cop", declarer=bob, partner=dan, tricks=13, expected_number=1)
    response = scorer_client.post(create_url(table4), data)
    assert response.status_code == 302 and response["Location"] == table_url(table4) + "#entry"
    hand = Hand.objects.get()
    assert (
        db_amounts(hand)
        == core_amounts(players[:4], contract="prop_cop", declarer="Bob", partner="Dan", tricks=13)
        == {"Ann": -16, "Bob": 16, "Cat": -16, "Dan": 16}
    )  # Hoyle: a Prop & Cop slam earns 16
    page = text(scorer_client.get(response["Location"]))
    assert "Hand 1 saved: Prop & Cop by Bob & Dan, Made, 5 over." in page
    assert "Totals after 1 hand -£0.16 +£0.16 -£0.16 +£0.16" in page


def test_a_revoke_is_scored_and_marked_on_the_sheet(scorer_client, table4, players):
    ann, bob, cat, dan = players[:4]
    data = fields(ann, "solo", declarer=bob, tricks=6, revoke_by=bob, expected_number=1)
    scorer_client.post(create_url(table4), data, **HTMX)
    hand = Hand.objects.get()
    assert db_amounts(hand) == core_amounts(
        players[:4], contract="solo", declarer="Bob", tricks=6, revoke_by="Bob"
    )
    page = text(scorer_client.get(table_url(table4)))
    assert "Failed, 2 under (3 tricks lost for the revoke) Revoke: Bob" in page


def test_all_passed_is_a_redeal_with_no_score(scorer_client, table4, players):
    # Fields of a contract left in the form are ignored when all passed.
    data = fields(players[0], "all_passed", declarer=players[1], tricks=7, expected_number=1)
    response = scorer_client.post(create_url(table4), data, **HTMX)
    hand = Hand.objects.get()
    assert hand.contract == "all_passed" and hand.declarer is None and hand.tricks is None
    assert set(db_amounts(hand).values()) == {0}
    assert "1 Ann All passed All passed: redeal" in text(response)
    assert "Hand 1 saved: All passed: redeal." in text(response)
    assert response["X-Next-Dealer"] == str(players[1].pk)  # the deal still passes, to Bob


def test_a_general_misere_asks_who_took_the_last_trick(client, club, secretary, season, players):
    rules = HOYLE.copy(
        name="Hoyle with general misère", all_passed="general_misere", general_misere_stake=6
    )
    from club.clubs.models import RuleSet

    season.rule_set = RuleSet.objects.create(club=club, name=rules.name, data=rules.to_dict())
    season.save()
    table = create_night(season, dt.date(2026, 12, 4), [(players[:4], 0)]).tables.get()
    client.force_login(secretary)
    html = client.get(table_url(table)).content.decode()
    assert 'value="all_passed"' in html and 'name="last_trick_by"' in html
    assert ">All passed<" in html
    missing = client.post(
        create_url(table), fields(players[0], "all_passed", expected_number=1), **HTMX
    )
    assert missing.status_code == 422 and "Who took the last trick?" in field_errors(
        missing, "last_trick_by"
    )
    data = fields(players[0], "all_passed", last_trick_by=players[2], expected_number=1)
    response = client.post(create_url(table), data, **HTMX)
    hand = Hand.objects.get()
    assert db_amounts(hand) == {"Ann": 6, "Bob": 6, "Cat": -18, "Dan": 6}
    assert "General misère: Cat took the last trick" in text(response)


# --- the preview -------------------------------------------------------------------------------


def test_preview_shows_the_result_and_amounts_and_saves_nothing(scorer_client, table4, players):
    ann, bob, cat, dan = players[:4]
    data = fields(ann, "abundance", declarer=dan, tricks=8, trump="hearts", expected_number=1)
    response = scorer_client.post(preview_url(table4), data, **HTMX)
    assert response.status_code == 200
    assert (
        text(response)
        == "Abundance ♥ by Dan : Failed, 1 under Ann +£0.19 Bob +£0.19 Cat +£0.19 Dan -£0.57"
    )
    # GET with the same fields works too.
    assert "Dan -£0.57" in text(scorer_client.get(preview_url(table4), data))
    assert not Hand.objects.exists() and not ScoreLine.objects.exists()
    assert not AuditEvent.objects.exists()


def test_preview_shows_the_scoring_cores_message_for_an_impossible_hand(
    scorer_client, table4, players
):
    data = fields(players[0], "all_passed", revoke_by=players[1])
    response = scorer_client.post(preview_url(table4), data, **HTMX)
    assert "A revoke can only be scored against a contract" in text(response)
    assert 'class="preview-body invalid"' in response.content.decode()
    response = scorer_client.post(preview_url(table4), fields(players[0], "solo", tricks=14))
    page = text(response)
    assert (
        "Tricks won: Tricks must be between 0 and 13" in page
        and "Declarer: Choose who declared" in page
    )
    assert not Hand.objects.exists()


def test_preview_before_a_contract_is_chosen_says_what_to_do(scorer_client, table4, players):
    response = scorer_client.post(preview_url(table4), {"dealer": players[0].pk})
    assert "Choose the contract" in text(response)


# --- rejected input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        (
            {"contract": "solo", "declarer": "Bob", "tricks": 14},
            "tricks",
            "Tricks must be between 0 and 13",
        ),
        (
            {"contract": "solo", "declarer": "Bob", "tricks": -1},
            "tricks",
            "Tricks must be between 0 and 13",
        ),
        (
            {"contract": "solo", "declarer": "Bob", "tricks": "lots"},
            "tricks",
            "Enter the tricks as a whole number",
        ),
        (
            {"contract": "solo", "declarer": "Bob"},
            "tricks",
            "Enter the tricks the declaring side won",
        ),
        ({"contract": "solo", "tricks": 5}, "declarer", "Choose who declared the Solo"),
        (
            {"contract": "prop_cop", "declarer": "Bob", "tricks": 8},
            "partner",
            "Prop & Cop needs a partner",
        ),
        (
            {"contract": "prop_cop", "declarer": "Bob", "partner": "Bob", "tricks": 8},
            "partner",
            "The partner must be a different player",
        ),
        (
            {"contract": "abundance", "declarer": "Bob", "tricks": 9},
            "trump",
            "names trumps: choose the suit",
        ),
        (
            {"contract": "solo", "declarer": "Zed", "tricks": 5},
            "declarer",
            "Choose one of the players",
        ),
        (
            {"contract": "grand_slam", "declarer": "Bob", "tricks": 5},
            "contract",
            "Choose one of the contracts",
        ),
        ({"declarer": "Bob", "tricks": 5}, "contract", "Choose the contract"),
    ],
)
def test_each_rejected_entry_shows_its_message_beside_its_field(
    scorer_client, table4, players, other_club, data, field, message
):
    by_name = {p.name: p for p in players}
    by_name["Zed"] = Player.objects.create(club=other_club, name="Zed")
    data = {k: by_name[v].pk if v in by_name else v for k, v in data.items()}
    data |= {"dealer": players[0].pk, "expected_number": 1}
    for extra in (HTMX, {}):
        response = scorer_client.post(create_url(table4), data, **extra)
        assert response.status_code == 422
        assert message in field_errors(response, field)
        assert re.search(
            rf'class="field (chips )?field-{field} has-error"', response.content.decode()
        )
    assert not Hand.objects.exists() and not ScoreLine.objects.exists()
    assert not AuditEvent.objects.exists()


def test_an_impossible_hand_shows_the_scoring_cores_message(scorer_client, table4, players):
    data = fields(players[0], "all_passed", revoke_by=players[2], expected_number=1)
    response = scorer_client.post(create_url(table4), data, **HTMX)
    assert response.status_code == 422
    assert re.search(
        r'<ul class="errorlist nonfield" role="alert">\s*'
        r"<li>A revoke can only be scored against a contract",
        response.content.decode(),
    )
    assert not Hand.objects.exists()


def test_two_scorers_saving_the_same_hand_never_duplicate_it(
    client, scorer, secretary, table4, players
):
    ann, bob, cat = players[:3]
    data = fields(ann, "solo", declarer=bob, tricks=5, expected_number=1)
    client.force_login(scorer)
    assert client.post(create_url(table4), data, **HTMX).status_code == 200
    other = Client()
    other.force_login(secretary)
    response = other.post(create_url(table4), data | {"declarer": cat.pk}, **HTMX)
    assert response.status_code == 409
    html = response.content.decode()
    assert "Hand 1 was saved by someone else while you were entering this one" in text(response)
    # The sheet as it is now, and a form for hand 2 with the next dealer.
    assert "1 Ann Solo Bob 5 Made" in text(response) and 'name="expected_number" value="2"' in html
    assert Hand.objects.count() == 1 and Hand.objects.get().declarer == bob
    response = other.post(create_url(table4), data)  # without htmx: the page, with the message
    assert response.status_code == 409 and "saved by someone else" in text(response)
    assert Hand.objects.count() == 1 and ScoreLine.objects.count() == 4


# --- correcting and deleting -------------------------------------------------------------------


def test_editing_a_hand_rescores_it_and_the_totals_follow(scorer_client, scorer, table4, players):
    ann, bob, cat, dan = players[:4]
    first = solo(table4, ann, bob, 5, scorer)
    solo(table4, bob, cat, 5, scorer)
    form = scorer_client.get(edit_url(first), **HTMX)
    html = form.content.decode()
    assert html.lstrip().startswith('<section id="entry" class="card entry editing"')
    assert 'name="version" value="1"' in html and "Correct hand 1" in html
    assert chosen(html, "declarer") == str(bob.pk)
    assert f'hx-post="{preview_url(table4)}?hand={first.pk}"' in html
    data = fields(ann, "misere", declarer=dan, tricks=0, version=1)
    response = scorer_client.post(edit_url(first), data, **HTMX)
    assert response.status_code == 200
    first.refresh_from_db()
    assert (first.number, first.contract, first.version, first.made) == (1, "misere", 2, True)
    assert db_amounts(first) == core_amounts(
        players[:4], contract="misere", declarer="Dan", tricks=0
    )
    page = text(response)
    assert "Hand 1 corrected: Misère by Dan, Made." in page
    # Dan's misère (+36, -12 each) and Cat's solo (+18, -6 each).
    assert "Totals after 2 hands -£0.18 -£0.18 +£0.06 +£0.30" in page
    assert 'name="expected_number" value="3"' in response.content.decode()  # back to new hands


def test_editing_without_htmx_shows_a_page_and_redirects(scorer_client, scorer, table4, players):
    ann, bob, cat = players[:3]
    hand = solo(table4, ann, bob, 5, scorer)
    page = scorer_client.get(edit_url(hand))
    assert "<html" in page.content.decode() and "Correct hand 1" in text(page)
    bad = scorer_client.post(
        edit_url(hand), fields(ann, "solo", declarer=bob, tricks=14, version=1)
    )
    assert bad.status_code == 422 and "Tricks must be between 0 and 13" in field_errors(
        bad, "tricks"
    )
    response = scorer_client.post(
        edit_url(hand), fields(ann, "solo", declarer=cat, tricks=4, version=1)
    )
    assert response.status_code == 302
    hand.refresh_from_db()
    assert hand.declarer == cat and db_amounts(hand)["Cat"] == -21
    assert "Hand 1 corrected" in text(scorer_client.get(response["Location"]))


def test_a_stale_version_is_refused_and_nothing_saved(scorer_client, scorer, table4, players):
    ann, bob, cat = players[:3]
    hand = solo(table4, ann, bob, 5, scorer)
    scorer_client.post(
        edit_url(hand), fields(ann, "solo", declarer=bob, tricks=6, version=1), **HTMX
    )
    response = scorer_client.post(
        edit_url(hand), fields(ann, "solo", declarer=cat, tricks=9, version=1), **HTMX
    )
    assert response.status_code == 409
    assert "Hand 1 was changed by someone else after you opened it" in text(response)
    assert "Correct hand 1" in text(response)  # the message is beside the form
    hand.refresh_from_db()
    assert (hand.declarer, hand.tricks, hand.version) == (bob, 6, 2)
    stale_delete = scorer_client.post(delete_url(hand), {"version": 1}, **HTMX)
    assert stale_delete.status_code == 409 and "was not deleted" in text(stale_delete)
    assert Hand.objects.filter(pk=hand.pk).exists()


def test_deleting_asks_first_then_renumbers_and_the_totals_follow(
    scorer_client, scorer, table4, players
):
    ann, bob, cat, dan = players[:4]
    hands = [solo(table4, d, decl, 5, scorer) for d, decl in ((ann, bob), (bob, cat), (cat, dan))]
    confirm = scorer_client.get(delete_url(hands[0]), **HTMX)
    assert (
        "Delete hand 1?" in text(confirm) and 'name="version" value="1"' in confirm.content.decode()
    )
    assert Hand.objects.count() == 3  # asking deletes nothing
    page = scorer_client.get(delete_url(hands[0]))  # without htmx: a page of its own
    assert "<html" in page.content.decode() and "Delete hand 1?" in text(page)
    response = scorer_client.post(delete_url(hands[0]), {"version": 1}, **HTMX)
    assert response.status_code == 200
    assert list(table4.hands.values_list("number", "declarer__name")) == [(1, "Cat"), (2, "Dan")]
    page = text(response)
    assert "Hand 1 deleted" in page
    assert "Totals after 2 hands -£0.12 -£0.12 +£0.12 +£0.12" in page
    assert 'name="expected_number" value="3"' in response.content.decode()
    response = scorer_client.post(delete_url(hands[2]), {"version": 1})
    assert response.status_code == 302
    assert list(table4.hands.values_list("number", "declarer__name")) == [(1, "Cat")]


# --- closed nights, roles and CSRF -------------------------------------------------------------


def test_a_closed_night_shows_the_sheet_only_and_refuses_changes(
    client, secretary, night, table4, players
):
    ann, bob = players[:2]
    hand = solo(table4, ann, bob, 5, secretary)
    night.season.club.correction_minutes = 0  # published at once: no correction window
    night.season.club.save()
    close_night(night, secretary)
    client.force_login(secretary)
    response = client.get(table_url(table4))
    html = response.content.decode()
    assert "+£0.18" in text(response) and "This night is closed" in text(response)
    assert 'id="hand-form"' not in html and edit_url(hand) not in html
    data = fields(bob, "solo", declarer=ann, tricks=5, expected_number=2)
    for extra in (HTMX, {}):
        for response in (
            client.post(create_url(table4), data, **extra),
            client.post(
                edit_url(hand), fields(ann, "solo", declarer=bob, tricks=9, version=1), **extra
            ),
            client.post(delete_url(hand), {"version": 1}, **extra),
        ):
            assert response.status_code == 409
            assert "This night is closed" in text(response)
    hand.refresh_from_db()
    assert Hand.objects.count() == 1 and hand.tricks == 5 and hand.version == 1
    assert client.get(edit_url(hand)).status_code == 409


def test_a_viewer_cannot_change_anything(client, viewer, secretary, table4, players):
    ann, bob = players[:2]
    hand = solo(table4, ann, bob, 5, secretary)
    client.force_login(viewer)
    data = fields(bob, "solo", declarer=ann, tricks=5, expected_number=2)
    assert client.post(create_url(table4), data, **HTMX).status_code == 403
    assert client.post(create_url(table4), data).status_code == 403
    edit = fields(ann, "solo", declarer=bob, tricks=9, version=1)
    assert client.post(edit_url(hand), edit).status_code == 403
    assert client.post(delete_url(hand), {"version": 1}).status_code == 403
    assert client.get(edit_url(hand)).status_code == 403
    assert client.post(preview_url(table4), data).status_code == 403
    hand.refresh_from_db()
    assert Hand.objects.count() == 1 and hand.tricks == 5 and ScoreLine.objects.count() == 4


def test_changes_need_the_csrf_token_as_htmx_sends_it(scorer, table4, players):
    client = Client(enforce_csrf_checks=True)
    client.force_login(scorer)
    data = fields(players[0], "solo", declarer=players[1], tricks=5, expected_number=1)
    assert client.post(create_url(table4), data, **HTMX).status_code == 403
    assert not Hand.objects.exists()
    page = client.get(table_url(table4)).content.decode()
    token = re.search(r"hx-headers='\{\"X-CSRFToken\": \"([^\"]+)\"\}'", page).group(1)
    response = client.post(create_url(table4), data, HTTP_X_CSRFTOKEN=token, **HTMX)
    assert response.status_code == 200 and Hand.objects.count() == 1


# --- names, table sizes, dealers ---------------------------------------------------------------


def test_player_names_are_shown_as_text(scorer_client, scorer, table4, players):
    bob = players[1]
    bob.name = "<b>Bo</b>"
    bob.save()
    solo(table4, players[0], bob, 5, scorer, revoke_by=None)
    html = scorer_client.get(table_url(table4)).content.decode()
    assert "<b>Bo</b>" not in html
    assert html.count("&lt;b&gt;Bo&lt;/b&gt;") >= 4  # header, row, dealer/declarer options
    preview = scorer_client.post(
        preview_url(table4), fields(players[1], "solo", declarer=bob, tricks=5)
    )
    assert (
        "<b>Bo</b>" not in preview.content.decode()
        and "&lt;b&gt;Bo&lt;/b&gt;" in preview.content.decode()
    )


def test_a_table_of_five_shows_who_sat_out_and_offers_only_those_playing(
    scorer_client, scorer, table5, players
):
    eve, fay, gus, hal, ivy = players[4:9]
    record_hand(table5, HandEntry(dealer=eve, contract="misere", declarer=fay, tricks=0), scorer)
    response = scorer_client.get(table_url(table5))
    html = response.content.decode()
    row = re.search(r'<tr id="hand-1">(.*?)</tr>', html, re.S).group(1)
    assert '<td class="num sat-out" title="Sat out">—</td>' in row  # Ivy, on Eve's right
    assert (
        "1 Eve Misère Fay 0 Made -£0.12 -£0.12 +£0.36 +£0.36 -£0.12 -£0.12 -£0.12 -£0.12 —"
        in text(response)
    )
    # Hand 2: Fay deals, Eve (on her right) sits out and is offered in no select but the dealer's.
    assert "<strong>Eve</strong> sits out" in html
    assert offered(html, "declarer") == [str(p.pk) for p in (fay, gus, hal, ivy)]
    assert "prop_cop" in html  # four play at a table of five
    data = fields(fay, "solo", declarer=eve, tricks=5, expected_number=2)
    response = scorer_client.post(create_url(table5), data, **HTMX)
    assert response.status_code == 422 and "Choose one of the players" in field_errors(
        response, "declarer"
    )
    data = fields(fay, "prop_cop", declarer=gus, partner=ivy, tricks=8, expected_number=2)
    scorer_client.post(create_url(table5), data, **HTMX)
    hand = Hand.objects.get(number=2)
    assert hand.sitting_out == eve
    assert db_amounts(hand) == {"Fay": -6, "Gus": 6, "Hal": -6, "Ivy": 6}


def test_changing_the_dealer_redraws_the_form_for_those_playing(scorer_client, table5, players):
    eve, fay, gus, hal, ivy = players[4:9]
    url = reverse("hand_form", args=["crown", table5.pk])
    response = scorer_client.post(url, fields(gus, "solo", declarer=hal, expected_number=1), **HTMX)
    html = response.content.decode()
    assert "<strong>Fay</strong> sits out" in html  # Gus deals: Fay, on his right, sits out
    assert chosen(html, "declarer") == str(hal.pk)
    assert re.search(r'<select name="dealer"[^>]*autofocus', html)
    assert "has-error" not in html  # not submitted yet: no error messages
    assert not Hand.objects.exists()


def test_a_table_of_three_has_no_prop_and_cop(scorer_client, table3, players):
    html = scorer_client.get(table_url(table3)).content.decode()
    contracts = offered(html, "contract")
    assert "prop_cop" not in contracts and "solo" in contracts and 'name="partner"' not in html
    data = fields(players[0], "prop_cop", declarer=players[1], tricks=8, expected_number=1)
    response = scorer_client.post(create_url(table3), data, **HTMX)
    assert response.status_code == 422
    assert "Prop & Cop is not played when only three play" in field_errors(response, "contract")
    data = fields(players[0], "solo", declarer=players[1], tricks=4, expected_number=1)
    scorer_client.post(create_url(table3), data, **HTMX)
    assert db_amounts(Hand.objects.get()) == {"Ann": 7, "Bob": -14, "Cat": 7}


def test_the_rotating_trump_is_filled_in(client, club, secretary, season, players):
    season.rule_set = rule_set_from_preset(club, "anna-cubed")
    season.save()
    table = create_night(season, dt.date(2026, 12, 11), [(players[:4], 0)]).tables.get()
    client.force_login(secretary)
    html = client.get(table_url(table)).content.decode()
    assert "trumps this hand <strong>♥ Hearts</strong>" in html
    assert chosen(html, "trump") == "hearts"
    client.post(
        create_url(table),
        fields(
            players[0], "solo", declarer=players[1], tricks=5, trump="hearts", expected_number=1
        ),
    )
    html = client.get(table_url(table)).content.decode()
    assert "trumps this hand <strong>♣ Clubs</strong>" in html


# --- the sheet partial and the query count -----------------------------------------------------


def test_htmx_get_of_the_page_returns_the_sheet_alone(client, viewer, secretary, table4, players):
    solo(table4, players[0], players[1], 5, secretary)
    client.force_login(viewer)
    html = client.get(table_url(table4), **HTMX).content.decode()
    assert html.lstrip().startswith('<section id="sheet"') and "<html" not in html
    assert "Totals after 1 hand" in html


@pytest.mark.parametrize("hand_count", [2, 40])
def test_the_table_page_issues_a_fixed_number_of_queries(
    hand_count, client, scorer, table5, players, django_assert_max_num_queries
):
    eve, fay, gus, hal, ivy = players[4:9]
    seats = [eve, fay, gus, hal, ivy]
    for n in range(hand_count):
        dealer = seats[n % 5]
        playing = [p for p in seats if p != seats[(n - 1) % 5]]
        entry = HandEntry(
            dealer=dealer,
            contract="prop_cop" if n % 2 else "solo",
            declarer=playing[0],
            partner=playing[1] if n % 2 else None,
            tricks=n % 14,
            revoke_by=playing[2] if n % 7 == 3 else None,
        )
        record_hand(table5, entry, scorer)
    client.force_login(scorer)
    with django_assert_max_num_queries(TABLE_PAGE_QUERIES):
        response = client.get(table_url(table5))
    # Each revoke is named twice: in the wide sheet's result column and in the phone's summary.
    revoke_hands = len([n for n in range(hand_count) if n % 7 == 3])
    assert text(response).count("Revoke:") == 2 * revoke_hands
    assert f"Totals after {hand_count} hands" in text(response)
