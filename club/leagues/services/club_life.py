"""What a league answers when a club's life moves on (club.clubs.services.signals)."""

from __future__ import annotations

from typing import Any

from club.leagues.models import League


def organisers_kept(sender: Any, user_ids: list[int], **kwargs: Any) -> list[int]:
    """A purged club's secretary who organises a league keeps his account: the league needs it
    (its organiser is PROTECTed, so deleting him would fail the whole purge)."""
    return list(
        League.objects.filter(organiser_id__in=user_ids).values_list("organiser_id", flat=True)
    )
