"""`{% card_qr card as qr %}`: the QR code (a data: URL) of a score card's table link, when the
sheet was asked for by a secretary of an open night (club.play.views.table_links.table_qr_codes)."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()


@register.simple_tag(takes_context=True)
def card_qr(context: template.Context, card: Any) -> str:  # card: a TableCard's row
    return (context.get("qr_codes") or {}).get(card.summary.table.pk, "")
