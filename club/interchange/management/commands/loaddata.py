"""`loaddata` that restores a database dump with its night totals right.

A dump (`dumpdata`) holds the score lines and the night totals the database's triggers keep from
them (club.play.models.totals). Loaded as they are, the triggers would build the totals again from
the score lines while the fixture also loads them: the restore failed on
night_total_one_per_player (or counted a line twice on a second load). So, in loaddata's one
transaction, the triggers come off, the fixtures load, the night totals are made again from the
score lines (whether the dump had them or not), and the triggers go back on. A failed load rolls
all of it back: PostgreSQL and SQLite both take these statements inside a transaction.
"""

from __future__ import annotations

from django.core.management.commands.loaddata import Command as LoadData
from django.db import connections

from club.money.models.ledger import install_debt_check
from club.play.models.totals import drop_triggers, install_triggers, rebuild_totals


class Command(LoadData):
    help = LoadData.help + " Night totals are made again from the loaded score lines."

    def loaddata(self, fixture_labels) -> None:
        connection = connections[self.using]
        tables = set(connection.introspection.table_names())
        has_totals = "club_nighttotal" in tables
        has_debts = "club_debt" in tables
        if has_totals:
            drop_triggers(connection)
        if has_debts:
            # The same-club check on debts reads the players and the night, which a dump may
            # list after the debts: it comes off for the load and then checks every debt.
            _drop_debt_check(connection)
        super().loaddata(fixture_labels)
        if has_totals:
            rebuild_totals(connection)
            install_triggers(connection)
        if has_debts:
            install_debt_check(connection)
            with connection.cursor() as cursor:
                cursor.execute("UPDATE club_debt SET club_id = club_id")  # fires the check


def _drop_debt_check(connection) -> None:
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("DROP TRIGGER IF EXISTS club_debt_same_club ON club_debt")
        else:
            for event in ("INSERT", "UPDATE"):
                cursor.execute(f"DROP TRIGGER IF EXISTS club_debt_same_club_{event}")
