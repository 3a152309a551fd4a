"""Round trips of the club data file: export, import into an emptied database, export again gives
the same file apart from `exported_at`, and every figure (hands, score lines, night totals,
standings) comes back the same. Every export is checked against the JSON Schema."""

from __future__ import annotations

import datetime as dt
import json
import random

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import scoring
from club.clubs.models import Club, Player, Season
from club.clubs.services.setup import create_rule_set
from club.demo.services import demo
from club.interchange import SHAREABLE
from club.interchange.format.document import read
from club.interchange.services.export import export_document, export_text
from club.interchange.services.importer import UNIT_SETTINGS, import_document
from club.play.models import Hand, Night, ScoreLine
from club.play.services.hand_entry import HandEntry, next_hand
from club.play.services.hands import record_hand
from club.play.services.night_setup import create_night
from club.tournaments.models import Tournament
from tests.kits.interchange_kit import check_schema, figures, rich_club, round_trip, without_moment

pytestmark = pytest.mark.django_db


def test_demo_club_round_trip_is_exact():
    summary = demo.seed(slug="demo", hands=300, today=dt.date(2026, 11, 20), with_users=False)
    before = figures(summary.club)
    first, second, restored = round_trip(summary.club)
    assert without_moment(first) == without_moment(second)
    # The text itself, not only the parsed value, is the same apart from the moment.
    assert first.splitlines()[4:] == second.splitlines()[4:]
    assert figures(restored) == before
    assert len(before["hands"]) == 300


def test_rich_club_round_trip_is_exact(club, players, secretary):
    # A backup's members have an email (a restored member sets a password through it).
    secretary.email = "sec@example.org"
    secretary.save()
    rich_club(club, players, secretary)
    before = figures(club)
    document = export_document(club)
    contracts = {
        (h["contract"], len(t["seats"]), bool(h["revokes"]))
        for n in document["nights"]
        for t in n["tables"]
        for h in t["hands"]
    }
    # The club really holds what the test claims to round-trip.
    assert {c for c, _, _ in contracts} >= {
        "prop_cop", "solo", "misere", "abundance", "royal_abundance", "open_misere",
        "abundance_declared", "all_passed",
    }  # fmt: skip
    assert {size for _, size, _ in contracts} == {3, 4, 5}
    assert any(revoke for _, _, revoke in contracts)
    assert {r["rules"]["all_passed"] for r in document["rule_sets"]} == {
        "redeal", "goulash", "general_misere"
    }  # fmt: skip
    assert any("round" in t for n in document["nights"] for t in n["tables"])

    first, second, restored = round_trip(club, user=secretary)
    assert without_moment(first) == without_moment(second)
    after = figures(restored)
    for key in before:
        assert after[key] == before[key], key
    # The tournament night is a tournament again, and the inactive player stays inactive.
    tournament = Tournament.objects.get(club=restored)
    assert (tournament.name, tournament.rounds, tournament.status) == (
        "Christmas Drive",
        2,
        "finished",
    )
    assert tournament.entries.count() == 8
    assert not Player.objects.get(club=restored, name="Ivy").active


def test_export_writes_preset_only_for_unchanged_presets(club, players, secretary):
    rich_club(club, players, secretary)
    rule_sets = {r["name"]: r for r in export_document(club)["rule_sets"]}
    assert rule_sets["Hoyle sixpences"]["preset"] == "hoyle"
    assert "preset" not in rule_sets["House stakes"]
    assert rule_sets["House stakes"]["rules"]["stakes"]["solo"] == {
        "base": 10,
        "over": 2,
        "under": 1,
    }
    assert "preset" not in rule_sets["Goulash points"]  # its source differs from the preset's


def test_hand_amounts_come_from_the_score_lines(club, players, secretary):
    rich_club(club, players, secretary)
    document = export_document(club)
    night = next(n for n in document["nights"] if n["date"] == "2026-11-20" and not n["title"])
    hand = night["tables"][0]["hands"][0]  # Prop & Cop, Ann and Cat, 9 tricks: 7 each way
    assert hand["amounts"] == {"Ann": 7, "Bob": -7, "Cat": 7, "Dan": -7}
    five = night["tables"][1]
    assert five["hands"][0]["sitting_out"] in five["seats"]
    assert five["hands"][0]["sitting_out"] not in five["hands"][0]["amounts"]
    lines = ScoreLine.objects.filter(night__season__club=club, night__date=dt.date(2026, 11, 20))
    assert sum(sum(h["amounts"].values()) for t in night["tables"] for h in t["hands"]) == sum(
        line.amount for line in lines.filter(night__title="")
    )


