"""The hand entry form.

Each field is checked on its own first (a player taking part in this hand, tricks 0 to 13, a partner
for Prop & Cop...), then the hand service scores the entry against the table and the rule set, so
that the rules decide what can happen: `scoring.InvalidHand` becomes a form error. Nothing here
computes a score.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS

import scoring
from club.clubs.models import Player
from club.play.forms.hand_layout import (
    HIDDEN_FIELDS,
    MISDEAL_LABEL,
    MISERES,
    NO_CONTRACT,
    HandLayout,
    trump_choice,
    trump_kind,
)
from club.play.forms.hand_words import ALL_PASSED_LABELS, describe_entry, result_words
from club.play.forms.wrong_cards import WrongCardsField
from club.play.models import Table
from club.play.services import hand_entry
from club.play.services.hand_entry import HandEntry, ScoredHand
from scoring.contracts import SUITS

TRICKS_MESSAGE = "Tricks must be between 0 and 13"


TRUMP_CHOICES = [("", "—"), *((t.value, trump_choice(t)) for t in scoring.Trump)]
NO_PLAY = (scoring.ALL_PASSED, scoring.MISDEAL)  # no contract played: nobody declares
# The revokes of a hand, in the order found: the first (or only) one, then any more.
REVOKE_FIELDS = ("revoke_by", "second_revoke_by", "third_revoke_by")
PENALTY_CHOICES = [
    ("", "— none —"),
    *((p.value, f"A defender {p.display_name}") for p in scoring.Penalty),
]
SUIT_CHOICES = [("", "—"), *((t.value, trump_choice(t)) for t in SUITS)]


def plain_choices(field: forms.ChoiceField, choices: list[tuple[str, str]]) -> None:
    """Give a field its choices as (value, label) pairs of text, the form Django normalises any
    choices to, without normalising them again: a hand form sets some seventy, and normalising
    them was a third of the time it takes to build and check the form."""
    field._choices = field.widget._choices = choices  # type: ignore[attr-defined]


class PlainSelect(forms.Select):
    """A select whose choices are set by plain_choices: made with none, not normalised."""

    def __init__(self, attrs: dict[str, Any] | None = None) -> None:
        forms.Widget.__init__(self, attrs)
        self._choices: list[tuple[str, str]] = []

    def __deepcopy__(self, memo: dict[int, Any]) -> PlainSelect:
        copied = copy.copy(self)
        copied.attrs = self.attrs.copy()
        copied._choices = list(self._choices)
        memo[id(self)] = copied
        return copied


class PlainChoiceField(forms.ChoiceField):
    """A choice field given its choices as plain (value, label) text pairs (plain_choices): a
    hand form builds about ten of these each time, and ChoiceField's own __init__ only
    normalises the choices it is given, so it is passed over for Field's."""

    widget = PlainSelect

    def __init__(self, *, choices: list[tuple[str, str]], **kwargs: Any) -> None:
        forms.Field.__init__(self, **kwargs)
        plain_choices(self, list(choices))  # its own list: a module's constant is shared

    def __deepcopy__(self, memo: dict[int, Any]) -> PlainChoiceField:
        # A form's declared fields are copied for each form: Field's copy, and the same choices
        # (ChoiceField's copy would normalise them again).
        copied = forms.Field.__deepcopy__(self, memo)  # type: ignore[attr-defined]
        plain_choices(copied, list(self._choices))  # type: ignore[attr-defined]
        return copied


class PlayerField(PlainChoiceField):
    """A select of the given players (by id) that cleans to the Player itself, with no query."""

    default_error_messages = {
        "invalid_choice": "Choose one of the players taking part in this hand.",
    }

    def __init__(
        self, players: Sequence[Player], *, empty_label: str | None = "—", **kwargs: Any
    ) -> None:
        self.players = {str(p.pk): p for p in players}
        choices = [(key, p.name) for key, p in self.players.items()]
        if empty_label is not None:
            choices.insert(0, ("", empty_label))
        super().__init__(choices=choices, **kwargs)

    def clean(self, value: Any) -> Player | None:
        key = super().clean(value)
        return self.players.get(key) if key else None


@dataclass(frozen=True)
class Preview:
    state: str  # "empty" (no contract yet), "ok" or "invalid"
    title: str = ""
    summary: str = ""
    amounts: list[tuple[Player, int | None]] = field(default_factory=list)  # None: sits out
    errors: list[str] = field(default_factory=list)


