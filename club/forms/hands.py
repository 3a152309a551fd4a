"""The hand entry form.

Each field is checked on its own first (a player taking part in this hand, tricks 0 to 13, a partner
for Prop & Cop...), then the hand service scores the entry against the table and the rule set, so
that the rules decide what can happen: `scoring.InvalidHand` becomes a form error. Nothing here
computes a score.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS
from django.forms.boundfield import BoundField
from django.http import QueryDict

import scoring
from club.models import Hand, Player, Table
from club.names import short_names
from club.queries.rulings import rulings_text
from club.services import hands as hand_service
from club.services.hands import HandEntry, ScoredHand, revoke_players
from scoring.contracts import SUITS

TRICKS_MESSAGE = "Tricks must be between 0 and 13"
NO_CONTRACT = "none"  # what the page calls "no contract chosen yet" when it shows and hides fields
HIDDEN_FIELDS = ("expected_number", "version", "client_id")


def _target(key: str) -> int | None:
    try:
        return scoring.Contract(key).target
    except ValueError:
        return None


def trump_label(trump: scoring.Trump) -> str:
    if trump is scoring.Trump.NO_TRUMPS:
        return trump.display_name
    return f"{trump.symbol} {trump.display_name}"


def trump_choice(trump: scoring.Trump) -> str:
    """The word first, so that typing "h" in the select picks Hearts (type-ahead reads the label's
    first letters; a suit symbol there made it unusable from the keyboard)."""
    if trump is scoring.Trump.NO_TRUMPS:
        return trump.display_name
    return f"{trump.display_name} {trump.symbol}"


TRUMP_CHOICES = [("", "—"), *((t.value, trump_choice(t)) for t in scoring.Trump)]
ALL_PASSED_LABELS = {
    scoring.AllPassed.REDEAL: "All passed: redeal",
    scoring.AllPassed.GOULASH: "All passed: goulash",
    scoring.AllPassed.GENERAL_MISERE: "All passed: general misère",
}
MISDEAL_LABEL = "Cards wrongly dealt: redeal"
NO_PLAY = (scoring.ALL_PASSED, scoring.MISDEAL)  # no contract played: nobody declares
MISERES = (scoring.Contract.MISERE.value, scoring.Contract.OPEN_MISERE.value)
# The revokes of a hand, in the order found: the first (or only) one, then any more.
REVOKE_FIELDS = ("revoke_by", "second_revoke_by", "third_revoke_by")
PENALTY_CHOICES = [
    ("", "— none —"),
    *((p.value, f"A defender {p.display_name}") for p in scoring.Penalty),
]
SUIT_CHOICES = [("", "—"), *((t.value, trump_choice(t)) for t in SUITS)]


class PlayerField(forms.ChoiceField):
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
class FieldSlot:
    """A visible field, with the contracts it applies to (the page hides it for the others)."""

    field: BoundField
    show_for: str = ""  # space-separated contract keys; blank: always shown
    hidden: bool = False


@dataclass(frozen=True)
class Chip:
    """One choice of a group, drawn as a large button (a radio input in a label)."""

    value: str
    label: str
    checked: bool = False
    show_for: str = ""  # contract keys it is offered for, when not all of its group's
    hidden: bool = False
    kind: str = ""  # a class: "made", "failed"
    title: str = ""  # the full name, when the label is shortened
    target: int | None = None  # a contract's tricks to make (the page offers tricks near it)


@dataclass(frozen=True)
class ChipGroup:
    field: BoundField
    chips: list[Chip]
    show_for: str = ""
    hidden: bool = False

    @property
    def disabled(self) -> bool:
        return self.hidden


# Which tricks chips each kind of contract gets: a number for the contracts with over- and
# under-tricks, "made or failed" for those won or lost outright (a misère made takes none).
TRICK_CONTRACTS = tuple(c.value for c in scoring.Contract if c.info.counts_extra_tricks)
MADE_FAILED = {
    scoring.Contract.MISERE.value: ("0", "1"),
    scoring.Contract.OPEN_MISERE.value: ("0", "1"),
    scoring.Contract.ABUNDANCE_DECLARED.value: ("13", "12"),
}
CHIP_FIELDS = ("contract", "trump", "declarer", "partner", "tricks", "last_trick_by")
MORE_FIELDS = (
    "revoke_by",
    "second_revoke_by",
    "third_revoke_by",
    "penalty",
    "penalty_by",
    "turned_suit",
    "dealer",
    "notes",
)


@dataclass(frozen=True)
class Preview:
    state: str  # "empty" (no contract yet), "ok" or "invalid"
    title: str = ""
    summary: str = ""
    amounts: list[tuple[Player, int | None]] = field(default_factory=list)  # None: sits out
    errors: list[str] = field(default_factory=list)


class HandForm(forms.Form):
    fields: dict[str, Any]  # by name, each its own kind of field (choices, queryset)

    contract = forms.ChoiceField(
        label="Contract", error_messages={"required": "Choose the contract (or All passed)."}
    )
    trump = forms.ChoiceField(
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
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("label_suffix", "")
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
        self.seats = hand_service.seated_players(table)
        self.hand_dealer = self._chosen_dealer() or dealer
        keys = [str(p.pk) for p in self.seats]
        out = scoring.table.sitting_out(keys, str(self.hand_dealer.pk), rules)
        self.sitting_out = next((p for p in self.seats if str(p.pk) == out), None)
        self.players = [p for p in self.seats if p != self.sitting_out]
        self.contracts = scoring.table.legal_contracts(len(self.players))
        self.scored: ScoredHand | None = None
        self.entry: HandEntry | None = None

        self.fields["contract"].choices = [
            ("", "— choose —"),
            *((c.value, c.display_name) for c in self.contracts),
            (scoring.ALL_PASSED, ALL_PASSED_LABELS[rules.all_passed]),
            (scoring.MISDEAL, MISDEAL_LABEL),
        ]
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
        self.fields["penalty"] = forms.ChoiceField(
            label="Penalty against the misère",
            choices=PENALTY_CHOICES,
            required=False,
            help_text="The caller claims the stakes; the offender pays for his side.",
        )
        self.fields["penalty_by"] = PlayerField(
            self.players, label="Penalty incurred by", empty_label="— nobody —", required=False
        )
        if rules.record_turned_suit:
            self.fields["turned_suit"] = forms.ChoiceField(
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
        self._trump_tab_order()
        self.order_fields(self.field_order)

    # --- what the page shows -------------------------------------------------------------------

    def plan(self, count: int = 24) -> dict[str, Any]:
        """The next hands' dealer, who sits out and any rotating trump, from this form's hand on:
        when the phone is offline the page moves to the next hand with these (it cannot ask)."""
        keys = [str(p.pk) for p in self.seats]
        first = keys.index(str(self.hand_dealer.pk))
        hands = []
        for step in range(count):
            number = self.number + step
            dealer = keys[(first + step) % len(keys)]
            trump = scoring.table.trump_for(self.rules, number)
            hands.append(
                {
                    "number": number,
                    "dealer": dealer,
                    "out": scoring.table.sitting_out(keys, dealer, self.rules),
                    "trump": trump.value if trump else "",
                    "trumpLabel": trump_label(trump) if trump else "",
                }
            )
        return {"players": {str(p.pk): p.name for p in self.seats}, "hands": hands}

    @property
    def rotation_trump_label(self) -> str:
        return trump_label(scoring.Trump(self.rotation_trump)) if self.rotation_trump else ""

    def _chosen_dealer(self) -> Player | None:
        if not self.is_bound:
            return None
        key = str(self.data.get(self.add_prefix("dealer"), ""))
        return next((p for p in self.seats if str(p.pk) == key), None)

    def _trump_kind(self, contract: scoring.Contract) -> scoring.TrumpKind:
        if (
            contract is scoring.Contract.ABUNDANCE_DECLARED
            and self.rules.abundance_declared_names_trumps
        ):
            return scoring.TrumpKind.DECLARER
        return contract.info.trumps

    def _show_for(self) -> dict[str, list[str]]:
        playing = [c.value for c in self.contracts]
        # Trumps are asked for only where the declarer names them (an abundance): the turned or
        # rotating suit is the table's, shown above the form (and the turned one under "More").
        named = [
            c.value for c in self.contracts if self._trump_kind(c) is scoring.TrumpKind.DECLARER
        ]
        return {
            "trump": named,
            "declarer": [NO_CONTRACT, *playing],
            "partner": [scoring.Contract.PROP_COP.value],
            "tricks": [NO_CONTRACT, *playing],
            "revoke_by": [NO_CONTRACT, *playing],
            "second_revoke_by": playing,
            "third_revoke_by": playing,
            "penalty": [m for m in MISERES if m in playing],
            "penalty_by": [m for m in MISERES if m in playing],
            "turned_suit": [NO_CONTRACT, *playing, scoring.ALL_PASSED],
            "last_trick_by": [scoring.ALL_PASSED],
        }

    def _trump_tab_order(self) -> None:
        """Trumps are in the tab order only for the contracts whose declarer names them (an
        abundance): for the others the suit is the turned one or none, so Tab goes from the
        contract straight to the declarer. static/js/sheet.js keeps this up as the contract
        changes, from `data-named-for`."""
        named = [
            c.value for c in self.contracts if self._trump_kind(c) is scoring.TrumpKind.DECLARER
        ]
        attrs = self.fields["trump"].widget.attrs
        attrs["data-named-for"] = " ".join(named)
        if self.current_contract() not in named:
            attrs["tabindex"] = "-1"

    def current_contract(self) -> str:
        if self.is_bound:
            value = self.data.get(self.add_prefix("contract"), "")
        else:
            value = self.initial.get("contract", self.fields["contract"].initial) or ""
        return str(value) or NO_CONTRACT

    def layout(self) -> list[FieldSlot]:
        """The visible fields in tab order, each with the contracts it applies to."""
        show_for = self._show_for()
        current = self.current_contract()
        slots = []
        for bound in self.visible_fields():
            keys = show_for.get(bound.name)
            if keys is None:
                slots.append(FieldSlot(bound))
            else:
                # A field with an error stays in view (a partner left over from Prop & Cop).
                hidden = current not in keys and not bound.errors
                # A hidden field is not posted (static/js/table.js enables it when shown).
                bound.field.widget.attrs["disabled"] = hidden
                slots.append(FieldSlot(bound, " ".join(keys), hidden))
        return slots

    def chip_groups(self) -> list[ChipGroup]:
        """The form's main choices as large buttons, in tab order: contract, trumps named,
        declarer, partner, tricks (or made or failed), and who took a general misère's last
        trick. Each group is offered for the contracts it applies to (`show_for`); a hidden one
        is not posted (static/js/table.js enables it when shown)."""
        show_for = self._show_for()
        current = self.current_contract()
        groups = []
        for name in CHIP_FIELDS:
            if name not in self.fields:
                continue
            bound = self[name]
            keys = show_for.get(name)
            hidden = keys is not None and current not in keys and not bound.errors
            chips = self._chips(name, str(bound.value() or ""), current)
            groups.append(ChipGroup(bound, chips, " ".join(keys or ()), hidden))
        return groups

    def _chips(self, name: str, value: str, current: str) -> list[Chip]:
        if name == "tricks":
            return self._trick_chips(value, current)
        choices = [(str(k), str(label)) for k, label in self.fields[name].choices if k != ""]
        if name == "contract":
            choices = [(k, label.split(":")[0]) for k, label in choices if k != scoring.MISDEAL]
            return [
                Chip(k, label, k == value, target=_target(k), title=label) for k, label in choices
            ]
        if name in ("declarer", "partner", "last_trick_by"):
            # Every seat, the one sitting out hidden: offline, the page moves on to the next
            # hand, where another player sits out, with no server to draw the buttons again.
            shorts = short_names([p.name for p in self.seats])
            return [
                Chip(
                    str(p.pk),
                    short,
                    str(p.pk) == value,
                    title=p.name,
                    hidden=p == self.sitting_out,
                )
                for p, short in zip(self.seats, shorts, strict=True)
            ]
        return [Chip(k, label, k == value) for k, label in choices]

    def _trick_chips(self, value: str, current: str) -> list[Chip]:
        made_failed = MADE_FAILED.get(current)
        chips = [
            Chip(
                str(n),
                str(n),
                value == str(n) and made_failed is None,
                show_for=" ".join((NO_CONTRACT, *TRICK_CONTRACTS)),
                hidden=made_failed is not None,
            )
            for n in range(scoring.TRICKS_IN_HAND + 1)
        ]
        for contract, (made, failed) in MADE_FAILED.items():
            for kind, tricks in (("made", made), ("failed", failed)):
                chips.append(
                    Chip(
                        tricks,
                        "Made" if kind == "made" else "Failed",
                        current == contract and value == tricks,
                        show_for=contract,
                        hidden=current != contract,
                        kind=kind,
                    )
                )
        return chips

    def misdeal_chip(self) -> Chip:
        """Cards wrongly dealt: a contract of its own, offered under More."""
        return Chip(scoring.MISDEAL, MISDEAL_LABEL, self.current_contract() == scoring.MISDEAL)

    def more_fields(self) -> list[FieldSlot]:
        """The rarely needed fields, behind "More": revokes, a penalty against a misère, the
        suit turned up, the dealer, notes."""
        return [slot for slot in self.layout() if slot.field.name in MORE_FIELDS]

    @property
    def more_open(self) -> bool:
        """Open "More" when something in it was filled in or has an error."""
        for name in MORE_FIELDS:
            if name in ("dealer",) or name not in self.fields:
                continue
            bound = self[name]
            if bound.errors or (bound.value() not in (None, "")):
                return True
        return self.current_contract() == scoring.MISDEAL

    def problems(self) -> list[str]:
        """Why a posted form was not saved, every reason named ("Contract: choose ...")."""
        found = [str(message) for message in self.non_field_errors()]
        for name, messages in self.errors.items():
            if name == NON_FIELD_ERRORS:
                continue
            label = self.fields[name].label if name in self.fields else name
            found.extend(str(m) if name in HIDDEN_FIELDS else f"{label}: {m}" for m in messages)
        return found

    def focus(self, name: str) -> None:
        """Put the cursor on this field when the form appears."""
        self.fields[name].widget.attrs["autofocus"] = True

    def focus_first_error(self) -> None:
        """Put the cursor on the first field with an error (or the first field)."""
        wrong = [slot.field.name for slot in self.layout() if slot.field.errors]
        self.focus(wrong[0] if wrong else "contract")

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
            claimed = bool(data.get("penalty"))  # the misère ended on the penalty: no tricks
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
            self._score(data)
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
        kind = self._trump_kind(contract)
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

    def _score(self, data: dict[str, Any]) -> None:
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
        )
        try:
            self.scored = hand_service.score_entry(self.table, entry, self.rules)
        except scoring.InvalidHand as error:
            self.add_error(None, str(error))
        else:
            self.entry = entry

    # --- the preview ---------------------------------------------------------------------------

    def describe(self) -> str:
        """ "Solo ♥ by Bob", "Prop & Cop by Bob & Cat", "All passed"."""
        if self.entry is None:
            return ""
        if self.entry.contract == scoring.ALL_PASSED:
            return ALL_PASSED_LABELS[self.rules.all_passed].split(":")[0]
        if self.entry.contract == scoring.MISDEAL:
            return "Cards wrongly dealt"
        text = scoring.Contract(self.entry.contract).display_name
        if self.entry.trump:
            text += f" {scoring.Trump(self.entry.trump).symbol}"
        names = [p.name for p in (self.entry.declarer, self.entry.partner) if p is not None]
        return f"{text} by {' & '.join(names)}"

    def result_text(self) -> str:
        if self.scored is None or self.entry is None:
            return ""
        text = self.scored.result.summary
        if self.entry.last_trick_by is not None:
            text += f": {self.entry.last_trick_by.name} took the last trick"
        words = rulings_text(
            [p.name for p in self.entry.all_revokes],
            self.entry.penalty,
            self.entry.penalty_by.name if self.entry.penalty_by else None,
        )
        return f"{text}; {words}" if words else text

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


def new_hand_form(table: Table, data: Mapping[str, Any] | None = None) -> NewHandForm:
    """The form for the next hand at the table: its number, dealer and rotating trump."""
    defaults = hand_service.next_hand(table)
    return NewHandForm(
        data,
        table=table,
        rules=table.night.season.rule_set.rules,
        dealer=defaults["dealer"],
        number=defaults["number"],
        rotation_trump=defaults["trump"],
        initial={"expected_number": defaults["number"], "client_id": uuid.uuid4()},
    )


def _hand_form_at(
    table: Table,
    number: int,
    dealer: Player,
    data: Mapping[str, Any] | None = None,
) -> NewHandForm:
    rules = table.night.season.rule_set.rules
    rotation = scoring.table.trump_for(rules, number)
    initial = {} if data is not None else {"expected_number": number, "client_id": uuid.uuid4()}
    return NewHandForm(
        data,
        table=table,
        rules=rules,
        dealer=dealer,
        number=number,
        rotation_trump=rotation.value if rotation else "",
        initial=initial,
    )


def posted_hand_form(table: Table, data: Mapping[str, Any]) -> NewHandForm:
    """A new hand as posted: its number and dealer as the form showed them (the hand service
    checks the number against the table under its lock), so that reading the form needs no
    query. A form that does not say which hand it is gets the table's next one, and its error."""
    try:
        number = int(data.get("expected_number", ""))
    except (TypeError, ValueError):
        return new_hand_form(table, data)
    seats = hand_service.seated_players(table)
    if number < 1 or not seats:
        return new_hand_form(table, data)
    return _hand_form_at(table, number, seats[0], data)


