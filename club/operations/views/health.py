"""/healthz: a load balancer's (or a monitor's) question "can this node serve?", answered as JSON
without a login. "ok" (200); "degraded" (200) when the cache does not answer (the pages go on,
limits are counted in the database) or the task queue is behind (a task waiting or running too
long: no worker, or one that died holding it); "down" (503) only when the database does not
answer, the one thing without which the node cannot serve. Taking every node out of the balancer
for a cache or a worker would stop a site that still works. The answer says nothing about any
club.
"""

from __future__ import annotations

from dataclasses import asdict

from django.http import HttpRequest, JsonResponse
from django.urls import path
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from club.operations.queries import health


@never_cache
@require_http_methods(["GET", "HEAD"])
def healthz(request: HttpRequest) -> JsonResponse:
    database = health.database()
    cache = health.cache_check()
    queue = health.task_queue(reachable=database.ok)
    up = database.ok
    behind = queue is not None and not queue.ok
    status = "down" if not up else ("degraded" if behind or not cache.ok else "ok")
    body = {
        "status": status,
        "database": asdict(database),
        "cache": {**asdict(cache), "shared": health.cache_is_shared()},
        "tasks": asdict(queue) if queue is not None else None,
    }
    return JsonResponse(body, status=200 if up else 503)


urlpatterns = [path("healthz", healthz, name="healthz")]
