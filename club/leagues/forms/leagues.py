"""The organiser's forms: signing up (an account, no club), making a league, its settings, and
inviting a club."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import password_validation
from django.contrib.auth.models import User

from club.clubs.forms.setup import DECIMALS_CHOICES, check_unit_choice, preset_choices
from club.clubs.models import Club
from club.leagues.models import League
from club.leagues.models.leagues import TIE_BREAKS
from club.leagues.services.leagues import NewLeague
from club.lib import zones

TIE_BREAK_CHOICES = [("", "(none)"), *TIE_BREAKS.items()]
SIDES_HELP = "Even: each table seats two players of each side. The Aberdeen league plays 6."


class OrganiserSignupForm(forms.Form):
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

    def clean_email(self) -> str:
        return self.cleaned_data["email"].strip().lower()

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("password"):
            email = data.get("email") or self.data.get("email", "").strip().lower()
            try:
                password_validation.validate_password(
                    data["password"], User(username=email, email=email)
                )
            except forms.ValidationError as error:
                self.add_error("password", error)
        return data


class TieBreakFields(forms.Form):
    """The tie-breaks after points, first applied first: three choices, none twice, no gap."""

    tie_break_1 = forms.ChoiceField(
        label="First tie-break", choices=TIE_BREAK_CHOICES, required=False, initial="aggregate"
    )
    tie_break_2 = forms.ChoiceField(
        label="Second tie-break", choices=TIE_BREAK_CHOICES, required=False, initial="won"
    )
    tie_break_3 = forms.ChoiceField(
        label="Third tie-break", choices=TIE_BREAK_CHOICES, required=False
    )

    def tie_breaks(self) -> list[str]:
        return [
            self.cleaned_data[f"tie_break_{n}"]
            for n in (1, 2, 3)
            if self.cleaned_data.get(f"tie_break_{n}")
        ]

    def check_tie_breaks(self) -> None:
        chosen = [self.cleaned_data.get(f"tie_break_{n}", "") for n in (1, 2, 3)]
        seen: set[str] = set()
        for n, key in enumerate(chosen, start=1):
            if key and key in seen:
                self.add_error(f"tie_break_{n}", "This tie-break is chosen above already.")
            elif key and n > 1 and not chosen[n - 2]:
                self.add_error(f"tie_break_{n}", "Choose the tie-break above this one first.")
            seen.add(key)

    def check_points(self) -> None:
        data = self.cleaned_data
        win, tie, loss = data.get("points_win"), data.get("points_tie"), data.get("points_loss")
        if win is not None and tie is not None and tie > win:
            self.add_error("points_tie", "A tie cannot be worth more than a win.")
        if tie is not None and loss is not None and loss > tie:
            self.add_error("points_loss", "A loss cannot be worth more than a tie.")

    def check_sides(self) -> None:
        sides = self.cleaned_data.get("players_a_side")
        if sides is not None and sides % 2:
            self.add_error(
                "players_a_side",
                f"{sides} is odd: each table seats two players of each side, so give an even "
                "number.",
            )


def _points(label: str, initial: int) -> forms.IntegerField:
    return forms.IntegerField(label=label, initial=initial, min_value=-99, max_value=99)


class LeagueForm(TieBreakFields):
    """A new league: its name, season, meetings, points, sides, rules and unit."""

    fields: dict[str, Any]

    name = forms.CharField(label="League name", max_length=120)
    season_start = forms.DateField(
        label="Season starts", widget=forms.DateInput(attrs={"type": "date"})
    )
    season_end = forms.DateField(
        label="Season ends", widget=forms.DateInput(attrs={"type": "date"})
    )
    meetings = forms.IntegerField(
        label="Times each pair of clubs meets",
        initial=2,
        min_value=1,
        max_value=8,
        help_text="Home and away in turn: 2 is once at each club's home, 4 twice.",
    )
    points_win = _points("Points for a win", 3)
    points_tie = _points("Points for a tie", 1)
    points_loss = _points("Points for a loss", 0)
    points_forfeit = _points(
        "Points for a forfeit",
        0,
    )
    players_a_side = forms.IntegerField(
        label="Players a side", initial=6, min_value=2, max_value=40, help_text=SIDES_HELP
    )
    deals_a_match = forms.IntegerField(
        label="Deals a match", initial=24, min_value=1, max_value=200
    )
    preset = forms.ChoiceField(label="Rules every match uses", widget=forms.RadioSelect)
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
    time_zone = zones.TimeZoneField(help_text="The league's clock: its match nights' dates.")
    is_public = forms.BooleanField(
        label="Public: anyone may read the league table and fixtures", required=False
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["preset"].choices = preset_choices()
        self.fields["preset"].initial = "hoyle"
        self.fields["time_zone"].initial = "Europe/London"
        self.fields[
            "points_forfeit"
        ].help_text = "What a club that does not turn up gets; its opponent gets a win."

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError("Give the league's name.")
        return name

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        start, end = data.get("season_start"), data.get("season_end")
        if start and end and end < start:
            self.add_error("season_end", "The season must end on or after the day it starts.")
        self.check_points()
        self.check_sides()
        self.check_tie_breaks()
        check_unit_choice(self, data, "the league")
        return data

    def new_league(self) -> NewLeague:
        data = self.cleaned_data
        return NewLeague(
            name=data["name"],
            season_start=data["season_start"],
            season_end=data["season_end"],
            preset=data["preset"],
            unit_kind=data["unit_kind"],
            currency_symbol=data.get("currency_symbol") or "",
            minor_units=data["minor_units"],
            time_zone=data["time_zone"],
            meetings=data["meetings"],
            points_win=data["points_win"],
            points_tie=data["points_tie"],
            points_loss=data["points_loss"],
            points_forfeit=data["points_forfeit"],
            players_a_side=data["players_a_side"],
            deals_a_match=data["deals_a_match"],
            tie_breaks=self.tie_breaks(),
            is_public=data.get("is_public", False),
        )


class LeagueSettingsForm(TieBreakFields):
    """What may still change: the name, public or not, the points, the tie-breaks, and the
    players a side until a match night has opened (then shown, not changeable)."""

    fields: dict[str, Any]

    name = forms.CharField(label="League name", max_length=120)
    is_public = LeagueForm.base_fields["is_public"]
    points_win = _points("Points for a win", 3)
    points_tie = _points("Points for a tie", 1)
    points_loss = _points("Points for a loss", 0)
    points_forfeit = _points("Points for a forfeit", 0)
    players_a_side = forms.IntegerField(
        label="Players a side", min_value=2, max_value=40, help_text=SIDES_HELP
    )

    def __init__(self, *args: Any, league: League, sides_fixed: bool, **kwargs: Any) -> None:
        keys = league.tie_break_keys
        initial = {
            "name": league.name,
            "is_public": league.is_public,
            "points_win": league.points_win,
            "points_tie": league.points_tie,
            "points_loss": league.points_loss,
            "points_forfeit": league.points_forfeit,
            "players_a_side": league.players_a_side,
            **{f"tie_break_{n}": (keys[n - 1] if n <= len(keys) else "") for n in (1, 2, 3)},
        }
        kwargs["initial"] = initial
        super().__init__(*args, **kwargs)
        if sides_fixed:
            field = self.fields["players_a_side"]
            field.disabled = True
            field.help_text = "Fixed: a match night has opened with this many a side."

    def clean_name(self) -> str:
        name = " ".join(self.cleaned_data["name"].split())
        if not name:
            raise forms.ValidationError("Give the league's name.")
        return name

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        self.check_points()
        self.check_sides()
        self.check_tie_breaks()
        return data

    def changes(self) -> dict[str, Any]:
        data = self.cleaned_data
        fields = ["name", "is_public", "points_win", "points_tie", "points_loss", "points_forfeit"]
        changes = {name: data[name] for name in fields} | {"tie_breaks": self.tie_breaks()}
        if not self.fields["players_a_side"].disabled:
            changes["players_a_side"] = data["players_a_side"]
        return changes


class InviteForm(forms.Form):
    club = forms.CharField(
        label="The club's address or the link of its page",
        max_length=300,
        help_text="e.g. crown-anchor, or https://this-server/c/crown-anchor/",
    )