def following_hand_form(table: Table, hand: Hand) -> NewHandForm:
    """The fresh form for the hand after `hand`, just saved: the deal passes on (or stays, after
    a deal that did not count, where the rules say), with no query."""
    seats = hand_service.seated_players(table)
    keys = [str(p.pk) for p in seats]
    after = scoring.table.next_dealer_after(
        keys, str(hand.dealer_id), hand.outcome, hand.rule_set.rules
    )
    return _hand_form_at(table, hand.number + 1, seats[keys.index(after)])


def moved_on_form(table: Table, data: Mapping[str, Any]) -> NewHandForm:
    """What the scorer typed, as the table's next hand now: its number and dealer (the form's
    were for the hand someone else saved meanwhile, or for one after a missing hand)."""
    defaults = hand_service.next_hand(table)
    moved = QueryDict(mutable=True)
    moved.update(data)
    moved["expected_number"] = str(defaults["number"])
    moved["dealer"] = str(defaults["dealer"].pk)
    return new_hand_form(table, moved)


def edit_hand_form(hand: Hand, data: Mapping[str, Any] | None = None) -> EditHandForm:
    """The form to correct a hand, scored under the rules it was recorded with."""
    rules = hand.rule_set.rules
    rotation = scoring.table.trump_for(rules, hand.number)

    def pk(player: Player | None) -> int | None:
        return None if player is None else player.pk

    initial = {
        "contract": hand.contract,
        "trump": hand.trump,
        "declarer": pk(hand.declarer),
        "partner": pk(hand.partner),
        "tricks": hand.tricks,
        **{name: pk(p) for name, p in zip(REVOKE_FIELDS, revoke_players(hand), strict=False)},
        "penalty": hand.penalty,
        "penalty_by": pk(hand.penalty_by),
        "turned_suit": hand.turned_suit,
        "last_trick_by": pk(hand.last_trick_by),
        "dealer": pk(hand.dealer),
        "notes": hand.notes,
        "version": hand.version,
    }
    return EditHandForm(
        data,
        table=hand.table,
        rules=rules,
        dealer=hand.dealer,
        number=hand.number,
        rotation_trump=rotation.value if rotation else "",
        initial=initial,
    )
