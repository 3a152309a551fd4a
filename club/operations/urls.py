"""What an operator asks of a node: /healthz and /metrics."""

from club.operations.views import health, metrics

urlpatterns = [
    *health.urlpatterns,  # /healthz for a load balancer: database, cache, task queue
    *metrics.urlpatterns,  # /metrics for Prometheus, with METRICS_TOKEN only
]
