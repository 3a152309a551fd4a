"""Forms of the club set-up: club settings, players, seasons, rule sets and members.

Every form that names or picks club objects is given the club, so that its choices and its
uniqueness checks are scoped to that club and nothing else.
"""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Field

import scoring
from club.clubs.models import Club, Player, Role, RuleSet, Season, StandingsMethod
from club.clubs.services.setup import player_named
from club.lib import zones
from club.lib.money import unit_mismatch
from club.lib.names import normalise_name

# The suits of a rotating trump, one step a hand (the anna-cubed cycle).
DEFAULT_TRUMP_ROTATION = (
    scoring.Trump.HEARTS,
    scoring.Trump.CLUBS,
    scoring.Trump.DIAMONDS,
    scoring.Trump.SPADES,
    scoring.Trump.NO_TRUMPS,
)

# The most a stake (base, per over- or under-trick, general misère) may be, in the club's unit: a
# hand's amounts are stored as 32-bit integers (PostgreSQL), and a night's totals add them up.
MAX_STAKE = 100_000
MAX_STAKE_MESSAGE = f"A stake can be at most {MAX_STAKE:,} (in the club's smallest unit)."

DECIMALS_CHOICES = [
    (100, "2 decimal places (pence, cents)"),
    (1, "None: whole units"),
    (10, "1 decimal place"),
    (1000, "3 decimal places"),
]


class ClubSettingsForm(forms.ModelForm):
    minor_units = forms.TypedChoiceField(
        label="Money shown with",
        choices=DECIMALS_CHOICES,
        coerce=int,
        help_text="Amounts are stored in the smallest unit: with 2 decimal places, 120 is £1.20.",
    )

    class Meta:
        model = Club
        fields = [
            "name",
            "time_zone",
            "unit_kind",
            "currency_symbol",
            "minor_units",
            "points_label",
            "is_public",
            "confirm_table_hands",
            "correction_minutes",
            "players_may_claim",
            "projector_embed_origins",
            "scorers_add_players",
            "first_card_opens_night",
            "door_check_in",
            "odd_tables",
        ]
        labels = {
            "name": "Club name",
            "unit_kind": "Play for",
            "currency_symbol": "Currency symbol",
            "points_label": "Points label",
            "is_public": "Public: anyone may read nights, players and standings",
            "confirm_table_hands": "A second player confirms each hand entered by a table's link",
            "correction_minutes": "Correction window (minutes)",
            "players_may_claim": "Players may claim their own record by email",
            "projector_embed_origins": "Sites that may embed the projector page",
            "scorers_add_players": "Table scorers may add new players",
            "first_card_opens_night": "The first table card scanned opens tonight's night",
            "door_check_in": "Players tick themselves in on the door QR code",
            "odd_tables": "A draw's odd tables",
        }
        help_texts = {
            "unit_kind": "Changing this after hands are scored only changes how amounts are shown.",
            "currency_symbol": "£, $, € ... (for money)",
            "points_label": 'Shown after points, e.g. "pts" (for points)',
            "is_public": "",
            "confirm_table_hands": "Unconfirmed hands count in the totals, marked as unconfirmed; "
            "the night cannot be closed until a player or a secretary confirms them.",
            "correction_minutes": "A closed night stays provisional this long, while the secretary "
            "may still correct it; then it is published and players are emailed. 0: at once.",
            "players_may_claim": "They get a one-time link at the address the club has for them.",
        }
        widgets = {"unit_kind": forms.RadioSelect, "odd_tables": forms.RadioSelect}

    def clean_name(self) -> str:
        return self.cleaned_data["name"].strip()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Left out of a post (an older form), the window keeps its value.
        self.fields["correction_minutes"].required = False
        self.fields["odd_tables"].required = False
        # Left out of a post (an older form), the club keeps its zone.
        now = self.instance.local_now()
        self.fields["time_zone"] = zones.TimeZoneField(
            current=self.instance.time_zone,
            required=False,
            help_text="The club's own clock: tonight's date, the times on its pages, emails and "
            f"sheets. Its time now: {now:%H:%M} on {now:%a %-d %b}.",
        )

    def clean_time_zone(self) -> str:
        return self.cleaned_data["time_zone"] or self.instance.time_zone

    def clean_odd_tables(self) -> str:
        # Left out of a post (an older form), the draw keeps its odd table size.
        return self.cleaned_data["odd_tables"] or self.instance.odd_tables

    def clean_correction_minutes(self) -> int:
        minutes = self.cleaned_data["correction_minutes"]
        if minutes is None:
            return self.instance.correction_minutes
        if minutes > 24 * 60:
            raise forms.ValidationError("The correction window is at most a day (1440 minutes).")
        return minutes


