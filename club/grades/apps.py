from django.apps import AppConfig


class GradesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "club.grades"
    label = "grades"
    verbose_name = "Grades: standings, the ladder and the Solo grade"

    def ready(self) -> None:
        from club.grades.services import grades

        grades.connect()  # a hand's save and delete keep the grades' backlog
