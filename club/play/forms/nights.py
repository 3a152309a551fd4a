"""The form that sets up a club night: its season and date, players added on the fly, and the
tables with their players in seat order and first dealer.

The seat selects are plain choice fields over one list of players loaded once, so rendering eight
tables of five selects costs one query, not forty.
"""

from __future__ import annotations

import datetime as dt
import re
import uuid
from collections.abc import Sequence
from typing import Any, cast

from django import forms

import scoring
from club.clubs.forms.setup import DateInput
from club.clubs.models import Club, Player, Season
from club.clubs.services import setup as setup_services
from club.lib.names import name_key, normalise_name
from club.play.models import Table

MAX_TABLES = 8
MAX_NEW_PLAYERS = setup_services.MAX_NEW_PLAYERS
MAX_SEATS = 5
SEATS = range(1, MAX_SEATS + 1)


def seat_field(n: int) -> str:
    return f"seat_{n}"


def parse_names(text: str) -> list[str]:
    """Names separated by commas or new lines, normalised (club.lib.names), without repeats
    (ignoring
    case and invisible characters)."""
    names: list[str] = []
    seen: set[str] = set()
    for raw in re.split(r"[,\n;]", text or ""):
        name = normalise_name(raw)
        if name and name_key(name) not in seen:
            seen.add(name_key(name))
            names.append(name)
    return names


def clean_new_names(value: str, may_add: bool) -> list[str]:
    """New player names typed into a night or tournament form: at most MAX_NEW_PLAYERS, none too
    long, and only from someone who may add players to the club
    (club.clubs.queries.access.may_add_players)."""
    names = parse_names(value)
    if not names:
        return names
    if not may_add:
        raise forms.ValidationError(
            "Only a secretary can add players to the club. Choose players already in it, or ask "
            "a secretary (who can also let table scorers add players, in the club's settings)."
        )
    if len(names) > MAX_NEW_PLAYERS:
        raise forms.ValidationError(
            f"That is {len(names)} names: add at most {MAX_NEW_PLAYERS} players at a time."
        )
    limit = Player._meta.get_field("name").max_length
    assert limit is not None  # a CharField's
    too_long = [n for n in names if len(n) > limit]
    if too_long:
        raise forms.ValidationError(
            f"{too_long[0][:30]}... is too long for a name: at most {limit} characters "
            f"(this one has {len(too_long[0])})."
        )
    return names


def season_for(club: Club, date: dt.date) -> Season | None:
    """The club's season whose dates contain `date` (the latest starting, if they overlap)."""
    return club.seasons.filter(start__lte=date, end__gte=date).order_by("-start").first()


def clean_date_and_season(form: forms.Form, club: Club, data: dict[str, Any]) -> None:
    """The season defaults to the one whose dates contain the date; a chosen one must contain it.
    Shared by the night and tournament forms (a tournament is a night)."""
    date, season = data.get("date"), data.get("season")
    if date is None:
        return
    if season is None:
        season = season_for(club, date)
        if season is None:
            form.add_error(
                "season",
                f"No season covers {date:%d %b %Y}: choose one, or add a season in set-up.",
            )
        data["season"] = season
    elif not season.start <= date <= season.end:
        form.add_error(
            "date",
            f"{season} runs from {season.start:%d %b %Y} to {season.end:%d %b %Y}: "
            "choose a date in it or another season.",
        )


class NightForm(forms.Form):
    fields: dict[str, Any]  # by name, each its own kind of field (choices, queryset)

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

    # One-time: drawn when the blank form is shown, kept through "Add players" and "Add a table",
    # and stored on the night it creates, so that the form sent twice creates one night.
    form_token = forms.UUIDField(required=False, widget=forms.HiddenInput)

    def __init__(self, *args: Any, club: Club, may_add_players: bool = True, **kwargs: Any) -> None:
        if "initial" not in kwargs:
            today = club.today()
            season = season_for(club, today)
            kwargs["initial"] = {"date": today, "season": season.pk if season else None}
        kwargs["initial"].setdefault("form_token", uuid.uuid4())
        super().__init__(*args, **kwargs)
        self.club = club
        self.may_add_players = may_add_players
        self.fields["season"].queryset = club.seasons.all()

    def clean_new_players(self) -> list[str]:
        names = clean_new_names(self.cleaned_data["new_players"], self.may_add_players)
        # A player marked inactive may be brought back this way; an active one is in the seats.
        active = {
            name_key(n)
            for n in self.club.players.filter(active=True).values_list("name", flat=True)
        }
        clashes = [n for n in names if name_key(n) in active]
        if clashes:
            raise forms.ValidationError(
                f"Already in the club: {', '.join(clashes)}. Choose them in the seats below."
            )
        return names

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        clean_date_and_season(self, self.club, data)
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
        super().clean()
        data = self.cleaned_data
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
    """The tables of a night. `fixed` are (number, players) of tables shown read-only beside the
    forms (they have hands): their players count when checking that nobody sits at two tables."""

    def __init__(
        self,
        *args: Any,
        players: list[Player],
        fixed: Sequence[tuple[int, Sequence[Player]]] = (),
        **kwargs: Any,
    ) -> None:
        self.players = players
        self.fixed = list(fixed)
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
            # BaseFormSet's renderer and _should_delete_form are Django's, not in the stubs.
            renderer=self.renderer,  # type: ignore[attr-defined]
            **self.get_form_kwargs(None),
        )

    def removed(self, form: forms.Form) -> bool:
        """The form's table is ticked for removal (only where the formset can delete)."""
        return self.can_delete and self._should_delete_form(form)  # type: ignore[attr-defined]

    def table_numbers(self) -> list[int]:
        """The number of each form's table, as the page's messages name it: its place here."""
        return list(range(1, len(self.forms) + 1))

    def clean(self) -> None:
        # Runs even when a table has errors of its own, so that every mistake shows at once.
        where: dict[int, int] = {}  # player pk -> the table (as numbered on the page)
        for number, seated in self.fixed:
            for player in seated:
                where.setdefault(player.pk, number)
        used = len(self.fixed)
        for number, form in zip(self.table_numbers(), self.forms, strict=True):
            if self.removed(form) or (not form.seated and not form.errors):
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
        if used > MAX_TABLES:
            raise forms.ValidationError(f"A night has at most {MAX_TABLES} tables.")

    def tables(self) -> list[tuple[list[Player], int]]:
        """(players in seat order, first dealer's 0-based seat) for each table used."""
        return [
            (f.seated, f.cleaned_data["first_dealer"] - 1)
            for f in self.forms
            if f.seated and not self.removed(f)
        ]


