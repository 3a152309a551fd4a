"""docs/operators.md's whole-host restore, run as written on PostgreSQL: `pg_dump` of the
database, `createdb`, `pg_restore` into it and `migrate`; the restored host exports every club
as the original did (the same files apart from `exported_at`)."""

from __future__ import annotations

import datetime as dt
import io
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection

from club.demo.services import demo, demo_showcase

ROOT = Path(__file__).resolve().parents[2]
GUIDE = (ROOT / "docs" / "operators.md").read_text()

pytestmark = [
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql" or not shutil.which("pg_restore"),
        reason="the whole-host backup is PostgreSQL's pg_dump",
    ),
]


def without_moment(text: str) -> dict:
    value = json.loads(text)
    value.pop("exported_at")
    return value


def test_pg_dump_then_the_guides_restore_gives_back_every_club(tmp_path):
    club = demo.seed(slug="demo", hands=60, today=dt.date(2026, 11, 20)).club
    demo_showcase.showcase(club)
    before = tmp_path / "before"
    call_command("export_club", "--all", str(before), stdout=io.StringIO(), stderr=io.StringIO())

    settings = connection.settings_dict
    source, restored = settings["NAME"], f"{settings['NAME']}_restored"
    env = {
        **os.environ,
        "PGHOST": settings["HOST"] or "127.0.0.1",
        "PGPORT": str(settings["PORT"] or 5432),
        "PGUSER": settings["USER"] or "postgres",
    }
    dump = tmp_path / "solo.dump"
    # The nightly line's dump, of this database, with the app's DATABASE_URL as the .env has it.
    nightly = 'pg_dump -Fc "$DATABASE_URL" > $D/solo.dump'
    assert nightly in GUIDE
    url = f"postgres://{env['PGUSER']}@{env['PGHOST']}:{env['PGPORT']}/{source}"
    subprocess.run(
        ["bash", "-c", nightly], check=True, env={**env, "DATABASE_URL": url, "D": str(tmp_path)}
    )

    rest = GUIDE[GUIDE.index("**Restore the whole host**") :]
    commands = re.search(r"```sh\n(.*?)```", rest, flags=re.S).group(1).strip().splitlines()
    role = env["PGUSER"]
    subprocess.run(["dropdb", "--if-exists", restored], check=True, env=env)
    try:
        for command in commands:
            command = (
                command.removeprefix("sudo -u postgres ")  # the test's PGUSER is a superuser
                .replace("-O solo solo", f"-O {role} {restored}")
                .replace("--role=solo -d solo", f"--role={role} -d {restored}")
                .replace("/var/backups/solo/2026-11-22/solo.dump", str(dump))
            )
            run_env = {
                **env,
                "DATABASE_URL": f"postgres://{role}@{env['PGHOST']}:{env['PGPORT']}/{restored}",
                "SECRET_KEY": "a restore test's key, not a real one",
            }
            done = subprocess.run(
                ["bash", "-c", command], cwd=ROOT, env=run_env, capture_output=True, text=True
            )
            assert done.returncode == 0, (command, done.stderr[-2000:])
        after = tmp_path / "after"
        done = subprocess.run(
            [".venv/bin/python", "manage.py", "export_club", "--all", str(after)],
            cwd=ROOT,
            env=run_env,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        files = {p.name: without_moment(p.read_text()) for p in after.glob("*.json")}
        assert files == {p.name: without_moment(p.read_text()) for p in before.glob("*.json")}
        assert files["demo.json"]["accounts"]  # members and their roles came back too
    finally:
        connection.close()
        subprocess.run(["dropdb", "--if-exists", restored], env=env)
