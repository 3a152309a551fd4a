"""Who may see and change what on the set-up and night pages.

Every page for every role: the secretary does everything, a table scorer reads and sets up nights,
a viewer reads, the secretary of another club gets a 404 everywhere, and an anonymous visitor is
sent to log in (or reads, when the club is public). Changes also need the CSRF token.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
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
from club.clubs.services.setup import rule_set_from_preset
from club.play.models import Night, Seat
from club.play.services.night_setup import create_night

READ, SCORE, MANAGE = "read", "score", "manage"
ROLES = ["secretary", "scorer", "viewer", "outsider", "anonymous"]
POWERS = {
    "secretary": {READ, SCORE, MANAGE},
    "scorer": {READ, SCORE},
    "viewer": {READ},
    "outsider": set(),
    "anonymous": set(),
}


@pytest.fixture
def world(club, secretary, scorer, viewer, outsider, night, players, hoyle, season):
    """The club's objects, by the names the URLs take."""
    return {
        "night": night,
        "player": players[0],
        "season": season,
        "rule_set": hoyle,
        "member": Membership.objects.get(user=viewer, club=club),
    }


def login(client: Client, request: pytest.FixtureRequest, role: str) -> None:
    if role != "anonymous":
        client.force_login(request.getfixturevalue(role))


@dataclass(frozen=True)
class Page:
    name: str
    power: str
    marker: str  # text the page shows when it is allowed
    obj: str | None = None  # the kind of object in the URL, if any


PAGES = [
    Page("night_list", READ, "Club nights"),
    Page("night_detail", READ, "Table 2", "night"),
    Page("player_list", READ, "Ann"),
    Page("night_create", SCORE, "New club night"),
    Page("club_setup", MANAGE, "Club settings"),
    Page("player_create", MANAGE, "Add a player"),
    Page("player_edit", MANAGE, "Active (offered when seating a night)", "player"),
    Page("season_list", MANAGE, "Winter 2026"),
    Page("season_create", MANAGE, "New season"),
    Page("season_edit", MANAGE, "Winter 2026", "season"),
    Page("rule_set_list", MANAGE, "Hoyle sixpences"),
    Page("rule_set_create", MANAGE, "Start from"),
    Page("rule_set_custom", MANAGE, "Stakes"),
    Page("rule_set_edit", MANAGE, "Hoyle sixpences", "rule_set"),
    Page("member_list", MANAGE, "Invite an existing"),  # not "viewer": every page names its user
    Page("member_remove", MANAGE, "Remove viewer?", "member"),
    Page("night_close", MANAGE, "Close Club night 20 Nov 2026?", "night"),
    Page("night_reopen", MANAGE, "Reopen Club night", "night"),
    Page("night_tables_edit", MANAGE, "Tables of Club night 20 Nov 2026", "night"),
    Page("night_delete", MANAGE, "Delete Club night 20 Nov 2026?", "night"),
]


def url(page: Page, world: dict[str, Any], slug: str = "crown") -> str:
    return reverse(page.name, args=[slug] + ([world[page.obj].pk] if page.obj else []))


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("target", PAGES, ids=lambda p: p.name)
def test_each_page_for_each_role_of_a_private_club(client, request, world, target, role):
    login(client, request, role)
    response = client.get(url(target, world))
    body = response.content.decode()
    if target.power in POWERS[role]:
        assert response.status_code == 200
        assert target.marker in body
    elif role == "anonymous":
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login") + "?next=/c/crown/")
    elif role == "outsider":
        assert response.status_code == 404
        assert "Crown" not in body and target.marker not in body
    else:
        assert response.status_code == 403
        assert target.marker not in body


@pytest.mark.parametrize("target", PAGES, ids=lambda p: p.name)
def test_a_public_club_is_readable_without_logging_in_but_not_changeable(client, world, target):
    Club.objects.filter(slug="crown").update(is_public=True)
    response = client.get(url(target, world))
    if target.power == READ:
        assert response.status_code == 200
        assert target.marker in response.content.decode()
        assert "Set-up" not in response.content.decode()  # no secretary links for the public
    else:
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


