"""Forms for grades: the club's grade settings and the head-to-head choice on a player page."""

from __future__ import annotations

from typing import Any

from django import forms

from club.clubs.models import Player


class GradeSettingsForm(forms.Form):
    fields: dict[str, Any]  # by name, each its own kind of field (choices, queryset)

    enabled = forms.BooleanField(
        required=False,
        label="Show grades",
        help_text="Off: no grade on any page (they are still kept, so turning them on is instant).",
    )
    min_hands = forms.IntegerField(
        min_value=1,
        max_value=10_000,
        label="Hands before a grade is final",
        help_text="Until a player has played this many rated hands their grade is provisional.",
        error_messages={
            "min_value": "A grade needs at least 1 hand.",
            "max_value": "At most 10,000 hands.",
            "required": "Say how many hands a grade needs.",
        },
    )
    ladder_by_grade = forms.BooleanField(
        required=False,
        label="Order the standings by grade",
        help_text="The standings table opens sorted by grade instead of by the season's ladder.",
    )
    not_public = forms.ModelMultipleChoiceField(
        queryset=Player.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Not graded in public",
        help_text=(
            "Players who asked for it: their grade is shown only to the secretaries and to "
            "themselves."
        ),
    )

    def __init__(self, *args: Any, players: list[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["not_public"]
        field.queryset = Player.objects.filter(pk__in=[p.pk for p in players]).order_by("name")


class HeadToHeadForm(forms.Form):
    fields: dict[str, Any]  # by name, each its own kind of field (choices, queryset)

    vs = forms.TypedChoiceField(label="Against", coerce=int, empty_value=None)

    def __init__(self, *args: Any, players: list[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players = {p.pk: p for p in players}
        self.fields["vs"].choices = [("", "Choose a player")] + [(p.pk, p.name) for p in players]
        self.fields["vs"].error_messages["invalid_choice"] = "Choose a player of this club."

    def clean_vs(self) -> Player:
        pk = self.cleaned_data["vs"]
        if pk not in self.players:
            raise forms.ValidationError("Choose a player of this club.")
        return self.players[pk]
