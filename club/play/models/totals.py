from __future__ import annotations

from django.db import models
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models.signals import post_migrate

# PostgreSQL: one statement-level trigger per event, reading the transition tables, so that a
# bulk_create of thousands of lines is one grouped upsert rather than one per line.
POSTGRES_FUNCTION = """
CREATE OR REPLACE FUNCTION club_night_totals_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        UPDATE club_nighttotal AS t
           SET hands = t.hands - d.hands, net = t.net - d.net, points = t.points - d.points,
               declared = t.declared - d.declared, made = t.made - d.made
          FROM (SELECT night_id, player_id, COUNT(*) AS hands, SUM(amount) AS net,
                       SUM(points) AS points, COUNT(*) FILTER (WHERE declared) AS declared,
                       COUNT(*) FILTER (WHERE declared_made) AS made
                  FROM old_lines GROUP BY night_id, player_id) AS d
         WHERE t.night_id = d.night_id AND t.player_id = d.player_id;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO club_nighttotal AS t
               (night_id, player_id, season_id, hands, net, points, declared, made)
        SELECT night_id, player_id, MAX(season_id), COUNT(*), SUM(amount), SUM(points),
               COUNT(*) FILTER (WHERE declared), COUNT(*) FILTER (WHERE declared_made)
          FROM new_lines GROUP BY night_id, player_id
        ON CONFLICT (night_id, player_id) DO UPDATE
           SET season_id = EXCLUDED.season_id, hands = t.hands + EXCLUDED.hands,
               net = t.net + EXCLUDED.net, points = t.points + EXCLUDED.points,
               declared = t.declared + EXCLUDED.declared, made = t.made + EXCLUDED.made;
    END IF;
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        DELETE FROM club_nighttotal AS t
         USING (SELECT DISTINCT night_id, player_id FROM old_lines) AS o
         WHERE t.night_id = o.night_id AND t.player_id = o.player_id AND t.hands <= 0;
    END IF;
    RETURN NULL;
END
$$;
"""
POSTGRES_TRIGGERS = [
    POSTGRES_FUNCTION,
    "CREATE TRIGGER club_scoreline_totals_insert AFTER INSERT ON club_scoreline "
    "REFERENCING NEW TABLE AS new_lines "
    "FOR EACH STATEMENT EXECUTE FUNCTION club_night_totals_apply()",
    "CREATE TRIGGER club_scoreline_totals_update AFTER UPDATE ON club_scoreline "
    "REFERENCING OLD TABLE AS old_lines NEW TABLE AS new_lines "
    "FOR EACH STATEMENT EXECUTE FUNCTION club_night_totals_apply()",
    "CREATE TRIGGER club_scoreline_totals_delete AFTER DELETE ON club_scoreline "
    "REFERENCING OLD TABLE AS old_lines "
    "FOR EACH STATEMENT EXECUTE FUNCTION club_night_totals_apply()",
]
POSTGRES_DROP = [
    "DROP TRIGGER IF EXISTS club_scoreline_totals_insert ON club_scoreline",
    "DROP TRIGGER IF EXISTS club_scoreline_totals_update ON club_scoreline",
    "DROP TRIGGER IF EXISTS club_scoreline_totals_delete ON club_scoreline",
    "DROP FUNCTION IF EXISTS club_night_totals_apply()",
]

# SQLite has row-level triggers only.
_SQLITE_ADD = """
    INSERT INTO club_nighttotal (night_id, player_id, season_id, hands, net, points, declared, made)
    VALUES (NEW.night_id, NEW.player_id, NEW.season_id, 1, NEW.amount, NEW.points,
            NEW.declared, NEW.declared_made)
    ON CONFLICT (night_id, player_id) DO UPDATE
       SET season_id = excluded.season_id, hands = hands + 1, net = net + excluded.net,
           points = points + excluded.points, declared = declared + excluded.declared,
           made = made + excluded.made;
"""
_SQLITE_SUBTRACT = """
    UPDATE club_nighttotal
       SET hands = hands - 1, net = net - OLD.amount, points = points - OLD.points,
           declared = declared - OLD.declared, made = made - OLD.declared_made
     WHERE night_id = OLD.night_id AND player_id = OLD.player_id;
    DELETE FROM club_nighttotal
     WHERE night_id = OLD.night_id AND player_id = OLD.player_id AND hands <= 0;
"""
SQLITE_TRIGGERS = [
    f"CREATE TRIGGER club_scoreline_totals_insert AFTER INSERT ON club_scoreline BEGIN "
    f"{_SQLITE_ADD} END",
    f"CREATE TRIGGER club_scoreline_totals_update AFTER UPDATE ON club_scoreline BEGIN "
    f"{_SQLITE_SUBTRACT} {_SQLITE_ADD} END",
    f"CREATE TRIGGER club_scoreline_totals_delete AFTER DELETE ON club_scoreline BEGIN "
    f"{_SQLITE_SUBTRACT} END",
]
SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS club_scoreline_totals_insert",
    "DROP TRIGGER IF EXISTS club_scoreline_totals_update",
    "DROP TRIGGER IF EXISTS club_scoreline_totals_delete",
]


