"""The league file: a league's whole record, exported by its organiser and imported on a server
that has its clubs. A league exported, deleted and imported again exports as the same file; the
file's schema and its reader refuse what docs/data-file.md forbids, naming where; the import
refuses clubs and players this server does not have, naming them, and writes nothing."""

from __future__ import annotations

import copy
import datetime as dt
import json
from typing import Any

import jsonschema
import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from club.clubs.models import AuditEvent, Club, Membership, Player, Role
from club.clubs.services import clubs_lifecycle
from club.interchange import LEAGUE_SCHEMA_PATH
from club.interchange.format import league_read
from club.interchange.format.reading import ImportRefused
from club.interchange.services.league_export import export_league
from club.interchange.services.league_import import import_league
from club.leagues.models import (
    Fixture,
    League,
    LeagueClub,
    LeaguePerson,
    MatchCard,
    Registration,
    Transfer,
)
from club.leagues.models.leagues import TIE_BREAKS
from club.leagues.services.leagues import NewLeague, create_league
from club.play.models import Hand
from club.play.services.hand_entry import HandEntry
from club.play.services.hands import record_hand
from club.play.services.night_setup import create_night
from tests.leagues.conftest import make_club

NOW = dt.datetime(2027, 3, 1, 12, tzinfo=dt.UTC)


def at(day: int) -> dt.datetime:
    return dt.datetime(2027, 1, day, 19, 30, 15, 123456, tzinfo=dt.UTC)


@pytest.fixture
def organiser(db) -> User:
    return User.objects.create_user("organiser", "org@example.com", "pw-organiser-1")


@pytest.fixture
def full_league(organiser) -> League:
    """A league with three clubs (one still invited), five people (one transferred, one a
    claimed player), a played fixture settled by the organiser with its match night and hands, a
    forfeit, a disputed card and a fixture not yet played."""
    league = create_league(
        NewLeague(
            name="Granite City Whist League",
            season_start=dt.date(2027, 1, 8),
            season_end=dt.date(2027, 6, 25),
            players_a_side=2,
            deals_a_match=2,
            tie_breaks=["won", "head_to_head"],
            is_public=True,
        ),
        organiser,
    )
    clubs = [make_club(name) for name in ("Aberdeen", "Bucksburn", "Cults")]
    claimer = User.objects.create_user("ann", "ann@example.org", "pw-ann-1")
    Player.objects.filter(club=clubs[0], name="Aberdeen player 1").update(user=claimer)
    a, b, c = (
        LeagueClub.objects.create(
            league=league,
            club=club,
            status=status,
            answered_at=None if status == "invited" else at(2),
        )
        for club, status in zip(clubs, ("accepted", "accepted", "invited"), strict=True)
    )
    host = league.host_club
    people = []
    for n, (entry, player_name) in enumerate(
        [
            (a, "Aberdeen player 1"),
            (a, "Aberdeen player 2"),
            (b, "Bucksburn player 1"),
            (b, "Bucksburn player 2"),
            (a, "Aberdeen player 3"),
        ]
    ):
        seat = Player.objects.create(club=host, name=f"Person {n + 1}")
        person = LeaguePerson.objects.create(
            league=league,
            name=player_name.replace(" player", ""),
            seat=seat,
            user=claimer if n == 0 else None,
        )
        registration = Registration.objects.create(
            league=league,
            entry=entry,
            person=person,
            player=Player.objects.get(club=entry.club, name=player_name),
            ended_at=at(20) if n == 4 else None,
        )
        Registration.objects.filter(pk=registration.pk).update(registered_at=at(3 + n))
        people.append(person)
    moved = Registration.objects.create(
        league=league,
        entry=b,
        person=people[4],
        player=Player.objects.get(club=clubs[1], name="Bucksburn player 3"),
    )
    Registration.objects.filter(pk=moved.pk).update(registered_at=at(20))
    transfer = Transfer.objects.create(
        league=league, person=people[4], from_entry=a, to_entry=b, note="moved house"
    )
    Transfer.objects.filter(pk=transfer.pk).update(granted_at=at(20))

    season = host.seasons.get()
    seats = [p.seat for p in people[:4]]
    night = create_night(season, dt.date(2027, 1, 15), [(seats, 0)], title="Aberdeen v Bucksburn")
    table = night.tables.get()
    record_hand(
        table, HandEntry(dealer=seats[0], contract="solo", declarer=seats[1], tricks=6), None
    )
    record_hand(
        table, HandEntry(dealer=seats[1], contract="misere", declarer=seats[2], tricks=0), None
    )
    played = Fixture.objects.create(
        league=league, cycle=1, round=1, date=night.date, home=a, away=b, night=night
    )
    forfeit = Fixture.objects.create(
        league=league, cycle=1, round=2, date=dt.date(2027, 1, 22), home=b, away=a
    )
    disputed = Fixture.objects.create(
        league=league, cycle=1, round=3, date=dt.date(2027, 1, 29), home=a, away=c
    )
    Fixture.objects.create(
        league=league, cycle=2, round=1, date=dt.date(2027, 2, 5), home=c, away=a
    )
    cards = [
        MatchCard.objects.create(
            fixture=played,
            state="settled",
            home_score=-12,
            away_score=12,
            answered_at=at(16),
            dispute_note="table 1 hand 2 was a misère",
            settled_at=at(17),
            settled_by=league.organiser,
        ),
        MatchCard.objects.create(fixture=forfeit, state="forfeit", forfeited_by=b),
        MatchCard.objects.create(
            fixture=disputed, state="disputed", home_score=5, away_score=-5, dispute_note="no"
        ),
    ]
    for n, card in enumerate(cards):
        MatchCard.objects.filter(pk=card.pk).update(submitted_at=at(15 + n))
    return league


