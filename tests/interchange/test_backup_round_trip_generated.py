"""Generated clubs restore exactly: Hypothesis builds clubs with money owed, payments in full
and in part, payments undone, nettings, nights reopened and corrected after being published,
a tournament, table cards issued and revoked, arrivals and open invitations; export, import into
an empty database and export again gives the same file apart from `exported_at`, and the money
owed and each player's balance are what they were."""

from __future__ import annotations

import datetime as dt
import json
import random

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from club.clubs.models import Club, Membership, Player, Season
from club.clubs.services import invitations
from club.clubs.services.clubs_lifecycle import delete_club
from club.clubs.services.setup import rule_set_from_preset
from club.demo.services import demo
from club.interchange.format.document import read
from club.interchange.services.export import export_text
from club.interchange.services.importer import import_document
from club.money.models import Settlement
from club.money.services import ledger, publish
from club.play.services import arrivals, table_cards
from club.play.services.hand_entry import next_hand
from club.play.services.hands import record_hand
from club.play.services.night_setup import create_night
from club.play.services.nights import close_night, reopen_night
from club.tournaments.services import tournaments as tournament_services
from tests.kits.interchange_kit import check_schema, without_moment

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy"]


def play(rng: random.Random, table, rules, count: int, user) -> None:
    for _ in range(count):
        coming = next_hand(table)
        seats = [s.player for s in table.seats.order_by("position")]
        playing = [p for p in seats if p != coming["sitting_out"]]
        record_hand(table, demo.random_entry(rng, coming["dealer"], playing, rules), user)


def build(seed: int, nights: int, correction: int, reopen: bool, tournament: bool) -> Club:
    rng = random.Random(seed)
    User = get_user_model()
    secretary = User.objects.create_user("sec", email="sec@example.org")
    club = Club.objects.create(
        name=f"Generated {seed}", slug=f"gen{seed}", correction_minutes=correction,
        time_zone=rng.choice(["Europe/London", "Pacific/Auckland", "America/New_York"]),
    )  # fmt: skip
    Membership.objects.create(user=secretary, club=club, role="secretary")
    roster = [
        Player.objects.create(club=club, name=n, email=f"{n.lower()}@example.org") for n in NAMES
    ]
    preset = rng.choice(["hoyle", "standard", "cents"])
    if preset == "cents":
        club.currency_symbol = "$"  # the club counts in the rule set's unit
        club.save()
    rule_set = rule_set_from_preset(club, preset)
    season = Season.objects.create(
        club=club, name="Season", start=dt.date(2026, 1, 1), end=dt.date(2026, 12, 31),
        rule_set=rule_set,
    )  # fmt: skip
    made = []
    for week in range(nights):
        pool = rng.sample(roster, 8)
        night = create_night(
            season, dt.date(2026, 3, 5) + dt.timedelta(weeks=week), [(pool[:4], 0), (pool[4:], 1)]
        )
        for table in night.tables.all():
            play(rng, table, rule_set.rules, rng.randint(1, 5), secretary)
        close_night(night, secretary)
        made.append(night)
    for night in made:
        for debt in ledger.night_debts(night):
            choice = rng.random()
            if choice < 0.3:
                ledger.mark_paid(debt, None, secretary, club=club)
            elif choice < 0.6 and debt.amount > 1:
                paid = ledger.mark_paid(
                    debt, rng.randint(1, debt.amount - 1), secretary, club=club, note="part"
                )
                if rng.random() < 0.3:
                    settlement = Settlement.objects.filter(debt=debt).latest("id")
                    ledger.undo_payment(settlement, secretary, club=club)
                assert paid.outstanding > 0
    for pair in ledger.nettable_pairs(ledger.owed_pairs(club), {p.pk: p for p in roster})[:1]:
        ledger.net_pair(club, pair.first, pair.second, secretary)
    if reopen and made:
        night = made[0]
        night.refresh_from_db()
        if correction and not night.published_at:
            publish.publish(night, secretary)
            night.refresh_from_db()
        reopen_night(night, secretary)
        play(rng, night.tables.order_by("number").first(), rule_set.rules, 1, secretary)
        close_night(night, secretary)
    if tournament:
        t = tournament_services.create_tournament(
            club, season=season, date=dt.date(2026, 6, 6), name="Summer Drive", rounds=2,
            hands_per_round=2, scoring_method="amounts", is_public=True, counts_in_standings=False,
            players=roster[:8], seed=seed, director=secretary,
        )  # fmt: skip
        tournament_services.start(t, secretary)
        t.refresh_from_db()
        for table in t.night.tables.filter(round_number=1):
            play(rng, table, rule_set.rules, 2, secretary)
    cards = table_cards.issue_cards(club, secretary, count=rng.randint(1, 3))
    table_cards.revoke_card(cards[0], secretary)
    arrivals.tick_in(club, roster[0], dt.date(2026, 7, 1), via="door")
    guest = User.objects.create_user("guest", email="guest@example.org")
    invitations.invite(club, guest, rng.choice(["viewer", "scorer"]), secretary)
    return club


def balances(club: Club) -> dict[str, int]:
    names = dict(club.players.values_list("pk", "name"))
    return {names[pk]: v for pk, v in ledger.balances(club).items() if v}


@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    seed=st.integers(0, 10_000),
    nights=st.integers(1, 3),
    correction=st.sampled_from([0, 30]),
    reopen=st.booleans(),
    tournament=st.booleans(),
)
def test_a_generated_club_restores_exactly(seed, nights, correction, reopen, tournament):
    with transaction.atomic():
        club = build(seed, nights, correction, reopen, tournament)
        owed = balances(club)
        first = export_text(club)
        document = json.loads(first)
        check_schema(document)
        # The file really holds what the club was built with.
        assert document["table_cards"] and document["invitations"] and document["arrivals"]
        assert any(n["tournament"] for n in document["nights"]) == tournament
        if reopen:
            assert any(
                len(n["publications"]) >= 2 or n["publish_after"] for n in document["nights"]
            )
        delete_club(club)
        get_user_model().objects.all().delete()
        restored, _ = import_document(read(first))
        second = export_text(restored)
        assert without_moment(first) == without_moment(second)
        assert balances(restored) == owed
        transaction.set_rollback(True)
