"""Forms of the ledger and the members' own pages."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms

from club.clubs.models import Club, Player


def parse_amount(club: Club, text: str) -> int:
    """ "0.40", "£0.40" or "1,000" in the club's major unit -> minor units, exactly (no floats)."""
    cleaned = text.strip().replace(",", "")
    if club.currency_symbol:
        cleaned = cleaned.removeprefix(club.currency_symbol).strip()
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        raise forms.ValidationError(
            f"Write an amount like {club.format_amount(club.minor_units * 2 + 50)}."
        ) from None
    minor = value * club.minor_units
    if not value.is_finite() or minor != minor.to_integral_value():
        raise forms.ValidationError(
            f"Write an amount like {club.format_amount(club.minor_units * 2 + 50)}."
        )
    if minor <= 0:
        raise forms.ValidationError("Enter an amount greater than nothing.")
    if minor > 10**9:
        raise forms.ValidationError("That amount is too large.")
    return int(minor)


class PaymentForm(forms.Form):
    amount = forms.CharField(
        required=False,
        max_length=20,
        label="Amount paid",
        help_text="Leave it empty when all that is owed was paid.",
    )
    note = forms.CharField(required=False, max_length=120)

    def __init__(self, *args, club: Club, **kwargs):
        self.club = club
        super().__init__(*args, **kwargs)

    def clean_amount(self) -> int | None:
        text = self.cleaned_data["amount"]
        if not text.strip():
            return None
        return parse_amount(self.club, text)


class NettingForm(forms.Form):
    fields: dict[str, Any]  # by name, each its own kind of field (choices, queryset)

    first = forms.ModelChoiceField(queryset=Player.objects.none())
    second = forms.ModelChoiceField(queryset=Player.objects.none())

    def __init__(self, *args, club: Club, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["first"].queryset = club.players.all()
        self.fields["second"].queryset = club.players.all()

    def clean(self):
        super().clean()
        data = self.cleaned_data
        if data.get("first") and data.get("first") == data.get("second"):
            raise forms.ValidationError("Choose two different players.")
        return data


class EmailPreferencesForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["email", "email_results"]
        labels = {"email_results": "Email me my result after each night"}


class ClaimForm(forms.Form):
    email = forms.EmailField(label="Your email address", max_length=254)
