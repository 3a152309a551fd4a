"""A hand's save leaves its grades' catch-up in the backlog, in its own transaction, and queues no
task; the worker finds the backlog between tasks and catches the club up. Where tasks run in the
request (the demo's immediate backend) the catch-up runs as soon as the save commits."""

from __future__ import annotations

import pytest
from django_tasks_db.models import DBTaskResult

from club.grades.models import Grade, GradeBacklog
from club.grades.services import grades
from club.play.services.hand_entry import HandEntry
from club.play.services.hands import record_hand
from tests.kits.worker_kit import a_worker

pytestmark = pytest.mark.django_db(transaction=True)
DATABASE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
IMMEDIATE = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}


def _solo(table4, players, secretary) -> None:
    ann, bob = players[:2]
    record_hand(table4, HandEntry(dealer=ann, contract="solo", declarer=bob, tricks=6), secretary)


def test_a_save_queues_no_task_and_the_worker_catches_the_grades_up(
    settings, table4, players, secretary
):
    settings.TASKS = DATABASE
    _solo(table4, players, secretary)
    assert not DBTaskResult.objects.exists()  # the save queued nothing
    assert GradeBacklog.objects.count() == 1 and not Grade.objects.exists()
    a_worker("grades-worker").run()  # batch: one round, then it stops with nothing left to do
    assert not GradeBacklog.objects.exists()
    assert Grade.objects.filter(player=players[1]).get().hands == 1


def test_the_worker_with_no_backlog_rates_nothing(settings, table4, players, secretary):
    settings.TASKS = DATABASE
    assert a_worker("grades-worker").catch_up_grades() == 0
    _solo(table4, players, secretary)
    assert a_worker("grades-worker").catch_up_grades() == 1
    assert a_worker("grades-worker").catch_up_grades() == 0


def test_a_failing_catch_up_is_logged_and_the_worker_goes_on(
    settings, table4, players, secretary, monkeypatch, caplog
):
    settings.TASKS = DATABASE
    _solo(table4, players, secretary)

    def broken() -> int:
        raise RuntimeError("a bug in the grades")

    monkeypatch.setattr(grades, "drain_all", broken)
    assert a_worker("grades-worker").catch_up_grades() == 0
    assert "Could not catch up the grades" in caplog.text
    assert GradeBacklog.objects.count() == 1  # still waiting: the next round tries again


def test_with_tasks_run_in_the_request_the_grades_are_caught_up_at_once(
    settings, table4, players, secretary
):
    settings.TASKS = IMMEDIATE
    _solo(table4, players, secretary)
    assert not GradeBacklog.objects.exists()
    assert Grade.objects.filter(player=players[1]).get().hands == 1
