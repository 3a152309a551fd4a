"""`{% help_url %}`: the section of the guides that the current page's Help link opens
(club/help/queries/guides.py, SECTIONS, by the page's URL name)."""

from __future__ import annotations

from django import template

from club.help.queries import guides

register = template.Library()


@register.simple_tag(takes_context=True)
def help_url(context: template.Context) -> str:
    request = context.get("request")
    match = getattr(request, "resolver_match", None)
    return guides.section_for(match.url_name if match else None)
