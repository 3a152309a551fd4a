"""Bad club data files: each is refused with a message that says what and where, and nothing at
all is written (every table of the club's record counted before and after)."""

from __future__ import annotations

import copy
import datetime as dt
import json
from typing import Any

import pytest

import scoring
from club.clubs.models import AuditEvent, Club, Player, RuleSet, Season
from club.demo.services import demo
from club.interchange import MAX_BYTES
from club.interchange.format.document import ImportRefused, check_size, parse_json, read
from club.interchange.services.export import export_text
from club.interchange.services.importer import existing_for, import_document
from club.play.models import Hand, Night, NightTotal, ScoreLine, Seat, Table

pytestmark = pytest.mark.django_db

SEATS = ["Ann Baxter", "Bob Mortimer", "Cat O'Neill", "Dan Whitaker"]


def hand(number: int, **kw: Any) -> dict[str, Any]:
    return {"number": number, "contract": "solo", "declarer": "Bob Mortimer", "tricks": 5, **kw}


def sample() -> dict[str, Any]:
    """A version 1 data file (docs/data-file.md), written by hand, with a second night and table."""
    return {
        "format": "solo-whist-club",
        "version": 1,
        "exported_at": "2026-11-22T21:40:00Z",
        "club": {"name": "Crown & Anchor Solo School", "slug": "crown2", "unit": "pence"},
        "players": [{"name": n} for n in [*SEATS, "Eve Lambert"]],
        "rule_sets": [{"name": "Six, twelve and eighteen", "preset": "hoyle"}],
        "seasons": [
            {
                "name": "Winter 2026",
                "start": "2026-09-01",
                "end": "2027-03-31",
                "rule_set": "Six, twelve and eighteen",
                "ladder_rule_set": None,
            },
        ],
        "nights": [
            {
                "season": "Winter 2026",
                "date": "2026-11-20",
                "title": "",
                "closed": True,
                "tables": [
                    {
                        "number": 1,
                        "seats": list(SEATS),
                        "first_dealer": "Ann Baxter",
                        "hands": [
                            hand(
                                1,
                                dealer="Ann Baxter",
                                amounts={
                                    "Ann Baxter": -6,
                                    "Bob Mortimer": 18,
                                    "Cat O'Neill": -6,
                                    "Dan Whitaker": -6,
                                },
                            ),
                            hand(2, contract="misere", declarer="Cat O'Neill", tricks=0),
                            hand(3, contract="all_passed", declarer=None, tricks=None),
                        ],
                    }
                ],
            },
            {
                "season": "Winter 2026",
                "date": "2026-11-27",
                "tables": [{"number": 1, "seats": list(SEATS), "hands": [hand(1), hand(2)]}],
            },
        ],
    }


def counts() -> dict[str, int]:
    models = (Club, Player, RuleSet, Season, Night, Table, Seat, Hand, ScoreLine, NightTotal)
    found = {m.__name__: m.objects.count() for m in models}
    found["AuditEvent"] = AuditEvent.objects.count()
    return found


def refused(document: Any, into: Club | None = None) -> list[str]:
    """Import the document; it must be refused and write nothing. Returns the messages."""
    before = counts()
    raw = document if isinstance(document, bytes) else json.dumps(document).encode()
    with pytest.raises(ImportRefused) as error:
        import_document(read(raw, existing_for(into)), into=into)
    assert counts() == before
    return [str(p) for p in error.value.problems]


def test_the_hand_written_example_imports():
    club, summary = import_document(read(json.dumps(sample())))
    assert (summary.hands, summary.tables, len(summary.nights)) == (5, 2, 2)
    assert summary.players_added == [*SEATS, "Eve Lambert"]
    # The dealer left out follows from the first dealer and the hand number.
    second = Hand.objects.get(table__night__date=dt.date(2026, 11, 27), number=2)
    assert second.dealer.name == "Bob Mortimer"
    lines = {line.player.name: line.amount for line in second.score_lines.all()}
    assert lines == {"Ann Baxter": -6, "Bob Mortimer": 18, "Cat O'Neill": -6, "Dan Whitaker": -6}
    assert Night.objects.get(date=dt.date(2026, 11, 20)).is_closed
    assert AuditEvent.objects.filter(club=club).count() == 3  # one a night and one for the import
    labels = set(AuditEvent.objects.filter(club=club, night__isnull=False).values_list(
        "night_label", flat=True
    ))  # fmt: skip
    assert labels == {"Club night 20 Nov 2026", "Club night 27 Nov 2026"}


