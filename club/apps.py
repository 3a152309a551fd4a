from django.apps import AppConfig


class ClubConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "club"
    verbose_name = "Solo Whist club"

    def ready(self) -> None:
        from club import log_redaction, metrics

        metrics.connect()  # hands saved, counted as they are committed

        log_redaction.install()  # no token in the lines of loggers with handlers of their own
