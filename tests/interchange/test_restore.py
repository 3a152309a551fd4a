"""A database dump restores. `dumpdata` writes the score lines and the night totals the
database's triggers keep from them; `loaddata` into an empty database used to fail with
night_total_one_per_player, because the triggers built the totals again while the fixture loaded
them. The README's operator path (dumpdata, then migrate and loaddata into a fresh database) must
give back the same rows, with the night totals equal to the sums of the score lines."""

from __future__ import annotations

import gzip
import json

import pytest
from django.core.management import call_command
from django.db.models import Count, Q, Sum

from club.clubs.models import AuditEvent, Player
from club.money.models import Debt
from club.play.models import Hand, NightTotal, ScoreLine
from club.play.services.hand_entry import HandEntry
from club.play.services.hands import delete_hand, record_hand, update_hand
from club.play.services.nights import close_night

pytestmark = pytest.mark.django_db(transaction=True)

# What the README tells an operator to leave out: rows Django makes again itself on migrate.
EXCLUDE = ["contenttypes", "auth.permission", "sessions", "admin.logentry"]


def _play(night, table4, table5, players, secretary) -> None:
    ann, bob, cat, dan, eve, fay, *_ = players
    for declarer, tricks in ((bob, 5), (cat, 3), (dan, 8), (ann, 6)):
        record_hand(
            table4,
            HandEntry(dealer=ann, contract="solo", declarer=declarer, tricks=tricks),
            secretary,
        )
    record_hand(
        table4,
        HandEntry(dealer=ann, contract="prop_cop", declarer=ann, partner=cat, tricks=9),
        secretary,
    )
    record_hand(table5, HandEntry(dealer=eve, contract="misere", declarer=fay, tricks=0), secretary)
    first = Hand.objects.get(table=table4, number=1)
    update_hand(first, HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=7), secretary, 1)
    delete_hand(Hand.objects.get(table=table4, number=2), secretary)
    close_night(night, secretary)


def _state() -> dict:
    totals = sorted(
        NightTotal.objects.values_list(
            "night_id", "player_id", "season_id", "hands", "net", "points", "declared", "made"
        )
    )
    sums = sorted(
        ScoreLine.objects.values("night_id", "player_id")
        .annotate(
            n=Count("id"),
            net=Sum("amount"),
            pts=Sum("points"),
            dec=Count("id", filter=Q(declared=True)),
            made=Count("id", filter=Q(declared_made=True)),
        )
        .values_list("night_id", "player_id", "n", "net", "pts", "dec", "made")
    )
    return {
        "totals": totals,
        "sums": sums,
        "lines": sorted(ScoreLine.objects.values_list("hand_id", "player_id", "amount", "points")),
        "hands": sorted(Hand.objects.values_list("id", "table_id", "number", "contract")),
        "players": sorted(Player.objects.values_list("id", "name", "name_key")),
        "audit": AuditEvent.objects.count(),
        # The night's debts (the ledger's settle-up), which a trigger checks are in one club.
        "debts": sorted(Debt.objects.values_list("night_id", "payer_id", "payee_id", "amount")),
    }


def _dump(path) -> None:
    call_command(
        "dumpdata",
        "--natural-foreign",
        "--natural-primary",
        *(f"--exclude={label}" for label in EXCLUDE),
        output=str(path),
        verbosity=0,
    )


def test_dumpdata_then_loaddata_into_an_empty_database_restores_everything(
    night, table4, table5, players, secretary, tmp_path
):
    _play(night, table4, table5, players, secretary)
    before = _state()
    assert before["debts"], "closing the night settles up into debts"
    assert before["totals"] and [t[:2] + t[3:] for t in before["totals"]] == [
        s[:2] + s[2:] for s in before["sums"]
    ]
    dump = tmp_path / "backup.json.gz"
    _dump(dump)
    with gzip.open(dump) as dumped:
        assert any(row["model"] == "play.nighttotal" for row in json.loads(dumped.read()))

    call_command("flush", "--noinput", verbosity=0)
    assert not ScoreLine.objects.exists() and not NightTotal.objects.exists()
    call_command("loaddata", str(dump), verbosity=0)

    assert _state() == before
    # The triggers are back: a hand recorded after the restore still moves the totals.
    night.refresh_from_db()
    # The users come back by their natural key (username), perhaps under another id.
    secretary = type(secretary).objects.get(username=secretary.username)
    from club.play.services.nights import reopen_night

    # Users are restored by their natural key (username), so their ids may be new ones.
    secretary = type(secretary).objects.get(username=secretary.username)
    reopen_night(night, secretary)
    ann, bob = players[:2]
    record_hand(table4, HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=5), secretary)
    bob_total = NightTotal.objects.get(night=night, player=bob)
    assert (
        bob_total.net
        == ScoreLine.objects.filter(night=night, player=bob).aggregate(s=Sum("amount"))["s"]
    )


def test_a_dump_without_the_night_totals_restores_them_from_the_score_lines(
    night, table4, table5, players, secretary, tmp_path
):
    _play(night, table4, table5, players, secretary)
    before = _state()
    dump = tmp_path / "backup.json"
    call_command(
        "dumpdata",
        "--natural-foreign",
        "--natural-primary",
        *(f"--exclude={label}" for label in [*EXCLUDE, "play.nighttotal"]),
        output=str(dump),
        verbosity=0,
    )
    call_command("flush", "--noinput", verbosity=0)
    call_command("loaddata", str(dump), verbosity=0)
    assert _state() == before


def test_loading_a_fixture_twice_does_not_double_the_totals(
    night, table4, table5, players, secretary, tmp_path
):
    """loaddata over rows that are already there updates them in place: the totals must stay the
    sums of the score lines, not count the lines twice."""
    _play(night, table4, table5, players, secretary)
    before = _state()
    dump = tmp_path / "backup.json"
    _dump(dump)
    call_command("loaddata", str(dump), verbosity=0)
    assert _state() == before