def test_not_json():
    messages = refused(b"players: Ann, Bob")
    assert messages == [
        "This is not a club data file: not valid JSON (line 1, column 1: Expecting value)."
    ]


def test_not_utf8():
    assert "not UTF-8" in refused(b'{"format": "\xff"}')[0]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"format": "solo-whist-league"},
            "its format is \"solo-whist-league\", not 'solo-whist-club'",
        ),
        (
            {"version": 4},
            "This file is version 4 of the club data file; this app reads versions 1, 2 and 3.",
        ),
        ({"version": "1"}, 'This file is version "1"'),
    ],
)
def test_another_format_or_version(change, message):
    document = {**sample(), **change}
    messages = refused(document)
    assert len(messages) == 1 and message in messages[0]


def test_unknown_keys_are_named():
    document = sample()
    document["colour"] = "blue"
    document["nights"][0]["tables"][0]["hands"][1]["trick"] = 4
    document["club"]["currency"] = "GBP"
    messages = refused(document)
    assert "file: unknown key 'colour'" in messages[0]
    assert any(m.startswith("club: unknown key 'currency'") for m in messages)
    assert any(
        m.startswith("night 2026-11-20, table 1, hand 2: unknown key 'trick'") for m in messages
    )


def test_a_player_not_in_the_seats():
    document = sample()
    document["nights"][0]["tables"][0]["hands"][1]["declarer"] = "Eve Lambert"
    messages = refused(document)
    assert messages == [
        "night 2026-11-20, table 1, hand 2: 'declarer' 'Eve Lambert' is not at this table "
        "(seats: Ann Baxter, Bob Mortimer, Cat O'Neill, Dan Whitaker)"
    ]


def test_a_seat_that_is_not_a_player():
    document = sample()
    document["nights"][1]["tables"][0]["seats"][3] = "Dan Whitacre"
    messages = refused(document)
    assert messages == [
        "night 2026-11-27, table 1: the seat 'Dan Whitacre' is not one of the file's players"
    ]


def test_hand_numbers_out_of_order_or_repeated():
    document = sample()
    hands = document["nights"][0]["tables"][0]["hands"]
    hands[1]["number"] = 3
    hands[2]["number"] = 3
    messages = refused(document)
    assert messages == [
        "night 2026-11-20, table 1, hand 3: hand number 3 is out of order: hand 2 comes here",
        "night 2026-11-20, table 1, hand 3: hand number 3 is repeated: hand 3 comes here",
    ]


def test_fourteen_tricks():
    document = sample()
    document["nights"][1]["tables"][0]["hands"][0]["tricks"] = 14
    assert refused(document) == [
        "night 2026-11-27, table 1, hand 1: 'tricks' is 14: a hand has 13 tricks (0 to 13)"
    ]


def test_a_revoke_by_someone_not_at_the_table():
    document = sample()
    document["nights"][1]["tables"][0]["hands"][1]["revoke_by"] = "Eve Lambert"
    assert refused(document) == [
        "night 2026-11-27, table 1, hand 2: 'revoke_by' 'Eve Lambert' is not at this table "
        "(seats: Ann Baxter, Bob Mortimer, Cat O'Neill, Dan Whitaker)"
    ]


def test_a_hand_the_scoring_core_refuses():
    document = sample()
    document["nights"][1]["tables"][0]["hands"][1].update(contract="prop_cop", partner=None)
    assert refused(document) == [
        "night 2026-11-27, table 1, hand 2: Prop & Cop needs a partner (the player who accepted)"
    ]


def test_a_rule_set_the_scoring_core_refuses():
    document = sample() | {"version": 2}
    rules = scoring.preset("hoyle").to_dict()
    rules["stakes"]["misere"]["base"] = 3  # below a solo's 6
    document["rule_sets"] = [{"name": "Six, twelve and eighteen", "rules": rules}]
    messages = refused(document)
    assert messages == [
        "rule set 'Six, twelve and eighteen': the scoring core refuses these rules: "
        "stakes.misere.base: Misère (3) cannot be worth less than Solo (6), the lower call"
    ]


