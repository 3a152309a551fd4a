from django.apps import AppConfig


class GradesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "club.grades"
    label = "grades"
    verbose_name = "Grades: standings, the ladder and the Solo grade"
