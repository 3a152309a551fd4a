"""`manage.py backup`: today's dated folder with every club's checked data file and the
database's copy; with age recipients only encrypted files, no plain text anywhere under the
root; the newest 14 daily and 8 weekly backups kept, the rest deleted, never the one just made,
nothing but dated folders touched; a failed backup or check emails the ADMINS, exits non-zero
and keeps the old backups."""

from __future__ import annotations

import datetime as dt
import io
import sqlite3
import subprocess
from pathlib import Path

import pytest
from django.core import mail
from django.core.management import CommandError, call_command
from django.db import connection

from club.clubs.models import Club, Membership, Role
from club.interchange.services.backups import to_keep

D = dt.date


def days(first: dt.date, last: dt.date) -> list[dt.date]:
    return [first + dt.timedelta(days=n) for n in range((last - first).days + 1)]


# --- which folders are kept -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dates", "made", "daily", "weekly", "kept"),
    [
        # A month of nightly backups, made on Saturday 28 November 2026 (ISO week 48): the 14
        # newest (15 to 28 November) and, of the weeks before, each week's newest: Sunday 8
        # November (week 45) and Sunday 1 November (week 44); 30 and 31 October (week 44 too)
        # and the weekdays of weeks 45 and 46 go.
        (
            days(D(2026, 10, 30), D(2026, 11, 27)),
            D(2026, 11, 28),
            14,
            8,
            {*days(D(2026, 11, 15), D(2026, 11, 28)), D(2026, 11, 8), D(2026, 11, 1)},
        ),
        # Four months: 14 days, then the Sundays of weeks 45 to 41 (8 weeks in all).
        (
            days(D(2026, 8, 1), D(2026, 11, 27)),
            D(2026, 11, 28),
            14,
            8,
            {
                *days(D(2026, 11, 15), D(2026, 11, 28)),
                D(2026, 11, 8),
                D(2026, 11, 1),
                D(2026, 10, 25),
                D(2026, 10, 18),
                D(2026, 10, 11),
            },
        ),
        # Across the new year: 28 December 2026 to 3 January 2027 is ISO week 53 of 2026.
        (
            [D(2026, 12, 27), D(2026, 12, 31), D(2027, 1, 3)],
            D(2027, 1, 4),
            1,
            2,
            {D(2027, 1, 4), D(2027, 1, 3)},
        ),
        # Backups on some days only (a host down for a while): the weeks are the weeks that
        # have one; a week's newest may be a Wednesday.
        (
            [D(2026, 9, 2), D(2026, 9, 3), D(2026, 9, 16), D(2026, 10, 7), D(2026, 10, 8)],
            D(2026, 11, 28),
            2,
            3,
            {D(2026, 11, 28), D(2026, 10, 8), D(2026, 9, 16)},
        ),
        # Fewer than 14: nothing goes.
        (
            [D(2026, 11, 1), D(2026, 11, 20)],
            D(2026, 11, 28),
            14,
            8,
            {D(2026, 11, 1), D(2026, 11, 20), D(2026, 11, 28)},
        ),
        # The clock went back: the backup just made is kept though newer ones exist.
        (
            days(D(2026, 11, 20), D(2026, 11, 28)),
            D(2026, 11, 2),
            3,
            0,
            {D(2026, 11, 28), D(2026, 11, 27), D(2026, 11, 26), D(2026, 11, 2)},
        ),
    ],
    ids=["a-month", "four-months", "new-year", "gaps", "few", "clock-went-back"],
)
def test_retention_keeps_the_newest_daily_and_each_weeks_newest(dates, made, daily, weekly, kept):
    assert to_keep(dates, made, daily, weekly) == kept


# --- the command --------------------------------------------------------------------------------


@pytest.fixture
def two_clubs(db, club, players, secretary):
    Club.objects.create(name="Red Lion Solo", slug="redlion")
    return club


