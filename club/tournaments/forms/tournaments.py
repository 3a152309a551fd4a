"""The tournament forms: setting one up (with its entrants, new players added on the fly), its
settings, entries between rounds, and closing a round.

Player choices are plain choice fields over one list of players loaded once (as the night form's
seats), so a field of sixty checkboxes costs one query.
"""

from __future__ import annotations

import uuid
from typing import Any

from django import forms

from club.clubs.forms.setup import DateInput
from club.clubs.models import Club, Player, Season
from club.play.forms.nights import clean_date_and_season, clean_new_names, season_for
from club.tournaments.models import Tournament

MAX_ROUNDS = 30
MAX_HANDS_PER_ROUND = 60


class PlayerChoices(forms.TypedMultipleChoiceField):
    widget = forms.CheckboxSelectMultiple

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(coerce=int, required=False, **kwargs)


class _Settings(forms.Form):
    name = forms.CharField(max_length=80, help_text='e.g. "Christmas Drive 2026".')
    rounds = forms.IntegerField(min_value=1, max_value=MAX_ROUNDS, initial=3)
    hands_per_round = forms.IntegerField(
        min_value=1,
        max_value=MAX_HANDS_PER_ROUND,
        initial=8,
        label="Hands per round",
        help_text="Each table plays this many hands before the round closes.",
    )
    scoring_method = forms.ChoiceField(
        choices=Tournament.ScoringMethod.choices,
        initial=Tournament.ScoringMethod.AMOUNTS,
        widget=forms.RadioSelect,
        label="Scoring",
        help_text="Amounts summed: the rule set's amounts over every hand. Table-rank points: "
        "each round, 4-3-2-1 at a table of four (5-4-3-2-1 at five, 3-2-1 at three) by the "
        "table's totals, ties sharing; the amounts break ties on the leaderboard.",
    )
    is_public = forms.BooleanField(
        required=False,
        label="Public event",
        help_text="Anyone with the link may follow the leaderboard and results without logging in.",
    )
    counts_in_standings = forms.BooleanField(
        required=False,
        initial=True,
        label="Count in the season standings",
        help_text="Its hands count in the season's standings and player pages, like a club night.",
    )


class TournamentForm(_Settings):
    """A new tournament: the settings, its date and season (whose rule set scores the hands), and
    the players entered on the day."""

    fields: dict[str, Any]  # by name, each its own kind of field (choices, queryset)

    date = forms.DateField(widget=DateInput())
    season = forms.ModelChoiceField(
        queryset=Season.objects.none(),
        required=False,
        empty_label="The season of the date",
        help_text="The hands are scored under the season's rule set.",
    )
    players = PlayerChoices(label="Players")
    new_players = forms.CharField(
        required=False,
        label="New players",
        widget=forms.Textarea(attrs={"rows": 2, "placeholder": "Jo Bloggs, Sam Smith"}),
        help_text="Names not in the club yet, separated by commas or new lines: they are added to "
        "the club and entered.",
    )

    field_order = [
        "name",
        "date",
        "season",
        "rounds",
        "hands_per_round",
        "scoring_method",
        "is_public",
        "counts_in_standings",
        "players",
        "new_players",
    ]

    # One-time, as on the night form: the same form sent twice creates one tournament.
    form_token = forms.UUIDField(required=False, widget=forms.HiddenInput)

    def __init__(
        self,
        *args: Any,
        club: Club,
        players: list[Player],
        may_add_players: bool = True,
        **kwargs: Any,
    ) -> None:
        self.may_add_players = may_add_players
        if "initial" not in kwargs:
            today = club.today()
            season = season_for(club, today)
            kwargs["initial"] = {"date": today, "season": season.pk if season else None}
        kwargs["initial"].setdefault("form_token", uuid.uuid4())
        super().__init__(*args, **kwargs)
        self.club = club
        self.player_list = {p.pk: p for p in players}
        self.fields["season"].queryset = club.seasons.select_related("rule_set")
        self.fields["season"].label_from_instance = lambda s: f"{s.name} ({s.rule_set.name})"
        self.fields["players"].choices = [(p.pk, p.name) for p in players]

    def clean_new_players(self) -> list[str]:
        return clean_new_names(self.cleaned_data["new_players"], self.may_add_players)

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        clean_date_and_season(self, self.club, data)
        return data

    @property
    def chosen_players(self) -> list[Player]:
        return [self.player_list[pk] for pk in self.cleaned_data.get("players", [])]


class SettingsForm(_Settings):
    """A tournament's settings once it exists (its date and season stay with its night)."""

    extra_hands_allowed = forms.BooleanField(
        required=False,
        label="Allow hands past the round's number",
        help_text="A table that has played its hands for the round is warned, and its next hand "
        "is refused unless this is ticked (a hand miscounted, a round replayed).",
    )

    def __init__(self, data: Any = None, *, tournament: Tournament) -> None:
        initial = {
            "name": tournament.name,
            "rounds": tournament.rounds,
            "hands_per_round": tournament.hands_per_round,
            "scoring_method": tournament.scoring_method,
            "is_public": tournament.is_public,
            "counts_in_standings": tournament.night.counts_in_standings,
            "extra_hands_allowed": tournament.extra_hands_allowed,
        }
        super().__init__(data, initial=initial)
        self.tournament = tournament
        if tournament.is_finished:
            self.fields["rounds"].disabled = True
            self.fields["rounds"].help_text = "The tournament has finished."

    def clean_rounds(self) -> int:
        rounds = self.cleaned_data["rounds"]
        playing = self.tournament.current_round
        if rounds < playing:
            raise forms.ValidationError(
                f"Round {playing} is in play: choose {playing} rounds or more."
            )
        return rounds


class EntriesForm(forms.Form):
    """Players to enter: club players not entered yet, and new names."""

    fields: dict[str, Any]  # by name, each its own kind of field (choices, queryset)

    players = PlayerChoices(label="Club players")
    new_players = forms.CharField(
        required=False,
        label="New players",
        widget=forms.Textarea(attrs={"rows": 2, "placeholder": "Jo Bloggs, Sam Smith"}),
        help_text="Names not in the club yet, separated by commas or new lines.",
    )

    def __init__(
        self, *args: Any, players: list[Player], may_add_players: bool = True, **kwargs: Any
    ) -> None:
        self.may_add_players = may_add_players
        super().__init__(*args, **kwargs)
        self.player_list = {p.pk: p for p in players}
        self.fields["players"].choices = [(p.pk, p.name) for p in players]

    def clean_new_players(self) -> list[str]:
        return clean_new_names(self.cleaned_data["new_players"], self.may_add_players)

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if not self.errors and not data.get("players") and not data.get("new_players"):
            raise forms.ValidationError("Choose players to enter, or type new names.")
        return data

    @property
    def chosen_players(self) -> list[Player]:
        return [self.player_list[pk] for pk in self.cleaned_data.get("players", [])]


class CloseRoundForm(forms.Form):
    close_anyway = forms.BooleanField(
        required=False,
        label="Close anyway",
        help_text="Close the round although some tables have not entered all their hands.",
    )
