from django.apps import AppConfig


class ClubConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "club"
    verbose_name = "Solo Whist club"

    def ready(self) -> None:
        from club import log_redaction, metrics
        from club.pdf.statement_mail import statement_attachment
        from club.services import results_mail

        metrics.connect()  # hands saved, counted as they are committed

        results_mail.attach_to_results(statement_attachment)  # each player's statement, a PDF
        log_redaction.install()  # no token in the lines of loggers with handlers of their own