class PlayerForm(forms.ModelForm):
    """Add or rename a player; names are unique in the club whatever their case."""

    class Meta:
        model = Player
        fields = ["name", "active", "email", "email_results"]
        labels = {
            "active": "Active (offered when seating a night)",
            "email_results": "Email them their result after each night",
        }

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club
        if self.instance.pk is None:
            del self.fields["active"]

    def clean_name(self) -> str:
        name = normalise_name(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError("A player needs a name.")
        clash = player_named(self.club, name)
        if clash is not None and clash.pk != self.instance.pk:
            raise forms.ValidationError(
                f"There is already a player called {clash.name} in this club."
            )
        return name

    def save(self, commit: bool = True) -> Player:
        self.instance.club = self.club
        return super().save(commit)


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        super().__init__(attrs, format="%Y-%m-%d")


class SeasonForm(forms.ModelForm):
    fields: dict[str, Any]  # by name, each its own kind of field (choices, queryset)

    class Meta:
        model = Season
        fields = [
            "name",
            "start",
            "end",
            "rule_set",
            "standings_method",
            "standings_rule_set",
            "min_nights",
            "best_nights",
        ]
        labels = {
            "start": "Starts",
            "end": "Ends",
            "rule_set": "Rule set (the stakes nights settle under)",
            "standings_rule_set": "Standings rule set",
            "min_nights": "Nights to qualify",
            "best_nights": "Best N nights count",
        }
        widgets = {"start": DateInput(), "end": DateInput()}

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club
        rule_sets = RuleSet.objects.filter(club=club)
        self.fields["rule_set"].queryset = rule_sets
        self.fields["standings_rule_set"].queryset = rule_sets
        self.fields["standings_rule_set"].empty_label = "None: the season's own rule set"
        self.fields["standings_method"].choices = StandingsMethod.choices
        if self.instance.pk and self.instance.score_lines.exists():
            # Hands keep the rules they were scored under; moving a season with scored hands to
            # other rules would mix two rule sets in one night.
            self.fields["rule_set"].disabled = True
            self.fields[
                "rule_set"
            ].help_text = "This season has scored hands, so its rule set can no longer change."
            self.fields["standings_rule_set"].help_text = (
                "Changing it scores every recorded hand of the season again for the ladder "
                "(the nights' money stays as it is); the change is recorded."
            )

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        clash = self.club.seasons.filter(name__iexact=name).exclude(pk=self.instance.pk)
        if clash.exists():
            raise forms.ValidationError(f"There is already a season called {name}.")
        return name

    def clean_best_nights(self) -> int | None:
        best = self.cleaned_data["best_nights"]
        if best is not None and best < 1:
            raise forms.ValidationError(
                "Count at least the best 1 night, or leave this blank to count every night."
            )
        return best

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        start, end = data.get("start"), data.get("end")
        if start and end and end < start:
            self.add_error("end", "The season must end on or after the day it starts.")
        return data

    def save(self, commit: bool = True) -> Season:
        self.instance.club = self.club
        return super().save(commit)


def preset_choices() -> list[tuple[str, str]]:
    labels = {
        "hoyle": "Hoyle: pence, 6/12/18, over- and under-tricks, paid per opponent",
        "standard": "Standard: units, 1/2/3/4/6, paid per opponent",
        "anna-cubed": "Anna Cubed: points to the winner only, rotating trumps",
        "cents": "Cents: 10/25/50/60/75/100 cents, paid per opponent",
    }
    return [(key, labels.get(key, key)) for key in scoring.PRESETS]


class RuleSetNameMixin:
    club: Club
    instance_pk: int | None = None
    cleaned_data: dict[str, Any]  # the form's, which the mixin comes before

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError("A rule set needs a name.")
        clash = RuleSet.objects.filter(club=self.club, name__iexact=name)
        if self.instance_pk is not None:
            clash = clash.exclude(pk=self.instance_pk)
        if clash.exists():
            raise forms.ValidationError(f"There is already a rule set called {name}.")
        return name


class RuleSetPresetForm(RuleSetNameMixin, forms.Form):
    fields: dict[str, Any]  # by name, each its own kind of field (choices, queryset)

    preset = forms.ChoiceField(label="Start from", widget=forms.RadioSelect)
    name = forms.CharField(max_length=80, help_text="What the club calls it, e.g. House rules.")

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club
        self.fields["preset"].choices = preset_choices()

    def clean_preset(self) -> str:
        preset = self.cleaned_data["preset"]
        problem = unit_mismatch(self.club, scoring.preset(preset).unit)
        if problem is not None:
            raise forms.ValidationError(problem)
        return preset


def stake_field(contract: scoring.Contract, part: str) -> str:
    return f"stake_{contract.value}_{part}"


class RuleSetForm(RuleSetNameMixin, forms.Form):
    """A rule set's stakes and options; the scoring core validates the whole and its message is
    shown beside the field it names."""

    name = forms.CharField(max_length=80)
    payment = forms.ChoiceField(
        choices=[
            (scoring.Payment.PER_OPPONENT.value, "Per opponent: the losing side pays each winner"),
            (scoring.Payment.WINNER_ONLY.value, "Winner only: a made contract scores points"),
        ],
        widget=forms.RadioSelect,
    )
    prop_cop_slam_double = forms.BooleanField(
        required=False, label="A Prop & Cop slam (13 tricks) counts its over-tricks double"
    )
    revoke_tricks = forms.IntegerField(
        label="Revoke penalty (tricks)",
        widget=forms.NumberInput(attrs={"min": 0, "max": 13}),
        help_text="Tricks moved from the revoking side to the other side.",
    )
    all_passed = forms.ChoiceField(
        label="When everyone passes",
        choices=[
            (scoring.AllPassed.REDEAL.value, "Redeal: throw in, the next dealer deals"),
            (scoring.AllPassed.GOULASH.value, "Goulash: re-deal unshuffled, no score"),
            (
                scoring.AllPassed.GENERAL_MISERE.value,
                "General misère: the taker of the last trick pays each other player",
            ),
        ],
    )
    general_misere_stake = forms.IntegerField(
        label="General misère stake",
        max_value=MAX_STAKE,
        error_messages={"max_value": MAX_STAKE_MESSAGE},
        widget=forms.NumberInput(attrs={"min": 0}),
        help_text="Paid to each other player by the taker of the last trick.",
    )
    sit_out = forms.ChoiceField(
        label="At a table of five, who sits out",
        choices=[
            (scoring.SitOut.DEALER_RIGHT.value, "The player on the dealer's right (Hoyle)"),
            (scoring.SitOut.DEALER.value, "The dealer"),
        ],
    )
    abundance_declared_names_trumps = forms.BooleanField(
        required=False, label="Abundance Declared: the declarer names trumps (else no trumps)"
    )
    trump_rotation = forms.BooleanField(
        required=False,
        label="Trumps rotate one step a hand, in the order below (instead of a turned card)",
    )
    stake_unit = forms.IntegerField(
        label="Each unit of the stakes is worth",
        required=False,
        min_value=1,
        max_value=100_000,
        widget=forms.NumberInput(attrs={"min": 1}),
        help_text="In the club's smallest unit: 5 plays the table above in units of 5p (a solo "
        "of 1 costs 5p). Leave 1 when the stakes are written in pence, cents or points.",
    )
    redeal_by = forms.ChoiceField(
        label="After cards wrongly dealt, or a deal void for revokes on both sides",
        required=False,
        choices=[
            (scoring.Redeal.SAME.value, "The same player deals again (Hoyle)"),
            (scoring.Redeal.NEXT.value, "The deal passes to the left"),
        ],
    )
    record_turned_suit = forms.BooleanField(
        required=False, label="Each hand records the suit the dealer turned up"
    )
    abundance_in_turned_suit = forms.BooleanField(
        required=False,
        label="An abundance may name the suit turned up (else that is a Royal Abundance)",
    )

    def __init__(
        self,
        *args: Any,
        club: Club,
        instance: RuleSet | None = None,
        rules: scoring.RuleSet | None = None,
        **kwargs: Any,
    ) -> None:
        self.club = club
        self.instance_pk = instance.pk if instance else None
        base = rules or (instance.rules if instance else scoring.preset("standard"))
        self.base_rules = base
        if "initial" not in kwargs:
            kwargs["initial"] = self.initial_from(base, instance.name if instance else "")
        super().__init__(*args, **kwargs)
        for i in range(len(scoring.Trump)):
            self.fields[f"rotation_{i}"] = forms.ChoiceField(
                label=f"Rotation, hand {i + 1}",
                required=False,
                choices=[("", "—"), *((t.value, t.display_name) for t in scoring.Trump)],
            )
        for contract in scoring.Contract:
            extra = contract.info.counts_extra_tricks
            for part in ("base", "over", "under"):
                label = f"{contract.display_name} {part}"
                self.fields[stake_field(contract, part)] = forms.IntegerField(
                    label=label,
                    required=part == "base",
                    max_value=MAX_STAKE,
                    error_messages={"max_value": MAX_STAKE_MESSAGE},
                    widget=forms.NumberInput(
                        attrs={"min": 0, "class": "stake", "aria-label": label}
                        | ({} if extra or part == "base" else {"disabled": True})
                    ),
                )

    @staticmethod
    def initial_from(rules: scoring.RuleSet, name: str) -> dict[str, Any]:
        initial: dict[str, Any] = {
            "name": name,
            "payment": rules.payment.value,
            "prop_cop_slam_double": rules.prop_cop_slam_double,
            "revoke_tricks": rules.revoke_tricks,
            "all_passed": rules.all_passed.value,
            "general_misere_stake": rules.general_misere_stake,
            "sit_out": rules.sit_out.value,
            "abundance_declared_names_trumps": rules.abundance_declared_names_trumps,
            "trump_rotation": bool(rules.trump_rotation),
            "stake_unit": rules.stake_unit,
            "redeal_by": rules.redeal_by.value,
            "record_turned_suit": rules.record_turned_suit,
            "abundance_in_turned_suit": rules.abundance_in_turned_suit,
        }
        order = rules.trump_rotation or DEFAULT_TRUMP_ROTATION
        for i, trump in enumerate(order):
            initial[f"rotation_{i}"] = trump.value
        for contract, stake in rules.stakes.items():
            for part in ("base", "over", "under"):
                initial[stake_field(contract, part)] = getattr(stake, part)
        return initial

    def stake_rows(self) -> list[tuple[scoring.Contract, list[forms.BoundField]]]:
        """The 7 x 3 stakes table: each contract with its base, over and under inputs."""
        return [
            (c, [self[stake_field(c, part)] for part in ("base", "over", "under")])
            for c in scoring.Contract
        ]

    def option_fields(self) -> list[forms.BoundField]:
        return [
            self[name]
            for name in (
                "payment",
                "prop_cop_slam_double",
                "revoke_tricks",
                "all_passed",
                "general_misere_stake",
                "sit_out",
                "abundance_declared_names_trumps",
                "stake_unit",
                "redeal_by",
                "record_turned_suit",
                "abundance_in_turned_suit",
                "trump_rotation",
            )
        ]

    def rotation_fields(self) -> list[forms.BoundField]:
        """The rotation's order, one select a hand of the cycle (blank ones are left out)."""
        return [self[f"rotation_{i}"] for i in range(len(scoring.Trump))]

    def _form_field(self, core_field: str) -> str | None:
        """The form field behind a scoring.InvalidRuleSet field name ("stakes.solo.base")."""
        parts = core_field.split(".")
        if parts[0] == "stakes" and len(parts) >= 2:
            try:
                contract = scoring.Contract(parts[1])
            except ValueError:
                return None
            name = stake_field(contract, parts[2] if len(parts) > 2 else "base")
            return name if name in self.fields else None
        if core_field == "trump_rotation":
            return "rotation_0"
        return core_field if core_field in self.fields else None

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        if self.errors:
            return data
        names = [f"rotation_{i}" for i in range(len(scoring.Trump))]
        rotation = [data[name] for name in names if data.get(name)]
        if not any(self.add_prefix(name) in self.data for name in names):
            # A form without the order (an older page): the order it starts from.
            rotation = [t.value for t in self.base_rules.trump_rotation or DEFAULT_TRUMP_ROTATION]
        if data["trump_rotation"] and not rotation:
            self.add_error("rotation_0", "Choose the suits the trumps rotate through, in order.")
            return data
        raw = {
            "name": data["name"],
            "unit": self.base_rules.unit,
            "source": self.base_rules.source,
            "payment": data["payment"],
            "stakes": {
                c.value: {
                    part: data.get(stake_field(c, part)) or 0 for part in ("base", "over", "under")
                }
                for c in scoring.Contract
            },
            "prop_cop_slam_double": data["prop_cop_slam_double"],
            "revoke_tricks": data["revoke_tricks"],
            "all_passed": data["all_passed"],
            "general_misere_stake": data["general_misere_stake"],
            "sit_out": data["sit_out"],
            "abundance_declared_names_trumps": data["abundance_declared_names_trumps"],
            "trump_rotation": rotation if data["trump_rotation"] else [],
            # Left out (an older form): as the rules it starts from.
            "stake_unit": data.get("stake_unit") or self.base_rules.stake_unit,
            "redeal_by": data.get("redeal_by") or self.base_rules.redeal_by.value,
            "record_turned_suit": data["record_turned_suit"],
            "abundance_in_turned_suit": data["abundance_in_turned_suit"],
        }
        try:
            data["rules"] = scoring.RuleSet.from_dict(raw)
        except scoring.InvalidRuleSet as error:
            message = error.message[:1].upper() + error.message[1:] + "."
            self.add_error(self._form_field(error.field), message)
            return data
        problem = unit_mismatch(self.club, data["rules"].unit)
        if problem is not None:
            del data["rules"]
            self.add_error(None, problem)
        return data


class RoleForm(forms.Form):
    role = forms.ChoiceField(choices=Role.choices)


class AddMemberForm(forms.Form):
    """Invite an existing account: it joins when its owner accepts, after logging in."""

    username = forms.CharField(
        max_length=150,
        help_text="Someone who already has an account. They join once they accept the invitation.",
    )
    role = forms.ChoiceField(choices=Role.choices, initial=Role.VIEWER)

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.club = club

    def clean_username(self) -> User:
        username = self.cleaned_data["username"].strip()
        users = get_user_model().objects.filter(username__iexact=username)
        user = next((u for u in users if u.get_username() == username), None) or (
            users[0] if len(users) == 1 else None
        )
        if user is None:
            raise forms.ValidationError(f"There is no user called {username}.")
        if self.club.memberships.filter(user=user).exists():
            raise forms.ValidationError(f"{user.get_username()} is already a member of the club.")
        return user


class NewUserForm(forms.Form):
    username = forms.CharField(max_length=150)
    email = forms.EmailField(required=False)
    role = forms.ChoiceField(choices=Role.choices, initial=Role.VIEWER)

    def clean_username(self) -> str:
        User = get_user_model()
        username = self.cleaned_data["username"].strip()
        field = cast("Field[Any, Any]", User._meta.get_field(User.USERNAME_FIELD))
        for validator in field.validators:
            validator(username)
        if User.objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(
                f"The username {username} is taken: add that user as an existing member instead."
            )
        return username


def check_unit_choice(form: forms.Form, data: dict[str, Any], playing: str) -> None:
    """A sign-up's choice of what it plays for (money with its symbol, or points) against its
    preset's unit: the error beside the field to change. `playing` names who plays ("the
    club", "the league")."""
    if data.get("unit_kind") == Club.UnitKind.MONEY and not data.get("currency_symbol"):
        form.add_error("currency_symbol", "Give the currency's symbol, e.g. £, $ or €.")
    elif data.get("unit_kind") and data.get("preset"):
        club = Club(unit_kind=data["unit_kind"], currency_symbol=data.get("currency_symbol") or "")
        problem = unit_mismatch(
            club,
            scoring.preset(data["preset"]).unit,
            remedy=f"choose what {playing} plays for to match",
        )
        if problem is not None:
            form.add_error("preset", problem)