def test_season_and_night_exports_hold_only_what_they_need(club, players, secretary):
    rich_club(club, players, secretary)
    summer = club.seasons.get(name="Summer 2027")
    part = export_document(club, season=summer)
    check_schema(part)
    assert [s["name"] for s in part["seasons"]] == ["Summer 2027"]
    assert [r["name"] for r in part["rule_sets"]] == ["House stakes"]
    assert {n["season"] for n in part["nights"]} == {"Summer 2027"}
    late = Night.objects.filter(title="Late table")
    one = export_document(club, nights=late)
    check_schema(one)
    assert [(n["date"], n["title"]) for n in one["nights"]] == [("2026-11-20", "Late table")]
    assert [p["name"] for p in one["players"]] == ["Ann", "Bob", "Cat"]
    assert {r["name"] for r in one["rule_sets"]} == {"Hoyle sixpences", "Anna Cubed points"}


def test_a_season_export_imports_into_another_club(club, players, secretary, other_club):
    rich_club(club, players, secretary)
    text = export_text(club, season=club.seasons.get(name="Summer 2027"))
    imported, summary = import_document(read(text), slug="copy")
    assert summary.hands == 5
    # A season's file is shareable (it names no accounts): compare it with the same kind.
    again = json.loads(export_text(imported, kind=SHAREABLE))
    original = json.loads(text)
    for key in ("rule_sets", "seasons", "nights", "players"):
        assert again[key] == original[key]


# Generated clubs ----------------------------------------------------------------------------

RULES = {
    "hoyle": scoring.preset("hoyle"),
    "standard": scoring.preset("standard"),
    "anna-cubed": scoring.preset("anna-cubed"),
    "cents": scoring.preset("cents"),
    "general misère": scoring.preset("hoyle").copy(
        all_passed=scoring.AllPassed.GENERAL_MISERE, sit_out=scoring.SitOut.DEALER
    ),
}
NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Len", "Max"]
tables_strategy = st.lists(
    st.tuples(st.integers(3, 5), st.integers(0, 4), st.integers(0, 7)), min_size=1, max_size=3
)


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 10_000),
    rules_name=st.sampled_from(sorted(RULES)),
    unit=st.sampled_from(["pence", "cents", "points"]),
    nights=st.lists(tables_strategy, min_size=1, max_size=2),
    closed=st.booleans(),
)
def test_export_import_export_is_the_identity(seed, rules_name, unit, nights, closed):
    # Each example in its own savepoint, rolled back, so examples never see each other's rows.
    with transaction.atomic():
        generated_round_trip(seed, rules_name, unit, nights, closed)
        transaction.set_rollback(True)


def generated_round_trip(seed, rules_name, unit, nights, closed):
    rng = random.Random(seed)
    if RULES[rules_name].unit in ("pence", "cents"):
        unit = RULES[rules_name].unit  # a club counts in its rule set's currency
    club = Club.objects.create(name=f"Generated «{seed}»", slug=f"gen{seed}", **UNIT_SETTINGS[unit])
    roster = [Player.objects.create(club=club, name=n) for n in NAMES]
    rule_set = create_rule_set(club, f"Rules {rules_name}", RULES[rules_name])
    season = Season.objects.create(
        club=club, name="Season", start=dt.date(2026, 1, 1), end=dt.date(2026, 12, 31),
        rule_set=rule_set,
    )  # fmt: skip
    rules = rule_set.rules
    hands = 0
    for week, tables in enumerate(nights):
        pool = rng.sample(roster, len(roster))
        seating = []
        for size, first, _ in tables:
            if len(pool) < size:
                break  # the club's 13 players are all seated
            seating.append((pool[:size], first % size))
            pool = pool[size:]
        night = create_night(season, dt.date(2026, 3, 1) + dt.timedelta(weeks=week), seating)
        for table, (_, _, count) in zip(night.tables.order_by("number"), tables, strict=False):
            for _ in range(count):
                nxt = next_hand(table)
                seats = [s.player for s in table.seats.order_by("position")]
                playing = [p for p in seats if p != nxt["sitting_out"]]
                entry = demo.random_entry(rng, nxt["dealer"], playing, rules)
                if rng.random() < 0.2 and entry.declarer is not None:
                    entry = HandEntry(**{**entry.__dict__, "revoke_by": rng.choice(playing)})
                record_hand(table, entry, None)
                hands += 1
        if closed:
            Night.objects.filter(pk=night.pk).update(status=Night.Status.CLOSED)
    first, second, restored = round_trip(club)
    assert without_moment(first) == without_moment(second)
    assert Hand.objects.filter(table__night__season__club=restored).count() == hands
