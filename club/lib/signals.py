"""Signals that ask the apps above for an answer: what each receiver answered (`answers`), and
for a page, the template context they add, merged (`page_extras`)."""

from __future__ import annotations

from django.dispatch import Signal


def answers(signal: Signal, sender: object = None, **kwargs: object) -> list[object]:
    """What each receiver answered, in the order they connected (`send`: one that fails fails
    the caller, inside its transaction)."""
    return [answer for _receiver, answer in signal.send(sender, **kwargs)]


def page_extras(signal: Signal, sender: object, **kwargs: object) -> dict[str, object]:
    """The context every receiver of a page's signal adds, merged in the order they connected."""
    extras: dict[str, object] = {}
    for answer in answers(signal, sender, **kwargs):
        if isinstance(answer, dict):
            extras.update(answer)
    return extras