def test_the_audit_trail_is_for_the_secretary_only(client, world, secretary, viewer, scorer):
    for user, shown in ((secretary, True), (scorer, False), (viewer, False)):
        client.force_login(user)
        body = client.get(reverse("night_detail", args=["crown", world["night"].pk])).content
        assert (b"Audit trail" in body) is shown
        assert (b"Close night" in body) is shown


# Another club's objects through this club's URL, and this club's through another's ----------


@pytest.fixture
def foreign(other_club, outsider):
    """The other club's own season, rule set, night, player and member."""
    rules = rule_set_from_preset(other_club, "standard", "Red Lion rules")
    season = Season.objects.create(
        club=other_club,
        name="Red Lion 2026",
        start=dt.date(2026, 1, 1),
        end=dt.date(2026, 12, 31),
        rule_set=rules,
    )
    people = [Player.objects.create(club=other_club, name=n) for n in ("Rae", "Sol", "Tom", "Uma")]
    return {
        "night": create_night(season, dt.date(2026, 6, 1), [(people, 0)]),
        "player": people[0],
        "season": season,
        "rule_set": rules,
        "member": Membership.objects.get(user=outsider),
    }


@pytest.mark.parametrize("target", [p for p in PAGES if p.obj], ids=lambda p: p.name)
def test_another_clubs_object_is_a_404_whatever_url_is_typed(
    client, world, foreign, secretary, outsider, target
):
    client.force_login(secretary)
    response = client.get(url(target, foreign, slug="crown"))
    assert response.status_code == 404
    assert "Red Lion" not in response.content.decode()
    # And the outsider, secretary of Red Lion, cannot reach our objects through their own club.
    client.force_login(outsider)
    response = client.get(url(target, world, slug="redlion"))
    assert response.status_code == 404
    assert "Crown" not in response.content.decode()


# Changes: each needs the role, and nothing changes without it --------------------------------


@dataclass(frozen=True)
class Change:
    name: str
    power: str
    data: Callable[[dict[str, Any]], dict[str, Any]]
    state: Callable[[dict[str, Any]], Any]  # what the change changes
    args: Callable[[dict[str, Any]], list[Any]] = lambda w: []
    prepare: Callable[[dict[str, Any]], Any] = lambda w: None  # make the change possible


def _night_post(w: dict[str, Any]) -> dict[str, Any]:
    people = Player.objects.filter(club__slug="crown", name__in=["Ann", "Bob", "Cat"])
    data = {
        "date": "2026-11-27",
        "season": w["season"].pk,
        "tables-TOTAL_FORMS": "1",
        "tables-INITIAL_FORMS": "0",
        "tables-0-first_dealer": "1",
        "action": "create",
    }
    for i, p in enumerate(people.order_by("name"), start=1):
        data[f"tables-0-seat_{i}"] = p.pk
    return data


def _tables_post(w: dict[str, Any]) -> dict[str, Any]:
    """The night's two tables as they are, but table 1 dealt first by seat 3."""
    data = {"tables-TOTAL_FORMS": "2", "tables-INITIAL_FORMS": "2", "action": "save"}
    for i, table in enumerate(w["night"].tables.order_by("number")):
        data[f"tables-{i}-table"] = table.pk
        data[f"tables-{i}-first_dealer"] = "3" if table.number == 1 else "1"
        for seat in table.seats.all():
            data[f"tables-{i}-seat_{seat.position + 1}"] = seat.player_id
    return data


def _table_1(w: dict[str, Any]) -> tuple[int, list[str]]:
    table = w["night"].tables.get(number=1)
    return table.first_dealer, [s.player.name for s in table.seats.all()]


def _rule_set_post(name: str) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": name,
        "payment": "per_opponent",
        "revoke_tricks": 3,
        "all_passed": "redeal",
        "general_misere_stake": 6,
        "sit_out": "dealer",
    }
    for contract, stake in scoring.preset("hoyle").stakes.items():
        for part in ("base", "over", "under"):
            data[f"stake_{contract.value}_{part}"] = getattr(stake, part)
    return data