def delete_league(league: League) -> None:
    host = league.host_club
    league.delete()
    clubs_lifecycle.delete_club(host)


def without_moment(document: dict[str, Any]) -> dict[str, Any]:
    copied = copy.deepcopy(document)
    copied.pop("exported_at")
    return copied


def test_export_delete_import_export_gives_the_same_file(full_league, organiser):
    exported = export_league(full_league, now=NOW)
    # Plain JSON, and valid under the published schema.
    text = json.dumps(exported)
    jsonschema.validate(json.loads(text), json.loads(LEAGUE_SCHEMA_PATH.read_text()))
    assert [c["status"] for c in exported["clubs"]] == ["accepted", "accepted", "invited"]
    assert exported["transfers"] == [
        {
            "person": "Person 5",
            "from": "aberdeen",
            "to": "bucksburn",
            "at": "2027-01-20T19:30:15.123456Z",
            "note": "moved house",
        }
    ]
    settled = exported["fixtures"][0]
    assert settled["night"] == {"season": full_league.host_club.seasons.get().name,
                                "date": "2027-01-15", "title": "Aberdeen v Bucksburn"}  # fmt: skip
    assert settled["card"]["settled_by"] == "organiser"
    assert len(exported["host_club"]["nights"][0]["tables"][0]["hands"]) == 2
    assert "accounts" not in exported["host_club"]  # shareable: no accounts, no emails
    slug, host_slug = full_league.slug, full_league.host_club.slug

    delete_league(full_league)
    newcomer = User.objects.create_user("newcomer", "new@example.org", "pw-new-1")
    league = import_league(league_read.read(text), newcomer, source="league.json")

    assert league.organiser == newcomer
    assert (league.slug, league.host_club.slug) == (slug, host_slug)
    assert Hand.objects.filter(table__night__season__club=league.host_club).count() == 2
    # The person whose club record an account claimed is that account's again.
    assert LeaguePerson.objects.get(league=league, seat__name="Person 1").user.username == "ann"
    assert not league.host_club.memberships.exists()  # the league's own club has no member
    assert AuditEvent.objects.filter(club=league.host_club, subject__startswith="League imported")
    assert without_moment(export_league(league, now=NOW)) == without_moment(exported)


def test_export_reads_a_fixed_number_of_queries_whatever_the_leagues_size(full_league):
    with CaptureQueriesContext(connection) as small:
        export_league(full_league)
    a, b, c = full_league.entries.order_by("club__slug")
    for cycle in (3, 4, 5):
        fixture = Fixture.objects.create(
            league=full_league, cycle=cycle, round=1, date=dt.date(2027, 3, cycle), home=b, away=c
        )
        MatchCard.objects.create(fixture=fixture, state="settled", settled_by=full_league.organiser)
        Transfer.objects.create(
            league=full_league, person=full_league.people.first(), from_entry=a, to_entry=c
        )
    with CaptureQueriesContext(connection) as large:
        assert len(export_league(full_league)["fixtures"]) == 7
    assert len(large) == len(small) <= 40


def test_import_beside_the_original_takes_new_slugs(full_league, organiser):
    text = json.dumps(export_league(full_league))
    league = import_league(league_read.read(text), organiser)
    assert league.slug == f"{full_league.slug}-2"
    assert league.host_club.slug != full_league.host_club.slug
    assert Registration.objects.filter(league=league).count() == 6


