"""How the hand form is laid out on the page: its main choices as large buttons (chips), the rare
fields behind "More", which contracts each applies to (the page shows and hides them), the tab
order, the focus, and the table's rotation for the page to move on to the next deal. Read by
templates/play/table.html and club/play/templatetags/chips.py; the form's fields and their checks
are
in club.play.forms.hands."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.core.exceptions import NON_FIELD_ERRORS
from django.forms.boundfield import BoundField

import scoring
from club.lib.names import short_names

if TYPE_CHECKING:
    from django import forms

    from club.clubs.models import Player

    # The layout is a mixin of a Django form (club.play.forms.hands.HandForm): checked as one, so
    # that its reads of the form's fields, data and errors are checked too.
    _FormBase = forms.Form
else:
    _FormBase = object

NO_CONTRACT = "none"  # what the page calls "no contract chosen yet" when it shows and hides fields
HIDDEN_FIELDS = ("expected_number", "version", "client_id")
MISDEAL_LABEL = "Cards wrongly dealt: redeal"
MISERES = (scoring.Contract.MISERE.value, scoring.Contract.OPEN_MISERE.value)


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


def trump_kind(contract: scoring.Contract, rules: scoring.RuleSet) -> scoring.TrumpKind:
    """Who names the trumps of this contract under these rules."""
    if contract is scoring.Contract.ABUNDANCE_DECLARED and rules.abundance_declared_names_trumps:
        return scoring.TrumpKind.DECLARER
    return contract.info.trumps


@dataclass(frozen=True)
class Problem:
    """One reason a posted hand was not saved, and the input it names ("" for none)."""

    field: str
    text: str


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
    "wrong_cards",
    "turned_suit",
    "dealer",
    "notes",
)


class HandLayout(_FormBase):
    """The layout half of the hand form (club.play.forms.hands.HandForm), which sets `seats`,
    `sitting_out`, `contracts`, `rules`, `number`, `hand_dealer` and `rotation_trump`."""

    seats: list[Player]
    sitting_out: Player | None
    contracts: tuple[scoring.Contract, ...]
    rules: scoring.RuleSet
    number: int
    hand_dealer: Player
    rotation_trump: str
    fields: dict[str, Any]  # by name, each its own kind of field (choices, queryset)

    def plan(self) -> dict[str, Any]:
        """The table's rotation as scoring.table gives it, for the page to move on to the next
        deal with no connection (it cannot ask): for each dealer, who sits out and who deals next
        (after a played hand, and after cards wrongly dealt), and the trump rotation."""
        keys = [str(p.pk) for p in self.seats]
        trumps = self.rules.trump_rotation
        return {
            "players": {str(p.pk): p.name for p in self.seats},
            "deals": scoring.table.rotation(keys, self.rules),
            "trumps": [{"value": t.value, "label": trump_label(t)} for t in trumps],
        }

    @property
    def rotation_trump_label(self) -> str:
        return trump_label(scoring.Trump(self.rotation_trump)) if self.rotation_trump else ""

    def named_by_declarer(self, contract: scoring.Contract) -> bool:
        return trump_kind(contract, self.rules) is scoring.TrumpKind.DECLARER

    def _show_for(self) -> dict[str, list[str]]:
        playing = [c.value for c in self.contracts]
        # Trumps are asked for only where the declarer names them (an abundance): the turned or
        # rotating suit is the table's, shown above the form (and the turned one under "More").
        named = [c.value for c in self.contracts if self.named_by_declarer(c)]
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
            "wrong_cards": playing,
            "turned_suit": [NO_CONTRACT, *playing, scoring.ALL_PASSED],
            "last_trick_by": [scoring.ALL_PASSED],
        }

    def set_trump_tab_order(self) -> None:
        """Trumps are in the tab order only for the contracts whose declarer names them (an
        abundance): for the others the suit is the turned one or none, so Tab goes from the
        contract straight to the declarer. static/js/sheet.js keeps this up as the contract
        changes, from `data-named-for`."""
        named = [c.value for c in self.contracts if self.named_by_declarer(c)]
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
        return [problem.text for problem in self.problem_items()]

    def problem_items(self) -> list[Problem]:
        """The reasons of `problems`, each with the field it names (its input's name), so that
        the page can drop a reason as soon as its field is changed; a reason about the whole
        hand or the form itself names none."""
        found = [Problem("", str(message)) for message in self.non_field_errors()]
        for name, messages in self.errors.items():
            if name == NON_FIELD_ERRORS:
                continue
            if name in HIDDEN_FIELDS:
                found.extend(Problem("", str(m)) for m in messages)
                continue
            if name not in self.fields:
                found.extend(Problem("", f"{name}: {m}") for m in messages)
                continue
            bound = self[name]
            found.extend(Problem(bound.html_name, f"{bound.label}: {m}") for m in messages)
        return found

    def focus(self, name: str) -> None:
        """Put the cursor on this field when the form appears."""
        self.fields[name].widget.attrs["autofocus"] = True

    def focus_first_error(self) -> None:
        """Put the cursor on the first field with an error (or the first field)."""
        wrong = [slot.field.name for slot in self.layout() if slot.field.errors]
        self.focus(wrong[0] if wrong else "contract")
