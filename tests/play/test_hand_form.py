"""The hand entry form on its own: which players and contracts it offers, how it reads each field,
and that the rules (through the hand service) have the last word."""

from __future__ import annotations

import datetime as dt

import pytest

import scoring
from club.play.forms.hand_factories import edit_hand_form, new_hand_form
from club.play.forms.hands import EditHandForm, NewHandForm
from club.play.queries.table_sheet import prefetch_seats
from club.play.services.hand_entry import HandEntry
from club.play.services.hands import record_hand
from club.play.services.night_setup import create_night


def data(dealer, contract, **values):
    out = {"dealer": dealer.pk, "contract": contract, "expected_number": 1}
    out.update({k: getattr(v, "pk", v) for k, v in values.items()})
    return out


def choices(form, name):
    return [value for value, _ in form.fields[name].choices if value]


def test_the_new_hand_form_knows_the_next_hand(table5, players, scorer):
    eve, fay, gus, hal, ivy = players[4:9]
    form = new_hand_form(prefetch_seats(table5))
    assert isinstance(form, NewHandForm)
    assert (form.number, form.hand_dealer, form.sitting_out) == (1, eve, ivy)
    assert form["expected_number"].value() == 1 and form["dealer"].value() == eve.pk
    assert choices(form, "declarer") == [str(p.pk) for p in (eve, fay, gus, hal)]
    assert "prop_cop" in choices(form, "contract")  # four play at a table of five
    record_hand(table5, HandEntry(dealer=eve, contract="all_passed"), scorer)
    form = new_hand_form(table5)
    assert (form.number, form.hand_dealer, form.sitting_out) == (2, fay, eve)


def test_a_bound_form_offers_the_players_of_the_dealer_it_names(table5, players):
    eve, fay, gus, hal, ivy = players[4:9]
    form = new_hand_form(table5, data(hal, "solo"))
    assert form.sitting_out == gus
    assert str(gus.pk) not in choices(form, "revoke_by")


def test_a_table_of_three_offers_no_prop_and_cop_and_no_partner(season, players):
    table = create_night(season, dt.date(2026, 12, 1), [(players[:3], 0)]).tables.get()
    form = new_hand_form(table)
    assert "prop_cop" not in choices(form, "contract") and "partner" not in form.fields
    form = new_hand_form(table, data(players[0], "prop_cop", declarer=players[1], tricks=8))
    assert not form.is_valid() and "Prop & Cop is not played" in form.errors["contract"][0]


def test_a_partner_is_required_for_prop_and_cop_and_refused_otherwise(table4, players):
    ann, bob, cat, dan = players[:4]
    form = new_hand_form(table4, data(ann, "prop_cop", declarer=bob, tricks=8))
    assert not form.is_valid() and form.errors["partner"] == [
        "Prop & Cop needs a partner: choose the player who accepted."
    ]
    # A partner sent with a solo was silently dropped; the scorer may have meant
    # Prop & Cop, so it is refused, and the partner field stays in view to be cleared.
    form = new_hand_form(table4, data(ann, "solo", declarer=bob, partner=cat, tricks=5))
    assert not form.is_valid() and form.entry is None
    assert form.errors["partner"] == [
        "Only Prop & Cop has a partner: clear the partner for a Solo, or choose Prop & Cop."
    ]
    partner = next(slot for slot in form.layout() if slot.field.name == "partner")
    assert not partner.hidden and "disabled" not in str(partner.field)
    form = new_hand_form(table4, data(ann, "solo", declarer=bob, tricks=5))
    assert form.is_valid(), form.errors
    assert form.entry.partner is None and form.scored.amount(bob) == 18
    # The hidden partner select of a solo is disabled, so a browser does not post it.
    partner = next(slot for slot in form.layout() if slot.field.name == "partner")
    assert partner.hidden and "disabled" in str(partner.field)


def test_expected_number_is_required(table4, players):
    ann, bob = players[:2]
    posted = data(ann, "solo", declarer=bob, tricks=5)
    del posted["expected_number"]
    form = new_hand_form(table4, posted)
    assert not form.is_valid()
    assert "reload the page" in form.errors["expected_number"][0]


@pytest.mark.parametrize(("tricks", "ok"), [(0, True), (13, True), (14, False), (-1, False)])
def test_tricks_are_0_to_13(table4, players, tricks, ok):
    form = new_hand_form(table4, data(players[0], "solo", declarer=players[1], tricks=tricks))
    assert form.is_valid() is ok
    if not ok:
        assert form.errors["tricks"] == ["Tricks must be between 0 and 13"]


def test_trumps_follow_the_contract(table4, players):
    ann, bob = players[:2]
    form = new_hand_form(table4, data(ann, "abundance", declarer=bob, tricks=9, trump="no_trumps"))
    assert not form.is_valid() and "choose the suit" in form.errors["trump"][0]
    form = new_hand_form(table4, data(ann, "abundance", declarer=bob, tricks=9, trump="clubs"))
    assert form.is_valid() and form.entry.trump == "clubs"
    form = new_hand_form(table4, data(ann, "misere", declarer=bob, tricks=0, trump="clubs"))
    assert form.is_valid() and form.entry.trump == ""  # a misère has no trumps


def test_the_rotating_trump_fills_a_blank_trump(table4, players):
    rules = scoring.preset("anna-cubed")
    form = NewHandForm(
        data(players[0], "solo", declarer=players[1], tricks=5),
        table=table4,
        rules=rules,
        dealer=players[0],
        number=3,
        rotation_trump=scoring.table.trump_for(rules, 3).value,
    )
    assert form.fields["trump"].initial == "diamonds"
    assert form.is_valid() and form.entry.trump == "diamonds"


def test_the_scoring_cores_message_becomes_a_form_error(table4, players):
    form = new_hand_form(table4, data(players[0], "all_passed", revoke_by=players[1]))
    assert not form.is_valid()
    assert form.non_field_errors() == ["A revoke can only be scored against a contract"]
    preview = form.preview()
    assert preview.state == "invalid" and preview.errors == form.non_field_errors()


def test_the_preview_gives_every_players_amount(table5, players):
    eve, fay, gus, hal, ivy = players[4:9]
    form = new_hand_form(table5, data(eve, "solo", declarer=gus, tricks=4))
    preview = form.preview()
    assert preview.state == "ok" and preview.summary == "Failed, 1 under"
    assert preview.title == "Solo by Gus"
    assert preview.amounts == [(eve, 7), (fay, 7), (gus, -21), (hal, 7), (ivy, None)]
    assert new_hand_form(table5, {"dealer": eve.pk}).preview().state == "empty"


def test_the_edit_form_starts_from_the_hand(table4, players, scorer):
    ann, bob, cat, dan = players[:4]
    hand = record_hand(
        table4,
        HandEntry(dealer=ann, contract="prop_cop", declarer=bob, partner=dan, tricks=9),
        scorer,
    )
    form = edit_hand_form(hand)
    assert isinstance(form, EditHandForm)
    assert form["partner"].value() == dan.pk and form["version"].value() == 1
    assert form["tricks"].value() == 9 and form.number == 1
    assert form.preview().amounts == [(ann, -7), (bob, 7), (cat, -7), (dan, 7)]
    bound = edit_hand_form(hand, {**data(ann, "prop_cop", declarer=bob, partner=dan, tricks=8)})
    assert not bound.is_valid() and "version" in bound.errors  # the form must say which version
    assert bound.preview().state == "ok"  # ... but the preview does not need it
