"""/healthz: a load balancer's (or a monitor's) question "can this node serve?", answered as JSON
without a login. 200 when the database and the cache answer, 503 when either does not, so the
balancer stops sending the node work. A background queue that falls behind (no worker running)
shows as "status": "degraded" with a 200: the web node itself is fine, and taking every node out
of the balancer would not start a worker. The answer says nothing about any club.
"""

from __future__ import annotations

from dataclasses import asdict

from django.http import HttpRequest, JsonResponse
from django.urls import path
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from club.queries import health


@never_cache
@require_http_methods(["GET", "HEAD"])
def healthz(request: HttpRequest) -> JsonResponse:
    database = health.database()
    cache = health.cache_check()
    queue = health.task_queue(reachable=database.ok)
    up = database.ok and cache.ok
    status = "down" if not up else ("degraded" if queue is not None and not queue.ok else "ok")
    body = {
        "status": status,
        "database": asdict(database),
        "cache": {**asdict(cache), "shared": health.cache_is_shared()},
        "tasks": asdict(queue) if queue is not None else None,
    }
    return JsonResponse(body, status=200 if up else 503)


urlpatterns = [path("healthz", healthz, name="healthz")]