CHANGES = [
    Change(
        "club_setup",
        MANAGE,
        lambda w: {"name": "Hijacked", "unit_kind": "money", "currency_symbol": "£",
                   "minor_units": 100, "points_label": "pts"},
        lambda w: Club.objects.get(slug="crown").name,
    ),
    Change(
        "player_create",
        MANAGE,
        lambda w: {"name": "Zed"},
        lambda w: Player.objects.filter(name="Zed").count(),
    ),
    Change(
        "player_edit",
        MANAGE,
        lambda w: {"name": "Annie", "active": "on"},
        lambda w: Player.objects.get(pk=w["player"].pk).name,
        lambda w: [w["player"].pk],
    ),
    Change(
        "season_create",
        MANAGE,
        lambda w: {"name": "Summer", "start": "2027-04-01", "end": "2027-08-31",
                   "rule_set": w["rule_set"].pk, "standings_method": "net", "min_nights": 0},
        lambda w: Season.objects.filter(name="Summer").count(),
    ),
    Change(
        "rule_set_create",
        MANAGE,
        lambda w: {"preset": "standard", "name": "Units"},
        lambda w: RuleSet.objects.filter(name="Units").count(),
    ),
    Change(
        "rule_set_copy",
        MANAGE,
        lambda w: {},
        lambda w: RuleSet.objects.count(),
        lambda w: [w["rule_set"].pk],
    ),
    Change(
        "member_add",
        MANAGE,
        lambda w: {"username": "outsider", "role": "secretary"},
        lambda w: Invitation.objects.filter(club__slug="crown").count(),
    ),
    Change(
        "member_role",
        MANAGE,
        lambda w: {f"m{w['member'].pk}-role": "secretary"},
        lambda w: Membership.objects.get(pk=w["member"].pk).role,
        lambda w: [w["member"].pk],
    ),
    Change(
        "member_remove",
        MANAGE,
        lambda w: {},
        lambda w: Membership.objects.filter(pk=w["member"].pk).count(),
        lambda w: [w["member"].pk],
    ),
    Change(
        "night_create",
        SCORE,
        _night_post,
        lambda w: Night.objects.filter(date=dt.date(2026, 11, 27)).count(),
    ),
    Change(
        "night_close",
        MANAGE,
        lambda w: {"anyway": "1"},  # the world's night has no hands: confirmed
        lambda w: Night.objects.get(pk=w["night"].pk).status,
        lambda w: [w["night"].pk],
    ),
    Change(
        "night_reopen",
        MANAGE,
        lambda w: {},
        lambda w: Night.objects.get(pk=w["night"].pk).status,
        lambda w: [w["night"].pk],
        lambda w: Night.objects.filter(pk=w["night"].pk).update(status="closed"),
    ),
    Change(
        "season_edit",
        MANAGE,
        lambda w: {"name": "Renamed", "start": "2026-09-01", "end": "2027-03-31",
                   "rule_set": w["rule_set"].pk, "standings_method": "net", "min_nights": 0},
        lambda w: Season.objects.get(pk=w["season"].pk).name,
        lambda w: [w["season"].pk],
    ),
    Change(
        "rule_set_custom",
        MANAGE,
        lambda w: _rule_set_post("Custom"),
        lambda w: RuleSet.objects.filter(name="Custom").count(),
    ),
    Change(
        "rule_set_edit",
        MANAGE,
        lambda w: _rule_set_post("Renamed rules"),
        lambda w: RuleSet.objects.get(pk=w["rule_set"].pk).name,
        lambda w: [w["rule_set"].pk],
    ),
    Change(
        "night_tables_edit",
        MANAGE,
        _tables_post,
        _table_1,
        lambda w: [w["night"].pk],
    ),
    Change(
        "night_delete",
        MANAGE,
        lambda w: {},
        lambda w: (Night.objects.filter(pk=w["night"].pk).count(),
                   Seat.objects.filter(table__night_id=w["night"].pk).count()),
        lambda w: [w["night"].pk],
    ),
    Change(
        "member_create_user",
        MANAGE,
        lambda w: {"username": "newcomer", "role": "viewer"},
        lambda w: Membership.objects.filter(user__username="newcomer").count(),
    ),
]  # fmt: skip


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("change", CHANGES, ids=lambda c: c.name)
def test_each_change_needs_the_role(client, request, world, change, role):
    login(client, request, role)
    change.prepare(world)
    before = change.state(world)
    response = client.post(
        reverse(change.name, args=["crown", *change.args(world)]), change.data(world)
    )
    after = change.state(world)
    if change.power in POWERS[role]:
        assert response.status_code in (200, 302)
        assert after != before, response.content.decode()[:3000]
    else:
        assert after == before
        expected = {"anonymous": 302, "outsider": 404}.get(role, 403)
        assert response.status_code == expected
        if role == "anonymous":
            assert response["Location"].startswith(reverse("login"))


