"""Players in bulk: pasted lines and CSV files read (club/clubs/services/player_lines.py), the
preview of what they change, the confirm that saves exactly that once, and who sees addresses."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from club.clubs.models import AuditEvent, Club, Player
from club.clubs.services import player_lines
from club.clubs.services.player_lines import Entry, Kind, LinesError, read_csv, read_paste


def u(name: str, *args) -> str:
    return reverse(name, args=["crown", *args])


@pytest.fixture
def sec_client(client, secretary):
    client.force_login(secretary)
    return client


# Reading pasted lines ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line,name,email",
    [
        ("Ann Baxter, ann@example.org", "Ann Baxter", "ann@example.org"),
        ("Ann Baxter <ann@example.org>", "Ann Baxter", "ann@example.org"),
        ('"Ann Baxter" <ann@example.org>', "Ann Baxter", "ann@example.org"),
        ("Ann Baxter", "Ann Baxter", ""),
        ("  Ann   Baxter  ", "Ann Baxter", ""),
        ("Ann Baxter\tann@example.org", "Ann Baxter", "ann@example.org"),  # from a spreadsheet
        ("Ann\tBaxter\tann@example.org", "Ann Baxter", "ann@example.org"),
        # The rule: the last field is an address only if it holds an @.
        ("Baxter, Ann", "Baxter, Ann", ""),
        ("Baxter, Ann, ann@example.org", "Baxter, Ann", "ann@example.org"),
        ("• Ann Baxter", "Ann Baxter", ""),  # a bullet list
        ("- Ann Baxter, ann@example.org", "Ann Baxter", "ann@example.org"),
        ("Ann Baxter,", "Ann Baxter", ""),
        ("Zoe\u0308 Quinn, zoe@example.org", "Zoë Quinn", "zoe@example.org"),
    ],
)
def test_a_pasted_line_reads_as_a_name_and_an_address(line, name, email):
    assert read_paste(line) == [Entry(1, name, email)]


def test_blank_lines_and_a_header_are_skipped_and_lines_keep_their_numbers():
    text = "name, email\n\nAnn, ann@example.org\n\n   \nBob\n"
    assert read_paste(text) == [Entry(3, "Ann", "ann@example.org"), Entry(6, "Bob", "")]


@pytest.mark.parametrize(
    "text,problem",
    [
        ("Ann\nBob\nann", "Line 3: ann is on line 1 already."),
        ("Ann Baxter\nANN\u200b BAXTER, a@example.org", "Line 2: ANN BAXTER is on line 1 already."),
        ("Ann, ann@example", "Line 1: ann@example is not an email address."),
        ("Ann <ann.example.org>", "Line 1: ann.example.org is not an email address."),
        ("Ann, ann@@example.org", "Line 1: ann@@example.org is not an email address."),
        ("Bob\nann@example.org, Ann", "Line 2: ann@example.org, Ann is not a name"),
        ("<ann@example.org>", "Line 1: an address with no name"),
        ("Ann <ann@example.org", "Line 1: Ann <ann@example.org is not a name"),
        ("A" * 61, "Line 1: " + "A" * 30 + "... is 61 characters long: a name has at most 60"),
        ("\n \n", "Give at least one name, one a line."),
    ],
)
def test_lines_that_cannot_be_players_are_named_by_number(text, problem):
    with pytest.raises(LinesError) as refused:
        read_paste(text)
    assert any(p.startswith(problem) for p in refused.value.problems), refused.value.problems


def test_every_bad_line_is_named_at_once():
    with pytest.raises(LinesError) as refused:
        read_paste("Ann, a@x\nBob\nbob\nCat, cat@example.org\nDan, dan@")
    assert [p.split(":")[0] for p in refused.value.problems] == ["Line 1", "Line 3", "Line 5"]


def test_a_name_of_sixty_characters_is_fine():
    assert read_paste("A" * 60)[0].name == "A" * 60


def test_too_many_lines_are_refused():
    with pytest.raises(LinesError, match="At most 2,000 lines"):
        read_paste("\n".join(f"Player {n}" for n in range(2001)))


# Reading CSV files ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data",
    [
        b"name,email\r\nAnn Baxter,ann@example.org\r\nBob Cole,\r\n",
        b"Ann Baxter,ann@example.org\nBob Cole\n",  # no header
        b"\xef\xbb\xbfName,Email\nAnn Baxter,ann@example.org\nBob Cole,\n",  # Excel's UTF-8 BOM
        b"name;email\nAnn Baxter;ann@example.org\nBob Cole;\n",  # Excel in some countries
        "name,email\nAnn Baxter,ann@example.org\nBob Cole,\n".encode("utf-16"),
    ],
)
def test_a_csv_file_of_names_and_addresses(data):
    entries = read_csv(data)
    assert [(e.name, e.email) for e in entries] == [
        ("Ann Baxter", "ann@example.org"),
        ("Bob Cole", ""),
    ]


def test_a_latin1_file_and_a_quoted_name_with_a_comma():
    data = 'name,email\n"Baxter, Zoë",zoe@example.org\n'.encode("latin-1")
    assert read_csv(data) == [Entry(2, "Baxter, Zoë", "zoe@example.org")]


@pytest.mark.parametrize(
    "data,problem",
    [
        (b"x" * 1_000_001, "The file is 1,000,001 bytes: at most 1 MB"),
        (b"\x00\x01\x02\xff" * 10, "The file is not text"),
        (b"Ann,ann@example.org,extra\n", "Line 1: 3 columns; the file should have two"),
        (b"name,email\nAnn,not-an-address\n", "Line 2: not-an-address is not an email address."),
        (b"name,email\nAnn,a@example.org\nann,b@example.org\n", "Line 3: ann is on line 2"),
        ("\n".join(["Ann"] * 2001).encode(), "At most 2,000 lines"),
        (b'name,email\n"Ann,a@example.org\n', "Line 2: the file cannot be read as CSV"),
    ],
)
def test_a_csv_file_refused_says_why(data, problem):
    with pytest.raises(LinesError) as refused:
        read_csv(data)
    assert any(p.startswith(problem) for p in refused.value.problems), refused.value.problems


def test_an_entry_written_back_reads_as_itself():
    entries = read_csv(b'"Baxter, Ann",ann@example.org\nBob\n"Cole, Bob",\n')
    again = read_paste(player_lines.as_text(entries))
    assert [(e.name, e.email) for e in again] == [(e.name, e.email) for e in entries]


# The plan ---------------------------------------------------------------------------------------


def test_the_plan_names_what_each_line_does(club, django_user_model, django_assert_num_queries):
    Player.objects.create(club=club, name="Ann Baxter")
    Player.objects.create(club=club, name="Bob Cole", email="bob@old.example.org")
    Player.objects.create(club=club, name="Cat Dunn", email="cat@example.org", active=False)
    claimed = django_user_model.objects.create_user("dan", "dan@own.example.org")
    Player.objects.create(club=club, name="Dan Ellis", email="dan@own.example.org", user=claimed)
    entries = read_paste(
        "ann baxter, ann@example.org\nBob Cole <bob@new.example.org>\nCAT DUNN, Cat@Example.org\n"
        "Dan Ellis, dan@pasted.example.org\nEve Ford\n"
    )
    with django_assert_num_queries(1):
        plan = player_lines.plan(club, entries)
    assert [(s.entry.name, s.kind, s.back) for s in plan.steps] == [
        ("ann baxter", Kind.ADDED, False),
        ("Bob Cole", Kind.CHANGED, False),
        ("CAT DUNN", Kind.UNCHANGED, True),  # the same address, whatever its case; brought back
        ("Dan Ellis", Kind.KEPT, False),
        ("Eve Ford", Kind.NEW, False),
    ]
    assert plan.steps[0].name == "Ann Baxter"  # as the club has it, not as pasted
    assert plan.summary() == (
        "1 new player, 1 address added, 1 address changed, 1 brought back from inactive"
    )
    assert plan.notes == [
        "Line 4: Dan Ellis has claimed their entry and keeps the address they gave; the pasted "
        "one is left."
    ]


# The pages --------------------------------------------------------------------------------------


def preview(client, text="", upload=None):
    data = {"lines": text}
    if upload is not None:
        data["file"] = upload
    response = client.post(u("player_lines"), data)
    assert response.status_code == 200, response.content.decode()
    return response


def digest_of(response) -> str:
    found = re.search(r'name="digest" value="([0-9a-f]+)"', response.content.decode())
    assert found
    return found[1]


def confirm(client, text, digest):
    return client.post(u("player_lines"), {"lines": text, "digest": digest, "confirm": "1"})


def test_paste_previews_then_saves_once_with_an_audit_event(sec_client, club, secretary):
    Player.objects.create(club=club, name="Ann Baxter")
    Player.objects.create(club=club, name="Bob Cole", email="bob@old.example.org")
    text = (
        "Ann Baxter, ann@example.org\nBob Cole, bob@new.example.org\nCat Dunn\nDan Ellis, d@e.org"
    )
    shown = preview(sec_client, text)
    body = shown.content.decode()
    assert "Before saving: 2 new players, 1 address added, 1 address changed" in body
    assert "bob@old.example.org → bob@new.example.org" in body
    assert club.players.count() == 2  # nothing saved by the preview
    assert not AuditEvent.objects.exists()

    saved = confirm(sec_client, text, digest_of(shown))
    assert saved.status_code == 302 and saved["Location"] == u("player_list")
    players = {p.name: p.email for p in club.players.all()}
    assert players == {
        "Ann Baxter": "ann@example.org",
        "Bob Cole": "bob@new.example.org",
        "Cat Dunn": "",
        "Dan Ellis": "d@e.org",
    }
    (event,) = AuditEvent.objects.filter(club=club)
    assert event.user == secretary
    assert event.subject == (
        "Players added in bulk: 2 new players, 1 address added, 1 address changed"
    )
    assert event.after["new"] == "Cat Dunn; Dan Ellis"
    assert event.after["address changed"] == "Bob Cole"
    assert event.after["digest"] == digest_of(shown)


def test_a_resend_or_a_second_tab_adds_nothing_twice(client, club, secretary):
    text = "Ann Baxter, ann@example.org\nBob Cole"
    tabs = [Client(), Client()]
    for tab in tabs:
        tab.force_login(secretary)
    digests = [digest_of(preview(tab, text)) for tab in tabs]
    assert digests[0] == digests[1]  # the same lines, the same digest
    first = confirm(tabs[0], text, digests[0])
    assert first.status_code == 302
    again = confirm(tabs[0], text, digests[0])  # the resend
    second = tabs[1].post(
        u("player_lines"), {"lines": text, "digest": digests[1], "confirm": "1"}, follow=True
    )
    assert again.status_code == 302
    assert "These lines were saved already" in second.content.decode()
    assert "nothing was added twice" in second.content.decode()
    assert sorted(club.players.values_list("name", flat=True)) == ["Ann Baxter", "Bob Cole"]
    assert AuditEvent.objects.filter(club=club).count() == 1


def test_a_confirm_of_other_lines_than_previewed_only_previews_them(sec_client, club):
    shown = preview(sec_client, "Ann Baxter")
    edited = confirm(sec_client, "Ann Baxter\nBob Cole", digest_of(shown))
    assert edited.status_code == 200
    body = edited.content.decode()
    assert "The lines changed since the preview" in body
    assert "Before saving: 2 new players" in body
    forged = confirm(sec_client, "Ann Baxter", "0" * 64)
    assert forged.status_code == 200 and "Before saving" in forged.content.decode()
    assert not club.players.exists()


def test_another_clubs_digest_is_not_this_clubs(sec_client, club, other_club):
    entries = read_paste("Ann Baxter")
    assert player_lines.digest(club, entries) != player_lines.digest(other_club, entries)
    confirm(sec_client, "Ann Baxter", player_lines.digest(other_club, entries))
    assert not club.players.exists()


def test_bad_lines_are_named_and_nothing_is_saved(sec_client, club):
    response = sec_client.post(
        u("player_lines"), {"lines": "Ann, ann@example\nBob\nbob", "confirm": "1"}
    )
    assert response.status_code == 422
    body = response.content.decode()
    assert "Line 1: ann@example is not an email address." in body
    assert "Line 3: bob is on line 2 already." in body
    assert not club.players.exists()


def test_a_claimed_player_keeps_their_address_and_the_page_says_so_by_line(
    sec_client, club, django_user_model
):
    own = django_user_model.objects.create_user("ann", "ann@own.example.org")
    Player.objects.create(club=club, name="Ann Baxter", email="ann@own.example.org", user=own)
    text = "Bob Cole\nAnn Baxter, ann@pasted.example.org"
    shown = preview(sec_client, text)
    note = "Line 2: Ann Baxter has claimed their entry and keeps the address they gave"
    assert note in shown.content.decode()
    saved = sec_client.post(
        u("player_lines"),
        {"lines": text, "digest": digest_of(shown), "confirm": "1"},
        follow=True,
    )
    assert note in saved.content.decode()
    assert club.players.get(name="Ann Baxter").email == "ann@own.example.org"
    assert club.players.filter(name="Bob Cole").exists()


def test_a_csv_file_is_previewed_as_lines_and_saved(sec_client, club):
    upload = SimpleUploadedFile(
        "players.csv", b'name,email\n"Baxter, Ann",ann@example.org\nBob Cole,\n', "text/csv"
    )
    shown = preview(sec_client, upload=upload)
    text = shown.context["form"]["lines"].value()
    assert text == "Baxter, Ann, ann@example.org\nBob Cole"
    saved = confirm(sec_client, text, digest_of(shown))
    assert saved.status_code == 302
    assert dict(club.players.values_list("name", "email")) == {
        "Baxter, Ann": "ann@example.org",
        "Bob Cole": "",
    }


def test_a_file_and_pasted_lines_together_are_refused(sec_client, club):
    upload = SimpleUploadedFile("players.csv", b"Bob\n", "text/csv")
    response = sec_client.post(u("player_lines"), {"lines": "Ann", "file": upload})
    assert response.status_code == 422
    assert "Paste the lines or choose a file, not both." in response.content.decode()


def test_a_big_file_is_refused_with_its_size(sec_client, club):
    upload = SimpleUploadedFile("players.csv", b"Ann\n" * 300_000, "text/csv")
    response = sec_client.post(u("player_lines"), {"file": upload})
    assert response.status_code == 422
    assert "The file is 1,200,000 bytes: at most 1 MB" in response.content.decode()


def test_an_inactive_player_pasted_comes_back(sec_client, club):
    Player.objects.create(club=club, name="Ann Baxter", active=False)
    shown = preview(sec_client, "Ann Baxter")
    assert "brought back from inactive" in shown.content.decode()
    confirm(sec_client, "Ann Baxter", digest_of(shown))
    assert club.players.get().active


@pytest.mark.parametrize("who,status", [("scorer", 403), ("viewer", 403), ("outsider", 404)])
def test_only_the_secretary_adds_players_in_bulk(client, club, who, status, request):
    client.force_login(request.getfixturevalue(who))
    assert client.get(u("player_lines")).status_code == status
    entries = read_paste("Ann Baxter")
    response = client.post(
        u("player_lines"),
        {"lines": "Ann Baxter", "digest": player_lines.digest(club, entries), "confirm": "1"},
    )
    assert response.status_code == status
    assert not club.players.exists()


def test_an_anonymous_visitor_is_asked_to_log_in(client, club):
    response = client.post(u("player_lines"), {"lines": "Ann Baxter"})
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert not club.players.exists()


# Who sees addresses -----------------------------------------------------------------------------


@pytest.fixture
def addressed(club):
    Club.objects.filter(pk=club.pk).update(is_public=True)
    return [
        Player.objects.create(club=club, name="Ann Baxter", email="ann@example.org"),
        Player.objects.create(club=club, name="Bob Cole"),
    ]


def test_the_secretary_sees_each_players_address_or_no_address(sec_client, addressed):
    body = sec_client.get(u("player_list")).content.decode()
    assert "ann@example.org" in body
    assert re.search(r"Bob Cole</a></td>\s*<td[^>]*><span[^>]*>no address", body)
    assert u("player_lines") in body  # the bulk form


@pytest.mark.parametrize("who", ["scorer", "viewer", "outsider", "anonymous"])
def test_no_one_else_sees_an_address(client, addressed, who, request):
    if who != "anonymous":
        client.force_login(request.getfixturevalue(who))
    response = client.get(u("player_list"))
    assert response.status_code == 200  # a public club: anyone reads its players
    body = response.content.decode()
    assert "Ann Baxter" in body
    assert "ann@example.org" not in body
    assert "no address" not in body
    assert u("player_lines") not in body


@pytest.mark.parametrize("count", [2, 40])
def test_the_players_page_asks_a_fixed_number_of_queries(
    sec_client, club, count, django_assert_max_num_queries, django_user_model
):
    own = django_user_model.objects.create_user("own", "own@example.org")
    for n in range(count):
        Player.objects.create(
            club=club,
            name=f"Player {n}",
            email=f"p{n}@example.org" if n % 2 else "",
            user=own if n == 0 else None,
        )
    with django_assert_max_num_queries(5):  # session, user, club, membership, players
        response = sec_client.get(u("player_list"))
    assert response.content.decode().count("@example.org") == count // 2
