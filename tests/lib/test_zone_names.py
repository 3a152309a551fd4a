"""The time zones are offered by their current names only (the time zone database's zone.tab and
zone1970.tab), never by the old aliases of its "backward" file, in sign-up and the club's
settings alike; a club stored under an alias moves to the current name (a data migration), an
alias posted is saved under it; and a zone's country suggests the club's currency."""

from __future__ import annotations

import importlib

import pytest
from django.urls import reverse

from club.clubs.models import Club
from club.lib import zones

pytestmark = pytest.mark.django_db

ALIASES = [
    "Africa/Asmera",
    "Pacific/Ponape",
    "Pacific/Truk",
    "America/Knox_IN",
    "America/Argentina/ComodRivadavia",
    "Asia/Calcutta",
    "Europe/Kiev",
    "US/Pacific",
    "GB",
    "Etc/UTC",
]
CURRENT = [
    "Africa/Asmara",
    "Pacific/Pohnpei",
    "Pacific/Chuuk",
    "America/Indiana/Knox",
    "America/Argentina/Catamarca",
    "Asia/Kolkata",
    "Europe/Kyiv",
    "America/Los_Angeles",
    "Europe/London",
    "UTC",
]
migration = importlib.import_module("club.migrations.0027_canonical_time_zones")


def _history():
    """The models as the migration sees them (the label "club", before the apps were split)."""
    from django.db import connection
    from django.db.migrations.loader import MigrationLoader

    loader = MigrationLoader(connection)
    return loader.project_state(("club", "0027_canonical_time_zones")).apps


def _offered(choices) -> set[str]:
    names: set[str] = set()
    for value, label in choices:  # grouped by area
        names |= {zone for zone, _ in label} if isinstance(label, list) else {value}
    return names


def test_the_sign_up_list_offers_current_names_and_no_alias(client):
    offered = _offered(client.get(reverse("signup")).context["form"].fields["time_zone"].choices)
    assert not offered & set(ALIASES)
    assert set(CURRENT) <= offered
    assert "Europe/Amsterdam" in offered  # a country's own zone, though it keeps Brussels' clock


def test_the_club_settings_list_offers_current_names_and_no_alias(client, club, secretary):
    client.force_login(secretary)
    form = client.get(reverse("club_setup", args=[club.slug])).context["form"]
    offered = _offered(form.fields["time_zone"].choices)
    assert not offered & set(ALIASES)
    assert set(CURRENT) <= offered


def test_an_alias_posted_is_saved_under_its_current_name(client, db):
    from django.core import mail

    from tests.clubs.test_signup import sign_up

    assert sign_up(client, time_zone="Asia/Calcutta").status_code == 302
    assert Club.all_objects.get().time_zone == "Asia/Kolkata"
    assert len(mail.outbox) == 1


@pytest.mark.parametrize("alias,current", list(zip(ALIASES, CURRENT, strict=True)))
def test_the_migration_moves_a_club_under_an_alias_to_the_current_name(alias, current):
    club = Club.objects.create(name="Old", slug="old", time_zone=alias)
    kept = Club.objects.create(name="Odd", slug="odd", time_zone="Etc/GMT+5")  # no other name
    fine = Club.objects.create(name="Fine", slug="fine", time_zone="Europe/Amsterdam")
    migration.to_current_names(_history(), None)
    club.refresh_from_db()
    kept.refresh_from_db()
    fine.refresh_from_db()
    assert (club.time_zone, kept.time_zone, fine.time_zone) == (
        current,
        "Etc/GMT+5",
        "Europe/Amsterdam",
    )


def test_the_migration_moves_closed_clubs_too(club, secretary):
    from club.clubs.services.clubs_lifecycle import close_club

    Club.objects.filter(pk=club.pk).update(time_zone="Asia/Calcutta")
    close_club(club, secretary)
    migration.to_current_names(_history(), None)
    assert Club.all_objects.get(pk=club.pk).time_zone == "Asia/Kolkata"


def test_the_migrations_names_are_the_lists_names():
    offered = zones.canonical_zones() | {"UTC"}
    assert set(migration.CURRENT_NAME.values()) <= offered
    assert not set(migration.CURRENT_NAME) & offered
    for alias, name in migration.CURRENT_NAME.items():
        assert zones.canonical_name(alias) == name


@pytest.mark.parametrize(
    "zone,code,symbol,decimals",
    [
        ("Australia/Sydney", "AUD", "$", 100),
        ("Australia/Perth", "AUD", "$", 100),
        ("Europe/London", "GBP", "£", 100),
        ("America/New_York", "USD", "$", 100),
        ("Europe/Paris", "EUR", "€", 100),
        ("Europe/Dublin", "EUR", "€", 100),
        ("Asia/Tokyo", "JPY", "¥", 1),
        ("Asia/Calcutta", "INR", "₹", 100),  # an alias: its current name's country
    ],
)
def test_a_zone_suggests_its_countrys_currency(zone, code, symbol, decimals):
    assert zones.currency_for_zone(zone) == zones.Currency(code, symbol, decimals)


@pytest.mark.parametrize("zone", ["UTC", "Etc/GMT+5", "Africa/Lagos", "Antarctica/Troll"])
def test_a_zone_of_no_country_or_of_a_currency_not_offered_suggests_none(zone):
    assert zones.currency_for_zone(zone) is None


def test_every_suggested_currency_fits_the_clubs_fields():
    from club.clubs.forms.setup import DECIMALS_CHOICES

    limit = Club._meta.get_field("currency_symbol").max_length
    decimals = {value for value, _ in DECIMALS_CHOICES}
    for currency in zones.CURRENCIES.values():
        assert 0 < len(currency.symbol) <= limit and currency.minor_units in decimals
    assert set(zones.COUNTRY_CURRENCY.values()) <= set(zones.CURRENCIES)


def test_create_club_keeps_an_alias_under_its_current_name():
    from django.core.management import call_command

    call_command("create_club", "Kolkata Solo", "--secretary", "k@example.org", "--time-zone",
                 "Asia/Calcutta")  # fmt: skip
    assert Club.objects.get(slug="kolkata-solo").time_zone == "Asia/Kolkata"
