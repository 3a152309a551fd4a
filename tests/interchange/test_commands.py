"""export_club and import_club: files, filters, exit status and messages; and the backup restore
(export_club --all, an emptied database, import_club of each file: every figure the same)."""

from __future__ import annotations

import datetime as dt
import io
import json
from unittest import mock

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from club.clubs.models import Club
from club.clubs.services.clubs_lifecycle import delete_club
from club.demo.services import demo
from club.interchange import MAX_BYTES
from club.interchange.services.export import export_text
from club.play.models import Hand, Night
from tests.interchange.test_bad_input import counts, sample
from tests.kits.interchange_kit import check_schema, figures, rich_club, without_moment

pytestmark = pytest.mark.django_db


def run(*args: str) -> tuple[int, str, str]:
    """Run a command as `manage.py` does: its exit status, standard output and error."""
    from django.core.management import get_commands, load_command_class

    out, err = io.StringIO(), io.StringIO()
    command = load_command_class(get_commands()[args[0]], args[0])
    command.stdout._out = out  # type: ignore[attr-defined]
    command.stderr._out = err  # type: ignore[attr-defined]
    try:
        # run_from_argv closes the database connections at the end, which would end the test's
        # transaction; everything else (parsing, the exit status, stderr) is as manage.py runs it.
        with mock.patch("django.core.management.base.connections.close_all"):
            command.run_from_argv(["manage.py", *args])
    except SystemExit as exit:
        return int(exit.code or 0), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def test_export_to_standard_output_and_to_a_file(club, players, secretary, tmp_path):
    rich_club(club, players, secretary)
    out = io.StringIO()
    call_command("export_club", "crown", stdout=out)
    document = json.loads(out.getvalue())
    check_schema(document)
    assert without_moment(out.getvalue()) == without_moment(export_text(club))
    target = tmp_path / "backups" / "crown.json"
    call_command("export_club", "crown", output=str(target), stderr=io.StringIO())
    assert without_moment(target.read_text()) == without_moment(out.getvalue())


def test_export_one_season_or_one_night(club, players, secretary):
    rich_club(club, players, secretary)
    out = io.StringIO()
    call_command("export_club", "crown", season="Summer 2027", stdout=out)
    assert {n["season"] for n in json.loads(out.getvalue())["nights"]} == {"Summer 2027"}
    out = io.StringIO()
    call_command("export_club", "crown", night="2026-11-20", stdout=out)
    nights = json.loads(out.getvalue())["nights"]
    assert [(n["date"], n["title"]) for n in nights] == [
        ("2026-11-20", ""),
        ("2026-11-20", "Late table"),
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["export_club", "nowhere"], "No club has the slug 'nowhere'"),
        (["export_club", "crown", "--season", "Spring"], "has no season 'Spring' (Winter 2026)"),
        (["export_club", "crown", "--night", "2026-12-25"], "has no night on 2026-12-25"),
        (["export_club", "crown", "--night", "Friday"], "--night 'Friday' is not a date"),
        (["export_club"], "Give the club's slug (or --all DIR for every club)"),
    ],
)
def test_export_errors_go_to_standard_error_with_status_1(night, args, message):
    status, out, err = run(*args)
    assert status == 1
    assert message in err
    assert out == ""


def test_import_a_new_club_and_under_another_slug(tmp_path):
    path = tmp_path / "winter.json"
    path.write_text(json.dumps(sample()))
    status, out, err = run("import_club", str(path))
    assert (status, err) == (0, "")
    assert "New club: Crown & Anchor Solo School (/c/crown2/)" in out
    assert "Nights: 2, tables: 2, hands: 5, score lines: 20" in out
    status, out, _ = run("import_club", str(path), "--slug", "crown3")
    assert status == 0
    assert Club.objects.filter(slug__in=["crown2", "crown3"]).count() == 2


def test_import_dry_run_writes_nothing(tmp_path):
    path = tmp_path / "winter.json"
    path.write_text(json.dumps(sample()))
    before = counts()
    status, out, _ = run("import_club", str(path), "--dry-run")
    assert status == 0 and out.startswith(f"Would import {path}:")
    assert counts() == before


