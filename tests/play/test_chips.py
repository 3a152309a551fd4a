"""The hand form's chips, drawn in Python for speed (club/play/templatetags/chips.py), make the
markup
the template made before them: the same fieldsets, radios, checked, disabled and hidden states,
titles and autofocus, for a new hand, a table of five, a posted form with errors and a misère.
Whitespace between tags aside (the chips are flex items: it never showed)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.template import Context, Template

from club.play.forms.hand_factories import new_hand_form, posted_hand_form
from club.play.templatetags.chips import chip_groups

pytestmark = pytest.mark.django_db

# The loop the page's template ran before (tests/play/chips_before.html), kept as the oracle.
TEMPLATE_LOOP = Template((Path(__file__).parent / "chips_before.html").read_text())


def _squeezed(html: str) -> str:
    return re.sub(r">\s+<", "><", html.strip())


def _same_as_the_template(form, show_errors: bool = True) -> str:
    drawn = _squeezed(chip_groups(form.chip_groups(), show_errors))
    context = Context({"form": form, "show_errors": show_errors})
    assert drawn == _squeezed(TEMPLATE_LOOP.render(context))
    return drawn


def test_a_new_hand_at_a_table_of_four(table4):
    form = new_hand_form(table4)
    form.focus("contract")
    drawn = _same_as_the_template(form)
    assert drawn.count('type="radio" name="contract"') == 8 and drawn.count(" autofocus") == 1


def test_a_table_of_five_hides_the_player_sitting_out(table5):
    form = new_hand_form(table5)
    drawn = _same_as_the_template(form)
    out = form.sitting_out
    # The one sitting out is drawn in each player group, hidden and not posted.
    assert out is not None
    for group in ("declarer", "partner"):
        radio = f'<input type="radio" name="{group}" value="{out.pk}" disabled'
        assert f'<label class="chip" hidden>{radio}' in drawn


def test_a_posted_form_with_errors_keeps_its_choices_and_shows_its_errors(table4):
    seats = [s.player for s in table4.seats.order_by("position")]
    form = posted_hand_form(
        table4,
        {"contract": "solo", "declarer": seats[1].pk, "tricks": "14", "expected_number": 1},
    )
    assert not form.is_valid()
    drawn = _same_as_the_template(form)
    assert 'value="solo" checked' in drawn and "has-error" in drawn
    assert _same_as_the_template(form, show_errors=False).count("has-error") == 0


def test_a_misere_offers_made_or_failed(table4):
    seats = [s.player for s in table4.seats.order_by("position")]
    form = posted_hand_form(
        table4,
        {
            "contract": "misere",
            "declarer": seats[2].pk,
            "tricks": "0",
            "expected_number": 1,
            "dealer": seats[0].pk,
        },
    )
    form.is_valid()
    drawn = _same_as_the_template(form)
    assert '<label class="chip made" data-show-for="misere"><input type="radio"' in drawn


def test_names_are_escaped(table4):
    seat = table4.seats.order_by("position").first()
    seat.player.name = 'Ann "<b>" O\'Neil'
    seat.player.save()
    table4.refresh_from_db()
    drawn = _same_as_the_template(new_hand_form(table4))
    assert "<b>" not in drawn and "&lt;b&gt;" in drawn
