"""A worker that dies holding a task or an email does not lose it, nor send it twice:

- an email left "being sent" by a worker that died is taken up again once its horizon
  (TASKS_MAX_RUN_SECONDS) has passed, with the same Message-ID; one a live worker is sending is
  left to it, and the run asks to look again when that worker's horizon ends;
- a task left running by a dead worker is queued again once, run by another worker, and marked
  failed if it is left running a second time.

(Real processes: a worker SIGKILLed in the middle of sending, and PostgreSQL restarted under a
worker: tests/operations/test_outages.py.)
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from django.test import override_settings
from django.utils import timezone

from club.money.models import Delivery
from club.money.services import results_mail
from club.money.services.publish import publish
from club.play.services.nights import close_night
from tests.kits.ledger_kit import give_emails, play
from tests.kits.worker_kit import a_worker

pytestmark = [pytest.mark.slow, pytest.mark.django_db]
DUMMY = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}


@pytest.fixture
def publication(night, table4, players, secretary):
    give_emails(players[:4])
    play(table4, secretary, players[1], "solo", 6)
    close_night(night, secretary)
    with override_settings(TASKS=DUMMY):
        return publish(night, secretary)  # queued, not sent


def test_an_email_left_being_sent_by_a_dead_worker_is_sent_again_with_the_same_message_id(
    publication, settings
):
    settings.TASKS_MAX_RUN_SECONDS = 600
    now = timezone.now()
    rows = list(Delivery.objects.filter(publication=publication).order_by("id"))
    dead, alive = rows[0], rows[1]
    # The dead worker claimed its row 11 minutes ago; the live one is sending its row now.
    Delivery.objects.filter(pk=dead.pk).update(
        status="sending", attempts=1, next_attempt_at=now - dt.timedelta(minutes=1)
    )
    Delivery.objects.filter(pk=alive.pk).update(
        status="sending", attempts=1, next_attempt_at=now + dt.timedelta(minutes=9)
    )
    report = results_mail.send_publication(publication.pk, now)
    sent_to = sorted(m.to[0] for m in mail.outbox)
    assert sent_to == sorted([dead.email, rows[2].email, rows[3].email])  # not the live one's
    assert report.sent == 3
    # Asked to look again when the live worker's horizon ends (it may die too).
    assert report.next_attempt_at == now + dt.timedelta(minutes=9)
    again = next(m for m in mail.outbox if m.to == [dead.email])
    assert again.extra_headers["Message-ID"] == results_mail.message_id(dead)
    assert Delivery.objects.get(pk=dead.pk).status == "sent"
    assert Delivery.objects.get(pk=dead.pk).attempts == 2
    assert Delivery.objects.get(pk=alive.pk).status == "sending"
    # Run again at once: nothing more is sent.
    results_mail.send_publication(publication.pk, now)
    assert len(mail.outbox) == 3


def test_each_email_is_marked_sent_as_soon_as_it_is_sent(publication, settings):
    """A worker killed after the first message finds the first marked, not all four pending."""
    settings.EMAIL_BACKEND = "tests.operations.test_worker.DiesAfterOne"
    DiesAfterOne.sent = 0
    with pytest.raises(KeyboardInterrupt):
        results_mail.send_publication(publication.pk)
    statuses = list(
        Delivery.objects.filter(publication=publication)
        .order_by("id")
        .values_list("status", flat=True)
    )
    assert statuses == ["sent", "sending", "pending", "pending"]


class DiesAfterOne:
    sent = 0

    def __init__(self, *args, **kwargs) -> None:
        pass

    def send_messages(self, messages):
        if DiesAfterOne.sent >= 1:
            raise KeyboardInterrupt  # the worker is killed in the middle of the second
        DiesAfterOne.sent += 1
        return len(messages)


def _task(settings, **fields):
    from django_tasks_db.models import DBTaskResult, get_date_max

    return DBTaskResult.objects.create(
        args_kwargs={"args": [1], "kwargs": {}},
        task_path="club.money.services.publish.publish_when_due",
        backend_name="default",
        run_after=get_date_max(),
        **fields,
    )


@pytest.mark.django_db(transaction=True)  # django-tasks-db's worker closes its connection
def test_a_task_left_running_by_a_dead_worker_is_run_again_once(settings, night):
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    settings.TASKS_MAX_RUN_SECONDS = 600
    now = timezone.now()
    held = _task(
        settings,
        status="RUNNING",
        started_at=now - dt.timedelta(minutes=2),
        worker_ids=["first-worker"],
    )
    worker = a_worker()
    assert worker.take_up_abandoned() == 0  # two minutes: its worker may still be at it
    DBTaskResult.objects.filter(pk=held.pk).update(started_at=now - dt.timedelta(minutes=11))
    assert worker.take_up_abandoned() == 1
    assert worker.take_up_abandoned() == 0  # once: it is READY now, not taken up twice
    assert worker.run_tasks() == 1
    done = DBTaskResult.objects.get(pk=held.pk)
    assert done.status == "SUCCESSFUL"
    assert done.worker_ids == ["first-worker", "second-worker"]


def test_a_task_left_running_a_second_time_is_marked_failed_not_tried_forever(settings, caplog):
    from django_tasks_db.models import DBTaskResult

    settings.TASKS_MAX_RUN_SECONDS = 600
    held = _task(
        settings,
        status="RUNNING",
        started_at=timezone.now() - dt.timedelta(minutes=11),
        worker_ids=["first-worker", "second-worker"],
    )
    assert a_worker().take_up_abandoned() == 0
    failed = DBTaskResult.objects.get(pk=held.pk)
    assert failed.status == "FAILED" and failed.exception_class_path.endswith("TaskAbandoned")
    assert "left running twice" in caplog.text
