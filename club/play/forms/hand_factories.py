"""The hand forms a page needs: the next hand's, one as posted to save, one for the hand after a
save, one moved on to the table's next hand after a conflict, and a correction's."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from django.http import QueryDict

import scoring
from club.clubs.models import Player
from club.play.forms.hands import REVOKE_FIELDS, EditHandForm, NewHandForm
from club.play.models import Hand, Table
from club.play.services import hand_entry
from club.play.services.hand_entry import revoke_players


def new_hand_form(table: Table, data: Mapping[str, Any] | None = None) -> NewHandForm:
    """The form for the next hand at the table: its number, dealer and rotating trump."""
    defaults = hand_entry.next_hand(table)
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
    scores: bool = True,
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
        scores=scores,
    )


def posted_hand_form(table: Table, data: Mapping[str, Any]) -> NewHandForm:
    """A new hand as posted, to save: its fields checked, not scored (the hand service scores it
    once, under the night's lock, and checks the number against the table), so that reading the
    form needs no query. A form that does not say which hand it is gets the table's next one,
    and its error."""
    try:
        number = int(data.get("expected_number", ""))
    except (TypeError, ValueError):
        return new_hand_form(table, data)
    seats = hand_entry.seated_players(table)
    if number < 1 or not seats:
        return new_hand_form(table, data)
    return _hand_form_at(table, number, seats[0], data, scores=False)


def following_hand_form(table: Table, hand: Hand) -> NewHandForm:
    """The fresh form for the hand after `hand`, just saved: the deal passes on (or stays, after
    a deal that did not count, where the rules say), with no query."""
    seats = hand_entry.seated_players(table)
    keys = [str(p.pk) for p in seats]
    coming = scoring.table.next_deal(
        keys, str(hand.dealer_id), hand.outcome, hand.rule_set.rules, hand.number
    )
    return _hand_form_at(table, coming.number, seats[keys.index(coming.dealer)])


def moved_on_form(table: Table, data: Mapping[str, Any]) -> NewHandForm:
    """What the scorer typed, as the table's next hand now: its number and dealer (the form's
    were for the hand someone else saved meanwhile, or for one after a missing hand), and a new
    client id: saved as that hand it is a new entry (its old id may name a hand saved already)."""
    defaults = hand_entry.next_hand(table)
    moved = QueryDict(mutable=True)
    moved.update(data)
    moved["expected_number"] = str(defaults["number"])
    moved["dealer"] = str(defaults["dealer"].pk)
    moved["client_id"] = str(uuid.uuid4())
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
        "wrong_cards": [str(pk) for pk in hand.wrong_cards or ()],
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
