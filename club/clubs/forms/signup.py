"""The sign-up form (an account and a club in one), the first-run form (members, rule set, season:
then tonight) and the closing of a club's account (its name typed)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.models import User
from django.core.validators import validate_slug

import scoring
from club.clubs.forms.player_lines import LINES_HELP, LinesReading
from club.clubs.forms.setup import DECIMALS_CHOICES, check_unit_choice, preset_choices
from club.clubs.models import Club
from club.clubs.services import clubs_lifecycle
from club.clubs.services.setup import MAX_NEW_PLAYERS
from club.lib import zones
from club.lib.money import unit_fits, unit_mismatch

DEFAULT_ZONE = "Europe/London"


def default_zone() -> str:
    """The new club's zone until the browser names its own (static/js/signup-zone.js): the
    app's default, not the server's clock (which runs in UTC)."""
    return DEFAULT_ZONE


class ClubFields(forms.Form):
    """What a new club needs: its name and address, money or points, time zone, rules."""

    fields: dict[str, Any]  # by name, each its own kind of field (choices)

    name = forms.CharField(label="Club name", max_length=120)
    slug = forms.CharField(
        label="Address of the club's page",
        max_length=60,
        required=False,
        help_text="Letters, digits and hyphens, e.g. crown-anchor. Empty: made from the name.",
    )
    unit_kind = forms.ChoiceField(
        label="Play for",
        choices=Club.UnitKind.choices,
        initial=Club.UnitKind.MONEY,
        widget=forms.RadioSelect,
    )
    currency_symbol = forms.CharField(
        label="Currency symbol", max_length=4, required=False, initial="£"
    )
    minor_units = forms.TypedChoiceField(
        label="Money shown with", choices=DECIMALS_CHOICES, coerce=int, initial=100
    )
    time_zone = zones.TimeZoneField(
        help_text="The club's clock: tonight's date, closing times, the emails and sheets.",
    )
    preset = forms.ChoiceField(
        label="Rules to start from", widget=forms.RadioSelect, initial="hoyle"
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The same zones, grouped by area, as the club's settings offer (club/lib/zones.py); the
        # currency follows the zone's country until the person changes it (the browser's zone,
        # when it picks one, suggests its own: static/js/signup-zone.js).
        zone = default_zone()
        self.fields["time_zone"].initial = zone
        suggested = zones.currency_for_zone(zone)
        if suggested is not None:
            self.fields["currency_symbol"].initial = suggested.symbol
            self.fields["minor_units"].initial = suggested.minor_units
        self.fields["preset"].choices = preset_choices()

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError("Give the club's name.")
        return name

    def clean_slug(self) -> str:
        slug = self.cleaned_data["slug"].strip().lower()
        if slug:
            validate_slug(slug)
            if clubs_lifecycle.slug_taken(slug):
                raise forms.ValidationError(
                    f"The address {slug} is taken: choose another (e.g. {slug}-solo)."
                )
        return slug

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if "name" in data and "slug" in data and not data["slug"]:
            data["slug"] = clubs_lifecycle.free_slug(data["name"])
        check_unit_choice(self, data, "the club")
        return data

    def new_club(self) -> clubs_lifecycle.NewClub:
        data = self.cleaned_data
        return clubs_lifecycle.NewClub(
            name=data["name"],
            slug=data["slug"],
            unit_kind=data["unit_kind"],
            currency_symbol=data.get("currency_symbol") or "",
            minor_units=data["minor_units"],
            time_zone=data["time_zone"],
            preset=data["preset"],
        )


class SignupForm(ClubFields):
    """A stranger's: the club and the account (email address and password) in one form."""

    email = forms.EmailField(
        label="Your email address",
        help_text="You log in with it; we send a link to it to confirm it is yours.",
    )
    password = forms.CharField(
        label="Choose a password",
        strip=False,
        widget=forms.PasswordInput(render_value=False, attrs={"autocomplete": "new-password"}),
        help_text="At least 8 characters, not all digits, not a common one.",
    )

    field_order = ["email", "password", "name", "slug"]

    def clean_email(self) -> str:
        return self.cleaned_data["email"].strip().lower()

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("password"):
            # Checked whatever else is wrong, so that every error shows on the first answer; an
            # address that is not one is compared with the password as it was typed.
            email = data.get("email") or self.data.get("email", "").strip().lower()
            try:
                password_validation.validate_password(
                    data["password"], User(username=email, email=email)
                )
            except forms.ValidationError as error:
                self.add_error("password", error)
        return data


class FirstNightForm(LinesReading):
    """The first run: the members (names, or names and addresses), the rules and the season,
    then tonight. The members' lines are previewed first; the confirm carries their digest."""

    fields: dict[str, Any]  # by name, each its own kind of field (choices)

    lines_field = "names"
    max_lines = MAX_NEW_PLAYERS

    names = forms.CharField(
        label="Your members, one a line",
        required=False,
        widget=forms.Textarea(attrs={"rows": 9, "autocomplete": "off", "spellcheck": "false"}),
        help_text=LINES_HELP + " You can add more later.",
    )
    rule_set = forms.ChoiceField(label="Rule set")
    season = forms.CharField(label="The season's name", max_length=80)
    all_here = forms.BooleanField(
        label="They are all here tonight (tick them in, ready for the draw)",
        required=False,
        initial=True,
    )

    field_order = ["names", "file", "digest", "rule_set", "season", "all_here"]

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, club=club, **kwargs)
        self.rule_sets = list(club.rule_sets.order_by("pk"))
        own = [(str(r.pk), r.name) for r in self.rule_sets]
        has = {r.preset for r in self.rule_sets}
        # Only the presets that count in the club's unit (or in plain units or points).
        presets = [
            (f"preset:{key}", f"New from a preset: {label}")
            for key, label in preset_choices()
            if key not in has and unit_fits(club, scoring.preset(key).unit)
        ]
        self.fields["rule_set"].choices = own + presets
        if own:
            self.fields["rule_set"].initial = own[0][0]
        self.fields["season"].initial = f"{club.today().year} season"

    def clean_season(self) -> str:
        name = " ".join(self.cleaned_data["season"].split())
        if self.club.seasons.filter(name__iexact=name).exists():
            raise forms.ValidationError(f"The club has a season called {name} already.")
        return name

    def clean_rule_set(self) -> str:
        value = self.cleaned_data["rule_set"]
        if value.startswith("preset:") and value[7:] not in scoring.PRESETS:
            raise forms.ValidationError("Choose a rule set from the list.")
        if value.startswith("preset:"):
            unit = scoring.preset(value[7:]).unit
        else:
            unit = next((r.rules.unit for r in self.rule_sets if str(r.pk) == value), "units")
        problem = unit_mismatch(self.club, unit)
        if problem is not None:
            raise forms.ValidationError(problem)
        return value


class CloseClubForm(forms.Form):
    confirm_name = forms.CharField(label="Type the club's name to confirm", max_length=120)

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club

    def clean_confirm_name(self) -> str:
        typed = " ".join(self.cleaned_data["confirm_name"].split())
        if typed.casefold() != " ".join(self.club.name.split()).casefold():
            raise forms.ValidationError(
                f"That is not the club's name: type {self.club.name} exactly to close it."
            )
        return typed
