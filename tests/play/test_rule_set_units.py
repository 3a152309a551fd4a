"""A rule set counts in the club's unit: a club in pence never gets a rule set in cents (618 cents
would be shown as £6.18), through set-up's forms, the services behind them, sign-up, the first
run, a club data file or the admin. Plain units and points fit every club (a money club's points
ladder)."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

import scoring
from club.clubs.models import Club, RuleSet
from club.clubs.services.setup import UnitMismatch, create_rule_set, rule_set_from_preset
from club.interchange.format.document import ImportRefused, read
from club.interchange.services.importer import import_document
from club.play.services.rule_set_changes import update_rule_set
from tests.interchange.test_bad_input import sample

CENTS_IN_PENCE = "This rule set counts in cents but the club counts in pence"


@pytest.fixture
def sec_client(client: Client, secretary) -> Client:
    client.force_login(secretary)
    return client


def test_the_preset_form_refuses_cents_in_a_pence_club_naming_both_units(sec_client, club):
    response = sec_client.post(
        reverse("rule_set_create", args=[club.slug]), {"preset": "cents", "name": "Cash"}
    )
    assert response.status_code == 200
    errors = response.context["form"].errors["preset"]
    assert errors[0].startswith(CENTS_IN_PENCE + ": 618 cents would be shown as £6.18.")
    assert CENTS_IN_PENCE in response.content.decode()
    assert not RuleSet.objects.filter(club=club).exists()


def test_the_custom_form_refuses_a_rule_set_in_another_currency(sec_client, club):
    club.currency_symbol = "$"
    club.save()
    url = reverse("rule_set_custom", args=[club.slug]) + "?preset=hoyle"
    form = sec_client.get(url).context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None}
    data = {k: ("on" if v is True else v) for k, v in data.items() if v is not False}
    data["name"] = "Sixpences"
    response = sec_client.post(url, data)
    assert response.status_code == 200
    (error,) = response.context["form"].non_field_errors()
    assert error.startswith("This rule set counts in pence but the club counts in cents")
    assert "$6.18" in error
    assert not RuleSet.objects.filter(club=club).exists()


def test_a_rule_set_in_the_clubs_own_unit_still_saves(sec_client, club):
    club.currency_symbol = "$"
    club.save()
    response = sec_client.post(
        reverse("rule_set_create", args=[club.slug]), {"preset": "cents", "name": "Cash"}
    )
    assert response.status_code == 302
    assert RuleSet.objects.get(club=club, name="Cash").rules.unit == "cents"
    # Units and points fit any club: the standard table, a points ladder.
    for preset in ("standard", "anna-cubed"):
        response = sec_client.post(
            reverse("rule_set_create", args=[club.slug]), {"preset": preset, "name": preset}
        )
        assert response.status_code == 302, preset
    assert club.rule_sets.count() == 3


def test_the_service_refuses_a_rule_set_in_another_currency(club):
    with pytest.raises(UnitMismatch, match=CENTS_IN_PENCE):
        create_rule_set(club, "Cash", scoring.preset("cents"))
    with pytest.raises(UnitMismatch, match=CENTS_IN_PENCE):
        rule_set_from_preset(club, "cents")
    units = create_rule_set(club, "Units", scoring.preset("standard"))
    with pytest.raises(UnitMismatch, match=CENTS_IN_PENCE):
        update_rule_set(units, "Units", scoring.preset("cents"))
    units.refresh_from_db()
    assert units.rules.unit == "units"
    assert [r.name for r in club.rule_sets.all()] == ["Units"]
    assert rule_set_from_preset(club, "hoyle").rules.unit == "pence"


def test_copying_a_rule_set_of_another_currency_is_refused_with_the_reason(sec_client, club):
    # One written before the check (straight to the table): its copy is refused, and says why.
    old = RuleSet.objects.create(
        club=club, name="Cash", data=scoring.preset("cents").copy(name="Cash").to_dict()
    )
    response = sec_client.post(reverse("rule_set_copy", args=[club.slug, old.pk]), follow=True)
    assert CENTS_IN_PENCE in response.content.decode()
    assert club.rule_sets.count() == 1


def test_importing_a_rule_set_in_another_currency_is_refused(club):
    document = sample()
    document["rule_sets"] = [{"name": "Cash", "preset": "cents"}]
    document["seasons"][0]["rule_set"] = "Cash"
    with pytest.raises(ImportRefused) as refused:
        import_document(read(json.dumps(document)))  # a new club, in pence
    assert "Cash: " + CENTS_IN_PENCE in str(refused.value)
    assert not Club.objects.filter(slug="crown2").exists()
    with pytest.raises(ImportRefused, match=CENTS_IN_PENCE):
        import_document(read(json.dumps(document)), into=club)
    assert not club.rule_sets.exists()


def test_the_admin_refuses_a_rule_set_in_another_currency(client, club, django_user_model):
    root = django_user_model.objects.create_superuser("root", "root@example.org", "pw-root")
    client.force_login(root)
    data = {
        "club": club.pk,
        "name": "Cash",
        "preset": "cents",
        "data": json.dumps(scoring.preset("cents").to_dict()),
    }
    response = client.post(reverse("admin:clubs_ruleset_add"), data)
    assert response.status_code == 200
    assert CENTS_IN_PENCE in response.content.decode()
    assert not RuleSet.objects.exists()
    data["data"] = json.dumps(scoring.preset("hoyle").to_dict())
    response = client.post(reverse("admin:clubs_ruleset_add"), data)
    assert response.status_code == 302
    assert RuleSet.objects.get().rules.unit == "pence"


def test_sign_up_refuses_a_preset_in_another_currency(client, db):
    form = {
        "email": "jo@example.org",
        "password": "a good long secret 42",
        "name": "The Plough Solo Club",
        "slug": "",
        "unit_kind": "money",
        "currency_symbol": "£",
        "minor_units": "100",
        "time_zone": "Europe/London",
        "preset": "cents",
    }
    response = client.post(reverse("signup"), form)
    assert response.status_code == 422
    assert response.context["form"].errors["preset"][0].startswith(CENTS_IN_PENCE)
    assert not Club.all_objects.filter(name="The Plough Solo Club").exists()


def test_create_club_gives_a_first_rule_set_in_the_clubs_unit(db):
    import io

    from django.core.management import call_command
    from django.core.management.base import CommandError

    def make(name: str, *extra: str) -> Club:
        out = io.StringIO()
        call_command("create_club", name, "--secretary", "sec@example.org", *extra, stdout=out)
        return Club.objects.get(name=name)

    assert make("Dollars", "--currency", "$").rule_sets.get().rules.unit == "cents"
    assert make("Pounds").rule_sets.get().rules.unit == "pence"
    assert make("Points", "--points").rule_sets.get().rules.unit == "points"
    with pytest.raises(CommandError, match="counts in pence but the club counts in cents"):
        make("Mixed", "--currency", "$", "--preset", "hoyle")
    assert not Club.all_objects.filter(name="Mixed").exists()
