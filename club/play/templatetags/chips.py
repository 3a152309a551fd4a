"""The hand form's chips (contract, declarer, partner, tricks...) drawn in Python.

A save answers with the next hand's form, and its forty-odd chips drawn by the template engine
were most of the save's time (each chip is a dozen `if`s). The markup is the same as a template
would make; `tests/play/test_chips.py` holds it to the form's chips.
"""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

from club.play.forms.hand_layout import Chip, ChipGroup

register = template.Library()


def _attr(name: str, value: Any) -> str:
    return f' {name}="{conditional_escape(value)}"'


def _chip(group: ChipGroup, chip: Chip, first: bool, autofocus: bool) -> str:
    titled = bool(chip.title) and chip.title != chip.label
    label = ["<label", _attr("class", f"chip {chip.kind}" if chip.kind else "chip")]
    if chip.show_for:
        label.append(_attr("data-show-for", chip.show_for))
    if chip.hidden:
        label.append(" hidden")
    if titled:
        label.append(_attr("title", chip.title))
    radio = [
        '<input type="radio"',
        _attr("name", group.field.html_name),
        _attr("value", chip.value),
    ]
    if chip.checked:
        radio.append(" checked")
    if group.disabled or chip.hidden:
        radio.append(" disabled")
    if chip.target is not None:
        radio.append(_attr("data-target", chip.target))
    if autofocus and first:
        radio.append(" autofocus")
    if titled:
        radio.append(_attr("aria-label", chip.title))
    return (
        f"{''.join(label)}>{''.join(radio)}><span>{conditional_escape(chip.label)}</span></label>"
    )


def chip_group_html(group: ChipGroup, show_errors: bool) -> str:
    name = group.field.name
    errors = group.field.errors if show_errors else None
    classes = f"field chips field-{name}" + (" has-error" if errors else "")
    head = ["<fieldset", _attr("class", classes)]
    if group.show_for:
        head.append(_attr("data-show-for", group.show_for))
    if group.hidden:
        head.append(" hidden")
    if name == "tricks":
        head.append(" data-tricks")
    autofocus = bool(group.field.field.widget.attrs.get("autofocus"))
    chips = "".join(
        _chip(group, chip, index == 0, autofocus) for index, chip in enumerate(group.chips)
    )
    more = ""
    if name == "tricks":
        more = (
            '<button type="button" class="chip chip-more" data-all-tricks '
            'aria-expanded="false" hidden>Other tricks</button>'
        )
    return (
        f"{''.join(head)}><legend>{conditional_escape(group.field.label)}</legend>"
        f'<div class="chip-row">{chips}{more}</div>{errors or ""}</fieldset>'
    )


@register.simple_tag
def chip_groups(groups: list[ChipGroup], show_errors: bool) -> SafeString:
    """Every chip group of the hand form, as the page draws them (radio inputs in labels)."""
    return mark_safe("\n".join(chip_group_html(g, show_errors) for g in groups))
