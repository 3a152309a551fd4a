"""docs/operators.md's restore from the clubs' data files, run as written: on a fresh database,
`migrate`, `check_backup`, the `import_club` loop and `changepassword` for the first secretary.
The restored clubs export to the same files, and the secretary logs in with the new password."""

from __future__ import annotations

import datetime as dt
import io
import os
import re
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command

from club.clubs.models import Club
from club.demo.services import demo, demo_showcase
from tests.kits.interchange_kit import without_moment

ROOT = Path(__file__).resolve().parents[2]
GUIDE = (ROOT / "docs" / "operators.md").read_text()
BACKUP = "/var/backups/solo/2026-11-22"

pytestmark = [pytest.mark.slow, pytest.mark.django_db]


def block_after(heading: str) -> list[str]:
    """The commands of the first ```sh block after `heading` in the guide."""
    rest = GUIDE[GUIDE.index(heading) :]
    body = re.search(r"```sh\n(.*?)```", rest, flags=re.S).group(1)
    return [line.split("  #")[0].strip() for line in body.splitlines() if line.strip()]


def shell(command: str, env: dict[str, str], stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", "-c", command],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=600,
        start_new_session=True,  # no terminal: changepassword reads the password from stdin
    )


@pytest.mark.skipif(not (ROOT / ".venv" / "bin" / "python").exists(), reason="needs bin/setup")
def test_the_guides_restore_runs_as_written_on_a_fresh_database(tmp_path):
    club = demo.seed(slug="demo", hands=80, today=dt.date(2026, 11, 20)).club
    demo_showcase.showcase(club)
    Club.objects.create(name="Red Lion Solo", slug="redlion")
    backup = tmp_path / "backup"
    call_command("export_club", "--all", str(backup), stdout=io.StringIO(), stderr=io.StringIO())
    originals = {p.name: without_moment(p.read_text()) for p in backup.glob("*.json")}
    assert set(originals) == {"demo.json", "redlion.json"}

    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        "SECRET_KEY": "a restore test's key, not a real one",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'fresh.sqlite3'}",
        "TASKS_BACKEND": "immediate",
        "EMAIL_URL": "dummy:",
    }
    restore = block_after("**Restore clubs from their data files**")
    assert restore[0] == ".venv/bin/python manage.py migrate"
    assert any(line.startswith("for f in ") for line in restore)
    for command in restore:
        done = shell(command.replace(BACKUP, str(backup)), env)
        assert done.returncode == 0, (command, done.stdout[-2000:], done.stderr[-2000:])
        if "check_backup" in command:
            assert "secretaries: secretary" in done.stdout
            assert "2 file(s): 2 club(s)" in done.stdout
        if "import_club" in command:
            assert "Imported" in done.stdout and "Secretaries: secretary" in done.stdout

    again = tmp_path / "again"
    exported = shell(f".venv/bin/python manage.py export_club --all {again}", env)
    assert exported.returncode == 0, exported.stderr
    assert {p.name: without_moment(p.read_text()) for p in again.glob("*.json")} == originals

    (first_secretary,) = block_after("**The first secretary of a restored club.**")
    password = "a new password for the club 7"
    done = shell(first_secretary, env, stdin=f"{password}\n{password}\n")
    assert done.returncode == 0, done.stderr[-2000:]
    check = shell(
        '.venv/bin/python manage.py shell -c "from django.contrib.auth import authenticate; '
        f"print(authenticate(username='secretary', password='{password}') is not None)\"",
        env,
    )
    assert check.stdout.strip().endswith("True"), check.stderr[-2000:]
