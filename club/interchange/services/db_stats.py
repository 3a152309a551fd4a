"""Fresh planner statistics after a bulk load. PostgreSQL's autovacuum analyses a table only after
enough of it has changed and some time has passed; until then a freshly loaded club's queries are
planned on the statistics of an empty table (60-70 ms each instead of a few). So whatever loads
many rows at once (seed_demo, the club data import) runs ANALYZE on the tables it filled, after
its transaction has committed."""

from __future__ import annotations

from django.db import connection
from django.db.models import Model

from club.clubs.models import AuditEvent, Player, Season
from club.play.models import Hand, Night, NightTotal, ScoreLine, Seat, Table

BULK_LOADED = (Player, Season, Night, Table, Seat, Hand, ScoreLine, NightTotal, AuditEvent)


def analyze(models: tuple[type[Model], ...] = BULK_LOADED) -> list[str]:
    """ANALYZE the models' tables on PostgreSQL; the tables analysed (none on other databases,
    whose planners here need no help)."""
    if connection.vendor != "postgresql":
        return []
    tables = [m._meta.db_table for m in models]
    with connection.cursor() as cursor:
        for table in tables:
            cursor.execute(f"ANALYZE {connection.ops.quote_name(table)}")
    return tables