def test_import_into_an_existing_club(club, tmp_path):
    path = tmp_path / "winter.json"
    path.write_text(json.dumps(sample()))
    status, out, _ = run("import_club", str(path), "--into", "crown")
    assert status == 0 and "Club: Crown & Anchor Solo School (/c/crown/)" in out
    assert Night.objects.filter(season__club=club).count() == 2
    before = counts()
    status, out, err = run("import_club", str(path), "--into", "crown")
    assert status == 1 and out == ""
    assert f"Refused {path}: 2 problem(s); nothing was written." in err
    assert "night 2026-11-27: the club already has this night in Winter 2026" in err
    assert counts() == before


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not json", "not valid JSON (line 1, column 1: Expecting value)"),
        (b'{"format": "solo-whist-club", "version": 7}', "this app reads versions 1, 2 and 3"),
    ],
)
def test_import_errors_go_to_standard_error_with_status_1(tmp_path, content, message):
    path = tmp_path / "file.json"
    path.write_bytes(content)
    before = counts()
    status, out, err = run("import_club", str(path))
    assert status == 1 and out == "" and message in err
    assert counts() == before


def test_import_refuses_a_file_of_fifty_megabytes_unread(tmp_path):
    path = tmp_path / "huge.json"
    with path.open("wb") as f:
        f.truncate(MAX_BYTES)  # sparse: the size alone refuses it
    status, _, err = run("import_club", str(path))
    assert status == 1
    assert "The file is 50.0 MB: the limit is 50 MB." in err


def test_import_of_a_csv_needs_a_club(tmp_path, club):
    path = tmp_path / "sheets.csv"
    path.write_text("date,table,contract\n")
    status, _, err = run("import_club", str(path))
    assert status == 1 and "A paper-sheet CSV adds nights to a club: give --into SLUG" in err
    assert run("import_club", str(tmp_path / "missing.json"))[0] == 1


def test_backup_of_every_club_restores_every_figure(club, other_club, players, secretary, tmp_path):
    """The README's restore: export_club --all, a fresh database, import_club each file."""
    secretary.email = "sec@example.org"  # a member restores with their email
    secretary.save()
    rich_club(club, players, secretary)
    demo.seed(slug="demo", hands=250, today=dt.date(2026, 11, 20), with_users=False)
    clubs = {c.slug: figures(c) for c in Club.objects.all()}
    texts = {c.slug: export_text(c) for c in Club.objects.all()}
    assert len(clubs) == 3  # the rich club, an empty club and the demo club

    status, out, err = run("export_club", "--all", str(tmp_path / "backup"))
    assert status == 0
    files = sorted((tmp_path / "backup").glob("*.json"))
    assert [f.stem for f in files] == sorted(clubs)
    assert "Exported 3 club(s)" in err

    for c in list(Club.objects.all()):
        delete_club(c)
    assert not Hand.objects.exists()

    for path in files:
        assert run("import_club", str(path))[0] == 0
    for slug, before in clubs.items():
        restored = Club.objects.get(slug=slug)
        assert figures(restored) == before, slug
        assert without_moment(export_text(restored)) == without_moment(texts[slug])


def test_export_all_refuses_a_slug_too(tmp_path):
    with pytest.raises(CommandError, match="--all exports every whole club"):
        call_command("export_club", "crown", all=str(tmp_path))


def _with_lookalike_ann() -> dict:
    """The sample with Ann listed behind a zero-width space and seated in capitals."""
    document = sample()
    document["players"] = [
        {"name": "Ann\u200b Baxter" if p["name"] == "Ann Baxter" else p["name"]}
        for p in document["players"]
    ]
    document["nights"][0]["tables"][0]["seats"][0] = "ANN BAXTER"
    return document


def test_imported_names_are_stored_as_the_app_stores_names(tmp_path):
    """Files too: a name comes in normalised, with its uniqueness key."""
    from club.clubs.models import Player

    path = tmp_path / "winter.json"
    path.write_text(json.dumps(_with_lookalike_ann()))
    status, _, err = run("import_club", str(path))
    assert status == 0, err
    ann = Player.objects.get(club__slug="crown2", name_key="ann baxter")
    assert ann.name == "Ann Baxter"
    assert Hand.objects.filter(table__seats__player=ann).exists()


def test_import_into_a_club_matches_a_lookalike_name_to_its_player(club, tmp_path):
    from club.clubs.models import Player

    ann, _ = Player.objects.get_or_create(club=club, name="Ann Baxter")
    path = tmp_path / "winter.json"
    path.write_text(json.dumps(_with_lookalike_ann()))
    status, _, err = run("import_club", str(path), "--into", "crown")
    assert status == 0, err
    assert list(Player.objects.filter(club=club, name__icontains="baxter")) == [ann]
    assert Hand.objects.filter(table__night__season__club=club, table__seats__player=ann).exists()