class HandForm(HandLayout, forms.Form):
    fields: dict[str, Any]  # by name, each its own kind of field (choices, queryset)

    contract = PlainChoiceField(
        choices=[],  # the table's contracts, set for each form
        label="Contract",
        error_messages={"required": "Choose the contract (or All passed)."},
    )
    trump = PlainChoiceField(
        label="Trumps",
        choices=TRUMP_CHOICES,
        required=False,
        help_text="For an abundance, the suit the declarer named.",
    )
    tricks = forms.IntegerField(
        label="Tricks won",
        required=False,
        min_value=0,
        max_value=scoring.TRICKS_IN_HAND,
        help_text="By the declaring side, 0 to 13.",
        error_messages={
            "min_value": TRICKS_MESSAGE,
            "max_value": TRICKS_MESSAGE,
            "invalid": "Enter the tricks as a whole number from 0 to 13.",
        },
        widget=forms.NumberInput(attrs={"min": 0, "max": 13, "inputmode": "numeric"}),
    )
    notes = forms.CharField(label="Notes", max_length=200, required=False)

    field_order = [
        "contract",
        "trump",
        "declarer",
        "partner",
        "tricks",
        "turned_suit",
        "revoke_by",
        "second_revoke_by",
        "third_revoke_by",
        "penalty",
        "penalty_by",
        "wrong_cards",
        "last_trick_by",
        "dealer",
        "notes",
    ]

    def __init__(
        self,
        data: Mapping[str, Any] | None = None,
        *,
        table: Table,
        rules: scoring.RuleSet,
        dealer: Player,
        number: int,
        rotation_trump: str = "",
        scores: bool = True,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("label_suffix", "")
        # A form read to save checks its fields only: the hand service scores the entry, once,
        # under the night's lock. The preview's form scores it to show the amounts.
        self.scores = scores
        self._arguments = {
            "table": table,
            "rules": rules,
            "dealer": dealer,
            "number": number,
            "rotation_trump": rotation_trump,
            **kwargs,
        }
        super().__init__(data, **kwargs)
        self.table = table
        self.rules = rules
        self.number = number
        self.rotation_trump = rotation_trump
        self.seats = hand_entry.seated_players(table)
        self.hand_dealer = self._chosen_dealer() or dealer
        keys = [str(p.pk) for p in self.seats]
        out = scoring.table.sitting_out(keys, str(self.hand_dealer.pk), rules)
        self.sitting_out = next((p for p in self.seats if str(p.pk) == out), None)
        self.players = [p for p in self.seats if p != self.sitting_out]
        self.contracts = scoring.table.legal_contracts(len(self.players))
        self.scored: ScoredHand | None = None
        self.entry: HandEntry | None = None

        plain_choices(
            self.fields["contract"],
            [
                ("", "— choose —"),
                *((c.value, c.display_name) for c in self.contracts),
                (scoring.ALL_PASSED, ALL_PASSED_LABELS[rules.all_passed]),
                (scoring.MISDEAL, MISDEAL_LABEL),
            ],
        )
        invalid = "Choose one of the contracts listed."
        if scoring.Contract.PROP_COP not in self.contracts:
            invalid += " Prop & Cop is not played when only three play."
        self.fields["contract"].error_messages["invalid_choice"] = invalid
        self.fields["declarer"] = PlayerField(
            self.players, label="Declarer", help_text="For Prop & Cop, the proposer."
        )
        if scoring.Contract.PROP_COP in self.contracts:
            self.fields["partner"] = PlayerField(
                self.players, label="Partner", help_text="The player who accepted."
            )
        self.fields["revoke_by"] = PlayerField(
            self.players, label="Revoke by", empty_label="— nobody —", required=False
        )
        # More revokes in one hand, in the order found (001: "The penalty for every revoke is the
        # loss of three tricks"); a player may be named twice. Revokes on both sides void the deal.
        self.fields["second_revoke_by"] = PlayerField(
            self.players, label="Another revoke by", empty_label="— nobody —", required=False
        )
        self.fields["third_revoke_by"] = PlayerField(
            self.players, label="A third revoke by", empty_label="— nobody —", required=False
        )
        self.fields["penalty"] = PlainChoiceField(
            label="Penalty against the misère",
            choices=PENALTY_CHOICES,
            required=False,
            help_text="The caller claims the stakes; the offender pays for his side.",
        )
        self.fields["penalty_by"] = PlayerField(
            self.players, label="Penalty incurred by", empty_label="— nobody —", required=False
        )
        self.fields["wrong_cards"] = WrongCardsField(self.players)
        if rules.record_turned_suit:
            self.fields["turned_suit"] = PlainChoiceField(
                label="Suit turned up", choices=SUIT_CHOICES, required=False
            )
        if rules.all_passed is scoring.AllPassed.GENERAL_MISERE:
            self.fields["last_trick_by"] = PlayerField(
                self.players,
                label="Last trick taken by",
                help_text="General misère: this player pays each of the others.",
            )
        self.fields["dealer"] = PlayerField(self.seats, label="Dealer", empty_label=None)
        self.fields["dealer"].initial = dealer.pk
        for name in ("declarer", "partner", "last_trick_by"):
            if name in self.fields:
                # Required only for the contracts that use them: checked in clean().
                self.fields[name].required = False
        if rotation_trump and "trump" not in self.initial:
            self.fields["trump"].initial = rotation_trump
        self.set_trump_tab_order()
        self.order_fields(self.field_order)

    # --- what the page shows -------------------------------------------------------------------

    def _chosen_dealer(self) -> Player | None:
        if not self.is_bound:
            return None
        key = str(self.data.get(self.add_prefix("dealer"), ""))
        return next((p for p in self.seats if str(p.pk) == key), None)

    # --- validation ----------------------------------------------------------------------------

    def _field_errors(self) -> bool:
        return any(name not in HIDDEN_FIELDS for name in self.errors)

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        contract_key = data.get("contract")
        if not contract_key:
            return data
        if contract_key in NO_PLAY:
            # The fields of a contract do not apply: the page hides them, and they are ignored.
            data.update(declarer=None, partner=None, tricks=None, trump="")
        if contract_key == scoring.MISDEAL:
            data.update(last_trick_by=None, turned_suit="")
        elif contract_key == scoring.ALL_PASSED:
            if (
                self.rules.all_passed is scoring.AllPassed.GENERAL_MISERE
                and data.get("last_trick_by") is None
                and "last_trick_by" not in self.errors
            ):
                self.add_error(
                    "last_trick_by", "Who took the last trick? They pay each of the others."
                )
        else:
            contract = scoring.Contract(contract_key)
            data["last_trick_by"] = None
            if data.get("declarer") is None and "declarer" not in self.errors:
                self.add_error("declarer", f"Choose who declared the {contract.display_name}.")
            self._clean_penalty(contract, data)
            # The misère ended on the penalty, or the cards decided it: no tricks needed.
            claimed = bool(data.get("penalty") or data.get("wrong_cards"))
            if data.get("tricks") is None and "tricks" not in self.errors and not claimed:
                self.add_error("tricks", "Enter the tricks the declaring side won (0 to 13).")
            if contract is scoring.Contract.PROP_COP:
                partner = data.get("partner")
                if partner is None and "partner" not in self.errors:
                    self.add_error(
                        "partner", "Prop & Cop needs a partner: choose the player who accepted."
                    )
                elif partner is not None and partner == data.get("declarer"):
                    self.add_error(
                        "partner", "The partner must be a different player from the proposer."
                    )
            elif data.get("partner") is not None:
                # Never dropped silently: the scorer may have meant Prop & Cop.
                self.add_error(
                    "partner",
                    f"Only Prop & Cop has a partner: clear the partner for a "
                    f"{contract.display_name}, or choose Prop & Cop.",
                )
            self._clean_trump(contract, data)
        if not self._field_errors():
            self._read_entry(data)
        return data

    def _clean_penalty(self, contract: scoring.Contract, data: dict[str, Any]) -> None:
        if contract.value not in MISERES:
            data.update(penalty="", penalty_by=None)  # hidden for the other contracts
            return
        if data.get("penalty") and data.get("penalty_by") is None:
            self.add_error("penalty_by", "Who exposed the card, or led or played out of turn?")
        elif data.get("penalty_by") is not None and not data.get("penalty"):
            self.add_error("penalty", "Choose what the defender did, or clear who did it.")

    def revokes(self, data: Mapping[str, Any]) -> tuple[Player, ...]:
        return tuple(p for p in (data.get(name) for name in REVOKE_FIELDS) if p is not None)

    def _clean_trump(self, contract: scoring.Contract, data: dict[str, Any]) -> None:
        kind = trump_kind(contract, self.rules)
        trump = data.get("trump") or ""
        if kind is scoring.TrumpKind.NONE:
            data["trump"] = ""
        elif kind is scoring.TrumpKind.DECLARER:
            if contract is scoring.Contract.ABUNDANCE and trump not in SUITS:
                self.add_error(
                    "trump", "The declarer of an abundance names trumps: choose the suit."
                )
        elif not trump:
            data["trump"] = self.rotation_trump

    def _read_entry(self, data: dict[str, Any]) -> None:
        entry = HandEntry(
            dealer=data["dealer"],
            contract=data["contract"],
            declarer=data.get("declarer"),
            partner=data.get("partner"),
            tricks=data.get("tricks"),
            revokes=self.revokes(data),
            last_trick_by=data.get("last_trick_by"),
            trump=data.get("trump") or "",
            notes=data.get("notes") or "",
            penalty=data.get("penalty") or "",
            penalty_by=data.get("penalty_by"),
            turned_suit=data.get("turned_suit") or "",
            wrong_cards=tuple(data.get("wrong_cards") or ()),
        )
        if not self.scores:
            self.entry = entry
            return
        try:
            self.scored = hand_entry.score_entry(self.table, entry, self.rules)
        except scoring.InvalidHand as error:
            self.add_error(None, str(error))
        else:
            self.entry = entry

    # --- the preview ---------------------------------------------------------------------------

    def describe(self) -> str:
        """ "Solo ♥ by Bob", "Prop & Cop by Bob & Cat", "All passed"."""
        return describe_entry(self.entry, self.rules) if self.entry is not None else ""

    def result_text(self) -> str:
        if self.scored is None or self.entry is None:
            return ""
        return result_words(self.entry, self.scored)

    def preview(self) -> Preview:
        if self.current_contract() == NO_CONTRACT:
            return Preview("empty")
        if not self.is_bound:
            # A hand being corrected: the preview of the hand as it stands.
            data = {bf.html_name: bf.value() for bf in self if bf.value() is not None}
            return type(self)(data, **self._arguments).preview()
        if self.is_valid() or (self.scored is not None and not self._field_errors()):
            scored = self.scored
            assert scored is not None
            amounts = [
                (p, None if p == scored.sitting_out else scored.amount(p)) for p in self.seats
            ]
            # All passed, cards wrongly dealt: the result says it all ("All passed: redeal").
            title = "" if self.entry and self.entry.contract in NO_PLAY else self.describe()
            return Preview("ok", title, self.result_text(), amounts)
        errors = [str(message) for message in self.non_field_errors()]
        for name, messages in self.errors.items():
            if name in HIDDEN_FIELDS or name == NON_FIELD_ERRORS:
                continue
            errors.extend(f"{self.fields[name].label}: {message}" for message in messages)
        return Preview("invalid", errors=errors)


class NewHandForm(HandForm):
    """A hand to append. `expected_number` is the number the form showed: if someone else saved
    that hand meanwhile, the service refuses rather than record the hand twice."""

    expected_number = forms.IntegerField(
        widget=forms.HiddenInput,
        min_value=1,
        error_messages={
            "required": "This form is out of date (it does not say which hand it is): "
            "reload the page and enter the hand again.",
        },
    )
    # One per entry, made here for each fresh form (the page's script makes a new one for each
    # hand it keeps offline): a save sent twice finds the hand the first one recorded.
    client_id = forms.UUIDField(
        widget=forms.HiddenInput,
        required=False,
        error_messages={"invalid": "This form is out of date: reload the page."},
    )


class EditHandForm(HandForm):
    version = forms.IntegerField(
        widget=forms.HiddenInput,
        min_value=1,
        error_messages={"required": "This form is out of date: open the hand again."},
    )


class DeleteHandForm(forms.Form):
    version = forms.IntegerField(
        widget=forms.HiddenInput,
        min_value=1,
        error_messages={"required": "This form is out of date: open the hand again."},
    )
