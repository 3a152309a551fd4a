"""The first-night page takes members with their addresses ("Name, email", "Name <email>" or a
name alone, pasted or in a CSV file), shows them before saving, and saves them with the night
once."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from club.clubs.models import AuditEvent, Player, Season
from club.play.models import Arrival, Night

LINES = (
    "Ann Baxter, ann@example.org\n"
    "Bob Cole <bob@example.org>\n"
    "Baxter, Cat\n"  # no @ in the last part: one name
    "Dan Ellis\tdan@example.org\n"  # from a spreadsheet
)


@pytest.fixture
def sec(client, secretary):
    client.force_login(secretary)
    return client


def url(club) -> str:
    return reverse("club_first_run", args=[club.slug])


def form_data(names=LINES, **more):
    return {
        "names": names,
        "rule_set": "preset:hoyle",
        "season": "Winter 2026",
        "all_here": "on",
        **more,
    }


def test_members_with_addresses_are_previewed_then_saved_with_the_night(sec, club, secretary):
    preview = sec.post(url(club), form_data())
    assert preview.status_code == 200
    body = preview.content.decode()
    assert "Before saving: 4 new players" in body
    assert "ann@example.org" in body and "Baxter, Cat" in body
    assert "Save the members and start tonight" in body
    assert not Player.objects.exists() and not Night.objects.exists()

    digest = preview.context["form"]["digest"].value()
    done = sec.post(url(club), form_data(digest=digest, confirm="1"))
    assert done.status_code == 302 and done["Location"] == reverse("draw", args=[club.slug])
    assert dict(club.players.values_list("name", "email")) == {
        "Ann Baxter": "ann@example.org",
        "Bob Cole": "bob@example.org",
        "Baxter, Cat": "",
        "Dan Ellis": "dan@example.org",
    }
    night = Night.objects.get()
    assert Arrival.objects.filter(club=club, date=night.date).count() == 4
    event = AuditEvent.objects.get(club=club, subject__startswith="Players added in bulk")
    assert (event.user, event.after["digest"]) == (secretary, digest)


def test_a_resent_confirm_adds_no_one_twice(sec, club):
    digest = sec.post(url(club), form_data()).context["form"]["digest"].value()
    assert sec.post(url(club), form_data(digest=digest, confirm="1")).status_code == 302
    again = sec.post(url(club), form_data(digest=digest, confirm="1"))
    assert again.status_code == 422
    assert "has a season called Winter 2026 already" in again.content.decode()
    assert club.players.count() == 4
    assert (Night.objects.count(), Season.objects.count()) == (1, 1)


def test_members_changed_after_the_preview_are_previewed_again(sec, club):
    digest = sec.post(url(club), form_data()).context["form"]["digest"].value()
    changed = sec.post(url(club), form_data(LINES + "Eve Ford\n", digest=digest, confirm="1"))
    assert changed.status_code == 200
    body = changed.content.decode()
    assert "The members changed since the preview" in body
    assert "Before saving: 5 new players" in body
    assert not Player.objects.exists() and not Night.objects.exists()


@pytest.mark.parametrize(
    "names,problem",
    [
        ("Ann\nBob\nann, ann@example.org", "Line 3: ann is on line 1 already."),
        ("Ann, ann@example\nBob", "Line 1: ann@example is not an email address."),
        ("Ann\n" + "B" * 61, "Line 2: BBBBBBBBBBBBBBBBBBBBBBBBBBBBBB... is 61 characters long"),
        ("\n".join(f"P{n}" for n in range(41)), "At most 40 players at a time (these are 41)"),
    ],
)
def test_lines_refused_are_named_and_nothing_is_saved(sec, club, names, problem):
    response = sec.post(url(club), form_data(names, confirm="1"))
    assert response.status_code == 422
    assert problem in response.content.decode()
    assert not Player.objects.exists() and not Night.objects.exists()


def test_a_csv_file_of_members(sec, club):
    upload = SimpleUploadedFile(
        "members.csv", "name,email\r\nZoë Quinn,zoe@example.org\r\n".encode("latin-1")
    )
    preview = sec.post(url(club), form_data("", file=upload))
    form = preview.context["form"]
    assert form["names"].value() == "Zoë Quinn, zoe@example.org"
    done = sec.post(
        url(club), form_data(form["names"].value(), digest=form["digest"].value(), confirm="1")
    )
    assert done.status_code == 302
    assert club.players.get().email == "zoe@example.org"