def test_a_file_of_fifty_megabytes_is_refused_before_parsing():
    with pytest.raises(ImportRefused) as error:
        parse_json(b"{" * MAX_BYTES)  # not JSON either: the size is what it is refused for
    assert str(error.value) == (
        "The file is 50.0 MB: the limit is 50 MB. Export one season at a time "
        "(export_club --season) and import each."
    )
    check_size(MAX_BYTES - 1)  # just under is allowed


def test_a_season_that_does_not_contain_its_night():
    document = sample()
    document["seasons"][0]["end"] = "2026-11-25"
    assert refused(document) == [
        "night 2026-11-27: the season 'Winter 2026' runs from 2026-09-01 to 2026-11-25, so it "
        "does not contain this night"
    ]


def test_amounts_that_differ_from_the_apps_name_the_hand_and_both_figures():
    document = sample()
    document["nights"][0]["tables"][0]["hands"][1]["amounts"] = {
        "Ann Baxter": -12, "Bob Mortimer": -12, "Cat O'Neill": 36, "Dan Whitaker": -11,
    }  # fmt: skip
    assert refused(document) == [
        "night 2026-11-20, table 1, hand 2: the amounts differ from the app's under the rule set "
        "'Six, twelve and eighteen': Dan Whitaker: the file says -11, the app scores -12"
    ]


def test_a_mistake_in_the_last_hand_of_a_big_file_writes_nothing():
    summary = demo.seed(slug="big", hands=400, today=dt.date(2026, 11, 20), with_users=False)
    document = json.loads(export_text(summary.club))
    document["club"]["slug"] = "big-copy"
    last = [h for n in document["nights"] for t in n["tables"] for h in t["hands"]][-1]
    name = next(iter(last["amounts"]))
    last["amounts"][name] += 1
    messages = refused(document)
    assert len(messages) == 1 and f"{name}: the file says" in messages[0]
    assert not Club.objects.filter(slug="big-copy").exists()


def test_every_problem_is_reported_at_once():
    document = sample()
    document["nights"][0]["tables"][0]["hands"][0]["tricks"] = 15
    document["nights"][1]["tables"][0]["hands"][0]["contract"] = "grand_slam"
    document["players"].append({"name": "ann baxter"})
    messages = refused(document)
    assert len(messages) == 3
    assert (
        messages[0]
        == "player 'ann baxter': is listed twice (names are unique in a club, ignoring case)"
    )


def test_a_sitting_out_player_the_rules_do_not_sit_out(club):
    document = sample()
    document["players"].append({"name": "Fay Okafor"})
    table = {"number": 2, "seats": [*SEATS, "Fay Okafor"], "first_dealer": "Ann Baxter",
             "hands": [hand(1, sitting_out="Ann Baxter")]}  # fmt: skip
    document["nights"][0]["tables"].append(table)
    # Hoyle: the player on the dealer's right (Fay) sits out, not the dealer.
    assert refused(document) == [
        "night 2026-11-20, table 2, hand 1: 'sitting_out' is Ann Baxter, but with Ann Baxter "
        "dealing Fay Okafor sits out under the rule set 'Six, twelve and eighteen'"
    ]


def test_a_slug_that_is_taken(club):
    document = sample()
    document["club"]["slug"] = club.slug
    assert refused(document) == [
        "club: a club with the slug 'crown' exists already: give the new club another slug "
        "(--slug), or add the nights to that club (--into)"
    ]


def test_into_a_club_refuses_a_night_it_has_already(club):
    first = sample()
    import_document(read(json.dumps(first)), into=club)
    messages = refused(sample(), into=club)
    assert messages == [
        "night 2026-11-20: the club already has this night in Winter 2026: it was imported "
        "before, or entered by hand",
        "night 2026-11-27: the club already has this night in Winter 2026: it was imported "
        "before, or entered by hand",
    ]


def test_into_a_club_with_another_unit(club):
    club.unit_kind = Club.UnitKind.POINTS
    club.save()
    assert refused(sample(), into=club) == [
        "club: the file's amounts are in pence, but Crown & Anchor Solo School keeps points"
    ]


