"""`loaddata` that restores a database dump with its night totals right (issue 14.9).

A dump (`dumpdata`) holds the score lines and the night totals the database's triggers keep from
them (club.models.totals). Loaded as they are, the triggers would build the totals again from
the score lines while the fixture also loads them: the restore failed on
night_total_one_per_player (or counted a line twice on a second load). So, in loaddata's one
transaction, the triggers come off, the fixtures load, the night totals are made again from the
score lines (whether the dump had them or not), and the triggers go back on. A failed load rolls
all of it back: PostgreSQL and SQLite both take these statements inside a transaction.
"""

from __future__ import annotations

from django.core.management.commands.loaddata import Command as LoadData
from django.db import connections

from club.models.totals import drop_triggers, install_triggers, rebuild_totals


class Command(LoadData):
    help = LoadData.help + " Night totals are made again from the loaded score lines."

    def loaddata(self, fixture_labels) -> None:
        connection = connections[self.using]
        has_totals = "club_nighttotal" in connection.introspection.table_names()
        if has_totals:
            drop_triggers(connection)
        super().loaddata(fixture_labels)
        if has_totals:
            rebuild_totals(connection)
            install_triggers(connection)