# Typed as their base classes, whose __init__ takes the players and the tables kept.
TableFormSet = cast(
    type[BaseTableFormSet],
    forms.formset_factory(
        TableForm,
        formset=BaseTableFormSet,
        extra=0,
        max_num=MAX_TABLES,
        validate_max=True,
        absolute_max=MAX_TABLES,
    ),
)


def default_table_count(active_players: int) -> int:
    """Enough tables of four for the club's active players, within 1..MAX_TABLES."""
    return max(1, min(MAX_TABLES, -(-active_players // 4)))


def tables_initial(
    data: Any, prefix: str, count: int, extra_fields: Sequence[str] = ()
) -> list[dict[str, Any]]:
    """The tables as last posted, as initial values for a fresh (unbound) form: used when the page
    is shown again after adding players or a table, without showing errors for half-filled
    tables."""
    fields = [*(seat_field(n) for n in SEATS), "first_dealer", *extra_fields]
    return [
        {
            name: data.get(f"{prefix}-{i}-{name}")
            for name in fields
            if data.get(f"{prefix}-{i}-{name}")
        }
        for i in range(count)
    ]


# Changing the tables of a night already set up ----------------------------------------------


class EditTableForm(TableForm):
    """A table of a night being changed: an existing table (its id in `table`) or a new one."""

    table = forms.IntegerField(required=False, widget=forms.HiddenInput)

    def __init__(
        self, *args: Any, night_tables: dict[int, tuple[Table, int]], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.night_tables = night_tables  # table pk -> (table, hands) of the night

    @property
    def existing(self) -> Table | None:
        """The night's table this form changes (None for a new table), as the page showed it."""
        posted = self.data.get(self.add_prefix("table"))
        found = self.night_tables.get(_int(posted if self.is_bound else self.initial.get("table")))
        return found[0] if found else None

    def clean_table(self) -> int | None:
        pk = self.cleaned_data["table"]
        if pk is None:
            return None
        if pk not in self.night_tables:
            raise forms.ValidationError(
                "This table is no longer part of the night: open the page again."
            )
        table, hands = self.night_tables[pk]
        if hands:
            raise forms.ValidationError(
                f"{table} has {hands} hand{'s' if hands != 1 else ''} now, so its seats can no "
                "longer change."
            )
        return pk


def _int(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0  # no table has this id


class BaseEditTableFormSet(BaseTableFormSet):
    """The tables of a night that have no hands yet, and new ones. A table is removed by ticking
    its Remove box or by clearing its seats."""

    def __init__(
        self, *args: Any, night_tables: dict[int, tuple[Table, int]], **kwargs: Any
    ) -> None:
        self.night_tables = night_tables
        super().__init__(*args, **kwargs)

    def get_form_kwargs(self, index: int | None) -> dict[str, Any]:
        return {**super().get_form_kwargs(index), "night_tables": self.night_tables}

    def add_fields(self, form: forms.Form, index: int | None) -> None:
        super().add_fields(form, index)
        if forms.formsets.DELETION_FIELD_NAME in form.fields:
            form.fields[forms.formsets.DELETION_FIELD_NAME].label = "Remove this table"

    def _kept(self, form: EditTableForm) -> bool:
        return bool(form.seated or form.errors) and not self.removed(form)

    def table_numbers(self) -> list[int]:
        """An existing table keeps its number; new tables follow the highest number kept."""
        kept = [number for number, _ in self.fixed]
        for form in self.forms:
            if form.existing is not None and (not form.is_bound or self._kept(form)):
                kept.append(form.existing.number)
        after = max(kept, default=0)
        numbers = []
        for form in self.forms:
            if form.existing is not None:
                numbers.append(form.existing.number)
            else:
                after += 1
                numbers.append(after)
        return numbers

    def clean(self) -> None:
        problems = [
            error
            for form in self.forms
            if self.removed(form) and form.has_error("table")
            for error in form.errors["table"]
        ]
        super().clean()
        if problems:
            raise forms.ValidationError(problems)

    def changes(self) -> tuple[list[tuple[Table | None, list[Player], int]], list[Table]]:
        """What to do, once valid: (existing table or None, players, first dealer's 0-based seat)
        for each table kept or added, and the existing tables to remove."""
        kept, removed = [], []
        for form in self.forms:
            table = form.existing
            if form.seated and not self.removed(form):
                kept.append((table, form.seated, form.cleaned_data["first_dealer"] - 1))
            elif table is not None:
                removed.append(table)
        return kept, removed


EditTableFormSet = cast(
    type[BaseEditTableFormSet],
    forms.formset_factory(
        EditTableForm,
        formset=BaseEditTableFormSet,
        extra=0,
        max_num=MAX_TABLES,
        validate_max=True,
        absolute_max=MAX_TABLES,
        can_delete=True,
        can_delete_extra=False,
    ),
)
