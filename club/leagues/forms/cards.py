"""The card's forms: the away side's dispute note, and the organiser's settlement, correction
and forfeit."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms

from club.clubs.models import Club
from club.leagues.models import Fixture
from club.leagues.services.cards import NOTE_LENGTH

# A side's score may not pass this many minor units (a match is a few dozen deals).
LARGEST_SCORE = 10**8


def parse_score(club: Club, text: str) -> int:
    """ "-12.40", "£3" or "+1,000" in the league's major unit -> minor units, exactly."""
    cleaned = text.strip().replace(",", "").replace(" ", "")
    sign = ""
    if cleaned[:1] in "+-":
        sign, cleaned = cleaned[0], cleaned[1:]
    if club.currency_symbol:
        cleaned = cleaned.removeprefix(club.currency_symbol)
    example = club.format_amount(-(club.minor_units * 12 + 40), signed=True)
    try:
        value = Decimal(sign + cleaned)
    except InvalidOperation:
        raise forms.ValidationError(f"Write the home side's score like {example}.") from None
    minor = value * club.minor_units
    if not value.is_finite() or minor != minor.to_integral_value():
        raise forms.ValidationError(f"Write the home side's score like {example}.")
    if abs(minor) > LARGEST_SCORE:
        raise forms.ValidationError("That score is too large.")
    return int(minor)


class DisputeForm(forms.Form):
    note = forms.CharField(
        max_length=NOTE_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text="What is wrong with the card: the organiser reads it before deciding.",
    )


class DecisionForm(forms.Form):
    """The organiser's home score for a disputed card (settle) or a counted one (correct)."""

    home_score = forms.CharField(
        max_length=20, label="Home side's score", help_text="The away side's is its opposite."
    )
    note = forms.CharField(max_length=NOTE_LENGTH, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        self.club = club
        super().__init__(*args, **kwargs)

    def clean_home_score(self) -> int:
        return parse_score(self.club, self.cleaned_data["home_score"])


class ForfeitForm(forms.Form):
    fields: dict[str, Any]

    forfeits = forms.TypedChoiceField(coerce=int, label="The club that did not turn up")
    # A forfeit replaces whatever card the match had: asked twice, on purpose.
    sure = forms.BooleanField(label="Yes, record the forfeit: it replaces the match's card")

    def __init__(self, *args: Any, fixture: Fixture, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["forfeits"].choices = [
            (fixture.home_id, fixture.home.club.name),
            (fixture.away_id, fixture.away.club.name),
        ]
