from django.apps import AppConfig


class OperationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "club.operations"
    label = "operations"
    verbose_name = "Operations: health, metrics, the task worker, logs, benchmarks"

    def ready(self) -> None:
        from club.operations.logs import log_redaction
        from club.operations.services import metrics

        metrics.connect()  # hands saved, counted as they are committed
        log_redaction.install()  # no token in the lines of loggers with handlers of their own
