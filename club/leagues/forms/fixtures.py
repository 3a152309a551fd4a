"""The fixtures page's forms (moving a fixture's date) and the match page's (picking tonight's
players of each side)."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms

from club.leagues.models import Fixture, League, Registration


class FixtureChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return f"{obj.date:%d %b} {obj.home.club} v {obj.away.club}"


class MoveForm(forms.Form):
    fixture = FixtureChoice(queryset=Fixture.objects.none(), empty_label=None)
    date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}), label="New date")

    def __init__(self, *args: Any, league: League, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["fixture"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = Fixture.objects.filter(league=league, night=None).select_related(
            "home__club", "away__club"
        )


class OpenNightForm(forms.Form):
    """Tonight's players of each side, from the sides' live registrations."""

    home = forms.MultipleChoiceField(widget=forms.CheckboxSelectMultiple)
    away = forms.MultipleChoiceField(widget=forms.CheckboxSelectMultiple)
    # One-time: stored on the night it makes, so that the form sent twice makes one night.
    form_token = forms.UUIDField(widget=forms.HiddenInput)

    def __init__(
        self,
        *args: Any,
        home: list[Registration],
        away: list[Registration],
        wanted: int,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("initial", {}).setdefault("form_token", uuid.uuid4())
        super().__init__(*args, **kwargs)
        self.wanted = wanted
        for name, register in (("home", home), ("away", away)):
            field = self.fields[name]
            assert isinstance(field, forms.MultipleChoiceField)
            field.choices = [(str(r.pk), r.person.name) for r in register]
            field.help_text = f"Tick {wanted}."

    def _side(self, name: str) -> list[int]:
        picked = [int(pk) for pk in self.cleaned_data[name]]
        if len(picked) != self.wanted:
            raise forms.ValidationError(f"Tick {self.wanted} players, not {len(picked)}.")
        return picked

    def clean_home(self) -> list[int]:
        return self._side("home")

    def clean_away(self) -> list[int]:
        return self._side("away")
