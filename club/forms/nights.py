"""The form that sets up a club night: its season and date, players added on the fly, and the
tables with their players in seat order and first dealer.

The seat selects are plain choice fields over one list of players loaded once, so rendering eight
tables of five selects costs one query, not forty.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django import forms
from django.utils import timezone

import scoring
from club.forms.setup import DateInput
from club.models import Club, Player, Season

MAX_TABLES = 8
MAX_SEATS = 5
SEATS = range(1, MAX_SEATS + 1)


def seat_field(n: int) -> str:
    return f"seat_{n}"


def parse_names(text: str) -> list[str]:
    """Names separated by commas or new lines, tidied, without repeats (ignoring case)."""
    names: list[str] = []
    seen: set[str] = set()
    for raw in re.split(r"[,\n;]", text or ""):
        name = " ".join(raw.split())
        if name and name.lower() not in seen:
            seen.add(name.lower())
            names.append(name)
    return names


def season_for(club: Club, date: dt.date) -> Season | None:
    """The club's season whose dates contain `date` (the latest starting, if they overlap)."""
    return club.seasons.filter(start__lte=date, end__gte=date).order_by("-start").first()


class NightForm(forms.Form):
    date = forms.DateField(widget=DateInput())
    season = forms.ModelChoiceField(
        queryset=Season.objects.none(),
        required=False,
        empty_label="The season of the date",
    )
    title = forms.CharField(
        max_length=80, required=False, help_text='Optional, e.g. "Christmas drive".'
    )
    new_players = forms.CharField(
        required=False,
        label="Names",
        widget=forms.Textarea(attrs={"rows": 2, "placeholder": "Jo Bloggs, Sam Smith"}),
        help_text="Players not in the club yet (or marked inactive), separated by commas or new "
        "lines. They are added to the club, then offered in the seats below.",
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        if "initial" not in kwargs:
            today = timezone.localdate()
            season = season_for(club, today)
            kwargs["initial"] = {"date": today, "season": season.pk if season else None}
        super().__init__(*args, **kwargs)
        self.club = club
        self.fields["season"].queryset = club.seasons.all()

    def clean_new_players(self) -> list[str]:
        names = parse_names(self.cleaned_data["new_players"])
        too_long = [n for n in names if len(n) > Player._meta.get_field("name").max_length]
        if too_long:
            raise forms.ValidationError(f"{too_long[0][:30]}... is too long for a name.")
        # A player marked inactive may be brought back this way; an active one is in the seats.
        active = {
            n.lower() for n in self.club.players.filter(active=True).values_list("name", flat=True)
        }
        clashes = [n for n in names if n.lower() in active]
        if clashes:
            raise forms.ValidationError(
                f"Already in the club: {', '.join(clashes)}. Choose them in the seats below."
            )
        return names

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        date, season = data.get("date"), data.get("season")
        if date is None:
            return data
        if season is None:
            season = season_for(self.club, date)
            if season is None:
                self.add_error(
                    "season",
                    f"No season covers {date:%d %b %Y}: choose one, or add a season in set-up.",
                )
            data["season"] = season
        elif not season.start <= date <= season.end:
            self.add_error(
                "date",
                f"{season} runs from {season.start:%d %b %Y} to {season.end:%d %b %Y}: "
                "choose a date in it or another season.",
            )
        return data


class TableForm(forms.Form):
    """One table: up to five players in seat order (clockwise) and the seat that deals first."""

    first_dealer = forms.TypedChoiceField(
        label="First dealer",
        choices=[(n, f"Seat {n}") for n in SEATS],
        coerce=int,
        initial=1,
    )

    def __init__(self, *args: Any, players: list[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = {p.pk: p for p in players}
        choices = [("", "—"), *((p.pk, p.name) for p in players)]
        for n in SEATS:
            self.fields[seat_field(n)] = forms.TypedChoiceField(
                label=f"Seat {n}",
                choices=choices,
                coerce=int,
                required=False,
                empty_value=None,
            )
        # Seats first, then the dealer, in the order the page shows them.
        self.order_fields([*(seat_field(n) for n in SEATS), "first_dealer"])

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[seat_field(n)] for n in SEATS]

    @property
    def seated(self) -> list[Player]:
        """The players in seat order, once the form is clean."""
        return self.cleaned_data.get("players", [])

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        chosen = [(n, data.get(seat_field(n))) for n in SEATS]
        filled = [n for n, pk in chosen if pk is not None]
        data["players"] = []
        if not filled:
            return data  # an empty table is simply not used
        gaps = [n for n in range(1, filled[-1]) if n not in filled]
        if gaps:
            self.add_error(
                seat_field(gaps[0]),
                "Fill the seats in order: this seat is empty but a later one is not.",
            )
        seen: dict[int, int] = {}
        for n, pk in chosen:
            if pk is None:
                continue
            if pk in seen:
                self.add_error(
                    seat_field(n),
                    f"{self.players[pk]} is already in seat {seen[pk]} at this table.",
                )
            else:
                seen[pk] = n
        players = [self.players[pk] for _, pk in chosen if pk is not None]
        try:
            scoring.table.check_table_size([str(p.pk) for p in dict.fromkeys(players)])
        except scoring.InvalidHand as error:
            self.add_error(None, f"{error}.")
        dealer = data.get("first_dealer")
        if dealer is not None and dealer not in filled:
            self.add_error(
                "first_dealer",
                f"Seat {dealer} is empty: the first dealer must be one of the players seated.",
            )
        data["players"] = players
        return data


class BaseTableFormSet(forms.BaseFormSet):
    def __init__(self, *args: Any, players: list[Player], **kwargs: Any) -> None:
        self.players = players
        super().__init__(*args, **kwargs)

    def get_form_kwargs(self, index: int | None) -> dict[str, Any]:
        return {**super().get_form_kwargs(index), "players": self.players}

    @property
    def empty_form(self) -> forms.Form:
        return self.form(
            auto_id=self.auto_id,
            prefix=self.add_prefix("__prefix__"),
            empty_permitted=True,
            use_required_attribute=False,
            players=self.players,
            renderer=self.renderer,
        )

    def clean(self) -> None:
        # Runs even when a table has errors of its own, so that every mistake shows at once.
        where: dict[int, int] = {}  # player pk -> the table (as numbered on the page)
        used = 0
        for number, form in enumerate(self.forms, start=1):
            if not form.seated and not form.errors:
                continue
            used += 1
            for n in SEATS:
                pk = form.cleaned_data.get(seat_field(n))
                if pk is None or form.has_error(seat_field(n)):
                    continue
                if pk in where:
                    form.add_error(
                        seat_field(n), f"{form.players[pk]} is already at table {where[pk]}."
                    )
                else:
                    where[pk] = number
        if not used:
            raise forms.ValidationError("Seat at least one table of 3, 4 or 5 players.")

    def tables(self) -> list[tuple[list[Player], int]]:
        """(players in seat order, first dealer's 0-based seat) for each table used."""
        return [(f.seated, f.cleaned_data["first_dealer"] - 1) for f in self.forms if f.seated]


TableFormSet = forms.formset_factory(
    TableForm,
    formset=BaseTableFormSet,
    extra=0,
    max_num=MAX_TABLES,
    validate_max=True,
    absolute_max=MAX_TABLES,
)


def default_table_count(active_players: int) -> int:
    """Enough tables of four for the club's active players, within 1..MAX_TABLES."""
    return max(1, min(MAX_TABLES, -(-active_players // 4)))


def tables_initial(data: Any, prefix: str, count: int) -> list[dict[str, Any]]:
    """The tables as last posted, as initial values for a fresh (unbound) form: used when the page
    is shown again after adding players or a table, without showing errors for half-filled
    tables."""
    fields = [*(seat_field(n) for n in SEATS), "first_dealer"]
    return [
        {
            name: data.get(f"{prefix}-{i}-{name}")
            for name in fields
            if data.get(f"{prefix}-{i}-{name}")
        }
        for i in range(count)
    ]