def backup(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("backup", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def keys(tmp_path: Path) -> tuple[Path, str]:
    identity = tmp_path / "key.txt"
    subprocess.run(["age-keygen", "-o", str(identity)], check=True, capture_output=True)
    public = subprocess.run(
        ["age-keygen", "-y", str(identity)], check=True, capture_output=True, text=True
    ).stdout.strip()
    return identity, public


@pytest.mark.django_db(transaction=True)  # the database's copy is read from the committed file
def test_a_backup_holds_every_clubs_checked_file_and_the_database(two_clubs, tmp_path):
    root = tmp_path / "backups"
    out, _ = backup(str(root))
    today = root / dt.datetime.now(dt.UTC).date().isoformat()
    assert f"Backed up to {today}" in out
    assert "OK crown.json: Crown & Anchor Solo School (/c/crown/)" in out
    assert sorted(p.name for p in root.iterdir()) == [today.name]  # no half-made folder left
    names = sorted(p.name for p in today.iterdir())
    if connection.vendor == "sqlite":
        assert names == ["crown.json", "redlion.json", "solo.sqlite3"]
        copy = sqlite3.connect(today / "solo.sqlite3")
        slugs = {s for (s,) in copy.execute("SELECT slug FROM club_club")}
        copy.close()
        assert slugs == {"crown", "redlion"}
    else:
        assert names == ["crown.json", "redlion.json", "solo.dump"]
        listed = subprocess.run(
            ["pg_restore", "--list", str(today / "solo.dump")], capture_output=True, text=True
        )
        assert listed.returncode == 0 and "TABLE DATA public club_club" in listed.stdout
    checked = io.StringIO()
    call_command("check_backup", str(today), stdout=checked)
    assert "2 file(s): 2 club(s)" in checked.getvalue()


@pytest.mark.django_db(transaction=True)
def test_an_encrypted_backup_leaves_no_plain_text_on_the_disk(two_clubs, tmp_path):
    identity, public = keys(tmp_path)
    recipients = tmp_path / "recipients.txt"
    recipients.write_text(f"# the operator's key\n{public}\n")
    root = tmp_path / "backups"
    backup(str(root), "--age-recipients-file", str(recipients))
    today = root / dt.datetime.now(dt.UTC).date().isoformat()
    everything = [p for p in root.rglob("*") if p.is_file()]
    database = "solo.sqlite3.age" if connection.vendor == "sqlite" else "solo.dump.age"
    assert sorted(p.name for p in everything) == ["crown.json.age", "redlion.json.age", database]
    assert all(p.parent == today for p in everything)
    for path in everything:
        data = path.read_bytes()
        assert data.startswith(b"age-encryption.org/v1\n")
        assert b"Crown & Anchor" not in data and b"solo-whist-club" not in data
        assert b"SQLite format 3" not in data and b"PGDMP" not in data
    # Decrypted with the identity, the files are the club's record and the database.
    checked = io.StringIO()
    call_command("check_backup", str(today), "--age-identity", str(identity), stdout=checked)
    assert "OK " in checked.getvalue() and "2 file(s): 2 club(s)" in checked.getvalue()
    plain = subprocess.run(
        ["age", "-d", "-i", str(identity), str(today / database)], capture_output=True, check=True
    ).stdout
    assert plain.startswith(b"SQLite format 3" if connection.vendor == "sqlite" else b"PGDMP")
    # Without the identity, check_backup says what is missing.
    with pytest.raises(CommandError, match="2 of 2 file"):
        call_command("check_backup", str(today), stdout=checked)
    assert "give --age-identity FILE" in checked.getvalue()


@pytest.mark.django_db
def test_the_command_deletes_the_folders_retention_does_not_keep_and_nothing_else(
    two_clubs, tmp_path
):
    root = tmp_path / "backups"
    today = dt.datetime.now(dt.UTC).date()
    made = [today - dt.timedelta(days=n) for n in range(1, 61)]
    for day in made:
        (root / day.isoformat()).mkdir(parents=True)
        (root / day.isoformat() / "crown.json").write_text("{}")
    for other in ("notes", "2026-13-45", "2026-11-01.old"):
        (root / other).mkdir()
    (root / "README").write_text("the operator's own file")
    out, _ = backup(str(root), "--keep-daily", "14", "--keep-weekly", "8")
    left = {p.name for p in root.iterdir()}
    assert {"notes", "2026-13-45", "2026-11-01.old", "README"} <= left
    kept = sorted(
        D.fromisoformat(n) for n in left - {"notes", "2026-13-45", "2026-11-01.old", "README"}
    )
    assert kept[-14:] == [today - dt.timedelta(days=n) for n in range(13, -1, -1)]
    older = kept[:-14]
    weeks = {d.isocalendar()[:2] for d in kept}
    assert len(weeks) == 8  # the newest eight ISO weeks, one backup (or more, recent) each
    for day in older:  # each older one kept is the newest of its week
        assert day.isoweekday() == 7 or day + dt.timedelta(days=1) in kept
        assert all(
            other <= day for other in made if other.isocalendar()[:2] == day.isocalendar()[:2]
        )
    deleted = set(made) - set(kept)
    assert f"deleted {len(deleted)}" in out
    assert len(kept) + len(deleted) == len(made) + 1


@pytest.mark.django_db
def test_a_backup_that_fails_its_check_emails_the_admins_and_keeps_the_old_ones(
    two_clubs, tmp_path, settings, django_user_model
):
    settings.ADMINS = [("Pat Ops", "ops@example.org")]
    # A member with no email: the file would not restore (an account comes back by its email).
    nobody = django_user_model.objects.create_user(username="noemail", email="")
    Membership.objects.create(user=nobody, club=two_clubs, role=Role.SCORER)
    root = tmp_path / "backups"
    yesterday = root / (dt.datetime.now(dt.UTC).date() - dt.timedelta(days=1)).isoformat()
    for n in range(2, 40):
        (root / (dt.datetime.now(dt.UTC).date() - dt.timedelta(days=n)).isoformat()).mkdir(
            parents=True
        )
    yesterday.mkdir()
    before = sorted(p.name for p in root.iterdir())
    with pytest.raises(CommandError, match="The backup failed: 1 of 2 club data file"):
        backup(str(root))
    assert sorted(p.name for p in root.iterdir()) == before  # nothing made, nothing deleted
    (message,) = mail.outbox
    assert message.to == ["ops@example.org"]
    assert "Backup failed" in message.subject
    assert "REFUSED crown.json" in message.body and "noemail" in message.body
    assert "OK redlion.json" in message.body


@pytest.mark.django_db
def test_without_admins_a_failed_backup_still_fails_and_says_nobody_was_told(
    two_clubs, tmp_path, settings
):
    settings.ADMINS = []
    err = io.StringIO()
    with pytest.raises(CommandError, match="no such file"):
        call_command(
            "backup",
            str(tmp_path / "b"),
            "--age-recipients-file",
            str(tmp_path / "missing.txt"),
            stdout=io.StringIO(),
            stderr=err,
        )
    assert "ADMINS is not set" in err.getvalue()
    assert mail.outbox == []


@pytest.mark.django_db
def test_check_backup_with_alert_emails_the_admins_about_a_damaged_file(
    two_clubs, tmp_path, settings
):
    settings.ADMINS = [("", "ops@example.org")]
    identity, public = keys(tmp_path)
    root = tmp_path / "backups"
    backup(str(root), "--age-recipient", public)
    today = root / dt.datetime.now(dt.UTC).date().isoformat()
    damaged = today / "crown.json.age"
    data = bytearray(damaged.read_bytes())
    data[-20] ^= 0xFF  # one byte of the sealed text
    damaged.write_bytes(bytes(data))
    out = io.StringIO()
    with pytest.raises(CommandError, match="1 of 2 file"):
        call_command(
            "check_backup",
            str(today),
            "--age-identity",
            str(identity),
            "--alert",
            stdout=out,
            stderr=io.StringIO(),
        )
    (message,) = mail.outbox
    assert message.to == ["ops@example.org"] and "check_backup failed" in message.subject
    assert f"REFUSED {damaged}" in message.body and "could not decrypt" in message.body
    assert "OK " in message.body and "redlion" in message.body


@pytest.mark.django_db
def test_a_plain_damaged_file_fails_check_backup_and_alerts(two_clubs, tmp_path, settings):
    settings.ADMINS = [("", "ops@example.org")]
    root = tmp_path / "backups"
    backup(str(root))
    today = root / dt.datetime.now(dt.UTC).date().isoformat()
    text = (today / "redlion.json").read_text()
    (today / "redlion.json").write_text(text[: len(text) // 2])  # cut short
    with pytest.raises(CommandError):
        call_command(
            "check_backup", str(today), "--alert", stdout=io.StringIO(), stderr=io.StringIO()
        )
    (message,) = mail.outbox
    assert "REFUSED" in message.body and "redlion.json" in message.body
