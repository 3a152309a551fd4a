"""The hand form's field for cards improperly divided, found after the first call: tick who held
the wrong number of cards (Hoyle's Digest of the Laws: the declaring side wins if its own cards
are correct; whoever held the wrong number loses the stake, whatever the tricks)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms

from club.clubs.models import Player

LABEL = "Held the wrong number of cards"
HELP = (
    "Found after the first call: the declaring side wins if its own cards were right, and "
    "whoever held too many or too few loses the stake, whatever the tricks. Found before the "
    "first call, choose Cards wrongly dealt instead."
)


class WrongCardsField(forms.MultipleChoiceField):
    """A tick box a player taking part; cleans to the Players ticked, in seat order, no query."""

    widget = forms.CheckboxSelectMultiple
    default_error_messages = {
        "invalid_choice": "Tick only players taking part in this hand.",
    }

    def __init__(self, players: Sequence[Player], **kwargs: Any) -> None:
        self.players = {str(p.pk): p for p in players}
        kwargs.setdefault("label", LABEL)
        kwargs.setdefault("help_text", HELP)
        super().__init__(
            choices=[(key, p.name) for key, p in self.players.items()], required=False, **kwargs
        )

    def clean(self, value: Any) -> tuple[Player, ...]:
        keys = set(super().clean(value))
        return tuple(p for key, p in self.players.items() if key in keys)
