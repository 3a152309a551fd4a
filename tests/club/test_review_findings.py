"""Findings of an adversarial review: each test shows a bug (fixed in the same commit) or pins a
behaviour the review checked across the whole app (every URL with another club's ids)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.apps import apps
from django.test import Client
from django.urls import reverse
from tournament_kit import make_tournament

from club import urls as club_urls
from club.models import Debt, Invitation, Membership, Player, Season, Settlement
from club.services import tournaments as tournament_services
from club.services.hands import HandEntry, record_hand
from club.services.results_mail import unsubscribe_token
from club.services.setup import create_night, rule_set_from_preset
from club.services.table_cards import issue_cards

# -- every URL of a club, with another club's ids -------------------------------------------------


def _everything() -> list[tuple[str, list[tuple]]]:
    """Every row of every model of the app (and the users), to show that nothing was written."""
    rows = []
    for model in [*apps.get_app_config("club").get_models(), apps.get_model("auth", "User")]:
        values = model.objects.order_by("pk").values()
        rows.append((model.__name__, [tuple(sorted(v.items())) for v in values]))
    return rows


def _club_world(club, season, players, user) -> dict[str, Any]:
    """One club's objects of every kind a URL takes: a night with a hand, a running tournament."""
    night = create_night(season, dt.date(2026, 11, 20), [(players[:4], 0)])
    table = night.tables.get()
    hand = record_hand(
        table,
        HandEntry(dealer=players[0], contract="solo", declarer=players[1], tricks=6),
        user,
    )
    tournament = make_tournament(season, players[:8], rounds=2, hands=1, director=user)
    tournament_services.start(tournament, user)
    return {
        "night_id": night.pk,
        "table_id": table.pk,
        "hand_id": hand.pk,
        "player_id": players[0].pk,
        "season_id": season.pk,
        "rule_set_id": season.rule_set_id,
        "member_id": Membership.objects.get(user=user, club=season.club).pk,
        "tournament_id": tournament.pk,
        # After the night: an IOU, and a player's signed unsubscribe token (also tried
        # as a claim link's token, which it is not).
        "debt_id": Debt.objects.create(
            club=season.club, night=night, payer=players[0], payee=players[1], amount=5
        ).pk,
        "token": unsubscribe_token(players[0].pk),
        "invitation_id": Invitation.objects.create(
            club=season.club, user=user.__class__.objects.create_user(f"invitee-{user.pk}")
        ).pk,
        "settlement_id": Settlement.objects.create(
            debt=Debt.objects.filter(club=season.club).first(), amount=1, kind="paid", via="x"
        ).pk,
        "card_id": issue_cards(season.club, user)[0].pk,
    }


@pytest.fixture
def two_clubs(club, other_club, secretary, outsider, season, players):
    """Crown (the fixtures' club) and Red Lion (the outsider's), each with one of everything."""
    rules = rule_set_from_preset(other_club, "standard", "Red Lion rules")
    red_season = Season.objects.create(
        club=other_club,
        name="Red Lion 2026",
        start=dt.date(2026, 1, 1),
        end=dt.date(2026, 12, 31),
        rule_set=rules,
    )
    red_players = [
        Player.objects.create(club=other_club, name=n)
        for n in ("Rae", "Sol", "Tom", "Uma", "Vic", "Wyn", "Xan", "Yas")
    ]
    crown = _club_world(club, season, players, secretary)
    red = _club_world(other_club, red_season, red_players, outsider)
    return crown, red


def _id_patterns() -> list[tuple[str, list[str]]]:
    """(url name, the names of its id arguments) for every club URL that takes an object id."""
    found = []
    for pattern in club_urls.club_patterns:
        names = list(pattern.pattern.converters)
        if names:
            found.append((pattern.name, names))
    return found


@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize(("name", "kinds"), _id_patterns(), ids=lambda v: str(v))
def test_every_url_with_another_clubs_ids_is_a_404_and_writes_nothing(
    two_clubs, secretary, outsider, name, kinds, method
):
    crown, red = two_clubs
    # Each argument in turn taken from the other club (the rest from the club of the URL).
    sides = ((secretary, "crown", crown, red), (outsider, "redlion", red, crown))
    for user, slug, own, foreign in sides:
        client = Client()
        client.force_login(user)
        for wrong in kinds:
            args = [foreign[k] if k == wrong else own[k] for k in kinds]
            before = _everything()
            response = getattr(client, method)(reverse(name, args=[slug, *args]))
            # A page that does not take the method answers 405 before looking anything up.
            assert response.status_code in (404, 405), (name, wrong, response.status_code)
            assert b"Red Lion" not in response.content and b"Crown" not in response.content
            assert _everything() == before, (name, wrong)


# -- a ladder rule set with scored points is frozen like one with scored hands -------------------


