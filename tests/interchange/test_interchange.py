"""The club data file in the app: export, night export, import with preview and confirm, the CSV
template and the published schema; for every role."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from club.clubs.models import AuditEvent, Player, Season
from club.demo.services import demo
from club.interchange import MAX_BYTES, SCHEMA_PATHS
from club.interchange.models import StagedUpload
from club.interchange.services import csv_sheets, staging
from club.interchange.services.export import export_document
from club.play.models import Hand, Night
from tests.interchange.test_bad_input import counts, sample
from tests.kits.interchange_kit import check_schema

pytestmark = pytest.mark.django_db


def u(name: str, *args) -> str:
    return reverse(name, args=["crown", *args])


def client_for(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def upload(document, name: str = "club.json") -> SimpleUploadedFile:
    raw = document if isinstance(document, bytes) else json.dumps(document).encode()
    return SimpleUploadedFile(name, raw, content_type="application/json")


# Who may --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "status"),
    [("secretary", 200), ("scorer", 403), ("viewer", 403), ("outsider", 404), (None, 302)],
)
def test_only_the_secretary_exports_and_imports(request, night, who, status):
    user = request.getfixturevalue(who) if who else None
    client = client_for(user)
    before = counts()
    pages = [
        ("get", u("club_export")),
        ("get", u("night_export", night.pk)),
        ("get", u("club_import")),
        ("get", u("import_csv_template")),
        ("post", u("club_import")),
        ("post", u("club_import_confirm")),
    ]
    for method, url in pages:
        if method == "post":
            data = {"file": upload(sample())} if url.endswith("import/") else {"token": "x"}
            response = client.post(url, data)
            if who == "secretary":
                continue  # the secretary's posts are tested below
        else:
            response = client.get(url)
        assert response.status_code == status, url
        if status == 302:
            assert response["Location"].startswith("/accounts/login/")
        if status == 200:
            assert b"solo-whist-club" in response.content or b"date,title" in response.content
    assert counts() == before


def test_another_clubs_night_is_not_found(outsider, night):
    client = client_for(outsider)
    response = client.get(reverse("night_export", args=["redlion", night.pk]))
    assert response.status_code == 404


def test_the_setup_page_and_night_page_link_to_export_and_import(secretary, viewer, night):
    body = client_for(secretary).get(u("club_setup")).content.decode()
    assert u("club_export") in body and u("club_import") in body
    night_page = client_for(secretary).get(u("night_detail", night.pk)).content.decode()
    assert u("night_export", night.pk) in night_page
    assert "Export this night" in night_page
    assert (
        u("night_export", night.pk)
        not in client_for(viewer).get(u("night_detail", night.pk)).content.decode()
    )


# Export ---------------------------------------------------------------------------------------


def test_export_downloads_the_whole_club(secretary, night, table4):
    from tests.kits.interchange_kit import play

    play(table4, secretary, [{"contract": "solo", "declarer": "Bob", "tricks": 6}])
    response = client_for(secretary).get(u("club_export"))
    assert response["Content-Type"] == "application/json"
    today = night.season.club.today().isoformat()
    assert response["Content-Disposition"] == f'attachment; filename="crown-{today}.json"'
    document = json.loads(response.content)
    check_schema(document)
    expected = export_document(night.season.club)
    document.pop("exported_at"), expected.pop("exported_at")
    assert document == expected
    assert document["nights"][0]["tables"][0]["hands"][0]["amounts"] == {
        "Ann": -7, "Bob": 21, "Cat": -7, "Dan": -7
    }  # fmt: skip


def test_export_to_share_leaves_out_emails_and_the_audit_trail(secretary, night, players):
    secretary.email = "sec@example.org"
    secretary.save()
    players[0].email = "ann@example.org"
    players[0].save()
    client = client_for(secretary)
    setup = client.get(u("club_setup")).content.decode()
    assert f'href="{u("club_export")}?kind=shareable"' in setup
    backup = json.loads(client.get(u("club_export")).content)
    response = client.get(u("club_export") + "?kind=shareable")
    today = dt.date.today().isoformat()
    assert response["Content-Disposition"] == f'attachment; filename="crown-{today}-shareable.json"'
    shared = json.loads(response.content)
    check_schema(shared)
    assert (backup["kind"], shared["kind"]) == ("backup", "shareable")
    assert "ann@example.org" in json.dumps(backup) and "sec@example.org" in json.dumps(backup)
    assert "@example.org" not in json.dumps(shared)
    assert "audit" in backup and "audit" not in shared
    assert shared["nights"] == [
        {**n, "closed_by": None} for n in backup["nights"]
    ]  # the same nights, naming no account


def test_night_export_holds_that_night_only(secretary, season, players, night):
    from club.play.services.night_setup import create_night

    create_night(season, dt.date(2026, 11, 27), [(players[:4], 0)], title="Cup")
    response = client_for(secretary).get(u("night_export", night.pk))
    assert response["Content-Disposition"] == 'attachment; filename="crown-2026-11-20.json"'
    document = json.loads(response.content)
    check_schema(document)
    assert [(n["date"], n["title"]) for n in document["nights"]] == [("2026-11-20", "")]


def test_export_runs_a_fixed_number_of_queries(secretary, django_assert_max_num_queries):
    """The same queries for a club of 40 hands and one of 400."""
    from club.clubs.models import Membership, Role

    used = []
    for slug, hands in (("small", 40), ("large", 400)):
        club = demo.seed(slug=slug, hands=hands, with_users=False).club
        Membership.objects.create(user=secretary, club=club, role=Role.SECRETARY)
        client = client_for(secretary)
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as queries:
            response = client.get(reverse("club_export", args=[slug]))
        assert len(json.loads(response.content)["nights"]) >= 1
        used.append(len(queries))
    assert used[0] == used[1]
    with django_assert_max_num_queries(used[1]):
        client.get(reverse("club_export", args=["large"]))


# Import ---------------------------------------------------------------------------------------


def test_import_previews_then_writes_on_confirm(secretary, club):
    client = client_for(secretary)
    before = counts()
    response = client.post(u("club_import"), {"file": upload(sample(), "winter.json")})
    assert response.status_code == 200
    body = response.content.decode()
    summary = response.context["summary"]
    assert summary.seasons_added == ["Winter 2026"]
    assert summary.rule_sets_added == ["Six, twelve and eighteen"]
    assert summary.players_added == [
        "Ann Baxter", "Bob Mortimer", "Cat O'Neill", "Dan Whitaker", "Eve Lambert"
    ]  # fmt: skip
    assert (summary.tables, summary.hands, len(summary.nights)) == (2, 5, 2)
    assert "Preview: winter.json" in body and "Import 5 hands" in body
    assert counts() == before  # a preview writes nothing
    assert StagedUpload.objects.count() == 1  # in the database: any web node can confirm it
    token = response.context["confirm"].initial["token"]

    response = client.post(u("club_import_confirm"), {"token": token}, follow=True)
    assert "Imported winter.json: 2 nights, 2 tables, 5 hands; 5 players added." in (
        response.content.decode()
    )
    assert Night.objects.filter(season__club=club).count() == 2
    assert Hand.objects.filter(table__night__season__club=club, entered_by=secretary).count() == 5
    event = AuditEvent.objects.get(club=club, night=None)
    assert event.user == secretary and event.after["file"] == "winter.json"
    assert not StagedUpload.objects.exists()  # the upload is gone once imported
    # The same token again: the file is gone, nothing more is written.
    after = counts()
    response = client.post(u("club_import_confirm"), {"token": token}, follow=True)
    assert "The uploaded file is no longer here" in response.content.decode()
    assert counts() == after


def test_import_preview_lists_every_problem_and_writes_nothing(secretary, club):
    document = sample()
    document["nights"][0]["tables"][0]["hands"][0]["tricks"] = 14
    document["nights"][1]["tables"][0]["hands"][1]["declarer"] = "Eve Lambert"
    before = counts()
    response = client_for(secretary).post(u("club_import"), {"file": upload(document)})
    body = response.content.decode()
    assert "club.json cannot be imported" in body
    assert "Nothing was written" in body
    assert "<strong>night 2026-11-20, table 1, hand 1</strong>: &#x27;tricks&#x27; is 14" in body
    assert "<strong>night 2026-11-27, table 1, hand 2</strong>: &#x27;declarer&#x27;" in body
    assert "confirm" not in response.context
    assert counts() == before
    assert not StagedUpload.objects.exists()


def test_import_refuses_a_file_over_the_limit_before_reading_it(secretary, club):
    big = SimpleUploadedFile("big.json", b" " * MAX_BYTES, content_type="application/json")
    before = counts()
    response = client_for(secretary).post(u("club_import"), {"file": big})
    assert response.context["form"].errors == {
        "file": [
            "The file is 50.0 MB: the limit is 50 MB. Export one season at a time and import each."
        ]
    }
    assert counts() == before


def test_a_tampered_or_foreign_token_is_refused(secretary, outsider, club, other_club):
    client = client_for(secretary)
    response = client.post(u("club_import"), {"file": upload(sample())})
    token = response.context["confirm"].initial["token"]
    before = counts()
    forged = token[:-3] + ("AAA" if token[-3:] != "AAA" else "BBB")
    response = client.post(u("club_import_confirm"), {"token": forged}, follow=True)
    assert "This upload is not valid: upload the file again." in response.content.decode()
    # Another club's secretary cannot use it in their club either.
    from club.clubs.models import Membership, Role

    Membership.objects.create(user=outsider, club=club, role=Role.VIEWER)
    response = client_for(outsider).post(
        reverse("club_import_confirm", args=["redlion"]), {"token": token}, follow=True
    )
    assert "This upload belongs to someone else" in response.content.decode()
    assert counts() == before


def test_a_staged_file_changed_in_store_is_refused(secretary, club):
    client = client_for(secretary)
    response = client.post(u("club_import"), {"file": upload(sample())})
    token = response.context["confirm"].initial["token"]
    (kept,) = StagedUpload.objects.all()
    kept.raw = bytes(kept.raw).replace(b'"tricks": 5', b'"tricks": 6')
    kept.save()
    before = counts()
    response = client.post(u("club_import_confirm"), {"token": token}, follow=True)
    assert "has changed since the preview" in response.content.decode()
    assert counts() == before


def test_confirm_after_the_night_was_entered_meanwhile_writes_nothing(secretary, club):
    client = client_for(secretary)
    laid_out = json.dumps(sample(), indent=1).encode()
    response = client.post(u("club_import"), {"file": upload(laid_out)})
    token = response.context["confirm"].initial["token"]
    # Meanwhile the same nights arrive by another way (a second tab, the file saved again).
    second = client.post(u("club_import"), {"file": upload(sample())})
    client.post(u("club_import_confirm"), {"token": second.context["confirm"].initial["token"]})
    before = counts()
    response = client.post(u("club_import_confirm"), {"token": token})
    assert "the club already has this night" in response.content.decode()
    assert counts() == before


def test_old_uploads_are_pruned():
    token = staging.stage(b"{}", club_id=1, user_id=1, kind="json", name="x.json")
    assert staging.load(token, club_id=1, user_id=1).raw == b"{}"
    staging.prune(now=__import__("time").time() + staging.KEEP - 10)
    assert StagedUpload.objects.count() == 1  # not a day old yet
    staging.prune(now=__import__("time").time() + staging.KEEP + 10)
    assert not StagedUpload.objects.exists()


def test_the_same_file_previewed_twice_is_kept_once_and_confirms_either_way(secretary, club):
    first = staging.stage(b'{"a": 1}', club_id=club.pk, user_id=secretary.pk, kind="json", name="a")
    second = staging.stage(
        b'{"a": 1}', club_id=club.pk, user_id=secretary.pk, kind="json", name="b"
    )
    assert StagedUpload.objects.count() == 1
    assert staging.load(first, club_id=club.pk, user_id=secretary.pk).name == "a"
    assert staging.load(second, club_id=club.pk, user_id=secretary.pk).raw == b'{"a": 1}'


# Paper sheets and the schema -------------------------------------------------------------------


def test_csv_template_downloads_and_imports(secretary, club, hoyle):
    client = client_for(secretary)
    response = client.get(u("import_csv_template"))
    assert response["Content-Type"] == "text/csv"
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert tuple(rows[0]) == csv_sheets.COLUMNS
    Season.objects.create(
        club=club, name="Winter 2026", start=dt.date(2026, 9, 1), end=dt.date(2027, 3, 31),
        rule_set=hoyle,
    )  # fmt: skip
    sheet = SimpleUploadedFile("sheets.csv", response.content, content_type="text/csv")
    preview = client.post(u("club_import"), {"file": sheet})
    assert preview.context["summary"].hands == 4
    token = preview.context["confirm"].initial["token"]
    client.post(u("club_import_confirm"), {"token": token})
    assert Hand.objects.filter(table__night__season__club=club).count() == 4
    assert set(Player.objects.filter(club=club).values_list("name", flat=True)) == {
        "Ann Baxter", "Bob Mortimer", "Cat O'Neill", "Dan Whitaker"
    }  # fmt: skip


@pytest.mark.parametrize("version", [1, 2])
def test_the_schema_of_each_version_is_published_for_anyone(client, version):
    response = client.get(f"/schema/solo-whist-club-v{version}.json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/schema+json"
    body = json.loads(b"".join(response.streaming_content))
    assert body == json.loads(SCHEMA_PATHS[version].read_text())
    assert body["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert body["properties"]["version"] == {"const": version}