def install_triggers(connection: BaseDatabaseWrapper) -> bool:
    """(Re)create the triggers that keep club_nighttotal equal to the score lines; idempotent.

    The first migration creates them, but SQLite drops a table's triggers whenever a migration
    rebuilds the table (adding a foreign key to club_scoreline does), so they are installed again
    after every `migrate`. Returns False when the tables are not there yet."""
    with connection.cursor() as cursor:
        tables = set(connection.introspection.table_names(cursor))
        if not {"club_scoreline", "club_nighttotal"} <= tables:
            return False
        if connection.vendor == "postgresql":
            statements = POSTGRES_DROP[:-1] + POSTGRES_TRIGGERS
        elif connection.vendor == "sqlite":
            statements = SQLITE_DROP + SQLITE_TRIGGERS
        else:
            raise NotImplementedError(f"Night totals need triggers written for {connection.vendor}")
        for sql in statements:
            cursor.execute(sql)
    return True


REBUILD_TOTALS = [
    "DELETE FROM club_nighttotal",
    """
    INSERT INTO club_nighttotal (night_id, player_id, season_id, hands, net, points, declared, made)
    SELECT night_id, player_id, MAX(season_id), COUNT(*), SUM(amount), SUM(points),
           SUM(CASE WHEN declared THEN 1 ELSE 0 END),
           SUM(CASE WHEN declared_made THEN 1 ELSE 0 END)
      FROM club_scoreline GROUP BY night_id, player_id
    """,
]


def drop_triggers(connection: BaseDatabaseWrapper) -> None:
    """Take the night-total triggers off club_scoreline (inside a transaction: loaddata puts them
    back, or the rollback does)."""
    statements = POSTGRES_DROP[:-1] if connection.vendor == "postgresql" else SQLITE_DROP
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)


def rebuild_totals(connection: BaseDatabaseWrapper) -> None:
    """Make club_nighttotal again from the score lines, whatever it holds now."""
    with connection.cursor() as cursor:
        for sql in REBUILD_TOTALS:
            cursor.execute(sql)


def _after_migrate(sender, using: str = "default", **kwargs) -> None:
    if getattr(sender, "label", None) == "play":
        from django.db import connections

        install_triggers(connections[using])


post_migrate.connect(_after_migrate, dispatch_uid="club.night_total_triggers")


class NightTotal(models.Model):
    """One player's totals for one night: the sums of their score lines on that night.

    Kept by the database itself: triggers on the score line table (made by the first migration) add,
    subtract and move each line as it is inserted, updated or deleted, whichever code writes it (the
    hand service, seed_demo's bulk_create, a cascade). The standings, player pages and club home
    read these rows, one per player and night, instead of every score line. Never write them from
    Python (tests/play/test_totals.py checks them against the score lines).
    """

    night = models.ForeignKey("play.Night", on_delete=models.CASCADE, related_name="totals")
    player = models.ForeignKey("clubs.Player", on_delete=models.CASCADE, related_name="totals")
    season = models.ForeignKey("clubs.Season", on_delete=models.CASCADE, related_name="totals")
    hands = models.IntegerField(default=0)  # hands taken part in (not sitting out)
    net = models.IntegerField(default=0)  # sum of amounts, in the club's unit
    points = models.IntegerField(default=0)  # sum of ladder points
    declared = models.IntegerField(default=0)  # contracts this player called
    made = models.IntegerField(default=0)  # ... and made

    class Meta:
        db_table = "club_nighttotal"  # the table it had in the one app
        constraints = [
            models.UniqueConstraint(fields=["night", "player"], name="night_total_one_per_player"),
        ]
        indexes = [
            models.Index(fields=["season", "player"], name="night_total_season_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} on night {self.night_id}: {self.net}"
