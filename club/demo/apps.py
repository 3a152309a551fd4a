from django.apps import AppConfig


class DemoConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "club.demo"
    label = "demo"
    verbose_name = "The demo club"
