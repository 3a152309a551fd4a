"""What an operator of many clubs watches, in Prometheus' text format at /metrics: requests by
route and status, the save's latency, hands saved, the task queue (waiting, their age, held too
long) and the results emails sent and failed.

Off (a 404) unless METRICS_TOKEN is set; then only with `Authorization: Bearer <token>`. The
request figures are this node's (under gunicorn, set PROMETHEUS_MULTIPROC_DIR so its workers
add up: docs/operators.md); the queue's and the emails' are read from the database at each
scrape, so every node gives the same figures for them.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator

from django.conf import settings
from django.db import transaction
from django.db.models import Count
from django.db.models.signals import post_save
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
    multiprocess,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

from club.money.models import Delivery
from club.operations.logs.request_log import route_of
from club.operations.queries import health
from club.play.models import Hand

REQUESTS = Counter(
    "solo_http_requests",
    "Requests answered, by route (the URL's pattern), method and status",
    ["route", "method", "status"],
)
SAVE_SECONDS = Histogram(
    "solo_hand_save_seconds",
    "Time to answer a hand's save (a table's link or the secretary's page), in seconds",
    ["route"],
    buckets=(0.025, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 2.0, 5.0),
)
HANDS_SAVED = Counter("solo_hands_saved", "Hands recorded (a resent hand is not counted again)")

# The URL names of a hand's save.
SAVES = {"link_create", "hand_create"}


class MetricsMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        response = self.get_response(request)
        seconds = time.perf_counter() - started
        match = request.resolver_match
        # An unrouted path is not a route: one series for all of them, not one per path.
        route = route_of(request) if match is not None else "(unrouted)"
        REQUESTS.labels(route, request.method or "", str(response.status_code)).inc()
        saved = match is not None and match.url_name in SAVES and response.status_code < 300
        if saved and request.method == "POST":  # a 503 while the database is away is no save
            SAVE_SECONDS.labels(route).observe(seconds)
        return response


def _hand_saved(sender: type, instance: Hand, created: bool, **kwargs: object) -> None:
    if created:
        transaction.on_commit(HANDS_SAVED.inc)  # counted once it is really kept


def connect() -> None:
    post_save.connect(
        _hand_saved, sender=Hand, dispatch_uid="club.operations.services.metrics.hands_saved"
    )


class FromTheDatabase(Collector):
    """Read at each scrape: the task queue (as /healthz sees it) and the results emails."""

    def collect(self) -> Iterator[GaugeMetricFamily | CounterMetricFamily]:
        queue = health.task_queue(reachable=True, now=timezone.now())
        if queue is not None and queue.waiting is not None:
            yield _gauge("solo_tasks_waiting", "Tasks due and not taken by a worker", queue.waiting)
            yield _gauge(
                "solo_tasks_oldest_waiting_seconds",
                "How long the oldest due task has waited for a worker",
                queue.oldest_seconds or 0,
            )
            yield _gauge("solo_tasks_running", "Tasks a worker holds", queue.running or 0)
            yield _gauge(
                "solo_tasks_longest_running_seconds",
                "How long the longest-held task has been running (a dead worker's grows)",
                queue.longest_running_seconds or 0,
            )
            yield _gauge(
                "solo_grades_oldest_waiting_seconds",
                "How long the oldest change has waited for a worker to catch the grades up",
                queue.grades_waiting_seconds or 0,
            )
        counts = dict(Delivery.objects.values_list("status").annotate(n=Count("id")).order_by())
        for status, helptext in (
            (Delivery.Status.SENT, "Results emails sent"),
            (Delivery.Status.FAILED, "Results emails that failed for good (bounced, malformed)"),
        ):
            family = CounterMetricFamily(f"solo_emails_{status}", helptext)
            family.add_metric([], counts.get(status, 0))
            yield family


def _gauge(name: str, helptext: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, helptext, value=value)


_from_the_database = CollectorRegistry(auto_describe=False)
_from_the_database.register(FromTheDatabase())


def _this_node() -> CollectorRegistry:
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]  # added up
        return registry
    return REGISTRY


def exposition() -> bytes:
    return generate_latest(_this_node()) + generate_latest(_from_the_database)


def authorised(request: HttpRequest) -> bool:
    token = settings.METRICS_TOKEN
    sent = request.headers.get("Authorization", "")
    return bool(token) and constant_time_compare(sent, f"Bearer {token}")


CONTENT_TYPE = CONTENT_TYPE_LATEST
