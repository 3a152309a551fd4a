"""The printed settlement sheet of a closed night, rendered once and kept (NightSheetCache).

A kept sheet is served only while its fingerprint matches the night as it is now: the night's
own fields, its club's and season's names and money unit, the latest audit event about it (every
change to its hands, closing and reopening writes one), its seated players' names, and the sheet
templates' own text. The fingerprint is also the download's ETag, so a browser that has the
sheet gets a 304. Open nights change with every hand and are rendered each time.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import cache

from django.db import IntegrityError, transaction
from django.db.models import Count, Max
from django.template.loader import get_template

from club.clubs.models import AuditEvent
from club.lib.pdf import static_dir
from club.play.models import Night, NightSheetCache, Seat

TEMPLATE = "play/pdf/night_sheet.html"


@cache
def _layout() -> str:
    """The sheet's templates and print stylesheet as deployed: a new release that changes them
    makes every kept sheet stale."""
    digest = hashlib.sha256()
    for name in (TEMPLATE, "play/pdf/base.html"):
        # The Django backend's template holds the compiled one; the stubs know only the protocol.
        digest.update(get_template(name).template.source.encode())  # type: ignore[attr-defined]
    digest.update((static_dir() / "css" / "print.css").read_bytes())
    return digest.hexdigest()


def fingerprint(night: Night) -> str:
    """Two small queries (the night, season and club come with it from access.get_night)."""
    season, club = night.season, night.season.club
    events = AuditEvent.objects.filter(night=night).aggregate(last=Max("id"), n=Count("id"))
    names = Seat.objects.filter(table__night=night).order_by("table_id", "position")
    parts = [
        _layout(),
        night.pk,
        night.date,
        night.title,
        night.status,
        night.closed_at,
        night.published_at,  # "Provisional" until published, then "Final"
        season.name,
        season.rule_set_id,
        club.name,
        club.unit_kind,
        club.currency_symbol,
        club.minor_units,
        club.points_label,
        club.time_zone,  # "closed at" reads on the club's clock
        events["last"],
        events["n"],
        *names.values_list("player_id", "player__name"),
    ]
    return hashlib.sha256(repr(parts).encode()).hexdigest()


def final_sheet(night: Night, fingerprint: str, render: Callable[[], bytes]) -> bytes:
    """The closed night's sheet: the kept one if it is current, else `render()` kept anew."""
    kept = (
        NightSheetCache.objects.filter(night=night, fingerprint=fingerprint)
        .values_list("pdf", flat=True)
        .first()
    )
    if kept is not None:
        return bytes(kept)
    pdf = render()
    try:
        with transaction.atomic():
            NightSheetCache.objects.update_or_create(
                night=night, defaults={"fingerprint": fingerprint, "pdf": pdf}
            )
    except IntegrityError:
        pass  # another request kept the same sheet at the same moment: theirs is as good
    return pdf