def test_anonymous_cannot_change_a_public_club_either(client, world):
    Club.objects.filter(slug="crown").update(is_public=True)
    response = client.post(reverse("night_close", args=["crown", world["night"].pk]))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert Night.objects.get(pk=world["night"].pk).status == "open"
    response = client.post(reverse("player_create", args=["crown"]), {"name": "Zed"})
    assert not Player.objects.filter(name="Zed").exists()


def test_a_change_without_the_csrf_token_is_refused(world, secretary):
    client = Client(enforce_csrf_checks=True)
    client.force_login(secretary)
    close = reverse("night_close", args=["crown", world["night"].pk])
    assert client.post(close).status_code == 403
    assert Night.objects.get(pk=world["night"].pk).status == "open"
    assert not AuditEvent.objects.filter(action="close").exists()
    # With the token from the confirmation page, the same request goes through.
    client.get(close)
    token = client.cookies["csrftoken"].value
    response = client.post(close, {"csrfmiddlewaretoken": token, "anyway": "1"})
    assert response.status_code == 302
    assert Night.objects.get(pk=world["night"].pk).status == "closed"


def test_deleting_a_night_needs_the_csrf_token(world, secretary):
    client = Client(enforce_csrf_checks=True)
    client.force_login(secretary)
    delete = reverse("night_delete", args=["crown", world["night"].pk])
    assert client.post(delete).status_code == 403
    assert Night.objects.filter(pk=world["night"].pk).exists()
    assert not AuditEvent.objects.filter(action="delete").exists()
    client.get(delete)
    response = client.post(delete, {"csrfmiddlewaretoken": client.cookies["csrftoken"].value})
    assert response["Location"] == reverse("night_list", args=["crown"])
    assert not Night.objects.filter(pk=world["night"].pk).exists()


def test_changing_tables_needs_the_csrf_token(world, secretary):
    client = Client(enforce_csrf_checks=True)
    client.force_login(secretary)
    edit = reverse("night_tables_edit", args=["crown", world["night"].pk])
    before = _table_1(world)
    assert client.post(edit, _tables_post(world)).status_code == 403
    assert _table_1(world) == before
    client.get(edit)
    data = _tables_post(world) | {"csrfmiddlewaretoken": client.cookies["csrftoken"].value}
    assert client.post(edit, data).status_code == 302
    assert _table_1(world) == (2, before[1])


def test_only_the_secretary_is_offered_changing_tables_or_deleting(
    client, world, secretary, scorer, viewer
):
    night = world["night"]
    edit = reverse("night_tables_edit", args=["crown", night.pk])
    delete = reverse("night_delete", args=["crown", night.pk])
    for user, shown in ((secretary, True), (scorer, False), (viewer, False)):
        client.force_login(user)
        body = client.get(reverse("night_detail", args=["crown", night.pk])).content.decode()
        assert (f'href="{edit}"' in body) is shown
        assert (f'href="{delete}"' in body) is shown


def test_a_viewer_sees_no_buttons_for_changes(client, world, viewer):
    client.force_login(viewer)
    body = client.get(reverse("night_list", args=["crown"])).content.decode()
    assert "New club night" not in body
    body = client.get(reverse("player_list", args=["crown"])).content.decode()
    assert "Add a player" not in body and "Rename" not in body


def test_a_scorer_may_set_up_a_night_but_not_the_club(client, world, scorer):
    client.force_login(scorer)
    body = client.get(reverse("night_list", args=["crown"])).content.decode()
    assert "New club night" in body
    assert "Set-up" not in body
    assert Membership.objects.get(user=scorer).role == Role.SCORER
