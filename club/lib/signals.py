"""Pages that show what an app above theirs keeps: the page sends its signal, each receiver
answers a dict of template context, and the page merges them."""

from __future__ import annotations

from django.dispatch import Signal


def page_extras(signal: Signal, sender: object, **kwargs: object) -> dict[str, object]:
    """The context every receiver of a page's signal adds, merged in the order they connected."""
    extras: dict[str, object] = {}
    for _receiver, answer in signal.send(sender, **kwargs):
        if isinstance(answer, dict):
            extras.update(answer)
    return extras
