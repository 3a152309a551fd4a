"""/metrics for Prometheus (club/operations/services/metrics.py): a 404 unless METRICS_TOKEN is
set, then 401
without `Authorization: Bearer <METRICS_TOKEN>`."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.urls import path
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from club.operations.services import metrics


@never_cache
@require_GET
def metrics_view(request: HttpRequest) -> HttpResponse:
    from django.conf import settings

    if not settings.METRICS_TOKEN:
        raise Http404("Metrics are off")
    if not metrics.authorised(request):
        response = HttpResponse(
            "A bearer token is needed.\n", status=401, content_type="text/plain"
        )
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    return HttpResponse(metrics.exposition(), content_type=metrics.CONTENT_TYPE)


urlpatterns = [path("metrics", metrics_view, name="metrics")]
