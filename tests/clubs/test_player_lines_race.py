"""Two tabs confirming the same pasted lines at the same moment (PostgreSQL, or a SQLite file):
the club's lock lets one in first, the other finds nothing left to do and says the lines were
saved already; each player is added once, with one audit event."""

from __future__ import annotations

import pytest

from club.clubs.models import AuditEvent
from club.clubs.services import player_lines
from tests.kits.racing import needs_real_concurrency, race

pytestmark = pytest.mark.slow  # real threads

LINES = "\n".join(f"Member {n:02d}, m{n}@example.org" for n in range(20))


@pytest.mark.django_db(transaction=True)
def test_two_tabs_confirming_at_once_add_each_player_once(club, secretary):
    needs_real_concurrency()
    entries = player_lines.read_paste(LINES)
    signed = player_lines.digest(club, entries)
    outcomes = race(
        lambda: player_lines.apply(club, entries, secretary, signed),
        lambda: player_lines.apply(club, entries, secretary, signed),
    )
    assert [o.error for o in outcomes] == [None, None]
    saved_before = sorted(o.value.saved_before is not None for o in outcomes)
    assert saved_before == [False, True]  # one saved them; the other was told so
    assert club.players.count() == 20
    assert AuditEvent.objects.filter(club=club).count() == 1
