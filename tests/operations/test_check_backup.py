"""`manage.py check_backup DIR` reads every file of a backup, checks it as an import would and
says what it holds; a file that would not restore makes it fail, naming the file and the place."""

from __future__ import annotations

import datetime as dt
import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from club.clubs.models import Club
from club.demo.services import demo, demo_showcase
from club.money.services import ledger

pytestmark = pytest.mark.django_db


def check(*paths) -> tuple[int, str]:
    out = io.StringIO()
    try:
        call_command("check_backup", *map(str, paths), stdout=out)
    except CommandError as error:
        return 1, out.getvalue() + str(error)
    return 0, out.getvalue()


def test_a_good_backup_is_read_and_summed(tmp_path):
    club = demo.seed(slug="demo", hands=120, today=dt.date(2026, 11, 20)).club
    demo_showcase.showcase(club)
    Club.objects.create(name="Red Lion Solo", slug="redlion")
    call_command("export_club", "--all", str(tmp_path), stdout=io.StringIO(), stderr=io.StringIO())
    owed = sum(d.outstanding for d in ledger.open_debts(club))
    status, out = check(tmp_path)
    assert status == 0, out
    assert f"money owed {club.format_amount(owed)}" in out
    assert "Crown & Anchor Solo School (/c/demo/), backup;" in out
    assert "2 file(s): 2 club(s)" in out and "0 refused" in out


def test_a_bad_file_fails_the_check_and_says_where(tmp_path):
    club = demo.seed(slug="demo", hands=60, today=dt.date(2026, 11, 20)).club
    demo_showcase.showcase(club)
    call_command("export_club", "--all", str(tmp_path), stdout=io.StringIO(), stderr=io.StringIO())
    path = tmp_path / "demo.json"
    value = json.loads(path.read_text())
    night = next(n for n in value["nights"] if n["debts"])
    night["settlements"].append(
        {"debt": 99, "kind": "paid", "amount": 5, "at": "2026-11-20T22:00:00Z"}
    )
    path.write_text(json.dumps(value))
    status, out = check(tmp_path)
    assert status == 1
    assert f"REFUSED {path}" in out
    assert "settlement" in out and "'debt' 99 is not one of this night's debts" in out
    assert "1 of 1 file(s) would not restore" in out


def test_an_empty_directory_is_not_a_backup(tmp_path):
    status, out = check(tmp_path)
    assert status == 1 and "No club data files" in out
