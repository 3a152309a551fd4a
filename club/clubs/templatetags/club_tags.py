"""Template helpers shared by every page: money in the club's unit and role checks."""

from __future__ import annotations

from django import template
from django.utils.html import escape
from django.utils.safestring import mark_safe

from club.clubs.models import Club
from club.clubs.queries import access

register = template.Library()


@register.filter
def money(amount: int | None, club: Club) -> str:
    """`{{ amount|money:club }}` -> "£1.20", "-£0.35" or "12 pts"."""
    if amount is None:
        return ""
    return club.format_amount(amount)


@register.filter
def signed_money(amount: int | None, club: Club) -> str:
    """Like `money` but with a + on gains: "+£1.20"."""
    if amount is None:
        return ""
    return club.format_amount(amount, signed=True)


@register.simple_tag
def amount_cell(amount: int | None, club: Club) -> str:
    """A coloured, signed amount for sheets: gains green, losses red, zero muted."""
    if amount is None:
        return ""
    css = "gain" if amount > 0 else "loss" if amount < 0 else "muted"
    # A sheet draws a dozen of these a save: the amount escaped as format_html would (css is
    # one of three words).
    text = escape(club.format_amount(amount, signed=True))
    return mark_safe(f'<span class="{css}">{text}</span>')


@register.filter
def get_item(mapping: dict | None, key: object) -> object:
    """`{{ mapping|get_item:key }}`: a dict's value, or None."""
    return (mapping or {}).get(key)


@register.simple_tag(takes_context=True)
def user_can(context: template.Context, club: Club, power: str) -> bool:
    """`{% user_can club "manage" as can_manage %}`: power is read, score or manage."""
    request = context.get("request")
    if request is None:
        return False
    return access.can(request.user, club, power)


@register.simple_tag(takes_context=True)
def table_url(context: template.Context, action: str, hand_id: int | None = None) -> str:
    """`{% table_url "edit" hand.pk as url %}`: the table page's action URLs, for a member of
    the club or for the table's link, whichever way the page was opened (hands.TableRoute)."""
    return context["route"].url(action, hand_id)