def test_into_a_club_whose_rule_set_of_that_name_differs(club):
    from club.clubs.services.setup import rule_set_from_preset

    rule_set_from_preset(club, "standard", "Six, twelve and eighteen")
    assert refused(sample(), into=club) == [
        "rule set 'Six, twelve and eighteen': the club has a rule set called 'Six, twelve and "
        "eighteen' with other stakes or options: rename one of them"
    ]


def test_into_a_club_matches_players_and_seasons_by_name(club, season, players, secretary):
    """The club's own season, its rule set and players (any case) are used; new names are added."""
    document = sample()
    del document["seasons"], document["rule_sets"]
    document["players"] = [{"name": "ANN"}, {"name": "bob"}, {"name": "Cat"}, {"name": "Zed"}]
    for night in document["nights"]:
        for table in night["tables"]:
            table["seats"] = ["Ann", "Bob", "Cat", "Zed"]
            table["first_dealer"] = "Ann"
            for h in table["hands"]:
                h.pop("amounts", None)
                h.pop("dealer", None)
                if h.get("declarer"):
                    h["declarer"] = "bob"
    before = Player.objects.filter(club=club).count()
    _, summary = import_document(
        read(json.dumps(document), existing_for(club)), into=club, user=secretary
    )
    assert summary.players_added == ["Zed"]
    assert summary.seasons_added == [] and summary.rule_sets_added == []
    assert Player.objects.filter(club=club).count() == before + 1
    assert Night.objects.filter(season=season).count() == 2
    assert Hand.objects.filter(table__night__season=season, declarer__name="Bob").count() == 4


def test_the_jsonschema_refuses_what_the_importer_refuses():
    """The published schema agrees with the importer on unknown keys and on types."""
    from tests.kits.interchange_kit import VALIDATORS

    good = sample()
    VALIDATOR = VALIDATORS[1]
    assert not list(VALIDATOR.iter_errors(good))
    for path, value in (
        (("colour",), "blue"),
        (("club", "unit"), "guineas"),
        (("nights", 0, "tables", 0, "hands", 0, "tricks"), 14),
        (("nights", 0, "tables", 0, "hands", 0, "trick"), 4),
        (("version",), 2),
        (("nights", 0, "tables", 0, "hands", 0, "contract"), "misdeal"),  # version 2 only
    ):
        bad = copy.deepcopy(good)
        target = bad
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        assert list(VALIDATOR.iter_errors(bad)), path


def test_postgresql_statistics_are_refreshed_after_an_import_not_a_preview():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    if connection.vendor != "postgresql":
        pytest.skip("ANALYZE is run on PostgreSQL only")
    with CaptureQueriesContext(connection) as preview:
        import_document(read(json.dumps(sample())), dry_run=True)
    assert not [q for q in preview.captured_queries if q["sql"].startswith("ANALYZE")]
    with CaptureQueriesContext(connection) as queries:
        import_document(read(json.dumps(sample())))
    (analyze,) = [q["sql"] for q in queries.captured_queries if q["sql"].startswith("ANALYZE")]
    assert "club_hand" in analyze and "club_scoreline" in analyze and "club_nighttotal" in analyze


def test_an_import_rates_the_solo_grade_as_a_rebuild_would(club, season, players, secretary):
    """Imported nights can come before the club's own: the club's grades are rated again."""
    from club.grades.models import Grade
    from club.grades.services import grades
    from club.play.services.night_setup import create_night
    from tests.kits.interchange_kit import play

    later = create_night(season, dt.date(2027, 1, 8), [(players[:4], 0)])
    play(later.tables.get(), secretary, [{"contract": "solo", "declarer": "Ann", "tricks": 8}])
    document = sample()
    del document["seasons"], document["rule_sets"]
    for night in document["nights"]:
        night["season"] = season.name
    import_document(read(json.dumps(document), existing_for(club)), into=club)
    # The import leaves the rating to the grades' catch-up, after its commit.
    assert grades.updating(club)
    grades.drain(club.pk)
    assert not grades.updating(club)

    def ratings() -> dict[str, tuple]:
        return {g.player.name: (g.mu, g.sigma) for g in Grade.objects.filter(club=club)}

    imported = ratings()
    assert {"Ann", "Ann Baxter", "Bob Mortimer"} <= set(imported)
    grades.rebuild(club)
    assert ratings() == imported
