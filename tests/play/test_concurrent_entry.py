"""Eight tables saving hands at the same moment, through the views, on a SQLite file and on
PostgreSQL: every hand is stored exactly once, numbered without a gap, and zero-sum, with the
scoring core's figures; a save sent twice (its reply lost) is still recorded once.

On SQLite (the default) the PostgreSQL half is skipped unless DATABASE_URL names a PostgreSQL
server (CI does: .ci/run). On PostgreSQL the SQLite half runs in a child pytest on its own file,
so CI runs both.
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
import threading
import uuid
from pathlib import Path

import pytest
from django.db import connection, connections
from django.db.models import Sum
from django.test import Client
from django.urls import reverse

import scoring
from club.clubs.models import Membership, Player, Role
from club.play.models import Hand, NightTotal, ScoreLine
from club.play.services.night_setup import create_night

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

TABLES = 8
HANDS = 6
HOYLE = scoring.preset("hoyle")
HTMX = {"HTTP_HX_REQUEST": "true"}


def hand_spec(table_no: int, number: int) -> dict[str, object]:
    """A different hand at each table and number: solos, misères and Prop & Cops, made and not."""
    step = table_no + number
    kind = step % 3
    if kind == 0:
        return {"contract": "solo", "declarer": step % 4, "tricks": 3 + step % 6}
    if kind == 1:
        return {"contract": "misere", "declarer": (step + 1) % 4, "tricks": step % 2}
    return {
        "contract": "prop_cop",
        "declarer": step % 4,
        "partner": (step + 2) % 4,
        "tricks": 6 + step % 5,
    }


def post_data(seats: list[Player], number: int, spec: dict[str, object], client_id: str) -> dict:
    data: dict[str, object] = {
        "dealer": seats[(number - 1) % 4].pk,  # the deal passes left; table's first dealer 0
        "contract": spec["contract"],
        "declarer": seats[spec["declarer"]].pk,  # type: ignore[index]
        "tricks": spec["tricks"],
        "expected_number": number,
        "client_id": client_id,
    }
    if "partner" in spec:
        data["partner"] = seats[spec["partner"]].pk  # type: ignore[index]
    return data


def core_amounts(seats: list[Player], spec: dict[str, object]) -> dict[int, int]:
    names = tuple(str(p.pk) for p in seats)
    hand = scoring.Hand(
        players=names,
        contract=str(spec["contract"]),
        declarer=names[spec["declarer"]],  # type: ignore[index]
        partner=names[spec["partner"]] if "partner" in spec else None,  # type: ignore[index]
        tricks=int(spec["tricks"]),  # type: ignore[arg-type]
    )
    return {int(k): v for k, v in scoring.score_hand(hand, HOYLE).amounts.items()}


def run_eight_tables(club, season, django_user_model) -> None:
    players = [Player.objects.create(club=club, name=f"Player {i:02d}") for i in range(TABLES * 4)]
    night = create_night(
        season,
        dt.date(2026, 12, 4),
        [(players[t * 4 : t * 4 + 4], 0) for t in range(TABLES)],
    )
    tables = list(night.tables.order_by("number"))
    seats = {t.pk: [s.player for s in t.seats.order_by("position")] for t in tables}
    clients = []
    for t in tables:
        user = django_user_model.objects.create_user(username=f"table-{t.number}")
        Membership.objects.create(user=user, club=club, role=Role.SCORER)
        c = Client()
        c.force_login(user)
        clients.append(c)

    sent: dict[int, list[str]] = {t.pk: [] for t in tables}
    answers: list[tuple[int, int, str]] = []
    errors: list[BaseException] = []
    start = threading.Barrier(TABLES)

    def scorer(table, client: Client) -> None:
        try:
            start.wait(10)
            url = reverse("hand_create", args=[club.slug, table.pk])
            for number in range(1, HANDS + 1):
                client_id = str(uuid.uuid4())
                sent[table.pk].append(client_id)
                data = post_data(
                    seats[table.pk], number, hand_spec(table.number, number), client_id
                )
                response = client.post(url, data, **HTMX)
                answers.append((table.number, response.status_code, response["X-Hand-Outcome"]))
                if number == 3:  # the reply was lost: the phone sends the same save again
                    again = client.post(url, data, **HTMX)
                    answers.append((table.number, again.status_code, again["X-Hand-Outcome"]))
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=scorer, args=(t, c)) for t, c in zip(tables, clients, strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert not errors, errors
    assert not any(thread.is_alive() for thread in threads)

    # Every save answered: saved, and the resends "already saved".
    assert sorted(outcome for _, _, outcome in answers) == sorted(
        ["saved"] * TABLES * HANDS + ["resent"] * TABLES
    )
    assert {status for _, status, _ in answers} == {200}
    # Every hand once, numbered 1..HANDS in the order sent, each with the core's figures.
    for table in tables:
        hands = list(Hand.objects.filter(table=table).order_by("number"))
        assert [h.number for h in hands] == list(range(1, HANDS + 1))
        assert [str(h.client_id) for h in hands] == sent[table.pk]
        for hand in hands:
            lines = {line.player_id: line.amount for line in ScoreLine.objects.filter(hand=hand)}
            assert sum(lines.values()) == 0  # zero-sum
            expected = core_amounts(seats[table.pk], hand_spec(table.number, hand.number))
            assert lines == expected
    assert Hand.objects.filter(table__night=night).count() == TABLES * HANDS
    assert ScoreLine.objects.filter(night=night).count() == TABLES * HANDS * 4
    # The database's running night totals kept up with every concurrent insert.
    totals = dict(NightTotal.objects.filter(night=night).values_list("player_id", "net"))
    by_lines = dict(
        ScoreLine.objects.filter(night=night)
        .values("player_id")
        .annotate(net=Sum("amount"))
        .values_list("player_id", "net")
    )
    assert totals == by_lines and sum(totals.values()) == 0


def test_eight_tables_at_once_on_a_sqlite_file(club, season, django_user_model, tmp_path):
    if connection.vendor == "sqlite":
        name = connection.settings_dict["NAME"]
        assert name and "memory" not in str(name) and Path(name).exists()  # a file, not memory
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA journal_mode")
            assert cursor.fetchone()[0] == "wal"
        run_eight_tables(club, season, django_user_model)
        return
    # The suite runs on PostgreSQL: run this same test on SQLite in a child pytest, its own file.
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["SOLO_SQLITE_TEST_NAME"] = str(tmp_path / "concurrent.sqlite3")
    child = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:randomly",
            "-p",
            "no:xdist",
            f"{__file__}::test_eight_tables_at_once_on_a_sqlite_file",
        ],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert child.returncode == 0, child.stdout[-3000:] + child.stderr[-3000:]
    assert "1 passed" in child.stdout


def test_eight_tables_at_once_on_postgresql(club, season, django_user_model):
    if connection.vendor != "postgresql":
        pytest.skip("set DATABASE_URL=postgres://... to run the PostgreSQL half (CI does)")
    run_eight_tables(club, season, django_user_model)
