"""The club app's migrations are squashed: a new database runs one migration, and a database made
by the old ones (0001 to 0026) is recognised and goes on from there. Both reach the same schema."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.db import connection
from django.db.migrations.autodetector import MigrationAutodetector
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.questioner import NonInteractiveMigrationQuestioner

SQUASH = ("club", "0001_squashed_0026_rate_windows")
MIGRATIONS = Path(__file__).resolve().parents[2] / "club" / "migrations"


def test_the_squash_replaces_every_older_migration():
    loader = MigrationLoader(None, replace_migrations=False)
    squash = loader.disk_migrations[SQUASH]
    older = sorted(
        p.stem for p in MIGRATIONS.glob("00*.py") if p.stem < "0027" and p.stem != SQUASH[1]
    )
    assert sorted(name for _, name in squash.replaces) == older


def test_the_old_chain_and_the_squash_reach_the_same_schema():
    loader = MigrationLoader(None, replace_migrations=False)
    old_leaf = ("club", "0026_rate_windows")
    old = loader.project_state(old_leaf)
    new = loader.project_state(SQUASH)
    changes = MigrationAutodetector(
        old, new, NonInteractiveMigrationQuestioner(specified_apps={"club"}, dry_run=True)
    ).changes(graph=loader.graph)
    assert changes == {}
    assert set(old.models) == set(new.models)


@pytest.mark.django_db
def test_a_new_database_ran_the_squash_and_has_the_night_total_triggers():
    recorded = MigrationLoader(connection).applied_migrations
    assert SQUASH in recorded
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")
        else:
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        triggers = {row[0] for row in cursor.fetchall()}
    assert {f"club_scoreline_totals_{e}" for e in ("insert", "update", "delete")} <= triggers
