from django.apps import AppConfig


class InterchangeConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "club.interchange"
    label = "interchange"
    verbose_name = "The club data file, in and out, and backups"
