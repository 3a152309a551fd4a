"""`{{ hand|rulings }}`: a hand's revokes and penalty in words, on the pages that show one hand."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def rulings(hand) -> str:
    """The hand's revokes and penalty in words ("Revokes: Ann and Cat"), for a hand read on its
    own (the sheet's rows carry theirs already): its revokes are fetched once if they were not."""
    from django.db.models import prefetch_related_objects

    from club.play.queries.table_sheet import REVOKES, hand_rulings

    if "revokes" not in getattr(hand, "_prefetched_objects_cache", {}):
        prefetch_related_objects([hand], REVOKES)
    return hand_rulings(hand)
