"""Club set-up through its pages: settings, players, seasons, rule sets and members."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

import scoring
from club.clubs.models import (
    AuditEvent,
    Club,
    Invitation,
    Membership,
    Player,
    Role,
    RuleSet,
    Season,
)
from club.play.services.hand_entry import HandEntry
from club.play.services.hands import record_hand


@pytest.fixture
def sec_client(client, secretary):
    client.force_login(secretary)
    return client


def u(name: str, *args) -> str:
    return reverse(name, args=["crown", *args])


# Club settings ---------------------------------------------------------------------------------


def test_settings_change_the_unit_and_make_the_club_public(sec_client, club):
    response = sec_client.post(
        u("club_setup"),
        {
            "name": "Crown Solo School",
            "unit_kind": "points",
            "currency_symbol": "£",
            "minor_units": 100,
            "points_label": "pts",
            "is_public": "on",
        },
        follow=True,
    )
    assert "Club settings saved." in response.content.decode()
    club.refresh_from_db()
    assert (club.name, club.unit_kind, club.is_public) == ("Crown Solo School", "points", True)
    assert "120 pts" in response.content.decode()  # the example of how amounts now show


def test_settings_form_errors_leave_the_club_as_it_was(sec_client, club):
    response = sec_client.post(
        u("club_setup"), {"name": "", "unit_kind": "money", "minor_units": 7}
    )
    form = response.context["form"]
    assert set(form.errors) == {"name", "minor_units"}
    assert Club.objects.get(pk=club.pk).name == "Crown & Anchor Solo School"
    # The header still shows the saved name, not the rejected one.
    assert "<title>Set-up · Crown &amp; Anchor Solo School</title>" in response.content.decode()


def test_setup_page_links_to_every_part(sec_client, players, hoyle, season):
    body = sec_client.get(u("club_setup")).content.decode()
    for name in ("player_list", "season_list", "rule_set_list", "member_list"):
        assert f'href="{u(name)}"' in body
    assert "9 in the club" in body


# Players ---------------------------------------------------------------------------------------


def test_add_a_player(sec_client, club):
    response = sec_client.post(u("player_create"), {"name": "  Zoë   Abbott "}, follow=True)
    assert Player.objects.get(club=club).name == "Zoë Abbott"
    assert "Zoë Abbott added to the club." in response.content.decode()


def test_duplicate_player_name_ignoring_case_is_a_form_error(sec_client, players):
    response = sec_client.post(u("player_create"), {"name": "ANN"})
    assert response.status_code == 200
    assert response.context["form"].errors["name"] == [
        "There is already a player called Ann in this club."
    ]
    assert "There is already a player called Ann in this club." in response.content.decode()
    assert Player.objects.filter(name__iexact="ann").count() == 1


def test_the_same_name_in_another_club_is_fine(sec_client, other_club, club):
    Player.objects.create(club=other_club, name="Ann")
    sec_client.post(u("player_create"), {"name": "Ann"})
    assert Player.objects.filter(club=club, name="Ann").exists()


def test_rename_and_mark_inactive(sec_client, players):
    ann, bob = players[:2]
    response = sec_client.post(u("player_edit", ann.pk), {"name": "Annie"}, follow=True)
    ann.refresh_from_db()
    assert (ann.name, ann.active) == ("Annie", False)
    body = response.content.decode()
    assert "Ann is now called Annie (inactive" in body
    assert '<tr class="inactive">' in body
    # Renaming to another player's name (any case) is refused.
    response = sec_client.post(u("player_edit", ann.pk), {"name": "bob", "active": "on"})
    assert response.context["form"].errors["name"] == [
        "There is already a player called Bob in this club."
    ]
    assert Player.objects.get(pk=ann.pk).name == "Annie"


def test_keeping_ones_own_name_in_another_case_is_allowed(sec_client, players):
    sec_client.post(u("player_edit", players[0].pk), {"name": "ANN", "active": "on"})
    assert Player.objects.get(pk=players[0].pk).name == "ANN"


def test_html_in_player_names_is_escaped(sec_client, club):
    sec_client.post(u("player_create"), {"name": "<script>alert(1)</script>"})
    body = sec_client.get(u("player_list")).content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body
    assert "<script>alert(1)" not in body


def test_player_list_is_readable_by_a_viewer_without_change_links(client, viewer, players):
    client.force_login(viewer)
    body = client.get(u("player_list")).content.decode()
    assert all(p.name in body for p in players)
    assert u("player_edit", players[0].pk) not in body


# Seasons ---------------------------------------------------------------------------------------


def season_data(rule_set, **changes):
    data = {
        "name": "Summer 2027",
        "start": "2027-04-01",
        "end": "2027-08-31",
        "rule_set": rule_set.pk,
        "standings_method": "points",
        "standings_rule_set": "",
        "min_nights": 3,
        "best_nights": 10,
    }
    return data | changes


def test_create_a_season(sec_client, club, hoyle):
    response = sec_client.post(u("season_create"), season_data(hoyle), follow=True)
    season = Season.objects.get(club=club, name="Summer 2027")
    assert (season.start, season.end) == (dt.date(2027, 4, 1), dt.date(2027, 8, 31))
    assert (season.rule_set, season.standings_method, season.min_nights, season.best_nights) == (
        hoyle,
        "points",
        3,
        10,
    )
    assert "Season Summer 2027 saved." in response.content.decode()


def test_season_ending_before_it_starts_is_an_error_on_the_end_date(sec_client, hoyle):
    response = sec_client.post(u("season_create"), season_data(hoyle, end="2027-03-01"))
    assert response.context["form"].errors == {
        "end": ["The season must end on or after the day it starts."]
    }
    assert not Season.objects.exists()


def test_season_names_are_unique_in_the_club(sec_client, season, hoyle):
    response = sec_client.post(u("season_create"), season_data(hoyle, name="winter 2026"))
    assert "There is already a season called winter 2026." in response.content.decode()
    assert Season.objects.count() == 1


def test_season_cannot_use_another_clubs_rule_set(sec_client, other_club):
    from club.clubs.services.setup import rule_set_from_preset

    theirs = rule_set_from_preset(other_club, "standard")
    response = sec_client.post(u("season_create"), season_data(theirs))
    # No rule set of our own yet: the page sends the secretary to create one first.
    assert response.status_code == 302 and response["Location"] == u("rule_set_create")
    ours = rule_set_from_preset(Club.objects.get(slug="crown"), "hoyle")
    response = sec_client.post(u("season_create"), season_data(theirs))
    assert "rule_set" in response.context["form"].errors
    assert not Season.objects.filter(club__slug="crown").exists()
    assert ours.pk != theirs.pk


def test_edit_a_season_and_its_rule_set_is_fixed_once_hands_are_scored(
    sec_client, season, hoyle, table4, players, secretary, club
):
    standard = RuleSet.objects.create(
        club=club, name="Standard", data=scoring.preset("standard").to_dict()
    )
    data = season_data(standard, name="Winter 26/27", start="2026-09-01", end="2027-03-31")
    sec_client.post(u("season_edit", season.pk), data)
    season.refresh_from_db()
    assert (season.name, season.rule_set) == ("Winter 26/27", standard)

    season.rule_set = hoyle
    season.save()
    record_hand(
        table4,
        HandEntry(dealer=players[0], contract="solo", declarer=players[1], tricks=5),
        secretary,
    )
    response = sec_client.post(u("season_edit", season.pk), data | {"min_nights": 5})
    season.refresh_from_db()
    assert (season.rule_set, season.min_nights) == (hoyle, 5)  # the rule set stayed
    assert response.status_code == 302
    body = sec_client.get(u("season_edit", season.pk)).content.decode()
    assert "This season has scored hands, so its rule set can no longer change." in body


# Rule sets -------------------------------------------------------------------------------------


def test_create_a_rule_set_from_a_preset(sec_client, club):
    club.currency_symbol = "$"  # the cents preset counts in the club's unit
    club.save()
    response = sec_client.post(u("rule_set_create"), {"preset": "cents", "name": "Cents"})
    rule_set = RuleSet.objects.get(club=club, name="Cents")
    assert response["Location"] == u("rule_set_edit", rule_set.pk)
    assert rule_set.preset == "cents"
    assert rule_set.data == scoring.preset("cents").copy(name="Cents").to_dict()
    assert rule_set.rules.stake(scoring.Contract.ROYAL_ABUNDANCE).base == 60


def custom_data(name="House rules", **changes):
    """The custom form filled in with the Hoyle figures."""
    rules = scoring.preset("hoyle")
    data = {
        "name": name,
        "payment": "per_opponent",
        "prop_cop_slam_double": "on",
        "revoke_tricks": 3,
        "all_passed": "redeal",
        "general_misere_stake": 6,
        "sit_out": "dealer_right",
        "abundance_declared_names_trumps": "on",
    }
    for contract, stake in rules.stakes.items():
        for part in ("base", "over", "under"):
            data[f"stake_{contract.value}_{part}"] = getattr(stake, part)
    return data | changes


def test_custom_rule_set_from_the_stakes_table_and_options(sec_client, club):
    data = custom_data(
        stake_solo_over=2, all_passed="general_misere", general_misere_stake=10, trump_rotation="on"
    )
    response = sec_client.post(u("rule_set_custom"), data)
    assert response.status_code == 302, response.context["form"].errors
    rules = RuleSet.objects.get(club=club, name="House rules").rules
    assert rules.stake(scoring.Contract.SOLO) == scoring.Stake(6, over=2, under=1)
    assert rules.stake(scoring.Contract.ABUNDANCE) == scoring.Stake(18, over=2, under=1)
    assert rules.all_passed is scoring.AllPassed.GENERAL_MISERE
    assert rules.general_misere_stake == 10
    assert rules.sit_out is scoring.SitOut.DEALER_RIGHT
    assert rules.prop_cop_slam_double and rules.abundance_declared_names_trumps
    assert rules.trump_rotation[0] is scoring.Trump.HEARTS and len(rules.trump_rotation) == 5


def test_custom_form_starts_from_the_chosen_preset(sec_client):
    response = sec_client.get(u("rule_set_custom") + "?preset=cents")
    form = response.context["form"]
    assert form["stake_open_misere_base"].value() == 75
    assert 'name="stake_open_misere_base" value="75"' in response.content.decode()


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        (
            {"stake_misere_base": 4},
            "stake_misere_base",
            "Misère (4) cannot be worth less than Solo (6), the lower call.",
        ),
        ({"stake_solo_base": 0}, "stake_solo_base", "The base stake must be above zero."),
        ({"stake_solo_over": -1}, "stake_solo_over", "Cannot be negative."),
        (
            {"all_passed": "general_misere", "general_misere_stake": 0},
            "general_misere_stake",
            "A general misère needs a stake above zero.",
        ),
        ({"revoke_tricks": 14}, "revoke_tricks", "Must be between 0 and 13."),
    ],
)
def test_rule_set_errors_from_the_scoring_core_show_beside_their_field(
    sec_client, changes, field, message
):
    response = sec_client.post(u("rule_set_custom"), custom_data(**changes))
    assert response.status_code == 200
    assert response.context["form"].errors == {field: [message]}
    assert message.replace("'", "&#x27;") in response.content.decode()
    assert not RuleSet.objects.exists()


def test_rule_set_name_must_be_unique(sec_client, hoyle):
    response = sec_client.post(u("rule_set_custom"), custom_data(name="hoyle SIXPENCES"))
    assert response.context["form"].errors == {
        "name": ["There is already a rule set called hoyle SIXPENCES."]
    }


def test_edit_an_unused_rule_set(sec_client, hoyle):
    sec_client.post(
        u("rule_set_edit", hoyle.pk),
        custom_data(name="Hoyle", stake_solo_base=7, stake_prop_cop_base=7),
    )
    hoyle.refresh_from_db()
    assert hoyle.name == "Hoyle" and hoyle.rules.stake(scoring.Contract.SOLO).base == 7


def test_a_used_rule_set_cannot_be_edited_and_is_copied_instead(
    sec_client, hoyle, table4, players, secretary
):
    record_hand(
        table4,
        HandEntry(dealer=players[0], contract="solo", declarer=players[1], tricks=5),
        secretary,
    )
    data_before = dict(hoyle.data)

    page = sec_client.get(u("rule_set_edit", hoyle.pk)).content.decode()
    assert "Copy to a new rule set" in page
    assert "Save rule set" not in page

    response = sec_client.post(
        u("rule_set_edit", hoyle.pk), custom_data(name="Changed", stake_solo_base=9), follow=True
    )
    hoyle.refresh_from_db()
    assert hoyle.data == data_before and hoyle.name == "Hoyle sixpences"
    assert "has scored hands, so it cannot change" in response.content.decode()

    response = sec_client.post(u("rule_set_copy", hoyle.pk))
    copy = RuleSet.objects.exclude(pk=hoyle.pk).get()
    assert copy.name == "Hoyle sixpences (copy)"
    assert copy.rules.stakes == hoyle.rules.stakes and not copy.is_used
    assert response["Location"] == u("rule_set_edit", copy.pk)
    sec_client.post(
        u("rule_set_edit", copy.pk),
        custom_data(name="Hoyle 7d", stake_solo_base=7, stake_prop_cop_base=7),
    )
    copy.refresh_from_db()
    assert copy.rules.stake(scoring.Contract.SOLO).base == 7
    assert RuleSet.objects.get(pk=hoyle.pk).rules.stake(scoring.Contract.SOLO).base == 6


def test_rule_set_list_marks_the_used_ones(sec_client, hoyle, club, table4, players, secretary):
    RuleSet.objects.create(club=club, name="Spare", data=scoring.preset("standard").to_dict())
    record_hand(
        table4,
        HandEntry(dealer=players[0], contract="solo", declarer=players[1], tricks=5),
        secretary,
    )
    body = sec_client.get(u("rule_set_list")).content.decode()
    hoyle_row = body[body.index("Hoyle sixpences") :]
    assert hoyle_row.index("In use: frozen") < hoyle_row.index("Spare")
    assert "Editable" in body[body.index("Spare") :]


# Members ---------------------------------------------------------------------------------------


def test_an_existing_user_is_invited_and_joins_only_by_accepting(
    sec_client, club, django_user_model
):
    newbie = django_user_model.objects.create_user(username="newbie", password="x")
    response = sec_client.post(
        u("member_add"), {"username": "newbie", "role": "scorer"}, follow=True
    )
    assert "newbie is invited as table scorer" in response.content.decode()
    assert not Membership.objects.filter(club=club, user=newbie).exists()
    assert "Invited, not answered yet" in sec_client.get(u("member_list")).content.decode()
    # Newbie logs in: the home page shows the invitation; joining makes the membership.
    theirs = Client()
    theirs.force_login(newbie)
    assert "1 invitation waiting" in theirs.get(reverse("home")).content.decode()
    invitation = Invitation.objects.get(user=newbie)
    response = theirs.post(reverse("invitation_accept", args=[invitation.pk]), follow=True)
    assert "You are now a table scorer of Crown" in response.content.decode()
    assert Membership.objects.get(club=club, user=newbie).role == Role.SCORER
    # Used once: a second answer is a 404, and the membership stays as it is.
    assert theirs.post(reverse("invitation_decline", args=[invitation.pk])).status_code == 404
    trail = AuditEvent.objects.filter(club=club).values_list("subject", flat=True)
    assert "newbie invited as table scorer" in trail
    assert "newbie accepted the invitation" in trail


def test_a_declined_or_withdrawn_invitation_makes_no_member(sec_client, club, django_user_model):
    newbie = django_user_model.objects.create_user(username="newbie", password="x")
    sec_client.post(u("member_add"), {"username": "newbie", "role": "viewer"})
    again = sec_client.post(u("member_add"), {"username": "newbie", "role": "viewer"})
    assert "has been invited already" in again.content.decode()
    theirs = Client()
    theirs.force_login(newbie)
    invitation = Invitation.objects.get(user=newbie)
    theirs.post(reverse("invitation_decline", args=[invitation.pk]))
    assert not Membership.objects.filter(user=newbie).exists()
    sec_client.post(u("member_add"), {"username": "newbie", "role": "viewer"})
    second = Invitation.objects.get(user=newbie, declined_at=None)
    withdraw = u("invitation_withdraw", second.pk)
    assert "Withdraw the invitation of newbie?" in sec_client.get(withdraw).content.decode()
    sec_client.post(withdraw)
    assert theirs.post(reverse("invitation_accept", args=[second.pk])).status_code == 404
    assert not Membership.objects.filter(user=newbie).exists()


def test_adding_an_unknown_or_existing_member_is_a_form_error(sec_client, viewer):
    response = sec_client.post(u("member_add"), {"username": "ghost", "role": "viewer"})
    assert response.context["add_form"].errors == {"username": ["There is no user called ghost."]}
    response = sec_client.post(u("member_add"), {"username": "viewer", "role": "viewer"})
    assert response.context["add_form"].errors == {
        "username": ["viewer is already a member of the club."]
    }


def test_change_a_role(sec_client, viewer, club):
    member = Membership.objects.get(user=viewer)
    sec_client.post(u("member_role", member.pk), {f"m{member.pk}-role": "scorer"})
    assert Membership.objects.get(pk=member.pk).role == Role.SCORER


def test_the_last_secretary_cannot_step_down_or_be_removed(sec_client, secretary, viewer):
    own = Membership.objects.get(user=secretary)
    response = sec_client.post(u("member_role", own.pk), {f"m{own.pk}-role": "viewer"}, follow=True)
    assert "only secretary" in response.content.decode()
    assert Membership.objects.get(pk=own.pk).role == Role.SECRETARY
    response = sec_client.post(u("member_remove", own.pk), follow=True)
    assert "only secretary" in response.content.decode()
    assert Membership.objects.filter(pk=own.pk).exists()
    # With a second secretary, the first may step down.
    other = Membership.objects.get(user=viewer)
    sec_client.post(u("member_role", other.pk), {f"m{other.pk}-role": "secretary"})
    response = sec_client.post(u("member_role", own.pk), {f"m{own.pk}-role": "viewer"})
    assert Membership.objects.get(pk=own.pk).role == Role.VIEWER
    assert response["Location"] == reverse("club", args=["crown"])  # set-up is closed to them now


def test_remove_a_member_after_confirming(sec_client, viewer):
    member = Membership.objects.get(user=viewer)
    page = sec_client.get(u("member_remove", member.pk)).content.decode()
    assert "Remove viewer?" in page and "Remove from the club" in page
    assert Membership.objects.filter(pk=member.pk).exists()  # a GET removes nothing
    response = sec_client.post(u("member_remove", member.pk), follow=True)
    assert not Membership.objects.filter(pk=member.pk).exists()
    assert get_user_model().objects.filter(username="viewer").exists()  # the account stays
    assert "viewer is no longer a member" in response.content.decode()


def test_create_a_user_with_a_temporary_password(sec_client, club, client):
    response = sec_client.post(
        u("member_create_user"), {"username": "jo", "email": "jo@example.org", "role": "scorer"}
    )
    password = response.context["password"]
    assert "no-store" in response["Cache-Control"]
    assert len(password) >= 10 and password in response.content.decode()
    assert Membership.objects.get(user__username="jo", club=club).role == Role.SCORER
    sec_client.logout()
    assert sec_client.login(username="jo", password=password)
    # The username is taken now: a second attempt is a form error, not a crash.
    sec_client.logout()
    sec_client.force_login(Membership.objects.get(role=Role.SECRETARY).user)
    response = sec_client.post(u("member_create_user"), {"username": "JO", "role": "viewer"})
    assert "username" in response.context["new_user_form"].errors


def test_a_new_ladder_rule_set_rescores_the_season_and_is_recorded(
    sec_client, season, hoyle, table4, players, secretary, club
):
    from django.db.models import Sum

    from club.clubs.models import AuditEvent
    from club.play.models import NightTotal, ScoreLine

    ann, bob, cat, dan = players[:4]
    record_hand(table4, HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=6), secretary)
    record_hand(
        table4,
        HandEntry(dealer=bob, contract="prop_cop", declarer=cat, partner=dan, tricks=8),
        secretary,
    )
    anna = RuleSet.objects.create(
        club=club, name="Anna Cubed", data=scoring.preset("anna-cubed").to_dict()
    )
    data = season_data(
        hoyle, name=season.name, start="2026-09-01", end="2027-03-31", standings_rule_set=anna.pk
    )
    response = sec_client.post(u("season_edit", season.pk), data, follow=True)
    assert (
        "scored again under the new rule set (8 score lines changed)" in response.content.decode()
    )
    # Winner-only points: Bob 1 for his solo, Cat and Dan 1 each for their Prop & Cop.
    points = dict(
        ScoreLine.objects.values_list("player__name").annotate(p=Sum("points")).order_by()
    )
    assert points == {"Ann": 0, "Bob": 1, "Cat": 1, "Dan": 1}
    totals = dict(NightTotal.objects.values_list("player__name", "points"))
    assert totals == points
    # The money is untouched: Bob's solo made with one over-trick at Hoyle stakes.
    assert ScoreLine.objects.get(player=bob, hand__number=1).amount == 21
    event = AuditEvent.objects.get(subject=f"{season.name}: ladder rule set")
    assert event.user == secretary
    assert event.after == {"standings_rule_set": "Anna Cubed", "score_lines_rescored": 8}


def test_a_custom_trump_rotation_order_a_wager_unit_and_the_redeal(sec_client, club):
    """The rule-set form sets what used to take the data file: the rotation's order (spades
    first, a cycle of three), the stakes in units of 5p, and who deals after a misdeal."""
    data = custom_data(
        trump_rotation="on",
        rotation_0="spades",
        rotation_1="no_trumps",
        rotation_2="hearts",
        rotation_3="",
        rotation_4="",
        stake_unit=5,
        redeal_by="next",
    )
    response = sec_client.post(u("rule_set_custom"), data)
    assert response.status_code == 302, response.context["form"].errors
    rules = RuleSet.objects.get(club=club, name="House rules").rules
    assert rules.trump_rotation == (
        scoring.Trump.SPADES,
        scoring.Trump.NO_TRUMPS,
        scoring.Trump.HEARTS,
    )
    assert rules.stake_unit == 5 and rules.redeal_by is scoring.Redeal.NEXT
    # The form shows them again as saved.
    page = sec_client.get(u("rule_set_edit", RuleSet.objects.get(name="House rules").pk))
    form = page.context["form"]
    assert [form[f"rotation_{i}"].value() for i in range(3)] == ["spades", "no_trumps", "hearts"]
    assert form["stake_unit"].value() == 5


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"rotation_1": "spades"}, "rotation_0", "A suit appears twice."),
        (
            {
                "rotation_0": "",
                "rotation_1": "",
                "rotation_2": "",
                "rotation_3": "",
                "rotation_4": "",
            },
            "rotation_0",
            "Choose the suits the trumps rotate through, in order.",
        ),
        ({"stake_unit": 0}, "stake_unit", "Ensure this value is greater than or equal to 1."),
    ],
)
def test_rotation_and_wager_mistakes_are_named(sec_client, changes, field, message):
    data = custom_data(trump_rotation="on", **({"rotation_0": "spades"} | changes))
    response = sec_client.post(u("rule_set_custom"), data)
    assert response.status_code == 200
    assert response.context["form"].errors[field] == [message]
