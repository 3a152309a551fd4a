"""`{% card_qr card as qr %}`: the QR code (a data: URL) of a score card's table link, when the
sheet was asked for by a secretary of an open night (club.views.table_links.table_qr_codes)."""

from __future__ import annotations

from django import template

register = template.Library()


@register.simple_tag(takes_context=True)
def card_qr(context: template.Context, card) -> str:
    return context.get("qr_codes", {}).get(card.summary.table.pk, "")