def _rule_set_post(rules, name: str, **changes: Any) -> dict[str, Any]:
    """The custom rule-set form filled in with these rules' figures."""
    data: dict[str, Any] = {
        "name": name,
        "payment": rules.payment.value,
        "revoke_tricks": rules.revoke_tricks,
        "all_passed": rules.all_passed.value,
        "general_misere_stake": rules.general_misere_stake,
        "sit_out": rules.sit_out.value,
    }
    for contract, stake in rules.stakes.items():
        for part in ("base", "over", "under"):
            data[f"stake_{contract.value}_{part}"] = getattr(stake, part)
    return data | changes


def test_a_ladder_rule_set_with_scored_points_cannot_be_changed_in_place(
    client, secretary, season, table4, players
):
    """The season's ladder scores every hand again under its ladder rule set (ScoreLine.points):
    changing that rule set in place would leave the standings' points scored under rules that no
    longer exist (DESIGN.md 4: a rule set that has scored hands is never changed in place)."""
    from club.models import NightTotal, RuleSet

    ladder = rule_set_from_preset(season.club, "anna-cubed", "Ladder points")
    season.standings_rule_set = ladder
    season.standings_method = "points"
    season.save()
    ann, bob = players[:2]
    record_hand(table4, HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=6), secretary)
    assert NightTotal.objects.get(player=bob).points == 1
    data_before = dict(ladder.data)

    client.force_login(secretary)
    url = reverse("rule_set_edit", args=["crown", ladder.pk])
    response = client.post(url, _rule_set_post(ladder.rules, "Ladder points", stake_solo_base=2))
    assert response.status_code == 302
    ladder.refresh_from_db()
    assert ladder.data == data_before  # refused: the points stay those of the rules shown
    assert ladder.is_used
    page = client.get(reverse("rule_set_list", args=["crown"])).content.decode()
    row = page[page.rindex("Ladder points") :]  # its row (the message above names it too)
    assert row.index("In use: frozen") < row.index("</tr>")
    assert RuleSet.objects.get(pk=ladder.pk).rules.stake("solo").base == 1


# -- stakes too big for the database --------------------------------------------------------------


@pytest.mark.parametrize("field", ["stake_solo_base", "stake_solo_over", "general_misere_stake"])
def test_a_stake_too_big_to_store_is_a_form_error_not_a_crash_later(
    client, secretary, season, table4, players, field
):
    """A score line's amount is a 32-bit integer on PostgreSQL: a rule set with stakes of a
    million million pence was accepted, then every hand scored under it failed with a database
    error (500). The form refuses such stakes with a message."""
    import scoring
    from club.models import RuleSet

    client.force_login(secretary)
    rules = scoring.preset("hoyle")
    huge = 10**12
    changes = {field: huge}
    if field == "stake_solo_base":  # every higher call must be worth at least as much
        changes |= {f"stake_{c.value}_base": huge for c in scoring.Contract}
    data = _rule_set_post(rules, "Huge", **changes)
    response = client.post(reverse("rule_set_custom", args=["crown"]), data)
    assert response.status_code == 200
    assert field in response.context["form"].errors
    assert "A stake can be at most 100,000" in response.content.decode()
    assert not RuleSet.objects.filter(name="Huge").exists()


# -- deleting a hand while another is being recorded at the same table ---------------------------


@pytest.mark.django_db(transaction=True)
def test_a_hand_recorded_while_another_is_deleted_leaves_no_gap(season, table4, players, secretary):
    """delete_hand renumbers the later hands, and record_hand numbers the new hand after the last
    under the table's row lock. The delete holds that lock too (its SELECT ... FOR UPDATE joins the
    table, and PostgreSQL locks every joined row), so a hand recorded meanwhile waits and is
    numbered after the renumbered hands: no gap (the trump rotation goes by hand number)."""
    import threading

    from django.db import connection, connections, transaction

    from club.models import Hand
    from club.services.hands import delete_hand

    if connection.vendor != "postgresql":
        pytest.skip("SQLite has one writer at a time: it refuses the second, it does not race")
    ann, bob, cat, _ = players[:4]
    for declarer in (bob, cat, ann):
        record_hand(
            table4,
            HandEntry(dealer=ann, contract="solo", declarer=declarer, tricks=5),
            secretary,
        )
    first = Hand.objects.get(table=table4, number=1)
    renumbered, release = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def deleting() -> None:
        try:
            with transaction.atomic():
                delete_hand(first, secretary)
                renumbered.set()  # hands 2 and 3 are now 1 and 2, not yet committed
                release.wait(10)
        except BaseException as error:  # reported below
            errors.append(error)
            renumbered.set()
        finally:
            connections.close_all()

    def recording() -> None:
        try:
            record_hand(
                table4,
                HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=6),
                secretary,
            )
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connections.close_all()

    deleter = threading.Thread(target=deleting)
    deleter.start()
    assert renumbered.wait(10)
    recorder = threading.Thread(target=recording)
    recorder.start()
    recorder.join(1.0)  # with the table locked by the delete, the recording waits for it
    release.set()
    deleter.join(10)
    recorder.join(10)
    assert not errors, errors
    numbers = sorted(Hand.objects.filter(table=table4).values_list("number", flat=True))
    assert numbers == [1, 2, 3]
