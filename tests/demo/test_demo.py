"""seed_demo: realistic data whose every amount is what the scoring core says."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command
from django.db.models import Count, Sum

import scoring
from club.clubs.models import Club
from club.play.models import Hand, Night, ScoreLine


@pytest.mark.django_db
def test_seed_demo_creates_a_scored_season_with_logins(django_user_model):
    call_command("seed_demo", "--hands", "300")
    club = Club.objects.get(slug="demo")
    club_nights = {"table__night__season__club": club, "table__night__tournament": None}
    assert Hand.objects.filter(**club_nights).count() == 300  # and the tournament's
    # Four players take part in every hand (tables of 4 and 5), so four lines per hand.
    assert ScoreLine.objects.filter(hand__in=Hand.objects.filter(**club_nights)).count() == 1200
    # Hoyle pays per opponent: every night nets to zero.
    per_night = ScoreLine.objects.values("night").annotate(total=Sum("amount"))
    assert {row["total"] for row in per_night} == {0}
    assert not Night.objects.filter(status="open").exists()  # see test_demo_showcase.py
    assert django_user_model.objects.get(username="secretary").check_password("solo-demo")
    # Rescore a sample of hands with the core and compare with the stored lines.
    rules = scoring.preset("hoyle")
    for hand in Hand.objects.exclude(contract=scoring.ALL_PASSED).order_by("id")[:40]:
        lines = {str(sl.player_id): sl.amount for sl in hand.score_lines.all()}
        result = scoring.score_hand(
            scoring.Hand(
                players=tuple(lines),
                contract=hand.contract,
                declarer=str(hand.declarer_id),
                partner=str(hand.partner_id) if hand.partner_id else None,
                tricks=hand.tricks,
                revokes=tuple(str(r.player_id) for r in hand.revokes.all()),
            ),
            rules,
        )
        assert result.amounts == lines
    # Several contracts appear, as on a real night.
    contracts = Hand.objects.values("contract").annotate(n=Count("id"))
    assert len(contracts) >= 6


@pytest.mark.django_db
def test_seed_demo_refuses_to_overwrite_without_reset():
    call_command("seed_demo", "--hands", "20")
    with pytest.raises(CommandError, match="--reset"):
        call_command("seed_demo", "--hands", "20")
    call_command("seed_demo", "--hands", "20", "--if-missing")
    call_command("seed_demo", "--hands", "40", "--reset")
    assert Hand.objects.filter(table__night__tournament=None).count() == 40


@pytest.mark.django_db
def test_seed_demo_analyses_the_tables_it_filled_on_postgresql(capsys):
    """The planner's statistics are fresh straight after a bulk load."""
    from django.db import connection

    call_command("seed_demo", "--hands", "200")
    out = capsys.readouterr().out
    if connection.vendor != "postgresql":
        assert "Analysed" not in out  # SQLite: nothing to do
        return
    assert "Analysed 9 tables for the query planner." in out
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples FROM pg_class WHERE relname = 'club_scoreline'")
        (rows,) = cursor.fetchone()
    # Never analysed, PostgreSQL says -1; ANALYZE counts the lines just loaded (the 800 of the
    # season's 200 hands, and the demo tournament's).
    assert rows == ScoreLine.objects.count() > 800
