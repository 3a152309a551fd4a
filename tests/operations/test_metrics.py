"""/metrics for Prometheus: off without METRICS_TOKEN, only with it as a bearer token; requests
by route and status, the save's latency histogram moving with a night's hands, hands saved
(a resent hand once), the task queue and the results emails."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from club.money.models import Delivery
from club.play.services import table_links as link_service
from tests.kits.ledger_kit import play

pytestmark = pytest.mark.django_db
TOKEN = "a-long-random-metrics-token"


@pytest.fixture
def on(settings):
    settings.METRICS_TOKEN = TOKEN


def scrape() -> dict[tuple[str, tuple], float]:
    response = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=")
    found = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def value(samples, name, **labels) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def test_off_unless_the_token_is_set_then_only_with_it(settings):
    settings.METRICS_TOKEN = ""
    assert Client().get("/metrics").status_code == 404
    assert Client().get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 404
    settings.METRICS_TOKEN = TOKEN
    assert Client().get("/metrics").status_code == 401
    wrong = Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}x")
    assert wrong.status_code == 401 and wrong["WWW-Authenticate"].startswith("Bearer")
    assert Client().get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}").status_code == 200


def test_requests_by_route_and_status_never_by_path(on, club):
    before = scrape()
    token = uuid.uuid4().hex
    for _ in range(3):
        Client().get(f"/t/{token}/")  # an unknown table link: 404
    after = scrape()
    route = {"route": "/t/<str:token>/", "method": "GET", "status": "404"}
    counted = value(after, "solo_http_requests_total", **route) - value(
        before, "solo_http_requests_total", **route
    )
    assert counted == 3
    assert not any(token in str(key) for key in after)  # no path, no token, as a label


def test_the_save_histogram_moves_after_a_nights_hands_and_hands_are_counted_once(
    on, table4, players, secretary, django_capture_on_commit_callbacks
):
    link = link_service.night_links(table4.night, secretary)[table4.pk]
    url = reverse("link_create", args=[link.token])
    route = "/t/<str:token>/hands/"
    before = scrape()
    ann, bob, cat, dan = players[:4]
    client = Client()
    hand_id = str(uuid.uuid4())
    with django_capture_on_commit_callbacks(execute=True):
        for number in (1, 2):
            client.post(url, _solo(ann, bob, cat, dan, number, str(uuid.uuid4())), **HTMX)
        client.post(url, _solo(ann, bob, cat, dan, 3, hand_id), **HTMX)
        client.post(url, _solo(ann, bob, cat, dan, 3, hand_id), **HTMX)  # the phone resends
    after = scrape()
    saves = value(after, "solo_hand_save_seconds_count", route=route) - value(
        before, "solo_hand_save_seconds_count", route=route
    )
    assert saves == 4  # four answers timed
    assert value(after, "solo_hand_save_seconds_sum", route=route) > value(
        before, "solo_hand_save_seconds_sum", route=route
    )
    slowest = value(after, "solo_hand_save_seconds_bucket", route=route, le="+Inf")
    assert slowest >= 4
    assert table4.hands.count() == 3
    hands = value(after, "solo_hands_saved_total") - value(before, "solo_hands_saved_total")
    assert hands == 3  # the resent hand once


HTMX = {"HTTP_HX_REQUEST": "true"}


def _solo(ann, bob, cat, dan, number, client_id):
    dealer = [ann, bob, cat, dan][(number - 1) % 4]
    return {
        "dealer": dealer.pk,
        "contract": "solo",
        "declarer": bob.pk,
        "tricks": 6,
        "expected_number": number,
        "client_id": client_id,
    }


def test_the_queue_and_the_emails_from_the_database(
    on, settings, night, table4, players, secretary
):
    from django_tasks_db.models import DBTaskResult, get_date_max

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    queued = DBTaskResult.objects.create(
        args_kwargs={"args": [1], "kwargs": {}},
        task_path="club.money.services.publish.publish_when_due",
        backend_name="default",
        run_after=get_date_max(),
    )
    DBTaskResult.objects.filter(pk=queued.pk).update(
        enqueued_at=timezone.now() - dt.timedelta(seconds=120)
    )
    play(table4, secretary, players[1], "solo", 6)
    from club.money.models import Publication

    publication = Publication.objects.create(night=night, number=1)
    for player, status in zip(players[:4], ["sent", "sent", "failed", "pending"], strict=True):
        Delivery.objects.create(
            publication=publication,
            player=player,
            email=f"{player.name}@example.org",
            status=status,
            sent_at=timezone.now() if status == "sent" else None,
        )
    # The hand's grades wait for the worker (a save queues no task for them).
    from club.grades.models import GradeBacklog

    GradeBacklog.objects.update(at=timezone.now() - dt.timedelta(seconds=200))
    samples = scrape()
    assert value(samples, "solo_tasks_waiting") == 1
    assert 120 <= value(samples, "solo_tasks_oldest_waiting_seconds") < 180
    assert 200 <= value(samples, "solo_grades_oldest_waiting_seconds") < 260
    assert value(samples, "solo_emails_sent_total") == 2
    assert value(samples, "solo_emails_failed_total") == 1
