"""The register forms: a club ticks its players to name them; the organiser grants a transfer."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import OuterRef, Subquery

from club.clubs.models import Player
from club.leagues.models import League, LeagueClub, LeaguePerson, Registration


class NamePlayersForm(forms.Form):
    players = forms.ModelMultipleChoiceField(
        queryset=Player.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        label="Players to name",
        error_messages={"required": "Tick at least one player."},
    )

    def __init__(self, *args: Any, players: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["players"]
        assert isinstance(field, forms.ModelMultipleChoiceField)
        field.queryset = players


class _ClubPlayerChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return f"{obj.name} ({obj.club.name})"


class _PersonChoice(forms.ModelChoiceField):
    def label_from_instance(self, obj: Any) -> str:
        return f"{obj.name} ({obj.live_club})"


class TransferForm(forms.Form):
    person = _PersonChoice(
        queryset=LeaguePerson.objects.none(),
        label="Who",
        help_text="A person on a club's register now.",
    )
    player = _ClubPlayerChoice(
        queryset=Player.objects.none(),
        label="To play for the new club as",
        help_text="The new club's own record of him: he is on its register at once.",
    )
    note = forms.CharField(max_length=200, required=False, label="Note (the committee's reason)")

    def __init__(self, *args: Any, league: League, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        live = Registration.objects.filter(person=OuterRef("pk"), ended_at__isnull=True)
        people = LeaguePerson.objects.filter(league=league).annotate(
            live_club=Subquery(live.values("entry__club__name")[:1])
        )
        people = people.filter(live_club__isnull=False)
        person = self.fields["person"]
        assert isinstance(person, forms.ModelChoiceField)
        person.queryset = people.order_by("name")
        clubs = LeagueClub.objects.filter(league=league, status=LeagueClub.Status.ACCEPTED).values(
            "club_id"
        )
        player = self.fields["player"]
        assert isinstance(player, forms.ModelChoiceField)
        player.queryset = (
            Player.objects.filter(club_id__in=clubs, active=True)
            .select_related("club")
            .order_by("club__name", "name")
        )
