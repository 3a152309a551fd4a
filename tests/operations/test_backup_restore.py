"""docs/operators.md's restore from an encrypted backup, run as written: `manage.py backup` with
an age recipient makes the dated folder of encrypted files; on a fresh database the guide's
`migrate`, `check_backup --age-identity` and the `age -d | import_club -` loop give back every
club, which then exports to the same files as the original."""

from __future__ import annotations

import datetime as dt
import io
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection

from club.clubs.models import Club
from club.demo.services import demo, demo_showcase
from tests.kits.interchange_kit import without_moment

ROOT = Path(__file__).resolve().parents[2]
GUIDE = (ROOT / "docs" / "operators.md").read_text()
BACKUP = "/var/backups/solo/2026-11-22"

pytestmark = [pytest.mark.slow, pytest.mark.django_db]


def block_after(heading: str) -> list[str]:
    rest = GUIDE[GUIDE.index(heading) :]
    body = re.search(r"```sh\n(.*?)```", rest, flags=re.S).group(1)
    return [line.strip() for line in body.splitlines() if line.strip()]


def shell(command: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", "-c", command], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )


def encrypted_backup(tmp_path: Path) -> tuple[Path, Path]:
    """The operator's key where the guide keeps it for a restore (~/solo-backup-key.txt), and
    today's backup made with its public key, as the nightly command makes it."""
    home = tmp_path / "home"
    home.mkdir()
    key = home / "solo-backup-key.txt"
    subprocess.run(["age-keygen", "-o", str(key)], check=True, capture_output=True)
    public = subprocess.run(
        ["age-keygen", "-y", str(key)], check=True, capture_output=True, text=True
    ).stdout.strip()
    root = tmp_path / "backups"
    call_command(
        "backup", str(root), "--age-recipient", public, stdout=io.StringIO(), stderr=io.StringIO()
    )
    return key, root / dt.datetime.now(dt.UTC).date().isoformat()


@pytest.mark.skipif(not (ROOT / ".venv" / "bin" / "python").exists(), reason="needs bin/setup")
def test_an_encrypted_backup_restores_every_club_by_the_guides_steps(tmp_path):
    club = demo.seed(slug="demo", hands=80, today=dt.date(2026, 11, 20)).club
    demo_showcase.showcase(club)
    Club.objects.create(name="Red Lion Solo", slug="redlion")
    plain = tmp_path / "plain"
    call_command("export_club", "--all", str(plain), stdout=io.StringIO(), stderr=io.StringIO())
    originals = {p.name: without_moment(p.read_text()) for p in plain.glob("*.json")}
    assert set(originals) == {"demo.json", "redlion.json"}

    key, backup = encrypted_backup(tmp_path)
    assert not list(backup.glob("*.json"))  # encrypted only
    assert {p.name for p in backup.glob("*.json.age")} == {"demo.json.age", "redlion.json.age"}

    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(key.parent),
        "SECRET_KEY": "a restore test's key, not a real one",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'fresh.sqlite3'}",
        "TASKS_BACKEND": "immediate",
        "EMAIL_URL": "dummy:",
    }
    restore = block_after("**From an encrypted backup**")
    assert restore[0] == ".venv/bin/python manage.py migrate"
    assert any("--age-identity ~/solo-backup-key.txt" in line for line in restore)
    assert any(line.startswith("for f in ") and "age -d" in line for line in restore)
    for command in restore:
        done = shell(command.replace(BACKUP, str(backup)), env)
        assert done.returncode == 0, (command, done.stdout[-2000:], done.stderr[-2000:])
        if "check_backup" in command:
            assert "secretaries: secretary" in done.stdout
            assert "2 file(s): 2 club(s)" in done.stdout
        if "import_club" in command:
            assert done.stdout.count("Imported") == 2

    again = tmp_path / "again"
    exported = shell(f".venv/bin/python manage.py export_club --all {again}", env)
    assert exported.returncode == 0, exported.stderr
    assert {p.name: without_moment(p.read_text()) for p in again.glob("*.json")} == originals


@pytest.mark.django_db(transaction=True)  # pg_dump reads what is committed
@pytest.mark.skipif(
    connection.vendor != "postgresql" or not shutil.which("pg_restore"),
    reason="the whole host's encrypted dump is PostgreSQL's",
)
def test_the_whole_host_comes_back_from_the_encrypted_dump_by_the_guides_steps(tmp_path):
    club = demo.seed(slug="demo", hands=60, today=dt.date(2026, 11, 20)).club
    demo_showcase.showcase(club)
    before = tmp_path / "before"
    call_command("export_club", "--all", str(before), stdout=io.StringIO(), stderr=io.StringIO())
    key, backup = encrypted_backup(tmp_path)
    assert (backup / "solo.dump.age").exists() and not (backup / "solo.dump").exists()

    settings = connection.settings_dict
    restored = f"{settings['NAME']}_restored"
    env = {
        **os.environ,
        "HOME": str(key.parent),
        "PGHOST": settings["HOST"] or "127.0.0.1",
        "PGPORT": str(settings["PORT"] or 5432),
        "PGUSER": settings["USER"] or "postgres",
    }
    role = env["PGUSER"]
    rest = GUIDE[GUIDE.index("**Restore the whole host**") :]
    (createdb, _, migrate) = re.search(r"```sh\n(.*?)```", rest, flags=re.S).group(1).splitlines()
    (encrypted,) = block_after("From an encrypted backup, decrypt into `pg_restore`")
    env["DATABASE_URL"] = f"postgres://{role}@{env['PGHOST']}:{env['PGPORT']}/{restored}"
    env["SECRET_KEY"] = "a restore test's key, not a real one"
    subprocess.run(["dropdb", "--if-exists", restored], check=True, env=env)
    try:
        for command in (createdb, encrypted, migrate):
            command = (
                command.replace("sudo -u postgres ", "")  # the test's PGUSER is a superuser
                .replace("-O solo solo", f"-O {role} {restored}")
                .replace("--role=solo -d solo", f"--role={role} -d {restored}")
                .replace(BACKUP, str(backup))
            )
            done = shell(command, env)
            assert done.returncode == 0, (command, done.stderr[-2000:])
        after = tmp_path / "after"
        done = shell(f".venv/bin/python manage.py export_club --all {after}", env)
        assert done.returncode == 0, done.stderr[-2000:]
        files = {p.name: without_moment(p.read_text()) for p in after.glob("*.json")}
        assert files == {p.name: without_moment(p.read_text()) for p in before.glob("*.json")}
    finally:
        connection.close()
        subprocess.run(["dropdb", "--if-exists", restored], env=env)
