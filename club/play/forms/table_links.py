"""The forms of a table's link: the phone's name, and a second player's confirmation of a hand."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django import forms

from club.clubs.models import Player
from club.play.forms.hands import PlayerField

DEVICE_MAX = 40


class DeviceForm(forms.Form):
    device = forms.CharField(
        label="This phone's name",
        max_length=DEVICE_MAX,
        required=False,
        help_text="Optional, e.g. \"Ann's phone\": the night's audit trail shows it beside the "
        "hands entered here.",
        error_messages={"max_length": f"Keep the name to {DEVICE_MAX} characters or fewer."},
    )

    def clean_device(self) -> str:
        return " ".join(self.cleaned_data["device"].split())


class ConfirmHandForm(forms.Form):
    """A second player confirms a hand: they name themselves among the players who took part.
    A secretary confirming from the night page has no `confirmer` field."""

    version = forms.IntegerField(
        widget=forms.HiddenInput,
        min_value=1,
        error_messages={"required": "This form is out of date: open the hand again."},
    )

    def __init__(
        self,
        data: Mapping[str, Any] | None = None,
        *,
        players: Sequence[Player] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(data, **kwargs)
        if players is not None:
            self.fields["confirmer"] = PlayerField(
                players,
                label="Who confirms?",
                help_text="A player at the table other than the one who entered the hand.",
                error_messages={"required": "Choose who confirms the hand."},
            )
