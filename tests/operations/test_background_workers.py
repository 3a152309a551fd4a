"""Background work on more than one machine: two task workers (`worker`) and two
`publish_due` runs, real processes started at the same moment on the same database, publish
each night once and send each results email once.

Runs on the suite's database: PostgreSQL in CI (row locks and SKIP LOCKED decide), and the
SQLite file by default (one writer at a time; the same conditional updates decide).
"""

from __future__ import annotations

import datetime as dt
import email
import email.policy

import pytest
from django.db.models import Count
from django.utils import timezone

from club.clubs.models import AuditEvent, Player
from club.money.models import Delivery, Publication
from club.money.services import publish as publish_service
from club.play.models import Night
from club.play.services.night_setup import create_night
from club.play.services.nights import close_night
from tests.kits.ledger_kit import give_emails, play
from tests.kits.nodes_kit import at_once
from tests.kits.racing import needs_real_concurrency

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

NIGHTS = 4
WORKER = ["worker", "--batch", "--no-startup-delay", "--interval", "0", "--verbosity", "0"]


def sent_messages(folder) -> list[tuple[str, str]]:
    """(recipient, subject) of every message the processes handed to their mail backend."""
    found = []
    for path in folder.iterdir():
        for chunk in path.read_bytes().split(b"\n" + b"-" * 79 + b"\n"):
            if chunk.strip():
                message = email.message_from_bytes(chunk.strip(), policy=email.policy.default)
                found.append((str(message["To"]), str(message["Subject"])))
    return found


def test_two_workers_and_two_periodic_runs_at_once_publish_each_night_once_and_mail_once(
    season, club, secretary, settings, tmp_path
):
    needs_real_concurrency()
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    from django_tasks_db.models import DBTaskResult

    players = [Player.objects.create(club=club, name=f"Player{i:02d}") for i in range(8)]
    give_emails(players)
    nights = []
    for n in range(NIGHTS):
        seated = players[(n % 2) * 4 : (n % 2) * 4 + 4]
        night = create_night(season, dt.date(2026, 10, 1) + dt.timedelta(days=7 * n), [(seated, 0)])
        table = night.tables.get()
        play(table, secretary, seated[n % 4], "solo", 5 + n)
        play(table, secretary, seated[(n + 1) % 4], "misere", n % 2)
        close_night(night, secretary)  # queues its publication for the end of the window
        nights.append(night)
    # Every window has ended; and each night's publication was queued twice (a retry, a
    # secretary's page asking again): four tasks for four nights, plus the two workers'
    # rivals, the two periodic runs.
    past = timezone.now() - dt.timedelta(minutes=1)
    Night.objects.filter(pk__in=[n.pk for n in nights]).update(publish_after=past)
    DBTaskResult.objects.update(run_after=past)
    for night in nights:
        publish_service.publish_when_due.enqueue(night.pk)
    publishing = DBTaskResult.objects.filter(status="READY", task_path__endswith="publish_when_due")
    assert publishing.count() == 2 * NIGHTS

    finished = at_once([WORKER, WORKER, ["publish_due"], ["publish_due"]], tmp_path)

    for run in finished:
        assert run.returncode == 0, f"{run.command}: {run.output[-3000:]}"
    # Each night published once: one publication, one audit event, one final state.
    counts = dict(
        Publication.objects.values("night").annotate(n=Count("id")).values_list("night", "n")
    )
    assert counts == {night.pk: 1 for night in nights}
    assert all(Night.objects.get(pk=n.pk).is_published for n in nights)
    published = AuditEvent.objects.filter(subject="Results published")
    assert sorted(published.values_list("night", flat=True)) == sorted(n.pk for n in nights)
    # Each player of each night emailed once, and every delivery recorded as sent.
    messages = sent_messages(tmp_path / "mail")
    expected = sorted(
        (p.email, night.pk)
        for night in nights
        for p in Player.objects.filter(seats__table__night=night)
    )
    deliveries = sorted(Delivery.objects.values_list("email", "publication__night"))
    assert deliveries == expected
    assert set(Delivery.objects.values_list("status", flat=True)) == {Delivery.Status.SENT}
    assert len(messages) == len(expected) == NIGHTS * 4
    assert len(set(messages)) == len(messages)  # nobody got the same night's results twice
    # Who did it: every night published by exactly one of the four, every email sent by one.
    by_runs = [run.output.strip().rsplit("\n", 1)[-1] for run in finished[2:]]
    tasks = DBTaskResult.objects.filter(status="SUCCESSFUL")
    by_workers = tasks.filter(task_path__endswith="publish_when_due", return_value=True).count()
    mailed_by_workers = sum(
        r["sent"]
        for r in tasks.filter(task_path__endswith="send_results").values_list(
            "return_value", flat=True
        )
    )
    published_by_runs = sum(int(line.split(" night")[0]) for line in by_runs)
    mailed_by_runs = sum(int(line.split(", ")[1].split(" email")[0]) for line in by_runs)
    assert published_by_runs + by_workers == NIGHTS, (by_runs, by_workers)
    assert mailed_by_runs + mailed_by_workers == NIGHTS * 4
    # No task failed; whatever was left for a worker that had exited finds nothing to do.
    assert not DBTaskResult.objects.filter(status="FAILED").exists()