def test_a_missing_club_or_player_refuses_the_file_naming_it(full_league, organiser):
    document = export_league(full_league)
    document["registers"][0]["player"] = "Nobody Here"
    document["clubs"][2]["slug"] = "dyce"
    for item in document["fixtures"]:
        for key in ("home", "away"):
            if item[key] == "cults":
                item[key] = "dyce"
    clubs, leagues = Club.objects.count(), League.objects.count()
    with pytest.raises(ImportRefused) as refused:
        import_league(league_read.read(json.dumps(document)), organiser)
    said = [str(p) for p in refused.value.problems]
    assert said == [
        "club 'dyce': there is no club with this slug (Cults) on this server: make the club (or "
        "import its club data file) first",
        "register 1 (Person 1, aberdeen): Aberdeen has no player called 'Nobody Here': add them "
        "to the club first",
    ]
    assert (Club.objects.count(), League.objects.count()) == (clubs, leagues)


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        (lambda d: d["league"].update(colour="red"), "Additional properties are not allowed"),
        (lambda d: d["league"].update(players_a_side=3), "'league', 'players_a_side'"),
        (lambda d: d["fixtures"][1]["card"].update(forfeited_by=None), "a forfeit names the club"),
        (lambda d: d["fixtures"][0]["card"].update(home_score=1), "do not sum to zero"),
        (lambda d: d["registers"][0].update(club="dyce"), "'club' 'dyce' is not one of 'clubs'"),
        (lambda d: d["registers"][4].update(until=None), "has another live register"),
        (lambda d: d["people"][0].update(seat="Stranger"), "is not a player of 'host_club'"),
        (lambda d: d["fixtures"][0]["night"].update(title="x"), "'night' is not a night of"),
        (lambda d: d["host_club"]["nights"][0].update(date="2026-01-15"), "host_club, "),
        (lambda d: d.update(format="solo-whist-club"), "This is not a league file"),
    ],
)
def test_the_reader_refuses_a_broken_file_saying_where(full_league, damage, said):
    document = export_league(full_league)
    damage(document)
    with pytest.raises(ImportRefused) as refused:
        league_read.read(json.dumps(document))
    assert said in str(refused.value)


def test_the_schema_offers_the_leagues_tie_breaks():
    schema = json.loads(LEAGUE_SCHEMA_PATH.read_text())
    offered = schema["properties"]["league"]["properties"]["tie_breaks"]["items"]["enum"]
    assert offered == list(TIE_BREAKS)
    jsonschema.Draft202012Validator.check_schema(schema)


def test_export_is_the_organisers_alone(full_league, organiser, client: Client):
    url = reverse("league_export", kwargs={"league": full_league.slug})
    secretary = User.objects.get(username="sec-aberdeen")  # a playing club's secretary
    for user in (secretary, User.objects.create_user("stranger", "s@example.org", "pw-s-1")):
        client.force_login(user)
        assert client.get(url).status_code == 404
    client.logout()
    assert client.get(url).status_code in (302, 404)
    client.force_login(organiser)
    response = client.get(url)
    assert response["Content-Disposition"].startswith('attachment; filename="granite-city')
    assert json.loads(response.content)["league"]["slug"] == full_league.slug


def test_upload_makes_the_league_or_says_why_not(full_league, organiser, client: Client):
    text = json.dumps(export_league(full_league)).encode()
    importer = User.objects.create_user("importer", "imp@example.org", "pw-imp-1")
    Membership.objects.create(club=Club.objects.get(slug="cults"), user=importer, role=Role.VIEWER)
    client.force_login(importer)
    url = reverse("league_import")
    page = client.get(url).text
    assert 'enctype="multipart/form-data"' in page
    schema = client.get(reverse("interchange_schema_league"))
    assert json.loads(b"".join(schema.streaming_content)) == json.loads(
        LEAGUE_SCHEMA_PATH.read_text()
    )
    broken = text.replace(b'"aberdeen"', b'"atlantis"')
    response = client.post(url, {"file": _upload(broken)})
    assert "there is no club with this slug (Aberdeen) on this server" in response.text
    assert League.objects.count() == 1
    response = client.post(url, {"file": _upload(text)})
    league = League.objects.exclude(pk=full_league.pk).get()
    assert league.organiser == importer
    assert response.status_code == 302
    assert response["Location"] == f"/leagues/{league.slug}/"


def _upload(content: bytes) -> Any:
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("league.json", content, content_type="application/json")


def _keys(schema: dict[str, Any], found: set[str]) -> set[str]:
    for key, value in schema.get("properties", {}).items():
        found.add(key)
        _keys(value, found)
    for value in schema.get("$defs", {}).values():
        _keys(value, found)
    if "items" in schema:
        _keys(schema["items"], found)
    return found


def test_every_key_of_the_league_schema_is_documented():
    section = (LEAGUE_SCHEMA_PATH.parents[2] / "docs" / "data-file.md").read_text()
    section = section.split("## The league file", 1)[1].split("\n## ", 1)[0]
    keys = _keys(json.loads(LEAGUE_SCHEMA_PATH.read_text()), set())
    assert {"settled_by", "forfeited_by", "tie_breaks", "host_club"} <= keys
    assert [key for key in sorted(keys) if f"`{key}`" not in section] == []


def test_the_club_reader_refuses_a_league_file_naming_its_format():
    from club.interchange.format import document

    with pytest.raises(ImportRefused) as refused:
        document.read(json.dumps({"format": "solo-whist-league", "version": 1}))
    assert str(refused.value) == (
        "This is not a club data file: its format is \"solo-whist-league\", not 'solo-whist-club'."
    )
